"""Excel's functions that need the evaluator itself: references made at run time
(``INDEX`` as a reference, ``OFFSET``, ``INDIRECT``, ``CELL``, ``AREAS``, the spill
reference ``A1#``, ``SHEET``, ``SHEETS``), implicit
intersection (``@``, ``SINGLE``), volatile values (``NOW``, ``TODAY``, ``RAND``) and
``SEQUENCE``.

Each entry of :data:`ENGINE` is called as ``fn(book, here, *arguments)`` with the
arguments evaluated (ranges as :class:`~.values.Rng`). They take precedence over the
function library of :mod:`.functions`. Semantics follow Microsoft's function reference
(support.microsoft.com, "<NAME> function"); a value that cannot be known without Excel
is an error whose message says why, never a plausible number.
"""

from __future__ import annotations

import datetime as _dt
import math
import random
import re
from collections.abc import Callable
from typing import Any

from .book_view import BookView
from .dates import serial_of
from .parse import FormulaSyntaxError, column_letters, split_sheet_name
from .values import (MAX_DENSE, MISSING, Arr, Key, Rng, XlErr, scalar, shown,
                     to_bool, to_number, to_text)


__all__ = ["ENGINE", "VOLATILE", "excel_serial"]

_MAX_ROW, _MAX_COL = 1_048_576, 16_384
VOLATILE = frozenset({"NOW", "TODAY", "RAND", "RANDBETWEEN", "RANDARRAY", "OFFSET", "INDIRECT", "CELL"})


def excel_serial(moment: _dt.datetime) -> float:
    """A date and time as Excel's serial number in the book's date system (:mod:`.dates`)."""
    return serial_of(moment.date()) + (moment - _dt.datetime.combine(
        moment.date(), _dt.time())).total_seconds() / 86400.0


def _number(value: Any, h: Key) -> float | XlErr:
    if isinstance(value, (Rng, Arr)):
        value = scalar(value, h)
    return to_number(value)


def _whole(value: Any, h: Key, default: int) -> int | XlErr:
    """An integer argument, truncated as Excel truncates; ``default`` when omitted."""
    if value is MISSING or value is None:
        return default
    if type(value) is float:  # a number: truncated as below, without reading it again
        return int(value)
    number = _number(value, h)
    return number if isinstance(number, XlErr) else int(number)


def _wholes(h: Key, *given: tuple[Any, int]) -> list[int] | XlErr:
    """Several integer arguments with their defaults, or the first error among them."""
    out: list[int] = []
    for argument, default in given:
        number = _whole(argument, h, default)
        if isinstance(number, XlErr):
            return number
        out.append(number)
    return out


