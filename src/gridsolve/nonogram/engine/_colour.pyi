"""Type stub of the compiled colour nonogram engine (_colour.c)."""

from collections.abc import Sequence
from typing import final

# what Search.next returns
SOLUTION: int
EXHAUSTED: int
LIMIT: int
# palette size limit (background included), and the byte grid()/root() give an unknown cell
MAX_COLOURS: int
NOT_KNOWN: int

@final
class Search:
    def __init__(self, rows: Sequence[Sequence[tuple[int, int]]],
                 cols: Sequence[Sequence[tuple[int, int]]], ncolours: int,
                 probing: bool = ...) -> None: ...
    def next(self, max_nodes: int = ..., timeout: float = ...) -> int: ...
    def grid(self) -> bytes: ...
    def root(self) -> bytes: ...
    def stats(self) -> dict[str, int]: ...

def solve_line(clue: Sequence[tuple[int, int]], masks: Sequence[int]) -> list[int] | None: ...
