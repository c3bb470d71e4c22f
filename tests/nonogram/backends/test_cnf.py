"""The CNF models (block starts, order) against brute force: their models are the solutions."""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings

from gridsolve.nonogram.backends import cnf
from gridsolve.nonogram.backends._common import lines
from gridsolve.nonogram.engine import SearchLimits, Team
from gridsolve.nonogram.model import (AnyPuzzle, ColourPuzzle, Puzzle, colour_puzzle_from_grid,
                                      puzzle_from_grid)
from tests.nonogram.backends.test_backends import tiny_puzzles
from tests.nonogram.engine.test_colour_engine import palette, random_grid, tiny_grids
from tests.nonogram.oracle import all_colour_solutions
from tests.nonogram.oracle import all_solutions as brute_force

pysat = pytest.importorskip("pysat.solvers")
from gridsolve.nonogram.backends import sat  # noqa: E402


def models(puzzle: AnyPuzzle, encoding: str, known: tuple[str, ...] | None = None,
           every_variable: bool = False) -> list[tuple[str, ...]]:
    """Every model of the CNF as a grid, enumerated with blocking clauses over the cells (or,
    with ``every_variable``, over all variables: then two models of one grid count twice)."""
    per_cell = len(puzzle.palette) if isinstance(puzzle, ColourPuzzle) else 1
    ncells = puzzle.width * puzzle.height * per_cell
    found = []
    with pysat.Solver(name="minisat22",
                      bootstrap_with=list(cnf.clauses(puzzle, known, encoding))) as solver:
        while solver.solve():
            model = solver.get_model()
            cells = model[:ncells]
            found.append(sat._grid(puzzle, cells))
            solver.add_clause([-v for v in (model if every_variable else cells)])
    return found


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_models_are_the_solutions(puzzle: Puzzle) -> None:
    """Both models have exactly the brute-force solutions; the order model has one model per
    solution even over all its variables (its start bounds follow from the cells)."""
    want = brute_force(puzzle)
    for encoding in cnf.ENCODINGS:
        got = models(puzzle, encoding)
        assert len(got) == len(want) and set(got) == want, encoding
    assert sorted(models(puzzle, "order", every_variable=True)) == sorted(want)


@pytest.mark.heavy
def test_models_are_the_solutions_on_larger_puzzles() -> None:
    """6x6 to 7x7 puzzles of many solutions, with known cells from one of them or from a
    random grid (often no model at all)."""
    rng = random.Random(22)
    for t in range(30):
        h, w = rng.randint(6, 7), rng.randint(6, 7)
        density = rng.choice([0.2, 0.5, 0.8])
        grid = ["".join("#" if rng.random() < density else "." for _ in range(w))
                for _ in range(h)]
        puzzle = puzzle_from_grid(grid)
        want = brute_force(puzzle)
        source = grid if t % 2 else ["".join(rng.choice("#.") for _ in range(w))
                                     for _ in range(h)]
        known = tuple("".join(ch if rng.random() < 0.2 else "?" for ch in row) for row in source)
        agree = {s for s in want
                 if all(k in ("?", c) for ks, row in zip(known, s) for k, c in zip(ks, row))}
        for encoding in cnf.ENCODINGS:
            assert sorted(models(puzzle, encoding)) == sorted(want), encoding
            assert sorted(models(puzzle, encoding, known)) == sorted(agree), encoding
        assert len(models(puzzle, "order", every_variable=True)) == len(want)


