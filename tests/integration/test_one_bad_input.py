"""One bad input, one row: a cell the crosstable cannot read stops only the rows it names.

Each crosstable shipped in workbooks/ is filled the way a director types (openpyxl, text
kept as text) twice: once with the typos of a new user, each in its own rows (a rating
typed ``2,05``, a junior list's rating 10, a colour typed ``White`` or ``X``, an opponent
number stored as text, a name in a result cell, a bye beside an opponent, a win against
a forfeit), once as it should have been, the unreadable games left out. After ``chessrating
recalc`` the rows a typo names show its reason (docs/RULES.md §1, §1.1) and every other
row keeps the points, tie-breaks and the order of ranks of the book without the typos;
the command exits 1 and names the cells.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from chessrating.cli import main
from chessrating.workbooks.roundrobin import RoundRobinLayout
from chessrating.workbooks.swiss import SwissLayout, build_swiss
from chessrating.workbooks.uscf import UscfLayout, build_uscf

SHIPPED = Path(__file__).resolve().parents[2] / "workbooks"
Cells = dict[tuple[int, int], object]


def recalc(template: Path, cells: Cells, folder: Path, capsys: pytest.CaptureFixture[str],
           named: dict[str, object] | None = None) -> tuple[int, str, Table]:
    """Type ``cells`` (1-based row, column) into the Crosstable sheet and ``named`` into the
    cells of workbook names, run ``chessrating recalc``: its exit code, what it wrote on
    stderr and the player rows by header."""
    book = openpyxl.load_workbook(template)
    sheet = book["Crosstable"]
    for (row, col), value in cells.items():
        sheet.cell(row, col).value = value
        if isinstance(value, str):
            sheet.cell(row, col).data_type = "s"  # as Excel keeps typed text
    for name, value in (named or {}).items():
        at_sheet, ref = next(iter(book.defined_names[name].destinations))
        book[at_sheet][ref.replace("$", "")].value = value
    folder.mkdir(exist_ok=True)
    typed = folder / "typed.xlsx"
    book.save(typed)
    capsys.readouterr()
    code = main(["recalc", str(typed), "-o", str(folder / "out.xlsx")])
    err = capsys.readouterr().err
    return code, err, Table(folder / "out.xlsx")


class Table(dict[str, list]):
    """The player rows (from row 5) of a recalculated Crosstable, by header, and the
    column letter of each header."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        sheet = openpyxl.load_workbook(path, data_only=True)["Crosstable"]
        self.letters: dict[str, str] = {}
        for col in range(1, sheet.max_column + 1):
            for row in (4, 3):
                title = sheet.cell(row, col).value
                if isinstance(title, str) and title not in self:
                    self[title] = [sheet.cell(r, col).value for r in range(5, 5 + 40)]
                    self.letters[title] = openpyxl.utils.get_column_letter(col)


def same_order(ranks: list, reference: list, players: set[int]) -> bool:
    """Whether ``players`` (1-based) stand in the same order, ties kept, in both rank columns."""
    def sign(a: float, b: float) -> int:
        return (a > b) - (a < b)
    return all(sign(ranks[p - 1], ranks[q - 1]) == sign(reference[p - 1], reference[q - 1])
               for p in players for q in players)


def assert_stopped(rows: dict[str, list], player: int, reason: str, shown: tuple[str, ...]) -> None:
    for header in shown:
        assert str(rows[header][player - 1]).startswith(reason), (player, header, rows[header][player - 1])


def assert_kept(rows: dict[str, list], reference: dict[str, list], players: set[int],
                headers: tuple[str, ...]) -> None:
    for header in headers:
        for p in players:
            value = rows[header][p - 1]
            assert isinstance(value, (int, float)), (p, header, value)
            assert value == pytest.approx(reference[header][p - 1]), (p, header)


# --------------------------------------------------------------------- Swiss, US Chess

PLAYERS = 16
# Three rounds of 16 players: (lower number, higher number) per board; the lower number
# has White in rounds 1 and 3 and wins unless the sum of the numbers and the round is a
# multiple of 3 (a draw).
PAIRINGS = {1: [(1, 9), (2, 10), (3, 11), (4, 12), (5, 13), (6, 14), (7, 15), (8, 16)],
            2: [(1, 5), (2, 6), (3, 7), (4, 8), (9, 13), (10, 14), (11, 15), (12, 16)],
            3: [(1, 3), (2, 4), (5, 7), (6, 8), (9, 11), (10, 12), (13, 15), (14, 16)]}


