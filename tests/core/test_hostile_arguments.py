"""Worksheet-function arguments no spreadsheet sends, as Python callers and crafted
Office.js payloads can: each is one line naming the argument, quickly, never a fault.

What Excel itself hands over is a cell or a rectangular range of at most a sheet's cells;
these are what lies past that: numbers past a float's range, texts of a megabyte, lists
nested a hundred thousand deep, a million cells, ragged rows, digits of other scripts.
"""

from __future__ import annotations

import pytest
from test_udfs import _office_js

from chessrating.cells import MAX_CELLS
from chessrating.errors import RatingError
from chessrating.results import SHOWN_CHARACTERS
from chessrating.udfs import FIDE_CHANGE, FIDE_K, PERF_RATING

HUGE = 10**400  # past a float's range: float(HUGE) raises OverflowError


def _deep(depth: int) -> list:
    nested: list = [2000.0]
    for _ in range(depth):
        nested = [nested]
    return nested


@pytest.mark.parametrize(("call", "message"), [
    (lambda: FIDE_CHANGE(HUGE, [2000.0], [1.0], 20.0), "rating: a number of 401 digits is too large"),
    (lambda: FIDE_CHANGE(2000.0, [2100.0, HUGE], [1.0, 0.0], 20.0),
     "opponent_ratings: a number of 401 digits is too large (item 2)"),
    (lambda: FIDE_K(2000.0, 10**5000), "rated_games: a number of thousands of digits is too large"),
    (lambda: FIDE_CHANGE(2000.0, _deep(100_000), [1.0], 20.0),
     "opponent_ratings: a range nested deeper than rows and columns"),
    (lambda: FIDE_CHANGE(2000.0, [[2000.0] * 1000] * 1000, [[1.0] * 1000] * 1000, 20.0),
     f"opponent_ratings: 1000000 cells; one argument takes at most {MAX_CELLS}"),
    (lambda: PERF_RATING([2000.0] * 1_000_000, [1.0] * 1_000_000),
     f"opponent_ratings: 1000000 rows or cells; one argument takes at most {MAX_CELLS} cells"),
    (lambda: FIDE_CHANGE(2000.0, [[2000.0, 2000.0], [2000.0]], [[1.0, 1.0], [1.0]], 20.0),
     "opponent_ratings: rows of different lengths; give a rectangular range"),
])
def test_impossible_arguments_are_one_line_naming_the_argument(call, message):
    with pytest.raises(RatingError) as error:
        call()
    assert str(error.value) == message


def test_a_long_text_is_quoted_by_a_short_prefix_and_its_length():
    with pytest.raises(RatingError) as error:
        FIDE_CHANGE(2000.0, [2000.0], ["x" * 1_000_000], 20.0)
    quoted = "x" * SHOWN_CHARACTERS
    assert str(error.value) == f"results: '{quoted}…' (1000000 characters) is not a game result (item 1)"


@pytest.mark.parametrize("text", ["1_000", "2_000", "２０００", "٢٠٠٠", "2０00"])
def test_only_ascii_digits_make_a_number(text):
    # Python's float() reads "1_000" and the digits of every script; Excel reads neither as
    # a number, so neither does a rating cell here.
    with pytest.raises(RatingError) as error:
        FIDE_CHANGE(text, [2000.0], [1.0], 20.0)
    assert str(error.value) == f"rating: {text!r} is not a number"


def test_the_largest_argument_allowed_is_still_read():
    ratings = [[2000.0] * 100] * (MAX_CELLS // 100)
    results = [[0.5] * 100] * (MAX_CELLS // 100)
    assert FIDE_CHANGE(2000.0, ratings, results, 20.0) == pytest.approx(0.0)


@pytest.mark.slow  # a subprocess through xlwings' converters: seconds
def test_office_js_payloads_past_any_sheet_are_xlwings_errors():
    # Through xlwings' own Office.js call path: the JSON of a crafted payload may carry an
    # integer of 400 digits or a page of text; the host shows #VALUE! with the reason.
    calls = [
        {"func": "FIDE_CHANGE", "args": [[[HUGE]], [[2000]], [[1]], [[20]], None]},
        {"func": "FIDE_CHANGE", "args": [[[2000]], [[2000]], [["x" * 100_000]], [[20]], None]},
        {"func": "FIDE_CHANGE", "args": [[[2000]], [[2000] * 1000] * 101, [[1] * 1000] * 101, [[20]], None]},
    ]
    outcomes = _office_js(calls)
    assert outcomes[0] == {"error": "XlwingsError", "message": "rating: a number of 401 digits is too large"}
    assert outcomes[1]["error"] == "XlwingsError"
    assert len(outcomes[1]["message"]) < 120
    assert outcomes[2] == {"error": "XlwingsError",
                           "message": f"opponent_ratings: 101000 cells; one argument takes at most {MAX_CELLS}"}


@pytest.mark.parametrize("text", ["1_0", "２", "1e0", "0x2", " 2.5 "])
def test_an_opponent_number_is_written_in_digits_0_to_9(text):
    # The one reader of opponent numbers (TIEBREAK and USCF_EVENT alike) takes whole
    # numbers in ASCII digits only, as Excel reads a number.
    from chessrating.udfs import TIEBREAK, USCF_EVENT

    opponents = [[text], [1.0]]
    with pytest.raises(RatingError, match="^opponents: .* is not a player number"):
        TIEBREAK("WIN", opponents, [["1"], ["0"]])
    with pytest.raises(RatingError, match="^opponents: .* is not a player number"):
        USCF_EVENT([1500.0, 1500.0], [30.0, 30.0], [["1"], ["0"]], opponents)
