"""FIDE title norms: rating performance and the event's composition (docs/RULES.md §3.7).

Title Regulations 1.4.6–1.4.9. Symbols: ``Ra`` the average of the (adjusted) opponents'
ratings rounded half-up, ``p`` the score as a whole percent rounded half-up,
``Rp = Ra + dp(p)`` with no cap.

>>> games = [(2450, 0.5)] * 9
>>> norm(games, "IM").text
'IM norm (titles and federations not checked)'
>>> norm(games, "GM").text
'no GM norm: performance 2450 < 2600'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import checks, fide
from .errors import RatingError
from .results import NO_GAMES, NoValue, refusal

__all__ = ["TITLES", "NormVerdict", "norm", "check_title"]

TITLES = ("GM", "IM", "WGM", "WIM")
_FLOOR = {"GM": 2200, "IM": 2050, "WGM": 2000, "WIM": 1850}           # 1.4.6 b)
_MIN_PERFORMANCE = {"GM": 2600, "IM": 2450, "WGM": 2400, "WIM": 2250}  # 1.4.8
_MIN_AVERAGE = {"GM": 2380, "IM": 2230, "WGM": 2180, "WIM": 2030}      # 1.4.8 a)
_UNRATED = 1400                                                        # 1.4.6 d)
_MIN_GAMES = 9
_MIN_PERCENT = 35
# Titles that satisfy "holding the title sought or higher" (1.4.5 b–e).
_SOUGHT_OR_HIGHER = {
    "GM": {"GM"}, "IM": {"GM", "IM"}, "WGM": {"GM", "IM", "WGM"},
    "WIM": {"GM", "IM", "WGM", "WIM"},
}
# Title-holders for the 50 % rule: every FIDE title but CM and WCM (1.4.5 a).
_TITLE_HOLDERS = {"GM", "IM", "WGM", "WIM", "FM", "WFM"}


@dataclass(frozen=True)
class NormVerdict:
    """Whether a result makes a norm, the numbers it was judged by and every failed condition.

    ``performance`` is ``Rp``, ``average`` is ``Ra`` (both after the floor and the 1400 for
    unrated opponents), ``score`` the points, ``reasons`` the failed conditions and
    ``text`` the verdict as a cell shows it.
    """

    achieved: bool
    performance: int
    average: int
    games: int
    score: float
    reasons: tuple[str, ...]
    text: str


def check_title(title: Any) -> str:
    """One of :data:`TITLES`, case-insensitive."""
    return checks.choice(title, "title", TITLES)


def _paired(values: Sequence[Any] | None, count: int, argument: str,
            check: Callable[[Any, str, int | str | None], str | None]) -> list[str | None] | None:
    """An optional per-opponent column of titles or federations; blanks become ``None``."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise refusal(argument, values, "is not a list")
    if len(values) != count:
        raise RatingError(f"{argument}: {len(values)} values but there are {count} games; "
                          "they are paired by position", argument=argument)
    return [check(value, argument, item) for item, value in enumerate(values, start=1)]


def _adjusted_ratings(opponents: Sequence[float | None], floor: int) -> list[float]:
    """Unrated opponents as 1400, then only the single lowest below the floor raised (1.4.6)."""
    ratings = [_UNRATED if r is None else r for r in opponents]
    lowest = min(range(len(ratings)), key=ratings.__getitem__)
    if ratings[lowest] < floor:
        ratings[lowest] = floor
    return ratings


