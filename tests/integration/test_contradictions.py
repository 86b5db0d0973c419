"""Contradictions stop the numbers: a game whose two sides disagree, a Swiss round that
contradicts another row, a refused K, a result Excel turned into a date.

Each case fills a template as a director would (openpyxl, then ``chessrating recalc``)
and reads what the cells show and what the command says. The expected values follow the
rule in docs/RULES.md ("Contradictions"): the affected players' points, expected score,
change, new rating, performance, rank, tie-breaks and Check show the reason naming both
players (and the round), the event's points grid does not count the game, and the
command exits 1 listing the reason with its cells.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from chessrating import udfs
from chessrating.cli import main
from chessrating.workbooks.roundrobin import RoundRobinLayout, build_round_robin
from chessrating.workbooks.swiss import build_swiss
from chessrating.workbooks.uscf import UscfLayout, build_uscf

from conftest import TRF_DATA

SHOWN = ("Points", "Expected", "Perf. (TPR)", "Change", "New rating", "Rank", "Check")
NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]


def fill(template: Path, cells: dict[tuple[int, int], object], tmp_path: Path,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str, openpyxl.Workbook]:
    """Type ``cells`` (1-based row, column) into the Crosstable sheet, run ``chessrating
    recalc``: the exit code, what it wrote on stderr and the recalculated workbook."""
    book = openpyxl.load_workbook(template)
    for (row, col), value in cells.items():
        book["Crosstable"].cell(row, col).value = value
    typed = tmp_path / "typed.xlsx"
    book.save(typed)
    capsys.readouterr()
    code = main(["recalc", str(typed), "-o", str(tmp_path / "out.xlsx")])
    err = capsys.readouterr().err
    return code, err, openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)


def headers(ws) -> dict[str, int]:
    """Column (1-based) of each header of rows 3-4."""
    found: dict[str, int] = {}
    for col in range(1, ws.max_column + 1):
        for row in (4, 3):
            value = ws.cell(row, col).value
            if isinstance(value, str) and value not in found:
                found[value] = col
    return found


def round_robin(results: dict[tuple[int, int], object], players: int = 6,
                ratings: list[int] | None = None) -> dict[tuple[int, int], object]:
    """Cells of a round robin: names and ratings, and results[(i, j)] (zero-based) in row
    i against column j."""
    ratings = ratings or [2100 - 50 * i for i in range(players)]
    cells: dict[tuple[int, int], object] = {}
    for i in range(players):
        cells[(5 + i, 2)], cells[(5 + i, 5)] = NAMES[i], ratings[i]
    for (i, j), value in results.items():
        cells[(5 + i, 11 + j)] = value
    return cells


def every_game(players: int) -> dict[tuple[int, int], object]:
    """A complete round robin: the lower number wins, but every third game is drawn."""
    results: dict[tuple[int, int], object] = {}
    for i in range(players):
        for j in range(i + 1, players):
            drawn = (i + j) % 3 == 0
            results[(i, j)], results[(j, i)] = ("½", "½") if drawn else (1, 0)
    return results


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_round_robin(tmp_path_factory.mktemp("rr") / "rr.xlsx", size=6)


def test_both_players_entered_as_winners_stop_both_rows(six: Path, tmp_path: Path, capsys) -> None:
    # The case: 15 games, Alpha's win over Beta also entered as Beta's win.
    results = every_game(6)
    results[(1, 0)] = 1
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    reason = ("check game of player 1 (Alpha) and player 2 (Beta): L5 holds 1 and K6 holds 1, "
              "which do not add up to one game")
    for row in (5, 6):
        for name in SHOWN:
            assert str(ws.cell(row, col[name]).value).startswith(reason), (row, name)
        for tiebreak in ("DE", "SB", "WIN", "KS"):
            assert ws.cell(row, col[tiebreak]).value == reason
    # Check: the reason first, then the note on the assumed K (rated games left blank).
    assert ws.cell(5, col["Check"]).value == (
        reason + "; assumed: rated games unknown, read as 30 (established); K list overrides")
    # The other players keep their numbers: Gamma's change is FIDE_CHANGE of its games.
    opponents = [j for j in range(6) if j != 2]
    gamma = udfs.FIDE_CHANGE(2000, [[2100 - 50 * j] for j in opponents],
                             [[results[(2, j)]] for j in opponents], 20, "2025")
    assert ws.cell(7, col["Change"]).value == pytest.approx(gamma)
    # The points grid (what the event's totals add up) leaves the game out: 14 games, 14 points.
    lay = RoundRobinLayout(6)
    grid = [ws.cell(lay.section(4) + 1 + i, 11 + j).value for i in range(6) for j in range(6) if i != j]
    assert sum(v for v in grid if isinstance(v, (int, float))) == 14
    assert sum(1 for v in grid if v == reason) == 2
    # recalc exits 1 and names the reason once, with the two Check cells showing it.
    assert code == 1
    check = openpyxl.utils.get_column_letter(col["Check"])
    assert f"Crosstable!{check}5, {check}6: {reason}" in err


@pytest.mark.parametrize("mine,theirs,reason", [
    ("½", 1, "L5 holds ½ and K6 holds 1, which do not add up to one game"),
    (0, "-", "L5 holds 0 and K6 holds -, which do not add up to one game"),  # (0 and 0: lost by both)
    ("+", "+", "L5 holds + and K6 holds +, which do not add up to one game"),
    (1, None, "L5 holds 1 but K6 is blank"),
    (None, "½", "K6 holds ½ but L5 is blank"),
])
def test_a_game_whose_cells_do_not_add_up(six: Path, tmp_path: Path, capsys, mine, theirs, reason) -> None:
    results = every_game(6)
    results[(0, 1)], results[(1, 0)] = mine, theirs
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    reason = f"check game of player 1 (Alpha) and player 2 (Beta): {reason}"
    assert [ws.cell(r, col["Points"]).value for r in (5, 6)] == [reason, reason]
    assert [ws.cell(r, col["Change"]).value for r in (5, 6)] == [reason, reason]
    assert code == 1 and reason in err


def test_a_double_forfeit_is_a_game_of_no_points(six: Path, tmp_path: Path, capsys) -> None:
    # Both players forfeited (TRF "-" against "-"): no contradiction, no points, no rating.
    results = every_game(6)
    results[(0, 1)], results[(1, 0)] = "-", "-"
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    # Alpha: the lower number, wins against Gamma, Epsilon and Zeta and draws with Delta.
    expected = sum((0.5 if j % 3 == 0 else 1) for j in range(2, 6))
    assert ws.cell(5, col["Points"]).value == expected
    assert not str(ws.cell(5, col["Check"]).value).startswith("check")
    assert code == 0, err


def test_a_date_made_of_a_typed_half_is_named_with_its_cell(six: Path, tmp_path: Path, capsys) -> None:
    results = every_game(6)
    # Excel turned a typed 1/2 into 2 January (month/day) in L5 and into 1 February
    # (day/month, here its serial number 46054) in M5.
    results[(0, 1)], results[(0, 2)] = dt.datetime(2026, 1, 2), 46054
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    lay = RoundRobinLayout(6)
    entered = lay.section(5) + 1
    assert ws.cell(entered, 12).value == ("check result against player 2: L5: 2-Jan was typed as 1/2 "
                                          "and became a date; pick ½ from the list")
    assert ws.cell(entered, 13).value == ("check result against player 3: M5: 1-Feb was typed as 1/2 "
                                          "and became a date; pick ½ from the list")
    assert ws.cell(5, col["Points"]).value == ws.cell(entered, 12).value
    assert code == 1 and "L5: 2-Jan was typed as 1/2 and became a date; pick ½ from the list" in err


def test_a_refused_k_reaches_k_the_totals_and_check(six: Path, tmp_path: Path, capsys) -> None:
    cells = round_robin(every_game(6))
    cells[(5, 9)] = 200  # K list
    code, err, book = fill(six, cells, tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    refusal = "k: 200 is not a FIDE K-factor, a whole number from 1 to 40"
    for name in ("K", "Change", "New rating", "Check"):
        assert ws.cell(5, col[name]).value == refusal, name
    assert code == 1 and refusal in err


# ---------------------------------------------------------------------------- Swiss

def swiss(rounds: dict[tuple[int, int], tuple], players: int = 8) -> dict[tuple[int, int], object]:
    cells: dict[tuple[int, int], object] = {}
    for i in range(players):
        cells[(5 + i, 2)], cells[(5 + i, 5)] = f"P{i + 1}", 2000 - 50 * i
    for (number, rnd), (opponent, colour, result) in rounds.items():
        col = 11 + 3 * (rnd - 1)
        cells[(4 + number, col)], cells[(4 + number, col + 1)], cells[(4 + number, col + 2)] = (
            opponent, colour, result)
    return cells


@pytest.fixture(scope="module")
def swiss_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_swiss(tmp_path_factory.mktemp("swiss") / "swiss.xlsx", players=8, rounds=2)


# One round of each contradiction, shared by the Swiss and the US Chess crosstable (which
# has no colours): (player, round) -> (opponent, colour, result).
CONTRADICTING_ROUNDS = {
    (1, 1): (2, "W", 1), (2, 1): (1, "B", 1),          # both entered as winners
    (3, 1): (4, "W", "½"), (4, 1): (3, "B", "½"),      # a good game
    (5, 1): (None, None, 1),                           # a result without an opponent
    (6, 1): (7, "W", 1), (7, 1): (8, "B", 0), (8, 1): (7, "W", 1),  # 7 paired twice
    (1, 2): (3, "W", 1), (3, 2): (1, "B", 0),          # a good game
    (2, 2): (4, "W", None), (4, 2): (2, "B", 0),       # an opponent without a result
    (5, 2): (6, "W", "-"), (6, 2): (5, "B", "-"),      # a double forfeit: no contradiction
    (7, 2): (None, None, "H"), (8, 2): (None, None, "+"),  # byes: no opponent needed
}
WINNERS = "check round 1: player 1 (P1) and player 2 (P2) have 1 and 1, which do not add up to one game"
ONE_SIDE = "check round 2: player 2 (P2) and player 4 (P4): only the row of player 4 (P4) holds a result"
ALONE = "check round 1: player 5 (P5) has the result 1 but no opponent"
TWICE = "check round 1: player 7 (P7) is paired with player 6 (P6) and player 8 (P8)"
# the reason each contradicted player's row shows; player 3's games agree with the others
REASONS = {1: WINNERS, 2: WINNERS, 4: ONE_SIDE, 5: ALONE, 6: TWICE, 7: TWICE, 8: TWICE}


def assert_listed(err: str, col: dict[str, int]) -> None:
    """recalc lists each reason once, with the Check cells showing it."""
    check = openpyxl.utils.get_column_letter(col["Check"])
    assert f"Crosstable!{check}5, {check}6: {WINNERS}" in err
    assert f"Crosstable!{check}8: {ONE_SIDE}" in err
    assert f"Crosstable!{check}9: {ALONE}" in err
    assert f"Crosstable!{check}10, {check}11, {check}12: {TWICE}" in err


def test_swiss_rounds_that_contradict_other_rows(swiss_book: Path, tmp_path: Path, capsys) -> None:
    code, err, book = fill(swiss_book, swiss(CONTRADICTING_ROUNDS), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    for number, reason in REASONS.items():
        for name in (*SHOWN, "Games", "BH/C1", "BH", "SB", "DE"):
            assert str(ws.cell(4 + number, col[name]).value).startswith(reason), (number, name)
    # Player 3's games agree with the other rows: ½ against 4 and 0 against 1.
    assert ws.cell(7, col["Points"]).value == 0.5
    assert ws.cell(7, col["Change"]).value == pytest.approx(
        udfs.FIDE_CHANGE(1900, [[1850], [2000]], [["½"], [0]], 20, "2025"))
    assert code == 1
    assert_listed(err, col)


# 1 names 2, but 2's row names 3; 2 names 3, whose row names no opponent (a bye).
DISAGREEING_ROUNDS = {(1, 1): (2, "W", 1), (2, 1): (3, "B", 0), (3, 1): (None, None, "H"),
                      (4, 1): (5, "W", "½"), (5, 1): (4, "B", "½")}


@pytest.mark.parametrize("system", ["swiss", "uscf"])
def test_rows_that_disagree_about_a_pairing(swiss_book: Path, uscf_book: Path, tmp_path: Path, capsys,
                                            system: str) -> None:
    if system == "swiss":
        code, err, book = fill(swiss_book, swiss(DISAGREEING_ROUNDS), tmp_path, capsys)
        rating = "New rating"
    else:
        rounds = {key: (opponent, result) for key, (opponent, _, result) in DISAGREEING_ROUNDS.items()}
        code, err, book = fill(uscf_book, uscf(rounds), tmp_path, capsys)
        rating = "Two passes"
    ws = book["Crosstable"]
    col = headers(ws)
    first = "check round 1: player 1 (P1) names player 2 (P2) as opponent, whose row names player 3 (P3)"
    reason = "check round 1: player 2 (P2) names player 3 (P3) as opponent, whose row names no opponent"
    for name in ("Points", rating):
        assert [ws.cell(r, col[name]).value for r in (5, 6, 7)] == [first, reason, reason], name
    assert ws.cell(8, col["Points"]).value == 0.5
    assert code == 1


# Round 1: 1 names 2, 2 names 3, 3 names 1 (each player named once and naming someone);
# 4 and 5 agree. Round 2: 6 is named by 7 and 8; 2 names 1, whose row names no one.
CYCLE_ROUNDS = {(1, 1): (2, "W", 1), (2, 1): (3, "B", 0), (3, 1): (1, "W", "½"),
                (4, 1): (5, "W", 1), (5, 1): (4, "B", 0),
                (6, 2): (7, "W", 1), (7, 2): (6, "B", 0), (8, 2): (6, "B", 0),
                (2, 2): (1, "W", "+"), (1, 2): (None, None, "H")}


@pytest.mark.parametrize("system", ["swiss", "uscf"])
def test_each_round_counts_the_players_named_more_often_than_they_name(
        swiss_book: Path, uscf_book: Path, tmp_path: Path, capsys, system: str) -> None:
    # Below the opponents as entered (Games sheet), one cell per round counts the players
    # named by more rows than they name: round 1 none (a cycle of three names everyone
    # once), round 2 two (6, named twice; 1, named while naming no one). A round of 0
    # skips the search for a player paired twice, never the check that rows agree.
    if system == "swiss":
        code, _, book = fill(swiss_book, swiss(CYCLE_ROUNDS), tmp_path, capsys)
    else:
        rounds = {key: (opponent, result) for key, (opponent, _, result) in CYCLE_ROUNDS.items()}
        code, _, book = fill(uscf_book, uscf(rounds), tmp_path, capsys)
    games = book["Games"]
    start = next(c for c in range(1, games.max_column + 1) if games.cell(3, c).value == "Opponent as entered")
    below = 4 + 8 + 1  # the row under the eight players
    assert [games.cell(below, start + rnd).value for rnd in range(3)] == [0, 2, None]
    ws = book["Crosstable"]
    col = headers(ws)
    names = "check round 1: player {} (P{}) names player {} (P{}) as opponent, whose row names player {} (P{})"
    assert [ws.cell(4 + n, col["Points"]).value for n in (1, 2, 3)] == [
        names.format(1, 1, 2, 2, 3, 3), names.format(2, 2, 3, 3, 1, 1), names.format(3, 3, 1, 1, 2, 2)]
    twice = "check round 2: player 6 (P6) is paired with player 7 (P7) and player 8 (P8)"
    assert [ws.cell(4 + n, col["Points"]).value for n in (6, 7, 8)] == [twice] * 3
    assert ws.cell(8, col["Points"]).value == 1 and ws.cell(9, col["Points"]).value == 0
    assert code == 1


@pytest.mark.parametrize("system", ["fide", "uscf"])
def test_import_trf_exits_1_and_lists_a_contradiction(tmp_path: Path, capsys, system: str) -> None:
    # The real file's round 1, player 1 (Mirzoev) beat player 26 (Orube); entered here as
    # a win for both. The Swiss workbook and the US Chess one say so alike.
    text = (TRF_DATA / "javafo_sample2.trf").read_text(encoding="latin-1")
    line = next(x for x in text.splitlines() if x.startswith("001   26 "))
    assert "     1 b 0 " in line
    (tmp_path / "both.trf").write_text(text.replace(line, line.replace("     1 b 0 ", "     1 b 1 ", 1)),
                                       encoding="latin-1")
    capsys.readouterr()
    code = main(["import-trf", str(tmp_path / "both.trf"), "-o", str(tmp_path / "both.xlsx"),
                 "--system", system])
    out = capsys.readouterr().out
    assert code == 1
    assert ("check round 1: player 1 (Mirzoev Azer) and player 26 (Orube Bona Andoni) have 1 and 1, "
            "which do not add up to one game") in out


def unaffected_tiebreaks(code: str, player: int, opponents: list[list[object]],
                         results: list[list[object]], ratings: list[int], **rules: str) -> float:
    """The oracle of an unaffected player's tie-break: TIEBREAK over the event as the
    rule book has it, every contradicted round left out (blank opponent, blank result)."""
    column = udfs.TIEBREAK(code, opponents, results, None, rules.get("rules", "2026"),
                           [[r] for r in ratings])
    return column[player - 1][0]


def test_swiss_unaffected_players_keep_their_tiebreaks_and_ranks(swiss_book: Path, tmp_path: Path,
                                                                 capsys) -> None:
    # Players 1 and 2 both entered as winners of round 1; the others' games agree. The
    # tie-breaks of players 3 to 6 are those of the event without that game.
    rounds = {(1, 1): (2, "W", 1), (2, 1): (1, "B", 1), (3, 1): (4, "W", 1), (4, 1): (3, "B", 0),
              (5, 1): (6, "W", "½"), (6, 1): (5, "B", "½"),
              (1, 2): (3, "B", 0), (3, 2): (1, "W", 1), (2, 2): (5, "W", 0), (5, 2): (2, "B", 1),
              (4, 2): (6, "B", 1), (6, 2): (4, "W", 0)}
    code, err, book = fill(swiss_book, swiss(rounds, players=6), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    opponents = [[None, 3], [None, 5], [4, 1], [3, 6], [6, 2], [5, 4], [None, None], [None, None]]
    results = [[None, 0], [None, 0], [1, 1], [0, 1], ["½", 1], ["½", 0], [None, None], [None, None]]
    ratings = [2000 - 50 * i for i in range(6)] + [None, None]
    for number in (3, 4, 5, 6):
        for name in ("BH/C1", "BH", "SB"):
            assert ws.cell(4 + number, col[name]).value == pytest.approx(
                unaffected_tiebreaks(name, number, opponents, results, ratings)), (number, name)
    # Player 3 (2 points) leads, 5 (1½) follows; 4 and 6 (1 each) and the contradicted
    # players rank last.
    assert [ws.cell(4 + n, col["Rank"]).value for n in (3, 5)] == [1, 2]
    assert sorted(ws.cell(4 + n, col["Rank"]).value for n in (4, 6)) in ([3, 4], [3, 3])
    assert str(ws.cell(5, col["Rank"]).value).startswith("check round 1: player 1 (P1) and player 2 (P2)")
    assert code == 1


def test_round_robin_unaffected_players_keep_their_tiebreaks(six: Path, tmp_path: Path, capsys) -> None:
    results = every_game(6)
    results[(1, 0)] = 1  # Alpha's win over Beta entered as Beta's win too
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    grid = [[None if i == j or {i, j} == {0, 1} else results[(i, j)] for j in range(6)] for i in range(6)]
    ratings = [[2100 - 50 * i] for i in range(6)]
    for number in range(3, 7):
        sb = udfs.TIEBREAK(["DE", "SB"], None, grid, None, "2026", ratings)[number - 1][0]
        assert ws.cell(4 + number, col["SB"]).value == pytest.approx(sb), number
    # Gamma (player 3) wins against Delta, Epsilon and Zeta and draws with Alpha: first
    # among the unaffected.
    assert ws.cell(7, col["Rank"]).value == 1
    assert code == 1


# ------------------------------------------------------------------------- US Chess

@pytest.fixture(scope="module")
def uscf_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_uscf(tmp_path_factory.mktemp("uscf") / "uscf.xlsx", players=8, rounds=2)


def uscf(rounds: dict[tuple[int, int], tuple], players: int = 8) -> dict[tuple[int, int], object]:
    cells: dict[tuple[int, int], object] = {}
    for i in range(players):
        cells[(5 + i, 2)], cells[(5 + i, 3)], cells[(5 + i, 4)] = f"P{i + 1}", 1800 - 50 * i, 60
    for (number, rnd), (opponent, result) in rounds.items():
        col = 10 + 3 * (rnd - 1)  # opponent, colour, result
        cells[(4 + number, col)], cells[(4 + number, col + 2)] = opponent, result
    return cells


USCF_SHOWN = ("Points", "Games", "Perf.", "K", "Bonus", "One pass", "Two passes", "Change", "Rank",
              "MODMED", "SOLKOFF", "CUMULATIVE", "Check")


def test_uscf_rounds_that_contradict_other_rows(uscf_book: Path, tmp_path: Path, capsys) -> None:
    rounds = {key: (opponent, result) for key, (opponent, _, result) in CONTRADICTING_ROUNDS.items()}
    code, err, book = fill(uscf_book, uscf(rounds), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    for number, reason in REASONS.items():
        for name in USCF_SHOWN:
            assert str(ws.cell(4 + number, col[name]).value).startswith(reason), (number, name)
        # the fourth tie-break column has no code picked: it stays empty in every row
        assert ws.cell(4 + number, col["TB 4"]).value is None
    # Player 3's games agree with the other rows: ½ against 4 and 0 against 1. His one
    # pass stands; the event as a whole cannot be rated until player 1's row is fixed.
    assert ws.cell(7, col["Points"]).value == 0.5
    assert ws.cell(7, col["One pass"]).value == pytest.approx(
        udfs.USCF_NEWRATING(1700, 60, [[1650], [1800]], [["½"], [0]], None, None, None, False, 10,
                            [[4], [1]]))
    assert ws.cell(7, col["Two passes"]).value == "check inputs of player 1 (P1)"
    assert ws.cell(7, col["Rank"]).value == 1
    opponents = [[None, 3], [None, None], [4, 1], [3, None], [None, 6], [None, 5], [None, None], [None, None]]
    results = [[None, 1], [None, None], ["½", 0], ["½", None], [None, "-"], [None, "-"], [None, "H"],
               [None, "+"]]
    ratings = [1800 - 50 * i for i in range(8)]
    for name in ("MODMED", "SOLKOFF", "CUMULATIVE"):
        assert ws.cell(7, col[name]).value == pytest.approx(
            unaffected_tiebreaks(name, 3, opponents, results, ratings)), name
    # The Points block (Games sheet, what the totals add up) leaves the contradicted rounds
    # out: 1's win over 3 in round 2, 3's ½ and 0, 4's ½, the double forfeit's 0 and 0,
    # 7's half-point bye and 8's forfeit win count, 3½ points; eight rounds show a reason.
    lay = UscfLayout.sized(8, 2)
    block = [book["Games"].cell(5 + i, lay.block(3) + 1 + rnd).value for i in range(8) for rnd in range(2)]
    assert sum(v for v in block if isinstance(v, (int, float))) == 3.5
    assert sum(1 for v in block if str(v).startswith("check round")) == 8
    assert code == 1
    assert_listed(err, col)


def test_uscf_consistent_event_rates_as_before(uscf_book: Path, tmp_path: Path, capsys) -> None:
    # Nothing contradicts: no row shows a reason and Two passes is USCF_EVENT's column.
    rounds = {(1, 1): (2, 1), (2, 1): (1, 0), (3, 1): (4, "½"), (4, 1): (3, "½"),
              (1, 2): (3, "½"), (3, 2): (1, "½"), (2, 2): (4, 0), (4, 2): (2, 1)}
    code, err, book = fill(uscf_book, uscf(rounds, players=4), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    event = udfs.USCF_EVENT([[1800], [1750], [1700], [1650]], [[60]] * 4,
                            [[1, "½"], [0, 0], ["½", "½"], ["½", 1]], [[2, 3], [1, 4], [4, 1], [3, 2]])
    for number in range(1, 5):
        assert ws.cell(4 + number, col["Two passes"]).value == pytest.approx(event[number - 1][0])
        assert not str(ws.cell(4 + number, col["Check"]).value or "").startswith("check")
    assert code == 0, err


def test_a_result_that_is_not_one_leaves_the_mirror_standing(six: Path, tmp_path: Path, capsys) -> None:
    # Beta's cell against Gamma holds 2 (no result); Gamma's mirror holds ½. Beta's row
    # says why; Gamma's ½ stands, in his points and, for the game, in everyone's
    # tie-breaks (docs/RULES.md §1.1: a game entered from one side is a game).
    results = every_game(6)
    results[(1, 2)], results[(2, 1)] = 2, "½"
    code, err, book = fill(six, round_robin(results), tmp_path, capsys)
    ws = book["Crosstable"]
    col = headers(ws)
    assert str(ws.cell(6, col["Points"]).value).startswith("check result against player 3: 2 is not a game result")
    assert ws.cell(7, col["Points"]).value == sum(0.5 if v == "½" else v for j, v in
                                                  ((j, results[(2, j)]) for j in range(6) if j != 2))
    grid = [[None if i == j or (i, j) == (1, 2) else results[(i, j)] for j in range(6)] for i in range(6)]
    ratings = [[2100 - 50 * i] for i in range(6)]
    sb = udfs.TIEBREAK(["DE", "SB"], None, grid, None, "2026", ratings)
    assert ws.cell(5, col["SB"]).value == pytest.approx(sb[0][0])
    assert code == 1
