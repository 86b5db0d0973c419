"""A tournament as the tie-breaks read it: each player's rounds, read from a players × rounds
block of opponent numbers and results, or from a round-robin grid (docs/RULES.md §6).

Players are numbered from 0 here (the worksheet's 1-based row numbers minus one). Each
player's record is a list with one :class:`Round` per round of the tournament (``None``
for a game paired but not yet entered); the kinds of round are the unplayed-round kinds
of FIDE C.07 Art. 16: a game played over the board, a forfeit won or lost, a full-point
or pairing-allocated bye, a half-point or zero-point bye, and an absence (a blank round
while others played: a zero-point bye, C.07 Art. 16.1.1).

>>> event = from_rounds([[2, 3], [1, None], [None, 1]], [["1", "½"], [None, "H"], ["U", None]])
>>> [r.kind for r in event.records[0]], event.records[1][0].points, event.round_robin
(['played', 'played'], 0.0, False)
>>> from_rounds([[2], [1]], [["1"], ["1"]])
Traceback (most recent call last):
...
chessrating.errors.RatingError: results: player 1 has '1' against 2 in round 1 but player 2 has '1'; the two sides disagree
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import checks
from ..errors import BlockCell, RatingError
from ..results import (
    RESULTS_BY_NUMBER, RESULTS_BY_TEXT, NoValue, Result, check_excel_error, describe, read_result, refusal,
)

if TYPE_CHECKING:  # the tournament model loads where it is read (colour names, from_tournament)
    from ..tournament import Tournament

__all__ = [
    "PLAYED", "FORFEIT_WIN", "FORFEIT_LOSS", "FULL_BYE", "HALF_BYE", "ZERO_BYE", "ABSENT",
    "Round", "Event", "RefusedRating", "from_rounds", "from_grid", "from_tournament", "read_colour",
]

PLAYED = "played"
FORFEIT_WIN = "forfeit win"
FORFEIT_LOSS = "forfeit loss"
FULL_BYE = "full-point bye"       # U (pairing-allocated) and B (full-point bye): C.07 16.2.1
HALF_BYE = "half-point bye"
ZERO_BYE = "zero-point bye"
ABSENT = "absent"                 # a blank round while others played: a zero-point bye

# Byes a player asks for, C.07 16.1.1 (an absence counts as a zero-point bye).
REQUESTED_BYES = frozenset({HALF_BYE, ZERO_BYE, ABSENT})
# Voluntary unplayed rounds, C.07 16.1.2: requested byes and forfeit losses.
VOLUNTARY = REQUESTED_BYES | {FORFEIT_LOSS}

_BYE_KINDS = {"H": HALF_BYE, "Z": ZERO_BYE, "U": FULL_BYE, "B": FULL_BYE}
_REVERSE = {"+": "-", "-": "+"}


@dataclass(frozen=True, slots=True)
class Round:
    """One player's round: its kind, the points it gave, the (scheduled) opponent and the colour.

    ``opponent`` is the opponent's index for a game or a forfeit between two players, else
    ``None``; ``black`` is ``True``/``False`` when the colour is known.
    """

    kind: str
    points: float
    opponent: int | None = None
    black: bool | None = None

    @property
    def played(self) -> bool:
        return self.kind == PLAYED


@dataclass(frozen=True)
class RefusedRating(NoValue):
    """A player's rating that could not be read, with the reason: refused for that player
    only. Every rating-based tie-break that rests on it gives this reason in place of a
    value; the others never look at it (docs/RULES.md §6.1)."""


@dataclass(frozen=True)
class Event:
    """The players' records, their ratings, the number of rounds, and whether the
    pairings were pre-determined (a round robin: C.07 Art. 15.2 instead of Art. 16).
    A rating is a number, ``None`` for an unrated player or a :class:`RefusedRating`."""

    records: tuple[tuple[Round | None, ...], ...]
    rounds: int
    round_robin: bool
    ratings: tuple[float | None | NoValue, ...] = ()
    by_rounds: bool = True  # False for a round-robin grid: the order of the games is unknown

    @property
    def size(self) -> int:
        return len(self.records)

    def with_ratings(self, ratings: Sequence[float | None | NoValue]) -> Event:
        if len(ratings) != self.size:
            raise RatingError(f"ratings: {len(ratings)} cells but results has {self.size} rows; "
                              "one rating per player", argument="ratings")
        return Event(self.records, self.rounds, self.round_robin, tuple(ratings), self.by_rounds)


def read_colour(value: Any, item: BlockCell | str) -> bool | None:
    """``True`` for Black, ``False`` for White, ``None`` for a blank (or Office.js's 0).
    ``W``/``B`` or ``White``/``Black``, in any case (:func:`chessrating.tournament.colour_code`).

    >>> read_colour(" white", "x"), read_colour("B", "x"), read_colour(None, "x")
    (False, True, None)
    >>> read_colour("X", "player 1, round 2")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: colours: 'X' is not W or B (player 1, round 2)
    """
    if value == "B" or value == "W":
        return value == "B"
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0):
        return None
    if isinstance(item, BlockCell):
        item = item.text
    check_excel_error(value, "colours", item)
    if isinstance(value, str):
        if not value.strip():
            return None
        from ..tournament import colour_code  # a colour named in full ("White"): rare
        code = colour_code(value)
        if code is not None:
            return code == "b"
    raise refusal("colours", value, "is not W or B", item)


def _rows(block: Any, argument: str) -> list[list[Any]]:
    """A block as rows; a lone cell is 1×1 and a flat list is one column."""
    if not isinstance(block, (list, tuple)):
        return [[block]]
    if block and all(isinstance(row, (list, tuple)) for row in block):
        rows = [list(row) for row in block]
        if any(len(row) != len(rows[0]) for row in rows):
            raise RatingError(f"{argument}: rows of different lengths; give a rectangular range",
                              argument=argument)
        return rows
    if any(isinstance(row, (list, tuple)) for row in block):
        raise RatingError(f"{argument}: mixes cells and rows; give a rectangular range",
                          argument=argument)
    return [[cell] for cell in block]


def _same_shape(rows: list[list[Any]], shape: tuple[int, int], argument: str) -> None:
    if len(rows) != shape[0] or (rows and len(rows[0]) != shape[1]):
        raise RatingError(f"{argument}: {len(rows)}×{len(rows[0]) if rows else 0} cells but results is "
                          f"{shape[0]}×{shape[1]}; they are paired cell by cell", argument=argument)


def _result(value: Any, row: int, column: int, grid: bool = False) -> Result | None:
    # the cells Excel hands over most often (a listed text, a float) are looked up directly;
    # anything else takes the reader of results.py and its messages
    kind = type(value)
    if kind is str:
        found = RESULTS_BY_TEXT.get(value)
        if found is not None:
            return found
    elif kind is float:
        found = RESULTS_BY_NUMBER.get(value)
        if found is not None:
            return found
    try:
        return read_result(value, "results")
    except RatingError as error:
        where = BlockCell(row, column, grid=grid)  # made only for the message
        raise RatingError(f"{error}{where}", argument=error.argument, item=where,
                          value=error.value) from None


def _game(mine: Result | None, theirs: Result | None) -> tuple[str, float] | None:
    """One side of a game between two players from either side's entry: its kind and
    points, ``None`` while neither side is entered, ``("", 0)`` when the sides disagree.
    A game lost by both (a loss entered on both sides, FIDE Laws 11.8) is a game played
    with no points for either (docs/RULES.md §1.3).

    >>> _game(RESULTS_BY_TEXT["0"], RESULTS_BY_TEXT["0"]), _game(RESULTS_BY_TEXT["0"], None)
    (('played', 0.0), ('played', 0.0))
    """
    if mine is None and theirs is None:
        return None
    if mine is not None and mine.rated:
        if theirs is not None and not (theirs.rated and (theirs.points + mine.points == 1
                                                         or theirs.points == mine.points == 0)):
            return ("", 0.0)
        return (PLAYED, mine.points)
    if mine is None:
        assert theirs is not None
        if theirs.rated:
            return (PLAYED, 1.0 - theirs.points)
        code = _REVERSE.get(theirs.code)
        if code is None:
            return ("", 0.0)
        return (FORFEIT_WIN, 1.0) if code == "+" else (FORFEIT_LOSS, 0.0)
    if mine.code == "+":
        return (FORFEIT_WIN, 1.0) if theirs is None or theirs.code == "-" else ("", 0.0)
    if mine.code == "-":  # a double forfeit is "-" on both sides
        return (FORFEIT_LOSS, 0.0) if theirs is None or theirs.code in "+-" else ("", 0.0)
    return ("", 0.0)  # a bye against a named opponent


def _unpaired(result: Result | None, where: BlockCell) -> Round:
    """A round with no opponent: a bye, a forfeit whose opponent is not named, or an absence."""
    if result is None:
        return Round(ABSENT, 0.0)
    if result.rated:
        raise RatingError(f"results: {describe(result.code)} has no opponent{where}; "
                          "a bye is U, B, H or Z", argument="results", item=where)
    if result.code in _BYE_KINDS:
        return Round(_BYE_KINDS[result.code], result.points)
    return Round(FORFEIT_WIN, 1.0) if result.code == "+" else Round(FORFEIT_LOSS, 0.0)


def from_rounds(opponents: Any, results: Any, colours: Any = None) -> Event:
    """The tournament of a players × rounds block: ``opponents`` holds 1-based opponent
    numbers (blank or 0: no opponent), ``results`` the player's result, ``colours`` W/B.

    A game may be entered by one side or by both; both sides must then name each other
    and agree. Rounds after the last one anybody has entered are not played yet.
    """
    result_rows = _rows(results, "results")
    count = len(result_rows)
    width = len(result_rows[0]) if result_rows else 0
    opponent_rows = _rows(opponents, "opponents")
    _same_shape(opponent_rows, (count, width), "opponents")
    colour_rows = None if colours is None else _rows(colours, "colours")
    if colour_rows is not None:
        _same_shape(colour_rows, (count, width), "colours")
    paired = [[checks.opponent_number(opponent_rows[i][r], count, i, BlockCell(i, r)) for r in range(width)]
              for i in range(count)]
    entered = [[_result(result_rows[i][r], i, r) for r in range(width)] for i in range(count)]
    black = [[None if colour_rows is None else read_colour(colour_rows[i][r], BlockCell(i, r))
              for r in range(width)] for i in range(count)]
    active = [r for r in range(width)
              if any(paired[i][r] is not None or entered[i][r] is not None for i in range(count))]
    rounds = active[-1] + 1 if active else 0
    records: list[list[Round | None]] = [[None] * rounds for _ in range(count)]
    for r in range(rounds):
        opponent_of: dict[int, int] = {}
        for i in range(count):
            j = paired[i][r]
            if j is None:
                continue
            back = paired[j][r]
            if back is not None and back != i:
                raise RatingError(f"opponents: player {i + 1} meets {j + 1} in round {r + 1} but "
                                  f"player {j + 1} meets {back + 1}", argument="opponents")
            if opponent_of.get(i, j) != j or opponent_of.get(j, i) != i:
                raise RatingError(f"opponents: player {i + 1} is paired twice in round {r + 1}",
                                  argument="opponents")
            opponent_of[i], opponent_of[j] = j, i
        for i in range(count):
            j = opponent_of.get(i)
            if j is None:
                records[i][r] = _unpaired(entered[i][r], BlockCell(i, r))
                continue
            mine = entered[i][r]
            if mine is not None and mine.code in _BYE_KINDS:
                raise RatingError(f"results: {_shown(result_rows[i][r])} is a bye but player {i + 1} "
                                  f"meets {j + 1} in round {r + 1}", argument="results")
            side = _game(entered[i][r], entered[j][r])
            if side is None:
                continue  # paired, not yet entered
            if not side[0]:
                raise RatingError(
                    f"results: player {i + 1} has {_shown(result_rows[i][r])} against {j + 1} in "
                    f"round {r + 1} but player {j + 1} has {_shown(result_rows[j][r])}; "
                    "the two sides disagree", argument="results")
            colour = black[i][r]
            if colour is None and black[j][r] is not None:
                colour = not black[j][r]
            records[i][r] = Round(side[0], side[1], j, colour)
    return Event(tuple(tuple(row) for row in records), rounds, _all_play_all(records, count))


def _shown(value: Any) -> str:
    return "a blank" if value is None or (isinstance(value, str) and not value.strip()) else describe(value)


def _all_play_all(records: list[list[Round | None]], count: int) -> bool:
    """Pre-determined pairings: every two players scheduled against each other equally often."""
    if count < 2:
        return False
    meetings: dict[tuple[int, int], int] = {}
    for i, rounds in enumerate(records):
        for entry in rounds:
            if entry is not None and entry.opponent is not None and entry.opponent > i:
                key = (i, entry.opponent)
                meetings[key] = meetings.get(key, 0) + 1
    return len(meetings) == count * (count - 1) // 2 and len(set(meetings.values())) == 1


def from_grid(results: Any, colours: Any = None) -> Event:
    """The tournament of a round-robin grid: row i, column j is player i's result against
    player j (entered by one side or both; the diagonal blank). The order of the games is
    not known, so the tie-breaks that need rounds (PS) refuse a grid.

    >>> event = from_grid([[None, "1", "½"], [None, None, "-"], ["½", "+", None]])
    >>> [[r.kind for r in row] for row in event.records][1], event.rounds
    (['played', 'forfeit loss'], 2)
    """
    rows = _rows(results, "results")
    count = len(rows)
    if any(len(row) != count for row in rows):
        raise RatingError(f"results: a round-robin grid has as many columns as rows; this one is "
                          f"{count}×{len(rows[0]) if rows else 0}", argument="results")
    colour_rows = None if colours is None else _rows(colours, "colours")
    if colour_rows is not None:
        _same_shape(colour_rows, (count, count), "colours")
    cells = [[_result(rows[i][j], i, j, grid=True) for j in range(count)]
             for i in range(count)]
    records: list[list[Round | None]] = [[] for _ in range(count)]
    for i in range(count):
        if cells[i][i] is not None:
            raise RatingError(f"results: the diagonal cell row {i + 1}, column {i + 1} holds "
                              f"{describe(rows[i][i])}; it must be blank", argument="results")
        for j in range(count):
            if j == i:
                continue
            side = _game(cells[i][j], cells[j][i])
            if side is not None and not side[0]:
                raise RatingError(
                    f"results: row {i + 1}, column {j + 1} holds {_shown(rows[i][j])} but row "
                    f"{j + 1}, column {i + 1} holds {_shown(rows[j][i])}; the two sides disagree",
                    argument="results")
            colour = None
            if colour_rows is not None:
                colour = read_colour(colour_rows[i][j], BlockCell(i, j, grid=True))
                other = read_colour(colour_rows[j][i], BlockCell(j, i, grid=True))
                colour = colour if colour is not None else (None if other is None else not other)
            records[i].append(None if side is None else Round(side[0], side[1], j, colour))
    return Event(tuple(tuple(row) for row in records), max(count - 1, 0), True, by_rounds=False)


def from_tournament(tournament: Tournament) -> Event:
    """The tie-breaks' event of a :class:`~chessrating.tournament.Tournament`: its rounds
    read as the Swiss workbook's cells hold them (:meth:`Tournament.round_cells`, then
    :func:`from_rounds`), with the players' ratings; player ``k - 1`` is starting number ``k``.

    >>> from chessrating.tournament import Player, RoundGame, Tournament
    >>> event = from_tournament(Tournament(players=[
    ...     Player(1, rating=2000, games=[RoundGame(1, 2, "w", "1"), RoundGame(2, None, None, "H")]),
    ...     Player(2, games=[RoundGame(1, 1, "b", "0"), RoundGame(2, None, None, "U")])], rounds=2))
    >>> [(r.kind, r.points) for r in event.records[1]], event.ratings
    ([('played', 0.0), ('full-point bye', 1.0)], (2000, None))
    """
    cells = tournament.round_cells()
    by_number = {p.number: p for p in tournament.players}
    ratings = [by_number[n].rating if n in by_number else None for n in range(1, len(cells.results) + 1)]
    return from_rounds(cells.opponents, cells.results, cells.colours).with_ratings(ratings)
