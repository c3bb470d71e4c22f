"""``gridsolve nonogram convert IN OUT [--to FORMAT]``, and the stored-goal check of ``solve``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gridsolve.cli._args import positive_int
from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.formats import (FORMATS, Entry, bw_only, format_for_path, iter_entries,
                                        tournament, write_puzzle)
from gridsolve.nonogram.model import (ColourPuzzle, Grid, clue_of, colour_clue_of, columns_of,
                                      is_any_solution)

WRITABLE = [name for name, mod in FORMATS.items() if hasattr(mod, "dump")]


def add_commands(cmds: Any) -> None:
    """Add ``convert`` to the ``nonogram`` sub-commands."""
    p = cmds.add_parser("convert", help="convert a puzzle file to another format")
    p.add_argument("input", metavar="IN", help="puzzle file ('-' for standard input)")
    p.add_argument("output", metavar="OUT", help="file to write ('-' for standard output)")
    p.add_argument("--to", choices=WRITABLE, default=None,
                   help="output format (default: from OUT's extension)")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS],
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
    entries = list(iter_entries(args.input, args.format, limits=not args.no_limits))
    if args.index is not None:
        if not 1 <= args.index <= len(entries):
            raise ParseError(f"--index {args.index}: the file holds {len(entries)} puzzles",
                             args.input)
        entries = [entries[args.index - 1]]
    if len(entries) > 1 and target != tournament.NAME:
        raise ParseError(f"the file holds {len(entries)} puzzles: pick one with --index N "
                         "(or write them all with --to tournament)", args.input)
    if target == tournament.NAME:
        text = tournament.dump_many([bw_only(e.puzzle, "the tournament format")
                                     for e in entries])
    else:
        text = write_puzzle(entries[0].puzzle, target, entries[0].goal)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


def _first_difference(a: Grid, b: Grid) -> tuple[int, int]:
    return next((r + 1, c + 1) for r, (x, y) in enumerate(zip(a, b))
                for c, (p, q) in enumerate(zip(x, y)) if p != q)


def goal_warning(entry: Entry, solutions: tuple[Grid, ...], status: str) -> str | None:
    """A warning line when the goal stored in a file is wrong, else None."""
    goal = entry.goal
    if goal is None:
        return None
    puzzle = entry.puzzle
    where = f"goal stored in {entry.source}"
    if not is_any_solution(puzzle, goal):
        pal = puzzle.palette if isinstance(puzzle, ColourPuzzle) else None

        def clue(line: str) -> object:
            return clue_of(line) if pal is None else colour_clue_of(line, pal)
        row = next((r + 1 for r, (line, want) in enumerate(zip(goal, puzzle.rows))
                    if clue(line) != want), None)
        if row is not None:
            return f"{where} does not satisfy the clue of row {row}"
        col = next(c + 1 for c, (line, want) in enumerate(zip(columns_of(goal), puzzle.cols))
                   if clue(line) != want)
        return f"{where} does not satisfy the clue of column {col}"
    if status == "unique" and solutions[0] != goal:
        r, c = _first_difference(solutions[0], goal)
        return f"{where} differs from the solution at row {r} col {c}"
    if status == "none":
        return f"{where} satisfies the clues, but the solver found no solution"
    return None
