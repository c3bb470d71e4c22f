"""The guess step: no shorter step settles a cell, so show one cell of a fitting solution."""

from __future__ import annotations

from gridsolve.nonogram.hints.position import Hint, _Position, wrong_cells
from gridsolve.nonogram.lines import cell_label
from gridsolve.nonogram.model import Grid


#: What a guess says when the clock stopped the look at the lines, or at the probes (then a
#: step may exist); and when neither was stopped.
LATE = {"lines": "the time limit came before every line was tried for a step",
        "probes": "no single line settles a cell here, and the time limit came before a "
                  "contradiction was found",
        "": "no single line and no short contradiction settles a cell here: this position "
            "needs a guess"}


def _guess(pos: _Position, solutions: tuple[Grid, ...], status: str, late: str = "") -> Hint:
    """No line and no short contradiction settles a cell: say so (or that the time limit came
    first, ``late`` being "lines" or "probes": then a step may exist), and show one cell of a
    solution that agrees with the position (in the most constrained line) so play goes on."""
    base = LATE[late]
    fitting = [s for s in solutions if not wrong_cells(s, pos.symbols())]
    if not fitting:
        why = "the search stopped first" if status == "unknown" else "no solution found agrees"
        return Hint("guess", f"{base} ({why})")
    flat = "".join(fitting[0])
    known = [pos.unknowns(i) for i in range(len(pos.lines))]
    cell = min((c for c, x in enumerate(pos.cells) if not pos.kind.known(x)),
               key=lambda c: (min(known[i] for i in pos.crossing(c)), c))
    one = "the solution" if status == "unique" else "one of the solutions"
    return Hint("guess", f"{base}; {one} has {cell_label(pos.puzzle, cell)} "
                         f"{pos.kind.word(flat[cell])}", ((cell, flat[cell]),))