def _composition(title: str, n: int, titles: list[str | None] | None,
                 federations: list[str | None] | None, own: str | None) -> list[str]:
    """Failed composition conditions (1.4.3–1.4.5), checked only for the data given."""
    failed = []
    if titles is not None:
        holders = sum(1 for t in titles if t in _TITLE_HOLDERS)
        if 2 * holders < n:
            failed.append(f"title-holders {holders} of {n} < 50 %")
        sought = sum(1 for t in titles if t in _SOUGHT_OR_HIGHER[title])
        if sought < 3:
            failed.append(f"{title} opponents {sought} < 3")
        if 3 * sought < n:
            failed.append(f"{title} opponents {sought} of {n} < 1/3")
    if federations is not None:
        counts = Counter(f for f in federations if f is not None)
        if own is not None:
            home = counts.get(own, 0)
            if 5 * home > 3 * n:
                failed.append(f"own federation {home} of {n} > 3/5")
            others = len([f for f in counts if f != own])
            if others < 2:
                failed.append(f"other federations {others} < 2")
        for name, count in sorted(counts.items()):
            if 3 * count > 2 * n:
                failed.append(f"federation {name} {count} of {n} > 2/3")
    return failed


def _unchecked(titles: list[str | None] | None, federations: list[str | None] | None,
               own: str | None) -> str:
    """The composition conditions that could not be checked for want of data, as words."""
    missing = []
    if titles is None:
        missing.append("titles")
    if federations is None:
        missing.append("federations")
    elif own is None:
        missing.append("own federation")
    return " and ".join(missing)


def norm(
    games: Sequence[tuple[float | None, float]],
    title: str = "GM",
    opponent_titles: Sequence[str | None] | None = None,
    opponent_federations: Sequence[str | None] | None = None,
    federation: str | None = None,
) -> NormVerdict | NoValue:
    """Judge a title norm from ``(opponent rating or None, score)`` pairs (docs/RULES.md §3.7).

    Rating conditions always: ``Rp`` and ``Ra`` at least the title's minimum, at least 9
    games, at least 35 % (``p`` as rounded for ``dp``). Composition conditions only where
    ``opponent_titles`` / ``opponent_federations`` (and the player's ``federation``) are
    given, fractions compared exactly: at least 50 % title-holders (not CM/WCM), at least
    1/3 and at least 3 holding the title sought or higher, at most 3/5 from the player's
    federation, at most 2/3 from one federation, at least two other federations. A norm
    judged without some of these data says which were not checked, e.g.
    ``GM norm (titles and federations not checked)``; a result that fails is a failure
    whatever data is missing.
    No games give :data:`~chessrating.results.NO_GAMES`.

    >>> v = norm([(2380, 0.5)] * 8 + [(2100, 0)], "GM")
    >>> v.average, v.performance, v.games, v.score
    (2360, 2317, 9, 4.0)
    >>> v.text
    'no GM norm: performance 2317 < 2600; average 2360 < 2380'
    """
    chosen = check_title(title)
    played = [(g.opponent, g.score) for g in checks.games(games, unrated_ok=True)]
    titles = _paired(opponent_titles, len(played), "opponent_titles", checks.title)
    federations = _paired(opponent_federations, len(played), "opponent_federations", checks.federation)
    own = checks.federation(federation, "federation")
    if not played:
        return NO_GAMES
    n = len(played)
    score = sum(s for _, s in played)
    ratings = _adjusted_ratings([r for r, _ in played], _FLOOR[chosen])
    average = fide.half_up(sum(Fraction(r) for r in ratings) / n)
    percent = fide.percent_half_up(score, n)
    rp = average + fide.dp_hundredths(percent)
    failed = []
    if rp < _MIN_PERFORMANCE[chosen]:
        failed.append(f"performance {rp} < {_MIN_PERFORMANCE[chosen]}")
    if average < _MIN_AVERAGE[chosen]:
        failed.append(f"average {average} < {_MIN_AVERAGE[chosen]}")
    if n < _MIN_GAMES:
        failed.append(f"{n} games < {_MIN_GAMES}")
    if percent < _MIN_PERCENT:
        failed.append(f"score {percent} % < {_MIN_PERCENT} %")
    failed += _composition(chosen, n, titles, federations, own)
    if failed:
        text = f"no {chosen} norm: {'; '.join(failed)}"
    else:
        unchecked = _unchecked(titles, federations, own)
        text = f"{chosen} norm" + (f" ({unchecked} not checked)" if unchecked else "")
    return NormVerdict(not failed, rp, average, n, score, tuple(failed), text)
