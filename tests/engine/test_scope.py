"""The scope rule (addin/xlrecalc/README.md): the functions a tournament workbook may call
are evaluated; a function the engine does not know keeps the value Excel cached, in its
own cell and for the cells that read it, and the report says so on one line."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter
from hypothesis import given
from hypothesis import strategies as st

from xlrecalc import load_book, load_book_openpyxl, recalculate
from xlrecalc.engine import evaluate_book
from xlrecalc.functions import library_has

OUT_OF_SCOPE = ["XIRR", "PMT", "NPV", "PRICE", "ACCRINT", "VDB", "CONVERT", "BESSELJ",
                "IMSUM", "DEC2BIN", "BITAND", "DSUM", "DGET", "CUBEVALUE", "WEBSERVICE",
                "FILTERXML", "RTD", "INFO"]
IN_SCOPE = ["SUM", "ROUND", "SIN", "AVERAGE", "NORM.S.DIST", "PERCENTILE", "IF", "XOR",
            "INDEX", "XLOOKUP", "VLOOKUP", "TEXT", "LEFT", "DATE", "EDATE", "NETWORKDAYS",
            "ISNUMBER", "ISERROR", "FILTER", "SORT", "UNIQUE", "SEQUENCE", "BYROW", "MAP"]


@pytest.mark.parametrize("name", OUT_OF_SCOPE)
def test_functions_out_of_scope_are_not_in_the_library(name: str) -> None:
    assert not library_has(name)


def test_functions_in_scope_are_evaluated(tmp_path: Path) -> None:
    formulas = {"A1": "=SUM(1,2)", "A2": "=ROUND(2.345,2)", "A3": '=TEXT(0.5,"0%")',
                "A4": "=XOR(TRUE,FALSE)", "A5": "=EDATE(DATE(2026,1,31),1)",
                "A6": "=SUM(SEQUENCE(4))", "A7": "=SUM(BYROW({1,2;3,4},LAMBDA(r,SUM(r))))"}
    path = _book(tmp_path / "in.xlsx", formulas)
    report = recalculate(path, tmp_path / "out.xlsx")
    assert [report.values[("S", f"A{r}")] for r in range(1, 8)] == [
        3.0, 2.35, "50%", True, 46081.0, 10.0, 10.0]
    assert report.kept == {} and report.kept_line is None


def _book(path: Path, formulas: dict[str, Any], cached: dict[str, Any] | None = None,
          arrays: dict[str, str] | None = None) -> Path:
    """A workbook written by XlsxWriter, which stores a formula's cached value."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("S")
    for address, formula in formulas.items():
        if isinstance(formula, str) and formula.startswith("="):
            sheet.write_formula(address, formula, None, (cached or {}).get(address, 0))
        else:
            sheet.write(address, formula)
    for area, formula in (arrays or {}).items():
        sheet.write_array_formula(area, "{" + formula + "}", None, (cached or {}).get(area, 0))
    book.close()
    return path


def _sheet_xml(path: Path) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read("xl/worksheets/sheet1.xml")


def test_an_unknown_function_keeps_excels_value_and_the_cells_reading_it_use_it(tmp_path: Path) -> None:
    formulas = {"A1": 100.0, "B1": '=_xlfn.XIRR(A1:A3,A1:A3)', "B2": "=B1*2",
                "C1": '=CONVERT(A1,"m","ft")', "C2": "=C1+1", "D1": "=SUM(A1,1)",
                "E1": "=XIRR(A1:A3,A1:A3)+CONVERT(1,\"m\",\"ft\")"}
    cached = {"B1": 0.125, "B2": 0.0, "C1": 328.08, "C2": 0, "D1": 0, "E1": 7.5}
    path = _book(tmp_path / "unknown.xlsx", formulas, cached)
    report = recalculate(path, tmp_path / "out.xlsx")
    values = report.values
    assert values[("S", "B1")] == 0.125 and values[("S", "B2")] == 0.25
    assert values[("S", "C1")] == 328.08 and values[("S", "C2")] == 329.08
    assert values[("S", "D1")] == 101.0 and values[("S", "E1")] == 7.5
    assert report.kept == {"XIRR": ["S!B1", "S!E1"], "CONVERT": ["S!C1", "S!E1"]}
    assert report.kept_line == "kept Excel's value in 3 cells: XIRR, CONVERT"
    assert not report.errors
    before, after = _sheet_xml(path), _sheet_xml(tmp_path / "out.xlsx")
    for cell in (b'r="B1"', b'r="C1"', b'r="E1"'):  # the kept cells, byte for byte
        start = before.index(cell)
        end = before.index(b"</c>", start)
        assert before[start:end] in after
    assert b"#NAME?" not in after and b"<v>0.25</v>" in after and b"<v>101</v>" in after


def test_an_unknown_function_in_an_array_formula_keeps_every_cell(tmp_path: Path) -> None:
    path = _book(tmp_path / "array.xlsx", {"A1": 1.0, "C1": "=SUM(B1:B2)"},
                 {"C1": 0}, {"B1:B2": "=IMSUM(A1,A1)"})
    book = load_book(path, {})
    # XlsxWriter caches the anchor's value only; the other cell of the range holds 0
    evaluate_book(book)
    assert book.cells["S"][(1, 2)] == 0 and book.cells["S"][(2, 2)] == 0
    assert book.kept == {("S", 1, 2): ("IMSUM",)}
    assert book.cells["S"][(1, 3)] == 0.0


def test_the_openpyxl_reader_keeps_excels_value_too(tmp_path: Path) -> None:
    path = _book(tmp_path / "fallback.xlsx", {"A1": 2.0, "B1": "=PMT(A1,1,1)", "B2": "=B1+1"},
                 {"B1": -1.5})
    book = load_book_openpyxl(path, {})
    evaluate_book(book)
    assert book.cells["S"][(1, 2)] == -1.5 and book.cells["S"][(2, 2)] == -0.5


def test_without_a_cached_value_the_readers_see_name_error(tmp_path: Path) -> None:
    path = tmp_path / "bare.xlsx"
    _book(path, {"A1": 1.0, "B1": "=1"})
    # the same book with B1's formula and no <v> at all
    with zipfile.ZipFile(path) as archive:
        parts = {n: archive.read(n) for n in archive.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    start = sheet.index(b'<c r="B1"')
    end = sheet.index(b"</c>", start) + 4
    parts["xl/worksheets/sheet1.xml"] = (sheet[:start] + b'<c r="B1"><f>CUBEVALUE("x")</f></c>'
                                         + b'<c r="C1"><f>B1</f><v>0</v></c>' + sheet[end:])
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    report = recalculate(path, tmp_path / "out.xlsx")
    assert report.values[("S", "B1")] == "unknown function CUBEVALUE"
    assert report.values[("S", "C1")] == "unknown function CUBEVALUE"
    assert b'<c r="B1"><f>CUBEVALUE("x")</f></c>' in _sheet_xml(tmp_path / "out.xlsx")


@given(st.floats(-1e9, 1e9, allow_nan=False), st.sampled_from(OUT_OF_SCOPE))
def test_any_cached_number_of_any_unknown_function_is_kept(cached: float, name: str) -> None:
    from xlrecalc.engine import Book
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, f"={name}(1,2)")
    book.add_formula("S", 1, 2, "=A1*1")
    book.cached[("S", 1, 1)] = cached
    evaluate_book(book)
    assert book.cells["S"][(1, 1)] == cached and book.cells["S"][(1, 2)] == cached
