"""``gridsolve serve``: arguments, the missing extra, and what it hands to uvicorn."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from gridsolve.cli import main


def test_serve_without_the_web_extra_names_it(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == ("gridsolve: error: starlette/uvicorn is not installed: "
                   "pip install 'gridsolve[web]'\n")


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "http"]) == 2
    assert "is not a port number" in capsys.readouterr().err


def test_serve_listens_on_loopback_and_prints_the_port(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    seen: dict[str, Any] = {}

    def run(server: Any, sockets: list[Any]) -> None:
        seen.update(app=server.config.app, address=sockets[0].getsockname())

    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert main(["serve", "--port", "0", "--budget", "3"]) == 0
    host, port = seen["address"]
    assert host == "127.0.0.1" and port > 0
    assert seen["app"].state.limits.budget == 3.0
    assert capsys.readouterr().out == f"gridsolve: serving on http://127.0.0.1:{port}/ (Ctrl-C stops)\n"


def test_serve_refuses_zero_solves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--solves", "0"]) == 2
    assert "from 1 to 64" in capsys.readouterr().err
