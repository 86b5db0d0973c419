"""FIDE title norms (docs/RULES.md §3.7; Title Regulations 1.4.6–1.4.9)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import norms
from chessrating.errors import RatingError
from chessrating.results import NO_GAMES

# docs/SOURCES.md §8 [SE-TPR]: Ding Liren, 2018 Candidates after round 12 (6.5/12, average 2789.08).
DING = [(2763, 0.5), (2794, 0.5), (2794, 1.0), (2809, 0.5), (2809, 0.5), (2767, 0.5),
        (2767, 0.5), (2784, 0.5), (2784, 0.5), (2799, 1.0), (2799, 0.0), (2800, 0.5)]


def _fields(verdict):
    return (verdict.achieved, verdict.performance, verdict.average, verdict.games,
            verdict.score, verdict.reasons, verdict.text)


def test_gm_norm_worked_example():
    # docs/RULES.md §3.6/§3.7: Ra 2789, p 54 % → dp 29 → Rp 2818 ≥ 2600, Ra ≥ 2380, 12 games, 54 % ≥ 35 %.
    assert _fields(norms.norm(DING, "GM")) == (True, 2818, 2789, 12, 6.5, (), "GM norm (titles and federations not checked)")


def test_im_norm_required_average_example():
    # docs/SOURCES.md §8 (norm calculator documentation): 9 rounds, 5 points → p .56 → dp 43 →
    # required Ra = 2449.5 − 43 = 2406.5: Ra 2407 makes the IM norm (Rp 2450), 2406 does not.
    made = [(2407, 1.0)] * 5 + [(2407, 0.0)] * 4
    assert _fields(norms.norm(made, "IM")) == (True, 2450, 2407, 9, 5.0, (), "IM norm (titles and federations not checked)")
    missed = [(2406, 1.0)] * 5 + [(2406, 0.0)] * 4
    assert _fields(norms.norm(missed, "IM")) == (
        False, 2449, 2406, 9, 5.0, ("performance 2449 < 2450",),
        "no IM norm: performance 2449 < 2450")


def test_only_the_single_lowest_opponent_is_raised_to_the_floor():
    # docs/RULES.md §3.7 (1.4.6 c): opponents 2100 and 2150 below the GM floor 2200: only 2100 is raised.
    games = [(2500, 0.5)] * 7 + [(2100, 1.0), (2150, 1.0)]
    verdict = norms.norm(games, "GM")
    # Ra = (7×2500 + 2200 + 2150) / 9 = 2427.78 → 2428; p = 5.5/9 = 61.1 % → 61 → dp 80.
    assert (verdict.average, verdict.performance) == (2428, 2508)
    assert verdict.reasons == ("performance 2508 < 2600",)


def test_unrated_opponents_count_1400_and_the_lowest_is_raised():
    # docs/RULES.md §3.7 (1.4.6 d): unrated count as 1400; as the lowest, one is raised to the floor.
    games = [(2450, 0.5)] * 7 + [(None, 1.0), (None, 1.0)]
    verdict = norms.norm(games, "IM")
    # Ra = (7×2450 + 2050 + 1400) / 9 = 2288.89 → 2289; p = 5.5/9 → 61 % → dp 80 → 2369.
    assert (verdict.average, verdict.performance, verdict.games, verdict.score) == (2289, 2369, 9, 5.5)
    assert verdict.text == "no IM norm: performance 2369 < 2450"


def test_every_failed_condition_is_listed():
    # docs/RULES.md §3.7: Rp, Ra, at least 9 games, at least 35 % — all failures, '; '-joined.
    games = [(2200, 1.0), (2200, 0.5)] + [(2200, 0.0)] * 6
    verdict = norms.norm(games, "GM")
    # Ra 2200, p 1.5/8 = 18.75 % → 19 % → dp −251 → Rp 1949.
    assert _fields(verdict) == (
        False, 1949, 2200, 8, 1.5,
        ("performance 1949 < 2600", "average 2200 < 2380", "8 games < 9", "score 19 % < 35 %"),
        "no GM norm: performance 1949 < 2600; average 2200 < 2380; 8 games < 9; "
        "score 19 % < 35 %")


@pytest.mark.parametrize("title, floor, performance, average", [
    # docs/RULES.md §3.7: floors GM 2200 / IM 2050 / WGM 2000 / WIM 1850; Rp GM 2600 / IM 2450 /
    # WGM 2400 / WIM 2250; Ra GM 2380 / IM 2230 / WGM 2180 / WIM 2030.
    ("GM", 2200, 2600, 2380), ("IM", 2050, 2450, 2230),
    ("WGM", 2000, 2400, 2180), ("WIM", 1850, 2250, 2030),
])
def test_thresholds_for_every_title(title, floor, performance, average):
    # 9 draws at exactly the minimum average give Rp = Ra: the average rule is met exactly,
    # the performance rule fails by its distance from the minimum.
    at_minimum = [(average, 0.5)] * 9
    verdict = norms.norm(at_minimum, title)
    assert verdict.average == average and verdict.performance == average
    assert verdict.reasons == (f"performance {average} < {performance}",)
    one_below = [(average, 0.5)] * 8 + [(floor - 100, 0.5)]
    # The low opponent is raised to the floor: Ra = (8 × average + floor) / 9.
    raised = norms.norm(one_below, title)
    assert raised.average == int((8 * average + floor) / 9 + 0.5)
    strong = [(performance, 0.5)] * 9
    assert norms.norm(strong, title).text == f"{title} norm (titles and federations not checked)"


def test_35_percent_uses_the_rounded_percentage():
    # docs/RULES.md §3.7 with Title Regs 1.4.9: percentages rounded half-up: 4.5/13 = 34.6 % → 35 %.
    games = [(2700, 1.0)] * 4 + [(2700, 0.5)] + [(2700, 0.0)] * 8
    assert not any("score" in r for r in norms.norm(games, "GM").reasons)
    games = [(2700, 1.0)] * 4 + [(2700, 0.0)] * 9
    assert "score 31 % < 35 %" in norms.norm(games, "GM").reasons


def test_title_composition():
    # docs/RULES.md §3.7: ≥ 50 % title-holders (not CM/WCM), ≥ 1/3 and ≥ 3 of the title sought or higher.
    good = ["GM", "GM", "GM", "IM", "FM", None, None, "CM", "WCM"]
    assert norms.norm([(2600, 0.5)] * 9, "GM", opponent_titles=good).achieved
    few = ["GM", "GM", "IM", "IM", None, None, "CM", "WCM", "cm"]
    verdict = norms.norm([(2600, 0.5)] * 9, "GM", opponent_titles=few)
    assert verdict.reasons == ("title-holders 4 of 9 < 50 %", "GM opponents 2 < 3",
                               "GM opponents 2 of 9 < 1/3")
    # IM norm: GMs and IMs both count as "the title sought or higher".
    assert norms.norm([(2450, 0.5)] * 9, "IM", opponent_titles=few).reasons == (
        "title-holders 4 of 9 < 50 %",)
    # 3 GMs among 12 opponents: at least 3 but fewer than 1/3 (4).
    twelve = ["GM"] * 3 + ["IM"] * 9
    assert norms.norm([(2600, 0.5)] * 12, "GM", opponent_titles=twelve).reasons == (
        "GM opponents 3 of 12 < 1/3",)


def test_a_norm_says_which_composition_checks_were_not_made():
    # Title Regulations 1.4.3-1.4.5 need the opponents' titles and federations; without
    # them only the rating conditions are judged, and the verdict says so.
    games = [(2600, 0.5)] * 9
    titles = ["GM"] * 3 + ["IM"] * 3 + ["FM"] * 3
    feds = ["GER"] * 3 + ["FRA"] * 3 + ["ESP"] * 3
    assert norms.norm(games, "GM").text == "GM norm (titles and federations not checked)"
    assert norms.norm(games, "GM", opponent_titles=titles).text == "GM norm (federations not checked)"
    assert norms.norm(games, "GM", opponent_federations=feds).text == (
        "GM norm (titles and own federation not checked)")
    assert norms.norm(games, "GM", titles, feds).text == "GM norm (own federation not checked)"
    assert norms.norm(games, "GM", titles, feds, "NED").text == "GM norm"
    # A failure is a failure whatever was not checked.
    assert norms.norm([(2400, 0.5)] * 9, "GM").text == "no GM norm: performance 2400 < 2600"


def test_federation_composition():
    # docs/RULES.md §3.7: ≤ 3/5 from own federation, ≤ 2/3 from one federation, ≥ 2 other federations.
    games = [(2600, 0.5)] * 9
    mixed = ["GER"] * 5 + ["FRA"] * 2 + ["ESP"] * 2
    assert norms.norm(games, "GM", opponent_federations=mixed, federation="ger").achieved
    home = ["GER"] * 6 + ["FRA"] * 2 + ["ESP"]
    assert norms.norm(games, "GM", opponent_federations=home, federation="GER").reasons == (
        "own federation 6 of 9 > 3/5",)
    one_foreign = ["FRA"] * 7 + ["GER"] * 2
    assert norms.norm(games, "GM", opponent_federations=one_foreign, federation="GER").reasons == (
        "other federations 1 < 2", "federation FRA 7 of 9 > 2/3")
    # Without the player's federation only the 2/3 rule can be judged.
    assert norms.norm(games, "GM", opponent_federations=one_foreign).reasons == (
        "federation FRA 7 of 9 > 2/3",)


def test_no_games():
    # results.NO_GAMES: nothing played yet is not an error.
    assert norms.norm([], "IM") is NO_GAMES


@pytest.mark.parametrize("call, argument", [
    (lambda: norms.norm([(2500, 0.5)] * 9, "FM"), "title"),
    (lambda: norms.norm([(2500, 0.5)] * 9, None), "title"),
    (lambda: norms.norm([(float("nan"), 0.5)] * 9), "games opponent"),
    (lambda: norms.norm([(2500, 2)] * 9), "games score"),
    (lambda: norms.norm([(2500, 0.5)] * 9, opponent_titles=["GM"] * 8), "opponent_titles"),
    (lambda: norms.norm([(2500, 0.5)] * 9, opponent_titles=["XX"] * 9), "opponent_titles"),
    (lambda: norms.norm([(2500, 0.5)] * 9, opponent_federations=[1] * 9), "opponent_federations"),
])
def test_bad_input_names_the_argument(call, argument):
    # README, "Quiet and errors": one RatingError with a one-line message naming the argument.
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value).startswith(argument + ":")


@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(1500, 2800)),
                          st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=13),
       st.sampled_from(norms.TITLES))
def test_verdict_is_consistent(games, title):
    # NormVerdict contract: achieved exactly when nothing failed; text says which.
    verdict = norms.norm(games, title)
    assert verdict.achieved == (verdict.reasons == ())
    assert verdict.games == len(games)
    assert verdict.score == sum(s for _, s in games)
    if verdict.achieved:
        assert verdict.text == f"{title} norm (titles and federations not checked)"
    else:
        assert verdict.text == f"no {title} norm: " + "; ".join(verdict.reasons)
