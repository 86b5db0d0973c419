"""The adapter to gacrux: Swiss rounds paired as gacrux pairs them, checks, Berger tables.

The oracles are gacrux's own (tests/gacrux_events.py): events its random tournament
generator pairs round by round from its own model, and its own TRF reader. The package's
pairing of a round must equal theirs; larger events are in
tests/integration/test_pairing_events.py.
"""

from __future__ import annotations

import copy
import itertools

import pytest
from conftest import TRF_DATA
from gacrux_events import before_round, file_round, gacrux_reads, generated_trf

from chessrating.errors import RatingError
from chessrating.pairing import (Pairing, RoundDifference, apply_pairing, berger_schedule,
                                 check_pairings, engine_version, pair_round)
from chessrating.trf import decode_trf, parse_trf, read_trf, write_trf
from chessrating.tournament import Player, RoundGame, Tournament

# ------------------------------------------------------------------ helpers


def play(tournament: Tournament, r: int, result: str = "=") -> None:
    """Every game of round ``r`` gets ``result`` for White (the other row its complement)."""
    other = {"1": "0", "0": "1", "=": "="}
    for p in tournament.players:
        game = p.game(r)
        if game.opponent is not None and game.colour == "w":
            game.code = result
            tournament.player(game.opponent).games[r - 1].code = other[result]


def field(n: int, rounds: int) -> Tournament:
    return Tournament(players=[Player(k, f"Player {k}", rating=2400 - 10 * k) for k in range(1, n + 1)],
                      rounds=rounds)


@pytest.fixture(scope="module")
def event_30() -> Tournament:
    """30 players, 7 rounds: half- and zero-point byes, forfeits, pairing-allocated byes."""
    return parse_trf(generated_trf(30, 7, 3))


@pytest.fixture(scope="module")
def event_14() -> Tournament:
    """14 players, 5 rounds, for the pairings changed by hand."""
    return parse_trf(generated_trf(14, 5, 4))


# ------------------------------------------------------------------ gacrux's own events


def test_the_generated_event_has_what_the_adapter_must_carry(event_30):
    codes = {g.code for p in event_30.players for g in p.games}
    assert {"H", "Z", "U", "+", "-", "1", "=", "0"} <= codes
    assert event_30.rounds == 7 and event_30.headers["152"] == ["B"]


def test_every_round_paired_from_the_rounds_before_equals_gacrux(event_30):
    for r in range(1, 8):
        before = before_round(event_30, r)
        pairing = pair_round(before)  # the round after the last one paired
        boards, bye, absent = file_round(event_30, r)
        assert pairing.round == r
        assert set(pairing.boards) == boards and len(pairing.boards) == len(boards), r
        assert pairing.bye == bye
        assert dict(pairing.absent) == absent
        # written back, the round reads as the file's, results empty
        apply_pairing(before, pairing)
        assert file_round(before, r) == (boards, bye, absent)
        assert {p.game(r).code for p in before.players if p.game(r).opponent} == {" "}


def test_boards_come_in_board_order(event_30):
    r = 6
    pairing = pair_round(event_30, r)
    points = {p.number: sum(p.game(k).points() for k in range(1, r)) for p in event_30.players}
    top = [max(points[w], points[b]) for w, b in pairing.boards]
    assert top == sorted(top, reverse=True) and top[0] > top[-1]


def test_check_pairings_accepts_the_event(event_30):
    assert check_pairings(event_30) == []


def test_check_pairings_names_the_round_where_two_pairings_were_swapped(event_14):
    t = copy.deepcopy(event_14)
    r = 5
    (w1, b1), (w2, b2) = sorted(file_round(t, r)[0])[2:4]
    # the black players of two boards exchange their rounds (opponent, colour, result),
    # and the white players follow: both rows of each game still agree
    one, two = t.player(b1), t.player(b2)
    one.games[r - 1], two.games[r - 1] = two.games[r - 1], one.games[r - 1]
    t.player(w1).games[r - 1].opponent, t.player(w2).games[r - 1].opponent = b2, b1
    differences = check_pairings(t)
    assert [d.round for d in differences] == [r]
    assert set(differences[0].event) == {(w1, b2), (w2, b1)}
    assert set(differences[0].engine) == {(w1, b1), (w2, b2)}
    assert str(differences[0]).startswith(f"round {r}: the event pairs ")


