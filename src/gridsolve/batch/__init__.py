"""Many puzzles -> result rows: on a local process pool by default, on a Dask cluster on request.

Glossary
    source   a puzzle file as the user named it (rows and ``--resume`` key on source + index)
    task     a chunk of puzzle indexes of one file; workers read the file themselves, so only
             paths and small integers travel to them (the scheduler stays light)
    row      the result of one puzzle: status, cost, a hash of its first solution (its rows of
             '#'/'.', or of palette symbols for a colour puzzle), or an error
    runner   an ``Executor`` (process pool, in-process, or a Dask client's executor) fed a
             bounded window of tasks, so millions of puzzles never sit in one queue

Rows are emitted in completion order (within a task, in file order) and are identical whichever
runner produced them, except ``seconds``. Where a file cannot be read, one error row says why
(index 0, or in a multi-puzzle file the index of the first unreadable puzzle: those before it
are solved); a puzzle that fails becomes an error row; neither aborts the batch.
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import functools
import hashlib
import heapq
import io
import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gridsolve.errors import GridsolveError, ParseError, SolverUnavailable
from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import DEFAULT_MAX_MEMORY, SearchLimits
from gridsolve.nonogram.formats import FORMATS, Entry, default_label, iter_entries
from gridsolve.workers import pool_context, stop_workers, worker_init

__all__ = ["Row", "Options", "Task", "Tally", "FIELDS", "STATUSES", "discover", "plan",
           "solve_task", "run_tasks", "local_executor", "dask_executor", "open_writer",
           "read_rows", "solution_hash", "comparable", "keys", "load", "resume_name"]

STATUSES = ("unique", "multiple", "none", "unknown", "error")

#: File suffixes taken when a directory is walked (any named file is always taken).
PUZZLE_SUFFIXES = frozenset(s for m in FORMATS.values() for s in m.EXTENSIONS)


@dataclass(frozen=True)
class Row:
    """The result of one puzzle of a batch (one line of the output)."""

    source: str
    index: int
    label: str
    width: int
    height: int
    status: str
    seconds: float
    nodes: int
    solution_hash: str
    error: str

    @property
    def key(self) -> tuple[str, int]:
        """What ``--resume`` keys on: the file as named (``resume_name``) and the puzzle's
        place in it."""
        return (resume_name(self.source), self.index)


def resume_name(source: str) -> str:
    """A file's name as ``--resume`` keys on it: what UTF-8 cannot encode (a file name not in
    UTF-8, as Python reads it: a lone surrogate) is taken as the backslash escape a CSV
    output writes for it, so that both outputs match."""
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        return source.encode("utf-8", "backslashreplace").decode("utf-8")
    return source


FIELDS = tuple(f.name for f in dataclasses.fields(Row))


def comparable(row: Row) -> Row:
    """The row without its timing: equal rows mean the same answer from any runner."""
    return dataclasses.replace(row, seconds=0.0)


@dataclass(frozen=True)
class Options:
    """How each puzzle is solved."""

    max_solutions: int = 2
    timeout: float | None = 60.0
    max_nodes: int | None = None
    method: str = "auto"
    solver: str | None = None
    format: str = "auto"
    limits: bool = True
    max_memory: int | None = DEFAULT_MAX_MEMORY  # per puzzle, in each worker


@dataclass(frozen=True)
class Task:
    """Some puzzles of one file: read at ``path`` by the worker, reported under ``source``."""

    path: str
    source: str
    indexes: tuple[int, ...]
    options: Options
    #: Puzzles a dead worker failed before: failing again, their rows are not retried.
    again: bool = False


def solution_hash(grid: Sequence[str]) -> str:
    """First 16 hex digits of the sha256 of the grid's rows joined by newlines."""
    return hashlib.sha256("\n".join(grid).encode()).hexdigest()[:16]


def one_line(exc: BaseException) -> str:
    """An exception as one line: our errors as they are, others prefixed by their type."""
    text = str(exc) if isinstance(exc, GridsolveError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split()).removesuffix(":") or type(exc).__name__


