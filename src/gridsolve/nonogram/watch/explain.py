"""A human-readable account of how a puzzle is solved: line logic, then probing, in words.

Line logic runs in rounds (round 1: every row, then every column; later rounds: the lines
whose cells changed since they were last solved) until nothing changes. For each line step
the cells it forced are given with a reason:

    overlap   a block covers the cell in both its leftmost and rightmost placements
    reach     no block can reach the cell in any placement
    complete  the cell borders a run of filled cells that every block able to hold it matches
    gap       the cell's gap between empty cells is too short for every block that reaches it
    agree     (fallback) every arrangement of the clue that fits the known cells agrees

Extreme placements are computed by dynamic programming (not enumeration), after the classic
"simple boxes / simple spaces" rules. When line logic stalls, the cells the compiled engine
learned by probing are applied one at a time (each followed by line logic again); if even
that stalls, the account says the engine had to guess, and how it ended.

Lines are solved by the compiled line solver (the same lines as the plain-Python reference:
tests check both against brute force); the reasons are plain Python, in time and memory of
the line's cells times its blocks, so a line past REASONS_MAX_WORK gets the ``agree``
reason for every cell. A timeout bounds the whole account: past it the account stops where
it is (``Explanation.stopped``), in a line's compiled solve too.
"""

from __future__ import annotations

from collections.abc import Callable

from gridsolve.errors import LimitReached
from gridsolve.nonogram.lines import line_clue
from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, Clue, ColourPuzzle, Grid,
                                      Puzzle, is_solution)
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine import solve_line as fast_line
from gridsolve.nonogram.watch.deductions import (AGREE, REASONS_MAX_WORK, Deduction,
                                                 Explanation, Forced, Replay, block_name,
                                                 explainable, line_work, span)
from gridsolve.nonogram.watch.explain_colour import explain_colour
from gridsolve.nonogram.watch.trace import Step, trace_solve

__all__ = ["Forced", "Deduction", "Explanation", "explain", "line_reasons", "extremes",
           "line_work", "explainable", "REASONS_MAX_WORK", "AGREE"]


def extremes(clue: Clue, line: str) -> tuple[list[int], list[int]] | None:
    """Block starts of the leftmost and rightmost arrangements that fit the known cells."""
    left = _leftmost(clue, line)
    if left is None:
        return None
    rev = _leftmost(tuple(reversed(clue)), line[::-1])
    if rev is None:  # pragma: no cover - a line that fits one way fits the other
        return None
    n = len(line)
    right = [n - s - size for s, size in zip(reversed(rev), clue)]
    return left, right


def _leftmost(clue: Clue, line: str) -> list[int] | None:
    """Greedy leftmost placement, each block as early as a completion allows (fit[j][i]:
    blocks j.. fit in cells [i, n))."""
    n, k = len(line), len(clue)
    filled_after = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        filled_after[i] = filled_after[i + 1] + (line[i] == FILLED)
    empty_upto = [0] * (n + 1)
    for i in range(n):
        empty_upto[i + 1] = empty_upto[i] + (line[i] == EMPTY)

    def block_ok(s: int, size: int) -> bool:
        return s + size <= n and empty_upto[s + size] == empty_upto[s] \
            and (s + size == n or line[s + size] != FILLED) and (s == 0 or line[s - 1] != FILLED)

    fit = [[False] * (n + 2) for _ in range(k + 1)]
    for i in range(n + 2):
        fit[k][i] = i >= n or filled_after[i] == 0
    for j in range(k - 1, -1, -1):
        for i in range(n - 1, -1, -1):
            fit[j][i] = (line[i] != FILLED and fit[j][i + 1]) or \
                (block_ok(i, clue[j]) and fit[j + 1][min(n, i + clue[j] + 1)])
    if not fit[0][0]:
        return None
    starts, pos = [], 0
    for j, size in enumerate(clue):
        s = pos
        while not (block_ok(s, size) and fit[j + 1][min(n, s + size + 1)]):
            s += 1  # cell s is free to be empty (fit[j][s] guarantees a start exists)
        starts.append(s)
        pos = s + size + 1
    return starts




def line_reasons(clue: Clue, before: str, after: str) -> tuple[Forced, ...]:
    """Why each cell that ``after`` fixes (compared with ``before``) is forced (AGREE for
    every cell of a line past REASONS_MAX_WORK)."""
    if not explainable(clue, before):
        return tuple(Forced(i, b, AGREE) for i, (a, b) in enumerate(zip(before, after)) if a != b)
    ext = extremes(clue, before)
    out = []
    for i, (a, b) in enumerate(zip(before, after)):
        if a == b:
            continue
        reason = None
        if ext is not None:
            left, right = ext
            reason = _filled_reason(clue, left, right, i) if b == FILLED \
                else _empty_reason(clue, before, left, right, i)
        out.append(Forced(i, b, reason or AGREE))
    return tuple(out)


def _filled_reason(clue: Clue, left: list[int], right: list[int], i: int) -> str | None:
    """Overlap: a block covers cell i in both its extreme placements."""
    for j, size in enumerate(clue):
        if right[j] <= i < left[j] + size:
            return (f"{block_name(j, len(clue))} ({size}) covers it in both its leftmost "
                    f"({span(left[j], size)}) and rightmost ({span(right[j], size)}) placements")
    return None


