"""From a picture to a grid: greyscale, box-filter resize to W x H, Otsu threshold.

Dark cells (below the threshold) are filled. Each cell also gets a flipping cost, its grey
distance from the threshold (0 to 1), so a repair changes the most doubtful cells first.
Pillow is an optional extra (``gridsolve[image]``), imported only here and only when used.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.errors import ParseError, SolverUnavailable
from gridsolve.nonogram.model import EMPTY, FILLED, Grid

__all__ = ["grid_from_image", "otsu_threshold", "threshold_grid"]

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
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise SolverUnavailable("Pillow", "image") from None
    try:
        with Image.open(path) as opened:
            opened.load()
            img = opened.convert("RGBA")
        background = Image.new("RGBA", img.size, (255, 255, 255, 255))
        flat = Image.alpha_composite(background, img)
        grey = flat.convert("L").resize((width, height), Image.Resampling.BOX)
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError) as exc:
        raise ParseError(f"cannot read the picture: {exc}", path) from None
    return threshold_grid(list(grey.tobytes()), width, height, threshold)