@settings(max_examples=60, deadline=None)
@given(tiny_grids())
def test_colour_models_are_the_solutions(case) -> None:  # type: ignore[no-untyped-def]
    grid, colours = case
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    want = all_colour_solutions(puzzle)
    for encoding in cnf.ENCODINGS:
        got = models(puzzle, encoding)
        assert len(got) == len(want) and set(got) == want, encoding
    assert sorted(models(puzzle, "order", every_variable=True)) == sorted(want)


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_size_is_counted_exactly(encoding: str) -> None:
    """cnf.size counts what cnf.clauses builds in either model, black and white (with known
    cells) and colour."""
    rng = random.Random(6)
    for t in range(80):
        w, h = rng.randint(1, 14), rng.randint(1, 14)
        grid = ["".join("#" if rng.random() < 0.5 else "." for _ in range(w)) for _ in range(h)]
        puzzle: AnyPuzzle = puzzle_from_grid(grid)
        known = (tuple("".join(rng.choice("#.??") for _ in range(w)) for _ in range(h))
                 if t % 2 else None)
        known = tuple(known) if known is not None else None
        if t % 3 == 0:
            k = rng.randint(1, 6)
            puzzle = colour_puzzle_from_grid(random_grid(rng, w, h, k, rng.random()), palette(k))
            known = None
        built = list(cnf.clauses(puzzle, known, encoding))
        size = cnf.size(puzzle, known, encoding=encoding)
        assert (size.clauses, size.literals) == (len(built), sum(map(len, built)))
        assert size.variables == max(abs(v) for clause in built for v in clause)


def test_order_model_is_linear_in_the_slack() -> None:
    """A row of two 1-blocks in n cells: the block-start order clauses take about n^2
    literals, the order model under 20 n (the empty columns included)."""
    for n in (50, 200):
        puzzle = Puzzle([[1, 1]], [[1]] + [[]] * (n - 2) + [[1]])
        order = cnf.size(puzzle, encoding="order")
        start = cnf.size(puzzle, encoding="start")
        assert order.literals < 20 * n < n * n < start.literals


def test_unknown_encoding() -> None:
    with pytest.raises(ValueError, match="order"):
        list(cnf.clauses(puzzle_from_grid(["#"]), encoding="orders"))
    with pytest.raises(ValueError, match="start"):
        cnf.size(puzzle_from_grid(["#"]), encoding="")
    assert cnf.encoding_for(puzzle_from_grid(["#"])) == cnf.DEFAULT_ENCODING == "order"
    # colour: the order model up to two colours besides the background, then block starts
    for colours, model in ((1, "order"), (2, "order"), (3, "start"), (5, "start")):
        colour = colour_puzzle_from_grid(("abc"[:colours],), palette(colours))
        assert cnf.encoding_for(colour) == model
        assert cnf.size(colour) == cnf.size(colour, encoding=model) != cnf.size(
            colour, encoding="order" if model == "start" else "start")
    assert cnf.COLOUR_ENCODING == "start" and cnf.ORDER_MAX_COLOURS == 2


@pytest.mark.heavy
@pytest.mark.parametrize("solver", ["glucose4", "cadical195"])
def test_sat_backend_counts_with_the_order_model(solver: str) -> None:
    """sat.analyse with the order model (in process, and CaDiCaL in its child process under
    a timeout) counts like brute force, seeded with known cells too."""
    rng = random.Random(3)
    for _ in range(6):
        grid = ["".join(rng.choice("#.") for _ in range(6)) for _ in range(6)]
        puzzle = puzzle_from_grid(grid)
        want = brute_force(puzzle)
        result = sat.analyse(puzzle, 1000, solver=solver, encoding="order")
        assert set(result.solutions) == want and result.status in ("unique", "multiple")
        known = (grid[0], *("?" * 6 for _ in range(5)))
        seeded = sat.analyse(puzzle, 1000, solver=solver, encoding="order", known=known,
                             limits=SearchLimits(timeout=30.0))
        assert set(seeded.solutions) == {s for s in want if s[0] == grid[0]}


