"""Every backend (native, SAT, ILP, auto) on the same puzzles: identical statuses and solution sets."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import sys
import time
from dataclasses import replace
from typing import Any
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridsolve
from gridsolve.cli import main
from gridsolve.errors import GridsolveError, SolverUnavailable
from gridsolve.nonogram import backends
from gridsolve.nonogram.backends import METHODS, analyse
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.formats import bw_only, iter_entries
from gridsolve.nonogram.model import (Puzzle, clue_of, columns_of, is_solution,
                                      puzzle_from_grid)
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy
from tests.nonogram.cases import CASES
from tests.nonogram.oracle import all_solutions as brute_force

pytest.importorskip("pysat")
from gridsolve.nonogram.backends import auto, sat  # noqa: E402

# the SAT side is tested on random 50x50 puzzles the dive would end at once: those tests
# pass conftest's no_dive policy (smaller puzzles have no dive)

needs_ilp = pytest.mark.skipif(importlib.util.find_spec("pulp") is None,
                               reason="PuLP (gridsolve[ilp]) not installed")
#: Every method, ILP marked to skip without PuLP, and heavy (CBC is a process per solve).
ALL = [m if m != "ilp" else pytest.param(m, marks=[needs_ilp, pytest.mark.heavy])
       for m in METHODS]
#: Methods cheap enough for every case; ILP (CBC starts a process per solve) gets fewer.
FAST = ("native", "sat", "auto")


def case(name: str) -> Puzzle:
    """The puzzle of the shared case table (tests/nonogram/cases.py) with this name."""
    return next(c[1] for c in CASES if c[0] == name)


def status_for(n: int, max_solutions: int) -> str:
    """The status a finished search must give for a puzzle with n solutions."""
    found = min(n, max_solutions)
    if found >= 2:
        return "multiple"
    if found == 1:
        return "unique" if n == 1 and max_solutions > 1 else "unknown"
    return "none"


def test_case_table_is_right() -> None:
    for name, puzzle, n, solution in CASES:
        want = brute_force(puzzle)
        assert len(want) == n and (solution is None or want == {solution}), name


@pytest.mark.parametrize("method", ALL)
@pytest.mark.parametrize("name,puzzle,n,solution", CASES, ids=[c[0] for c in CASES])
def test_case_table(method: str, name: str, puzzle: Puzzle, n: int,
                    solution: tuple[str, ...] | None) -> None:
    """The shared case table (tests/nonogram/cases.py) against every backend."""
    want = brute_force(puzzle)
    assert len(want) == n
    everything = analyse(puzzle, 10, method=method)
    assert everything.status == status_for(len(want), 10)
    assert set(everything.solutions) == want and len(everything.solutions) == len(want)
    first_two = analyse(puzzle, 2, method=method)
    assert first_two.status == analyse(puzzle, 2, method="native").status
    assert set(first_two.solutions) <= want and len(first_two.solutions) == min(2, len(want))


@pytest.mark.parametrize("solver", ["cadical195", "minisat22"])
def test_other_sat_solvers(solver: str) -> None:
    for name, puzzle, _, _ in CASES:
        result = sat.analyse(puzzle, 10, solver=solver)
        assert set(result.solutions) == brute_force(puzzle), name


@pytest.mark.parametrize("method", ALL)
def test_first_solution_only_is_not_a_proof(method: str) -> None:
    """With max_solutions=1 nothing proves uniqueness: every method says "unknown"."""
    result = analyse(case("unique heart"), 1, method=method)
    assert result.status == "unknown" and len(result.solutions) == 1


@st.composite
def tiny_puzzles(draw: st.DrawFn) -> Puzzle:
    """Clues of a random grid (<= 4x5), or rows of one grid and columns of another (often
    impossible or ambiguous) when their totals agree."""
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    shape = st.lists(st.text("#.", min_size=w, max_size=w), min_size=h, max_size=h)
    a = draw(shape)
    if draw(st.booleans()):
        rows, cols = [clue_of(r) for r in a], [clue_of(c) for c in columns_of(draw(shape))]
        if sum(map(sum, rows)) == sum(map(sum, cols)):
            return Puzzle(rows, cols)
    return puzzle_from_grid(a)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_puzzles_match_brute_force(puzzle: Puzzle) -> None:
    want = brute_force(puzzle)
    for method in FAST:
        result = analyse(puzzle, 64, method=method)
        assert set(result.solutions) == want, method
        assert result.status == status_for(len(want), 64), method
        assert result.exhausted == (len(want) < 64), method



@pytest.mark.heavy
@needs_ilp
@settings(max_examples=6, deadline=None)
@given(tiny_puzzles())
def test_tiny_puzzles_ilp(puzzle: Puzzle) -> None:
    result = analyse(puzzle, 64, method="ilp")
    assert set(result.solutions) == brute_force(puzzle)


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 9), st.integers(5, 9), st.integers(0, 2**32 - 1))
def test_larger_random_puzzles_count_like_native(h: int, w: int, seed: int) -> None:
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(w)) for _ in range(h)])
    native = analyse(puzzle, 20, method="native")
    for method in ("sat", "auto"):
        result = analyse(puzzle, 20, method=method)
        assert result.status == native.status, method
        assert len(result.solutions) == len(native.solutions), method
        if len(native.solutions) < 20:
            assert set(result.solutions) == set(native.solutions), method


def test_sat_seeded_with_known_cells() -> None:
    puzzle = case("diagonal pair")  # the 2x2 with two solutions
    assert sat.analyse(puzzle, 10, known=("#?", "??")).solutions == (("#.", ".#"),)
    assert sat.analyse(puzzle, 10, known=("##", "??")).status == "none"


def hard_puzzle() -> Puzzle:
    """A random 50x50 picture: probing fixes almost nothing and SAT needs seconds."""
    rng = random.Random(2)
    return puzzle_from_grid(["".join(rng.choice("#.") for _ in range(50)) for _ in range(50)])


def harder_puzzle() -> Puzzle:
    """A random 50x50 picture (benchmarks/nonogram.py's random50 #6): auto with the order
    model and Glucose 4.2.1 takes 9-11 CPU s to count it to 2 (hard_puzzle: about 1 s)."""
    rng = random.Random(50 * 1000 + 6)
    return puzzle_from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(50))
                             for _ in range(50)])


@pytest.mark.heavy
@pytest.mark.parametrize("method,solver,timeout", [
    ("sat", None, 0.3), ("sat", "cadical195", 0.3), ("native", None, 0.3), ("auto", None, 0.3),
    ("auto", None, 1.3)])  # auto: first_work_large of native (over 1024 cells), then SAT
def test_timeout_gives_unknown_promptly(method: str, solver: str | None, timeout: float,
                                        no_dive: Policy) -> None:
    # auto brings SAT in only if its model can be built in half the time left: here it may
    policy = replace(no_dive, build_rate=10**9)
    started = time.perf_counter()
    result = analyse(harder_puzzle(), 2, SearchLimits(timeout=timeout), method, solver=solver,
                     policy=policy)
    assert result.status == "unknown"
    assert time.perf_counter() - started < timeout + 2.0  # encoding, plus a busy shared machine
    if method != "auto":
        assert "handover" not in result.stats
    elif timeout > 1.0:  # native pauses at 2,000 nodes or 400,000 line solves (~0.1 s)
        assert result.stats.get("handover") == 1


def test_auto_does_not_start_sat_after_the_time_is_up(no_dive: Policy) -> None:
    """A timeout shorter than auto's native turn ends there: no SAT model is built after it
    (on a large puzzle that alone takes over a second)."""
    result = analyse(hard_puzzle(), 2, SearchLimits(timeout=0.05), "auto", policy=no_dive)
    assert result.status == "unknown" and "handover" not in result.stats
    assert result.partial is not None and len(result.partial) == 50


def test_conflict_budget_gives_unknown() -> None:
    """Solvers check the budget at their own pace (Glucose between restarts): roughly held."""
    result = analyse(hard_puzzle(), 2, SearchLimits(max_nodes=50), "sat")
    assert result.status == "unknown" and result.nodes < 1000


@pytest.mark.heavy
@needs_ilp
def test_ilp_timeout_gives_unknown_promptly() -> None:
    rng = random.Random(7)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(30)) for _ in range(30)])
    started = time.perf_counter()
    result = analyse(puzzle, 2, SearchLimits(timeout=0.5), "ilp")
    assert result.status == "unknown"
    assert time.perf_counter() - started < 4.0


@pytest.mark.heavy
@needs_ilp
def test_ilp_runs_after_the_first_get_their_own_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs that look for another solution after a no-good cut get LATER_RUN_OPTIONS
    (CBC without its feasibility pump), the first run none; the count is the same."""
    from gridsolve.nonogram.backends import ilp

    seen: list[tuple[str, ...]] = []
    run = ilp._run_cbc

    def spy(*args: Any) -> Any:
        seen.append(args[5] if len(args) > 5 else ())
        return run(*args)
    monkeypatch.setattr(ilp, "_run_cbc", spy)
    two = Puzzle([[1], [1]], [[1], [1]])
    assert len(analyse(two, 64, method="ilp").solutions) == 2
    assert seen == [(), ilp.LATER_RUN_OPTIONS, ilp.LATER_RUN_OPTIONS]
    assert ilp.LATER_RUN_OPTIONS == ("-feas", "off")


def test_unknown_method_and_solver() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        analyse(CASES[0][1], method="magic")
    with pytest.raises(GridsolveError, match="unknown SAT solver"):
        analyse(CASES[0][1], method="sat", solver="nosuch")


@pytest.mark.parametrize("module,method,extra", [("pysat", "sat", "sat"), ("pulp", "ilp", "ilp")])
def test_missing_extra(monkeypatch: pytest.MonkeyPatch, module: str, method: str,
                       extra: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(SolverUnavailable, match=rf"gridsolve\[{extra}\]"):
        analyse(CASES[0][1], method=method)


def test_auto_without_python_sat_is_native(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pysat", None)
    result = analyse(case("unique heart"), method="auto")
    assert result.status == "unique" and "handover" not in result.stats


HEART = Path(gridsolve.__file__).parent / "examples" / "heart.txt"


def test_cli_missing_extra_one_line_exit_2(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pysat", None)
    assert main(["nonogram", "solve", str(HEART), "--method", "sat"]) == 2
    err = capsys.readouterr().err
    assert err == "gridsolve: error: python-sat is not installed: pip install 'gridsolve[sat]'\n"


@pytest.mark.heavy
def test_cli_same_json_for_every_method(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for method in [m for m in METHODS if m != "ilp" or importlib.util.find_spec("pulp")]:
        assert main(["nonogram", "solve", str(HEART), "--method", method, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        outputs.append({k: v for k, v in out.items() if k not in ("seconds", "nodes")})
        assert set(out) == {"status", "width", "height", "solutions", "seconds", "nodes",
                            "exhausted"}
    assert all(o == outputs[0] for o in outputs)
    assert outputs[0]["status"] == "unique"


def test_registry_names() -> None:
    assert backends.METHODS == ("native", "sat", "ilp", "auto")


def tournament_puzzles(path: Path, count: int) -> list[Puzzle]:
    """The first puzzles of a tournament set."""
    return [bw_only(e.puzzle, "these tests") for e in itertools.islice(iter_entries(str(path)), count)]


@pytest.mark.slow
def test_tournament_puzzles_agree_across_backends(puzzles_dir: Path) -> None:
    """SAT and auto agree with native (status and, when unique, the solution) on 30 puzzles."""
    path = puzzles_dir / "nonogramrecord-tournaments" / "question" / "taai2011.txt"
    for puzzle in tournament_puzzles(path, 30):
        native = analyse(puzzle, 2, method="native")
        for method in ("sat", "auto"):
            result = analyse(puzzle, 2, method=method)
            assert result.status == native.status, method
            if native.status == "unique":
                assert result.solutions == native.solutions, method


@pytest.mark.heavy
@settings(max_examples=40, deadline=None)
@given(st.integers(5, 10), st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 7, 40, 100]))
def test_auto_in_turns_counts_like_native(n: int, seed: int, count: int) -> None:
    """auto's turns between the native team and SAT (forced from the first node on, turns of
    4,000 line solves, about a millisecond) pool solutions without losing or repeating one."""
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(n)) for _ in range(n)])
    native = analyse(puzzle, count, method="native")
    policy = replace(DEFAULT_POLICY, auto_nodes=1, first_work=4000)
    result = analyse(puzzle, count, method="auto", policy=policy)
    assert result.status == native.status
    assert len(result.solutions) == len(set(result.solutions)) == len(native.solutions)
    assert all(is_solution(puzzle, g) for g in result.solutions)
    if len(native.solutions) < count:
        assert set(result.solutions) == set(native.solutions)


@pytest.mark.heavy
def test_a_count_goes_on_natively_while_it_finds_solutions(no_dive: Policy) -> None:
    """Counting past auto_count_from, the first turn's node budget counts from the last
    solution found: seven rooks (5,040 solutions, a few nodes each) counted to 1,000 never
    reach SAT, even with a budget of 200 nodes (a tenth of the default: the search goes up
    to 20 nodes from one solution to the next); counting to 2 past that budget still does."""
    policy = replace(no_dive, auto_nodes=200)
    rooks = Puzzle([[1]] * 7, [[1]] * 7)
    counted = analyse(rooks, 1000, method="auto", policy=policy)
    assert "handover" not in counted.stats and counted.nodes > 200
    assert counted.status == "multiple" and len(set(counted.solutions)) == 1000
    assert all(is_solution(rooks, g) for g in counted.solutions)
    everything = analyse(rooks, 5041, method="auto", policy=policy)
    assert everything.status == "multiple" and len(set(everything.solutions)) == 5040
    assert analyse(hard_puzzle(), 2, SearchLimits(max_nodes=100), "auto",
                   policy=policy).stats["handover"] == 1


@pytest.mark.heavy
def test_auto_takes_turns_on_a_hard_puzzle(no_dive: Policy) -> None:
    """Past the native budget SAT takes a turn, then the native search resumes where it paused.

    Every turn is counted in nodes, work or conflicts, so the run is the same on a busy
    machine: the native first turn ends at 20 nodes (its work, 12 million line solves, is
    far off); SAT's turn is 0.001 of that work at 300 a conflict, 40 conflicts (Glucose 4.2
    on the order model needs over 20 s for two solutions), which leaves the native search
    over a thousand nodes of the budget of 1,200 for its turn after SAT's, which runs to
    the node limit or twice its first work."""
    policy = replace(no_dive, auto_nodes=20, first_work=12_000_000,
                     first_work_large=12_000_000,  # 2,500 cells: a large puzzle
                     sat_share=0.001)
    puzzle = hard_puzzle()
    result = analyse(puzzle, 2, SearchLimits(max_nodes=1200), "auto", policy=policy)
    # (one round: SAT's turn, then the team's, which the node limit ends)
    assert result.stats["handover"] == 1 and result.stats["rounds"] >= 1
    assert result.stats["sat_extra_clauses"] > 1000  # what the root's probes fixed
    assert result.stats["native_nodes"] > 20  # the native search went on after SAT's turn
    assert result.status == "unknown" and 1200 <= result.nodes < 1200 + 1000  # SAT checks late
    assert all(is_solution(puzzle, g) for g in result.solutions)


@pytest.mark.heavy
def test_auto_timeout_ends_the_turns_promptly(no_dive: Policy) -> None:
    """A timeout ends auto's turns promptly (wall time: a very busy machine can overrun it),
    and whatever it found is right."""
    policy = replace(no_dive, first_work=800_000,  # native ~0.2 s, SAT 24x, native twice...
                     first_work_large=800_000,
                     build_rate=10**9)  # SAT's model counts as built at once
    started = time.perf_counter()
    result = analyse(hard_puzzle(), 2, SearchLimits(timeout=2.5), "auto", policy=policy)
    assert time.perf_counter() - started < 2.5 + 2.0
    assert result.stats["handover"] == 1
    if result.status != "unknown":  # the turns may find two solutions in time
        assert result.status == "multiple" and len(set(result.solutions)) == 2
        assert all(is_solution(hard_puzzle(), g) for g in result.solutions)
    limited = analyse(hard_puzzle(), 2, SearchLimits(max_nodes=300), "auto", policy=policy)
    assert limited.status == "unknown" and limited.nodes < 300 + 1000  # SAT checks its budget late


def test_sat_search_resumes_after_a_deadline() -> None:
    """A SAT search stopped by deadlines again and again finds the same solutions in the end."""
    puzzle = Puzzle([[1]] * 5, [[1]] * 5)  # 120 permutation matrices
    search = sat.Search(puzzle, SearchLimits(), "glucose4", None, time.perf_counter())
    found, limits_hit = set(), 0
    while True:
        search.deadline = time.perf_counter() + (0.0 if limits_hit < 3 else 5.0)
        answer = search.step()
        if answer is None:
            limits_hit += 1
            continue
        if answer is False:
            break
        assert is_solution(puzzle, answer) and answer not in found
        found.add(answer)
    assert limits_hit == 3 and len(found) == 120


def test_team_resumes_where_it_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """engine.Team paused by ``work`` over and over ends with the one-call answer: the same
    status and count (which 100 of the 720 solutions come first depends on the turns, which
    shrink to fit the pauses), and, counting past 720, every solution."""
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.engine import team as team_module
    monkeypatch.setattr(team_module, "moves_for_count", lambda *a, **k: [])  # the search finds them all
    puzzle = Puzzle([[1]] * 6, [[1]] * 6)  # 720 solutions
    whole = engine.Team(puzzle, 100)
    assert whole.run()
    team, pauses = engine.Team(puzzle, 100), 0
    while not team.run(work=200):
        pauses += 1
    assert pauses > 0
    for result in (team.result(), whole.result()):
        assert len(set(result.solutions)) == 100 and result.status == "multiple"
        assert all(is_solution(puzzle, grid) for grid in result.solutions)
    everything = engine.Team(puzzle, 1000)
    while not everything.run(work=400):
        pass
    assert everything.complete and len(everything.result().solutions) == 720


def test_sat_share_on_small_puzzles_doubles_up_to_even() -> None:
    """The turns' schedule (0018): small puzzles start SAT at 1/8 of the native work and
    double it each round up to an equal share; large puzzles keep 24x (0020); the shares
    are the policy's."""
    natives = [1000, 2000, 4000, 8000, 16000, 32000]
    small = [auto.sat_work(n, k, True) for k, n in enumerate(natives, start=1)]
    assert small == [125, 500, 2000, 8000, 16000, 32000]
    assert [auto.sat_work(n, k, False) for k, n in enumerate([400_000, 800_000], start=1)] == \
        pytest.approx([9_600_000, 19_200_000])
    other = replace(DEFAULT_POLICY, sat_share=2.0, sat_share_small=0.5, sat_share_growth=3.0,
                    sat_share_small_max=4.0)
    assert [auto.sat_work(1000, k, True, other) for k in (1, 2, 3, 4)] == [500, 1500, 4000, 4000]
    assert auto.sat_work(1000, 1, False, other) == 2000


@pytest.mark.heavy
def test_a_count_past_autos_first_budget_is_every_solution() -> None:
    """A colour puzzle (no team) of 7 rooks, 7! = 5040 solutions: auto's first native turn
    stops at auto_nodes with 992 of them, "multiple" but not settled; auto and --jobs went on
    to count every one (they answered with the 992)."""
    from gridsolve.nonogram.backends import parallel
    from gridsolve.nonogram.model import WHITE, Colour, ColourPuzzle
    rook = [[(1, 1)]] * 7
    puzzle = ColourPuzzle(rook, rook, (WHITE, Colour("red", (255, 0, 0), "a")))
    assert DEFAULT_POLICY.auto_nodes < 10_000  # the native search needs 10,079 nodes for all
    for result in (analyse(puzzle, 10**6, method="auto"),
                   parallel.analyse(puzzle, 10**6, jobs=2)):
        assert (result.status, len(set(result.solutions)), result.exhausted) == (
            "multiple", 5040, True)
    stopped = analyse(puzzle, 10**6, SearchLimits(max_nodes=2000), method="native")
    assert stopped.status == "multiple" and not stopped.exhausted
    assert 2 <= len(stopped.solutions) < 5040



@pytest.mark.heavy
def test_a_first_turns_solutions_stay_when_what_follows_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rooks: when SAT (auto) or the processes (--jobs) stop without an answer, the
    first turn's solutions are still the answer's, "multiple" and not exhausted (they were
    dropped: auto gave fewer, --jobs "unknown" with none)."""
    from gridsolve.errors import LimitReached
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.backends import auto, parallel
    from gridsolve.nonogram.engine import Result
    from gridsolve.nonogram.model import WHITE, Colour, ColourPuzzle
    rook = [[(1, 1)]] * 7
    puzzle = ColourPuzzle(rook, rook, (WHITE, Colour("red", (255, 0, 0), "a")))
    # auto's and --jobs's first turn: auto_nodes and colour_work (the smaller of it and
    # parallel_after)
    first, _ = engine.analyse_colour(puzzle, 10**6,
                                     SearchLimits(max_nodes=DEFAULT_POLICY.auto_nodes),
                                     work=auto.colour_turn(puzzle))
    assert first.status == "multiple" and len(first.solutions) >= 2 and not first.exhausted

    def sat_stops(p: object, n: int, limits: SearchLimits, **kw: object) -> Result:
        return Result("unknown", (), 0, 0.0, first.partial)

    def solve_stops(*args: object, **kw: object) -> object:
        raise LimitReached("stopped")
        yield  # (a generator)

    monkeypatch.setattr(sat, "analyse", sat_stops)
    monkeypatch.setattr(parallel, "_sat_side", lambda *a, **k: [])
    monkeypatch.setattr(engine, "solve", solve_stops)
    for result in (analyse(puzzle, 10**6, method="auto"),
                   parallel.analyse(puzzle, 10**6, jobs=2)):
        assert result.status == "multiple" and not result.exhausted
        assert set(first.solutions) <= set(result.solutions)


@pytest.mark.heavy
def test_cli_says_a_stopped_count_is_a_lower_bound(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """30 rooks (30! solutions), the native search under a node limit: "at least N", exhausted
    false; 3 rooks: the exact 6."""
    for n, extra, want in ((30, ["--max-nodes", "1000"], "status: at least "),
                           (3, [], "status: 6 solutions\n")):
        path = tmp_path / f"rooks{n}.non"
        path.write_text("\n".join([f"width {n}", f"height {n}", "rows", *["1"] * n,
                                   "columns", *["1"] * n]) + "\n")
        assert main(["nonogram", "solve", str(path), "--max-solutions", "100000", "--method",
                     "native", *extra]) == 0
        out = capsys.readouterr().out
        assert want in out
        assert main(["nonogram", "solve", str(path), "--max-solutions", "100000", "--method",
                     "native", "--json", *extra]) == 0
        assert json.loads(capsys.readouterr().out)["exhausted"] is (n == 3)


@pytest.mark.heavy
def test_counting_many_stays_with_solvers_that_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven rooks in black and white (5,040 solutions), counted to a million: Kissat and
    glucose-syrup would start anew for each solution (auto took 166 Kissat runs in 20 s for
    4,361); past program_max_solutions the SAT side is Glucose, which goes on, and the team."""
    from gridsolve.nonogram.backends import kissat, parallel, syrup
    rooks = Puzzle([[1]] * 7, [[1]] * 7)
    many = DEFAULT_POLICY.program_max_solutions + 1
    assert auto.small_for_kissat(rooks, None, SearchLimits(), 2)
    assert not auto.small_for_kissat(rooks, None, SearchLimits(), many)
    big = Puzzle([[1]] * 64, [[1]] * 64)
    monkeypatch.setattr(kissat, "installed", lambda: True)
    monkeypatch.setattr(syrup, "usable", lambda: True)
    assert auto.default_solver(big, 2) == "kissat" != auto.default_solver(big, many)
    wide = Puzzle([[1]] * 40, [[1]] * 40)  # over 1,024 cells, lines under 64: Glucose's
    assert parallel._syrup_for(wide, None, 2) and not parallel._syrup_for(wide, None, many)

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("a program ran for a count")
    monkeypatch.setattr(kissat, "analyse", never)
    monkeypatch.setattr(kissat, "solutions", never)
    monkeypatch.setattr(syrup, "solutions", never)
    for result in (analyse(rooks, 10**6, SearchLimits(timeout=60), method="auto"),
                   parallel.analyse(rooks, 10**6, SearchLimits(timeout=60), jobs=2)):
        assert (result.status, len(set(result.solutions)), result.exhausted) == (
            "multiple", 5040, True)
        assert all(is_solution(rooks, g) for g in result.solutions[:50])
