"""``gridsolve nonogram``: showing and watching (show, clue margins, pictures, steps, animation,
explain).

Kept apart from ``cli/nonogram.py`` so that file only wires these in with a few lines.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gridsolve.cli._args import output_file, printable, time_left, write_file
from gridsolve.errors import GridsolveError
from gridsolve.nonogram.engine import Result, SearchLimits, abilities
from gridsolve.nonogram.model import AnyPuzzle, palette_of
from gridsolve.nonogram.render.text import ASCII, UNICODE, clued_text, grid_rich, grid_text

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Recorder

__all__ = ["add_solve_options", "add_commands", "print_grid", "watcher", "report"]

#: --animate records at most this many steps (an animation of more is not worth watching)
MAX_ANIMATED_STEPS = 100_000


def add_solve_options(p: argparse.ArgumentParser) -> None:
    """The showing/watching options of ``nonogram solve``."""
    p.add_argument("--clues", action="store_true",
                   help="print the clues in the margins, like a printed puzzle")
    p.add_argument("--png", metavar="FILE", type=output_file, help="also draw the solution to a PNG file")
    p.add_argument("--svg", metavar="FILE", type=output_file, help="also draw the solution to an SVG file")
    p.add_argument("--steps", action="store_true",
                   help="print each round of line logic, each probe that taught something, "
                        "each guess and backtrack")
    p.add_argument("--animate", metavar="FILE.gif|FILE.html", type=output_file,
                   help="write an animation of the solve (GIF needs the image extra)")


def add_commands(cmds: Any) -> None:
    """Sub-commands of ``gridsolve nonogram`` that show rather than solve."""
    from gridsolve.cli._args import DEFAULT_TIMEOUT, positive_int, seconds_or_none
    from gridsolve.cli._input import add_index
    from gridsolve.nonogram.formats import INPUT_FORMATS
    p = cmds.add_parser("explain", help="explain the deductions that solve a puzzle, step by step")
    p.add_argument("file", help="puzzle file ('-' for standard input)")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect)")
    add_index(p)
    p.add_argument("--ascii", action="store_true", help="draw with '#' and '.'")
    p.add_argument("--timeout", type=seconds_or_none, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS",
                   help="stop the account after this many seconds, keeping the steps written "
                        f"(default {DEFAULT_TIMEOUT:g}; 'none': no limit)")
    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="give up the engine's search after N nodes")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    p.set_defaults(run=run_explain, clues=True)

    p = cmds.add_parser("show", help="show a puzzle (black-and-white or colour) with its clues, "
                                     "and its stored goal if any")
    p.add_argument("file", help="puzzle file ('-' for standard input)")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect)")
    add_index(p)
    p.add_argument("--ascii", action="store_true", help="draw with '#' and '.'")
    p.add_argument("--blank", action="store_true", help="leave out the stored goal")
    p.add_argument("--png", metavar="FILE", type=output_file, help="also draw the picture to a PNG file")
    p.add_argument("--svg", metavar="FILE", type=output_file, help="also draw the picture to an SVG file")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    p.set_defaults(run=run_show, clues=True)


def describe(puzzle: AnyPuzzle) -> str:
    """One line naming the puzzle's size and, for a colour puzzle, its colours (its title and
    colour names as read, with control characters shown escaped: see ``printable``)."""
    text = f"{puzzle.size}"
    if puzzle.title:
        text = f"{puzzle.title}: {text}"
    pal = palette_of(puzzle)
    if pal is not None:
        inks = ", ".join(f"{c.name} {c.symbol} {c.hex}" for c in pal[1:])
        n = len(pal) - 1
        text += f", {n} colour{'' if n == 1 else 's'} on {pal[0].name} ({inks})"
    return printable(text)


def run_show(args: argparse.Namespace) -> int:
    """``nonogram show``: the clues in the margins of the stored goal (or of a blank grid)."""
    from gridsolve.cli._input import read_one
    entry = read_one(args)
    puzzle = entry.puzzle
    goal = None if args.blank else entry.goal
    grid = goal or tuple("?" * puzzle.width for _ in range(puzzle.height))
    print(describe(puzzle))
    print_grid(args, puzzle, grid)
    if args.svg:
        from gridsolve.nonogram.render.svg import puzzle_svg
        write_file(args.svg, _write_text(puzzle_svg(puzzle, goal)))
    if args.png:
        from gridsolve.nonogram.render.png import write_png
        write_file(args.png, lambda path: write_png(path, puzzle, goal))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    """``nonogram explain``: the account of the solve, then the grid it reaches."""
    from gridsolve.nonogram.watch.explain import explain
    from gridsolve.cli._input import read_one
    from gridsolve.nonogram.watch.account import Narration
    from gridsolve.nonogram.watch.explain import Deduction
    puzzle = read_one(args).puzzle
    left = time_left(args.timeout)
    narration = Narration(puzzle)

    def write(d: Deduction) -> None:  # as it comes: a limit or Ctrl-C keeps what was written
        sys.stdout.write("".join(f"{line}\n" for line in narration.lines(d)))
        sys.stdout.flush()

    account = explain(puzzle, SearchLimits(max_nodes=args.max_nodes, timeout=left), write)
    print("\n".join(narration.ending(account)))
    print()
    print_grid(args, puzzle, account.grid)
    return 0 if account.solutions else 1


def glyphs_of(args: argparse.Namespace) -> tuple[str, str, str]:
    return ASCII if getattr(args, "ascii", False) else UNICODE


def print_grid(args: argparse.Namespace, puzzle: AnyPuzzle, grid: Sequence[str],
               out: Any = None) -> None:
    """Print a grid (with clue margins if asked), coloured when the terminal supports it."""
    out = out or sys.stdout
    glyphs = glyphs_of(args)
    clued = puzzle if getattr(args, "clues", False) else None
    palette = palette_of(puzzle)
    if may_colour(out):
        from rich.console import Console
        console = Console(file=out, highlight=False)
        if console.is_terminal and console.color_system:
            console.print(grid_rich(grid, glyphs, clued, palette), soft_wrap=True)
            return
    print(clued_text(puzzle, grid, glyphs) if clued else grid_text(grid, glyphs, palette),
          file=out)


def may_colour(out: Any) -> bool:
    """Could rich colour this stream? A terminal, or colour forced by the environment (as rich
    reads it). Asked first so that output to a pipe or file never imports rich."""
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty is not None and isatty())


def _write_text(text: str) -> Callable[[str], None]:
    def write(path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return write


def _outputs_apart(args: argparse.Namespace) -> None:
    """The pictures and animation asked for go to different files, none of them the puzzle's
    (a picture written over the puzzle file, or over another picture, lost it)."""
    import os
    named = [(option, path) for option, path in (("--png", args.png), ("--svg", args.svg),
                                                 ("--animate", args.animate)) if path]
    for i, (option, path) in enumerate(named):
        for other, earlier in named[:i]:
            if os.path.abspath(path) == os.path.abspath(earlier):
                raise GridsolveError(f"{other} and {option} name the same file, {path}")
        if (args.file != "-" and os.path.exists(path) and os.path.exists(args.file)
                and os.path.samefile(path, args.file)):
            raise GridsolveError(f"{option} {path} would write over the puzzle file")


def watcher(args: argparse.Namespace, puzzle: AnyPuzzle) -> Recorder | None:
    """An engine observer for --steps / --animate, or None (the solve then runs untouched).

    Both engines report their steps (``Abilities.watch``), and animations draw both kinds of
    puzzle; a picture or GIF the puzzle is too big for is refused here, before anything is
    solved or drawn."""
    _outputs_apart(args)
    gif = bool(args.animate) and animation_kind(args.animate) == "gif"
    if args.png or gif:
        from gridsolve.nonogram.render.png import load_pillow
        load_pillow()  # a missing extra is reported before the solve, not after it
    if args.png:
        from gridsolve.nonogram.render.layout import MIN_CELL, fitted_layout
        # so is a puzzle too big to draw: one layout, at the smallest cells, is refused
        # exactly when the picture's search for its largest cells would be
        fitted_layout(puzzle, MIN_CELL)
    if args.steps and args.json:
        raise GridsolveError("--steps prints text; it cannot be combined with --json")
    if not (args.steps or args.animate):
        return None
    if not abilities(puzzle).watch:  # pragma: no cover - both engines report their steps
        raise GridsolveError("--steps and --animate: this puzzle's engine reports no steps")
    if gif:
        from gridsolve.nonogram.watch.animate import gif_layout
        gif_layout(puzzle)  # a puzzle too big for a GIF is refused before the solve
    from gridsolve.nonogram.watch.steps import StepPrinter
    from gridsolve.nonogram.watch.trace import Recorder
    printer = None
    if args.steps:
        printer = StepPrinter(puzzle, sys.stdout, lambda grid: print_grid(args, puzzle, grid))
    return Recorder(puzzle, printer, MAX_ANIMATED_STEPS if args.animate else 0)


def animation_kind(path: str) -> str:
    """'gif' or 'html' from the file name, or a clear error."""
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind in ("htm", "html"):
        return "html"
    if kind == "gif":
        return "gif"
    raise GridsolveError(f"--animate {path}: the file name must end in .gif or .html")


def report(args: argparse.Namespace, puzzle: AnyPuzzle, result: Result,
           watch: Recorder | None = None) -> None:
    """Finish --steps, write the pictures and animation asked for."""
    if watch is not None:
        from gridsolve.nonogram.watch.steps import StepPrinter
        if isinstance(watch.listener, StepPrinter):
            watch.listener.finish()
    grid = result.solutions[0] if result.solutions else result.partial
    if args.svg:
        from gridsolve.nonogram.render.svg import puzzle_svg
        write_file(args.svg, _write_text(puzzle_svg(puzzle, grid)))
    if args.png:
        from gridsolve.nonogram.render.png import write_png
        write_file(args.png, lambda path: write_png(path, puzzle, grid))
    if args.animate and watch is not None:
        from gridsolve.nonogram.watch.animate import write_animation
        trace = watch.trace
        write_file(args.animate,
                     lambda path: write_animation(path, watch.puzzle, trace.steps,
                                                  trace.complete))
