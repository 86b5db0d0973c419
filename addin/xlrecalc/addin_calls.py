"""Calls of the add-in's functions from compiled formulas: the arguments as classic
xlwings hands them over (a scalar, a flat list for a row or column, a list of lists for a
block, ``None`` for blanks, floats, an Excel error as its text), the result as a cell
value, a failure as the cell's ``#VALUE!`` naming the refused value (:mod:`.trace`), and
the answers of calls over the same ranges kept for the book's evaluation."""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from typing import Any

from .book_view import BookView
from .closures import Closure, cell_at, reader_of, where
from .trace import culprit, refused_value
from .values import MISSING, PENDING, Arr, Key, Rng, XlErr

__all__ = ["addin_call", "forget_answers"]


# -- add-in functions: called with the shapes classic xlwings hands over ----------------
# The answers of the add-in's functions by their arguments: each range by where it is,
# each other argument by its type and value. An add-in function is taken to be pure, and
# a cell is evaluated once, so once a call has read its ranges (demanding every cell
# pending in them) their values stay: a call written in every row over the same table
# (INDEX(F(table…), k)) computes once. An answer read while a circular reference
# was found, or an error (it names its cell), is not kept. Weak keys: it dies with the book.
_ANSWERS: "weakref.WeakKeyDictionary[BookView, dict[tuple[Any, ...], Any]]" = weakref.WeakKeyDictionary()


def _call_key(fn: Callable[..., Any], values: list[Any]) -> tuple[Any, ...] | None:
    """The arguments of a call as a key of :data:`_ANSWERS`, or ``None``: no range among
    them (such a call costs little and is made anew), or an array or an error value."""
    key: list[Any] = [fn]
    ranges = False
    for value in values:
        kind = type(value)
        if kind is Rng:
            ranges = True
            key.append(("range", value.sheet, value.r1, value.c1, value.r2, value.c2))
        elif kind is float or kind is str or kind is bool or value is None or value is MISSING:
            key.append((kind, value))
        elif kind is tuple and value[0] == "cell":  # a one-cell argument read in place
            key.append(value)
        else:
            return None
    return tuple(key) if ranges else None


def forget_answers(book: BookView) -> None:
    """Forget the answers kept for ``book``: its cells are to be evaluated again."""
    _ANSWERS.pop(book, None)


def _remembered(book: BookView, key: tuple[Any, ...] | None, call: Callable[[], Any]) -> Any:
    """``call()``, or its answer for the same ``key`` given earlier in this book."""
    if key is None:
        return call()
    answers = _ANSWERS.get(book)
    if answers is None:
        answers = _ANSWERS[book] = {}
    found = answers.get(key, MISSING)
    if found is not MISSING:
        return found
    value = call()
    if not isinstance(value, XlErr) and not book._circular:
        answers[key] = value
    return value


def addin_call(book: BookView, name: str, fn: Callable[..., Any], args: list[Closure]) -> Closure:
    """A call of one of the add-in's functions handed to the book: its arguments as classic
    xlwings hands them over, its result as a cell value, its failure the cell's
    ``#VALUE!`` with the reason, and the cell and value its error names by attributes
    (:mod:`.trace`)."""
    defaults = book.defaults(name)
    parameters = book.parameters(name)
    padded = [*defaults, *[None] * len(args)]  # an argument without a default: None
    readers = [reader_of(a) for a in args]
    places = [None if reader is None else cell_at(reader) for reader in readers]
    if any(place is not None for place in places):
        return _addin_call_of_cells(book, fn, args, places, padded, parameters)

    def run(h: Key) -> Any:
        values = [a(h) for a in args]
        while values and values[-1] is MISSING:
            values.pop()
        return _remembered(book, _call_key(fn, values), lambda: call(h, values))

    def call(h: Key, values: list[Any]) -> Any:
        python_args = [_as_argument(v, d) for v, d in zip(values, padded)]
        return _answer(fn, python_args, h, parameters, lambda: values)
    return run


