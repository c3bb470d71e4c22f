"""glucose-syrup, run as a program with several threads (backends/syrup.py): exact counts
against brute force and the native engine, limits that hold, no process left behind, and
``--jobs`` giving it the SAT side of a large puzzle (parallel.py, decision 0024)."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends import analyse, parallel, syrup
from gridsolve.nonogram.backends._program import OutOfMemory
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import Policy
from tests.nonogram.backends import programs
from tests.nonogram.backends.programs import random_puzzle, running_children
from tests.nonogram.backends.test_backends import status_for, tiny_puzzles
from tests.nonogram.cases import CASES
from tests.nonogram.oracle import all_solutions as brute_force

# (the SAT side is tested on random puzzles the dive would end at once: the tests of auto
# and --jobs on those pass conftest's no_dive policy, or root_only's)
pytestmark = [pytest.mark.skipif(not syrup.usable(),
                                 reason="glucose-syrup (gridsolve[syrup]) not installed, or no "
                                        "/proc to tell a hung run by"),
              pytest.mark.heavy]  # all but one start glucose-syrup or --jobs processes


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_puzzles_match_brute_force(puzzle: Puzzle) -> None:
    want = brute_force(puzzle)
    result = syrup.analyse(puzzle, 64)
    assert set(result.solutions) == want and len(result.solutions) == len(want)
    assert result.status == status_for(len(want), 64)


@pytest.mark.parametrize("threads, guided", [(1, True), (2, True), (1, False)])
def test_counts_like_the_native_engine(threads: int, guided: bool,
                                       request: pytest.FixtureRequest) -> None:
    """Random 6x6 to 12x12 pictures, counting to 30, with 1 and 2 threads: each solution
    once, and all of them; and without the guided search, which proves most of these itself.
    (With 3 threads it hangs on most models it settles without search, as these small ones
    often are: see the test below.)"""
    if not guided:
        request.getfixturevalue("no_guided")
    for seed in range(6):
        puzzle = random_puzzle(seed, 6 + seed % 7, 12 - seed % 7)
        native = analyse(puzzle, 30, method="native")
        result = syrup.analyse(puzzle, 30, threads=threads)
        assert result.status == native.status, seed
        assert len(set(result.solutions)) == len(result.solutions) == len(native.solutions)
        if len(native.solutions) < 30:
            assert set(result.solutions) == set(native.solutions), seed
        assert all(is_solution(puzzle, g) for g in result.solutions)
        assert result.stats["syrup_runs"] >= 1


def test_known_cells_and_found_solutions() -> None:
    puzzle = next(c[1] for c in CASES if c[0] == "diagonal pair")  # two solutions
    assert syrup.analyse(puzzle, 10, known=("#?", "??")).solutions == (("#.", ".#"),)
    assert syrup.analyse(puzzle, 10, known=("##", "??")).status == "none"
    result = syrup.analyse(puzzle, 2, found=[("#.", ".#")])
    assert result.status == "multiple" and set(result.solutions) == {("#.", ".#"), (".#", "#.")}


def test_the_conflicts_of_every_thread_count() -> None:
    out = ("c | Threads       |      Total      |          0 |          1 |\n"
           "c | Conflicts     |           20942 |      10163 |      10779 |\n")
    assert syrup._conflicts(out) == 20942
    assert syrup._conflicts("c nothing\n") == 0
    puzzle = random_puzzle(3, 30, 30)
    result = syrup.analyse(puzzle, 2, threads=3)
    assert result.nodes == result.stats["conflicts"] > 0
    assert result.status == analyse(puzzle, 2, method="native").status


def syrup_processes() -> int:
    """Running processes of the glucose-syrup program whose parent is this process."""
    return running_children(syrup.program())


def test_limits() -> None:
    """A timeout kills it on time (nothing left running: "unknown"); a node limit, which it
    cannot hold, and bad thread counts are refused; a model over the memory limit is refused
    before it is built."""
    puzzle = random_puzzle(70_001, 100, 100)  # minutes
    started = time.perf_counter()
    result = syrup.analyse(puzzle, 2, SearchLimits(timeout=0.5))
    assert result.status == "unknown" and not result.solutions
    assert time.perf_counter() - started < 0.5 + 1.0
    assert syrup_processes() == 0
    with pytest.raises(GridsolveError, match="node limit"):
        syrup.analyse(puzzle, 2, SearchLimits(max_nodes=100))
    for bad in (0, 2000):
        with pytest.raises(ValueError, match="threads"):
            syrup.solutions(puzzle, threads=bad)
    with pytest.raises(LimitReached, match="memory limit"):
        syrup.analyse(random_puzzle(7, 70, 70), 2, SearchLimits(max_memory=2**20))


def test_a_run_stopped_at_the_deadline_reports_its_conflicts() -> None:
    """At the deadline glucose-syrup is sent SIGINT and prints its statistics (line-buffered
    through stdbuf, or they would stay in its buffer): the conflicts count as nodes, on time,
    with nothing left running. An 80x80 its threads did not end in 3 s (a 70x70 they
    sometimes did), whose model is read in a few hundredths of a second, so that the search
    has begun by the deadline however busy the machine (a 100x100 left no time for a
    conflict at load 9: issue 53.5)."""
    if syrup._line_buffered() == []:
        pytest.skip("no stdbuf here: a run stopped at the deadline counts 0")
    puzzle = random_puzzle(80_001, 80, 80)  # ~50,000 conflicts in 3 s, from ~0.1 s
    started = time.perf_counter()
    result = syrup.analyse(puzzle, 2, SearchLimits(timeout=3.0))
    assert time.perf_counter() - started < 3.0 + 0.5
    assert result.status == "unknown" and result.nodes > 0
    assert result.stats["conflicts"] == result.nodes and syrup_processes() == 0


def fake_program(tmp_path, monkeypatch: pytest.MonkeyPatch, message: str, code: int) -> None:  # type: ignore[no-untyped-def]
    """$GRIDSOLVE_SYRUP names a script that reads its input, says ``message``, exits ``code``."""
    programs.fake_program(tmp_path, monkeypatch, syrup.ENV, "glucose-syrup", message, code)


def test_a_failing_program_is_one_clear_error(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    puzzle = random_puzzle(5, 8, 8)
    fake_program(tmp_path, monkeypatch, "terminate called: std::bad_alloc", 134)
    with pytest.raises(OutOfMemory, match="memory limit"):
        syrup.analyse(puzzle, 2, SearchLimits(max_memory=2**30))
    fake_program(tmp_path, monkeypatch, "PARSE ERROR! Unexpected char", 3)
    with pytest.raises(GridsolveError, match="exit code 3.*PARSE ERROR") as caught:
        syrup.analyse(puzzle, 2, SearchLimits(max_memory=2**30))
    assert not isinstance(caught.value, LimitReached)
    monkeypatch.setenv(syrup.ENV, str(tmp_path / "no-such-program"))
    with pytest.raises(GridsolveError, match="no-such-program cannot be run"):
        syrup.analyse(puzzle, 2)


@pytest.mark.usefixtures("no_guided")
def test_a_crash_in_its_statistics_and_a_hang_are_worked_around(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """glucose-syrup 4.2.1 dies of SIGFPE printing its statistics on a model it settles
    without search, and now and then hangs on one: the first run is made again without
    statistics, a hung one (no CPU time) again, and one that always hangs is one clear error
    after STALL_RUNS runs, nothing left running."""
    puzzle = puzzle_from_grid(["#"])
    fake = tmp_path / "glucose-syrup"
    fake.write_text('#!/bin/sh\ninput=$(cat)\ncase "$*" in *-verb=1*) kill -FPE $$;; esac\n'
                    'if echo "$input" | grep -qx -- "-1 0"; then echo "s UNSATISFIABLE"; '
                    'exit 20; fi\necho "s SATISFIABLE"\necho "v 1 0"\nexit 10\n')
    fake.chmod(0o755)
    monkeypatch.setenv(syrup.ENV, str(fake))
    result = syrup.analyse(puzzle, 2)
    assert result.status == "unique" and result.solutions == (("#",),)
    assert result.stats["syrup_runs"] == 2  # the solution, then none other (each run twice)
    fake.write_text("#!/bin/sh\ncat > /dev/null\necho \"$*\" >> \"$0.args\"\nexec sleep 60\n")
    monkeypatch.setattr(syrup, "STALL_SECONDS", 0.2)
    started = time.perf_counter()
    with pytest.raises(GridsolveError, match=f"hung {syrup.STALL_RUNS} times"):
        syrup.analyse(puzzle, 2)
    assert time.perf_counter() - started < syrup.STALL_RUNS * 0.2 + 3.0
    assert syrup_processes() == 0
    runs = (tmp_path / "glucose-syrup.args").read_text().splitlines()
    assert len(runs) == syrup.STALL_RUNS and "-nthreads=2" in runs[0]
    assert all("-nthreads=1" in run for run in runs[1:])  # one thread hangs less often
    # a program that gives a solution its blocking clause rules out: an error, not a count
    fake.write_text('#!/bin/sh\ncat > /dev/null\necho "s SATISFIABLE"\necho "v 1 0"\nexit 10\n')
    with pytest.raises(GridsolveError, match="gave a solution again"):
        syrup.analyse(puzzle, 2)
    # under a memory limit it may catch its own failed allocation: exit 0, INDETERMINATE
    fake.write_text('#!/bin/sh\ncat > /dev/null\necho "s INDETERMINATE"\nexit 0\n')
    with pytest.raises(OutOfMemory, match="memory limit"):
        syrup.analyse(puzzle, 2, SearchLimits(max_memory=2**30))
    with pytest.raises(GridsolveError, match="exit code 0") as caught:
        syrup.analyse(puzzle, 2)
    assert not isinstance(caught.value, LimitReached)


def test_missing_program(monkeypatch: pytest.MonkeyPatch, no_dive: Policy) -> None:
    """Without the program a call says which extra to install, and --jobs keeps its other
    searches (the team, SAT, Kissat) on a large puzzle."""
    monkeypatch.delenv(syrup.ENV, raising=False)
    monkeypatch.setattr(syrup.PROGRAM, "found", [None])  # none on the PATH or in a wheel
    with pytest.raises(SolverUnavailable, match=r"gridsolve\[syrup\]"):
        syrup.analyse(CASES[0][1])
    puzzle = random_puzzle(2, 50, 50)
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2, policy=no_dive)
    assert result.status == "multiple" and "sat_threads" not in result.stats


@pytest.fixture
def root_only(no_dive: Policy) -> Policy:
    """A policy (without the dive) whose team's first turn is its root alone (one node),
    so the processes start whatever the machine's speed."""
    return replace(no_dive, auto_nodes=1)