def error_row(source: str, index: int, why: str, label: str = "") -> Row:
    """A row saying the puzzle (or file) could not be solved at all."""
    return Row(source, index, label or default_label(source), 0, 0, "error", 0.0, 0, "", why)


def solve_entry(entry: Entry, source: str, options: Options) -> Row:
    """Solve one puzzle, black-and-white or colour, into a row (an exception becomes an error
    row). A colour solution is hashed as its rows of palette symbols."""
    puzzle, label = entry.puzzle, " ".join(entry.label.split())
    started = time.perf_counter()
    try:
        result = analyse(puzzle, options.max_solutions,
                         SearchLimits(options.max_nodes, options.timeout, options.max_memory),
                         options.method, solver=options.solver)
    except Exception as exc:  # one bad puzzle must not end a batch of a million
        return Row(source, entry.index, label, puzzle.width, puzzle.height, "error",
                   round(time.perf_counter() - started, 6), 0, "", one_line(exc))
    digest = solution_hash(result.solutions[0]) if result.solutions else ""
    return Row(source, entry.index, label, puzzle.width, puzzle.height, result.status,
               round(result.seconds, 6), result.nodes, digest, "")


@functools.lru_cache(maxsize=4)
def _read(path: str, format: str, limits: bool,
          stamp: tuple[int, int]) -> tuple[tuple[Entry, ...], str]:
    """The puzzles of a file up to the first unreadable one, and why reading stopped ('' if it
    did not); kept while the file's mtime and size stay the same (one parse per worker)."""
    entries: list[Entry] = []
    try:
        for entry in iter_entries(path, format, limits):
            entries.append(entry)
    except Exception as exc:  # any reader failure is a row: one file must not end the batch
        return tuple(entries), _why(exc, path)
    return tuple(entries), ""


def _why(exc: Exception, path: str) -> str:
    """Why a file could not be read, as one line (naming the file)."""
    if isinstance(exc, OSError):
        return one_line(ParseError(exc.strerror or str(exc), path))
    if isinstance(exc, GridsolveError):
        return one_line(exc)
    return one_line(ParseError(f"cannot read the file ({one_line(exc)})", path))


def load(path: str, source: str, options: Options) -> tuple[tuple[Entry, ...], str]:
    """The readable puzzles of a file and why the rest could not be read, naming the file as
    the user did (workers see absolute paths)."""
    try:
        st = os.stat(path)
        entries, why = _read(path, options.format, options.limits, (st.st_mtime_ns, st.st_size))
    except OSError as exc:
        entries, why = (), _why(exc, path)
    return entries, why.replace(path, source)


def solve_task(task: Task) -> list[Row]:
    """Read the task's file and solve its puzzles: the pure function run by every worker."""
    entries, why = load(task.path, task.source, task.options)
    rows = []
    for i in task.indexes:
        if i < len(entries):
            rows.append(solve_entry(entries[i], task.source, task.options))
        else:
            rows.append(error_row(task.source, i, why or f"{task.source}: puzzle {i} is gone "
                                  "(the file changed during the batch)"))
    return rows


@dataclass(frozen=True)
class Found:
    """A file found by discovery: how many puzzles it holds, or the row saying why none."""

    path: str
    source: str
    count: int
    error: Row | None = None


