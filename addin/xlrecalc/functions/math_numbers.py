"""Excel's BASE, SERIESSUM, MUNIT, ECMA.CEILING, and ERF.PRECISE and ERFC.PRECISE (the
error function under the names that take one argument). Examples from Microsoft's pages
(support.microsoft.com, *BASE function*, *ERF.PRECISE function*, *ERFC.PRECISE function*):

>>> E = ELEMENTWISE
>>> E["BASE"](7.0, 2.0), E["BASE"](100.0, 16.0), E["BASE"](15.0, 2.0, 10.0)
('111', '64', '0000001111')
>>> round(FUNCTIONS["ERF.PRECISE"](None, 0.745), 7), round(FUNCTIONS["ERFC.PRECISE"](None, 1.0), 8)
(0.7079289, 0.15729921)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .base import NUM, VALUE, elementwise, integer, is_number, numbers, numeric, one_value_each
from ..values import MAX_DENSE, MISSING, Arr, Rng, XlErr, grid

__all__ = ["ELEMENTWISE", "FUNCTIONS"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
FUNCTIONS: dict[str, Callable[..., Any]] = {}


# -- the error function's .PRECISE names, which take one argument ------------------------
def _logical_refused(fn: Callable[[float], float]) -> Callable[[Any], Any]:
    """A function of one number that, as Excel's ERF.PRECISE does, refuses a logical."""
    read = numeric(fn)

    def run(x: Any) -> Any:
        return XlErr(VALUE) if isinstance(x, bool) else read(x)
    return run


FUNCTIONS["ERF.PRECISE"] = one_value_each(_logical_refused(math.erf))
FUNCTIONS["ERFC.PRECISE"] = one_value_each(_logical_refused(math.erfc))


# -- BASE, ECMA.CEILING -------------------------------------------------------------
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@elementwise(ELEMENTWISE, "BASE")
def _base(value: Any, radix: Any, min_length: Any = MISSING) -> Any:
    """BASE(number, radix, [min_length]): 0 ≤ number < 2^53, radix 2–36, min_length
    0–255, each truncated."""
    found = numbers(value, radix, 0.0 if min_length is MISSING else min_length)
    if isinstance(found, XlErr):
        return found
    whole, base, width = (int(v) for v in found)
    if not (0 <= found[0] < 2 ** 53 and 2 <= base <= 36 and 0 <= width <= 255):
        return XlErr(NUM)
    out = ""
    while whole:
        whole, digit = divmod(whole, base)
        out = _DIGITS[digit] + out
    return (out or "0").rjust(width, "0")


@elementwise(ELEMENTWISE, "ECMA.CEILING")
@numeric
def _ecma_ceiling(x: float, significance: float) -> Any:
    """ECMA-376's CEILING: away from zero to a multiple of significance; #NUM! when the
    two have different signs, 0 for a significance of 0."""
    if significance == 0 or x == 0:
        return 0.0
    if (x > 0) != (significance > 0):
        return XlErr(NUM)
    quotient = float(f"{x / significance:.15g}")  # 15 digits first, as CEILING does
    return float(f"{math.ceil(quotient) * significance:.15g}")


# -- SERIESSUM, MUNIT -----------------------------------------------------------------
def _seriessum(here: Any, x: Any, n: Any, m: Any, coefficients: Any) -> Any:
    """SERIESSUM(x, n, m, coefficients) = Σ aᵢ x^(n + i·m), the coefficients read in
    row order; a non-numeric coefficient is #VALUE!."""
    found = numbers(*(v.cells()[0] if isinstance(v, (Rng, Arr)) and v.shape == (1, 1) else v
                      for v in (x, n, m)))
    if isinstance(found, XlErr):
        return found
    base, first, step = found
    cells = coefficients.cells() if isinstance(coefficients, (Rng, Arr)) else [coefficients]
    total = 0.0
    for i, a in enumerate(cells):
        if isinstance(a, XlErr):
            return a
        if not isinstance(a, (int, float)) or isinstance(a, bool):
            return XlErr(VALUE, "SERIESSUM: every coefficient must be a number")
        total += a * base ** (first + i * step)
    return total


def _munit(here: Any, dimension: Any) -> Any:
    """MUNIT(dimension): the identity matrix; a dimension below 1 is #VALUE!. Given
    several dimensions (a range or an array), each gives the top-left cell of its matrix
    (1 or its error), as Excel does."""
    if isinstance(dimension, (Rng, Arr)):
        cells = grid(dimension)
        if len(cells) > 1 or len(cells[0]) > 1:
            return Arr([[_top_left(v) for v in row] for row in cells])
        dimension = cells[0][0]
    size = _identity_size(dimension)
    if isinstance(size, XlErr):
        return size
    return Arr([[1.0 if r == c else 0.0 for c in range(size)] for r in range(size)])


def _top_left(dimension: Any) -> Any:
    size = _identity_size(dimension)
    return size if isinstance(size, XlErr) else 1.0


def _identity_size(dimension: Any) -> int | XlErr:
    size = integer(dimension)
    if isinstance(size, XlErr):
        return size
    if size < 1:
        return XlErr(VALUE, "MUNIT: the dimension must be at least 1")
    if size * size > MAX_DENSE:  # what the evaluator spells out cell by cell at most
        return XlErr(NUM, f"MUNIT: a {size:,} × {size:,} matrix is too large")
    return size


FUNCTIONS["SERIESSUM"] = _seriessum
FUNCTIONS["MUNIT"] = _munit


def _mmult(here: Any, a: Any, b: Any) -> Any:
    left, right = grid(a), grid(b)
    if len(left[0]) != len(right):
        return XlErr(VALUE, "MMULT: the columns of the first array must match the rows of the second")
    for v in (v for rows in (left, right) for row in rows for v in row):
        if not is_number(v):
            return v if isinstance(v, XlErr) else XlErr(VALUE)
    return Arr([[sum(float(row[k]) * float(right[k][j]) for k in range(len(right)))
                 for j in range(len(right[0]))] for row in left])


FUNCTIONS["MMULT"] = _mmult