def test_jobs_gives_a_large_puzzle_to_its_threads(root_only: Policy) -> None:
    """``--jobs 2`` on a random 50x50 picture the team's root does not end: auto's turns
    (the team and Glucose) go on in one process, glucose-syrup with one thread in the other;
    the answer checked, the count exact. More jobs give glucose-syrup more threads, up to
    the policy's syrup_threads; the cores past them run the native restarts."""
    puzzle = random_puzzle(2, 50, 50)  # test_backends.hard_puzzle: several solutions
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2, policy=root_only)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["sat_threads"] == 1 and result.stats["jobs"] == 2
    two = replace(root_only, syrup_threads=2)
    for jobs, threads, processes in ((3, 2, 2), (4, 2, 3)):
        result = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=jobs, policy=two)
        assert result.status == "multiple"
        assert all(is_solution(puzzle, g) for g in result.solutions)
        assert result.stats["sat_threads"] == threads and result.stats["jobs"] == processes
    named = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2, solver="glucose42",
                             policy=root_only)  # a named solver keeps the team and it
    assert named.status == "multiple" and "sat_threads" not in named.stats


def test_jobs_answers_as_auto_while_the_program_searches(tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                         root_only: Policy) -> None:
    """With a glucose-syrup that searches for ever (a busy loop), ``--jobs 2`` answers as
    auto does on one core, from auto's own process (decision 0030: before, glucose-syrup
    had both cores and the team none), and the program does not outlive the call."""
    fake = tmp_path / "glucose-syrup"
    fake.write_text("#!/bin/sh\ncat > /dev/null\nwhile :; do :; done\n")
    fake.chmod(0o755)
    monkeypatch.setenv(syrup.ENV, str(fake))
    for seed in (2, 10):  # several solutions; (10: the team ends it)
        puzzle = random_puzzle(seed, 50 if seed == 2 else 40, 50 if seed == 2 else 40)
        alone = analyse(puzzle, 2, SearchLimits(timeout=60), "auto", policy=root_only)
        result = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2, policy=root_only)
        assert result.status == alone.status == "multiple"
        assert len(set(result.solutions)) == 2
        assert all(is_solution(puzzle, g) for g in result.solutions)
        assert result.stats["sat_threads"] == 1 and result.stats["jobs"] == 2
        assert result.nodes >= 1
    for _ in range(50):  # (killed with its process: the parent-death signal)
        if not _running(str(fake)):
            break
        time.sleep(0.1)
    assert not _running(str(fake))


