"""TIEBREAK and TIEBREAK_RANK called as Excel calls them: classic xlwings (plain calls,
``None`` for blanks) and Office.js (xlwings Lite/Server, through xlwings' own
``custom_functions_call`` in a subprocess, blanks sent as 0 and as null).

The values are FIDE's worked exercises (tests/data/tiebreak, see test_tiebreaks_held.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chessrating import RatingError
from chessrating.tiebreaks import tiebreak
from chessrating.tiebreaks.event import from_rounds
from chessrating.udfs import TIEBREAK, TIEBREAK_RANK
from chessrating.lite import embedded as lite_code
from test_tiebreaks_held import read_trf

OPPONENTS, RESULTS, COLOURS, RATINGS, POINTS = read_trf("held_swiss_5.trf")
# Held, exercises 12 and 4 (2024 edition), 20, 27: SB, BH, TPR, WIN of the 16 players.
SB_2024 = [8.0, 9.5, 10.5, 9.75, 4.25, 6.5, 3.25, 5.25, 2.25, 1.5, 5.75, 4.0, 4.25, 4.5, 3.5, 7.25]
SB_2026 = [8.0, 9.5, 10.5, 9.25, 4.25, 6.0, 3.25, 5.25, 2.25, 1.5, 4.75, 4.0, 4.25, 4.5, 3.5, 7.25]
TPR = [1969, 2120, 2089, 2081, 1690, 1813, 1611, 1730, 1175, 1640, 1776, 1250, 1781, 1925, 1788, 1969]
RR_OPPONENTS, RR_RESULTS, RR_COLOURS, _, RR_POINTS = read_trf("held_round_robin.trf")


def _column(values: list) -> list[list]:
    return [[v] for v in values]


def test_a_swiss_gives_a_column_per_player_in_both_editions() -> None:
    assert TIEBREAK("SB", OPPONENTS, RESULTS) == _column(SB_2026)
    assert TIEBREAK("sb", OPPONENTS, RESULTS, COLOURS, "2024") == _column(SB_2024)
    assert TIEBREAK("TPR", OPPONENTS, RESULTS, None, 2026.0, _column(RATINGS)) == _column(TPR)
    assert TIEBREAK("BH-C1", OPPONENTS, RESULTS, None, "2024")[4] == [7.5]      # exercise 5
    assert TIEBREAK("BPG", OPPONENTS, RESULTS, COLOURS)[6] == [3]               # exercise 29


def test_a_round_robin_grid_when_opponents_are_blank() -> None:
    """Held's round robin as a 6×6 grid: SB (exercise 14) and DE ranks (exercise 26)."""
    grid = [[None] * 6 for _ in range(6)]
    colours = [[None] * 6 for _ in range(6)]
    for i in range(6):
        for r in range(5):
            j = RR_OPPONENTS[i][r] - 1
            grid[i][j], colours[i][j] = RR_RESULTS[i][r], RR_COLOURS[i][r]
    assert TIEBREAK("SB", None, grid) == _column([9.25, 6.25, 6.25, 4.25, 3.25, 2.25])
    de = TIEBREAK("DE", [[None] * 6] * 6, grid, colours)
    assert TIEBREAK_RANK(_column(RR_POINTS), de) == _column([1, 2, 2, 6, 5, 4])
    assert TIEBREAK("BPG", None, grid, colours) == TIEBREAK("BPG", RR_OPPONENTS, RR_RESULTS, RR_COLOURS)


def test_a_range_of_codes_applies_direct_encounter_to_the_players_still_tied() -> None:
    """SB separates both pairs on equal points (1 and 3, 2 and 4), so DE after SB has no one
    left to compare; DE alone puts the winner of each pair first."""
    grid = [[None, "0", "1", "0"], ["1", None, "0", "1"], ["0", "1", None, "0"], ["1", "0", "1", None]]
    assert TIEBREAK("DE", None, grid) == _column([1, 1, 0, 0])
    assert TIEBREAK([["SB", "DE"]], None, grid) == _column([0, 0, 0, 0])
    assert TIEBREAK([["SB"], [None]], None, grid) == TIEBREAK("SB", None, grid)
    with pytest.raises(RatingError, match=r"^code: the cell holds the Excel error #N/A \(item 2\)$"):
        TIEBREAK([["SB", "#N/A"]], None, grid)


