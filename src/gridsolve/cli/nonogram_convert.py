"""``gridsolve nonogram convert IN OUT [--to FORMAT]``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gridsolve.cli._args import positive_int, write_text
from gridsolve.cli._input import split_index
from gridsolve.errors import GridsolveError, ParseError, SolverUnavailable
from gridsolve.nonogram.formats import (FORMATS, INPUT_FORMATS, bw_only, format_for_path,
                                        iter_entries, tournament, write_puzzle)

WRITABLE = [name for name, mod in FORMATS.items() if hasattr(mod, "dump")]


def add_commands(cmds: Any) -> None:
    """Add ``convert`` to the ``nonogram`` sub-commands."""
    p = cmds.add_parser("convert", help="convert a puzzle file to another format")
    p.add_argument("input", metavar="IN", help="puzzle file ('-' for standard input)")
    p.add_argument("output", metavar="OUT", help="file to write ('-' for standard output)")
    p.add_argument("--to", choices=WRITABLE, default=None,
                   help="output format (default: from OUT's extension)")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect)")
    p.add_argument("--index", type=positive_int, default=None, metavar="N",
                   help="convert only the N-th puzzle (from 1) of a multi-puzzle file")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    p.set_defaults(run=run_convert)


def _target(args: argparse.Namespace) -> str:
    if args.to:
        return str(args.to)
    found = None if args.output == "-" else format_for_path(args.output)
    if found is None:
        raise GridsolveError(f"cannot tell the output format from {args.output!r}: give --to "
                             f"(one of {', '.join(WRITABLE)})")
    return found


def run_convert(args: argparse.Namespace) -> int:
    target = _target(args)
    if "-" not in (args.input, args.output) and Path(args.output).resolve() == Path(args.input).resolve():
        raise ParseError("OUT is the same file as IN", args.output)
    path, numbered = split_index(args.input)  # IN#N: as --index N
    if numbered is not None:
        if args.index not in (None, numbered):
            raise GridsolveError(f"{args.input} and --index {args.index} name different "
                                 "puzzles: give one of them")
        args.input, args.index = path, numbered
    entries = list(iter_entries(args.input, args.format, limits=not args.no_limits))
    if not entries:  # (as solve and show say it)
        raise ParseError("no puzzle found", "<stdin>" if args.input == "-" else args.input)
    if args.index is not None:
        if not 1 <= args.index <= len(entries):
            raise ParseError(f"--index {args.index}: the file holds {len(entries)} puzzles",
                             args.input)
        entries = [entries[args.index - 1]]
    if len(entries) > 1 and target != tournament.NAME:
        raise ParseError(f"the file holds {len(entries)} puzzles: pick one with --index N "
                         "(or write them all with --to tournament)", args.input)
    try:
        if target == tournament.NAME:
            text = tournament.dump_many([bw_only(e.puzzle, "the tournament format")
                                         for e in entries])
        else:
            text = write_puzzle(entries[0].puzzle, target, entries[0].goal)
    except GridsolveError as exc:  # the writer's refusal (a size or colours it cannot hold)
        if isinstance(exc, SolverUnavailable) or getattr(exc, "source", None) is not None:
            raise
        why = exc.why if isinstance(exc, ParseError) else str(exc)
        raise ParseError(why, "<stdin>" if args.input == "-" else args.input) from None
    write_text(args.output, text)
    return 0
