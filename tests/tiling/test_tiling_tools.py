"""``gridsolve tiling`` and ``gridsolve calendar design``: exact output, exit codes, bad files;
the designer's report and swap search against counts computed another way."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest

from gridsolve.cli import main
from gridsolve.errors import LimitReached
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import design, engine, presets
from gridsolve.tiling.calendar import CalendarDay as D
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Board, Piece
from gridsolve.tiling.symmetry import count_up_to_symmetry


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tiling_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "tiling", "count", "3x20", "pentominoes") == (0, "8 tilings\n", "")
    assert run(capsys, "tiling", "count", "3x20", "pentominoes", "--up-to-symmetry") == (
        0, "2 tilings up to symmetry (8 in all; the board has 4 symmetries)\n", "")
    code, out, _ = run(capsys, "tiling", "count", "4x15", "pentominoes", "--up-to-symmetry",
                       "--json")
    assert code == 0 and json.loads(out) == {"count": 1472, "up_to_symmetry": 368, "symmetries": 4}


def test_tiling_count_one_sided_pieces(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Two L tetrominoes tile a 2x4 board in two ways that are mirror images, one of which
    needs them turned over: one-sided, one tiling, and the board's mirrors are no symmetry of
    the puzzle; fixed (standing upright) they do not fit at all."""
    board = tmp_path / "b.board"
    board.write_text("....\n....\n")
    for header, out in (
            ("L x2:", "1 tiling up to symmetry (2 in all; the board has 4 symmetries)\n"),
            ("L x2 one-sided:", "1 tiling up to symmetry (1 in all; the board has 2 symmetries "
                                "that the pieces allow)\n"),
            ("L x2 fixed:", "0 tilings up to symmetry (0 in all; the board has 1 symmetry that "
                            "the pieces allow)\n")):
        pieces = tmp_path / "p.pieces"
        pieces.write_text(f"{header}\n#.\n#.\n##\n")
        assert run(capsys, "tiling", "count", str(board), str(pieces), "--up-to-symmetry") == (
            0, out, "")


def test_tiling_solve_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.board"
    board.write_text("....\n....\n")
    pieces = tmp_path / "p.pieces"
    pieces.write_text("A:\n###\n#..\n\nB:\n###\n..#\n")
    code, out, _ = run(capsys, "tiling", "solve", str(board), str(pieces))
    assert code == 0 and out == " A  A  A  B\n A  B  B  B\n"
    code, out, _ = run(capsys, "tiling", "solve", str(board), str(pieces), "--all", "--json")
    assert code == 0 and json.loads(out) == {"count": 4, "complete": True, "tilings": [
        ["AAAB", "ABBB"], ["ABBB", "AAAB"], ["BBBA", "BAAA"], ["BAAA", "BBBA"]]}
    pieces.write_text("A:\n##\n##\n\nB:\n####\n")
    assert run(capsys, "tiling", "solve", str(board), str(pieces)) == (1, "no tiling\n", "")


def test_tiling_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pieces"
    bad.write_text("A:\n#x#\n")
    code, out, err = run(capsys, "tiling", "count", "6x10", str(bad))
    assert code == 2 and out == "" and err.count("\n") == 1 and "bad.pieces" in err
    code, _, err = run(capsys, "tiling", "count", "6x10", "tetrominoes")
    assert code == 2 and "60 open cells but the pieces cover 20" in err
    code, _, err = run(capsys, "tiling", "count", "nope.board", "pentominoes")
    assert code == 2 and err.count("\n") == 1 and "nope.board" in err


def test_tiling_names_that_are_neither_files_nor_shipped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tiling", "count", "0x0", "pentominoes")
    assert (code, out) == (2, "") and err.startswith(
        "gridsolve: error: 0x0: neither a file nor a shipped board (shipped boards: 3x20, 4x15, ")
    assert err.count("\n") == 1 and "Errno" not in err and "'gridsolve tiling count --help'" in err
    code, out, err = run(capsys, "tiling", "count", "6x10", "pentos")
    assert (code, out) == (2, "") and err.startswith(
        "gridsolve: error: pentos: neither a file nor a shipped piece set (shipped piece sets: ")
    assert "pentominoes, tetromino, tetrominoes" in err and err.count("\n") == 1