def test_a_refused_rating_stops_only_the_values_resting_on_it() -> None:
    """Held's Swiss with player 5's rating typed as 10 (a junior list's figure): the TPR of
    each of 5's opponents gives the refusal; every other player keeps exercise 20's TPR,
    and a code that reads no rating never looks at them (a typo there changes nothing)."""
    ratings = _column(RATINGS)
    ratings[4] = [10.0]
    met = {i for i in range(16) if 5 in OPPONENTS[i]}
    column = TIEBREAK("TPR", OPPONENTS, RESULTS, None, "2026", ratings)
    for i in range(16):
        expected = "ratings: 10 is not a rating from 100 to 4000 (player 5)" if i in met else TPR[i]
        assert column[i] == [expected], i + 1
    assert len(met) == 5 and TPR[4] == column[4][0]  # 5's own TPR rests on the others' ratings
    assert TIEBREAK("SB", OPPONENTS, RESULTS, COLOURS, "2026", ratings) == _column(SB_2026)
    assert TIEBREAK("SB", OPPONENTS, RESULTS, [["Red"] * 5] * 16) == _column(SB_2026)
    # a reason another cell gave in place of a rating stands as it is
    ratings[4] = ["check rating of player 5 (Eve)"]
    assert TIEBREAK("TPR", OPPONENTS, RESULTS, None, "2026", ratings)[min(met)] == ["check rating of player 5 (Eve)"]


def test_colours_typed_as_words_and_a_reason_in_their_place() -> None:
    """White and Black in any case read as W and B; a reason a crosstable shows in place of
    a colour (its row's Check says why) is no colour, which the opponent's side then gives."""
    words = [[{"W": " white", "B": "BLACK"}.get(c, c) for c in row] for row in COLOURS]
    assert TIEBREAK("BPG", OPPONENTS, RESULTS, words) == TIEBREAK("BPG", OPPONENTS, RESULTS, COLOURS)
    reasons = [list(row) for row in COLOURS]
    reasons[6][0] = "check colour of round 1: X is not W or B"
    assert TIEBREAK("BPG", OPPONENTS, RESULTS, reasons)[6] == [3]  # exercise 29, from the opponent's row


@pytest.mark.parametrize("players, rounds", [(3, 2), (3, 3)])
def test_a_bye_entered_before_any_pairing_is_a_round_not_a_grid(players, rounds) -> None:
    """Round 1 of a Swiss before its pairings: no opponent anywhere, one player's
    half-point bye. Not a round-robin grid (a grid holds no bye), square or not."""
    results = [[None] * rounds for _ in range(players)]
    results[1][0] = "H"
    blank = [[None] * rounds for _ in range(players)]
    as_rounds = from_rounds(blank, results)
    assert [r.kind for r in as_rounds.records[1]] == ["half-point bye"]
    for code in ("BH", "SB", "REP"):
        assert TIEBREAK(code, blank, results) == _column(tiebreak(code, as_rounds)), code


def test_rank_by_points_then_each_column() -> None:
    assert TIEBREAK_RANK([3, 3, 2, 3], [[1, 5], [1, 5], [9, 9], [1, 4]]) == [[1], [1], [4], [3]]
    assert TIEBREAK_RANK([[1], [1]], None) == [[1], [1]]
    # an empty tie-break cell (a player without a value) ranks below every number
    assert TIEBREAK_RANK([1, 1], [[""], [0]]) == [[2], [1]]


@pytest.mark.parametrize("call, message", [
    (lambda: TIEBREAK("BX", [[2], [1]], [["1"], ["0"]]),
     r"^code: 'BX' is not a tie-break; known: DE, WIN, .*, BLACKS$"),
    (lambda: TIEBREAK("BH/C3", [[2], [1]], [["1"], ["0"]]),
     r"^code: 'BH/C3' has a modifier BH does not take; BH takes C1, C2, M1, M2$"),
    (lambda: TIEBREAK("BH", [[2, 2], [1, 1]], [["1", "½"], ["0", "1"]]),
     r"^results: player 1 has '½' against 2 in round 2 but player 2 has '1'; the two sides disagree$"),
    (lambda: TIEBREAK("BH", [[2], [3], [1]], [["1"], ["0"], [None]]),
     r"^opponents: player 1 meets 2 in round 1 but player 2 meets 3$"),
    (lambda: TIEBREAK("BH", [[2], [1]], [["1"], ["q"]]),
     r"^results: 'q' is not a game result \(player 2, round 1\)$"),
    (lambda: TIEBREAK("BH", [[2], [1]], [["1"], ["0"]], None, "2023"),
     r"^rules: '2023' is not one of 2026, 2024$"),
    (lambda: TIEBREAK("ARO", [[2], [1]], [["1"], ["0"]]), r"^ratings: ARO needs the players' ratings$"),
    (lambda: TIEBREAK("PS", None, [[None, "1"], ["0", None]]), r"^code: PS needs the rounds in order"),
    (lambda: TIEBREAK("BH", None, [["1", "0", "1"]]), r"^opponents: blank, so results must be a square"),
    (lambda: TIEBREAK_RANK([1, 2], [[1]]), r"^tiebreaks: 1 rows but points has 2; one row per player$"),
])
def test_bad_input_gives_one_line_errors(call, message) -> None:
    with pytest.raises(RatingError, match=message):
        call()


