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
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .values import MISSING, Arr, Rng, XlErr, grid, to_bool, to_text

__all__ = ["number", "numbers", "integers", "text", "logical", "integer", "first_error", "elementwise", "numeric",
           "values_of", "numbers_of", "is_number", "serial_of", "date_of", "EPOCH",
           "parse_date_text", "significant", "NUM", "VALUE", "DIV0", "NA", "REF", "registry"]

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
EPOCH = _dt.date(1899, 12, 30)  # serial 0 for dates from 1 March 1900 on
_MAX_SERIAL = 2958465  # 31 December 9999


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def significant(x: float, digits: int = 15) -> float:
    """``x`` to Excel's 15 significant digits, the precision its results are shown at."""
    return float(f"{x:.{digits}g}") if math.isfinite(x) else x


def first_error(*values: Any) -> XlErr | None:
    for value in values:
        if isinstance(value, XlErr):
            return value
    return None


# -- dates -------------------------------------------------------------------------
def serial_of(day: _dt.date) -> float:
    """Excel's serial number of a date (1900 system, with its 29 February 1900)."""
    serial = (day - EPOCH).days
    return float(serial if serial >= 61 else serial - 1)


def date_of(serial: float) -> _dt.date | XlErr:
    """The date of a serial number; serials 1–59 are January and February 1900, 60 is the
    29 February 1900 Excel keeps (shown here as 28 February), 0 is 0 January 1900."""
    if not 0 <= serial <= _MAX_SERIAL + 0.99999999:
        return XlErr(NUM)
    whole = int(serial)
    if whole >= 61:
        return EPOCH + _dt.timedelta(days=whole)
    return _dt.date(1899, 12, 31) + _dt.timedelta(days=max(whole, 1) - (1 if whole == 60 else 0))


_MONTHS = {name: i for i, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1) for name in names}
_TIME = re.compile(r"^(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*(am|pm|a|p)?$", re.I)
_AMPM = re.compile(r"^(\d{1,2})\s*(am|pm|a|p)$", re.I)


def _year(text: str) -> int:
    year = int(text)
    if len(text) <= 2:
        year += 2000 if year < 30 else 1900
    return year


def _day_serial(year: int, month: int, day: int) -> float | None:
    try:
        serial = serial_of(_dt.date(year, month, day))
        return serial if 1 <= serial <= _MAX_SERIAL else None
    except ValueError:
        if (year, month, day) == (1900, 2, 29):
            return 60.0
        return None


def _parse_day(text: str) -> float | None:
    parts = [p for p in re.split(r"[\s,/\-.]+", text.strip().lower()) if p]
    if not parts or len(parts) > 3:
        return None
    names = [i for i, p in enumerate(parts) if p in _MONTHS]
    if any(not p.isdigit() for i, p in enumerate(parts) if i not in names) or len(names) > 1:
        return None
    today = _dt.date.today()
    if names:
        month = _MONTHS[parts[names[0]]]
        rest = [p for i, p in enumerate(parts) if i != names[0]]
        if len(rest) == 2:  # 30 Jan 2008, Jan 30 2008
            day, year = (int(rest[0]), _year(rest[1]))
        elif len(rest) == 1:  # Jan 30 (this year) or Jan 2008 (the first)
            value = rest[0]
            if len(value) == 4 or int(value) > 31:
                day, year = 1, _year(value)
            else:
                day, year = int(value), today.year
        else:
            return None
        return _day_serial(year, month, day)
    numbers = parts
    if len(numbers) == 3:
        if len(numbers[0]) == 4:  # 2008-01-30
            year, month, day = int(numbers[0]), int(numbers[1]), int(numbers[2])
        else:  # month/day/year, as Excel reads dates in the en-US locale
            month, day, year = int(numbers[0]), int(numbers[1]), _year(numbers[2])
        return _day_serial(year, month, day)
    if len(numbers) == 2 and ("/" in text or "-" in text):
        a, b = int(numbers[0]), int(numbers[1])
        if len(numbers[0]) == 4:
            return _day_serial(a, b, 1)
        if a <= 12 and b <= 31 and len(numbers[1]) <= 2:
            return _day_serial(today.year, a, b)
        if a <= 12:
            return _day_serial(_year(numbers[1]), a, 1)
    return None


def _parse_time(text: str) -> float | None:
    text = text.strip()
    found = _TIME.match(text)
    if found:
        hours, minutes = int(found.group(1)), int(found.group(2))
        seconds = float(found.group(3) or 0)
        suffix = (found.group(4) or "").lower()
    else:
        found = _AMPM.match(text)
        if not found:
            return None
        hours, minutes, seconds, suffix = int(found.group(1)), 0, 0.0, found.group(2).lower()
    if suffix:
        if not 0 <= hours <= 12:
            return None
        hours = hours % 12 + (12 if suffix.startswith("p") else 0)
    if minutes >= 60 or seconds >= 60:
        return None
    return (hours * 3600 + minutes * 60 + seconds) / 86400


def parse_date_text(text: str) -> float | None:
    """A date and/or time typed as text, as Excel (en-US) reads it: its serial number."""
    text = text.strip()
    if not text or len(text) > 40:
        return None
    time_part = re.search(r"\s(\d{1,2}(?::\d{1,2}(?::\d{1,2}(?:\.\d*)?)?)?\s*(?:am|pm|a|p)?)$",
                          text, re.I)
    only_time = _parse_time(text)
    if only_time is not None:
        return only_time
    if time_part and (":" in time_part.group(1) or re.search(r"[ap]m?$", time_part.group(1), re.I)):
        day = _parse_day(text[:time_part.start()])
        time = _parse_time(time_part.group(1))
        return None if day is None or time is None else day + time
    return _parse_day(text)


_NUMBER = re.compile(r"^\s*([+-]?)\s*\$?\s*(\(?)([0-9][0-9,]*\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?\d+))?(\)?)\s*(%?)\s*$")


def _parse_number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        pass
    found = _NUMBER.match(text)
    if not found:
        return None
    sign, open_, digits, exponent, close, percent = found.groups()
    if bool(open_) != bool(close):
        return None
    if "," in digits and not re.fullmatch(r"\d{1,3}(,\d{3})*(\.\d*)?", digits):
        return None
    value = float(digits.replace(",", "")) * 10 ** int(exponent or 0)
    if sign == "-" or open_:
        value = -value
    return value / 100 if percent else value


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
        parsed = _parse_number(value.strip())
        if parsed is None:
            parsed = parse_date_text(value)
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
