"""Reading the arguments of the Excel functions: one cell or a range, with defaults.

The thin layer between :mod:`chessrating.results` (reading cell values) and
:mod:`chessrating.udfs` (the worksheet functions): an argument that takes one cell gets a
range refused, optional arguments get their defaults for a blank (and for the 0 that
Office.js sends for an empty cell), and the expected-score functions spread a cell, row or
column over a block as Excel does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RatingError
from .results import describe, read_bool, read_int, read_label, read_number, read_rating

__all__ = [
    "rating", "required_rating", "scalar", "k_factor", "count", "optional_positive",
    "grid", "broadcast", "elementwise", "dual_rated", "bonus_threshold", "record",
]


def rating(value: Any, argument: str = "rating") -> float | None:
    """A rating from one cell, or ``None`` for no rating."""
    return read_rating(scalar(value, argument), argument)


def required_rating(value: Any, argument: str = "rating") -> float:
    """A rating that must be there."""
    number = rating(value, argument)
    if number is None:
        raise RatingError(f"{argument}: a rating is needed, the cell is empty")
    return number


def scalar(value: Any, argument: str) -> Any:
    """The value of an argument that takes one cell."""
    if isinstance(value, (list, tuple)):
        raise RatingError(f"{argument}: expects one cell, got a range")
    return value


def k_factor(value: Any) -> float:
    """A K-factor: a positive number, needed."""
    k = read_number(scalar(value, "k"), "k")
    if k is None:
        raise RatingError("k: a K-factor is needed, the cell is empty")
    if k <= 0:
        raise RatingError(f"k: {k:g} is not a positive K-factor")
    return k


def count(value: Any, argument: str = "games") -> int:
    """A number of games; a blank is 0."""
    number = read_int(scalar(value, argument), argument)
    return 0 if number is None else number


def optional_positive(value: Any, argument: str, default: float) -> float:
    """An optional number where blank or 0 (Office.js's blank) means the default."""
    number = read_number(scalar(value, argument), argument)
    if number is None or number == 0:
        return default
    if number < 0:
        raise RatingError(f"{argument}: {number:g} is negative")
    return number


def grid(value: Any, argument: str) -> list[list[Any]]:
    """A cell, a flat list (read as a column) or a block, as rows."""
    if not isinstance(value, (list, tuple)) or not value:
        return [[None if isinstance(value, (list, tuple)) else value]]
    rows = [list(row) if isinstance(row, (list, tuple)) else [row] for row in value]
    if any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise RatingError(f"{argument}: rows of different lengths; give a rectangular range")
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
            "range of the same shape")

    def spread(grid: list[list[Any]]) -> list[list[Any]]:
        if len(grid[0]) == 1 and cols > 1:
            grid = [row * cols for row in grid]
        return grid * rows if len(grid) == 1 and rows > 1 else grid

    return spread(a), spread(b)


def elementwise(first: Any, second: Any, names: tuple[str, str],
                 one: Callable[[float, float], float]) -> Any:
    """Apply ``one`` to ratings cell by cell; a single cell pairs with every cell of the
    other range, a single column with every column of a block of as many rows (and a
    row likewise). A blank on either side gives an empty cell."""
    a, b = broadcast(grid(first, names[0]), grid(second, names[1]), names)
    out = []
    width = len(a[0])
    for r, (row_a, row_b) in enumerate(zip(a, b)):
        out_row: list[Any] = []
        for c, (x, y) in enumerate(zip(row_a, row_b)):
            # a rating as Excel sends it (a float in range) needs no reader
            ra = x if type(x) is float and 0.0 < x <= 4000.0 else read_rating(x, names[0], r * width + c + 1)
            rb = y if type(y) is float and 0.0 < y <= 4000.0 else read_rating(y, names[1], r * width + c + 1)
            out_row.append("" if ra is None or rb is None else one(ra, rb))
        out.append(out_row)
    return out


def dual_rated(value: Any) -> bool:
    """TRUE in a dual-rated event; blank is FALSE."""
    return read_bool(scalar(value, "dual_rated"), "dual_rated")


def bonus_threshold(value: Any) -> float:
    """The bonus multiplier B; blank or 0 is 10."""
    return optional_positive(value, "bonus_threshold", 10.0)


def record(value: Any, argument: str = "record", item: int | None = None) -> str | None:
    """"W", "L" or blank (None); a numeric 0 is Office.js's blank."""
    text = read_label(scalar(value, argument), argument, item)
    if text in (None, "W", "L"):
        return text
    where = "" if item is None else f" (item {item})"
    raise RatingError(f"{argument}: {describe(value)} is not W, L or blank{where}")
