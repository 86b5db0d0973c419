"""Excel's securities functions: the coupon schedule (COUPDAYBS, COUPDAYS, COUPDAYSNC,
COUPNCD, COUPNUM, COUPPCD), accrued interest (ACCRINT, ACCRINTM), discounted and
at-maturity securities (DISC, INTRATE, RECEIVED, PRICEDISC, YIELDDISC, PRICEMAT,
YIELDMAT), Treasury bills (TBILLEQ, TBILLPRICE, TBILLYIELD), French depreciation (AMORLINC,
AMORDEGRC) and fractional prices (DOLLARDE, DOLLARFR). The coupon bonds (PRICE, YIELD,
DURATION, the odd periods) are in ``functions_bonds``, on the day counts defined here.

Dates are whole serial numbers (a time of day is dropped); frequency and basis are
truncated. A date that is no date is ``#VALUE!``; settlement on or after maturity, a
frequency other than 1, 2 or 4 and a basis outside 0–4 are ``#NUM!``, as Microsoft's pages
say. The five day-count bases count as Excel does: 0 US (NASD) 30/360 with its end-of-month
rules, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360 (``days_between``,
``year_days``, ``coupon_days``).

Examples from Microsoft's pages (support.microsoft.com, *COUPDAYBS function* …; settlement
25 January 2011 is serial 40568, maturity 15 November 2011 is 40862):

>>> E = ELEMENTWISE
>>> [E[name](40568.0, 40862.0, 2.0, 1.0) for name in ("COUPDAYBS", "COUPDAYS", "COUPDAYSNC")]
[71.0, 181.0, 110.0]
>>> E["COUPNCD"](40568.0, 40862.0, 2.0, 1.0), E["COUPPCD"](40568.0, 40862.0, 2.0, 1.0)
(40678.0, 40497.0)
>>> round(E["ACCRINT"](39508.0, 39691.0, 39569.0, 0.1, 1000.0, 2.0, 0.0), 6)
16.666667
>>> E["DOLLARDE"](1.02, 16.0), E["DOLLARFR"](1.125, 16.0)
(1.125, 1.02)
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
from collections.abc import Callable
from typing import Any

from .functions_base import (DIV0, NUM, date_of, elementwise, first_error, integer, logical,
                             number, serial_of)
from .functions_date import actual_year_length, date_serial, days_360
from .values import MISSING, XlErr

__all__ = ["ELEMENTWISE", "Day", "read_arguments", "reading", "days_between", "year_days", "coupon_days",
           "coupon_dates", "coupon_count", "add_months", "is_month_end"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}

Day = _dt.date


# -- reading the arguments ---------------------------------------------------------
def _day(value: Any) -> Day | XlErr:
    """A date argument (truncated to the day) as a calendar date."""
    serial = date_serial(value)
    if isinstance(serial, XlErr):
        return serial
    found = date_of(float(max(serial, 1)))
    return found


def _frequency(value: Any) -> int | XlErr:
    found = integer(value)
    if isinstance(found, XlErr):
        return found
    return found if found in (1, 2, 4) else XlErr(NUM, f"frequency {found} is not 1, 2 or 4")


def _basis(value: Any) -> int | XlErr:
    found = 0 if value is MISSING else integer(value)
    if isinstance(found, XlErr):
        return found
    return found if 0 <= found <= 4 else XlErr(NUM, f"basis {found} is not 0 to 4")


def _par(value: Any) -> float | XlErr:
    return 1000.0 if value is MISSING else number(value)


_READERS: dict[str, Callable[[Any], Any]] = {"d": _day, "n": number, "f": _frequency,
                                              "b": _basis, "l": logical, "p": _par}


def read_arguments(kinds: str, values: tuple[Any, ...]) -> list[Any] | XlErr:
    """Each argument read by its kind (``d`` date, ``n`` number, ``f`` frequency, ``b``
    basis, ``l`` logical, ``p`` a par value, 1000 when empty), or the first error among them."""
    out = []
    for kind, value in zip(kinds, values):
        found = _READERS[kind](value)
        if isinstance(found, XlErr):
            return found
        out.append(found)
    return out


def reading(kinds: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` on its arguments read by ``kinds``; omitted trailing arguments take the
    Python defaults (par, basis …), an empty ``par`` too."""
    def reader(*args: Any) -> Any:
        given = list(args)
        while given and given[-1] is MISSING:
            given.pop()
        if len(given) > len(kinds):
            raise TypeError("too many arguments")
        found = read_arguments(kinds, tuple(given))
        return found if isinstance(found, XlErr) else fn(*found)
    reader.__name__, reader.__doc__ = fn.__name__, fn.__doc__
    return reader


