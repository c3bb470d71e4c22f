"""gridsolve.numbers: ASCII digits only, a length cap, and JSON whose every failure is a line."""

from __future__ import annotations

import pytest

from gridsolve.errors import ParseError
from gridsolve.numbers import (MAX_DIGITS, MAX_JSON_DIGITS, is_number, load_json, read_number,
                               shown)

#: Characters str.isdigit() (and int(), or the regex \d) accept that are not ASCII digits.
ODD_DIGITS = ["²", "１", "١", "۳", "߂", "৪", "𝟗"]


@pytest.mark.parametrize("token", ODD_DIGITS)
def test_odd_digits_are_not_numbers(token: str) -> None:
    assert token.isdigit() and not is_number(token)
    with pytest.raises(ParseError) as err:
        read_number(f"1{token}", "the width", "f.txt", 3)
    assert str(err.value) == f"f.txt:3: the width: '1{token}' is not a number (digits are 0-9)"


@pytest.mark.parametrize("token,value", [("0", 0), ("7", 7), (" 42 ", 42),
                                         ("000000000000123", 123), ("9" * MAX_DIGITS, 10**9 - 1)])
def test_ascii_numbers_read(token: str, value: int) -> None:
    assert read_number(token) == value


@pytest.mark.parametrize("token", ["", "-1", "+1", "1.0", "1_000", "0x1", "1e3", "one"])
def test_other_tokens_refused(token: str) -> None:
    with pytest.raises(ParseError, match="is not a number"):
        read_number(token)


@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 5000, 100_000])
def test_long_numbers_refused_before_int(digits: int) -> None:
    with pytest.raises(ParseError) as err:
        read_number("1" * digits, "", "f", 1)
    assert str(err.value) == (f"f:1: {shown('1' * digits)} is too large a number "
                              f"(more than {MAX_DIGITS} digits)")


def test_json_long_integer_names_its_line() -> None:
    text = '{"a": 1,\n "b": [' + "7" * 5000 + "]}"
    with pytest.raises(ParseError) as err:
        load_json(text, "p.json")
    assert err.value.line == 2 and "\n" not in str(err.value)
    assert f"more than {MAX_JSON_DIGITS} digits" in str(err.value)
    assert load_json('{"seed": 18446744073709551615}') == {"seed": 2**64 - 1}


@pytest.mark.parametrize("text,why", [("[" * 100_000 + "]" * 100_000, "nested too deeply"),
                                      ('{"a": }', "Expecting value"),
                                      (b"\xff{}", "invalid JSON")])
def test_json_failures_are_parse_errors(text: str | bytes, why: str) -> None:
    with pytest.raises(ParseError, match=why) as err:
        load_json(text, "p.json")
    assert "\n" not in str(err.value)