def test_check_pairings_names_the_first_round_changed_by_hand(event_14):
    t = copy.deepcopy(event_14)
    r = 3
    (white, black) = sorted(file_round(t, r)[0])[0]
    t.player(white).games[r - 1].colour, t.player(black).games[r - 1].colour = "b", "w"
    differences = check_pairings(t)
    assert differences[0] == RoundDifference(r, ((black, white),), ((white, black),))


def test_top_colour_decides_round_one(event_30):
    # the file says 152 B: the top board has Black, and so has every odd board
    boards = file_round(event_30, 1)[0]
    for given in (None, "b", "black", "B"):
        assert set(pair_round(event_30, 1, top_colour=given).boards) == boards
    white = pair_round(event_30, 1, top_colour="w").boards
    assert set(white) == {(b, w) for w, b in boards} and white[0][0] < white[0][1]


def test_baku_acceleration_as_the_records_say_and_as_computed():
    # gacrux's generator writes the Baku groups as TRF26 records 250. C.04.7: group A is the
    # first 2 * ceil(N / 4) players of round 1; in 5 rounds, 1 virtual point in rounds 1-2
    # and ½ in round 3
    t = parse_trf(generated_trf(20, 5, 7, accelerated=True))
    present = sorted(set(range(1, 21)) - set(file_round(t, 1)[2]))
    last = present[2 * -(-len(present) // 4) - 1]
    assert [line for line in t.extra_lines if line.startswith("250")] == [
        f"250  2.0  1.0   1   2    1 {last:4}", f"250  1.0  0.5   3   3    1 {last:4}"]
    assert check_pairings(t) == []
    assert check_pairings(t, accelerated=True) == []
    # round 1 pairs group A within itself; without acceleration it would not
    assert all((w <= last) == (b <= last) for w, b in pair_round(t, 1, accelerated=True).boards)
    assert set(pair_round(t, 1, accelerated=False).boards) != file_round(t, 1)[0]


# ------------------------------------------------------------------ gacrux's own reader


def test_a_late_entry_is_paired_as_gacrux_reads_the_file():
    t = field(6, 5)
    for r in (1, 2):
        apply_pairing(t, pair_round(t, top_colour="w"))
        play(t, r, "1" if r == 1 else "=")
    t.players.append(Player(7, "Late entry", rating=2500))  # no games: absent so far
    for p in t.players:
        p.points = t.computed_points(p)
    ours = pair_round(t)
    assert (set(ours.boards), ours.bye) == gacrux_reads(write_trf(t), 3, top_colour="w")
    assert ours.bye == 7  # the lowest score gets the pairing-allocated bye


def test_absent_and_withdrawn_players_sit_out():
    t = field(8, 5)
    apply_pairing(t, pair_round(t, top_colour="w"))
    play(t, 1, "0")
    ours = pair_round(t, absent={3: "h"}, withdrawn=[8])
    assert ours.absent == ((3, "H"), (8, " "))
    assert sorted(n for pair in ours.boards for n in pair) == [1, 2, 4, 5, 6, 7] and ours.bye is None
    for p in t.players:
        p.points = t.computed_points(p)
    assert (set(ours.boards), ours.bye) == gacrux_reads(write_trf(t), 2, top_colour="w", absent=(3, 8))
    apply_pairing(t, ours)
    assert [(t.player(n).game(2).code, t.player(n).game(2).opponent) for n in (3, 8)] == [("H", None), (" ", None)]
    # a bye the model already holds counts; absent given as numbers is a zero-point bye
    t.player(5).games.append(RoundGame(3, None, None, "F"))
    play(t, 2, "1")
    assert dict(pair_round(t, absent=[6]).absent) == {5: "F", 6: "Z"}


def test_max_meets_lets_a_small_field_go_on():
    t = field(4, 5)
    for r in (1, 2, 3):
        apply_pairing(t, pair_round(t, top_colour="w"))
        play(t, r, "1")
    with pytest.raises(RatingError, match=r"^round 4: no legal pairing exists for players 1, 2, 3, 4 "
                                          r"\(C.04.3 art. 1.9.3"):
        pair_round(t)
    rematch = pair_round(t, max_meets=2)
    met = {frozenset((p.number, g.opponent)) for p in t.players for g in p.games}
    assert len(rematch.boards) == 2 and all(frozenset(pair) in met for pair in rematch.boards)
    assert check_pairings(t) == []


def test_a_real_file_is_checked_as_gacrux_checks_it():
    # JaVaFo's sample event (tests/data/trf, MIT): gacrux's own checker (pairingchecker -c)
    # pairs rounds 2 and 4 otherwise than the file
    path = TRF_DATA / "javafo_sample2.trf"
    event, text = read_trf(path), decode_trf(path.read_bytes())[0]
    differences = check_pairings(event)
    assert [d.round for d in differences] == [2, 4]
    for d in differences:
        boards = file_round(event, d.round)[0]
        assert (boards - set(d.event)) | set(d.engine) == gacrux_reads(text, d.round)[0]
        assert set(d.event) <= boards and not set(d.engine) & boards


# ------------------------------------------------------------------ refusals, one line each


def test_a_round_waits_for_the_results_of_the_round_before():
    t = field(6, 5)
    apply_pairing(t, pair_round(t, top_colour="w"))
    with pytest.raises(RatingError) as caught:
        pair_round(t)
    boards = ", ".join(f"{w}-{b}" for w, b in sorted(file_round(t, 1)[0], key=min))
    assert str(caught.value) == f"round: 2 cannot be paired, round 1 has no result for {boards}"


def test_rows_that_disagree_are_named():
    t = field(4, 3)
    apply_pairing(t, pair_round(t, top_colour="w"))
    play(t, 1, "1")
    t.player(3).games[0].opponent = 2
    with pytest.raises(RatingError, match=r"^round 1: player 1 is paired with 3, whose row gives opponent 2$"):
        pair_round(t)
    t = field(4, 3)
    apply_pairing(t, pair_round(t, top_colour="w"))
    play(t, 1, "1")
    t.player(3).games[0].code = "1"
    with pytest.raises(RatingError, match=r"^round 1: results '1' of player 1 and '1' of player 3 do not match$"):
        pair_round(t)


@pytest.mark.parametrize("call, message", [
    (lambda t: pair_round(t, 4), r"^round: 4 is past the last round \(3\) of the event$"),
    (lambda t: pair_round(t, 0), r"^round: 0 is not a round number$"),
    (lambda t: pair_round(t, top_colour="red"), r"^top_colour: 'red' is not 'w' or 'b'$"),
    (lambda t: pair_round(t, absent=[9]), r"^absent: players 9 are not in the event$"),
    (lambda t: pair_round(t, absent={2: "U"}), r"^absent: 'U' for player 2 is not H, F or Z$"),
    (lambda t: pair_round(t, max_meets=0), r"^max_meets: 0 is not a number of meetings"),
    (lambda t: pair_round(t, accelerated="yes"), r"^accelerated: 'yes' is not True, False or None$"),
    (lambda t: pair_round(t, rounds=0), r"^rounds: 0 is not a number of rounds$"),
    (lambda t: pair_round(Tournament(players=t.players[:1], rounds=3)), r"^tournament: 1 players"),
    (lambda t: check_pairings(Tournament(players=t.players, rounds=3, extra_lines=["013 Team A    1    2"])),
     r"^tournament: a team event \(records 013 or 310\)"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(RatingError, match=message):
        call(field(4, 3))


def test_apply_pairing_refuses_and_leaves_the_model_as_it_was():
    t = field(4, 3)
    first = pair_round(t, top_colour="w")
    apply_pairing(t, first)
    play(t, 1, "1")
    kept = copy.deepcopy(t)
    with pytest.raises(RatingError, match=r"^round: 1 already has results for players 1, 2, 3, 4$"):
        apply_pairing(t, first)
    with pytest.raises(RatingError, match=r"^pairing: round 2 does not place players 3, 4$"):
        apply_pairing(t, Pairing(2, ((1, 2),)))
    with pytest.raises(RatingError, match=r"^pairing: player 1 is placed twice in round 2$"):
        apply_pairing(t, Pairing(2, ((1, 2), (3, 1))))
    with pytest.raises(RatingError, match=r"^pairing: round 0 is not a round number$"):
        apply_pairing(t, Pairing(0, ((1, 2), (3, 4))))
    with pytest.raises(RatingError, match=r"^pairing: 'U' for player 4 is not H, F, Z or blank$"):
        apply_pairing(t, Pairing(2, ((1, 2),), 3, ((4, "U"),)))
    assert t == kept


def test_the_pairing_says_which_engine_and_rules():
    pairing = pair_round(field(4, 3), top_colour="w")
    assert pairing.rules == f"FIDE Dutch system C.04.3 (2026-02-01), gacrux {engine_version()}"


# ------------------------------------------------------------------ Berger tables

# FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments"
# (https://handbook.fide.com/chapter/C05Annex1), tables for 3-4, 5-6, 7-8 and 9-10 players.
PUBLISHED = {
    4: "1-4 2-3 / 4-3 1-2 / 2-4 3-1",
    6: "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1",
    8: "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / "
       "3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1",
    10: "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / "
        "10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / "
        "4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1",
}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_berger_schedule_is_the_published_table(n):
    table = [[tuple(int(x) for x in board.split("-")) for board in rnd.split()]
             for rnd in PUBLISHED[n].split(" / ")]
    assert berger_schedule(n) == table
    # an odd field plays the next even table with the highest number as the bye
    assert berger_schedule(n - 1) == [[(w, 0) if b == n else (b, 0) if w == n else (w, b) for w, b in rnd]
                                      for rnd in table]


@pytest.mark.parametrize("n", range(3, 21))
def test_berger_schedule_everyone_meets_everyone_once(n):
    schedule = berger_schedule(n)
    assert len(schedule) == n - 1 + n % 2
    for rnd in schedule:
        seated = [x for pair in rnd for x in pair if x]
        assert sorted(seated) == list(range(1, n + 1))
    pairs = [frozenset(pair) for rnd in schedule for pair in rnd if 0 not in pair]
    assert sorted(map(sorted, pairs)) == [list(pair) for pair in itertools.combinations(range(1, n + 1), 2)]
    whites = [sum(w == k for rnd in schedule for w, b in rnd if b) for k in range(1, n + 1)]
    games = n - 1
    assert all(abs(2 * white - games) <= 1 + games % 2 for white in whites)


@pytest.mark.parametrize("n", range(3, 21))
def test_berger_schedule_is_gacrux_table(n):
    """The model's tables (the package's one source of them) against gacrux's own, board
    for board, 3 to 20 players: FIDE's engine is the second witness past 10 players."""
    from gacrux import berger

    def board(pair):
        white, black = pair["white"], pair["black"]
        return (black, 0) if white > n else (white, 0) if black > n else (white, black)

    table = berger.bergertables(n)
    assert berger_schedule(n) == [[board(pair) for _, pair in sorted(boards.items())]
                                  for _, boards in sorted(table["pairing"].items())]


def test_berger_schedule_refuses_a_field_of_one():
    with pytest.raises(RatingError, match=r"^n_players: 1 is not a number of players"):
        berger_schedule(1)
