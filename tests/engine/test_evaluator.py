"""The headless evaluator against Excel's documented semantics.

Each test builds its workbook (openpyxl, or the evaluator's own book for the property
tests) and checks the value Microsoft's documentation gives; the pages cited are the
function references on support.microsoft.com ("<NAME> function") unless said otherwise.
"""

from __future__ import annotations

import datetime as dt
import gc
import math
import re
import shutil
import subprocess
import sys
import textwrap
import weakref
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given, settings, strategies as st
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table

from xlrecalc import load_book, recalculate
from xlrecalc.engine import Book, evaluate_book
from xlrecalc.values import XlErr

ADDIN = str(Path(__file__).resolve().parents[2] / "addin")


def run(wb: openpyxl.Workbook, tmp_path: Path, **kwargs: Any) -> tuple[dict, dict]:
    """Save, recalculate, and return (values by "Sheet!A1", error messages by address)."""
    path = tmp_path / "book.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "out.xlsx", **kwargs)
    values = {f"{sheet}!{cell}": value for (sheet, cell), value in report.values.items()}
    return values, {e.address: e.message for e in report.errors}


def book_of(cells: dict[str, Any]) -> Book:
    """An in-memory book of one sheet "S" from {"A1": value or "=formula"}."""
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string
    book = Book({})
    book.add_sheet("S")
    for address, value in cells.items():
        letters, row = coordinate_from_string(address)
        col = column_index_from_string(letters)
        if isinstance(value, str) and value.startswith("="):
            book.add_formula("S", row, col, value)
        else:
            book.set_value("S", row, col, value)
    evaluate_book(book)
    return book


def value(book: Book, address: str) -> Any:
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string
    letters, row = coordinate_from_string(address)
    return book.cells["S"][(row, column_index_from_string(letters))]


# -- references over the used range ------------------------------------------------------
def test_whole_columns_and_rows_read_every_used_cell(tmp_path: Path):
    # SUM(A:A) adds the whole column: 1 + 10 = 11 (SUM, SUMIFS: "A:A" is column A)
    book = book_of({"A1": 1.0, "A2": 10.0, "B1": "x", "B2": "y", "C1": "=SUM(A:A)",
                    "C2": "=COUNT(A:B)", "C3": "=SUM(1:2)", "C4": '=COUNTA($A:$B)'})
    assert value(book, "C1") == 11.0
    assert value(book, "C2") == 2.0
    assert value(book, "C3") == 24.0  # rows 1 and 2 hold C1 and C2 too: 1+10+11+2
    assert value(book, "C4") == 4.0


