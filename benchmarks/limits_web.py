"""The web server's rows of ``benchmarks/limits.py``: ``gridsolve serve`` under idle and
half-sent connections, under ``steps`` requests, and a soak of mixed requests (issue 53).

Every server runs as its own process on an ephemeral 127.0.0.1 port and is killed after its
row. Rows (``--rows``, comma-separated):

    idle     2,000 connections that send nothing: a request's answer time while they are
             open, how many are still open one second after the idle timeout, peak RSS
    slow     the same with half-sent request heads
    plain    plain uvicorn (the app as before issue 53) with 1,024 descriptors and 1,100 idle
             connections: does it still answer? (the measurement behind web/server.py)
    steps    a 200x200 checkerboard with "steps": true, alone (wall against the budget),
             then four at once: peak RSS and RSS once they are answered
    soak     10,000 mixed requests from 8 clients while 3,000 idle or half-sent connections
             come and go; then the answer time of one request and the RSS

Targets: an answer within 0.1 s, nothing open past the idle timeout, a solve within
max(0.5 s, 10%) of the budget, RSS under 300 MB. Linux only (/proc).

    .venv/bin/python benchmarks/limits_web.py [--rows idle,slow,plain,steps,soak]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.model import puzzle_from_grid

ROWS = ("idle", "slow", "plain", "steps", "soak")
ANSWER_TARGET = 0.1
RSS_TARGET_MB = 300
IDLE_TIMEOUT = 10.0
BUDGET = 10.0
EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "gridsolve" / "examples"
PLAIN = ("import socket, sys, uvicorn\nfrom gridsolve.web import create_app\n"
         "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(2048)\n"
         "print(f'http://127.0.0.1:{s.getsockname()[1]}/', flush=True)\n"
         "uvicorn.Server(uvicorn.Config(create_app(), log_level='critical')).run(sockets=[s])\n")


def rss_mb(pid: int) -> float:
    """Resident MB of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(x.split()[1]) for x in f if x.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


class Server:
    """A server process on a free loopback port, its RSS sampled every 20 ms."""

    def __init__(self, args: list[str], descriptors: int | None = None) -> None:
        def limit() -> None:
            if descriptors is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     preexec_fn=limit)
        assert self.proc.stdout is not None
        self.port = int(re.findall(r":(\d+)/", self.proc.stdout.readline().decode())[0])
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except ConnectionRefusedError:
                time.sleep(0.05)
        self.peak = rss_mb(self.proc.pid)
        self.done = threading.Event()
        self.watcher = threading.Thread(target=self._watch, daemon=True)
        self.watcher.start()

    def _watch(self) -> None:
        while not self.done.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.proc.pid))

    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def stop(self) -> None:
        self.done.set()
        self.proc.kill()
        self.proc.wait(10)


#: The gridsolve command whose server is measured (``main``'s argument).
GRIDSOLVE = str(Path(sys.executable).with_name("gridsolve"))


def serve(*args: str, descriptors: int | None = None) -> Server:
    return Server([GRIDSOLVE, "serve", "--port", "0", *args], descriptors)


def ask(port: int, method: str = "GET", path: str = "/api/", body: object = None,
        timeout: float = 5.0) -> tuple[float, int]:
    """Seconds to a whole answer and its status (0 if none came within ``timeout``)."""
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, data, {"content-type": "application/json"})
        res = conn.getresponse()
        res.read()
        conn.close()
        return time.perf_counter() - started, res.status
    except OSError:
        return time.perf_counter() - started, 0


def hold(port: int, n: int, half: bool) -> list[socket.socket]:
    """Open n connections that send nothing, or half a request head."""
    out = []
    for _ in range(n):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            break
        if half:
            sock.sendall(b"POST /api/nonogram/solve HTTP/1.1\r\nhost: x\r\ncontent-le")
        out.append(sock)
    return out


def still_open(socks: list[socket.socket]) -> int:
    """How many of these connections the server has not closed."""
    n = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            while sock.recv(65536):
                pass
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


Row = tuple[str, str, float, float, float, str, bool]


def row_held(half: bool) -> Row:
    srv = serve()
    try:
        socks = hold(srv.port, 2000, half)
        first, status = ask(srv.port)  # behind the connections still queued
        time.sleep(1)
        answer, again = ask(srv.port)
        time.sleep(IDLE_TIMEOUT)
        left = still_open(socks)
        for sock in socks:
            sock.close()
        ok = (status == again == 200 and answer < ANSWER_TARGET and left == 0
              and srv.peak < RSS_TARGET_MB)
        return ("slow" if half else "idle", f"{len(socks)} conns", answer, srv.peak, srv.rss(),
                f"answered {again} ({first:.2f} s right after opening them); {left} open "
                f"after {IDLE_TIMEOUT + 1:g} s", ok)
    finally:
        srv.stop()


def row_plain() -> Row:
    srv = Server([sys.executable, "-c", PLAIN], descriptors=1024)
    try:
        socks = hold(srv.port, 1100, False)
        answer, status = ask(srv.port)
        for sock in socks:
            sock.close()
        time.sleep(2)
        after, again = ask(srv.port)
        return ("plain", f"{len(socks)} conns", answer, srv.peak, srv.rss(),
                f"answered {status or 'nothing'}; after the clients left: {again or 'nothing'}",
                status == 200 and again == 200)
    finally:
        srv.stop()


