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


def test_serve_runs_uvicorn_on_loopback_by_default(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    assert main(["serve", "--port", "8123", "--budget", "3"]) == 0
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8123)
    assert seen["app"].state.limits.budget == 3.0
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out