def test_root_implications_hold_in_every_solution() -> None:
    """What the team's probes at the root fixed, as binary clauses, is true of every solution
    (brute force), and the clauses leave out the cells the root already knows."""
    rng = random.Random(12)
    kept = 0
    for _ in range(40):
        h, w = rng.randint(4, 6), rng.randint(4, 6)
        density = rng.choice([0.3, 0.5, 0.7])
        puzzle = puzzle_from_grid(["".join("#" if rng.random() < density else "." for _ in range(w))
                                   for _ in range(h)])
        team = Team(puzzle, 2)
        team.run(SearchLimits(max_nodes=1))
        known = team.partial()
        clauses = cnf.implication_clauses(team.root_implications(), known)
        kept += len(clauses)
        fixed = {r * w + c + 1 for r, row in enumerate(known) for c, ch in enumerate(row)
                 if ch != "?"}
        assert all(abs(x) not in fixed for clause in clauses for x in clause)
        for solution in brute_force(puzzle):
            cells = [ch == "#" for row in solution for ch in row]
            for a, b in clauses:
                assert (a > 0) == cells[abs(a) - 1] or (b > 0) == cells[abs(b) - 1]
    assert kept > 100  # the puzzles left cells open and their probes fixed others


def test_root_implications_are_off_by_default() -> None:
    from gridsolve.nonogram.engine import _core
    search = _core.Search([[1], [1]], [[1], [1]])
    search.next()
    assert search.root_implications() == b""
    kept = _core.Search([[1], [1]], [[1], [1]], root_implications=True)
    kept.next()
    records = array("i")
    records.frombytes(kept.root_implications())
    # the 2x2 with two solutions: filling (0, 0) fixes the other three cells, and so on
    assert list(records[:5]) == [1, 3, 2, 4, 7]


def _implication_clauses_in_python(records: list[int], known: tuple[str, ...] | None) -> list[list[int]]:
    """The oracle: the same clauses, plainly (each once, in the order found)."""
    open_cell = None if known is None else [ch == "?" for row in known for ch in row]
    seen: dict[tuple[int, int], None] = {}
    at = 0
    while at + 1 < len(records):
        lit, n = records[at], records[at + 1]
        implied, at = records[at + 2:at + 2 + n], at + 2 + n
        if open_cell is not None and not open_cell[lit >> 1]:
            continue
        a = -((lit >> 1) + 1) if lit & 1 else (lit >> 1) + 1
        for m in implied:
            if open_cell is None or open_cell[m >> 1]:
                seen[(a, (m >> 1) + 1 if m & 1 else -((m >> 1) + 1))] = None
    return [[a, b] for a, b in seen]


def test_implication_clauses_match_a_plain_reading() -> None:
    """The compiled reading of the records gives exactly the plain one, order included (the
    order is the SAT solver's input order), on real records and on random ones with
    repeats, with and without the known cells."""
    rng = random.Random(7)
    for _ in range(30):
        h, w = rng.randint(4, 9), rng.randint(4, 9)
        puzzle = puzzle_from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(w))
                                   for _ in range(h)])
        team = Team(puzzle, 2)
        team.run(SearchLimits(max_nodes=1))
        records = list(team.root_implications())
        for known in (team.partial(), None):
            assert cnf.implication_clauses(records, known) == \
                _implication_clauses_in_python(records, known)
            assert cnf.implication_clauses(team.root_implications(), known) == \
                _implication_clauses_in_python(records, known)
        cells = h * w
        made: list[int] = []
        for _ in range(50):  # random records, repeated pairs and all
            n = rng.randint(0, 6)
            made += [rng.randrange(2 * cells), n, *(rng.randrange(2 * cells) for _ in range(n))]
        known = tuple("".join(rng.choice("?#.") for _ in range(w)) for _ in range(h))
        for k in (known, None):
            assert cnf.implication_clauses(made, k) == _implication_clauses_in_python(made, k)


def test_implication_records_out_of_range_are_refused() -> None:
    from gridsolve.nonogram.backends import _cnf
    for records in ([0, 3, 1], [8, 1, 0], [0, 1, 9], [-1, 0], [0, -1]):
        with pytest.raises(ValueError, match="malformed"):
            _cnf.implication_pairs(array("i", records).tobytes(), bytes(4))
    assert _cnf.implication_pairs(b"", None) == []


