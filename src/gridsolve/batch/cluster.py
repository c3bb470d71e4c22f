"""An executor on an existing Dask cluster (the ``dask`` extra), its address checked first."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

from gridsolve.errors import GridsolveError, SolverUnavailable


@contextmanager
def dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    """An executor on an existing Dask cluster, and its number of worker threads."""
    try:
        import distributed
    except ImportError:
        raise SolverUnavailable("dask", "dask") from None
    _check_address(address)
    connect: Any = distributed.Client  # untyped library: keep its calls out of strict checks
    try:
        client = connect(address, timeout=30, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        raise GridsolveError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        slots = sum(client.nthreads().values()) or 1
        yield client.get_executor(pure=False), slots
    except KeyboardInterrupt:
        # the comms cut by the interrupt log CommClosedError tracebacks (tornado, distributed)
        # while the client closes: Ctrl-C says one line, as with local workers
        for name in DASK_LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        raise
    finally:
        client.close()


#: The transports ``--scheduler`` connects by: TLS needs certificates and UCX its own
#: library, which batch has no options for (their clients failed after starting a thread that
#: kept the process from exiting).
SCHEDULER_SCHEMES = ("tcp", "ws", "wss", "inproc")


def _check_address(address: str) -> None:
    """Refuse, before any connection is tried, an address no Dask client can reach: a scheme
    distributed has no transport for, a network address without a port or with one out of
    range (distributed raised these deep inside its client, and left the process hanging at
    exit); ``inproc://`` only for a cluster inside this process (the tests')."""
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port
    example = "scheme://host:port, e.g. tcp://127.0.0.1:8786"
    try:
        scheme, where = parse_address(address)
        if scheme not in registry.backends:
            raise ValueError(f"distributed has no {scheme}:// transport")
        if scheme not in SCHEDULER_SCHEMES:  # (their clients need settings batch does not take)
            raise ValueError(f"batch connects by {', '.join(SCHEDULER_SCHEMES)}, not {scheme}://")
        if scheme == "inproc":  # inproc://host/pid/n: a cluster inside that process
            parts = where.split("/")
            if len(parts) != 3 or not parts[1].isdigit() or int(parts[1]) != os.getpid():
                raise ValueError("an inproc:// address is of a cluster inside this process")
            return
        _host, port = parse_host_port(where)
    except (ValueError, TypeError) as exc:
        raise GridsolveError(f"{address!r} is not a Dask scheduler's address "
                             f"({example}): {exc}") from None
    if not 0 < int(port) < 65536:
        raise GridsolveError(f"Dask scheduler address {address!r}: port {port} is out of range "
                             "(1-65535)")


#: The loggers a Dask client's teardown writes to.
DASK_LOGGERS = ("distributed", "tornado", "tornado.application", "asyncio")
