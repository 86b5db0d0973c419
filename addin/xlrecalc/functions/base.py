"""What Excel's worksheet functions share: reading their arguments as Excel reads them.

Two kinds of function live in the library. *Element-wise* functions take scalars (the
compiler lifts them over arrays in an array context and intersects a range with the
formula's row or column otherwise); they are registered with :func:`elementwise`. The
others take ``here`` (the formula's cell) and the evaluated arguments as they come:
:class:`Rng`, :class:`Arr`, scalars, ``MISSING``.

>>> number("12.5%"), number(" 3 "), number(True), number(None), number("x")
(0.125, 3.0, 1.0, 0.0, XlErr('#VALUE!'))
>>> number("2008-01-30"), number("1/30/2008"), number("30-Jan-2008")
(39477.0, 39477.0, 39477.0)
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import dates
from ..coerce import read_date_time as parse_date_text
from ..coerce import read_number
from ..dates import EPOCH, serial_of
from ..values import MISSING, Arr, Rng, XlErr, grid, lift, to_bool, to_text

__all__ = ["number", "numbers", "integers", "text", "logical", "integer", "first_error", "elementwise", "numeric",
           "values_of", "numbers_of", "is_number", "serial_of", "date_of", "EPOCH",
           "parse_date_text", "significant", "NUM", "VALUE", "DIV0", "NA", "REF", "registry",
           "one_value_each"]

NUM, VALUE, DIV0, NA, REF = "#NUM!", "#VALUE!", "#DIV/0!", "#N/A", "#REF!"

_Register = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]


def registry() -> tuple[dict[str, Callable[..., Any]], _Register]:
    """A function module's table of Excel functions by name, and the decorator that puts a
    function in it under one or more names (``@register("STDEV", "STDEV.S")``)."""
    table: dict[str, Callable[..., Any]] = {}

    def register(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def put(fn: Callable[..., Any]) -> Callable[..., Any]:
            for name in names:
                table[name] = fn
            return fn
        return put
    return table, register


def is_number(value: Any) -> bool:
    kind = type(value)
    if kind is float:
        return True
    return kind is not bool and isinstance(value, (int, float))


def significant(x: float, digits: int = 15) -> float:
    """``x`` to Excel's 15 significant digits, the precision its results are shown at."""
    return float(f"{x:.{digits}g}") if math.isfinite(x) else x


def first_error(*values: Any) -> XlErr | None:
    for value in values:
        if isinstance(value, XlErr):
            return value
    return None


# -- dates -------------------------------------------------------------------------
def date_of(serial: float) -> _dt.date | XlErr:
    """The date of a serial number in the book's date system (:mod:`.dates`), ``#NUM!``
    outside Excel's days."""
    day = dates.date_of(serial)
    return XlErr(NUM) if day is None else day


def number(value: Any) -> float | XlErr:
    """A scalar as a function's number argument: blank 0, TRUE 1, text read as a number,
    a percentage, a date or a time, else ``#VALUE!``."""
    if isinstance(value, float):
        return value
    if value is None or value is MISSING:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        return float(value)
    if isinstance(value, str):
        parsed = read_number(value)
        return XlErr(VALUE) if parsed is None else parsed
    if isinstance(value, XlErr):
        return value
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        return number(rows[0][0]) if len(rows) == 1 and len(rows[0]) == 1 else XlErr(VALUE)
    return XlErr(VALUE)


def _each(read: Callable[[Any], Any], values: tuple[Any, ...]) -> list[Any] | XlErr:
    """Each argument read by ``read``, or the first error among them."""
    out = []
    for value in values:
        found = read(value)
        if isinstance(found, XlErr):
            return found
        out.append(found)
    return out


def numbers(*values: Any) -> list[float] | XlErr:
    """Several number arguments, or the first error among them."""
    return _each(number, values)


