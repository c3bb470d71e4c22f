"""The schedule's Policy: every tuned number in one frozen table, refused when it would make a
loop that never ends, and the fields that differ from the default named."""

from __future__ import annotations

import dataclasses

import pytest

from gridsolve.nonogram.policy import _AT_LEAST_ONE, DEFAULT_POLICY, Policy


def test_the_default_is_valid_and_frozen() -> None:
    assert Policy() == DEFAULT_POLICY and DEFAULT_POLICY.changed() == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_POLICY.auto_nodes = 1  # type: ignore[misc]


def test_changed_names_what_differs() -> None:
    policy = dataclasses.replace(DEFAULT_POLICY, auto_nodes=5, sat_share=3.0)
    assert policy.changed() == {"auto_nodes": 5, "sat_share": 3.0}


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), True, "3", None])
def test_a_value_that_is_not_a_finite_count_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="auto_nodes must be a finite number"):
        dataclasses.replace(DEFAULT_POLICY, auto_nodes=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(_AT_LEAST_ONE))
def test_a_turn_of_nothing_is_refused(name: str) -> None:
    """A zero turn made a loop that never advanced (Kissat's turns with 0 conflicts spun to
    the deadline; a team slice of 0 nodes hung past it)."""
    with pytest.raises(ValueError, match=f"{name} must be a finite number of at least 1"):
        dataclasses.replace(DEFAULT_POLICY, **{name: 0})  # type: ignore[arg-type]


def test_a_switch_is_true_or_false() -> None:
    assert not dataclasses.replace(DEFAULT_POLICY, free_cores_only=False).free_cores_only
    with pytest.raises(ValueError, match="free_cores_only must be True or False"):
        dataclasses.replace(DEFAULT_POLICY, free_cores_only=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["dive_probe_share", "colour_dive_probe_share",
                                  "colour_dive_min_open"])
def test_shares_are_shares(name: str) -> None:
    with pytest.raises(ValueError, match=f"{name} must be between 0 and 1"):
        dataclasses.replace(DEFAULT_POLICY, **{name: 1.5})  # type: ignore[arg-type]


def test_its_own_init_keeps_the_dataclass_contract() -> None:
    """Policy's __init__ is written, not generated (start-up): an unknown field is refused,
    a policy pickles and copies equal, and replace keeps every other field."""
    import pickle
    policy = dataclasses.replace(DEFAULT_POLICY, auto_nodes=5)
    with pytest.raises(TypeError, match="no field 'nope'"):
        Policy(nope=1)
    assert pickle.loads(pickle.dumps(policy)) == policy != DEFAULT_POLICY
    assert hash(policy) == hash(dataclasses.replace(policy))
    assert dataclasses.replace(policy, sat_share=1.0).changed() == {"auto_nodes": 5,
                                                                   "sat_share": 1.0}


def test_its_own_repr_eq_and_hash_are_the_dataclass_ones() -> None:
    """__repr__, __eq__ and __hash__ are written, not generated (start-up, issue 56), and
    give what the generated ones gave: every field in order, compared and hashed as a tuple."""
    import gridsolve.nonogram.policy as module
    for method in ("__init__", "__repr__", "__eq__", "__hash__"):
        assert getattr(Policy, method).__code__.co_filename == module.__file__, method
    policy = dataclasses.replace(DEFAULT_POLICY, sat_share=2.5, free_cores_only=False)
    fields = dataclasses.fields(Policy)
    assert repr(policy) == "Policy(" + ", ".join(
        f"{f.name}={getattr(policy, f.name)!r}" for f in fields) + ")"
    assert "sat_share=2.5, " in repr(policy) and repr(policy).endswith(")")
    assert hash(policy) == hash(tuple(getattr(policy, f.name) for f in fields))
    assert policy == dataclasses.replace(policy) and policy != DEFAULT_POLICY
    assert policy.__eq__(dataclasses.astuple(policy)) is NotImplemented and policy != 1
    assert len({policy, dataclasses.replace(policy), DEFAULT_POLICY}) == 2
