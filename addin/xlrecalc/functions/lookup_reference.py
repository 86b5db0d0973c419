"""Excel's lookup and reference functions that work on the reference itself: INDEX, ROW,
COLUMN, ROWS, COLUMNS, TRANSPOSE and CHOOSE (which evaluates only the argument it picks);
the searching ones (VLOOKUP, MATCH, XLOOKUP …) are in :mod:`.lookup`, and INDIRECT and
OFFSET, which read the workbook, in :mod:`xlrecalc.references`.

>>> FUNCTIONS["TRANSPOSE"](None, Arr([[1.0, 2.0]])).rows()
[[1.0], [2.0]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..values import MISSING, Arr, Rng, XlErr, grid, scalar
from .base import VALUE, number

__all__ = ["FUNCTIONS", "LAZY"]


def _index_number(value: Any, here: Any) -> int | XlErr:
    if value is MISSING or value is None:
        return 0
    if isinstance(value, (Rng, Arr)):
        value = scalar(value, here) if isinstance(value, Rng) else grid(value)[0][0]
    found = number(value)
    return found if isinstance(found, XlErr) else int(found)


def _index(here: Any, array: Any, row: Any = MISSING, col: Any = MISSING,
           area: Any = MISSING) -> Any:
    """INDEX(array, row, [column], [area]) returning a reference when given one; an error in
    place of the array passes through, with its message (as in Excel)."""
    if isinstance(array, XlErr):
        return array
    r, c = _index_number(row, here), _index_number(col, here)
    which = 1 if area is MISSING else _index_number(area, here)
    for found in (r, c, which):
        if isinstance(found, XlErr):
            return found
    if which != 1:
        return XlErr("#REF!", "INDEX: one area only, the area number must be 1")
    height, width = array.shape if isinstance(array, (Rng, Arr)) else (1, 1)
    if col is MISSING and height == 1 and width > 1:
        r, c = 1, r  # one index into a row counts along it
    if r < 0 or c < 0 or r > height or c > width:  # type: ignore[operator]
        return XlErr("#REF!")
    if not isinstance(array, (Rng, Arr)):
        return array
    if isinstance(array, Rng):
        r1, r2 = (array.r1, array.r2) if r == 0 else (array.r1 + r - 1,) * 2  # type: ignore[operator]
        c1, c2 = (array.c1, array.c2) if c == 0 else (array.c1 + c - 1,) * 2  # type: ignore[operator]
        return Rng(array.book, array.sheet, r1, c1, r2, c2)
    rows = array.rows()
    picked = rows if r == 0 else [rows[r - 1]]  # type: ignore[operator]
    picked = [line if c == 0 else [line[c - 1]] for line in picked]  # type: ignore[operator]
    return Arr(picked) if len(picked) > 1 or len(picked[0]) > 1 else picked[0][0]


def _row(here: Any, ref: Any = MISSING) -> Any:
    if ref is MISSING:
        return float(here[1])
    if not isinstance(ref, Rng):
        return XlErr(VALUE)
    if ref.r1 == ref.r2:
        return float(ref.r1)
    return Arr([[float(r)] for r in range(ref.r1, ref.r2 + 1)])


def _column(here: Any, ref: Any = MISSING) -> Any:
    if ref is MISSING:
        return float(here[2])
    if not isinstance(ref, Rng):
        return XlErr(VALUE)
    if ref.c1 == ref.c2:
        return float(ref.c1)
    return Arr([[float(c) for c in range(ref.c1, ref.c2 + 1)]])


def _rows(here: Any, ref: Any) -> float:
    return float(ref.shape[0]) if isinstance(ref, (Rng, Arr)) else 1.0


def _columns(here: Any, ref: Any) -> float:
    return float(ref.shape[1]) if isinstance(ref, (Rng, Arr)) else 1.0


def _transpose(here: Any, array: Any) -> Any:
    rows = grid(array)
    return Arr([list(column) for column in zip(*rows)])


def _choose(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    index = number(scalar(args[0](h), h))
    if isinstance(index, XlErr):
        return index
    if not 1 <= int(index) < len(args):
        return XlErr(VALUE)
    return args[int(index)](h)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "INDEX": _index, "ROW": _row, "COLUMN": _column, "ROWS": _rows, "COLUMNS": _columns,
    "TRANSPOSE": _transpose,
}
LAZY: dict[str, Callable[[Any, bool, list[Callable[[Any], Any]]], Any]] = {"CHOOSE": _choose}
