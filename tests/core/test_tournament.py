"""The tournament model: result codes, scoring, computed points, standings, round robins.

Result codes and their default points: TRF16 / TRF26 player section ("Result codes");
scoring classes W D L A P and their defaults: TRF26 record 162.
"""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating.errors import RatingError
from chessrating.results import read_result
from chessrating.tournament import (
    DEFAULT_SCORING, Player, ReadWarning, RoundGame, Scoring, Standing, Tournament, cell_result,
)
from chessrating.trf import read_trf

from conftest import TRF_DATA as TRF_DIR

# TRF result code -> (default points, rated) from the spec's result-code table.
SPEC_CODES = {
    "1": (1.0, True), "=": (0.5, True), "0": (0.0, True), "+": (1.0, False), "-": (0.0, False),
    "W": (1.0, False), "D": (0.5, False), "L": (0.0, False), "H": (0.5, False), "F": (1.0, False),
    "U": (1.0, False), "Z": (0.0, False), " ": (0.0, False),
}


@pytest.mark.parametrize("code", list(SPEC_CODES))
def test_round_game_points_and_rating_per_code(code):
    points, rated = SPEC_CODES[code]
    game = RoundGame(3, 17, "b", code)
    assert (game.points(), game.rated) == (points, rated)
    assert RoundGame(3, None, None, code).rated is False  # no opponent, no rated game


@pytest.mark.parametrize("code", list(SPEC_CODES))
def test_cell_result_keeps_points_and_rating(code):
    # The cell a TRF result becomes gives the same points and rating status in results.py.
    points, rated = SPEC_CODES[code]
    read = read_result(cell_result(code))
    if code == " ":
        assert read is None  # an empty cell: nothing played, no points
    else:
        assert (read.points, read.rated) == (points, rated)
    assert cell_result(code.lower()) == cell_result(code)


def test_cell_result_mapping_and_errors():
    assert {c: cell_result(c) for c in SPEC_CODES} == {
        "1": "1", "=": "½", "0": "0", "+": "+", "-": "-", "W": "+", "D": "H", "L": "-",
        "H": "H", "F": "B", "U": "U", "Z": "Z", " ": ""}
    for bad in ("X", "", "10", None, 1):
        with pytest.raises(RatingError, match="^code: .* is not a TRF result code$"):
            cell_result(bad)
    assert RoundGame(1, 2, "w", "D").cell == "H"


def test_scoring_classes_record_162():
    # TRF26 162: W win/forfeit win/full bye, D draw/half bye, L loss, A absence, P = W by default.
    assert DEFAULT_SCORING == Scoring(1.0, 0.5, 0.0, 0.0, None) and DEFAULT_SCORING.is_default
    football = Scoring(win=3.0, draw=1.0, loss=0.0, absence=-1.0, pairing_bye=2.0)
    assert {c: football.points(c) for c in SPEC_CODES} == {
        "1": 3.0, "+": 3.0, "W": 3.0, "F": 3.0, "=": 1.0, "D": 1.0, "H": 1.0, "0": 0.0, "L": 0.0,
        "-": -1.0, "Z": -1.0, " ": -1.0, "U": 2.0}
    assert Scoring(win=2.0).points("U") == 2.0 and not Scoring(win=2.0).is_default
    with pytest.raises(RatingError, match="^code: 'Q' is not a TRF result code$"):
        Scoring().points("Q")


def test_player_points_games_and_lookup():
    p = Player(5, "Five", games=[RoundGame(1, 2, "w", "1"), RoundGame(2, 3, "b", "="),
                                 RoundGame(3, 4, "w", "+"), RoundGame(4, None, None, "H"), RoundGame(5)])
    assert p.computed_points() == 3.0 and p.computed_points(Scoring(3.0, 1.0)) == 8.0
    assert [g.round for g in p.rated_games] == [1, 2]
    assert p.game(2) == RoundGame(2, 3, "b", "=") and p.game(9) == RoundGame(9) and p.game(0) == RoundGame(0)
    t = Tournament(players=[p], scoring=Scoring(3.0, 1.0))
    assert t.player(5) is p and t.player(6) is None and t.computed_points(p) == 8.0
    assert str(ReadWarning(12, "bad")) == "line 12: bad"


