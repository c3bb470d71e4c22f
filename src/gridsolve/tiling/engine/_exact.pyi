"""Type stub of the compiled tiling engine (_exact.c)."""

from collections.abc import Sequence
from typing import final

SOLUTION: int
EXHAUSTED: int
LIMIT: int
NOMEM: int
OVERFLOW: int
BUDGET: int
MAX_HOLES: int

@final
class Problem:
    def __init__(self, ncells: int, types: Sequence[tuple[int, int]],
                 placements: Sequence[tuple[int, int, bytes, int]], hole_sizes: Sequence[int],
                 neighbours: Sequence[tuple[int, int, int, int]], grid: bool = ...) -> None: ...
    def count(self, root: bytes, max_states: int = ..., timeout: float = ...,
              mem_limit: int = ..., modulus: int = ...) -> tuple[int, list[int] | None, int]: ...

@final
class Enum:
    def __init__(self, problem: Problem, root: bytes, mode: int = ...,
                 mem_limit: int = ..., timeout: float = ..., max_states: int = ...) -> None: ...
    def next(self, max_nodes: int = ..., timeout: float = ...) -> int: ...
    def solution(self) -> tuple[int, ...]: ...
    def nodes(self) -> int: ...
