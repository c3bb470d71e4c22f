"""From a picture to a grid: greyscale, box-filter resize to W x H, Otsu threshold; or in
colour, quantised to N ink colours and a background.

Black and white: dark cells (below the threshold) are filled. Each cell also gets a flipping
cost, its grey distance from the threshold (0 to 1), so a repair changes the most doubtful
cells first.

Colour (``colour_grid_from_image``): the picture (transparency on white) is shrunk to at most
``SAMPLE_SIDE`` pixels a side and quantised by Pillow's median cut (Heckbert, 1982) to N + 1
colours, without dithering; each cell of the box-filtered W x H picture takes the nearest of
them (RGB distance). The colour most common on the grid's border (ties: the lightest) becomes
the background, written white; the others are the inks, the most used first, each named
after the nearest of ``NAMES`` and keeping its RGB. A cell's second choice is the next
nearest colour, its cost the gap between the two distances (0 to 1): the repair tries the
most doubtful cells first, and changes a cell only to its second choice and back.

Pillow is an optional extra (``gridsolve[image]``), imported only here and only when used.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gridsolve.errors import ParseError, SolverUnavailable
from gridsolve.nonogram.model import BLACK, EMPTY, FILLED, RGB, WHITE, Colour, Grid

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["grid_from_image", "otsu_threshold", "threshold_grid", "ColourPicture",
           "colour_grid_from_image", "quantised_grid", "NAMES", "SAMPLE_SIDE"]

#: The threshold when every cell has the same grey (Otsu has nothing to separate).
DEFAULT_THRESHOLD = 128


def otsu_threshold(values: Sequence[int]) -> int:
    """The grey level (0..255) that best splits the values into two classes (Otsu, 1979).

    Values below the threshold are one class, the rest the other; the threshold maximises the
    variance between the two classes."""
    hist = [0] * 256
    for v in values:
        hist[v] += 1
    total = len(values)
    sum_all = sum(i * n for i, n in enumerate(hist))
    best, best_t = -1.0, DEFAULT_THRESHOLD
    weight_low = sum_low = 0
    for t in range(1, 256):
        weight_low += hist[t - 1]
        sum_low += (t - 1) * hist[t - 1]
        weight_high = total - weight_low
        if weight_low == 0 or weight_high == 0:
            continue
        mean_low = sum_low / weight_low
        mean_high = (sum_all - sum_low) / weight_high
        between = weight_low * weight_high * (mean_low - mean_high) ** 2
        if between > best:
            best, best_t = between, t
    return best_t


def threshold_grid(values: Sequence[int], width: int, height: int,
                   threshold: int | None = None) -> tuple[Grid, list[list[float]]]:
    """Cells darker than the threshold are filled; the cost of flipping each cell."""
    t = otsu_threshold(values) if threshold is None else threshold
    grid = tuple("".join(FILLED if values[r * width + c] < t else EMPTY for c in range(width))
                 for r in range(height))
    cost = [[abs(values[r * width + c] - t + 0.5) / 255 for c in range(width)]
            for r in range(height)]
    return grid, cost


def grid_from_image(path: str, width: int, height: int,
                    threshold: int | None = None) -> tuple[Grid, list[list[float]]]:
    """Read a picture and turn it into a W x H grid (and the cost of flipping each cell)."""
    flat = _read_flat(path)
    from PIL import Image
    grey = flat.convert("L").resize((width, height), Image.Resampling.BOX)
    return threshold_grid(list(grey.tobytes()), width, height, threshold)


def _read_flat(path: str) -> Image:
    """The picture in RGB, its transparent parts on white (ParseError if it cannot be read;
    SolverUnavailable without Pillow)."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise SolverUnavailable("Pillow", "image") from None
    try:
        with Image.open(path) as opened:
            opened.load()
            img = opened.convert("RGBA")
        background = Image.new("RGBA", img.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, img).convert("RGB")
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError) as exc:
        raise ParseError(f"cannot read the picture: {exc}", path) from None


#: The colours are chosen from the picture shrunk to at most this many pixels a side (the
#: cells are read from the whole picture): median cut on a million pixels takes a second.
SAMPLE_SIDE = 256
#: Names for the inks of a picture (the nearest by RGB distance; white is the background's).
NAMES: dict[str, RGB] = {
    "black": (0, 0, 0), "grey": (128, 128, 128), "silver": (192, 192, 192),
    "ivory": (255, 255, 240), "red": (220, 30, 30), "darkred": (139, 0, 0),
    "pink": (255, 182, 193), "orange": (255, 140, 0), "brown": (139, 69, 19),
    "tan": (210, 180, 140), "yellow": (255, 230, 0), "olive": (128, 128, 0),
    "green": (0, 150, 0), "lime": (140, 230, 60), "darkgreen": (0, 90, 0),
    "teal": (0, 128, 128), "cyan": (0, 210, 230), "skyblue": (135, 206, 235),
    "blue": (30, 60, 220), "navy": (0, 0, 128), "purple": (128, 0, 128),
    "violet": (200, 130, 230), "magenta": (230, 0, 200), "cream": (255, 240, 200),
}
#: The largest RGB distance (black to white): costs are distances over it.
_FARTHEST = math.sqrt(3 * 255 ** 2)


