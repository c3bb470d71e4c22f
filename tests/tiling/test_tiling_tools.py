"""``gridsolve tiling`` and ``gridsolve calendar design``: exact output, exit codes, bad files;
the designer's report and swap search against counts computed another way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import design, presets
from gridsolve.tiling.calendar import CalendarDay as D


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


def test_tiling_solve_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.board"
    board.write_text("....\n....\n")
    pieces = tmp_path / "p.pieces"
    pieces.write_text("A:\n###\n#..\n\nB:\n###\n..#\n")
    code, out, _ = run(capsys, "tiling", "solve", str(board), str(pieces))
    assert code == 0 and out == " A  A  A  B\n A  B  B  B\n"
    code, out, _ = run(capsys, "tiling", "solve", str(board), str(pieces), "--all", "--json")
    assert code == 0 and json.loads(out) == {"count": 4, "tilings": [
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