# -- references ------------------------------------------------------------------------
def _index(book: "BookView", h: Key, array: Any, row: Any = MISSING, col: Any = MISSING,
           area: Any = MISSING) -> Any:
    """INDEX(array, row_num, [column_num]) and INDEX(reference, row_num, [column_num],
    [area_num]): a reference when given one, so ``INDEX(…):INDEX(…)`` is a range. Row or
    column 0 means the whole column or row; an index outside the array is #REF!."""
    if type(row) is float and col is MISSING and area is MISSING and type(array) is Rng \
            and array.c1 == array.c2:
        # INDEX(A1:A9,3) of one column: the range the general way below gives, at once
        r = int(row)
        if 1 <= r <= array.r2 - array.r1 + 1:
            r += array.r1 - 1
            return Rng(array.book, array.sheet, r, array.c1, r, array.c1)
    if type(row) is float and col is MISSING and area is MISSING and type(array) is Arr:
        # INDEX({1,2,3},2) or INDEX({1;2;3},2): the value the general way below picks, at once
        rows, r = array.rows_, int(row)
        if len(rows) == 1 and 1 <= r <= len(rows[0]) and len(rows[0]) > 1:
            return rows[0][r - 1]
        if len(rows) > 1 and len(rows[0]) == 1 and 1 <= r <= len(rows):
            return rows[r - 1][0]
    if isinstance(array, XlErr):
        return array
    if type(row) is float and col is MISSING and area is MISSING:
        n, r, c = 1, int(row), 0  # INDEX(A1:A9,3): what _wholes gives these at once
    else:
        found = _wholes(h, (area, 1), (row, 0), (col, 0))
        if isinstance(found, XlErr):
            return found
        n, r, c = found
    if isinstance(array, Rng):
        parts = array.areas()
        if not 1 <= n <= len(parts):
            return XlErr("#REF!", f"INDEX: area {n} of a reference with {len(parts)}")
        array = parts[n - 1]
    elif n != 1:
        return XlErr("#REF!", "INDEX: an area number needs a reference")
    height, width = array.shape if isinstance(array, (Rng, Arr)) else (1, 1)
    if col is MISSING and height == 1 and width > 1:
        r, c = 1, r  # one index into a row counts along it
    if r < 0 or c < 0 or r > height or c > width:
        return XlErr("#REF!")
    if isinstance(array, Rng):
        r1, r2 = (array.r1, array.r2) if r == 0 else (array.r1 + r - 1,) * 2
        c1, c2 = (array.c1, array.c2) if c == 0 else (array.c1 + c - 1,) * 2
        return Rng(array.book, array.sheet, r1, c1, r2, c2)
    if not isinstance(array, Arr):
        return array
    rows = array.rows()
    picked = rows if r == 0 else [rows[r - 1]]
    picked = [line if c == 0 else [line[c - 1]] for line in picked]
    return Arr(picked) if len(picked) > 1 or len(picked[0]) > 1 else picked[0][0]


def _offset(book: "BookView", h: Key, ref: Any, rows: Any, cols: Any, height: Any = MISSING,
            width: Any = MISSING) -> Any:
    """OFFSET(reference, rows, cols, [height], [width]): a reference moved and resized;
    #REF! off the sheet, #VALUE! when the reference is not one range."""
    if isinstance(ref, XlErr):
        return ref
    if not isinstance(ref, Rng) or len(ref.areas()) > 1:
        return XlErr("#VALUE!", "OFFSET needs a reference to one range")
    numbers = _wholes(h, (rows, 0), (cols, 0), (height, ref.shape[0]), (width, ref.shape[1]))
    if isinstance(numbers, XlErr):
        return numbers
    dr, dc, tall, wide = numbers
    if tall == 0 or wide == 0:
        return XlErr("#REF!", "OFFSET: a height or width of 0")
    r1, c1 = ref.r1 + dr, ref.c1 + dc
    r2, c2 = r1 + tall - 1 if tall > 0 else r1, c1 + wide - 1 if wide > 0 else c1
    if tall < 0:
        r1 = r1 + tall + 1
    if wide < 0:
        c1 = c1 + wide + 1
    if r1 < 1 or c1 < 1 or r2 > _MAX_ROW or c2 > _MAX_COL:
        return XlErr("#REF!", "OFFSET: the reference leaves the sheet")
    return Rng(ref.book, ref.sheet, r1, c1, r2, c2)


_R1C1_PART = re.compile(r"R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?$", re.IGNORECASE)


