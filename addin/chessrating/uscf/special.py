"""The special formula of US Chess (docs/RULES.md §4.4), solved by the document's own procedure.

``f(M) = N′ PWe(M, R0′) + Σ PWe(M, Ri) − S′`` is piecewise linear and non-decreasing in the
rating ``M``; its knots are ``R0′ ± 400`` and ``Ri ± 400``. The procedure starts at ``R0′``
and takes secant steps between knots until ``|f(M)| ≤ ε``, then settles a flat stretch of
zeros by the prior ``R0``; :func:`solve` takes the same steps in ``O(n log n)``. The checked public functions are in :mod:`chessrating.uscf`;
these are the unchecked workers it and the event procedure share.

>>> round(rate_special(1500.0, 6.0, [1400.0, 1550.0, 1650.0], [1.0, 0.0, 0.5], None), 2)
1511.11
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

__all__ = ["EPSILON", "SPECIAL_CAP", "adjust_prior", "objective", "solve", "rate_special"]

EPSILON = 1e-7            # ε of the special-formula procedure (§4.4)
SPECIAL_CAP = 2700.0      # the special formula never gives more (§4.4)
# Distances of exactly 400 decide step 4; sums and differences of ratings carry noise of
# about 1e-12, so a distance within this of 400 counts as 400.
_DISTANCE_NOISE = 1e-6
# The least margin by which the sweep's value of f at a knot must pass the stop for the
# walk to jump there; the rounding of the sweep's sum is added to it (see _margin).
_SWEEP_NOISE = 1e-6


def adjust_prior(prior: float, effective: float, score: float, record: str | None) -> tuple[float, float]:
    """``(R0′, S′)``: normal ``(R0, S + N′/2)``; all wins ``(R0 − 400, S + N′)``;
    all losses ``(R0 + 400, S)``."""
    if record == "W":
        return prior - 400.0, score + effective
    if record == "L":
        return prior + 400.0, score
    return prior, score + effective / 2.0


def objective(rating: float, adjusted_prior: float, effective: float,
               opponents: Sequence[float], adjusted_score: float) -> float:
    """``f(M) = N′ PWe(M, R0′) + Σ PWe(M, Ri) − S′``, PWe clamped linear expectancy."""
    total = -adjusted_score
    if effective:
        x = 0.5 + (rating - adjusted_prior) / 800.0
        total += effective * (0.0 if x <= 0.0 else 1.0 if x >= 1.0 else x)
    for opponent in opponents:
        x = 0.5 + (rating - opponent) / 800.0
        total += 0.0 if x <= 0.0 else 1.0 if x >= 1.0 else x
    return total


def solve(adjusted_prior: float, effective: float, opponents: Sequence[float],
          adjusted_score: float, tie_break: float) -> float:
    """Steps 1–4 of §4.4, to the letter: start at R0′, secant steps between knots, then the
    zero-set rule with the tie-break rating R0.

    Each secant step reaches the next knot or the root on the piece before it, so the
    procedure walks knot by knot. It takes the same steps here, computing ``f`` exactly
    (over every game) only where the walk may stop: it jumps straight to the last knot
    that a sweep of the sorted knots shows well short of the stop (``f`` beyond ``ε``
    by more than the sweep's rounding could hide), a knot the walk passes through, and
    goes on from there step by step. So the walk costs ``O(n log n)``, not ``O(n²)``.

    >>> solve(1500.0, 6.0, [1400.0, 1550.0, 1650.0], 4.5, 1500.0) == 13600 / 9
    True
    """
    knots, swept = _sweep(adjusted_prior, effective, opponents, adjusted_score)
    margin = _margin(len(knots), effective + len(opponents) + abs(adjusted_score))

    def f(rating: float) -> float:
        return objective(rating, adjusted_prior, effective, opponents, adjusted_score)

    rating = adjusted_prior                          # step 1
    value = f(rating)
    # Each pass reaches a knot or the root of a linear piece, so a few passes per knot end
    # it; the bound only guards against floating-point cycling.
    passes = 4 * len(knots) + 8
    if value > EPSILON:                              # the walk down passes these knots
        below = bisect_left(knots, rating) - 1
        last = below
        while last >= 0 and swept[last] > EPSILON + margin:
            last -= 1
        if last < below:
            rating = knots[last + 1]
            value = f(rating)
    while value > EPSILON and passes:               # step 2: move down
        passes -= 1
        below = bisect_left(knots, rating) - 1
        if below < 0:
            break
        knot = knots[below]
        at_knot = f(knot)
        if abs(value - at_knot) < EPSILON:
            rating = knot
        else:
            rating = max(rating - value * (rating - knot) / (value - at_knot), knot)
        value = f(rating)
    if value < -EPSILON:                             # the walk up passes these knots
        above = bisect_right(knots, rating)
        last = above
        while last < len(knots) and swept[last] < -EPSILON - margin:
            last += 1
        if last > above:
            rating = knots[last - 1]
            value = f(rating)
    while value < -EPSILON and passes:              # step 3: move up
        passes -= 1
        above = bisect_right(knots, rating)
        if above == len(knots):
            break
        knot = knots[above]
        at_knot = f(knot)
        if abs(at_knot - value) < EPSILON:
            rating = knot
        else:
            rating = min(rating - value * (knot - rating) / (at_knot - value), knot)
        value = f(rating)
    limit = 400.0 + _DISTANCE_NOISE                 # step 4: is M on a sloped piece or a knot?
    if abs(rating - adjusted_prior) <= limit or any(abs(rating - r) <= limit for r in opponents):
        return rating
    below = bisect_left(knots, rating)
    above = bisect_right(knots, rating)
    low = knots[below - 1] if below > 0 else -math.inf
    high = knots[above] if above < len(knots) else math.inf
    if low <= tie_break <= high:
        return tie_break
    return low if tie_break < low else high


def _margin(knots: int, size: float) -> float:
    """How far the sweep's values may be from ``f``, and more: each of its ``knots`` steps
    rounds a sum no larger than ``size`` (the weights and the score) a few times."""
    return _SWEEP_NOISE + 8.0 * knots * math.ulp(size + 1.0)


def _sweep(adjusted_prior: float, effective: float, opponents: Sequence[float],
           adjusted_score: float) -> tuple[list[float], list[float]]:
    """The sorted knots of ``f`` and ``f`` at each, from one pass up the knots: below
    the lowest every expectancy is 0, and between two knots ``f`` rises by its slope
    (the weight of the terms on their sloped piece, over 800) times the distance. The
    values carry the rounding of that sum, within :func:`_margin`."""
    turns: dict[float, float] = {}   # knot -> change of the weight on a sloped piece
    for centre, weight in ((adjusted_prior, effective), *((r, 1.0) for r in opponents)):
        turns[centre - 400.0] = turns.get(centre - 400.0, 0.0) + weight
        turns[centre + 400.0] = turns.get(centre + 400.0, 0.0) - weight
    knots = sorted(turns)
    swept = []
    value, weight, previous = -adjusted_score, 0.0, knots[0]
    for knot in knots:
        value += weight * (knot - previous) / 800.0
        swept.append(value)
        weight += turns[knot]
        previous = knot
    return knots, swept


def rate_special(prior: float, effective: float, opponents: Sequence[float], scores: Sequence[float],
             record: str | None, tie_break: float | None = None) -> float:
    """The special rating without validation; used by the event procedure too."""
    if not scores:
        return prior
    r0 = prior if tie_break is None else tie_break
    score = sum(scores)
    adjusted_prior, adjusted_score = adjust_prior(prior, effective, score, record)
    rating = solve(adjusted_prior, effective, opponents, adjusted_score, r0)
    if score == len(scores):       # all wins: never lower than before
        rating = max(rating, r0)
    elif score == 0:               # all losses: never higher than before
        rating = min(rating, r0)
    return min(rating, SPECIAL_CAP)