def _fn(kinds: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function under its Excel name (its Python name in capitals, without the
    leading underscore) with its arguments read by ``kinds``."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        ELEMENTWISE[fn.__name__.lstrip("_").upper()] = reading(kinds, fn)
        return fn
    return register


# -- the calendar ------------------------------------------------------------------
def is_month_end(day: Day) -> bool:
    return day.day == calendar.monthrange(day.year, day.month)[1]


def add_months(day: Day, months: int, month_end: bool) -> Day:
    """``day`` moved by whole months, kept within the month (31 March − 1 month is
    28 or 29 February), or on the month's last day when ``month_end``."""
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return Day(year, month0 + 1, last if month_end else min(day.day, last))


def _ymd(day: Day) -> tuple[int, int, int]:
    return day.year, day.month, day.day


def days_between(basis: int, start: Day, end: Day, numerator: bool = True) -> int:
    """Days from ``start`` to ``end`` as the basis counts them. Actual/360 counts a period's
    length (``numerator`` false) in US 30/360, as Excel does for ACCRINT."""
    if basis == 0 or (basis == 2 and not numerator):
        return days_360(_ymd(start), _ymd(end), "us")
    if basis == 4:
        return days_360(_ymd(start), _ymd(end), "eu")
    return (end - start).days


def year_days(basis: int, start: Day, end: Day) -> float:
    """The year's length the basis divides by: 360, 365, or for actual/actual the length
    YEARFRAC uses between the two dates."""
    if basis == 1:
        return actual_year_length(int(serial_of(start)), int(serial_of(end)))
    return 365.0 if basis == 3 else 360.0


def coupon_dates(settlement: Day, maturity: Day, frequency: int) -> tuple[Day, Day]:
    """The coupon dates before (or on) and after settlement: stepping back from maturity one
    period at a time, each step from the last, on month ends if maturity is one."""
    step, month_end = 12 // frequency, is_month_end(maturity)
    previous, following = maturity, maturity
    while previous > settlement:
        following = previous
        previous = add_months(previous, -step, month_end)
    return previous, following


def coupon_count(settlement: Day, maturity: Day, frequency: int) -> int:
    previous, _ = coupon_dates(settlement, maturity, frequency)
    months = (maturity.year - previous.year) * 12 + maturity.month - previous.month
    return months * frequency // 12


def coupon_days(basis: int, settlement: Day, maturity: Day, frequency: int) -> float:
    """COUPDAYS: the coupon period's length; only actual/actual counts the calendar."""
    if basis == 1:
        previous, following = coupon_dates(settlement, maturity, frequency)
        return float((following - previous).days)
    return (365.0 if basis == 3 else 360.0) / frequency


def _coupon_days_before(basis: int, settlement: Day, maturity: Day, frequency: int) -> int:
    previous, _ = coupon_dates(settlement, maturity, frequency)
    return days_between(basis, previous, settlement)


def _coupon_days_after(basis: int, settlement: Day, maturity: Day, frequency: int) -> int:
    previous, following = coupon_dates(settlement, maturity, frequency)
    if basis == 0:  # the whole period counted with both ends adjusted, less the days before
        return days_360(_ymd(previous), _ymd(following), "us-both") - \
            days_360(_ymd(previous), _ymd(settlement), "us")
    return days_between(basis, settlement, following)


def _coupon(compute: Callable[[int, Day, Day, int], Any]) -> Callable[..., Any]:
    def coupon(settlement: Day, maturity: Day, frequency: int, basis: int = 0) -> Any:
        if settlement >= maturity:
            return XlErr(NUM, "settlement must be before maturity")
        return compute(basis, settlement, maturity, frequency)
    return coupon


_COUPON = {
    "COUPDAYBS": lambda b, s, m, f: float(_coupon_days_before(b, s, m, f)),
    "COUPDAYS": coupon_days,
    "COUPDAYSNC": lambda b, s, m, f: float(_coupon_days_after(b, s, m, f)),
    "COUPNCD": lambda b, s, m, f: serial_of(coupon_dates(s, m, f)[1]),
    "COUPPCD": lambda b, s, m, f: serial_of(coupon_dates(s, m, f)[0]),
    "COUPNUM": lambda b, s, m, f: float(coupon_count(s, m, f)),
}
ELEMENTWISE.update({name: reading("ddfb", _coupon(compute)) for name, compute in _COUPON.items()})


# -- accrued interest ---------------------------------------------------------------
@_fn("dddnpfbl")
def _accrint(issue: Day, first: Day, settlement: Day, rate: float, par: float,
             frequency: int, basis: int = 0, from_issue: bool = True) -> Any:
    """Interest accrued to settlement, summed over the quasi-coupon periods of the schedule
    the first interest date sits on: the part of the period holding settlement (or, before
    the first interest date, of the period ending on it), the part from issue of the period
    holding issue, and the whole periods between, which ``from_issue`` false leaves out (as
    Microsoft's DAX example shows: 116.94 and 66.94)."""
    if issue >= settlement or rate <= 0 or par <= 0:
        return XlErr(NUM)
    step, month_end = 12 // frequency, is_month_end(first)
    if settlement > first and from_issue:
        start = first  # the schedule's first date on or after settlement
        while start < settlement:
            start = add_months(start, step, month_end)
    else:
        start = add_months(first, -step, month_end)
    total = days_between(basis, max(issue, start), settlement) / \
        coupon_days(basis, start, first, frequency)
    later = start
    while later > issue:
        earlier = add_months(later, -step, month_end)
        if issue <= earlier:  # a whole period: counted only from issue
            total += 1.0 if from_issue else 0.0
        else:
            total += _period_share(basis, issue, earlier, later, frequency)
        later = earlier
    return par * rate / frequency * total


def _period_share(basis: int, issue: Day, start: Day, end: Day, frequency: int) -> float:
    """The share of the quasi-coupon period ``start``–``end`` that runs from issue."""
    if basis == 0:
        days = days_360(_ymd(issue), _ymd(end), "us")
        length: float = days_360(_ymd(start), _ymd(end), "us-both")
    else:
        days = days_between(basis, issue, end)
        length = 365.0 / frequency if basis == 3 else days_between(basis, start, end, False)
    return days / length


@_fn("ddnnb")
def _accrintm(issue: Day, settlement: Day, rate: float, par: float = 1000.0, basis: int = 0) -> Any:
    if issue >= settlement or rate <= 0 or par <= 0:
        return XlErr(NUM)
    return par * rate * days_between(basis, issue, settlement) / year_days(basis, issue, settlement)


# -- discounted securities and securities paying at maturity ------------------------
def _span(basis: int, settlement: Day, maturity: Day) -> tuple[float, float]:
    """Days from settlement to maturity, and the year they count in."""
    return days_between(basis, settlement, maturity), year_days(basis, settlement, maturity)


@_fn("ddnnb")
def _disc(settlement: Day, maturity: Day, price: float, redemption: float, basis: int = 0) -> Any:
    if settlement >= maturity or price <= 0 or redemption <= 0:
        return XlErr(NUM)
    days, year = _span(basis, settlement, maturity)
    return (1 - price / redemption) * year / days


@_fn("ddnnb")
def _pricedisc(settlement: Day, maturity: Day, discount: float, redemption: float,
               basis: int = 0) -> Any:
    if settlement >= maturity or discount <= 0 or redemption <= 0:
        return XlErr(NUM)
    days, year = _span(basis, settlement, maturity)
    return redemption - discount * redemption * days / year


@_fn("ddnnb")
def _yielddisc(settlement: Day, maturity: Day, price: float, redemption: float,
               basis: int = 0) -> Any:
    if settlement >= maturity or price <= 0 or redemption <= 0:
        return XlErr(NUM)
    days, year = _span(basis, settlement, maturity)
    return (redemption - price) / price * year / days


@_fn("ddnnb")
def _intrate(settlement: Day, maturity: Day, investment: float, redemption: float,
             basis: int = 0) -> Any:
    if settlement >= maturity or investment <= 0 or redemption <= 0:
        return XlErr(NUM)
    days, year = _span(basis, settlement, maturity)
    return (redemption - investment) / investment * year / days


@_fn("ddnnb")
def _received(settlement: Day, maturity: Day, investment: float, discount: float,
              basis: int = 0) -> Any:
    if settlement >= maturity or investment <= 0 or discount <= 0:
        return XlErr(NUM)
    days, year = _span(basis, settlement, maturity)
    share = discount * days / year
    return XlErr(NUM) if share >= 1 else investment / (1 - share)


def _at_maturity(basis: int, settlement: Day, maturity: Day,
                 issue: Day) -> tuple[float, float, float]:
    """The year's length, days from issue to maturity and from issue to settlement."""
    return (year_days(basis, issue, settlement), days_between(basis, issue, maturity),
            days_between(basis, issue, settlement))


@_fn("dddnnb")
def _pricemat(settlement: Day, maturity: Day, issue: Day, rate: float, yld: float,
              basis: int = 0) -> Any:
    if not issue < settlement < maturity or rate < 0 or yld < 0:
        return XlErr(NUM)
    year, to_maturity, to_settlement = _at_maturity(basis, settlement, maturity, issue)
    return (100 + to_maturity / year * rate * 100) / \
        (1 + (to_maturity - to_settlement) / year * yld) - to_settlement / year * rate * 100


@_fn("dddnnb")
def _yieldmat(settlement: Day, maturity: Day, issue: Day, rate: float, price: float,
              basis: int = 0) -> Any:
    if not issue < settlement < maturity or rate < 0 or price <= 0:
        return XlErr(NUM)
    year, to_maturity, to_settlement = _at_maturity(basis, settlement, maturity, issue)
    held = price / 100 + to_settlement / year * rate
    return (to_maturity / year * rate + 1 - held) / held * year / (to_maturity - to_settlement)


# -- Treasury bills ----------------------------------------------------------------
def _bill_days(settlement: Day, maturity: Day) -> int | XlErr:
    """Days to maturity of a bill: #NUM! unless maturity is within a year after settlement."""
    if settlement >= maturity or maturity > add_months(settlement, 12, False):
        return XlErr(NUM, "maturity must be after settlement and within a year of it")
    return (maturity - settlement).days


@_fn("ddn")
def _tbilleq(settlement: Day, maturity: Day, discount: float) -> Any:
    days = _bill_days(settlement, maturity)
    if isinstance(days, XlErr) or discount <= 0:
        return days if isinstance(days, XlErr) else XlErr(NUM)
    if days <= 182:
        return 365 * discount / (360 - discount * days)
    # past half a year the bond-equivalent yield allows for one coupon reinvested
    price = 1 - discount * days / 360
    year = 366.0 if days == 366 else 365.0
    term = (days / year) ** 2 - (2 * days / year - 1) * (1 - 1 / price)
    if term < 0:
        return XlErr(NUM)
    return 2 * (math.sqrt(term) - days / year) / (2 * days / year - 1)


@_fn("ddn")
def _tbillprice(settlement: Day, maturity: Day, discount: float) -> Any:
    days = _bill_days(settlement, maturity)
    if isinstance(days, XlErr) or discount <= 0:
        return days if isinstance(days, XlErr) else XlErr(NUM)
    price = 100 * (1 - discount * days / 360)
    return price if price > 0 else XlErr(NUM)


@_fn("ddn")
def _tbillyield(settlement: Day, maturity: Day, price: float) -> Any:
    days = _bill_days(settlement, maturity)
    if isinstance(days, XlErr) or price <= 0:
        return days if isinstance(days, XlErr) else XlErr(NUM)
    return (100 - price) / price * 360 / days


# -- French depreciation (amortissement linéaire et dégressif) ---------------------------
def _first_depreciation(cost: float, bought: Day, first_end: Day, salvage: float, rate: float,
                        life: float, basis: int) -> tuple[float, float]:
    """The first period's depreciation, pro rata of the days from purchase to its end, and
    the life in periods (one more when that first period is partial)."""
    if basis in (1, 3):  # 29 February counts as the 28th in an actual year
        bought, first_end = (Day(d.year, 2, 28) if d.month == 2 and d.day == 29 else d
                             for d in (bought, first_end))
    year = (366.0 if calendar.isleap(bought.year) else 365.0) if basis == 1 else \
        year_days(basis, bought, bought)
    first = days_between(basis, bought, first_end) / year * rate * cost
    if first == 0:
        return min(cost * rate, cost - salvage), life
    return min(first, cost - salvage), life + 1


def _amor_arguments(cost: float, bought: Day, first_end: Day, salvage: float, period: float,
                    rate: float, basis: int) -> XlErr | None:
    if cost < 0 or salvage < 0 or salvage >= cost or period < 0 or rate <= 0 \
            or bought >= first_end or basis == 2:
        return XlErr(NUM)
    return None


def _whole(value: float) -> float:
    """Rounded to a whole number, half away from zero, after Excel's 13 digits."""
    value = round(value, 13)
    return math.copysign(math.floor(abs(value) + 0.5), value)


@_fn("nddnnnb")
def _amorlinc(cost: float, bought: Day, first_end: Day, salvage: float, period: float,
              rate: float, basis: int = 0) -> Any:
    error = _amor_arguments(cost, bought, first_end, salvage, period, rate, basis)
    if error is not None:
        return error
    life = math.ceil(1 / rate)
    if period > life:
        return 0.0
    first, _ = _first_depreciation(cost, bought, first_end, salvage, rate, life, basis)
    if period == 0:
        return first
    depreciation, left = rate * cost, cost - salvage - first
    counted = 1.0
    while counted <= period:
        depreciation = min(depreciation, left)
        left = max(left - depreciation, 0.0)
        counted += 1
    return depreciation


@_fn("nddnnnb")
def _amordegrc(cost: float, bought: Day, first_end: Day, salvage: float, period: float,
               rate: float, basis: int = 0) -> Any:
    """Declining balance with the French coefficient (1.5, 2 or 2.5 by the asset's life),
    the balance halved over the last two periods, every period rounded to a whole unit."""
    error = _amor_arguments(cost, bought, first_end, salvage, period, rate, basis)
    if error is not None:
        return error
    if 0 <= 1 / rate <= 3 or 4 <= 1 / rate <= 5:
        return XlErr(NUM, "the asset's life (1/rate) must not be up to 3 nor 4 to 5 years")
    life = math.ceil(1 / rate)
    if period > life:
        return 0.0
    coefficient = 1.5 if life <= 4 else 2.0 if life <= 6 else 2.5
    rate *= coefficient
    first, periods = _first_depreciation(cost, bought, first_end, salvage, rate, life, basis)
    first = _whole(first)
    if period == 0:
        return first
    remaining, depreciation, counted = cost - first, 0.0, 1.0
    while counted <= period:
        counted += 1
        if abs(periods - counted - 2) < 1e-4:  # the last two periods share what is left
            depreciation, rate = remaining * 0.5, 1.0
        else:
            depreciation = rate * remaining
        if remaining < salvage:
            depreciation = 0.0
        remaining -= depreciation
    return _whole(depreciation)


# -- fractional dollar prices --------------------------------------------------------
def _dollar(to_decimal: bool) -> Callable[[Any, Any], Any]:
    def dollar(value: Any, fraction: Any) -> Any:
        price, parts = number(value), integer(fraction)
        error = first_error(price, parts)
        if error is not None:
            return error
        assert isinstance(price, float) and isinstance(parts, int)
        if parts < 0:
            return XlErr(NUM)
        if parts == 0:
            return XlErr(DIV0)
        whole = float(math.trunc(price))
        digits = 10.0 ** math.ceil(math.log10(parts))  # the decimal places the fraction takes
        rest = price - whole
        return whole + (rest * digits / parts if to_decimal else rest * parts / digits)
    return dollar


ELEMENTWISE["DOLLARDE"], ELEMENTWISE["DOLLARFR"] = _dollar(True), _dollar(False)
