"""``gridsolve calendar ...``: solve, hint, count, rank, heatmap and design for calendar puzzles."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from typing import Any

from gridsolve.cli._args import (listing_stopped, natural, output_file, seconds, time_left,
                                 write_file)
from gridsolve.errors import InvalidPuzzle, LimitReached
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import presets
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.formats import read_board, read_pieces
from gridsolve.tiling.model import Board, Piece, Tiling
from gridsolve.tiling.render import letters, tiling_rich, tiling_text, write_picture


def add_parser(sub: Any, argv: Sequence[str] | None = None) -> None:
    fam = sub.add_parser("calendar", help="calendar puzzles (A-Puzzle-A-Day)")
    cmds = fam.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = cmds.add_parser("solve", help="show a solution for a date (today by default)")
    _date_arg(p, "YYYY-MM-DD, 'Oct 6', 'Mon Oct 6' or 'today' (default)")
    _edition_args(p)
    p.add_argument("--all", action="store_true", help="list every solution")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--png", metavar="FILE", type=output_file, help="also draw the (first) solution as PNG")
    p.add_argument("--svg", metavar="FILE", type=output_file, help="also draw the (first) solution as SVG")
    p.set_defaults(run=run_solve)

    p = cmds.add_parser("hint", help="reveal a few pieces of one solution")
    _date_arg(p, "as for solve")
    _edition_args(p)
    p.add_argument("--reveal", type=natural, default=1, metavar="N",
                   help="how many pieces to reveal (default 1)")
    _alias(p, "--pieces", "reveal", type=natural)  # its old name: --pieces names a file elsewhere
    p.set_defaults(run=run_hint)

    p = cmds.add_parser("count", help="count the solutions of every date (or of one)")
    _date_arg(p, "count only this date (as for solve; default: every date)")
    _edition_args(p)
    p.add_argument("--all-pairs", action="store_true",
                   help="include impossible dates such as Feb 30 (marked invalid)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(run=run_count)

    p = cmds.add_parser("rank", help="the hardest and easiest dates")
    _edition_args(p)
    p.add_argument("--top", type=natural, default=10, metavar="N", help="how many of each")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_rank)

    p = cmds.add_parser("heatmap", help="draw the year: 12 calendars coloured by solutions")
    p.add_argument("file", help="output picture (.png or .svg)")
    _edition_args(p)
    p.set_defaults(run=run_heatmap)

    _add_design(cmds)


def _alias(p: argparse.ArgumentParser, old: str, dest: str, **kwargs: Any) -> None:
    """An option's old spelling, still read but no longer shown (one spelling per notion:
    a piece file is --pieces-file, a date is the positional DATE, a count of pieces --reveal)."""
    p.add_argument(old, dest=dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS, **kwargs)


def _date_arg(p: argparse.ArgumentParser, help_: str) -> None:
    """The date a command is about: positional (``calendar solve 'Oct 6'``), and ``--date`` as
    a hidden alias (count took it so); absent, ``args.date`` is not set (see _date)."""
    p.add_argument("date", nargs="?", default=argparse.SUPPRESS, metavar="DATE", help=help_)
    _alias(p, "--date", "date")


def _date(args: argparse.Namespace) -> str | None:
    """The date given (positional or --date), if any."""
    return getattr(args, "date", None)


def _edition_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", choices=list(presets.EDITIONS), default="original",
                   help="which puzzle (default: original)")
    p.add_argument("--board", metavar="FILE", help="a board file of your own (labels Jan..Dec, "
                   "1..31, optionally Mon..Sun)")
    p.add_argument("--pieces-file", metavar="FILE", dest="pieces_file",
                   help="a piece file of your own (with --board)")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this many seconds")




def _edition(args: argparse.Namespace) -> cal.Edition:
    if args.board or args.pieces_file:
        if not (args.board and args.pieces_file):
            raise InvalidPuzzle("give both --board and --pieces-file for a puzzle of your own")
        board: Board = read_board(args.board)
        pieces: tuple[Piece, ...] = read_pieces(args.pieces_file)
        return cal.Edition(board.name or "custom", board, pieces)
    return cal.edition(args.edition)


def _limits(args: argparse.Namespace) -> SearchLimits:
    return SearchLimits(timeout=time_left(args.timeout))


def _print_tiling(ed: cal.Edition, tiling: Tiling, shown: set[int] | None = None) -> None:
    if sys.stdout.isatty():
        from rich.console import Console

        Console(highlight=False).print(tiling_rich(ed.board, ed.pieces, tiling, shown), end="")
    else:
        sys.stdout.write(tiling_text(ed.board, ed.pieces, tiling, shown))


def _grid_rows(ed: cal.Edition, tiling: Tiling) -> list[str]:
    names = letters(ed.pieces)
    grid = {cell: "." for cell in ed.board.open}
    for pl in tiling:
        for cell in pl.cells:
            grid[cell] = names[pl.piece]
    return ["".join(grid.get((r, c), "#") for c in range(ed.board.width))
            for r in range(ed.board.height)]


def run_solve(args: argparse.Namespace) -> int:
    ed = _edition(args)
    day = cal.parse_date(_date(args) or "today", ed)
    limits = _limits(args)
    started = time.perf_counter()  # one deadline for the search and the count after it
    found: list[Tiling] = []
    stopped: LimitReached | None = None
    try:
        for tiling in cal.solutions(day, ed, limits, guided=args.all):
            found.append(tiling)
            if not args.all:
                break
    except LimitReached as exc:
        if not args.all:
            raise
        stopped = exc  # the solutions listed so far are printed (JSON: not complete), then it
    total = len(found) if args.all else (cal.count(day, ed, limits.since(started)) if found else 0)
    if found and (args.png or args.svg):
        for path in (args.png, args.svg):
            if path:
                write_file(path, lambda p: write_picture(p, ed.board, ed.pieces, found[0],
                                                         title=f"{day}"))
    if args.json:
        obj = {"month": day.month, "day": day.day, "count": total,
               "solutions": [_grid_rows(ed, t) for t in found]}
        if day.weekday is not None:
            obj["weekday"] = day.weekday
        if args.all:
            obj["complete"] = stopped is None
            if stopped is not None:
                obj["count"] = None
        print(json.dumps(obj))
    elif not found:
        if stopped is None:
            print(f"{day}: no solution")
    else:
        print(f"{day}: {'at least ' if stopped else ''}{total} solution"
              f"{'s' if total != 1 else ''}")
        for n, shown_tiling in enumerate(found, 1):
            if args.all:
                print(f"\nsolution {n}:")
            _print_tiling(ed, shown_tiling)
    if stopped is not None:
        raise listing_stopped(stopped, len(found), "solution") from None
    return 0 if found else 1


def run_hint(args: argparse.Namespace) -> int:
    ed = _edition(args)
    day = cal.parse_date(_date(args) or "today", ed)
    tiling = next(iter(cal.solutions(day, ed, _limits(args), guided=False)), None)
    if tiling is None:
        print(f"{day}: no solution")
        return 1
    order = sorted(range(len(tiling)), key=lambda i: (tiling[i].piece, i))
    shown = set(order[:args.reveal])
    names = letters(ed.pieces)
    placed = ", ".join(names[tiling[i].piece] for i in sorted(shown, key=lambda i: tiling[i].piece))
    print(f"{day}: {len(shown)} of {len(tiling)} pieces shown" + (f" ({placed})" if placed else ""))
    _print_tiling(ed, tiling, shown)
    return 0


def run_count(args: argparse.Namespace) -> int:
    ed = _edition(args)
    limits = _limits(args)
    if date := _date(args):
        day = cal.parse_date(date, ed)
        n = cal.count(day, ed, limits)
        if args.json:
            print(json.dumps(cal.year_rows({day: n}, args.all_pairs)))
        else:
            print(f"{day}: {n}")
        return 0
    counts = cal.count_all(ed, limits)
    if args.json:
        print(json.dumps(cal.year_rows(counts, args.all_pairs)))
        return 0
    for day, n in counts.items():
        if day.valid or args.all_pairs:
            flag = "" if day.valid else "  (not a date)"
            print(f"{_day_text(day)} {n:>7}{flag}")
    valid = [n for day, n in counts.items() if day.valid]
    print(f"{len(valid)} dates, {sum(valid)} solutions in total; "
          f"fewest {min(valid)}, most {max(valid)}")
    return 0


def _day_text(day: cal.CalendarDay) -> str:
    week = "" if day.weekday is None else f" {cal.WEEKDAYS[day.weekday]}"
    return f"{cal.MONTHS[day.month - 1]} {day.day:>2}{week}"


def run_rank(args: argparse.Namespace) -> int:
    ed = _edition(args)
    counts = cal.count_all(ed, _limits(args))
    hardest, easiest = cal.rank(counts, args.top)
    if args.json:
        print(json.dumps({"hardest": [cal.year_rows({day: n})[0] for day, n in hardest],
                          "easiest": [cal.year_rows({day: n})[0] for day, n in easiest]}))
        return 0
    print("hardest (fewest solutions):")
    for day, n in hardest:
        print(f"  {str(day):<16} {n:>7}")
    print("easiest (most solutions):")
    for day, n in easiest:
        print(f"  {str(day):<16} {n:>7}")
    return 0


def run_heatmap(args: argparse.Namespace) -> int:
    from gridsolve.tiling.heatmap import write_heatmap

    if not args.file.lower().endswith((".png", ".svg")):
        raise InvalidPuzzle(f"{args.file}: choose a .png or .svg file name")
    ed = _edition(args)
    counts = cal.count_all(ed, _limits(args))
    write_file(args.file, lambda p: write_heatmap(
        p, counts, title=f"A-Puzzle-A-Day ({ed.name}): solutions per date"))
    print(f"wrote {args.file}")
    return 0


def _add_design(cmds: Any) -> None:
    p = cmds.add_parser("design", help="a designer's report on a piece set: unsolvable dates, "
                        "spread, hardest and easiest dates, heatmap; --search tries swaps")
    p.add_argument("--edition", choices=list(presets.EDITIONS), default="original",
                   help="start from a shipped puzzle (default: original)")
    p.add_argument("--board", metavar="FILE", help="a board file (labels Jan..Dec, 1..31, "
                   "optionally Mon..Sun)")
    p.add_argument("--pieces-file", metavar="FILE", dest="pieces_file",
                   help="the proposed piece file (with --board)")
    _alias(p, "--pieces", "pieces_file")
    p.add_argument("--search", action="store_true",
                   help="try replacing each piece by each pool piece of the same size; list the "
                   "sets that solve every date, most even first")
    p.add_argument("--pool", metavar="FILE",
                   help="candidate pieces for --search (default: the 12 pentominoes and the 5 "
                   "tetrominoes)")
    p.add_argument("--heatmap", metavar="FILE", type=output_file, help="also draw the year (.svg or .png)")
    p.add_argument("--top", type=natural, default=5, metavar="N",
                   help="how many hardest/easiest dates and swaps to list (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this many seconds, the whole command (--search then "
                   "lists the sets counted so far)")
    p.set_defaults(run=run_design)


def _design_edition(args: argparse.Namespace) -> cal.Edition:
    if args.board or args.pieces_file:
        if not (args.board and args.pieces_file):
            raise InvalidPuzzle("give both --board and --pieces-file for a piece set of your own")
        board = read_board(args.board)
        return cal.Edition(board.name or "custom", board, read_pieces(args.pieces_file))
    return cal.edition(args.edition)


def _pool(args: argparse.Namespace) -> tuple[Piece, ...]:
    if args.pool:
        return read_pieces(args.pool)
    return presets.named_pieces("pentominoes") + presets.named_pieces("tetrominoes")


def _finite(x: float) -> float | None:
    """A JSON number, or null for a value that is not finite (the evenness of a piece set
    no date can be solved with: its mean count is 0), which JSON cannot hold."""
    return round(x, 4) if math.isfinite(x) else None


def _days(pairs: Any) -> list[dict[str, object]]:
    return [cal.year_rows({day: n})[0] for day, n in pairs]


def run_design(args: argparse.Namespace) -> int:
    from gridsolve.tiling import design

    if args.heatmap and not args.heatmap.lower().endswith((".png", ".svg")):
        raise InvalidPuzzle(f"{args.heatmap}: choose a .png or .svg file name")
    ed = _design_edition(args)
    started = time.perf_counter()  # one deadline for the report and the whole search
    limits = _limits(args)
    rep = design.report(ed, args.top, limits)
    searched = _search_swaps(ed, _pool(args), limits.since(started)) if args.search else None
    found = list(searched.found) if searched is not None else []
    if args.heatmap:
        from gridsolve.tiling.heatmap import write_heatmap

        write_file(args.heatmap, lambda p: write_heatmap(
            p, rep.counts, title=f"{ed.name}: solutions per date"))
    if args.json:
        obj: dict[str, object] = {
            "edition": ed.name, "pieces": [p.name for p in ed.pieces],
            "unsolvable": _days((day, 0) for day in rep.unsolvable),
            "fewest": rep.fewest, "median": rep.median, "most": rep.most,
            "evenness": _finite(rep.evenness), "hardest": _days(rep.hardest),
            "easiest": _days(rep.easiest)}
        if args.search:
            obj["swaps"] = [{"remove": s.removed, "add": s.added.name,
                             "cells": [list(c) for c in s.added.cells],
                             "evenness": _finite(r.evenness), "fewest": r.fewest,
                             "median": r.median, "most": r.most} for s, r in found[:args.top]]
        if searched is not None:
            obj["search"] = {"sets": searched.total, "counted": searched.tried,
                             "complete": searched.complete}
        print(json.dumps(obj, allow_nan=False))
        return 0 if searched is None or searched.complete else 1
    _print_report(ed, rep)
    if searched is not None:
        _print_swaps(found, args.top)
        if not searched.complete:
            print(f"the time limit stopped the search: {searched.tried} of {searched.total} "
                  "piece sets counted, the rest not tried")
    if args.heatmap:
        print(f"wrote {args.heatmap}")
    return 0 if searched is None or searched.complete else 1


def _search_swaps(ed: cal.Edition, pool: Sequence[Piece], limits: SearchLimits) -> Any:
    """``design.search_within``, with a progress bar when the output is a terminal."""
    from gridsolve.tiling import design

    if not sys.stdout.isatty():
        return design.search_within(ed, pool, limits)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("piece sets", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True) as bar:
        task = bar.add_task("", total=None)
        return design.search_within(
            ed, pool, limits, lambda done, total: bar.update(task, completed=done, total=total))


def _print_report(ed: cal.Edition, rep: Any) -> None:
    from gridsolve.tiling.design import text_heatmap

    dates = sum(1 for day in rep.counts if day.valid)
    print(f"{ed.name}: {len(ed.pieces)} pieces on {ed.board.size} cells; {dates} dates")
    if rep.unsolvable:
        shown = ", ".join(str(day) for day in rep.unsolvable[:10])
        more = " ..." if len(rep.unsolvable) > 10 else ""
        print(f"{len(rep.unsolvable)} dates have no solution: {shown}{more}")
    else:
        print("every date has a solution")
    print(f"solutions per date: fewest {rep.fewest}, median {rep.median:g}, most {rep.most}; "
          f"evenness (std/mean) {rep.evenness:.3f}")
    print("hardest: " + ", ".join(f"{day} {n}" for day, n in rep.hardest))
    print("easiest: " + ", ".join(f"{day} {n}" for day, n in rep.easiest))
    print("heatmap (a row per month, a column per day; '.' fewest .. '@' most, '0' none):")
    for line in text_heatmap(rep.counts):
        print("  " + line)


def _print_swaps(found: list[Any], top: int) -> None:
    if not found:
        print("no one-piece swap from the pool solves every date")
        return
    print(f"{len(found)} one-piece swaps solve every date; the most even first:")
    print(f"  {'swap':<16} {'evenness':>8} {'fewest':>7} {'median':>7} {'most':>7}")
    for swap, rep in found[:top]:
        text = f"{swap.removed} -> {swap.added.name}"
        print(f"  {text:<16} {rep.evenness:>8.3f} {rep.fewest:>7} {rep.median:>7g} {rep.most:>7}")
