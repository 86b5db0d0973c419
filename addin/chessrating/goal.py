"""Rating goal planner: how many games at a given opponent rating and score reach a target.

RULES.md §5. The rating is updated after every game, unrounded, with the chosen system:
``"ELO"`` (logistic curve) or ``"FIDE"`` (table 8.1.2 with the 400-point rule, judged by
the rating the player has at that game). Unrounded updates are what the rule book's
example shows: 1600, K 20, winning every game against 1600 opponents is at 1695.6 after
11 games and past 1700 after 12.

>>> games_to_target(1600, 1700, 1600, k=20)
12
>>> [round(r, 1) for r in progression(1600, 1600, k=20, games=3)]
[1610.0, 1619.7, 1629.1]
>>> games_to_target(1600, 1800, 1600, k=20, score=0.75)
NoValue(reason='never: scoring 0.75 against 1600, the rating levels off at 1790.8, short of 1800')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from . import fide
from . import checks
from .elo import logistic
from .results import NoValue, describe

__all__ = ["SYSTEMS", "MAX_GAMES", "games_to_target", "progression", "check_system"]

SYSTEMS = ("ELO", "FIDE")
MAX_GAMES = 10_000
_PLANNED_GAMES = checks.Domain("a whole number of games", 0, MAX_GAMES, whole=True)
_LIMIT = checks.Domain("a whole number of games", 1, 1_000_000, whole=True)
# Below this K one logistic update R → R + K(s − E(R)) is increasing in R (its slope is
# at least 1 − K·ln10/1600), so the rating approaches the level where E = s without
# passing it: the level is then an exact bound.
_MONOTONE_K = 1600 / math.log(10)
_REACHED = 1e-9  # a rating this close to the target counts as there (float noise)


def check_system(system: Any) -> str:
    """``"ELO"`` or ``"FIDE"``, case-insensitive."""
    return checks.choice(system, "system", SYSTEMS)


def _expected(system: str, opponent: float, rules: str) -> Callable[[float], float]:
    """The expected score per game as a function of the player's current rating."""
    if system == "ELO":
        return lambda r: logistic(r, opponent)
    return lambda r: fide.table_expected(r, opponent, rules)


def progression(rating: float, opponent_rating: float, k: float, games: int,
                score: float = 1.0, system: str = "ELO", rules: str = "2025") -> list[float]:
    """The rating after each of ``games`` games, unrounded (for a progression chart).

    >>> progression(1600, 1600, k=20, games=2, score=0.5, system="FIDE")
    [1600.0, 1600.0]
    """
    own = checks.rating(rating, "rating")
    expected = _expected(check_system(system), checks.rating(opponent_rating, "opponent_rating"),
                         fide.check_rules(rules))
    factor, per_game = checks.k(k), checks.score_per_game(score)
    count = checks.whole(games, _PLANNED_GAMES, "games")
    path = []
    for _ in range(count):
        own += factor * (per_game - expected(own))
        path.append(own)
    return path


def _upper_bound(start: float, k: float, gain: Callable[[float], float]) -> float | None:
    """A value the rating, moving upward, can never reach; ``None`` if none is found.

    ``gain(x)`` is the signed change per unit of K at position ``x``; it does not rise
    with ``x`` (expected scores never fall as the rating rises) and is at most 1.
    Take any ``B`` with ``gain(B) ≤ 0``. From ``x < B − K`` a game ends below ``B``;
    from ``B − K ≤ x < B`` it ends below ``B + K × gain(B − K)``; from ``x ≥ B`` it does
    not rise. So every rating stays below ``max(start, B + K × gain(B − K))``.
    """
    if gain(start) <= 0:
        barrier = start
    else:
        below, step = start, 100.0
        above = start + step
        while gain(above) > 0:
            below, step = above, step * 2
            above = start + step
            if step > 1e5:  # no barrier within any rating: the rating keeps rising
                return None
        while above - below > 1e-6:
            middle = (above + below) / 2
            below, above = (middle, above) if gain(middle) > 0 else (below, middle)
        barrier = above
    return max(start, barrier + k * gain(barrier - k))


def games_to_target(rating: float, target: float, opponent_rating: float, k: float,
                    score: float = 1.0, system: str = "ELO", rules: str = "2025",
                    max_games: int = MAX_GAMES) -> int | NoValue:
    """Games at ``opponent_rating`` and ``score`` per game needed to reach ``target``.

    A target below the rating works the same way with a losing score. When the rating
    can never get there the answer is a :class:`NoValue` saying so: for the Elo curve
    the level where ``E = score`` is exact (for ``K`` below 1600/ln 10 ≈ 695); for the
    FIDE table (and huge K) a proven bound is used. A target that is reachable only
    after more than ``max_games`` games is reported as not reached within them.

    >>> games_to_target(1600, 1500, 1600, k=20, score=0)
    12
    >>> games_to_target(1600, 1700, 1600, k=20, score=0.5, system="FIDE")
    NoValue(reason='never: scoring 0.5 against 1600 never raises a rating of 1600')
    """
    own = checks.rating(rating, "rating")
    goal = checks.rating(target, "target")
    opponent = checks.rating(opponent_rating, "opponent_rating")
    factor, per_game = checks.k(k), checks.score_per_game(score)
    chosen, chosen_rules = check_system(system), fide.check_rules(rules)
    limit = checks.whole(max_games, _LIMIT, "max_games")
    if goal == own:
        return 0
    expected = _expected(chosen, opponent, chosen_rules)
    up = goal > own
    sign = 1.0 if up else -1.0
    against = f"scoring {describe(per_game)} against {describe(opponent)}"
    if sign * (per_game - expected(own)) <= 0:
        verb = "raises" if up else "lowers"
        return NoValue(f"never: {against} never {verb} a rating of {describe(own)}")

    if chosen == "ELO" and factor < _MONOTONE_K and 0 < per_game < 1:
        level = opponent + 400 * math.log10(per_game / (1 - per_game))
        if sign * (goal - level) >= 0:
            return NoValue(f"never: {against}, the rating levels off at {level:.1f}, "
                           f"short of {describe(goal)}")
    else:
        # Work in x = sign × rating so that the goal always lies upward.
        bound = _upper_bound(sign * own, factor,
                             lambda x: sign * (per_game - expected(sign * x)))
        if bound is not None and sign * goal >= bound:
            side = "rise above" if up else "fall below"
            return NoValue(f"never: {against}, the rating cannot {side} "
                           f"{sign * bound:.1f}, short of {describe(goal)}")

    current = own
    for played in range(1, int(limit) + 1):
        change = factor * (per_game - expected(current))
        if change == 0:
            return NoValue(f"never: {against}, the rating stays at {current:.1f}")
        current += change
        if sign * (current - goal) >= -_REACHED:
            return played
    return NoValue(f"not within {int(limit):,} games: {against}, the rating is "
                   f"{current:.1f} after {int(limit):,}")
