"""Classic Elo: the logistic expected score, rating change, new rating and performance.

RULES.md §2 (seed: elo-calculator.txt). Symbols: ``R`` own rating, ``Ri`` opponent
ratings, ``S`` points scored, ``K`` development coefficient.

>>> round(expected_score(1600, 2000), 4)
0.0909
>>> from chessrating.results import Game
>>> round(rating_change(1600, [Game(1600, 1.0), Game(2000, 0.5)], k=20), 2)
18.18
>>> round(performance([Game(1800, 1.0), Game(2000, 0.0)]), 2)
1900.0

Arguments are read by :mod:`chessrating.checks`: a rating from 100 to 4000, ``K`` from
1 to 100.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import checks
from .results import NO_GAMES, Game, NoValue

__all__ = ["expected_score", "logistic", "rating_change", "new_rating", "performance"]

# Bisection stops when the bracket is this narrow: far below the 0.01 the rules ask for.
_PERFORMANCE_TOLERANCE = 1e-7
_LN10_OVER_400 = math.log(10) / 400.0


def expected_score(rating: float, opponent_rating: float) -> float:
    """Logistic expected score ``E = 1 / (1 + 10^((Ri − R)/400))``.

    >>> expected_score(2000, 2000)
    0.5
    >>> round(expected_score(2000, 1600), 3)  # the curve at a 400-point gap (FIDE's table: 0.92)
    0.909
    """
    own = checks.rating(rating, "rating")
    other = checks.rating(opponent_rating, "opponent_rating")
    return logistic(own, other)


def logistic(rating: float, opponent_rating: float) -> float:
    """:func:`expected_score` without the checks, for ratings already read and checked.

    Beyond a gap of 120,000 points (reachable only while iterating, e.g. with a huge K)
    the curve is 0 or 1 to double precision; the exponent is capped so it cannot overflow.
    """
    exponent = (opponent_rating - rating) / 400.0
    if exponent > 300.0:
        return 0.0
    if exponent < -300.0:
        return 1.0
    return 1.0 / (1.0 + 10.0 ** exponent)


def rating_change(rating: float, games: Sequence[Game], k: float = 20) -> float:
    """``K × Σ(S − E)`` over the games, unrounded; 0 when there are no games.

    >>> rating_change(1500, [(1500, 1.0)], k=20)
    10.0
    """
    own = checks.rating(rating, "rating")
    factor = checks.k(k)
    played = checks.games(games)
    return factor * sum(g.score - logistic(own, g.opponent) for g in played)


def new_rating(rating: float, games: Sequence[Game], k: float = 20) -> float:
    """``R + K × Σ(S − E)``, unrounded.

    >>> new_rating(1500, [(1500, 0.0)], k=32)
    1484.0
    """
    own = checks.rating(rating, "rating")
    return own + rating_change(own, games, k)


def performance(games: Sequence[Game]) -> float | NoValue:
    """The rating ``P`` with ``Σ E(P, Ri) = S`` (RULES.md §2), to better than 0.01.

    A perfect or a zero score has no such rating: the answer says so instead of
    inventing one. No games give :data:`~chessrating.results.NO_GAMES`.

    >>> round(performance([(2000, 0.5)]), 4)
    2000.0
    >>> performance([(2000, 1.0), (2100, 1.0)])
    NoValue(reason='no performance: 100 % score')
    """
    played = checks.games(games)
    if not played:
        return NO_GAMES
    score = sum(g.score for g in played)
    if score == 0:
        return NoValue("no performance: 0 % score")
    if score == len(played):
        return NoValue("no performance: 100 % score")

    opponents = [g.opponent for g in played]

    def total(p: float) -> tuple[float, float]:
        """Σ E(P, Ri) − S and its slope Σ E(1 − E) · ln 10 / 400."""
        expected = [logistic(p, r) for r in opponents]
        return sum(expected) - score, sum(e * (1.0 - e) for e in expected) * _LN10_OVER_400

    # Σ E(P, Ri) rises strictly with P, so a bracket found by widening holds one root.
    low, high = min(opponents) - 400.0, max(opponents) + 400.0
    while total(low)[0] > 0:
        low -= 400.0
    while total(high)[0] < 0:
        high += 400.0
    # Newton's steps, kept inside the bracket (a step that leaves it halves the bracket).
    p = (low + high) / 2.0
    while high - low > _PERFORMANCE_TOLERANCE:
        value, slope = total(p)
        if value == 0:
            return p
        if value < 0:
            low = p
        else:
            high = p
        step = p - value / slope if slope > 0 else math.nan
        if abs(step - p) < _PERFORMANCE_TOLERANCE:
            return step
        if not low < step < high:
            step = (low + high) / 2.0
        p = step
    return (low + high) / 2.0
