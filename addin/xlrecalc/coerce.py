"""Text read as a number the way Excel (en-US) reads what is typed into a cell.

One reader serves the operators (``="1,000"+0``), every function that takes a number
(``SQRT("16")``) and VALUE, DATEVALUE and TIMEVALUE. It knows what Microsoft's pages
"VALUE function", "DATEVALUE function", "TIMEVALUE function" and "Convert numbers stored
as text to numbers" show Excel accepting: thousands separators, a percentage, a currency
sign, parentheses for a negative number, an exponent, spaces around it, a whole number
and a fraction (``1 1/2``, which LibreOffice reads alike); a date in the
US order or as ISO ``yyyy-mm-dd``, with the month as a number, an abbreviation or its
name; a time of day with or without AM/PM; a date followed by a time. Anything else
is not a number (``None``), which the callers turn into ``#VALUE!``. Only ASCII digits
count: Python's ``float`` also reads ``"nan"``, ``"inf"``, ``"1_000"`` and other
scripts' digits, which Excel does not.

>>> [read_number(t) for t in ("1,000", "50%", "$1,234.50", " 12 ", "1e3", "(12)", "1 1/2")]
[1000.0, 0.5, 1234.5, 12.0, 1000.0, -12.0, 1.5]
>>> [read_number(t) for t in ("2024-01-15", "1/15/2024", "15-Jan-2024", "January 15, 2024")]
[45306.0, 45306.0, 45306.0, 45306.0]
>>> [read_number(t) for t in ("13:30", "1:30 PM", "12:00:00")]
[0.5625, 0.5625, 0.5]
>>> [read_number(t) for t in ("1,00", "nan", "1_000", "abc", "")]
[None, None, None, None, None]
"""

from __future__ import annotations

import datetime as _dt
import math
import re

from .dates import is_1904, max_serial, serial_of

__all__ = ["read_number", "read_plain_number", "read_date_time", "read_date", "read_time"]

_PLAIN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_NUMBER = re.compile(
    r"([+-]?)\s*(\$?)\s*(\(?)\s*(\$?)\s*([0-9][0-9,]*\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?"
    r"\s*(\)?)\s*(%?)", re.ASCII)
_FRACTION = re.compile(r"([+-]?)([0-9]+) +([0-9]+)/([0-9]+)", re.ASCII)
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]*)?", re.ASCII)

_MONTHS = {name: i for i, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1) for name in names}
_TIME = re.compile(r"([0-9]{1,4}):([0-9]{1,2})(?::([0-9]{1,2}(?:\.[0-9]*)?))?\s*(am|pm|a|p)?",
                   re.I | re.ASCII)
_AMPM = re.compile(r"([0-9]{1,2})\s*(am|pm|a|p)", re.I | re.ASCII)
_TRAILING_TIME = re.compile(
    r"\s([0-9]{1,2}(?::[0-9]{1,2}(?::[0-9]{1,2}(?:\.[0-9]*)?)?)?\s*(?:am|pm|a|p)?)$", re.I | re.ASCII)
_DATE_PARTS = re.compile(r"[\s,/\-]+")  # a point is no date separator in en-US


def read_number(text: str) -> float | None:
    """The number, date or time ``text`` spells (see the module's examples), else ``None``."""
    text = text.strip()
    found = read_plain_number(text)
    if found is None:
        found = _read_fraction(text)
    return found if found is not None else read_date_time(text)


def _read_fraction(text: str) -> float | None:
    """A whole number and a fraction, ``1 1/2``, as typed into a cell (a fraction
    alone, ``1/2``, is a date)."""
    found = _FRACTION.fullmatch(text)
    if not found or not int(found.group(4)):
        return None
    sign, whole, numerator, denominator = found.groups()
    value = int(whole) + int(numerator) / int(denominator)
    return -value if sign == "-" else value


