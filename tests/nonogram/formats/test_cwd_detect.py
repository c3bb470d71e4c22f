"""The CWD reader's detection takes no control character for a blank (a fuzz find of the web
API: re's \\s matches \\x1c-\\x1f, which int() refuses, so detection raised ValueError, a 500)."""

from __future__ import annotations

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import detect_format
from gridsolve.nonogram.formats.cwd import detect


@pytest.mark.parametrize("blank", ["\x1c", "\x1d", "\x1e", "\x1f", "\x0b", "\x0c"])
def test_a_control_character_is_not_a_blank_of_the_size_lines(blank: str) -> None:
    text = f"{blank} 1\n1\n1\n\n1\n"
    assert detect(text) is False
    with pytest.raises(ParseError, match="unknown puzzle format"):
        detect_format(text)


def test_a_cwd_file_is_still_detected() -> None:
    assert detect("2\n2\n1\n1\n\n1\n1\n")
    assert detect(" 2 \t\n2\r\n1\n1\n\n1\n1\n")
