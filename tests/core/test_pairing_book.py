"""A Swiss workbook's round paired from its named ranges' values (chessrating.pairing.book).

The values are those the FIDE Swiss template's names hold (Names, Ratings, RoundInputs and
the pairing settings), built here from an event gacrux's own random tournament generator
paired (tests/gacrux_events.py): each round's cells as :func:`round_cells` writes them,
read back, must be the file's round. The workbooks themselves are in
tests/integration/test_pair_cli.py.
"""

from __future__ import annotations

import copy

import pytest
from gacrux_events import before_round, file_round, generated_trf

from chessrating.errors import RatingError
from chessrating.pairing import apply_pairing, pair_round
from chessrating.pairing.book import (
    ROUND_INPUTS, PairingRefused, book_kind, pair_event, pairing_lines, read_event,
    result_code, round_cells, round_robin_refusal, USCF_REFUSAL,
)
from chessrating.trf import parse_trf
from chessrating.tournament import Player, Tournament, cell_result

COLUMNS = 11  # the template's round columns


def values_of(t: Tournament, rows: int = 40, **settings) -> dict:
    """The named ranges' values of a Swiss template of ``rows`` rows filled with ``t``, as
    a director types them (1 and 0 as numbers, ½ as text)."""
    names = [[None] for _ in range(rows)]
    ratings = [[None] for _ in range(rows)]
    grid = [[None] * (3 * COLUMNS) for _ in range(rows)]
    for p in t.players:
        names[p.number - 1] = [p.name]
        ratings[p.number - 1] = [p.rating]
        for g in p.games:
            c = 3 * (g.round - 1)
            result = cell_result(g.code) or None
            grid[p.number - 1][c:c + 3] = [g.opponent, (g.colour or "").upper() or None,
                                           int(result) if result in ("1", "0") else result]
    out = {"Names": names, "Ratings": ratings, ROUND_INPUTS: grid}
    out.update({name: [[value]] for name, value in settings.items()})
    return out


def written(values: dict, cells: dict) -> dict:
    """``values`` with ``cells`` written in."""
    out = copy.deepcopy(values)
    for (name, row, col), value in cells.items():
        out[name][row][col] = value
    return out


@pytest.fixture(scope="module")
def event_30() -> Tournament:
    """30 players, 7 rounds: half- and zero-point byes, forfeits, pairing-allocated byes."""
    return parse_trf(generated_trf(30, 7, 3))


# ------------------------------------------------------------------ gacrux's own event


