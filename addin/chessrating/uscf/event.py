"""A whole US Chess event rated in the five steps of docs/RULES.md §4.6, and the pairings read
from a crosstable or from round-by-round opponent numbers.

Pairings are played games ``(i, j, score of i)`` between players numbered from 0, each
game once. Forfeits, byes and games not played yet are not pairings.

>>> table = [[None, "1", "1"], ["0", None, "1"], [None, "0", None]]
>>> pairings_from_crosstable(table)
[(0, 1, 1.0), (0, 2, 1.0), (1, 2, 1.0)]
>>> [round(r, 2) for r in rate_event([1600, None, None], [40, 0, 0], [(0, 1, 1), (1, 2, 1), (0, 2, 0.5)],
...                                  ages=[None, None, 20])]
[1593.35, 1419.45, 1281.95]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import checks
from ..errors import BlockCell, Place, RatingError
from ..results import NO_GAMES, NoValue, Result, describe, player_place, read_result, refusal
from ..tournament import Tournament
from .player import (
    ABSOLUTE_FLOOR, ABSOLUTE_FLOORS, ESTABLISHED_AFTER, absolute_floor, bonus_eligible, effective_for, first_rating,
    floor, rate_special, rate_standard,
)

__all__ = ["rate_event", "pairings_from_crosstable", "pairings_from_rounds", "pairings_from_tournament"]

Pairing = tuple[int, int, float]


def _check_pairings(pairings: Any, count: int) -> list[Pairing]:
    if isinstance(pairings, (str, bytes)) or not isinstance(pairings, Sequence):
        raise refusal("pairings", pairings, "is not a list of games")
    checked = []
    for number, pairing in enumerate(pairings, start=1):
        where = f" (pairing {number})"
        if not isinstance(pairing, (tuple, list)) or len(pairing) != 3:
            raise RatingError(f"pairings: {describe(pairing)} is not (player, opponent, score){where}",
                              argument="pairings", value=pairing)
        player, opponent, score = pairing
        for value in (player, opponent):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
                raise RatingError(f"pairings: player {describe(value)} is not 0 to {count - 1}{where}",
                                  argument="pairings")
        if player == opponent:
            raise RatingError(f"pairings: player {player} is paired against himself{where}",
                              argument="pairings")
        checked.append((player, opponent, checks.game_score(score, "pairings score", f"pairing {number}")))
    return checked


def rate_event(ratings: Sequence[float | None], games: Sequence[int], pairings: Sequence[Pairing],
               ages: Sequence[float | None] | None = None, records: Sequence[str | None] | None = None,
               dual_rated: bool = False, bonus_threshold: float = 10.0,
               peak_ratings: Sequence[float | None] | None = None,
               life_masters: Sequence[bool | None] | None = None,
               absolute_floors: Sequence[float | None] | None = None) -> list[float | NoValue]:
    """Post-event ratings by the five steps of §4.6, unrounded.

    1. Unrated players (rating ``None``, 0 earlier games) start from ``first_rating(age)``.
    2. ``N′`` for everyone (0 for the unrated).
    3. Each unrated player gets a special rating with ``N′ = 1`` against the opponents'
       pre-event ratings (an unrated opponent: his step-1 value); it serves only as his
       rating as an opponent in step 4.
    4. Everyone is rated against the pre-event ratings (unrated opponents: step 3): the
       special formula with ``N′ = 0`` for the unrated, else as :func:`uscf.new_rating`
       chooses (special or standard with bonus; opponents told apart by player number).
    5. The same again against the opponents' step-4 ratings, each player's own prior and
       ``N′`` unchanged. Step 5 is the result.

    Every step's result is raised to 100 if below. The floors of §4.5 (:func:`uscf.floor`:
    the peak floor of an established player, more than 25 earlier games, and 2200 for an
    Original Life Master) apply to the step-5 result only: the step-4 ratings the
    opponents see stay unfloored. For an established player the peak is the larger of
    ``peak_ratings`` and his pre-event rating; a blank peak gives no peak floor (100 and
    the Life Master floor still apply). The personal absolute floor
    (:func:`uscf.absolute_floor`) applies to the step-5 result too, counted from
    ``absolute_floors`` (each player's before the event; blank: 100, which is exact for an
    unrated player) with the player's rated games of this event. A player without a game
    keeps his rating; an unrated one has none (``NO_GAMES``).

    >>> rate_event([1500, 1500], [30, 30], [(0, 1, 1)])[0] > 1500
    True
    """
    given = _read_inputs(ratings, games, ages, records, dual_rated, bonus_threshold, peak_ratings,
                         life_masters, absolute_floors)
    event = _Event(given, _schedule(pairings, len(given.priors)))  # steps 1 and 2
    pre_event = event.pre_event_ratings()  # step 3
    step4 = [event.rate(i, pre_event, event.effective[i], given.records[i]) if event.schedule[i]
             else event.starts[i] for i in range(event.count)]
    return [event.final(i, step4) for i in range(event.count)]  # step 5, floored


@dataclass(frozen=True)
class _Inputs:
    """The arguments of :func:`rate_event`, checked; lists have one value per player."""

    priors: list[float | None]
    earlier: list[int]
    ages: list[float | None]
    records: list[str | None]
    threshold: float
    dual: bool
    peaks: list[float | None]
    masters: list[bool]
    personal: list[float | None]


def _read_inputs(ratings: Sequence[float | None], games: Sequence[int],
                 ages: Sequence[float | None] | None, records: Sequence[str | None] | None,
                 dual_rated: bool, bonus_threshold: float, peak_ratings: Sequence[float | None] | None,
                 life_masters: Sequence[bool | None] | None,
                 absolute_floors: Sequence[float | None] | None) -> _Inputs:
    """Every argument but the pairings checked, in this order: the first problem found is
    the one reported."""
    count = len(ratings)
    priors = [checks.optional_rating(r, "ratings", _player(i)) for i, r in enumerate(ratings)]
    earlier = [checks.count(g, "games", _player(i)) for i, g in enumerate(checks.per_player(games, "games", count))]
    age_list = [None if a is None else checks.age(a, "ages", _player(i))
                for i, a in enumerate(checks.per_player(ages, "ages", count))]
    record_list = [checks.record(r, "records", _player(i))
                   for i, r in enumerate(checks.per_player(records, "records", count))]
    threshold = checks.bonus_threshold(bonus_threshold)
    dual = checks.flag(dual_rated, "dual_rated")
    peaks = [checks.optional_rating(p, "peak_ratings", _player(i))
             for i, p in enumerate(checks.per_player(peak_ratings, "peak_ratings", count))]
    masters = [checks.flag(m, "life_masters", _player(i))
               for i, m in enumerate(checks.per_player(life_masters, "life_masters", count))]
    personal = [None if f is None else checks.in_domain(f, ABSOLUTE_FLOORS, "absolute_floors", _player(i))
                for i, f in enumerate(checks.per_player(absolute_floors, "absolute_floors", count))]
    return _Inputs(priors, earlier, age_list, record_list, threshold, dual, peaks, masters, personal)


def _schedule(pairings: Sequence[Pairing], count: int) -> list[list[tuple[int, float]]]:
    """Each player's games: (opponent, the player's score), in the order of the pairings."""
    schedule: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    for player, opponent, score in _check_pairings(pairings, count):
        schedule[player].append((opponent, score))
        schedule[opponent].append((player, 1.0 - score))
    return schedule


class _Event:
    """An event under way: what steps 1 and 2 give each player and how step 4 and step 5
    rate one."""

    def __init__(self, given: _Inputs, schedule: list[list[tuple[int, float]]]) -> None:
        self.given, self.schedule, self.count = given, schedule, len(schedule)
        self.starts: list[float] = []
        for i in range(self.count):
            checks.games_need_a_rating(given.priors[i], given.earlier[i], "ratings", _player(i))
            checks.record_needs_games(given.records[i], given.earlier[i], "records", _player(i))
            start = first_rating(given.ages[i])
            prior = given.priors[i]
            self.starts.append(prior if prior is not None else start)                    # step 1
        self.effective = [effective_for(given.priors[i], given.earlier[i]) for i in range(self.count)]  # step 2
        self.scores = [[score for _, score in schedule[i]] for i in range(self.count)]
        self.totals = [sum(s) for s in self.scores]
        self.special = [given.priors[i] is None or given.earlier[i] <= 8 or given.records[i] is not None
                        for i in range(self.count)]
        self.eligible = [bonus_eligible([opponent for opponent, _ in schedule[i]]) for i in range(self.count)]

    def rate(self, i: int, opponent_ratings: Sequence[float], n_eff: float, record: str | None) -> float:
        """Player ``i`` rated against ``opponent_ratings`` with ``N′ = n_eff`` and ``record``:
        the special formula or the standard one with bonus (as :func:`uscf.new_rating`
        chooses); at least 100."""
        opponents = [opponent_ratings[j] for j, _ in self.schedule[i]]
        if self.special[i]:
            value = rate_special(self.starts[i], n_eff, opponents, self.scores[i], record)
        else:
            value = rate_standard(self.starts[i], n_eff, opponents, self.totals[i], self.eligible[i],
                                  self.given.dual, self.given.threshold)
        return max(value, ABSOLUTE_FLOOR)

    def pre_event_ratings(self) -> list[float]:
        """Step 3: the ratings the opponents see in step 4, an unrated player's a special
        rating with ``N′ = 1`` against the step-1 values."""
        step3 = list(self.starts)
        for i in range(self.count):
            if self.given.priors[i] is None and self.schedule[i]:
                step3[i] = self.rate(i, self.starts, 1.0, None)
        return [self.starts[i] if self.given.priors[i] is not None else step3[i] for i in range(self.count)]

    def final(self, i: int, step4: Sequence[float]) -> float | NoValue:
        """Step 5 for player ``i``, floored (§4.5); a player without a game keeps his
        rating, an unrated one has none."""
        given = self.given
        if not self.schedule[i]:
            return NO_GAMES if given.priors[i] is None else self.starts[i]
        peak, prior = given.peaks[i], given.priors[i]
        if peak is not None and prior is not None and given.earlier[i] > ESTABLISHED_AFTER:
            peak = max(peak, prior)
        final = self.rate(i, step4, self.effective[i], given.records[i])
        return max(final, floor(peak, given.masters[i], given.earlier[i]),
                   absolute_floor(self.scores[i], given.personal[i], "absolute_floors", _player(i)))


def _player(index: int) -> Place:
    return player_place(index + 1)


# ---------------------------------------------------------------- reading pairings

def _rows(block: Any, argument: str) -> list[list[Any]]:
    """A block as rows; a lone cell is 1×1 and a flat list is one column."""
    if not isinstance(block, (list, tuple)):
        return [[block]]
    if all(isinstance(row, (list, tuple)) for row in block):
        rows = [list(row) for row in block]
        if rows and any(len(row) != len(rows[0]) for row in rows):
            raise RatingError(f"{argument}: rows of different lengths; give a rectangular block",
                              argument=argument)
        return rows
    if any(isinstance(row, (list, tuple)) for row in block):
        raise RatingError(f"{argument}: mixes cells and rows; give a rectangular block",
                          argument=argument)
    return [[cell] for cell in block]


def _cell_result(value: Any, row: int, column: int, grid: bool = False) -> Result | None:
    try:
        return read_result(value, "results")
    except RatingError as error:
        where = BlockCell(row, column, grid=grid)  # made only for the message
        raise RatingError(f"{error}{where}", argument=error.argument, item=where,
                          value=error.value) from None


def _disagree(mine: Result | None, theirs: Result | None) -> bool:
    """Both sides of a game entered and not matching: a rated result needs the opposite
    rated result (1 and 0, ½ and ½). Two unrated entries (forfeits, byes) are not rated
    and are not compared: a double forfeit is ``-`` on both sides."""
    if mine is None or theirs is None or not (mine.rated or theirs.rated):
        return False
    return not (mine.rated and theirs.rated and mine.points + theirs.points == 1)


def _rated_game(low: int, high: int, mine: Result | None, theirs: Result | None) -> Pairing | None:
    """The game between two players as entered by either side, if it is rated."""
    if mine is not None and mine.rated:
        return (low, high, mine.points)
    if theirs is not None and theirs.rated:
        return (low, high, 1.0 - theirs.points)
    return None


def pairings_from_crosstable(results: Any) -> list[Pairing]:
    """The rated games of an n×n crosstable: cell (row i, column j) is player i's result
    against player j. The diagonal must be blank. A game may be entered from one side or
    from both; both sides must then agree (1 against 0, ½ against ½; a rated result against
    a forfeit or bye disagrees). Forfeits and byes are not rated and give no pairing.
    >>> pairings_from_crosstable([[None, "½"], [None, None]])
    [(0, 1, 0.5)]
    >>> pairings_from_crosstable([[None, "1"], ["1", None]])
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: results: row 1, column 2 holds '1' but row 2, column 1 holds '1'; the two sides disagree
    """
    rows = _rows(results, "results")
    count = len(rows)
    if any(len(row) != count for row in rows):
        raise RatingError(f"results: a crosstable has as many columns as rows; this one is "
                          f"{count}×{len(rows[0]) if rows else 0}", argument="results")
    cells = [[_cell_result(rows[i][j], i, j, grid=True) for j in range(count)]
             for i in range(count)]
    pairings = []
    for i in range(count):
        if cells[i][i] is not None:
            raise RatingError(f"results: the diagonal cell row {i + 1}, column {i + 1} holds "
                              f"{describe(rows[i][i])}; it must be blank", argument="results")
        for j in range(i + 1, count):
            mine, theirs = cells[i][j], cells[j][i]
            if _disagree(mine, theirs):
                raise RatingError(
                    f"results: row {i + 1}, column {j + 1} holds {describe(rows[i][j])} but row "
                    f"{j + 1}, column {i + 1} holds {describe(rows[j][i])}; the two sides disagree",
                    argument="results")
            game = _rated_game(i, j, mine, theirs)
            if game is not None:
                pairings.append(game)
    return pairings


def pairings_from_rounds(results: Any, opponents: Any) -> list[Pairing]:
    """The rated games of an n×rounds block: row i, round r holds player i's result and,
    in ``opponents``, the opponent's number (1-based). A blank or 0 opponent number is no
    game (a result there is a bye, points only). A game listed by both players counts once;
    the two entries must agree (same round, each other's number, results adding to 1). A
    game listed by one player only counts too.

    >>> pairings_from_rounds([["1", "½"], ["0", None], [None, "½"]], [[2, 3], [1, 0], [0, 1]])
    [(0, 1, 1.0), (0, 2, 0.5)]
    """
    result_rows = _rows(results, "results")
    opponent_rows = _rows(opponents, "opponents")
    count = len(result_rows)
    rounds = len(result_rows[0]) if result_rows else 0
    if len(opponent_rows) != count or any(len(row) != rounds for row in opponent_rows):
        raise RatingError(f"opponents: {len(opponent_rows)}×{len(opponent_rows[0]) if opponent_rows else 0} "
                          f"cells but results is {count}×{rounds}; they are paired cell by cell",
                          argument="opponents")
    entries: list[list[tuple[int | None, Result | None]]] = []
    for i in range(count):
        row = []
        for r in range(rounds):
            where = BlockCell(i, r)
            row.append((checks.opponent_number(opponent_rows[i][r], count, i, where),
                        _cell_result(result_rows[i][r], i, r)))
        entries.append(row)
    pairings = []
    for r in range(rounds):
        seen: set[tuple[int, int]] = set()
        for i in range(count):
            opponent = entries[i][r][0]
            if opponent is None:
                continue
            back = entries[opponent][r][0]
            if back is not None and back != i:
                raise RatingError(
                    f"opponents: player {i + 1} meets {opponent + 1} in round {r + 1} but player "
                    f"{opponent + 1} meets {back + 1}", argument="opponents")
            low, high = min(i, opponent), max(i, opponent)
            if (low, high) in seen:
                continue        # the same game listed by the other player
            seen.add((low, high))
            mine = entries[low][r][1] if entries[low][r][0] == high else None
            theirs = entries[high][r][1] if entries[high][r][0] == low else None
            if _disagree(mine, theirs):
                raise RatingError(
                    f"results: player {low + 1} has {describe(result_rows[low][r])} against "
                    f"{high + 1} in round {r + 1} but player {high + 1} has "
                    f"{describe(result_rows[high][r])}; the two sides disagree", argument="results")
            game = _rated_game(low, high, mine, theirs)
            if game is not None:
                pairings.append(game)
    return pairings


def pairings_from_tournament(tournament: Tournament) -> list[Pairing]:
    """The rated games of a :class:`~chessrating.tournament.Tournament`, read as the US
    Chess workbook's cells hold them (:meth:`Tournament.round_cells`, then
    :func:`pairings_from_rounds`); player ``k - 1`` is starting number ``k``.

    >>> from chessrating.tournament import Player, RoundGame
    >>> pairings_from_tournament(Tournament(players=[
    ...     Player(1, games=[RoundGame(1, 3, "w", "="), RoundGame(2, 2, "b", "+")]),
    ...     Player(2, games=[RoundGame(1, None, None, "U"), RoundGame(2, 1, "w", "-")]),
    ...     Player(3, games=[RoundGame(1, 1, "b", "=")])], rounds=2))
    [(0, 2, 0.5)]
    """
    cells = tournament.round_cells()
    return pairings_from_rounds(cells.results, cells.opponents)
