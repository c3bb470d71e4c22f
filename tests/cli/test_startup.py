"""An instant command line: a small solve imports only what it needs (benchmarks/startup.py
measures the time; these tests pin what is imported, which does not depend on the machine),
and the families and commands listed without being imported say what the real ones say."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gridsolve
from gridsolve.cli import FAMILIES, build_parser
from gridsolve.cli.nonogram import COMMANDS

HEART = Path(gridsolve.__file__).parent / "examples" / "heart.txt"

#: Modules a small black-and-white solve printed to a pipe must not import: other families,
#: commands and formats' parsers, the terminal colouring, SAT, and the standard library's
#: heavy corners (xml.sax.saxutils pulls in urllib.request, http.client, email and ssl).
NOT_FOR_A_SMALL_SOLVE = (
    "gridsolve.cli.calendar", "gridsolve.cli.batch", "gridsolve.cli.serve",
    "gridsolve.cli.nonogram_author", "gridsolve.cli.nonogram_convert",
    "gridsolve.cli.nonogram_play", "gridsolve.nonogram.generate", "gridsolve.nonogram.rate",
    "gridsolve.nonogram.watch.trace", "gridsolve.notebook", "gridsolve.tiling", "gridsolve.web",
    "gridsolve.batch", "gridsolve.nonogram.backends.sat", "pysat", "rich", "xml.etree",
    "xml.sax", "urllib.request", "http.client", "email", "ssl", "pathlib",
    "concurrent.futures", "multiprocessing", "json", "html", "shutil",
    "gridsolve.nonogram.render.svg", "gridsolve.nonogram.render.layout",
)


def imported_by(code: str) -> set[str]:
    """The modules a fresh interpreter has imported after running ``code``."""
    probe = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


@pytest.mark.heavy
def test_a_small_solve_imports_only_what_it_needs() -> None:
    loaded = imported_by("from gridsolve.cli import main\n"
                         f"assert main(['nonogram', 'solve', {str(HEART)!r}]) == 0")
    assert "gridsolve.nonogram.engine" in loaded  # the probe did solve
    found = {m for m in loaded for bad in NOT_FOR_A_SMALL_SOLVE
             if m == bad or m.startswith(bad + ".")}
    assert not found


#: Modules a solve of a tournament file (``FILE#1``, the 25x25 puzzles of the batch rows)
#: must not import (issue 56): the formats its extension (.txt) does not name or whose
#: detection comes after the tournament's, the colour readers' helpers; the goal's checker
#: (the file stores none), struct (the colour core's known cells).
NOT_FOR_A_TOURNAMENT_SOLVE = tuple(
    f"gridsolve.nonogram.formats.{m}" for m in (
        "_colours", "_json_lines", "json_", "puzzlekit", "webpbn", "non", "faase", "glpk",
        "syro", "spoj", "olsak_g", "mk", "nin", "makhorin", "cwd", "text", "keen", "ish",
        "position")) + ("gridsolve.nonogram.check", "struct")


def tournament_file(folder: Path) -> Path:
    """Two 25x25 puzzles in the tournament format (``$1`` and ``$2``), in ``folder``."""
    from gridsolve.nonogram.formats.tournament import dump_many
    from gridsolve.nonogram.model import puzzle_from_grid
    grids = [["".join("#" if (r * c + r + k) % 3 else "." for c in range(25))
              for r in range(25)] for k in (1, 2)]
    path = folder / "set.txt"
    path.write_text(dump_many([puzzle_from_grid(g) for g in grids]))
    return path


@pytest.mark.heavy
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tournament_solve_loads_only_the_formats_it_tries(tmp_path: Path, jobs: str) -> None:
    """A tournament FILE#1 solve imports only the formats its detection tries; with --jobs 2,
    when this process's first turn ends it, no threading either (the children's watch)."""
    path = tournament_file(tmp_path)
    loaded = imported_by("from gridsolve.cli import main\n"
                         f"assert main(['nonogram', 'solve', '{path}#1', '--jobs', {jobs!r}]) == 0")
    assert "gridsolve.nonogram.formats.tournament" in loaded  # the probe did read it
    found = {m for m in loaded for bad in (*NOT_FOR_A_TOURNAMENT_SOLVE, "threading")
             if m == bad or m.startswith(bad + ".")}
    assert not found


@pytest.mark.heavy
def test_a_colour_puzzle_the_first_turn_ends_imports_no_sat() -> None:
    """A colour puzzle of the colour dive's sizes (30x30) that the colour turns' first turn
    ends, with one job and with two: python-sat is imported only when SAT is to run."""
    loaded = imported_by(
        "import random\n"
        "from gridsolve.nonogram.backends import analyse\n"
        "from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid\n"
        "inks = [Colour(n, (i * 60, 90, 200 - i * 50), n[0]) for i, n in\n"
        "        enumerate(('red', 'green', 'blue', 'orange'))]\n"
        "rng = random.Random(7)\n"
        "grid = [''.join('.' if rng.random() < 0.5 else rng.choice('rgbo') for _ in range(30))\n"
        "        for _ in range(30)]\n"
        "puzzle = colour_puzzle_from_grid(grid, (WHITE, *inks))\n"
        "for jobs in (1, 2):\n"
        "    assert analyse(puzzle, 2, jobs=jobs).status in ('unique', 'multiple')")
    assert "gridsolve.nonogram.engine.colour_dive" in loaded  # the colour turns did run
    assert "pysat" not in loaded and "gridsolve.nonogram.backends.sat" not in loaded


@pytest.mark.heavy
def test_import_gridsolve_is_light() -> None:
    loaded = imported_by("import gridsolve")
    assert not {"gridsolve.nonogram.engine", "gridsolve.nonogram.formats",
                "gridsolve.nonogram.generate", "gridsolve.notebook",
                "gridsolve.nonogram.model", "dataclasses"} & loaded


@pytest.mark.heavy
def test_the_version_loads_no_model() -> None:
    """``gridsolve --version`` needs the parser only: no model, no dataclasses (issue 56)."""
    loaded = imported_by("from gridsolve.cli import main\nassert main(['--version']) == 0")
    assert "gridsolve.cli" in loaded
    assert not {"gridsolve.nonogram", "gridsolve.nonogram.model", "dataclasses"} & loaded


#: Modules a batch solved in this process (``--jobs 1``) must not import: the process pool
#: and what it pulls in (concurrent.futures, with logging and threading), the Dask runner,
#: folder walking, the progress bar, SAT, hashlib's OpenSSL (the row's sha256 is CPython's
#: own), csv for JSONL rows (issue 56).
NOT_FOR_A_BATCH_IN_PROCESS = (
    "multiprocessing", "concurrent.futures", "ctypes", "pathlib", "gridsolve.workers",
    "gridsolve.batch.cluster", "gridsolve.batch.pool", "rich", "pysat", "numpy",
    "gridsolve.nonogram.backends.sat", "gridsolve.tiling", "gridsolve.web",
    "gridsolve.cli.nonogram", "logging", "threading", "hashlib", "_hashlib", "csv",
)


@pytest.mark.heavy
def test_a_batch_in_this_process_imports_only_what_it_needs(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    argv = ["batch", str(HEART), "--jobs", "1", "--out", str(out)]
    loaded = imported_by(f"from gridsolve.cli import main\nassert main({argv!r}) == 0")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["status"], r["width"], len(r["solution_hash"])) for r in rows] == [
        ("unique", 9, 16)]  # the probe did solve
    found = {m for m in loaded for bad in NOT_FOR_A_BATCH_IN_PROCESS
             if m == bad or m.startswith(bad + ".")}
    assert not found


def _helps(subparsers: Any) -> dict[str, str]:
    return {a.dest: a.help for a in subparsers._choices_actions}


def _subparsers(parser: Any) -> Any:
    return next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")


def test_families_listed_unloaded_say_what_they_say_loaded() -> None:
    full = _helps(_subparsers(build_parser()))
    assert {name: help_ for name, (_, help_) in FAMILIES.items()} == full
    for argv in (["--help"], ["bogus"], []):
        assert _helps(_subparsers(build_parser(argv))) == full
    assert _helps(_subparsers(build_parser(["calendar", "solve"]))).keys() == {"calendar"}


def test_commands_listed_unloaded_say_what_they_say_loaded() -> None:
    nonogram = _subparsers(build_parser()).choices["nonogram"]
    full = _helps(_subparsers(nonogram))
    assert {name: help_ for name, (_, help_) in COMMANDS.items()} == {
        k: v for k, v in full.items() if k != "solve"}
    listed = _subparsers(_subparsers(build_parser(["nonogram", "--help"])).choices["nonogram"])
    assert _helps(listed) == full
    named = _subparsers(_subparsers(build_parser(["nonogram", "rate"])).choices["nonogram"])
    assert _helps(named).keys() == {"solve", "generate", "rate", "check"}  # one module's
    solve = _subparsers(_subparsers(build_parser(["nonogram", "solve", "x"])).choices["nonogram"])
    assert _helps(solve).keys() == {"solve"}  # no parser for the commands not named


def test_help_and_typos_still_list_every_choice(capsys: Any) -> None:
    from gridsolve.cli import main
    assert main(["nonogram", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err and "'hint'" in err and "'solve'" in err
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in FAMILIES)


def run_as(tmp_path: Path, name: str, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` as a program file called ``name`` (the console script is ``gridsolve``),
    with SIGINT at its default as in a terminal (a shell's background job ignores it, and
    Python then installs no KeyboardInterrupt handler)."""
    program = tmp_path / name
    program.write_text(code)
    return subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          timeout=60, check=False,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.heavy
