"""FIDE rating (docs/RULES.md §3; published FIDE outputs in docs/SOURCES.md §4–§9)."""

from __future__ import annotations

import csv
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import elo, fide
from chessrating.errors import RatingError
from chessrating.results import Game, NoValue

whole_ratings = st.integers(min_value=1000, max_value=3000)
scores = st.sampled_from([0.0, 0.5, 1.0])


def _rows(name):
    text = resources.files("chessrating").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


# --- tables (docs/RULES.md §3.1) --------------------------------------------------------

def test_dp_table_every_row_and_antisymmetry():
    # docs/RULES.md §3.1: table 8.1.1, 1.00 → 800 … 0.50 → 0 … 0.00 → −800; docs/SOURCES.md §4: dp(1−p) = −dp(p).
    rows = _rows("fide-table-8.1.1.csv")
    assert len(rows) == 101
    for row in rows:
        p = float(row["p"])
        assert fide.dp(p) == int(row["dp"])
        assert fide.dp(round(1 - p, 2)) == -int(row["dp"])
    assert (fide.dp(1.0), fide.dp(0.5), fide.dp(0.0)) == (800, 0, -800)


def test_dp_rounds_p_half_up_to_two_decimals():
    # docs/RULES.md §3.1: p is rounded half-up to 2 decimals first (0.545 → 0.55 → 36; 0.5449 → 0.54 → 29).
    assert fide.dp(0.545) == 36
    assert fide.dp(0.5449) == 29
    assert fide.dp(4 / 7) == 50


def test_pd_table_edges():
    # docs/SOURCES.md §4 (FIDE calculator cases F-C01…F-C13): D = 3 → .50, D = 4 → .51, 344 → .88, 345 → .89.
    assert fide.expected_score(2003, 2000) == 0.50
    assert fide.expected_score(2004, 2000) == 0.51
    assert fide.expected_score(2000, 2004) == 0.49
    assert fide.expected_score(2344, 2000) == 0.88
    assert fide.expected_score(2345, 2000) == 0.89
    # "> 735 → 1.00 / 0.00" for an exempt player (docs/RULES.md §3.1–3.2)
    assert fide.expected_score(2736, 2000) == 1.00
    assert fide.expected_score(2735, 2000) == 0.99


def test_table_at_400_points_is_not_the_logistic_curve():
    # docs/RULES.md §3.1 / docs/SOURCES.md §2: at a 400-point gap the table gives 0.92; the curve 0.909.
    assert fide.expected_score(2000, 1600) == 0.92
    assert round(elo.expected_score(2000, 1600), 3) == 0.909


def test_pd_rows_are_mirror_images():
    # docs/SOURCES.md §4: PD + PL = 1 in every row of 8.1.2.
    for row in _rows("fide-table-8.1.2.csv"):
        low = int(row["D_low"])
        assert fide.pd_hundredths(low) + fide.pd_hundredths(-low) == 100
        assert fide.pd_hundredths(low) == round(float(row["PD"]) * 100)


def test_pd_of_every_whole_difference_is_its_rows():
    # docs/SOURCES.md §4: table 8.1.2 gives PD and PL for each whole D from D_low to D_high;
    # the last row (736 and up, no D_high) for every larger D.
    for row in _rows("fide-table-8.1.2.csv"):
        low = int(row["D_low"])
        high = int(row["D_high"]) if row["D_high"] else low + 300
        pd, pl = round(float(row["PD"]) * 100), round(float(row["PL"]) * 100)
        assert [fide.pd_hundredths(d) for d in range(low, high + 1)] == [pd] * (high - low + 1), row
        assert [fide.pd_hundredths(-d) for d in range(low, high + 1)] == [pl] * (high - low + 1), row


# --- expected score and the 400-point rule (docs/RULES.md §3.2) -----------------------------

