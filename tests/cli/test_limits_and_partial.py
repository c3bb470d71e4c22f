"""Issue #54.2 and the second half of #54.3: rate, check and explain have a default limit and
keep what they found; rate proves uniqueness as solve does; explain writes its steps as it
goes; a solve stopped by its limit prints the cells settled so far and what to try."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from gridsolve.cli import build_parser, main
from gridsolve.cli._args import DEFAULT_TIMEOUT
from gridsolve.nonogram.engine import Result, SearchLimits, analyse
from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid
from gridsolve.nonogram.rate import rate


def _random(n: int, seed: int) -> Puzzle:
    return puzzle_from_grid(random_grid(n, n, 0.5, random.Random(seed)))


def _file(tmp_path: Path, puzzle: Puzzle) -> str:
    path = tmp_path / "p.txt"
    path.write_text(write_puzzle(puzzle, "text"))
    return str(path)


@pytest.mark.parametrize("command", ["rate", "check", "explain"])
def test_rate_check_and_explain_stop_at_30_seconds_unless_told(command: str) -> None:
    args = build_parser(["nonogram", command, "p.txt"]).parse_args(["nonogram", command, "p.txt"])
    assert args.timeout == DEFAULT_TIMEOUT == 30.0
    argv = ["nonogram", command, "p.txt", "--timeout", "none"]
    assert build_parser(argv).parse_args(argv).timeout is None


def test_rate_takes_uniqueness_from_the_proof_when_its_own_search_is_stopped() -> None:
    """A random 30x30 needs search; the rating's search gets one node (it stops), the proof
    (here the native engine, unlimited) finds two solutions: rate says so, not 'unknown'."""
    puzzle = _random(30, 3)
    proofs: list[Result] = []

    def prove(p: Any, max_solutions: int, limits: SearchLimits) -> Result:
        proofs.append(analyse(p, max_solutions))
        return proofs[-1]

    rating = rate(puzzle, SearchLimits(max_nodes=1), prove=prove)
    assert proofs and proofs[0].status in ("multiple", "unique")
    assert rating.status == proofs[0].status and rating.unique_known is not None
    assert rating.stopped and rating.level == "search" and rating.score == 10
    assert rate(puzzle, SearchLimits(max_nodes=1)).status == "unknown"  # without the proof


def test_explain_writes_each_step_as_it_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Line logic's rounds are written before the engine's search begins: a Ctrl-C in that
    search (here the search raises it) keeps them, and the command exits 130."""
    from gridsolve.nonogram.watch import explain as explain_module

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt
    monkeypatch.setattr(explain_module, "trace_solve", interrupted)
    code = main(["nonogram", "explain", _file(tmp_path, _random(20, 1)), "--ascii"])
    out, err = capsys.readouterr()
    assert code == 130 and "interrupted" in err
    assert out.startswith("Round 1\n") and "filled:" in out


def test_a_solve_at_its_limit_prints_the_cells_settled_and_advice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = _random(30, 3)
    root = analyse(puzzle, 2, SearchLimits(max_nodes=1)).partial
    assert any("?" in row for row in root) and any(set(row) - {"?"} for row in root)
    path = _file(tmp_path, puzzle)
    argv = ["nonogram", "solve", path, "--method", "native", "--jobs", "1", "--max-nodes", "1",
            "--ascii"]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 1
    lines = out.splitlines()
    settled = sum(len(row) - row.count("?") for row in root)
    assert lines[0] == f"settled so far: {settled} of 900 cells ('?' still open):"
    assert lines[-1].startswith("status: unknown")
    assert "--timeout" in err and "--jobs" in err and "--method sat" in err
    code = main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "unknown" and data["partial"] == list(root)
