"""Command line: ``gridsolve <family> <command> ...``. Argument parsing and printing only.

Exit codes: 0 solved, 1 no solution or limit reached, 2 usage or input error.
Errors print one line on stderr; ``-v`` shows the traceback as well.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable

__all__ = ["main"]

#: The CLI's advice for an error's ``remedy`` (the library names its parameter, never a flag).
REMEDIES = {
    "limits": "use --no-limits to read it anyway",
    "format": "name it with --format",
    "index": "take one out with 'gridsolve nonogram convert FILE OUT --index N'",
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


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, complete for the family ``argv`` names (every family when None); the
    others are listed with their help only."""
    wanted = None if argv is None else named_family(argv)
    parser = argparse.ArgumentParser(
        prog="gridsolve", description="Solve grid logic puzzles exactly and fast.")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="family", metavar="COMMAND", required=True)
    for name, (module, help_) in FAMILIES.items():
        if argv is None or name == wanted:
            importlib.import_module(module).add_parser(sub, argv)
        else:
            sub.add_parser(name, help=help_)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: 2 for usage errors, 0 for --help
        return int(exc.code or 0)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # e.g. piped into head: stop quietly, flush nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (GridsolveError, OSError) as exc:
        if args.verbose:
            raise
        code = 1 if isinstance(exc, LimitReached) else 2
        if isinstance(exc, SolverUnavailable):
            code = 2
        print(f"gridsolve: error: {error_line(exc)}", file=sys.stderr)
        return code
    except KeyboardInterrupt:
        print("gridsolve: interrupted", file=sys.stderr)
        return 130


def error_line(exc: BaseException) -> str:
    """The one line printed for an error: its message, and the flag that gets past it."""
    advice = REMEDIES.get(getattr(exc, "remedy", None) or "")
    return f"{exc} ({advice})" if advice else str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