# docs/SOURCES.md §5: FIDE online calculator, one game, unrounded change (plain 400 cap for everyone,
# i.e. rules "2024"), and the change under the 2650 rule (rules "2025").
CALCULATOR = [
    ("F-C01", 2000, 2000, 1, 10, 5.0, 5.0), ("F-C02", 2003, 2000, 1, 10, 5.0, 5.0),
    ("F-C03", 2004, 2000, 1, 10, 4.9, 4.9), ("F-C04", 2010, 2000, 1, 10, 4.9, 4.9),
    ("F-C05", 2011, 2000, 1, 10, 4.8, 4.8), ("F-C06", 2206, 2000, 1, 10, 2.4, 2.4),
    ("F-C07", 2207, 2000, 1, 10, 2.3, 2.3), ("F-C08", 2391, 2000, 1, 10, 0.9, 0.9),
    ("F-C09", 2392, 2000, 1, 10, 0.8, 0.8), ("F-C10", 2000, 2003, 0, 10, -5.0, -5.0),
    ("F-C11", 2000, 2004, 0, 10, -4.9, -4.9), ("F-C12", 1656, 2000, 0, 10, -1.2, -1.2),
    ("F-C13", 1655, 2000, 0, 10, -1.1, -1.1), ("F-C14", 2600, 2100, 1, 10, 0.8, 0.8),
    ("F-C15", 2649, 2149, 1, 10, 0.8, 0.8), ("F-C16", 2650, 2150, 1, 10, 0.8, 0.4),
    ("F-C17", 2700, 2200, 1, 10, 0.8, 0.4), ("F-C18", 2200, 2700, 0, 20, -1.6, -1.6),
    ("F-C19", 2100, 2600, 0, 20, -1.6, -1.6), ("F-C20", 2700, 1964, 1, 10, 0.8, 0.0),
    ("F-C21", 2700, 1900, 0, 10, -9.2, -10.0), ("F-C22", 1500, 2000, 0.5, 20, 8.4, 8.4),
    ("F-C23", 2092, 2000, 1, 15, 5.55, 5.55), ("F-C24", 2000, 2092, 0.5, 30, 3.9, 3.9),
]


@pytest.mark.parametrize("case, own, opponent, score, k, calculator, current", CALCULATOR)
def test_fide_calculator_cases(case, own, opponent, score, k, calculator, current):
    assert fide.rating_change(own, [Game(opponent, score)], k, rules="2024") == pytest.approx(
        calculator, abs=1e-9), case
    assert fide.rating_change(own, [Game(opponent, score)], k, rules="2025") == pytest.approx(
        current, abs=1e-9), case
    assert fide.rating_change(own, [Game(opponent, score)], k) == pytest.approx(current, abs=1e-9)


def test_2649_and_2650_at_a_500_point_gap():
    # docs/SOURCES.md §5 F-C15/F-C16, docs/RULES.md §3.2: +0.8 (capped) vs +0.4 (exempt) for a win at K 10.
    assert fide.rating_change(2649, [Game(2149, 1)], 10) == 0.8
    assert fide.rating_change(2650, [Game(2150, 1)], 10) == 0.4
    # The exemption is judged by the player whose change is computed: the 2150 side stays capped.
    assert fide.expected_score(2150, 2650) == 0.08
    assert fide.expected_score(2650, 2150) == 0.96


def test_1500_draws_2000_at_k20():
    # docs/SOURCES.md §5 F-C22: the cap protects the lower player too: PD(L) .08 → +8.4.
    assert fide.rating_change(1500, [Game(2000, 0.5)], 20) == 8.4
    assert fide.new_rating(1500, [Game(2000, 0.5)], 20) == 1508


# --- K (docs/RULES.md §3.3) ------------------------------------------------------------------

def test_k_precedence_decision():
    # docs/RULES.md §3.3 Decision: (1) ever 2400 → 10; (2) junior under 2300 → 40; (3) < 30 games → 40; (4) 20.
    assert fide.k_factor(2350, 10, birth_year=2010, year=2026, peak_rating=2400) == 10
    assert fide.k_factor(2250, 300, birth_year=2008, year=2026) == 40      # 18 in 2026: junior
    assert fide.k_factor(2250, 300, birth_year=2007, year=2026) == 20      # 19: no longer
    assert fide.k_factor(2250, 300, birth_year=2010, year=2026, peak_rating=2310) == 20
    assert fide.k_factor(2250, 29) == 40
    assert fide.k_factor(2250, 30) == 20
    assert fide.k_factor(2400, 30) == 10


def test_k_700_rule():
    # docs/RULES.md §3.3 / FIDE published calculation F-P05 (docs/SOURCES.md §6): 39 games at K 20 → K 17.
    assert fide.k_factor(2054, 500, games_in_period=39) == 17
    # docs/SOURCES.md §9: the cap starts at n = 18 for K 40 (→ 38), 36 for K 20 (→ 19), 71 for K 10 (→ 9).
    assert fide.k_factor(1800, 5, games_in_period=17) == 40
    assert fide.k_factor(1800, 5, games_in_period=18) == 38
    assert fide.k_factor(2000, 100, games_in_period=35) == 20
    assert fide.k_factor(2000, 100, games_in_period=36) == 19
    assert fide.k_factor(2500, 100, games_in_period=70) == 10
    assert fide.k_factor(2500, 100, games_in_period=71) == 9


