"""A search guided by a known solution: other solutions next to it, or proof there are none
(the whole native search, only ordered, so a count stays exact). The programs run it after
each solution (``_program.solutions``; docs/engine.md, "Programs and counts"; 0032)."""

from __future__ import annotations

from collections.abc import Container, Generator

from gridsolve.nonogram.engine import _core
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, checked_grid
from gridsolve.nonogram.engine.results import seconds_left
from gridsolve.nonogram.model import Grid, Puzzle

__all__ = ["GUIDED_NODES", "Guided"]

#: Nodes one guided search may take, at most, counted from its restart (the walk down to the
#: solution it is guided by included).
GUIDED_NODES = 1000


class Guided:
    """The native search of one puzzle (within ``known``: cells every solution must have, as
    SAT's model was given them), restarted from its root for each solution it is guided by
    (``around``). The root is settled at the first call; if its time runs out first, the
    search is given up (a root too slow for its share would be again)."""

    def __init__(self, puzzle: Puzzle, known: Grid | None = None) -> None:
        self.puzzle = puzzle
        self.known = known
        self.core: _core.Search | None = None
        self.broken = False

    def _ready(self, deadline: float | None, max_work: int) -> bool:
        """The search, its root settled (True), or given up (False)."""
        if self.broken:
            return False
        if self.core is not None:
            return True
        core = _core.Search(self.puzzle.rows, self.puzzle.cols)
        if self.known is not None:
            core.fix("".join(self.known).encode())
        left = seconds_left(deadline)
        if left is not None and left <= 0:
            return False  # (a later call, with time, may settle it)
        core.next(1, -1.0 if left is None else left, max_work)
        if not core.stats()["root_complete"]:  # stopped by the clock or the work: cannot go on
            self.broken = True
            return False
        self.core = core
        return True

    def around(self, solution: Grid, seen: Container[Grid], deadline: float | None = None,
               max_nodes: int = GUIDED_NODES,
               max_work: int | None = None) -> Generator[Grid, None, bool]:
        """Yield the solutions other than ``solution`` and those ``seen`` that the search guided
        by ``solution`` meets within ``max_nodes`` nodes, by the ``deadline`` (the engine's own
        time limit, held within a node) and ``max_work`` line solves (the root's, the first
        time, included), past which the search stops for good, inside a node if need be: a
        root too costly for its share would be again. The generator's value (``return``) is
        True when the search was exhausted: then there are no solutions but ``solution``, those
        seen and those yielded."""
        work = -1
        if max_work is not None:  # (at least 1: the core reads 0 as no budget)
            work = max(1, max_work + (0 if self.core is None
                                      else self.core.stats()["line_solves"]))
        if not self._ready(deadline, work):
            return False
        core = self.core
        assert core is not None
        if not core.restart(0, "".join(solution).encode()):
            self.broken = True  # (a time limit stopped it: it cannot go on)
            return False
        cap = core.stats()["nodes"] + max_nodes
        while core.stats()["nodes"] < cap:
            left = seconds_left(deadline)
            if left is not None and left <= 0:
                return False
            code = core.next(cap, -1.0 if left is None else left, work)
            if code == _core.EXHAUSTED:
                return True
            if code == _core.SOLUTION:
                grid = checked_grid(BLACK_AND_WHITE, self.puzzle, core.grid())
                if grid != solution and grid not in seen:
                    yield grid
            elif core.stats()["timed_out"]:
                self.broken = True
                return False
        return False

