"""Tiny stand-in readers for the benchmark corpora (tournament ``$n``, GLPK ``.dat``, Kyle Keen v2).

To be replaced by ``gridsolve.nonogram.formats.iter_entries`` once the formats branch is
merged; only what the benchmark needs, no error reporting beyond the model's own checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from gridsolve.nonogram.model import Puzzle

__all__ = ["read_tournament", "read_glpk_dat", "read_keen"]


def read_tournament(path: Path, limit: int | None = None) -> Iterator[Puzzle]:
    """Tournament sets: ``$n``, then 25 column-clue lines and 25 row-clue lines (TAB-separated)."""
    entries: list[tuple[str, list[tuple[int, ...]]]] = []
    for line in path.read_text().splitlines():
        if line.startswith("$"):
            if limit is not None and len(entries) >= limit:
                break
            entries.append((line[1:].strip(), []))
        elif entries:
            entries[-1][1].append(tuple(int(x) for x in line.split("\t") if x.strip()))
    for name, clues in entries[:limit]:
        yield Puzzle(clues[25:50], clues[:25], title=f"{path.stem} ${name}")


def _dat_table(text: str, name: str, count: int) -> list[tuple[int, ...]]:
    """One ``param NAME : 1 2 .. := i v v .. ;`` table ('.' = no block) as clues 1..count."""
    body = re.search(rf"param\s+{name}\s*:(.*?):=(.*?);", text, re.S)
    if body is None:
        raise ValueError(f"no 'param {name}' table")
    clues: list[tuple[int, ...]] = [() for _ in range(count)]
    for line in body.group(2).strip().splitlines():
        index, *values = line.split()
        clues[int(index) - 1] = tuple(int(v) for v in values if v != ".")
    return clues


def read_glpk_dat(path: Path) -> Puzzle:
    """A GLPK MathProg ``.dat`` nonogram: ``param m`` rows, ``param n`` columns, two tables."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    m = int(re.search(r"param\s+m\s*:=\s*(\d+)", text).group(1))  # type: ignore[union-attr]
    n = int(re.search(r"param\s+n\s*:=\s*(\d+)", text).group(1))  # type: ignore[union-attr]
    return Puzzle(_dat_table(text, "row", m), _dat_table(text, "col", n), title=path.stem)


def read_keen(path: Path) -> Puzzle:
    """Kyle Keen's v2 text: row clues, one blank line, column clues (space-separated)."""
    rows_text, cols_text = path.read_text().strip().split("\n\n", 1)

    def clues(block: str) -> list[tuple[int, ...]]:
        return [tuple(int(v) for v in line.split() if v != "0") for line in block.splitlines()]

    return Puzzle(clues(rows_text), clues(cols_text), title=path.stem)
