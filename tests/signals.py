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
import threading
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


@contextmanager
def ctrl_c(handler: Callable[[int, Any], None]) -> Iterator[list[int]]:
    """SIGINT to this process every SEND_EVERY seconds while the block runs, taken by
    ``handler``; yields the list of the handler's calls."""
    calls: list[int] = []

    def handle(signum: int, frame: Any) -> None:
        calls.append(signum)
        handler(signum, frame)

    done = threading.Event()

    def send() -> None:
        while not done.wait(SEND_EVERY):
            os.kill(os.getpid(), signal.SIGINT)

    old = signal.signal(signal.SIGINT, handle)
    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        yield calls
    finally:
        done.set()
        sender.join()
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
