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


DECISIONS = REPO / "docs" / "decisions"
STATUS = re.compile(r"^(current|(partly )?superseded by ((\d{4}|issue \d+)(, )?)+)$")
INDEX_ROW = re.compile(r"^\| \[([\w-]+)\]\(([\w.-]+)\) \| ([^|]+) \| [^|]+ \|$", re.M)


def index_rows() -> dict[str, str]:
    """Each record the index links to, with its status."""
    text = (DECISIONS / "README.md").read_text(encoding="utf-8")
    return {path: status.strip() for _, path, status in INDEX_ROW.findall(text)}


def test_every_decision_record_is_in_the_index_with_a_status() -> None:
    rows = index_rows()
    records = {p.name for p in DECISIONS.glob("*.md") if p.name != "README.md"}
    assert set(rows) == records
    assert len([r for r in records if r[:4].isdigit()]) >= 33
    for path, status in rows.items():
        assert STATUS.match(status), f"{path}: status {status!r}"
        for number in re.findall(r"\b\d{4}\b", status):
            assert any(r.startswith(number + "-") for r in records), f"{path}: no record {number}"


def test_a_superseded_record_says_so_at_its_top() -> None:
    for path, status in index_rows().items():
        if status != "current":
            top = (DECISIONS / path).read_text(encoding="utf-8").split("\n\n", 2)[1]
            assert "uperseded" in top, f"{path} is {status}, and its first paragraph does not say so"


CITED_FIELD = re.compile(r"`Policy\.(\w+)`")
CITED_NAME = re.compile(r"`((?:nonogram|tiling)\.[\w.]+\.[A-Za-z_]\w*)`")


def cited(pattern: re.Pattern[str]) -> set[str]:
    """What the documents under docs/ cite by the pattern."""
    return {name for doc in (REPO / "docs").rglob("*.md")
            for name in pattern.findall(doc.read_text(encoding="utf-8"))}


def test_the_policy_fields_cited_exist() -> None:
    import dataclasses

    from gridsolve.nonogram.policy import Policy

    fields = {f.name for f in dataclasses.fields(Policy)}
    names = cited(CITED_FIELD)
    assert len(names) > 20  # the engine notes and the decisions cite the numbers they explain
    assert sorted(names - fields) == []


def resolves(dotted: str) -> bool:
    """Whether ``gridsolve.DOTTED`` names a module, or something in one."""
    import importlib

    parts = f"gridsolve.{dotted}".split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


def test_the_names_cited_exist() -> None:
    names = cited(CITED_NAME)
    assert "nonogram.engine.team.TEAM_ORDERS" in names
    assert sorted(n for n in names if not resolves(n)) == []
    assert not resolves("nonogram.backends.auto.AUTO_NODES")  # a name the code no longer has


MAKE = re.compile(r"^    make ([\w-]+)")


def test_ci_runs_exactly_the_commands_of_the_readme() -> None:
    """.ci/run's make targets are those of the first command block of README.md's Development
    section, in the same order."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = readme.split("\n## Development\n", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    "))
    block = lines[start:next((i for i in range(start, len(lines)) if not lines[i].strip()),
                             len(lines))]
    listed = [m.group(1) for m in map(MAKE.match, block) if m]
    ci = re.findall(r"^make ([\w-]+)", (REPO / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    assert listed and listed == ci


def test_every_page_is_in_the_site_nav() -> None:
    """Each page of docs/ (the decision records are reached from their index) and each API
    page is in mkdocs.yml's nav, so the site shows it."""
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    pages = {p.relative_to(REPO / "docs").as_posix()
             for p in [*(REPO / "docs").glob("*.md"), *(REPO / "docs" / "api").glob("*.md")]}
    listed = set(re.findall(r"([\w/-]+\.md)$", nav, re.M))
    assert pages and pages <= listed
    assert listed - pages == {"index.md", "decisions/README.md"}  # README.md and the index


def test_the_format_table_names_every_format() -> None:
    from gridsolve.nonogram.formats import FORMATS

    text = (REPO / "docs" / "nonograms.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| (`[^|]*) \|", text, re.M)
    named = {name for cell in table for name in re.findall(r"`([\w-]+)`", cell)}
    assert sorted(set(FORMATS) - named) == []
