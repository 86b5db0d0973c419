"""A played game lost by both (FIDE Laws 11.8; docs/RULES.md §1.3): entered as a loss on
both sides it is a game of no points for either, rated as a loss for each, in the FIDE
crosstables typed as a director types them (openpyxl into the shipped templates, then
``chessrating recalc``), through ``import-trf`` and back out through ``export-trf``. The
US Chess crosstable keeps calling it a contradiction."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from chessrating import udfs
from chessrating.cli import main
from chessrating.trf import read_trf
from chessrating.trf.bookview import read_book_view

from conftest import TRF_DATA

TEMPLATES = Path(__file__).resolve().parents[2] / "workbooks"
NAMES = ["Ann", "Bob", "Cid", "Dan"]
RATINGS = [2000, 1950, 1900, 1850]


def recalc(template: str, cells: dict[tuple[int, int], object], tmp_path: Path, capsys,  # type: ignore[no-untyped-def]
           rating_col: int = 5) -> tuple[int, str, dict[str, list[object]]]:
    book = openpyxl.load_workbook(TEMPLATES / template)
    sheet = book["Crosstable"]
    for i, name in enumerate(NAMES):
        sheet.cell(5 + i, 2).value, sheet.cell(5 + i, rating_col).value = name, RATINGS[i]
    for (row, col), value in cells.items():
        sheet.cell(row, col).value = value
    typed = tmp_path / template
    book.save(typed)
    capsys.readouterr()
    code = main(["recalc", str(typed), "-o", str(tmp_path / "out.xlsx")])
    out, err = capsys.readouterr()
    view = read_book_view(tmp_path / "out.xlsx")
    named = {name: view.named(name)[:4] for name in ("Points", "RatingChange", "Rank")}
    return code, out + err, named


def fide_change(rating: int, opponent: int, result: object) -> float:
    return udfs.FIDE_CHANGE(rating, [[opponent]], [[result]], 20, "2025")


def test_round_robin_takes_a_game_lost_by_both(tmp_path, capsys) -> None:
    # Ann and Bob both lost (0 in both cells), Cid and Dan drew
    code, printed, named = recalc("fide-round-robin.xlsx", {(5, 12): 0, (6, 11): 0, (7, 14): "½", (8, 13): "½"},
                                  tmp_path, capsys)
    assert code == 0 and "check " not in printed
    assert named["Points"] == [0, 0, 0.5, 0.5]
    # each rated by his own result, a loss (FIDE table 8.1.2: 2000 v 1950 expects 0.57)
    assert named["RatingChange"][:2] == [pytest.approx(fide_change(2000, 1950, 0)),
                                         pytest.approx(fide_change(1950, 2000, 0))]
    assert named["RatingChange"][0] == pytest.approx(-11.4)


def test_swiss_takes_a_game_lost_by_both(tmp_path, capsys) -> None:
    cells = {(5, 11): 2, (5, 12): "W", (5, 13): 0, (6, 11): 1, (6, 12): "B", (6, 13): 0,
             (7, 11): 4, (7, 12): "W", (7, 13): "½", (8, 11): 3, (8, 12): "B", (8, 13): "½"}
    code, printed, named = recalc("fide-swiss.xlsx", cells, tmp_path, capsys)
    assert code == 0 and "check " not in printed
    assert named["Points"] == [0, 0, 0.5, 0.5] and named["Rank"] == [3, 3, 1, 1]
    assert named["RatingChange"][1] == pytest.approx(fide_change(1950, 2000, 0))


def test_the_us_chess_crosstable_still_calls_it_a_contradiction(tmp_path, capsys) -> None:
    # (no source says how US Chess rates a double loss: docs/RULES.md §1.3)
    cells = {(5, 10): 2, (5, 12): 0, (6, 10): 1, (6, 12): 0}
    code, printed, _ = recalc("uscf-event.xlsx", cells, tmp_path, capsys, rating_col=3)
    assert code == 1
    assert "check round 1: player 1 (Ann) and player 2 (Bob) have 0 and 0, which do not add up to one game" in printed


def test_import_and_export_keep_a_game_lost_by_both(tmp_path, capsys) -> None:
    # javafo_sample2.trf, round 1: Mirzoev (1) beat Orube (26); here the arbiter declared
    # the game lost by both: 0 on both lines
    text = (TRF_DATA / "javafo_sample2.trf").read_text(encoding="latin-1")
    line = next(x for x in text.splitlines() if x.startswith("001    1 "))
    source = tmp_path / "both-lost.trf"
    source.write_text(text.replace(line, line.replace("    26 w 1 ", "    26 w 0 ", 1)), encoding="latin-1")
    original = read_trf(source)
    assert not [w for w in original.warnings if "do not match" in w.message]
    book = tmp_path / "both-lost.xlsx"
    capsys.readouterr()
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    printed = capsys.readouterr().out
    assert "check " not in printed
    view = read_book_view(book)
    points = view.named("Points")
    assert (points[0], points[25]) == (3.0, 2.0)  # 4 and 2 in the file: player 1 lost a point
    out = tmp_path / "back.trf"
    main(["export-trf", str(book), "-o", str(out)])
    printed = capsys.readouterr().out
    assert "disagree" not in printed
    back = read_trf(out)
    assert (back.players[0].game(1).code, back.players[25].game(1).code) == ("0", "0")
    assert (back.players[0].points, back.players[25].points) == (3.0, 2.0)
