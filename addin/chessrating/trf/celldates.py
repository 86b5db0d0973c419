"""Dates as a workbook's cells hold them, read for a rating report: what the cell says, or
a problem naming why it is not written.

A cell holds a date as a date (a serial number in a cell formatted as a date), as a
number in a cell that is not (``32995``: a serial pasted as a value), or as text.
**Decisions** (docs/RULES.md §9):

* Text is read the way FIDE's and European users write it: ``YYYY/MM/DD`` (``.`` and
  ``-`` too), ``DD.MM.YYYY`` and ``DD.MM.YY`` (dots: always day first; ``02.03.26`` is
  2 March 2026), English month names. ``DD/MM/YYYY`` with slashes or dashes is read day
  first only where it cannot be read month first (``24/09/2010``); ``03/07/2026`` could
  be either and is refused, as is ``NN/NN/NN`` (year first as TRF round dates, day first,
  or month first). A two-digit year is 20YY for an event; a birth date's century is
  never guessed.
* A date before 1910 is no event's and no active player's: it is a number typed into a
  date cell (``2026`` there is serial 2026, 18 July 1905). A serial from 1900 to 2100 is
  read as the year it is where the field takes a year (a birth date), else refused.
* A number in a cell not formatted as a date is a year where it is one (1900–2100),
  else a serial from 1910 on read as its date and named (Excel shows it as a date only
  when formatted as one).

>>> cell_date("02.03.26"), cell_date("03/07/2026")[1]
((datetime.date(2026, 3, 2), None), "'03/07/2026' could be day first or month first (type dates as YYYY/MM/DD); not written")
>>> cell_date(_dt.datetime(1905, 7, 18))
(None, 'holds 2026, a year typed into a date cell (shown as 1905/07/18); not written')
>>> birth_text(32995, "Report!E19")
('1990/05/02', 'Report!E19: 32995 read as the date 1990/05/02 (a date serial in a cell not formatted as a date)')
>>> birth_text(_dt.datetime(1905, 6, 9), "Report!E20"), birth_text("15.04.1987", "Report!E21")
(('1987', 'Report!E20: holds 1987, a year typed into a date cell; read as the year 1987'), ('1987/04/15', None))
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

__all__ = ["cell_date", "birth_text", "text_date", "cell_address"]

_EPOCH = _dt.date(1899, 12, 30)  # Excel's day 0 (the 1900 date system)
_EARLIEST = _dt.date(1910, 1, 1)
_YEARS = range(1900, 2101)
_TRF_BIRTH = re.compile(r"[0-9]{4}(?:/[0-9]{2}/[0-9]{2})?")  # TRF's YYYY/MM/DD (00 allowed), or a year


def _serial(day: _dt.date) -> int:
    return (day - _EPOCH).days


def text_date(text: str, *, century: bool = True) -> tuple[_dt.date | None, str | None]:
    """The date ``text`` writes (module doc), or ``None`` and why not; ``century=False``
    refuses a two-digit year.

    >>> text_date("2026-03-02"), text_date("02.03.26", century=False)[1]
    ((datetime.date(2026, 3, 2), None), "'02.03.26' has a two-digit year (type dates as YYYY/MM/DD)")
    """
    from .codec import parse_date

    shown = text.strip()
    parts = [p for p in re.split(r"[./\-\s,]+", shown) if p]
    digits = len(parts) == 3 and all(p.isascii() and p.isdigit() for p in parts)
    dots = "." in shown and not re.search(r"[/\-]", shown)
    try:
        if digits and len(parts[0]) == 4:
            return _dt.date(*map(int, parts)), None
        if digits and len(parts[2]) in (2, 4) and len(parts[0]) <= 2 and len(parts[1]) <= 2:
            a, b, y = map(int, parts)
            if len(parts[2]) == 2:
                if not dots:
                    return None, f"{shown!r} could be year, day or month first (type dates as YYYY/MM/DD)"
                if not century:
                    return None, f"{shown!r} has a two-digit year (type dates as YYYY/MM/DD)"
                y += 2000
            if dots or a > 12 or a == b:
                return _dt.date(y, b, a), None
            if b > 12:
                return _dt.date(y, a, b), None
            return None, f"{shown!r} could be day first or month first (type dates as YYYY/MM/DD)"
    except ValueError:
        return None, f"{shown!r} is not a date"
    found = None if digits else parse_date(shown)
    return (found, None) if found else (None, f"{shown!r} is not a date")


def cell_date(value: Any) -> tuple[_dt.date | None, str | None]:
    """An event's date cell (start, end, a round's): the date, or ``None`` and why not
    (``None, None`` for a blank cell)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, _dt.date):
        if value >= _EARLIEST:
            return value, None
        serial = _serial(value)
        what = f"a year typed into a date cell (shown as {value:%Y/%m/%d})" if serial in _YEARS \
            else f"a number typed into a date cell (shown as {value:%Y/%m/%d})"
        return None, f"holds {serial}, {what}; not written"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number_date(value, "")
    if isinstance(value, str):
        found, problem = text_date(value)
        return found, None if problem is None else problem + "; not written"
    return None, f"{value!r} is not a date; not written"


def _number_date(value: float, where: str) -> tuple[_dt.date | None, str | None]:
    """A number in a cell not formatted as a date: a serial from 1910 on, read and named."""
    if float(value).is_integer() and _serial(_EARLIEST) <= value < _serial(_dt.date(2101, 1, 1)):
        day = _EPOCH + _dt.timedelta(days=int(value))
        return day, f"{where}{int(value)} read as the date {day:%Y/%m/%d} (a date serial in a cell " \
                    "not formatted as a date)"
    return None, f"{where}{value!r} is not a date; not written"


def birth_text(value: Any, where: str) -> tuple[str, str | None]:
    """A birth date cell as the TRF writes it (``YYYY/MM/DD``, or a year alone), and a
    problem naming the cell ``where`` when it was read otherwise than it shows or not
    written."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "", None
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, _dt.date):
        if value >= _EARLIEST:
            return f"{value:%Y/%m/%d}", None
        serial = _serial(value)
        if serial in _YEARS:
            return str(serial), f"{where}: holds {serial}, a year typed into a date cell; read as the year {serial}"
        return "", f"{where}: holds {serial}, a number typed into a date cell (shown as {value:%Y/%m/%d}); not written"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if float(value).is_integer() and int(value) in _YEARS:
            return str(int(value)), None
        day, problem = _number_date(value, f"{where}: ")
        return ("" if day is None else f"{day:%Y/%m/%d}"), problem
    text = str(value).strip()
    if _TRF_BIRTH.fullmatch(text):
        return text, None
    day, problem = text_date(text, century=False)
    if day is None:
        return "", f"{where}: {problem}; not written"
    return f"{day:%Y/%m/%d}", None


def cell_address(sheet: str, row: int, col: int) -> str:
    """A cell's address as Excel shows it.

    >>> cell_address("Report", 21, 5)
    'Report!E21'
    """
    from xlrecalc import column_letters
    return f"{sheet}!{column_letters(col)}{row}"
