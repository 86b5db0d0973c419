"""What a user types into the templates: every result spelling read once, refused input
never turned into a number, and an error that says which player's input to fix.

Each test fills a small template as a user would (typed text keeps its spaces and case),
recalculates it with chessrating.recalc and compares the cells with the functions called
directly on the same typed values (chessrating.udfs) and with results.read_result.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from chessrating import udfs
from chessrating.recalc import recalculate
from chessrating.results import read_result
from chessrating.workbooks.roundrobin import build_round_robin
from chessrating.workbooks.swiss import build_swiss
from chessrating.workbooks.uscf import build_uscf

# A result as typed, and what its opponent typed in the mirror cell: spaces and case as
# a user leaves them (README: any case, spaces ignored).
SPELLINGS = [(" 1 ", "0 "), ("w", " l"), (" W ", "L"), ("½", " ½ "), ("= ", " = "), ("d ", " D"),
             ("0.5 ", " 0,5"), (" 1/2", ".5"), ("1.0", "0.0"), (" + ", "- "), ("x", "f"),
             (1, 0), (0.5, "½")]
# Values the functions refuse as results.
REFUSED = [2, "x2", "½½", -1]


def fill(template: Path, cells: dict[tuple[int, int], object], out: Path) -> openpyxl.Workbook:
    """Type ``cells`` (row, column: value) into the Crosstable sheet, recalculate, and
    return the workbook with the computed values. Text is stored as text, as Excel stores
    what is typed (openpyxl would take a leading ``=`` for a formula)."""
    book = openpyxl.load_workbook(template)
    sheet = book["Crosstable"]
    for (row, col), value in cells.items():
        sheet.cell(row, col).value = value
        if isinstance(value, str):
            sheet.cell(row, col).data_type = "s"
    typed = out.with_name(out.stem + "-typed.xlsx")
    book.save(typed)
    recalculate(typed, out)
    return openpyxl.load_workbook(out, data_only=True)


def expected(rating: int, opponent: int) -> float:
    """FIDE_EXPECTED of two single ratings as a number (a range call gives an array)."""
    value = udfs.FIDE_EXPECTED(rating, opponent)
    while isinstance(value, list):
        value = value[0]
    return value


def headers(ws, rows=(3, 4)) -> dict[str, int]:
    found: dict[str, int] = {}
    for row in rows:
        for c in ws[row]:
            if isinstance(c.value, str) and c.value not in found:
                found[c.value] = c.column
    return found


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_round_robin(tmp_path_factory.mktemp("rr") / "rr.xlsx", size=3)


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_swiss(tmp_path_factory.mktemp("swiss") / "swiss.xlsx", players=4, rounds=2)


@pytest.fixture(scope="module")
def uscf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_uscf(tmp_path_factory.mktemp("uscf") / "uscf.xlsx", players=3, rounds=2)


# Players of the round robin: name, rating, K (rated games 100 so that K is the rule
# book's for an adult under 2400, no assumption).
RR = [("Alpha", 2100), ("Beta", 2000), ("Gamma", 1900)]


def round_robin_cells(results: dict[tuple[int, int], object], ratings=None) -> dict:
    cells: dict[tuple[int, int], object] = {}
    for i, (name, rating) in enumerate(RR):
        cells[(5 + i, 2)] = name
        cells[(5 + i, 5)] = rating if ratings is None else ratings[i]
        cells[(5 + i, 6)] = 100
    for (i, j), value in results.items():
        cells[(5 + i, 11 + j)] = value
    return cells


@pytest.mark.parametrize("mine,theirs", SPELLINGS)
def test_round_robin_reads_every_spelling_as_the_functions_do(round_robin, tmp_path, mine, theirs):
    book = fill(round_robin, round_robin_cells({(0, 1): mine, (1, 0): theirs, (0, 2): 1, (2, 0): 0}),
                tmp_path / "rr.xlsx")
    ws = book["Crosstable"]
    col = headers(ws, rows=(4,))
    mine_result, theirs_result = read_result(mine), read_result(theirs)
    # Points: the points results.read_result gives, the pair adding up to one game's point.
    assert ws.cell(5, col["Points"]).value == mine_result.points + 1
    assert ws.cell(6, col["Points"]).value == theirs_result.points
    assert mine_result.points + theirs_result.points == 1
    # Per game (rows 11-13 expected, 17-19 change, 35-37 points): an expected score and a
    # change only where the functions rate the game.
    expected_game, change_game, points_game = ws["L11"].value, ws["L17"].value, ws["L35"].value
    assert points_game == mine_result.points
    if mine_result.rated:
        assert expected_game == expected(2100, 2000)
        assert change_game == pytest.approx(udfs.FIDE_CHANGE(2100, [[2000]], [[mine]], 20))
    else:
        # a forfeit: no expected score, no change (the change cell says why)
        assert expected_game is None and not isinstance(change_game, (int, float))
    # Totals: the functions on the same typed row.
    assert ws.cell(5, col["Change"]).value == pytest.approx(
        udfs.FIDE_CHANGE(2100, [[2000, 1900]], [[mine, 1]], 20))
    assert ws.cell(5, col["New rating"]).value == udfs.FIDE_NEWRATING(2100, [[2000, 1900]], [[mine, 1]], 20)
    assert ws.cell(5, col["Perf. (TPR)"]).value == udfs.PERF_RATING([[2000, 1900]], [[mine, 1]])
    expected_total = expected(2100, 1900) + (expected(2100, 2000) if mine_result.rated else 0)
    assert ws.cell(5, col["Expected"]).value == pytest.approx(expected_total)
    assert ws.cell(6, col["Change"]).value == pytest.approx(udfs.FIDE_CHANGE(2000, [[2100]], [[theirs]], 20))


@pytest.mark.parametrize("bad", REFUSED)
def test_a_refused_result_gives_no_points_and_no_expected_score(round_robin, tmp_path, bad):
    book = fill(round_robin, round_robin_cells({(0, 1): bad, (1, 0): 0, (0, 2): " 1", (2, 0): "0"}),
                tmp_path / "rr.xlsx")
    ws = book["Crosstable"]
    col = headers(ws, rows=(4,))
    message = f"check result against player 2: {bad} is not a game result"
    # The game's own cells: a message where points, an expected score or a change would be.
    assert (ws["L35"].value, ws["L11"].value, ws["L17"].value) == (message, message, message)
    # Every total of the row that would rest on it shows the message, never a number.
    for header in ("Points", "Expected", "Perf. (TPR)", "Change", "New rating"):
        assert ws.cell(5, col[header]).value == message, header
    # The function refuses the same value.
    with pytest.raises(Exception, match="is not a game result"):
        udfs.FIDE_CHANGE(2100, [[2000, 1900]], [[bad, 1]], 20)
    # The other rows are untouched: Beta's 0 against Alpha is a rated loss.
    assert ws.cell(6, col["Points"]).value == 0
    assert ws.cell(6, col["Change"]).value == pytest.approx(udfs.FIDE_CHANGE(2000, [[2100]], [[0]], 20))


def test_a_refused_rating_is_named_in_the_rows_that_meet_it(round_robin, tmp_path):
    results = {(0, 1): 1, (1, 0): 0, (0, 2): "½", (2, 0): "½", (1, 2): 1, (2, 1): 0}
    book = fill(round_robin, round_robin_cells(results, ratings=[2100, "abc", 1900]), tmp_path / "rr.xlsx")
    ws = book["Crosstable"]
    col = headers(ws, rows=(4,))
    # Beta's own row says what is wrong with Beta's rating (the function's message).
    assert ws.cell(6, col["Check"]).value.startswith("rating: 'abc' is not a number")
    assert ws.cell(6, col["Change"]).value.startswith("rating: 'abc' is not a number")
    # The rows that met Beta say whose input to fix, without an item number.
    for row in (5, 7):
        for header in ("Expected", "Perf. (TPR)", "Change", "New rating"):
            assert ws.cell(row, col[header]).value == "check rating of player 2 (Beta)", (row, header)
    # Their Check cells say it too, in a column wide enough to print it on one line.
    assert [ws.cell(r, col["Check"]).value for r in (5, 7)] == ["check rating of player 2 (Beta)"] * 2
    assert not any("(item" in str(c.value) for line in ws.iter_rows(min_row=5, max_row=7) for c in line)
    # Points do not need ratings: still counted.
    assert [ws.cell(r, col["Points"]).value for r in (5, 6, 7)] == [1.5, 1, 0.5]


def swiss_cells(rounds: dict[tuple[int, int], tuple], ratings=(2000, 1900, 1800, 1700)) -> dict:
    cells: dict[tuple[int, int], object] = {}
    for i, rating in enumerate(ratings):
        cells[(5 + i, 2)], cells[(5 + i, 5)], cells[(5 + i, 6)] = "ABCD"[i], rating, 100
    for (number, rnd), (opponent, colour, result) in rounds.items():
        c = 11 + 3 * (rnd - 1)
        cells[(4 + number, c)], cells[(4 + number, c + 1)], cells[(4 + number, c + 2)] = opponent, colour, result
    return cells


@pytest.mark.parametrize("mine,theirs", SPELLINGS)
def test_swiss_reads_every_spelling_as_the_functions_do(swiss, tmp_path, mine, theirs):
    rounds = {(1, 1): (2, "W", mine), (2, 1): (1, "B", theirs), (3, 1): (4, "W", "1"), (4, 1): (3, "B", 0),
              (1, 2): (3, "B", " ½"), (3, 2): (1, "W", "= ")}
    book = fill(swiss, swiss_cells(rounds), tmp_path / "swiss.xlsx")
    ws, games = book["Crosstable"], book["Games"]
    col = headers(ws)
    mine_result = read_result(mine)
    assert ws.cell(5, col["Points"]).value == mine_result.points + 0.5
    assert ws.cell(6, col["Points"]).value == read_result(theirs).points
    # Games sheet, 2 rounds: expected score in I:J, points in X:Y
    assert games["X5"].value == mine_result.points
    assert games["I5"].value == (expected(2000, 1900) if mine_result.rated else None)
    assert ws.cell(5, col["Change"]).value == pytest.approx(
        udfs.FIDE_CHANGE(2000, [[1900, 1800]], [[mine, " ½"]], 20))
    expected_total = expected(2000, 1800) + (expected(2000, 1900) if mine_result.rated else 0)
    assert ws.cell(5, col["Expected"]).value == pytest.approx(expected_total)


@pytest.mark.parametrize("bad", REFUSED)
def test_swiss_refused_result_and_rating(swiss, tmp_path, bad):
    rounds = {(1, 1): (2, "W", bad), (2, 1): (1, "B", "0"), (3, 1): (4, "W", "1"), (4, 1): (3, "B", 0),
              (3, 2): (2, "B", "½"), (2, 2): (3, "W", "½")}
    book = fill(swiss, swiss_cells(rounds, ratings=(2000, 1900, 1800, "2x")), tmp_path / "swiss.xlsx")
    ws = book["Crosstable"]
    col = headers(ws)
    message = f"check result of round 1: {bad} is not a game result"
    for header in ("Points", "Expected", "Change", "New rating"):
        assert ws.cell(5, col[header]).value == message, header
    # D's rating is refused: D's row says why, C (who met D) is told to check D.
    assert ws.cell(8, col["Check"]).value.startswith("rating: '2x' is not a number")
    assert ws.cell(7, col["Change"]).value == "check rating of player 4 (D)"
    assert ws.cell(7, col["Points"]).value == 1.5


def test_uscf_names_the_player_to_fix_in_every_row(uscf, tmp_path):
    cells = {(5, 2): "A", (5, 3): 1600, (5, 4): 40, (6, 2): "B", (6, 3): "16OO", (6, 4): 40,
             (7, 2): "C", (7, 3): 1500, (7, 4): 40,
             (5, 10): 2, (5, 12): " W", (6, 10): 1, (6, 12): "l ", (5, 13): 3, (5, 15): "=", (7, 13): 1,
             (7, 15): " ½"}
    book = fill(uscf, cells, tmp_path / "uscf.xlsx")
    ws = book["Crosstable"]
    col = headers(ws)
    assert ws.cell(6, col["Check"]).value.startswith("rating: '16OO' is not a number")
    # The event is rated as a whole: every row names player 2.
    assert [ws.cell(r, col["Two passes"]).value for r in (5, 6, 7)] == ["check inputs of player 2 (B)"] * 3
    # Check: B's own reason; A and C are told to check B.
    assert [ws.cell(r, col["Check"]).value for r in (5, 7)] == ["check inputs of player 2 (B)"] * 2
    # One pass: A met B and says so; C did not and is rated.
    assert ws.cell(5, col["One pass"]).value == "check inputs of player 2 (B)"
    assert ws.cell(7, col["One pass"]).value == pytest.approx(
        udfs.USCF_NEWRATING(1500, 40, [[1600]], [[" ½"]]))
    # Points read every spelling: W + = and ½.
    assert [ws.cell(r, col["Points"]).value for r in (5, 6, 7)] == [1.5, 0, 0.5]


def test_reasons_wrap_and_print_whole(round_robin):
    ws = openpyxl.load_workbook(round_robin)["Crosstable"]
    col = headers(ws, rows=(4,))
    # Norm and Check wrap a reason; a number cell showing one is cut at its edge rather
    # than drawn over the rows above and below on paper.
    for header in ("Norm", "Check"):
        assert ws.cell(5, col[header]).alignment.wrap_text, header
    for header in ("Points", "Expected", "Change", "New rating"):
        assert not ws.cell(5, col[header]).alignment.wrap_text, header
    check = openpyxl.utils.get_column_letter(col["Check"])
    widths = [d.width for d in ws.column_dimensions.values() if d.min <= col["Check"] <= d.max]
    # about one character a unit a line, three lines a row (tests/test_render.py measures
    # it on paper): the longest message, a refused result with its value
    assert all(ws.row_dimensions[r].height >= 42 for r in (5, 6, 7))
    assert widths and 3 * widths[0] >= len("check result against player 20: 1/2½ is not a game result")
    # the Check column is inside the printed area (its width; the rows follow the entries)
    book = openpyxl.load_workbook(round_robin)
    area = book.defined_names["PrintEnteredCrosstable"].attr_text
    assert area.endswith(f",{col['Check']})") and area.startswith("OFFSET(Crosstable!$A$1,0,0,"), (area, check)
