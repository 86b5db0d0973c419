"""Exponential fits as Excel computes them: LOGEST and GROWTH.

Excel fits ``y = b · m1^x1 · m2^x2 …`` by least squares on ``ln y``: LOGEST is LINEST of
the logarithms with the first row (the coefficients) raised back to ``m`` and ``b``, and
the statistics left as LINEST gives them for ``ln y`` (Microsoft's LOGEST page shows
standard errors of about 0.0026 for a coefficient of 1.46: they are those of ``ln m``);
GROWTH is TREND of the logarithms, raised back. Both run through
:mod:`.statistical_regression`'s LINEST and TREND, so the shapes, the ``const`` and
``stats`` arguments and the errors are LINEST's; a ``y`` that is zero or negative has no
logarithm and gives ``#NUM!``.

Microsoft's example (LOGEST function, GROWTH function): months 11–16, units sold

>>> months = Arr([[11.0], [12.0], [13.0], [14.0], [15.0], [16.0]])
>>> units = Arr([[33100.0], [47300.0], [69000.0], [102000.0], [150000.0], [220000.0]])
>>> [round(v, 7) for v in FUNCTIONS["LOGEST"](None, units, months).rows()[0]]
[1.4632756, 495.3047702]
>>> [round(row[0], 4) for row in FUNCTIONS["GROWTH"](None, units, months, Arr([[17.0], [18.0]])).rows()]
[320196.7184, 468536.0542]
"""

from __future__ import annotations

import math
from typing import Any

from .base import NUM, VALUE, is_number, registry
from .statistical_regression import FUNCTIONS as _REGRESSION
from ..values import MISSING, Arr, XlErr, grid

__all__ = ["FUNCTIONS"]

FUNCTIONS, _register = registry()


def _logarithms(ys: Any) -> Arr | XlErr:
    """``ln y`` for every known y, in the shape given (LINEST reads rows and columns from
    it); an error passes through, text is ``#VALUE!``, zero or less ``#NUM!``."""
    rows = grid(ys)
    out = []
    for row in rows:
        line = []
        for v in row:
            if isinstance(v, XlErr):
                return v
            if not is_number(v):
                return XlErr(VALUE, "the known y values must all be numbers")
            if v <= 0:
                return XlErr(NUM, "an exponential fit needs known y values above 0")
            line.append(math.log(v))
        out.append(line)
    return Arr(out)


def _raised(value: Any) -> Any:
    return math.exp(value) if is_number(value) else value


@_register("LOGEST")
def _logest(here: Any, ys: Any, xs: Any = MISSING, const: Any = MISSING, stats: Any = MISSING) -> Any:
    logs = _logarithms(ys)
    if isinstance(logs, XlErr):
        return logs
    fit = _REGRESSION["LINEST"](here, logs, xs, const, stats)
    if not isinstance(fit, Arr):
        return fit
    rows = fit.rows()
    return Arr([[_raised(v) for v in rows[0]], *rows[1:]])


@_register("GROWTH")
def _growth(here: Any, ys: Any, xs: Any = MISSING, new_xs: Any = MISSING, const: Any = MISSING) -> Any:
    logs = _logarithms(ys)
    if isinstance(logs, XlErr):
        return logs
    trend = _REGRESSION["TREND"](here, logs, xs, new_xs, const)
    if not isinstance(trend, Arr):
        return _raised(trend)
    return Arr([[_raised(v) for v in row] for row in trend.rows()])
