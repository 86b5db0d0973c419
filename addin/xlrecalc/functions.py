"""Excel's own functions for the headless evaluator, written natively.

The library is split by subject (``functions_math``, ``_aggregate``, ``_stats``,
``_regression``, ``_distributions``, ``_arrays``, ``_text``, ``_format``, ``_lookup``,
``_date``, ``_numbers``, ``_tests``, ``_growth``, ``_subtotal``, ``_shape``, ``_locale``
(ASC, JIS, BAHTTEXT, PHONETIC), with the argument rules they share in
``functions_base``); this module gathers them into the tables the compiler reads:

- ``ELEMENTWISE``: functions of scalars, which the compiler lifts over arrays in an array
  context and feeds the implicit intersection of a range otherwise;
- ``BUILTINS``: functions called as ``fn(here, *arguments)`` with ranges, arrays and
  scalars as evaluated (aggregates, lookups, references);
- ``LAZY``: functions that evaluate only the arguments they need (``IF``, ``CHOOSE`` …).

Every function runs inside a guard: a failure costs its own cell (``#VALUE!`` with the
reason), never the recalculation. A function the library does not know (the scope rule
is in this package's README) is not evaluated: its cell keeps the value Excel cached.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from . import (functions_aggregate, functions_arrays, functions_date, functions_distributions,
               functions_growth, functions_locale, functions_lookup, functions_math,
               functions_numbers, functions_regression, functions_shape, functions_stats,
               functions_subtotal, functions_tests, functions_text)
from .functions_base import NA, NUM, VALUE, is_number, number
from .values import MISSING, Arr, Rng, XlErr, grid, lift, scalar, to_bool

__all__ = ["BUILTINS", "ELEMENTWISE", "LAZY", "ARRAY_ARGS", "call_library", "library_has"]

# Functions whose arguments Excel evaluates as arrays even in an ordinary formula.
ARRAY_ARGS = frozenset({"SUMPRODUCT", "MMULT", "TRANSPOSE", "LOOKUP", "FREQUENCY", "LINEST",
                        "TREND", "MDETERM", "MINVERSE", "CORREL", "PEARSON", "RSQ", "SLOPE",
                        "INTERCEPT", "STEYX", "COVAR", "COVARIANCE.P", "COVARIANCE.S",
                        "FORECAST", "FORECAST.LINEAR", "SUMX2MY2", "SUMX2PY2", "SUMXMY2",
                        "FILTER", "SORT", "SORTBY", "UNIQUE", "TRIMMEAN", "T.TEST", "TTEST",
                        "CHISQ.TEST", "CHITEST", "F.TEST", "FTEST", "Z.TEST", "ZTEST", "PROB",
                        "LOGEST", "GROWTH", "AGGREGATE", "EXPAND", "WRAPROWS", "WRAPCOLS",
                        "ARRAYTOTEXT"})


def _index_number(value: Any, here: Any) -> int | XlErr:
    if value is MISSING or value is None:
        return 0
    if isinstance(value, (Rng, Arr)):
        value = scalar(value, here) if isinstance(value, Rng) else grid(value)[0][0]
    found = number(value)
    return found if isinstance(found, XlErr) else int(found)


def _index(here: Any, array: Any, row: Any = MISSING, col: Any = MISSING,
           area: Any = MISSING) -> Any:
    """INDEX(array, row, [column], [area]) returning a reference when given one; an error in
    place of the array passes through, with its message (as in Excel)."""
    if isinstance(array, XlErr):
        return array
    r, c = _index_number(row, here), _index_number(col, here)
    which = 1 if area is MISSING else _index_number(area, here)
    for found in (r, c, which):
        if isinstance(found, XlErr):
            return found
    if which != 1:
        return XlErr("#REF!", "INDEX: one area only, the area number must be 1")
    height, width = array.shape if isinstance(array, (Rng, Arr)) else (1, 1)
    if col is MISSING and height == 1 and width > 1:
        r, c = 1, r  # one index into a row counts along it
    if r < 0 or c < 0 or r > height or c > width:  # type: ignore[operator]
        return XlErr("#REF!")
    if not isinstance(array, (Rng, Arr)):
        return array
    if isinstance(array, Rng):
        r1, r2 = (array.r1, array.r2) if r == 0 else (array.r1 + r - 1,) * 2  # type: ignore[operator]
        c1, c2 = (array.c1, array.c2) if c == 0 else (array.c1 + c - 1,) * 2  # type: ignore[operator]
        return Rng(array.book, array.sheet, r1, c1, r2, c2)
    rows = array.rows()
    picked = rows if r == 0 else [rows[r - 1]]  # type: ignore[operator]
    picked = [line if c == 0 else [line[c - 1]] for line in picked]  # type: ignore[operator]
    return Arr(picked) if len(picked) > 1 or len(picked[0]) > 1 else picked[0][0]


def _row(here: Any, ref: Any = MISSING) -> Any:
    if ref is MISSING:
        return float(here[1])
    if not isinstance(ref, Rng):
        return XlErr(VALUE)
    if ref.r1 == ref.r2:
        return float(ref.r1)
    return Arr([[float(r)] for r in range(ref.r1, ref.r2 + 1)])


def _column(here: Any, ref: Any = MISSING) -> Any:
    if ref is MISSING:
        return float(here[2])
    if not isinstance(ref, Rng):
        return XlErr(VALUE)
    if ref.c1 == ref.c2:
        return float(ref.c1)
    return Arr([[float(c) for c in range(ref.c1, ref.c2 + 1)]])


def _rows(here: Any, ref: Any) -> float:
    return float(ref.shape[0]) if isinstance(ref, (Rng, Arr)) else 1.0


def _columns(here: Any, ref: Any) -> float:
    return float(ref.shape[1]) if isinstance(ref, (Rng, Arr)) else 1.0


def _transpose(here: Any, array: Any) -> Any:
    rows = grid(array)
    return Arr([list(column) for column in zip(*rows)])


def _mmult(here: Any, a: Any, b: Any) -> Any:
    left, right = grid(a), grid(b)
    if len(left[0]) != len(right):
        return XlErr(VALUE, "MMULT: the columns of the first array must match the rows of the second")
    for v in (v for rows in (left, right) for row in rows for v in row):
        if not is_number(v):
            return v if isinstance(v, XlErr) else XlErr(VALUE)
    return Arr([[sum(float(row[k]) * float(right[k][j]) for k in range(len(right)))
                 for j in range(len(right[0]))] for row in left])


_ERROR_NUMBERS = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
                  "#N/A": 7, "#GETTING_DATA": 8, "#SPILL!": 9, "#CALC!": 14}


def _type(here: Any, value: Any) -> float:
    if isinstance(value, (Rng, Arr)) and value.shape != (1, 1):
        return 64.0
    value = grid(value)[0][0] if isinstance(value, (Rng, Arr)) else value
    if isinstance(value, bool):
        return 4.0
    if isinstance(value, XlErr):
        return 16.0
    if isinstance(value, str):
        return 2.0
    return 1.0


def _isref(here: Any, value: Any) -> bool:
    return isinstance(value, Rng)


def _isformula(here: Any, value: Any) -> Any:
    if not isinstance(value, Rng):
        return XlErr(VALUE)
    key = (value.sheet, value.r1, value.c1)
    return key in value.book.formulas or key in value.book.owner


def _parity(odd: bool) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        found = number(value)
        return found if isinstance(found, XlErr) else (int(found) % 2 == 1) == odd
    return check


def _not(value: Any) -> Any:
    flag = to_bool(value)
    return flag if isinstance(flag, XlErr) else not flag


ELEMENTWISE: dict[str, Callable[..., Any]] = {
    "NOT": _not,
    "ISBLANK": lambda v: v is None,
    "ISERROR": lambda v: isinstance(v, XlErr),
    "ISNA": lambda v: isinstance(v, XlErr) and v.code == NA,
    "ISERR": lambda v: isinstance(v, XlErr) and v.code != NA,
    "ISNUMBER": is_number,
    "ISTEXT": lambda v: isinstance(v, str),
    "ISNONTEXT": lambda v: not isinstance(v, str),
    "ISLOGICAL": lambda v: isinstance(v, bool),
    "ISEVEN": _parity(False), "ISODD": _parity(True),
    "ERROR.TYPE": lambda v: float(_ERROR_NUMBERS.get(v.code, 0)) or XlErr(NA)
    if isinstance(v, XlErr) else XlErr(NA),
    "NA": lambda: XlErr(NA),
    "TRUE": lambda: True, "FALSE": lambda: False,
}
for _module in (functions_math, functions_stats, functions_distributions, functions_text,
                functions_date, functions_numbers, functions_tests, functions_shape,
                functions_locale):
    ELEMENTWISE.update(_module.ELEMENTWISE)  # type: ignore[attr-defined]

BUILTINS: dict[str, Callable[..., Any]] = {
    "INDEX": _index, "ROW": _row, "COLUMN": _column, "ROWS": _rows, "COLUMNS": _columns,
    "TRANSPOSE": _transpose, "MMULT": _mmult, "TYPE": _type, "ISREF": _isref,
    "ISFORMULA": _isformula,
}
for _module in (functions_aggregate, functions_stats, functions_regression, functions_text,
                functions_lookup, functions_date, functions_arrays, functions_tests,
                functions_growth, functions_subtotal, functions_shape, functions_numbers,
                functions_locale):
    BUILTINS.update(_module.FUNCTIONS)  # type: ignore[attr-defined]


def _guarded(name: str, fn: Callable[..., Any], skip: int) -> Callable[..., Any]:
    """``fn`` whose failure is its cell's ``#VALUE!`` with the reason, and whose number
    results are finite (``#NUM!`` otherwise); ``skip`` leading arguments are not the
    user's (``here``)."""
    def guarded(*args: Any) -> Any:
        try:
            result = fn(*args)
        except TypeError as exc:
            given = len(args) - skip
            message = f"{name}: wrong number of arguments ({given})" if "argument" in str(exc) \
                else f"{name}: {exc}"
            return XlErr(VALUE, message)
        except (ValueError, ArithmeticError) as exc:
            return XlErr(NUM, f"{name}: {exc}")
        except RecursionError:
            raise  # the engine reports a formula nested too deeply
        except Exception as exc:  # a failure costs this cell, never the recalculation
            return XlErr(VALUE, f"{name}: {type(exc).__name__}: {exc}")
        if isinstance(result, float) and not math.isfinite(result):  # NaN or an infinity
            return XlErr(NUM)
        return result
    guarded.__name__ = fn.__name__
    guarded.__doc__ = fn.__doc__
    return guarded


ELEMENTWISE = {name: _guarded(name, fn, 0) for name, fn in ELEMENTWISE.items()}
BUILTINS = {name: _guarded(name, fn, 1) for name, fn in BUILTINS.items()}


# -- functions that evaluate only the arguments they need ---------------------------
def _if(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    if not 1 <= len(args) <= 3:
        return XlErr(VALUE, "IF takes 1 to 3 arguments")
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


def _single(value: Any) -> Any:
    if isinstance(value, Rng) and value.shape == (1, 1):
        return value.book.value(value.sheet, value.r1, value.c1)
    return value


def _if_error(codes: frozenset[str] | None) -> Callable[[Any, bool, list[Callable[[Any], Any]]], Any]:
    """IFERROR (``codes`` None: any error) and IFNA; over an array, element by element."""
    def caught(v: Any) -> bool:
        return isinstance(v, XlErr) and (codes is None or v.code in codes)

    def run(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
        value = _single(args[0](h))
        if array and isinstance(value, (Rng, Arr)):
            cells = [v for row in grid(value) for v in row]
            if not any(caught(v) for v in cells):
                return value
            fallback = args[1](h) if len(args) > 1 else 0.0
            return lift(lambda v, f: (0.0 if f is MISSING else f) if caught(v) else v, value,
                        fallback)
        if isinstance(value, Rng):
            value = scalar(value, h)
        if caught(value):
            fallback = args[1](h) if len(args) > 1 else 0.0
            return 0.0 if fallback is MISSING else fallback
        return value
    return run


def _choose(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    index = number(scalar(args[0](h), h))
    if isinstance(index, XlErr):
        return index
    if not 1 <= int(index) < len(args):
        return XlErr(VALUE)
    return args[int(index)](h)


def _ifs(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    if len(args) % 2:
        return XlErr(VALUE, "IFS takes conditions and values in pairs")
    for i in range(0, len(args), 2):
        flag = to_bool(scalar(args[i](h), h))
        if isinstance(flag, XlErr):
            return flag
        if flag:
            return args[i + 1](h)
    return XlErr(NA, "IFS: no condition is true")


def _switch(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    from .values import compare
    if len(args) < 3:
        return XlErr(VALUE, "SWITCH takes a value and at least one case")
    value = scalar(args[0](h), h)
    if isinstance(value, XlErr):
        return value
    equal = compare("=")
    pairs = len(args) - 1
    for i in range(1, pairs - pairs % 2 + 1, 2):
        case = scalar(args[i](h), h)
        if isinstance(case, XlErr):
            return case
        if type(case) is type(value) or (is_number(case) and is_number(value)):
            if equal(value, case) is True:
                return args[i + 1](h)
    return args[-1](h) if pairs % 2 else XlErr(NA, "SWITCH: no case matches")


def _lazy_guarded(name: str, fn: Callable[[Any, bool, list[Callable[[Any], Any]]], Any]
                  ) -> Callable[[Any, bool, list[Callable[[Any], Any]]], Any]:
    def guarded(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
        try:
            return fn(h, array, args)
        except RecursionError:
            raise
        except Exception as exc:  # a failure costs this cell, never the recalculation
            return XlErr(VALUE, f"{name}: {type(exc).__name__}: {exc}")
    return guarded


LAZY: dict[str, Callable[[Any, bool, list[Callable[[Any], Any]]], Any]] = {
    name: _lazy_guarded(name, fn) for name, fn in {
        "IF": _if, "IFERROR": _if_error(None), "IFNA": _if_error(frozenset({NA})),
        "CHOOSE": _choose, "IFS": _ifs, "SWITCH": _switch}.items()
}


def library_has(name: str) -> bool:
    """Whether the library has a function of that (upper-case) name."""
    return name in ELEMENTWISE or name in BUILTINS or name in LAZY


def call_library(name: str, values: list[Any]) -> Any:
    """Call a library function on evaluated arguments, as the compiler would (no formula
    cell: a function that needs one gets ``None``)."""
    if name in ELEMENTWISE:
        return lift(ELEMENTWISE[name], *values) if values else ELEMENTWISE[name]()
    if name in BUILTINS:
        return BUILTINS[name](None, *values)
    return XlErr("#NAME?", f"unknown function {name}")
