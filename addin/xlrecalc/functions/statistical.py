"""Excel's statistical functions: spread, order statistics, ranks, percentiles,
correlation and least squares (LINEST, TREND), the normal distribution.

>>> STATS = FUNCTIONS
>>> STATS["MEDIAN"](None, Arr([[3.0, 1.0, 2.0, 10.0]])), STATS["STDEV.S"](None, Arr([[2.0, 4.0, 4.0, 6.0]]))
(2.5, 1.632993161855452)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

from .base import (registry, DIV0, NA, NUM, elementwise, integer, is_number, logical,
                             number, numbers_of, numeric)
from ..values import MISSING, Arr, Rng, XlErr, grid

__all__ = ["FUNCTIONS", "ELEMENTWISE"]

FUNCTIONS, _register = registry()
ELEMENTWISE: dict[str, Callable[..., Any]] = {}


def _of_numbers(*names: str, text_as_zero: bool = False) -> Callable[[Callable[[list[float]], Any]], Any]:
    """Register a function of the numbers its arguments hold (SUM's reading)."""
    def register(fn: Callable[[list[float]], Any]) -> Any:
        def run(here: Any, *args: Any) -> Any:
            xs = numbers_of(args, text_as_zero)
            return xs if isinstance(xs, XlErr) else fn(xs)
        for name in names:
            FUNCTIONS[name] = run
        return fn
    return register


def _devsq(xs: list[float]) -> float:
    mean = math.fsum(xs) / len(xs)
    return math.fsum((x - mean) ** 2 for x in xs)


def _variance(sample: bool) -> Callable[[list[float]], Any]:
    def variance(xs: list[float]) -> Any:
        n = len(xs) - (1 if sample else 0)
        return XlErr(DIV0) if n <= 0 or not xs else _devsq(xs) / n
    return variance


for _names, _sample, _a in ((("VAR", "VAR.S"), True, False), (("VARP", "VAR.P"), False, False),
                            (("VARA",), True, True), (("VARPA",), False, True)):
    _of_numbers(*_names, text_as_zero=_a)(_variance(_sample))
    _stdev_names = tuple(n.replace("VAR", "STDEV") for n in _names)
    _of_numbers(*_stdev_names, text_as_zero=_a)(
        (lambda v: lambda xs: (lambda r: r if isinstance(r, XlErr) else math.sqrt(r))(v(xs)))(_variance(_sample)))


@_of_numbers("DEVSQ")
def _devsq_fn(xs: list[float]) -> Any:
    return _devsq(xs) if xs else XlErr(NUM)


@_of_numbers("AVEDEV")
def _avedev(xs: list[float]) -> Any:
    if not xs:
        return XlErr(NUM)
    mean = math.fsum(xs) / len(xs)
    return math.fsum(abs(x - mean) for x in xs) / len(xs)


@_of_numbers("MEDIAN")
def _median(xs: list[float]) -> Any:
    return statistics.median(xs) if xs else XlErr(NUM)


@_of_numbers("MODE", "MODE.SNGL")
def _mode(xs: list[float]) -> Any:
    counts: dict[float, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    best = max(counts.values(), default=0)
    if best < 2:
        return XlErr(NA)
    return next(x for x in xs if counts[x] == best)


@_of_numbers("GEOMEAN")
def _geomean(xs: list[float]) -> Any:
    if not xs or any(x <= 0 for x in xs):
        return XlErr(NUM)
    return math.exp(math.fsum(math.log(x) for x in xs) / len(xs))


@_of_numbers("HARMEAN")
def _harmean(xs: list[float]) -> Any:
    if not xs or any(x <= 0 for x in xs):
        return XlErr(NUM)
    return len(xs) / math.fsum(1 / x for x in xs)


@_of_numbers("SKEW")
def _skew(xs: list[float]) -> Any:
    n = len(xs)
    sd = _variance(True)(xs)
    if n < 3 or isinstance(sd, XlErr) or sd == 0:
        return XlErr(DIV0)
    mean, s = math.fsum(xs) / n, math.sqrt(sd)
    return n / ((n - 1) * (n - 2)) * math.fsum(((x - mean) / s) ** 3 for x in xs)


@_of_numbers("KURT")
def _kurt(xs: list[float]) -> Any:
    n = len(xs)
    sd = _variance(True)(xs)
    if n < 4 or isinstance(sd, XlErr) or sd == 0:
        return XlErr(DIV0)
    mean, s = math.fsum(xs) / n, math.sqrt(sd)
    total = math.fsum(((x - mean) / s) ** 4 for x in xs)
    return (n * (n + 1) / ((n - 1) * (n - 2) * (n - 3)) * total
            - 3 * (n - 1) ** 2 / ((n - 2) * (n - 3)))


# -- order statistics --------------------------------------------------------------------
def _data(array: Any) -> list[float] | XlErr:
    """The numbers of one array argument: in a range or array text, logicals and blanks
    are skipped; a value typed as the argument is read as a number, as Excel reads it
    (``LARGE(TRUE,1)`` is 1, ``LARGE("2.3",1)`` 2.3, ``LARGE("x",1)`` #VALUE!).

    >>> _data(True), _data("2.3"), _data(Arr([[True, "2.3", 4.0]]))
    ([1.0], [2.3], [4.0])
    """
    if isinstance(array, (Rng, Arr)) or array is None or array is MISSING:
        return numbers_of([array if isinstance(array, (Rng, Arr)) else Arr([[array]])])
    return numbers_of([array])


def _per_k(fn: Callable[[list[float], Any], Any]) -> Callable[..., Any]:
    """A function of (array, k) lifted over a k given as several cells."""
    def run(here: Any, array: Any, k: Any, *rest: Any) -> Any:
        xs = _data(array)
        if isinstance(xs, XlErr):
            return xs
        if isinstance(k, (Rng, Arr)) and k.shape != (1, 1):
            return Arr([[fn(xs, v, *rest) for v in row] for row in grid(k)])
        return fn(xs, grid(k)[0][0] if isinstance(k, (Rng, Arr)) else k, *rest)
    return run


def _kth(largest: bool) -> Callable[[list[float], Any], Any]:
    def kth(xs: list[float], k: Any) -> Any:
        found = number(k)
        if isinstance(found, XlErr):
            return found
        index = math.ceil(found)
        if not 1 <= index <= len(xs):
            return XlErr(NUM)
        return sorted(xs, reverse=largest)[index - 1]
    return kth


FUNCTIONS["LARGE"] = _per_k(_kth(True))
FUNCTIONS["SMALL"] = _per_k(_kth(False))


def _percentile(exclusive: bool) -> Callable[[list[float], Any], Any]:
    def percentile(xs: list[float], k: Any) -> Any:
        p = number(k)
        if isinstance(p, XlErr):
            return p
        n = len(xs)
        if not xs:
            return XlErr(NUM)
        ordered = sorted(xs)
        if exclusive:
            rank = p * (n + 1)
            if not 1 <= rank <= n or not 0 < p < 1:
                return XlErr(NUM)
            rank -= 1
        else:
            if not 0 <= p <= 1:
                return XlErr(NUM)
            rank = p * (n - 1)
        low = int(math.floor(rank))
        fraction = rank - low
        if low + 1 >= n:
            return ordered[low]
        return ordered[low] + fraction * (ordered[low + 1] - ordered[low])
    return percentile


def _quartile(exclusive: bool) -> Callable[[list[float], Any], Any]:
    percentile = _percentile(exclusive)

    def quartile(xs: list[float], q: Any) -> Any:
        found = number(q)
        if isinstance(found, XlErr):
            return found
        quart = int(found)
        if not (1 if exclusive else 0) <= quart <= (3 if exclusive else 4):
            return XlErr(NUM)
        return percentile(xs, quart / 4)
    return quartile


FUNCTIONS["PERCENTILE"] = FUNCTIONS["PERCENTILE.INC"] = _per_k(_percentile(False))
FUNCTIONS["PERCENTILE.EXC"] = _per_k(_percentile(True))
FUNCTIONS["QUARTILE"] = FUNCTIONS["QUARTILE.INC"] = _per_k(_quartile(False))
FUNCTIONS["QUARTILE.EXC"] = _per_k(_quartile(True))


def _percentrank(exclusive: bool) -> Callable[..., Any]:
    def percentrank(xs: list[float], x: Any, significance: Any = MISSING) -> Any:
        value = number(x)
        digits = 3 if significance is MISSING else integer(significance)
        if isinstance(value, XlErr):
            return value
        if isinstance(digits, XlErr):
            return digits
        if digits < 1 or not xs:
            return XlErr(NUM)
        ordered, n = sorted(xs), len(xs)
        if value < ordered[0] or value > ordered[-1]:
            return XlErr(NA)
        below = sum(1 for v in ordered if v < value)
        if value in ordered:
            rank = (below + 1) / (n + 1) if exclusive else below / (n - 1) if n > 1 else 1.0
        else:
            upper = ordered[below]
            lower = ordered[below - 1]
            step = (value - lower) / (upper - lower)
            rank = ((below + step) / (n + 1) if exclusive
                    else (below - 1 + step) / (n - 1))
        return math.floor(rank * 10 ** digits) / 10 ** digits
    return percentrank


FUNCTIONS["PERCENTRANK"] = FUNCTIONS["PERCENTRANK.INC"] = _per_k(_percentrank(False))
FUNCTIONS["PERCENTRANK.EXC"] = _per_k(_percentrank(True))


def _rank(average: bool) -> Callable[..., Any]:
    def rank(here: Any, x: Any, ref: Any, order: Any = MISSING) -> Any:
        if isinstance(x, (Rng, Arr)) and x.shape != (1, 1):
            return Arr([[rank(here, v, ref, order) for v in row] for row in grid(x)])
        value = number(grid(x)[0][0] if isinstance(x, (Rng, Arr)) else x)
        if isinstance(value, XlErr):
            return value
        xs = _data(ref)
        if isinstance(xs, XlErr):
            return xs
        ascending = False if order is MISSING else logical(order)
        if isinstance(ascending, XlErr):
            return ascending
        ties = xs.count(value)
        if not ties:
            return XlErr(NA)
        better = sum(1 for v in xs if (v < value if ascending else v > value))
        return better + (ties + 1) / 2 if average else float(better + 1)
    return rank


FUNCTIONS["RANK"] = FUNCTIONS["RANK.EQ"] = _rank(False)
FUNCTIONS["RANK.AVG"] = _rank(True)


# -- two variables -----------------------------------------------------------------------
def _pairs(ys: Any, xs: Any) -> tuple[list[float], list[float]] | XlErr:
    """The (y, x) pairs where both are numbers; ``#N/A`` when the arrays differ in size."""
    a = [v for row in grid(ys) for v in row]
    b = [v for row in grid(xs) for v in row]
    if len(a) != len(b):
        return XlErr(NA, "the arrays differ in size")
    for v in a + b:
        if isinstance(v, XlErr):
            return v
    kept = [(float(p), float(q)) for p, q in zip(a, b) if is_number(p) and is_number(q)]
    return [p for p, _ in kept], [q for _, q in kept]


def _moments(ys: Any, xs: Any) -> tuple[int, float, float, float, float, float] | XlErr:
    found = _pairs(ys, xs)
    if isinstance(found, XlErr):
        return found
    y, x = found
    n = len(y)
    if n == 0:
        return XlErr(DIV0)
    my, mx = math.fsum(y) / n, math.fsum(x) / n
    sxy = math.fsum((p - my) * (q - mx) for p, q in zip(y, x))
    sxx = math.fsum((q - mx) ** 2 for q in x)
    syy = math.fsum((p - my) ** 2 for p in y)
    return n, my, mx, sxy, sxx, syy


def _two(name: str, fn: Callable[[int, float, float, float, float, float], Any]) -> None:
    def run(here: Any, a: Any, b: Any) -> Any:
        found = _moments(a, b)
        return found if isinstance(found, XlErr) else fn(*found)
    FUNCTIONS[name] = run


def _correl(n: int, my: float, mx: float, sxy: float, sxx: float, syy: float) -> Any:
    return XlErr(DIV0) if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


_two("CORREL", _correl)
_two("PEARSON", _correl)
_two("RSQ", lambda *m: (lambda r: r if isinstance(r, XlErr) else r * r)(_correl(*m)))
_two("SLOPE", lambda n, my, mx, sxy, sxx, syy: XlErr(DIV0) if sxx == 0 else sxy / sxx)
_two("INTERCEPT", lambda n, my, mx, sxy, sxx, syy: XlErr(DIV0) if sxx == 0 else my - sxy / sxx * mx)
_two("COVAR", lambda n, my, mx, sxy, sxx, syy: sxy / n)
_two("COVARIANCE.P", lambda n, my, mx, sxy, sxx, syy: sxy / n)
_two("COVARIANCE.S", lambda n, my, mx, sxy, sxx, syy: XlErr(DIV0) if n < 2 else sxy / (n - 1))
_two("STEYX", lambda n, my, mx, sxy, sxx, syy: XlErr(DIV0) if n < 3 or sxx == 0
     else math.sqrt((syy - sxy * sxy / sxx) / (n - 2)))


@_register("FORECAST", "FORECAST.LINEAR")
def _forecast(here: Any, x: Any, ys: Any, xs: Any) -> Any:
    value = number(x)
    found = _moments(ys, xs)
    if isinstance(value, XlErr):
        return value
    if isinstance(found, XlErr):
        return found
    n, my, mx, sxy, sxx, syy = found
    return XlErr(DIV0) if sxx == 0 else my + sxy / sxx * (value - mx)


# -- the normal distribution -------------------------------------------------------------
@elementwise(ELEMENTWISE, "NORM.DIST", "NORMDIST")
@numeric
def _norm_dist(x: float, mean: float, sd: float, cumulative: float) -> Any:
    if sd <= 0:
        return XlErr(NUM)
    dist = statistics.NormalDist(mean, sd)
    return dist.cdf(x) if cumulative else dist.pdf(x)


@elementwise(ELEMENTWISE, "NORM.S.DIST")
@numeric
def _norm_s_dist(z: float, cumulative: float) -> Any:
    dist = statistics.NormalDist()
    return dist.cdf(z) if cumulative else dist.pdf(z)


@elementwise(ELEMENTWISE, "NORMSDIST")
@numeric
def _normsdist(z: float) -> Any:
    return statistics.NormalDist().cdf(z)


@elementwise(ELEMENTWISE, "NORM.INV", "NORMINV")
@numeric
def _norm_inv(p: float, mean: float, sd: float) -> Any:
    if not 0 < p < 1 or sd <= 0:
        return XlErr(NUM)
    return statistics.NormalDist(mean, sd).inv_cdf(p)


@elementwise(ELEMENTWISE, "NORM.S.INV", "NORMSINV")
@numeric
def _norm_s_inv(p: float) -> Any:
    return statistics.NormalDist().inv_cdf(p) if 0 < p < 1 else XlErr(NUM)


@elementwise(ELEMENTWISE, "STANDARDIZE")
@numeric
def _standardize(x: float, mean: float, sd: float) -> Any:
    return XlErr(NUM) if sd <= 0 else (x - mean) / sd


@elementwise(ELEMENTWISE, "ERF")
@numeric
def _erf(low: float, high: float | None = None) -> float:
    return math.erf(low) if high is None else math.erf(high) - math.erf(low)


@elementwise(ELEMENTWISE, "ERFC")
@numeric
def _erfc(x: float) -> float:
    return math.erfc(x)
