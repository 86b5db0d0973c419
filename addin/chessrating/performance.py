"""Performance ratings by six methods (docs/RULES.md §3.6).

Symbols: ``Ri`` opponent ratings, ``S`` points, ``n`` games, ``ARO`` the average rating
of the opponents rounded half-up, ``p`` the score as a whole percent rounded half-up,
``dp`` table 8.1.1, ``PD`` table 8.1.2.

>>> games = [(2763, 0.5), (2794, 0.5), (2794, 1), (2809, 0.5), (2809, 0.5), (2767, 0.5),
...          (2767, 0.5), (2784, 0.5), (2784, 0.5), (2799, 1), (2799, 0), (2800, 0.5)]
>>> performance(games)  # Ding Liren, 2018 Candidates after round 12: 6.5/12 → 2818
2818
>>> performance(games, "400"), performance(games, "OWN", rating=2769)
(2822.4166666666665, 2798)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from . import checks, elo, fide
from .errors import RatingError
from .results import NO_GAMES, Game, NoValue

# Table 8.1.2: the smallest rating difference whose expected score is 1.00 (PTP of 100 %).
SURE_WIN = 736

__all__ = ["METHODS", "performance", "tpr", "own_anchor", "algorithm_of_400", "ptp",
           "check_method"]

METHODS = ("FIDE", "OWN", "400", "ELO", "PTP", "USCF")


def check_method(method: Any) -> str:
    """One of :data:`METHODS`, case-insensitive; a number such as 400 is read as its text."""
    return checks.choice(method, "method", METHODS)


def _exact_total(games: Sequence[Game]) -> int | Fraction:
    """``ΣRi`` exactly: whole ratings (the usual case) add as integers, others as fractions."""
    if all(g.opponent.is_integer() for g in games):
        return sum(int(g.opponent) for g in games)
    return sum(Fraction(g.opponent) for g in games)


def _aro(games: Sequence[Game]) -> int:
    """Average rating of the opponents, rounded half-up, computed exactly."""
    return fide.half_up(Fraction(_exact_total(games), len(games)))


def _percent(games: Sequence[Game]) -> int:
    return fide.percent_half_up(sum(g.score for g in games), len(games))


def tpr(games: Sequence[Game]) -> int:
    """FIDE tournament performance ``TPR = ARO + dp(p)``; 100 % gives +800, 0 % −800.

    >>> tpr([(2000, 1), (2100, 1)]), tpr([(2000, 0.5), (2100, 0.5)])
    (2850, 2050)
    """
    played = _nonempty(games)
    return _aro(played) + fide.dp_hundredths(_percent(played))


def own_anchor(games: Sequence[Game], rating: float) -> float | int:
    """``R + dp(p)``: the FIDE difference anchored to the player's own rating.

    A whole ``rating`` gives a whole answer.

    >>> own_anchor([(2000, 1), (2100, 0.5)], 1900)
    2093
    """
    played = _nonempty(games)
    own = checks.rating(rating, "rating")
    result = own + fide.dp_hundredths(_percent(played))
    return int(result) if result.is_integer() else result


def algorithm_of_400(games: Sequence[Game]) -> float:
    """``(ΣRi + 400 × (wins − losses)) / n``: the opponents' average plus 400 per net win.

    The average is not rounded here (unlike the TPR's ``ARO``): the algorithm of 400 is
    a plain average of "opponent ± 400" per game, as the rating FAQ of docs/SOURCES.md §2
    describes it ("adds 400 × (wins − losses) / games to the opponents' average").

    >>> algorithm_of_400([(2000, 1), (2100, 0.5), (2201, 0)])
    2100.3333333333335
    """
    played = _nonempty(games)
    wins = sum(1 for g in played if g.score == 1)
    losses = sum(1 for g in played if g.score == 0)
    return float(Fraction(_exact_total(played) + 400 * (wins - losses), len(played)))


def ptp(games: Sequence[Game]) -> int:
    """FIDE perfect tournament performance: the lowest whole ``P`` with ``Σ PD(P − Ri) ≥ S``.

    Table 8.1.2 without any cap. 0 % → lowest opponent − 800 (C.07 10.3's exception);
    100 % takes the definition itself: the lowest rating whose expected score is 1.00
    against every opponent, the highest opponent + 736 (docs/RULES.md §3.6).

    >>> ptp([(2000, 0.5), (2000, 0.5)]), ptp([(2000, 1), (2100, 1)]), ptp([(2000, 0), (2100, 0)])
    (1997, 2836, 1200)
    """
    played = _nonempty(games)
    target = round(sum(g.score for g in played) * 100)  # S in hundredths
    if target == 0:
        return _floor_int(min(g.opponent for g in played)) - 800
    if target == 100 * len(played):
        return math.ceil(max(g.opponent for g in played)) + SURE_WIN

    def total(p: int) -> int:
        return sum(fide.pd_hundredths(p - g.opponent) for g in played)

    # Σ PD rises with P: at lowest − 800 every PD is 0 (< S), at highest + 800 all are 1.
    low = _floor_int(min(g.opponent for g in played)) - 800
    high = _floor_int(max(g.opponent for g in played)) + 801
    while high - low > 1:  # invariant: total(low) < S <= total(high)
        middle = (low + high) // 2
        if total(middle) >= target:
            high = middle
        else:
            low = middle
    return high


def _floor_int(value: float) -> int:
    return int(value // 1)


def _nonempty(games: Sequence[Game]) -> tuple[Game, ...]:
    played = checks.games(games)
    if not played:
        raise RatingError("games: no games to rate", argument="games")
    return played


def performance(games: Sequence[Game], method: str = "FIDE",
                rating: float | None = None) -> float | int | NoValue:
    """Performance rating of ``games`` by ``method`` (one of :data:`METHODS`).

    ``FIDE`` TPR, ``OWN`` own-rating anchor (needs ``rating``), ``400`` algorithm of 400,
    ``ELO`` the logistic solution (none for 0 % or 100 %), ``PTP`` FIDE perfect
    tournament performance, ``USCF`` the US Chess special formula with no prior games.
    No games give :data:`~chessrating.results.NO_GAMES`.

    >>> performance([(2000, 1), (2100, 1)], "ELO")
    NoValue(reason='no performance: 100 % score')
    >>> performance([], "PTP")
    NoValue(reason='no games')
    >>> performance([(2000, 1)], "OWN")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: rating: the OWN method needs the player's own rating
    """
    chosen = check_method(method)
    played = checks.games(games)
    if chosen == "OWN" and rating is None:
        raise RatingError("rating: the OWN method needs the player's own rating", argument="rating")
    own = checks.optional_rating(rating, "rating")
    if not played:
        return NO_GAMES
    if chosen == "FIDE":
        return tpr(played)
    if chosen == "OWN":
        assert own is not None
        return own_anchor(played, own)
    if chosen == "400":
        return algorithm_of_400(played)
    if chosen == "ELO":
        return elo.performance(played)
    if chosen == "PTP":
        return ptp(played)
    # Imported here: the US Chess module is heavier and only this method needs it.
    from .uscf.player import linear_performance
    return linear_performance(played)
