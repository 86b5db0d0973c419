"""Standings that are not final say so first: ``recalc`` and ``import-trf`` exiting 1
print, above the table, a line saying the standings are provisional (or withheld) and
why, naming the first causes, before the full list on stderr.

Each book is a shipped template typed into as a director types (openpyxl, inputs only),
then recalculated by the command.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from chessrating.cli import main

from conftest import TRF_DATA

TEMPLATES = Path(__file__).resolve().parents[2] / "workbooks"
NAMES = ["Ann", "Bob", "Cid", "Dan"]


def typed(template: str, cells: dict[tuple[int, int], object], tmp_path: Path) -> Path:
    """The shipped template with ``cells`` (row, column) of its Crosstable typed in."""
    book = openpyxl.load_workbook(TEMPLATES / template)
    sheet = book["Crosstable"]
    for i, name in enumerate(NAMES):
        sheet.cell(5 + i, 2).value, sheet.cell(5 + i, 5).value = name, 2000 - 50 * i
    for (row, col), value in cells.items():
        sheet.cell(row, col).value = value
    path = tmp_path / template
    book.save(path)
    return path


def swiss_round(games: dict[int, tuple[object, object, object]]) -> dict[tuple[int, int], object]:
    """Round 1 of the Swiss template: player -> (opponent, colour, result)."""
    return {(4 + n, 11 + k): value for n, game in games.items() for k, value in enumerate(game)}


def recalc(book: Path, capsys) -> tuple[int, list[str], str]:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    code = main(["recalc", str(book), "-o", str(book.with_name("out.xlsx"))])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


WINNERS = ("check round 1: player 1 (Ann) and player 2 (Bob) have 1 and 1, which do not add up "
           "to one game")


def test_swiss_standings_with_a_contradiction_say_first_they_are_provisional(tmp_path, capsys) -> None:
    book = typed("fide-swiss.xlsx", swiss_round({1: (2, "W", 1), 2: (1, "B", 1), 3: (4, "W", "½"),
                                                 4: (3, "B", "½")}), tmp_path)
    code, lines, err = recalc(book, capsys)
    assert code == 1
    assert lines[0] == ("Provisional standings, not final: 1 input to fix; the rows it names show the "
                        "reason instead of numbers and rank last:")
    assert lines[1].startswith("  Crosstable!") and lines[1].endswith(f": {WINNERS}")
    assert lines[2].startswith("Ranked by points")
    table = [line.split()[1] for line in lines[4:8]]
    assert table[:2] == ["Cid", "Dan"]  # the players with numbers first
    assert lines[1].strip() in err  # and listed in full after the table


def test_round_robin_standings_with_an_error_name_its_cell_first(tmp_path, capsys) -> None:
    # Ann beat Bob; Cid's rating typed as a word: every row reading it shows an error
    book = typed("fide-round-robin.xlsx", {(5, 12): 1, (6, 11): 0, (7, 5): "two thousand"}, tmp_path)
    code, lines, err = recalc(book, capsys)
    assert code == 1
    assert lines[0].startswith("Provisional standings, not final: ") and " showing an error" in lines[0]
    assert lines[1].startswith("  Crosstable!") and lines[1].endswith(" — input Crosstable!E7")
    assert any(line.startswith("Ranked by points") for line in lines[1:5])


def test_standings_without_any_points_are_withheld(tmp_path, capsys) -> None:
    # both games of round 1 entered as wins for both: no row has its points
    book = typed("fide-swiss.xlsx", swiss_round({1: (2, "W", 1), 2: (1, "B", 1), 3: (4, "W", 1),
                                                 4: (3, "B", 1)}), tmp_path)
    code, lines, _ = recalc(book, capsys)
    assert code == 1
    assert lines[0] == "Standings withheld: no row has its points: 2 inputs to fix:"
    assert len(lines) == 3 and not any(line.startswith("Ranked by") for line in lines)


def test_final_standings_have_no_heading(tmp_path, capsys) -> None:
    book = typed("fide-swiss.xlsx", swiss_round({1: (2, "W", 1), 2: (1, "B", 0), 3: (4, "W", "½"),
                                                 4: (3, "B", "½")}), tmp_path)
    code, lines, _ = recalc(book, capsys)
    assert code == 0 and lines[0].startswith("Ranked by points")


@pytest.mark.parametrize("system", ["fide", "uscf"])
def test_import_trf_with_a_contradiction_opens_the_standings_with_it(tmp_path, capsys, system) -> None:
    # javafo_sample2.trf, round 1: player 26 entered as the winner against player 1 too
    text = (TRF_DATA / "javafo_sample2.trf").read_text(encoding="latin-1")
    line = next(x for x in text.splitlines() if x.startswith("001   26 "))
    (tmp_path / "both.trf").write_text(text.replace(line, line.replace("     1 b 0 ", "     1 b 1 ", 1)),
                                       encoding="latin-1")
    capsys.readouterr()
    code = main(["import-trf", str(tmp_path / "both.trf"), "-o", str(tmp_path / "both.xlsx"),
                 "--system", system])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    start = lines.index("") + 1  # the standings follow the summary after a blank line
    # (the US Chess workbook, rated as a whole, also names the player to check in every
    # other row's new rating: a second reason)
    fixes = "1 input to fix; the rows it names" if system == "fide" else "2 inputs to fix; the rows they name"
    assert lines[start] == (f"Provisional standings, not final: {fixes} show the reason instead of "
                            "numbers and rank last:")
    assert lines[start + 1].endswith("check round 1: player 1 (Mirzoev Azer) and player 26 (Orube Bona "
                                     "Andoni) have 1 and 1, which do not add up to one game")
    assert lines[start + (2 if system == "fide" else 3)].startswith("Ranked by points")
    if system == "fide":  # the file's ranks are kept, but the workbook ranks such an event otherwise
        assert ("ranks: the file's, on sheet File ranks; not written by export-trf, as the workbook ranks the "
                "event otherwise (results: player 1 has '1' against 26 in round 1 but player 26 has '1'; the "
                "two sides disagree)") in lines