def _addin_call_of_cells(book: "BookView", fn: Callable[..., Any], args: list[Closure],
                         places: list[tuple["BookView", str, int, int, int, int] | None],
                         padded: list[Any], parameters: list[str]) -> Closure:
    """:func:`addin_call`'s ``run`` where some arguments are one-cell references: such
    a cell is read where ``_as_argument`` would read the range ``cell(h)`` gives
    (row h[1] * rm + sr1, column h[2] * cm + sc1), without building the range; it
    is read in the same order, after the other arguments are computed. The ranges are
    built only for a failure's culprit (:func:`.trace.culprit`), the same as ``cell(h)``'s."""
    sheets, extent = book.cells, book.extent
    plan = list(zip(args, places))

    def run(h: Key) -> Any:
        values = [None if place is not None else a(h) for a, place in plan]
        count = len(values)  # trailing omitted arguments dropped (a cell is never one)
        while count and places[count - 1] is None and values[count - 1] is MISSING:
            count -= 1
        named = [values[i] if places[i] is None else _cell_of(places[i], h) for i in range(count)]
        return _remembered(book, _call_key(fn, named), lambda: call(h, values, count))

    def call(h: Key, values: list[Any], count: int) -> Any:
        python_args = []
        for i in range(count):
            place = places[i]
            if place is None:
                python_args.append(_as_argument(values[i], padded[i]))
                continue
            _, sheet, rm, sr1, cm, sc1 = place
            r, c = h[1] * rm + sr1, h[2] * cm + sc1
            rows, cols = extent.get(sheet, (0, 0))
            if r <= rows and c <= cols:  # a cell of the used range: its value
                found = sheets[sheet].get((r, c))
                python_args.append(_as_python(book.demand((sheet, r, c)) if found is PENDING
                                              else found))
            else:
                python_args.append(_as_argument(Rng(book, sheet, r, c, r, c), padded[i]))
        return _answer(fn, python_args, h, parameters,
                       lambda: [values[i] if places[i] is None else _cell_range(book, places[i], h)
                                for i in range(count)])
    return run


def _answer(fn: Callable[..., Any], python_args: list[Any], h: Key, parameters: list[str],
            given: Callable[[], list[Any]]) -> Any:
    """``fn``'s answer as a cell value; a failure is the cell's ``#VALUE!`` with the
    reason, naming the argument ``given()`` (the arguments as the formula gave them,
    worked out only for a failure) that was refused (:mod:`.trace`)."""
    try:
        return _from_python(fn(*python_args))
    except RecursionError:  # the formula's own failure (storing.failed), not the function's
        raise
    except Exception as exc:  # the cell shows the reason, as Excel does
        message = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        return XlErr("#VALUE!", message or type(exc).__name__, where(h),
                     culprit(exc, parameters, given()), refused_value(exc))


def _cell_of(place: tuple[BookView, str, int, int, int, int] | None, h: Key) -> tuple[str, str, int, int]:
    """The cell a one-cell argument reads in ``h``, as a part of a key of :data:`_ANSWERS`."""
    assert place is not None
    _, sheet, rm, sr1, cm, sc1 = place
    return "cell", sheet, h[1] * rm + sr1, h[2] * cm + sc1


def _cell_range(book: BookView, place: tuple[BookView, str, int, int, int, int] | None, h: Key) -> Rng:
    assert place is not None
    _, sheet, rm, sr1, cm, sc1 = place
    r, c = h[1] * rm + sr1, h[2] * cm + sc1
    return Rng(book, sheet, r, c, r, c)


def _as_python(value: Any) -> Any:
    """A cell value as classic xlwings hands it to a function."""
    kind = type(value)
    if kind is float or kind is str or kind is bool or value is None:
        return value  # handed over as they are (the checks below leave them so)
    if isinstance(value, XlErr):
        return value.code
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _as_argument(value: Any, default: Any) -> Any:
    kind = type(value)
    if kind is float or kind is str or kind is bool or value is None:
        return value  # as _as_python hands these over
    if value is MISSING:
        return default
    if kind is Rng and value.r1 == value.r2 and value.c1 == value.c2:
        book, sheet, row, col = value.book, value.sheet, value.r1, value.c1
        rows, cols = book.extent.get(sheet, (0, 0))  # Book.clip leaves the cell as it is
        if row <= rows and col <= cols:  # a cell of the used range: its value
            found = book.cells[sheet].get((row, col))  # Book.value, inlined
            return _as_python(book.demand((sheet, row, col)) if found is PENDING else found)
    if isinstance(value, (Rng, Arr)):  # (beyond the used range, rows() gives no row)
        rows = [[v if type(v) is float or type(v) is str or v is None else _as_python(v)
                 for v in row] for row in value.rows()]  # the first line of _as_python, inlined
        if len(rows) == 1 and len(rows[0]) == 1:
            return rows[0][0]
        if len(rows) == 1:
            return rows[0]
        if rows and len(rows[0]) == 1:
            return [row[0] for row in rows]
        return rows
    return _as_python(value)


def _from_python(value: Any) -> Any:
    """A function's return value as a cell value: ``None`` shows as an empty string."""
    if value is None:
        return ""
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        number = float(value)
        return number if math.isfinite(number) else XlErr("#NUM!")
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _from_python(value.tolist())
    if isinstance(value, (list, tuple)):
        if not value:
            return ""
        rows = value if isinstance(value[0], (list, tuple)) else [value]
        return Arr([[_from_python(v) for v in row] for row in rows])
    return str(value)
