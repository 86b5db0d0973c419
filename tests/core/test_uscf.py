"""US Chess ratings of one player (docs/RULES.md §4; docs/SOURCES.md §3).

Published values first (docs/RULES.md, docs/SOURCES.md §3, Glickman's K table and approximation paper),
then cases worked by hand with the arithmetic in the comment, then properties.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from chessrating.errors import RatingError
from chessrating.results import NO_GAMES, Game
from chessrating.uscf import (
    bonus, effective_games, first_rating, floor, k_factor, linear_performance, new_rating,
    special_objective, special_rating, uses_special_formula,
)


def n_star(rating: float) -> float:
    """N* of §4.1, written out again here so the tests do not lean on the module."""
    return 50 / math.sqrt(0.662 + 0.00000739 * (2569 - rating) ** 2)


def logistic(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


# ---------------------------------------------------------------- effective games (§4.1)

def test_effective_games_published_example():
    # docs/RULES.md §4.1 and docs/SOURCES.md §3: 1700 with 30 games -> N' 20.01 (N* = 20.0118 < 30).
    assert round(effective_games(1700, 30), 2) == 20.01
    assert effective_games(1700, 30) == pytest.approx(20.011787, abs=1e-6)


def test_effective_games_limits():
    # N' = N when N is below N*: 1700 with 12 games -> 12.
    assert effective_games(1700, 12) == 12.0
    # Above 2355 N* is 50 (§4.1): 2400 with 80 games -> 50; at 2355 the formula,
    # 50/sqrt(0.662 + 0.00000739 * 214^2) = 50/sqrt(1.00043) = 49.9892.
    assert effective_games(2400, 80) == 50.0
    assert effective_games(2355, 80) == pytest.approx(49.989193, abs=1e-6)
    # Unrated: N' = 0 (§4.6 step 2).
    assert effective_games(None, 0) == 0.0


def test_uses_special_formula():
    # §4.2: N <= 8, or all earlier games won or lost (record W / L, any case, blank = neither).
    assert uses_special_formula(0) is True
    assert uses_special_formula(8) is True
    assert uses_special_formula(9) is False
    assert uses_special_formula(9, "") is False
    assert uses_special_formula(40, "W") is True
    assert uses_special_formula(40, " l ") is True


# ---------------------------------------------------------------- K (§4.3)

@pytest.mark.parametrize(("rating", "games", "event_games", "published"), [
    # Glickman, "The US Chess Rating System", K table (Full-K column):
    # N' 6/20/50 x m 4/6/10 -> 80, 66.67, 50, 33.33, 30.77, 26.67, 14.81, 14.29, 13.33.
    # N' 6: 1500 on 6 games (N* 16.57); N' 20: 2000 on 20 games (N* 28.61); N' 50: 2400.
    (1500, 6, 4, 80.0), (1500, 6, 6, 66.67), (1500, 6, 10, 50.0),
    (2000, 20, 4, 33.33), (2000, 20, 6, 30.77), (2000, 20, 10, 26.67),
    (2400, 60, 4, 14.81), (2400, 60, 6, 14.29), (2400, 60, 10, 13.33),
])
def test_k_table(rating, games, event_games, published):
    assert round(k_factor(rating, games, event_games), 2) == published


def test_dual_rated_k():
    # §4.3 dual rating, 100 earlier games, m = 4:
    # 2200 is not above 2200: plain K = 800/(N*(2200) 38.7117 + 4) = 18.7302 (the dual
    # formula gives the same there: 6.5 - 0.0025*2200 = 1).
    assert k_factor(2200, 100, 4, dual_rated=True) == pytest.approx(800 / (n_star(2200) + 4))
    assert k_factor(2200, 100, 4, dual_rated=True) == pytest.approx(18.730238, abs=1e-6)
    # 2300: 800 * (6.5 - 5.75) / (45.7055 + 4) = 600 / 49.7055 = 12.0711 (plain 16.0948).
    assert k_factor(2300, 100, 4, dual_rated=True) == pytest.approx(12.071093, abs=1e-6)
    assert k_factor(2300, 100, 4) == pytest.approx(16.094791, abs=1e-6)
    # 2550: from 2500, 200 / (50 + 4) = 3.7037 (plain 800/54 = 14.81).
    assert k_factor(2550, 100, 4, dual_rated=True) == pytest.approx(200 / 54)
    assert k_factor(2550, 100, 4) == pytest.approx(800 / 54)


def test_k_of_unrated_player():
    # Unrated: N' = 0, K = 800/m; 5 games -> 160.
    assert k_factor(None, 0, 5) == 160.0


# ---------------------------------------------------------------- bonus (§4.3)

def test_bonus_three_game_event():
    # 1800 on 50 games (N' = N*(1800) = 22.2891), three wins against 2000, B = 10.
    # K = 800/25.2891 = 31.6342; E = 3/(1 + 10^0.5) = 0.72076; K(S-E) = 72.1019;
    # threshold 10*sqrt(max(3,4)) = 20 -> bonus 52.1019.
    event = [Game(2000, 1, "a"), Game(2000, 1, "b"), Game(2000, 1, "c")]
    k = 800 / (n_star(1800) + 3)
    expected = k * (3 - 3 * logistic(1800, 2000)) - 10 * 2
    assert bonus(1800, 50, event) == pytest.approx(expected)
    assert bonus(1800, 50, event) == pytest.approx(52.101868, abs=1e-6)
    # In a 3-game event no opponent may be met more than once: "a" twice -> no bonus.
    assert bonus(1800, 50, [Game(2000, 1, "a"), Game(2000, 1, "a"), Game(2000, 1, "b")]) == 0.0
    # Without ids each game is a distinct opponent -> eligible again.
    assert bonus(1800, 50, [Game(2000, 1), Game(2000, 1), Game(2000, 1)]) == pytest.approx(expected)


def test_bonus_four_game_event():
    # 1800 on 50 games, 3 wins and a loss against 2000: K = 800/26.2891 = 30.4308,
    # E = 4 * 0.240253 = 0.96101, K(S-E) = 30.4308 * 2.03899 = 62.0481; 10*sqrt(4) = 20
    # -> 42.0481. Meeting "a" twice is allowed when m >= 4; three times is not.
    twice = [Game(2000, 1, "a"), Game(2000, 1, "a"), Game(2000, 1, "b"), Game(2000, 0, "c")]
    k = 800 / (n_star(1800) + 4)
    expected = k * (3 - 4 * logistic(1800, 2000)) - 20
    assert bonus(1800, 50, twice) == pytest.approx(expected)
    assert bonus(1800, 50, twice) == pytest.approx(42.048114, abs=1e-6)
    thrice = [Game(2000, 1, "a"), Game(2000, 1, "a"), Game(2000, 1, "a"), Game(2000, 0, "c")]
    assert bonus(1800, 50, thrice) == 0.0


def test_bonus_threshold_and_exclusions():
    event = [Game(2000, 1, i) for i in range(4)]
    k = 800 / (n_star(1800) + 4)
    gain = k * (4 - 4 * logistic(1800, 2000))          # 92.479
    # B = 14 (June 2017 - February 2023): 14 * 2 = 28 -> 64.479.
    assert bonus(1800, 50, event, bonus_threshold=14) == pytest.approx(gain - 28)
    # Below the threshold -> 0: a single draw-level gain.
    assert bonus(1800, 50, [Game(1800, 0.5, i) for i in range(4)]) == 0.0
    # Fewer than 3 games -> none; special-formula players (unrated, N <= 8, record) -> none.
    assert bonus(1800, 50, event[:2]) == 0.0
    assert bonus(None, 0, event) == 0.0
    assert bonus(1800, 8, event) == 0.0
    assert bonus(1800, 50, event, record="W") == 0.0


# ---------------------------------------------------------------- special formula (§4.4)

def test_special_formula_published_example():
    # Approximating formulas paper (docs/RULES.md §4.4): 1500 on 6 games; 1400 W, 1550 L,
    # 1650 D -> (6*1500 + 3*1533.33 + 0)/9 = 1511.11. Inside +-400 of all, f is linear:
    # 6(0.5 + (M-1500)/800) + 1.5 + (3M - 4600)/800 - 4.5 = (9M - 13600)/800 -> M = 13600/9.
    event = [Game(1400, 1), Game(1550, 0), Game(1650, 0.5)]
    assert special_rating(1500, 6, event) == pytest.approx(13600 / 9, abs=1e-6)
    assert round(new_rating(1500, 6, event), 2) == 1511.11


def test_win_against_much_lower_player_leaves_provisional_rating():
    # 1500 on 5 games beats 1000: f(1500) = 5*0.5 + PWe(1500,1000)=1 - (1 + 2.5) = 0, so the
    # procedure stops at its start R0' = 1500. The closed form (5*1500 + 1000 + 400)/6 =
    # 1483.33 would have lowered it.
    assert special_rating(1500, 5, [Game(1000, 1)]) == 1500.0
    assert new_rating(1500, 5, [Game(1000, 1)]) == 1500.0


def test_unrated_first_event_with_no_prior_weight():
    # Unrated, age 12 -> R0 = 600, N' = 0: wins against 1000 and 1200, loss against 1500.
    # In the stretch where all three are within 400: 1.5 + (3M - 3700)/800 = 2 -> M = 4100/3
    # = 1366.67 (M - 1000 = 366.67 < 400, so the stretch is right). The age only starts it.
    event = [Game(1000, 1), Game(1200, 1), Game(1500, 0)]
    assert new_rating(None, 0, event, age=12) == pytest.approx(4100 / 3, abs=1e-6)
    assert new_rating(None, 0, event, age=40) == pytest.approx(4100 / 3, abs=1e-6)


def test_flat_stretch_of_zeros_goes_to_the_prior():
    # N' = 0, a win against 2000 and a loss against 600: f(M) = PWe(M,2000) + PWe(M,600) - 1
    # is 0 on all of [1000, 1600]. Step 4: R0 inside -> R0; else the nearer end.
    event = [Game(2000, 1), Game(600, 0)]
    assert new_rating(None, 0, event) == 1300.0             # no age: R0 1300, inside
    assert new_rating(None, 0, event, age=10) == 1000.0     # R0 500: up to 1000
    assert special_rating(2000, 0, event) == 1600.0         # R0 2000: down to 1600


def test_all_wins_prior():
    # 1500 on 4 games, all won so far (record W): R0' = 1100, S' = 0.5 + 4. A draw against
    # 1600: above 1500 the prior term is flat at 4, so PWe(M,1600) = 0.5 -> M = 1600.
    # With a normal record: 4(0.5 + (M-1500)/800) + 0.5 + (M-1600)/800 = 2.5 -> M = 1520.
    assert special_rating(1500, 4, [Game(1600, 0.5)], record="W") == pytest.approx(1600)
    assert special_rating(1500, 4, [Game(1600, 0.5)]) == pytest.approx(1520)
    assert new_rating(1500, 4, [Game(1600, 0.5)], record="W") == pytest.approx(1600)


def test_all_losses_prior():
    # 1500 on 4 games, all lost (record L): R0' = 1900, S' = 0.5. A draw against 1400: below
    # 1500 the prior term is 0, so PWe(M,1400) = 0.5 -> M = 1400.
    # Normal record: 4(0.5 + (M-1500)/800) + 0.5 + (M-1400)/800 = 2.5 -> 5M = 7400 -> 1480.
    assert special_rating(1500, 4, [Game(1400, 0.5)], record="L") == pytest.approx(1400)
    assert special_rating(1500, 4, [Game(1400, 0.5)]) == pytest.approx(1480)
    # A standard-formula player with an all-losses record is rated by the special formula.
    assert new_rating(1500, 30, [Game(1400, 0.5)], record="L") == pytest.approx(1400)


def test_special_formula_cap_2700():
    # 2600 on 3 games (N' 3) beats two 2600s: 5(0.5 + (M-2600)/800) = 3.5 -> M = 2760,
    # which the cap brings to 2700 (§4.4).
    event = [Game(2600, 1), Game(2600, 1)]
    assert special_objective(2760, 2600, 3, event) == pytest.approx(0, abs=1e-12)
    assert special_rating(2600, 3, event) == 2700.0
    assert new_rating(2600, 3, event) == 2700.0


def test_special_formula_no_games_keeps_prior():
    assert special_rating(1500, 4, [], record="W") == 1500.0


# ---------------------------------------------------------------- linear performance (§3.6)

def test_linear_performance():
    # 1400 W, 1600 D, 1800 L: 1.5 + (3M - 4800)/800 = 1.5 -> M = 1600.
    assert linear_performance([Game(1400, 1), Game(1600, 0.5), Game(1800, 0)]) == pytest.approx(1600)
    # Perfect score: the zero set starts at the highest opponent + 400 = 2100;
    # zero score: ends at the lowest - 400 = 1100 (R0 = average 1600 lies outside both).
    assert linear_performance([Game(1500, 1), Game(1700, 1)]) == pytest.approx(2100)
    assert linear_performance([Game(1500, 0), Game(1700, 0)]) == pytest.approx(1100)
    assert linear_performance([]) is NO_GAMES


# ---------------------------------------------------------------- first ratings and floors (§4.5)

def test_first_rating():
    # docs/RULES.md §4.5: 100 under age 2, 50 x age from 2 to 26, 1300 above; no age -> 1300
    # (Decision).
    assert first_rating(1.5) == 100.0
    assert first_rating(2) == 100.0
    assert first_rating(3) == 150.0
    assert first_rating(12) == 600.0
    assert first_rating(26) == 1300.0
    assert first_rating(40) == 1300.0
    assert first_rating(None) == 1300.0


def test_floors_published():
    # docs/RULES.md §4.5: peak 1941 -> 1741 -> 1700; 1999.51 -> 2000 -> 1800; 1388 -> 1188 -> 100.
    assert floor(1941) == 1700.0
    assert floor(1999.51) == 1800.0
    assert floor(1388) == 100.0


def test_floor_limits():
    assert floor(1400) == 1200.0          # lowest peak floor
    assert floor(2600) == 2100.0          # highest peak floor
    assert floor(None) == 100.0
    assert floor(1941, games=25) == 100.0  # not established
    assert floor(1941, games=26) == 1700.0
    assert floor(1941, life_master=True) == 2200.0


# ---------------------------------------------------------------- new rating

def test_standard_new_rating():
    # 1700 on 30 games beats a 1700: K = 800/(20.0118 + 1) = 38.0739, E = 0.5
    # -> 1700 + 19.0369.
    assert new_rating(1700, 30, [Game(1700, 1)]) == pytest.approx(1700 + 0.5 * 800 / (n_star(1700) + 1))
    assert new_rating(1700, 30, [Game(1700, 1)]) == pytest.approx(1719.036934, abs=1e-6)


def test_new_rating_adds_bonus():
    # 1800 on 50 games, four wins against four different 2000s: K(S-E) = 92.4790, bonus
    # 92.4790 - 20 = 72.4790 -> 1800 + 164.9579.
    event = [Game(2000, 1, i) for i in range(4)]
    gain = 800 / (n_star(1800) + 4) * (4 - 4 * logistic(1800, 2000))
    assert new_rating(1800, 50, event) == pytest.approx(1800 + gain + gain - 20)
    assert new_rating(1800, 50, event) == pytest.approx(1964.957912, abs=1e-6)


def test_new_rating_floors():
    # 1705 on 40 games loses four to 2000s: K = 800/(20.1152 + 4) = 33.1741, E = 4*0.15098
    # -> 1705 - 20.5289 = 1684.47. A peak of 1941 gives the floor 1700.
    event = [Game(2000, 0)] * 4
    unfloored = 1705 + 800 / (n_star(1705) + 4) * (0 - 4 * logistic(1705, 2000))
    assert new_rating(1705, 40, event) == pytest.approx(unfloored)
    assert new_rating(1705, 40, event, peak_rating=1941) == 1700.0
    # On 20 games the player is not established: no peak floor.
    assert new_rating(1705, 20, event, peak_rating=1941) < 1700
    # Original Life Master at 2210 (30 games, N' 30) loses six to 2600s:
    # K = 800/36 = 22.22, E = 6/(1 + 10^0.975) = 0.5747 -> 2197.23, held at 2200.
    assert 2210 + 800 / 36 * (0 - 6 * logistic(2210, 2600)) < 2200
    assert new_rating(2210, 30, [Game(2600, 0)] * 6, life_master=True) == 2200.0


def test_new_rating_without_games():
    assert new_rating(1700, 30, []) == 1700
    assert new_rating(None, 0, []) is NO_GAMES


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize(("call", "message"), [
    (lambda: effective_games(1700, -1), "games: -1 is not a whole number of games from 0 to 100000"),
    (lambda: new_rating(1700, -3, [Game(1700, 1)]), "games: -3 is not a whole number of games from 0 to 100000"),
    (lambda: new_rating(1700, 10.5, [Game(1700, 1)]), "games: 10.5 is not a whole number of games from 0 to 100000"),
    (lambda: new_rating(1700, 10, [Game(1700, 1)], record="X"), "record: 'X' is not W, L or blank"),
    (lambda: new_rating(1700, 10, [Game(1700, 1)], bonus_threshold=0), "bonus_threshold: 0 is not a bonus threshold from 1 to 50"),
    (lambda: new_rating(1700, 10, [Game(1700, 1)], dual_rated="no way"), "dual_rated: 'no way' is not TRUE or FALSE"),
    (lambda: new_rating(None, 0, [Game(1700, 1)], age=150), "age: 150 is not an age from 1 to 120"),
    (lambda: floor(1900, life_master=2), "life_master: 2 is not TRUE or FALSE"),
    (lambda: new_rating(None, 5, [Game(1700, 1)]), "games: 5 earlier games but rating is blank (unrated)"),
    (lambda: new_rating(1700, 0, [Game(1700, 1)], record="W"),
     "record: 'W' describes earlier games but games is 0"),
    (lambda: new_rating(1700, 10, [Game(1700, 2)]), "event score: 2 is not 1, 0.5 or 0 (item 1)"),
    (lambda: special_rating(1500, -1, [Game(1700, 1)]), "effective: -1 is not a number of effective games from 0 to 100000"),
    (lambda: first_rating(-2), "age: -2 is not an age from 1 to 120"),
    (lambda: first_rating(0.5), "age: 0.5 is not an age from 1 to 120"),
    (lambda: k_factor(None, 0, 0), "event_games: 0 with no earlier games leaves no K (N′ + m = 0)"),
    (lambda: effective_games(-5, 3), "rating: -5 is not a rating from 100 to 4000"),
    (lambda: new_rating(1700, 10, [Game(50, 1)]), "event opponent: 50 is not a rating from 100 to 4000 (item 1)"),
])
def test_bad_input(call, message):
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- properties

ratings = st.floats(min_value=100, max_value=2800, allow_nan=False)
scores = st.sampled_from([0.0, 0.5, 1.0])
events = st.lists(st.tuples(ratings, scores).map(lambda t: Game(*t)), min_size=1, max_size=9)
records = st.sampled_from([None, "W", "L"])


@given(prior=st.floats(min_value=100, max_value=2600), effective=st.floats(min_value=0, max_value=50),
       event=events, record=records)
def test_special_rating_solves_f(prior, effective, event, record):
    result = special_rating(prior, effective, event, record)
    value = special_objective(result, prior, effective, event, record)
    if result == 2700.0:
        assert value <= 1e-6            # capped: the root lies at or above 2700
    else:
        assert abs(value) <= 1e-6


@given(prior=st.floats(min_value=100, max_value=2700), effective=st.floats(min_value=0, max_value=50),
       opponent=ratings, record=records)
def test_a_win_never_lowers_a_loss_never_raises(prior, effective, opponent, record):
    assert special_rating(prior, effective, [Game(opponent, 1)], record) >= prior
    assert special_rating(prior, effective, [Game(opponent, 0)], record) <= prior


@given(rating=st.one_of(st.none(), ratings), games=st.integers(0, 60), event=events,
       record=records, which=st.integers(0, 8), age=st.one_of(st.none(), st.floats(3, 90)))
def test_more_points_never_lower_the_new_rating(rating, games, event, record, which, age):
    if rating is None:
        games, record = 0, None
    if games == 0:
        record = None
    which %= len(event)
    assume(event[which].score < 1)
    better = list(event)
    better[which] = Game(event[which].opponent, event[which].score + 0.5)
    before = new_rating(rating, games, event, age=age, record=record)
    after = new_rating(rating, games, better, age=age, record=record)
    assert after >= before - 1e-6


@given(rating=ratings, games=st.integers(0, 100), event=events, dual=st.booleans(),
       threshold=st.floats(min_value=1, max_value=20))
def test_bonus_never_negative(rating, games, event, dual, threshold):
    assert bonus(rating, games, event, dual, threshold) >= 0.0


@given(rating=ratings, games=st.integers(0, 100), event=events,
       peak=st.one_of(st.none(), ratings), life_master=st.booleans(), dual=st.booleans())
def test_floors_hold(rating, games, event, peak, life_master, dual):
    result = new_rating(rating, games, event, peak_rating=peak, life_master=life_master, dual_rated=dual)
    assert result >= 100.0
    assert result >= floor(peak, life_master, games)
    if games > 25:
        assert result >= floor(rating, life_master)
