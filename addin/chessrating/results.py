"""Game results and the value types of the rating core.

One reading of a result everywhere: :func:`read_result` turns a cell's value (a number,
a code such as ``"½"``, ``"W"`` or ``"+"``, any case, spaces ignored) into a
:class:`Result`; :class:`Game` is a rated game as the rating functions take it, and
:class:`NoValue` the answer where no number exists. Reading Excel's shapes (ranges, the
blanks of each runtime) is the Excel face's work, in :mod:`chessrating.cells`.

>>> read_result("½")
Result(code='½', points=0.5, rated=True)
>>> read_result(" w ") is WIN, read_result(None) is None
(True, True)
>>> read_result(2)
Traceback (most recent call last):
...
chessrating.errors.RatingError: results: 2 is not a game result
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import Place, RatingError

__all__ = [
    "Result", "Game", "Entry", "Games", "NoValue", "NO_GAMES", "NO_RATED_GAMES", "RatingError",
    "WIN", "DRAW", "LOSS", "FORFEIT_WIN", "FORFEIT_LOSS", "HALF_BYE", "FULL_BYE",
    "PAIRING_BYE", "ZERO_BYE", "RESULTS_BY_TEXT", "RESULTS_BY_NUMBER", "EXCEL_ERRORS",
    "read_result", "describe", "item_suffix", "HALF_AS_DATE", "is_blank", "check_excel_error",
    "refusal", "player_place",
]


@dataclass(frozen=True)
class Result:
    """One game result: its canonical code, the points it gives, and whether it is rated.

    Forfeits and byes give points in a crosstable but are never rated.
    """

    code: str
    points: float
    rated: bool


WIN = Result("1", 1.0, True)
DRAW = Result("½", 0.5, True)
LOSS = Result("0", 0.0, True)
FORFEIT_WIN = Result("+", 1.0, False)
FORFEIT_LOSS = Result("-", 0.0, False)
HALF_BYE = Result("H", 0.5, False)
FULL_BYE = Result("B", 1.0, False)
PAIRING_BYE = Result("U", 1.0, False)
ZERO_BYE = Result("Z", 0.0, False)

# The cell vocabulary of the README, upper-cased. "0,5" is how a decimal-comma Excel may
# hand over a picked 0.5; "1/2" is accepted as text (typed as a value it becomes a date).
RESULTS_BY_TEXT: dict[str, Result] = {
    "1": WIN, "1.0": WIN, "W": WIN,
    "½": DRAW, "=": DRAW, "0.5": DRAW, "0,5": DRAW, ".5": DRAW, "1/2": DRAW, "D": DRAW,
    "0": LOSS, "0.0": LOSS, "L": LOSS,
    "+": FORFEIT_WIN, "X": FORFEIT_WIN,
    "-": FORFEIT_LOSS, "F": FORFEIT_LOSS,
    "H": HALF_BYE, "B": FULL_BYE, "U": PAIRING_BYE, "Z": ZERO_BYE,
}
RESULTS_BY_NUMBER: dict[float, Result] = {1.0: WIN, 0.5: DRAW, 0.0: LOSS}

# Excel's error values as xlwings hands them over with err_to_str=True.
EXCEL_ERRORS = frozenset({
    "#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!",
    "#CALC!", "#GETTING_DATA", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!",
    "#UNKNOWN!",
})


class Game(NamedTuple):
    """A rated game: the opponent's rating and the score (1, 0.5 or 0).

    ``opponent_id`` tells apart opponents met more than once, where it matters
    (the US Chess bonus); ``None`` when unknown.
    """

    opponent: float
    score: float
    opponent_id: object = None


@dataclass(frozen=True)
class Entry:
    """One position of a pairing of opponents with results that holds a result."""

    item: int
    opponent: float | None
    result: Result
    opponent_id: object = None


@dataclass(frozen=True)
class Games:
    """The games read from a pairing of opponent ratings with results.

    ``entries`` holds every position with a recognised result, in order; positions
    with a blank result (not played yet) are left out.
    """

    entries: tuple[Entry, ...]

    @property
    def points(self) -> float:
        """All points, forfeits and byes included."""
        return sum(e.result.points for e in self.entries)

    @property
    def played(self) -> tuple[Entry, ...]:
        """Games actually played (no forfeits, no byes), against rated or unrated opponents."""
        return tuple(e for e in self.entries if e.result.rated)

    @property
    def rated(self) -> tuple[Game, ...]:
        """Played games against opponents with a rating: what a rating change counts."""
        return tuple(
            Game(e.opponent, e.result.points, e.opponent_id)
            for e in self.entries
            if e.result.rated and e.opponent is not None
        )

    @property
    def unrated_opponents(self) -> int:
        """Played games against opponents with no rating."""
        return sum(1 for e in self.entries if e.result.rated and e.opponent is None)


@dataclass(frozen=True)
class NoValue:
    """The answer when no number exists, with the reason shown in its place.

    Not an error: a perfect score has no logistic performance, a player with no games
    has no change yet. The Excel functions show ``reason`` as text, or an empty cell
    for :data:`NO_GAMES`.
    """

    reason: str

    def __str__(self) -> str:
        return self.reason


NO_GAMES = NoValue("no games")
NO_RATED_GAMES = NoValue("no rated games")


# An error message quotes at most this many characters of a text: a one-line reason, not an
# echo of a pasted megabyte.
SHOWN_CHARACTERS = 40


def describe(value: Any) -> str:
    """How a value is named in an error message: strings quoted (a long one cut short),
    floats without ``.0``, a number too long to print by its length.

    >>> describe(2050.0), describe("x"), describe("ab" * 30), describe(10**400)
    ('2050', "'x'", "'abababababababababababababababababababab…' (60 characters)", 'a number of 401 digits')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**16:
        return f"a number of {len(str(abs(value))) if value.bit_length() < 10_000 else 'thousands of'} digits"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"the date {value:%Y-%m-%d}"
    if isinstance(value, str):
        if len(value) > SHOWN_CHARACTERS:
            shown = repr(value[:SHOWN_CHARACTERS])
            return f"{shown[:-1]}…{shown[-1]} ({len(value)} characters)"
        return repr(value)
    return str(value)


