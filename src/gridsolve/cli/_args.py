"""What the commands share: argument types that refuse bad values with a sentence, one-line
argument errors, text made safe for the terminal, file writing with one-line errors, and the
error of a listing cut short by its limit."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import NoReturn

from gridsolve import _startup
from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.numbers import is_number, shown

__all__ = ["output_file", "whole", "positive_int", "natural", "seconds", "fraction", "memory",
           "since_start", "time_left", "OneLineErrors", "printable", "write_file", "write_text",
           "listing_stopped", "did_you_mean"]


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


def output_file(text: str) -> str:
    """A picture's file name: not empty (an empty name was taken as no picture asked for),
    and not '-': standard output carries the command's text, and '-' made a file named '-'."""
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    if text == "-":
        raise argparse.ArgumentTypeError("'-' would be standard output, which carries the "
                                         "text answer: give a file name")
    return text


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


#: The --timeout of rate, check and explain when none is given: an answer (or what was found
#: so far) within half a minute, never a command that runs for ever.
DEFAULT_TIMEOUT = 30.0


def seconds_or_none(text: str) -> float | None:
    """A positive, finite number of seconds, or 'none' for no limit."""
    return None if text.strip().lower() == "none" else seconds(text)


def fraction(text: str) -> float:
    """A number from 0 to 1 (a density)."""
    x = _number(text)
    if not 0.0 <= x <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return x


_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory(text: str) -> int | None:
    """Bytes from a size such as 1.5G, 512M or 800 (megabytes); 'none' for no limit."""
    if text.strip().lower() == "none":
        return None
    t = text.strip().upper().removesuffix("B")
    unit = _UNITS["M"]
    if t[-1:] in _UNITS:
        t, unit = t[:-1], _UNITS[t[-1]]
    x = _number(t) * unit
    if not 1.0 <= x <= 2.0**60:
        raise argparse.ArgumentTypeError(f"must be a size such as 1.5G, 512M or 'none', "
                                          f"got {shown(text)}")
    return int(x)


def since_start() -> float:
    """Seconds since this process started (Linux; elsewhere 0), so that a --timeout bounds
    the whole process: interpreter start, imports and reading count too."""
    try:
        with open("/proc/self/stat", "rb") as f:
            ticks = int(f.read().rsplit(b")", 1)[1].split()[19])  # field 22: start time
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME)
                   - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def time_left(timeout: float | None) -> float | None:
    """What is left of a command's --timeout (None: no limit) when this process is the
    command line (the ``gridsolve`` command, or ``python -m gridsolve``): the time since it
    started is taken off, so the limit holds for the whole command. (A program that calls
    ``cli.main`` keeps the whole timeout: its process may have started long before.)"""
    if timeout is None or not _is_command_line():
        return timeout
    return max(0.0, timeout - since_start())


def _is_command_line() -> bool:
    """Is this process ``gridsolve`` or ``python -m gridsolve``?"""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return _startup.is_command() or getattr(spec, "name", None) == "gridsolve.__main__"


class OneLineErrors(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, ``PROG: error: MESSAGE``, exit code 2: no
    usage block before it (``--help`` still shows the usage); a misspelt choice (a command, a
    method) gets "did you mean ...?". A missing COMMAND (bare ``gridsolve``, or a family
    without its command) prints the help with the list of commands on standard output, and
    exits 2 all the same: nothing was done, and a script that left out a word must see it
    fail."""

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.splitlines())
        if message == "the following arguments are required: COMMAND":
            self.print_help(sys.stdout)  # bare ``gridsolve`` (or a family): the commands
            self.exit(2)
        m = re.search(_INVALID_CHOICE, message)
        if m:
            choices = re.findall(r"'([^']*)'", m.group(2)) or m.group(2).split(", ")
            message += did_you_mean(m.group(1), choices)
        self.exit(2, f"{self.prog}: error: {message}\n")


#: argparse's words for a value that is not one of the choices (3.11: 'a', 'b'; later: a, b).
#: These patterns are compiled when first used (by re's cache), not at every start (issue 56).
_INVALID_CHOICE = r"invalid choice: '(.*?)' \(choose from (.*)\)$"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """The words ' (did you mean "x"?)' naming the choices closest to a misspelt word
    (difflib), or "" when none is close."""
    import difflib
    close = difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


#: What ``printable`` escapes: C0 and C1 control characters (ESC, newline, tab, ...), the line
#: and paragraph separators, the bidirectional overrides and isolates (they reorder the rest of
#: the terminal line) and lone surrogates (which no terminal encoding can write).
_UNSAFE = ("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
           "\ud800-\udfff]")


def printable(text: str) -> str:
    """Text read from a file (a title, a colour name, a file name), fit for the terminal: each
    unsafe character shown as ``repr`` shows it ('\\n', '\\x1b', '\\u202e'), so that it can
    neither move the cursor, colour the screen nor start a line of its own."""
    return re.sub(_UNSAFE, lambda m: repr(m.group())[1:-1], text)


def listing_stopped(stopped: LimitReached, listed: int, what: str) -> LimitReached:
    """The error of a listing (``--all``) its limit cut short after ``listed`` of ``what``
    (a noun whose plural takes an s), printed after them: how many, or that there were none."""
    how = (f"after listing {listed} {what}{'' if listed == 1 else 's'}; there may be more"
           if listed else f"before any {what} was found")
    return LimitReached(f"{stopped} {how}", nodes=stopped.nodes)


def write_file(path: str, write: Callable[[str], object]) -> None:
    """Run a file writer on ``path``, turning an OS error into one line: 'cannot write PATH:
    why' (exit code 2, as every input error)."""
    try:
        write(path)
    except OSError as exc:
        raise GridsolveError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_text(path: str, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path``, '-' being standard output; one line on failure,
    and nothing created when the text holds what UTF-8 cannot encode (a lone surrogate)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start:exc.start + 1]
        raise GridsolveError(f"cannot write {path}: it would hold {printable(bad)}, which "
                             "UTF-8 cannot encode") from None
    if path == "-":
        sys.stdout.write(text)
        return

    def write(p: str) -> None:
        with open(p, "wb") as f:
            f.write(data)
    write_file(path, write)
