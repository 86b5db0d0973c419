"""Rating goal planner (docs/RULES.md §5)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import elo, goal
from chessrating.errors import RatingError
from chessrating.results import NoValue


def test_worked_example_12_games():
    # docs/RULES.md §5: 1600, K 20, winning every game against 1600 reaches 1700 after 12 games
    # (1695.6 after 11).
    assert goal.games_to_target(1600, 1700, 1600, k=20) == 12
    assert goal.games_to_target(1600, 1700, 1600, k=20, score=1.0, system="ELO") == 12
    path = goal.progression(1600, 1600, k=20, games=12)
    assert round(path[10], 1) == 1695.6
    assert path[10] < 1700 <= path[11]
    # Each step is the classic Elo update with the rating carried unrounded.
    rating = 1600.0
    for after in path:
        rating = elo.new_rating(rating, [(1600, 1.0)], k=20)
        assert after == pytest.approx(rating, abs=1e-9)


def test_losing_works_symmetrically():
    # docs/RULES.md §5: a target below the rating with a losing score; the curve is symmetric.
    assert goal.games_to_target(1600, 1500, 1600, k=20, score=0) == 12
    path = goal.progression(1600, 1600, k=20, games=11, score=0)
    assert round(path[10], 1) == 1504.4


def test_target_equal_to_rating_needs_no_games():
    assert goal.games_to_target(1600, 1600, 2000, k=20, score=0) == 0


def test_never_when_the_curve_levels_off():
    # docs/RULES.md §5: "If the rating can never reach the target, say so." Scoring 0.75 against
    # 1600 the Elo rating tends to 1600 + 400·log10(3) = 1790.85 without reaching it.
    level = 1600 + 400 * math.log10(3)
    assert elo.expected_score(level, 1600) == pytest.approx(0.75)
    never = goal.games_to_target(1600, 1800, 1600, k=20, score=0.75)
    assert never == NoValue(
        "never: scoring 0.75 against 1600, the rating levels off at 1790.8, short of 1800")
    reachable = goal.games_to_target(1600, 1780, 1600, k=20, score=0.75)
    path = goal.progression(1600, 1600, k=20, games=reachable, score=0.75)
    assert path[-2] < 1780 <= path[-1]


def test_never_when_the_score_moves_the_wrong_way():
    # docs/RULES.md §5: a draw against an equal opponent changes nothing, on either curve.
    for system in goal.SYSTEMS:
        assert goal.games_to_target(1600, 1700, 1600, k=20, score=0.5, system=system) == NoValue(
            "never: scoring 0.5 against 1600 never raises a rating of 1600")
    assert goal.games_to_target(1600, 1500, 1600, k=20, score=1) == NoValue(
        "never: scoring 1 against 1600 never lowers a rating of 1600")


def test_fide_table_with_the_400_point_rule():
    # docs/RULES.md §3.2/§5: a capped player winning against a much weaker one gains K × 0.08
    # per game for ever: 0.8 at K 10, so 2600 → 3000 takes 400 / 0.8 = 500 games (rules 2024).
    assert goal.games_to_target(2600, 3000, 1600, k=10, system="FIDE", rules="2024") == 500
    # From 1 Oct 2025 a player at 2650+ uses the real difference: PD 1.00 beyond 735, no gain.
    # The rating stops just past 2650 (2650.4 after 63 wins of 0.8), so 3000 is never reached.
    never = goal.games_to_target(2600, 3000, 1600, k=10, system="FIDE")
    assert isinstance(never, NoValue)
    assert never.reason.startswith("never: scoring 1 against 1600, the rating cannot rise above 265")
    path = goal.progression(2600, 1600, k=10, games=200, system="FIDE")
    assert max(path) == pytest.approx(2650.4, abs=1e-6)
    assert path[-1] == path[-2]


def test_fide_draws_stall_near_the_opponent():
    # docs/RULES.md §3.1 table 8.1.2: drawing against 1600 from 1500, the FIDE rating climbs while
    # the own PD is below .50 and stalls within the row 0–3: a target of 1610 is never reached.
    never = goal.games_to_target(1500, 1610, 1600, k=20, score=0.5, system="FIDE")
    assert isinstance(never, NoValue) and never.reason.startswith("never:")
    path = goal.progression(1500, 1600, k=20, games=400, score=0.5, system="FIDE")
    assert max(path) < 1600


def test_not_within_the_game_limit():
    # The loop is bounded: winning every game at 1600 the rating grows without limit,
    # but 3000 needs far more than 10,000 games.
    result = goal.games_to_target(1600, 3000, 1600, k=20)
    assert isinstance(result, NoValue)
    assert result.reason.startswith("not within 10,000 games: scoring 1 against 1600")
    assert goal.games_to_target(1600, 1700, 1600, k=20, max_games=11) == NoValue(
        "not within 11 games: scoring 1 against 1600, the rating is 1695.6 after 11")


@pytest.mark.parametrize("call, argument", [
    (lambda: goal.games_to_target(1600, 1700, 1600, k=-20), "k"),
    (lambda: goal.games_to_target(float("nan"), 1700, 1600, k=20), "rating"),
    (lambda: goal.games_to_target(1600, float("nan"), 1600, k=20), "target"),
    (lambda: goal.games_to_target(1600, 1700, 1600, k=20, score=1.5), "score"),
    (lambda: goal.games_to_target(1600, 1700, 1600, k=20, system="USCF"), "system"),
    (lambda: goal.games_to_target(1600, 1700, 1600, k=20, system="FIDE", rules="2019"), "rules"),
    (lambda: goal.progression(1600, 1600, k=20, games=2.5), "games"),
])
def test_bad_input_names_the_argument(call, argument):
    # README, "Quiet and errors": one RatingError with a one-line message naming the argument.
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value).startswith(argument + ":")


@given(st.integers(1000, 2600), st.integers(-300, 300), st.integers(1000, 2600),
       st.sampled_from([10, 20, 40]), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]),
       st.sampled_from(goal.SYSTEMS))
def test_answer_matches_the_game_by_game_path(rating, step, opponent, k, score, system):
    # docs/RULES.md §5: the count is the first game at which the updated rating reaches the target;
    # "never" means the path never gets there.
    target = rating + step
    result = goal.games_to_target(rating, target, opponent, k, score, system, max_games=2000)
    path = goal.progression(rating, opponent, k, 2000, score, system)
    up = target >= rating
    reached = [i + 1 for i, r in enumerate(path)
               if (r >= target - 1e-9 if up else r <= target + 1e-9)]
    if isinstance(result, NoValue):
        assert not reached
    elif result == 0:
        assert target == rating
    else:
        assert reached and reached[0] == result