def test_a_far_cell_costs_only_the_cells_that_exist(tmp_path: Path):
    """One value at XFD1048576 and whole-column and whole-sheet references: Excel
    answers at once; so must the evaluator, in a subprocess held to 1 GiB."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["XFD1048576"] = 1, 10, 5
    out = wb.create_sheet("Out")  # a formula inside A:XFD would read itself
    out["B1"] = "=SUM(Sheet!A:A)"
    out["B2"] = "=COUNT(Sheet!A:XFD)"
    out["B3"] = "=SUM(Sheet!1:1048576)"
    path = tmp_path / "far.xlsx"
    wb.save(path)
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        sys.path.insert(0, {ADDIN!r})
        from xlrecalc import load_book, recalculate
        report = recalculate({str(path)!r}, {str(tmp_path / 'out.xlsx')!r})
        print(report.values[("Out", "B1")], report.values[("Out", "B2")],
              report.values[("Out", "B3")])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["11.0", "3.0", "16.0"]


def test_sumifs_over_whole_columns():
    # SUMIFS: "=SUMIFS(A:A, B:B, "x")" adds the A of rows whose B is x
    book = book_of({"A1": 1.0, "A2": 10.0, "A3": 100.0, "B1": "x", "B2": "y", "B3": "x",
                    "C1": '=SUMIFS(A:A,B:B,"x")'})
    assert value(book, "C1") == 101.0


# -- comparison, text and errors ---------------------------------------------------------
def test_comparison_at_fifteen_significant_digits():
    # Excel stores 15 significant digits: =0.1+0.2=0.3 is TRUE ("Floating-point arithmetic
    # may give inaccurate results in Excel", learn.microsoft.com)
    book = book_of({"A1": "=0.1+0.2=0.3", "A2": "=0.1+0.2<0.3", "A3": "=1=1.000000000000001",
                    "A4": "=1=1.0000000000001", "A5": "=1+1E-16>1"})
    assert [value(book, f"A{i}") for i in range(1, 6)] == [True, False, True, False, False]


def test_text_longer_than_excel_allows_is_an_error_with_its_reason():
    # Excel's cells hold at most 32,767 characters ("Excel specifications and limits")
    book = book_of({"A1": "a" * 20_000, "A2": "=A1&A1", "A3": "=LEN(A1)"})
    error = value(book, "A2")
    assert isinstance(error, XlErr) and error.code == "#VALUE!"
    assert "32,767" in error.message
    assert value(book, "A3") == 20_000.0


def test_a_cell_reading_a_rating_message_sees_the_text_written(tmp_path: Path):
    """A rating function's error is written as its message (text): the cells that test
    it read text, as classic Excel does when it reads that cell back."""
    def fails(x):
        raise ValueError("x: 'abc' is not a number")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "=FAILS(1)"
    ws["A2"] = "=ISERROR(A1)"
    ws["A3"] = "=ISTEXT(A1)"
    ws["A4"] = '=IFERROR(A1,"caught")'
    ws["A5"] = "=ISERROR(1/0)"
    values, errors = run(wb, tmp_path, functions={"FAILS": fails})
    assert values["Sheet!A1"] == "x: 'abc' is not a number"
    assert values["Sheet!A2"] is False and values["Sheet!A3"] is True
    assert values["Sheet!A4"] == "x: 'abc' is not a number"
    assert values["Sheet!A5"] is True


# -- cycles ------------------------------------------------------------------------------
def test_every_cell_of_a_cycle_is_flagged_and_no_number_comes_from_a_blank():
    # Excel: "a formula refers to its own cell, directly or indirectly" is circular; it
    # warns about every cell of the loop
    book = book_of({"A1": "=A1+1", "B1": "=B3+1", "B2": "=B1*2", "B3": "=B2-1",
                    "C1": "=B2+100", "D1": 5.0, "D2": "=D1*2"})
    for address in ("A1", "B1", "B2", "B3"):
        error = value(book, address)
        assert isinstance(error, XlErr), address
        assert error.message.startswith("circular reference"), address
    assert value(book, "A1").message == "circular reference: S!A1 → S!A1"
    assert isinstance(value(book, "C1"), XlErr)  # uses the cycle: no number from a blank
    assert value(book, "D2") == 10.0


def test_a_reference_built_by_index_inside_the_row_it_covers_is_no_cycle():
    # SUM(INDEX(r,1,1):INDEX(r,1,3)) reads A1:C1 only; it stands in D1 of the row r = 1:1
    book = book_of({"A1": 1.0, "B1": 2.0, "C1": 3.0,
                    "D1": "=SUM(INDEX(1:1,1,1):INDEX(1:1,1,3))",
                    "E1": "=SUM(INDEX($A1:$G1,1,1):INDEX($A1:$G1,1,4))"})
    assert value(book, "D1") == 6.0
    assert value(book, "E1") == 12.0


def test_a_long_chain_read_backwards_is_followed():
    # each cell reads the one below: evaluated on demand, 5,000 deep
    cells: dict[str, Any] = {f"A{i}": f"=A{i + 1}+1" for i in range(1, 5000)}
    cells["A5000"] = 1.0
    book = book_of(cells)
    assert value(book, "A1") == 5000.0


# -- bounded work ------------------------------------------------------------------------
def test_deep_nesting_is_a_one_line_error_for_its_cell(tmp_path: Path):
    # Excel allows 64 nested functions and 8,192 characters ("Excel specifications and limits")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "=" + "ABS(" * 600 + "1" + ")" * 600
    ws["A2"] = "=" + "(" * 600 + "1" + ")" * 600
    ws["A3"] = "=" + "+".join(["1"] * 5000)
    ws["A4"] = "=2+2"
    values, errors = run(wb, tmp_path)
    assert "nested functions" in errors["Sheet!A1"]
    assert values["Sheet!A2"] == 1.0  # parentheses alone have no limit of their own
    assert "8,192" in errors["Sheet!A3"]
    assert values["Sheet!A4"] == 4.0


def test_names_that_double_are_compiled_once():
    book = Book({})
    book.add_sheet("S")
    book.set_value("S", 1, 1, 1.0)
    book.define_name("Level_0", "S!$A$1")
    for i in range(1, 41):
        book.define_name(f"Level_{i}", f"Level_{i - 1}+Level_{i - 1}")
    book.add_formula("S", 1, 2, "=Level_40")
    evaluate_book(book)
    assert book.cells["S"][(1, 2)] == 2.0 ** 40


def test_a_book_is_freed_once_nothing_holds_it():
    # A one-cell reference's closure knows the cell it reads, and that knowledge holds the
    # book; it must go with the book, or every workbook ever evaluated stays in memory.
    def DOUBLE(x):
        return 2 * x
    book = Book({"DOUBLE": DOUBLE})
    book.add_sheet("S")
    book.set_value("S", 1, 1, 2.0)
    for row, formula in enumerate(["=A1*3", "=$A$1+1", '=IF(A1="x",1,2)', "=DOUBLE(A1)"], start=2):
        book.add_formula("S", row, 1, formula)
    evaluate_book(book)
    assert [value(book, f"A{row}") for row in range(2, 6)] == [6.0, 3.0, 2.0, 4.0]
    held = weakref.ref(book)
    del book
    gc.collect()
    assert held() is None


def test_a_failing_call_costs_its_cell_only(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"] = 1, 2
    ws["B1"] = "=ROWS()"                   # a signature Excel refuses
    ws["B2"] = "=INDEX(A1:A2,1,1,1,1)"      # one argument too many
    ws["B3"] = "=SUM(A1:A2)"
    values, errors = run(wb, tmp_path)
    assert "ROWS" in errors["Sheet!B1"] and "INDEX" in errors["Sheet!B2"]
    assert values["Sheet!B3"] == 3.0


# -- reference functions and operators ---------------------------------------------------
def test_index_with_an_area_number():
    # INDEX((A1:B2,D1:E2),1,2,2) is the first row, second column of the second area: E1
    book = book_of({"A1": 1.0, "B1": 2.0, "D1": 4.0, "E1": 5.0,
                    "G1": "=INDEX((A1:B2,D1:E2),1,2,2)", "G2": "=INDEX((A1:B2,D1:E2),1,1,3)",
                    "G3": "=SUM(INDEX((A1:B2,D1:E2),0,0,2))"})
    assert value(book, "G1") == 5.0
    assert value(book, "G2") == XlErr("#REF!")
    assert value(book, "G3") == 9.0


def test_union_and_intersection_operators():
    # "Calculation operators and precedence": comma (union), space (intersection)
    book = book_of({"A1": 1.0, "A2": 2.0, "B1": 10.0, "B2": 20.0, "C1": 100.0,
                    "D1": "=SUM((A1:A2,C1))", "D2": "=SUM(A1:B2 B1:C9)", "D3": "=A1:A2 C1:C2",
                    "D4": "=AREAS((A1,B1:B2,C1))", "D5": "=A1:B2 B2"})
    assert value(book, "D1") == 103.0
    assert value(book, "D2") == 30.0
    assert value(book, "D3") == XlErr("#NULL!")
    assert value(book, "D4") == 3.0
    assert value(book, "D5") == 20.0


def test_implicit_intersection(tmp_path: Path):
    # "Implicit intersection operator: @": the cell of the range in the formula's row
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 4):
        ws.cell(r, 1, r * 10)
    ws["B2"] = "=@A1:A3"
    ws["B3"] = "=_xlfn.SINGLE(A1:A3)+1"
    values, _ = run(wb, tmp_path)
    assert values["Sheet!B2"] == 20.0 and values["Sheet!B3"] == 31.0


def test_operators_keep_arrays_whole_and_intersect_ranges():
    # "Use array constants in array formulas": an array constant is an array wherever it
    # stands, so an operator works on it element by element even in an ordinary formula;
    # a range there is read at the formula's row or column ("Implicit intersection
    # operator: @"). LibreOffice gives the same values (tests below build its check).
    book = book_of({"A1": " w ", "A2": 1.0, "A3": 2.0,
                    "F10": "=SUM({1,2}*{3,4})", "F11": '=OR(UPPER(TRIM(A1))={"1","W"})',
                    "F12": "={1,2}*3", "F13": "=SUM(-{1,2})", "F14": "=SUM(ROW(A1:A3)*1)",
                    "F15": "=SUM(A2:A3*2)", "F16": "=IF(OR(A2={1,0.5,0}),1,0)",
                    "F17": '=A1&{"x","y"}'})
    assert [value(book, f"F{r}") for r in range(10, 15)] == [11.0, True, 3.0, -3.0, 6.0]
    assert value(book, "F15") == XlErr("#VALUE!")  # row 15 meets neither A2 nor A3
    assert value(book, "F16") == 1.0 and value(book, "F17") == " w x"


def test_a_condition_is_computed_once_however_deep_the_ifs():
    # IF reads a number, a text or a range as its condition without computing it again:
    # nested IFs over a function call cost one call, not two to the depth.
    calls = []

    def counted() -> float:
        calls.append(1)
        return 1.0
    formula = "CNT()"
    for _ in range(12):
        formula = f"IF({formula},1,0)"
    book = Book({"CNT": counted})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=" + formula)
    book.add_formula("S", 2, 1, '=IF(CNT()*0,"yes","no")')
    evaluate_book(book)
    assert book.cells["S"][(1, 1)] == 1.0 and book.cells["S"][(2, 1)] == "no"
    assert len(calls) == 2


def test_a_formula_is_a_copy_only_when_its_references_moved():
    # =K5*2 in row 10 moved up six rows would read row -1: "=K-1*2" in row 4 is another
    # formula (the name K minus 1, times 2), not a copy
    book = Book({})
    book.add_sheet("S")
    book.define_name("K", "=20")
    book.set_value("S", 5, 11, 3.0)
    book.add_formula("S", 10, 2, "=K5*2")
    book.add_formula("S", 4, 2, "=K-1*2")
    evaluate_book(book)
    assert book.cells["S"][(10, 2)] == 6.0 and book.cells["S"][(4, 2)] == 18.0


def test_whole_rows_and_columns_written_alike_in_two_cells_read_alike():
    # "=SUM(2:2)" in B5 and in B7 both read row 2, "=SUM(A:A)" in C1 and D1 both column A:
    # the same text is the same range wherever it stands (a copied "2:2" would be "4:4")
    book = book_of({"A1": 1.0, "A2": 2.0, "A3": 3.0, "B2": 20.0, "F2": 1.0, "F4": 100.0,
                    "B5": "=SUM(2:2)", "B7": "=SUM(2:2)", "C1": "=SUM(A:A)", "D1": "=SUM(A:A)",
                    "C5": "=SUM($2:$2)", "C7": "=SUM($2:$2)", "E5": "=SUM(4:4)"})
    assert [value(book, a) for a in ("B5", "B7", "C5", "C7")] == [23.0] * 4
    assert value(book, "C1") == value(book, "D1") == 6.0
    assert value(book, "E5") == 100.0  # a copy of =SUM(4:4) one row down reads row 5


def test_three_d_references(tmp_path: Path):
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = "S1"
    for i, name in enumerate(["S1", "S2", "S3"], start=1):
        ws = wb[name] if name in wb.sheetnames else wb.create_sheet(name)
        ws["A1"] = i * 100
    wb.create_sheet("Out")["A1"] = "=SUM(S1:S3!A1)"
    wb["Out"]["A2"] = "=SUM(S2:S3!A1:B2)"
    values, _ = run(wb, tmp_path)
    assert values["Out!A1"] == 600.0 and values["Out!A2"] == 500.0


def test_offset_and_indirect():
    # OFFSET(C3,2,3,1,1) is F5; INDIRECT("B"&2) reads B2; R1C1 text with a1 FALSE
    book = book_of({"A1": 1.0, "A2": 2.0, "B2": 7.0, "F5": 42.0, "D1": "=OFFSET(C3,2,3,1,1)",
                    "D2": "=SUM(OFFSET(A1,0,0,2,1))", "D3": '=INDIRECT("B"&2)',
                    "D4": '=INDIRECT("R2C2",FALSE)', "D5": '=INDIRECT("R[-4]C[-3]",FALSE)',
                    "D6": '=INDIRECT("nowhere")', "D7": "=OFFSET(A1,-1,0)",
                    "D8": '=SUM(INDIRECT("A:A"))'})
    assert value(book, "D1") == 42.0
    assert value(book, "D2") == 3.0
    assert value(book, "D3") == 7.0
    assert value(book, "D4") == 7.0
    assert value(book, "D5") == 1.0
    assert value(book, "D6") == XlErr("#REF!")
    assert value(book, "D7") == XlErr("#REF!")
    assert value(book, "D8") == 3.0


def test_let_cell_and_sequence():
    # LET(x,1,y,x+1,x*10+y) is 12; CELL("row",B7) is 7; SUM(SEQUENCE(4)) is 10
    book = book_of({"B7": "hi", "A1": "=LET(x,1,y,x+1,x*10+y)", "A2": '=CELL("row",B7)',
                    "A3": '=CELL("address",B7)', "A4": '=CELL("contents",B7)',
                    "A5": '=CELL("type",B7)', "A6": "=SUM(SEQUENCE(4))",
                    "A7": "=SUM(SEQUENCE(2,3,10,5))", "A8": '=CELL("filename",B7)',
                    "A9": "=LET(x,A1,x+x)"})
    assert value(book, "A1") == 12.0
    assert value(book, "A2") == 7.0
    assert value(book, "A3") == "$B$7"
    assert value(book, "A4") == "hi"
    assert value(book, "A5") == "l"
    assert value(book, "A6") == 10.0
    assert value(book, "A7") == 6 * 10.0 + 5 * (0 + 1 + 2 + 3 + 4 + 5)
    assert "not known without Excel" in value(book, "A8").message
    assert value(book, "A9") == 24.0


def test_volatile_functions_are_computed():
    # NOW and TODAY are serial numbers (days since 1899-12-30); RAND is in [0, 1)
    before = (dt.datetime.now() - dt.datetime(1899, 12, 30)).total_seconds() / 86400
    book = book_of({"A1": "=NOW()", "A2": "=TODAY()", "A3": "=RAND()",
                    "A4": "=RANDBETWEEN(1,6)", "A5": "=RANDBETWEEN(6,1)"})
    after = (dt.datetime.now() - dt.datetime(1899, 12, 30)).total_seconds() / 86400
    assert before <= value(book, "A1") <= after
    assert value(book, "A2") == math.floor(value(book, "A1"))
    assert 0 <= value(book, "A3") < 1
    assert value(book, "A4") in {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    assert value(book, "A5") == XlErr("#NUM!")


# -- names, tables and array ranges ------------------------------------------------------
def test_names_of_every_scope(tmp_path: Path):
    wb = openpyxl.Workbook()
    one = wb.active
    one.title = "One"
    two = wb.create_sheet("Two")
    one["A1"], two["A1"] = 1, 2
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="One!$A$1")
    two.defined_names["Rate"] = DefinedName("Rate", attr_text="Two!$A$1")
    one["B1"] = "=Rate*10"
    two["B1"] = "=Rate*10"
    one["B2"] = "=Two!Rate*100"
    values, _ = run(wb, tmp_path)
    assert values["One!B1"] == 10.0 and values["Two!B1"] == 20.0 and values["One!B2"] == 200.0


def test_structured_references(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Val", "Twice"])
    for i, name in enumerate(["a", "b", "c"], start=1):
        ws.append([name, i * 10, "=[@Val]*2"])
    ws["C5"] = "=Scores[[#This Row],[Val]]+1"  # overwritten below: row 5 is outside
    ws["C5"] = None
    table = Table(displayName="Scores", ref="A1:C4")
    table._initialise_columns()
    for column, title in zip(table.tableColumns, ["Name", "Val", "Twice"]):
        column.name = title
    ws.add_table(table)
    ws["E1"] = "=SUM(Scores[Val])"
    ws["E2"] = "=ROWS(Scores[#All])"
    ws["E3"] = "=SUM(Scores[[Val]:[Twice]])"
    ws["E4"] = "=Scores[[#Headers],[Twice]]"
    ws["E3"] = "=SUM(Scores[[Val]:[Twice]])"
    ws["F3"] = "=Scores[@Val]"
    ws["E5"] = "=COUNTA(Scores)"
    values, errors = run(wb, tmp_path)
    assert [values[f"Sheet!C{r}"] for r in (2, 3, 4)] == [20.0, 40.0, 60.0]
    assert values["Sheet!E1"] == 60.0
    assert values["Sheet!E2"] == 4.0
    assert values["Sheet!E3"] == 180.0
    assert values["Sheet!E4"] == "Twice"
    assert values["Sheet!F3"] == 20.0
    assert values["Sheet!E5"] == 9.0


def test_cells_of_an_array_range_stored_as_empty_formulas(tmp_path: Path):
    """Excel writes the other cells of a legacy array formula as ``<f ca="1"/>`` at
    times; they belong to the array, they are not the formula ``=``."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"] = 1, 2
    ws["B1"] = ArrayFormula("B1:B2", "=A1:A2*10")
    ws["B2"] = "=X"  # replaced by an empty formula element below
    path = tmp_path / "array.xlsx"
    wb.save(path)
    patched = tmp_path / "patched.xlsx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(patched, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb"<f>X</f>", b'<f ca="1"/>', data)
            dst.writestr(item, data)
    report = recalculate(patched, tmp_path / "out.xlsx")
    assert report.values[("Sheet", "B1")] == 10.0
    assert report.values[("Sheet", "B2")] == 20.0
    assert not report.errors