def _order_model_in_python(puzzle: Puzzle) -> list[list[int]]:
    """The black-and-white order model through the Python line model (as colour uses it)."""
    w = puzzle.width
    ids = cnf._Ids(w * puzzle.height)
    out: list[list[int]] = []
    for _, clue, cells in lines(puzzle):
        out += cnf._order_line_clauses(ids, [(length, 1) for length in clue],
                                       [r * w + c + 1 for r, c in cells],
                                       [-(r * w + c + 1) for r, c in cells])
    return out


def test_compiled_order_model_is_the_python_one() -> None:
    """The compiled order model (``_cnf.order_line``) gives the Python line model's clauses
    in its order, on random grids of every density and shape (one-cell lines, empty clues,
    full lines, lines with no slack), and its DIMACS text is those clauses."""
    rng = random.Random(26)
    shapes = [(1, 1), (1, 9), (9, 1), (2, 3)] + [(rng.randint(1, 30), rng.randint(1, 30))
                                                  for _ in range(60)]
    for t, (w, h) in enumerate(shapes):
        density = (0.0, 1.0, 0.5, rng.random())[t % 4]
        grid = ["".join("#" if rng.random() < density else "." for _ in range(w))
                for _ in range(h)]
        puzzle = puzzle_from_grid(grid)
        known = tuple("".join(ch if rng.random() < 0.3 else "?" for ch in row) for row in grid)
        want = _order_model_in_python(puzzle)
        assert list(cnf.clauses(puzzle, encoding="order")) == want
        units = [[(r * w + c + 1) * (1 if ch == "#" else -1)]
                 for r, row in enumerate(known) for c, ch in enumerate(row) if ch != "?"]
        assert list(cnf.clauses(puzzle, known)) == want + units
        text = "".join(cnf.dimacs(puzzle, known))
        assert text == "".join(" ".join(map(str, c)) + " 0\n" for c in want + units)


def test_dimacs_text_of_other_models_and_clauses() -> None:
    """The block-start and colour models' text is their clauses, in chunks of TEXT_CLAUSES."""
    puzzle = puzzle_from_grid(["#.#", "##.", "..#"])
    want = list(cnf.clauses(puzzle, encoding="start"))
    assert "".join(cnf.dimacs(puzzle, encoding="start")) == "".join(
        " ".join(map(str, c)) + " 0\n" for c in want)
    colour = colour_puzzle_from_grid(("ab", "b."), palette(2))
    assert "".join(cnf.dimacs(colour)).count("\n") == len(list(cnf.clauses(colour)))
    chunks = list(cnf.dimacs_text([[1, -2]] * (cnf.TEXT_CLAUSES + 1)))
    assert [c.count("\n") for c in chunks] == [cnf.TEXT_CLAUSES, 1]
    assert list(cnf.dimacs_text([])) == []


def test_compiled_order_line_refuses_bad_lines() -> None:
    """Clues that do not fit, blocks of no cells, variables near overflow: a ValueError, never
    a wrong model or a crash."""
    from gridsolve.nonogram.backends import _cnf
    assert _cnf.order_line([], 2, 1, 1, 2, False) == [[-1], [-2]]
    assert _cnf.order_line([2], 2, 1, 1, 2, True) == "1 0\n2 0\n"
    for clue, n, cell0, step, top in [([3], 2, 1, 1, 2), ([1, 1], 2, 1, 1, 2), ([0], 3, 1, 1, 3),
                                      ([-1], 3, 1, 1, 3), ([1], -1, 1, 1, 0),
                                      ([1], 3, 0, 1, 3), ([1], 3, 1, 0, 3), ([1], 3, 1, 1, -1),
                                      ([1], 3, 2**40, 1, 3), ([1], 3, 1, 2**39, 3),
                                      ([1], 2**20, 1, 2**20, 3), ([1], 3, 1, 1, 2**40 - 2)]:
        with pytest.raises(ValueError):
            _cnf.order_line(clue, n, cell0, step, top, False)
    with pytest.raises((TypeError, OverflowError)):
        _cnf.order_line([2**70], 3, 1, 1, 3, False)
    with pytest.raises(TypeError):
        _cnf.order_line(["1"], 3, 1, 1, 3, False)  # type: ignore[call-overload]
