"""Reading what Excel hands over into the core's values: cells, ranges, arguments.

Excel passes a single cell as a scalar, a row or a column as a flat list, a block as a
list of lists; blanks arrive as ``None`` (classic xlwings) or ``0`` (Office.js on the
desktop), numbers as floats, ``TRUE``/``FALSE`` as bools. The readers turn those into the
core's values (:mod:`chessrating.results`) and raise :class:`RatingError` with a one-line
message for anything else. The argument helpers refuse a range where one cell is meant,
give optional arguments their defaults for a blank (and for the 0 that Office.js sends
for an empty cell), and spread a cell, row or column over a block as Excel does.

>>> games = read_games([1800.0, None, 2100.0], ["1", "H", 0.5])
>>> games.points, [tuple(g) for g in games.rated]
(2.0, [(1800.0, 1.0, None), (2100.0, 0.5, None)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import checks
from .errors import RatingError
from .results import (
    RESULTS_BY_NUMBER, RESULTS_BY_TEXT, Entry, Games, check_excel_error, is_blank,
    read_result, refusal,
)

__all__ = [
    "flatten", "typed_zero", "read_number", "read_rating", "read_games", "read_id", "read_label",
    "read_paired_labels", "read_optional", "read_bool", "read_text",
    "rating", "required_rating", "scalar", "k_factor", "count",
    "grid", "broadcast", "elementwise", "dual_rated", "bonus_threshold", "age", "record",
    "MAX_CELLS", "check_range", "REASON", "is_reason",
]

_T = TypeVar("_T")


def typed_zero(value: Any) -> bool:
    """A numeric 0: what Office.js hands over for an empty cell (and for a typed 0)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0


# A template's helper cell that has no value to give holds the reason instead, starting
# with this word (``check rating of player 2 (Name)``, ``check colour of round 3: …``); a
# function reading a whole table (TIEBREAK) reads such a cell as that one input refused,
# whose row already says why.
REASON = "check "


def is_reason(value: Any) -> bool:
    """A reason another cell gave in place of a value (:data:`REASON`).

    >>> is_reason("check rating of player 2 (Beta)"), is_reason("Check"), is_reason(2.0)
    (True, False, False)
    """
    return isinstance(value, str) and value.startswith(REASON)


# The most cells one argument may hold: a 316-player round-robin grid, thirty times the
# largest Swiss the templates hold. Past it a call is refused at once, before any reading:
# a million cells took seconds a call, in every cell that passes them.
MAX_CELLS = 100_000


def check_range(value: list[Any] | tuple[Any, ...], argument: str) -> None:
    """Refuse what no worksheet range is: more than :data:`MAX_CELLS` cells, rows of
    different lengths, or lists nested deeper than rows of cells.

    >>> check_range([[1, 2], [3, 4]], "results")
    >>> check_range([[1, 2], [3]], "results")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: results: rows of different lengths; give a rectangular range
    >>> check_range([[[1]]], "results")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: results: a range nested deeper than rows and columns
    """
    sequences = (list, tuple)
    if len(value) > MAX_CELLS:
        raise RatingError(f"{argument}: {len(value)} rows or cells; one argument takes at most {MAX_CELLS} cells",
                          argument=argument)
    rows = [row for row in value if type(row) in sequences or isinstance(row, sequences)]
    if not rows:
        cells = len(value)
    elif len(rows) != len(value) or any(len(row) != len(rows[0]) for row in rows):
        raise RatingError(f"{argument}: rows of different lengths; give a rectangular range",
                          argument=argument)
    else:
        cells = len(rows) * len(rows[0])
    if cells > MAX_CELLS:
        raise RatingError(f"{argument}: {cells} cells; one argument takes at most {MAX_CELLS}",
                          argument=argument)
    for row in rows:
        for cell in row:
            if isinstance(cell, sequences):
                raise RatingError(f"{argument}: a range nested deeper than rows and columns",
                                  argument=argument)


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


