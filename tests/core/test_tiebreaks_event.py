"""How a crosstable is read for the tie-breaks (docs/RULES.md §6.1): one-sided entries,
forfeits, byes, absences, games not yet played, and what is refused."""

from __future__ import annotations

import pytest

from chessrating import RatingError, tiebreaks
from chessrating.tiebreaks.event import (
    ABSENT, FORFEIT_LOSS, FORFEIT_WIN, FULL_BYE, HALF_BYE, PLAYED, ZERO_BYE, from_grid, from_rounds,
)


def kinds(event) -> list[list[str | None]]:
    return [[None if r is None else r.kind for r in rec] for rec in event.records]


def test_a_game_entered_by_one_side_reads_for_both() -> None:
    event = from_rounds([[2], [None]], [["½"], [None]], [["B"], [None]])
    assert [(r.kind, r.points, r.opponent, r.black) for r in (event.records[0][0], event.records[1][0])] == [
        (PLAYED, 0.5, 1, True), (PLAYED, 0.5, 0, False)]


def test_forfeits_byes_and_absences() -> None:
    opponents = [[2, None, 3], [1, 3, None], [None, 2, 1], [None, None, None]]
    results = [["+", "H", "-"], [None, "1", "B"], ["Z", "0", "-"], ["U", None, None]]
    event = from_rounds(opponents, results)
    assert kinds(event) == [[FORFEIT_WIN, HALF_BYE, FORFEIT_LOSS], [FORFEIT_LOSS, PLAYED, FULL_BYE],
                            [ZERO_BYE, PLAYED, FORFEIT_LOSS], [FULL_BYE, ABSENT, ABSENT]]
    # a double forfeit gives no one a point; the absences are zero-point byes for REP (7.6)
    assert tiebreaks.tiebreak("REP", event) == [1, 2, 1, 1]
    assert tiebreaks.tiebreak("WIN", event) == [1, 2, 0, 1]


def test_a_game_lost_by_both_is_a_game_played_without_points() -> None:
    # FIDE Laws 11.8: the arbiter declares the game of 1 and 2 lost by both (docs/RULES.md
    # §1.3). Round 1: 1-2 0-0, 3-4 1-0; round 2: 1-3 ½-½, 2-4 1-0. Scores 0.5, 1, 1.5, 0.
    event = from_rounds([[2, 3], [1, 4], [4, 1], [3, 2]], [["0", "½"], ["0", "1"], ["1", "½"], ["0", "0"]])
    assert [(r.kind, r.points, r.opponent) for r in (event.records[0][0], event.records[1][0])] == [
        (PLAYED, 0.0, 1), (PLAYED, 0.0, 0)]
    # C.07 8.1, 9.1, no unplayed round: BH1 = 1 + 1.5, SB1 = 0 × 1 + ½ × 1.5, SB2 = 0 × 0.5 + 1 × 0
    assert tiebreaks.tiebreak("BH", event) == [2.5, 0.5, 0.5, 2.5]
    assert tiebreaks.tiebreak("SB", event) == [0.75, 0.0, 0.25, 0.0]
    assert tiebreaks.tiebreak("REP", event) == [2, 2, 2, 2]  # a game played, no unplayed round
    grid = from_grid([[None, "0"], ["0", None]])
    assert [(r.kind, r.points) for row in grid.records for r in row] == [(PLAYED, 0.0), (PLAYED, 0.0)]
    with pytest.raises(RatingError, match="the two sides disagree"):
        from_rounds([[2], [1]], [["0"], ["-"]])  # a loss against a forfeit loss is no game


def test_rounds_nobody_has_entered_are_not_played_yet_and_a_paired_game_waits() -> None:
    event = from_rounds([[2, 2, None], [1, 1, None]], [["1", None, None], ["0", None, None]])
    assert event.rounds == 2 and kinds(event) == [[PLAYED, None], [PLAYED, None]]
    assert tiebreaks.tiebreak("PS", event) == [1.0, 0.0]


def test_round_robin_is_told_by_the_pairings() -> None:
    three = from_rounds([[2, 3], [1, None], [None, 1]], [["1", "½"], ["0", "U"], ["U", "½"]])
    assert not three.round_robin   # 2 and 3 never meet
    full = from_rounds([[2, 3, None], [1, None, 3], [None, 1, 2]], [["1", "½", None], ["0", None, "1"], [None, "½", "0"]])
    assert full.round_robin and from_grid([[None, "1"], ["0", None]]).round_robin


@pytest.mark.parametrize("opponents, results, message", [
    ([[2], [1]], [["+"], ["+"]], r"^results: player 1 has '\+' against 2 in round 1 but player 2 has '\+'; "
                                 r"the two sides disagree$"),
    ([[2], [1]], [["1"], [None]], None),
    ([[2], [None]], [["H"], [None]], r"^results: 'H' is a bye but player 1 meets 2 in round 1$"),
    ([[None], [None]], [["1"], [None]], r"^results: '1' has no opponent \(player 1, round 1\); a bye is U, B, H or Z$"),
    ([[2], [2]], [["1"], ["0"]], r"^opponents: player 2 is paired against himself \(player 2, round 1\)$"),
    ([[3], [3], [None]], [["1"], ["1"], [None]], r"^opponents: player 2 is paired twice|^opponents: player 1 is paired twice"),
    ([[2.5], [None]], [["1"], [None]], r"^opponents: 2.5 is not a player number \(player 1, round 1\)$"),
    ([[9], [None]], [["1"], [None]], r"^opponents: 9 is not a player number 1 to 2 \(player 1, round 1\)$"),
])
def test_what_is_refused(opponents, results, message) -> None:
    if message is None:
        from_rounds(opponents, results)
        return
    with pytest.raises(RatingError, match=message):
        from_rounds(opponents, results)


def test_a_grid_refuses_a_filled_diagonal_and_disagreeing_sides() -> None:
    with pytest.raises(RatingError, match=r"^results: the diagonal cell row 1, column 1 holds '1'; it must be blank$"):
        from_grid([["1", None], [None, None]])
    with pytest.raises(RatingError, match=r"^results: row 1, column 2 holds '1' but row 2, column 1 holds '½'"):
        from_grid([[None, "1"], ["½", None]])
    with pytest.raises(RatingError, match=r"^colours: 'G' is not W or B \(row 1, column 2\)$"):
        from_grid([[None, "1"], [None, None]], [[None, "G"], [None, None]])


def test_ratings_one_per_player() -> None:
    with pytest.raises(RatingError, match=r"^ratings: 1 cells but results has 2 rows; one rating per player$"):
        from_grid([[None, "1"], [None, None]]).with_ratings([2000.0])
