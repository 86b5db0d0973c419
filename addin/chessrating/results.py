"""Reading game results, ratings and options in every shape Excel hands them over.

Excel passes a single cell as a scalar, a row or a column as a flat list, a block as a
list of lists; blanks arrive as ``None`` (classic xlwings) or ``0`` (Office.js on the
desktop), numbers as floats, ``TRUE``/``FALSE`` as bools. This module turns those into
small value types the rating core works with, and raises :class:`RatingError` with a
one-line message for anything else.

>>> read_result("½")
Result(code='½', points=0.5, rated=True)
>>> read_result(None) is None
True
>>> games = read_games([1800.0, None, 2100.0], ["1", "H", 0.5])
>>> games.points, [tuple(g) for g in games.rated]
(2.0, [(1800.0, 1.0, None), (2100.0, 0.5, None)])
>>> read_result(2)
Traceback (most recent call last):
...
chessrating.errors.RatingError: results: 2 is not a game result
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import RatingError

__all__ = [
    "Result", "Game", "Entry", "Games", "NoValue", "NO_GAMES", "NO_RATED_GAMES", "RatingError",
    "WIN", "DRAW", "LOSS", "FORFEIT_WIN", "FORFEIT_LOSS", "HALF_BYE", "FULL_BYE",
    "PAIRING_BYE", "ZERO_BYE",
    "flatten", "read_result", "read_rating", "read_games", "read_number", "read_int",
    "read_bool", "read_text", "read_id", "read_label", "read_paired_labels", "typed_zero", "describe",
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

# The cell vocabulary of DESIGN.md, upper-cased. "0,5" is how a decimal-comma Excel may
# hand over a picked 0.5; "1/2" is accepted as text (typed as a value it becomes a date).
_RESULTS_BY_TEXT: dict[str, Result] = {
    "1": WIN, "1.0": WIN, "W": WIN,
    "½": DRAW, "=": DRAW, "0.5": DRAW, "0,5": DRAW, ".5": DRAW, "1/2": DRAW, "D": DRAW,
    "0": LOSS, "0.0": LOSS, "L": LOSS,
    "+": FORFEIT_WIN, "X": FORFEIT_WIN,
    "-": FORFEIT_LOSS, "F": FORFEIT_LOSS,
    "H": HALF_BYE, "B": FULL_BYE, "U": PAIRING_BYE, "Z": ZERO_BYE,
}
_RESULTS_BY_NUMBER: dict[float, Result] = {1.0: WIN, 0.5: DRAW, 0.0: LOSS}

# Excel's error values as xlwings hands them over with err_to_str=True.
_EXCEL_ERRORS = frozenset({
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


def describe(value: Any) -> str:
    """How a value is named in an error message: strings quoted, floats without ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"the date {value:%Y-%m-%d}"
    return repr(value) if isinstance(value, str) else str(value)


def _where(item: int | None) -> str:
    return "" if item is None else f" (item {item})"


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def typed_zero(value: Any) -> bool:
    """A numeric 0: what Office.js hands over for an empty cell (and for a typed 0)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0


def _check_excel_error(value: Any, argument: str, item: int | None) -> None:
    if isinstance(value, str) and value.strip().upper() in _EXCEL_ERRORS:
        raise RatingError(f"{argument}: the cell holds the Excel error {value.strip()}{_where(item)}")


def flatten(value: Any) -> list[Any]:
    """A cell, a row, a column or a block as one flat list, read row by row.

    >>> flatten(5.0), flatten([1, 2]), flatten([[1, 2], [3, 4]]), flatten(None)
    ([5.0], [1, 2], [1, 2, 3, 4], [None])
    """
    if isinstance(value, (list, tuple)):
        out: list[Any] = []
        for part in value:
            if isinstance(part, (list, tuple)):
                out.extend(part)
            else:
                out.append(part)
        return out
    return [value]


def read_result(value: Any, argument: str = "results", item: int | None = None) -> Result | None:
    """A cell's game result, or ``None`` when the cell is blank (not played yet)."""
    if _is_blank(value):
        return None
    _check_excel_error(value, argument, item)
    if isinstance(value, bool):
        raise RatingError(f"{argument}: {value} is not a game result{_where(item)}")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            raise RatingError(f"{argument}: nan is not a game result{_where(item)}")
        found = _RESULTS_BY_NUMBER.get(float(value))
        if found is None:
            raise RatingError(f"{argument}: {describe(value)} is not a game result{_where(item)}")
        return found
    if isinstance(value, (_dt.date, _dt.datetime)):
        raise RatingError(
            f"{argument}: {describe(value)} is not a game result; a typed 1/2 becomes a "
            f"date, type ½ or 0.5{_where(item)}")
    if isinstance(value, str):
        found = _RESULTS_BY_TEXT.get(value.strip().upper())
        if found is not None:
            return found
    raise RatingError(f"{argument}: {describe(value)} is not a game result{_where(item)}")