# -- properties --------------------------------------------------------------------------
@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False).filter(lambda x: abs(x) > 1e-300),
       st.integers(min_value=16, max_value=18))
def test_numbers_equal_to_fifteen_digits_compare_equal(x: float, digits: int):
    nudged = x * (1 + 10.0 ** -digits)
    assert value(book_of({"A1": x, "A2": nudged, "A3": "=A1=A2", "A4": "=A1<>A2"}), "A3") is True
    far = x * (1 + 1e-12)
    assert value(book_of({"A1": x, "A2": far, "A3": "=A1=A2"}), "A3") is False


@given(st.dictionaries(st.integers(min_value=1, max_value=1_048_576),
                       st.integers(min_value=-1000, max_value=1000), max_size=12))
def test_whole_column_sum_is_the_sum_of_the_column(column: dict[int, int]):
    cells: dict[str, Any] = {f"A{row}": float(v) for row, v in column.items()}
    cells["B1"] = "=SUM(A:A)"
    cells["B2"] = "=COUNT(A:A)"
    book = book_of(cells)
    assert value(book, "B1") == float(sum(column.values()))
    assert value(book, "B2") == float(len(column))


@given(st.integers(0, 5), st.integers(0, 5), st.integers(1, 3), st.integers(1, 3))
def test_offset_reads_the_moved_range(rows: int, cols: int, height: int, width: int):
    from openpyxl.utils import get_column_letter
    cells: dict[str, Any] = {f"{get_column_letter(c)}{r}": float(r * 100 + c)
                             for r in range(1, 10) for c in range(1, 10)}
    cells["K1"] = f"=SUM(OFFSET(A1,{rows},{cols},{height},{width}))"
    expected = sum(r * 100 + c for r in range(1 + rows, 1 + rows + height)
                   for c in range(1 + cols, 1 + cols + width))
    assert value(book_of(cells), "K1") == float(expected)


