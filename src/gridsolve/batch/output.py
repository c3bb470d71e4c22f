"""Output files of result rows: write them as JSONL or CSV, read them back for ``--resume``."""

from __future__ import annotations

import codecs
import io
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from gridsolve.batch.rows import FIELDS, Row
from gridsolve.errors import ParseError


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
    import csv  # here: a JSONL batch does without it (start-up)
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
        import csv  # here: a JSONL batch does without it (start-up)
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
        fields = {name: getattr(row, name) for name in FIELDS}  # (asdict deep-copies each)
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


def rewrite_rows(path: str, rows: Sequence[Row]) -> None:
    """Replace an output file's rows (atomically: a kill leaves the old file or the new)."""
    tmp = f"{path}.resume-tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        writer = RowWriter(fh, _kind(path), header=True)
        for row in rows:
            writer.write(row)
    os.replace(tmp, path)