def rounds() -> dict[tuple[int, int], tuple[object, object, object]]:
    """(player, round) -> (opponent, colour, result) of the event as it should be."""
    entries: dict[tuple[int, int], tuple[object, object, object]] = {}
    for rnd, boards in PAIRINGS.items():
        for low, high in boards:
            drawn = (low + high + rnd) % 3 == 0
            white_low = rnd != 2
            entries[(low, rnd)] = (high, "W" if white_low else "B", "½" if drawn else 1)
            entries[(high, rnd)] = (low, "B" if white_low else "W", "½" if drawn else 0)
    return entries


def typed(lay: SwissLayout | UscfLayout, rating_col: int, games_col: int, ratings: list[object],
          entries: dict[tuple[int, int], tuple[object, object, object]]) -> Cells:
    """The cells a director types: names, ratings, rated games and the rounds."""
    cells: Cells = {}
    for i in range(PLAYERS):
        cells[(5 + i, 2)], cells[(5 + i, rating_col)], cells[(5 + i, games_col)] = f"P{i + 1}", ratings[i], 60
    for (player, rnd), (opponent, colour, result) in entries.items():
        r = 4 + player
        cells[(r, lay.opp(rnd - 1) + 1)] = opponent
        cells[(r, lay.colour(rnd - 1) + 1)] = colour
        cells[(r, lay.result(rnd - 1) + 1)] = result
    return cells


RATINGS: list[object] = [2400 - 50 * i for i in range(PLAYERS)]
# The typos, each in its own rows.
BAD_RATINGS = {1: "2,05", 2: 10}
BAD_ROUNDS = {
    (8, 1): (16, "White", 1),     # a colour as Excel users type it: read as W
    (14, 1): (6, "X", "½"),       # not a colour: 14's Check says so, the game stands
    (5, 1): ("13", "W", 1),       # the opponent's number stored as text: 5 and 13 stop
    (7, 2): (3, "W", "P3"),       # a name in a result cell: 7 stops, 3's entry stands
    (9, 3): (11, "W", "H"), (11, 3): (9, "B", "½"),  # a bye beside an opponent: 9 and 11 stop
    (10, 3): (12, "W", 1), (12, 3): (10, "B", "-"),  # a win against a forfeit: 10 and 12 stop
}
# How the rows left out read in the book without the typos: the unreadable games blank on
# both sides; the name in 7's result cell was 7's loss, which 3's entry already says.
LEFT_OUT = [(5, 1), (13, 1), (9, 3), (11, 3), (10, 3), (12, 3)]
REASONS = {
    5: "check opponent in round 1: 13 is text: type it as a number",
    13: "check round 1: player 13 (P13) names player 5 (P5) as opponent, whose row names no valid opponent",
    7: "check result of round 2: P3 is not a game result",
    9: "check round 3: player 9 (P9) and player 11 (P11) have H and ½, which do not add up to one game",
    11: "check round 3: player 9 (P9) and player 11 (P11) have H and ½, which do not add up to one game",
    10: "check round 3: player 10 (P10) and player 12 (P12) have 1 and -, which do not add up to one game",
    12: "check round 3: player 10 (P10) and player 12 (P12) have 1 and -, which do not add up to one game",
}
KEPT = set(range(1, PLAYERS + 1)) - set(REASONS)


def the_books(lay: SwissLayout | UscfLayout, rating_col: int, games_col: int) -> tuple[Cells, Cells]:
    """The book with the typos and the book as it should be, the unreadable games left out."""
    entries = rounds()
    bad_ratings = [BAD_RATINGS.get(i + 1, RATINGS[i]) for i in range(PLAYERS)]
    bad = typed(lay, rating_col, games_col, bad_ratings, {**entries, **BAD_ROUNDS})
    without = {key: value for key, value in entries.items() if key not in LEFT_OUT}
    reference = typed(lay, rating_col, games_col, RATINGS, without)
    for player, rnd in LEFT_OUT:  # blank, not missing: the same cells typed over
        for col in (lay.opp(rnd - 1), lay.colour(rnd - 1), lay.result(rnd - 1)):
            reference[(4 + player, col + 1)] = None
    return bad, reference


