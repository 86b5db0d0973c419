"""A FIDE Swiss crosstable's cells read into the model, paired, and the round written back
(chessrating.pairing.cells): what the script "Pair next round" does inside Excel.

The crosstables here hold what the Swiss template holds (its headers, and each round's
cells as :meth:`Tournament.round_cells` gives them, which the template builder writes).
The oracle is :func:`chessrating.pairing.pair_round` on the tournament model itself, whose
pairings tests/core/test_pairing.py holds to gacrux's own.
"""

from __future__ import annotations

import pytest
from gacrux_events import before_round, file_round, generated_trf

from chessrating.errors import RatingError
from chessrating.pairing import pair_round
from chessrating.pairing.cells import pair_next, pairing_lines, read_swiss, round_columns
from chessrating.tournament import Player, RoundGame, Tournament
from chessrating.trf import parse_trf

PLAYER_HEADERS = ["No.", "Name", "Title", "Fed", "Rating", "Rated games", "Birth year", "Peak", "K list", "K"]


def crosstable(t: Tournament, rounds: int | None = None, blank: object = None) -> list[list[object]]:
    """The crosstable's rows from the header rows on, as the Swiss template lays them out;
    ``blank`` is what an empty cell reads as (Office.js sends "")."""
    rounds = t.rounds if rounds is None else rounds
    cells = t.round_cells()
    top = PLAYER_HEADERS + [v for r in range(rounds) for v in (f"Round {r + 1}", blank, blank)] + ["Points"]
    under = [blank] * len(PLAYER_HEADERS) + ["Opp", "Col", "Res"] * rounds + [blank]
    rows = [top, under]
    for i in range(len(cells.opponents)):
        p = t.player(i + 1)
        row = [i + 1, p.name if p else blank, blank, blank, (p.rating or blank) if p else blank] + [blank] * 5
        for r in range(rounds):
            values = [cells.opponents[i][r], cells.colours[i][r], cells.results[i][r]] if r < len(cells.opponents[i]) \
                else [None, None, None]
            row += [blank if v is None else v for v in values]
        rows.append(row + [blank])
    return rows


def field(n: int, rounds: int) -> Tournament:
    return Tournament(players=[Player(k, f"Player {k}", rating=2400 - 10 * k) for k in range(1, n + 1)],
                      rounds=rounds)


# ------------------------------------------------------------------ the round paired


@pytest.mark.parametrize("fileno, r", [(5, 2), (5, 4), (6, 3), (6, 5)])
def test_a_generated_event_is_paired_as_the_model_pairs_it(fileno, r):
    event = parse_trf(generated_trf(20, 5, fileno))
    before = before_round(event, r)
    rows = crosstable(before, event.rounds, blank="")
    swiss = read_swiss(rows)
    ours = pair_next(swiss)
    model = pair_round(before, r)
    assert (ours.round, ours.boards, ours.bye, ours.absent) == (model.round, model.boards, model.bye, model.absent)
    # and the model's pairing is the one the event was paired with (gacrux generated it)
    boards, bye, absent = file_round(event, r)
    assert set(ours.boards) == boards and ours.bye == bye


def test_the_round_is_written_into_its_three_columns():
    t = field(5, 3)
    rows = crosstable(t)
    rows[2 + 4][10 + 3 * 0 + 2] = "H"  # player 5 asks for a half-point bye in round 1
    swiss = read_swiss(rows)
    pairing = pair_next(swiss)
    assert pairing.round == 1 and pairing.absent == ((5, "H"),) and pairing.bye is None
    written = round_columns(swiss, pairing, rows)
    assert len(written) == 5
    for white, black in pairing.boards:
        assert written[white - 1] == [black, "W", None] and written[black - 1] == [white, "B", None]
    assert written[4] == [None, None, "H"]  # the bye asked for stays as typed
    assert pairing_lines(swiss.tournament, pairing)[-1] == "half-point bye (H): 5 Player 5"


def test_the_pairing_allocated_bye_gets_u_and_rows_without_a_player_keep_their_cells():
    t = field(4, 2)
    t.players.append(Player(6, "Eve", rating=2000))  # row 5 has no player
    rows = crosstable(t)
    rows[2 + 4][10] = "note"  # whatever an empty row holds stays
    swiss = read_swiss(rows)
    pairing = pair_next(swiss)
    assert pairing.bye is not None
    written = round_columns(swiss, pairing, rows)
    assert written[pairing.bye - 1] == [None, None, "U"]
    assert written[4] == ["note", None, None] and len(written) == 6


def test_numbers_and_results_come_in_every_spelling_a_cell_holds():
    t = field(4, 3)
    pairing = pair_round(t)
    rows = crosstable(t)
    for white, black in pairing.boards:  # opponents as text or float, colours lower case
        rows[1 + white][10:13] = [str(black), "w", 1]
        rows[1 + black][10:13] = [float(white), "b", "0"]
    again = pair_next(read_swiss(rows))
    assert again.round == 2 and len(again.boards) == 2


# ------------------------------------------------------------------ refused


def test_a_round_with_a_game_without_a_result_is_not_paired_over():
    t = field(6, 4)
    rows = crosstable(t)
    first = pair_next(read_swiss(rows))
    for white, black in first.boards:
        rows[1 + white][10:13] = [black, "W", "1"]
        rows[1 + black][10:13] = [white, "B", "0"]
    white, black = first.boards[1]
    rows[1 + white][12] = rows[1 + black][12] = None  # board 2 not finished
    with pytest.raises(RatingError, match=rf"^round: 2 cannot be paired, round 1 has no result for {white}-{black}$"):
        pair_next(read_swiss(rows))


def test_every_round_paired_is_said():
    t = field(2, 1)
    t.players[0].games = [RoundGame(1, 2, "w", "1")]
    t.players[1].games = [RoundGame(1, 1, "b", "0")]
    with pytest.raises(RatingError, match=r"^round: every round of the crosstable is paired \(1 round columns\)$"):
        pair_next(read_swiss(crosstable(t)))


@pytest.mark.parametrize("cells, message", [
    ((9, "W", None), r"^player 1 \(Player 1\), round 1: opponent '9' is not another player's number$"),
    ((1, "W", None), r"^player 1 \(Player 1\), round 1: opponent '1' is not another player's number$"),
    (("x", "W", None), r"^player 1 \(Player 1\), round 1: opponent 'x' is not another player's number$"),
    ((2, "G", None), r"^player 1 \(Player 1\), round 1: colour 'G' is not W or B$"),
    ((2, None, None), r"^player 1 \(Player 1\), round 1: opponent 2 has no colour \(W or B\)$"),
    ((2, "W", "2"), r"^player 1 \(Player 1\), round 1, result: '2' is not a game result$"),
])
def test_a_value_that_is_not_one_is_named_with_its_player_and_round(cells, message):
    rows = crosstable(field(3, 2))
    rows[2][10:13] = list(cells)
    with pytest.raises(RatingError, match=message):
        read_swiss(rows)


def test_rows_that_are_not_a_swiss_crosstable_are_refused():
    with pytest.raises(RatingError, match=r"^crosstable: not a FIDE Swiss crosstable"):
        read_swiss([["No.", "Name", "Rating", 1, 2, 3], [None] * 6, [1, "Ann", 2000, None, "1", "0"]])
    with pytest.raises(RatingError, match=r"^crosstable: 1 players with a name; pairing needs two or more$"):
        read_swiss(crosstable(field(1, 2)))
