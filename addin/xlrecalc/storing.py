"""A formula's result into its cells: a number or a text as it is, a reference read at
the formula's row or column, a blank read as 0; an array formula's range filled from the
result (repeated along a row or column of one, ``#N/A`` past it), a dynamic array
spilled, or ``#SPILL!`` where cells block it; a failure as the cell's error
(:meth:`.engine.Book.evaluate` stores its results here)."""

from __future__ import annotations

from typing import Any, TypeAlias

from .array_ranges import spill_blocked
from .closures import where
from .parse import Ref
from .values import MAX_TEXT, PENDING, Arr, Rng, XlErr, scalar, too_long

# The engine's Book and Formula, which import this module (typed Any, as an import back
# would make a cycle of modules)
Book: TypeAlias = Any
Formula: TypeAlias = Any

__all__ = ["store", "failed"]


def failed(formula: Formula, exc: Exception) -> XlErr:
    """The error value of a formula whose evaluation raised ``exc``."""
    if isinstance(exc, RecursionError):
        return XlErr("#VALUE!", "formulas nested or chained too deeply to evaluate",
                     where(formula.key))
    if isinstance(exc, MemoryError):
        return XlErr("#VALUE!", "the formula needs more memory than there is", where(formula.key))
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return XlErr("#VALUE!", reason, where(formula.key))


def _cell_result(value: Any) -> Any:
    if value is None or value is PENDING:
        return 0.0  # a formula reading a blank shows 0, as in Excel
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return too_long(value)
    return value


def store(book: Book, formula: Formula, result: Any) -> None:
    sheet, row, col = formula.key
    cells = book.cells[sheet]
    if formula.ref is None:
        if type(result) is float:  # a number is stored as it is
            cells[(row, col)] = result
            return
        if isinstance(result, (Rng, Arr)):
            try:
                result = scalar(result, formula.key)
            except Exception as exc:  # a range too large to read
                result = failed(formula, exc)
        cells[(row, col)] = _cell_result(result)
        return
    ref = formula.ref
    assert ref is not None and formula.cells is not None
    if formula.key in book.dynamic and isinstance(result, (Rng, Arr)) and _blocked(book, formula, result):
        cells[(row, col)] = XlErr("#SPILL!", origin=where(formula.key))
        for place in formula.cells:  # what spilled before is gone, as in Excel
            if place != (row, col):
                cells[place] = None
        return
    if isinstance(result, Rng) and len(result.areas()) == 1:
        _store_reference(book, ref, formula.cells, result, formula.key in book.dynamic)
        return
    try:
        rows = result.rows() if isinstance(result, (Rng, Arr)) else [[result]]
    except Exception as exc:
        rows = [[failed(formula, exc)]]
    if formula.key in book.dynamic:  # a spill: the result's own shape, blank past it
        for r, c in formula.cells:
            i, j = r - ref.r1, c - ref.c1
            inside = i < len(rows) and j < len(rows[0])
            cells[(r, c)] = _cell_result(rows[i][j]) if inside else None
        return
    for r, c in formula.cells:
        i = 0 if len(rows) == 1 else r - ref.r1
        j = 0 if len(rows[0]) == 1 else c - ref.c1
        value = rows[i][j] if i < len(rows) and j < len(rows[0]) else XlErr("#N/A")
        cells[(r, c)] = _cell_result(value)


def _blocked(book: Book, formula: Formula, result: Rng | Arr) -> bool:
    """Whether a dynamic array formula's result cannot spill (:func:`.array_ranges.spill_blocked`)."""
    if isinstance(result, Rng) and len(result.areas()) != 1:
        return False
    sheet, row, col = formula.key
    assert formula.ref is not None
    return spill_blocked(book.cells[sheet], (row, col), result.shape, formula.ref,
                         set(formula.cells or ()))


def _store_reference(book: Book, ref: Ref, places: list[tuple[int, int]], result: Rng,
                     spill: bool = False) -> None:
    """An array formula whose value is a reference: each cell of its range (``places``)
    shows the cell of the reference at the same place (a blank shows 0, as in Excel), a
    1-row or 1-column reference repeats, and places beyond the reference are #N/A; a
    dynamic array's (``spill``) neither repeats nor shows anything past the reference."""
    height, width = result.shape
    for r, c in places:
        i = 0 if height == 1 and not spill else r - ref.r1
        j = 0 if width == 1 and not spill else c - ref.c1
        if i < height and j < width:
            value = _cell_result(book.value(result.sheet, result.r1 + i, result.c1 + j))
        else:
            value = None if spill else XlErr("#N/A")
        book.cells[ref.sheet or ""][(r, c)] = value
