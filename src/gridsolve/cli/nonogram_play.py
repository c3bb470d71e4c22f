"""``gridsolve nonogram hint``: the next step from a partly filled grid, or what is wrong with it.

Exit codes: 0 a step was given (or the grid is solved), 1 the grid has mistakes or the puzzle
no solution, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from gridsolve.cli._args import seconds, time_left
from gridsolve.cli._input import add_index, read_one
from gridsolve.errors import GridsolveError

__all__ = ["add_commands"]


def add_commands(cmds: Any) -> None:
    """Add ``hint`` to ``gridsolve nonogram``."""
    from gridsolve.nonogram.formats import FORMATS
    p = cmds.add_parser("hint", help="the next step a person could take from a partly "
                                     "filled grid, with its reason")
    p.add_argument("file", help="puzzle file ('-' for standard input)")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS],
                   help="input format (default: detect)")
    add_index(p)
    p.add_argument("--grid", metavar="PARTIAL",
                   help="the position: rows of '#' filled, '.' or 'x' empty, '?' unknown (a "
                        "colour puzzle: its palette's symbols and '?'), or a JSON grid "
                        "(default: the empty board)")
    p.add_argument("--check", action="store_true",
                   help="list the cells that are wrong (against the unique solution)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--ascii", action="store_true", help="draw with '#' and '.'")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                   help="time for the whole hint: at most half proves the solution unique "
                        "(to name mistakes), the rest looks for a contradiction (default 10)")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    p.set_defaults(run=run_hint, clues=True)


def run_hint(args: argparse.Namespace) -> int:
    from gridsolve.cli.nonogram_show import print_grid
    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.formats import read_text
    from gridsolve.nonogram.formats.position import parse_position
    from gridsolve.nonogram.hints import apply_hint, hint
    from gridsolve.nonogram.hints.kinds import kind_for
    from gridsolve.nonogram.lines import cell_label
    from gridsolve.nonogram.model import palette_of

    if args.file == "-" and args.grid == "-":
        raise GridsolveError("the puzzle and --grid cannot both come from standard input: "
                             "give one of them as a file")
    puzzle = read_one(args).puzzle
    palette = palette_of(puzzle)
    grid = None
    if args.grid:
        grid = parse_position(read_text(args.grid, not args.no_limits), puzzle.width,
                              puzzle.height, args.grid,
                              None if palette is None else "".join(c.symbol for c in palette))
    step = hint(puzzle, grid, limits=SearchLimits(timeout=time_left(args.timeout)))
    start = grid or tuple("?" * puzzle.width for _ in range(puzzle.height))
    if args.json:
        out = step.as_json(puzzle.width)
        out["mistakes"] = len(step.wrong)
        if not args.check:
            del out["wrong"]
        print(json.dumps(out))
    else:
        print(f"{step.kind}: {step.reason}")
        if step.wrong and args.check:
            print("wrong cells: " + " ".join(
                f"{cell_label(puzzle, c)} (set {kind_for(puzzle).word(''.join(start)[c])})"
                for c in step.wrong))
        elif step.wrong:
            print("(--check lists them)")
        if step.cells:
            print()
            print_grid(args, puzzle, apply_hint(start, step))
    return 1 if step.kind in ("mistake", "no-solution") else 0
