"""Excel's array shaping and array-as-text functions: EXPAND, WRAPROWS, WRAPCOLS,
TEXTSPLIT, ARRAYTOTEXT, VALUETOTEXT, RANDARRAY and FORMULATEXT.

Shapes follow Microsoft's pages: a cell the result has but the source lacks is filled
with ``pad_with`` (``#N/A`` when it is omitted); a size that would shrink the array is
``#VALUE!``; a wrap count below 1 is ``#NUM!``. Text follows Excel's General format
(``VALUETOTEXT``'s strict form quotes text, doubling its quotes). RANDARRAY's values are
random; its shape and its bounds are exact (whole numbers between ``min`` and ``max``
inclusive, or reals in ``[min, max)``). FORMULATEXT reads the formula the workbook
stores for the cell, without the ``_xlfn.`` prefixes the file format adds.

Microsoft's examples (WRAPROWS function, ARRAYTOTEXT function):

>>> FUNCTIONS["WRAPROWS"](None, Arr([["A", "B", "C", "D", "E", "F", "G"]]), 3.0)
Arr([['A', 'B', 'C'], ['D', 'E', 'F'], ['G', XlErr('#N/A'), XlErr('#N/A')]])
>>> data = Arr([[True, XlErr("#VALUE!")], [1234.01234, "Seattle"], ["Hello", 1123.0]])
>>> FUNCTIONS["ARRAYTOTEXT"](None, data, 0.0)
'TRUE, #VALUE!, 1234.01234, Seattle, Hello, 1123'
>>> FUNCTIONS["ARRAYTOTEXT"](None, data, 1.0)
'{TRUE,#VALUE!;1234.01234,"Seattle";"Hello",1123}'
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from typing import Any

from .base import (NA, NUM, VALUE, elementwise, integer, is_number, logical, number,
                             registry, text)
from ..values import MAX_DENSE, MISSING, Arr, Rng, XlErr, excel_text, grid

__all__ = ["FUNCTIONS", "ELEMENTWISE"]

FUNCTIONS, _register = registry()
ELEMENTWISE: dict[str, Callable[..., Any]] = {}


def _one(value: Any) -> Any:
    """A scalar argument given as a one-cell range or array."""
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else XlErr(VALUE)
    return value


def _pad(value: Any) -> Any:
    value = _one(value)
    return XlErr(NA) if value is MISSING else value


def _size(value: Any, default: int) -> int | XlErr:
    value = _one(value)
    return default if value is MISSING or value is None else integer(value)


@_register("EXPAND")
def _expand(here: Any, array: Any, rows: Any, columns: Any = MISSING, pad_with: Any = MISSING) -> Any:
    source = grid(array)
    height, width = len(source), len(source[0])
    tall, wide = _size(rows, height), _size(columns, width)
    if isinstance(tall, XlErr):
        return tall
    if isinstance(wide, XlErr):
        return wide
    if tall < height or wide < width:
        return XlErr(VALUE, f"EXPAND: {tall} × {wide} is smaller than the array's {height} × {width}")
    if tall * wide > MAX_DENSE:
        return XlErr(NUM, "EXPAND: more values than this evaluator keeps")
    pad = _pad(pad_with)
    return Arr([[source[r][c] if r < height and c < width else pad for c in range(wide)]
                for r in range(tall)])


def _wrap(name: str, by_rows: bool) -> None:
    @_register(name)
    def wrap(here: Any, vector: Any, wrap_count: Any, pad_with: Any = MISSING) -> Any:
        source = grid(vector)
        if len(source) != 1 and len(source[0]) != 1:
            return XlErr(VALUE, f"{name}: the vector must be one row or one column")
        count = integer(_one(wrap_count))
        if isinstance(count, XlErr):
            return count
        if count < 1:
            return XlErr(NUM, f"{name}: wrap_count must be at least 1")
        values = [v for row in source for v in row]
        pad = _pad(pad_with)
        lines = [values[i:i + count] for i in range(0, len(values), count)]
        lines = [line + [pad] * (count - len(line)) for line in lines]
        return Arr(lines) if by_rows else Arr([list(column) for column in zip(*lines)])


_wrap("WRAPROWS", True)
_wrap("WRAPCOLS", False)


def _delimiters(value: Any) -> list[str] | XlErr:
    if value is MISSING or value is None:
        return []
    out = []
    for v in (v for row in grid(value) for v in row):
        found = text(v)
        if isinstance(found, XlErr):
            return found
        if found:
            out.append(found)
    return out


def _splitter(delimiters: list[str], ignore_case: bool) -> Callable[[str], list[str]]:
    if not delimiters:
        return lambda s: [s]
    # the longest delimiter first, so "--" is one delimiter where both "-" and "--" are given
    pattern = re.compile("|".join(re.escape(d) for d in sorted(delimiters, key=len, reverse=True)),
                         re.I if ignore_case else 0)
    return pattern.split


@_register("TEXTSPLIT")
def _textsplit(here: Any, value: Any, col_delimiter: Any = MISSING, row_delimiter: Any = MISSING,
               ignore_empty: Any = MISSING, match_mode: Any = MISSING, pad_with: Any = MISSING) -> Any:
    source = text(_one(value))
    if isinstance(source, XlErr):
        return source
    columns, rows = _delimiters(col_delimiter), _delimiters(row_delimiter)
    if isinstance(columns, XlErr):
        return columns
    if isinstance(rows, XlErr):
        return rows
    if not columns and not rows:
        return XlErr(VALUE, "TEXTSPLIT needs a column or a row delimiter")
    skip = False if ignore_empty is MISSING else logical(ignore_empty)
    mode = 0 if match_mode is MISSING else integer(_one(match_mode))
    if isinstance(skip, XlErr):
        return skip
    if isinstance(mode, XlErr):
        return mode
    if mode not in (0, 1):
        return XlErr(VALUE, "TEXTSPLIT: match_mode must be 0 or 1")
    split_rows, split_columns = _splitter(rows, mode == 1), _splitter(columns, mode == 1)
    lines = [split_columns(line) for line in split_rows(source)]
    if skip:
        lines = [[v for v in line if v != ""] for line in lines if line != [""]]
        lines = [line for line in lines if line]
    if not lines:
        return XlErr("#CALC!", "TEXTSPLIT: nothing is left once empty values are ignored")
    width = max(len(line) for line in lines)
    pad = _pad(pad_with)
    result: list[list[Any]] = [list(line) + [pad] * (width - len(line)) for line in lines]
    return result[0][0] if len(result) == 1 and width == 1 else Arr(result)


def _as_text(value: Any, strict: bool) -> str:
    """A value as VALUETOTEXT and ARRAYTOTEXT write it."""
    if value is None or value is MISSING:
        return ""
    if isinstance(value, XlErr):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if is_number(value):
        return excel_text(float(value))
    return '"' + str(value).replace('"', '""') + '"' if strict else str(value)


def _format(value: Any) -> int | XlErr:
    found = 0 if value is MISSING else integer(_one(value))
    if isinstance(found, XlErr):
        return found
    return found if found in (0, 1) else XlErr(VALUE, "format must be 0 (concise) or 1 (strict)")


@elementwise(ELEMENTWISE, "VALUETOTEXT")
def _valuetotext(value: Any, format_: Any = MISSING) -> Any:
    style = _format(format_)
    return style if isinstance(style, XlErr) else _as_text(value, style == 1)


@_register("ARRAYTOTEXT")
def _arraytotext(here: Any, array: Any, format_: Any = MISSING) -> Any:
    style = _format(format_)
    if isinstance(style, XlErr):
        return style
    rows = grid(array)
    if style == 0:
        return ", ".join(_as_text(v, False) for row in rows for v in row)
    return "{" + ";".join(",".join(_as_text(v, True) for v in row) for row in rows) + "}"


@_register("RANDARRAY")
def _randarray(here: Any, rows: Any = MISSING, columns: Any = MISSING, low: Any = MISSING,
               high: Any = MISSING, whole: Any = MISSING) -> Any:
    tall, wide = _size(rows, 1), _size(columns, 1)
    bottom = 0.0 if _one(low) in (MISSING, None) else number(_one(low))
    top = 1.0 if _one(high) in (MISSING, None) else number(_one(high))
    integral = False if whole is MISSING else logical(whole)
    if isinstance(tall, XlErr):
        return tall
    if isinstance(wide, XlErr):
        return wide
    if isinstance(bottom, XlErr):
        return bottom
    if isinstance(top, XlErr):
        return top
    if isinstance(integral, XlErr):
        return integral
    if tall < 0 or wide < 0:
        return XlErr(VALUE, "RANDARRAY: a negative size")
    if tall == 0 or wide == 0:
        return XlErr("#CALC!", "RANDARRAY: an empty array")
    if tall * wide > MAX_DENSE:
        return XlErr(NUM, "RANDARRAY: more values than this evaluator keeps")
    if bottom > top:
        return XlErr(VALUE, "RANDARRAY: min is greater than max")
    if integral:
        first, last = math.ceil(bottom), math.floor(top)
        if first > last:
            return XlErr(VALUE, "RANDARRAY: no whole number lies between min and max")
        return Arr([[float(random.randint(first, last)) for _ in range(wide)] for _ in range(tall)])
    return Arr([[bottom + random.random() * (top - bottom) for _ in range(wide)]
                for _ in range(tall)])


_PREFIXES = re.compile(r"_xl(?:fn|ws)\.", re.I)


@_register("FORMULATEXT")
def _formulatext(here: Any, reference: Any) -> Any:
    if isinstance(reference, XlErr):
        return reference
    if not isinstance(reference, Rng):
        return XlErr(VALUE, "FORMULATEXT needs a reference")
    book, key = reference.book, (reference.sheet, reference.r1, reference.c1)
    formula = book.formulas.get(book.owner.get(key, key))
    if formula is None:
        return XlErr(NA, f"FORMULATEXT: {reference.address()} holds no formula")
    return _PREFIXES.sub("", formula.text)
