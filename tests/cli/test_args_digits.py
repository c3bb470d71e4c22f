"""Issue 21: command-line numbers take ASCII digits only (int() and float() took '١', '１.５',
'1_000' and thousands of digits)."""

from __future__ import annotations

import argparse

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
