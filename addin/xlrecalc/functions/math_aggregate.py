"""Excel's aggregates: SUM, COUNT, MIN, MAX, AVERAGE and their ``A`` forms, PRODUCT,
SUMSQ and SUMPRODUCT, GCD, LCM, SUBTOTAL, AND, OR and XOR; with the ``IF`` and ``IFS``
forms of :mod:`.criteria` (COUNTIF, SUMIF …), whose functions this module's table holds.
"""

from __future__ import annotations

import math
from typing import Any

from .base import (registry, VALUE, integer, is_number, number, numbers_of, values_of,
                             NUM)
from .criteria import FUNCTIONS as _CRITERIA
from .criteria import block as _block
from .criteria import matcher, mean as _mean, over as _over, wildcard
from ..values import MAX_DENSE, Arr, Rng, XlErr, grid, settled, to_bool

__all__ = ["FUNCTIONS", "matcher", "wildcard"]

FUNCTIONS, _register = registry()
FUNCTIONS.update(_CRITERIA)


@_register("SUM")
def _sum(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), lambda xs: float(math.fsum(xs)) if len(xs) > 2 else float(sum(xs)))


@_register("SUMSQ")
def _sumsq(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), lambda xs: float(sum(x * x for x in xs)))


@_register("PRODUCT")
def _product(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), lambda xs: float(math.prod(xs)) if xs else 0.0)


@_register("MIN")
def _min(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), lambda xs: min(xs) if xs else 0.0)


@_register("MAX")
def _max(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), lambda xs: max(xs) if xs else 0.0)


@_register("MINA")
def _mina(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args, True), lambda xs: min(xs) if xs else 0.0)


@_register("MAXA")
def _maxa(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args, True), lambda xs: max(xs) if xs else 0.0)


@_register("AVERAGE")
def _average(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args), _mean)


@_register("AVERAGEA")
def _averagea(here: Any, *args: Any) -> Any:
    return _over(numbers_of(args, True), _mean)


@_register("COUNT")
def _count(here: Any, *args: Any) -> float:
    if len(args) == 1 and type(args[0]) is Rng and _dense(args[0]):
        # a range counted again (COUNT($B$5:$B$204) in every row): counted once
        counted = settled(args[0], "numbers", _numbers_in)
        if counted is not None:
            return counted
    count = 0
    for value, in_range in values_of(args):
        if is_number(value) or (not in_range and value is not None
                                and not isinstance(number(value), XlErr)):
            count += 1
    return float(count)


def _dense(rng: Rng) -> bool:
    """Whether a range is read cell by cell (:meth:`.values.Rng.cells`): no larger than
    the cells its sheet stores, nor than a range may spell out."""
    r2, c2 = rng.book.clip(rng.sheet, rng.r2, rng.c2)
    area = (r2 - rng.r1 + 1) * (c2 - rng.c1 + 1)
    return area <= len(rng.book.cells[rng.sheet]) and area <= MAX_DENSE


def _numbers_in(values: list[Any]) -> float:
    """How many of a range's values are numbers (what COUNT counts in a range)."""
    return float(sum(1 for v in values if is_number(v)))


@_register("COUNTA")
def _counta(here: Any, *args: Any) -> float:
    return float(sum(1 for value, in_range in values_of(args)
                     if value is not None or not in_range))


@_register("COUNTBLANK")
def _countblank(here: Any, *args: Any) -> float:
    count = 0
    for arg in args:
        if isinstance(arg, Rng):
            height, width = arg.shape
            rows = arg.rows()
            seen = sum(len(row) for row in rows)
            count += height * width - seen + sum(1 for row in rows for v in row if v is None or v == "")
        elif isinstance(arg, Arr):
            count += sum(1 for v in arg.cells() if v is None or v == "")
        elif arg is None or arg == "":
            count += 1
    return float(count)


@_register("SUMPRODUCT")
def _sumproduct(here: Any, *args: Any) -> Any:
    if not args:
        return XlErr(VALUE)
    grids = [grid(a) for a in args]
    if len(grids) == 1:  # one array of numbers: each is its own product (1.0 * v is v)
        total = 0.0
        for row in grids[0]:
            for v in row:
                if type(v) is not float:
                    break
                total += v
            else:
                continue
            break
        else:
            return total  # the sum the loop below makes, in the same order
    shape = (len(grids[0]), len(grids[0][0]) if grids[0] else 0)
    if any((len(g), len(g[0]) if g else 0) != shape for g in grids):
        # a whole column clipped to the sheet's last row still has its nominal size
        shapes = {a.shape if isinstance(a, (Rng, Arr)) else (1, 1) for a in args}
        if len(shapes) > 1:
            return XlErr(VALUE, "SUMPRODUCT: the arrays differ in size")
        height = max(len(g) for g in grids)
        grids = [_block(a, height, shape[1]) for a in args]
        shape = (height, shape[1])
    total = 0.0
    for i in range(shape[0]):
        for j in range(shape[1]):
            product = 1.0
            for g in grids:
                v = g[i][j]
                if type(v) is float:  # a number, the common case, multiplied as below
                    product *= v
                elif isinstance(v, XlErr):
                    return v
                else:
                    product *= float(v) if is_number(v) else 0.0
            total += product
    return total


@_register("GCD")
def _gcd(here: Any, *args: Any) -> Any:
    numbers = numbers_of(args)
    if isinstance(numbers, XlErr):
        return numbers
    if any(x < 0 for x in numbers):
        return XlErr(NUM)
    return float(math.gcd(*(int(x) for x in numbers)))


@_register("LCM")
def _lcm(here: Any, *args: Any) -> Any:
    numbers = numbers_of(args)
    if isinstance(numbers, XlErr):
        return numbers
    if any(x < 0 for x in numbers):
        return XlErr(NUM)
    return float(math.lcm(*(int(x) for x in numbers)))



@_register("SUBTOTAL")
def _subtotal(here: Any, code: Any, *args: Any) -> Any:
    which = integer(code)
    if isinstance(which, XlErr):
        return which
    from .statistical import FUNCTIONS as STATS
    names = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT",
             7: "STDEV.S", 8: "STDEV.P", 9: "SUM", 10: "VAR.S", 11: "VAR.P"}
    name = names.get(which % 100)
    if name is None or which not in (which % 100, which % 100 + 100):
        return XlErr(VALUE)
    return {**FUNCTIONS, **STATS}[name](here, *args)


def _logicals(args: tuple[Any, ...]) -> list[bool] | XlErr:
    """The truth values AND, OR and XOR combine: text and blanks in ranges are skipped."""
    if all(type(arg) is bool for arg in args):
        return list(args) if args else XlErr(VALUE)
    out: list[bool] = []
    for value, in_range in values_of(args):
        if value is True or value is False:  # a logical counts as it is, wherever it is
            out.append(value)
            continue
        if in_range and (value is None or isinstance(value, str)):
            continue
        flag = to_bool(value)
        if isinstance(flag, XlErr):
            return flag
        out.append(flag)
    return out if out else XlErr(VALUE)


FUNCTIONS["AND"] = lambda here, *args: _over(_logicals(args), all)  # type: ignore[arg-type]
FUNCTIONS["OR"] = lambda here, *args: _over(_logicals(args), any)  # type: ignore[arg-type]
FUNCTIONS["XOR"] = lambda here, *args: _over(_logicals(args), lambda f: sum(f) % 2 == 1)  # type: ignore[arg-type]
