"""The year at a glance: 12 small calendars coloured by solution count, plus averages per
month (and per weekday). Drawn as simple shapes, written as SVG by hand or PNG via Pillow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from statistics import mean

from gridsolve.errors import SolverUnavailable
from gridsolve.tiling.calendar import MONTHS, WEEKDAYS, CalendarDay, averages

__all__ = ["Box", "Label", "heatmap_shapes", "write_heatmap", "colour_of"]

#: Colour stops from few solutions (dark) to many (bright), viridis-like.
STOPS = ((0.0, (68, 1, 84)), (0.25, (59, 82, 139)), (0.5, (33, 145, 140)),
         (0.75, (94, 201, 98)), (1.0, (253, 231, 37)))


@dataclass(frozen=True)
class Box:
    """A filled square."""

    x: float
    y: float
    w: float
    h: float
    fill: tuple[int, int, int]


@dataclass(frozen=True)
class Label:
    """A line of text centred on (x, y)."""

    x: float
    y: float
    text: str
    size: int
    dark: bool = True


def colour_of(t: float) -> tuple[int, int, int]:
    """Colour for t in [0, 1] on the scale."""
    t = min(1.0, max(0.0, t))
    for (t0, c0), (t1, c1) in zip(STOPS, STOPS[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            return tuple(round(a + (b - a) * f) for a, b in zip(c0, c1))  # type: ignore[return-value]
    return STOPS[-1][1]


def heatmap_shapes(counts: Mapping[CalendarDay, int], title: str
                   ) -> tuple[int, int, list[Box | Label]]:
    """Lay out the picture: (width, height, shapes)."""
    per_day: dict[tuple[int, int], float] = {}
    for m in range(1, 13):
        for d in range(1, 32):
            vals = [n for day, n in counts.items() if (day.month, day.day) == (m, d) and day.valid]
            if vals:
                per_day[(m, d)] = mean(vals)
    lo, hi = min(per_day.values()), max(per_day.values())
    cell, gap = 26, 18
    cal_w, cal_h = 7 * cell, 5 * cell + 22
    width = 4 * cal_w + 5 * gap
    shapes: list[Box | Label] = [Label(width / 2, 22, title, 16)]
    top = 44
    for i in range(12):
        x0 = gap + (i % 4) * (cal_w + gap)
        y0 = top + (i // 4) * (cal_h + gap)
        shapes.append(Label(x0 + cal_w / 2, y0 + 9, MONTHS[i], 13))
        for d in range(1, 32):
            if (i + 1, d) not in per_day:
                continue
            v = per_day[(i + 1, d)]
            t = (v - lo) / (hi - lo) if hi > lo else 0.5
            x, y = x0 + ((d - 1) % 7) * cell, y0 + 20 + ((d - 1) // 7) * cell
            shapes.append(Box(x + 1, y + 1, cell - 2, cell - 2, colour_of(t)))
            shapes.append(Label(x + cell / 2, y + cell / 2, f"{v:.0f}", 9, dark=t > 0.55))
    y = top + 3 * (cal_h + gap) + 6
    per_month, per_week = averages(counts)
    text = "mean per month: " + "  ".join(f"{m} {v:.0f}" for m, v in zip(MONTHS, per_month))
    shapes.append(Label(width / 2, y, text, 11))
    if per_week:
        y += 20
        text = "mean per weekday: " + "  ".join(f"{w} {v:.0f}" for w, v in zip(WEEKDAYS, per_week))
        shapes.append(Label(width / 2, y, text, 11))
    y += 22
    for k in range(40):    # the colour scale
        shapes.append(Box(width / 2 - 200 + k * 10, y, 10, 10, colour_of(k / 39)))
    shapes.append(Label(width / 2 - 230, y + 5, f"{lo:.0f}", 10))
    shapes.append(Label(width / 2 + 230, y + 5, f"{hi:.0f}", 10))
    return width, int(y + 24), shapes


def _svg(width: int, height: int, shapes: list[Box | Label]) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for s in shapes:
        if isinstance(s, Box):
            out.append(f'<rect x="{s.x}" y="{s.y}" width="{s.w}" height="{s.h}" '
                       f'fill="rgb{s.fill}"/>')
        else:
            fill = "black" if s.dark else "white"
            out.append(f'<text x="{s.x}" y="{s.y}" font-size="{s.size}" text-anchor="middle" '
                       f'dominant-baseline="central" fill="{fill}">{escape(s.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _png(path: Path, width: int, height: int, shapes: list[Box | Label]) -> None:
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise SolverUnavailable("PNG output (Pillow)", "image") from None
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    for s in shapes:
        if isinstance(s, Box):
            draw.rectangle([s.x, s.y, s.x + s.w, s.y + s.h], fill=s.fill)
        else:
            draw.text((s.x, s.y), s.text, fill="black" if s.dark else "white", anchor="mm")
    img.save(path, format="PNG")


def write_heatmap(path: str | Path, counts: Mapping[CalendarDay, int], title: str = "") -> None:
    """Write the year heatmap to an .svg or .png file (PNG needs the 'image' extra)."""
    p = Path(path)
    width, height, shapes = heatmap_shapes(counts, title)
    if p.suffix.lower() == ".png":
        _png(p, width, height, shapes)
    elif p.suffix.lower() == ".svg":
        p.write_text(_svg(width, height, shapes), encoding="utf-8")
    else:
        raise OSError(f"{path}: choose a .png or .svg file name")