def four_player_swiss() -> Tournament:
    # Three rounds; 1 and 3 finish level on 2.5, 2 on 1.5 (with a half-point bye), 4 on 0.
    return Tournament(rounds=3, players=[
        Player(1, "A", rank=2, games=[RoundGame(1, 3, "w", "="), RoundGame(2, 4, "b", "1"), RoundGame(3, 2, "w", "1")]),
        Player(2, "B", rank=3, games=[RoundGame(1, 4, "b", "1"), RoundGame(2, None, None, "H"), RoundGame(3, 1, "b", "0")]),
        Player(3, "C", rank=1, games=[RoundGame(1, 1, "b", "="), RoundGame(2, None, None, "F"), RoundGame(3, 4, "w", "1")]),
        Player(4, "D", rank=4, games=[RoundGame(1, 2, "w", "0"), RoundGame(2, 1, "w", "0"), RoundGame(3, 3, "b", "0")]),
    ])


def test_standings_share_ranks_and_follow_file_rank_within_a_tie():
    t = four_player_swiss()
    assert [(s.rank, s.player.number, s.points) for s in t.standings()] == [
        (1, 3, 2.5), (1, 1, 2.5), (3, 2, 1.5), (4, 4, 0.0)]
    t.scoring = Scoring(win=3.0, draw=1.0)  # 3-1-0: the full-point bye of 3 is worth a win
    assert [(s.rank, s.player.number, s.points) for s in t.standings()] == [
        (1, 3, 7.0), (1, 1, 7.0), (3, 2, 4.0), (4, 4, 0.0)]
    assert Tournament().standings() == []
    assert isinstance(t.standings()[0], Standing)


def test_standings_without_file_ranks_use_starting_numbers():
    t = four_player_swiss()
    for p in t.players:
        p.rank = None
    assert [s.player.number for s in t.standings()] == [1, 3, 2, 4]


@pytest.mark.parametrize("name", ["javafo_sample2.trf", "issue_7.trf"])
def test_standings_agree_with_the_files_ranks(name):
    # Each file's rank (after its tie-breaks) falls inside the group of players on equal points.
    # (Not grandmommyscup.trf: a team event, where the 001 rank is not by individual points.)
    t = read_trf(TRF_DIR / name)
    rows = t.standings()
    assert len(rows) == len(t.players)
    for row in rows:
        tied = sum(1 for other in rows if other.points == row.points)
        assert row.rank <= row.player.rank <= row.rank + tied - 1
        assert row.rank == 1 + sum(1 for other in rows if other.points > row.points)
        assert row.points == row.player.points
    assert [r.player.rank for r in rows] == sorted(r.player.rank for r in rows)
    assert not t.is_round_robin


