"""The compiled engines' constants, from their one definition in core.h and colour.h.

Cell values (bit masks: CELL_UNKNOWN = CELL_EMPTY | CELL_FILLED), branching rules
(``ORDER_*``, the ``order`` of a compiled search) and the kinds of events a watched search
reports (``EV_*``; see core.h for their arguments). Modules outside the engine read them
here rather than from the private extension modules.
"""

from gridsolve.nonogram.engine._colour import MAX_COLOURS
from gridsolve.nonogram.engine._colour import NOT_KNOWN as COLOUR_NOT_KNOWN
from gridsolve.nonogram.engine._core import (BITS_MAX, CELL_EMPTY, CELL_FILLED, CELL_UNKNOWN,
                                             EV_BACKTRACK, EV_GUESS, EV_LINE, EV_PROBE,
                                             EV_PROBE_FIX, EV_SOLUTION, EV_TRY, ORDER_LIKELY,
                                             ORDER_LOOSE, ORDER_PROMISE, ORDER_SURE, ORDER_TIGHT)

__all__ = ["BITS_MAX", "CELL_EMPTY", "CELL_FILLED", "CELL_UNKNOWN", "COLOUR_NOT_KNOWN",
           "EV_BACKTRACK", "EV_GUESS", "EV_LINE", "EV_PROBE", "EV_PROBE_FIX", "EV_SOLUTION",
           "EV_TRY", "MAX_COLOURS", "ORDER_LIKELY", "ORDER_LOOSE", "ORDER_PROMISE", "ORDER_SURE",
           "ORDER_TIGHT"]
