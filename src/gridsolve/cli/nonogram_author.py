"""``gridsolve nonogram generate | rate | check``: commands for puzzle authors and fans.

Exit codes: generate 0 made, 1 no unique puzzle (of the level asked for) within the bound; rate 0; check 0 no problems,
1 problems found (every clue problem at once, of a colour puzzle too); all of them 2 for bad
input or an unreadable file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from gridsolve.cli._args import (DEFAULT_TIMEOUT, fraction, natural, positive_int, seconds,
                                seconds_or_none, time_left, whole, write_file)
from gridsolve.cli._input import add_index, read_one
from gridsolve.errors import GridsolveError
from gridsolve.nonogram.check import check, clue_problems
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.formats import (FORMATS, INPUT_FORMATS, ClueError, RawClues,
                                        colour_formats, write_puzzle)
from gridsolve.nonogram.model import (AnyPuzzle, Puzzle, RawColourClues,
                                      colour_puzzle_of, palette_of)
from gridsolve.nonogram.generate import (LEVEL_DENSITY, MAX_SIDE, ROUNDS, Generated, generate,
                                         make_unique)
from gridsolve.nonogram.rate import LEVELS, Rating, rate

if TYPE_CHECKING:
    from gridsolve.nonogram.generate_colour import ColourGenerated

__all__ = ["add_commands", "rating_text", "LEVEL_TEXT"]

LEVEL_TEXT = {
    "line": "line logic alone solves it, like a magazine puzzle",
    "probe": "needs single-cell probing beyond line logic",
    "search": "needs search (trial and error)",
}
#: The same for a puzzle without a solution: what finds that its clues contradict each other.
NONE_LEVEL_TEXT = {
    "line": "line logic alone finds that the clues contradict each other",
    "probe": "single-cell probing finds that the clues contradict each other",
    "search": "only search (trial and error) finds that the clues contradict each other",
}


def _colours(text: str) -> int:
    """A number of ink colours: a whole number from 1 (black and white) to MAX_COLOURS."""
    from gridsolve.nonogram.generate_colour import MAX_COLOURS
    n = whole(-(10**20))(text)
    if not 1 <= n <= MAX_COLOURS:
        raise argparse.ArgumentTypeError(f"must be between 1 (black and white) and "
                                         f"{MAX_COLOURS}, got {n}")
    return n


def _side(text: str) -> int:
    """A width or height: a whole number from 1 to MAX_SIDE."""
    n = whole(-(10**20))(text)
    if not 1 <= n <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_SIDE}, got {n}")
    return n






def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=seconds_or_none, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"give up after this many seconds (default {DEFAULT_TIMEOUT:g}; "
                        "'none': no limit)")
    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="give up after N search nodes")


def _add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="puzzle file ('-' for standard input)")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect)")
    add_index(p)
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")


def add_commands(cmds: Any) -> None:
    """Add generate, rate and check to ``gridsolve nonogram``."""
    writable = [name for name, mod in FORMATS.items() if hasattr(mod, "dump")]
    p = cmds.add_parser("generate", help="make a new puzzle with a proven unique solution")
    p.add_argument("--width", type=_side, required=True, metavar="W")
    p.add_argument("--height", type=_side, required=True, metavar="H")
    p.add_argument("--density", type=fraction, default=None, metavar="D",
                   help="share of filled cells in the random grid (default by level: 0.5 "
                        "for any and line, 0.4 probe, 0.35 search; not used with --from-image)")
    p.add_argument("--seed", type=natural, default=None, metavar="S",
                   help="random seed: the same seed gives the same puzzle (default: random, "
                        "reported)")
    p.add_argument("--level", choices=["any", *LEVELS], default="any",
                   help="the solving method the puzzle must need, as rate confirms: line, "
                        "probe or search (default any: the first unique puzzle; with "
                        "--from-image, the hardest method allowed)")
    p.add_argument("--picture", action="store_true",
                   help="smooth random shapes instead of noise")
    p.add_argument("--rounds", type=positive_int, default=ROUNDS, metavar="N",
                   help=f"fresh grids to try for a puzzle of the level (default {ROUNDS})")
    p.add_argument("--from-image", metavar="FILE",
                   help="threshold this picture to W x H instead of drawing a random grid")
    p.add_argument("--colours", "--colors", type=_colours, default=1, metavar="N",
                   help="N ink colours on a white background (default 1: black and white); "
                        "with --from-image the picture is quantised to N + 1 colours by median "
                        "cut, and the one most common on its border (ties: the lightest) "
                        "becomes the white background")
    p.add_argument("--max-attempts", type=positive_int, default=None, metavar="N",
                   help="give up after judging N grids (default 50 + cells/4)")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this many seconds (the result then depends on speed)")
    p.add_argument("--out", metavar="FILE", help="write the puzzle here (default: stdout)")
    p.add_argument("--to", dest="format", default=None, choices=writable,
                   help="output format (default text; json for colours), as convert's --to")
    p.add_argument("--format", dest="format", choices=writable, default=argparse.SUPPRESS,
                   help=argparse.SUPPRESS)  # its old name: --format is the input's elsewhere
    p.set_defaults(run=run_generate)

    p = cmds.add_parser("rate", help="is the solution unique, and how hard is the puzzle")
    _add_input(p)
    _add_limits(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_rate)

    p = cmds.add_parser("check", help="list the problems an author must fix, one per line")
    _add_input(p)
    _add_limits(p)
    p.set_defaults(run=run_check)


def _limits(args: argparse.Namespace) -> SearchLimits:
    return SearchLimits(max_nodes=args.max_nodes, timeout=time_left(args.timeout))


def run_generate(args: argparse.Namespace) -> int:
    made: Generated | ColourGenerated
    if args.colours > 1 and args.format and args.format not in colour_formats():
        # (before the work: a colour puzzle's proof can take its whole --timeout)
        raise GridsolveError(f"--to {args.format} holds black-and-white puzzles only; a colour "
                             f"puzzle goes to {' or '.join(colour_formats())}")
    if args.colours > 1:
        made, title, source = _generate_colour(args)
    elif args.from_image:
        from gridsolve.nonogram.image import grid_from_image
        grid, cost = grid_from_image(args.from_image, args.width, args.height)
        made = make_unique(grid, level="search" if args.level == "any" else args.level,
                           seed=args.seed or 0, cost=cost,
                           max_attempts=args.max_attempts, timeout=time_left(args.timeout))
        title = f"{Path(args.from_image).name}, {args.width}x{args.height}"
        source = f"from {args.from_image}"
    else:
        made = generate(args.width, args.height, density=args.density, seed=args.seed,
                        level=args.level, max_attempts=args.max_attempts, timeout=time_left(args.timeout),
                        picture=args.picture, rounds=args.rounds)
        density = LEVEL_DENSITY[args.level] if args.density is None else args.density
        kind = "picture" if args.picture else "density"
        title = f"gridsolve {args.width}x{args.height} {kind} {density:g} seed {made.seed}"
        source = f"seed {made.seed}"
    text = write_puzzle(dataclasses.replace(made.puzzle, title=title),
                        args.format or ("text" if args.colours == 1 else "json"))
    if args.out:
        write_file(args.out, lambda path: Path(path).write_text(text, encoding="utf-8"))
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    r = made.rating
    palette = palette_of(made.puzzle)
    if palette is not None:
        source += f", {_plural(len(palette) - 1, 'colour')}"
    print(f"gridsolve: {args.width}x{args.height} {source}: unique, level {r.level}, "
          f"score {r.score}/10; {_plural(made.attempts, 'attempt')}, "
          f"{_plural(made.changed, 'cell')} changed",
          file=sys.stderr)
    return 0


def _generate_colour(args: argparse.Namespace) -> tuple[ColourGenerated, str, str]:
    """``generate --colours N``: a random colour puzzle or a picture's colours; the puzzle,
    its title and where it came from."""
    from gridsolve.nonogram.generate_colour import generate_colour, make_colour_unique
    if args.from_image:
        from gridsolve.nonogram.image import colour_grid_from_image
        pic = colour_grid_from_image(args.from_image, args.width, args.height, args.colours)
        made = make_colour_unique(pic.grid, pic.palette,
                                  level="search" if args.level == "any" else args.level,
                                  seed=args.seed or 0, second=pic.second, cost=pic.cost,
                                  max_attempts=args.max_attempts,
                                  timeout=time_left(args.timeout))
        return (made, f"{Path(args.from_image).name}, {args.width}x{args.height}",
                f"from {args.from_image}")
    made = generate_colour(args.width, args.height, args.colours, density=args.density,
                           seed=args.seed, level=args.level, max_attempts=args.max_attempts,
                           timeout=time_left(args.timeout), picture=args.picture,
                           rounds=args.rounds)
    density = LEVEL_DENSITY[args.level] if args.density is None else args.density
    kind = "picture" if args.picture else "density"
    return (made, f"gridsolve {args.width}x{args.height} {args.colours} colours {kind} "
                  f"{density:g} seed {made.seed}", f"seed {made.seed}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rating_text(rating: Rating) -> str:
    """The rating as a few lines for people."""
    unique = {"unique": "yes", "multiple": "no: more than one solution",
              "none": "no: there is no solution",
              "unknown": "unknown: the limit was reached first"}[rating.status]
    if rating.level is None:
        level, score = "not known: the limit came before the rating ended", "not known"
    else:
        level = (f"{rating.level} "
                 f"({(NONE_LEVEL_TEXT if rating.status == 'none' else LEVEL_TEXT)[rating.level]})")
        score = f"{rating.score}/10"
        if rating.stopped:  # the search's work so far: a lower bound
            score += " (at least: the limit came before the search ended)"
    return "\n".join([
        f"unique: {unique}",
        f"level: {level}",
        f"score: {score}",
        f"line solves: {rating.line_solves}",
        f"probes: {rating.probes}",
        f"search nodes: {rating.nodes}",
        f"max depth: {rating.max_depth}",
        f"seconds: {rating.seconds:.4f}",
    ])


def _solve_proof(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits) -> Result:
    """Uniqueness as ``nonogram solve`` proves it (method auto, every core this process may
    use): rate settles what solve settles (a random 60x60: more than one solution at once)."""
    from gridsolve import cores
    from gridsolve.nonogram.backends import analyse
    return analyse(puzzle, max_solutions, limits, "auto", jobs=cores.available())


def run_rate(args: argparse.Namespace) -> int:
    puzzle = read_one(args).puzzle
    seen: dict[str, int] = {}
    try:
        rating = rate(puzzle, _limits(args), prove=_solve_proof, seen=seen)
    except KeyboardInterrupt:  # what it has: what line logic alone settles, then why
        if "line_open" in seen:
            cells = puzzle.width * puzzle.height
            print(f"line logic alone leaves {seen['line_open']} of {cells} cells open: "
                  "level probe or search" if seen["line_open"] else
                  "line logic alone settles every cell: level line")
        print("interrupted before the rating was done")
        raise
    if args.json:
        data = dataclasses.asdict(rating)
        data["seconds"] = round(rating.seconds, 6)
        data["unique"] = rating.unique_known
        del data["stopped"]  # (the JSON's keys are pinned; "score" null or 10 says as much)
        print(json.dumps({"file": args.file, "width": puzzle.width, "height": puzzle.height,
                          **data}))
    else:
        print(rating_text(rating))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Every clue problem of a file at once, black-and-white or colour (``check``), then its
    solutions when the clues are sound."""
    source = "<stdin>" if args.file == "-" else args.file
    raw: RawClues | RawColourClues
    try:  # not read_clues: read_one picks one puzzle of several (--index, FILE#N)
        puzzle = read_one(args).puzzle
    except ClueError as exc:
        source = exc.clues.source or source
        raw = exc.clues
    else:
        colour = colour_puzzle_of(puzzle)
        raw = (RawColourClues(colour.rows, colour.cols, colour.palette, source) if colour
               else RawClues(cast(Puzzle, puzzle).rows, cast(Puzzle, puzzle).cols, source))
    try:
        problems = check(raw, _limits(args))
    except KeyboardInterrupt:  # what it has: the clues' problems (no search), then why
        for problem in clue_problems(raw):
            print(problem.text(source))
        print(f"{source}: interrupted before its solutions were counted")
        raise
    for problem in problems:
        print(problem.text(source))
    if not problems:
        print(f"{source}: no problems found: the solution is unique")
    return 1 if problems else 0