def integers(*values: Any) -> list[int] | XlErr:
    """Several whole-number arguments (truncated), or the first error among them."""
    return _each(integer, values)


def integer(value: Any) -> int | XlErr:
    """A number argument truncated towards zero, as Excel reads counts and positions."""
    found = number(value)
    if isinstance(found, XlErr):
        return found
    return int(found) if math.isfinite(found) else XlErr(NUM)


def text(value: Any) -> str | XlErr:
    """A scalar (or a one-cell range) as a function's text argument."""
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        return text(rows[0][0]) if len(rows) == 1 and len(rows[0]) == 1 else XlErr(VALUE)
    if value is None or value is MISSING or isinstance(value, (str, bool, int, float, XlErr)):
        return to_text(value)
    return XlErr(VALUE)


def logical(value: Any) -> bool | XlErr:
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        value = rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else XlErr(VALUE)
    return to_bool(value)


# -- registration ------------------------------------------------------------------
def elementwise(table: dict[str, Callable[..., Any]], *names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function of scalars under ``names``."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            table[name] = fn
        return fn
    return register


def numeric(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A function of numbers: every argument read with :func:`number` (the first error
    wins); an omitted trailing argument takes the Python default, an empty one 0."""
    def wrapper(*args: Any) -> Any:
        args_list = list(args)
        while args_list and args_list[-1] is MISSING:
            args_list.pop()
        converted = []
        for arg in args_list:
            value = number(arg)
            if isinstance(value, XlErr):
                return value
            converted.append(value)
        result = fn(*converted)
        if isinstance(result, float) and not math.isfinite(result):
            return XlErr(NUM)
        return result
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


# -- aggregates ----------------------------------------------------------------------
def values_of(args: Iterable[Any]) -> Iterator[tuple[Any, bool]]:
    """Every value the arguments hold, with whether it came from a range or an array
    (Excel skips text and logicals there) or was given directly."""
    for arg in args:
        if arg is MISSING:
            continue
        if isinstance(arg, (Rng, Arr)):
            # cells(): every area of a union; only the stored cells of a huge range
            for value in arg.cells():
                yield value, True
        else:
            yield arg, False


def numbers_of(args: Iterable[Any], text_as_zero: bool = False) -> list[float] | XlErr:
    """The numbers SUM-like functions count: numbers in ranges and arrays; direct
    arguments coerced (``#VALUE!`` for text that is no number); the first error wins.
    With ``text_as_zero`` (the ``…A`` functions) text in ranges counts 0, logicals 1/0."""
    out: list[float] = []
    for value, in_range in values_of(args):
        if isinstance(value, float) and not isinstance(value, bool):
            out.append(value)
        elif isinstance(value, XlErr):
            return value
        elif in_range:
            if isinstance(value, int) and not isinstance(value, bool):
                out.append(float(value))
            elif text_as_zero and isinstance(value, bool):
                out.append(1.0 if value else 0.0)
            elif text_as_zero and isinstance(value, str):
                out.append(0.0)
        else:
            found = number(value)
            if isinstance(found, XlErr):
                return found
            out.append(found)
    return out


def one_value_each(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` of scalars as some of Excel's functions take (ERF.PRECISE, BASE …) their arguments: a range of
    one cell is its value, a range of several is ``#VALUE!`` (no implicit intersection,
    and none even in an array formula), an array is taken element by element. The
    result is called as the library's other functions of ranges, ``(here, *arguments)``."""
    def run(here: Any, *arguments: Any) -> Any:
        values = []
        for argument in arguments:  # in order: an error before the range comes first
            if isinstance(argument, Rng):
                if argument.shape != (1, 1):
                    return XlErr(VALUE, "a range of several cells where one value is wanted")
                argument = grid(argument)[0][0]
            if isinstance(argument, XlErr):
                return argument
            values.append(argument)
        if any(isinstance(v, Arr) for v in values):
            return lift(fn, *values)
        return fn(*values)
    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run
