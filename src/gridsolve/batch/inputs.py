"""Files to tasks: find the puzzle files, count their puzzles, cut them into chunks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gridsolve.batch.rows import Row, resume_name
from gridsolve.batch.tasks import Options, Task, error_row, load
from gridsolve.nonogram.formats import EXTENSIONS

#: File suffixes taken when a directory is walked (any named file is always taken).
PUZZLE_SUFFIXES = EXTENSIONS


@dataclass(frozen=True)
class Found:
    """A file found by discovery: how many puzzles it holds, or the row saying why none."""

    path: str
    source: str
    count: int
    error: Row | None = None


def walk(paths: Iterable[str], skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """(absolute path, source) for each named file and each puzzle file under named folders
    (hidden ones and the absolute paths in ``skip``, such as the output file, left out)."""
    seen: set[str] = set()  # a file named twice (a folder and a file in it, x and ./x): once
    for name in paths:
        if os.path.isdir(name or "."):  # Path("") is "."
            from pathlib import Path  # here: a batch of named files does without it (start-up)
            p = Path(name)
            for sub in sorted(p.rglob("*")):
                rel = sub.relative_to(p)
                resolved = str(sub.resolve())
                if (sub.is_file() and sub.suffix.lower() in PUZZLE_SUFFIXES
                        and resolved not in skip and resolved not in seen
                        and not any(part.startswith(".") for part in rel.parts)):
                    seen.add(resolved)
                    yield resolved, str(sub)
        else:  # what Path(name).resolve() gives, when the file exists
            resolved = os.path.realpath(name) if os.path.exists(name) else name
            if resolved not in seen:
                seen.add(resolved)
                yield resolved, name


def discover(paths: Iterable[str], options: Options,
             skip: frozenset[str] = frozenset()) -> Iterator[Found]:
    """Count the puzzles of every file; where reading stops, an error row says why."""
    for path, source in walk(paths, skip):
        entries, why = load(path, source, options)
        if not why and not entries:
            why = f"{source}: no puzzle found"
        error = error_row(source, len(entries), why) if why else None
        yield Found(path, source, len(entries), error)


def keys(found: Iterable[Found]) -> Iterator[tuple[str, int]]:
    """The (source, index) of every row a batch over these files writes."""
    for f in found:
        name = resume_name(f.source)
        yield from ((name, i) for i in range(f.count))
        if f.error is not None:
            yield f.error.key


def plan(found: Iterable[Found], options: Options, chunk: int,
         done: frozenset[tuple[str, int]] = frozenset(),
         again: frozenset[tuple[str, int]] = frozenset()) -> Iterator[Task]:
    """Chunks of at most ``chunk`` not-yet-done puzzle indexes, file by file; the puzzles in
    ``again`` (a dead worker failed them before) in chunks of their own, marked."""
    for f in found:
        name = resume_name(f.source)
        todo = [i for i in range(f.count) if (name, i) not in done]
        for retry in (False, True):
            part = [i for i in todo if ((name, i) in again) == retry]
            for start in range(0, len(part), chunk):
                yield Task(f.path, f.source, tuple(part[start:start + chunk]), options, retry)


def auto_chunk(puzzles: int, slots: int, cap: int = 256) -> int:
    """Puzzles per task: about 16 tasks per worker slot, between 1 and ``cap``.

    Local pools pass a small cap (a task is cheap to send, and Ctrl-C loses at most the tasks
    in flight); a cluster keeps 256 so a scheduler never tracks millions of tasks."""
    return max(1, min(cap, puzzles // max(1, slots * 16)))
