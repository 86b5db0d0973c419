"""The recalculation's one pass: each sheet parsed once for reading and writing, typed
inputs written with the formulas' values, and the report's values as a view of what is
written. Each is held to the result of the longer way it replaces, byte for byte."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from xlrecalc import CellValues, Report, XlErr, evaluate_book, load_book, recalculate, record_values
from xlrecalc import write_cached_values
from xlrecalc.recalculation import as_read


def _book(path: Path) -> Path:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "S"
    sheet["A1"], sheet["A2"], sheet["A3"] = 2, "two", None
    sheet["B1"] = "=A1*10"
    sheet["B2"] = '=A2&"!"'
    sheet["B3"] = "=1/0"
    sheet["C5"] = "=SUM(A1:A4)"
    other = workbook.create_sheet("T")
    other["A1"] = "=S!B1+1"
    workbook.save(path)
    return path


def test_a_sheet_parsed_once_is_written_as_a_sheet_parsed_again(tmp_path: Path):
    src = _book(tmp_path / "book.xlsx")
    parsed: dict = {}
    book = load_book(src, {}, parsed)
    assert sorted(parsed) == ["xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"]
    evaluate_book(book)
    written = record_values(book, Report(source=src, output=None))
    write_cached_values(src, tmp_path / "once.xlsx", written, parsed=parsed)
    write_cached_values(src, tmp_path / "twice.xlsx", written)
    assert (tmp_path / "once.xlsx").read_bytes() == (tmp_path / "twice.xlsx").read_bytes()
    values = openpyxl.load_workbook(tmp_path / "once.xlsx", data_only=True)
    assert values["S"]["B1"].value == 20 and values["T"]["A1"].value == 21


def test_inputs_are_written_as_a_draft_recalculated_would_have_them(tmp_path: Path):
    src = _book(tmp_path / "book.xlsx")
    inputs = {"S": {(1, 1): 7, (2, 1): "a\r\nb", (3, 1): 0.5, (4, 1): "", (1, 2): 99},
              "Missing": {(1, 1): 1}}
    draft = tmp_path / "draft.xlsx"
    write_cached_values(src, draft, inputs)
    drafted = recalculate(draft, tmp_path / "drafted.xlsx")
    direct = recalculate(src, tmp_path / "direct.xlsx", inputs=inputs)
    assert (tmp_path / "direct.xlsx").read_bytes() == (tmp_path / "drafted.xlsx").read_bytes()
    assert direct.values == drafted.values
    # B1 is a formula: its value is the formula's, not the 99 typed over it
    assert direct.values[("S", "B1")] == 70.0 and direct.values[("S", "B2")] == "a\nb!"
    assert direct.values[("S", "C5")] == 7.5


def test_as_read_gives_what_a_reader_finds():
    assert as_read(3) == 3.0 and as_read(True) is True and as_read(None) == ""
    assert as_read("x\x01y\rz") == "xy\nz"
    assert as_read(XlErr("#N/A")) == XlErr("#N/A") and as_read(XlErr("#VALUE!", "why")) == "why"


def test_the_report_values_are_a_view_of_the_values_written(tmp_path: Path):
    src = _book(tmp_path / "book.xlsx")
    report = recalculate(src, tmp_path / "out.xlsx")
    assert isinstance(report.values, CellValues)
    plain = dict(report.values.items())
    assert plain == {("S", "B1"): 20.0, ("S", "B2"): "two!", ("S", "B3"): "#DIV/0!",
                     ("S", "C5"): 2.0, ("T", "A1"): 21.0}
    assert report.values == plain and plain == report.values
    assert list(report.values) == list(plain) and len(report.values) == 5
    assert ("S", "B3") in report.values and ("S", "A1") not in report.values
    assert ("S", "b1") not in report.values and ("Nowhere", "B1") not in report.values
    assert report.values.get(("S", "ZZ9")) is None
    report.values[("S", "Z1")] = "kept"
    assert report.values[("S", "Z1")] == "kept" and len(report.values) == 6


def test_the_rewritten_parts_are_deflated_as_excel_deflates(tmp_path: Path):
    """Excel saves its parts at deflate's fastest setting; the sheets and workbook.xml
    rewritten with the values are deflated at zlib's level 1, the other parts copied."""
    import zlib
    import zipfile

    src = _book(tmp_path / "book.xlsx")
    recalculate(src, tmp_path / "out.xlsx")
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(tmp_path / "out.xlsx") as after:
        assert after.namelist() == before.namelist()
        for info in after.infolist():
            data = after.read(info)
            if data == before.read(info.filename):
                continue
            packer = zlib.compressobj(1, zlib.DEFLATED, -15)
            assert info.compress_type == zipfile.ZIP_DEFLATED
            assert info.compress_size == len(packer.compress(data) + packer.flush()), info.filename
        assert {"xl/worksheets/sheet1.xml", "xl/workbook.xml"} <= {
            i.filename for i in after.infolist() if after.read(i) != before.read(i.filename)}
