"""FIDE standard rating: tables 8.1.1 and 8.1.2, K, rating change, first rating.

docs/RULES.md §3 (FIDE Rating Regulations effective 1 March 2024, amended 1 October 2025).
Symbols: ``R`` own rating, ``Ri`` opponent ratings, ``W`` points scored, ``n`` games,
``PD`` expected score from table 8.1.2, ``dp`` rating difference from table 8.1.1,
``K`` development coefficient. FIDE never uses the logistic curve.

>>> dp(0.57), expected_score(2000, 1600), expected_score(1500, 2000)
(50, 0.92, 0.08)
>>> rating_change(1500, [(2000, 0.5)], k=20)  # FIDE calculator: +8.4
8.4
>>> new_rating(2813, [(1787, 1), (2025, 1), (2310, 1), (2400, 1), (2505, 0.5)], k=10)
2810
"""

from __future__ import annotations

import bisect
import csv
import datetime as _dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from importlib import resources
from typing import Any

from . import checks
from .errors import RatingError
from .results import Game, NoValue

__all__ = [
    "RULES", "dp", "expected_score", "k_factor", "rating_change", "round_half_away",
    "new_rating", "initial_rating", "first_rating", "FirstRating", "check_rules",
    "percent_half_up", "half_up", "pd_hundredths", "dp_hundredths", "capped_difference",
    "table_expected",
    "RATING_FLOOR", "FIRST_RATING_CAP", "EXEMPT_FROM",
]

RULES = ("2025", "2024")
RATING_FLOOR = 1400        # §7.2.1: below this a player is shown as unrated
FIRST_RATING_CAP = 2200    # §8.2.3
EXEMPT_FROM = 2650         # from 1 Oct 2025 the 400-point rule spares players rated 2650+
_CAP = 400
_MIN_FIRST_GAMES = 5       # §7.1.4
_HYPOTHETICAL = 1800       # §8.2.2: two draws against 1800


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("chessrating").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


# Table 8.1.1 keyed by p in hundredths (0 … 100); table 8.1.2 as (D_low, PD in
# hundredths) rows, ascending; both read once from the package data.
_DP_BY_HUNDREDTHS: dict[int, int] = {
    round(float(row["p"]) * 100): int(row["dp"]) for row in _read_csv("fide-table-8.1.1.csv")}
_PD_ROWS: tuple[tuple[int, int], ...] = tuple(
    (int(row["D_low"]), round(float(row["PD"]) * 100))
    for row in _read_csv("fide-table-8.1.2.csv"))
_PD_LOWS = [low for low, _ in _PD_ROWS]
# The same table spread out by whole |D| (0 … 736), so a lookup is one index; each whole
# difference takes the row of the greatest D_low not above it (from the last row's D_low
# upward, that row's PD).
_PD_BY_WHOLE: tuple[int, ...] = tuple(
    _PD_ROWS[bisect.bisect_right(_PD_LOWS, whole) - 1][1] for whole in range(_PD_LOWS[-1] + 1))
_PD_TOP = _PD_BY_WHOLE[-1]


def half_up(value: Fraction | float) -> int:
    """``value`` rounded to a whole number, 0.5 upward (as the Title Regulations round).

    >>> half_up(Fraction(9, 2)), half_up(-4.5), half_up(2789.08)
    (5, -4, 2789)
    """
    if type(value) is float and value.is_integer():
        return int(value)  # whole ratings, the common case: no Fraction needed
    return math.floor(Fraction(value) + Fraction(1, 2))


def percent_half_up(points: float, games: int) -> int:
    """``points / games`` as a whole percent, 0.5 % rounded up, computed exactly.

    >>> percent_half_up(6.5, 12), percent_half_up(4, 7), percent_half_up(4.5, 13)
    (54, 57, 35)
    """
    return half_up(Fraction(points) * 100 / games)


def check_rules(rules: Any) -> str:
    """``"2025"`` or ``"2024"`` (a number is accepted as its text)."""
    return checks.choice(rules, "rules", RULES)


def dp(p: float) -> int:
    """Table 8.1.1: fractional score ``p`` → rating difference ``dp``.

    ``p`` is rounded half-up to two decimals first (docs/RULES.md §3.1); 1.00 and 0.00
    give the notional ±800.

    >>> dp(1.0), dp(0.5), dp(0.545), dp(0.0)
    (800, 0, 36, -800)
    """
    number = checks.in_domain(p, checks.FRACTIONAL_SCORE, "p")
    # Decimal of the shortest repr rounds the number as it is written (0.545 → 0.55).
    hundredths = int(Decimal(repr(number)).scaleb(2).quantize(Decimal(1), ROUND_HALF_UP))
    return _DP_BY_HUNDREDTHS[hundredths]