def assert_listed(err: str, rows: Table, checks: dict[int, str]) -> None:
    """recalc names each reason once, with the Check cells showing it."""
    check = rows.letters["Check"]
    by_reason: dict[str, list[str]] = {}
    for player, reason in checks.items():
        by_reason.setdefault(reason, []).append(f"{check}{4 + player}")
    for reason, cells in by_reason.items():
        assert f"Crosstable!{', '.join(cells)}: {reason}" in err, reason


def test_swiss_one_bad_input_stops_one_row(tmp_path: Path, capsys) -> None:
    lay = SwissLayout.sized(200, 11)
    bad, reference = the_books(lay, 5, 6)
    # a rating-based tie-break beside the defaults: it alone reads the ratings
    codes = {"TieBreak4": "ARO"}
    code, err, rows = recalc(SHIPPED / "fide-swiss.xlsx", bad, tmp_path / "bad", capsys, codes)
    ref_code, ref_err, expected = recalc(SHIPPED / "fide-swiss.xlsx", reference, tmp_path / "ref", capsys, codes)
    assert ref_code == 0, ref_err
    for player, reason in REASONS.items():
        assert_stopped(rows, player, reason, ("Points", "Rank", "BH/C1", "BH", "SB", "ARO", "Change", "Check"))
    # The others keep points and tie-breaks; a refused rating reaches only the ARO of the
    # rows that met its player (3 met 1; 4 and 6 met 2), and no rank but theirs may move.
    met = {3: 1, 4: 2, 6: 2}
    assert_kept(rows, expected, KEPT, ("Points", "BH/C1", "BH", "SB"))
    assert_kept(rows, expected, KEPT - set(met), ("ARO",))
    for player, rated in met.items():
        assert rows["ARO"][player - 1] == f"check rating of player {rated} (P{rated})", player
    assert same_order(rows["Rank"], expected["Rank"], KEPT - set(met))
    assert all(isinstance(rows["Rank"][p - 1], int) for p in KEPT)
    # The rows' own Check: the refused ratings (their K and change show the function's
    # message), the colour X; White is W.
    assert rows["Check"][0] == "rating: '2,05' is not a rating from 100 to 4000"
    assert rows["Check"][1] == "rating: 10 is not a rating from 100 to 4000"
    assert rows["Check"][13] == "check colour of round 1: X is not W or B"
    assert rows["Check"][7] is None and rows["Points"][7] == expected["Points"][7]
    assert code == 1
    assert_listed(err, rows, {14: rows["Check"][13], **REASONS})
    assert "— input Crosstable!E5" in err and "— input Crosstable!E6" in err


def test_uscf_one_bad_input_stops_one_row(tmp_path: Path, capsys) -> None:
    lay = UscfLayout.sized(100, 9)
    bad, reference = the_books(lay, 3, 4)
    code, err, rows = recalc(SHIPPED / "uscf-event.xlsx", bad, tmp_path / "bad", capsys)
    ref_code, ref_err, expected = recalc(SHIPPED / "uscf-event.xlsx", reference, tmp_path / "ref", capsys)
    assert ref_code == 0, ref_err
    tiebreaks = ("MODMED", "SOLKOFF", "CUMULATIVE")
    for player, reason in REASONS.items():
        assert_stopped(rows, player, reason, ("Points", "Rank", *tiebreaks, "One pass", "Check"))
    # No US Chess tie-break reads a rating: the refused ones stop none of them. The event
    # is rated as a whole, so Two passes names the first player to check (§1.1).
    assert_kept(rows, expected, KEPT, ("Points", *tiebreaks))
    assert same_order(rows["Rank"], expected["Rank"], KEPT)
    assert rows["Two passes"][2] == "check inputs of player 1 (P1)"
    assert rows["Check"][0] == "rating: '2,05' is not a rating from 100 to 4000"
    assert rows["Check"][13] == "check colour of round 1: X is not W or B"
    assert code == 1
    assert_listed(err, rows, {14: rows["Check"][13], **REASONS})


@pytest.mark.parametrize("build, players, rounds_", [
    (build_swiss, 6, 2), (build_swiss, 4, 4), (build_uscf, 6, 2), (build_uscf, 4, 4)])