def item_suffix(item: int | str | None) -> str:
    """Where a value stands, as a message ends: `` (item 3)`` for a number, `` (player 2)``
    for the text ``"player 2"``, nothing for ``None``."""
    if item is None:
        return ""
    return f" ({item})" if isinstance(item, str) else f" (item {item})"


@functools.lru_cache(maxsize=4096)
def player_place(number: int) -> Place:
    """Player ``number``'s value in a list of one value per player: ``player 2`` in a
    message, the item 2 as a position (made once a number: every value is read with one)."""
    return Place(f"player {number}", number)


def refusal(argument: str, value: Any, what: str, item: int | str | None = None) -> RatingError:
    """The error refusing ``value`` of ``argument``: ``argument: <value> <what> (item 3)``,
    with the argument, the item and the value as its attributes too.

    >>> error = refusal("results", 2.0, "is not a game result", 3)
    >>> str(error), error.argument, error.position, error.value
    ('results: 2 is not a game result (item 3)', 'results', 3, 2.0)
    """
    return RatingError(f"{argument}: {describe(value)} {what}{item_suffix(item)}",
                       argument=argument, item=item, value=value)


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def check_excel_error(value: Any, argument: str, item: int | str | None = None) -> None:
    """Refuse one of Excel's error values (``#N/A``, ``#VALUE!``, ...) as what it is."""
    if isinstance(value, str) and value.strip().upper() in EXCEL_ERRORS:
        raise RatingError(f"{argument}: the cell holds the Excel error {value.strip()}{item_suffix(item)}",
                          argument=argument, item=item, value=value.strip())


# Excel's day 1 is 1 January 1900 (its 1900 date system); serial numbers up to 366 are
# dates of 1900, which no one types as a result, so a small number (2, 32) stays a number.
_EXCEL_EPOCH = _dt.date(1899, 12, 30)
_FIRST_TYPED_YEAR_SERIAL = 366
HALF_AS_DATE = "was typed as 1/2 and became a date; pick ½ from the list"


def _typed_half(value: Any) -> str:
    """What Excel made of a typed 1/2, said as such, or ``""``: 2 January (month/day
    locales) or 1 February (day/month) of any year, as a datetime or as the serial
    number of such a day (Excel's 1900 date system, from 1901).

    >>> _typed_half(46024), _typed_half(_dt.datetime(2025, 2, 1)), _typed_half(2)
    ('2-Jan was typed as 1/2 and became a date; pick ½ from the list', '1-Feb was typed as 1/2 and became a date; pick ½ from the list', '')
    """
    if isinstance(value, (_dt.date, _dt.datetime)):
        day = value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if not (math.isfinite(value) and float(value).is_integer()
                and _FIRST_TYPED_YEAR_SERIAL < value < 2_958_466):  # up to 31 Dec 9999
            return ""
        day = _EXCEL_EPOCH + _dt.timedelta(days=int(value))
    else:
        return ""
    if (day.month, day.day) == (1, 2):
        return f"2-Jan {HALF_AS_DATE}"
    if (day.month, day.day) == (2, 1):
        return f"1-Feb {HALF_AS_DATE}"
    return ""


def read_result(value: Any, argument: str = "results", item: int | None = None) -> Result | None:
    """A cell's game result, or ``None`` when the cell is blank (not played yet)."""
    if is_blank(value):
        return None
    check_excel_error(value, argument, item)
    if isinstance(value, bool):
        raise RatingError(f"{argument}: {value} is not a game result{item_suffix(item)}",
                          argument=argument, item=item)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            raise RatingError(f"{argument}: nan is not a game result{item_suffix(item)}",
                              argument=argument, item=item, value=value)
        found = RESULTS_BY_NUMBER.get(float(value))
        if found is None:
            became = _typed_half(value)
            if became:
                raise RatingError(f"{argument}: {became}{item_suffix(item)}", argument=argument, item=item)
            raise refusal(argument, value, "is not a game result", item)
        return found
    if isinstance(value, (_dt.date, _dt.datetime)):
        became = _typed_half(value)
        if became:
            raise RatingError(f"{argument}: {became}{item_suffix(item)}", argument=argument, item=item)
        raise RatingError(
            f"{argument}: {describe(value)} is not a game result; a typed 1/2 becomes a "
            f"date, type ½ or 0.5{item_suffix(item)}", argument=argument, item=item)
    if isinstance(value, str):
        found = RESULTS_BY_TEXT.get(value.strip().upper())
        if found is not None:
            return found
    raise refusal(argument, value, "is not a game result", item)
