"""Excel's statistical tests: T.TEST, CHISQ.TEST, F.TEST, Z.TEST (and their old names
TTEST, CHITEST, FTEST, ZTEST), PROB and BINOM.DIST.RANGE.

Each test computes its statistic and reads its probability from the distributions of
:mod:`.statistical_distributions` (Student's t, chi-squared, F, binomial) and the normal
distribution of :mod:`.statistical`. T.TEST's unequal-variance form (type 3) uses the
Welch–Satterthwaite degrees of freedom unrounded, through the incomplete beta function,
as Excel does; the other forms have whole degrees of freedom.

Examples from Microsoft's pages (F.TEST function, Z.TEST function, PROB function,
BINOM.DIST.RANGE function):

>>> from xlrecalc.values import Arr
>>> round(FUNCTIONS["F.TEST"](None, Arr([[6.0, 7.0, 9.0, 15.0, 21.0]]),
...                           Arr([[20.0, 28.0, 31.0, 38.0, 40.0]])), 8)
0.64831785
>>> data = Arr([[3.0, 6.0, 7.0, 8.0, 6.0, 5.0, 4.0, 2.0, 1.0, 9.0]])
>>> round(FUNCTIONS["Z.TEST"](None, data, 4.0), 6), round(FUNCTIONS["Z.TEST"](None, data, 6.0), 6)
(0.090574, 0.863043)
>>> FUNCTIONS["PROB"](None, Arr([[0.0, 1.0, 2.0, 3.0]]), Arr([[0.2, 0.3, 0.1, 0.4]]), 1.0, 3.0)
0.8
>>> round(ELEMENTWISE["BINOM.DIST.RANGE"](60.0, 0.75, 45.0, 50.0), 3)
0.524
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .base import (DIV0, NA, NUM, elementwise, integer, is_number, numbers_of, numeric,
                             registry)
from .statistical_distributions import ELEMENTWISE as _DISTRIBUTIONS
from .statistical_distributions import beta_i
from .statistical import ELEMENTWISE as _STATS
from ..values import MISSING, XlErr, grid

__all__ = ["FUNCTIONS", "ELEMENTWISE"]

FUNCTIONS, _register = registry()
ELEMENTWISE: dict[str, Callable[..., Any]] = {}


def _cells(array: Any) -> list[Any]:
    return [v for row in grid(array) for v in row]


def _sample(array: Any) -> list[float] | XlErr:
    """The numbers an array or range holds (text, logicals and blanks skipped)."""
    return numbers_of([array])


def _mean_var(xs: list[float]) -> tuple[float, float]:
    mean = math.fsum(xs) / len(xs)
    return mean, math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)


def _t_upper(t: float, df: float) -> float:
    """P(T > t) for t ≥ 0 with ``df`` degrees of freedom, whole or not."""
    return 0.5 * beta_i(df / 2, 0.5, df / (df + t * t))


def _paired(a: Any, b: Any) -> tuple[list[float], list[float]] | XlErr:
    """The pairs where both cells hold numbers; ``#N/A`` when the arrays differ in size."""
    left, right = _cells(a), _cells(b)
    if len(left) != len(right):
        return XlErr(NA, "T.TEST: a paired test needs arrays of the same size")
    for v in left + right:
        if isinstance(v, XlErr):
            return v
    kept = [(float(p), float(q)) for p, q in zip(left, right) if is_number(p) and is_number(q)]
    return [p for p, _ in kept], [q for _, q in kept]


@_register("T.TEST", "TTEST")
def _t_test(here: Any, array1: Any, array2: Any, tails: Any, kind: Any) -> Any:
    sides, which = integer(tails), integer(kind)
    if isinstance(sides, XlErr):
        return sides
    if isinstance(which, XlErr):
        return which
    if sides not in (1, 2) or which not in (1, 2, 3):
        return XlErr(NUM, "T.TEST: tails must be 1 or 2 and type 1, 2 or 3")
    if which == 1:
        pairs = _paired(array1, array2)
        if isinstance(pairs, XlErr):
            return pairs
        differences = [p - q for p, q in zip(*pairs)]
        n = len(differences)
        if n < 2:
            return XlErr(DIV0)
        mean, var = _mean_var(differences)
        if var == 0:
            return XlErr(DIV0)
        t, df = abs(mean) / math.sqrt(var / n), float(n - 1)
    else:
        x, y = _sample(array1), _sample(array2)
        if isinstance(x, XlErr):
            return x
        if isinstance(y, XlErr):
            return y
        n1, n2 = len(x), len(y)
        if n1 < 2 or n2 < 2:
            return XlErr(DIV0)
        (m1, v1), (m2, v2) = _mean_var(x), _mean_var(y)
        if which == 2:
            df = float(n1 + n2 - 2)
            pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
            spread = math.sqrt(pooled * (1 / n1 + 1 / n2))
        else:
            a, b = v1 / n1, v2 / n2
            spread = math.sqrt(a + b)
            df = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1)) if a or b else 0.0
        if spread == 0:
            return XlErr(DIV0)
        t = abs(m1 - m2) / spread
    return sides * _t_upper(t, df)


