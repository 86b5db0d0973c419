"""Excel's date and time functions on serial numbers, in the date system of the book
under evaluation (:mod:`.dates`: the 1900 system, with the 29 February 1900 Excel counts,
or the 1904 system).

Examples from Microsoft's pages (support.microsoft.com, *YEARFRAC function*,
*DATEDIF function*, *NETWORKDAYS function*):

>>> E = ELEMENTWISE
>>> start, end = E["DATE"](2012.0, 1.0, 1.0), E["DATE"](2012.0, 7.0, 30.0)
>>> round(E["YEARFRAC"](start, end), 8), round(E["YEARFRAC"](start, end, 1.0), 8), round(E["YEARFRAC"](start, end, 3.0), 8)
(0.58055556, 0.57650273, 0.57808219)
>>> E["DATEDIF"](E["DATE"](2001.0, 6.0, 1.0), E["DATE"](2002.0, 8.0, 15.0), "YD")
75.0
>>> FUNCTIONS["NETWORKDAYS"](None, E["DATE"](2012.0, 10.0, 1.0), E["DATE"](2013.0, 3.0, 1.0), E["DATE"](2012.0, 11.0, 22.0))
109.0
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
from collections.abc import Callable
from typing import Any

from ..coerce import read_date_time, read_time
from ..dates import first_year, is_1904, max_serial, weekday_sunday0, ymd
from .base import (NUM, VALUE, date_of, elementwise, first_error, integer, integers,
                             number, serial_of, text, values_of)
from ..values import MISSING, Rng, XlErr, scalar

__all__ = ["ELEMENTWISE", "FUNCTIONS", "ymd", "date_serial", "days_360", "actual_year_length"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
FUNCTIONS: dict[str, Callable[..., Any]] = {}


def date_serial(value: Any) -> int | XlErr:
    """A date argument: its whole serial number, ``#NUM!`` outside Excel's dates."""
    found = number(value)
    if isinstance(found, XlErr):
        return found
    if not 0 <= found <= max_serial() + 0.999999:
        return XlErr(NUM)
    return int(found)


def _from_ymd(year: int, month: int, day: int) -> float | XlErr:
    """DATE's arithmetic: months and days beyond their range roll over."""
    year, month0 = divmod(year * 12 + month - 1, 12)
    if not 1899 <= year <= 9999:
        return XlErr(NUM)
    if year == 1899 and not is_1904():
        first = -30.0 if month0 == 11 else -61.0  # December 1899 is just before serial 1
        serial = first + day - 1
    else:
        serial = serial_of(_dt.date(year, month0 + 1, 1)) + day - 1
    return XlErr(NUM) if not 0 <= serial <= max_serial() else float(serial)


