"""Argument types shared by the commands: each refuses bad values with a sentence."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from gridsolve.numbers import is_number, shown

__all__ = ["whole", "positive_int", "natural", "seconds", "fraction"]


#: Digits an argument may have: any 64-bit value (seeds) fits.
MAX_ARG_DIGITS = 20


def whole(minimum: int) -> Callable[[str], int]:
    """A whole number of at least ``minimum``, in ASCII digits (int() would also take '١',
    '1_000' and thousands of digits)."""
    def parse(text: str) -> int:
        tok = text.strip()
        digits = tok[1:] if tok.startswith("-") else tok
        if not is_number(digits):
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
        if len(digits.lstrip("0")) > MAX_ARG_DIGITS:
            raise argparse.ArgumentTypeError(f"{shown(text)} is too large a number")
        n = int(tok)
        if n < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {n}")
        return n
    return parse


positive_int = whole(1)
natural = whole(0)


def _number(text: str) -> float:
    """A decimal number in ASCII (float() would also take '１.５' and '1_0')."""
    try:
        if not text.isascii() or "_" in text:
            raise ValueError(text)
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number") from None


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    x = _number(text)
    if not 0.0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return x


def fraction(text: str) -> float:
    """A number from 0 to 1 (a density)."""
    x = _number(text)
    if not 0.0 <= x <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return x
