"""Excel's math and trigonometry functions of scalars, rounding as Excel rounds.

Excel rounds the decimal number it shows (15 significant digits), not the binary one:
``ROUND(2.675, 2)`` is 2.68 where Python's ``round`` gives 2.67.

>>> ELEMENTWISE["ROUND"](2.675, 2.0), ELEMENTWISE["ROUND"](-2.5, 0.0), ELEMENTWISE["ROUND"](1234.5, -2.0)
(2.68, -3.0, 1200.0)
>>> ELEMENTWISE["CEILING"](-2.5, 2.0), ELEMENTWISE["FLOOR"](-2.5, 2.0), ELEMENTWISE["MROUND"](10.0, 3.0)
(-2.0, -4.0, 9.0)
"""

from __future__ import annotations

import decimal
import math
import random
from collections.abc import Callable
from typing import Any

from .base import DIV0, NUM, elementwise, numeric, significant
from ..values import XlErr

__all__ = ["ELEMENTWISE", "round_digits"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
_fn = elementwise  # shorter in the many registrations below
_TRIG_LIMIT = 2.0 ** 27  # Excel's trigonometric functions refuse larger arguments


def round_digits(x: float, digits: float, mode: str = decimal.ROUND_HALF_UP) -> float:
    """``x`` rounded to ``digits`` decimals (negative: to tens, hundreds …) the way Excel
    rounds: on its 15-digit decimal value, halves away from zero."""
    places = max(-330, min(int(digits), 330))
    if x == 0 or not math.isfinite(x):
        return x
    with decimal.localcontext() as context:
        context.prec = 700
        value = decimal.Decimal(f"{x:.15g}")
        return float(value.quantize(decimal.Decimal(1).scaleb(-places), rounding=mode))


@_fn(ELEMENTWISE, "ROUND")
@numeric
def _round(x: float, digits: float) -> float:
    return round_digits(x, digits)


@_fn(ELEMENTWISE, "ROUNDUP")
@numeric
def _roundup(x: float, digits: float) -> float:
    return round_digits(x, digits, decimal.ROUND_UP)


@_fn(ELEMENTWISE, "ROUNDDOWN")
@numeric
def _rounddown(x: float, digits: float) -> float:
    return round_digits(x, digits, decimal.ROUND_DOWN)


@_fn(ELEMENTWISE, "TRUNC")
@numeric
def _trunc(x: float, digits: float = 0.0) -> float:
    return round_digits(x, digits, decimal.ROUND_DOWN)


@_fn(ELEMENTWISE, "INT")
@numeric
def _int(x: float) -> float:
    return float(math.floor(x))


def _multiple(x: float, step: float, rounder: Callable[[float], float]) -> float:
    """``x`` to a multiple of ``step``; the quotient is taken at 15 digits first, so
    CEILING(1.5, 0.1) is 1.5 and not 1.6."""
    return significant(rounder(significant(x / step)) * step)


@_fn(ELEMENTWISE, "CEILING")
@numeric
def _ceiling(x: float, step: float) -> Any:
    if step == 0:
        return 0.0
    if x > 0 and step < 0:
        return XlErr(NUM)
    return _multiple(x, step, math.ceil)


@_fn(ELEMENTWISE, "FLOOR")
@numeric
def _floor(x: float, step: float) -> Any:
    if step == 0:
        return XlErr(DIV0) if x else 0.0
    if x > 0 and step < 0:
        return XlErr(NUM)
    return _multiple(x, step, math.floor)


@_fn(ELEMENTWISE, "CEILING.MATH", "CEILING.PRECISE", "ISO.CEILING")
@numeric
def _ceiling_math(x: float, step: float = 1.0, mode: float = 0.0) -> float:
    step = abs(step)
    if step == 0:
        return 0.0
    if x < 0 and mode:
        return -_multiple(-x, step, math.ceil)
    return _multiple(x, step, math.ceil)


@_fn(ELEMENTWISE, "FLOOR.MATH", "FLOOR.PRECISE")
@numeric
def _floor_math(x: float, step: float = 1.0, mode: float = 0.0) -> float:
    step = abs(step)
    if step == 0:
        return 0.0
    if x < 0 and mode:
        return -_multiple(-x, step, math.floor)
    return _multiple(x, step, math.floor)


@_fn(ELEMENTWISE, "MROUND")
@numeric
def _mround(x: float, step: float) -> Any:
    if step == 0:
        return 0.0
    if x * step < 0:
        return XlErr(NUM)
    return significant(round_digits(significant(x / step), 0) * step)


@_fn(ELEMENTWISE, "EVEN")
@numeric
def _even(x: float) -> float:
    return math.copysign(math.ceil(significant(abs(x) / 2)) * 2, x) if x else 0.0


@_fn(ELEMENTWISE, "ODD")
@numeric
def _odd(x: float) -> float:
    magnitude = math.ceil(significant(abs(x)))
    magnitude += 1 - magnitude % 2
    return float(magnitude if x >= 0 else -magnitude)


@_fn(ELEMENTWISE, "ABS")
@numeric
def _abs(x: float) -> float:
    return abs(x)


@_fn(ELEMENTWISE, "SIGN")
@numeric
def _sign(x: float) -> float:
    return float((x > 0) - (x < 0))


@_fn(ELEMENTWISE, "SQRT")
@numeric
def _sqrt(x: float) -> Any:
    return XlErr(NUM) if x < 0 else math.sqrt(x)


@_fn(ELEMENTWISE, "SQRTPI")
@numeric
def _sqrtpi(x: float) -> Any:
    return XlErr(NUM) if x < 0 else math.sqrt(x * math.pi)


@_fn(ELEMENTWISE, "EXP")
@numeric
def _exp(x: float) -> Any:
    try:
        return math.exp(x)
    except OverflowError:
        return XlErr(NUM)


@_fn(ELEMENTWISE, "LN")
@numeric
def _ln(x: float) -> Any:
    return XlErr(NUM) if x <= 0 else math.log(x)


@_fn(ELEMENTWISE, "LOG10")
@numeric
def _log10(x: float) -> Any:
    return XlErr(NUM) if x <= 0 else math.log10(x)


@_fn(ELEMENTWISE, "LOG")
@numeric
def _log(x: float, base: float = 10.0) -> Any:
    if x <= 0 or base <= 0:
        return XlErr(NUM)
    if base == 1:
        return XlErr(DIV0)
    return math.log10(x) if base == 10 else math.log(x) / math.log(base)


@_fn(ELEMENTWISE, "POWER")
@numeric
def _power(x: float, y: float) -> Any:
    if x == 0 and y == 0:
        return XlErr(NUM)
    if x == 0 and y < 0:
        return XlErr(DIV0)
    try:
        result = x ** y
    except OverflowError:
        return XlErr(NUM)
    return XlErr(NUM) if isinstance(result, complex) else float(result)


@_fn(ELEMENTWISE, "MOD")
@numeric
def _mod(x: float, d: float) -> Any:
    if d == 0:
        return XlErr(DIV0)
    return x - d * math.floor(x / d) if abs(x / d) < 2 ** 52 else XlErr(NUM)


@_fn(ELEMENTWISE, "QUOTIENT")
@numeric
def _quotient(x: float, d: float) -> Any:
    return XlErr(DIV0) if d == 0 else float(math.trunc(x / d))


@_fn(ELEMENTWISE, "FACT")
@numeric
def _fact(x: float) -> Any:
    if x < 0 or x >= 171:
        return XlErr(NUM)
    return float(math.factorial(int(x)))


@_fn(ELEMENTWISE, "FACTDOUBLE")
@numeric
def _factdouble(x: float) -> Any:
    n = int(x)
    if n < -1 or n > 300:
        return XlErr(NUM)
    result = 1
    while n > 1:
        result, n = result * n, n - 2
    return float(result)


@_fn(ELEMENTWISE, "COMBIN")
@numeric
def _combin(n: float, k: float) -> Any:
    n_, k_ = int(n), int(k)
    if n_ < 0 or k_ < 0 or k_ > n_:
        return XlErr(NUM)
    return float(math.comb(n_, k_))


@_fn(ELEMENTWISE, "COMBINA")
@numeric
def _combina(n: float, k: float) -> Any:
    n_, k_ = int(n), int(k)
    if n_ < 0 or k_ < 0 or (n_ == 0 and k_ > 0):
        return XlErr(NUM)
    return float(math.comb(n_ + k_ - 1, k_)) if n_ else 1.0


@_fn(ELEMENTWISE, "PERMUT")
@numeric
def _permut(n: float, k: float) -> Any:
    n_, k_ = int(n), int(k)
    if n_ < 0 or k_ < 0 or k_ > n_:
        return XlErr(NUM)
    return float(math.perm(n_, k_))


@_fn(ELEMENTWISE, "PI")
def _pi() -> float:
    return math.pi


@_fn(ELEMENTWISE, "RAND")
def _rand() -> float:
    return random.random()


@_fn(ELEMENTWISE, "RANDBETWEEN")
@numeric
def _randbetween(low: float, high: float) -> Any:
    low_, high_ = math.ceil(low), math.floor(high)
    if low_ > high_:
        return XlErr(NUM, "RANDBETWEEN: bottom is greater than top")
    return float(random.randint(low_, high_))


@_fn(ELEMENTWISE, "DEGREES")
@numeric
def _degrees(x: float) -> float:
    return math.degrees(x)


@_fn(ELEMENTWISE, "RADIANS")
@numeric
def _radians(x: float) -> float:
    return math.radians(x)


def _trig(name: str, fn: Callable[[float], float], limit: bool = True,
          domain: Callable[[float], bool] = lambda x: True, pole: float | None = None) -> None:
    @numeric
    def computed(x: float) -> Any:
        if limit and abs(x) >= _TRIG_LIMIT:
            return XlErr(NUM)
        if pole is not None and x == pole:
            return XlErr(DIV0)
        if not domain(x):
            return XlErr(NUM)
        try:
            return fn(x)
        except (ValueError, OverflowError):
            return XlErr(NUM)
    ELEMENTWISE[name] = computed


_trig("SIN", math.sin)
_trig("COS", math.cos)
_trig("TAN", math.tan)
_trig("COT", lambda x: 1 / math.tan(x), pole=0.0)
_trig("CSC", lambda x: 1 / math.sin(x), pole=0.0)
_trig("SEC", lambda x: 1 / math.cos(x))
_trig("ASIN", math.asin, False, lambda x: -1 <= x <= 1)
_trig("ACOS", math.acos, False, lambda x: -1 <= x <= 1)
_trig("ATAN", math.atan, False)
_trig("ACOT", lambda x: math.pi / 2 - math.atan(x), False)
_trig("SINH", math.sinh, False)
_trig("COSH", math.cosh, False)
_trig("TANH", math.tanh, False)
_trig("COTH", lambda x: 1 / math.tanh(x), False, pole=0.0)
_trig("CSCH", lambda x: 1 / math.sinh(x), False, pole=0.0)
_trig("SECH", lambda x: 1 / math.cosh(x), False)
_trig("ASINH", math.asinh, False)
_trig("ACOSH", math.acosh, False, lambda x: x >= 1)
_trig("ATANH", math.atanh, False, lambda x: -1 < x < 1)
_trig("ACOTH", lambda x: 0.5 * math.log((x + 1) / (x - 1)), False, lambda x: abs(x) > 1)


@_fn(ELEMENTWISE, "ATAN2")
@numeric
def _atan2(x: float, y: float) -> Any:
    return XlErr(DIV0) if x == 0 and y == 0 else math.atan2(y, x)


@_fn(ELEMENTWISE, "PERMUTATIONA")
@numeric
def _permutationa(n: float, k: float) -> Any:
    n_, k_ = int(n), int(k)
    return XlErr(NUM) if n_ < 0 or k_ < 0 else float(n_ ** k_)


@_fn(ELEMENTWISE, "DECIMAL")
def _decimal(value: Any, radix: Any) -> Any:
    from .base import integer, text
    digits, base = text(value), integer(radix)
    if isinstance(digits, XlErr):
        return digits
    if isinstance(base, XlErr):
        return base
    if not 2 <= base <= 36 or len(digits) > 255:
        return XlErr(NUM)
    try:
        return float(int(digits.strip() or "0", base))
    except ValueError:
        return XlErr(NUM)
