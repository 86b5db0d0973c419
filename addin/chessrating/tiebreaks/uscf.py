"""US Chess tie-breaks, rule 34E of the Official Rules of Chess (docs/RULES.md §6.4).

Opponents' scores are *adjusted*: each of an opponent's unplayed rounds (bye, forfeit,
absence) counts as a draw (½). A player's own unplayed round counts as an opponent with
an adjusted score of 0, so the median methods drop it first from a plus score.

>>> from chessrating.tiebreaks.event import from_rounds
>>> event = from_rounds([[2, 3, None], [1, None, 3], [None, 1, 2]],
...                     [["1", "1", "B"], ["0", "B", "1"], ["H", "0", "0"]])
>>> solkoff(event), modified_median(event), cumulative(event)
([2.0, 3.0, 4.0], [2.0, 3.0, 1.5], [5.0, 2.0, 1.0])
"""

from __future__ import annotations

from collections.abc import Callable

from ..results import NoValue
from .event import PLAYED, Event, Round

__all__ = ["CODES", "adjusted_scores", "solkoff", "median", "modified_median", "median_of", "cumulative",
           "opposition_cumulative", "kashdan", "most_blacks"]

Value = float | int | NoValue


def _entries(event: Event, i: int) -> list[Round]:
    return [r for r in event.records[i] if r is not None]


def adjusted_scores(event: Event) -> list[float]:
    """Each player's score with every unplayed round counted as a draw."""
    return [sum(r.points if r.kind == PLAYED else 0.5 for r in _entries(event, i))
            for i in range(event.size)]


def _opponent_scores(event: Event, i: int, adjusted: list[float]) -> list[float]:
    """One value per round of player i: the opponent's adjusted score, 0 where unplayed."""
    return [adjusted[r.opponent] if r.kind == PLAYED and r.opponent is not None else 0.0
            for r in _entries(event, i)]


def solkoff(event: Event) -> list[Value]:
    """34E: the sum of the opponents' adjusted scores."""
    adjusted = adjusted_scores(event)
    return [sum(_opponent_scores(event, i, adjusted)) for i in range(event.size)]


def median_of(opponent_scores: list[float], points: float, rounds: int, modified: bool) -> float:
    """The (modified) median of one player's opponents' adjusted scores.

    >>> median_of([1, 2, 3, 3.5, 4], 4, 5, modified=True)   # a plus score drops the lowest
    12.5
    >>> median_of([1, 2, 3, 3.5, 4], 2.5, 5, modified=True), median_of([1, 2, 3, 3.5, 4], 2, 5, True)
    (8.5, 9.5)
    """
    values = sorted(opponent_scores)
    drop = 2 if rounds >= 9 else 1   # nine rounds or more: two at each end
    half = 0.5 * rounds
    low = high = drop
    if modified:
        low = 0 if points < half else drop
        high = 0 if points > half else drop
    return float(sum(values[low:len(values) - high]))


def _median(event: Event, modified: bool) -> list[Value]:
    adjusted = adjusted_scores(event)
    return [median_of(_opponent_scores(event, i, adjusted), sum(r.points for r in _entries(event, i)),
                      event.rounds, modified) for i in range(event.size)]


def median(event: Event) -> list[Value]:
    """34E: Solkoff without the highest and the lowest (two of each from nine rounds)."""
    return _median(event, modified=False)


def modified_median(event: Event) -> list[Value]:
    """34E: a plus score drops the lowest opponent, a minus score the highest, exactly
    half both (two from nine rounds)."""
    return _median(event, modified=True)


def _cumulative(event: Event, i: int) -> float:
    running = total = 0.0
    for r in _entries(event, i):
        running += r.points
        total += running
    # points scored without playing do not count: 1 a forfeit win or full-point bye, ½ a half-point bye
    return total - sum(r.points for r in _entries(event, i) if r.kind != PLAYED)


def cumulative(event: Event) -> list[Value]:
    """34E3: the sum of the running scores, less the points of each round won without
    playing (1 for a forfeit win or a full-point bye, ½ for a half-point bye)."""
    return [_cumulative(event, i) for i in range(event.size)]


def opposition_cumulative(event: Event) -> list[Value]:
    """34E: the sum of the cumulative scores of the opponents played."""
    each = [_cumulative(event, i) for i in range(event.size)]
    return [sum(each[r.opponent] for r in _entries(event, i) if r.kind == PLAYED and r.opponent is not None)
            for i in range(event.size)]


_KASHDAN = {1.0: 4, 0.5: 2, 0.0: 1}


def kashdan(event: Event) -> list[Value]:
    """34E7: 4 points a win, 2 a draw, 1 a loss, 0 an unplayed game."""
    return [sum(_KASHDAN[r.points] for r in _entries(event, i) if r.kind == PLAYED)
            for i in range(event.size)]


def most_blacks(event: Event) -> list[Value]:
    """34E: games played with Black."""
    return [sum(1 for r in _entries(event, i) if r.kind == PLAYED and r.black) for i in range(event.size)]


CODES: dict[str, Callable[[Event], list[Value]]] = {
    "MODMED": modified_median, "MEDIAN": median, "SOLKOFF": solkoff, "CUMULATIVE": cumulative,
    "OPPCUM": opposition_cumulative, "KASHDAN": kashdan, "BLACKS": most_blacks,
}
