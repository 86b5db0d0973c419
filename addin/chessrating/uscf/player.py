"""US Chess ratings of one player: effective games, K, bonus, the special formula, floors.

The rules are those of docs/RULES.md §4 (Glickman & Doan, "The US Chess Rating System").
Symbols: ``R`` the player's rating, ``N`` games rated so far, ``N′`` effective games,
``m`` games in the event, ``S`` points scored, ``Ri`` the opponents' ratings, ``R0`` the
prior rating, ``R0′``/``S′`` the prior and score adjusted for an all-wins or all-losses
record, ``B`` the bonus threshold.

A ``Game`` handed to these functions is a played game against an opponent with a rating:
``Game(opponent_rating, score, opponent_id)``; plain ``(rating, score)`` tuples work too.

>>> round(effective_games(1700, 30), 2)
20.01
>>> round(special_rating(1500, 6, [Game(1400, 1), Game(1550, 0), Game(1650, 0.5)]), 2)
1511.11
>>> floor(1941), floor(1999.51), floor(1388)
(1700.0, 1800.0, 100.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import checks
from ..elo import logistic
from ..errors import RatingError
from ..results import NO_GAMES, Game, NoValue
from .special import EPSILON, SPECIAL_CAP, adjust_prior, objective, solve, rate_special

__all__ = [
    "EPSILON", "SPECIAL_CAP", "ABSOLUTE_FLOOR", "LIFE_MASTER_FLOOR", "UNRATED_START", "ESTABLISHED_AFTER",
    "effective_games", "uses_special_formula", "k_factor", "bonus", "special_objective",
    "special_rating", "linear_performance", "first_rating", "floor", "new_rating",
    "effective_for", "bonus_eligible", "rate_standard", "ABSOLUTE_FLOOR_CAP", "ABSOLUTE_FLOORS", "absolute_floor",
]

ABSOLUTE_FLOOR = 100.0    # no rating below it (§4.5)
ABSOLUTE_FLOOR_CAP = 150.0  # the personal absolute floor grows to this at most (§4.5)
# The personal absolute floor a player had before an event: 100 to 150.
ABSOLUTE_FLOORS = checks.Domain("a personal absolute floor", ABSOLUTE_FLOOR, ABSOLUTE_FLOOR_CAP)
LIFE_MASTER_FLOOR = 2200.0
UNRATED_START = 1300.0    # first rating when no age is known (§4.5, Decision)
ESTABLISHED_AFTER = 25    # a rating on more than 25 games is established


# ---------------------------------------------------------------- effective games and K

def effective_for(rating: float | None, games: int) -> float:
    if rating is None:
        return 0.0
    ceiling = 50.0 if rating > 2355 else 50.0 / math.sqrt(0.662 + 0.00000739 * (2569.0 - rating) ** 2)
    return min(float(games), ceiling)


def effective_games(rating: float | None, games: int) -> float:
    """``N′ = min(N, N*)``, with ``N* = 50 / √(0.662 + 0.00000739 (2569 − R)²)`` for
    ``R ≤ 2355`` and 50 above (§4.1). An unrated player (``rating`` None) has ``N′ = 0``.

    >>> round(effective_games(1700, 30), 4), effective_games(1700, 8), effective_games(2400, 80)
    (20.0118, 8.0, 50.0)
    >>> effective_games(None, 0)
    0.0
    """
    rating = checks.optional_rating(rating, "rating")
    count = checks.count(games)
    checks.games_need_a_rating(rating, count)
    return effective_for(rating, count)


def uses_special_formula(games: int, record: str | None = None) -> bool:
    """Whether the special formula (§4.4) rates the player: ``N ≤ 8``, or every earlier
    game won (``record`` "W") or lost ("L"); otherwise the standard formula (§4.3).

    >>> uses_special_formula(8), uses_special_formula(9), uses_special_formula(40, "W")
    (True, False, True)
    """
    games = checks.count(games)
    return games <= 8 or checks.record(record) is not None


def _k(rating: float | None, effective: float, event_games: int, dual_rated: bool) -> float:
    if dual_rated and rating is not None and rating > 2200:
        if rating >= 2500:
            return 200.0 / (effective + event_games)
        return 800.0 * (6.5 - 0.0025 * rating) / (effective + event_games)
    return 800.0 / (effective + event_games)


def k_factor(rating: float | None, games: int, event_games: int, dual_rated: bool = False) -> float:
    """``K = 800 / (N′ + m)`` (§4.3). In a dual-rated event (a Regular rating updated at
    30–65 minutes) ``K = 800 (6.5 − 0.0025 R) / (N′ + m)`` for ``2200 < R < 2500`` and
    ``200 / (N′ + m)`` from 2500; the two agree with the plain K at 2200 and meet at 2500.

    >>> round(k_factor(2400, 60, 4), 2), round(k_factor(2400, 60, 4, dual_rated=True), 2)
    (14.81, 7.41)
    """
    rating = checks.optional_rating(rating, "rating")
    games = checks.count(games)
    event_games = checks.count(event_games, "event_games")
    dual_rated = checks.flag(dual_rated, "dual_rated")
    effective = effective_for(rating, games)
    if effective + event_games == 0:
        raise RatingError("event_games: 0 with no earlier games leaves no K (N′ + m = 0)", argument="event_games")
    return _k(rating, effective, event_games, dual_rated)


# ---------------------------------------------------------------- standard formula and bonus

def bonus_eligible(opponent_ids: Sequence[object]) -> bool:
    """m ≥ 3, no opponent met more than twice, and in a 3-game event none more than once.
    An id of ``None`` is an opponent of its own."""
    if len(opponent_ids) < 3:
        return False
    limit = 1 if len(opponent_ids) == 3 else 2
    met: dict[object, int] = {}
    for opponent_id in opponent_ids:
        if opponent_id is not None:
            met[opponent_id] = met.get(opponent_id, 0) + 1
            if met[opponent_id] > limit:
                return False
    return True


def _bonus_amount(change: float, event_games: int, threshold: float) -> float:
    return max(0.0, change - threshold * math.sqrt(max(event_games, 4)))


def rate_standard(rating: float, effective: float, opponents: Sequence[float], score: float,
              eligible: bool, dual_rated: bool, threshold: float) -> float:
    """``R + K(S − E) + bonus`` (§4.3) without validation; used by the event procedure too."""
    m = len(opponents)
    expected = sum(logistic(rating, opponent) for opponent in opponents)
    change = _k(rating, effective, m, dual_rated) * (score - expected)
    return rating + change + (_bonus_amount(change, m, threshold) if eligible else 0.0)


def bonus(rating: float | None, games: int, event: Sequence[Game], dual_rated: bool = False,
          bonus_threshold: float = 10.0, *, record: str | None = None) -> float:
    """Bonus points ``max(0, K(S − E) − B √max(m, 4))`` of the standard formula (§4.3).

    Eligible when ``m ≥ 3``, no opponent is met more than twice and, in a 3-game event, none
    more than once. Opponents are told apart by ``Game.opponent_id``; a game without an id
    counts as a distinct opponent. ``B = 10`` for events from 1 January 2025 (14 from June
    2017, 12 from February 2023). The special formula has no bonus: an unrated player, or
    one rated by the special formula (``games ≤ 8`` or a ``record``), gets 0.

    >>> event = [Game(2000, 1, "a"), Game(2000, 1, "b"), Game(2000, 1, "c"), Game(2000, 1, "d")]
    >>> round(bonus(1800, 50, event), 2)
    72.48
    >>> bonus(1800, 50, event[:2] + [Game(2000, 1, "a"), Game(2000, 1, "a")])
    0.0
    """
    rating = checks.optional_rating(rating, "rating")
    games = checks.count(games)
    event = checks.games(event, "event")
    threshold = checks.bonus_threshold(bonus_threshold)
    record = checks.record(record)
    dual_rated = checks.flag(dual_rated, "dual_rated")
    checks.record_needs_games(record, games)
    if rating is None or games <= 8 or record is not None:
        return 0.0
    if not bonus_eligible([game.opponent_id for game in event]):
        return 0.0
    m = len(event)
    expected = sum(logistic(rating, game.opponent) for game in event)
    change = _k(rating, effective_for(rating, games), m, dual_rated) * (sum(g.score for g in event) - expected)
    return _bonus_amount(change, m, threshold)


# ---------------------------------------------------------------- special formula

def special_objective(rating: float, prior: float, effective: float, event: Sequence[Game],
                      record: str | None = None) -> float:
    """``f(M) = N′ PWe(M, R0′) + Σ PWe(M, Ri) − S′`` of §4.4 at ``M = rating``, with
    ``PWe(M, Ri) = 0.5 + (M − Ri)/800`` kept between 0 and 1; the special rating is where
    it is 0.

    >>> special_objective(1500, 1500, 5, [Game(1000, 1)])
    0.0
    """
    rating = checks.number(rating, "rating")
    prior = checks.rating(prior, "prior")
    effective = checks.in_domain(effective, checks.EFFECTIVE_GAMES, "effective")
    games = checks.games(event, "event")
    adjusted_prior, adjusted_score = adjust_prior(
        prior, effective, sum(g.score for g in games), checks.record(record))
    return objective(rating, adjusted_prior, effective, [g.opponent for g in games], adjusted_score)


def special_rating(prior: float, effective: float, event: Sequence[Game], record: str | None = None,
                   unadjusted_prior: float | None = None) -> float:
    """The special formula of §4.4: the rating ``M`` with ``f(M) = 0``, found by the
    document's own procedure (not the closed form, which fails when ``N′ = 0``).

    ``prior`` is ``R0`` (for an unrated player the first-rating estimate), ``effective`` is
    ``N′``, ``record`` "W"/"L" when every earlier game was won/lost (``R0′ = R0 ∓ 400``).
    Steps: (1) start at ``R0′``; (2) while ``f(M) > ε`` step down towards the next knot below
    (secant, or jump to the knot where ``f`` is flat); (3) while ``f(M) < −ε`` the same
    upwards; (4) if no opponent and not ``R0′`` lies within 400 of ``M``, ``M`` is inside a
    flat stretch of zeros between two knots: take ``R0`` if it lies there, else the nearer
    end. Knots are ``R0′ ± 400`` (kept when ``N′ = 0``) and ``Ri ± 400``; ``ε = 1e-7``.

    Then a win never lowers the rating and a loss never raises it, read for a whole event
    as: an event of wins only never ends below ``R0``, one of losses only never above ``R0``
    (the procedure already gives this; the rule guards it). Last, at most 2700 — the cap
    applies even to an ``R0`` above 2700. No games: ``prior`` unchanged. ``unadjusted_prior``
    is the ``R0`` of step 4 and of the win/loss rule when it differs from ``prior``.

    >>> special_rating(1500, 5, [Game(1000, 1)])      # a win that the closed form would lower
    1500.0
    >>> round(special_rating(1300, 0, [Game(1400, 1), Game(1600, 0.5), Game(1800, 0)]), 6)
    1600.0
    >>> special_rating(2600, 3, [Game(2600, 1), Game(2600, 1)])
    2700.0
    """
    prior = checks.rating(prior, "prior")
    effective = checks.in_domain(effective, checks.EFFECTIVE_GAMES, "effective")
    games = checks.games(event, "event")
    record = checks.record(record)
    tie_break = checks.optional_rating(unadjusted_prior, "unadjusted_prior")
    return rate_special(prior, effective, [g.opponent for g in games], [g.score for g in games],
                        record, tie_break)


def linear_performance(games: Sequence[Game], *, prior: float | None = None) -> float | NoValue:
    """US Chess linear performance (§3.6): the special-formula solution with no prior games
    (``N′ = 0``), i.e. where ``Σ PWe(M, Ri) = S``.

    **Decision**: ``R0`` (start and tie-break) is ``prior`` when given, else the average of
    the opponents' ratings, so a perfect score gives the highest opponent + 400 and a zero
    score the lowest − 400. The 2700 cap and the win/loss rule limit a rating, not a
    performance, and are not applied. No games: ``NO_GAMES``.

    >>> linear_performance([Game(1400, 1), Game(1600, 0.5), Game(1800, 0)])
    1600.0
    >>> linear_performance([Game(1500, 1), Game(1700, 1)]), linear_performance([])
    (2100.0, NoValue(reason='no games'))
    """
    played = checks.games(games, "games")
    prior = checks.optional_rating(prior, "prior")
    if not played:
        return NO_GAMES
    opponents = [g.opponent for g in played]
    start = prior if prior is not None else sum(opponents) / len(opponents)
    return solve(start, 0.0, opponents, sum(g.score for g in played), start)


# ---------------------------------------------------------------- first ratings and floors

def first_rating(age: float | None = None) -> float:
    """The first-rating estimate (§4.5): 100 under age 2, ``50 × age`` from 2 to 26, 1300
    above. **Decision**: no age → 1300. It only breaks ties; the first event sets the rating.

    >>> first_rating(1.5), first_rating(3), first_rating(12), first_rating(30), first_rating(None)
    (100.0, 150.0, 600.0, 1300.0, 1300.0)
    """
    if age is None:
        return UNRATED_START
    years = checks.age(age)
    return ABSOLUTE_FLOOR if years < 2 else min(50.0 * years, UNRATED_START)


def floor(peak_rating: float | None, life_master: bool = False, games: int | None = None) -> float:
    """The rating floor (§4.5): 100 for everyone; an established player's peak
    (``round(peak) − 200``, rounded down to the hundred) from 1200 to 2100; 2200 for an
    Original Life Master. With ``games`` given, a player on 25 games or fewer is not
    established and has no peak floor. Half points of the peak round up.

    >>> floor(1941), floor(1999.51), floor(1388), floor(2600), floor(None, life_master=True)
    (1700.0, 1800.0, 100.0, 2100.0, 2200.0)
    >>> floor(1941, games=25)
    100.0
    """
    peak = checks.optional_rating(peak_rating, "peak_rating")
    life_master = checks.flag(life_master, "life_master")
    if games is not None:
        games = checks.count(games)
    result = ABSOLUTE_FLOOR
    if peak is not None and (games is None or games > ESTABLISHED_AFTER):
        stepped = math.floor((math.floor(peak + 0.5) - 200) / 100) * 100
        if stepped >= 1200:
            result = float(min(stepped, 2100))
    if life_master:
        result = max(result, LIFE_MASTER_FLOOR)
    return result


def absolute_floor(scores: Sequence[float], before: float | None = None,
                   argument: str = "absolute_floor", item: str | None = None) -> float:
    """The personal absolute floor after an event (§4.5): ``min(100 + 4 NW + 2 ND + NR,
    150)``, counted from ``before`` (the player's personal absolute floor before the
    event; ``None``: 100) with this event's rated wins, draws and, if he completed three
    rated games or more in it, the event itself. ``scores`` are the event's rated games.

    **Decision**: the event being rated counts (an unrated player losing his three games
    of his first event is rated 101, as US Chess published). A blank ``before`` counts
    the event alone: exact for an unrated player, and never above a rated player's floor.

    >>> absolute_floor([0, 0, 0]), absolute_floor([1, 0.5]), absolute_floor([1] * 9, 140)
    (101.0, 106.0, 150.0)
    """
    start = ABSOLUTE_FLOOR if before is None else checks.in_domain(before, ABSOLUTE_FLOORS, argument, item)
    wins = sum(1 for score in scores if score == 1.0)
    draws = sum(1 for score in scores if score == 0.5)
    completed = 1.0 if len(scores) >= 3 else 0.0
    return min(start + 4.0 * wins + 2.0 * draws + completed, ABSOLUTE_FLOOR_CAP)


# ---------------------------------------------------------------- one player's new rating

def new_rating(rating: float | None, games: int, event: Sequence[Game], age: float | None = None,
               record: str | None = None, peak_rating: float | None = None, dual_rated: bool = False,
               bonus_threshold: float = 10.0, life_master: bool = False,
               personal_floor: float | None = None) -> float | NoValue:
    """The rating after an event, one pass against the opponents' pre-event ratings, unrounded.

    Unrated (``rating`` None, ``games`` 0): special formula with ``R0 = first_rating(age)``
    and ``N′ = 0``. Rated: special formula if :func:`uses_special_formula`, else
    ``R + K(S − E) + bonus`` (§4.3). Then the floor: the peak is the larger of
    ``peak_rating`` and, for an established player (more than 25 games), ``rating``; see
    :func:`floor`; and the personal absolute floor, :func:`absolute_floor` from
    ``personal_floor`` (the one before the event; ``None``: 100) and the games given. An
    empty event leaves ``rating`` as it is (an unrated player then has none: ``NO_GAMES``).

    >>> round(new_rating(1500, 6, [Game(1400, 1), Game(1550, 0), Game(1650, 0.5)]), 2)
    1511.11
    >>> round(new_rating(1700, 30, [Game(1700, 1)]), 4)
    1719.0369
    >>> new_rating(1705, 40, [Game(2000, 0)] * 4, peak_rating=1941)
    1700.0
    """
    rating = checks.optional_rating(rating, "rating")
    games = checks.count(games)
    played = checks.games(event, "event")
    start = first_rating(age)
    record = checks.record(record)
    peak = checks.optional_rating(peak_rating, "peak_rating")
    threshold = checks.bonus_threshold(bonus_threshold)
    dual_rated = checks.flag(dual_rated, "dual_rated")
    life_master = checks.flag(life_master, "life_master")
    checks.games_need_a_rating(rating, games)
    checks.record_needs_games(record, games)
    if not played:
        return NO_GAMES if rating is None else rating
    opponents = [g.opponent for g in played]
    scores = [g.score for g in played]
    if rating is None:
        result = rate_special(start, 0.0, opponents, scores, None)
    elif games <= 8 or record is not None:
        result = rate_special(rating, effective_for(rating, games), opponents, scores, record)
    else:
        eligible = bonus_eligible([g.opponent_id for g in played])
        result = rate_standard(rating, effective_for(rating, games), opponents, sum(scores),
                           eligible, dual_rated, threshold)
    if rating is not None and games > ESTABLISHED_AFTER:
        peak = rating if peak is None else max(peak, rating)
    return max(result, floor(peak, life_master, games),
               absolute_floor(scores, personal_floor, "personal_floor"))
