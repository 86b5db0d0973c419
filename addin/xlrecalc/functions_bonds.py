"""Excel's coupon-bond functions: PRICE, YIELD, DURATION, MDURATION and the bonds with an
odd first or last period (ODDFPRICE, ODDFYIELD, ODDLPRICE, ODDLYIELD), on the coupon
schedule and day counts of ``functions_securities``.

YIELD and ODDFYIELD have no closed form past one coupon: they are solved by Newton's
method on the price, as Excel does, to full double precision (bisection takes over should
Newton leave the region where the price is defined).

Examples from Microsoft's pages (support.microsoft.com, *PRICE function*, *YIELD function*,
*MDURATION function*; 15 February 2008 is serial 39493, 15 November 2017 is 43054,
15 November 2016 is 42689, 1 January 2008 is 39448 and 1 January 2016 is 42370):

>>> E = ELEMENTWISE
>>> round(E["PRICE"](39493.0, 43054.0, 0.0575, 0.065, 100.0, 2.0, 0.0), 2)
94.63
>>> round(E["YIELD"](39493.0, 42689.0, 0.0575, 95.04287, 100.0, 2.0, 0.0), 4)
0.065
>>> round(E["MDURATION"](39448.0, 42370.0, 0.08, 0.09, 2.0, 1.0), 5)
5.73567
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Callable
from typing import Any

from .functions_base import NUM
from .functions_date import days_360
from .functions_securities import (Day, add_months, coupon_count, coupon_dates, coupon_days,
                                   days_between, is_month_end, reading)
from .values import XlErr

__all__ = ["ELEMENTWISE"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}


def _fn(kinds: str, name: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register under ``name``, or the function's name in capitals without its underscore."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        ELEMENTWISE[name or fn.__name__.lstrip("_").upper()] = reading(kinds, fn)
        return fn
    return register


def _real(f: Callable[[float], float], x: float) -> float | None:
    """``f(x)``, or None where the price is undefined (a yield of -frequency or less makes
    the discount factor's power complex or infinite)."""
    try:
        value = f(x)
    except (ArithmeticError, ValueError):
        return None
    return value if isinstance(value, float) and math.isfinite(value) else None


def _solve(f: Callable[[float], float], guess: float) -> float | XlErr:
    """The root of ``f`` (decreasing in the yield), by Newton's method with a central
    difference slope; bisection on a bracket when Newton does not settle."""
    x = guess
    for _ in range(100):
        h = 1e-6 * max(1.0, abs(x))
        value, above, below = _real(f, x), _real(f, x + h), _real(f, x - h)
        if value is None or above is None or below is None or above == below:
            break
        step = value / ((above - below) / (2 * h))
        x -= step
        if abs(step) <= 1e-14 * max(1.0, abs(x)):
            return x
    return _bisect(f, guess)


def _bisect(f: Callable[[float], float], guess: float) -> float | XlErr:
    low, high = guess - 0.01, guess + 0.01
    for _ in range(60):
        at_low, at_high = _real(f, low), _real(f, high)
        if at_low is not None and at_high is not None and at_low * at_high <= 0:
            break
        low, high = max(low - 1.6 * (high - low), -0.999), high + 1.6 * (high - low)
    else:
        return XlErr(NUM, "no yield gives that price")
    for _ in range(200):
        middle = (low + high) / 2
        at_low, at_middle = _real(f, low), _real(f, middle)
        if at_low is None or at_middle is None:
            return XlErr(NUM, "no yield gives that price")
        if at_low * at_middle <= 0:
            high = middle
        else:
            low = middle
        if high - low <= 1e-15 * max(1.0, abs(middle)):
            break
    return (low + high) / 2


# -- regular coupon bonds ------------------------------------------------------------
def _periods(basis: int, settlement: Day, maturity: Day,
             frequency: int) -> tuple[int, float, float]:
    """Coupons left, the coupon period's length and the days from settlement to the next
    coupon (the period less the days already accrued)."""
    count = coupon_count(settlement, maturity, frequency)
    previous, _ = coupon_dates(settlement, maturity, frequency)
    length = coupon_days(basis, settlement, maturity, frequency)
    return count, length, length - days_between(basis, previous, settlement)


def _price(settlement: Day, maturity: Day, rate: float, yld: float, redemption: float,
           frequency: int, basis: int) -> float:
    periods = _periods(basis, settlement, maturity, frequency)
    return _price_of(periods, rate, yld, redemption, frequency)


def _price_of(periods: tuple[int, float, float], rate: float, yld: float, redemption: float,
              frequency: int) -> float:
    """PRICE's formula on the coupon schedule (``_periods``): the coupons and redemption
    discounted from their dates, less the interest accrued."""
    count, length, to_next = periods
    coupon = 100 * rate / frequency
    accrued = coupon * (length - to_next) / length
    if count == 1:
        return (redemption + coupon) / (1 + to_next / length * yld / frequency) - accrued
    growth = 1 + yld / frequency
    fraction = to_next / length
    coupons = sum(coupon / growth ** (k - 1 + fraction) for k in range(1, count + 1))
    return redemption / growth ** (count - 1 + fraction) + coupons - accrued


@_fn("ddnnnfb", "PRICE")
def _price_fn(settlement: Day, maturity: Day, rate: float, yld: float, redemption: float,
              frequency: int, basis: int = 0) -> Any:
    if settlement >= maturity or rate < 0 or yld < 0 or redemption <= 0:
        return XlErr(NUM)
    return _price(settlement, maturity, rate, yld, redemption, frequency, basis)


@_fn("ddnnnfb")
def _yield(settlement: Day, maturity: Day, rate: float, price: float, redemption: float,
           frequency: int, basis: int = 0) -> Any:
    if settlement >= maturity or rate < 0 or price <= 0 or redemption <= 0:
        return XlErr(NUM)
    periods = _periods(basis, settlement, maturity, frequency)
    count, length, to_next = periods
    if count <= 1:  # one coupon left: simple interest, in closed form
        accrued = (length - to_next) / length * rate / frequency
        gain = (redemption / 100 + rate / frequency) / (price / 100 + accrued) - 1
        return gain * frequency * length / to_next
    return _solve(lambda y: _price_of(periods, rate, y, redemption, frequency) - price, 0.05)


def _duration(settlement: Day, maturity: Day, coupon: float, yld: float, frequency: int,
              basis: int) -> float:
    count, length, to_next = _periods(basis, settlement, maturity, frequency)
    fraction = to_next / length
    growth = 1 + yld / frequency
    last = fraction + count - 1
    weighted = last * 100 / growth ** last
    present = 100 / growth ** last
    for k in range(1, count + 1):
        time = k - 1 + fraction
        flow = 100 * coupon / frequency / growth ** time
        weighted += flow * time
        present += flow
    return weighted / present / frequency


@_fn("ddnnfb", "DURATION")
def _duration_fn(settlement: Day, maturity: Day, coupon: float, yld: float, frequency: int,
                 basis: int = 0) -> Any:
    if settlement >= maturity or coupon < 0 or yld < 0:
        return XlErr(NUM)
    return _duration(settlement, maturity, coupon, yld, frequency, basis)


@_fn("ddnnfb")
def _mduration(settlement: Day, maturity: Day, coupon: float, yld: float, frequency: int,
               basis: int = 0) -> Any:
    if settlement >= maturity or coupon < 0 or yld < 0:
        return XlErr(NUM)
    return _duration(settlement, maturity, coupon, yld, frequency, basis) / (1 + yld / frequency)



# -- an odd first period --------------------------------------------------------------
def _positive_days(basis: int, start: Day, end: Day) -> float:
    return float(max(days_between(basis, start, end), 0))


def _quasi_coupons(first: Day, settlement: Day, months: int) -> float:
    """Whole quasi-coupon periods from settlement to the first coupon, as Excel counts
    them for a long first period."""
    month_end = is_month_end(first)
    days_in_month = calendar.monthrange(first.year, first.month)[1]
    if not month_end and first.month != 2 and 28 < first.day < days_in_month:
        month_end = is_month_end(settlement)
    start = add_months(settlement, 0, month_end)
    count = 1.0 if settlement < start else 0.0
    day = add_months(start, months, month_end)
    while day < first:
        day = add_months(day, months, month_end)
        count += 1
    return count


def _odd_first_price(settlement: Day, maturity: Day, issue: Day, first: Day, rate: float,
                     yld: float, redemption: float, frequency: int, basis: int) -> float:
    months = 12 // frequency
    length = coupon_days(basis, settlement, first, frequency)
    growth = 1 + yld / frequency
    coupon = 100 * rate / frequency
    issue_to_first = _positive_days(basis, issue, first)
    if issue_to_first < length:  # a short first period
        count = coupon_count(settlement, maturity, frequency)
        fraction = _positive_days(basis, settlement, first) / length
        accrued = _positive_days(basis, issue, settlement) / length
        later = sum(coupon / growth ** (k - 1 + fraction) for k in range(2, count + 1))
        return (redemption / growth ** (count - 1 + fraction)
                + coupon * issue_to_first / length / growth ** fraction + later - coupon * accrued)
    # a long first period: quasi-coupon periods back from the first coupon to issue
    first_share = accrued_share = 0.0
    later_coupon = first
    for index in range(coupon_count(issue, first, frequency), 0, -1):
        earlier = add_months(later_coupon, -months, False)
        normal = _positive_days(basis, earlier, later_coupon) if basis == 1 else length
        counted = normal if index > 1 else _positive_days(basis, issue, later_coupon)
        first_share += counted / normal
        held = _positive_days(basis, max(issue, earlier), min(settlement, later_coupon))
        accrued_share += held / normal
        later_coupon = earlier
    if basis in (2, 3):
        _, following = coupon_dates(settlement, first, frequency)
        to_next = _positive_days(basis, settlement, following)
    else:
        previous, _ = coupon_dates(settlement, first, frequency)
        to_next = length - days_between(basis, previous, settlement)
    whole = _quasi_coupons(first, settlement, months)
    count = coupon_count(first, maturity, frequency)
    fraction = to_next / length
    later = sum(coupon / growth ** (k + whole + fraction) for k in range(1, count + 1))
    return (redemption / growth ** (fraction + whole + count)
            + coupon * first_share / growth ** (whole + fraction) + later - coupon * accrued_share)


def _odd_first_valid(settlement: Day, maturity: Day, issue: Day, first: Day,
                     frequency: int) -> bool:
    """Maturity after the first coupon after settlement after issue, and the first coupon
    on maturity's schedule."""
    if not issue < settlement < first < maturity:
        return False
    months, month_end = 12 // frequency, is_month_end(maturity)
    day = add_months(maturity, -months, month_end)
    while day > first:
        day = add_months(day, -months, month_end)
    return bool(day == first)


@_fn("ddddnnnfb")
def _oddfprice(settlement: Day, maturity: Day, issue: Day, first: Day, rate: float, yld: float,
               redemption: float, frequency: int, basis: int = 0) -> Any:
    if not _odd_first_valid(settlement, maturity, issue, first, frequency) \
            or rate < 0 or yld < 0 or redemption <= 0:
        return XlErr(NUM)
    return _odd_first_price(settlement, maturity, issue, first, rate, yld, redemption,
                            frequency, basis)


@_fn("ddddnnnfb")
def _oddfyield(settlement: Day, maturity: Day, issue: Day, first: Day, rate: float,
               price: float, redemption: float, frequency: int, basis: int = 0) -> Any:
    if not _odd_first_valid(settlement, maturity, issue, first, frequency) \
            or rate < 0 or price <= 0 or redemption <= 0:
        return XlErr(NUM)
    # the first guess: simple interest over the days to maturity
    days = days_between(basis, settlement, maturity)
    gain = price - 100
    guess = (rate * days * 100 - gain) / (gain / 4 + days * gain / 2 + days * 100)
    return _solve(lambda y: _odd_first_price(settlement, maturity, issue, first, rate, y,
                                             redemption, frequency, basis) - price, guess)


# -- an odd last period -----------------------------------------------------------------
def _whole_period_days(basis: int, start: Day, end: Day) -> float:
    """A quasi-coupon period's days; US 30/360 adjusts both of its ends."""
    if basis != 0:
        return _positive_days(basis, start, end)
    ends = (start.year, start.month, start.day), (end.year, end.month, end.day)
    return float(max(days_360(*ends, "us-both"), 0))


def _odd_last_shares(settlement: Day, maturity: Day, last: Day, frequency: int,
                     basis: int) -> tuple[float, float, float]:
    """The odd last period in quasi-coupon periods: its length, the part accrued before
    settlement and the part from settlement to maturity."""
    months = 12 // frequency
    whole = _whole_period_days
    count = coupon_count(last, maturity, frequency)
    period = accrued = remaining = 0.0
    early = last
    for index in range(1, count + 1):
        late = add_months(early, months, False)
        normal = whole(basis, early, late)
        counted = normal if index < count else whole(basis, early, maturity)
        if late < settlement:
            part = counted
        elif early < settlement:
            part = _positive_days(basis, early, settlement)
        else:
            part = 0.0
        period += counted / normal
        accrued += part / normal
        remaining += _positive_days(basis, max(settlement, early), min(maturity, late)) / normal
        early = late
    return period, accrued, remaining


def _odd_last_valid(settlement: Day, maturity: Day, last: Day) -> bool:
    return bool(last < settlement < maturity)


@_fn("dddnnnfb")
def _oddlprice(settlement: Day, maturity: Day, last: Day, rate: float, yld: float,
               redemption: float, frequency: int, basis: int = 0) -> Any:
    if not _odd_last_valid(settlement, maturity, last) or rate < 0 or yld < 0 or redemption <= 0:
        return XlErr(NUM)
    period, accrued, remaining = _odd_last_shares(settlement, maturity, last, frequency, basis)
    coupon = 100 * rate / frequency
    return (period * coupon + redemption) / (remaining * yld / frequency + 1) - accrued * coupon


@_fn("dddnnnfb")
def _oddlyield(settlement: Day, maturity: Day, last: Day, rate: float, price: float,
               redemption: float, frequency: int, basis: int = 0) -> Any:
    if not _odd_last_valid(settlement, maturity, last) or rate < 0 or price <= 0 or redemption <= 0:
        return XlErr(NUM)
    period, accrued, remaining = _odd_last_shares(settlement, maturity, last, frequency, basis)
    coupon = 100 * rate / frequency
    paid = accrued * coupon + price
    return (period * coupon + redemption - paid) / paid * frequency / remaining
