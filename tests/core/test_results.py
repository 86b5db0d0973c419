"""The results and ratings reader: every value of the README's vocabulary in every shape Excel sends."""

import datetime as dt
import math

import pytest
from hypothesis import given, strategies as st

from chessrating.cells import count, flatten, read_bool, read_games, read_number, read_rating, read_text
from chessrating.results import (
    DRAW, FORFEIT_LOSS, FORFEIT_WIN, FULL_BYE, HALF_BYE, LOSS, PAIRING_BYE, WIN, ZERO_BYE,
    Game, RatingError, read_result,
)

# README, "Results a cell may hold": rated 1, 0.5, 0, "1", "½", "=", "0.5", "0", W, D, L;
# not rated "+", "-", "X", "F", "H", "B", "U", "Z"; blank = not played.
CELL_VOCABULARY = [
    (1.0, WIN), (1, WIN), (0.5, DRAW), (0.0, LOSS), (0, LOSS),
    ("1", WIN), ("½", DRAW), ("=", DRAW), ("0.5", DRAW), ("0", LOSS),
    ("W", WIN), ("D", DRAW), ("L", LOSS), ("w", WIN), (" d ", DRAW), ("l", LOSS),
    ("+", FORFEIT_WIN), ("-", FORFEIT_LOSS), ("X", FORFEIT_WIN), ("x", FORFEIT_WIN),
    ("F", FORFEIT_LOSS), ("H", HALF_BYE), ("h", HALF_BYE), ("B", FULL_BYE),
    ("U", PAIRING_BYE), ("Z", ZERO_BYE), ("z", ZERO_BYE), ("0,5", DRAW), ("1/2", DRAW),
]


@pytest.mark.parametrize("value, expected", CELL_VOCABULARY)
def test_every_cell_value_of_the_design_is_read(value, expected):
    assert read_result(value) == expected


def test_points_and_rated_flags():
    assert (WIN.points, WIN.rated, DRAW.points, LOSS.points) == (1.0, True, 0.5, 0.0)
    assert [r.rated for r in (FORFEIT_WIN, FORFEIT_LOSS, HALF_BYE, FULL_BYE, PAIRING_BYE, ZERO_BYE)] == [False] * 6
    assert [r.points for r in (FORFEIT_WIN, FORFEIT_LOSS, HALF_BYE, FULL_BYE, PAIRING_BYE, ZERO_BYE)] == [1, 0, 0.5, 1, 1, 0]


@pytest.mark.parametrize("blank", [None, "", "   "])
def test_blank_is_not_played(blank):
    assert read_result(blank) is None


@pytest.mark.parametrize("value, message", [
    (2, "results: 2 is not a game result (item 4)"),
    (2.0, "results: 2 is not a game result (item 4)"),
    ("x1", "results: 'x1' is not a game result (item 4)"),
    (True, "results: True is not a game result (item 4)"),
    (math.nan, "results: nan is not a game result (item 4)"),
    ("#N/A", "results: the cell holds the Excel error #N/A (item 4)"),
    (dt.datetime(2026, 3, 2), "results: the date 2026-03-02 is not a game result; a typed 1/2 becomes a date, type ½ or 0.5 (item 4)"),
    # 2 January: what Excel makes of a typed 1/2 where dates are month/day
    (dt.datetime(2026, 1, 2), "results: 2-Jan was typed as 1/2 and became a date; pick ½ from the list (item 4)"),
])
def test_bad_results_name_value_and_position(value, message):
    with pytest.raises(RatingError) as error:
        read_result(value, "results", 4)
    assert str(error.value) == message
    assert "\n" not in str(error.value)


def test_ratings():
    assert read_rating(2000.0) == 2000.0
    assert read_rating(1850) == 1850.0
    assert read_rating("1850") == 1850.0
    # Thousands separators of real lists: comma, point, space, apostrophe, no-break space.
    for text in ("2,050", "2.050", "2 050", "2'050", " 2\u00a0050 ", "2’050"):
        assert read_rating(text) == 2050.0, text
    for none in (None, "", 0, 0.0, "-", " - "):
        assert read_rating(none) is None
    for bad, text in [("abc", "'abc' is not a number"), (-5.0, "-5 is not a rating"),
                      (math.nan, "nan is not a finite number"), (math.inf, "inf is not a finite number"),
                      ("#VALUE!", "the cell holds the Excel error #VALUE!"), (False, "False is not a number"),
                      (99999.0, "99999 is not a rating from 100 to 4000"),
                      ("2,05", "'2,05' is not a rating from 100 to 4000"),
                      (2.05, "2.05 is not a rating from 100 to 4000"), (0.5, "0.5 is not a rating"),
                      (99.0, "99 is not a rating"), (4000.5, "4000.5 is not a rating"),
                      ("2,0500", "'2,0500' is not a rating")]:
        with pytest.raises(RatingError, match="^opponent_ratings: " + __import__("re").escape(text)):
            read_rating(bad, "opponent_ratings")