def test_a_swiss_with_byes_and_no_game_yet_is_read_by_rounds() -> None:
    """Byes typed before the first pairing: the opponents' range holds no number, the
    results are not square; each player has his bye's points, no opponent's."""
    opponents = [[None, None, None]] * 3 + [[0, 0, 0]]   # Office.js hands empty cells as 0
    results = [["H", None, None], ["Z", None, None], [None, None, None], ["B", None, None]]
    assert TIEBREAK("WIN", opponents, results) == [[0], [0], [0], [1]]
    # REP (C.07 7.6): round 1 is played (it holds results), so the blank row is an absence
    assert TIEBREAK("REP", opponents, results) == [[0], [0], [0], [1]]
    with pytest.raises(RatingError, match="^opponents: blank, so results must be a square"):
        TIEBREAK("REP", None, results)


def test_lite_copies_carry_the_tie_break_modules() -> None:
    carried = lite_code.embedded_sources()
    for module in ("__init__", "dispatch", "event", "fide", "uscf"):
        assert f"chessrating/tiebreaks/{module}.py" in carried


# ---------------------------------------------------------------- Office.js, through xlwings itself

def _zeros(block: list[list]) -> list[list]:
    return [[0 if v is None else v for v in row] for row in block]


@pytest.fixture(scope="module")
def office_js() -> dict:
    calls = {
        "sb_null": ("TIEBREAK", [[["SB"]], OPPONENTS, RESULTS, None, [["2024"]], None]),
        "sb_zero": ("TIEBREAK", [[["SB"]], _zeros(OPPONENTS), _zeros(RESULTS), _zeros(COLOURS), [[0]],
                                 [[0]] * 16]),
        "tpr": ("TIEBREAK", [[["TPR"]], _zeros(OPPONENTS), _zeros(RESULTS), None, None, _column(RATINGS)]),
        # a loss typed as 0 reads as a blank under Office.js and counts from the winner's side
        "one_sided": ("TIEBREAK", [[["WON"]], [[2], [1]], [[1], [0]], None, None, None]),
        "rank": ("TIEBREAK_RANK", [_column(POINTS), _column(SB_2024)]),
        "bad_code": ("TIEBREAK", [[["XX"]], OPPONENTS, RESULTS, None, None, None]),
    }
    # the package of this checkout, whatever an installed copy points at
    addin = str(Path(__file__).resolve().parents[2] / "addin")
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial",
               PYTHONPATH=os.pathsep.join([addin] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    driver = Path(__file__).with_name("officejs_driver.py")
    request = [{"func": f, "args": a} for f, a in calls.values()]
    done = subprocess.run([sys.executable, str(driver)], input=json.dumps(request), env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return dict(zip(calls, json.loads(done.stdout)))


def test_office_js_spills_a_column_with_blanks_as_zero_or_null(office_js) -> None:
    assert office_js["sb_null"] == {"value": _column(SB_2024)}
    assert office_js["sb_zero"] == {"value": _column(SB_2026)}
    assert office_js["tpr"] == {"value": _column(TPR)}
    assert office_js["one_sided"] == {"value": [[1], [0]]}
    ranks = [row[0] for row in office_js["rank"]["value"]]
    # Bruno (2) alone on 4.0, then the four on 3.5 by SB: Charline (3) 10.5, David (4) 9.75,
    # Alyx (1) 8.0, Stephan (16) 7.25; Franck (6) alone on 3.0
    assert [ranks[i - 1] for i in (2, 3, 4, 1, 16, 6)] == [1, 2, 3, 4, 5, 6]


def test_office_js_errors_are_one_line_xlwings_errors(office_js) -> None:
    assert office_js["bad_code"]["error"] == "XlwingsError"
    assert office_js["bad_code"]["message"].startswith("code: 'XX' is not a tie-break; known: DE")


def test_a_reason_in_place_of_points_leaves_the_others_ranked():
    # A crosstable shows a contradicted player's reason instead of his points: the other
    # players are still ranked, that row last; an Excel error is refused.
    reason = "check round 3: player 1 (A) and player 2 (B) have 1 and 1"
    assert TIEBREAK_RANK([2.0, reason, 3.0, 2.0], [[1.0], [5.0], [0.0], [0.5]]) == [[2], [4], [1], [3]]
    with pytest.raises(RatingError, match="#N/A"):
        TIEBREAK_RANK([2.0, "#N/A"], None)