def test_ctrl_c_while_the_command_imports_is_one_line(tmp_path: Path) -> None:
    """A Ctrl-C after the package's first line and before cli.main runs (the CLI's imports):
    one line, exit 130, no traceback (it printed one)."""
    done = run_as(tmp_path, "gridsolve", "import os, signal\n"
                  "import gridsolve\n"
                  "os.kill(os.getpid(), signal.SIGINT)\n"
                  "import gridsolve.cli\n"
                  "print('not reached')\n")
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "gridsolve: interrupted\n")


@pytest.mark.heavy
def test_the_command_hands_ctrl_c_back_and_a_library_keeps_it(tmp_path: Path) -> None:
    """cli.main gives SIGINT back to Python (KeyboardInterrupt, which it catches: see
    test_nonogram); a program importing gridsolve keeps its own SIGINT handling."""
    check = ("import signal\n"
             "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n")
    done = run_as(tmp_path, "gridsolve", "import gridsolve\n" + check
                  + "from gridsolve.cli import main\n"
                  + f"assert main(['nonogram', 'solve', {str(HEART)!r}, '--jobs', '1']) == 0\n"
                  + check)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "False" and done.stdout.split()[-1] == "True"
    done = run_as(tmp_path, "myprogram.py", "import gridsolve.cli\n" + check)
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr


