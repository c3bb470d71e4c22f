"""The scheduler's own rules (``engine.schedule``), with workers that count: the caller's
node limit is shared by all the workers, a full or complete pool ends the run, a worker
that cannot go on ends its plan's loop, and a turn over a finished run does nothing."""

from __future__ import annotations

from gridsolve.nonogram.engine.schedule import Pool, Scheduler


class Counting:
    """A worker that does ``rate`` nodes a unit of work, finds ``finds`` (grids, one a turn)
    and can be told to be exhausted or stopped after a number of turns."""

    def __init__(self, rate: int = 1, finds: tuple[str, ...] = (), exhaust_after: int = 0,
                 stop_after: int = 0) -> None:
        self.rate, self.finds = rate, list(finds)
        self.exhaust_after, self.stop_after = exhaust_after, stop_after
        self.done_nodes = self.done_work = self.turns = 0
        self.exhausted = self.stopped = False
        self.asked: list[tuple[int | None, int | None]] = []

    def work(self) -> int:
        return self.done_work

    def nodes(self) -> int:
        return self.done_nodes

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        self.asked.append((work, nodes))
        self.turns += 1
        step = 100 if work is None else work
        if nodes is not None:
            step = min(step, nodes // self.rate)
        self.done_work += step
        self.done_nodes += step * self.rate
        if self.finds:
            pool.found[(self.finds.pop(0),)] = None
        self.exhausted = self.exhaust_after > 0 and self.turns >= self.exhaust_after
        self.stopped = self.stop_after > 0 and self.turns >= self.stop_after


def test_the_node_limit_is_shared_by_every_worker() -> None:
    a, b = Counting(rate=1), Counting(rate=2)
    plan = Scheduler(Pool(10, {}), [a, b], 100, None)
    assert not plan.turn(a, 30)  # 30 nodes
    assert not plan.turn(b, 30)  # 60 more: 90 in all
    assert b.asked[-1] == (30, 70)  # it was told what the others left
    assert plan.turn(a, 30)  # 10 left: the limit, and the run is over
    assert a.asked[-1] == (30, 10) and plan.nodes() == 100 and plan.nodes_left() == 0
    turns = a.turns
    assert plan.turn(a, 30) and a.turns == turns  # a turn past the end does nothing


def test_a_full_or_complete_pool_ends_the_run() -> None:
    a = Counting(finds=("x", "y"))
    plan = Scheduler(Pool(2, {}), [a], None, None)
    assert not plan.turn(a, 1) and plan.turn(a, 1) and len(plan.pool.found) == 2
    b = Counting(exhaust_after=2)
    plan = Scheduler(Pool(2, {}), [b], None, None)
    assert not plan.turn(b, 1) and plan.turn(b, 1) and plan.pool.complete


def test_a_worker_that_cannot_go_on_ends_its_loop_not_the_run() -> None:
    a, b = Counting(stop_after=1), Counting()
    plan = Scheduler(Pool(2, {}), [a, b], None, None)
    assert plan.turn(a, 5)  # a stopped: its plan's loop ends there ...
    assert not plan.over() and not plan.turn(b, 5)  # ... the others may go on


def test_the_deadline_ends_the_run() -> None:
    a = Counting()
    plan = Scheduler(Pool(2, {}), [a], None, 0.0)  # (a clock time long past)
    assert plan.over() and plan.turn(a, 5) and a.turns == 0