def _r1c1(book: "BookView", h: Key, text: str) -> Rng | None:
    sheet_name, area = split_sheet_name(text)
    corners = []
    for part in area.split(":"):
        match = _R1C1_PART.match(part.strip())
        if match is None:
            return None
        row = _r1c1_bound(match.group(1), h[1])
        col = _r1c1_bound(match.group(2), h[2])
        corners.append((row, col))
    if len(corners) > 2:
        return None
    (r1, c1), (r2, c2) = corners[0], corners[-1]
    try:
        sheet = book.sheet(sheet_name, h[0])
    except FormulaSyntaxError:
        return None
    return Rng(book, sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def _r1c1_bound(text: str | None, here: int) -> int:
    if not text:
        return here
    return here + int(text[1:-1]) if text.startswith("[") else int(text)


def _indirect(book: "BookView", h: Key, text: Any, a1: Any = MISSING) -> Any:
    """INDIRECT(ref_text, [a1]): the reference a text names, in A1 or R1C1 style (a
    defined name or a table reference too); #REF! when the text names no reference."""
    text = to_text(scalar(text, h) if isinstance(text, (Rng, Arr)) else text)
    if isinstance(text, XlErr):
        return text
    style = True if a1 is MISSING else to_bool(scalar(a1, h) if isinstance(a1, Rng) else a1)
    if isinstance(style, XlErr):
        return style
    text = text.strip()
    if not style:
        found = _r1c1(book, h, text)
        if found is None:
            return XlErr("#REF!", f"INDIRECT: {text!r} is not an R1C1 reference", refused=text)
        return found
    if not text:
        return XlErr("#REF!", "INDIRECT: an empty text is not a reference")
    try:
        result = book.compile_formula("=" + text, h, False).run(h)
    except (FormulaSyntaxError, RecursionError):
        result = None
    if isinstance(result, Rng):
        return result
    return XlErr("#REF!", f"INDIRECT: {text!r} is not a reference", refused=text)


def _areas(book: "BookView", h: Key, ref: Any) -> Any:
    """AREAS(reference): how many ranges a reference holds."""
    if isinstance(ref, XlErr):
        return ref
    return float(len(ref.areas())) if isinstance(ref, Rng) else XlErr("#VALUE!")


def _anchorarray(book: "BookView", h: Key, ref: Any) -> Any:
    """``A1#`` (stored as ANCHORARRAY(A1)): the range the array formula in A1 spills into,
    as the workbook records it; ``#REF!`` when A1 holds no such formula."""
    if isinstance(ref, XlErr):
        return ref
    if not isinstance(ref, Rng) or ref.shape != (1, 1):
        return XlErr("#REF!", "a spill reference names one cell")
    formula = book.formulas.get((ref.sheet, ref.r1, ref.c1))
    if formula is None or formula.ref is None:
        return XlErr("#REF!", f"{ref.address()}# : the cell holds no formula that spills")
    spill = formula.ref
    return Rng(book, ref.sheet, spill.r1, spill.c1, spill.r2, spill.c2)


def _sheet(book: "BookView", h: Key, value: Any = MISSING) -> Any:
    """SHEET([value]): the number of the sheet of a reference or of the sheet named by
    text, counted in the workbook's order; the formula's own sheet without an argument."""
    order = [name.upper() for name in book.cells]
    if value is MISSING:
        return float(order.index(h[0].upper()) + 1)
    if isinstance(value, XlErr):
        return value
    if isinstance(value, Rng):
        return float(order.index(value.areas()[0].sheet.upper()) + 1)
    name = to_text(value)
    if isinstance(name, XlErr):
        return name
    if name.upper() not in order:
        return XlErr("#N/A", f"SHEET: no sheet named {name!r}")
    return float(order.index(name.upper()) + 1)


def _sheets(book: "BookView", h: Key, ref: Any = MISSING) -> Any:
    """SHEETS([reference]): how many sheets a reference spans (a 3-D reference several);
    the workbook's sheets without an argument."""
    if ref is MISSING:
        return float(len(book.cells))
    if isinstance(ref, XlErr):
        return ref
    if not isinstance(ref, Rng):
        return XlErr("#VALUE!", "SHEETS takes a reference")
    return float(len({area.sheet for area in ref.areas()}))


_NOT_KNOWN = {"filename": "the workbook's saved path", "format": "the cell's number format",
              "color": "the cell's number format", "parentheses": "the cell's number format",
              "prefix": "the cell's alignment", "protect": "the cell's protection",
              "width": "the column's width on screen"}


def _cell(book: "BookView", h: Key, info: Any, ref: Any = MISSING) -> Any:
    """CELL(info_type, [reference]): "address", "row", "col", "contents" and "type" are
    computed; kinds that depend on formatting or the saved file say so."""
    kind = to_text(scalar(info, h) if isinstance(info, (Rng, Arr)) else info)
    if isinstance(kind, XlErr):
        return kind
    kind = kind.lower()
    if ref is MISSING:
        return XlErr("#N/A", f'CELL("{kind}") without a reference reads the cell selected '
                     "in Excel, which is not known without it")
    if isinstance(ref, XlErr):
        return ref
    if not isinstance(ref, Rng):
        return XlErr("#VALUE!", "CELL needs a reference")
    if kind == "address":
        address = f"${column_letters(ref.c1)}${ref.r1}"
        if ref.sheet != h[0]:
            return XlErr("#N/A", 'CELL("address") of another sheet names the saved workbook, '
                         "not known without Excel")
        return address
    if kind == "row":
        return float(ref.r1)
    if kind == "col":
        return float(ref.c1)
    value = book.value(ref.sheet, ref.r1, ref.c1)
    if kind == "contents":
        return 0.0 if value is None else value
    if kind == "type":
        return "b" if value is None else "l" if isinstance(shown(value), str) else "v"
    if kind in _NOT_KNOWN:
        return XlErr("#N/A", f'CELL("{kind}") depends on {_NOT_KNOWN[kind]}, not known without Excel')
    return XlErr("#VALUE!", f"CELL: {kind!r} is not an info_type", refused=kind)


def _single(book: "BookView", h: Key, value: Any) -> Any:
    """Implicit intersection (``@`` and ``_xlfn.SINGLE``): the cell of a range in the
    formula's own row or column, the first value of an array."""
    return scalar(value, h)


# -- arrays and volatile values ---------------------------------------------------------
def _sequence(book: "BookView", h: Key, rows: Any, cols: Any = MISSING, start: Any = MISSING,
              step: Any = MISSING) -> Any:
    """SEQUENCE(rows, [columns], [start], [step]): an array of numbers row by row."""
    sizes = _wholes(h, (rows, 1), (cols, 1))
    if isinstance(sizes, XlErr):
        return sizes
    tall, wide = sizes
    first = _number(start, h) if start is not MISSING else 1.0
    by = _number(step, h) if step is not MISSING else 1.0
    if isinstance(first, XlErr):
        return first
    if isinstance(by, XlErr):
        return by
    if tall < 0 or wide < 0:
        return XlErr("#VALUE!", "SEQUENCE: a negative size")
    if tall == 0 or wide == 0:
        return XlErr("#CALC!", "SEQUENCE: an empty array")
    if tall * wide > MAX_DENSE:
        return XlErr("#NUM!", f"SEQUENCE: {tall * wide:,} values are more than this evaluator keeps")
    return Arr([[first + by * (r * wide + c) for c in range(wide)] for r in range(tall)])


def _now(book: "BookView", h: Key) -> float:
    """NOW(): the date and time of the recalculation, as a serial number (volatile)."""
    return excel_serial(_dt.datetime.now())


def _today(book: "BookView", h: Key) -> float:
    """TODAY(): the date of the recalculation, as a serial number (volatile)."""
    return float(math.floor(excel_serial(_dt.datetime.now())))


def _rand(book: "BookView", h: Key) -> float:
    """RAND(): a uniform number in [0, 1), drawn anew at each recalculation."""
    return random.random()


ENGINE: dict[str, Callable[..., Any]] = {
    "INDEX": _index, "OFFSET": _offset, "INDIRECT": _indirect, "AREAS": _areas, "CELL": _cell,
    "SINGLE": _single, "SEQUENCE": _sequence, "NOW": _now, "TODAY": _today, "RAND": _rand,
    "ANCHORARRAY": _anchorarray, "SHEET": _sheet, "SHEETS": _sheets,
}
