"""export-trf's pre-flight check on what a rating officer sends back, in workbooks typed
as a director types them (openpyxl into the shipped templates, inputs only): a finished
round's game blank on both rows, two players paired twice in a Swiss, a colour typed as a
word or as something that is not one."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from chessrating.cli import main
from chessrating.trf import read_trf
from chessrating.trf.bookview import read_book_view

TEMPLATES = Path(__file__).resolve().parents[2] / "workbooks"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def typed(template: str, tmp_path: Path, crosstable: dict[tuple[int, int], object],
          report: dict[tuple[int, int], object] | None = None, players: int = len(NAMES)) -> Path:
    book = openpyxl.load_workbook(TEMPLATES / template)
    sheet = book["Crosstable"]
    for i, name in enumerate(NAMES[:players]):
        sheet.cell(5 + i, 2).value, sheet.cell(5 + i, 5).value = name, 2000 - 50 * i
    for (row, col), value in crosstable.items():
        sheet.cell(row, col).value = value
    for (row, col), value in (report or {}).items():
        book["Report"].cell(row, col).value = value
    path = tmp_path / template
    book.save(path)
    return path


def export(book: Path, capsys) -> tuple[int, list[str], Path]:  # type: ignore[no-untyped-def]
    out = book.with_suffix(".trf")
    capsys.readouterr()
    code = main(["export-trf", str(book), "-o", str(out)])
    return code, [line.strip() for line in capsys.readouterr().out.splitlines()], out


def swiss(games: dict[tuple[int, int], tuple[object, object, object]]) -> dict[tuple[int, int], object]:
    """(player, round) -> (opponent, colour, result) in the Swiss template's round columns."""
    return {(4 + n, 11 + 3 * (rnd - 1) + k): value
            for (n, rnd), game in games.items() for k, value in enumerate(game)}


SWISS = {
    (1, 1): (2, "W", 1), (2, 1): (1, "B", 0), (3, 1): (4, "W", "½"), (4, 1): (3, "B", "½"),
    # round 2: 1 and 3 paired, no result on either row, while 2-4 has one
    (1, 2): (3, "B", None), (3, 2): (1, "W", None), (2, 2): (4, "W", 1), (4, 2): (2, "B", 0),
    # round 3: 1 and 2 again, 1's colour typed as the word, 2's left blank; 3 typed a colour
    # that is none and a result 5's row does not hold
    (1, 3): (2, "White", 1), (2, 3): (1, None, 0), (3, 3): (5, "Wit", 1), (5, 3): (3, "B", None),
    (4, 3): (6, "W", "½"), (6, 3): (4, "B", "½"),
}


def test_swiss_preflight_names_what_a_rating_officer_sends_back(tmp_path, capsys) -> None:
    code, lines, out = export(typed("fide-swiss.xlsx", tmp_path, swiss(SWISS)), capsys)
    assert code == 1
    assert ("player 1 Ann: round 2: paired with player 3, and neither row holds a result while round 2 "
            "has results: enter it (+ and - for a forfeit)") in lines
    assert "player 1 Ann: round 3: played player 2 again (rounds 1, 3): in a Swiss two players meet once (C.04.1)" \
        in lines
    assert "player 3 Cid: round 3: colour 'Wit' is not W or B; written White, the opposite of player 5's" in lines
    assert ("player 3 Cid: round 3: result '1' against player 5, whose row gives no result: the two sides "
            "disagree") in lines
    assert len([line for line in lines if " again " in line]) == 1
    assert not [line for line in lines if "colour" in line and ("Ann" in line or "Bob" in line)]
    players = read_trf(out).players
    # "White" is White; a blank colour is the opposite of the opponent's: never "-"
    assert [(g.opponent, g.colour) for g in players[0].games] == [(2, "w"), (None, None), (2, "w")]
    assert players[1].games[2].colour == "b" and players[2].games[2].colour == "w"


