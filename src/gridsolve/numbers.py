"""Whole numbers read from text: ASCII digits only, and never more than a few of them.

Every reader of numbers in files, dates, command lines and web requests goes through here,
because Python's own tests are too generous for input: ``str.isdigit()`` accepts '²', which
``int()`` then refuses with a traceback, and ``int()`` and the regex ``\\d`` accept fullwidth
'１' and Arabic-Indic '١' as clue numbers; ``int()`` of more than 4,300 digits raises. So:

    is_number(tok)                  ASCII digits 0-9 only (str.isdigit and \\d say more)
    read_number(tok, what, source, line)   the int, or a ParseError naming file and line
    NUMBER, number_pattern(n)       the regex of one such number, to use instead of \\d+
    load_json(text, source)         json.loads, with int length and nesting as ParseErrors
    text_lines(text)                the lines as an editor shows them (LF, CRLF, CR only)

``MAX_DIGITS`` caps the significant digits of a number in a puzzle file: no clue, size or
count of a puzzle this library can hold needs more (the engines take sides below 10^9).
"""

from __future__ import annotations

from typing import Any

from gridsolve.errors import ParseError

__all__ = ["MAX_DIGITS", "MAX_JSON_DIGITS", "NUMBER", "is_number", "read_number",
           "number_pattern", "shown", "load_json", "text_lines"]

#: Significant digits a number in a puzzle file may have (clues, sizes, counts).
MAX_DIGITS = 9
#: Digits a JSON integer may have: any 64-bit value (seeds) fits; clues are checked later.
MAX_JSON_DIGITS = 20
#: One number as a regex (use it instead of ``\d+``, which also matches '１' and '١').
NUMBER = r"[0-9]+"


def shown(token: str, most: int = 20) -> str:
    """A token as an error message quotes it: repr, cut after ``most`` characters."""
    return repr(token if len(token) <= most else token[:most] + "...")


def is_number(token: str) -> bool:
    """Is it a whole number written in ASCII digits only (not '²', '１' or '١')?"""
    return token.isascii() and token.isdigit()


def read_number(token: str, what: str = "", source: str | None = None,
                line: int | None = None, max_digits: int = MAX_DIGITS) -> int:
    """The non-negative whole number ``token`` writes (spaces around it allowed), or a
    ParseError at ``source``:``line`` saying what is wrong; ``what`` names the number
    (e.g. "the width") in that message."""
    tok = token.strip()
    head = f"{what}: " if what else ""
    if not is_number(tok):
        hint = " (digits are 0-9)" if any(c.isdigit() for c in tok) else ""
        raise ParseError(f"{head}{shown(tok)} is not a number{hint}", source, line)
    digits = tok.lstrip("0") or "0"
    if len(digits) > max_digits:
        raise ParseError(f"{head}{shown(tok)} is too large a number (more than {max_digits} "
                         "digits)", source, line)
    return int(digits)


class _LongNumber(ValueError):
    """A JSON integer with more than MAX_JSON_DIGITS digits (raised inside json.loads)."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-").lstrip("0")) > MAX_JSON_DIGITS:
        raise _LongNumber(text)
    return int(text)


def _line_of(text: str | bytes, needle: str) -> int:
    """The 1-based line where ``needle`` first occurs in ``text`` (1 if it does not)."""
    if isinstance(text, bytes):
        return text[:max(text.find(needle.encode()), 0)].count(b"\n") + 1
    return text[:max(text.find(needle), 0)].count("\n") + 1


def load_json(text: str | bytes, source: str | None = None) -> Any:
    """``json.loads`` whose every failure is a one-line ParseError: bad syntax (with its line),
    an integer over ``MAX_JSON_DIGITS`` digits, nesting too deep for the parser."""
    import json  # here: every command imports this module, few read JSON
    try:
        return json.loads(text, parse_int=_json_int)
    except _LongNumber as exc:
        number = str(exc.args[0])
        raise ParseError(f"invalid JSON: a number with more than {MAX_JSON_DIGITS} digits "
                         f"({shown(number)})", source, _line_of(text, number)) from None
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg} (column {exc.colno})", source,
                         exc.lineno) from None
    except RecursionError:
        raise ParseError("invalid JSON: nested too deeply", source) from None
    except (UnicodeDecodeError, ValueError) as exc:  # bytes that are not UTF-8; anything else
        raise ParseError(f"invalid JSON: {exc}", source) from None


def number_pattern(max_digits: int = MAX_DIGITS) -> str:
    """A regex of one ASCII number of at most ``max_digits`` digits."""
    return rf"[0-9]{{1,{max_digits}}}"



def text_lines(text: str) -> list[str]:
    """The lines of a text as an editor numbers them: split at LF, CRLF or CR only. Not
    ``str.splitlines``, which also splits at form feeds, vertical tabs, file separators,
    U+0085 and U+2028, inside what an editor shows as one line (where ``split`` sees
    spaces): a stray one would add a row or a clue line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts none
    return lines
