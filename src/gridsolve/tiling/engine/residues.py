"""Counts past 64 bits, exactly: the core counts modulo a few primes below 2**62, and the
Chinese remainder theorem puts the count together from its residues.

The core adds counts and never multiplies them, so counting modulo a prime is the same search
with each sum reduced. Enough primes are taken for their product to exceed a bound that no
count can reach (``count_bound``): the residues then determine the count, not just its
remainder.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

__all__ = ["moduli", "combine"]

#: The moduli are primes below this (the core refuses a modulus of 2**62 or more: the sum of
#: two residues must not wrap around 64 bits).
MODULUS_BELOW = 2**62

# Miller-Rabin with these bases is exact below 3.3 * 10**24 (Sorenson and Webster, 2015).
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_prime(n: int) -> bool:
    """Whether n is prime (deterministic for n below 3.3 * 10**24)."""
    if n < 2:
        return False
    for p in _BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def _primes(k: int) -> tuple[int, ...]:
    """The k largest primes below MODULUS_BELOW."""
    out: list[int] = []
    n = MODULUS_BELOW - 1
    while len(out) < k:
        if is_prime(n):
            out.append(n)
        n -= 2
    return tuple(out)


def moduli(bound: int) -> tuple[int, ...]:
    """Primes (below 2**62) whose product exceeds ``bound``: residues modulo them fix any
    whole number from 0 to ``bound``."""
    k = 1
    while math.prod(_primes(k)) <= bound:
        k += 1
    return _primes(k)


def combine(residues: Sequence[int], primes: Sequence[int]) -> int:
    """The number from 0 to the product of ``primes`` (exclusive) with these residues."""
    total = math.prod(primes)
    x = 0
    for r, p in zip(residues, primes, strict=True):
        rest = total // p
        x += r * rest * pow(rest, -1, p)
    return x % total
