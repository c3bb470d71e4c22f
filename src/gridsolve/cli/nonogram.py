"""``gridsolve nonogram ...``: solve (and later convert, explain, generate, rate, check)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from gridsolve.cli._args import memory, natural, positive_int, seconds, time_left
from gridsolve.cli import nonogram_show as show
from gridsolve.cli._input import add_index, read_one
from gridsolve.errors import GridsolveError
from gridsolve.nonogram import engine
from gridsolve.nonogram.backends import METHODS, analyse
from gridsolve.nonogram.engine import DEFAULT_MAX_MEMORY, Result, SearchLimits
from gridsolve.nonogram.formats import INPUT_FORMATS
from gridsolve.nonogram.model import AnyPuzzle, Colour, Grid, palette_of


#: The sub-commands beside ``solve``: name -> (the module whose ``add_commands(cmds)`` adds it,
#: its help). Only the module of the command a command line names is imported.
COMMANDS = {
    "convert": ("gridsolve.cli.nonogram_convert", "convert a puzzle file to another format"),
    "explain": ("gridsolve.cli.nonogram_show",
                "explain the deductions that solve a puzzle, step by step"),
    "show": ("gridsolve.cli.nonogram_show", "show a puzzle (black-and-white or colour) with "
             "its clues, and its stored goal if any"),
    "generate": ("gridsolve.cli.nonogram_author", "make a new puzzle with a proven unique solution"),
    "rate": ("gridsolve.cli.nonogram_author", "is the solution unique, and how hard is the puzzle"),
    "check": ("gridsolve.cli.nonogram_author", "list the problems an author must fix, one per line"),
    "hint": ("gridsolve.cli.nonogram_play", "the next step a person could take from a partly "
             "filled grid, with its reason"),
}


def add_parser(sub: Any, argv: Sequence[str] | None = None) -> None:
    """``gridsolve nonogram``: every sub-command in full (``argv`` None); else only the one
    ``argv`` names, or, when it names none, every one listed with its help."""
    fam = sub.add_parser("nonogram", help="nonograms (paint by numbers)")
    cmds = fam.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = cmds.add_parser("solve", help="solve a puzzle and say whether its solution is unique")
    p.add_argument("file", help="puzzle file ('-' for standard input)")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect)")
    add_index(p)
    p.add_argument("--max-solutions", type=positive_int, default=2, metavar="N",
                   help="stop after N solutions (default 2: enough to prove uniqueness)")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this many seconds from the start of the process "
                        "(status 'unknown')")
    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="give up after N search nodes (status 'unknown'; SAT: conflicts, "
                        "checked at the solver's restarts; ILP: branch-and-bound nodes per "
                        "CBC run, which do not bound CBC's work at the root: add --timeout)")
    p.add_argument("--max-memory", type=memory, default=DEFAULT_MAX_MEMORY, metavar="SIZE",
                   help="memory for a SAT or ILP model (default 1.5G; 'none': no limit): "
                        "sat and ilp refuse a bigger one, auto goes on natively")
    p.add_argument("--method", default="auto", choices=METHODS,
                   help="native engine, SAT (gridsolve[sat]), ILP (gridsolve[ilp]), or auto: "
                        "native, handing over to SAT on hard puzzles (default)")
    p.add_argument("--jobs", type=natural, default=0, metavar="N",
                   help="processes for this one puzzle (default 0: all cores; 1: this "
                        "process only): after auto's first native turn (1 s; on puzzles of "
                        "over 1024 cells the root's probing), the native team, SAT (auto; "
                        "on those Kissat does not take, glucose-syrup's threads, which share what they "
                        "learn, with the syrup extra), the dive by belief propagation "
                        "(native, on puzzles of 1,025 to 40,000 cells) and a native search "
                        "with restarts run side by side, and the first answer stops them all")
    p.add_argument("--sat-solver", default=None, metavar="NAME",
                   help="SAT solver for sat/auto: a python-sat name (default glucose42; e.g. "
                        "cadical195) or kissat (the kissat extra; auto's default when every "
                        "line has 64+ cells)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--ascii", action="store_true", help="draw with '#' and '.'")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    show.add_solve_options(p)
    p.set_defaults(run=run_solve)
    words = [] if argv is None else [a for a in argv if not a.startswith("-")]
    wanted = words[1] if words[:1] == ["nonogram"] and len(words) > 1 else None
    for module in dict.fromkeys(m for name, (m, _) in COMMANDS.items()
                                if argv is None or name == wanted):
        importlib.import_module(module).add_commands(cmds)
    if argv is None or (wanted not in COMMANDS and wanted != "solve"):  # help, a typo
        for name, (_, help_) in COMMANDS.items():
            if name not in cmds.choices:
                cmds.add_parser(name, help=help_)




def result_json(result: Result, puzzle: AnyPuzzle) -> dict[str, Any]:
    """The JSON object printed by ``solve --json``.

    A colour puzzle's solutions are rows of palette symbols, so its object adds the palette
    (index 0 the background) to read them by; a black-and-white one has no palette key."""
    out: dict[str, Any] = {
        "status": result.status,
        "width": puzzle.width,
        "height": puzzle.height,
        "solutions": [list(g) for g in result.solutions],
        "seconds": round(result.seconds, 6),
        "nodes": result.nodes,
        # every solution is in "solutions" (so a count is exact): the search was exhausted
        "exhausted": result.exhausted,
    }
    if result.status == "unknown":  # the cells proven before the limit ('?' still open)
        out["partial"] = list(result.partial)
    palette = palette_of(puzzle)
    if palette is not None:
        out["palette"] = palette_json(palette)
    return out


#: What to try when a solve's limit came first (text output, after the cells settled).
LIMIT_ADVICE = ("the limit came first: try a longer --timeout, more processes with --jobs, "
                "or another method: --method sat")


def _partial_text(args: argparse.Namespace, puzzle: AnyPuzzle, result: Result) -> None:
    """At a limit: the cells settled so far, drawn as a solution is ('?' open), and advice."""
    if not result.solutions and result.partial:
        open_cells = sum(row.count("?") for row in result.partial)
        total = puzzle.width * puzzle.height
        print(f"settled so far: {total - open_cells} of {total} cells ('?' still open):")
        show.print_grid(args, puzzle, result.partial)
        print()
    print(f"gridsolve: {LIMIT_ADVICE}", file=sys.stderr)


def _interrupted_text(args: argparse.Namespace, puzzle: AnyPuzzle, partial: Grid) -> None:
    """After Ctrl-C: the cells the search had proven, drawn as a solution is ('?' open)."""
    open_cells = sum(row.count("?") for row in partial)
    total = puzzle.width * puzzle.height
    print(f"interrupted; settled so far: {total - open_cells} of {total} cells ('?' still "
          "open):")
    show.print_grid(args, puzzle, partial)
    print(flush=True)


def _count_text(result: Result, max_solutions: int) -> str:
    """The status line of a count (--max-solutions past 2) with several solutions: exact,
    stopped at the count asked, or a lower bound when a limit stopped the search."""
    found = len(result.solutions)
    if found >= max_solutions:
        return f"{found} solutions (stopped at --max-solutions)"
    if result.exhausted:
        return f"{found} solutions"
    return f"at least {found} solutions (a limit stopped the search before it found them all)"


def palette_json(palette: tuple[Colour, ...]) -> list[dict[str, str]]:
    """The palette as JSON: name, '#rrggbb' and grid symbol of each colour, background first."""
    return [{"name": c.name, "rgb": c.hex, "symbol": c.symbol} for c in palette]


STATUS_TEXT = {
    "unique": "unique solution",
    "multiple": "more than one solution",
    "none": "no solution",
    "unknown": "unknown (limit reached before the search finished)",
}


def _jobs(args: argparse.Namespace) -> int:
    """--jobs, or (0) the cores this process may run on."""
    if args.jobs:
        return int(args.jobs)
    from gridsolve import cores
    return cores.available()


def run_solve(args: argparse.Namespace) -> int:
    entry = read_one(args)
    puzzle = entry.puzzle
    limits = SearchLimits(max_nodes=args.max_nodes, max_memory=args.max_memory,
                          timeout=time_left(args.timeout))
    watch = show.watcher(args, puzzle)
    if watch is not None:
        if args.method not in ("native", "auto"):
            raise GridsolveError("--steps and --animate watch the native engine: "
                                 "use --method native")
        result = engine.analyse(watch.puzzle, args.max_solutions, limits, on_event=watch)
    else:
        from gridsolve.cli._progress import shown
        with shown(not args.json, limits.timeout, always=True) as progress:
            try:
                result = analyse(puzzle, args.max_solutions, limits, args.method,
                                 solver=args.sat_solver, jobs=_jobs(args), progress=progress)
            except KeyboardInterrupt:
                if not args.json and progress is not None and progress.partial is not None:
                    _interrupted_text(args, puzzle, progress.partial())
                raise
    if entry.goal is not None:  # a goal stored with the puzzle: said when it is wrong
        from gridsolve.nonogram.check import goal_warning
        warning = goal_warning(puzzle, entry.goal, entry.source, result.solutions,
                               result.status)
        if warning:
            print(f"gridsolve: warning: {warning}", file=sys.stderr)
    show.report(args, puzzle, result, watch)
    if args.json:
        import json
        print(json.dumps(result_json(result, puzzle)))
    else:
        for i, grid in enumerate(result.solutions):
            if len(result.solutions) > 1:
                print(f"solution {i + 1}:")
            show.print_grid(args, puzzle, grid)
            print()
        if result.status == "unknown":
            _partial_text(args, puzzle, result)
        status = STATUS_TEXT[result.status]
        if result.status == "unknown" and result.stats.get("built") == 0:
            from gridsolve.nonogram.backends.ilp import unbuilt_text
            status = unbuilt_text(result.stats)
        if result.status == "multiple" and args.max_solutions > 2:
            status = _count_text(result, args.max_solutions)
        print(f"status: {status}")
        sys.stdout.flush()
    return 0 if result.solutions else 1
