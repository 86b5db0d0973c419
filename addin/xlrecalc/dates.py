"""Excel's two date systems: which day a serial number is.

In the 1900 system (Windows Excel's default) serial 1 is 1 January 1900 and serial 60
is the 29 February 1900 Excel counts though it never was, kept for Lotus 1-2-3; from
1 March 1900 on, serial 0 would be 30 December 1899. In the 1904 system (a workbook
saved with ``<workbookPr date1904="1"/>``) serial 0 is 1 January 1904, with no such
day (Microsoft, "Date systems in Excel"). The system in force is the book's under
evaluation, set by :func:`date_system`; the 1900 system otherwise.

>>> serial_of(_dt.date(2024, 1, 15))
45306.0
>>> with date_system(True):
...     serial_of(_dt.date(2024, 1, 15)), date_of(0.0)
(43844.0, datetime.date(1904, 1, 1))
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["EPOCH", "EPOCH_1904", "date_system", "is_1904", "max_serial", "first_year",
           "serial_of", "date_of", "ymd", "weekday_sunday0", "DAYS_1900_TO_1904"]

EPOCH = _dt.date(1899, 12, 30)  # serial 0 of the 1900 system for dates from 1 March 1900 on
EPOCH_1904 = _dt.date(1904, 1, 1)  # serial 0 of the 1904 system
DAYS_1900_TO_1904 = 1462  # the same day's serial differs by this between the systems
_MAX_1900 = 2958465  # 31 December 9999
_MAX_1904 = _MAX_1900 - DAYS_1900_TO_1904

_DATE1904: ContextVar[bool] = ContextVar("date1904", default=False)


@contextmanager
def date_system(date1904: bool) -> Iterator[None]:
    """Count serial numbers in the 1904 system (``True``) or the 1900 one inside the block."""
    token = _DATE1904.set(bool(date1904))
    try:
        yield
    finally:
        _DATE1904.reset(token)


def is_1904() -> bool:
    return _DATE1904.get()


def max_serial() -> int:
    """The serial of 31 December 9999, Excel's last day."""
    return _MAX_1904 if _DATE1904.get() else _MAX_1900


def first_year() -> int:
    return 1904 if _DATE1904.get() else 1900


def serial_of(day: _dt.date) -> float:
    """The serial number of a date in the date system in force (negative before its first day)."""
    if _DATE1904.get():
        return float((day - EPOCH_1904).days)
    serial = (day - EPOCH).days
    return float(serial if serial >= 61 else serial - 1)


def date_of(serial: float) -> _dt.date | None:
    """The date of a serial number, ``None`` outside Excel's days. In the 1900 system
    serials 1–59 are January and February 1900, 60 (its 29 February) is shown here as
    28 February, and 0 (its "0 January 1900") as 31 December 1899."""
    if not 0 <= serial <= max_serial() + 0.99999999:
        return None
    whole = int(serial)
    if _DATE1904.get():
        return EPOCH_1904 + _dt.timedelta(days=whole)
    if whole >= 61:
        return EPOCH + _dt.timedelta(days=whole)
    return _dt.date(1899, 12, 31) + _dt.timedelta(days=max(whole, 1) - (1 if whole == 60 else 0))


def ymd(serial: int) -> tuple[int, int, int]:
    """Year, month and day of a whole serial number as Excel shows them (``1900-01-00``
    for serial 0 and ``1900-02-29`` for serial 60 in the 1900 system)."""
    if not _DATE1904.get():
        if serial == 0:
            return 1900, 1, 0
        if serial == 60:
            return 1900, 2, 29
    day = date_of(float(serial))
    if day is None:
        raise ValueError(f"serial {serial} is not a day of Excel's")
    return day.year, day.month, day.day


def weekday_sunday0(serial: int) -> int:
    """The day of the week, Sunday 0 … Saturday 6, as Excel counts it: in the 1900
    system serial 1 (1 January 1900) is a Sunday; in the 1904 one serial 0 is a Friday."""
    if _DATE1904.get():
        return (serial + 5) % 7
    return (serial - 1) % 7