def read_number(value: Any, argument: str, item: int | None = None) -> float | None:
    """A number from a cell (numeric text accepted), or ``None`` for a blank."""
    if _is_blank(value):
        return None
    _check_excel_error(value, argument, item)
    if isinstance(value, bool):
        raise RatingError(f"{argument}: {value} is not a number{_where(item)}")
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            raise RatingError(f"{argument}: {describe(value)} is not a number{_where(item)}") from None
    else:
        raise RatingError(f"{argument}: {describe(value)} is not a number{_where(item)}")
    if not math.isfinite(number):
        raise RatingError(f"{argument}: {describe(value)} is not a finite number{_where(item)}")
    return number


def read_rating(value: Any, argument: str = "rating", item: int | None = None) -> float | None:
    """A rating, or ``None`` for no rating (a blank, ``0`` or ``"-"``).

    >>> read_rating(2000.0), read_rating(0), read_rating("-"), read_rating(" 1850 ")
    (2000.0, None, None, 1850.0)
    """
    if isinstance(value, str) and value.strip() == "-":
        return None
    number = read_number(value, argument, item)
    if number is None or number == 0:
        return None
    if number < 0 or number > 4000:
        raise RatingError(f"{argument}: {describe(value)} is not a rating{_where(item)}")
    return number


def read_games(
    opponent_ratings: Any,
    results: Any,
    opponent_ids: Any = None,
    *,
    ratings_argument: str = "opponent_ratings",
) -> Games:
    """Pair opponents' ratings with results by position, each read row by row.

    A position counts only when its result cell holds a recognised result: a blank result
    is a game not played yet, whatever stands beside it. A played game whose opponent has
    no rating is kept (``Games.unrated_opponents``) but gives no rated :class:`Game`.

    Office.js hands empty cells over as the number 0, so a position whose rating and result
    are both the number 0 is read as empty, not as a loss to an unrated opponent (mark an
    unrated opponent with ``-`` to record such a loss).
    """
    ratings = flatten(opponent_ratings)
    outcomes = flatten(results)
    ids = None if opponent_ids is None else flatten(opponent_ids)
    if len(ratings) != len(outcomes):
        raise RatingError(
            f"{ratings_argument}: {len(ratings)} cells but results has {len(outcomes)}; "
            "they are paired by position")
    if ids is not None and len(ids) != len(outcomes):
        raise RatingError(
            f"opponent_ids: {len(ids)} cells but results has {len(outcomes)}; "
            "they are paired by position")
    entries = []
    by_number, by_text = _RESULTS_BY_NUMBER, _RESULTS_BY_TEXT
    for index, (rating_value, result_value) in enumerate(zip(ratings, outcomes), start=1):
        # Cells as Excel hands them over most often (a float, a listed code, a rating) are
        # looked up directly; anything else takes the full readers and their messages.
        kind = type(result_value)
        result = (by_number.get(result_value) if kind is float
                  else by_text.get(result_value) if kind is str else None)
        if result is None:
            result = read_result(result_value, "results", index)
        if type(rating_value) is float and 0.0 < rating_value <= 4000.0:
            opponent: float | None = rating_value
        else:
            opponent = read_rating(rating_value, ratings_argument, index)
        if result is None or (opponent is None and typed_zero(rating_value) and typed_zero(result_value)):
            continue
        opponent_id = None if ids is None else read_id(ids[index - 1], "opponent_ids", index)
        entries.append(Entry(index, opponent, result, opponent_id))
    return Games(tuple(entries))


