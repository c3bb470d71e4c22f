"""A plain-Python colour line solver: the readable oracle for the compiled colour engine.

A line's cells are masks of palette indices (bit c set: colour c still possible; bit 0 is the
background). Two independent methods narrow a line:

``brute_force_colour_line``
    tries every arrangement of the clue (exponential; for short lines).
``solve_colour_line``
    reads the clue as a regular language and keeps, for each cell, the colours of the
    transitions that lie on some accepting path through the line (the "regular" constraint of
    Pesant, CP 2004). A different formulation from the compiled left/right block DP, so the
    two check each other.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gridsolve.nonogram.model import ColourClue, ColourPuzzle

__all__ = ["colour_arrangements", "brute_force_colour_line", "solve_colour_line", "mask_of",
           "propagate", "probe"]

BACKGROUND = 0

#: A token of the clue's pattern: (colour, True if it may repeat zero or more times).
Token = tuple[int, bool]


def mask_of(*colours: int) -> int:
    """The mask that allows exactly these palette indices."""
    m = 0
    for c in colours:
        m |= 1 << c
    return m


def colour_arrangements(clue: ColourClue, n: int) -> Iterator[tuple[int, ...]]:
    """Every line of n palette indices whose blocks are exactly the clue."""
    if not clue:
        yield (BACKGROUND,) * n
        return
    (size, colour), rest = clue[0], clue[1:]
    gap = 1 if rest and rest[0][1] == colour else 0
    for start in range(n - size + 1):
        head = (BACKGROUND,) * start + (colour,) * size
        if not rest:
            yield head + (BACKGROUND,) * (n - len(head))
        elif len(head) + gap <= n:
            for tail in colour_arrangements(rest, n - len(head) - gap):
                yield head + (BACKGROUND,) * gap + tail


def brute_force_colour_line(clue: ColourClue, masks: Sequence[int]) -> list[int] | None:
    """Narrow a line by trying every arrangement; None if none fits the masks."""
    union = [0] * len(masks)
    for arr in colour_arrangements(clue, len(masks)):
        if all(masks[i] >> c & 1 for i, c in enumerate(arr)):
            for i, c in enumerate(arr):
                union[i] |= 1 << c
    return union if all(union) else None  # a cell left empty: nothing fitted


def pattern(clue: ColourClue) -> list[Token]:
    """The clue as tokens: background*, a block's cells, background+ or * between blocks..."""
    tokens: list[Token] = [(BACKGROUND, True)]
    for j, (size, colour) in enumerate(clue):
        if j and clue[j - 1][1] == colour:
            tokens.append((BACKGROUND, False))
            tokens.append((BACKGROUND, True))
        elif j:
            tokens.append((BACKGROUND, True))
        tokens.extend([(colour, False)] * size)
    tokens.append((BACKGROUND, True))
    return tokens


def _step(tokens: Sequence[Token], state: int, colour: int) -> Iterator[int]:
    """States reachable from ``state`` (tokens[:state] done) by reading one cell of colour.

    Optional tokens may be skipped; a repeating token keeps its state, a single one moves on."""
    for p in range(state, len(tokens)):
        want, repeats = tokens[p]
        if want == colour:
            yield p if repeats else p + 1
        if not repeats:
            break


def _accepting(tokens: Sequence[Token], state: int) -> bool:
    return all(repeats for _, repeats in tokens[state:])


def solve_colour_line(clue: ColourClue, masks: Sequence[int]) -> list[int] | None:
    """Narrow a line to the colours each cell takes on some arrangement; None if impossible."""
    tokens = pattern(clue)
    n = len(masks)
    colours = sorted({c for c, _ in tokens})
    forward: list[set[int]] = [{0}]
    for i in range(n):
        forward.append({t for s in forward[i] for c in colours if masks[i] >> c & 1
                        for t in _step(tokens, s, c)})
    backward: list[set[int]] = [set() for _ in range(n + 1)]
    backward[n] = {s for s in range(len(tokens) + 1) if _accepting(tokens, s)}
    for i in range(n - 1, -1, -1):
        backward[i] = {s for s in range(len(tokens) + 1) for c in colours if masks[i] >> c & 1
                       if any(t in backward[i + 1] for t in _step(tokens, s, c))}
    if 0 not in backward[0]:
        return None
    out = [0] * n
    for i in range(n):
        for s in forward[i] & backward[i]:
            for c in colours:
                if masks[i] >> c & 1 and any(t in backward[i + 1] for t in _step(tokens, s, c)):
                    out[i] |= 1 << c
    return out if all(out) else None


# --- The whole grid: propagation and probing ---------------------------------------------
#
# A grid here is a tuple of masks, one per cell, row by row. Each step returns a new one, or
# None when the grid it was given has no solution (a contradiction).

Masks = tuple[int, ...]


def _lines(puzzle: ColourPuzzle) -> list[tuple[ColourClue, list[int]]]:
    """Each line's clue and its cells' indices: the rows, then the columns."""
    w, h = puzzle.width, puzzle.height
    return ([(clue, [r * w + c for c in range(w)]) for r, clue in enumerate(puzzle.rows)]
            + [(clue, [r * w + c for r in range(h)]) for c, clue in enumerate(puzzle.cols)])


def propagate(puzzle: ColourPuzzle, masks: Masks) -> Masks | None:
    """Solve lines until none changes. The line solver is exact, so the result (the largest
    grid below the input that every line accepts as it is) does not depend on the order."""
    cells, lines = list(masks), _lines(puzzle)
    changed = True
    while changed:
        changed = False
        for clue, where in lines:
            solved = solve_colour_line(clue, [cells[i] for i in where])
            if solved is None:
                return None
            for i, new in zip(where, solved):
                if new != cells[i]:
                    cells[i], changed = new, True
    return tuple(cells)


def probe(puzzle: ColourPuzzle, masks: Masks) -> Masks | None:
    """Propagate, then assume each colour of each open cell in turn until nothing more is
    learned: a colour whose propagation meets a contradiction is ruled out, and every cell
    keeps only the union of what the surviving assumptions left it. What is learned holds in
    every solution, so the result does not depend on the order of the probes."""
    current = propagate(puzzle, masks)
    learned = True
    while current is not None and learned:
        learned = False
        for cell, mask in enumerate(current):
            if current is None or mask & (mask - 1) == 0 or current[cell] != mask:
                continue
            survivors = [g for bit in _bits(mask) if (g := propagate(puzzle, _set(
                current, cell, bit))) is not None]
            union = tuple(_union(column) for column in zip(*survivors)) if survivors else None
            if union != current:
                current = None if union is None else propagate(puzzle, union)
                learned = True
    return current


def _bits(mask: int) -> Iterator[int]:
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit


def _set(masks: Masks, cell: int, mask: int) -> Masks:
    return masks[:cell] + (mask,) + masks[cell + 1:]


def _union(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out