def read_plain_number(text: str) -> float | None:
    """A number with Excel's decorations: ``1,000``, ``50%``, ``$1,234.50``, ``(12)``, ``1e3``."""
    text = text.strip()
    if _PLAIN.fullmatch(text):
        value = float(text)
        return value if math.isfinite(value) else None  # "1e400" is no number of Excel's
    found = _NUMBER.fullmatch(text)
    if not found:
        return None
    sign, dollar, open_, dollar_inside, digits, exponent, close, percent = found.groups()
    if bool(open_) != bool(close) or (open_ and sign) or (dollar and dollar_inside):
        return None
    if "," in digits and not _GROUPED.fullmatch(digits):
        return None
    try:
        value = float(digits.replace(",", "") + (f"e{exponent}" if exponent else ""))
    except (ValueError, OverflowError):
        return None
    if not math.isfinite(value):
        return None
    if sign == "-" or open_:
        value = -value
    return value / 100 if percent else value


def _year(text: str) -> int:
    """A year as typed: two digits are 1930–2029, as Excel reads them."""
    year = int(text)
    if len(text) <= 2:
        year += 2000 if year < 30 else 1900
    return year


def _day_serial(year: int, month: int, day: int) -> float | None:
    try:
        serial = serial_of(_dt.date(year, month, day))
    except ValueError:
        if (year, month, day) == (1900, 2, 29) and not is_1904():
            return 60.0  # the day the 1900 system counts
        return None
    lowest = 0 if is_1904() else 1
    return serial if lowest <= serial <= max_serial() else None


def read_date(text: str) -> float | None:
    """A date typed in the en-US order (or ISO ``yyyy-mm-dd``): its serial number."""
    parts = [p for p in _DATE_PARTS.split(text.strip().lower()) if p]
    if not parts or len(parts) > 3:
        return None
    names = [i for i, p in enumerate(parts) if p in _MONTHS]
    rest = [p for i, p in enumerate(parts) if i not in names]
    if len(names) > 1 or any(not (p.isascii() and p.isdigit()) for p in rest):
        return None
    if "," in text and not names:  # "1,2,3" is no date: a comma follows a month's name
        return None
    this_year = _dt.date.today().year
    if names:
        month = _MONTHS[parts[names[0]]]
        if len(rest) == 2:  # 15 Jan 2024, Jan 15 2024, January 15, 2024
            return _day_serial(_year(rest[1]), month, int(rest[0]))
        if len(rest) == 1:  # Jan 15 (this year) or Jan 2024 (its first day)
            if len(rest[0]) == 4 or int(rest[0]) > 31:
                return _day_serial(_year(rest[0]), month, 1)
            return _day_serial(this_year, month, int(rest[0]))
        return None
    if len(rest) == 3:
        if len(rest[0]) == 4:  # 2024-01-15
            return _day_serial(int(rest[0]), int(rest[1]), int(rest[2]))
        return _day_serial(_year(rest[2]), int(rest[0]), int(rest[1]))  # month/day/year
    if len(rest) == 2 and ("/" in text or "-" in text):
        a, b = int(rest[0]), int(rest[1])
        if len(rest[0]) == 4:  # 2024-01
            return _day_serial(a, b, 1)
        if a <= 12 and b <= 31 and len(rest[1]) <= 2:  # 1/15: this year
            return _day_serial(this_year, a, b)
        if a <= 12:  # 1/2024: its first day
            return _day_serial(_year(rest[1]), a, 1)
    return None


def read_time(text: str) -> float | None:
    """A time (``13:30``, ``1:30 PM``, ``12:00:00``, ``3 PM``) as a fraction of a day;
    hours past a day (``100:00``) are more than one day, as Excel reads them typed."""
    text = text.strip()
    found = _TIME.fullmatch(text)
    if found:
        hours, minutes = int(found.group(1)), int(found.group(2))
        seconds = float(found.group(3) or 0)
        suffix = (found.group(4) or "").lower()
    else:
        found = _AMPM.fullmatch(text)
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


def read_date_time(text: str) -> float | None:
    """A date, a time, or a date followed by a time: its serial number with the time
    as its fraction."""
    text = text.strip()
    if not text or len(text) > 40:
        return None
    only_time = read_time(text)
    if only_time is not None:
        return only_time
    time_part = _TRAILING_TIME.search(text)
    if time_part and (":" in time_part.group(1) or re.search(r"[ap]m?$", time_part.group(1), re.I)):
        day = read_date(text[:time_part.start()])
        time = read_time(time_part.group(1))
        return None if day is None or time is None else day + time
    return read_date(text)
