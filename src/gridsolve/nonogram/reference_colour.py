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

from gridsolve.nonogram.model import ColourClue

__all__ = ["colour_arrangements", "brute_force_colour_line", "solve_colour_line", "mask_of"]

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
