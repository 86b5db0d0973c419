"""Excel's Bessel functions BESSELJ, BESSELY, BESSELI and BESSELK of whole order.

Excel does not compute these to double precision: its values are those of the classic
polynomial and rational approximations (Abramowitz and Stegun 9.4 and 9.8, Hart's
rational forms of J0, J1, Y0, Y1 below 8), carried to higher orders by recurrence —
upwards for Y and K and for J when x exceeds the order, Miller's downward recurrence for I
and for J otherwise. Microsoft's examples show their digits, not the true ones
(BESSELJ(1.9, 2) is 0.329925829 where J₂(1.9) = 0.3299257277), and so does this module:
the values an Excel-calculated workbook holds for BESSELJ(2.3, 2), BESSELJ(10⁷, 2),
BESSELY(10⁷, 2), BESSELK(2.3, 2) and BESSELI(3.3, 2) are this module's to the last bit. Excel
truncates the order ``n``; a negative order is ``#NUM!``, as is x ≤ 0 for Y and K.
Examples from Microsoft's pages (support.microsoft.com, *BESSELJ function*, *BESSELI
function*, *BESSELK function*, *BESSELY function*):

>>> E = SCALAR
>>> round(E["BESSELJ"](1.9, 2.0), 9), round(E["BESSELI"](1.5, 1.0), 9)
(0.329925829, 0.981666428)
>>> round(E["BESSELK"](1.5, 1.0), 9), round(E["BESSELY"](2.5, 1.0), 9), E["BESSELY"](2.5, -1.0)
(0.277387804, 0.145918138, XlErr('#NUM!'))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .functions_base import NUM, VALUE, integer, number
from .functions_complex import one_value_each
from .values import XlErr

__all__ = ["SCALAR", "FUNCTIONS", "bessel_j", "bessel_y", "bessel_i", "bessel_k"]

SCALAR: dict[str, Callable[..., Any]] = {}  # the functions, of scalars
FUNCTIONS: dict[str, Callable[..., Any]] = {}  # the same, taking arguments as Excel does
_TWO_OVER_PI = 0.636619772  # the constants as the approximations state them
_MAX_ORDER = 100_000  # longer recurrences are refused (#NUM!)


def _poly(x: float, coefficients: Sequence[float]) -> float:
    """c0 + c1 x + c2 x² + … by Horner's rule."""
    total = 0.0
    for c in reversed(coefficients):
        total = total * x + c
    return total


# J0, J1, Y0, Y1 below 8: ratios of polynomials in x² (Hart)
_J0_P = (57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456)
_J0_Q = (57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0)
_J1_P = (72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606)
_J1_Q = (144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0)
_Y0_P = (-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733)
_Y0_Q = (40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0)
_Y1_P = (-0.4900604943e13, 0.1275274390e13, -0.5153438139e11, 0.7349264551e9,
         -0.4237922726e7, 0.8511937935e4)
_Y1_Q = (0.2499580570e14, 0.4244419664e12, 0.3733650367e10, 0.2245904002e8,
         0.1020426050e6, 0.3549632885e3, 1.0)
# from 8 on: the amplitudes P and Q of the asymptotic form, in (8/x)²
_P0 = (1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6)
_Q0 = (-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934945152e-7)
_P1 = (1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6)
_Q1 = (0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6)
# I0, I1, K0, K1 (Abramowitz and Stegun 9.8.1–9.8.8)
_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2)
_I0_LARGE = (0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
             -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2)
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3)
_I1_LARGE = (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1,
             0.2282967e-1, -0.2895312e-1, 0.1787654e-1, -0.420059e-2)
_K0_SMALL = (-0.57721566, 0.42278420, 0.23069756, 0.3488590e-1, 0.262698e-2, 0.10750e-3, 0.74e-5)
_K0_LARGE = (1.25331414, -0.7832358e-1, 0.2189568e-1, -0.1062446e-1, 0.587872e-2,
             -0.251540e-2, 0.53208e-3)
_K1_SMALL = (1.0, 0.15443144, -0.67278579, -0.18156897, -0.1919402e-1, -0.110404e-2, -0.4686e-4)
_K1_LARGE = (1.25331414, 0.23498619, -0.3655620e-1, 0.1504268e-1, -0.780353e-2,
             0.325614e-2, -0.68245e-3)


def _asymptotic(x: float, p: Sequence[float], q: Sequence[float], shift: float,
                second_kind: bool) -> float:
    z = 8 / x
    y, phase = z * z, x - shift
    amplitude = math.sqrt(_TWO_OVER_PI / x)
    if second_kind:
        return amplitude * (math.sin(phase) * _poly(y, p) + z * math.cos(phase) * _poly(y, q))
    return amplitude * (math.cos(phase) * _poly(y, p) - z * math.sin(phase) * _poly(y, q))


def _j0(x: float) -> float:
    ax = abs(x)
    if ax < 8:
        return _poly(x * x, _J0_P) / _poly(x * x, _J0_Q)
    return _asymptotic(ax, _P0, _Q0, 0.785398164, False)


