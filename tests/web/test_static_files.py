"""The page's own files: every file of web/static is served, every module a script imports is
one of them, and each stays under the project's 500 lines (issue 55 split play.js)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.web import create_app  # noqa: E402

STATIC = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "web" / "static"
IMPORT = re.compile(r'^import [^;]* from "\./([\w.]+)";$', re.M)
SOURCES = sorted(p for p in STATIC.iterdir() if p.suffix in (".js", ".html", ".css"))


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app()) as c:
        yield c


def test_every_static_file_is_served(client: Any) -> None:
    for path in sorted(STATIC.iterdir()):
        name = "" if path.name == "index.html" else path.name
        res = client.get(f"/{name}")
        assert res.status_code == 200, path.name
        assert res.content == path.read_bytes(), path.name


def test_every_imported_module_is_a_static_file() -> None:
    names = {p.name for p in STATIC.iterdir()}
    imported = {m for p in SOURCES if p.suffix == ".js" for m in IMPORT.findall(p.read_text())}
    assert {"play_colour.js", "play_state.js", "board.js"} <= imported
    assert imported <= names


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_each_page_source_is_under_500_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) < 500
