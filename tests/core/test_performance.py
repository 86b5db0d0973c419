"""Performance ratings (docs/RULES.md §3.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import elo, fide, performance
from chessrating.errors import RatingError
from chessrating.results import NO_GAMES, Game, NoValue

# docs/SOURCES.md §8 [SE-TPR]: Ding Liren, 2018 Candidates after round 12, 6.5/12 against
# 2763, 2×2794, 2×2809, 2×2767, 2×2784, 2×2799, 2800 (average 2789.08).
DING_OPPONENTS = [2763, 2794, 2794, 2809, 2809, 2767, 2767, 2784, 2784, 2799, 2799, 2800]
DING_SCORE = 6.5


def _ding(results):
    assert sum(results) == DING_SCORE
    return [Game(r, s) for r, s in zip(DING_OPPONENTS, results)]


def test_tpr_worked_example():
    # docs/RULES.md §3.6: 6.5/12 against average 2789.08 → 2789 + dp(0.54) 29 = 2818.
    assert round(sum(DING_OPPONENTS) / 12, 2) == 2789.08
    assert fide.percent_half_up(DING_SCORE, 12) == 54
    assert fide.dp(0.54) == 29
    # The TPR depends on the total score only, whatever the single results were.
    for results in ([0.5] * 11 + [1.0], [1, 1, 1, 1, 1, 1, 0.5, 0, 0, 0, 0, 0]):
        assert performance.performance(_ding(results)) == 2818
        assert performance.performance(_ding(results), "FIDE") == 2818
        assert performance.tpr(_ding(results)) == 2818


def test_tpr_perfect_and_zero_are_notional_800():
    # docs/RULES.md §3.6: 100 % gives +800 and 0 % gives −800; ARO 2050 rounded half-up from 2050.
    assert performance.performance([Game(2000, 1), Game(2100, 1)]) == 2850
    assert performance.performance([Game(2000, 0), Game(2100, 0)]) == 1250
    # ARO 2000.5 → 2001 (half up); p 50 % → dp 0.
    assert performance.performance([Game(2000, 1), Game(2001, 0)]) == 2001


def test_own_rating_anchor():
    # docs/RULES.md §3.6 / docs/SOURCES.md §2: "performance = your rating + d_p".
    games = _ding([0.5] * 11 + [1.0])
    assert performance.performance(games, "OWN", rating=2769) == 2769 + 29
    assert performance.performance(games, "own", rating=2769.5) == 2798.5


def test_own_rating_anchor_needs_the_rating():
    # BRIEF: the error names `rating`.
    with pytest.raises(RatingError, match=r"^rating: "):
        performance.performance([Game(2000, 1)], "OWN")


def test_algorithm_of_400():
    # docs/RULES.md §3.6: average + 400 × (wins − losses) / n, the average unrounded (docs/SOURCES.md
    # §2: "adds 400 × (wins − losses) / games to the opponents' average").
    # Ding with 2 wins, 1 loss: (33469 + 400) / 12 = 2822.42.
    games = _ding([0.5, 0.5, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 0, 0.5])
    assert performance.performance(games, "400") == pytest.approx(33869 / 12, abs=1e-9)
    assert performance.performance(games, "400") == pytest.approx(2822.42, abs=0.005)
    # docs/SOURCES.md §2: a 100 % score adds 400.
    assert performance.performance([Game(1800, 1), Game(1900, 1)], "400") == 2250


def test_logistic_is_classic_elo_performance():
    # docs/RULES.md §3.6: "Logistic ('true' performance): §2".
    games = _ding([0.5] * 11 + [1.0])
    assert performance.performance(games, "ELO") == elo.performance(games)
    assert performance.performance([Game(2000, 1)], "ELO") == NoValue("no performance: 100 % score")


def test_ptp_definition():
    # docs/RULES.md §3.6: the lowest whole P with Σ PD(P − Ri) ≥ S, table 8.1.2 without cap.
    # Two draws against 2000: PD(−3) = .50 (row 0–3), PD(−4) = .49 → P = 1997.
    assert performance.performance([Game(2000, 0.5), Game(2000, 0.5)], "PTP") == 1997
    # 1.5/2 against 2000: PD ≥ .75 from row 189–197 → 2189.
    assert performance.performance([Game(2000, 1), Game(2000, 0.5)], "PTP") == 2189
    # 19.5/20 against 2000: PD ≥ .975 → row 560–619 (.98), past the 400-point cap → 2560.
    assert performance.performance([Game(2000, 1)] * 19 + [Game(2000, 0.5)], "PTP") == 2560
    games = _ding([0.5] * 11 + [1.0])
    p = performance.performance(games, "PTP")
    total = lambda rating: sum(fide.pd_hundredths(rating - g.opponent) for g in games)
    assert total(p) >= 650 > total(p - 1)


def test_ptp_zero_and_perfect_scores():
    # docs/RULES.md §3.6: 0 % → lowest opponent − 800 (C.07 10.3); 100 % → the lowest rating
    # whose expected score is 1.00 against all: table 8.1.2 gives 1.00 from a difference of
    # 736 (0.99 up to 735), so the highest opponent + 736.
    assert performance.performance([Game(2000, 0), Game(2150, 0)], "PTP") == 1200
    assert performance.performance([Game(2000, 1), Game(2150, 1)], "PTP") == 2886
    assert fide.pd_hundredths(736) == 100 and fide.pd_hundredths(735) == 99


def test_uscf_method_uses_the_linear_special_formula():
    # docs/RULES.md §3.6: US Chess linear: the special formula of §4.4 with no prior games.
    uscf = pytest.importorskip("chessrating.uscf")
    games = [Game(1400, 1), Game(1600, 0.5), Game(1800, 0)]
    assert performance.performance(games, "USCF") == uscf.linear_performance(games)
    # Σ PWe(M, Ri) = S with PWe = 0.5 + (M − Ri)/800 inside ±400: 1.5 + (3M − 4800)/800 = 1.5.
    assert performance.performance(games, "USCF") == pytest.approx(1600)


@pytest.mark.parametrize("method", performance.METHODS)
def test_no_games_give_no_games(method):
    # BRIEF / results.NO_GAMES: no games → the empty marker, never a number.
    assert performance.performance([], method, rating=2000) is NO_GAMES


@pytest.mark.parametrize("call, argument", [
    (lambda: performance.performance([Game(2000, 1)], "TPR"), "method"),
    (lambda: performance.performance([Game(2000, 1)], None), "method"),
    (lambda: performance.performance([Game(2000, 1)], "OWN", rating=float("nan")), "rating"),
    (lambda: performance.performance([Game(2000, 1)], "OWN", rating=-1), "rating"),
    (lambda: performance.performance([Game(float("nan"), 1)]), "games opponent"),
    (lambda: performance.performance([Game(2000, 0.7)]), "games score"),
])
def test_bad_input_names_the_argument(call, argument):
    # README, "Quiet and errors": one RatingError with a one-line message naming the argument.
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value).startswith(argument + ":")


@given(st.lists(st.tuples(st.integers(1200, 2800), st.sampled_from([0.0, 0.5, 1.0])),
                min_size=1, max_size=12),
       st.data())
def test_performance_never_falls_when_the_score_rises(pairs, data):
    # Property: monotone in score — turning one result up by a half point
    # never lowers the performance, for every method with a number.
    games = [Game(r, s) for r, s in pairs]
    open_results = [i for i, g in enumerate(games) if g.score < 1]
    if not open_results:
        return
    index = data.draw(st.sampled_from(open_results))
    better = list(games)
    better[index] = Game(games[index].opponent, games[index].score + 0.5)
    for method in ("FIDE", "OWN", "400", "PTP", "ELO"):
        before = performance.performance(games, method, rating=2000)
        after = performance.performance(better, method, rating=2000)
        if isinstance(before, NoValue) or isinstance(after, NoValue):
            assert method == "ELO"
            continue
        assert after >= before, method