def circle_schedule(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin rounds for players 1..n by the circle method; 0 stands for the bye."""
    seats = list(range(1, n + 1)) + ([0] if n % 2 else [])
    rounds = []
    for _ in range(len(seats) - 1):
        half = len(seats) // 2
        rounds.append([(seats[i], seats[-1 - i]) for i in range(half)])
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def round_robin(n: int) -> Tournament:
    players = {k: Player(k, f"P{k}") for k in range(1, n + 1)}
    for r, pairs in enumerate(circle_schedule(n), start=1):
        for a, b in pairs:
            if 0 in (a, b):
                players[a or b].games.append(RoundGame(r, None, None, "U"))
            else:
                players[a].games.append(RoundGame(r, b, "w", "1"))
                players[b].games.append(RoundGame(r, a, "b", "0"))
    return Tournament(players=list(players.values()), rounds=len(circle_schedule(n)))


def test_is_round_robin_examples():
    assert round_robin(4).is_round_robin and round_robin(3).is_round_robin  # 3: a bye each round
    assert not four_player_swiss().is_round_robin  # 2 never meets 3
    double = round_robin(4)
    for p in double.players:
        p.games += [RoundGame(g.round + 3, g.opponent, g.colour, g.code) for g in list(p.games)]
    assert not double.is_round_robin
    assert not Tournament(players=[Player(1)]).is_round_robin and not Tournament().is_round_robin
    twins = round_robin(2)
    twins.players[1].number = 1
    assert not twins.is_round_robin


@given(st.integers(2, 12), st.data())
def test_is_round_robin_property(n, data):
    """60 round robins of 2-12 players: each is one; dropping any one game makes it not one."""
    t = round_robin(n)
    assert t.is_round_robin
    assert sum(p.computed_points() for p in t.players) == n * (n - 1) / 2 + (n % 2) * n  # + a U per bye
    victim = data.draw(st.sampled_from([p for p in t.players if any(g.opponent for g in p.games)]))
    game = data.draw(st.sampled_from([g for g in victim.games if g.opponent]))
    game.opponent = None
    assert not t.is_round_robin


# ------------------------------------------------------------------ what is built from the model

def test_round_cells_by_starting_number_and_round():
    cells = four_player_swiss().round_cells()
    assert cells.opponents == [[3, 4, 2], [4, None, 1], [1, None, 4], [2, 1, 3]]
    assert cells.results == [["½", "1", "1"], ["1", "H", "0"], ["½", "B", "1"], ["0", "0", "0"]]
    assert cells.colours == [["W", "B", "W"], ["B", None, "B"], ["B", None, "W"], ["W", "W", "B"]]
    gap = Tournament(players=[Player(2, games=[RoundGame(1, None, None, "Z")])], rounds=3).round_cells()
    assert gap.results == [[None, None, None], ["Z", None, None]]  # number 1 absent: a blank row
    assert Tournament().round_cells() == ([], [], [])


@pytest.mark.parametrize("name", ["javafo_sample2.trf", "issue_7.trf"])
def test_round_cells_of_real_files(name):
    # Each game in the cell of its player's starting number and its round, read from the
    # game's own round number.
    t = read_trf(TRF_DIR / name)
    cells = t.round_cells()
    assert len(cells.results) == max(p.number for p in t.players)
    assert {len(row) for row in cells.results} == {t.rounds}
    for p in t.players:
        for g in p.games:
            at = (p.number - 1, g.round - 1)
            assert cells.opponents[at[0]][at[1]] == g.opponent
            assert cells.results[at[0]][at[1]] == (cell_result(g.code) or None)
            assert cells.colours[at[0]][at[1]] == ({"w": "W", "b": "B"}.get(g.colour or ""))


def test_tiebreak_event_of_a_tournament():
    from chessrating.tiebreaks.event import FULL_BYE, HALF_BYE, PLAYED, from_tournament

    t = four_player_swiss()
    t.players[0].rating = 2100
    event = from_tournament(t)
    assert [[(r.kind, r.points, r.opponent, r.black) for r in row] for row in event.records] == [
        [(PLAYED, 0.5, 2, False), (PLAYED, 1.0, 3, True), (PLAYED, 1.0, 1, False)],
        [(PLAYED, 1.0, 3, True), (HALF_BYE, 0.5, None, None), (PLAYED, 0.0, 0, True)],
        [(PLAYED, 0.5, 0, True), (FULL_BYE, 1.0, None, None), (PLAYED, 1.0, 3, False)],
        [(PLAYED, 0.0, 1, False), (PLAYED, 0.0, 0, False), (PLAYED, 0.0, 2, True)]]
    assert (event.rounds, event.round_robin, event.by_rounds) == (3, False, True)
    assert event.ratings == (2100, None, None, None)
    assert from_tournament(round_robin(4)).round_robin


def test_uscf_pairings_of_a_tournament():
    from chessrating.uscf.event import pairings_from_tournament

    # rated games only, each once, by round: the byes of 2 and 3 in round 2 are none
    assert pairings_from_tournament(four_player_swiss()) == [
        (0, 2, 0.5), (1, 3, 1.0), (0, 3, 1.0), (0, 1, 1.0), (2, 3, 1.0)]
    t = read_trf(TRF_DIR / "javafo_sample2.trf")
    score = {"1": 1.0, "=": 0.5, "0": 0.0}
    by_hand = {(min(p.number, g.opponent) - 1, max(p.number, g.opponent) - 1,
                score[g.code] if p.number < g.opponent else 1 - score[g.code])
               for p in t.players for g in p.games if g.code in score and g.opponent}
    found = pairings_from_tournament(t)
    assert len(found) == len(set(found)) and set(found) == by_hand
