"""Excel's securities functions (bonds, coupons, bills) in the headless evaluator.

First the example of each function's Microsoft support page, named in the comment above it
(support.microsoft.com/office/<name>-function-…), evaluated as a formula and compared with
the digits the page shows; then properties that hold for any input (hypothesis): prices and
yields invert each other, the coupon functions agree with each other and with the calendar,
ACCRINTM is YEARFRAC's day count, and every function refuses what Microsoft says it refuses.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xlrecalc.functions import call_library
from xlrecalc.functions_base import serial_of
from xlrecalc.values import XlErr
from test_functions import NUM, VALUE, check, value

EXAMPLES = [
    # ACCRINT function: issue 39508, first interest 39691, settlement 39569, 10 %, par 1,000,
    # semiannual, 30/360; the second and third rows change the issue date
    ("=ACCRINT(39508,39691,39569,0.1,1000,2,0)", 16.666667, 6),
    ("=ACCRINT(DATE(2008,3,5),39691,39569,0.1,1000,2,0,FALSE)", 15.555556, 6),
    ("=ACCRINT(DATE(2008,4,5),39691,39569,0.1,1000,2,0,TRUE)", 7.2222222, 7),
    # ACCRINT function (DAX), learn.microsoft.com/dax/accrint-function-dax: an issue three
    # coupon periods back, where calc_method counts the whole periods or not
    ("=ACCRINT(DATE(2007,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", 116.944444444444, None),
    ("=ACCRINT(DATE(2007,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0,FALSE)", 66.9444444444445, None),
    # ACCRINTM function: issue 39539, maturity 39614, 10 %, par 1,000, actual/365
    ("=ACCRINTM(39539,39614,0.1,1000,3)", 20.54794521, 8),
    # AMORDEGRC and AMORLINC functions: cost 2,400, bought 39679, first period ending 39813,
    # salvage 300, period 1, rate 15 %, actual basis
    ("=AMORDEGRC(2400,39679,39813,300,1,0.15,1)", 776.0, 0),
    ("=AMORLINC(2400,39679,39813,300,1,0.15,1)", 360.0, 0),
    # COUPDAYBS, COUPDAYS, COUPDAYSNC, COUPNCD, COUPPCD functions: settlement 25-Jan-11,
    # maturity 15-Nov-11, semiannual, actual/actual
    ("=COUPDAYBS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 71.0, 0),
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 181.0, 0),
    ("=COUPDAYSNC(DATE(2011,1,25),DATE(2011,11,15),2,1)", 110.0, 0),
    ("=COUPNCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40678.0, 0),  # 15-May-11
    ("=COUPPCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40497.0, 0),  # 15-Nov-10
    # COUPNUM function: settlement 25-Jan-07, maturity 15-Nov-08, semiannual, actual/actual
    ("=COUPNUM(DATE(2007,1,25),DATE(2008,11,15),2,1)", 4.0, 0),
    # DISC function: settlement 07/01/2018, maturity 01/01/2048, price 97.975, redemption 100,
    # actual/actual; all the digits from the DAX page (learn.microsoft.com/dax/disc-function-dax)
    ("=DISC(DATE(2018,7,1),DATE(2048,1,1),97.975,100,1)", 0.000686384169121348, None),
    # DOLLARDE and DOLLARFR functions
    ("=DOLLARDE(1.02,16)", 1.125, None), ("=DOLLARDE(1.1,32)", 1.3125, None),
    ("=DOLLARFR(1.125,16)", 1.02, None), ("=DOLLARFR(1.125,32)", 1.04, None),
    # DURATION function: settlement 07/01/2018, maturity 01/01/2048, coupon 8 %, yield 9 %,
    # semiannual, actual/actual
    ("=DURATION(DATE(2018,7,1),DATE(2048,1,1),0.08,0.09,2,1)", 10.9191453, 7),
    # INTRATE function: 15-Feb-08 to 15-May-08, investment 1,000,000, redemption 1,014,420,
    # actual/360
    ("=INTRATE(DATE(2008,2,15),DATE(2008,5,15),1000000,1014420,2)", 0.05768, 5),
    # MDURATION function: 1/1/2008 to 1/1/2016, coupon 8 %, yield 9 %, semiannual, actual/actual
    ("=MDURATION(DATE(2008,1,1),DATE(2016,1,1),0.08,0.09,2,1)", 5.73567, 5),
    # ODDFPRICE function: settlement 11-Nov-08, maturity 1-Mar-21, issue 15-Oct-08, first
    # coupon 1-Mar-09, 7.85 %, yield 6.25 %, redemption 100, semiannual, actual/actual
    ("=ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),"
     "0.0785,0.0625,100,2,1)", 113.60, 2),
    # ODDFYIELD function: the same dates, 5.75 %, price 84.50, redemption 100, semiannual, 30/360
    ("=ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),"
     "0.0575,84.5,100,2,0)", 0.0772, 4),
    # ODDLPRICE function: settlement 7-Feb-08, maturity 15-Jun-08, last interest 15-Oct-07,
    # 3.75 %, yield 4.05 %, redemption 100, semiannual, 30/360
    ("=ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2007,10,15),0.0375,0.0405,100,2,0)",
     99.88, 2),
    # ODDLYIELD function: settlement 20-Apr-08, maturity 15-Jun-08, last interest 24-Dec-07,
    # 3.75 %, price 99.875, redemption 100, semiannual, 30/360
    ("=ODDLYIELD(DATE(2008,4,20),DATE(2008,6,15),DATE(2007,12,24),0.0375,99.875,100,2,0)",
     0.045192, 6),
    # PRICE function: settlement 15-Feb-08, maturity 15-Nov-17, 5.75 %, yield 6.50 %,
    # redemption 100, semiannual, 30/360
    ("=PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,100,2,0)", 94.63, 2),
    # PRICEDISC function: 16-Feb-08 to 1-Mar-08, discount 5.25 %, redemption 100, actual/360
    ("=PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,2)", 99.80, 2),
    # PRICEMAT function: settlement 15-Feb-08, maturity 13-Apr-08, issue 11-Nov-07, 6.1 %,
    # yield 6.1 %, 30/360
    ("=PRICEMAT(DATE(2008,2,15),DATE(2008,4,13),DATE(2007,11,11),0.061,0.061,0)", 99.98, 2),
    # RECEIVED function: 15-Feb-08 to 15-May-08, investment 1,000,000, discount 5.75 %,
    # actual/360
    ("=RECEIVED(DATE(2008,2,15),DATE(2008,5,15),1000000,0.0575,2)", 1014584.654, 3),
    # TBILLEQ, TBILLPRICE, TBILLYIELD functions: 31-Mar-08 to 1-Jun-08
    ("=TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),0.0914)", 0.094151, 6),
    ("=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)", 98.45, 2),
    ("=TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),98.45)", 0.091417, 6),
    # YIELD function: settlement 15-Feb-08, maturity 15-Nov-16, 5.75 %, price 95.04287,
    # redemption 100, semiannual, 30/360 (the page shows 6.50 %)
    ("=YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,95.04287,100,2,0)", 0.065, 6),
    # YIELDDISC function: 16-Feb-08 to 1-Mar-08, price 99.795, redemption 100, actual/360
    ("=YIELDDISC(DATE(2008,2,16),DATE(2008,3,1),99.795,100,2)", 0.052823, 6),
    # YIELDMAT function: settlement 15-Mar-08, maturity 3-Nov-08, issue 8-Nov-07, 6.25 %,
    # price 100.0123, 30/360
    ("=YIELDMAT(DATE(2008,3,15),DATE(2008,11,3),DATE(2007,11,8),0.0625,100.0123,0)", 0.060954, 6),
]


@pytest.mark.parametrize("formula, shown, digits", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_documented_example(formula: str, shown: float, digits: int | None) -> None:
    check(value(formula), shown, digits)


def test_par_omitted_is_1000_and_the_example_in_cells() -> None:
    # ACCRINT function: the page's table in A2:A8; an empty par is $1,000
    cells = {"A2": 39508, "A3": 39691, "A4": 39569, "A5": 0.1, "A6": 1000, "A7": 2, "A8": 0}
    check(value("=ACCRINT(A2,A3,A4,A5,A6,A7,A8)", cells), 16.666667, 6)
    check(value("=ACCRINT(A2,A3,A4,A5,,A7)", cells), 16.666667, 6)


def test_dates_frequency_and_basis_are_truncated() -> None:
    # the COUPDAYBS example with a time of day in both dates, frequency 2.9 and basis 1.9
    check(value("=COUPDAYBS(DATE(2011,1,25)+0.7,DATE(2011,11,15)+0.2,2.9,1.9)"), 71.0)
    check(value("=COUPNCD(DATE(2011,1,25)+0.99,DATE(2011,11,15),2,1)"), 40678.0)
    check(value("=COUPDAYS(DATE(2011,11,15),DATE(2011,11,15)+0.5,2)"), NUM)  # the same day


# -- what each function refuses (Microsoft's "Remarks") ------------------------------------
S, M = "DATE(2008,2,15)", "DATE(2017,11,15)"
REFUSED = [
    (f"=COUPDAYS({M},{S},2,1)", NUM), (f"=COUPNUM({S},{S},2)", NUM),
    (f"=COUPPCD({S},{M},3)", NUM), (f"=COUPNCD({S},{M},2,5)", NUM),
    (f"=COUPDAYBS({S},{M},2,-1)", NUM), (f'=COUPDAYSNC("someday",{M},2)', VALUE),
    (f"=PRICE({S},{M},-0.01,0.065,100,2)", NUM), (f"=PRICE({S},{M},0.0575,-0.01,100,2)", NUM),
    (f"=PRICE({S},{M},0.0575,0.065,0,2)", NUM), (f'=PRICE("x",{M},0.0575,0.065,100,2)', VALUE),
    (f"=YIELD({S},{M},0.0575,0,100,2)", NUM), (f"=YIELD({M},{S},0.0575,95,100,2)", NUM),
    (f"=ACCRINT({S},{M},{S},0.1,1000,2)", NUM), (f"=ACCRINT(DATE(2007,1,1),{M},{S},0,1000,2)", NUM),
    (f"=ACCRINT(DATE(2007,1,1),{M},{S},0.1,-1,2)", NUM), (f"=ACCRINTM({S},{S},0.1,1000)", NUM),
    (f"=DISC({S},{M},0,100)", NUM), (f"=INTRATE({S},{M},1000,0)", NUM),
    (f"=RECEIVED({S},{M},1000,0)", NUM), (f"=PRICEDISC({S},{M},0,100)", NUM),
    (f"=YIELDDISC({S},{M},-1,100)", NUM), (f"=PRICEMAT({S},{M},{M},0.06,0.06)", NUM),
    (f"=YIELDMAT({S},{M},DATE(2007,1,1),0.06,0)", NUM),
    (f"=DURATION({S},{M},-0.08,0.09,2)", NUM), (f"=MDURATION({S},{M},0.08,0.09,3)", NUM),
    (f"=TBILLPRICE({S},DATE(2009,3,1),0.09)", NUM), (f"=TBILLYIELD({S},{S},98)", NUM),
    (f"=TBILLEQ({S},DATE(2008,6,1),0)", NUM),
    ("=ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,12,15),DATE(2009,3,1),0.07,0.06,100,2)", NUM),
    ("=ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.07,0,100,2)", NUM),
    ("=ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2008,3,15),0.0375,0.0405,100,2)", NUM),
    ("=ODDLYIELD(DATE(2008,4,20),DATE(2008,6,15),DATE(2007,12,24),-0.01,99,100,2)", NUM),
    ("=AMORLINC(2400,39679,39813,300,1,0.15,2)", NUM), ("=AMORDEGRC(2400,39679,39813,300,1,0.45,1)", NUM),
    ("=DOLLARDE(1.02,-1)", NUM), ("=DOLLARDE(1.02,0.5)", XlErr("#DIV/0!")),
    ("=DOLLARFR(1.125,0)", XlErr("#DIV/0!")),
]


@pytest.mark.parametrize("formula, error", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_arguments(formula: str, error: XlErr) -> None:
    check(value(formula), error)


# -- properties ------------------------------------------------------------------------
def call(name: str, *args: Any) -> Any:
    return call_library(name, [float(a) if isinstance(a, int) else a for a in args])


days = st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2090, 12, 31))
frequencies, bases = st.sampled_from([1, 2, 4]), st.integers(0, 4)


@st.composite
def bonds(draw: Any) -> tuple[float, float]:
    """A settlement date and a later maturity (up to 40 years), as serial numbers."""
    settlement = draw(days)
    maturity = settlement + dt.timedelta(days=draw(st.integers(1, 40 * 366)))
    return serial_of(settlement), serial_of(maturity)


@settings(max_examples=300, deadline=None)
@given(bonds(), st.floats(0, 0.2), st.floats(0.0005, 0.3), st.floats(50, 150), frequencies, bases)
def test_yield_of_price_is_the_yield(bond: tuple[float, float], rate: float, yld: float,
                                     redemption: float, frequency: int, basis: int) -> None:
    # 30/360 and actual/360 can leave no day to the next coupon, where YIELD divides by it
    assume(call("COUPDAYS", *bond, frequency, basis) > call("COUPDAYBS", *bond, frequency, basis))
    price = call("PRICE", *bond, rate, yld, redemption, frequency, basis)
    assert abs(call("YIELD", *bond, rate, price, redemption, frequency, basis) - yld) < 1e-9


@settings(max_examples=300, deadline=None)
@given(bonds(), frequencies, bases)
def test_coupon_functions_agree(bond: tuple[float, float], frequency: int, basis: int) -> None:
    settlement, maturity = bond
    before, after = (call(name, settlement, maturity, frequency, basis)
                     for name in ("COUPPCD", "COUPNCD"))
    assert before <= settlement < after <= maturity
    since, until = (call(name, settlement, maturity, frequency, basis)
                    for name in ("COUPDAYBS", "COUPDAYSNC"))
    if basis in (1, 2, 3):  # actual days: the two parts make the period between the dates
        assert since + until == after - before
    if basis == 1:  # and only actual/actual's COUPDAYS is that period
        assert since + until == call("COUPDAYS", settlement, maturity, frequency, basis)
    count = call("COUPNUM", settlement, maturity, frequency, basis)
    months = 12 // frequency * int(count)
    first = dt.date(1899, 12, 30) + dt.timedelta(days=before)
    shifted = (first.year * 12 + first.month - 1 + months)
    matured = dt.date(1899, 12, 30) + dt.timedelta(days=maturity)
    assert divmod(shifted, 12) == (matured.year, matured.month - 1)


@settings(max_examples=200, deadline=None)
@given(bonds(), st.floats(0.001, 0.2), st.floats(1, 10000), bases)
def test_accrintm_is_par_times_rate_times_yearfrac(bond: tuple[float, float], rate: float,
                                                   par: float, basis: int) -> None:
    found = call("ACCRINTM", *bond, rate, par, basis)
    expected = par * rate * call("YEARFRAC", *bond, basis)
    assert abs(found - expected) <= 1e-9 * max(1.0, abs(expected))


@settings(max_examples=200, deadline=None)
@given(bonds(), st.floats(0.001, 0.2), st.floats(50, 150), bases)
def test_discount_functions_invert_each_other(bond: tuple[float, float], discount: float,
                                              redemption: float, basis: int) -> None:
    assume(call("YEARFRAC", *bond, basis) > 0)  # 30 and 31 January are no day apart in 30/360
    price = call("PRICEDISC", *bond, discount, redemption, basis)
    assume(price > 0)
    assert abs(call("DISC", *bond, price, redemption, basis) - discount) < 1e-9
    received = call("RECEIVED", *bond, price, discount, basis)
    assume(isinstance(received, float))
    assert abs(call("DISC", *bond, price, received, basis) - discount) < 1e-9
    assert abs(call("INTRATE", *bond, price, redemption, basis)
               - call("YIELDDISC", *bond, price, redemption, basis)) < 1e-9


@settings(max_examples=200, deadline=None)
@given(bonds(), st.integers(1, 3000), st.floats(0, 0.2), st.floats(0, 0.3), bases)
def test_pricemat_and_yieldmat_invert_each_other(bond: tuple[float, float], held: int,
                                                 rate: float, yld: float, basis: int) -> None:
    issue = bond[0] - held
    if basis in (0, 4):  # days counted from issue: 29 January to 31 January and to 1 February
        assume(call("YEARFRAC", issue, bond[1], basis) != call("YEARFRAC", issue, bond[0], basis))
    price = call("PRICEMAT", *bond, issue, rate, yld, basis)
    assume(price > 0)  # interest accrued before settlement can outweigh a long discounting
    assert abs(call("YIELDMAT", *bond, issue, rate, price, basis) - yld) < 1e-9


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2090, 12, 31)),
       st.integers(1, 365), st.floats(0.001, 0.2))
def test_bill_price_is_the_actual_360_discount_price(day: dt.date, length: int, discount: float) -> None:
    settlement = serial_of(day)
    maturity = serial_of(day + dt.timedelta(days=length))
    price = call("TBILLPRICE", settlement, maturity, discount)
    assume(isinstance(price, float))
    assert abs(price - call("PRICEDISC", settlement, maturity, discount, 100, 2)) < 1e-9
    assert abs(call("TBILLYIELD", settlement, maturity, price)
               - call("YIELDDISC", settlement, maturity, price, 100, 2)) < 1e-9


@settings(max_examples=150, deadline=None)
@given(bonds(), st.floats(0, 0.2), st.floats(0.0005, 0.3), frequencies, bases)
def test_modified_duration_is_duration_over_one_period_of_yield(
        bond: tuple[float, float], coupon: float, yld: float, frequency: int, basis: int) -> None:
    duration = call("DURATION", *bond, coupon, yld, frequency, basis)
    modified = call("MDURATION", *bond, coupon, yld, frequency, basis)
    assert abs(modified - duration / (1 + yld / frequency)) < 1e-9
    years = (bond[1] - bond[0]) / 365
    if call("COUPDAYS", *bond, frequency, basis) > call("COUPDAYBS", *bond, frequency, basis):
        assert 0 <= duration <= years + 1  # a weighted mean of the payments' times


@settings(max_examples=150, deadline=None)
@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2060, 12, 31)),
       st.integers(1, 5), st.integers(1, 40), st.integers(1, 170), frequencies, bases,
       st.floats(0, 0.15), st.floats(0.001, 0.2))
def test_odd_first_price_and_yield_invert_each_other(
        maturity: dt.date, before: int, periods: int, held: int, frequency: int, basis: int,
        rate: float, yld: float) -> None:
    first = _coupon_before(maturity, 12 // frequency, periods)
    settlement = first - dt.timedelta(days=before * 20)
    issue = settlement - dt.timedelta(days=held)
    args = [serial_of(d) for d in (settlement, maturity, issue, first)]
    price = call("ODDFPRICE", *args, rate, yld, 100, frequency, basis)
    assume(isinstance(price, float))
    found = call("ODDFYIELD", *args, rate, price, 100, frequency, basis)
    assert abs(found - yld) < 1e-8


@settings(max_examples=200, deadline=None)
@given(bonds(), st.integers(1, 400), st.floats(0, 0.15), st.floats(0.001, 0.2), frequencies, bases)
def test_odd_last_price_and_yield_invert_each_other(
        bond: tuple[float, float], back: int, rate: float, yld: float, frequency: int,
        basis: int) -> None:
    settlement, maturity = bond
    assume(maturity - settlement < 366 and call("YEARFRAC", *bond, basis) > 0)
    last = settlement - back
    price = call("ODDLPRICE", settlement, maturity, last, rate, yld, 100, frequency, basis)
    assume(isinstance(price, float) and price > 0)
    found = call("ODDLYIELD", settlement, maturity, last, rate, price, 100, frequency, basis)
    assert abs(found - yld) < 1e-9


@settings(max_examples=200, deadline=None)
@given(st.integers(-1000, 1000), st.integers(1, 99), st.data())
def test_dollarde_undoes_dollarfr(whole: int, fraction: int, data: Any) -> None:
    sixteenths = data.draw(st.integers(0, fraction - 1))
    price = whole + sixteenths / fraction  # a price in 1/fraction units
    assert abs(call("DOLLARDE", call("DOLLARFR", price, fraction), fraction) - price) < 1e-9


def _coupon_before(maturity: dt.date, months: int, periods: int) -> dt.date:
    """A coupon date ``periods`` back on maturity's schedule, stepped one period at a time
    (on month ends if maturity is one), as Excel steps it."""
    end_of_month = maturity.day == calendar.monthrange(maturity.year, maturity.month)[1]
    day = maturity
    for _ in range(periods):
        year, month0 = divmod(day.year * 12 + day.month - 1 - months, 12)
        last = calendar.monthrange(year, month0 + 1)[1]
        day = dt.date(year, month0 + 1, last if end_of_month else min(day.day, last))
    return day
