"""Does a SAT model fit: its size counted from the clues before it is built (``cnf.size``)
against the memory SAT may take and, under a timeout, the time left to build it (the
policy's ``sat_memory``, ``sat_memory_share``, ``build_rate``, ``build_share``)."""

from __future__ import annotations

import dataclasses

from gridsolve.nonogram.engine import SearchLimits, seconds_left
from gridsolve.nonogram.model import AnyPuzzle, Grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["sat_fits", "models_that_fit"]


def _sat_memory(limits: SearchLimits, policy: Policy) -> int:
    """The bytes SAT's models may take: ``sat_memory_share`` of the memory limit, or
    ``sat_memory`` without one."""
    return (policy.sat_memory if limits.max_memory is None
            else int(limits.max_memory * policy.sat_memory_share))


def models_that_fit(puzzle: AnyPuzzle, known: Grid | None, limits: SearchLimits,
                    most: int, encoding: str | None = None, overhead: int = 0,
                    policy: Policy = DEFAULT_POLICY) -> int:
    """How many copies of the puzzle's SAT model (one per SAT process or thread, each taking
    ``overhead`` bytes more) fit the memory ``sat_fits`` allows one, up to ``most`` (at
    least 1: ``sat_fits`` decides about one)."""
    from gridsolve.nonogram.backends import sat
    memory = _sat_memory(limits, policy)
    size = sat.model_size(puzzle, known, memory, encoding)
    return max(1, min(most, memory // max(1, sat.model_bytes(size) + overhead)))


def sat_fits(puzzle: AnyPuzzle, known: Grid | None, limits: SearchLimits,
             deadline: float | None, encoding: str | None = None, binary: int = 0,
             policy: Policy = DEFAULT_POLICY) -> str:
    """'' if the puzzle's SAT model (with ``binary`` extra binary clauses) fits the memory
    and the time left, else why not."""
    from gridsolve.nonogram.backends import cnf, sat
    memory = _sat_memory(limits, policy)
    most = memory // sat.MODEL_BYTES_PER_LITERAL
    left = seconds_left(deadline)
    if left is not None:
        most = min(most, int(left * policy.build_share * policy.build_rate))
    size = cnf.size(puzzle, known, stop_at=most, encoding=encoding)
    size = dataclasses.replace(size, clauses=size.clauses + binary,
                               literals=size.literals + 2 * binary)
    if sat.model_bytes(size) > memory:
        return "memory"
    if size.literals > most:
        return "time"
    return ""