def test_tiling_area_mismatch_names_the_files(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "one.board"
    board.write_text(". \n")
    pieces = tmp_path / "domino.pieces"
    pieces.write_text("A:\n##\n")
    assert run(capsys, "tiling", "count", str(board), str(pieces)) == (
        2, "", f"gridsolve: error: {board} with {pieces}: the board has 1 open cell but the "
               "pieces cover 2 cells\n")
    assert run(capsys, "tiling", "solve", "6x10", "tetrominoes", "--all") == (
        2, "", "gridsolve: error: 6x10 with tetrominoes: the board has 60 open cells but the "
               "pieces cover 20 cells\n")


def test_tiling_files_with_a_byte_order_mark(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "bom.board"
    board.write_bytes(b"\xef\xbb\xbf. .\r\n")
    pieces = tmp_path / "bom.pieces"
    pieces.write_bytes(b"\xef\xbb\xbfA:\r\n##\r\n")
    assert run(capsys, "tiling", "solve", str(board), str(pieces)) == (0, " A  A\n", "")
    board.write_bytes(b"Jan\x00 . .\n")
    code, out, err = run(capsys, "tiling", "count", str(board), str(pieces))
    assert (code, out) == (2, "") and err == (
        f"gridsolve: error: {board}:1: label 'Jan\\x00' contains U+0000, a control or format "
        "character: a label is printable text\n")


def write_tetrominoes_x4(tmp_path: Path) -> tuple[str, str]:
    """8x10 by four of each tetromino: a guided listing counts for seconds first."""
    board = tmp_path / "b8x10.board"
    board.write_text("..........\n" * 8)
    pieces = tmp_path / "tet4.pieces"
    pieces.write_text("I x4:\n####\n\nL x4:\n###\n#..\n\nO x4:\n##\n##\n\n"
                      "S x4:\n.##\n##.\n\nT x4:\n###\n.#.\n")
    return str(board), str(pieces)


def test_tiling_solve_all_keeps_the_timeout(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    board, pieces = write_tetrominoes_x4(tmp_path)
    started = time.perf_counter()
    assert run(capsys, "tiling", "solve", board, pieces, "--all", "--timeout", "0.3") == (
        1, "", "gridsolve: error: search limit reached before any tiling was found\n")
    assert time.perf_counter() - started < 1.3


def test_tiling_solve_all_prints_what_it_found_before_the_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing cut short by its limit keeps the tilings it printed; the error says how many
    (exit 1), and the JSON says the listing is not complete."""
    board = tmp_path / "b.board"
    board.write_text("....\n....\n")
    pieces = tmp_path / "p.pieces"
    pieces.write_text("A:\n###\n#..\n\nB:\n###\n..#\n")
    real = engine.tilings

    def two_then_stop(*args: Any, **kw: Any) -> Any:
        listing = real(*args, **kw)
        yield next(listing)
        yield next(listing)
        raise LimitReached("search limit reached")
    monkeypatch.setattr(engine, "tilings", two_then_stop)
    code, out, err = run(capsys, "tiling", "solve", str(board), str(pieces), "--all")
    assert (code, out) == (1, "tiling 1:\n A  A  A  B\n A  B  B  B\n\n"
                              "tiling 2:\n A  B  B  B\n A  A  A  B\n")
    assert err == ("gridsolve: error: search limit reached after listing 2 tilings; there may "
                   "be more\n")
    code, out, err = run(capsys, "tiling", "solve", str(board), str(pieces), "--all", "--json")
    assert code == 1 and json.loads(out) == {"count": None, "complete": False, "tilings": [
        ["AAAB", "ABBB"], ["ABBB", "AAAB"]]}
    assert err.count("\n") == 1 and "after listing 2 tilings" in err

    def stop_at_once(*args: Any, **kw: Any) -> Any:
        raise LimitReached("search limit reached")
        yield  # a generator
    monkeypatch.setattr(engine, "tilings", stop_at_once)
    code, out, err = run(capsys, "tiling", "solve", str(board), str(pieces), "--all", "--json")
    assert code == 1 and json.loads(out) == {"count": None, "complete": False, "tilings": []}
    assert err == "gridsolve: error: search limit reached before any tiling was found\n"
    monkeypatch.undo()
    # complete: each tiling as it is found, the count after them
    assert run(capsys, "tiling", "solve", str(board), str(pieces), "--all") == (0, (
        "tiling 1:\n A  A  A  B\n A  B  B  B\n\ntiling 2:\n A  B  B  B\n A  A  A  B\n\n"
        "tiling 3:\n B  B  B  A\n B  A  A  A\n\ntiling 4:\n B  A  A  A\n B  B  B  A\n\n"
        "4 tilings\n"), "")


@pytest.mark.heavy
def test_up_to_symmetry_keeps_one_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count and the listing after it share the timeout: with the count taking all of it,
    the listing (1,292,697 tilings of 7x8 by dominoes, tens of seconds) stops at once."""
    real = engine.count

    def slow_count(*args: Any, **kw: Any) -> int:
        n = real(*args, **kw)
        time.sleep(1.5)
        return n

    monkeypatch.setattr(engine, "count", slow_count)
    board = Board(7, 8, tuple((r, c) for r in range(7) for c in range(8)))
    started = time.perf_counter()
    with pytest.raises(LimitReached):
        count_up_to_symmetry(board, [Piece.from_rows("D", "11", copies=28)],
                             SearchLimits(timeout=1.5))
    assert time.perf_counter() - started < 2.5


@pytest.mark.heavy  # (a clock's wait; about 0.5 s)
def test_calendar_solve_keeps_one_deadline(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The count after the first solution gets what is left of the timeout, not all of it."""
    real = cal.solutions
    given: list[float | None] = []

    def slow_solutions(*args: Any, **kw: Any) -> Any:
        time.sleep(0.3)
        return real(*args, **kw)

    def count(day: D, ed: cal.Edition, limits: SearchLimits) -> int:
        given.append(limits.timeout)
        return 7

    monkeypatch.setattr(cal, "solutions", slow_solutions)
    monkeypatch.setattr(cal, "count", count)
    code, out, _ = run(capsys, "calendar", "solve", "Oct 6", "--timeout", "5")
    assert code == 0 and out.startswith("Oct 6: 7 solutions\n")
    assert len(given) == 1 and given[0] is not None and given[0] <= 4.7
    assert run(capsys, "calendar", "solve", "Oct 6", "--timeout", "0.25")[0] == 0
    assert given[1] == 0.0


def test_report_matches_the_counts() -> None:
    ed = cal.edition("creamakerspace")
    rep = design.report(ed, 3)
    counts = cal.count_all(ed)
    valid = sorted(n for day, n in counts.items() if day.valid)
    assert rep.counts == counts and rep.every_date
    assert (rep.fewest, rep.median, rep.most) == (valid[0], valid[len(valid) // 2], valid[-1])
    assert rep.hardest[0][1] == 1 and rep.easiest[0] == (D(6, 23), 87)
    assert 0 < rep.evenness < 1


def test_unsolvable_dates_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The original board with the U replaced by an I pentomino leaves some dates unsolvable."""
    board = tmp_path / "cal.board"
    board.write_text(presets.board_source("original"))
    pieces = tmp_path / "set.pieces"
    pieces.write_text(presets.pieces_source("original").replace("U:\n#.#\n###", "I:\n#####"))
    ed = cal.Edition("x", presets.board("original"),
                     presets.named_pieces("original")[:3] + (presets.named_pieces("pentominoes")[1],)
                     + presets.named_pieces("original")[4:])
    rep = design.report(ed)
    zero = tuple(day for day, n in cal.count_all(ed).items() if day.valid and n == 0)
    assert rep.unsolvable == zero and zero
    code, out, _ = run(capsys, "calendar", "design", "--board", str(board), "--pieces", str(pieces))
    assert code == 0 and f"{len(zero)} dates have no solution: {zero[0]}" in out


def test_design_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "calendar", "design", "--edition", "original", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["unsolvable"] == [] and (obj["fewest"], obj["most"]) == (7, 216)
    assert obj["hardest"][0] == {"month": 10, "day": 6, "count": 7}
    code, out, _ = run(capsys, "calendar", "design", "--heatmap", str(tmp_path / "y.svg"))
    assert code == 0 and out.startswith("original: 8 pieces on 43 cells; 366 dates\n"
                                        "every date has a solution\n")
    assert "  Jan  " in out and (tmp_path / "y.svg").read_text().startswith("<svg")
    code, _, err = run(capsys, "calendar", "design", "--board", "x.board")
    assert code == 2 and "give both --board and --pieces" in err


def test_search_finds_jarringwords() -> None:
    """Swapping the original's Z for a T gives the JarringWords set: its report must agree."""
    ed = cal.edition("original")
    pool = tuple(p for p in presets.named_pieces("pentominoes") if p.name == "T")
    found = design.search(ed, pool)
    assert len(list(design.swaps(ed, pool))) == 7
    assert [(s.removed, s.added.name) for s, _ in found] == [("Z", "T"), ("V", "T"), ("U", "T")]
    assert found[0][1].counts == cal.count_all("jarringwords")


def test_swaps_keep_one_sided_pieces_one_sided() -> None:
    """In a set of one-sided pieces a swapped-in piece is one-sided too, and a mirror image of
    a piece in the set is new there (it cannot be laid as the piece), where it is not in a set
    of free pieces."""
    ed = cal.edition("original")
    one_sided = cal.Edition("one-sided", ed.board, tuple(
        dataclasses.replace(p, flip=False) for p in ed.pieces))
    pool = presets.named_pieces("pentominoes")
    free = list(design.swaps(ed, pool))
    sided = list(design.swaps(one_sided, pool))
    assert all(not s.added.flip and s.added.rotate for s, _ in sided)
    assert all(s.added.flip for s, _ in free)
    chiral = next(p for p in ed.pieces if len(p.orientations()) == 8)  # the L
    mirrored = Piece("m", tuple((r, -c) for r, c in chiral.cells))
    assert not any(sw.added.cells == mirrored.cells for sw, _ in design.swaps(ed, [mirrored]))
    assert any(sw.added.cells == mirrored.cells for sw, _ in design.swaps(one_sided, [mirrored]))


@pytest.mark.slow
def test_search_over_the_pentominoes() -> None:
    ed = cal.edition("original")
    pool = presets.named_pieces("pentominoes")
    found = design.search(ed, pool)
    by_swap = {(s.removed, s.added.name): rep for s, rep in found}
    assert by_swap[("Z", "T")].counts == cal.count_all("jarringwords")
    assert all(rep.every_date for _, rep in found)
    assert [rep.evenness for _, rep in found] == sorted(rep.evenness for _, rep in found)
    tried = list(design.swaps(ed, pool))
    assert len(tried) == 7 * 5   # 7 pentominoes, each by the 5 pentominoes not in the set


def test_design_json_of_a_piece_set_no_date_takes(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Every count 0: the evenness (std / mean) is not a number, and JSON has none: null
    (it printed Infinity, which JSON parsers refuse)."""
    pieces = tmp_path / "zero.pieces"
    pieces.write_text("X x8:\n.#.\n###\n.#.\n\nM:\n#\n")
    board = Path(presets.__file__).parent / "data" / "original.board"
    code, out, _ = run(capsys, "calendar", "design", "--board", str(board), "--pieces",
                       str(pieces), "--json")
    assert code == 0 and "Infinity" not in out
    report = json.loads(out)
    assert report["evenness"] is None and report["most"] == 0


def test_64_pieces_get_64_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine takes up to 64 different pieces; each prints as its own letter (two
    printed as '?' once the 62 letters and digits ran out)."""
    from gridsolve.tiling.render import letters
    names = letters([Piece(f"M{i}", ((0, 0),)) for i in range(64)])
    assert len(set(names)) == 64 and not set(names) & set(".?# ")
    board, pieces = tmp_path / "b.board", tmp_path / "p.pieces"
    board.write_text("\n".join(["." * 8] * 8) + "\n")
    pieces.write_text("".join(f"M{i}:\n#\n\n" for i in range(64)))
    code, out, _ = run(capsys, "tiling", "solve", str(board), str(pieces))
    assert code == 0 and len(set(out.split())) == 64