def checkerboard() -> dict[str, object]:
    grid = ["".join("#." [(r + c) % 2] for c in range(200)) for r in range(200)]
    return {"text": write_puzzle(puzzle_from_grid(grid), "text"), "steps": True}


def row_steps() -> list[Row]:
    srv = serve("--budget", f"{BUDGET:g}")
    body = checkerboard()
    try:
        wall, status = ask(srv.port, "POST", "/api/nonogram/solve", body, timeout=60)
        alone = ("steps", "1 at once", wall, srv.peak, srv.rss(), f"status {status}; overrun "
                 f"{wall - BUDGET:+.2f} s", status == 200 and wall - BUDGET <= max(0.5, BUDGET / 10)
                 and srv.peak < RSS_TARGET_MB)
        with ThreadPoolExecutor(4) as pool:
            walls = list(pool.map(lambda _: ask(srv.port, "POST", "/api/nonogram/solve", body,
                                                timeout=120), range(4)))
        time.sleep(0.5)
        after = srv.rss()
        four = ("steps", "4 at once", max(w for w, _ in walls), srv.peak, after,
                f"statuses {sorted({s for _, s in walls})} (2 solves at a time)",
                all(s == 200 for _, s in walls) and srv.peak < RSS_TARGET_MB)
        return [alone, four]
    finally:
        srv.stop()


def soak_requests() -> list[Callable[[int, http.client.HTTPConnection], int]]:
    """The mix of requests (weights by repetition), each (port, connection) -> status."""
    duck = (EXAMPLES / "duck.txt").read_text()

    def call(method: str, path: str, body: object = None) -> Callable[..., int]:
        def go(port: int, conn: http.client.HTTPConnection) -> int:
            data = None if body is None else json.dumps(body).encode()
            conn.request(method, path, data, {"content-type": "application/json"})
            res = conn.getresponse()
            res.read()
            return res.status
        return go

    return ([call("GET", "/api/nonogram/formats")] * 4 + [call("GET", "/api/")] * 2
            + [call("POST", "/api/nonogram/parse", {"text": duck})] * 2
            + [call("POST", "/api/nonogram/solve", {"text": duck, "steps": False})] * 2
            + [call("POST", "/api/nonogram/solve", {"text": duck})]
            + [call("POST", "/api/nonogram/render", {"text": duck, "solved": True})]
            + [call("POST", "/api/nonogram/generate", {"width": 8, "height": 8, "seed": 1})]
            + [call("POST", "/api/nonogram/solve", {"text": duck, "format": None})])


def row_soak(total: int = 10_000, held: int = 3000, limit_s: float = 600) -> Row:
    srv = serve()
    mix = soak_requests()
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    started = time.perf_counter()
    todo = iter(range(total))

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
        while time.perf_counter() - started < limit_s:
            with lock:
                if next(todo, None) is None:
                    return
            try:
                status = rng.choice(mix)(srv.port, conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
                status = 0
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

    def nuisance() -> None:  # idle and half-sent connections in waves of 500
        opened = 0
        while opened < held and time.perf_counter() - started < limit_s:
            socks = hold(srv.port, 500, half=opened % 1000 == 500)
            opened += 500
            time.sleep(2)
            if opened % 1000 == 0:
                for sock in socks:
                    sock.close()

    try:
        threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
        threads.append(threading.Thread(target=nuisance))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        answer, status = ask(srv.port)
        rss = srv.rss()
        done = sum(statuses.values())
        bad = {k: v for k, v in statuses.items() if k not in (200, 422)}  # 422: format null
        return ("soak", f"{done} reqs", answer, srv.peak, rss,
                f"{wall:.0f} s; statuses {dict(sorted(statuses.items()))}; then answered "
                f"{status}", status == 200 and answer < ANSWER_TARGET and rss < RSS_TARGET_MB
                and done == total and not bad)
    finally:
        srv.stop()


def main(rows: list[str], gridsolve: str | None = None) -> int:
    """Run the rows (with this gridsolve command), print the table; the number that missed
    their target."""
    global GRIDSOLVE
    GRIDSOLVE = gridsolve or GRIDSOLVE
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the clients hold 3,000 sockets
    print(f"web: gridsolve serve on 127.0.0.1 (idle timeout {IDLE_TIMEOUT:g} s, budget "
          f"{BUDGET:g} s); target: answer < {ANSWER_TARGET} s, RSS < {RSS_TARGET_MB} MB")
    print(f"{'row':<6} {'load':>11} {'answer s':>9} {'peak MB':>8} {'end MB':>7}  status")
    missed = 0
    table: dict[str, Callable[[], list[Row]]] = {
        "idle": lambda: [row_held(False)], "slow": lambda: [row_held(True)],
        "plain": lambda: [row_plain()], "steps": row_steps, "soak": lambda: [row_soak()]}
    for name in rows:
        for row, load, answer, peak, end, status, ok in table[name]():
            missed += not ok and row != "plain"  # plain uvicorn is the comparison, not a row
            mark = "" if ok else "  <- misses the target"
            print(f"{row:<6} {load:>11} {answer:9.3f} {peak:8.0f} {end:7.0f}  {status}{mark}",
                  flush=True)
    return missed


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", default=",".join(ROWS))
    sys.exit(1 if main(ap.parse_args().rows.split(",")) else 0)
