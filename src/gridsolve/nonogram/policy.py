"""The schedule's tuned numbers: one frozen table that says how the solvers share a budget.

Each field has a line on what it trades and the decision record that measured it
(docs/decisions/). Callers pass a policy (``DEFAULT_POLICY`` unless told); tests pass their
own with ``dataclasses.replace``. *Work* is the engine's deterministic effort: line solves,
plus the dive's belief-propagation passes (``dive_bp_cells`` cells a unit), about 4 million
a second here; turns are counted in work, nodes and conflicts, never seconds (0034).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = ["Policy", "DEFAULT_POLICY", "WORK_PER_SECOND"]

#: The engine's work per second, measured on this project's machine (team and dive on the
#: survey, random 50-100 and taai2011 puzzles: 1.3-19 million line solves a second, median
#: about 4 million; decision 0034): only to translate the seconds of the older decision
#: records into work, never read at run time.
WORK_PER_SECOND = 4_000_000


def _seconds(s: float) -> int:
    """Work equivalent to ``s`` seconds at WORK_PER_SECOND (how the old clock turns map)."""
    return int(s * WORK_PER_SECOND)


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Policy:
    """Every tuned number of the schedule (see the module docstring). Fields are grouped by
    who reads them: the native team (engine/team.py), ``auto`` (backends/auto.py), the SAT
    programs (backends/_program.py) and ``--jobs`` (backends/parallel.py)."""

    # --- the native team (engine.Team; decisions 0002, 0003) ---
    #: Nodes a team search runs before the next takes its turn: shorter turns share the
    #: core more finely, longer ones pay the switch less often.
    team_slice: int = 50
    #: The second branching rule joins after the first ran this many nodes with no solution.
    team_join_nodes: int = 1000
    #: The first search's restart runs are Luby multiples of this many nodes (0003).
    team_restart_base: int = 100
    #: The engine runs a team when counting to at most this many solutions.
    team_max_solutions: int = 64
    # --- the dive by belief propagation (Team.dive; 0028, 0031, 0033) ---
    #: Nodes of the dive between looks at its other limits.
    dive_slice: int = 10
    #: Until it finds a solution, the dive restarts after Luby multiples of this many failed
    #: nodes, each run randomised and keeping the nogoods of the runs before.
    dive_restart_fails: int = 100
    #: The dive probes only where at most this share of the cells is open: cheap near the
    #: bottom, 10x a node at the top (0033).
    dive_probe_share: float = 0.35
    #: The dive is for puzzles of more than ``dive_min_cells`` (the team's tournament-sized
    #: puzzles, where a dive beside it made first solutions twice as slow) ...
    dive_min_cells: int = 1024
    #: ... and at most this many cells (a belief-propagation round passes every line).
    dive_max_cells: int = 40_000
    #: One unit of the dive's work is a belief-propagation pass over this many cells (a
    #: pass over a line costs about what this many line solves do; 0034).
    dive_bp_cells: int = 4
    #: The dive's first turn after the team's ends after this many failed nodes: where it
    #: finds a first solution it does so in one descent (0028).
    dive_first_fails: int = 20
    #: ... or this much work, which bounds only the largest puzzles' descents (was 5 s).
    dive_first_work: int = _seconds(5.0)
    #: The colour dive (engine.colour_dive) probes only where at most this share of the
    #: cells is open (0036).
    colour_dive_probe_share: float = 0.35
    #: The colour dive is for colour puzzles of more than this many cells, up to
    #: ``dive_max_cells`` (0036: it won on random 25x25 and 30x30 too; 20x20 end in a blink).
    colour_dive_min_cells: int = 600
    #: ... and whose root propagation leaves more than this share of the cells open; the
    #: others get the plain search alone from there (0036: the hard sets leave 70-97% open,
    #: easy 6-colour ones 8-64%, where the plain search is 1.2-2x faster).
    colour_dive_min_open: float = 0.65
    #: ColourTurns' plain colour search restarts after Luby multiples of this many failed
    #: nodes, keeping its refutations as nogoods (0038); 0: it never restarts
    #: (the default: no win measured on the colour sets).
    colour_restart_fails: int = 0
    #: ... its runs taking turns between the probes' ranking and the probes times the lines'
    #: conflict weights (``_colour.ORDER_WDEG``, dom/wdeg; 0038); False: the probes' alone.
    colour_wdeg: bool = False
    #: On those, after the first turn, SAT's work in the turns with the colour dive and search,
    #: per unit of theirs (0036); 0: one hand-over to SAT alone, as on smaller colour puzzles.
    colour_sat_share: float = 4.0
    #: ... each pair of those turns this many times the last (0036: 1.5 against 2 on the
    #: six hardest, 24.4 s against 36.6 s: SAT's last turn overshoots less).
    colour_turn_growth: float = 1.5
    #: ... where one SAT conflict counts as this much work (``conflict_work`` is black and
    #: white's): a unit of colour work takes about 1.2 us on 40x40 of 2 colours, a Glucose
    #: conflict 47-76 us in the order model of 2-colour puzzles and 128-243 us in block
    #: starts (0039: 300 gave SAT on rnd40-2c-50 #3 under half the native's time).
    colour_conflict_work: int = 150
    #: ``Team.solve`` (native alone, on the puzzles the dive is for): the team's first turn
    #: (was 0.1 s), then the dive's first, then equal turns of ``turns_share`` work each, each
    #: pair twice the last (was 0.5 s; 0031).
    turns_first: int = 150_000
    turns_share: int = _seconds(0.5)

    # --- auto: the native team first, then SAT and the team in turns (0004, 0005, 0013) ---
    #: Native nodes of auto's first turn: most tournament puzzles end well within them.
    auto_nodes: int = 2000
    #: Counting past this many, the first turn's nodes count from the last solution reached:
    #: a search reaching solution after solution is not stuck (0005).
    auto_count_from: int = 64
    #: Counting to more than this, SAT's side is python-sat's, never a program that starts
    #: anew for each solution (docs/engine.md, "Programs and counts").
    program_max_solutions: int = 16
    #: The first turn's work on puzzles of at most ``small_cells`` cells (was 1 s; 0004, 0034).
    first_work: int = 15_000_000
    #: ... on larger ones, where SAT seldom needs long (was 0.1 s; 0013, 0017, 0034).
    first_work_large: int = 150_000
    #: ... on small ones Kissat may take next (was 0.5 s; 0021).
    first_work_to_kissat: int = 7_500_000
    #: Small puzzles whose clues fill less than this share of the cells (n-Dom) get a first
    #: turn of ``first_work_sparse``, then python-sat alone; 0: never (0040).
    sat_first_density: float = 0.2
    #: ... that short first turn, in work: the root and a few nodes (0040).
    first_work_sparse: int = 100_000
    #: The first turn stops the team for good past this much work, inside a node if need be:
    #: a node too costly to settle leaves the rest to SAT (twice ``first_work``; 0034) ...
    first_stop: int = 30_000_000
    #: ... or ``long_line_stop`` with a line over ``long_line`` cells, whose solves cost a
    #: hundred times a short line's (a 64x3000 checkerboard's root: minutes; 0034).
    long_line: int = 1024
    long_line_stop: int = 300_000
    #: Puzzles of at most this many cells are small: implication probing covers them
    #: (NG_IMPL_MAX_CELLS), and SAT's share starts at ``sat_share_small``.
    small_cells: int = 1024
    #: A colour puzzle's native turn before its one hand-over to SAT, in line solves times
    #: the mean line length (``auto.colour_turn``: a colour line costs about its length; 0026).
    colour_work: int = 4_000_000
    #: ... on colour puzzles the colour dive is for (``engine.colour_dive.colour_dives``):
    #: the dive and the colour search in turns (``analyse_colour(..., dive=True)``) for this
    #: much work, then SAT (0036: random 40x40 of 2 colours at 60% background took the dive
    #: 0.5-0.8 million, where SAT alone proves none in 20 s).
    colour_dive_work: int = 2_000_000
    #: SAT gets the root's implications only while they are at most this share of its
    #: model's clauses (on n-Dom they doubled Glucose's conflicts; 0035).
    implication_max_share: float = 1.0
    #: One SAT conflict counts as this much work when SAT and the team share turns: the
    #: rate at which Glucose's conflicts and the team's line solves go (0034).
    conflict_work: int = 300
    #: SAT's share of the turns on large puzzles, against the team's (0020).
    sat_share: float = 24.0
    #: On small puzzles SAT's share starts at this, times ``sat_share_growth`` each round up
    #: to ``sat_share_small_max`` (0018).
    sat_share_small: float = 0.125
    sat_share_growth: float = 2.0
    sat_share_small_max: float = 1.0
    #: Small puzzles still open after this many rounds of turns go to Kissat (0019, 0021).
    kissat_after_rounds: int = 0
    #: Where Kissat and the dive take turns on one core, Kissat's first run's conflicts
    #: (0029, 0034) ...
    kissat_turn_conflicts: int = 5_000
    #: ... each pair this many times the last (Kissat redoes at most 1 / (growth - 1)) ...
    kissat_turn_growth: float = 2.0
    #: ... and the dive's turn after a run: this much work for each conflict it was given.
    kissat_dive_work: int = 2_400
    #: A CBC branch-and-bound node of the ILP worker, in work (an LP re-solve; not measured:
    #: ILP takes no part in auto's or --jobs' plans, the rate only sizes its turns).
    ilp_node_work: int = 10_000
    #: Puzzles whose every line has at least this many cells go to Kissat (0016).
    kissat_min_line: int = 64
    #: Bytes a SAT model may take without a memory limit, and the share of a memory limit
    #: it may take (its learned clauses grow too).
    sat_memory: int = 2**30
    sat_memory_share: float = 0.5
    #: Literals a second a SAT model is built at, and the share of the time left its build
    #: may take: decides whether SAT comes in at all under a timeout.
    build_rate: int = 500_000
    build_share: float = 0.5

    # --- the SAT programs (backends/_program.py; 0032) ---
    #: After a program's solution, the search guided by it gets this many nodes per conflict
    #: the run took, at least ``guided_min_nodes`` (0032) ...
    guided_nodes_per_conflict: float = 0.1
    guided_min_nodes: int = 100
    #: ... and at most this share of the run's conflicts in work, at least ``guided_min_work``
    #: (past it the guided search stops for good: a 64x3000 checkerboard's root; 0034).
    guided_share: float = 0.25
    guided_min_work: int = _seconds(0.1)

    # --- --jobs: several processes (backends/parallel.py; 0015, 0022-0024, 0030) ---
    #: --jobs N starts only as many processes as cores were free of other work over the first
    #: turn (``gridsolve.cores.free``; 0015); False: N, however busy the machine.
    free_cores_only: bool = True
    #: Work the team runs in this process before the others start (auto's first turn) ...
    parallel_after: int = 15_000_000
    #: ... on large puzzles: the root's probing, which seeds SAT, and a little more (0015).
    parallel_after_large: int = 50_000
    #: Work between a team process's reports of its nodes and new solutions: long enough
    #: that the reports do not cut its turns short.
    report_work: int = _seconds(1.0)
    #: The most threads glucose-syrup is given (its own default; measured on 2 cores only:
    #: the more threads, the more often it hangs on a model it settles without search; 0030).
    syrup_threads: int = 4

    def __init__(self, **fields: int | float | bool) -> None:
        """Every field at its default (the class's) but those given. (Written here, not
        generated: a dataclass's __init__ of some sixty fields is compiled at each start,
        about 2 ms of a solve's start-up; issue 56.)"""
        known = self.__dataclass_fields__
        for name, value in fields.items():
            if name not in known:
                raise TypeError(f"Policy has no field {name!r}")
            object.__setattr__(self, name, value)
        self._check()

    # __repr__, __eq__ and __hash__ are written too, as the dataclass would make them: its
    # generated ones over sixty fields cost about 1.2 ms of every start-up more (issue 56).
    def _values(self) -> tuple[int | float | bool, ...]:
        return tuple([getattr(self, name) for name in self.__dataclass_fields__])

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}("
                + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__dataclass_fields__)
                + ")")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Policy)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def _check(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool":  # a switch
                if not isinstance(value, bool):
                    raise ValueError(f"policy: {f.name} must be True or False, got {value!r}")
                continue
            least = 1 if f.name in _AT_LEAST_ONE else 0
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    value >= least and value != float("inf")):
                raise ValueError(f"policy: {f.name} must be a finite number of at least "
                                 f"{least}, got {value!r}")
        for name in ("dive_probe_share", "colour_dive_probe_share", "colour_dive_min_open"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"policy: {name} must be between 0 and 1, got "
                                 f"{getattr(self, name)!r}")

    def changed(self) -> dict[str, int | float | bool]:
        """The fields that differ from the default, by name (what a run should print)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(DEFAULT_POLICY, f.name)}


#: The fields a turn's size or a rate is made of: 0 would make a loop that never advances.
_AT_LEAST_ONE = frozenset({
    "team_slice", "team_restart_base", "dive_slice", "dive_restart_fails", "dive_bp_cells",
    "turns_share", "conflict_work", "kissat_turn_conflicts", "report_work", "sat_share_growth",
    "kissat_dive_work", "kissat_turn_growth", "ilp_node_work", "colour_turn_growth",
    "colour_conflict_work"})

DEFAULT_POLICY = Policy()
