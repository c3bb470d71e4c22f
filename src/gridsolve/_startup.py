"""Ctrl-C while the ``gridsolve`` command starts: one line and exit code 130, no traceback.

The console script imports the package (and the CLI's modules) before ``cli.main`` runs and
can catch KeyboardInterrupt; a Ctrl-C in those first tens of milliseconds printed a
traceback. When this process is that command (its program is named ``gridsolve``), the
package's first lines install ``quiet`` for SIGINT, and ``cli.main`` hands SIGINT back to
Python's default (KeyboardInterrupt, which it catches) with ``release``. A program that
imports gridsolve as a library is not touched. (The interpreter's own start-up, before any
of gridsolve runs, is out of reach.)
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

#: The console script pip writes (on Windows a launcher, ``gridsolve.exe``, runs the
#: ``__main__.py`` appended to it).
COMMAND = "gridsolve"


def is_command() -> bool:
    """Is this process the ``gridsolve`` command (rather than a program importing gridsolve)?
    Its main module is the console script. (Not ``sys.argv``: a process that multiprocessing
    spawns is given its parent's.)"""
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if not isinstance(script, str):
        return False
    name = os.path.basename(script)
    if name == "__main__.py":  # ...\Scripts\gridsolve.exe\__main__.py
        return os.path.basename(os.path.dirname(script)) == COMMAND + ".exe"
    return name == COMMAND


def _signal() -> ModuleType:
    """CPython's ``_signal`` (what ``signal`` wraps; it has no type stubs)."""
    return __import__("_signal")


def quiet(signum: int, frame: object) -> None:
    """SIGINT before ``cli.main`` runs: the CLI's one line, exit 130 (nothing to clean up)."""
    try:
        sys.stderr.write("gridsolve: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def install() -> None:
    """Take SIGINT until ``release`` when this process is the command and SIGINT is still
    Python's default. (CPython's ``_signal``, as ``signal`` itself uses: importing ``signal``
    imports enum, functools and collections, a third of the window this closes.)"""
    if not is_command():
        return
    try:
        sig = _signal()
        if sig.getsignal(sig.SIGINT) is sig.default_int_handler:
            sig.signal(sig.SIGINT, quiet)
    except (ImportError, ValueError):  # another Python; not the main thread
        pass


def release() -> None:
    """Give SIGINT back to Python's default (KeyboardInterrupt) if ``install`` took it."""
    try:
        sig = _signal()
        if sig.getsignal(sig.SIGINT) is quiet:
            sig.signal(sig.SIGINT, sig.default_int_handler)
    except (ImportError, ValueError):
        pass
