"""Argument types shared by the commands: each refuses bad values with a sentence."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["whole", "positive_int", "natural", "seconds", "fraction"]


def whole(minimum: int) -> Callable[[str], int]:
    """A whole number of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {n}")
        return n
    return parse


positive_int = whole(1)
natural = whole(0)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


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