def dp_hundredths(percent: int) -> int:
    """Table 8.1.1 by a whole percent (0 … 100), for callers that round ``p`` exactly.

    >>> dp_hundredths(54), dp_hundredths(100)
    (29, 800)
    """
    return _DP_BY_HUNDREDTHS[percent]


def pd_hundredths(difference: float) -> int:
    """Table 8.1.2, no cap: own expected score in hundredths at ``D = R − Ri``.

    ``PD`` of the row of ``|D|`` if ``D ≥ 0``, else ``PL``. The table lists whole
    differences; a fractional one (ratings carried unrounded, as the goal planner does)
    is rounded half-up to a whole number first (a convention here: the rules use whole
    ratings only).

    >>> pd_hundredths(3), pd_hundredths(4), pd_hundredths(-400), pd_hundredths(736)
    (50, 51, 8, 100)
    """
    size = abs(difference)
    whole = int(size) if size == int(size) else half_up(size)
    higher = _PD_BY_WHOLE[whole] if whole < len(_PD_BY_WHOLE) else _PD_TOP
    return higher if difference >= 0 else 100 - higher


def capped_difference(rating: float, opponent: float, rules: str) -> float:
    """``D = R − Ri``, with differences above 400 counted as 400 unless exempt (§3.2)."""
    difference = rating - opponent
    if rules == "2024" or rating < EXEMPT_FROM:
        difference = max(-_CAP, min(_CAP, difference))
    return difference


def table_expected(rating: float, opponent_rating: float, rules: str) -> float:
    """:func:`expected_score` without the checks, for ratings and rules already read."""
    return pd_hundredths(capped_difference(rating, opponent_rating, rules)) / 100


def expected_score(rating: float, opponent_rating: float, rules: str = "2025") -> float:
    """Own expected score ``PD`` from table 8.1.2 with the 400-point rule (docs/RULES.md §3.2).

    Under rules ``"2025"`` a player rated 2650 or more uses the real difference; the
    exemption is judged by ``rating``, the player whose change is computed. Under
    ``"2024"`` the cap applies to everyone. Row edges: D = 3 → 0.50, D = 4 → 0.51.

    >>> expected_score(2003, 2000), expected_score(2004, 2000), expected_score(2000, 2004)
    (0.5, 0.51, 0.49)
    >>> expected_score(2650, 2150), expected_score(2649, 2149)
    (0.96, 0.92)
    """
    own = checks.rating(rating, "rating")
    other = checks.rating(opponent_rating, "opponent_rating")
    return table_expected(own, other, check_rules(rules))


def k_factor(
    rating: float,
    rated_games: int,
    birth_year: int | None = None,
    year: int | None = None,
    peak_rating: float | None = None,
    games_in_period: int | None = None,
) -> int:
    """K by §8.3.3 with the precedence **Decision** of docs/RULES.md §3.3.

    (1) a published rating has ever reached 2400 (``peak_rating`` or ``rating``) → 10;
    (2) junior — ``year − birth_year ≤ 18`` — whose rating has stayed under 2300 → 40;
    (3) fewer than 30 rated games → 40; (4) else 20. Then, if ``K × n > 700`` for the
    ``n = games_in_period``, ``K = floor(700 / n)``. ``year`` defaults to the current year.
    A ``peak_rating`` below ``rating`` is read as ``rating``.

    >>> k_factor(2100, 120), k_factor(2100, 12), k_factor(2350, 200, peak_rating=2405)
    (20, 40, 10)
    >>> k_factor(2100, 120, birth_year=2008, year=2026), k_factor(2100, 120, games_in_period=39)
    (40, 17)
    """
    own = checks.rating(rating, "rating")
    games = checks.count(rated_games, "rated_games")
    peak = own if peak_rating is None else max(own, checks.rating(peak_rating, "peak_rating"))
    this_year = _dt.date.today().year if year is None else checks.year(year, "year")
    junior = False
    if birth_year is not None:
        born = checks.year(birth_year, "birth_year")
        if born > this_year:
            if year is None:
                raise RatingError(f"birth_year: {born} is after this year ({this_year})", argument="birth_year")
            raise RatingError(f"year: {this_year} is before the birth year {born}", argument="year")
        junior = this_year - born <= 18
    if peak >= 2400:
        k = 10
    elif junior and peak < 2300:
        k = 40
    elif games < 30:
        k = 40
    else:
        k = 20
    if games_in_period is not None:
        n = checks.count(games_in_period, "games_in_period")
        if n and k * n > 700:
            k = 700 // n
    return k


def _change_hundredths(rating: float, games: Sequence[Game], rules: str) -> int:
    """``Σ(W − PD)`` in hundredths, exactly (PD has two decimals, W is a half)."""
    return sum(round(g.score * 100) - pd_hundredths(capped_difference(rating, g.opponent, rules))
               for g in games)


