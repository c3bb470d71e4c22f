"""The cores this process may run on, and how many of them other processes leave free.

``--jobs`` forks its processes after a first turn in this one (``nonogram.backends.parallel``);
``free`` says, from the kernel's counts of idle time on this process's cores over that turn
(Linux's ``/proc/stat``), how many of them were free of other work. On a machine whose other
cores are busy, more processes would only share the cores there are: with the other core of
two busy, ``--jobs 2`` ran at 0.65x the speed of ``--jobs 1`` (issue 56). Only the
processes' count depends on it; each one's search does not. Not counted: a CPU quota of a
container (cgroups), which ``/proc/stat`` does not show.
"""

from __future__ import annotations

import os

__all__ = ["available", "Reading", "reading", "free", "running_now", "MIN_TICKS"]

#: A core's idle time is counted in ticks (USER_HZ, 100 a second on Linux): fewer than this
#: many a core between two readings say nothing (``free`` returns None).
MIN_TICKS = 5

#: Per core this process may run on: (idle ticks, all ticks) since boot.
Reading = tuple[tuple[int, int], ...]


def available() -> int:
    """The cores this process may run on (its CPU affinity; else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def reading() -> Reading | None:
    """The idle and total ticks of this process's cores now, or None where the kernel does
    not tell (not Linux, or ``/proc/stat`` unreadable or odd)."""
    try:
        mine = os.sched_getaffinity(0)
        with open("/proc/stat", encoding="ascii") as f:
            lines = f.read().splitlines()
    except (AttributeError, OSError, UnicodeDecodeError):
        return None
    out = []
    for line in lines:
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu":
            continue
        try:
            cpu = int(name[3:])
            # user nice system idle iowait irq softirq steal (guest time is in user already)
            ticks = [int(x) for x in fields[:8]]
        except ValueError:
            return None
        if cpu in mine and len(ticks) >= 5:
            out.append((ticks[3] + ticks[4], sum(ticks)))
    return tuple(out) if len(out) == len(mine) else None


def free(before: Reading | None, after: Reading | None) -> int | None:
    """How many of this process's cores were free of other processes between the readings,
    counting the one this process kept busy (at least 1). A core's worth of other work past
    half takes a core away. Between readings too close for the ticks (fewer than MIN_TICKS a
    core), the processes running at this instant (``running_now``) tell; None if unknown."""
    if before is None or after is None or len(before) != len(after) or not before:
        return None
    cores = len(before)
    idle = sum(a[0] - b[0] for a, b in zip(after, before))
    total = sum(a[1] - b[1] for a, b in zip(after, before))
    if total < MIN_TICKS * cores or idle < 0:
        others = running_now()
        return None if others is None else max(1, min(cores, cores - (others - 1)))
    busy = (total - idle) * cores / total  # cores' worth of work, this process's among it
    others_busy = max(0.0, busy - 1.0)
    return max(1, min(cores, cores - int(others_busy + 0.5)))


def running_now() -> int | None:
    """The threads running or ready to run on the machine at this instant, this one among
    them (``/proc/loadavg``'s fourth field); None where it is not told, or where this process
    may not use every core (the count is the whole machine's)."""
    if available() != (os.cpu_count() or 0):
        return None
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError, UnicodeDecodeError):
        return None
