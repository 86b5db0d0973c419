"""Excel's own functions for the headless evaluator, written natively.

The library is split by Excel's categories, a module or a few per category: math and
trigonometry (``math_trig``, ``math_numbers``, ``math_aggregate`` with the IF and IFS
aggregates' criteria in ``criteria``, ``math_subtotal``),
statistical (``statistical`` and ``statistical_*``), logical (``logical``), lookup and
reference (``lookup``, ``lookup_reference``), text (``text``, ``text_format``,
``text_locale``), date and time (``date_time``), information (``information``) and
dynamic arrays (``dynamic_shape``, ``dynamic_arrays``; LET and LAMBDA are compiled by
:mod:`xlrecalc.lambdas`), with the argument rules they share in ``base``. This module
gathers them into the tables the compiler reads:

- ``ELEMENTWISE``: functions of values (every parameter one value, as Excel's function
  reference declares it), which the compiler lifts over arrays in an array context and
  feeds the implicit intersection of a range otherwise (:meth:`.compile._Compiler.elementwise`);
  among them ``KIND_TESTS`` (ISTEXT, ISERROR …), which see a cell as the written workbook
  shows it;
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

from ..values import XlErr, lift
from . import (date_time, dynamic_arrays, dynamic_shape, information, logical, lookup,
               lookup_reference, math_aggregate, math_numbers, math_subtotal, math_trig,
               statistical, statistical_distributions, statistical_growth,
               statistical_regression, statistical_tests, text, text_locale)
from .base import NUM, VALUE
from .information import KIND_TESTS
from .logical import lazy_guarded

__all__ = ["BUILTINS", "ELEMENTWISE", "KIND_TESTS", "LAZY", "ARRAY_ARGS", "LOOKUP_VALUE",
           "call_library", "library_has"]

# Functions whose arguments Excel evaluates as arrays even in an ordinary formula.
ARRAY_ARGS = frozenset({"SUMPRODUCT", "MMULT", "TRANSPOSE", "LOOKUP", "FREQUENCY", "LINEST",
                        "TREND", "MDETERM", "MINVERSE", "CORREL", "PEARSON", "RSQ", "SLOPE",
                        "INTERCEPT", "STEYX", "COVAR", "COVARIANCE.P", "COVARIANCE.S",
                        "FORECAST", "FORECAST.LINEAR", "SUMX2MY2", "SUMX2PY2", "SUMXMY2",
                        "FILTER", "SORT", "SORTBY", "UNIQUE", "TRIMMEAN", "T.TEST", "TTEST",
                        "CHISQ.TEST", "CHITEST", "F.TEST", "FTEST", "Z.TEST", "ZTEST", "PROB",
                        "LOGEST", "GROWTH", "AGGREGATE", "EXPAND", "WRAPROWS", "WRAPCOLS",
                        "ARRAYTOTEXT"})

# Lookups whose first parameter, the value looked up, is a value (Microsoft's pages:
# "lookup_value"): in an array context an array or range given there is looked up
# element by element, an array of the answers of its shape.
LOOKUP_VALUE = frozenset({"MATCH", "XMATCH", "VLOOKUP", "HLOOKUP", "XLOOKUP", "LOOKUP"})


# Each category's modules (by Excel's categories: math and trigonometry, statistical,
# logical, lookup and reference, text, date and time, information, dynamic arrays).
_MODULES = (math_trig, math_numbers, math_aggregate, math_subtotal, statistical,
            statistical_distributions, statistical_regression, statistical_growth,
            statistical_tests, logical, lookup, lookup_reference, text, text_locale, date_time,
            information, dynamic_shape, dynamic_arrays)
ELEMENTWISE: dict[str, Callable[..., Any]] = {}
BUILTINS: dict[str, Callable[..., Any]] = {}
for _module in _MODULES:
    ELEMENTWISE.update(getattr(_module, "ELEMENTWISE", {}))
    BUILTINS.update(getattr(_module, "FUNCTIONS", {}))


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


LAZY: dict[str, Callable[[Any, bool, list[Callable[[Any], Any]]], Any]] = {
    **logical.LAZY, **{name: lazy_guarded(name, fn) for name, fn in lookup_reference.LAZY.items()}}


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