# -- against LibreOffice --------------------------------------------------------------------
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def libreoffice_values(path: Path, out: Path) -> list[list[str]]:
    """The first sheet as LibreOffice computes it (headless, to csv), row by row."""
    profile = out / "profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                    "--norestore", "--convert-to", "csv", "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=240)
    text = (out / (path.stem + ".csv")).read_text(encoding="utf-8", errors="replace")
    return [line.split(",") for line in text.splitlines()]


def _same(ours: Any, theirs: str) -> bool:
    if isinstance(ours, XlErr):  # LibreOffice's code for a circular reference is Err:522
        circular = (ours.message or "").startswith("circular reference")
        return theirs == ("Err:522" if circular else ours.code)
    if isinstance(ours, bool):
        return theirs == ("TRUE" if ours else "FALSE")
    if isinstance(ours, float):
        try:
            return math.isclose(ours, float(theirs), rel_tol=1e-9, abs_tol=1e-9)
        except ValueError:
            return False
    return str(ours) == theirs


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@settings(max_examples=2)  # each example starts LibreOffice: a count of its own
@given(st.data())
def test_reference_semantics_agree_with_libreoffice(tmp_path_factory: Any, data: Any):
    """Random numbers (some cells blank) and the reference operators and functions
    LibreOffice shares with Excel: whole columns, union, intersection, OFFSET, INDIRECT,
    INDEX with an area, 15-digit comparison. Each formula's value is Excel's by its
    documentation and LibreOffice's by computation; ours must be both."""
    tmp = tmp_path_factory.mktemp("lo")
    number = st.one_of(st.none(), st.integers(-999, 999).map(float),
                       st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 3)))
    grid = [[data.draw(number) for _ in range(4)] for _ in range(6)]   # A1:D6
    wb = openpyxl.Workbook()
    ws = wb.active
    for r, row in enumerate(grid, start=1):
        for c, v in enumerate(row, start=1):
            if v is not None:
                ws.cell(r, c, v)
    formulas = ["=SUM(A:A)", "=COUNT(A:D)", "=SUM(2:3)", "=SUM((A1:A3,C2:D4))",
                "=COUNT((A1:B2,C3))", "=A1+B1=B1+A1", "=SUM(A1:A2*{2;3})", "=SUM({1,2}*{3,4})", "=0.1*3=0.3", "=(A1+0.1)+0.2=A1+(0.1+0.2)"]
    for _ in range(6):
        r, c = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 2))
        h, w = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 2))
        formulas.append(f"=SUM(OFFSET(A1,{r},{c},{h},{w}))")
        letter = "ABCD"[data.draw(st.integers(0, 3))]
        formulas.append(f'=SUM(INDIRECT("{letter}1:{letter}"&{h + r}))')
        # areas that meet (an empty intersection is #NULL! in Excel, #REF! in LibreOffice)
        formulas.append(f"=SUM(A1:C{3 + r} B{h}:D6)")
        formulas.append(f"=INDEX((A1:B3,C4:D6),{1 + r % 3},{1 + c % 2},{1 + h % 2})")
        formulas.append(f"=SUM(INDIRECT(\"R{1 + r}C{1 + c}:R{2 + r}C{2 + c}\",FALSE))")
    first = 10  # formulas from F10 down, below the numbers (and "=F10+1" reads itself)
    formulas.append(f"=F{first + len(formulas)}+1")
    for i, formula in enumerate(formulas):
        ws.cell(first + i, 6, formula)
    path = tmp / "lo.xlsx"
    wb.save(path)
    book = load_book(path, {})
    evaluate_book(book)
    theirs = libreoffice_values(path, tmp)
    for i, formula in enumerate(formulas):
        ours = book.cells["Sheet"][(first + i, 6)]
        assert _same(ours, theirs[first + i - 1][5]), (formula, ours, theirs[first + i - 1][5])


