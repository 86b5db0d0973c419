"""Excel's own functions for the headless evaluator.

The few that take references or lazy arguments, and the hot ones of a crosstable, are
written here; every other function comes from the ``formulas`` package's library
(``formulas.get_functions()``), called with numpy arrays and its own blank and error
values, and its answer turned back into ours.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .values import (MISSING, Arr, Rng, XlErr, errors_in, grid, lift, scalar, to_bool,
                            to_number)

__all__ = ["BUILTINS", "LAZY", "ARRAY_ARGS", "call_library", "library_has"]

# Functions whose arguments Excel evaluates as arrays even in an ordinary formula.
ARRAY_ARGS = frozenset({"SUMPRODUCT", "MMULT", "TRANSPOSE"})


def _numbers(args: tuple[Any, ...]) -> list[float] | XlErr:
    """The numbers a SUM-like function counts: numbers inside ranges, coerced scalars."""
    out: list[float] = []
    for arg in args:
        if arg is MISSING:
            continue
        if isinstance(arg, (Rng, Arr)):
            for value in arg.cells():
                if isinstance(value, XlErr):
                    return value
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    out.append(float(value))
        else:
            number = to_number(arg)
            if isinstance(number, XlErr):
                return number
            out.append(number)
    return out


def _sum(here: Any, *args: Any) -> Any:
    numbers = _numbers(args)
    return numbers if isinstance(numbers, XlErr) else float(sum(numbers))


def _min(here: Any, *args: Any) -> Any:
    numbers = _numbers(args)
    return numbers if isinstance(numbers, XlErr) else (min(numbers) if numbers else 0.0)


def _max(here: Any, *args: Any) -> Any:
    numbers = _numbers(args)
    return numbers if isinstance(numbers, XlErr) else (max(numbers) if numbers else 0.0)


def _average(here: Any, *args: Any) -> Any:
    numbers = _numbers(args)
    if isinstance(numbers, XlErr):
        return numbers
    return sum(numbers) / len(numbers) if numbers else XlErr("#DIV/0!")


def _count(here: Any, *args: Any) -> float:
    count = 0
    for arg in args:
        if isinstance(arg, (Rng, Arr)):
            count += sum(1 for v in arg.cells()
                         if isinstance(v, (int, float)) and not isinstance(v, bool))
        elif arg is not MISSING and arg is not None and not isinstance(to_number(arg), XlErr):
            count += 1
    return float(count)


def _counta(here: Any, *args: Any) -> float:
    count = 0
    for arg in args:
        if isinstance(arg, (Rng, Arr)):
            count += sum(1 for v in arg.cells() if v is not None)
        elif arg is not MISSING:
            count += 1
    return float(count)


def _index_number(value: Any) -> int | XlErr:
    if value is MISSING or value is None:
        return 0
    if isinstance(value, Rng):
        rows = value.rows()
        value = rows[0][0] if rows and rows[0] else None
    number = to_number(value)
    return number if isinstance(number, XlErr) else int(number)


def _index(here: Any, array: Any, row: Any = MISSING, col: Any = MISSING) -> Any:
    """INDEX(array, row, [column]) returning a reference when given one; an error in
    place of the array passes through, with its message (as in Excel)."""
    if isinstance(array, XlErr):
        return array
    r, c = _index_number(row), _index_number(col)
    if isinstance(r, XlErr):
        return r
    if isinstance(c, XlErr):
        return c
    height, width = array.shape if isinstance(array, (Rng, Arr)) else (1, 1)
    if col is MISSING and height == 1 and width > 1:
        r, c = 1, r  # one index into a row counts along it
    if r < 0 or c < 0 or r > height or c > width:
        return XlErr("#REF!")
    if not isinstance(array, (Rng, Arr)):
        return array
    if isinstance(array, Rng):
        r1, r2 = (array.r1, array.r2) if r == 0 else (array.r1 + r - 1,) * 2
        c1, c2 = (array.c1, array.c2) if c == 0 else (array.c1 + c - 1,) * 2
        return Rng(array.book, array.sheet, r1, c1, r2, c2)
    rows = array.rows()
    picked = rows if r == 0 else [rows[r - 1]]
    picked = [row if c == 0 else [row[c - 1]] for row in picked]
    return Arr(picked) if len(picked) > 1 or len(picked[0]) > 1 else picked[0][0]


def _row(here: Any, ref: Any = MISSING) -> Any:
    return float(ref.r1) if isinstance(ref, Rng) else float(here[1]) if ref is MISSING else XlErr("#VALUE!")


def _column(here: Any, ref: Any = MISSING) -> Any:
    return float(ref.c1) if isinstance(ref, Rng) else float(here[2]) if ref is MISSING else XlErr("#VALUE!")


def _rows(here: Any, ref: Any) -> float:
    return float(ref.shape[0]) if isinstance(ref, (Rng, Arr)) else 1.0


def _columns(here: Any, ref: Any) -> float:
    return float(ref.shape[1]) if isinstance(ref, (Rng, Arr)) else 1.0


def _logicals(args: tuple[Any, ...]) -> list[bool] | XlErr:
    """The truth values AND and OR combine: text and blanks inside ranges are skipped."""
    out: list[bool] = []
    for arg in args:
        if arg is MISSING:
            continue
        values = arg.cells() if isinstance(arg, (Rng, Arr)) else [arg]
        for value in values:
            if isinstance(arg, (Rng, Arr)) and (value is None or isinstance(value, str)):
                continue
            flag = to_bool(value)
            if isinstance(flag, XlErr):
                return flag
            out.append(flag)
    return out if out else XlErr("#VALUE!")


def _and(here: Any, *args: Any) -> Any:
    flags = _logicals(args)
    return flags if isinstance(flags, XlErr) else all(flags)


def _or(here: Any, *args: Any) -> Any:
    flags = _logicals(args)
    return flags if isinstance(flags, XlErr) else any(flags)


def _not(here: Any, value: Any) -> Any:
    flag = to_bool(_first(value))
    return flag if isinstance(flag, XlErr) else not flag


def _first(value: Any) -> Any:
    return grid(value)[0][0] if isinstance(value, (Rng, Arr)) else value


def _is(test: Callable[[Any], bool]) -> Callable[..., Any]:
    def check(here: Any, value: Any) -> Any:
        if isinstance(value, Arr):
            return lift(lambda v: test(v), value)
        return test(_first(value))
    return check


BUILTINS: dict[str, Callable[..., Any]] = {
    "SUM": _sum, "MIN": _min, "MAX": _max, "AVERAGE": _average, "COUNT": _count,
    "COUNTA": _counta, "INDEX": _index, "ROW": _row, "COLUMN": _column, "ROWS": _rows,
    "COLUMNS": _columns, "NA": lambda here: XlErr("#N/A"), "AND": _and, "OR": _or, "NOT": _not,
    "ISBLANK": _is(lambda v: v is None),
    "ISERROR": _is(lambda v: isinstance(v, XlErr)),
    "ISNA": _is(lambda v: isinstance(v, XlErr) and v.code == "#N/A"),
    "ISERR": _is(lambda v: isinstance(v, XlErr) and v.code != "#N/A"),
    "ISNUMBER": _is(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "ISTEXT": _is(lambda v: isinstance(v, str)),
    "ISLOGICAL": _is(lambda v: isinstance(v, bool)),
}


# -- functions that evaluate only the arguments they need ---------------------------
def _if(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    if not 1 <= len(args) <= 3:
        return XlErr("#VALUE!", "IF takes 1 to 3 arguments")
    condition = args[0](h)
    if array and isinstance(condition, (Rng, Arr)):
        then = args[1](h) if len(args) > 1 else True
        other = args[2](h) if len(args) > 2 else False
        return lift(lambda c, a, b: _pick(c, a, b), condition, then, other)
    chosen = _choose_branch(to_bool(scalar(condition, h)), len(args))
    if isinstance(chosen, XlErr):
        return chosen
    if chosen is None:
        return False
    value = args[chosen](h)
    return 0.0 if value is MISSING else value


def _choose_branch(flag: Any, count: int) -> Any:
    if isinstance(flag, XlErr):
        return flag
    if flag:
        return 1 if count > 1 else None
    return 2 if count > 2 else None


def _pick(condition: Any, then: Any, other: Any) -> Any:
    flag = to_bool(condition)
    if isinstance(flag, XlErr):
        return flag
    value = then if flag else other
    return 0.0 if value is MISSING else value


def _iferror(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    value = args[0](h)
    if isinstance(_single(value), XlErr):
        return args[1](h) if len(args) > 1 else 0.0
    return value


def _ifna(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    value = args[0](h)
    first = _single(value)
    if isinstance(first, XlErr) and first.code == "#N/A":
        return args[1](h) if len(args) > 1 else 0.0
    return value


def _single(value: Any) -> Any:
    return _first(value) if isinstance(value, Rng) and value.shape == (1, 1) else value


def _choose(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    index = to_number(scalar(args[0](h), h))
    if isinstance(index, XlErr):
        return index
    if not 1 <= int(index) < len(args):
        return XlErr("#VALUE!")
    return args[int(index)](h)


LAZY: dict[str, Callable[[Any, bool, list[Callable[[Any], Any]]], Any]] = {
    "IF": _if, "IFERROR": _iferror, "IFNA": _ifna, "CHOOSE": _choose,
}


# -- the formulas package's library ---------------------------------------------------
@functools.lru_cache(maxsize=1)
def _library() -> tuple[dict[str, Any], Any, Any, Any]:
    import numpy as np
    import schedula
    import formulas
    from formulas.tokens.operand import XlError
    return formulas.get_functions(), np, schedula.EMPTY, XlError


def library_has(name: str) -> bool:
    return name in _library()[0]


def _to_library(value: Any, np: Any, empty: Any, errors: Any) -> Any:
    def cell(v: Any) -> Any:
        if v is None:
            return empty
        if isinstance(v, XlErr):
            return errors.get(v.code, errors["#VALUE!"])
        return v
    if isinstance(value, (Rng, Arr)):
        rows = [[cell(v) for v in row] for row in value.rows()]
        array = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
        for i, row in enumerate(rows):
            array[i, :] = row
        return array
    return empty if value is MISSING else cell(value)


def _from_library(value: Any, np: Any, empty: Any, error_type: Any) -> Any:
    if value is empty or value is None:
        return None
    if isinstance(value, error_type):
        return XlErr(str(value))
    if isinstance(value, np.ndarray):
        array = np.asarray(value, dtype=object)
        if array.ndim == 0:
            return _from_library(array.item(), np, empty, error_type)
        if array.ndim == 1:
            array = array.reshape(1, -1)
        rows = [[_from_library(v, np, empty, error_type) for v in row] for row in array.tolist()]
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else Arr(rows)
    if isinstance(value, np.generic):
        return _from_library(value.item(), np, empty, error_type)
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if hasattr(value, "value"):  # a formulas Ranges object
        return _from_library(value.value, np, empty, error_type)
    return XlErr("#VALUE!")


def call_library(name: str, values: list[Any]) -> Any:
    """Call one of Excel's functions from the ``formulas`` library."""
    funcs, np, empty, error_type = _library()
    from formulas.functions import Error
    while values and values[-1] is MISSING:
        values.pop()
    arguments = [_to_library(v, np, empty, Error.errors) for v in values]
    function = funcs[name]
    if isinstance(function, dict):  # some entries carry their callable under "function"
        function = function["function"]
    try:
        result = _from_library(function(*arguments), np, empty, error_type)
    except Exception:
        result = XlErr("#VALUE!")
    if isinstance(result, XlErr):
        # keep the reason an argument's error carried in, when that error comes out
        for value in values:
            cause = errors_in(value.cells()) if isinstance(value, (Rng, Arr)) else value
            if isinstance(cause, XlErr) and cause.code == result.code:
                return cause
    return result