def test_k_year_defaults_to_this_year():
    # FIDE_K (fide.k_factor's contract): `year` defaults to the current year.
    import datetime
    this_year = datetime.date.today().year
    assert fide.k_factor(2000, 100, birth_year=this_year - 18) == 40
    assert fide.k_factor(2000, 100, birth_year=this_year - 19) == 20


# --- change and rounding (docs/RULES.md §3.4) ------------------------------------------------

def test_round_half_away_from_zero():
    # docs/RULES.md §3.4: 0.5 away from zero (−2.50 → −3); docs/SOURCES.md §9 ±0.5, ±1.5, ±2.5, ±2.49.
    assert fide.round_half_away(-2.50) == -3
    cases = {0.5: 1, -0.5: -1, 1.5: 2, -1.5: -2, 2.5: 3, 2.49: 2, -2.49: -2, 0.0: 0}
    for x, rounded in cases.items():
        assert fide.round_half_away(x) == rounded


def test_published_calculation_f_p01():
    # docs/SOURCES.md §6 F-P01 (FIDE output, Dec 2025, K 10): 2813 → 2810; Σ −0.25 → −2.50 → −3.
    games = [Game(1787, 1), Game(2025, 1), Game(2310, 1), Game(2400, 1), Game(2505, 0.5)]
    assert fide.rating_change(2813, games, 10) == -2.5
    assert fide.new_rating(2813, games, 10) == 2810
    # Under the pre-October-2025 cap the same games give Σ −0.04 → −0.4 → 0.
    assert fide.rating_change(2813, games, 10, rules="2024") == pytest.approx(-0.4, abs=1e-12)
    assert fide.new_rating(2813, games, 10, rules="2024") == 2813


def test_below_1400_is_unrated_on_the_next_list():
    # docs/RULES.md §3.4: a rating below 1400 is not kept; the player is shown as unrated.
    result = fide.new_rating(1402, [Game(1700, 0)], 40)
    assert isinstance(result, NoValue)
    assert result.reason == ("unrated: 1396 is below 1400, "
                             "the player is shown as unrated on the next list")
    assert fide.new_rating(1406, [Game(1700, 0)], 40) == 1400


# --- first rating (docs/RULES.md §3.5) -------------------------------------------------------

def test_first_rating_worked_example():
    # docs/RULES.md §3.5 (FIDE's own published first rating, F-N01): Ra 1872.43, p 0.57, dp 50 → 1922.
    games = [Game(1902, 1), Game(1877, 0.5), Game(1884, 0.5), Game(2012, 0), Game(1832, 1)]
    steps = fide.first_rating(games)
    assert steps.games == 5
    assert steps.score == 3.0
    assert round(steps.average, 2) == 1872.43
    assert steps.p == 0.57
    assert steps.dp == 50
    assert round(steps.unrounded, 2) == 1922.43
    assert steps.rating == 1922
    assert fide.initial_rating(games) == 1922


@pytest.mark.parametrize("average, results, rating", [
    # docs/SOURCES.md §7, derived under the current rule from FIDE calculator inputs:
    (2000, [1, 1, 1, 0, 0], 1993),
    (2000, [1, 1, 0, 0, 0], 1893),
    (2000, [1, 1, 0.5, 0, 0], 1943),
    (2100, [1, 1, 1, 1, 1], 2200),       # 2323 capped at 2200
    (2400, [1, 1, 1, 0, 0], 2200),       # 2279 capped
    (1600, [1, 0, 0, 0, 0], 1499),
    (1800, [1, 1, 1, 1, 0, 0, 0], 1843),  # p 5/9 = .5556 → .56 (half-up) → dp 43
])
def test_first_rating_derived_examples(average, results, rating):
    assert fide.initial_rating([Game(average, s) for s in results]) == rating


def test_first_rating_echecs_example():
    # docs/SOURCES.md §7 [ECH] README: 1600 W, 1500 D, 1700 L, 1600 W, 1550 W → Ra 1650, p .64, dp 102 → 1752.
    games = [Game(1600, 1), Game(1500, 0.5), Game(1700, 0), Game(1600, 1), Game(1550, 1)]
    steps = fide.first_rating(games)
    assert (steps.average, steps.p, steps.dp, steps.rating) == (1650.0, 0.64, 102, 1752)