def _empty_reason(clue: Clue, line: str, left: list[int], right: list[int], i: int) -> str | None:
    """Reach, a complete block beside it, or a gap too short for any block that reaches it."""
    reaching = [j for j, size in enumerate(clue) if left[j] <= i < right[j] + size]
    if not reaching:
        reach = ", ".join(span(left[j], right[j] + size - left[j]) for j, size in enumerate(clue))
        return "no block can reach it" + (f" (the blocks can only cover {reach})"
                                          if clue else " (the clue is 0)")
    for side in (-1, 1):
        a = b = i + side
        if not 0 <= a < len(line) or line[a] != FILLED:
            continue
        while a - 1 >= 0 and line[a - 1] == FILLED:
            a -= 1
        while b + 1 < len(line) and line[b + 1] == FILLED:
            b += 1
        run = b - a + 1
        owners = {clue[j] for j, size in enumerate(clue)
                  if left[j] <= a and b < right[j] + size and size >= run}
        if owners == {run}:
            cells = f"cell {a + 1}" if run == 1 else f"cells {span(a, run)}"
            return (f"it borders the filled {cells}, already a whole block "
                    f"(every block that can hold {'it' if run == 1 else 'them'} is {run} long)")
    a = b = i
    while a - 1 >= 0 and line[a - 1] != EMPTY:
        a -= 1
    while b + 1 < len(line) and line[b + 1] != EMPTY:
        b += 1
    if all(clue[j] > b - a + 1 for j in reaching):
        return (f"the gap {span(a, b - a + 1)} is too short for every block that can reach it "
                f"({', '.join(str(clue[j]) for j in reaching)})")
    return None


class _Solver(Replay[str]):
    """The replayed grid and the rounds of line logic over it."""

    puzzle: Puzzle

    def __init__(self, puzzle: Puzzle, account: Explanation, until: float | None,
                 on_step: Callable[[Deduction], object] | None = None) -> None:
        super().__init__(puzzle, account, until, on_step, UNKNOWN)

    def line_logic(self) -> bool:
        """Rounds of line solving until nothing changes; False on a contradiction. When the
        clock passes ``until`` (before a line's solve, or during it) the rounds stop and the
        account is marked ``stopped``."""
        while self.dirty:
            number = self.round + 1  # rounds that change nothing are not counted
            todo, self.dirty = sorted(self.dirty), set()
            for line in todo:
                where = self.lines[line]
                before = "".join(self.cells[i] for i in where)
                clue = line_clue(self.puzzle, line)
                try:
                    after = fast_line(clue, before, until=self.until)
                except LimitReached:
                    self.account.stopped = True
                    return True
                if after is None:
                    self.round = number
                    self.add(Deduction("contradiction", number, line, before))
                    return False
                if after != before:
                    self.round = number
                    self.add(Deduction("line", number, line, before, after,
                                       line_reasons(clue, before, after)))
                    for pos, (a, b) in enumerate(zip(before, after)):
                        if a != b:
                            self.set(where[pos], b)
        return True

    def grid(self) -> Grid:
        w = self.puzzle.width
        return tuple("".join(self.cells[i:i + w]) for i in range(0, len(self.cells), w))


class _RootSteps:
    """A trace listener keeping the steps before the first guess and counting the guesses."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.guesses = 0

    def __call__(self, step: Step) -> None:
        if step.kind == "guess":
            self.guesses += 1
        elif not self.guesses:
            self.steps.append(step)


def explain(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits(),
            on_step: Callable[[Deduction], object] | None = None) -> Explanation:
    """The account of a solve: line logic first, then what probing (or search) was needed.

    ``limits`` bound the engine's search, which only runs when line logic stalls, and their
    timeout the whole account (``Explanation.stopped`` when it came first). ``on_step`` is
    given each deduction as it is made (so that a caller can write it out at once: what was
    written stays when a limit or Ctrl-C comes). A colour puzzle's account is
    ``explain_colour``'s."""
    if isinstance(puzzle, ColourPuzzle):
        return explain_colour(puzzle, limits, on_step)
    until = limits.deadline()
    account = Explanation(puzzle)
    solver = _Solver(puzzle, account, until, on_step)
    ok = solver.line_logic()
    if account.stopped:
        return _stopped(account, solver)
    account.line_solvable = ok and UNKNOWN not in solver.cells
    if ok and UNKNOWN in solver.cells:
        root = _RootSteps()
        result, _ = trace_solve(puzzle, 2, limits.until(until), max_steps=0, listener=root)
        account.status, account.solutions = result.status, result.solutions
        probed, refuted = -1, False
        for step in root.steps:
            if step.kind == "retract":
                probed, refuted = step.cell, step.contradiction
            elif step.kind == "learn" and solver.cells[step.cell] == UNKNOWN:
                solver.add(Deduction(
                    "probe", solver.round, cell=step.cell, value=step.value,
                    contradiction=refuted and probed == step.cell, probed=probed))
                solver.set(step.cell, step.value)
                ok = solver.line_logic()
                if not ok or account.stopped:
                    break
        account.guesses = root.guesses
        if account.stopped:
            return _stopped(account, solver)
    account.grid = solver.grid()
    if not account.status:
        account.status = "unique" if ok and is_solution(puzzle, account.grid) else "none"
        account.solutions = (account.grid,) if account.status == "unique" else ()
    return account


def _stopped(account: Explanation, solver: _Solver) -> Explanation:
    """The account as far as it got when the timeout came."""
    account.grid = solver.grid()
    account.status, account.solutions = "unknown", ()
    return account
