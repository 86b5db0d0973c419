"""A typed 1/2 that Excel turned into a date is named as such, by the core and by the
Excel functions, whether it arrives as a datetime (classic xlwings) or as the day's
serial number (Office.js, xlwings Lite, the evaluator)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import udfs
from chessrating.errors import RatingError
from chessrating.results import read_result

EPOCH = dt.date(1899, 12, 30)  # Excel's 1900 date system: serial n is EPOCH + n days


def serial(day: dt.date) -> int:
    return (day - EPOCH).days


def test_excel_serial_of_2_january_2026_is_46024() -> None:
    # The number the issue reports: 46024 is 2 January 2026 in Excel's 1900 date system.
    assert serial(dt.date(2026, 1, 2)) == 46024


@given(st.integers(1901, 9999), st.sampled_from([(1, 2, "2-Jan"), (2, 1, "1-Feb")]),
       st.sampled_from(["serial", "datetime", "date"]))
def test_a_typed_half_is_named_in_any_year(year: int, day: tuple[int, int, str], shape: str) -> None:
    month, mday, shown = day
    when = dt.date(year, month, mday)
    value = {"serial": serial(when), "datetime": dt.datetime(year, month, mday),
             "date": when}[shape]
    with pytest.raises(RatingError) as error:
        read_result(value, "results", 3)
    assert str(error.value) == (f"results: {shown} was typed as 1/2 and became a date; "
                                "pick ½ from the list (item 3)")


@given(st.dates(dt.date(1901, 1, 1), dt.date(9999, 12, 31)))
def test_other_days_stay_what_they_are(day: dt.date) -> None:
    if (day.month, day.day) in ((1, 2), (2, 1)):
        return
    with pytest.raises(RatingError) as error:
        read_result(serial(day), "results")
    assert str(error.value) == f"results: {serial(day)} is not a game result"


def test_small_numbers_are_numbers_not_dates_of_1900() -> None:
    # 2 and 32 are 2 January and 1 February 1900 as serials, but no one types 1/2 in 1900:
    # a typed 2 is a 2.
    for value in (2, 32):
        with pytest.raises(RatingError, match=rf"^results: {value} is not a game result$"):
            read_result(value)


def test_the_excel_functions_name_the_date() -> None:
    message = "results: 2-Jan was typed as 1/2 and became a date; pick ½ from the list"
    # Office.js and the evaluator hand the cell over as the day's serial number...
    with pytest.raises(RatingError, match=message):
        udfs.FIDE_CHANGE(2000, [[2000]], [[46024]], 20, "2025")
    # ...classic xlwings as a datetime.
    with pytest.raises(RatingError, match=message):
        udfs.FIDE_CHANGE(2000, [[2000]], [[dt.datetime(2026, 1, 2)]], 20, "2025")
