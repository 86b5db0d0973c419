"""The special formula's solver (:mod:`chessrating.uscf.special`) against the procedure
as first written: every step of the walk computed over every game (``O(n²)``), kept here
as the oracle. The sweep only decides how far the walk may jump, so both give the same
rating to the last bit, on published examples, on random events and on events of
thousands of games far from the prior.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating.results import Game
from chessrating.uscf import linear_performance, special_rating
from chessrating.uscf.special import EPSILON, adjust_prior, objective, rate_special, solve


def walked_solve(adjusted_prior: float, effective: float, opponents: Sequence[float],
                 adjusted_score: float, tie_break: float) -> float:
    """The oracle: §4.4 steps 1–4 with ``f`` computed over every game at every step."""
    knots = sorted({adjusted_prior - 400.0, adjusted_prior + 400.0,
                    *(r - 400.0 for r in opponents), *(r + 400.0 for r in opponents)})

    def f(rating: float) -> float:
        return objective(rating, adjusted_prior, effective, opponents, adjusted_score)

    rating = adjusted_prior
    value = f(rating)
    passes = 4 * len(knots) + 8
    while value > EPSILON and passes:
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
    while value < -EPSILON and passes:
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
    limit = 400.0 + 1e-6
    if abs(rating - adjusted_prior) <= limit or any(abs(rating - r) <= limit for r in opponents):
        return rating
    below = bisect_left(knots, rating)
    above = bisect_right(knots, rating)
    low = knots[below - 1] if below > 0 else -math.inf
    high = knots[above] if above < len(knots) else math.inf
    if low <= tie_break <= high:
        return tie_break
    return low if tie_break < low else high


def both(prior: float, effective: float, opponents: list[float], scores: list[float],
         record: str | None) -> tuple[float, float]:
    adjusted_prior, adjusted_score = adjust_prior(prior, effective, sum(scores), record)
    arguments = (adjusted_prior, effective, opponents, adjusted_score, prior)
    return solve(*arguments), walked_solve(*arguments)


def test_published_example_by_both():
    # Glickman & Doan, The US Chess Rating System, the special formula's example (RULES.md
    # §4.4): R0 = 1500, N' = 6, 1400 (win), 1550 (loss), 1650 (draw): M = 13600 / 9.
    new, old = both(1500.0, 6.0, [1400.0, 1550.0, 1650.0], [1.0, 0.0, 0.5], None)
    assert new == old == pytest.approx(13600 / 9, abs=1e-6)
    assert special_rating(1500, 6, [Game(1400, 1), Game(1550, 0), Game(1650, 0.5)]) == new


def test_linear_performance_published_values_unchanged():
    assert linear_performance([Game(1400, 1), Game(1600, 0.5), Game(1800, 0)]) == 1600.0
    assert linear_performance([Game(1500, 1), Game(1700, 1)]) == 2100.0


ratings = st.one_of(st.integers(100, 2900).map(float), st.floats(100, 2900))


@given(prior=ratings, effective=st.sampled_from([0.0, 1.0, 4.0, 12.5, 50.0]),
       games=st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=40),
       record=st.sampled_from([None, "W", "L"]))
def test_the_sweep_gives_the_walk_s_rating(prior, effective, games, record):
    opponents = [r for r, _ in games]
    scores = [s for _, s in games]
    new, old = both(prior, effective, opponents, scores, record)
    assert new == old


@given(prior=ratings, effective=st.sampled_from([0.0, 1.0, 6.0]),
       field=st.lists(st.integers(100, 2900).map(float), min_size=1, max_size=4),
       repeats=st.integers(1, 30), score=st.sampled_from([0.0, 0.5, 1.0]))
def test_many_games_against_the_same_few_ratings(prior, effective, field, repeats, score):
    # Knots shared by many games, long flat stretches: the sweep's weights add up per knot.
    opponents = field * repeats
    new, old = both(prior, effective, opponents, [score] * len(opponents), None)
    assert new == old


@pytest.mark.slow  # two seconds a case: the long sweep, kept out of the inner loop
@pytest.mark.parametrize(("prior", "low", "high"), [(900.5, 2200.0, 2900.0), (2650.25, 100.0, 900.0)])
def test_thousands_of_games_far_from_the_prior(prior, low, high):
    # A provisional player with 4,000 games against a field a thousand points and more
    # from his prior (above: the walk goes up; below: down), ratings not whole numbers:
    # the walk crosses thousands of knots.
    rng = random.Random(prior)
    opponents = [rng.uniform(low, high) for _ in range(4000)]
    scores = [rng.choice((0.0, 0.5, 1.0)) for _ in opponents]
    new, old = both(prior, 4.0, opponents, scores, None)
    assert new == old
    assert low - 400 < new < high + 400
    assert rate_special(prior, 4.0, opponents, scores, None) == min(new, 2700.0)
