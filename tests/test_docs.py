"""docs/ARCHITECTURE.md describes the code as it is: every path it names exists, and its layer
table is the one tests/test_layers.py enforces."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_layers import FAMILIES, LAYERS

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


def unit_path(unit: str) -> str:
    """Where a unit of LAYERS lives, as the document writes it (from src/gridsolve/)."""
    rel = unit.split(".")[1:]
    if not rel or unit in FAMILIES:
        return "/".join([*rel, "__init__.py"])
    base = REPO / "src" / "gridsolve" / "/".join(rel)
    return "/".join(rel) + ("/" if base.is_dir() else ".py")


def layer_table(text: str) -> set[tuple[int, str]]:
    """(layer, path) for every path in the rows of the document's layer table."""
    rows = re.findall(r"^\| (\d+) +\|(.*)\|$", text, re.M)
    return {(int(k), p) for k, rest in rows for p in PATHLIKE.findall(rest)}


def test_the_layer_table_is_test_layers() -> None:
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    want = {(k, unit_path(u)) for k, layer in enumerate(LAYERS) for u in layer}
    assert layer_table(text) == want
