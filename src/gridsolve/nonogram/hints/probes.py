"""The contradiction step: assume a cell, follow line logic, and find the probe refuted soonest."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import passed
from gridsolve.nonogram.hints.kinds import State
from gridsolve.nonogram.hints.position import Hint, _Position
from gridsolve.nonogram.lines import cell_label, line_label
from gridsolve.nonogram.model import Grid

#: Line solves (compiled) all probes of one hint may spend together before the hint says
#: the position needs a guess; the guess's words then say no *short* contradiction was found.
MAX_PROBE_SOLVES = 200_000
#: A contradiction's chain names at most this many lines, then "and N more".
CHAIN_SHOWN = 4


@dataclass(frozen=True)
class _Refuted:
    """A probe that ended in a line that cannot fit: the lines it changed on the way
    (``value``: the state assumed; ``actual``: the symbol that proves the cell is)."""

    cell: int
    value: State
    actual: str
    line: int
    chain: tuple[int, ...]
    solves: int


def _probe(pos: _Position, cell: int, value: State, actual: str, budget: int,
           until: float | None = None) -> _Refuted | bool:
    """Assume ``cell`` is ``value`` and follow line logic (first in, first out) for at most
    ``budget`` line solves (and until ``until``): the refutation, True at a fixpoint, False
    out of budget or time."""
    cells = list(pos.cells)
    cells[cell] = value
    out = _follow(pos, cells, pos.crossing(cell), budget, until)
    if isinstance(out, tuple):
        line, chain, solves = out
        return _Refuted(cell, value, actual, line, chain, solves)
    return out


def _follow(pos: _Position, cells: list[State], start: Sequence[int], budget: int,
            until: float | None = None) -> tuple[int, tuple[int, ...], int] | bool:
    """Line logic on ``cells`` from the lines ``start``, first in, first out, for at most
    ``budget`` line solves and until the clock passes ``until`` (each solve reads it):
    (the line that cannot fit, the lines changed on the way, the solves), True at a
    fixpoint, False out of budget or time."""
    queue = deque(start)
    queued = set(queue)
    chain: list[int] = []
    solves = 0
    while queue:
        if solves >= budget:
            return False
        i = queue.popleft()
        queued.discard(i)
        solves += 1
        before = pos.line(i, cells)
        try:
            after = pos.kind.solve(pos.clues[i], before, until)
        except LimitReached:
            return False
        if after is None:
            return i, tuple(chain), solves
        if after == before:
            continue
        chain.append(i)
        for c, a, b in zip(pos.lines[i], before, after):
            if a != b:
                cells[c] = b
                for j in pos.crossing(c):
                    if j != i and j not in queued:
                        queue.append(j)
                        queued.add(j)
    return True


def _contradiction(pos: _Position, solution: Grid | None, max_solves: int,
                   until: float | None = None) -> tuple[Hint | None, bool]:
    """The probe refuted in the fewest line solves (budgets doubling: 2, 4, 8, ...), unless
    ``max_solves`` or the clock (``until``) runs out first; and whether the clock did.

    With a unique solution only the wrong values of each cell can be refuted, so only they
    are tried (in colour: every colour but the solution's); otherwise each value is, taken
    away in turn (black and white: the other value assumed)."""
    if passed(until):
        return None, True
    flat = "".join(solution) if solution else None
    kind = pos.kind
    todo = [(c, assumed, actual) for c, x in enumerate(pos.cells) if not kind.known(x)
            for assumed, actual in kind.assumptions(x, flat[c] if flat else None)]
    budget, spent = 2, 0
    while todo and spent < max_solves:
        found: list[_Refuted] = []
        waiting = []
        for cell, value, actual in todo:
            if passed(until):
                return None, True
            out = _probe(pos, cell, value, actual, budget, until)
            spent += out.solves if isinstance(out, _Refuted) else budget
            if isinstance(out, _Refuted):
                found.append(out)
            elif out is False:
                waiting.append((cell, value, actual))
        if found:
            best = min(found, key=lambda r: (r.solves, r.cell))
            return _contradiction_hint(pos, best), False
        todo, budget = waiting, budget * 2
    return None, passed(until)


def _contradiction_hint(pos: _Position, r: _Refuted) -> Hint:
    """'if r7c3 were filled, column 3 (clue 2 1) could not fit, so r7c3 is empty'."""
    where = cell_label(pos.puzzle, r.cell)
    then = ""
    if r.chain:
        names = [line_label(pos.puzzle, i) for i in r.chain[:CHAIN_SHOWN]]
        more = len(r.chain) - CHAIN_SHOWN
        listed = ", ".join(names) + (f" and {more} more" if more > 0 else "")
        then = f", line logic on {listed} would follow, and"
    kind = pos.kind
    assumed = kind.assumed_word(pos.cells[r.cell], r.value)
    reason = (f"if {where} were {assumed}{then} {pos.name(r.line)} could not fit "
              f"its clue; so {where} is {kind.word(r.actual)}")
    return Hint("contradiction", reason, ((r.cell, r.actual),), r.line, pos.clues[r.line],
                probe=(r.cell, kind.symbols(r.value)))