def test_first_rating_needs_five_games_and_a_score():
    # docs/RULES.md §3.5: at least 5 games vs rated opponents; a zero score is disregarded.
    four = [Game(1900, 1)] * 4
    assert fide.initial_rating(four) == NoValue(
        "no first rating: 4 games against rated opponents, 1 more needed (at least 5)")
    assert fide.initial_rating([]) == NoValue(
        "no first rating: 0 games against rated opponents, 5 more needed (at least 5)")
    assert fide.initial_rating([Game(1900, 0)] * 6) == NoValue(
        "no first rating: a zero score in the first event is disregarded")


def test_first_rating_below_1400_is_not_published():
    # docs/RULES.md §3.5: a result below 1400 is not published. Ra (7000+3600)/7 = 1514.29,
    # p 1.5/7 → .21 → dp −230 → 1284.
    games = [Game(1400, 0.5)] + [Game(1400, 0)] * 4
    assert fide.first_rating(games).rating == 1284
    assert fide.initial_rating(games) == NoValue(
        "no first rating: 1284 is below 1400, not published")


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("call, argument", [
    (lambda: fide.rating_change(2000, [(2000, 1)], -10), "k"),
    (lambda: fide.new_rating(2000, [(2000, 1)], 0), "k"),
    (lambda: fide.expected_score(float("nan"), 2000), "rating"),
    (lambda: fide.expected_score(2000, float("nan")), "opponent_rating"),
    (lambda: fide.expected_score(2000, 2000, rules="2023"), "rules"),
    (lambda: fide.rating_change(2000, [(2000, 1)], 10, rules="latest"), "rules"),
    (lambda: fide.dp(1.2), "p"),
    (lambda: fide.dp(float("nan")), "p"),
    (lambda: fide.k_factor(2000, -1), "rated_games"),
    (lambda: fide.k_factor(2000, 10, birth_year=2030, year=2026), "year"),
    (lambda: fide.k_factor(2000, 10, birth_year=2999), "birth_year"),
    (lambda: fide.k_factor(2000, 10, games_in_period=3.5), "games_in_period"),
    (lambda: fide.new_rating(2000.5, [(2000, 1)], 10), "rating"),
    (lambda: fide.initial_rating([(2000, 1)] * 4 + [(-3, 1)]), "games opponent"),
])
def test_bad_input_names_the_argument(call, argument):
    # README, "Quiet and errors": one RatingError with a one-line message naming the argument.
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value).startswith(argument + ":")
    assert "\n" not in str(caught.value)


# --- properties ---------------------------------------------------------------------------------

@given(whole_ratings, whole_ratings)
def test_table_is_symmetric(a, b):
    # docs/SOURCES.md §4: "the two tables are effectively mirror-images": PD(a,b) + PD(b,a) = 1
    # when both players are capped alike (rules 2024, or both below 2650 under 2025).
    assert round(fide.expected_score(a, b, "2024") + fide.expected_score(b, a, "2024"), 9) == 1
    if a < 2650 and b < 2650:
        assert round(fide.expected_score(a, b) + fide.expected_score(b, a), 9) == 1


@given(st.integers(1400, 2649), st.integers(1400, 2649), scores, st.sampled_from([10, 20, 40]))
def test_change_is_zero_sum_for_equal_k_below_2650(a, b, score, k):
    # docs/RULES.md §3.2/§3.4: both below 2650, same K → one gains what the other loses.
    gain = fide.rating_change(a, [Game(b, score)], k)
    loss = fide.rating_change(b, [Game(a, 1 - score)], k)
    assert gain + loss == pytest.approx(0.0, abs=1e-9)


@given(st.lists(st.tuples(st.integers(1000, 2800), scores), min_size=5, max_size=20))
def test_first_rating_never_above_2200(pairs):
    # docs/RULES.md §3.5: at most 2200.
    result = fide.initial_rating([Game(r, s) for r, s in pairs])
    if not isinstance(result, NoValue):
        assert 1400 <= result <= 2200


@given(st.floats(min_value=-1000, max_value=1000, allow_nan=False))
def test_round_half_away_is_odd_and_within_half(x):
    # docs/RULES.md §3.4: symmetric about zero, never more than 0.5 off.
    assert fide.round_half_away(-x) == -fide.round_half_away(x)
    assert abs(fide.round_half_away(x) - x) <= 0.5
