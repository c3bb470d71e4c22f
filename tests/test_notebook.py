"""Pictures in Jupyter: puzzles, results and calendar solutions draw themselves, and the example
notebook (examples/gridsolve.ipynb) runs and shows a picture in every code cell."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gridsolve
from gridsolve.nonogram.engine.results import Result
from gridsolve.nonogram.model import Puzzle, is_any_solution, puzzle_from_grid
from gridsolve.nonogram.render.svg import puzzle_svg
from gridsolve.notebook import install
from gridsolve.tiling import CalendarDay, DrawnTiling, edition, is_tiling, solutions
from gridsolve.tiling.calendar import leave_open
from tests.notebook_runner import code_cells, run, shown

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "gridsolve.ipynb"
GRID = ("##.", ".##", "#.#")

install()  # what ``import gridsolve`` does in Jupyter (IPython loaded)


@pytest.mark.heavy
def test_import_gridsolve_installs_the_hooks_under_ipython_only() -> None:
    probe = ("import sys, types\n{}import gridsolve\n"
             "from gridsolve.nonogram.model import Puzzle\n"
             "print(hasattr(Puzzle, '_repr_svg_'))")
    fake = "sys.modules['IPython'] = types.ModuleType('IPython')\n"
    for setup, expected in ((fake, "True"), ("", "False")):
        out = subprocess.run([sys.executable, "-c", probe.format(setup)], capture_output=True,
                             text=True, check=True).stdout
        assert out.strip() == expected


def filled(svg: str) -> int:
    return len(re.findall(r'<rect class="filled"', svg))


def test_puzzle_shows_its_blank_grid() -> None:
    puzzle = puzzle_from_grid(GRID, title="Ours")
    svg = puzzle._repr_svg_()  # type: ignore[attr-defined]
    assert svg == puzzle_svg(puzzle) and filled(svg) == 0 and "Ours" in svg


def test_result_shows_status_and_solution() -> None:
    result = gridsolve.solve(puzzle_from_grid(GRID))
    html = result._repr_html_()  # type: ignore[attr-defined]
    assert result.status == "unique" and "unique solution" in html
    assert html.count("<svg") == 1 and filled(html) == "".join(GRID).count("#")


def test_several_solutions_are_drawn_side_by_side() -> None:
    result = gridsolve.solve(rows=[[1], [1]], cols=[[1], [1]], max_solutions=5)
    html = result._repr_html_()  # type: ignore[attr-defined]
    assert len(result.solutions) == 2 and "several solutions" in html
    assert html.count("<svg") == 2 and filled(html) == 4


def test_undecided_result_shows_the_cells_proven() -> None:
    puzzle = Puzzle([[2], [1]], [[2], [1]])
    partial = Result("unknown", (), 0, 0.0, ("##", "??"), puzzle=puzzle)
    html = partial._repr_html_()  # type: ignore[attr-defined]
    assert "not decided" in html and html.count("<svg") == 1 and filled(html) == 2


def test_result_without_its_puzzle_has_no_picture() -> None:
    bare = Result("unique", (("#",),), 1, 0.0, ("#",))
    assert bare._repr_html_() is None  # type: ignore[attr-defined]


def test_results_know_their_puzzle_from_every_method() -> None:
    puzzle = puzzle_from_grid(GRID)
    for method in ("native", "auto"):
        assert gridsolve.solve(puzzle, method=method).puzzle == puzzle


def test_calendar_solution_draws_itself() -> None:
    day = CalendarDay(11, 25)
    tiling = next(solutions(day))
    ed = edition()
    assert isinstance(tiling, DrawnTiling) and isinstance(tiling, tuple)
    assert is_tiling(ed.board, ed.pieces, tiling, leave_open(ed, day))
    svg = tiling._repr_svg_()
    assert str(day) in svg and ">Nov<" in svg and ">25<" in svg
    assert pickle.loads(pickle.dumps(tiling)) == tiling == tuple(tiling)


def test_notebook_runs_and_every_code_cell_shows_a_picture() -> None:
    values = run(NOTEBOOK)
    assert len(values) == len(code_cells(NOTEBOOK)) >= 5
    for value in values:
        data = shown(value)
        assert "<svg" in data.get("text/html", data.get("image/svg+xml", "")), data["text/plain"]
    results = [v for v in values if isinstance(v, Result)]
    assert results and all(r.puzzle is not None for r in results)
    for r in results:
        assert all(is_any_solution(r.puzzle, g) for g in r.solutions)  # type: ignore[arg-type]


def test_notebook_keeps_its_pictures() -> None:
    """The stored outputs show pictures too (GitHub draws a notebook from them)."""
    import json
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            (out,) = cell["outputs"]
            assert {"text/html", "image/svg+xml"} & set(out["data"]), cell["source"]
