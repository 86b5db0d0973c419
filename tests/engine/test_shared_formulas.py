"""Shared formulas: a formula copied down a column, stored once (``<f t="shared">``).

Excel writes a filled-down column so: the first cell holds the formula and the range it
covers, the others refer to it by index. Reading one back means spelling each copy; a
copy down its own column is spelled by :class:`xlrecalc.parse.CopyTemplate`
(one formatting call), anything else by openpyxl's ``Translator``. Both must give what
openpyxl reads. (The templates write none: see :mod:`chessrating.workbooks.writer`.)
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.formula.translate import Translator

from xlrecalc import load_book
from xlrecalc.parse import CopyTemplate

from conftest import DATA

CORPUS = sorted((DATA / "conformance").rglob("*.xlsx"))
SHARED = re.compile(rb'<f t="shared"(?: ref="([A-Z]+)\d+:([A-Z]+)\d+")? si="\d+"')


def _formulas(path: Path) -> dict[tuple[str, int, int], str]:
    """Every formula cell's text as openpyxl reads it (shared copies translated); a text
    cell that begins with "=" (IronCalc's ``IS_INFORMATION.xlsx`` holds one) is no formula."""
    book = openpyxl.load_workbook(path)
    return {(sheet.title, cell.row, cell.column): cell.value
            for sheet in book.worksheets for row in sheet.iter_rows() for cell in row
            if cell.data_type == "f" and isinstance(cell.value, str)}


def _sheets(path: Path) -> list[bytes]:
    with zipfile.ZipFile(path) as archive:
        return [archive.read(name) for name in archive.namelist() if name.startswith("xl/worksheets/sheet")]


def test_the_corpus_holds_shared_formulas_down_columns_and_across_rows():
    # Excel-saved workbooks of the conformance corpus (data/conformance): most shared
    # formulas run down a column, at least one across a row (the Translator's case).
    down = across = 0
    for path in CORPUS:
        for xml in _sheets(path):
            for first, last in SHARED.findall(xml):
                down += bool(first) and first == last
                across += bool(first) and first != last
    assert down >= 50 and across >= 1


@pytest.mark.parametrize("path", [
    # the one with pivot caches takes two seconds (every shared formula of its large
    # table sheets): out of the inner loop
    pytest.param(p, marks=pytest.mark.slow) if p.stem == "TemplateWithTableSourcePivotTables" else p
    for p in CORPUS if any(SHARED.search(xml) for xml in _sheets(p))], ids=lambda p: p.stem)
def test_every_shared_formula_is_read_as_openpyxl_reads_it(path):
    book = load_book(path, {})
    ours = {key: formula.text for key, formula in book.formulas.items()}
    theirs = _formulas(path)
    assert {key: ours.get(key) for key in theirs} == theirs


FORMULAS = [
    '=IF(C5="",0,$B5*D$2+7)',
    "=SUM(A1:A3)+LOG10(B2)",
    '=IF(OR(Crosstable!K5="",Crosstable!M5=""),"",IF(ISNUMBER(CO5),INDEX($DT$5:$DT$253,CO5),CO5))',
    "=SUM(2:$3)+A4",
    "='Round 1'!B7*2+'Round 1'!$B$7",
    '=IF(LEFT(DD5,6)="check ",DD5,"row 5 of 12")',
    "=SUMPRODUCT(--(Games!R5:AE5<>\"\"))+COUNT(Games!C5:P5)",
    "=A1048570+1",
]


@pytest.mark.parametrize("formula", FORMULAS)
def test_a_copy_down_a_column_is_spelled_as_openpyxls_translator_spells_it(formula):
    form = CopyTemplate(formula)
    spelled = 0
    for step in (1, 2, 9, 248, 5000):
        moved = form.moved(step)
        if moved is None:  # a row past the sheet's last: the reader asks the Translator
            continue
        assert moved == Translator(formula, "A10").translate_formula(f"A{10 + step}"), (formula, step)
        spelled += 1
    assert spelled >= 2

