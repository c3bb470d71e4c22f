"""Type stub of the compiled nonogram engine (_core.c)."""

from collections.abc import Callable, Sequence
from typing import final

# what Search.next returns
SOLUTION: int
EXHAUSTED: int
LIMIT: int
# implication probing covers puzzles of at most this many cells; lines of at most BITS_MAX
# cells are solved bit-parallel
IMPL_MAX_CELLS: int
BITS_MAX: int
# cell values (bit masks: UNKNOWN = EMPTY | FILLED), as events report them
CELL_EMPTY: int
CELL_FILLED: int
CELL_UNKNOWN: int
# branching rules, Search's ``order`` (see NG_ORDER_* in core.h)
ORDER_LOOSE: int
ORDER_TIGHT: int
ORDER_LIKELY: int
ORDER_SURE: int
ORDER_PROMISE: int
ORDER_BP: int
# event kinds, the first argument of Search's ``callback`` (see EV_* in core.h)
EV_LINE: int
EV_PROBE: int
EV_PROBE_FIX: int
EV_GUESS: int
EV_BACKTRACK: int
EV_SOLUTION: int
EV_TRY: int

@final
class Search:
    def __init__(self, rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]],
                 probing: bool = ...,
                 callback: Callable[[int, int, int, int, tuple[int, ...]], None] | None = ...,
                 implications: bool = ..., order: int = ..., weights: bool = ...,
                 nogoods: bool = ..., root_implications: bool = ...,
                 probe_share: float = ...) -> None: ...
    def next(self, max_nodes: int = ..., timeout: float = ..., max_work: int = ...) -> int: ...
    def fix(self, cells: bytes, /) -> None: ...
    def restart(self, seed: int = ..., guide: bytes | None = ...) -> bool: ...
    def grid(self) -> bytes: ...
    def root(self) -> bytes: ...
    def root_implications(self) -> bytes: ...
    def stats(self) -> dict[str, int]: ...

def solve_line(clue: Sequence[int], line: bytes, bits: bool = ...,
               banded: bool = ..., timeout: float = ...) -> bytes | None: ...
def line_marginals(clue: Sequence[int], probs: Sequence[float]) -> tuple[float, ...] | None: ...
def line_shares(clue: Sequence[int], line: bytes) -> tuple[float, ...] | None: ...

