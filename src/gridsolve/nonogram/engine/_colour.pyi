"""Type stub of the compiled colour nonogram engine (_colour.c)."""

from collections.abc import Callable, Sequence
from typing import final

# what Search.next returns
SOLUTION: int
EXHAUSTED: int
LIMIT: int
# palette size limit (background included), and the byte grid()/root() give an unknown cell
MAX_COLOURS: int
NOT_KNOWN: int
# branching rules (Search's order): the probes' ranking, belief propagation (the dive), or
# the probes times the lines' conflict weights over the colours left (dom/wdeg)
ORDER_PROBES: int
ORDER_BP: int
ORDER_WDEG: int
# the kinds of events a watched search reports (colour.h; the numbers of _core's)
EV_LINE: int
EV_PROBE: int
EV_PROBE_FIX: int
EV_GUESS: int
EV_BACKTRACK: int
EV_SOLUTION: int
EV_TRY: int

@final
class Search:
    def __init__(self, rows: Sequence[Sequence[tuple[int, int]]],
                 cols: Sequence[Sequence[tuple[int, int]]], ncolours: int,
                 probing: bool = ..., root_implications: bool = ...,
                 callback: Callable[[int, int, int, int, tuple[int, ...]], None] | None = ...,
                 *, order: int = ..., probe_share: float = ..., nogoods: bool = ...,
                 implications: bool = ...) -> None: ...
    def next(self, max_nodes: int = ..., timeout: float = ..., max_work: int = ...,
             pause_work: int = ..., pause_fails: int = ...) -> int: ...
    def restart(self, seed: int = ..., *, order: int = ...) -> bool: ...
    def grid(self) -> bytes: ...
    def root(self) -> bytes: ...
    def root_masks(self) -> bytes: ...
    def root_implications(self) -> bytes: ...
    def fix(self, masks: bytes, /, *, implied: bool = ..., settled: bool = ...) -> None: ...
    def stats(self) -> dict[str, int]: ...

def solve_line(clue: Sequence[tuple[int, int]], masks: Sequence[int]) -> list[int] | None: ...
def line_marginals(clue: Sequence[tuple[int, int]], ncolours: int,
                   priors: Sequence[Sequence[float]]) -> list[list[float]] | None: ...