@pytest.mark.heavy
def test_a_process_spawned_by_the_command_keeps_the_default(tmp_path: Path) -> None:
    """multiprocessing gives a spawned child its parent's sys.argv (``.../gridsolve``), but the
    child is not the command: it must not take SIGINT (it would print the command's line)."""
    done = run_as(tmp_path, "gridsolve", "import multiprocessing, signal\n"
                  "import gridsolve\n"
                  "def child(queue):\n"
                  "    queue.put(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
                  "if __name__ == '__main__':\n"
                  "    ctx = multiprocessing.get_context('spawn')\n"
                  "    queue = ctx.Queue()\n"
                  "    proc = ctx.Process(target=child, args=(queue,))\n"
                  "    proc.start()\n"
                  "    print(queue.get(timeout=50))\n"
                  "    proc.join()\n")
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr


@pytest.mark.parametrize("script, command", [
    ("/venv/bin/gridsolve", True),
    ("/venv/Scripts/gridsolve.exe/__main__.py", True),  # pip's Windows launcher
    ("/venv/lib/site-packages/gridsolve/__main__.py", False),  # python -m gridsolve
    ("/home/me/gridsolve.py", False),
    (None, False),  # python -c, an embedded interpreter
])
def test_what_is_the_command(monkeypatch: pytest.MonkeyPatch, script: str | None,
                             command: bool) -> None:
    import types

    from gridsolve import _startup
    main = types.ModuleType("__main__")
    if script is not None:
        main.__file__ = script
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert _startup.is_command() is command


@pytest.mark.heavy
def test_the_command_loads_its_modules_with_the_collector_paused(tmp_path: Path) -> None:
    """The command pauses the cyclic garbage collector while its modules load (issue 56:
    2-3 ms of a solve's start-up) and cli.main resumes it, with what they made frozen; a
    program importing gridsolve keeps its collector as it was."""
    state = "import gc\nprint(gc.isenabled(), gc.get_freeze_count() > 0)\n"
    done = run_as(tmp_path, "gridsolve", "import gridsolve\n" + state
                  + "from gridsolve.cli import main\n"
                  + f"assert main(['nonogram', 'solve', {str(HEART)!r}, '--jobs', '1']) == 0\n"
                  + state)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (lines[0], lines[-1]) == ("False False", "True True")
    assert "status: unique solution" in done.stdout  # the solve ran as before
    done = run_as(tmp_path, "myprogram.py", "import gridsolve.cli\n" + state
                  + "from gridsolve.cli import main\n"
                  + f"assert main(['nonogram', 'solve', {str(HEART)!r}, '--jobs', '1']) == 0\n"
                  + state)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (lines[0], lines[-1]) == ("True False", "True False")
