"""What a newcomer meets first says what to do: a number typed as text in an opponent
cell (``'2``), and ``export-trf`` handed a ``.xls``. Books are the shipped templates typed
into with openpyxl, as a director types."""

from __future__ import annotations

import sys
from pathlib import Path

import openpyxl
import pytest

from chessrating.cli import main

TEMPLATES = Path(__file__).resolve().parents[2] / "workbooks"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))


@pytest.mark.parametrize("template, rating_col, result_col", [("fide-swiss.xlsx", 5, 13),
                                                              ("uscf-event.xlsx", 3, 12)])
def test_an_opponent_typed_as_text_is_named_as_text(tmp_path, capsys, template, rating_col, result_col) -> None:
    book = openpyxl.load_workbook(TEMPLATES / template)
    sheet = book["Crosstable"]
    opponent_col = result_col - 2
    for row, (name, opponent, result) in enumerate([("Ann", "2", 1), ("Bob", 1, 0), ("Cid", "x", 1)], start=5):
        sheet.cell(row, 2).value, sheet.cell(row, rating_col).value = name, 1800
        sheet.cell(row, opponent_col).value, sheet.cell(row, result_col).value = opponent, result
    typed = tmp_path / template
    book.save(typed)
    capsys.readouterr()
    assert main(["recalc", str(typed), "-o", str(tmp_path / "out.xlsx")]) == 1
    printed = capsys.readouterr()
    # Ann's '2: the number 2 stored as text; Cid's x is no number at all
    assert "check opponent in round 1: 2 is text: type it as a number" in printed.out
    assert "check opponent in round 1: x is not a player number" in printed.out


def test_export_trf_names_a_xls_in_one_line(tmp_path, capsys) -> None:
    from engine_corpus import compound_file  # an Excel 97-2003 workbook's container

    book = compound_file(tmp_path / "event.xls", ["Workbook", "\x05SummaryInformation"])
    capsys.readouterr()
    assert main(["export-trf", str(book)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"chessrating export-trf: error: book: '{book}': an Excel 97-2003 workbook (.xls), "
                   "not an .xlsx; save it as .xlsx in Excel or LibreOffice first"]
    assert not (tmp_path / "event.trf").exists()
