"""The import rules of docs/ARCHITECTURE.md, read from the source with ``ast`` (nothing imported).

1. No circle: no module reaches itself through imports (lazy and TYPE_CHECKING ones count).
2. No import from a higher layer: each module belongs to one unit of ``LAYERS``; a unit
   imports only units of strictly lower layers (inside a unit, modules import freely).
3. No sibling's private module: ``pkg._x`` is imported only by ``pkg`` and modules inside it.

The checks are plain functions over an import graph, so the last tests can feed them graphs
that break each rule and see them fail.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator, Mapping, Set as AbstractSet
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: The layers, lowest first. A unit is a module or a package (with everything inside it).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("gridsolve.errors", "gridsolve._startup"),
    ("gridsolve.numbers", "gridsolve.workers", "gridsolve.nonogram.model", "gridsolve.tiling.model",
     "gridsolve.nonogram.policy", "gridsolve.interrupt", "gridsolve.cores"),
    ("gridsolve.nonogram.lines", "gridsolve.nonogram.reference",
     "gridsolve.nonogram.reference_colour", "gridsolve.tiling.engine", "gridsolve.tiling.render",
     "gridsolve.tiling.reference"),
    ("gridsolve.nonogram.engine", "gridsolve.nonogram.render", "gridsolve.nonogram.image",
     "gridsolve.tiling.formats", "gridsolve.tiling.symmetry"),
    ("gridsolve.nonogram.backends", "gridsolve.nonogram.check", "gridsolve.nonogram.rate",
     "gridsolve.tiling.presets", "gridsolve.notebook"),
    ("gridsolve.nonogram.generate", "gridsolve.nonogram.watch", "gridsolve.tiling.calendar"),
    # files: the only place that reads messy input; nothing below it knows of files
    ("gridsolve.nonogram.formats", "gridsolve.nonogram.hints", "gridsolve.tiling.heatmap",
     "gridsolve.tiling.design", "gridsolve.nonogram.generate_colour"),
    ("gridsolve", "gridsolve.batch", "gridsolve.nonogram", "gridsolve.tiling"),
    ("gridsolve.web",),
    ("gridsolve.cli",),
    ("gridsolve.__main__",),
)

#: Units that are the package's ``__init__`` only: each module inside has a unit of its own.
FAMILIES = {"gridsolve", "gridsolve.nonogram", "gridsolve.tiling"}

Graph = Mapping[str, AbstractSet[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _known() -> set[str]:
    """Every module name, the C extensions (known by their ``.pyi`` stubs) too."""
    return {module_name(p) for p in SRC.rglob("*.py*") if p.suffix in (".py", ".pyi")}


def imports_of(path: Path, name: str, known: set[str]) -> Iterator[str]:
    """The gridsolve modules ``path`` imports: ``from pkg import sub`` counts as pkg.sub."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "gridsolve")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the package
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            if base.split(".")[0] != "gridsolve":
                continue
            subs = [f"{base}.{a.name}" for a in node.names]
            found = [s for s in subs if s in known]
            yield from found
            if len(found) < len(subs):
                yield base


@functools.cache  # (read once for the checks below: parsing every module takes about 1 s)
def import_graph() -> Graph:
    mods = _modules()
    known = _known()
    return {name: frozenset(imports_of(path, name, known)) - {name} for name, path in mods.items()}


def unit_of(name: str) -> str | None:
    """The unit of ``LAYERS`` holding ``name`` (the longest that is it or a package above it)."""
    units = [u for layer in LAYERS for u in layer
             if name == u or (name.startswith(u + ".") and u not in FAMILIES)]
    return max(units, key=len, default=None)


def layer_of(unit: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if unit in layer)


def circles(graph: Graph) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def upward(graph: Graph) -> list[str]:
    """Imports of a unit in the same or a higher layer than the importer's unit."""
    bad = []
    for src, deps in sorted(graph.items()):
        a = unit_of(src)
        for dep in sorted(deps):
            b = unit_of(dep)
            if a and b and a != b and layer_of(b) >= layer_of(a):
                bad.append(f"{src} (layer {layer_of(a)}) imports {dep} (layer {layer_of(b)})")
    return bad


