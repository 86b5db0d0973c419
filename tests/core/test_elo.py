"""Classic Elo (docs/RULES.md §2; docs/SOURCES.md §1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import elo
from chessrating.errors import RatingError
from chessrating.results import NO_GAMES, Game, NoValue

ratings = st.floats(min_value=100, max_value=3500, allow_nan=False)
scores = st.sampled_from([0.0, 0.5, 1.0])


def test_expected_score_equal_ratings_is_one_half():
    # docs/SOURCES.md §1: "Equal ratings expect 0.5."
    assert elo.expected_score(1800, 1800) == 0.5


def test_expected_score_400_stronger_is_one_in_eleven():
    # docs/SOURCES.md §1: "Against someone 400 points stronger you expect 1 in 11, about 0.09."
    assert elo.expected_score(1600, 2000) == pytest.approx(1 / 11, abs=1e-15)
    # docs/SOURCES.md §2: "at a 400-point gap ... the curve gives about 0.909"
    assert round(elo.expected_score(2000, 1600), 3) == 0.909


def test_change_for_a_win_against_an_equal_player():
    # docs/SOURCES.md §2: "Beating equal-rated opposition at K = 20 yields +10 per win
    # and −10 per loss"; "a win against an equal opponent is +20" at K = 40.
    assert elo.rating_change(1700, [Game(1700, 1.0)], k=20) == 10.0
    assert elo.rating_change(1700, [Game(1700, 0.0)], k=20) == -10.0
    assert elo.rating_change(1700, [Game(1700, 1.0)], k=40) == 20.0


def test_change_is_unrounded_sum_over_games():
    # docs/RULES.md §2: change K × Σ(S − E), unrounded; new rating R + change, unrounded.
    games = [Game(1600, 1.0), Game(2000, 0.5), Game(1400, 0.0)]
    expected = 0.0
    for opponent, score, _ in games:
        expected += score - 1 / (1 + 10 ** ((opponent - 1700) / 400))
    assert elo.rating_change(1700, games, k=24) == pytest.approx(24 * expected, rel=1e-12)
    assert elo.new_rating(1700, games, k=24) == pytest.approx(1700 + 24 * expected, rel=1e-12)
    assert not float(elo.new_rating(1700, games, k=24)).is_integer()


def test_default_k_is_20_and_no_games_change_nothing():
    # docs/RULES.md §2 / README: ELO_CHANGE's default k = 20.
    assert elo.rating_change(1500, [(1500, 1.0)]) == 10.0
    assert elo.rating_change(1500, []) == 0.0
    assert elo.new_rating(1500, []) == 1500.0


def test_performance_solves_expected_equals_score():
    # docs/RULES.md §2: the P with Σ E(P, Ri) = S, to 0.01 or better.
    games = [Game(1800, 1.0), Game(1950, 0.5), Game(2100, 0.0), Game(2000, 1.0)]
    p = elo.performance(games)
    assert isinstance(p, float)
    total = sum(1 / (1 + 10 ** ((g.opponent - p) / 400)) for g in games)
    assert total == pytest.approx(2.5, abs=1e-6)
    # 0.01 below and above P the sum is on either side of S: P is right to 0.01.
    assert sum(1 / (1 + 10 ** ((g.opponent - p + 0.01) / 400)) for g in games) < 2.5
    assert sum(1 / (1 + 10 ** ((g.opponent - p - 0.01) / 400)) for g in games) > 2.5


def test_performance_of_even_score_against_one_rating_is_that_rating():
    # docs/RULES.md §2: 50 % against one rating → E = 0.5 → P equals that rating.
    assert elo.performance([Game(2000, 0.5)]) == pytest.approx(2000, abs=1e-5)
    assert elo.performance([Game(1800, 1.0), Game(2000, 0.0)]) == pytest.approx(1900, abs=1e-5)


def test_performance_perfect_and_zero_scores_have_none():
    # docs/RULES.md §2 / docs/SOURCES.md §1: "A perfect or a zero score has none" — the function says so.
    perfect = elo.performance([Game(2000, 1.0), Game(2100, 1.0)])
    zero = elo.performance([Game(2000, 0.0)])
    assert perfect == NoValue("no performance: 100 % score")
    assert zero == NoValue("no performance: 0 % score")
    assert elo.performance([]) is NO_GAMES


@pytest.mark.parametrize("call, argument", [
    (lambda: elo.rating_change(1500, [(1500, 1)], k=-20), "k"),
    (lambda: elo.rating_change(1500, [(1500, 1)], k=0), "k"),
    (lambda: elo.expected_score(float("nan"), 1500), "rating"),
    (lambda: elo.expected_score(1500, float("nan")), "opponent_rating"),
    (lambda: elo.expected_score(1500, float("inf")), "opponent_rating"),
    (lambda: elo.new_rating(-5, [(1500, 1)]), "rating"),
    (lambda: elo.rating_change(1500, [(1500, 2)]), "games score"),
    (lambda: elo.rating_change(1500, [(1500, 1), (float("nan"), 1)]), "games opponent"),
    (lambda: elo.performance("1500"), "games"),
])
def test_bad_input_names_the_argument(call, argument):
    # README, "Quiet and errors": one RatingError, one-line message naming the argument.
    with pytest.raises(RatingError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(argument + ":")
    assert "\n" not in message


@given(ratings, ratings)
def test_expected_scores_of_both_players_add_to_one(a, b):
    # docs/RULES.md §2: the logistic curve is symmetric.
    assert elo.expected_score(a, b) + elo.expected_score(b, a) == pytest.approx(1.0, abs=1e-12)


@given(ratings, ratings, scores, st.floats(min_value=1, max_value=64))
def test_change_is_zero_sum_for_equal_k(a, b, score, k):
    # docs/RULES.md §2: with the same K one player gains what the other loses.
    gain = elo.rating_change(a, [Game(b, score)], k)
    loss = elo.rating_change(b, [Game(a, 1 - score)], k)
    assert gain + loss == pytest.approx(0.0, abs=1e-9)


@given(st.lists(st.tuples(ratings, scores), min_size=2, max_size=10))
def test_performance_rises_with_score(pairs):
    # Property: monotone — turning one loss into a draw never lowers P.
    games = [Game(r, s) for r, s in pairs]
    before = elo.performance(games)
    index = next((i for i, g in enumerate(games) if g.score < 1), None)
    if index is None:
        assert before == NoValue("no performance: 100 % score")
        return
    better = list(games)
    better[index] = Game(games[index].opponent, games[index].score + 0.5)
    after = elo.performance(better)
    if isinstance(before, NoValue) or isinstance(after, NoValue):
        assert isinstance(before, NoValue) and "0 %" in before.reason \
            or isinstance(after, NoValue) and "100 %" in after.reason
        return
    assert after > before
    assert math.isfinite(after)