def _fn(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return elementwise(ELEMENTWISE, *names)


@_fn("DATE")
def _date(y: Any, m: Any, d: Any) -> Any:
    parts = integers(y, m, d)
    if isinstance(parts, XlErr):
        return parts
    year, month, day = parts
    if not 0 <= year <= 9999:
        return XlErr(NUM)
    if year < 1900:
        year += 1900
    return _from_ymd(year, month, day)


def _part(index: int) -> Callable[[Any], Any]:
    def part(value: Any) -> Any:
        serial = date_serial(value)
        return serial if isinstance(serial, XlErr) else float(ymd(serial)[index])
    return part


ELEMENTWISE["YEAR"], ELEMENTWISE["MONTH"], ELEMENTWISE["DAY"] = _part(0), _part(1), _part(2)


def _seconds(value: Any) -> int | XlErr:
    found = number(value)
    if isinstance(found, XlErr):
        return found
    if not 0 <= found <= max_serial() + 1:
        return XlErr(NUM)
    return int(round(found * 86400)) % 86400


@_fn("HOUR")
def _hour(value: Any) -> Any:
    s = _seconds(value)
    return s if isinstance(s, XlErr) else float(s // 3600)


@_fn("MINUTE")
def _minute(value: Any) -> Any:
    s = _seconds(value)
    return s if isinstance(s, XlErr) else float(s // 60 % 60)


@_fn("SECOND")
def _second(value: Any) -> Any:
    s = _seconds(value)
    return s if isinstance(s, XlErr) else float(s % 60)


@_fn("TIME")
def _time(h: Any, m: Any, s: Any) -> Any:
    parts = integers(h, m, s)
    if isinstance(parts, XlErr):
        return parts
    hours, minutes, seconds = parts
    if max(hours, minutes, seconds) > 32767:
        return XlErr(NUM)
    total = hours * 3600 + minutes * 60 + seconds
    return XlErr(NUM) if total < 0 else (total % 86400) / 86400


@_fn("DATEVALUE")
def _datevalue(value: Any) -> Any:
    """DATEVALUE(date_text): the date's serial number; a time after it is ignored, text
    that is a time alone or no date is ``#VALUE!`` (the reader of :mod:`.coerce`)."""
    if isinstance(value, XlErr):
        return value
    found = read_date_time(value) if isinstance(value, str) else None
    if found is None or read_time(value) is not None:  # type: ignore[arg-type]
        return XlErr(VALUE, f"{value!r} is not a date")
    return float(math.floor(found))


@_fn("TIMEVALUE")
def _timevalue(value: Any) -> Any:
    """TIMEVALUE(time_text): the time's fraction of a day; a date before it is ignored."""
    if isinstance(value, XlErr):
        return value
    found = read_date_time(value) if isinstance(value, str) else None
    if found is None:
        return XlErr(VALUE, f"{value!r} is not a time")
    return found - math.floor(found)


_weekday_sunday0 = weekday_sunday0


_WEEK_STARTS = {1: 0, 17: 0, 2: 1, 11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 16: 6}


@_fn("WEEKDAY")
def _weekday(value: Any, kind: Any = MISSING) -> Any:
    serial = date_serial(value)
    which = 1 if kind is MISSING else integer(kind)
    error = first_error(serial, which)
    if error is not None:
        return error
    day = _weekday_sunday0(serial)  # type: ignore[arg-type]
    if which == 3:
        return float((day + 6) % 7)
    if which not in _WEEK_STARTS:
        return XlErr(NUM)
    return float((day - _WEEK_STARTS[which]) % 7 + 1)  # type: ignore[index]


@_fn("WEEKNUM")
def _weeknum(value: Any, kind: Any = MISSING) -> Any:
    serial = date_serial(value)
    which = 1 if kind is MISSING else integer(kind)
    error = first_error(serial, which)
    if error is not None:
        return error
    if which == 21:
        return _isoweeknum(value)
    if which not in _WEEK_STARTS or which == 3:
        return XlErr(NUM)
    year = ymd(serial)[0]  # type: ignore[arg-type]
    jan1 = int(_from_ymd(year, 1, 1))  # type: ignore[arg-type]
    offset = (_weekday_sunday0(jan1) - _WEEK_STARTS[which]) % 7  # type: ignore[index]
    return float((serial - jan1 + offset) // 7 + 1)  # type: ignore[operator]


@_fn("ISOWEEKNUM")
def _isoweeknum(value: Any) -> Any:
    serial = date_serial(value)
    if isinstance(serial, XlErr):
        return serial
    day = date_of(float(max(serial, 1)))
    return day if isinstance(day, XlErr) else float(day.isocalendar()[1])


def _add_months(serial: int, months: int, end_of_month: bool) -> float | XlErr:
    year, month, day = ymd(serial)
    year, month0 = divmod(year * 12 + month - 1 + months, 12)
    if not first_year() <= year <= 9999:
        return XlErr(NUM)
    last = calendar.monthrange(year, month0 + 1)[1]
    return _from_ymd(year, month0 + 1, last if end_of_month else min(day, last))


@_fn("EDATE")
def _edate(start: Any, months: Any) -> Any:
    serial, count = date_serial(start), integer(months)
    error = first_error(serial, count)
    return error if error is not None else _add_months(serial, count, False)  # type: ignore[arg-type]


@_fn("EOMONTH")
def _eomonth(start: Any, months: Any) -> Any:
    serial, count = date_serial(start), integer(months)
    error = first_error(serial, count)
    return error if error is not None else _add_months(serial, count, True)  # type: ignore[arg-type]


@_fn("DAYS")
def _days(end: Any, start: Any) -> Any:
    a, b = date_serial(end), date_serial(start)
    error = first_error(a, b)
    return error if error is not None else float(a - b)  # type: ignore[operator]


@_fn("DATEDIF")
def _datedif(start: Any, end: Any, unit: Any) -> Any:
    a, b, u = date_serial(start), date_serial(end), text(unit)
    error = first_error(a, b, u)
    if error is not None:
        return error
    if a > b:  # type: ignore[operator]
        return XlErr(NUM)
    (y1, m1, d1), (y2, m2, d2) = ymd(a), ymd(b)  # type: ignore[arg-type]
    months = (y2 - y1) * 12 + m2 - m1 - (1 if d2 < d1 else 0)
    kind = u.upper()  # type: ignore[union-attr]
    if kind == "D":
        return float(b - a)  # type: ignore[operator]
    if kind == "M":
        return float(months)
    if kind == "Y":
        return float(months // 12)
    if kind == "YM":
        return float(months % 12)
    if kind == "MD":
        if d2 >= d1:
            return float(d2 - d1)
        py, pm = (y2, m2 - 1) if m2 > 1 else (y2 - 1, 12)
        return float(calendar.monthrange(py, pm)[1] - d1 + d2)
    if kind == "YD":
        shifted = _from_ymd(y2, m1, d1)
        if isinstance(shifted, XlErr) or shifted > b:  # type: ignore[operator]
            shifted = _from_ymd(y2 - 1, m1, d1)
        return shifted if isinstance(shifted, XlErr) else float(b - shifted)  # type: ignore[operator]
    return XlErr(NUM)


def _last_of_february(y: int, m: int, d: int) -> bool:
    return m == 2 and d == calendar.monthrange(y, 2)[1]


@_fn("DAYS360")
def _days360(start: Any, end: Any, european: Any = MISSING) -> Any:
    a, b = date_serial(start), date_serial(end)
    error = first_error(a, b)
    if error is not None:
        return error
    (y1, m1, d1), (y2, m2, d2) = ymd(a), ymd(b)  # type: ignore[arg-type]
    if european is not MISSING and european and not isinstance(european, XlErr):
        d1, d2 = min(d1, 30), min(d2, 30)
    else:
        if d1 == 31 or _last_of_february(y1, m1, d1):
            d1 = 30
        if d2 == 31 and d1 >= 30:
            d2 = 30
    return float((y2 - y1) * 360 + (m2 - m1) * 30 + d2 - d1)


def days_360(start: tuple[int, int, int], end: tuple[int, int, int], method: str) -> int:
    """Days between two dates (year, month, day) counted in 30-day months, as Excel's
    YEARFRAC and bond functions count them. ``method``: ``"us"`` (NASD: the start's 31st or
    last of February is the 30th; the end's 31st is the 30th when the start is then the
    30th or 31st, the end's last of February too when the start's is), ``"us-both"`` (both
    ends adjusted alike, as Excel counts a whole coupon period), ``"eu"`` (every 31st is the 30th).

    >>> days_360((2008, 2, 29), (2008, 8, 31), "us"), days_360((2008, 2, 29), (2008, 8, 31), "us-both")
    (181, 180)
    >>> days_360((2008, 3, 1), (2008, 8, 31), "us"), days_360((2008, 3, 1), (2008, 8, 31), "us-both")
    (180, 179)
    """
    (y1, m1, d1), (y2, m2, d2) = start, end
    if method == "eu":
        d1, d2 = min(d1, 30), min(d2, 30)
    else:
        both = method == "us-both"
        start_february = _last_of_february(y1, m1, d1)
        if _last_of_february(y2, m2, d2) and (start_february or both):
            d2 = 30
        if d2 == 31 and (d1 >= 30 or both):
            d2 = 30
        if d1 == 31 or start_february:
            d1 = 30
    return (y2 - y1) * 360 + (m2 - m1) * 30 + d2 - d1


def actual_year_length(a: int, b: int) -> float:
    """The year's length in days that actual/actual (basis 1) divides by between two whole
    serials ``a`` <= ``b``, as Excel computes it (D. A. Wheeler's analysis): 366 or 365 within
    a year, else the average length of the years the dates span."""
    (y1, m1, d1), (y2, m2, d2) = ymd(a), ymd(b)
    within_year = y1 == y2 or (y2 == y1 + 1 and (m1 > m2 or (m1 == m2 and d1 >= d2)))
    if within_year:
        if y1 == y2 and calendar.isleap(y1):
            return 366.0
        if any(calendar.isleap(y) and a <= serial_of(_dt.date(y, 2, 29)) <= b for y in (y1, y2)) \
                or (m2 == 2 and d2 == 29):
            return 366.0
        return 365.0
    total = sum(366 if calendar.isleap(y) else 365 for y in range(y1, y2 + 1))
    return total / (y2 - y1 + 1)


@_fn("YEARFRAC")
def _yearfrac(start: Any, end: Any, basis: Any = MISSING) -> Any:
    a, b = date_serial(start), date_serial(end)
    kind = 0 if basis is MISSING else integer(basis)
    error = first_error(a, b, kind)
    if error is not None:
        return error
    if kind not in (0, 1, 2, 3, 4):
        return XlErr(NUM)
    if a > b:  # type: ignore[operator]
        a, b = b, a
    if a == b:
        return 0.0
    if kind == 1:
        return (b - a) / actual_year_length(a, b)  # type: ignore[operator, arg-type]
    if kind in (2, 3):
        return (b - a) / (360 if kind == 2 else 365)  # type: ignore[operator]
    return days_360(ymd(a), ymd(b), "eu" if kind == 4 else "us") / 360  # type: ignore[arg-type]


@_fn("TODAY")
def _today() -> float:
    return serial_of(_dt.date.today())


@_fn("NOW")
def _now() -> float:
    now = _dt.datetime.now()
    return serial_of(now.date()) + (now.hour * 3600 + now.minute * 60 + now.second
                                    + now.microsecond / 1e6) / 86400


# -- working days --------------------------------------------------------------------------
def _weekend(value: Any) -> set[int] | XlErr:
    """Weekend days as Monday=0 … Sunday=6, from NETWORKDAYS.INTL's code or mask."""
    if value is MISSING or value is None:
        return {5, 6}
    if isinstance(value, str):
        if len(value) != 7 or set(value) - {"0", "1"} or value == "1111111":
            return XlErr(VALUE)
        return {i for i, ch in enumerate(value) if ch == "1"}
    code = integer(value)
    if isinstance(code, XlErr):
        return code
    if 1 <= code <= 7:
        return {(code + 3) % 7, (code + 4) % 7}
    if 11 <= code <= 17:
        return {(code - 11 + 6) % 7}
    return XlErr(NUM)


def _holidays(arg: Any) -> set[int] | XlErr:
    days: set[int] = set()
    if arg is MISSING:
        return days
    for value, _ in values_of([arg]):
        if value is None:
            continue
        serial = date_serial(value)
        if isinstance(serial, XlErr):
            return serial
        days.add(serial)
    return days


def _monday0(serial: int) -> int:
    return (_weekday_sunday0(serial) + 6) % 7


def _networkdays(here: Any, start: Any, end: Any, weekend: Any, holidays: Any) -> Any:
    a, b = date_serial(scalar(start, here)), date_serial(scalar(end, here))
    off, free = _weekend(scalar(weekend, here) if isinstance(weekend, Rng) else weekend), _holidays(holidays)
    for found in (a, b, off, free):
        if isinstance(found, XlErr):
            return found
    assert isinstance(a, int) and isinstance(b, int) and isinstance(off, set) and isinstance(free, set)
    sign = 1
    if a > b:
        a, b, sign = b, a, -1
    weeks, rest = divmod(b - a + 1, 7)
    count = weeks * (7 - len(off))
    count += sum(1 for s in range(b - rest + 1, b + 1) if _monday0(s) not in off)
    count -= sum(1 for s in free if a <= s <= b and _monday0(s) not in off)
    return float(sign * count)


FUNCTIONS["NETWORKDAYS"] = lambda here, start, end, holidays=MISSING: _networkdays(
    here, start, end, MISSING, holidays)
FUNCTIONS["NETWORKDAYS.INTL"] = lambda here, start, end, weekend=MISSING, holidays=MISSING: \
    _networkdays(here, start, end, weekend, holidays)


def _workday(here: Any, start: Any, days: Any, weekend: Any, holidays: Any) -> Any:
    a, n = date_serial(scalar(start, here)), integer(scalar(days, here))
    off, free = _weekend(weekend), _holidays(holidays)
    for found in (a, n, off, free):
        if isinstance(found, XlErr):
            return found
    assert isinstance(a, int) and isinstance(n, int) and isinstance(off, set) and isinstance(free, set)
    step = 1 if n >= 0 else -1
    serial, left = a, abs(n)
    while left:
        serial += step
        if not 0 <= serial <= max_serial():
            return XlErr(NUM)
        if _monday0(serial) not in off and serial not in free:
            left -= 1
    return float(serial)


FUNCTIONS["WORKDAY"] = lambda here, start, days, holidays=MISSING: _workday(
    here, start, days, MISSING, holidays)
FUNCTIONS["WORKDAY.INTL"] = lambda here, start, days, weekend=MISSING, holidays=MISSING: \
    _workday(here, start, days, weekend, holidays)
