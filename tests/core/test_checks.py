"""One vocabulary of input checks: each fault has one domain and one message wherever it
enters, the Python API or a worksheet function, and nonsense never becomes a number."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrating import checks, elo, fide, goal, norms, performance, udfs, uscf
from chessrating.errors import RatingError
from chessrating.results import Game
from chessrating.uscf.event import rate_event


def message(call: Any) -> str:
    with pytest.raises(RatingError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text
    return text


# ---------------------------------------------------------------- domains and text

def test_domains_are_those_of_the_docstring():
    assert (checks.RATING.low, checks.RATING.high) == (100, 4000)
    assert (checks.K.low, checks.K.high, checks.FIDE_K.high, checks.FIDE_K.whole) == (1, 100, 40, True)
    assert (checks.GAMES.low, checks.GAMES.high, checks.AGE.low, checks.AGE.high) == (0, 100_000, 1, 120)
    assert (checks.YEAR.low, checks.YEAR.high, checks.BONUS_THRESHOLD.low, checks.BONUS_THRESHOLD.high) == (
        1900, 2100, 1, 50)


@pytest.mark.parametrize("text, value", [
    ("2,050", 2050.0), ("2.050", 2050.0), ("2 050", 2050.0), ("2'050", 2050.0), ("2’050", 2050.0),
    ("2\u00a0050", 2050.0), ("2\u202f050", 2050.0), (" 1850 ", 1850.0), ("1850.5", 1850.5),
    ("1850,5", 1850.5), ("2,050.5", 2050.5), ("2.050,5", 2050.5), ("100", 100.0), ("4000", 4000.0),
])
def test_a_rating_written_with_separators_reads_as_the_number(text, value):
    assert checks.rating(text) == value


@pytest.mark.parametrize("value", ["2,05", "2.05", 2.05, 0.5, "0.5", 99, "99", 99.99, 4000.01, -1500,
                                   "2,0500", "20,50", "2,050,5", "1e3", "inf", "nan", "", "abc"])
def test_implausible_ratings_are_refused_naming_argument_and_value(value):
    text = message(lambda: checks.rating(value, "opponent_ratings", 3))
    assert text.startswith(f"opponent_ratings: {value!r}" if isinstance(value, str) else "opponent_ratings: ")
    assert text.endswith("(item 3)")


def test_text_read_two_ways_inside_the_domain_is_refused():
    # "1,000" is 1000 with a thousands comma and 1 with a decimal comma: both are games.
    assert message(lambda: checks.count("1,000")) == (
        "games: '1,000' reads as 1 or as 1000; type the number without separators")
    # For a rating only one reading is plausible.
    assert checks.rating("1,000") == 1000.0


@pytest.mark.parametrize("value, text", [
    (math.nan, "nan is not a finite number"), (math.inf, "inf is not a finite number"),
    (True, "True is not a number"), (dt.date(2026, 1, 2), "the date 2026-01-02 is not a number"),
    ("#N/A", "the cell holds the Excel error #N/A"), ([2000], "[2000] is not a number"),
])
def test_non_numbers_are_errors_never_numbers(value, text):
    assert message(lambda: checks.rating(value)) == f"rating: {text}"


@given(st.integers(1000, 4000), st.sampled_from([",", ".", " ", "'", "\u00a0", "’"]))
def test_any_plausible_rating_with_a_thousands_separator_reads_as_itself(rating, separator):
    text = f"{rating:,}".replace(",", separator)
    assert checks.rating(text) == rating


outside = st.one_of(st.floats(-1e9, 99.99), st.floats(4000.001, 1e9))


@given(outside, st.sampled_from(["{:.2f}", "{:,.2f}", "{:,.0f}", "{:.3f}", "{}"]),
       st.sampled_from(["point", "comma", "space"]))
def test_a_rating_outside_100_to_4000_is_refused_however_written(value, form, convention):
    text = form.format(value)
    if convention == "comma":  # 1.234,56
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    elif convention == "space":  # 1 234.56
        text = text.replace(",", " ")
    try:
        read = checks.rating(text)
    except RatingError as error:
        assert str(error).startswith("rating: ")
    else:  # only a text that honestly reads as a plausible rating, e.g. "1.000" as 1000
        assert 100 <= read <= 4000 and read != value


# ---------------------------------------------------------------- one message wherever a fault enters

BAD = [
    # (what, Python API call, worksheet call); both must give the same message
    ("rating 5000", lambda: elo.expected_score(5000, 2000), lambda: udfs.ELO_EXPECTED(5000.0, 2000.0)),
    ("rating text '2,05'", lambda: elo.expected_score("2,05", 2000), lambda: udfs.ELO_EXPECTED("2,05", 2000.0)),
    ("rating nan", lambda: elo.expected_score(math.nan, 2000), lambda: udfs.ELO_EXPECTED(math.nan, 2000.0)),
    ("rating TRUE", lambda: fide.expected_score(True, 2000), lambda: udfs.FIDE_EXPECTED(True, 2000.0)),
    ("rating #N/A", lambda: fide.expected_score("#N/A", 2000), lambda: udfs.FIDE_EXPECTED("#N/A", 2000.0)),
    ("opponent 99", lambda: fide.expected_score(2000, 99), lambda: udfs.FIDE_EXPECTED(2000.0, 99.0)),
    ("Elo K -10", lambda: elo.rating_change(2000, [(1800, 1)], -10),
     lambda: udfs.ELO_CHANGE(2000.0, 1800.0, 1.0, -10.0)),
    ("Elo K 1000", lambda: elo.new_rating(2000, [(1800, 1)], 1000),
     lambda: udfs.ELO_NEWRATING(2000.0, 1800.0, 1.0, 1000.0)),
    ("FIDE K 50", lambda: fide.rating_change(2000, [(1800, 1)], 50),
     lambda: udfs.FIDE_CHANGE(2000.0, 1800.0, 1.0, 50.0)),
    ("FIDE K 12.5", lambda: fide.new_rating(2000, [(1800, 1)], 12.5),
     lambda: udfs.FIDE_NEWRATING(2000.0, 1800.0, 1.0, 12.5)),
    ("rules 2023", lambda: fide.rating_change(2000, [(1800, 1)], 20, "2023"),
     lambda: udfs.FIDE_CHANGE(2000.0, 1800.0, 1.0, 20.0, "2023")),
    ("p 1.5", lambda: fide.dp(1.5), lambda: udfs.FIDE_DP(1.5)),
    ("rated games -1", lambda: fide.k_factor(2000, -1), lambda: udfs.FIDE_K(2000.0, -1.0)),
    ("rated games 2.5", lambda: fide.k_factor(2000, 2.5), lambda: udfs.FIDE_K(2000.0, 2.5)),
    ("birth year 1800", lambda: fide.k_factor(2000, 10, birth_year=1800),
     lambda: udfs.FIDE_K(2000.0, 10.0, 1800.0)),
    ("year 2500", lambda: fide.k_factor(2000, 10, year=2500), lambda: udfs.FIDE_K(2000.0, 10.0, None, 2500.0)),
    ("peak 5000", lambda: fide.k_factor(2000, 10, peak_rating=5000),
     lambda: udfs.FIDE_K(2000.0, 10.0, None, None, 5000.0)),
    ("games in period -3", lambda: fide.k_factor(2000, 10, games_in_period=-3),
     lambda: udfs.FIDE_K(2000.0, 10.0, None, None, None, -3.0)),
    ("method BEST", lambda: performance.performance([(1800, 1)], "BEST"),
     lambda: udfs.PERF_RATING(1800.0, 1.0, "BEST")),
    ("own rating 50", lambda: performance.performance([(1800, 1)], "OWN", 50),
     lambda: udfs.PERF_RATING(1800.0, 1.0, "OWN", 50.0)),
    ("title FM", lambda: norms.norm([(2500, 0.5)] * 9, "FM"), lambda: udfs.FIDE_NORM([2500.0] * 9, [0.5] * 9, "FM")),
    ("opponent title XX", lambda: norms.norm([(2500, 0.5)] * 2, "GM", ["GM", "XX"]),
     lambda: udfs.FIDE_NORM([2500.0] * 2, [0.5] * 2, "GM", ["GM", "XX"])),
    ("federation 'Germany'", lambda: norms.norm([(2500, 0.5)] * 2, "GM", None, ["GER", "Germany"]),
     lambda: udfs.FIDE_NORM([2500.0] * 2, [0.5] * 2, "GM", None, ["GER", "Germany"])),
    ("own federation 12", lambda: norms.norm([(2500, 0.5)], "GM", federation=12.0),
     lambda: udfs.FIDE_NORM([2500.0], [0.5], "GM", None, None, 12.0)),
    ("score 1.5", lambda: goal.games_to_target(1600, 1700, 1600, 20, 1.5),
     lambda: udfs.RATING_GOAL(1600.0, 1700.0, 1600.0, 20.0, 1.5)),
    ("system XYZ", lambda: goal.games_to_target(1600, 1700, 1600, 20, 1, "XYZ"),
     lambda: udfs.RATING_GOAL(1600.0, 1700.0, 1600.0, 20.0, 1.0, "XYZ")),
    ("target 4500", lambda: goal.games_to_target(1600, 4500, 1600, 20),
     lambda: udfs.RATING_GOAL(1600.0, 4500.0, 1600.0, 20.0)),
    ("games -1", lambda: uscf.effective_games(1700, -1), lambda: udfs.USCF_EFFECTIVE_GAMES(1700.0, -1.0)),
    ("games 1e9", lambda: uscf.effective_games(1700, 1e9), lambda: udfs.USCF_EFFECTIVE_GAMES(1700.0, 1e9)),
    ("event games 1.5", lambda: uscf.k_factor(1700, 10, 1.5), lambda: udfs.USCF_K(1700.0, 10.0, 1.5)),
    ("dual rated 'maybe'", lambda: uscf.k_factor(1700, 10, 4, "maybe"),
     lambda: udfs.USCF_K(1700.0, 10.0, 4.0, "maybe")),
    ("bonus threshold 60", lambda: uscf.bonus(1800, 50, [Game(2000, 1)], bonus_threshold=60),
     lambda: udfs.USCF_BONUS(1800.0, 50.0, 2000.0, 1.0, None, 60.0)),
    ("age 150", lambda: uscf.new_rating(None, 0, [Game(1700, 1)], age=150),
     lambda: udfs.USCF_NEWRATING(None, 0.0, 1700.0, 1.0, 150.0)),
    ("age 0.5", lambda: uscf.new_rating(None, 0, [Game(1700, 1)], age=0.5),
     lambda: udfs.USCF_NEWRATING(None, 0.0, 1700.0, 1.0, 0.5)),
    ("record X", lambda: uscf.new_rating(1700, 10, [Game(1700, 1)], record="X"),
     lambda: udfs.USCF_NEWRATING(1700.0, 10.0, 1700.0, 1.0, None, "X")),
    ("peak 9000", lambda: uscf.floor(9000), lambda: udfs.USCF_FLOOR(9000.0)),
    ("life master 'maybe'", lambda: uscf.floor(1900, "maybe"), lambda: udfs.USCF_FLOOR(1900.0, "maybe")),
    ("event rating 50", lambda: rate_event([1500, 50], [10, 10], []),
     lambda: udfs.USCF_EVENT([1500.0, 50.0], [10.0, 10.0], [[None, None], [None, None]])),
    ("event games 2.5", lambda: rate_event([1500, 1500], [10, 2.5], []),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 2.5], [[None, None], [None, None]])),
    ("event age 0.5", lambda: rate_event([1500, None], [10, 0], [], ages=[None, 0.5]),
     lambda: udfs.USCF_EVENT([1500.0, None], [10.0, 0.0], [[None, None], [None, None]], None, [None, 0.5])),
    ("event record 'Q'", lambda: rate_event([1500, 1500], [10, 10], [], records=[None, "Q"]),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 10.0], [[None, None], [None, None]], None, None, [None, "Q"])),
    ("event peak 9000", lambda: rate_event([1500, 1500], [10, 10], [], peak_ratings=[None, 9000]),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 10.0], [[None, None], [None, None]], None, None, None,
                             None, None, [None, 9000.0])),
    ("event life master 'maybe'", lambda: rate_event([1500, 1500], [10, 10], [], life_masters=[None, "maybe"]),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 10.0], [[None, None], [None, None]], None, None, None,
                             None, None, None, [None, "maybe"])),
    ("event peaks one short", lambda: rate_event([1500, 1500], [10, 10], [], peak_ratings=[1900]),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 10.0], [[None, None], [None, None]], None, None, None,
                             None, None, [1900.0])),
    ("event games one short", lambda: rate_event([1500, 1500], [10], []),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0], [[None, None], [None, None]])),
    ("event unrated with games", lambda: rate_event([1500, None], [10, 3], []),
     lambda: udfs.USCF_EVENT([1500.0, None], [10.0, 3.0], [[None, None], [None, None]])),
    ("unrated with games", lambda: uscf.effective_games(None, 10), lambda: udfs.USCF_EFFECTIVE_GAMES(None, 10.0)),
    ("event bonus threshold 0.5", lambda: rate_event([1500, 1500], [10, 10], [], bonus_threshold=0.5),
     lambda: udfs.USCF_EVENT([1500.0, 1500.0], [10.0, 10.0], [[None, None], [None, None]], None, None, None,
                             None, 0.5)),
]


@pytest.mark.parametrize("what, python, worksheet", BAD, ids=[b[0] for b in BAD])
def test_the_same_fault_has_the_same_message_in_python_and_in_excel(what, python, worksheet):
    assert message(python) == message(worksheet)


# A game is a (rating, score) pair in Python and a rating cell beside a result cell in
# Excel: the arguments are named differently, the fault is told the same way.
GAME_FAULTS = [
    (5000, 1, "5000 is not a rating from 100 to 4000 (item 1)"),
    ("2,05", 1, "'2,05' is not a rating from 100 to 4000 (item 1)"),
    (math.inf, 1, "inf is not a finite number (item 1)"),
    (1800, 2, "2 is not 1, 0.5 or 0 (item 1)"),
]


@pytest.mark.parametrize("opponent, score, told", GAME_FAULTS)
def test_a_bad_game_is_told_the_same_way(opponent, score, told):
    python = message(lambda: elo.rating_change(2000, [(opponent, score)], 20))
    assert python.endswith(told)
    cell_opponent = float(opponent) if not isinstance(opponent, str) else opponent
    if score == 2:  # a result cell says what results are
        assert message(lambda: udfs.ELO_CHANGE(2000.0, cell_opponent, 2.0)) == "results: 2 is not a game result (item 1)"
    else:
        assert message(lambda: udfs.ELO_CHANGE(2000.0, cell_opponent, 1.0)) == "opponent_ratings: " + told


# ---------------------------------------------------------------- one reading of a result

SPELLINGS = {1.0: [" 1 ", "w", "W ", 1], 0.5: ["½", "= ", " d", "0,5", 0.5], 0.0: [" 0", "l", 0]}


def _result_calls(results: list[Any]) -> dict[str, Any]:
    """Every worksheet function that reads results, on four games against 2000-2300."""
    opponents = [2000.0, 2100.0, 2200.0, 2300.0]
    n = len(results)
    table = [[None, results[0], results[1]], [None, None, results[2]], [None, None, None]]
    return {
        "ELO_CHANGE": lambda: udfs.ELO_CHANGE(2100.0, opponents[:n], results),
        "ELO_NEWRATING": lambda: udfs.ELO_NEWRATING(2100.0, opponents[:n], results),
        "FIDE_CHANGE": lambda: udfs.FIDE_CHANGE(2100.0, opponents[:n], results, 20.0),
        "FIDE_NEWRATING": lambda: udfs.FIDE_NEWRATING(2100.0, opponents[:n], results, 20.0),
        "FIDE_INITIAL": lambda: udfs.FIDE_INITIAL(opponents[:n] * 2, results * 2),
        "FIDE_NORM": lambda: udfs.FIDE_NORM(opponents[:n] * 3, results * 3),
        "PERF_RATING": lambda: udfs.PERF_RATING(opponents[:n], results, "400"),
        "USCF_BONUS": lambda: udfs.USCF_BONUS(1800.0, 50.0, opponents[:n], results),
        "USCF_NEWRATING": lambda: udfs.USCF_NEWRATING(1800.0, 50.0, opponents[:n], results),
        "USCF_EVENT": lambda: udfs.USCF_EVENT([1800.0, 1900.0, 2000.0], [50.0, 50.0, 50.0], table),
    }


def outcome(call: Any) -> Any:
    try:
        return call()
    except RatingError as error:
        return str(error)


@given(st.lists(st.sampled_from(sorted(SPELLINGS)), min_size=3, max_size=4), st.data())
def test_every_function_reads_every_spelling_of_a_result_the_same(points, data):
    plain = [float(p) for p in points]
    spelled = [data.draw(st.sampled_from(SPELLINGS[p])) for p in points]
    expected, written = _result_calls(plain), _result_calls(spelled)
    for name in expected:
        assert outcome(written[name]) == outcome(expected[name]), name


@pytest.mark.parametrize("name", sorted(_result_calls([1.0, 1.0, 1.0])))
@pytest.mark.parametrize("bad", [2.0, "2", "1/3", "WIN", -1.0, math.nan, True, "#N/A"])
def test_a_refused_result_is_an_error_in_every_function(name, bad):
    call = _result_calls([1.0, bad, 0.5])[name]
    assert message(call).startswith("results: ")


# ---------------------------------------------------------------- hostile cells, every function

ERRORS = ["#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!", "#CALC!"]
NON_NUMBERS = st.one_of(st.sampled_from([math.nan, math.inf, -math.inf, "nan", "inf", "1e3", "abc",
                                         dt.datetime(2026, 1, 2), dt.date(2025, 3, 4)]),
                        st.sampled_from(ERRORS))
NOT_RATINGS = st.one_of(NON_NUMBERS, st.sampled_from(["2,05", "2.05", 2.05, 0.5, "0.5", 1.0, 99.0, "99",
                                                      "2,0500", 4000.5, -2000.0, 1e12, True]),
                        st.floats(-1e9, 99.9).filter(lambda x: x != 0), st.floats(4000.01, 1e12))
NOT_RESULTS = st.one_of(NON_NUMBERS, st.sampled_from([2.0, -1.0, 0.25, "2", "1/3", "WIN", "½½", True, False]))
NOT_K = st.one_of(NON_NUMBERS, st.sampled_from([-10.0, 0.5, 1000.0, "1e6", True]), st.floats(100.01, 1e9))
NOT_FIDE_K = st.one_of(NOT_K, st.sampled_from([12.5, 41.0, 50.0, "20,5"]))
NOT_COUNTS = st.one_of(NON_NUMBERS, st.sampled_from([-1.0, 2.5, 1e9, "1,000", "-3", True]))
NOT_FLAGS = st.one_of(st.sampled_from(ERRORS), st.sampled_from(["maybe", 2.0, 0.5, -1.0, math.nan, "T"]))
NOT_CHOICES = st.one_of(st.sampled_from(ERRORS), st.sampled_from(["BEST", "2023", 2023.0, True, math.nan, "F I D E"]))
NOT_AGES = st.one_of(NON_NUMBERS, st.sampled_from([0.5, 0.9, 121.0, -5.0, True]))
NOT_YEARS = st.one_of(NON_NUMBERS, st.sampled_from([1800.0, 2500.0, 2020.5, -1.0, True]))
NOT_THRESHOLDS = st.one_of(NON_NUMBERS, st.sampled_from([0.5, 51.0, -1.0, True]))
NOT_FRACTIONS = st.one_of(NON_NUMBERS, st.sampled_from([1.5, -0.1, True, "1,5"]))
NOT_LABELS = st.one_of(st.sampled_from(ERRORS), st.sampled_from([5.0, True, math.nan]))
NOT_FEDERATIONS = st.one_of(NOT_LABELS, st.sampled_from(["Germany", "DE", "123", "G R"]))
NOT_TITLES = st.one_of(NOT_LABELS, st.sampled_from(["XX", "Grandmaster", "1"]))
NOT_RECORDS = st.one_of(st.sampled_from(ERRORS), st.sampled_from(["X", "WL", 5.0, True, math.nan]))

NOT_STANDINGS = st.one_of(st.sampled_from([math.nan, math.inf, -math.inf,
                                           dt.datetime(2026, 1, 2)]), st.sampled_from(ERRORS))
OPP, RES = [2000.0, 2100.0, 2200.0], [1.0, 0.5, 0.0]
TABLE = [[None, 1.0, 0.5], [None, None, 0.0], [None, None, None]]
# Each function with a valid call, and for each argument the hostile values it must refuse;
# a range argument gets the hostile value in one of its cells.
HOSTILE: list[tuple[str, list[Any], list[tuple[int, Any, bool]]]] = [
    ("ELO_EXPECTED", [2000.0, 1800.0], [(0, NOT_RATINGS, False), (1, NOT_RATINGS, False)]),
    ("ELO_CHANGE", [2000.0, OPP, RES, 20.0], [(0, NOT_RATINGS, False), (1, NOT_RATINGS, True),
                                              (2, NOT_RESULTS, True), (3, NOT_K, False)]),
    ("ELO_NEWRATING", [2000.0, OPP, RES, 20.0], [(0, NOT_RATINGS, False), (1, NOT_RATINGS, True),
                                                 (2, NOT_RESULTS, True), (3, NOT_K, False)]),
    ("FIDE_EXPECTED", [2000.0, 1800.0, "2025"], [(0, NOT_RATINGS, False), (1, NOT_RATINGS, False),
                                                 (2, NOT_CHOICES, False)]),
    ("FIDE_DP", [0.5], [(0, NOT_FRACTIONS, False)]),
    ("FIDE_K", [2000.0, 40.0, 2000.0, 2026.0, 2100.0, 10.0],
     [(0, NOT_RATINGS, False), (1, NOT_COUNTS, False), (2, NOT_YEARS, False), (3, NOT_YEARS, False),
      (4, NOT_RATINGS, False), (5, NOT_COUNTS, False)]),
    ("FIDE_CHANGE", [2000.0, OPP, RES, 20.0, "2025"],
     [(0, NOT_RATINGS, False), (1, NOT_RATINGS, True), (2, NOT_RESULTS, True), (3, NOT_FIDE_K, False),
      (4, NOT_CHOICES, False)]),
    ("FIDE_NEWRATING", [2000.0, OPP, RES, 20.0, "2025"],
     [(0, NOT_RATINGS, False), (1, NOT_RATINGS, True), (2, NOT_RESULTS, True), (3, NOT_FIDE_K, False),
      (4, NOT_CHOICES, False)]),
    ("FIDE_INITIAL", [OPP * 2, RES * 2], [(0, NOT_RATINGS, True), (1, NOT_RESULTS, True)]),
    ("FIDE_NORM", [OPP * 3, RES * 3, "GM", ["GM", "IM", "FM"] * 3, ["GER", "FRA", "ESP"] * 3, "NED"],
     [(0, NOT_RATINGS, True), (1, NOT_RESULTS, True), (2, NOT_CHOICES, False), (3, NOT_TITLES, True),
      (4, NOT_FEDERATIONS, True), (5, NOT_FEDERATIONS, False)]),
    ("PERF_RATING", [OPP, RES, "OWN", 2000.0], [(0, NOT_RATINGS, True), (1, NOT_RESULTS, True),
                                                (2, NOT_CHOICES, False), (3, NOT_RATINGS, False)]),
    ("RATING_GOAL", [1600.0, 1700.0, 1600.0, 20.0, 1.0, "ELO"],
     [(0, NOT_RATINGS, False), (1, NOT_RATINGS, False), (2, NOT_RATINGS, False), (3, NOT_K, False),
      (4, NOT_FRACTIONS, False), (5, NOT_CHOICES, False)]),
    ("USCF_EFFECTIVE_GAMES", [1700.0, 30.0], [(0, NOT_RATINGS, False), (1, NOT_COUNTS, False)]),
    ("USCF_K", [1700.0, 30.0, 4.0, False], [(0, NOT_RATINGS, False), (1, NOT_COUNTS, False),
                                            (2, NOT_COUNTS, False), (3, NOT_FLAGS, False)]),
    ("USCF_BONUS", [1800.0, 50.0, OPP, RES, False, 10.0],
     [(0, NOT_RATINGS, False), (1, NOT_COUNTS, False), (2, NOT_RATINGS, True), (3, NOT_RESULTS, True),
      (4, NOT_FLAGS, False), (5, NOT_THRESHOLDS, False)]),
    ("USCF_NEWRATING", [1800.0, 50.0, OPP, RES, 30.0, None, 1900.0, False, 10.0],
     [(0, NOT_RATINGS, False), (1, NOT_COUNTS, False), (2, NOT_RATINGS, True), (3, NOT_RESULTS, True),
      (4, NOT_AGES, False), (5, NOT_RECORDS, False), (6, NOT_RATINGS, False), (7, NOT_FLAGS, False),
      (8, NOT_THRESHOLDS, False)]),
    ("USCF_FLOOR", [1900.0, False], [(0, NOT_RATINGS, False), (1, NOT_FLAGS, False)]),
    ("USCF_EVENT", [[1800.0, 1700.0, None], [40.0, 30.0, 0.0], TABLE, None, [None, None, 20.0],
                    [None, "W", None], False, 10.0, [1900.0, None, None], [False, None, None]],
     [(0, NOT_RATINGS, True), (1, NOT_COUNTS, True), (2, NOT_RESULTS, True), (4, NOT_AGES, True),
      (5, NOT_RECORDS, True), (6, NOT_FLAGS, False), (7, NOT_THRESHOLDS, False), (8, NOT_RATINGS, True),
      (9, NOT_FLAGS, True)]),
    # BPG reads the colours; a hostile rating stops only the values resting on it
    # (test_a_hostile_rating_stops_only_the_tiebreaks_resting_on_it)
    ("TIEBREAK", ["BPG", [[2.0], [1.0], [None]], [[1.0], [0.0], ["U"]], [["W"], ["B"], [None]], "2026",
                  [1800.0, 1700.0, None]],
     [(0, NOT_CHOICES, False), (1, NOT_COUNTS, True), (2, NOT_RESULTS, True), (3, NOT_LABELS, True),
      (4, NOT_CHOICES, False)]),
    ("TIEBREAK_RANK", [[3.0, 2.0, 2.0], [[1.0, 0.5], [2.0, 1.5], [2.0, 1.0]]],
     # a text with no number (a reason shown instead of points) is no value, ranked last
     [(0, NOT_STANDINGS, True), (1, NOT_STANDINGS, True)]),
]
CASES = [(name, base, index, values, in_range) for name, base, args in HOSTILE
         for index, values, in_range in args]


def test_every_worksheet_function_is_attacked():
    assert sorted(name for name, _, _ in HOSTILE) == sorted(udfs.__all__)


def _put(base: Any, value: Any, at: int) -> Any:
    """``value`` into cell ``at`` of a range (a block's cells counted row by row)."""
    if isinstance(base[0], list):
        flat = [cell for row in base for cell in row]
        flat[at % len(flat)] = value
        width = len(base[0])
        return [flat[i:i + width] for i in range(0, len(flat), width)]
    changed = list(base)
    changed[at % len(changed)] = value
    return changed


@pytest.mark.parametrize("name, base, index, values, in_range", CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_hostile_cells_give_an_error_never_a_number(name, base, index, values, in_range, data):
    function = getattr(udfs, name)
    function(*base)  # the valid call gives its answer
    value = data.draw(values)
    arguments = list(base)
    if in_range:
        at = 1 if name == "USCF_EVENT" and index == 2 else data.draw(st.integers(0, 8))
        arguments[index] = _put(base[index], value, at)
    else:
        arguments[index] = value
    try:
        answer = function(*arguments)
    except RatingError as error:
        assert str(error) and "\n" not in str(error)
        return
    # Not an error: only a quiet blank is allowed (a hostile result on the diagonal of the
    # crosstable is refused above; nothing here may come back as a number or a verdict).
    assert answer == "", (name, index, value, answer)


@pytest.mark.parametrize("code", ["ARO", "TPR", "PTP", "APRO", "APPO", "ARO/C1"])
@settings(max_examples=25, deadline=None)
@given(value=NOT_RATINGS, at=st.integers(0, 3))
def test_a_hostile_rating_stops_only_the_tiebreaks_resting_on_it(code, value, at):
    # Players 1-2 and 3-4 met in round 1, 1-3 and 2-4 in round 2: a rating refused stops
    # the rating-based values that rest on it (one line, naming the player), never
    # turning into a number; the others are those of the valid call.
    opponents = [[2.0, 3.0], [1.0, 4.0], [4.0, 1.0], [3.0, 2.0]]
    results = [[1.0, "½"], [0.0, 1.0], [1.0, "½"], [0.0, 0.0]]
    ratings = [[1800.0], [1700.0], [1600.0], [1500.0]]
    valid = udfs.TIEBREAK(code, opponents, results, None, "2026", ratings)
    hostile = [list(row) for row in ratings]
    hostile[at] = [value]
    answer = udfs.TIEBREAK(code, opponents, results, None, "2026", hostile)
    met = {p for p in range(4) if at + 1 in opponents[p]}
    # APRO, APPO: the opponents' performances, which rest on the opponents' opponents
    resting = {q for q in range(4) if met & {int(o) - 1 for o in opponents[q]}} if code in ("APRO", "APPO") else met
    for player in range(4):
        if player in resting:
            assert isinstance(answer[player][0], str) and f"(player {at + 1})" in answer[player][0], (player, answer)
            assert "\n" not in answer[player][0]
        else:
            assert answer[player] == valid[player], player
    # a code that reads no rating never looks at them
    assert udfs.TIEBREAK("SB", opponents, results, None, "2026", hostile) == udfs.TIEBREAK("SB", opponents, results)


@pytest.mark.parametrize("name", ["ELO_CHANGE", "FIDE_CHANGE", "FIDE_INITIAL", "PERF_RATING", "USCF_BONUS",
                                  "ELO_EXPECTED"])
@pytest.mark.parametrize("shape", ["ragged", "short", "mixed"])
def test_ragged_mixed_and_short_ranges_are_refused_alike(name, shape):
    # No worksheet range is ragged: every function refuses one the same way, naming the
    # argument, rather than some pairing its cells by position and others refusing.
    function = getattr(udfs, name)
    ratings = {"ragged": [[2000.0, 2100.0], [2200.0]], "short": [2000.0, 2100.0],
               "mixed": [2000.0, [2100.0, 2200.0]]}[shape]
    results = [1.0, 0.5, 0.0]
    arguments = {"ELO_CHANGE": (2000.0, ratings, results), "FIDE_CHANGE": (2000.0, ratings, results, 20.0),
                 "FIDE_INITIAL": (ratings, results), "PERF_RATING": (ratings, results),
                 "USCF_BONUS": (1800.0, 50.0, ratings, results),
                 "ELO_EXPECTED": (ratings, [[1900.0, 1900.0], [1900.0, 1900.0]])}[name]
    if shape == "short":  # rectangular: a row one cell short of the results (ELO_EXPECTED spreads it)
        if name != "ELO_EXPECTED":
            with pytest.raises(RatingError, match="^opponent_ratings: 2 cells but results has 3"):
                function(*arguments)
        return
    argument = "rating" if name == "ELO_EXPECTED" else "opponent_ratings"
    with pytest.raises(RatingError) as error:
        function(*arguments)
    assert str(error.value) == f"{argument}: rows of different lengths; give a rectangular range"
