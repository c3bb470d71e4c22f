"""``gridsolve serve``: the web page and its JSON API on a local port (extra ``gridsolve[web]``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from gridsolve.numbers import is_number
from gridsolve.web.app import create_app
from gridsolve.web.limits import WebLimits


def add_parser(sub: Any, argv: Sequence[str] | None = None) -> None:
    p = sub.add_parser("serve", help="serve the web page (paste and watch a solve; calendar)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one and prints it)")
    p.add_argument("--budget", type=_seconds, default=WebLimits.budget, metavar="SECONDS",
                   help=f"time budget per solve (default {WebLimits.budget:g})")
    p.add_argument("--solves", type=_positive, default=WebLimits.max_solves, metavar="N",
                   help=f"solves at once (default {WebLimits.max_solves})")
    p.add_argument("--idle-timeout", type=_seconds, default=WebLimits.idle_timeout,
                   metavar="SECONDS", help="seconds a connection may take to send a request "
                   f"before it is closed (default {WebLimits.idle_timeout:g})")
    p.add_argument("--connections", type=_connections, default=WebLimits.max_connections,
                   metavar="N", help="connections open at once (default "
                   f"{WebLimits.max_connections}; fewer if the descriptor limit is low)")
    p.set_defaults(run=run_serve)


def _port(text: str) -> int:
    if not is_number(text) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number")
    return int(text)


def _positive(text: str) -> int:
    if not is_number(text) or len(text) > 2 or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 64")
    return int(text)


def _connections(text: str) -> int:
    if not is_number(text) or len(text) > 6 or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 100000")
    return int(text)


def _seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < x <= 3600:
        raise argparse.ArgumentTypeError(f"must be between 0 and 3600 seconds, got {text}")
    return x


def run_serve(args: argparse.Namespace) -> int:
    limits = WebLimits(budget=args.budget, max_solves=args.solves,
                       idle_timeout=args.idle_timeout, max_connections=args.connections)
    app = create_app(limits)
    import socket

    from gridsolve.web.server import make_server, raise_descriptor_limit

    descriptors = raise_descriptor_limit()

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"gridsolve: serving on http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
        make_server(app, limits, descriptors).run(sockets=[sock])
    return 0
