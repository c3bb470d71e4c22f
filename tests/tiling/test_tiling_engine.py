"""The compiled engine against independent oracles: a piece-ordered brute force, known
tiling counts (dominoes, 3xn straight trominoes), every key width, limits and refusals."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time

import pytest

from gridsolve.errors import InvalidPuzzle, LimitReached
from gridsolve.tiling import reference
from gridsolve.tiling.engine import (SearchLimits, _exact, compile_problem, count, count_bound,
                                     count_split, first, tilings)
from gridsolve.tiling.model import Board, Cell, Piece, is_tiling



def rect(h: int, w: int, blocked: tuple[Cell, ...] = ()) -> Board:
    return Board(h, w, tuple((r, c) for r in range(h) for c in range(w) if (r, c) not in blocked))


def brute_force(board: Board, pieces: list[Piece], leave: tuple[Cell, ...] = ()) -> int:
    """Tilings by trying every position of each piece copy in turn (no cell ordering, no memo);
    shapes come from plain rotate/flip of the rows (as far as the piece allows), not from the
    model."""
    def variants(piece: Piece) -> set[frozenset[Cell]]:
        out = set()
        cur = list(piece.cells)
        for _ in range(2 if piece.flip else 1):
            for _ in range(4 if piece.rotate else 1):
                cur = [(c, -r) for r, c in cur] if piece.rotate else cur
                r0, c0 = min(r for r, _ in cur), min(c for _, c in cur)
                out.add(frozenset((r - r0, c - c0) for r, c in cur))
            cur = [(r, -c) for r, c in cur]
        return out

    cells = set(board.open) - set(leave)
    copies = [(i, v) for i, p in enumerate(pieces) for v in [variants(p)] * p.copies]
    found: set[frozenset[tuple[int, frozenset[Cell]]]] = set()

    def go(k: int, free: set[Cell], chosen: list[tuple[int, frozenset[Cell]]]) -> None:
        if k == len(copies):
            if not free:
                found.add(frozenset(chosen))
            return
        i, shapes = copies[k]
        for s in shapes:
            for dr in range(board.height):
                for dc in range(board.width):
                    placed = frozenset((r + dr, c + dc) for r, c in s)
                    if placed <= free:
                        go(k + 1, free - placed, chosen + [(i, placed)])

    go(0, cells, [])
    return len(found)  # identical copies are interchangeable: count sets, not sequences


SMALL = [Piece.from_rows("D", "11", copies=2), Piece.from_rows("L", "10/11"),
         Piece.from_rows("I", "111"), Piece.from_rows("T", "111/010")]


@pytest.mark.parametrize("seed", range(24))
def test_random_small_boards_against_brute_force(seed: int) -> None:
    """From seed 12 on, pieces that may not be turned over, or turned, too."""
    rng = random.Random(seed)
    h, w = rng.choice([(3, 4), (4, 4), (3, 5), (4, 5)])
    cells = [(r, c) for r in range(h) for c in range(w)]
    ps = rng.sample(SMALL, rng.randint(2, 4))
    if seed >= 12:
        ps = [dataclasses.replace(p, rotate=rng.random() < 0.6, flip=rng.random() < 0.5)
              for p in ps]
    area = sum(p.size * p.copies for p in ps)
    if area > len(cells):
        ps = ps[:2]
        area = sum(p.size * p.copies for p in ps)
    board = Board(h, w, tuple(sorted(rng.sample(cells, area + 1))))
    leave = (board.open[rng.randrange(board.size)],)
    expected = brute_force(board, ps, leave)
    listed = list(tilings(board, ps, leave))
    plain = list(tilings(board, ps, leave, guided=False))
    assert count(board, ps, leave) == expected == len(listed) == len(plain)
    assert set(listed) == set(plain)
    assert len({frozenset((pl.piece, pl.cells) for pl in t) for t in listed}) == len(listed)
    for t in listed:
        assert is_tiling(board, ps, t, leave)


def test_count_split_matches_counts_one_by_one() -> None:
    board = rect(3, 5)
    ps = [Piece.from_rows("L", "10/11"), Piece.from_rows("I", "111"),
          Piece.from_rows("T", "111/010"), Piece.from_rows("D", "11"),
          Piece.from_rows("M", "1")]
    holes = [board.open[:5], board.open[10:]]
    split = count_split(board, ps, holes)
    assert len(split) == 25
    for cells, n in split.items():
        if cells[0] != cells[1]:
            assert n == brute_force(board, ps, cells), cells
    assert sum(split.values()) > 0


def domino_count(h: int, w: int) -> int:
    """Kasteleyn's product formula for domino tilings of an h x w rectangle."""
    import math
    prod = 1.0
    for j in range(1, (h + 1) // 2 + 1):
        for k in range(1, (w + 1) // 2 + 1):
            prod *= 4 * math.cos(math.pi * j / (h + 1)) ** 2 + 4 * math.cos(math.pi * k / (w + 1)) ** 2
    return round(prod)


@pytest.mark.parametrize("h, w", [(2, 10), (4, 4), (6, 6), (8, 8), (10, 10)])
def test_domino_counts(h: int, w: int) -> None:
    """1, 2 and 4-word keys: 20+10, 16+8, 36+18, 64+32 and 100+50 bits."""
    ps = [Piece.from_rows("D", "11", copies=h * w // 2)]
    assert count(rect(h, w), ps) == domino_count(h, w)


def test_eight_word_keys_straight_trominoes() -> None:
    """3 x 96 by 1x3 bars: 288 cells + 96 copies = 384 bits; a(n) = a(n-1) + a(n-3)."""
    a = [1, 1, 1]
    for n in range(3, 97):
        a.append(a[n - 1] + a[n - 3])
    ps = [Piece.from_rows("I", "111", copies=96)]
    assert count(rect(3, 96), ps) == a[96]
    assert count(rect(3, 12), [Piece.from_rows("I", "111", copies=12)]) == a[12] == len(
        list(tilings(rect(3, 12), [Piece.from_rows("I", "111", copies=12)])))


def test_first_and_no_solution() -> None:
    board = rect(2, 3)
    assert first(board, [Piece.from_rows("L", "10/11", copies=2)]) is not None
    assert first(board, [Piece.from_rows("I", "111"), Piece.from_rows("X", "111")]) is not None
    assert first(rect(3, 3, ((1, 1),)), [Piece.from_rows("I", "11", copies=4)]) is not None
    odd = rect(3, 3, ((0, 0),))
    assert list(tilings(odd, [Piece.from_rows("T", "111/010", copies=2)])) == []


def test_counts_past_64_bits_are_exact() -> None:
    """A 1x130 strip by 40 dominoes and 50 monominoes: C(90, 40) > 2**64 tilings, counted
    again modulo primes; split by a hole, both counts are binomials too."""
    ps = [Piece.from_rows("D", "11", copies=40), Piece.from_rows("M", "1", copies=50)]
    assert count(rect(1, 130), ps) == math.comb(90, 40) > 2**64
    ps = [Piece.from_rows("D", "11", copies=20), Piece.from_rows("M", "1", copies=20)]
    assert count(rect(1, 60), ps) == math.comb(40, 20)
    # a hole at (0, 0) or (0, 1) of a 1x131 strip: C(90, 40), or a monomino at (0, 0) and
    # 40 dominoes and 49 monominoes on the 129 cells after the hole: C(89, 40)
    ps = [Piece.from_rows("D", "11", copies=40), Piece.from_rows("M", "1", copies=50)]
    split = count_split(rect(1, 131), ps, [[(0, 0), (0, 1)]])
    assert split == {((0, 0),): math.comb(90, 40), ((0, 1),): math.comb(89, 40)}


def test_domino_tilings_of_14x14() -> None:
    """OEIS A004003 (domino tilings of the 2n x 2n square): past 64 bits from 14 x 14 on."""
    assert count(rect(14, 14), [Piece.from_rows("D", "11", copies=98)]) == (
        112202208776036178000000)


@pytest.mark.slow
def test_domino_tilings_of_16x16() -> None:
    """OEIS A004003 again: 101 bits, three primes (about 5 s)."""
    assert count(rect(16, 16), [Piece.from_rows("D", "11", copies=128)]) == (
        2444888770250892795802079170816)


def test_the_core_counts_modulo_a_number() -> None:
    """The core's counts modulo m are the exact counts modulo m, split by holes too; a modulus
    of 1, of 2**62 or more, or below 0 is refused."""
    comp = compile_problem(rect(8, 8), (Piece.from_rows("D", "11", copies=32),))
    status, exact, _ = comp.core.count(comp.root())
    assert status == 0 and exact == [12988816]
    for m in (2, 3, 7, 1000, 2**61 - 1):
        assert comp.core.count(comp.root(), modulus=m)[1] == [12988816 % m]
    strip = compile_problem(rect(1, 130), (Piece.from_rows("D", "11", copies=40),
                                           Piece.from_rows("M", "1", copies=50)))
    assert strip.core.count(strip.root())[0] == _exact.OVERFLOW
    for m in (2**61 - 1, 2**62 - 57, 2**32 + 15):  # residues past 32 bits (stored densely)
        assert strip.core.count(strip.root(), modulus=m)[1] == [math.comb(90, 40) % m]
    holes = (((0, 0), (0, 1), (1, 0)), ((3, 5), (2, 5)))
    ps2 = [Piece.from_rows("L", "10/11", copies=6), Piece.from_rows("I", "11", copies=2)]
    comp = compile_problem(rect(4, 6), tuple(ps2), holes)
    exact = comp.core.count(comp.root())[1]
    assert exact is not None and sum(exact) > 0
    for m in (2, 5, 11):
        assert comp.core.count(comp.root(), modulus=m)[1] == [n % m for n in exact]
    for bad in (1, -1, 2**62, 2**64 + 5):
        with pytest.raises((ValueError, OverflowError)):
            comp.core.count(comp.root(), modulus=bad)


def test_the_residues_give_the_number_back() -> None:
    """Primality against trial division; any number up to the bound from its residues."""
    from gridsolve.tiling.engine import residues
    small = [n for n in range(2, 2000) if all(n % d for d in range(2, math.isqrt(n) + 1))]
    assert [n for n in range(2000) if residues.is_prime(n)] == small
    assert not residues.is_prime(3215031751)  # a strong pseudoprime to bases 2, 3, 5 and 7
    assert residues.is_prime(2**61 - 1) and not residues.is_prime((2**31 - 1) * (2**31 + 11))
    rng = random.Random(5)
    for bound in (1, 2**62, 2**200, 10**100):
        primes = residues.moduli(bound)
        assert math.prod(primes) > bound and all(p < 2**62 for p in primes)
        assert len(set(primes)) == len(primes)
        for x in (0, 1, bound, rng.randrange(bound + 1)):
            assert residues.combine([x % p for p in primes], primes) == x


def test_the_count_bound_holds() -> None:
    """The bound is at least the count (dominoes: 2 placements start at a cell, 32 steps),
    and at least every count split by holes, with several kinds of piece."""
    board, ps = rect(8, 8), (Piece.from_rows("D", "11", copies=32),)
    comp = compile_problem(board, ps)
    assert count_bound(comp) == 2**32 >= count(board, ps) == 12988816
    rng = random.Random(3)
    tilings_seen = 0
    for _ in range(20):
        h, w = rng.randint(3, 4), rng.randint(3, 6)
        cells = [(r, c) for r in range(h) for c in range(w)]
        rng.shuffle(cells)
        holes = (tuple(cells[:1]), tuple(cells[1:4]))
        area = h * w - 2
        trominoes = 1 + (area - 3) % 2  # the rest, even, in dominoes
        ps2 = (Piece.from_rows("D", "11", copies=(area - 3 * trominoes) // 2),
               Piece.from_rows("L", "10/11", copies=trominoes))
        split = count_split(rect(h, w), ps2, holes)
        assert max(split.values()) <= count_bound(compile_problem(rect(h, w), ps2, holes))
        tilings_seen += sum(split.values())
    assert tilings_seen > 100


def test_limits() -> None:
    ps = [Piece.from_rows("D", "11", copies=32)]
    with pytest.raises(LimitReached):
        list(tilings(rect(8, 8), ps, limits=SearchLimits(max_nodes=1000)))
    with pytest.raises(LimitReached):
        count(rect(8, 8), ps, limits=SearchLimits(max_states=100))


def test_refusals() -> None:
    with pytest.raises(InvalidPuzzle, match="open cells but the pieces cover"):
        count(rect(2, 3), [Piece.from_rows("D", "11")])
    with pytest.raises(InvalidPuzzle, match="at most 512"):
        compile_problem(rect(21, 21), (Piece.from_rows("Q", "11/11", copies=110),))
    many = tuple(Piece(f"M{i}", ((0, 0),)) for i in range(65))
    with pytest.raises(InvalidPuzzle, match="at most 64 different pieces"):
        compile_problem(rect(5, 13), many)
    with pytest.raises(InvalidPuzzle, match="not an open cell"):
        count(rect(2, 2), [Piece.from_rows("I", "111")], [(5, 5)])


def test_every_orientation_is_used() -> None:
    """An L tromino in a 2x2 square with one corner open: 4 tilings, one per orientation."""
    board = rect(2, 2)
    ps = [Piece.from_rows("L", "10/11")]
    shapes = set()
    for corner in board.open:
        ts = list(tilings(board, ps, [corner]))
        assert len(ts) == 1
        shapes.add(ts[0][0].cells)
    assert len(shapes) == 4
    assert sum(count_split(board, ps, [board.open]).values()) == 4
    assert list(itertools.islice(tilings(board, ps, [(0, 0)]), 5))


def test_core_refuses_vectors_longer_than_an_arena_block() -> None:
    """2**20 hole combinations would store a vector one word longer than an arena block."""
    import pytest as _pytest

    from gridsolve.tiling.engine import _exact

    nbrs = [(-1, -1, -1, -1)] * 200
    types = [(1, -1), (1, 0), (1, 1), (1, 2)]
    with _pytest.raises(ValueError, match="too many hole combinations"):
        _exact.Problem(200, types, [], [128, 128, 64], nbrs)
    _exact.Problem(200, types, [], [128, 128, 63], nbrs)   # one combination fewer is taken


PENTS = [Piece.from_rows("P", "11/11/10"), Piece.from_rows("U", "101/111"),
         Piece.from_rows("L4", "10/10/11"), Piece.from_rows("V", "100/100/111"),
         Piece.from_rows("T", "111/010/010"), Piece.from_rows("S4", "011/110"),
         Piece.from_rows("I3", "111"), Piece.from_rows("O", "11/11")]


@pytest.mark.parametrize("seed", range(16))
def test_bitboard_pocket_test_cuts_what_the_cell_flood_cuts(seed: int) -> None:
    """The pocket test on the bitboard (connected boards whose bounding box has at most 64
    cells; keys of one or two words) and the cell-by-cell flood give the same counts split by hole cells, and the
    same number of memo states (they must cut exactly the same states); on the small boards
    both agree with the brute force as well."""
    rng = random.Random(1000 + seed)
    h, w = rng.choice([(4, 5), (5, 6), (6, 7), (7, 7), (8, 8), (6, 10)])
    ps = tuple(rng.sample(PENTS, rng.randint(3, 6)))
    area = sum(p.size for p in ps)
    # a connected board: grow a region from a random cell until it has area + 2 cells
    start = (rng.randrange(h), rng.randrange(w))
    region = {start}
    while len(region) < min(area + 2, h * w):
        r, c = rng.choice(sorted(region))
        dr, dc = rng.choice([(-1, 0), (1, 0), (0, -1), (0, 1)])
        if 0 <= r + dr < h and 0 <= c + dc < w:
            region.add((r + dr, c + dc))
    cells = sorted(region)
    if len(cells) < area + 2:
        ps = ps[:2]
        area = sum(p.size for p in ps)
        cells = cells[:area + 2]
    board = Board(h, w, tuple(cells))
    holes = (tuple(cells[: len(cells) // 2]), tuple(cells[len(cells) // 2:]))
    a = compile_problem(board, ps, holes)
    b = compile_problem(board, ps, holes, grid=False)
    root = a.root()
    got_a, got_b = a.core.count(root), b.core.count(root)
    assert got_a == got_b
    assert got_a[0] == 0 and got_a[1] is not None
    if area <= 14:
        split = dict(zip(itertools.product(*holes), got_a[1]))
        for pair, n in list(split.items())[:6]:
            if pair[0] != pair[1]:
                assert n == brute_force(board, list(ps), pair), pair


@pytest.mark.heavy
def test_bitboard_on_the_calendar_boards() -> None:
    """Every calendar preset: the two pocket tests, same counts and same memo states."""
    from gridsolve.tiling import calendar as cal

    for name in ("original", "tetromino", "creamakerspace", "jarringwords"):
        ed = cal.edition(name)
        holes = tuple(tuple(h) for h in ed.holes())
        a = compile_problem(ed.board, tuple(ed.pieces), holes)
        b = compile_problem(ed.board, tuple(ed.pieces), holes, grid=False)
        got = a.core.count(a.root())
        assert got == b.core.count(b.root())
        assert got[0] == 0 and got[1] is not None and sum(got[1]) > 0


@pytest.mark.parametrize("width, dominoes, trominoes", [(63, 30, 1), (64, 29, 2), (64, 32, 0)])
def test_one_row_of_up_to_64_cells(width: int, dominoes: int, trominoes: int) -> None:
    """A board one row high and 64 wide fits a word too, but the flood's shift by its width
    would be by 64 bits, undefined: it floods cell by cell; 63 wide keeps the bitboard. (On
    x86 a shift by 64 acts as one by 0, harmless here: only the ASan/UBSan build, which stops
    at it, fails without the fix.) In a row the tilings are the orders of the pieces:
    C(dominoes + trominoes, trominoes)."""
    board = rect(1, width)
    pieces = [Piece.from_rows("D", "11", copies=dominoes)]
    if trominoes:
        pieces.append(Piece.from_rows("I", "111", copies=trominoes))
    assert count(board, pieces) == math.comb(dominoes + trominoes, trominoes)
    a = compile_problem(board, tuple(pieces))
    b = compile_problem(board, tuple(pieces), grid=False)
    assert a.core.count(a.root()) == b.core.count(b.root())


def test_bitboard_with_two_word_keys() -> None:
    """5x12 by the twelve pentominoes: 60 cells + 12 pieces, a two-word key whose cells fill
    the first word; both pocket tests give 4,040 tilings from the same memo states."""
    from gridsolve.tiling import presets

    board, ps = presets.named_board("5x12"), presets.named_pieces("pentominoes")
    a = compile_problem(board, ps)
    b = compile_problem(board, ps, grid=False)
    assert a.words == 2
    got = a.core.count(a.root())
    assert got == b.core.count(b.root())
    assert got[1] == [4040]


# 8x10 by four of each tetromino: counting it takes seconds (a guided listing's count runs for
# about 2 s before its memo outgrows the listing's 256 MB budget), so a listing with a small
# timeout must stop inside that count.
def tetrominoes_x4() -> tuple[Board, tuple[Piece, ...]]:
    rows = {"I": "1111", "L": "111/100", "O": "11/11", "S": "011/110", "T": "111/010"}
    return rect(8, 10), tuple(Piece.from_rows(n, r, copies=4) for n, r in rows.items())


def test_a_guided_listing_keeps_its_timeout_while_it_counts() -> None:
    board, ps = tetrominoes_x4()
    compile_problem(board, ps)  # the placement table is cached: time the search alone
    started = time.perf_counter()
    with pytest.raises(LimitReached):
        list(tilings(board, ps, limits=SearchLimits(timeout=0.2)))
    assert time.perf_counter() - started < 1.2


def test_the_count_of_a_listing_that_runs_out_of_time_is_a_limit() -> None:
    """The core: the count stops at its timeout, the first next() reports the limit, and a
    later call goes on unguided (mode 1) and finds real tilings."""
    board, ps = tetrominoes_x4()
    comp = compile_problem(board, ps)
    started = time.perf_counter()
    search = _exact.Enum(comp.core, comp.root(), 2, 2**28, 0.1)
    assert time.perf_counter() - started < 1.1
    assert search.next() == _exact.LIMIT
    assert search.next(-1, 10.0) == _exact.SOLUTION
    assert is_tiling(board, ps, tuple(comp.table[i] for i in search.solution()))
    # no timeout: the count runs to its end (or its budget), as before
    small = compile_problem(rect(3, 4), (Piece.from_rows("D", "11", copies=6),))
    search = _exact.Enum(small.core, small.root(), 2, 2**28)
    assert sum(1 for _ in iter(search.next, _exact.EXHAUSTED)) == 11


def test_a_listing_with_time_to_spare_lists_everything() -> None:
    ps = [Piece.from_rows("D", "11", copies=6)]
    assert len(list(tilings(rect(3, 4), ps, limits=SearchLimits(timeout=30.0)))) == 11
    assert len(list(tilings(rect(3, 4), ps, limits=SearchLimits(timeout=0.0)))) == 11  # one check


def test_limits_since() -> None:
    limits = SearchLimits(max_nodes=5, timeout=10.0)
    later = limits.since(time.perf_counter() - 3.0)
    assert later.max_nodes == 5 and 6.5 < (later.timeout or 0) <= 7.0
    assert limits.since(time.perf_counter() - 30.0).timeout == 0.0
    assert SearchLimits().since(0.0) == SearchLimits()


@pytest.mark.heavy
def test_a_guided_listing_keeps_its_count_within_max_states() -> None:
    """The guided listing's first count is a count: ``max_states`` bounds its memo too (it
    was counted without a bound). Over it, the listing goes on unguided, as it does out of
    memory: the same tilings in the same order, found by walking many more nodes."""
    from gridsolve.tiling import presets
    board, pieces = presets.named_board("6x10"), presets.named_pieces("pentominoes")
    comp = compile_problem(board, tuple(pieces))
    walked = []
    for max_states in (-1, 10):
        search = _exact.Enum(comp.core, comp.root(()), 2, 2**28, -1.0, max_states)
        found: list[tuple[int, ...]] = []
        while len(found) < 200 and search.next(-1, -1.0) == _exact.SOLUTION:
            found.append(search.solution())
        walked.append((found, search.nodes()))
    (guided, guided_nodes), (unguided, unguided_nodes) = walked
    assert len(guided) == 200 and guided == unguided
    assert unguided_nodes > 10 * guided_nodes
    listed = list(itertools.islice(tilings(board, pieces, (), SearchLimits(max_states=10)), 20))
    assert len(listed) == 20 and all(is_tiling(board, pieces, t) for t in listed)


def test_pieces_that_may_not_turn_against_brute_force() -> None:
    """Whole rectangles (so that most have tilings) with pieces that may not be turned over
    (one-sided), turned, or either: the engine's count, listing and check against the brute
    force, which turns and mirrors the rows itself, and the reference's Algorithm X."""
    pool = [Piece.from_rows(n, rows) for n, rows in (
        ("D", "11"), ("V", "10/11"), ("I", "111"), ("L", "10/10/11"), ("S", "011/110"),
        ("T", "111/010"), ("O", "11/11"), ("J", "01/01/11"))]
    rng = random.Random(5)
    tiled = 0
    for _ in range(40):
        h, w = rng.choice([(2, 4), (2, 6), (3, 4), (4, 4), (3, 5), (2, 7)])
        ps: list[Piece] = []
        area = 0
        while area < h * w:
            fit = [q for q in pool if q.size <= h * w - area]
            if not fit:  # one cell left: draw again
                ps, area = [], 0
                continue
            p = rng.choice(fit)
            ps.append(dataclasses.replace(p, name=f"{p.name}{len(ps)}", rotate=rng.random() < 0.7,
                                          flip=rng.random() < 0.4))
            area += p.size
        board = rect(h, w)
        expected = brute_force(board, ps)
        listed = list(tilings(board, ps))
        assert count(board, ps) == expected == len(listed) == reference.count_tilings(board, ps), \
            [(p.name, p.rotate, p.flip) for p in ps]
        assert all(is_tiling(board, ps, t) for t in listed)
        tiled += expected > 0
    assert tiled >= 12  # the test has teeth: many draws have tilings
