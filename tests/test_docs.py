"""docs/ARCHITECTURE.md describes the code as it is: every path it names exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PATHLIKE = re.compile(r"`([\w./-]+)`")
SUFFIXES = (".py", ".pyi", ".c", ".h", ".md", ".toml")


def named_paths(text: str) -> list[str]:
    """The paths a document names in backquotes: with a '/' or a file suffix, and no
    placeholder (an all-capitals name such as NAME.py or cli/FAMILY.py)."""
    out = []
    for token in PATHLIKE.findall(text):
        if "/" not in token and not token.endswith(SUFFIXES):
            continue
        stem = Path(token.rstrip("/")).stem
        if stem.isupper() and stem.isalpha():
            continue
        out.append(token)
    return out


def missing(paths: list[str]) -> list[str]:
    """The paths found neither from the repository's root nor from src/gridsolve/."""
    return [p for p in paths
            if not any((base / p).exists() for base in (REPO, REPO / "src" / "gridsolve"))]


def test_architecture_names_only_paths_that_exist() -> None:
    paths = named_paths((REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert len(paths) > 40  # the map names the modules it describes
    assert missing(paths) == []


def test_a_wrong_path_is_caught() -> None:
    text = "`nonogram/engine/` and `nonogram/render.py`, `errors.py`, `cli/FAMILY.py`, `analyse`"
    assert named_paths(text) == ["nonogram/engine/", "nonogram/render.py", "errors.py"]
    assert missing(named_paths(text)) == ["nonogram/render.py"]
