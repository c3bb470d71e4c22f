"""Issue 21: a batch's worker processes end with it (even SIGKILLed), and Ctrl-C prints no
traceback. Each test runs a real ``gridsolve batch --jobs 2`` on puzzles that keep both
workers busy, and acts once the workers are up."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.model import Puzzle, clue_of, columns_of

# heavy: every test here runs the CLI in a process and kills it (make test-slow runs them)
pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                 reason="needs /proc to list child processes"),
              pytest.mark.heavy]


def _hard_puzzles(folder: Path, count: int = 8, side: int = 70) -> None:
    """Random grids at density one half: far more than a second each for the engine."""
    rng = random.Random(21)
    for k in range(count):
        rows = ["".join(rng.choice("#.") for _ in range(side)) for _ in range(side)]
        puzzle = Puzzle([clue_of(r) for r in rows], [clue_of(c) for c in columns_of(rows)])
        (folder / f"r{k}.txt").write_text(write_puzzle(puzzle, "text"))


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process we can see."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def _descendants(pid: int) -> set[int]:
    parents = _parents()
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parents.items() if pp == p}
        todo += kids - found
        found |= kids
    return found


def _alive(pids: set[int]) -> set[int]:
    """The pids still running (zombies are dead)."""
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def _start_batch(folder: Path, *method: str) -> subprocess.Popen[bytes]:
    """The batch in a session of its own, stderr to ``folder/err`` (not a pipe: a worker left
    behind would hold it open)."""
    cmd = [sys.executable, "-c", "import sys; from gridsolve.cli import main; sys.exit(main())",
           "batch", str(folder), "--jobs", "2", "--timeout", "30", "--no-progress",
           *(method or ("--method", "native"))]
    with open(folder / "err", "wb") as err:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)


def _wait_for_workers(proc: subprocess.Popen[bytes], cpu: float) -> set[int]:
    """The batch's descendants once two of them have run ``cpu`` seconds (with most of a
    second, the workers have imported and are solving; with 0, they are starting)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kids = _descendants(proc.pid)
        if sum(_cpu_seconds(k) >= cpu and b"resource_tracker" not in _cmdline(k)
               for k in kids) >= 2:
            return kids
        time.sleep(0.1)
    proc.kill()
    pytest.fail("the batch never started its workers")


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _gone_within(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _alive(pids)


def test_sigkilled_batch_leaves_no_process(tmp_path: Path) -> None:
    _hard_puzzles(tmp_path)
    proc = _start_batch(tmp_path)
    _wait_for_workers(proc, 0.0)
    time.sleep(0.5)  # killed while the workers start or solve: either way none may stay
    kids = _descendants(proc.pid)
    assert len(kids) >= 2
    _kill_and_check(proc, kids)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_sigkilled_batch_takes_the_sat_children_along(tmp_path: Path) -> None:
    """CaDiCaL cannot be interrupted, so each worker runs it in a child of its own."""
    pytest.importorskip("pysat")
    _hard_puzzles(tmp_path, count=2)
    proc = _start_batch(tmp_path, "--method", "sat", "--sat-solver", "cadical153")
    deadline = time.monotonic() + 60
    while len(kids := _descendants(proc.pid)) < 5 and time.monotonic() < deadline:
        time.sleep(0.1)  # the tracker, two workers and a search below each
    _kill_and_check(proc, kids)
    assert len(kids) >= 5, "the SAT searches never started"


def _kill_and_check(proc: subprocess.Popen[bytes], kids: set[int]) -> None:
    """SIGKILL the batch: within seconds none of its descendants may be left."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = _gone_within(kids, 10)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, [_cmdline(p) for p in left]


@pytest.mark.parametrize("cpu", [0.0, pytest.param(0.8, marks=pytest.mark.slow)],
                         ids=["workers-starting", "workers-solving"])
def test_ctrl_c_prints_no_traceback(tmp_path: Path, cpu: float) -> None:
    _hard_puzzles(tmp_path)
    proc = _start_batch(tmp_path)
    kids = _wait_for_workers(proc, cpu)
    os.killpg(proc.pid, signal.SIGINT)  # as the terminal does: the whole process group
    try:
        proc.wait(timeout=30)
    finally:
        proc.kill()
    err = (tmp_path / "err").read_text()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert err.startswith("interrupted: ") and err.endswith(
        "rows so far are written; run again with --resume to go on\n"), err
    left = _gone_within(kids, 10)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_a_child_whose_parent_died_before_it_asked_ends_at_once() -> None:
    """The kernel only watches a parent still alive: a process told its parent's pid ends at
    once if its parent is already another (the one that started it died between the fork and
    the call: a CaDiCaL search forked by a worker killed then was left running)."""
    code = ("import os, sys\n"
            "from gridsolve.workers import die_with_parent\n"
            "die_with_parent(os.getppid())\n"
            "print('watched', flush=True)\n"
            "die_with_parent(int(sys.argv[1]))\n"  # not its parent: as if that one had died
            "print('not reached')\n")
    done = subprocess.run([sys.executable, "-c", code, str(os.getpid() + 10**6)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "watched\n"), done.stderr
