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

Modules, in the order a batch runs: ``inputs`` (files to tasks), ``tasks`` (what a worker does
with one), ``run`` (tasks in this process), ``pool`` (on a local pool) or ``cluster`` (on
Dask), ``rows`` (a row, totals) and ``output`` (the files rows are written to and read back
from).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gridsolve.batch.output import open_writer, read_rows
from gridsolve.batch.output import rewrite_rows as rewrite_rows
from gridsolve.batch.inputs import Found as Found
from gridsolve.batch.inputs import auto_chunk as auto_chunk
from gridsolve.batch.inputs import discover, keys, plan
from gridsolve.batch.rows import FIELDS, STATUSES, Row, Tally, comparable, resume_name
from gridsolve.batch.rows import solution_hash
from gridsolve.batch.run import here_first, run_here, run_here_first
from gridsolve.batch.run import retried as retried
from gridsolve.batch.tasks import Options, Task, load, solve_task

__all__ = ["Row", "Options", "Task", "Tally", "FIELDS", "STATUSES", "discover", "plan",
           "solve_task", "run_tasks", "run_here", "here_first", "run_here_first", "local_executor",
           "dask_executor", "open_writer",
           "read_rows", "solution_hash", "comparable", "keys", "load", "resume_name"]

if TYPE_CHECKING:
    from gridsolve.batch.cluster import DASK_LOGGERS as DASK_LOGGERS
    from gridsolve.batch.cluster import dask_executor
    from gridsolve.batch.pool import local_executor, run_tasks

#: Names imported on first use: the Dask runner's and the local pool's modules import
#: logging and concurrent.futures, which a batch solved in this process does not need
#: (start-up, issue 56).
_LAZY = {"dask_executor": "gridsolve.batch.cluster", "DASK_LOGGERS": "gridsolve.batch.cluster",
         "local_executor": "gridsolve.batch.pool", "run_tasks": "gridsolve.batch.pool"}


def __getattr__(name: str) -> Any:
    """A name of ``_LAZY``, imported now (PEP 562) and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gridsolve.batch' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