def test_every_round_written_into_the_cells_reads_back_as_the_files(event_30):
    colour = event_30.headers["152"][0].strip()
    for r in range(1, 8):
        values = values_of(before_round(event_30, r), PairRounds=7, PairTopColour=colour)
        event = read_event(values)
        pairing = pair_event(event)
        assert pairing.round == r
        cells = round_cells(event.tournament, pairing)
        # three cells for every player, and only the round's own columns
        assert len(cells) == 3 * 30 and {c // 3 for _, _, c in cells} == {r - 1}
        back = read_event(written(values, cells)).tournament
        assert file_round(back, r) == file_round(event_30, r), r
        assert {p.game(r).code for p in back.players if p.game(r).opponent} == {" "}


def test_the_rounds_planned_decide_the_last_rounds(event_30):
    """Planned 7 rounds, the template's 11 columns: the last round pairs as the file did
    only when the workbook says how many rounds there are (C.04.3 treats the last round
    apart); a blank PairRounds means every column."""
    values = values_of(before_round(event_30, 7), PairTopColour="B")
    assert read_event(values).rounds == COLUMNS
    assert read_event({**values, "PairRounds": [[7]]}).rounds == 7
    ours = pair_event(read_event({**values, "PairRounds": [[7]]}))
    assert ours == pair_round(before_round(event_30, 7), 7, top_colour="b")


def test_the_top_board_colour_setting_is_the_round_one_colour():
    values = values_of(Tournament(players=[Player(k, f"P{k}") for k in range(1, 7)]))
    white = pair_event(read_event({**values, "PairTopColour": [["W"]]}))
    black = pair_event(read_event({**values, "PairTopColour": [["b"]]}))
    assert white.boards[0] == (1, 4) and black.boards[0] == (4, 1)


def test_acceleration_and_meets_are_handed_to_the_engine(event_30):
    before = before_round(event_30, 3)
    values = values_of(before, PairRounds=7, PairTopColour="B", PairAcceleration="Baku", PairMaxMeets=2)
    event = read_event(values)
    assert (event.accelerated, event.max_meets) == (True, 2)
    assert pair_event(event) == pair_round(before, 3, top_colour="b", accelerated=True, max_meets=2,
                                           rounds=7)
    assert read_event({**values, "PairAcceleration": [["none"]]}).accelerated is False


# ------------------------------------------------------------------ what the director says


def small_event(rounds_played: int) -> Tournament:
    """Eight players, rounds paired by the engine and every game drawn."""
    t = Tournament(players=[Player(k, f"P{k}") for k in range(1, 9)], rounds=5)
    for r in range(1, rounds_played + 1):
        apply_pairing(t, pair_round(t, top_colour="w"))
        for p in t.players:
            if p.game(r).opponent is not None:
                p.game(r).code = "="
    return t


def test_a_withdrawn_player_and_a_late_entry_are_left_out_with_empty_cells():
    values = values_of(small_event(1), rows=9)
    values["Names"][8] = ["Late"]                         # player 9 enters after round 1
    values["JoinsInRound"] = [[None]] * 8 + [[3]]          # … but plays from round 3
    values["WithdrawnAfter"] = [[None]] * 4 + [[1]] + [[None]] * 4   # player 5 left after round 1
    event = read_event(values)
    assert (event.joins, event.withdrawn_after) == ({9: 3}, {5: 1})
    pairing = pair_event(event)
    assert pairing.round == 2 and dict(pairing.absent) == {5: " ", 9: " "}
    cells = round_cells(event.tournament, pairing)
    assert [cells[(ROUND_INPUTS, 4, 3 + k)] for k in range(3)] == [None, None, None]
    # round 3: the late entry is paired; the withdrawn player still is not
    values = written(values, cells)
    for p in read_event(values).tournament.players:
        if p.game(2).opponent is not None:
            values[ROUND_INPUTS][p.number - 1][5] = "½"
    third = pair_event(read_event(values))
    assert dict(third.absent) == {5: " "} and 9 in {n for board in third.boards for n in board}


def test_a_bye_asked_for_keeps_the_code_typed():
    values = values_of(small_event(1))
    values[ROUND_INPUTS][2][5] = "h"   # player 3, round 2: a half-point bye, lower case
    values[ROUND_INPUTS][6][5] = "-"   # player 7: a zero-point absence written as a forfeit
    event = read_event(values)
    pairing = pair_event(event)
    assert dict(pairing.absent) == {3: "H", 7: "Z"}
    cells = round_cells(event.tournament, pairing)
    assert (cells[(ROUND_INPUTS, 2, 5)], cells[(ROUND_INPUTS, 6, 5)]) == ("H", "-")
    assert "absent: 3 P3 (½): half-point bye (H)" in pairing_lines(event.tournament, pairing)


# ------------------------------------------------------------------ refusals


def test_a_round_waits_for_the_results_of_the_round_before_and_names_the_cells():
    t = small_event(2)
    a = next(p for p in t.players if p.game(2).opponent is not None)
    b = t.player(a.game(2).opponent)
    a.game(2).code = b.game(2).code = " "
    with pytest.raises(PairingRefused) as refused:
        pair_event(read_event(values_of(t)))
    low, high = sorted((a.number, b.number))
    assert str(refused.value) == (f"round 3 cannot be paired: round 2: no result for player {low} "
                                  f"(P{low}) against player {high} (P{high})")
    assert refused.value.findings[0].cells == ((ROUND_INPUTS, low - 1, 5), (ROUND_INPUTS, high - 1, 5))


def test_a_result_on_one_row_only_is_named_from_that_row():
    t = small_event(1)
    a = t.players[0]
    t.player(a.game(1).opponent).game(1).code = " "
    with pytest.raises(PairingRefused) as refused:
        pair_event(read_event(values_of(t)))
    other = a.game(1).opponent
    assert f"player {other} (P{other}) has no result against player 1 (P1)" in str(refused.value)


@pytest.mark.parametrize("change, message", [
    ({(0, 0): "x"}, "player 1 (P1), round 1: opponent 'x' is not another player's number"),
    ({(0, 0): 1}, "player 1 (P1), round 1: opponent '1' is not another player's number"),
    ({(0, 1): "G"}, "player 1 (P1), round 1: colour 'G' is not W or B"),
    ({(0, 2): 2}, "player 1 (P1), round 1: '2' is not a result"),
])
def test_a_cell_that_is_not_an_input_is_named(change, message):
    values = values_of(small_event(1))
    for (row, col), value in change.items():
        values[ROUND_INPUTS][row][col] = value
    with pytest.raises(PairingRefused) as refused:
        read_event(values)
    assert refused.value.findings[0].message == message
    assert refused.value.findings[0].cells == ((ROUND_INPUTS, *next(iter(change))),)


@pytest.mark.parametrize("name, value, message", [
    ("PairRounds", 12, "PairRounds: '12' is not a number of rounds from 1 to 11 (the round columns)"),
    ("PairTopColour", "red", "PairTopColour: 'red' is not W or B"),
    ("PairAcceleration", "Swiss", "PairAcceleration: 'Swiss' is not none or Baku"),
    ("PairMaxMeets", 0, "PairMaxMeets: '0' is not a number of meetings, 1 or more"),
])
def test_a_setting_outside_its_choices_is_named(name, value, message):
    with pytest.raises(PairingRefused) as refused:
        read_event(values_of(small_event(0)) | {name: [[value]]})
    assert refused.value.findings[0].message == message
    assert refused.value.findings[0].cells == ((name, 0, 0),)


def test_which_round_may_be_paired():
    t = small_event(2)
    values = values_of(t, PairRounds=5)
    assert pair_event(read_event(values)).round == 3
    with pytest.raises(PairingRefused, match="round 4: round 3 is not paired yet"):
        pair_event(read_event(values), 4)
    with pytest.raises(PairingRefused, match="round 1: rounds up to 2 are paired"):
        pair_event(read_event(values), 1)
    with pytest.raises(PairingRefused, match=r"round 2 already has results \(player 1 \(P1\): ½\)"):
        pair_event(read_event(values), 2)
    # the last round paired, no result yet: paired again, as the engine pairs it
    for p in t.players:
        p.games[1].code = " "
    again = pair_event(read_event(values_of(t, PairRounds=5)), 2)
    assert again == pair_round(before_round(t, 2), 2, top_colour="w", rounds=5)
    done = values_of(small_event(5), PairRounds=5)
    with pytest.raises(PairingRefused, match="the event has 5 rounds"):
        pair_event(read_event(done))


def test_a_result_without_an_opponent_in_the_round_is_refused():
    values = values_of(small_event(1))
    values[ROUND_INPUTS][3][5] = "+"
    with pytest.raises(PairingRefused, match="player 4 .P4. has \\+ in round 2 with no opponent; "
                                             "a player who sits out a round has H, B or Z"):
        pair_event(read_event(values))


def test_values_as_a_script_inside_excel_reads_them():
    """xlwings hands a one-column range over as a flat list, one cell as a scalar, and
    numbers as floats; opponent 0 is no opponent."""
    t = small_event(1)
    values = values_of(t, rows=8)
    grid = [[float(v) if isinstance(v, int) else v for v in row] for row in values[ROUND_INPUTS]]
    grid[0][3] = 0.0
    flat = {"Names": [row[0] for row in values["Names"]], "Ratings": [None] * 8, ROUND_INPUTS: grid,
            "PairRounds": 5.0, "PairTopColour": "W", "WithdrawnAfter": [None] * 7 + [1.0]}
    event = read_event(flat)
    assert (event.rounds, event.top_colour, event.withdrawn_after) == (5, "w", {8: 1})
    assert [g.opponent for g in event.tournament.player(1).games] == [t.player(1).game(1).opponent]
    assert pair_event(event) == pair_round(t, 2, top_colour="w", withdrawn=[8], rounds=5)


@pytest.mark.parametrize("blank", [None, "", "  "])
def test_blank_cells_read_as_blank_however_they_come(blank):
    """openpyxl and classic xlwings hand an empty cell over as None, Office.js (xlwings
    Lite) as ""; a blank setting is its default (PairMaxMeets blank: once, not 0;
    PairRounds blank: every round column), a blank round cell no game."""
    def blanked(value):
        if isinstance(value, list):
            return [blanked(v) for v in value]
        return blank if value is None else value

    t = small_event(2)
    values = values_of(t, rows=10, PairRounds=None, PairTopColour=None, PairAcceleration=None,
                       PairMaxMeets=None)
    values["Names"][9] = ["Late"]
    values["JoinsInRound"] = [[None]] * 9 + [[3]]
    values["WithdrawnAfter"] = [[None]] * 2 + [[2]] + [[None]] * 7
    event = read_event(blanked(values))
    assert (event.rounds, event.columns, event.max_meets, event.top_colour, event.accelerated) == \
        (COLUMNS, COLUMNS, 1, None, False)
    assert (event.joins, event.withdrawn_after) == ({10: 3}, {3: 2})
    assert [(p.number, len(p.games)) for p in event.tournament.players] == [(n, 2) for n in range(1, 9)] + [(10, 0)]
    assert pair_event(event) == pair_event(read_event(values)) == \
        pair_round(read_event(values).tournament, 3, withdrawn=[3], rounds=COLUMNS)


def test_no_players_and_no_round_columns_are_refused():
    with pytest.raises(PairingRefused, match="no players"):
        read_event({"Names": [[None], [""]], ROUND_INPUTS: [[None] * 3] * 2})
    with pytest.raises(PairingRefused, match="no round columns"):
        read_event({"Names": [["A"], ["B"]]})
    assert isinstance(PairingRefused("x"), RatingError)


# ------------------------------------------------------------------ the other workbooks


def test_which_workbook():
    assert book_kind(["Names", "Ratings", "FideIds", "RoundDates"]) == "swiss"
    assert book_kind(["Names", "FideIds", "GameRounds"]) == "round robin"
    assert book_kind(["Names", "BonusThreshold", "DualRated"]) == "uscf"
    assert "rules 27-29" in USCF_REFUSAL and "gacrux" in USCF_REFUSAL
    text = round_robin_refusal(5)
    assert text.splitlines()[1] == "  round 1: 1 bye, 2-5, 3-4"   # C.05 Annex 1, 6-player table
    assert len(text.splitlines()) == 6


def test_result_codes_read_every_spelling():
    assert [result_code(v) for v in ("1.0", "0,5", "x", "F", "l", " Z ", "", 0)] == \
        ["1", "=", "+", "-", "0", "Z", " ", "0"]