def rating_change(rating: float, games: Sequence[Game], k: float, rules: str = "2025") -> float:
    """``K × Σ(W − PD)`` over the games, unrounded (§8.3.2). ``K`` is a whole number from
    1 to 40: the values FIDE gives (10, 20, 40; 15, 25, 30 before 2014) and those the
    700 rule cuts them to.

    >>> rating_change(2649, [(2149, 1)], k=10), rating_change(2650, [(2150, 1)], k=10)
    (0.8, 0.4)
    """
    own = checks.rating(rating, "rating")
    factor = checks.fide_k(k)
    return factor * _change_hundredths(own, checks.games(games), check_rules(rules)) / 100


def round_half_away(x: float) -> int:
    """Round to a whole number, 0.5 away from zero (§8.3.4): −2.50 → −3.

    The number is rounded as written (its shortest repr), so 2.675-style float noise
    does not move it.

    >>> round_half_away(-2.5), round_half_away(2.5), round_half_away(2.49), round_half_away(-0.4)
    (-3, 3, 2, 0)
    """
    number = checks.number(x, "x")
    return int(Decimal(repr(number)).quantize(Decimal(1), ROUND_HALF_UP))


def new_rating(rating: float, games: Sequence[Game], k: float, rules: str = "2025") -> int | NoValue:
    """``R + round(K × Σ(W − PD))``, the change rounded once per call (**Decision** §3.4).

    A result below 1400 is not kept: the answer is a :class:`NoValue` that gives the
    number and says the player is unrated on the next list (§7.2.1). No games leave
    the rating as it is.

    >>> new_rating(1402, [(1700, 0)], k=40)
    NoValue(reason='unrated: 1396 is below 1400, the player is shown as unrated on the next list')
    """
    own = int(checks.in_domain(rating, checks.WHOLE_RATING, "rating"))
    result = own + round_half_away(rating_change(own, games, k, rules))
    if result < RATING_FLOOR:
        return NoValue(f"unrated: {result} is below {RATING_FLOOR}, "
                       "the player is shown as unrated on the next list")
    return result


@dataclass(frozen=True)
class FirstRating:
    """The steps of a first rating (§8.2): ``Ra``, ``p``, ``dp``, ``Ra + dp`` and ``Ru``."""

    games: int
    score: float
    average: float        # Ra, with the two hypothetical 1800 opponents
    p: float              # (W + 1) / (n + 2) rounded half-up to two decimals
    dp: int
    unrounded: float      # Ra + dp
    rating: int           # rounded half-up, at most 2200 (may be below 1400: not published)


def first_rating(games: Sequence[Game]) -> FirstRating | NoValue:
    """First rating of an unrated player with every intermediate value (§7.1.4, §8.2).

    ``Ra = (ΣRi + 2 × 1800) / (n + 2)``, ``p = (W + 1) / (n + 2)`` rounded half-up to two
    decimals, ``Ru = Ra + dp(p)`` rounded half-up, at most 2200. Needs 5 games against
    rated opponents; a zero score is disregarded.

    >>> f = first_rating([(1902, 1), (1877, 0.5), (1884, 0.5), (2012, 0), (1832, 1)])
    >>> round(f.average, 2), f.p, f.dp, f.rating
    (1872.43, 0.57, 50, 1922)
    """
    played = checks.games(games)
    score = sum(g.score for g in played)
    if played and score == 0:
        return NoValue("no first rating: a zero score in the first event is disregarded")
    if len(played) < _MIN_FIRST_GAMES:
        missing = _MIN_FIRST_GAMES - len(played)
        return NoValue(f"no first rating: {len(played)} games against rated opponents, "
                       f"{missing} more needed (at least {_MIN_FIRST_GAMES})")
    n = len(played)
    average = Fraction(sum(Fraction(g.opponent) for g in played) + 2 * _HYPOTHETICAL, n + 2)
    hundredths = half_up((Fraction(score) + 1) * 100 / (n + 2))
    difference = dp_hundredths(hundredths)
    unrounded = average + difference
    return FirstRating(n, score, float(average), hundredths / 100, difference,
                       float(unrounded), min(half_up(unrounded), FIRST_RATING_CAP))


def initial_rating(games: Sequence[Game]) -> int | NoValue:
    """First rating (§3.5), or a :class:`NoValue` that says why there is none.

    >>> initial_rating([(1902, 1), (1877, 0.5), (1884, 0.5), (2012, 0), (1832, 1)])
    1922
    >>> initial_rating([(1900, 1), (1900, 1), (1900, 0.5)])
    NoValue(reason='no first rating: 3 games against rated opponents, 2 more needed (at least 5)')
    """
    found = first_rating(games)
    if isinstance(found, NoValue):
        return found
    if found.rating < RATING_FLOOR:
        return NoValue(f"no first rating: {found.rating} is below {RATING_FLOOR}, not published")
    return found.rating
