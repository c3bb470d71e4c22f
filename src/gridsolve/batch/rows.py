"""One puzzle's result row, what ``--resume`` keys it on, and running totals over rows."""

from __future__ import annotations

import dataclasses
import heapq
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

STATUSES = ("unique", "multiple", "none", "unknown", "error")


@dataclass(frozen=True)
class Row:
    """The result of one puzzle of a batch (one line of the output)."""

    source: str
    index: int
    label: str
    width: int
    height: int
    status: str
    seconds: float
    nodes: int
    solution_hash: str
    error: str

    @property
    def key(self) -> tuple[str, int]:
        """What ``--resume`` keys on: the file as named (``resume_name``) and the puzzle's
        place in it."""
        return (resume_name(self.source), self.index)


def resume_name(source: str) -> str:
    """A file's name as ``--resume`` keys on it: what UTF-8 cannot encode (a file name not in
    UTF-8, as Python reads it: a lone surrogate) is taken as the backslash escape a CSV
    output writes for it, so that both outputs match."""
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        return source.encode("utf-8", "backslashreplace").decode("utf-8")
    return source


FIELDS = tuple(f.name for f in dataclasses.fields(Row))


def comparable(row: Row) -> Row:
    """The row without its timing: equal rows mean the same answer from any runner."""
    return dataclasses.replace(row, seconds=0.0)


def _sha256() -> Callable[[bytes], Any]:
    """SHA-256 from CPython's own module (``_sha2``; ``_sha256`` before 3.12) where it has one:
    hashlib loads OpenSSL first, 4-8 ms of a batch's start-up (issue 56); the digest is the
    same."""
    for name in ("_sha2", "_sha256") if sys.version_info >= (3, 12) else ("_sha256",):
        try:
            return __import__(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            pass
    import hashlib
    return hashlib.sha256


_SHA256 = _sha256()


def solution_hash(grid: Sequence[str]) -> str:
    """First 16 hex digits of the sha256 of the grid's rows joined by newlines."""
    return str(_SHA256("\n".join(grid).encode()).hexdigest()[:16])


class Tally:
    """Running totals of a batch: counts by status, solver seconds, the slowest puzzles."""

    def __init__(self, keep: int = 5) -> None:
        self.counts: Counter[str] = Counter()
        self.seconds = 0.0
        self.keep = keep
        self._slow: list[tuple[float, int, Row]] = []

    def add(self, row: Row) -> None:
        """Count one row."""
        self.counts[row.status] += 1
        self.seconds += row.seconds
        item = (row.seconds, -sum(self.counts.values()), row)
        if len(self._slow) < self.keep:
            heapq.heappush(self._slow, item)
        else:
            heapq.heappushpop(self._slow, item)

    @property
    def total(self) -> int:
        """Rows counted."""
        return sum(self.counts.values())

    def slowest(self) -> list[Row]:
        """The slowest puzzles seen, slowest first."""
        return [row for _, _, row in sorted(self._slow, reverse=True)]