def walk(paths: Iterable[str], skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """(absolute path, source) for each named file and each puzzle file under named folders
    (hidden ones and the absolute paths in ``skip``, such as the output file, left out)."""
    seen: set[str] = set()  # a file named twice (a folder and a file in it, x and ./x): once
    for name in paths:
        p = Path(name)
        if p.is_dir():
            for sub in sorted(p.rglob("*")):
                rel = sub.relative_to(p)
                resolved = str(sub.resolve())
                if (sub.is_file() and sub.suffix.lower() in PUZZLE_SUFFIXES
                        and resolved not in skip and resolved not in seen
                        and not any(part.startswith(".") for part in rel.parts)):
                    seen.add(resolved)
                    yield resolved, str(sub)
        else:
            resolved = str(p.resolve()) if p.exists() else name
            if resolved not in seen:
                seen.add(resolved)
                yield resolved, name


def discover(paths: Iterable[str], options: Options,
             skip: frozenset[str] = frozenset()) -> Iterator[Found]:
    """Count the puzzles of every file; where reading stops, an error row says why."""
    for path, source in walk(paths, skip):
        entries, why = load(path, source, options)
        if not why and not entries:
            why = f"{source}: no puzzle found"
        error = error_row(source, len(entries), why) if why else None
        yield Found(path, source, len(entries), error)


def keys(found: Iterable[Found]) -> Iterator[tuple[str, int]]:
    """The (source, index) of every row a batch over these files writes."""
    for f in found:
        name = resume_name(f.source)
        yield from ((name, i) for i in range(f.count))
        if f.error is not None:
            yield f.error.key


def plan(found: Iterable[Found], options: Options, chunk: int,
         done: frozenset[tuple[str, int]] = frozenset(),
         again: frozenset[tuple[str, int]] = frozenset()) -> Iterator[Task]:
    """Chunks of at most ``chunk`` not-yet-done puzzle indexes, file by file; the puzzles in
    ``again`` (a dead worker failed them before) in chunks of their own, marked."""
    for f in found:
        name = resume_name(f.source)
        todo = [i for i in range(f.count) if (name, i) not in done]
        for retry in (False, True):
            part = [i for i in todo if ((name, i) in again) == retry]
            for start in range(0, len(part), chunk):
                yield Task(f.path, f.source, tuple(part[start:start + chunk]), options, retry)


def auto_chunk(puzzles: int, slots: int, cap: int = 256) -> int:
    """Puzzles per task: about 16 tasks per worker slot, between 1 and ``cap``.

    Local pools pass a small cap (a task is cheap to send, and Ctrl-C loses at most the tasks
    in flight); a cluster keeps 256 so a scheduler never tracks millions of tasks."""
    return max(1, min(cap, puzzles // max(1, slots * 16)))


class Tally:
    """Running totals of a batch: counts by status, solver seconds, the slowest puzzles."""

    def __init__(self, keep: int = 5) -> None:
        self.counts: Counter[str] = Counter()
        self.seconds = 0.0
        self.keep = keep
        self._slow: list[tuple[float, int, Row]] = []

    def add(self, row: Row) -> None:
        """Count one row."""
        self.counts[row.status] += 1
        self.seconds += row.seconds
        item = (row.seconds, -sum(self.counts.values()), row)
        if len(self._slow) < self.keep:
            heapq.heappush(self._slow, item)
        else:
            heapq.heappushpop(self._slow, item)

    @property
    def total(self) -> int:
        """Rows counted."""
        return sum(self.counts.values())

    def slowest(self) -> list[Row]:
        """The slowest puzzles seen, slowest first."""
        return [row for _, _, row in sorted(self._slow, reverse=True)]


class InlineExecutor(Executor):
    """Runs each task at submission, in this process (``--jobs 1``: no pool, plain tracebacks)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run now; the future is already done."""
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


@contextmanager
def local_executor(jobs: int) -> Iterator[Executor]:
    """A process pool of ``jobs`` workers (in-process for 1), torn down promptly on exit; the
    workers end with this process even when it is killed (``gridsolve.workers``)."""
    if jobs <= 1:
        yield InlineExecutor()
        return
    pool = ProcessPoolExecutor(jobs, pool_context(), initializer=worker_init,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_workers()  # our own workers, possibly deep in a long search
        raise
    pool.shutdown(wait=True)


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


#: Seconds between looks at the stop event while waiting for tasks.
STOP_POLL = 0.2


#: How the error of a row whose worker died begins: ``--resume`` solves such rows again (a
#: dead pool fails every task in flight, most of them through no fault of their own), once:
#: failing again they say WORKER_FAILED_AGAIN and stay, so a puzzle that kills its worker
#: every time cannot stop every resume.
WORKER_FAILED = "worker failed: "
WORKER_FAILED_AGAIN = "worker failed again: "


def retried(row: Row) -> bool:
    """Does ``--resume`` solve this row again: did a worker's death fail it?"""
    return row.status == "error" and row.error.startswith(WORKER_FAILED)


def rewrite_rows(path: str, rows: Sequence[Row]) -> None:
    """Replace an output file's rows (atomically: a kill leaves the old file or the new)."""
    tmp = f"{path}.resume-tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        writer = RowWriter(fh, _kind(path), header=True)
        for row in rows:
            writer.write(row)
    os.replace(tmp, path)


def run_tasks(executor: Executor, tasks: Iterable[Task], window: int,
              emit: Callable[[list[Row]], None], stop: threading.Event | None = None) -> None:
    """Feed tasks to the executor, at most ``window`` in flight, emitting rows as tasks finish.

    A task that raises (a worker died) becomes error rows. On KeyboardInterrupt the interrupt
    goes on to the caller; rows already emitted stay. With ``stop`` (``deferred_sigint``), the
    interrupt is raised here, between waits, once the event is set. The tasks left are
    cancelled by the executor's owner (``local_executor``): cancelling them here too raced
    the pool's own teardown, which then failed with InvalidStateError tracebacks."""
    pending: dict[Future[list[Row]], Task] = {}
    todo = iter(tasks)
    broken: BaseException | None = None

    def settle(future: Future[list[Row]]) -> None:
        task = pending.pop(future)
        try:
            emit(future.result())
        except Exception as exc:
            why = f"{WORKER_FAILED_AGAIN if task.again else WORKER_FAILED}{one_line(exc)}"
            emit([error_row(task.source, i, why) for i in task.indexes])

    poll = None if stop is None else STOP_POLL
    while True:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        while broken is None and len(pending) < window:
            task = next(todo, None)
            if task is None:
                break
            try:
                pending[executor.submit(solve_task, task)] = task
            except BrokenProcessPool as exc:
                broken = exc
        if not pending:
            break
        finished, _ = wait(list(pending), timeout=poll, return_when=FIRST_COMPLETED)
        for future in [f for f in pending if f in finished]:  # in submission order
            settle(future)
    if broken is not None:
        raise GridsolveError("a worker process died; the batch stopped").with_remedy(
            "resume") from broken


def _kind(path: str) -> str:
    """'csv' or 'jsonl', by the output file's suffix."""
    return "csv" if path.lower().endswith(".csv") else "jsonl"


#: How every written JSONL row begins (``json.dumps`` of the fields in order): so does a last
#: line cut short by a kill.
_JSONL_START = b'{"source": '
_WHOLE_FIELDS = frozenset({"index", "width", "height", "nodes"})


class _NotARow(ValueError):
    """Why a line is not a result row (said in the ParseError that names the line)."""


def _from_record(rec: dict[str, Any]) -> Row:
    """A row from a parsed JSON object or CSV record (types restored)."""
    values: dict[str, Any] = {}
    for name in FIELDS:
        if name not in rec:
            raise _NotARow(f"no {name!r} field")
        try:
            if name in _WHOLE_FIELDS:
                values[name] = int(rec[name])
            elif name == "seconds":
                values[name] = float(rec[name])
            else:
                values[name] = str(rec[name])
        except (ValueError, TypeError, OverflowError):
            kind = "a whole number" if name in _WHOLE_FIELDS else "a number"
            raise _NotARow(f"{name!r} is not {kind}") from None
    return Row(**values)


def _json_row(line: str) -> Row:
    """One complete JSONL line as a row."""
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _NotARow(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except ValueError:  # an integer of thousands of digits
        raise _NotARow("not JSON: a number too long") from None
    except RecursionError:
        raise _NotARow("not JSON: nested too deeply") from None
    if not isinstance(rec, dict):
        raise _NotARow("not a JSON object")
    return _from_record(rec)


def _jsonl_rows(text: str, path: str) -> Iterator[Row]:
    for number, line in enumerate(text.split("\n")[:-1], 1):  # not splitlines: U+2028 in a label
        if line.strip():
            try:
                yield _json_row(line)
            except _NotARow as exc:
                raise ParseError(f"not a result row ({exc})", path, number) from None


def _csv_rows(text: str, path: str) -> Iterator[Row]:
    """The rows of a CSV output after its header (a quoted field may span lines: a file name
    with a newline in it)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    number = 1  # the line the next record starts on
    while True:
        try:
            values = next(reader, None)
        except csv.Error as exc:
            raise ParseError(f"not a result row ({exc})", path, number) from None
        if values is None:
            return
        if number == 1 and values != list(FIELDS):
            raise ParseError("not a gridsolve batch CSV (header differs)", path, 1)
        if number > 1 and "".join(values).strip():
            if len(values) != len(FIELDS):
                many = f"{len(values)} field" + ("" if len(values) == 1 else "s")
                raise ParseError(f"not a result row ({many}, not {len(FIELDS)})", path, number)
            try:
                yield _from_record(dict(zip(FIELDS, values)))
            except _NotARow as exc:
                raise ParseError(f"not a result row ({exc})", path, number) from None
        number = reader.line_num + 1


def _cut_short(tail: bytes, kind: str, first: bool) -> bool:
    """Could ``tail``, a last line without its newline, be a row (or, ``first``, the CSV
    header) that a kill cut short? Only then may ``read_rows`` cut it off the file."""
    if kind == "csv":
        return not first or (",".join(FIELDS) + "\n").encode().startswith(tail)
    return tail[:len(_JSONL_START)] == _JSONL_START[:len(tail)]


def read_rows(path: str, repair: bool = False) -> list[Row]:
    """The rows of an output file; a last line cut short by a kill is dropped (and with
    ``repair``, cut off the file so appending continues cleanly). A file that is not such
    an output (not UTF-8, a line that is no row, a CSV header that differs) is a ParseError
    naming its first bad line, and is left as it is."""
    kind = _kind(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ParseError(exc.strerror or str(exc), path) from None
    keep = data.rfind(b"\n") + 1  # a kill can leave a partial line without its newline
    try:  # incremental: a character cut in two at the very end is a kill's doing too
        decoded = codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
    except UnicodeDecodeError as exc:
        raise ParseError("not UTF-8 text", path, data.count(b"\n", 0, exc.start) + 1) from None
    text = decoded[:decoded.rfind("\n") + 1]
    rows = list(_csv_rows(text, path) if kind == "csv" else _jsonl_rows(text, path))
    tail = data[keep:]
    if tail.strip() and not _cut_short(tail, kind, keep == 0):
        raise ParseError("not a result row", path, data.count(b"\n") + 1)
    if repair and keep < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(keep)
    return rows


class RowWriter:
    """Writes rows to a JSONL or CSV stream, flushed after every row."""

    def __init__(self, stream: TextIO, kind: str, header: bool) -> None:
        self.stream = stream
        self.kind = kind
        if kind == "csv" and header:
            self._write_csv(FIELDS)

    def _write_csv(self, values: Sequence[object]) -> None:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(values)
        line = buf.getvalue()
        try:
            self.stream.write(line)
        except UnicodeEncodeError:  # CSV has no escapes: a lone surrogate goes as '\udcff'
            encoding = getattr(self.stream, "encoding", None) or "utf-8"
            self.stream.write(line.encode(encoding, "backslashreplace").decode(encoding))
        self.stream.flush()

    def write(self, row: Row) -> None:
        """Append one row and flush it, so a killed run loses nothing written."""
        if self.kind == "csv":
            self._write_csv([getattr(row, f) for f in FIELDS])
            return
        fields = dataclasses.asdict(row)
        try:
            self.stream.write(json.dumps(fields, ensure_ascii=False) + "\n")
        except UnicodeEncodeError:  # a file name not in UTF-8, a title's lone surrogate:
            self.stream.write(json.dumps(fields) + "\n")  # \u escapes read back the same
        self.stream.flush()


@contextmanager
def open_writer(path: str | None, stream: TextIO, resume: bool) -> Iterator[RowWriter]:
    """A writer to ``path`` (appending when resuming), or to ``stream`` when no path is given."""
    if path is None:
        yield RowWriter(stream, "jsonl", header=False)
        return
    fresh = not resume or not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "w" if fresh else "a", encoding="utf-8", newline="") as fh:
        yield RowWriter(fh, _kind(path), header=fresh)
