"""Excel's financial functions: annuities (PMT, PV, FV, NPER, RATE, IPMT, PPMT),
cash flows (NPV, IRR, XNPV, XIRR, MIRR) and depreciation (SLN, SYD, DB, DDB, VDB).

Examples from Microsoft's pages (support.microsoft.com, *PMT function*, *VDB function*:
cost 2,400, salvage 300, a life of 10 years):

>>> E = ELEMENTWISE
>>> round(E["PMT"](0.08 / 12, 10.0, 10000.0), 2)
-1037.03
>>> [round(E["VDB"](2400.0, 300.0, life, a, b), 2) for life, a, b in
...  ((3650.0, 0.0, 1.0), (120.0, 0.0, 1.0), (10.0, 0.0, 1.0), (120.0, 6.0, 18.0))]
[1.32, 40.0, 480.0, 396.31]
>>> round(E["VDB"](2400.0, 300.0, 120.0, 6.0, 18.0, 1.5), 2), round(E["VDB"](2400.0, 300.0, 10.0, 0.0, 0.875, 1.5), 2)
(311.81, 315.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .functions_base import (DIV0, NUM, VALUE, elementwise, first_error, is_number,
                             logical, numbers, numbers_of, numeric, number)
from .functions_math import round_digits
from .values import MISSING, XlErr, grid

__all__ = ["ELEMENTWISE", "FUNCTIONS"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
FUNCTIONS: dict[str, Callable[..., Any]] = {}


def _fn(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return lambda fn: elementwise(ELEMENTWISE, *names)(numeric(fn))


def _fv(rate: float, n: float, pmt: float, pv: float, due: float) -> float:
    if rate == 0:
        return -(pv + pmt * n)
    growth = (1 + rate) ** n
    return -(pv * growth + pmt * (1 + rate * due) * (growth - 1) / rate)


def _pmt(rate: float, n: float, pv: float, fv: float, due: float) -> float:
    if rate == 0:
        return -(pv + fv) / n
    growth = (1 + rate) ** n
    return -(rate * (fv + pv * growth)) / ((1 + rate * due) * (growth - 1))


@_fn("PMT")
def _pmt_fn(rate: float, n: float, pv: float, fv: float = 0.0, due: float = 0.0) -> Any:
    if n == 0:
        return XlErr(NUM)
    return _pmt(rate, n, pv, fv, 1.0 if due else 0.0)


@_fn("FV")
def _fv_fn(rate: float, n: float, pmt: float, pv: float = 0.0, due: float = 0.0) -> Any:
    return _fv(rate, n, pmt, pv, 1.0 if due else 0.0)


@_fn("PV")
def _pv(rate: float, n: float, pmt: float, fv: float = 0.0, due: float = 0.0) -> Any:
    due = 1.0 if due else 0.0
    if rate == 0:
        return -(fv + pmt * n)
    growth = (1 + rate) ** n
    return -(fv + pmt * (1 + rate * due) * (growth - 1) / rate) / growth


@_fn("NPER")
def _nper(rate: float, pmt: float, pv: float, fv: float = 0.0, due: float = 0.0) -> Any:
    due = 1.0 if due else 0.0
    if rate == 0:
        return XlErr(DIV0) if pmt == 0 else -(pv + fv) / pmt
    top = pmt * (1 + rate * due) - fv * rate
    bottom = pmt * (1 + rate * due) + pv * rate
    if bottom == 0 or top / bottom <= 0:
        return XlErr(NUM)
    return math.log(top / bottom) / math.log(1 + rate)


def _ipmt(rate: float, per: float, n: float, pv: float, fv: float, due: float) -> float:
    pmt = _pmt(rate, n, pv, fv, due)
    if per == 1:
        interest = 0.0 if due else -pv
    elif due:
        interest = _fv(rate, per - 2, pmt, pv, 1.0) - pmt
    else:
        interest = _fv(rate, per - 1, pmt, pv, 0.0)
    return interest * rate


@_fn("IPMT")
def _ipmt_fn(rate: float, per: float, n: float, pv: float, fv: float = 0.0, due: float = 0.0) -> Any:
    if not 1 <= per <= n:
        return XlErr(NUM)
    return _ipmt(rate, per, n, pv, fv, 1.0 if due else 0.0)


@_fn("PPMT")
def _ppmt(rate: float, per: float, n: float, pv: float, fv: float = 0.0, due: float = 0.0) -> Any:
    if not 1 <= per <= n:
        return XlErr(NUM)
    due = 1.0 if due else 0.0
    return _pmt(rate, n, pv, fv, due) - _ipmt(rate, per, n, pv, fv, due)


def _cumulative(principal: bool) -> Callable[..., Any]:
    def cumulative(rate: float, n: float, pv: float, first: float, last: float, due: float) -> Any:
        first_, last_ = math.ceil(first), math.floor(last)
        if rate <= 0 or n <= 0 or pv <= 0 or first_ < 1 or last_ < first_ or last_ > n \
                or due not in (0, 1):
            return XlErr(NUM)
        total = 0.0
        for per in range(first_, last_ + 1):
            interest = _ipmt(rate, per, n, pv, 0.0, due)
            total += _pmt(rate, n, pv, 0.0, due) - interest if principal else interest
        return total
    return cumulative


_fn("CUMIPMT")(_cumulative(False))
_fn("CUMPRINC")(_cumulative(True))


def _newton(f: Callable[[float], float], df: Callable[[float], float], guess: float) -> float | XlErr:
    x = guess
    for _ in range(100):
        try:
            value, slope = f(x), df(x)
        except (OverflowError, ZeroDivisionError, ValueError):
            return XlErr(NUM)
        if slope == 0:
            return XlErr(NUM)
        step = value / slope
        x -= step
        if abs(step) < 1e-12 * max(1.0, abs(x)):
            return x
    return XlErr(NUM)


@_fn("RATE")
def _rate(n: float, pmt: float, pv: float, fv: float = 0.0, due: float = 0.0, guess: float = 0.1) -> Any:
    due = 1.0 if due else 0.0

    def f(r: float) -> float:
        if abs(r) < 1e-12:
            return pv + pmt * n + fv
        growth = (1 + r) ** n
        return pv * growth + pmt * (1 + r * due) * (growth - 1) / r + fv

    def df(r: float) -> float:
        h = 1e-7 * max(1.0, abs(r))
        return (f(r + h) - f(r - h)) / (2 * h)
    return _newton(f, df, guess)


@_fn("EFFECT")
def _effect(nominal: float, periods: float) -> Any:
    p = int(periods)
    return XlErr(NUM) if nominal <= 0 or p < 1 else (1 + nominal / p) ** p - 1


@_fn("NOMINAL")
def _nominal(effect: float, periods: float) -> Any:
    p = int(periods)
    return XlErr(NUM) if effect <= 0 or p < 1 else p * ((1 + effect) ** (1 / p) - 1)


# -- cash flows ----------------------------------------------------------------------------
def _npv(here: Any, rate: Any, *values: Any) -> Any:
    r = number(rate)
    flows = numbers_of(values)
    error = first_error(r, flows)
    if error is not None:
        return error
    if r == -1:
        return XlErr(DIV0)
    return math.fsum(v / (1 + r) ** (i + 1) for i, v in enumerate(flows))  # type: ignore[arg-type, operator]


FUNCTIONS["NPV"] = _npv


def _flows(values: Any) -> list[float] | XlErr:
    return numbers_of([values])


def _irr(here: Any, values: Any, guess: Any = MISSING) -> Any:
    flows = _flows(values)
    start = 0.1 if guess is MISSING else number(guess)
    error = first_error(flows, start)
    if error is not None:
        return error
    if not any(v > 0 for v in flows) or not any(v < 0 for v in flows):  # type: ignore[union-attr]
        return XlErr(NUM)

    def f(r: float) -> float:
        return math.fsum(v / (1 + r) ** i for i, v in enumerate(flows))  # type: ignore[arg-type]

    def df(r: float) -> float:
        return math.fsum(-i * v / (1 + r) ** (i + 1) for i, v in enumerate(flows))  # type: ignore[arg-type]
    return _newton(f, df, start)  # type: ignore[arg-type]


FUNCTIONS["IRR"] = _irr


def _dated(values: Any, dates: Any) -> tuple[list[float], list[float]] | XlErr:
    flows = [v for row in grid(values) for v in row]
    days = [v for row in grid(dates) for v in row]
    if len(flows) != len(days):
        return XlErr(NUM)
    for v in flows + days:
        if isinstance(v, XlErr):
            return v
        if not is_number(v):
            return XlErr(VALUE)
    if any(d < days[0] for d in days):
        return XlErr(NUM)
    return [float(v) for v in flows], [math.floor(d) for d in days]


def _xnpv(here: Any, rate: Any, values: Any, dates: Any) -> Any:
    r = number(rate)
    found = _dated(values, dates)
    error = first_error(r, found)
    if error is not None:
        return error
    flows, days = found  # type: ignore[misc]
    if r <= -1:  # type: ignore[operator]
        return XlErr(NUM)
    return math.fsum(v / (1 + r) ** ((d - days[0]) / 365) for v, d in zip(flows, days))  # type: ignore[operator]


def _xirr(here: Any, values: Any, dates: Any, guess: Any = MISSING) -> Any:
    found = _dated(values, dates)
    start = 0.1 if guess is MISSING else number(guess)
    error = first_error(found, start)
    if error is not None:
        return error
    flows, days = found  # type: ignore[misc]
    if not any(v > 0 for v in flows) or not any(v < 0 for v in flows):
        return XlErr(NUM)

    def f(r: float) -> float:
        return math.fsum(v / (1 + r) ** ((d - days[0]) / 365) for v, d in zip(flows, days))

    def df(r: float) -> float:
        return math.fsum(-(d - days[0]) / 365 * v / (1 + r) ** ((d - days[0]) / 365 + 1)
                         for v, d in zip(flows, days))
    return _newton(f, df, start)  # type: ignore[arg-type]


def _mirr(here: Any, values: Any, finance: Any, reinvest: Any) -> Any:
    flows = _flows(values)
    f, r = number(finance), number(reinvest)
    error = first_error(flows, f, r)
    if error is not None:
        return error
    n = len(flows)  # type: ignore[arg-type]
    positive = math.fsum(v / (1 + r) ** i for i, v in enumerate(flows) if v > 0)  # type: ignore[arg-type, operator]
    negative = math.fsum(v / (1 + f) ** i for i, v in enumerate(flows) if v < 0)  # type: ignore[arg-type, operator]
    if positive == 0 or negative == 0:
        return XlErr(DIV0)
    return (-positive * (1 + r) ** n / (negative * (1 + r))) ** (1 / (n - 1)) - 1  # type: ignore[operator]


FUNCTIONS["XNPV"], FUNCTIONS["XIRR"], FUNCTIONS["MIRR"] = _xnpv, _xirr, _mirr


# -- depreciation --------------------------------------------------------------------------
@_fn("SLN")
def _sln(cost: float, salvage: float, life: float) -> Any:
    return XlErr(DIV0) if life == 0 else (cost - salvage) / life


@_fn("SYD")
def _syd(cost: float, salvage: float, life: float, per: float) -> Any:
    if life <= 0 or per <= 0 or per > life or salvage < 0:
        return XlErr(NUM)
    return (cost - salvage) * (life - per + 1) * 2 / (life * (life + 1))


def _ddb(cost: float, salvage: float, life: float, period: float, factor: float) -> float:
    """Declining balance for one period, as a closed form (fractional periods allowed)."""
    rate = factor / life
    if rate >= 1:
        rate = 1.0
        before = cost if period == 1 else 0.0
    else:
        before = cost * (1 - rate) ** (period - 1)
    after = cost * (1 - rate) ** period
    amount = before - salvage if after < salvage else before - after
    return max(amount, 0.0)


@_fn("DDB")
def _ddb_fn(cost: float, salvage: float, life: float, period: float, factor: float = 2.0) -> Any:
    if cost < 0 or salvage < 0 or life <= 0 or period <= 0 or period > life or factor <= 0:
        return XlErr(NUM)
    return _ddb(cost, salvage, life, period, factor)


@_fn("DB")
def _db(cost: float, salvage: float, life: float, period: float, month: float = 12.0) -> Any:
    if cost < 0 or salvage < 0 or life <= 0 or period <= 0 or month < 1 or month > 12 \
            or period > life + 1 or (period > life and month == 12):
        return XlErr(NUM)
    if cost == 0:
        return 0.0
    rate = round_digits(1 - (salvage / cost) ** (1 / life), 3)
    total = cost * rate * month / 12
    if int(period) == 1:
        return total
    for p in range(2, int(period) + 1):
        amount = (cost - total) * rate
        if p == life + 1:
            amount *= (12 - month) / 12
        if p == int(period):
            return amount
        total += amount
    return XlErr(NUM)


def _declined(cost: float, salvage: float, life: float, factor: float, x: float) -> float:
    """Declining-balance depreciation from 0 to ``x`` periods, linear within a period."""
    whole = math.floor(x)
    total = math.fsum(_ddb(cost, salvage, life, float(k), factor) for k in range(1, whole + 1))
    if x > whole and whole < life:
        total += (x - whole) * _ddb(cost, salvage, life, float(whole + 1), factor)
    return total


def _vdb_switching(cost: float, salvage: float, life: float, start: float, end: float,
                   factor: float) -> float:
    """VDB with the switch to straight line, as Excel computes it: the periods are laid
    from the start (a start of 2.5 makes periods 0–0.5, 0.5–1.5 …); in each the larger of
    the declining-balance amount and the book value left spread evenly over the life left,
    and once straight line wins it stays; the part of a period inside start–end counts
    in proportion."""
    offset = start - math.floor(start)
    bounds = [0.0] + ([offset] if offset else [])
    while bounds[-1] + 1 < life:
        bounds.append(bounds[-1] + 1)
    bounds.append(life)
    value_left, rate, total = cost - salvage, None, 0.0
    for p0, p1 in zip(bounds, bounds[1:]):
        if p0 >= end:
            break
        length = p1 - p0
        straight = value_left / (life - p0) * length if life > p0 else 0.0
        if rate is None:
            declining = (_declined(cost, salvage, life, factor, p1)
                         - _declined(cost, salvage, life, factor, p0))
            if straight > declining:
                rate = value_left / (life - p0)
                amount = straight
            else:
                amount = declining
        else:
            amount = rate * length
        value_left -= amount
        overlap = min(p1, end) - max(p0, start)
        if overlap > 0 and length > 0:
            total += amount * overlap / length
    return total


@elementwise(ELEMENTWISE, "VDB")
def _vdb(cost: Any, salvage: Any, life: Any, start: Any, end: Any, factor: Any = MISSING,
         no_switch: Any = MISSING) -> Any:
    values = numbers(cost, salvage, life, start, end, 2.0 if factor is MISSING else factor)
    keep = False if no_switch is MISSING else logical(no_switch)
    if isinstance(values, XlErr):
        return values
    if isinstance(keep, XlErr):
        return keep
    c, s, n, a, b, f = values
    if a < 0 or b < a or b > n or c < 0 or s > c or f <= 0 or n <= 0:
        return XlErr(NUM)
    first, last = math.floor(a), math.ceil(b)
    if keep:
        total = 0.0
        for i in range(first + 1, last + 1):
            term = _ddb(c, s, n, float(i), f)
            if i == first + 1:
                term *= min(b, first + 1) - a
            elif i == last:
                term *= b + 1 - last
            total += term
        return total
    return _vdb_switching(c, s, n, a, b, f)



@_fn("RRI")
def _rri(n: float, pv: float, fv: float) -> Any:
    if n <= 0 or pv == 0 or (fv / pv) < 0:
        return XlErr(NUM)
    return (fv / pv) ** (1 / n) - 1


@_fn("PDURATION")
def _pduration(rate: float, pv: float, fv: float) -> Any:
    if rate <= 0 or pv <= 0 or fv <= 0:
        return XlErr(NUM)
    return (math.log(fv) - math.log(pv)) / math.log(1 + rate)


@_fn("ISPMT")
def _ispmt(rate: float, per: float, n: float, pv: float) -> Any:
    return XlErr(DIV0) if n == 0 else pv * rate * (per / n - 1)