def test_a_bye_entered_before_any_pairing(tmp_path: Path, capsys, build, players, rounds_) -> None:
    # Round 1 not paired yet, player 2 has asked for a half-point bye: no opponent
    # anywhere (square or not, the block is rounds, not a round-robin grid).
    template = build(tmp_path / "book.xlsx", players=players, rounds=rounds_)
    lay = (SwissLayout if build is build_swiss else UscfLayout).sized(players, rounds_)
    cells: Cells = {(5 + i, 2): f"P{i + 1}" for i in range(players)}
    cells[(6, lay.result(0) + 1)] = "H"
    code, err, rows = recalc(template, cells, tmp_path / "out", capsys)
    assert code == 0, err
    assert rows["Points"][1] == 0.5 and rows["Rank"][1] == 1
    first_tiebreak = list(rows)[list(rows).index("Rank") + 1]
    assert isinstance(rows[first_tiebreak][1], (int, float))


# ------------------------------------------------------------------------ round robin

RR_PLAYERS = 10
RR_RATINGS: list[object] = [2500 - 40 * i for i in range(RR_PLAYERS)]


def rr_results() -> dict[tuple[int, int], object]:
    """Every game of 10 players (1-based): the lower number wins, every third game drawn."""
    results: dict[tuple[int, int], object] = {}
    for i in range(1, RR_PLAYERS + 1):
        for j in range(i + 1, RR_PLAYERS + 1):
            drawn = (i + j) % 3 == 0
            results[(i, j)], results[(j, i)] = ("½", "½") if drawn else (1, 0)
    return results


def rr_cells(ratings: list[object], results: dict[tuple[int, int], object]) -> Cells:
    lay = RoundRobinLayout(20)
    cells: Cells = {}
    for i in range(RR_PLAYERS):
        cells[(5 + i, 2)], cells[(5 + i, 5)], cells[(5 + i, 6)] = f"P{i + 1}", ratings[i], 60
    for (i, j), value in results.items():
        cells[(4 + i, lay.grid + j)] = value
    return cells


def test_round_robin_one_bad_input_stops_one_row(tmp_path: Path, capsys) -> None:
    results = rr_results()
    bad_results = {**results, (3, 4): "P4", (5, 6): "H", (6, 5): "½", (7, 8): 1, (8, 7): "-"}
    bad_ratings = [{1: "2,05", 2: 10}.get(i + 1, RR_RATINGS[i]) for i in range(RR_PLAYERS)]
    # without the typos: the ratings right, 3's result against 4 a win (4's cell says so),
    # the two contradicted games not entered
    fixed = {**results, (3, 4): 1, (5, 6): None, (6, 5): None, (7, 8): None, (8, 7): None}
    template = SHIPPED / "fide-round-robin.xlsx"
    code, err, rows = recalc(template, rr_cells(bad_ratings, bad_results), tmp_path / "bad", capsys)
    ref_code, ref_err, expected = recalc(template, rr_cells(RR_RATINGS, fixed), tmp_path / "ref", capsys)
    assert ref_code == 0, ref_err
    reasons = {3: "check result against player 4: P4 is not a game result",
               5: "check game of player 5 (P5) and player 6 (P6): P9 holds H and O10 holds ½, which do not add up to one game",
               7: "check game of player 7 (P7) and player 8 (P8): R11 holds 1 and Q12 holds -, which do not add up to one game"}
    reasons[6], reasons[8] = reasons[5], reasons[7]
    tiebreaks = ("DE", "SB", "WIN", "KS")
    for player, reason in reasons.items():
        assert_stopped(rows, player, reason, ("Points", "Rank", *tiebreaks, "Check"))
    kept = set(range(1, RR_PLAYERS + 1)) - set(reasons)
    assert_kept(rows, expected, kept, ("Points", *tiebreaks))
    assert same_order(rows["Rank"], expected["Rank"], kept)
    # the refused ratings: their own Check, and the Change of every row that met them
    assert rows["Check"][1] == "rating: 10 is not a rating from 100 to 4000"
    assert rows["Change"][9] == "check rating of player 1 (P1)"
    assert code == 1
    assert_listed(err, rows, reasons)
