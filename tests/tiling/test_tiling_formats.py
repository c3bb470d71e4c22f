"""Board and piece text: both board layouts, comments, errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.errors import ParseError
from gridsolve.tiling.formats import (board_text, parse_board, parse_pieces, pieces_text,
                                      read_board, read_pieces)
from gridsolve.tiling.presets import board, pieces


def test_compact_board() -> None:
    b = parse_board("; a comment\n.#.\n...\n")
    assert (b.height, b.width, b.size) == (2, 3, 5)
    assert (0, 1) not in b.index and b.labels == ()


def test_labelled_board() -> None:
    b = parse_board("Jan Feb #\n1 . 2\n")
    assert b.by_label == {"Jan": (0, 0), "Feb": (0, 1), "1": (1, 0), "2": (1, 2)}
    assert b.size == 5


def test_presets_round_trip() -> None:
    for name in ("original", "weekday"):
        assert parse_board(board_text(board(name))) == board(name)
        assert parse_pieces(pieces_text(pieces(name))) == pieces(name)
    assert board("original").size == 43 and board("weekday").size == 50


@pytest.mark.parametrize("text, message", [
    ("...\n..\n", "<input>:2: row has 2 cells but the first row has 3"),
    ("..x\n", "<input>:1: unexpected character 'x'"),
    ("a b\nc a\n", "<input>:2: label 'a' is used twice (first on line 1)"),
    ("; only a comment\n", "<input>: no board rows found"),
    ("#\n", "<input>: the board has no open cell"),
])
def test_bad_board(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_board(text)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("text, message", [
    ("A:\n#.#\n", "<input>:1: piece 'A' is not connected"),
    ("A:\n#x\n", "<input>:2: unexpected character 'x' in piece 'A'"),
    ("A:\n##\n\nA:\n#\n", "<input>:4: two pieces are named 'A'"),
    ("bad name:\n#\n", "<input>:1: piece 'bad': unknown word 'name' in its header"),
    ("bad-name!:\n#\n", "<input>:1: bad piece header"),
    ("A x2 upside-down:\n#\n", "<input>:1: piece 'A': unknown word 'upside-down'"),
    ("", "<input>: no pieces found"),
    ("A x999:\n#\n", "<input>:1: piece 'A' has 999 copies; from 1 to 256 are supported"),
    ("A x0:\n#\n", "<input>:1: piece 'A' has 0 copies"),
])
def test_bad_pieces(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_pieces(text)
    assert str(err.value).startswith(message)


def test_pieces_names_and_copies() -> None:
    ps = parse_pieces("##\n\nD x3:\n1\n1\n")
    assert [(p.name, p.copies, p.size) for p in ps] == [("A", 1, 2), ("D", 3, 2)]


def test_pieces_that_may_not_be_turned() -> None:
    """no-flip (one-sided), no-rotate (fixed: both), written back as read."""
    ps = parse_pieces("S x2 one-sided:\n.##\n##.\n\nL fixed:\n#.\n##\n\n"
                      "I no-rotate:\n###\n\nV no-flip no-rotate:\n#.\n##\n\nZ:\n##.\n.##\n")
    assert [(p.name, p.copies, p.rotate, p.flip, len(p.orientations())) for p in ps] == [
        ("S", 2, True, False, 2), ("L", 1, False, False, 1), ("I", 1, False, True, 1),
        ("V", 1, False, False, 1), ("Z", 1, True, True, 4)]
    assert parse_pieces(pieces_text(ps)) == ps
    assert "S x2 no-flip:" in pieces_text(ps)


def test_read_board_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "b.board"
    path.write_text("..\n.\n")
    with pytest.raises(ParseError, match=r"b\.board:2: row has 1 cells"):
        read_board(path)


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    assert parse_pieces("\ufeffA:\r\n#\r\n") == parse_pieces("A:\n#\n")
    assert parse_board("\ufeff. .\n") == parse_board(". .\n")
    assert parse_board("\ufeff..\n").labels == ()
    path = tmp_path / "bom.pieces"
    path.write_bytes(b"\xef\xbb\xbfA x2:\r\n##\r\n")
    assert [(p.name, p.copies, p.size) for p in read_pieces(path)] == [("A", 2, 2)]
    path = tmp_path / "bom.board"
    path.write_bytes(b"\xef\xbb\xbfJan . .\r\n")
    assert read_board(path).by_label == {"Jan": (0, 0)}


@pytest.mark.parametrize("label, code", [("Jan\x00", "U+0000"), ("\x1b[31m1", "U+001B"),
                                         ("Feb\u200b", "U+200B"), ("\ufeff.", "U+FEFF")])
def test_unprintable_labels_are_refused(tmp_path: Path, label: str, code: str) -> None:
    path = tmp_path / "b.board"
    path.write_text(f". .\n{label} .\n", encoding="utf-8")
    with pytest.raises(ParseError) as err:
        read_board(path)
    assert str(err.value) == (f"{path}:2: label {label!r} contains {code}, a control or format "
                              "character: a label is printable text")
    assert "\n" not in str(err.value) and "\x00" not in str(err.value)
