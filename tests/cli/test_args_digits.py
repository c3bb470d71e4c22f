"""Issue 21: command-line numbers take ASCII digits only (int() and float() took '١', '１.５',
'1_000' and thousands of digits)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import types

import pytest

from gridsolve.cli._args import natural, positive_int, seconds


@pytest.mark.parametrize("text", ["١", "１", "²", "1_000", "1" * 5000, "-", ""])
def test_whole_numbers(text: str) -> None:
    for kind in (natural, positive_int):
        with pytest.raises(argparse.ArgumentTypeError):
            kind(text)
    assert natural("0") == 0 and positive_int(" 12 ") == 12


@pytest.mark.parametrize("text", ["１.５", "٣", "1_0", "nan", "inf", "-1", "0"])
def test_seconds(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        seconds(text)
    assert seconds("1.5") == 1.5 and seconds("2e-1") == 0.2


def test_time_left_takes_off_the_command_s_age_only_in_the_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--timeout bounds the whole ``gridsolve`` process (start-up and reading count), but a
    program calling ``cli.main`` (this test process, started long ago) keeps all of it."""
    from gridsolve import _startup
    from gridsolve.cli import _args

    monkeypatch.setattr(_args, "since_start", lambda: 2.5)
    monkeypatch.setattr(_startup, "is_command", lambda: False)
    assert _args.time_left(10.0) == 10.0 and _args.time_left(None) is None
    monkeypatch.setattr(_startup, "is_command", lambda: True)
    assert _args.time_left(10.0) == 7.5 and _args.time_left(2.0) == 0.0
    assert _args.time_left(None) is None
    monkeypatch.setattr(_startup, "is_command", lambda: False)  # python -m gridsolve
    main = types.ModuleType("__main__")
    main.__spec__ = importlib.util.find_spec("gridsolve.__main__")
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert _args.time_left(10.0) == 7.5