def private(graph: Graph) -> list[str]:
    """Imports of ``pkg._x`` (or anything inside it) from outside ``pkg``."""
    bad = []
    for src, deps in sorted(graph.items()):
        for dep in sorted(deps):
            parts = dep.split(".")
            for i, part in enumerate(parts):
                if part.startswith("_") and not part.startswith("__"):
                    owner = ".".join(parts[:i])
                    if src != owner and not src.startswith(owner + "."):
                        bad.append(f"{src} imports {dep}, private to {owner}")
                    break
    return bad


def test_every_module_has_a_layer() -> None:
    missing = [m for m in _modules() if unit_of(m) is None]
    assert not missing, f"add these modules to LAYERS in {__file__}: {missing}"


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_no_import_from_a_higher_layer() -> None:
    assert upward(import_graph()) == []


def test_no_import_of_a_siblings_private_module() -> None:
    assert private(import_graph()) == []


def test_the_graph_is_read_right() -> None:
    graph = import_graph()
    # ``from gridsolve.nonogram.formats import keen`` is the module, not the package
    assert "gridsolve.nonogram.formats.keen" in graph["gridsolve.nonogram.formats.text"]
    assert "gridsolve.nonogram.formats" not in graph["gridsolve.nonogram.formats.text"]
    # a lazy import inside a function counts
    assert "gridsolve.web.api" in graph["gridsolve.web.app"]
    assert "gridsolve.nonogram.engine._core" in graph["gridsolve.nonogram.engine.cores"]
    # a new module of a family is in no layer until someone places it
    assert unit_of("gridsolve.nonogram.new") is None and unit_of("gridsolve.new") is None
    assert unit_of("gridsolve.nonogram.formats.new") == "gridsolve.nonogram.formats"


@pytest.mark.parametrize("graph, check, want", [
    ({"gridsolve.web.app": {"gridsolve.web.api"}, "gridsolve.web.api": {"gridsolve.web.app"}},
     circles, [["gridsolve.web.api", "gridsolve.web.app"]]),
    ({"gridsolve.nonogram.render.svg": {"gridsolve.nonogram.watch.trace"}}, upward,
     ["gridsolve.nonogram.render.svg (layer 3) imports gridsolve.nonogram.watch.trace (layer 5)"]),
    ({"gridsolve.nonogram.check": {"gridsolve.nonogram.formats"}}, upward,
     ["gridsolve.nonogram.check (layer 4) imports gridsolve.nonogram.formats (layer 6)"]),
    ({"gridsolve.nonogram.check": {"gridsolve.nonogram.rate"}}, upward,
     ["gridsolve.nonogram.check (layer 4) imports gridsolve.nonogram.rate (layer 4)"]),
    ({"gridsolve.nonogram.model": {"gridsolve.errors"}}, upward, []),
    ({"gridsolve.batch": {"gridsolve.nonogram.formats._common"}}, private,
     ["gridsolve.batch imports gridsolve.nonogram.formats._common, "
      "private to gridsolve.nonogram.formats"]),
    ({"gridsolve.nonogram.formats.text": {"gridsolve.nonogram.formats._common"}}, private, []),
])
def test_the_checks_can_fail(graph: dict[str, set[str]], check: Callable[[Graph], list[object]],
                             want: list[object]) -> None:
    assert check(graph) == want


FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def flags_named(text: str, name: str) -> list[str]:
    """The CLI flags a module's string literals name (docstrings aside: they may say which
    flag a feature serves)."""
    tree = ast.parse(text)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    return [f"{name}:{n.lineno}: {m}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
            for m in FLAG.findall(n.value)]


#: Options of programs the library runs (not gridsolve's flags), by module.
PROGRAM_OPTIONS = {"gridsolve/nonogram/backends/kissat.py": {"--conflicts", "--seed"}}


def test_library_messages_name_no_cli_flag() -> None:
    """Only cli/ speaks of flags; the library marks an error with ``remedy`` instead."""
    named = [f for p in sorted((SRC / "gridsolve").rglob("*.py"))
             if p.relative_to(SRC / "gridsolve").parts[0] != "cli"
             for f in flags_named(p.read_text(encoding="utf-8"), str(p.relative_to(SRC)))
             if f.rsplit(": ", 1)[1] not in PROGRAM_OPTIONS.get(f.split(":")[0], ())]
    assert named == []


def test_a_named_flag_is_caught() -> None:
    text = '"""Doc: --steps is fine here."""\nMSG = "use --no-limits"\nx = a--b\n'
    assert flags_named(text, "m.py") == ["m.py:2: --no-limits"]
