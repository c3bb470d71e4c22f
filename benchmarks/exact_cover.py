"""The exact-cover peers of the tiling and calendar benchmarks (xcover, dxz: the bench extra).

A matrix is (rows as lists of item indices, number of items); each peer counts its exact
covers, or is None when its package is not installed.
"""

from __future__ import annotations

from collections.abc import Callable

Matrix = tuple[list[list[int]], int]


def peer_xcover() -> Callable[[Matrix], int] | None:
    """xcover's cover enumeration, counted."""
    try:
        import xcover
    except ImportError:
        return None

    def run(m: Matrix) -> int:
        return sum(1 for _ in xcover.covers(m[0]))
    return run


def peer_dxz() -> Callable[[Matrix], int] | None:
    """dxz's counter, which takes the matrix as a flat 0/1 list."""
    try:
        import dxz
    except ImportError:
        return None

    def run(m: Matrix) -> int:
        rows, ncols = m
        flat = [0] * (len(rows) * ncols)
        for r, items in enumerate(rows):
            for c in items:
                flat[r * ncols + c] = 1
        return int(dxz.dxz_count(len(rows), ncols, flat))
    return run


def installed_peers() -> dict[str, Callable[[Matrix], int]]:
    """The peers whose packages are installed, by name."""
    found = {"xcover": peer_xcover(), "dxz": peer_dxz()}
    return {name: run for name, run in found.items() if run is not None}
