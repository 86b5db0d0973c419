"""Least squares as Excel computes it: LINEST (with its regression statistics) and TREND.

The fit is centred when it has a constant, and solved by Gaussian elimination; the
statistics are those LINEST lays out in five rows (coefficients, their standard errors,
r² and the standard error of y, F and the degrees of freedom, the sums of squares).
Microsoft's examples are in ``tests/test_functions.py``.
"""

from __future__ import annotations

import math
from typing import Any

from .base import registry, NA, NUM, REF, VALUE, is_number, logical
from ..values import MISSING, Arr, XlErr, grid

__all__ = ["FUNCTIONS", "least_squares", "inverse"]

FUNCTIONS, _register = registry()


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; ``None`` for a singular system."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-300:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                if factor:
                    m[r] = [v - factor * p for v, p in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def inverse(a: list[list[float]]) -> list[list[float]] | None:
    n = len(a)
    columns = []
    for i in range(n):
        column = _solve(a, [1.0 if j == i else 0.0 for j in range(n)])
        if column is None:
            return None
        columns.append(column)
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def least_squares(y: list[float], x: list[list[float]], const: bool) -> dict[str, Any] | XlErr:
    """Fit ``y ≈ b + Σ m_j x_j`` (``x`` one row per observation): coefficients, standard
    errors and the statistics LINEST reports. Centred when there is a constant."""
    n, k = len(y), len(x[0]) if x else 0
    my = math.fsum(y) / n if const else 0.0
    mx = [math.fsum(row[j] for row in x) / n if const else 0.0 for j in range(k)]
    xc = [[row[j] - mx[j] for j in range(k)] for row in x]
    yc = [v - my for v in y]
    xtx = [[math.fsum(r[i] * r[j] for r in xc) for j in range(k)] for i in range(k)]
    xty = [math.fsum(r[i] * v for r, v in zip(xc, yc)) for i in range(k)]
    inverted = inverse(xtx)
    if inverted is None:
        return XlErr(NUM, "the x values are collinear")
    m = [math.fsum(inverted[i][j] * xty[j] for j in range(k)) for i in range(k)]
    b = my - math.fsum(m[j] * mx[j] for j in range(k)) if const else 0.0
    fitted = [b + math.fsum(m[j] * row[j] for j in range(k)) for row in x]
    ss_resid = math.fsum((v - f) ** 2 for v, f in zip(y, fitted))
    ss_total = math.fsum((v - my) ** 2 for v in y) if const else math.fsum(v * v for v in y)
    df = n - k - (1 if const else 0)
    ss_reg = ss_total - ss_resid
    sigma2 = ss_resid / df if df > 0 else math.nan
    se_m = [math.sqrt(sigma2 * inverted[i][i]) if df > 0 else math.nan for i in range(k)]
    se_b = (math.sqrt(sigma2 * (1 / n + math.fsum(mx[i] * inverted[i][j] * mx[j]
                                                  for i in range(k) for j in range(k))))
            if const and df > 0 else math.nan)
    r2 = ss_reg / ss_total if ss_total else 1.0
    f = (ss_reg / k) / (ss_resid / df) if df > 0 and ss_resid else math.nan
    return {"m": m, "b": b, "se_m": se_m, "se_b": se_b, "r2": r2, "sey": math.sqrt(sigma2)
            if df > 0 else math.nan, "F": f, "df": float(df), "ss_reg": ss_reg,
            "ss_resid": ss_resid}


def _columns(xs: Any, n: int, y_is_row: bool) -> list[list[float]] | XlErr:
    """The x variables, one list per observation (a row of x values each)."""
    if xs is MISSING:
        return [[float(i + 1)] for i in range(n)]
    rows = grid(xs)
    for v in (v for row in rows for v in row):
        if isinstance(v, XlErr):
            return v
        if not is_number(v):
            return XlErr(VALUE, "the x values must all be numbers")
    height, width = len(rows), len(rows[0])
    if height * width == n:
        return [[float(v)] for row in rows for v in row]
    if not y_is_row and height == n:
        return [[float(v) for v in row] for row in rows]
    if y_is_row and width == n:
        return [[float(rows[i][j]) for i in range(height)] for j in range(width)]
    return XlErr(REF, "the x values do not match the y values")


def _fit(ys: Any, xs: Any, const: Any) -> tuple[dict[str, Any], bool] | XlErr:
    rows = grid(ys)
    y = [v for row in rows for v in row]
    for v in y:
        if isinstance(v, XlErr):
            return v
        if not is_number(v):
            return XlErr(VALUE, "the y values must all be numbers")
    y_is_row = len(rows) == 1 and len(rows[0]) > 1
    x = _columns(xs, len(y), y_is_row)
    if isinstance(x, XlErr):
        return x
    with_const = True if const is MISSING else logical(const)
    if isinstance(with_const, XlErr):
        return with_const
    fitted = least_squares([float(v) for v in y], x, with_const)
    return fitted if isinstance(fitted, XlErr) else (fitted, y_is_row)


@_register("LINEST")
def _linest(here: Any, ys: Any, xs: Any = MISSING, const: Any = MISSING, stats: Any = MISSING) -> Any:
    found = _fit(ys, xs, const)
    if isinstance(found, XlErr):
        return found
    fit, _ = found
    with_stats = False if stats is MISSING else logical(stats)
    if isinstance(with_stats, XlErr):
        return with_stats
    k = len(fit["m"])
    first = [*reversed(fit["m"]), fit["b"]]
    if not with_stats:
        return Arr([first])

    def num(v: float) -> Any:
        return XlErr(NUM) if math.isnan(v) else v
    na = [XlErr(NA)] * (k - 1)
    se_b = num(fit["se_b"]) if fit["b"] or not math.isnan(fit["se_b"]) else XlErr(NA)
    return Arr([first,
                [*(num(v) for v in reversed(fit["se_m"])), se_b],
                [num(fit["r2"]), num(fit["sey"]), *na],
                [num(fit["F"]), fit["df"], *na],
                [fit["ss_reg"], fit["ss_resid"], *na]])


@_register("TREND")
def _trend(here: Any, ys: Any, xs: Any = MISSING, new_xs: Any = MISSING, const: Any = MISSING) -> Any:
    found = _fit(ys, xs, const)
    if isinstance(found, XlErr):
        return found
    fit, y_is_row = found
    k = len(fit["m"])
    target = xs if new_xs is MISSING else new_xs
    if target is MISSING:
        n = len([v for row in grid(ys) for v in row])
        points = [[[float(i + 1)]] for i in range(n)]
        shape = (1, n) if y_is_row else (n, 1)
        values = [fit["b"] + fit["m"][0] * p[0][0] for p in points]
        return Arr([values] if shape[0] == 1 else [[v] for v in values])
    rows = grid(target)
    for v in (v for row in rows for v in row):
        if not is_number(v):
            return v if isinstance(v, XlErr) else XlErr(VALUE)

    def predict(point: list[float]) -> float:
        return fit["b"] + math.fsum(m * p for m, p in zip(fit["m"], point))
    if k == 1:
        return Arr([[predict([float(v)]) for v in row] for row in rows])
    if y_is_row:
        return Arr([[predict([float(rows[i][j]) for i in range(len(rows))])
                     for j in range(len(rows[0]))]])
    return Arr([[predict([float(v) for v in row])] for row in rows])
