"""A search guided by a known solution: other solutions next to it, or proof there are none.

The native engine's depth-first search, restarted from its root with a solution as its
guide (``Search.restart(guide=...)``): it branches on the cells its rule picks, as always, but
tries the solution's value first. It walks straight down to that solution, with no failure
(the solution fits every line), and then backtracks from the bottom, so the grids it meets
next differ from the solution in the cells decided last: the solution's neighbourhood in
the search tree, which is what a solution-guided search for a second solution looks at.
When a puzzle's other solutions differ in a corner the local moves (``nearby``) do not
reach, it finds them in a few nodes (the survey's Thing: a second solution 22 nodes after
glucose-syrup's first, where a new glucose-syrup run took 10,080 conflicts, 0.34 s).

It is the whole search, only ordered: every solution it yields is checked against the clues,
and when it is exhausted the solutions it met are every solution there is (within
``known``), so a count stays exact. ``_program.solutions`` (Kissat, glucose-syrup, which
start anew for each solution) runs it after each solution's local moves, for a share of the
time the run that found the solution took (docs/decisions/0032).
"""

from __future__ import annotations

from collections.abc import Container, Generator

from gridsolve.nonogram.engine import _core
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, checked_grid
from gridsolve.nonogram.engine.results import seconds_left
from gridsolve.nonogram.model import Grid, Puzzle

__all__ = ["GUIDED_NODES", "guided"]

#: Nodes the guided search may take after the solution it is guided by, at most.
GUIDED_NODES = 1000


def guided(puzzle: Puzzle, solution: Grid, seen: Container[Grid], known: Grid | None = None,
           deadline: float | None = None, max_nodes: int = GUIDED_NODES
           ) -> Generator[Grid, None, bool]:
    """Yield the solutions other than ``solution`` and those ``seen`` that the search guided by
    ``solution`` meets within ``max_nodes`` nodes and the ``deadline`` (``known``: cells every
    solution must have, as SAT's model was given them). The generator's value (``return``) is
    True when the search was exhausted: then there are no solutions but ``solution``, those
    seen and those yielded."""
    core = _core.Search(puzzle.rows, puzzle.cols)
    if known is not None:
        core.fix("".join(known).encode())

    def step(nodes: int) -> int:
        left = seconds_left(deadline)
        if left is not None and left <= 0:
            return int(_core.LIMIT)
        return int(core.next(nodes, -1.0 if left is None else left))

    code = step(1)  # the root, settled
    cap = max_nodes
    if code == _core.LIMIT:
        if not core.restart(0, "".join(solution).encode()):
            return False  # stopped at the deadline
        cap += core.stats()["nodes"]
        code = step(cap)
    while True:
        if code == _core.EXHAUSTED:
            return True
        if code != _core.SOLUTION:
            return False
        grid = checked_grid(BLACK_AND_WHITE, puzzle, core.grid())
        if grid != solution and grid not in seen:
            yield grid
        code = step(cap)
