"""Ctrl-C in a test: SIGINT sent to this process again and again while a block runs, taken
by a handler the test chooses (issue #54's interrupt tests).

The signal is sent every SEND_EVERY seconds until the block ends, so a first one that comes
before a compiled core has started (Python handles it then, between bytecodes) does not make
the test wait for the call's own TIMEOUT; a call the interrupt stopped returns well within
SOON, and one it did not stop runs to TIMEOUT and fails the test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["TIMEOUT", "SOON", "SEND_EVERY", "ctrl_c", "quiet", "raise_once"]

#: The timeout each call is given: far beyond SOON, so that reaching it fails the test.
TIMEOUT = 120.0
#: A call the interrupt stopped has returned within this many seconds (it takes a few
#: milliseconds; the bound is for a busy machine).
SOON = 30.0
SEND_EVERY = 0.1

#: The sending process: SIGINT to the pid given every so many seconds, until it is killed.
SENDER = """
import os, signal, sys, time
while True:
    time.sleep(float(sys.argv[2]))
    os.kill(int(sys.argv[1]), signal.SIGINT)
"""


@contextmanager
def ctrl_c(handler: Callable[[int, Any], None]) -> Iterator[list[int]]:
    """SIGINT to this process every SEND_EVERY seconds while the block runs, taken by
    ``handler``; yields the list of the handler's calls."""
    calls: list[int] = []

    def handle(signum: int, frame: Any) -> None:
        calls.append(signum)
        handler(signum, frame)

    old = signal.signal(signal.SIGINT, handle)
    # another process sends them, as a terminal would: a thread of this one could not while
    # a library's solve holds the GIL (python-sat's plain solve does)
    sender = subprocess.Popen([sys.executable, "-c", SENDER, str(os.getpid()), str(SEND_EVERY)])
    try:
        yield calls
    finally:
        sender.kill()
        sender.wait()
        signal.signal(signal.SIGINT, lambda signum, frame: None)  # any still pending
        time.sleep(0.01)
        signal.signal(signal.SIGINT, old)


def quiet(signum: int, frame: Any) -> None:
    """A handler that raises nothing (as one that only sets a flag to stop)."""


def raise_once() -> Callable[[int, Any], None]:
    """A handler that raises KeyboardInterrupt the first time, then nothing."""
    raised: list[bool] = []

    def handle(signum: int, frame: Any) -> None:
        if not raised:
            raised.append(True)
            raise KeyboardInterrupt
    return handle
