"""One exception tree for everything gridsolve raises on purpose.

    GridsolveError                  base: catch this to catch them all
    ├── ParseError                  a file or text could not be read (file, line, why)
    │   └── MissingFile             no such file (also a FileNotFoundError, as callers expect)
    ├── InvalidPuzzle               a puzzle definition is inconsistent (clue too long, totals differ, ...)
    ├── SolverUnavailable           an optional backend is not installed (names the extra)
    └── LimitReached                a search hit its time or node limit (carries what is known)

"No solution" is never an exception: it is a result. Beside the tree, one warning:

    UserWarning
    └── InputWarning                input read by a safe guess (a repeated clue block read once)

Messages speak of the library, never of a front end's flags: an error that the caller can get
past by an option carries ``remedy``, the name of that library parameter (``"limits"``,
``"format"``, ``"index"``, ``"max_memory"``, ``"resume"``), and each front end words the advice its own way (the
CLI adds "use --no-limits to read it anyway").
"""

from __future__ import annotations

import errno
from typing import Any, Self

__all__ = ["GridsolveError", "ParseError", "MissingFile", "InvalidPuzzle", "SolverUnavailable",
           "LimitReached", "InputWarning"]


class GridsolveError(Exception):
    """Base of every error gridsolve raises on purpose."""

    #: The library parameter that gets past this error, if there is one (see above).
    remedy: str | None = None

    def with_remedy(self, remedy: str) -> Self:
        """This error, marked as one the caller's ``remedy`` option gets past (returns self)."""
        self.remedy = remedy
        return self


class ParseError(GridsolveError):
    """Input text that cannot be read: says where (file, line) and what is wrong."""

    def __init__(self, why: str, source: str | None = None, line: int | None = None) -> None:
        self.why = why
        self.source = source
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.why}"


class MissingFile(ParseError, FileNotFoundError):
    """A file that is not there: a ParseError (one tree; the CLI prints it on one line) that
    is also the FileNotFoundError a Python caller catches first."""

    def __init__(self, path: str, why: str = "No such file or directory") -> None:
        super().__init__(why, path)
        self.errno, self.strerror, self.filename = errno.ENOENT, why, path

    def __reduce__(self) -> tuple[Any, ...]:
        return MissingFile, (self.source, self.why)


class InvalidPuzzle(GridsolveError):
    """A puzzle definition that cannot have a solution by construction, or is malformed.

    ``where`` optionally names the offending line as ("row" | "column", index from 0), so a
    reader can point at the line of the file it came from.
    """

    def __init__(self, message: str, where: tuple[str, int] | None = None) -> None:
        self.where = where
        super().__init__(message)


class SolverUnavailable(GridsolveError):
    """An optional backend is missing; the message names the extra to install."""

    def __init__(self, what: str, extra: str) -> None:
        self.extra = extra
        super().__init__(f"{what} is not installed: pip install 'gridsolve[{extra}]'")


class LimitReached(GridsolveError):
    """A search stopped at its time or node limit before it could finish."""

    def __init__(self, message: str, partial: Any = None, nodes: int = 0) -> None:
        self.partial = partial
        self.nodes = nodes
        super().__init__(message)


class OutOfMemory(LimitReached):
    """A run stopped at the memory limit: an error of the whole search, where the time and
    node limits only end it ("unknown"). Under ``--jobs`` it ends that process's search only."""


class InputWarning(UserWarning):
    """Input that was read, but not as written: what was guessed, and where (file, line)."""
