"""Ctrl-C ends every long command at once with exit code 130 (issue #54.1): SIGINT to the
command's process group while its engine works on a random 300x300 (minutes of search; 60 s
and more went by after Ctrl-C before the compiled loops looked for it)."""

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
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import puzzle_from_grid

pytestmark = [pytest.mark.heavy,
              pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")]

#: The command has surely entered its engine by then (a 300x300 is read in tenths of a second).
STARTED = 2.5
#: It ends within this many seconds of the signal (a few milliseconds when nothing else runs;
#: the bound is for a busy machine, and far below the minutes the search would take).
ENDS_WITHIN = 15.0


LONG = ["--timeout", "600"]


@pytest.mark.parametrize("argv", [
    ["solve", "--method", "native", "--jobs", "1", *LONG],
    ["solve", *LONG],  # auto, on every core: child processes too
    ["solve", "--method", "sat", *LONG],
    # no timer: Ctrl-C alone stops the python-sat solve (python-sat's own handler did, from
    # whatever thread got the signal; the progress line's is one)
    ["solve", "--method", "sat"],
    # a solver python-sat cannot interrupt runs in a child process, killed at Ctrl-C
    ["solve", "--method", "sat", "--sat-solver", "cadical195"],
    ["rate", *LONG],
    ["check", *LONG],
    ["explain", *LONG],
], ids=["solve-native", "solve-auto", "solve-sat", "solve-sat-no-timeout", "solve-sat-cadical",
        "rate", "check", "explain"])
def test_ctrl_c_ends_the_command_with_130(tmp_path: Path, argv: list[str]) -> None:
    if "sat" in argv:
        pytest.importorskip("pysat")
    path = tmp_path / "r300.txt"
    path.write_text(write_puzzle(puzzle_from_grid(random_grid(300, 300, 0.5,
                                                              random.Random(300))), "text"))
    proc = subprocess.Popen([sys.executable, "-m", "gridsolve", "nonogram", *argv, str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        time.sleep(STARTED)
        assert proc.poll() is None, proc.communicate()
        sent = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=ENDS_WITHIN)
        assert time.perf_counter() - sent < ENDS_WITHIN
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "gridsolve: interrupted"
    assert "Traceback" not in err and "Process " not in err, err  # (nor from a child)
    if argv[0] == "rate":  # what it has: what line logic alone left, then why
        assert "line logic alone leaves" in out and out.strip().endswith(
            "interrupted before the rating was done"), out
    if argv[0] == "check":  # what it has: the clues' problems (none here), then why
        assert out.strip().endswith("interrupted before its solutions were counted"), out
    if argv[0] == "solve" and "sat" not in argv:  # what the team had proven is printed
        assert "interrupted; settled so far: " in out
        assert "of 90000 cells ('?' still open):" in out
