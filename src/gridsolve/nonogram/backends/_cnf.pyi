"""Type stub of the SAT models' compiled parts (_cnf.c)."""

from collections.abc import Sequence
from typing import Literal, overload

def implication_pairs(records: bytes, open: bytes | None) -> list[list[int]]: ...
@overload
def order_line(clue: Sequence[int], n: int, cell0: int, step: int, top: int,
               text: Literal[False]) -> list[list[int]]: ...
@overload
def order_line(clue: Sequence[int], n: int, cell0: int, step: int, top: int,
               text: Literal[True]) -> str: ...