@dataclass(frozen=True)
class ColourPicture:
    """A picture as a colour grid: its palette (background first), each cell's symbol, its
    second choice and the cost of changing it to that (0 to 1)."""

    palette: tuple[Colour, ...]
    grid: Grid
    second: Grid
    cost: tuple[tuple[float, ...], ...]


def colour_grid_from_image(path: str, width: int, height: int, colours: int) -> ColourPicture:
    """Read a picture and turn it into a W x H grid of at most ``colours`` inks and a
    background (see the module's docstring)."""
    flat = _read_flat(path)
    from PIL import Image
    sample = flat.copy()
    sample.thumbnail((SAMPLE_SIDE, SAMPLE_SIDE), Image.Resampling.BOX)
    quantised = sample.quantize(colors=colours + 1, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE)
    table = quantised.getpalette() or []
    used = sorted(i for _, i in quantised.getcolors() or [] if isinstance(i, int))  # indices
    candidates = sorted({(table[3 * i], table[3 * i + 1], table[3 * i + 2]) for i in used})
    cells = flat.resize((width, height), Image.Resampling.BOX).tobytes()
    pixels = [(cells[i], cells[i + 1], cells[i + 2]) for i in range(0, len(cells), 3)]
    return quantised_grid(pixels, width, height, candidates)


def quantised_grid(pixels: Sequence[RGB], width: int, height: int,
                   candidates: Sequence[RGB]) -> ColourPicture:
    """Each pixel (row by row) as the nearest candidate colour; the background, names and
    symbols as the module's docstring says (the candidates no cell takes are left out)."""
    nearest = [_ranked(p, candidates)[0] for p in pixels]
    kept = sorted(set(nearest))
    border = Counter(nearest[r * width + c] for r in range(height) for c in range(width)
                     if r in (0, height - 1) or c in (0, width - 1))
    background = max(kept, key=lambda i: (border[i], sum(candidates[i]), -i))
    counts = Counter(nearest)
    inks = sorted((i for i in kept if i != background), key=lambda i: (-counts[i], i))
    order = [background, *inks]
    palette = _palette([candidates[i] for i in inks])
    rgbs = [candidates[i] for i in order]
    first, second, cost = [], [], []
    for p in pixels:
        ranked = _ranked(p, rgbs)
        a, b = ranked[0], ranked[1] if len(ranked) > 1 else ranked[0]
        first.append(palette[a].symbol)
        second.append(palette[b].symbol)
        cost.append((_distance(p, rgbs[b]) - _distance(p, rgbs[a])) / _FARTHEST)

    def rows(items: Sequence[str]) -> Grid:
        return tuple("".join(items[r * width:(r + 1) * width]) for r in range(height))
    return ColourPicture(palette, rows(first), rows(second),
                         tuple(tuple(cost[r * width:(r + 1) * width]) for r in range(height)))


def _distance(a: RGB, b: RGB) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def _ranked(pixel: RGB, colours: Sequence[RGB]) -> list[int]:
    """The indices of the colours, the nearest to the pixel first (ties: the lower index)."""
    return sorted(range(len(colours)), key=lambda i: (_distance(pixel, colours[i]), i))


def _palette(inks: Sequence[RGB]) -> tuple[Colour, ...]:
    """White background, then the inks named after the nearest of NAMES (a second one of a
    name gets ' 2', ...), each with a letter of its name as its symbol when one is free."""
    if not inks:  # a picture of one colour: an empty grid, whose palette still needs an ink
        return (WHITE, BLACK)
    out = [WHITE]
    names: set[str] = {WHITE.name}
    symbols: set[str] = {WHITE.symbol}
    for rgb in inks:
        base = min(NAMES, key=lambda n: (_distance(rgb, NAMES[n]), n))
        name, k = base, 2
        while name in names:
            name, k = f"{base} {k}", k + 1
        symbol = next(ch for ch in base + "abcdefghijklmnopqrstuvwxyz" + "0123456789"
                      if ch.isalnum() and ch not in symbols)
        names.add(name)
        symbols.add(symbol)
        out.append(Colour(name, rgb, symbol))
    return tuple(out)
