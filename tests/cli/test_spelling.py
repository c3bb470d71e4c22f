"""One way to say things on the command line (issue 54.10): one spelling per notion (old ones
kept, hidden), --version, bare gridsolve lists the commands, "did you mean" for a typo."""

from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Iterator

import pytest

from gridsolve.cli import FAMILIES, build_parser, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def commands(parser: argparse.ArgumentParser, name: str = "gridsolve"
             ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every (sub-)command's name and parser, the whole tree."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                yield from commands(sub, f"{name} {word}")


def shown_options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The options a command's --help shows, by spelling."""
    return {o: a for a in parser._actions if a.help != argparse.SUPPRESS for o in a.option_strings}


def test_one_spelling_per_notion() -> None:
    """A piece file is --pieces-file, a date the positional DATE, a count of pieces to show
    --reveal, the input's format --format and the output's --to, in every command."""
    seen = 0
    for name, parser in commands(build_parser(None)):
        shown = shown_options(parser)
        assert "--pieces" not in shown and "--date" not in shown, name
        if "--format" in shown:
            assert (shown["--format"].help or "").startswith("input format"), name
        if "--to" in shown:
            assert (shown["--to"].help or "").startswith("output format"), name
        if name.startswith("gridsolve calendar ") and "--board" in shown:
            assert "--pieces-file" in shown, name
            seen += 1
        if name in ("gridsolve calendar solve", "gridsolve calendar hint",
                    "gridsolve calendar count"):
            assert any(a.metavar == "DATE" and not a.option_strings for a in parser._actions)
    assert seen == 6
    assert "--to" in shown_options(dict(commands(build_parser(None)))[
        "gridsolve nonogram generate"])


def test_old_spellings_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "calendar", "count", "Oct 6") == (0, "Oct 6: 7\n", "")
    assert run(capsys, "calendar", "count", "--date", "Oct 6") == (0, "Oct 6: 7\n", "")
    for option in ("--reveal", "--pieces"):
        code, out, _ = run(capsys, "calendar", "hint", "Oct 6", option, "2")
        assert code == 0 and out.startswith("Oct 6: 2 of 8 pieces shown")
    code, out, _ = run(capsys, "calendar", "solve", "--date", "Oct 6")
    assert code == 0 and out.startswith("Oct 6: 7 solutions")
    for option in ("--pieces-file", "--pieces"):
        code, _, err = run(capsys, "calendar", "design", option, "x.pieces")
        assert (code, err) == (2, "gridsolve: error: give both --board and --pieces-file for "
                                  "a piece set of your own\n")
    for option in ("--to", "--format"):
        code, out, _ = run(capsys, "nonogram", "generate", "--width", "4", "--height", "4",
                           "--seed", "1", option, "non")
        assert code == 0 and out.startswith('title "gridsolve 4x4'), option


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version") == (
        0, f"gridsolve {importlib.metadata.version('gridsolve')}\n", "")


def test_bare_gridsolve_lists_the_commands_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing was done (a usage error, for scripts), but a person sees what to type."""
    code, out, err = run(capsys)
    assert (code, err) == (2, "")
    assert out.startswith("usage: gridsolve") and all(f"    {f} " in out for f in FAMILIES)
    code, out, err = run(capsys, "calendar")
    assert (code, err) == (2, "")
    assert all(f"    {c} " in out for c in ("solve", "hint", "count", "rank", "design"))


@pytest.mark.parametrize("argv, line", [
    (["nonogam"], "gridsolve: error: argument COMMAND: invalid choice: 'nonogam' (choose from "
                  "'nonogram', 'calendar', 'tiling', 'batch', 'serve') (did you mean "
                  "'nonogram'?)"),
    (["nonogram", "solv", "x"], "(did you mean 'solve'?)"),
    (["nonogram", "solve", "x", "--timout", "3"],
     "gridsolve nonogram solve: error: unrecognized arguments: --timout 3 (did you mean "
     "'--timeout'?)"),
    (["nonogram", "solve", "x", "--method", "natve"], "(did you mean 'native'?)"),
    (["calendar", "count", "--edtion=weekday"], "(did you mean '--edition'?)"),
    (["calendar", "hint", "--revael", "2"], "(did you mean '--reveal'?)"),
])
def test_a_typo_gets_did_you_mean_on_one_line(argv: list[str], line: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.rstrip("\n").endswith(line), err