def whole_number(value: Any) -> int | None:
    """A cell holding a whole number, as a number or as text of ASCII digits (an ID or a
    number typed as text); ``None`` for anything else, TRUE and FALSE included.

    >>> whole_number(12.0), whole_number(" 0012 "), whole_number(2.5), whole_number(True), whole_number("１２")
    (12, 12, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and float(value).is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def read_number(value: Any, argument: str, item: int | str | None = None) -> float | None:
    """A number from a cell (numeric text accepted, see :mod:`chessrating.checks`), or
    ``None`` for a blank."""
    if is_blank(value):
        return None
    check_excel_error(value, argument, item)
    return checks.number(value, argument, item)


def _no_rating(value: Any) -> bool:
    """A blank, ``0`` or ``"-"``: a player or opponent without a rating."""
    if is_blank(value) or typed_zero(value):
        return True
    return isinstance(value, str) and (value.strip() == "-" or checks.readings(value) == [0.0])


def read_rating(value: Any, argument: str = "rating", item: int | str | None = None) -> float | None:
    """A rating from 100 to 4000, or ``None`` for no rating (a blank, ``0`` or ``"-"``).

    >>> read_rating(2000.0), read_rating(0), read_rating("-"), read_rating(" 1,850 ")
    (2000.0, None, None, 1850.0)
    """
    if _no_rating(value):
        return None
    check_excel_error(value, argument, item)
    return checks.rating(value, argument, item)


def read_games(
    opponent_ratings: Any,
    results: Any,
    opponent_ids: Any = None,
    *,
    ratings_argument: str = "opponent_ratings",
    zeros_are_blank: bool = False,
) -> Games:
    """Pair opponents' ratings with results by position, each read row by row.

    A position counts only when its result cell holds a recognised result: a blank result
    is a game not played yet, whatever stands beside it. A played game whose opponent has
    no rating is kept (``Games.unrated_opponents``) but gives no rated :class:`Game`.

    With ``zeros_are_blank`` (under Office.js, which hands empty cells over as the number
    0) a position whose rating and result are both the number 0 is read as empty, not as a
    loss to an unrated opponent (mark an unrated opponent with ``-`` to record such a
    loss there). Elsewhere a 0 result against a 0 rating is that loss.
    """
    ratings = flatten(opponent_ratings)
    outcomes = flatten(results)
    ids = None if opponent_ids is None else flatten(opponent_ids)
    if len(ratings) != len(outcomes):
        raise RatingError(
            f"{ratings_argument}: {len(ratings)} cells but results has {len(outcomes)}; "
            "they are paired by position", argument=ratings_argument)
    if ids is not None and len(ids) != len(outcomes):
        raise RatingError(
            f"opponent_ids: {len(ids)} cells but results has {len(outcomes)}; "
            "they are paired by position", argument="opponent_ids")
    entries = []
    by_number, by_text = RESULTS_BY_NUMBER, RESULTS_BY_TEXT
    low, high = checks.RATING.low, checks.RATING.high
    for index, (rating_value, result_value) in enumerate(zip(ratings, outcomes), start=1):
        # Cells as Excel hands them over most often (a float, a listed code, a rating) are
        # looked up directly; anything else takes the full readers and their messages.
        kind = type(result_value)
        result = (by_number.get(result_value) if kind is float
                  else by_text.get(result_value) if kind is str else None)
        if result is None:
            result = read_result(result_value, "results", index)
        # The fast path takes exactly the floats read_rating takes as they are.
        if type(rating_value) is float and low <= rating_value <= high:
            opponent: float | None = rating_value
        else:
            opponent = read_rating(rating_value, ratings_argument, index)
        if result is None or (zeros_are_blank and opponent is None and typed_zero(rating_value)
                              and typed_zero(result_value)):
            continue
        opponent_id = None if ids is None else read_id(ids[index - 1], "opponent_ids", index)
        entries.append(Entry(index, opponent, result, opponent_id))
    return Games(tuple(entries))


def read_id(value: Any, argument: str = "opponent_ids", item: int | str | None = None) -> float | str | None:
    """A player's number or name that tells opponents apart, or ``None`` for a blank.

    Numbers and numeric text are the same id (``7``, ``7.0``, ``"7"``); names ignore case
    and surrounding spaces. A numeric 0 is a blank (Office.js's empty cell).

    >>> read_id("7") == read_id(7.0), read_id(" Carlsen ") == read_id("carlsen"), read_id(0)
    (True, True, None)
    """
    if is_blank(value) or typed_zero(value):
        return None
    check_excel_error(value, argument, item)
    if isinstance(value, str):
        text = value.strip()
        try:
            return read_number(text, argument, item)
        except RatingError:
            return text.casefold()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return read_number(value, argument, item)
    raise refusal(argument, value, "is not a player's number or name", item)


def read_label(value: Any, argument: str, item: int | str | None = None,
               check: Callable[[Any, str, int | str | None], str | None] = checks.label) -> str | None:
    """A text label such as a title or a federation (read by ``check``: ``checks.label``,
    ``checks.title`` or ``checks.federation``), upper-cased; ``None`` for a blank.

    >>> read_label(" ger ", "federation"), read_label(None, "federation"), read_label(0, "federation")
    ('GER', None, None)
    """
    if is_blank(value) or typed_zero(value):
        return None
    return check(value, argument, item)


def read_paired_labels(values: Any, games: Games, argument: str, length: int,
                       check: Callable[[Any, str, int | str | None], str | None] = checks.label) -> list[str | None] | None:
    """Labels (titles, federations) paired by position like the results, one per played game.

    ``None`` when no label is given at all; otherwise ``values`` must have one cell per
    result cell.
    """
    if values is None:
        return None
    cells = flatten(values)
    labels = [read_label(cell, argument, item, check) for item, cell in enumerate(cells, start=1)]
    if all(label is None for label in labels):
        return None
    if len(cells) != length:
        raise RatingError(f"{argument}: {len(cells)} cells but results has {length}; "
                          "they are paired by position", argument=argument)
    return [labels[entry.item - 1] for entry in games.played]


def read_optional(value: Any, argument: str, check: Callable[[Any, str], _T]) -> _T | None:
    """An optional argument's value by ``check``; a blank (or the 0 Office.js sends for
    an empty cell) gives ``None``."""
    if is_blank(value) or typed_zero(value):
        return None
    check_excel_error(value, argument, None)
    return check(value, argument)


def read_bool(value: Any, argument: str, default: bool = False, item: int | str | None = None) -> bool:
    """``TRUE``/``FALSE`` (also 1/0 and yes/no text); a blank gives ``default``."""
    if is_blank(value):
        return default
    check_excel_error(value, argument, item)
    return checks.flag(value, argument, item)


def read_text(value: Any, argument: str, choices: Iterable[str], default: str) -> str:
    """One of ``choices`` (case-insensitive, numbers accepted as text); a blank gives ``default``.

    A numeric 0 counts as blank too: Office.js hands an empty cell over as 0.
    """
    if is_blank(value) or typed_zero(value):
        return default
    check_excel_error(value, argument, None)
    return checks.choice(value, argument, choices)


def rating(value: Any, argument: str = "rating") -> float | None:
    """A rating from one cell, or ``None`` for no rating."""
    return read_rating(scalar(value, argument), argument)


def required_rating(value: Any, argument: str = "rating") -> float:
    """A rating that must be there."""
    number = rating(value, argument)
    if number is None:
        raise checks.needed(argument, "a rating")
    return number


def scalar(value: Any, argument: str) -> Any:
    """The value of an argument that takes one cell."""
    if isinstance(value, (list, tuple)):
        raise RatingError(f"{argument}: expects one cell, got a range", argument=argument)
    return value


def k_factor(value: Any, check: Callable[[Any, str], float] = checks.k) -> float:
    """A K-factor, needed: ``checks.k`` (Elo, 1 to 100) or ``checks.fide_k``."""
    k = scalar(value, "k")
    if is_blank(k):
        raise checks.needed("k", "a K-factor")
    check_excel_error(k, "k", None)
    return check(k, "k")


def count(value: Any, argument: str = "games", item: int | str | None = None) -> int:
    """A number of games (whole, 0 to 100000); a blank is 0."""
    value = scalar(value, argument)
    if is_blank(value):
        return 0
    check_excel_error(value, argument, item)
    return checks.count(value, argument, item)


def grid(value: Any, argument: str) -> list[list[Any]]:
    """A cell, a flat list (read as a column) or a block, as rows."""
    if not isinstance(value, (list, tuple)) or not value:
        return [[None if isinstance(value, (list, tuple)) else value]]
    rows = [list(row) if isinstance(row, (list, tuple)) else [row] for row in value]
    if any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise RatingError(f"{argument}: rows of different lengths; give a rectangular range",
                          argument=argument)
    return rows


def broadcast(a: list[list[Any]], b: list[list[Any]], names: tuple[str, str]) -> tuple[list[list[Any]], list[list[Any]]]:
    """Both grids at one shape, as Excel spreads a single cell, row or column over a block."""
    shape_a, shape_b = (len(a), len(a[0])), (len(b), len(b[0]))
    if shape_a == shape_b:
        return a, b
    rows, cols = max(shape_a[0], shape_b[0]), max(shape_a[1], shape_b[1])
    fits = all(shape[0] in (1, rows) and shape[1] in (1, cols) for shape in (shape_a, shape_b))
    if not fits or (rows, cols) not in (shape_a, shape_b):  # a row and a column do not make a block
        raise RatingError(
            f"{names[1]}: a {shape_b[0]}x{shape_b[1]} range does not match {names[0]}'s "
            f"{shape_a[0]}x{shape_a[1]}; give one cell, a matching row or column, or a "
            "range of the same shape", argument=names[1])

    def spread(grid: list[list[Any]]) -> list[list[Any]]:
        if len(grid[0]) == 1 and cols > 1:
            grid = [row * cols for row in grid]
        return grid * rows if len(grid) == 1 and rows > 1 else grid

    return spread(a), spread(b)


def elementwise(first: Any, second: Any, names: tuple[str, str],
                one: Callable[[float, float], float]) -> Any:
    """Apply ``one`` to ratings cell by cell; a single cell pairs with every cell of the
    other range, a single column with every column of a block of as many rows (and a
    row likewise). A blank on either side gives an empty cell. Two single values (not
    ranges) give a single value; any range gives an array.

    >>> elementwise(2000.0, 1800.0, ("a", "b"), lambda x, y: x - y)
    200.0
    >>> elementwise([[2000.0], [1900.0]], 1800.0, ("a", "b"), lambda x, y: x - y)
    [[200.0], [100.0]]
    """
    a, b = broadcast(grid(first, names[0]), grid(second, names[1]), names)
    low, high = checks.RATING.low, checks.RATING.high
    out = []
    width = len(a[0])
    for r, (row_a, row_b) in enumerate(zip(a, b)):
        out_row: list[Any] = []
        for c, (x, y) in enumerate(zip(row_a, row_b)):
            # a rating as Excel sends it (a float in range) needs no reader
            item = None if width == len(a) == 1 else r * width + c + 1
            ra = x if type(x) is float and low <= x <= high else read_rating(x, names[0], item)
            rb = y if type(y) is float and low <= y <= high else read_rating(y, names[1], item)
            out_row.append("" if ra is None or rb is None else one(ra, rb))
        out.append(out_row)
    if not isinstance(first, (list, tuple)) and not isinstance(second, (list, tuple)):
        return out[0][0]
    return out


def dual_rated(value: Any) -> bool:
    """TRUE in a dual-rated event; blank is FALSE."""
    return read_bool(scalar(value, "dual_rated"), "dual_rated")


def bonus_threshold(value: Any) -> float:
    """The bonus multiplier B (1 to 50); blank or 0 (Office.js's blank) is 10."""
    number = read_optional(scalar(value, "bonus_threshold"), "bonus_threshold", checks.bonus_threshold)
    return 10.0 if number is None else number


def age(value: Any, argument: str = "age", item: int | str | None = None) -> float | None:
    """An age (1 to 120), or ``None`` for a blank or 0."""
    value = scalar(value, argument)
    if is_blank(value) or typed_zero(value):
        return None
    check_excel_error(value, argument, item)
    return checks.age(value, argument, item)


def record(value: Any, argument: str = "record", item: int | str | None = None) -> str | None:
    """"W", "L" or blank (None); a numeric 0 is Office.js's blank."""
    value = scalar(value, argument)
    if is_blank(value) or typed_zero(value):
        return None
    check_excel_error(value, argument, item)
    return checks.record(value, argument, item)