@_register("CHISQ.TEST", "CHITEST")
def _chisq_test(here: Any, actual: Any, expected: Any) -> Any:
    rows_a, rows_e = grid(actual), grid(expected)
    height, width = len(rows_a), len(rows_a[0])
    if (height, width) != (len(rows_e), len(rows_e[0])):
        return XlErr(NA, "CHISQ.TEST: the actual and expected ranges differ in size")
    if height == width == 1:
        return XlErr(NA, "CHISQ.TEST: one cell gives no degrees of freedom")
    statistic = []
    for a, e in zip(_cells(actual), _cells(expected)):
        for v in (a, e):
            if isinstance(v, XlErr):
                return v
        if not (is_number(a) and is_number(e)):
            continue
        if e == 0:
            return XlErr(DIV0)
        if e < 0 or a < 0:
            return XlErr(NUM)
        statistic.append((float(a) - float(e)) ** 2 / float(e))
    df = (height - 1) * (width - 1) if height > 1 and width > 1 else max(height, width) - 1
    return _DISTRIBUTIONS["CHISQ.DIST.RT"](math.fsum(statistic), float(df))


@_register("F.TEST", "FTEST")
def _f_test(here: Any, array1: Any, array2: Any) -> Any:
    x, y = _sample(array1), _sample(array2)
    if isinstance(x, XlErr):
        return x
    if isinstance(y, XlErr):
        return y
    if len(x) < 2 or len(y) < 2:
        return XlErr(DIV0)
    v1, v2 = _mean_var(x)[1], _mean_var(y)[1]
    if v1 == 0 or v2 == 0:
        return XlErr(DIV0)
    below = _DISTRIBUTIONS["F.DIST"](v1 / v2, float(len(x) - 1), float(len(y) - 1), True)
    return 2 * min(below, 1 - below)


@_register("Z.TEST", "ZTEST")
def _z_test(here: Any, array: Any, x: Any, sigma: Any = MISSING) -> Any:
    data = _sample(array)
    if isinstance(data, XlErr):
        return data
    if not data:
        return XlErr(NA, "Z.TEST: the array holds no numbers")
    point = numbers_of([x])
    if isinstance(point, XlErr):
        return point
    n = len(data)
    if sigma is MISSING:
        if n < 2:
            return XlErr(DIV0)
        spread = math.sqrt(_mean_var(data)[1])
    else:
        given = numbers_of([sigma])
        if isinstance(given, XlErr):
            return given
        spread = given[0]
        if spread < 0:
            return XlErr(NUM, "Z.TEST: sigma must not be negative")
    if spread == 0:
        return XlErr(DIV0)
    z = (math.fsum(data) / n - point[0]) / (spread / math.sqrt(n))
    return 1 - _STATS["NORM.S.DIST"](z, True)


@_register("PROB")
def _prob(here: Any, xs: Any, probabilities: Any, lower: Any, upper: Any = MISSING) -> Any:
    values, chances = _cells(xs), _cells(probabilities)
    if len(values) != len(chances):
        return XlErr(NA, "PROB: x_range and prob_range differ in size")
    for v in values + chances:
        if isinstance(v, XlErr):
            return v
    kept = [(float(v), float(p)) for v, p in zip(values, chances) if is_number(v) and is_number(p)]
    if any(not 0 < p <= 1 for _, p in kept):
        return XlErr(NUM, "PROB: each probability must be above 0 and at most 1")
    if abs(math.fsum(p for _, p in kept) - 1) > 1e-9:
        return XlErr(NUM, "PROB: the probabilities do not add up to 1")
    bounds = numbers_of([lower] if upper is MISSING else [lower, upper])
    if isinstance(bounds, XlErr):
        return bounds
    low, high = bounds[0], bounds[-1]
    return math.fsum(p for v, p in kept if low <= v <= high)


@elementwise(ELEMENTWISE, "BINOM.DIST.RANGE")
@numeric
def _binom_range(trials: float, p: float, first: float, last: float | None = None) -> Any:
    n, s = int(trials), int(first)
    s2 = s if last is None else int(last)
    if n < 0 or not 0 <= p <= 1 or not 0 <= s <= n or not s <= s2 <= n:
        return XlErr(NUM)
    pmf = _DISTRIBUTIONS["BINOM.DIST"]
    return math.fsum(pmf(float(k), float(n), p, False) for k in range(s, s2 + 1))