def test_a_colour_on_neither_row_is_named(tmp_path, capsys) -> None:
    games = {(1, 1): (2, None, 1), (2, 1): (1, "", 0), (3, 1): (4, "w", "½"), (4, 1): (3, "black", "½")}
    code, lines, out = export(typed("fide-swiss.xlsx", tmp_path, swiss(games)), capsys)
    assert "player 1 Ann: round 1: colour missing (W or B), on player 2's row too" in lines
    assert "player 2 Bob: round 1: colour missing (W or B), on player 1's row too" in lines
    assert not [line for line in lines if "colour" in line and ("Cid" in line or "Dan" in line)]
    assert [p.games[0].colour for p in read_trf(out).players[:4]] == [None, None, "w", "b"]


def test_two_forfeits_between_the_same_players_are_no_meeting(tmp_path, capsys) -> None:
    games = {(1, 1): (2, "W", "+"), (2, 1): (1, "B", "-"), (1, 2): (2, "B", 1), (2, 2): (1, "W", 0)}
    _, lines, _ = export(typed("fide-swiss.xlsx", tmp_path, swiss(games)), capsys)
    assert not [line for line in lines if "again" in line]


def round_robin(results: dict[tuple[int, int], object], rounds: dict[tuple[int, int], str],
                tmp_path: Path) -> Path:
    """Results[(i, j)] (1-based) in row i against column j of the round-robin template, and
    each game's round and row colour in the Report sheet's grid."""
    sheet, top, left = read_book_view(TEMPLATES / "fide-round-robin.xlsx").names["GameRounds"][0]
    assert sheet == "Report"
    # the players the rounds name are entered (the grid's blank cells follow the Berger
    # table of the players entered)
    players = max(max(pair) for pair in rounds)
    return typed("fide-round-robin.xlsx", tmp_path,
                 {(4 + i, 10 + j): value for (i, j), value in results.items()},
                 {(top + i - 1, left + j - 1): value for (i, j), value in rounds.items()}, players)


# FIDE's Berger table for 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
BERGER_4 = {(1, 4): "1W", (4, 1): "1B", (2, 3): "1W", (3, 2): "1B", (4, 3): "2W", (3, 4): "2B",
            (1, 2): "2W", (2, 1): "2B", (2, 4): "3W", (4, 2): "3B", (3, 1): "3W", (1, 3): "3B"}


@pytest.mark.parametrize("blank", [(1, 2), (2, 4)])
def test_round_robin_game_blank_on_both_sides_in_a_finished_round(tmp_path, capsys, blank) -> None:
    results = {(1, 4): 1, (4, 1): 0, (2, 3): "½", (3, 2): "½", (4, 3): 0, (3, 4): 1, (1, 2): "½", (2, 1): "½",
               (2, 4): 1, (4, 2): 0, (3, 1): 0, (1, 3): 1}
    a, b = blank
    del results[(a, b)], results[(b, a)]
    code, lines, out = export(round_robin(results, BERGER_4, tmp_path), capsys)
    rnd = int(BERGER_4[blank][0])
    assert code == 1
    assert (f"player {a} {NAMES[a - 1]}: round {rnd}: paired with player {b}, and neither row holds a result "
            f"while round {rnd} has results: enter it (+ and - for a forfeit)") in lines
    assert read_trf(out).players[a - 1].game(rnd).is_blank


def test_round_robin_game_entered_on_one_side_only(tmp_path, capsys) -> None:
    results = {(1, 4): 1, (4, 1): 0, (2, 3): "½", (3, 2): "½", (1, 2): 1}
    _, lines, _ = export(round_robin(results, BERGER_4, tmp_path), capsys)
    assert "player 1 Ann: round 2: result '1' against player 2, whose row gives no result: the two sides disagree" \
        in lines
    # round 2 has a result: its other game is missing; round 3 has none yet
    assert [line for line in lines if "neither row" in line] == [
        "player 3 Cid: round 2: paired with player 4, and neither row holds a result while round 2 has results: "
        "enter it (+ and - for a forfeit)"]