def _running(path: str) -> bool:
    """Is a process running the script at ``path`` (its command line names it; the
    program's own, ``programs.running_children``, would miss a script run by its shell)?"""
    import os
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if path.encode() in f.read().split(b"\0"):
                        with open(f"/proc/{pid}/stat", "rb") as g:
                            if g.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                                return True
            except OSError:
                continue
    return False


def test_which_puzzles_it_takes() -> None:
    """Black and white, over the policy's small_cells cells, no solver named: the small
    tournament puzzles keep the team and Kissat's seeds (0022), colour its engine and SAT."""
    from gridsolve.nonogram.model import colour_puzzle_from_grid
    from tests.nonogram.engine.test_colour_engine import palette, random_grid
    assert parallel._syrup_for(random_puzzle(1, 40, 40), None, 2)
    assert not parallel._syrup_for(random_puzzle(1, 32, 32), None, 2)  # 1,024 cells
    assert not parallel._syrup_for(random_puzzle(1, 40, 40), "glucose42", 2)
    colour = colour_puzzle_from_grid(random_grid(random.Random(1), 40, 40, 2, 0.5), palette(2))
    assert not parallel._syrup_for(colour, None, 2)


def test_auto_turns_go_on_here_when_every_process_fails(tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                        root_only: Policy) -> None:
    """glucose-syrup fails at once and auto's process fails too (out of memory, in the
    processes only): auto's turns go on in this process, and the count is exact."""
    import os
    from gridsolve.nonogram.backends import auto
    fake_program(tmp_path, monkeypatch, "PARSE ERROR!", 3)
    here = os.getpid()
    go_on = auto.go_on

    def fails_in_a_process(*args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() != here:
            raise MemoryError
        return go_on(*args, **kwargs)
    monkeypatch.setattr(auto, "go_on", fails_in_a_process)
    puzzle = random_puzzle(10, 40, 40)  # its root does not end it, the team does in ~0.1 s
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=120), jobs=2, policy=root_only)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["team_went_on"] == 1 and result.stats["failed"] == 2
    assert result.nodes >= 1


def test_jobs_answers_when_the_program_fails(tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                            root_only: Policy) -> None:
    """A glucose-syrup that fails at once: auto's process answers, the count exact."""
    fake_program(tmp_path, monkeypatch, "PARSE ERROR!", 3)
    puzzle = random_puzzle(10, 40, 40)  # its root does not end it, the team does in ~0.1 s
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=120), jobs=2, policy=root_only)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["sat_threads"] == 1 and "team_went_on" not in result.stats
