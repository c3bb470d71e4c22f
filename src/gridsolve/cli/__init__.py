"""Command line: ``gridsolve <family> <command> ...``. Argument parsing and printing only.

Exit codes: 0 solved, 1 no solution or limit reached, 2 usage or input error.
Errors print one line on stderr; ``-v`` shows the traceback as well.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from gridsolve.cli import batch, calendar, nonogram, serve
from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable

__all__ = ["main"]

#: Modules that each add one sub-command family: ``add_parser(subparsers)``.
FAMILIES = [nonogram, calendar, batch, serve]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gridsolve", description="Solve grid logic puzzles exactly and fast.")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="family", metavar="COMMAND", required=True)
    for family in FAMILIES:
        family.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
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
        print(f"gridsolve: error: {exc}", file=sys.stderr)
        return code
    except KeyboardInterrupt:
        print("gridsolve: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
