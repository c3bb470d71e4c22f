"""README.md's examples, and those of the guide's pages (docs/*.md), run as shown: each
``console`` block's ``$`` commands give the output printed under them, and each ``pycon``
block passes as a doctest.

The conventions (README.md's Development section says them too):

- a ``console`` block is a list of ``$ COMMAND`` lines, each followed by its expected output
  (standard output and standard error together); a command that exits non-zero ends with
  ``# exit N``;
- in the expected output ``<...>`` stands for any text within one line (times, dates) and a
  line ``...`` for any number of lines;
- a block is run in a fresh temporary folder in which ``src/`` is the repository's ``src/``,
  so the bundled examples are found by the paths the README gives and the files an example
  writes go nowhere else;
- a block after a ``<!-- slow -->`` line (over about a second) runs only in ``make test-slow``
  (marked ``heavy``).

The fast suite runs each block in this process through ``gridsolve.cli.main``, the function
``.venv/bin/gridsolve`` calls; ``make test-slow`` (``heavy``: it starts processes) also runs
every block as a user would, each command by ``bash`` with ``.venv/bin`` first on the PATH.
"""

from __future__ import annotations

import codecs
import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
EXIT = re.compile(r"\s+# exit (\d+)$")
PRINTF = re.compile(r"^printf '([^']*)' > ([\w.-]+)$")


@dataclass(frozen=True)
class Command:
    """One ``$`` line of a console block: what is typed, its exit code and its output."""

    line: str
    exit_code: int
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Block:
    """A fenced block of the README: its language, text, first line number and slowness."""

    lang: str
    text: str
    lineno: int
    slow: bool
    source: str = "README.md"

    @property
    def name(self) -> str:
        return f"{self.source}:{self.lineno}"


def blocks(text: str, source: str = "README.md") -> list[Block]:
    """Every fenced block, with whether a ``<!-- slow -->`` line comes just before it."""
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        out.append(Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1,
                         before.strip() == "<!-- slow -->", source))
    return out


def commands(block: Block) -> list[Command]:
    """The commands of a console block, each with the output lines shown under it."""
    out: list[Command] = []
    line, code = "", 0
    expected: list[str] = []
    for row in block.text.splitlines():
        if row.startswith("$ "):
            if line:
                out.append(Command(line, code, tuple(expected)))
            m = EXIT.search(row)
            line, code, expected = row[2:], 0, []
            if m:
                line, code = row[2:m.start()], int(m.group(1))
        elif line:
            expected.append(row)
        else:
            raise ValueError(f"{block.name}: a console block starts with a '$ ' line")
    if line:
        out.append(Command(line, code, tuple(expected)))
    return out


def pattern(expected: tuple[str, ...]) -> re.Pattern[str]:
    """The regular expression of an expected output: ``<...>`` any text of one line, a line
    ``...`` any lines; trailing spaces and blank lines at the end do not count."""
    parts = []
    for row in expected:
        if row == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(p) for p in row.rstrip().split("<...>")) + r"\n")
    return re.compile("".join(parts))


def normal(output: str) -> str:
    """Output as compared: trailing spaces of each line and blank lines at the end dropped."""
    rows = [r.rstrip() for r in output.splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    return "".join(r + "\n" for r in rows)


def matches(command: Command, output: str) -> bool:
    return pattern(command.expected).fullmatch(normal(output)) is not None


def run_in_process(line: str) -> tuple[int, str]:
    """A command run here: ``gridsolve ARGS`` by ``gridsolve.cli.main``, ``printf 'X' > F``
    by writing F, anything else by bash."""
    if line.startswith("gridsolve "):
        from gridsolve.cli import main

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            code = main(shlex.split(line)[1:])
        return code, buf.getvalue()
    m = PRINTF.match(line)
    if m:
        Path(m.group(2)).write_text(codecs.decode(m.group(1), "unicode_escape"), encoding="utf-8")
        return 0, ""
    return run_in_shell(line)


def run_in_shell(line: str) -> tuple[int, str]:
    """A command run as a user types it, ``.venv/bin`` (this Python's) first on the PATH."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("COLUMNS", None)
    done = subprocess.run(["bash", "-c", line], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, timeout=300, check=False)
    return done.returncode, done.stdout


def run_block(block: Block, where: Path, in_process: bool) -> None:
    """Every command of a console block in ``where``, each checked against what is shown."""
    (where / "src").symlink_to(REPO / "src", target_is_directory=True)
    for command in commands(block):
        code, output = (run_in_process if in_process else run_in_shell)(command.line)
        shown = "\n".join(command.expected)
        assert code == command.exit_code and matches(command, output), (
            f"{block.name}: $ {command.line}\nexit {code} (README: {command.exit_code})\n"
            f"--- printed ---\n{output}--- README shows ---\n{shown}")


def run_doctest(block: Block) -> None:
    """A pycon block as a doctest."""
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.name, str(REPO / block.source),
                                               block.lineno)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]
ALL = [b for page in PAGES
       for b in blocks(page.read_text(encoding="utf-8"), page.relative_to(REPO).as_posix())]
CONSOLE = [b for b in ALL if b.lang == "console"]
PYCON = [b for b in ALL if b.lang == "pycon"]


@pytest.mark.parametrize("block", [b for b in CONSOLE if not b.slow], ids=lambda b: b.name)
def test_console_example(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_block(block, tmp_path, in_process=True)


@pytest.mark.parametrize("block", PYCON, ids=lambda b: b.name)
def test_python_example(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").symlink_to(REPO / "src", target_is_directory=True)
    run_doctest(block)


@pytest.mark.heavy
@pytest.mark.parametrize("block", CONSOLE, ids=lambda b: b.name)
def test_console_example_as_typed(block: Block, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_block(block, tmp_path, in_process=False)


def test_the_readme_is_a_short_guide_with_examples_of_each_kind() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300
    readme = [b for b in ALL if b.source == "README.md"]
    assert len([b for b in readme if b.lang == "console"]) >= 8
    assert [b for b in readme if b.lang == "pycon"]
    assert all(commands(b) for b in CONSOLE)


def test_the_conventions() -> None:
    text = ("```console\n$ a x  # exit 1\nout <...> s\n...\nend\n$ b\n```\n"
            "<!-- slow -->\n```console\n$ c\n```\n")
    first, second = blocks(text)
    assert not first.slow and second.slow and second.lineno == 9
    a, b = commands(first)
    assert (a.line, a.exit_code, b.line, b.exit_code) == ("a x", 1, "b", 0)
    assert matches(a, "out 0.25 s\nmore\nlines\nend\n\n")
    assert matches(a, "out 1 s  \nend\n")
    assert not matches(a, "out 1 s\nbegin\n")          # the last line must be there
    assert not matches(a, "out 1 s\nend\nextra\n")     # and nothing after it
    assert not matches(b, "printed\n")                  # no output shown: none printed
