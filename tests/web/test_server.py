"""Issue 53: ``gridsolve serve`` under idle and half-sent connections, bad HTTP, and big steps.

Each test starts the real server as its own process on an ephemeral 127.0.0.1 port (with a
low descriptor limit where it matters) and talks to it with plain sockets. Plain uvicorn kept
every connection that never sent a whole request, ran out of descriptors and never answered
again, even after the clients had gone.
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from gridsolve.nonogram.formats import write_puzzle  # noqa: E402
from gridsolve.nonogram.model import puzzle_from_grid  # noqa: E402

pytestmark = pytest.mark.heavy  # servers as processes (make test-slow runs them)

GRIDSOLVE = str(Path(sys.executable).with_name("gridsolve"))


def start(*args: str, descriptors: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``gridsolve serve --port 0 ARGS`` (its soft and hard descriptor limits set if asked),
    and the port it printed."""
    def limit() -> None:
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    proc = subprocess.Popen([GRIDSOLVE, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=limit)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        proc.kill()
        pytest.fail(f"the server did not start: {line!r} {proc.stderr.read()!r}")  # type: ignore[union-attr]
    port = int(found.group(1))
    for _ in range(200):  # the port is printed just before the server listens on it
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except ConnectionRefusedError:
            time.sleep(0.05)
    return proc, port


@pytest.fixture()
def served() -> Iterator[Callable[..., int]]:
    """Start servers for a test; every one is stopped after it."""
    procs: list[subprocess.Popen[bytes]] = []

    def run(*args: str, descriptors: int | None = None) -> int:
        proc, port = start(*args, descriptors=descriptors)
        procs.append(proc)
        run.pid = proc.pid  # type: ignore[attr-defined]
        return port

    try:
        yield run
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(10)


def request(port: int, raw: bytes, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """Send one raw request on a new connection; the status, headers and body it got."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            if length and len(body) >= int(length.group(1)):
                break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, _, v in (line.partition(": ") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def get(port: int, path: str = "/api/") -> tuple[int, dict[str, str], bytes]:
    return request(port, f"GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".encode())


def is_closed(sock: socket.socket) -> bool:
    """Has the server closed this connection (whatever it wrote first)?"""
    sock.setblocking(False)
    try:
        while chunk := sock.recv(65536):
            del chunk
        return True  # end of stream
    except BlockingIOError:
        return False
    except OSError:
        return True


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_idle_and_half_sent_connections_cannot_starve_the_server(
        served: Callable[..., int]) -> None:
    """300 idle and half-sent connections against a server with 128 descriptors: it still
    answers, closes them all after the idle timeout, and has its descriptors back."""
    port = served("--idle-timeout", "1", descriptors=128)
    pid = served.pid  # type: ignore[attr-defined]
    baseline = open_descriptors(pid)
    clients = []
    for i in range(300):
        time.sleep(0.005)  # (faster, they wait in the listening queue, and then 1 s each)
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i % 2:  # slow: the head of a request, never finished
            sock.sendall(b"POST /api/nonogram/solve HTTP/1.1\r\nhost: x\r\ncontent-le")
        clients.append(sock)
    status, headers, body = get(port)  # would wait for ever on plain uvicorn
    assert status == 200 and "endpoints" in json.loads(body)
    assert open_descriptors(pid) < 128
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not all(map(is_closed, clients)):
        time.sleep(0.2)
    assert all(map(is_closed, clients)), "a connection was still open 15 s after a 1 s timeout"
    for sock in clients:
        sock.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and open_descriptors(pid) > baseline + 2:
        time.sleep(0.1)
    assert open_descriptors(pid) <= baseline + 2
    assert get(port)[0] == 200


def test_a_half_sent_head_gets_a_json_408_then_the_connection_closes(
        served: Callable[..., int]) -> None:
    port = served("--idle-timeout", "0.5")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /api/ HTTP/1.1\r\nhost: x\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert b"x-frame-options: DENY" in head and b"content-type: application/json" in head
    assert json.loads(body) == {"error": "the request did not arrive within 0.5 s"}


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(
        served: Callable[..., int]) -> None:
    port = served("--idle-timeout", "0.5")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /api/nonogram/formats HTTP/1.1\r\nhost: x\r\n\r\n")
        started = time.monotonic()
        reply = b""
        while chunk := sock.recv(65536):  # the answer, then the end of the stream
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 200 ") and time.monotonic() - started < 10


@pytest.mark.parametrize("length", [b"-1", b"1" + b"0" * 30, b"x"])
def test_a_bad_content_length_is_a_json_400(served: Callable[..., int], length: bytes) -> None:
    """The HTTP layer's own refusal was plain text, though the API promises JSON."""
    port = served()
    status, headers, body = request(
        port, b"POST /api/nonogram/solve HTTP/1.1\r\nhost: x\r\ncontent-length: " + length
        + b"\r\n\r\n{}")
    assert status == 400 and headers["content-type"] == "application/json"
    assert headers["x-frame-options"] == "DENY"
    assert json.loads(body)["error"].startswith("the HTTP request could not be read")


def test_past_the_connection_cap_only_idle_connections_give_way(
        served: Callable[..., int]) -> None:
    """With every connection idle, a new one closes the oldest idle one and is answered."""
    port = served("--connections", "5", "--idle-timeout", "30")
    idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(5)]
    time.sleep(0.3)
    assert get(port)[0] == 200
    assert is_closed(idle[0]) and not any(map(is_closed, idle[2:]))
    for sock in idle:
        sock.close()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def test_a_steps_request_on_a_big_checkerboard_stays_small_and_gives_memory_back(
        served: Callable[..., int]) -> None:
    """A 200x200 checkerboard with steps took the server from 32 MB to 780 MB for good."""
    grid = ["".join("#." [(r + c) % 2] for c in range(200)) for r in range(200)]
    body = json.dumps({"text": write_puzzle(puzzle_from_grid(grid), "text"),
                       "steps": True}).encode()
    port = served("--budget", "4")
    pid = served.pid  # type: ignore[attr-defined]
    assert get(port)[0] == 200
    before = rss_mb(pid)
    raw = (b"POST /api/nonogram/solve HTTP/1.1\r\nhost: x\r\nconnection: close\r\n"
           b"content-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body)
    import threading
    peak = [before]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        status, _, answer = request(port, raw, timeout=60)
    finally:
        done.set()
        watcher.join()
    assert status == 200
    out = json.loads(answer)  # the budget ran out: the cells proven, and no steps
    assert out["status"] == "unknown" and len(out["partial"]) == 200 and out["steps"] == []
    after = rss_mb(pid)
    assert peak[0] - before < 250, (before, peak[0], after)
    assert after - before < 60, (before, peak[0], after)