def read_id(value: Any, argument: str = "opponent_ids", item: int | None = None) -> float | str | None:
    """A player's number or name that tells opponents apart, or ``None`` for a blank.

    Numbers and numeric text are the same id (``7``, ``7.0``, ``"7"``); names ignore case
    and surrounding spaces. A numeric 0 is a blank (Office.js's empty cell).

    >>> read_id("7") == read_id(7.0), read_id(" Carlsen ") == read_id("carlsen"), read_id(0)
    (True, True, None)
    """
    if _is_blank(value) or typed_zero(value):
        return None
    _check_excel_error(value, argument, item)
    if isinstance(value, str):
        text = value.strip()
        try:
            return read_number(text, argument, item)
        except RatingError:
            return text.casefold()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return read_number(value, argument, item)
    raise RatingError(f"{argument}: {describe(value)} is not a player's number or name{_where(item)}")


def read_label(value: Any, argument: str, item: int | None = None) -> str | None:
    """A text label such as a title or a federation, upper-cased; ``None`` for a blank.

    >>> read_label(" ger ", "federation"), read_label(None, "federation"), read_label(0, "federation")
    ('GER', None, None)
    """
    if _is_blank(value) or typed_zero(value):
        return None
    _check_excel_error(value, argument, item)
    if not isinstance(value, str):
        raise RatingError(f"{argument}: {describe(value)} is not text{_where(item)}")
    return value.strip().upper()


def read_paired_labels(values: Any, games: Games, argument: str, length: int) -> list[str | None] | None:
    """Labels (titles, federations) paired by position like the results, one per played game.

    ``None`` when no label is given at all; otherwise ``values`` must have one cell per
    result cell.
    """
    if values is None:
        return None
    cells = flatten(values)
    labels = [read_label(cell, argument, item) for item, cell in enumerate(cells, start=1)]
    if all(label is None for label in labels):
        return None
    if len(cells) != length:
        raise RatingError(f"{argument}: {len(cells)} cells but results has {length}; "
                          "they are paired by position")
    return [labels[entry.item - 1] for entry in games.played]


def read_int(value: Any, argument: str, *, minimum: int | None = 0) -> int | None:
    """A whole number, or ``None`` for a blank; fractions and values below ``minimum`` fail."""
    number = read_number(value, argument)
    if number is None:
        return None
    if not number.is_integer():
        raise RatingError(f"{argument}: {describe(value)} is not a whole number")
    if minimum is not None and number < minimum:
        limit = "negative" if minimum == 0 else f"below {minimum}"
        raise RatingError(f"{argument}: {describe(value)} is {limit}")
    return int(number)


def read_bool(value: Any, argument: str, default: bool = False) -> bool:
    """``TRUE``/``FALSE`` (also 1/0 and yes/no text); a blank gives ``default``."""
    if _is_blank(value):
        return default
    _check_excel_error(value, argument, None)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ("TRUE", "YES", "Y", "1"):
            return True
        if text in ("FALSE", "NO", "N", "0"):
            return False
    raise RatingError(f"{argument}: {describe(value)} is not TRUE or FALSE")


def read_text(value: Any, argument: str, choices: Iterable[str], default: str) -> str:
    """One of ``choices`` (case-insensitive, numbers accepted as text); a blank gives ``default``.

    A numeric 0 counts as blank too: Office.js hands an empty cell over as 0.
    """
    if _is_blank(value) or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0):
        return default
    _check_excel_error(value, argument, None)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip().upper()
    options: Sequence[str] = list(choices)
    for choice in options:
        if choice.upper() == text:
            return choice
    raise RatingError(f"{argument}: {describe(value)} is not one of {', '.join(options)}")