# -- reading -------------------------------------------------------------------------------
# the xlcalculator books: in the others openpyxl reads a date-formatted number through a
# datetime and rounds it to the microsecond (42076.4251967593 becomes 42076.42519675926)
CORPUS = sorted((Path(__file__).parents[1] / "data" / "conformance").glob("xlcalculator/*.xls[xm]"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("path", CORPUS[:40], ids=lambda p: p.name)
def test_the_xml_reader_reads_what_openpyxl_reads(path: Path):
    """The evaluator's own reader (straight from the XML, shared formulas translated)
    gives the same cells, formulas, array ranges, names and tables as openpyxl."""
    from xlrecalc import load_book_openpyxl
    from xlrecalc.reader import read_book
    fast, slow = read_book(path, {}), load_book_openpyxl(path, {})
    assert fast is not None
    assert fast.cells == slow.cells
    assert {k: f.text for k, f in fast.formulas.items()} == {k: f.text for k, f in slow.formulas.items()}
    assert fast.owner == slow.owner and fast.names == slow.names
    assert set(fast.tables) == set(slow.tables)


def test_text_escapes_of_the_file_are_read_as_their_characters(tmp_path: Path):
    # ECMA-376 ST_Xstring: a character XML cannot hold is written _xHHHH_, and a text that
    # itself reads _x0041_ is written _x005F_x0041_ (XlsxWriter writes both as Excel does)
    import xlsxwriter
    path = tmp_path / "escapes.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("S")
    sheet.write_string(0, 0, "\x07x")
    sheet.write_string(1, 0, "_x0041_")
    sheet.write_formula(0, 1, "=LEN(A1)")
    sheet.write_formula(1, 1, '=A2="_x0041_"')
    book.close()
    report = recalculate(path, tmp_path / "out.xlsx")
    assert report.values[("S", "B1")] == 2.0 and report.values[("S", "B2")] is True
