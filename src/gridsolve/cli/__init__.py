"""Command line: ``gridsolve <family> <command> ...``. Argument parsing and printing only.

Exit codes: 0 solved, 1 no solution or limit reached, 2 usage or input error (bare
``gridsolve`` too: it prints the list of commands, but runs none).
Errors print one line on stderr; ``-v`` shows the traceback as well. A misspelt command,
option or choice gets "did you mean ...?" on that line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import gridsolve
from gridsolve import _startup
from gridsolve import __version__
from gridsolve.cli._args import OneLineErrors, did_you_mean, printable
from gridsolve.errors import GridsolveError, InputWarning, LimitReached, SolverUnavailable

__all__ = ["main"]

#: The CLI's advice for an error's ``remedy`` (the library names its parameter, never a flag).
REMEDIES = {
    "limits": "use --no-limits to read it anyway",
    "format": "name it with --format",
    "index": "pick one with --index N or FILE#N, or take one out with "
             "'gridsolve nonogram convert FILE OUT --index N'",
    "max_memory": "use --method native, or raise --max-memory",
    "resume": "rerun with --resume to go on",
}

#: The sub-command families: name -> (the module whose ``add_parser(subparsers, argv)`` adds
#: it, its help). Only the family a command line names is imported: a command loads what it
#: needs.
FAMILIES = {
    "nonogram": ("gridsolve.cli.nonogram", "nonograms (paint by numbers)"),
    "calendar": ("gridsolve.cli.calendar", "calendar puzzles (A-Puzzle-A-Day)"),
    "tiling": ("gridsolve.cli.tiling", "polyomino tilings: count and solve (board + pieces)"),
    "batch": ("gridsolve.cli.batch",
              "solve many nonograms (files, folders, multi-puzzle sets) into rows"),
    "serve": ("gridsolve.cli.serve", "serve the web page (paste and watch a solve; calendar)"),
}


def named_family(argv: Sequence[str]) -> str | None:
    """The family a command line names (its first word that is not an option), if any."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in FAMILIES else None


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, given the terminal's width as shutil would find it: argparse
    asks shutil, whose import (with the compression modules behind it) every parser paid."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


def terminal_columns() -> int:
    """$COLUMNS, else the width of the terminal on standard output, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(OneLineErrors):
    """An ArgumentParser whose help uses ``_Formatter`` and whose errors are one line
    (sub-command parsers are this class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser: with ``argv`` None every family in full; else only the family ``argv``
    names, or, when it names none (help, a typo), every family listed with its help."""
    wanted = None if argv is None else named_family(argv)
    parser = _Parser(prog="gridsolve", description="Solve grid logic puzzles exactly and fast.")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks on errors")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="family", metavar="COMMAND", required=True)
    for name, (module, help_) in FAMILIES.items():
        if argv is None or name == wanted:
            importlib.import_module(module).add_parser(sub, argv)
        elif wanted is None:
            sub.add_parser(name, help=help_)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (130 after Ctrl-C, at any point: while a
    family's modules are imported too)."""
    try:
        _startup.release()  # from here on Ctrl-C is KeyboardInterrupt, caught below
        return _main(sys.argv[1:] if argv is None else list(argv))
    except KeyboardInterrupt:
        print("gridsolve: interrupted", file=sys.stderr)
        return 130


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as one line on stderr, as errors are (``warnings.showwarning``'s signature)."""
    print(f"gridsolve: warning: {printable(str(message))}", file=sys.stderr)


def _main(argv: list[str]) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("always", InputWarning)
        warnings.showwarning = _show_warning
        return _run(argv)


def _run(argv: list[str]) -> int:
    try:
        parser = build_parser(argv)  # imports the family's modules
    finally:
        gridsolve._resume_gc()
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:  # said by the command they were given to, with the options it has
            command = _command_parser(parser, args)
            command.error(f"unrecognized arguments: {' '.join(extras)}"
                          f"{_option_hint(command, extras)}")
    except SystemExit as exc:  # argparse: 2 for usage errors, 0 for --help and --version
        return int(exc.code or 0)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # e.g. piped into head: stop quietly, flush nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:  # e.g. --no-limits on a huge input, under a ulimit
        if args.verbose:
            raise
        print("gridsolve: error: out of memory", file=sys.stderr)
        return 1
    except (GridsolveError, OSError) as exc:
        if args.verbose:
            raise
        code = 1 if isinstance(exc, LimitReached) else 2
        if isinstance(exc, SolverUnavailable):
            code = 2
        print(f"gridsolve: error: {printable(error_line(exc))}", file=sys.stderr)
        return code


def _command_parser(parser: argparse.ArgumentParser,
                    args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub-)command the arguments chose (argparse keeps sub-parsers in the
    choices of its _SubParsersAction)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _command_parser(chosen, args)
    return parser


def _option_hint(parser: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """The "did you mean" of the first unknown option close to one the command shows."""
    shown = [o for a in parser._actions if a.help != argparse.SUPPRESS for o in a.option_strings]
    for word in extras:
        if word.startswith("-") and (hint := did_you_mean(word.split("=")[0], shown)):
            return hint
    return ""


def error_line(exc: BaseException) -> str:
    """The one line printed for an error: its message, and the flag that gets past it."""
    advice = REMEDIES.get(getattr(exc, "remedy", None) or "")
    return f"{exc} ({advice})" if advice else str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
