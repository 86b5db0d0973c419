"""US Chess tie-breaks (rule 34E) against the worked examples that clubs publish with the rule.

Sources: Big Rapids Chess, "Tie Breaks" (bigrapidschess.github.io/_resources/2019-11-13-tie-breaks.md,
citing the Official Rules of Chess, 7th ed., pp. 207-214); Renaissance Knights, "Tiebreak
Rules" (renaissanceknights.org); Youth Enrichment League, "Median Tiebreak"; rule 34E7 as
quoted by libpairtwo's wiki ("4 ... for a win, 2 for a draw, 1 for a loss, and 0 for an
unplayed game").
"""

from __future__ import annotations

import pytest

from chessrating import tiebreaks
from chessrating.tiebreaks.event import from_rounds
from chessrating.tiebreaks.uscf import median_of


@pytest.mark.parametrize("scores, points, rounds, modified, expected", [
    # Big Rapids, modified median example 1: Adam and Barbara, 4/5, both 12.5
    ([1, 2, 3, 3.5, 4], 4, 5, True, 12.5),
    ([2, 2.5, 3, 3, 4], 4, 5, True, 12.5),
    # example 2: Calvin 7/7 (the 6-point opponent had a bye: 5.5) 25, Debrah 27
    ([2, 2, 3.5, 4, 5, 5, 5.5], 7, 7, True, 25),
    ([1, 2.5, 4, 4, 5, 5.5, 6], 7, 7, True, 27),
    # Youth Enrichment League: A 0,3,3,4,5 and B 3,2,5,3,3, both 4/5
    ([0, 3, 3, 4, 5], 4, 5, True, 15), ([3, 2, 5, 3, 3], 4, 5, True, 14),
    ([0, 3, 3, 4, 5], 4, 5, False, 10), ([3, 2, 5, 3, 3], 4, 5, False, 9),
])
def test_medians_of_the_published_examples(scores, points, rounds, modified, expected) -> None:
    assert median_of(scores, points, rounds, modified) == expected


def test_modified_median_drops_by_the_sign_of_the_score_and_two_from_nine_rounds() -> None:
    scores = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert median_of(scores, 6, 9, True) == sum(scores) - 1 - 2      # plus: the two lowest
    assert median_of(scores, 3, 9, True) == sum(scores) - 9 - 8      # minus: the two highest
    assert median_of(scores, 4.5, 9, True) == sum(scores) - 1 - 2 - 8 - 9


def _one_sided(rows: list[list[tuple[int | None, str]]], players: int) -> tuple[list, list]:
    """Opponents and results with only the listed players' rows filled in."""
    width = len(rows[0])
    opponents = [[None] * width for _ in range(players)]
    results = [[None] * width for _ in range(players)]
    for i, row in enumerate(rows):
        for r, (opponent, result) in enumerate(row):
            opponents[i][r], results[i][r] = opponent, result
    return opponents, results


def test_cumulative_of_the_published_examples() -> None:
    # Big Rapids: Jennifer bye, win, loss, win, win: 11; Kelly win, win, loss, win, win: 12.
    # Renaissance Knights: bye, win, loss, draw, win: 1+2+2+2.5+3.5-1 = 10.
    opponents, results = _one_sided([
        [(None, "B"), (4, "1"), (5, "0"), (6, "1"), (7, "1")],
        [(8, "1"), (9, "1"), (10, "0"), (11, "1"), (12, "1")],
        [(None, "B"), (13, "1"), (14, "0"), (15, "½"), (16, "1")],
    ], 16)
    event = from_rounds(opponents, results)
    assert tiebreaks.tiebreak("CUMULATIVE", event)[:3] == [11, 12, 10]
    # Big Rapids: George 1, ½, 1 gives 5; Helen ½, 1, 1 gives 4.5.
    opponents, results = _one_sided([[(3, "1"), (4, "½"), (5, "1")], [(6, "½"), (7, "1"), (8, "1")]], 8)
    assert tiebreaks.tiebreak("cum", from_rounds(opponents, results))[:2] == [5, 4.5]


def test_an_opponents_unplayed_round_counts_as_a_draw_and_ones_own_as_zero() -> None:
    # Big Rapids Solkoff example 2: an opponent's full-point bye counts ½ instead of 1.
    # Player 1 beat 2 in round 1 and had a bye in round 2; player 2 had a bye in round 2.
    opponents = [[2, None], [1, None]]
    results = [["1", "B"], ["0", "B"]]
    event = from_rounds(opponents, results)
    assert tiebreaks.tiebreak("SOLKOFF", event) == [0.5, 1.5]
    assert tiebreaks.tiebreak("MODMED", event) == [0.5, 0.0]   # 2 of 2 drops the 0; 1 of 2 both


def test_kashdan_most_blacks_and_opposition_cumulative() -> None:
    opponents = [[2, 3, 4, None], [1, 4, 3, None], [4, 1, 2, None], [3, 2, 1, None]]
    results = [["1", "½", "0", "+"], ["0", "1", "1", "B"], ["½", "½", "0", "H"], ["½", "0", "1", "-"]]
    colours = [["W", "B", "B", None], ["B", "W", "W", None], ["W", "W", "B", None], ["B", "B", "W", None]]
    event = from_rounds(opponents, results, colours)
    assert tiebreaks.tiebreak("KASHDAN", event) == [4 + 2 + 1, 1 + 4 + 4, 2 + 2 + 1, 2 + 1 + 4]
    assert tiebreaks.tiebreak("BLACKS", event) == [2, 1, 1, 2]
    cumulative = tiebreaks.tiebreak("CUMULATIVE", event)
    assert tiebreaks.tiebreak("OPPCUM", event)[0] == cumulative[1] + cumulative[2] + cumulative[3]


def test_defaults_are_known_codes() -> None:
    for code in tiebreaks.USCF_DEFAULTS + tiebreaks.FIDE_SWISS_DEFAULTS + tiebreaks.FIDE_ROUND_ROBIN_DEFAULTS:
        tiebreaks.parse_code(code)