def _j1(x: float) -> float:
    ax = abs(x)
    if ax < 8:
        return x * _poly(x * x, _J1_P) / _poly(x * x, _J1_Q)
    value = _asymptotic(ax, _P1, _Q1, 2.356194491, False)
    return -value if x < 0 else value


def _y0(x: float) -> float:
    if x < 8:
        return _poly(x * x, _Y0_P) / _poly(x * x, _Y0_Q) + _TWO_OVER_PI * _j0(x) * math.log(x)
    return _asymptotic(x, _P0, _Q0, 0.785398164, True)


def _y1(x: float) -> float:
    if x < 8:
        return (x * _poly(x * x, _Y1_P) / _poly(x * x, _Y1_Q)
                + _TWO_OVER_PI * (_j1(x) * math.log(x) - 1 / x))
    return _asymptotic(x, _P1, _Q1, 2.356194491, True)


def _i0(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        return _poly((x / 3.75) ** 2, _I0_SMALL)
    return math.exp(ax) / math.sqrt(ax) * _poly(3.75 / ax, _I0_LARGE)


def _i1(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        value = ax * _poly((x / 3.75) ** 2, _I1_SMALL)
    else:
        value = math.exp(ax) / math.sqrt(ax) * _poly(3.75 / ax, _I1_LARGE)
    return -value if x < 0 else value


def _k0(x: float) -> float:
    if x <= 2:
        return -math.log(x / 2) * _i0(x) + _poly(x * x / 4, _K0_SMALL)
    return math.exp(-x) / math.sqrt(x) * _poly(2 / x, _K0_LARGE)


def _k1(x: float) -> float:
    if x <= 2:
        return math.log(x / 2) * _i1(x) + _poly(x * x / 4, _K1_SMALL) / x
    return math.exp(-x) / math.sqrt(x) * _poly(2 / x, _K1_LARGE)


def _upwards(n: int, x: float, first: float, second: float, sign: float) -> float:
    """The n-th of a sequence from its first two by f(k+1) = (2k/x) f(k) − sign·f(k−1)
    (sign −1 for K, whose recurrence adds)."""
    if n == 0:
        return first
    previous, current = first, second
    for k in range(1, n):
        previous, current = current, 2 * k / x * current - sign * previous
    return current


def _downwards(n: int, x: float, accuracy: float, modified: bool) -> float:
    """Miller's backward recurrence from an order well above n, returning f(n)/f(0) for J
    (normalised by J0 + 2(J2 + J4 + …) = 1) or I (scaled to I0 afterwards)."""
    top = 2 * ((n + int(math.sqrt(accuracy * n))) // (1 if modified else 2))
    ratio = 2 / abs(x)
    above, current, found, even_sum, take = 0.0, 1.0, 0.0, 0.0, False
    for k in range(top, 0, -1):
        below = above + k * ratio * current if modified else k * ratio * current - above
        above, current = current, below
        if abs(current) > 1e10:  # rescale to stay within floating point
            current, above, found, even_sum = (v * 1e-10 for v in (current, above, found, even_sum))
        if take:
            even_sum += current
        take = not take
        if k == n:
            found = above
    if modified:
        return found * _i0(x) / current
    return found / (2 * even_sum - current)


def bessel_j(n: int, x: float) -> float:
    if n == 0:
        return _j0(x)
    if n == 1:
        return _j1(x)
    if x == 0:
        return 0.0
    if abs(x) > n:
        value = _upwards(n, abs(x), _j0(abs(x)), _j1(abs(x)), 1.0)
    else:
        value = _downwards(n, x, 40.0, False)
    return -value if x < 0 and n % 2 else value


def bessel_y(n: int, x: float) -> float:
    if x <= 0:
        raise ValueError("x must be greater than 0")
    return _upwards(n, x, _y0(x), _y1(x), 1.0)


def bessel_i(n: int, x: float) -> float:
    if n == 0:
        return _i0(x)
    if n == 1:
        return _i1(x)
    if x == 0:
        return 0.0
    value = _downwards(n, x, 40.0, True)
    return -value if x < 0 and n % 2 else value


def bessel_k(n: int, x: float) -> float:
    if x <= 0:
        raise ValueError("x must be greater than 0")
    return _upwards(n, x, _k0(x), _k1(x), -1.0)


def _bessel(name: str, fn: Callable[[int, float], float]) -> Callable[..., Any]:
    def run(x: Any, n: Any) -> Any:
        if isinstance(x, bool) or isinstance(n, bool):
            return XlErr(VALUE)
        value, order = number(x), integer(n)
        if isinstance(value, XlErr):
            return value
        if isinstance(order, XlErr):
            return order
        if order < 0:
            return XlErr(NUM, f"{name}: the order must not be negative")
        if order > _MAX_ORDER:  # J and I of 0 are 0 at any order above 0, as in Excel
            return 0.0 if value == 0 and name in ("BESSELJ", "BESSELI") else \
                XlErr(NUM, f"{name}: the order is too large")
        return fn(order, value)
    return run


for _name, _fn in (("BESSELJ", bessel_j), ("BESSELY", bessel_y), ("BESSELI", bessel_i),
                   ("BESSELK", bessel_k)):
    SCALAR[_name] = _bessel(_name, _fn)
    FUNCTIONS[_name] = one_value_each(SCALAR[_name])