@pytest.mark.parametrize("value, expected", [
    (5.0, [5.0]), (None, [None]), ([1.0, None, 3.0], [1.0, None, 3.0]),
    ([[1.0, 2.0], [3.0, None]], [1.0, 2.0, 3.0, None]),
    ([[1.0], [2.0], [3.0]], [1.0, 2.0, 3.0]), ((1, 2), [1, 2]),
])
def test_flatten_reads_row_by_row(value, expected):
    assert flatten(value) == expected


def test_pairing_a_column_of_ratings_with_a_row_of_results():
    # A round robin: the ratings column pairs with a row of results by position.
    games = read_games([[2100.0], [None], [1900.0], [2000.0], [1800.0]],
                       [["1", None, "½", "+", 0.0]])
    assert games.points == 2.5
    assert games.rated == (Game(2100.0, 1.0), Game(1900.0, 0.5), Game(1800.0, 0.0))
    assert [e.item for e in games.entries] == [1, 3, 4, 5]
    assert len(games.played) == 3 and games.unrated_opponents == 0


def test_games_against_unrated_opponents_and_byes():
    games = read_games([None, 1800.0, None, "-"], ["1", "H", None, "0"])
    assert games.rated == ()
    assert games.unrated_opponents == 2
    assert games.points == 1.5


def test_office_js_empty_cells_sent_as_zero_are_not_games_under_office_js_only():
    # Office.js sends empty cells as 0: rating 0 beside result 0 is an empty position there.
    games = read_games([1800.0, 0, 0, "-"], [1.0, 0, 0, 0], zeros_are_blank=True)
    assert games.rated == (Game(1800.0, 1.0),)
    # A loss to an unrated opponent is kept when the opponent is marked "-".
    assert games.unrated_opponents == 1 and [e.item for e in games.entries] == [1, 4]
    # Elsewhere a 0 rating (no rating) with a 0 result is a loss to an unrated opponent.
    everywhere = read_games([1800.0, 0, 0, "-"], [1.0, 0, 0, 0])
    assert everywhere.unrated_opponents == 3 and [e.item for e in everywhere.entries] == [1, 2, 3, 4]
    # Classic xlwings sends None for a blank rating: a typed 0 result there is a loss.
    assert read_games([None], [0.0]).unrated_opponents == 1


def test_opponent_ids_are_kept():
    games = read_games([1500.0, 1600.0, 1500.0], [1.0, 0.0, 0.5], [7.0, 9.0, 7.0])
    assert [g.opponent_id for g in games.rated] == [7.0, 9.0, 7.0]


def test_mismatched_lengths_and_empty_ranges():
    with pytest.raises(RatingError, match=r"^opponent_ratings: 3 cells but results has 2; they are paired by position$"):
        read_games([1000.0, 2000.0, 3000.0], [1, 0])
    with pytest.raises(RatingError, match=r"^opponent_ids: 1 cells but results has 2"):
        read_games([1500.0, 1600.0], [1, 0], [3.0])
    empty = read_games([None, None], [None, None])
    assert empty.entries == () and empty.points == 0


def test_a_bad_rating_is_an_error_even_in_an_unplayed_position():
    with pytest.raises(RatingError, match=r"^opponent_ratings: 'abc' is not a number \(item 2\)$"):
        read_games([1500.0, "abc"], [1, None])


def test_options():
    assert read_number("1,5", "k") == 1.5
    assert count(30.0, "games") == 30 and count(None, "games") == 0 and count("1 200") == 1200
    with pytest.raises(RatingError, match=r"^games: -1 is not a whole number of games from 0 to 100000$"):
        count(-1.0, "games")
    with pytest.raises(RatingError, match=r"^games: 2.5 is not a whole number of games from 0 to 100000$"):
        count(2.5, "games")
    with pytest.raises(RatingError, match=r"^games: '1,000' reads as 1 or as 1000; type the number without separators$"):
        count("1,000", "games")
    assert read_bool(None, "dual_rated") is False
    assert read_bool("true", "dual_rated") is True and read_bool(1.0, "dual_rated") is True
    with pytest.raises(RatingError, match=r"^dual_rated: 'maybe' is not TRUE or FALSE$"):
        read_bool("maybe", "dual_rated")
    assert read_text(2024.0, "rules", ("2025", "2024"), "2025") == "2024"
    assert read_text(0, "rules", ("2025", "2024"), "2025") == "2025"  # Office.js blank
    assert read_text(" fide ", "method", ("FIDE", "OWN"), "FIDE") == "FIDE"
    with pytest.raises(RatingError, match=r"^method: 'best' is not one of FIDE, OWN$"):
        read_text("best", "method", ("FIDE", "OWN"), "FIDE")


@given(st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=5), st.booleans(),
                 st.integers(-5, 5)))
def test_any_cell_value_reads_as_a_result_none_or_a_one_line_error(value):
    try:
        result = read_result(value, "results", 1)
    except RatingError as error:
        assert "\n" not in str(error) and str(error).startswith("results: ")
    else:
        assert result is None or result.points in (0.0, 0.5, 1.0)
