"""Headless recalculation: Excel's functions, ours, array formulas, hostile input, and the
promise that nothing but cached values changes in the file.

Expected values of Excel's built-ins are worked out by hand in the comments and checked
a second time against the ``formulas`` package's own engine as an independent oracle.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula

from chessrating import fide, udfs
from chessrating.results import Game, read_result
from chessrating.recalc import RecalcError, default_output, rating_functions, recalculate
from chessrating.recalc.standings import Standing
from chessrating import workbooks
from chessrating.workbooks.roundrobin import RoundRobinLayout

# A stand-in for a rating function that returns an array: the row doubled.
def DOUBLE_ROW(values):
    return [[2 * v for v in values]]


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def without_values(xml: bytes) -> bytes:
    """A sheet's XML with every cached value and cell type taken out."""
    xml = re.sub(rb"<v>.*?</v>|<v\s*/>", b"", xml, flags=re.S)  # openpyxl without lxml: <v />
    return re.sub(rb'\s+t="[a-z]+"', b"", xml)


def cached(path: Path, sheet: str, cell: str):
    return openpyxl.load_workbook(path, data_only=True)[sheet][cell].value


@pytest.fixture
def builtins_book(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    for row, value in enumerate([3, 4.5, "text", None, 10], start=1):
        data.cell(row, 1, value)
    data["B1"], data["B2"], data["B3"] = "Ann", "Bob", "Cid"
    wb.defined_names["Pool"] = DefinedName("Pool", attr_text="Data!$A$1:$A$5")
    calc = wb.create_sheet("Calc Sheet")
    formulas = {
        "A1": "=SUM(Data!A1:A5)",            # 3 + 4.5 + 10 = 17.5 (text, blank ignored)
        "A2": "=COUNT(Pool)",                # 3 numbers
        "A3": "=INDEX(Data!A1:A5,2)",        # 4.5
        "A4": '=IF(A1>17,"big","small")',    # "big"
        "A5": "=SUM(Pool)*2",                # 35
        "A6": "=INDEX(Data!B1:B3,MATCH(\"Bob\",Data!B1:B3,0))",  # "Bob"
        "A7": "=ROUND(A3*1.5,0)",            # 6.75 -> 7
        "A8": "=-2^2+10%",                   # Excel negates first: 4 + 0.1
        "A9": '=IFERROR(1/0,"none")',        # "none"
        "A10": '=Data!B1&"-"&A2',            # "Ann-3"
        "A11": "=AVERAGE(Data!A1:A5)",       # 17.5 / 3
        "A12": "=A1+'Calc Sheet'!A5",        # 52.5
        "A13": "=COUNTA(Data!B1:B5)",        # 3
        "A14": "=ISBLANK(Data!A4)",          # TRUE
        "A15": "=MAX(Pool)-MIN(Pool)",       # 7
        "A16": '=Data!A3="TEXT"',            # text compares without case: TRUE
    }
    for address, formula in formulas.items():
        calc[address] = formula
    path = tmp_path / "builtins.xlsx"
    wb.save(path)
    return path


EXPECTED_BUILTINS = {
    "A1": 17.5, "A2": 3.0, "A3": 4.5, "A4": "big", "A5": 35.0, "A6": "Bob", "A7": 7.0,
    "A8": 4.1, "A9": "none", "A10": "Ann-3", "A11": 17.5 / 3, "A12": 52.5, "A13": 3.0,
    "A14": True, "A15": 7.0, "A16": True,
}


def test_builtins_defined_names_and_cross_sheet_references(builtins_book: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    report = recalculate(builtins_book, out)
    assert report.errors == []
    assert report.formula_count == len(EXPECTED_BUILTINS)
    for address, expected in EXPECTED_BUILTINS.items():
        got = report.values[("Calc Sheet", address)]
        if isinstance(expected, float):
            assert got == pytest.approx(expected, rel=1e-12), address
        else:
            assert got == expected, address
        # the cached value in the file is the reported one
        written = cached(out, "Calc Sheet", address)
        assert written == pytest.approx(got) if isinstance(got, float) else written == got


def test_builtins_agree_with_the_formulas_engine(builtins_book: Path, tmp_path: Path):
    formulas = pytest.importorskip("formulas")
    solution = formulas.ExcelModel().loads(str(builtins_book)).finish().calculate()
    report = recalculate(builtins_book, tmp_path / "out.xlsx")
    compared = 0
    for key, value in solution.items():
        match = re.fullmatch(r"'\[builtins.xlsx\]CALC SHEET'!(A\d+)", key)
        if match is None:
            continue
        theirs = value.value[0, 0]
        ours = report.values[("Calc Sheet", match.group(1))]
        if isinstance(ours, float):
            assert ours == pytest.approx(float(theirs)), match.group(1)
        else:
            assert ours == theirs, match.group(1)
        compared += 1
    assert compared == len(EXPECTED_BUILTINS)


def test_only_cached_values_change(builtins_book: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    before = builtins_book.read_bytes()
    recalculate(builtins_book, out)
    assert builtins_book.read_bytes() == before  # the input is left alone
    old, new = members(builtins_book), members(out)
    assert list(old) == list(new)
    changed = [name for name in old if old[name] != new[name]]
    # the sheet with formulas, and calcPr saying its values are current; nothing else
    assert sorted(changed) == ["xl/workbook.xml", "xl/worksheets/sheet2.xml"]
    sheet, book = "xl/worksheets/sheet2.xml", "xl/workbook.xml"
    assert without_values(old[sheet]) == without_values(new[sheet])
    assert re.sub(rb"<calcPr[^>]*/>", b"", old[book]) == re.sub(rb"<calcPr[^>]*/>", b"", new[book])
    # (the element keeps its own spacing: openpyxl without lxml writes "<calcPr ... />")
    assert [re.sub(rb"\s+/>", b"/>", found) for found in re.findall(rb"<calcPr[^>]*/>", new[book])] == [
        b'<calcPr calcId="191029"/>']


def test_rating_function_and_stand_in(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Calc"
    ws["A1"], ws["B1"] = 2000, 1800
    ws["C1"] = "=ELO_EXPECTED(A1,B1)"
    ws["D1"] = "=TWICE(C1)"
    path = tmp_path / "f.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "out.xlsx", functions={"twice": lambda x: 2 * x})
    # logistic expectation E = 1 / (1 + 10^((1800 - 2000) / 400)), docs/RULES.md §2, classic Elo
    expected = 1 / (1 + 10 ** (-200 / 400))
    assert report.values[("Calc", "C1")] == pytest.approx(expected, abs=1e-12)
    assert report.values[("Calc", "C1")] == pytest.approx(udfs.ELO_EXPECTED(2000.0, 1800.0))
    assert report.values[("Calc", "D1")] == pytest.approx(2 * expected)


def test_index_passes_a_function_error_on_with_its_message(tmp_path: Path):
    # Each row of the US Chess template takes its item of USCF_EVENT with INDEX: when the
    # event cannot be rated, every row must show why, not #REF!.
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Event"
    ws["A1"], ws["A2"] = 1500, 1500
    ws["B1"], ws["B2"] = 30, 30
    ws["C1"], ws["C2"] = 1, 0
    ws["D1"], ws["D2"] = 2, 2          # player 2 paired against himself
    for row in (1, 2):
        ws[f"E{row}"] = f"=INDEX(USCF_EVENT(A1:A2,B1:B2,C1:C2,D1:D2),{row})"
    path = tmp_path / "f.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "out.xlsx")
    messages = {e.cell: e.message for e in report.errors}
    assert messages["E1"] == messages["E2"]
    assert messages["E2"].startswith("opponents: player 2 is paired against himself")


def test_function_receives_classic_xlwings_shapes(tmp_path: Path):
    seen = {}

    def PROBE(cell, row, column, block, missing=None):
        seen.update(cell=cell, row=row, column=column, block=block, missing=missing)
        return "ok"

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["A2"], ws["B2"] = 5, "x", None, True
    ws["C1"] = "=NA()"
    ws["D5"] = "=PROBE(A1,A1:C1,A1:A2,A1:B2)"
    path = tmp_path / "p.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "o.xlsx", functions={"PROBE": PROBE})
    assert report.values[("Sheet", "D5")] == "ok"
    # a scalar, flat lists for a row and a column, lists of lists for a block; numbers
    # as floats, blanks as None, an error cell as its text
    assert seen == {"cell": 5.0, "row": [5.0, "x", "#N/A"], "column": [5.0, None],
                    "block": [[5.0, "x"], [None, True]], "missing": None}
    assert type(seen["cell"]) is float


def test_legacy_array_formulas_spill_over_their_range(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([1, 2, 3])
    ws["A3"] = ArrayFormula("A3:C3", "=DOUBLE_ROW(A1:C1)")
    ws["A4"] = ArrayFormula("A4:D4", "=A1:C1*10")      # one column too many: #N/A
    ws["A5"] = "=SUMPRODUCT(A1:C1,A1:C1)"               # 1 + 4 + 9
    ws["A6"] = "=SUM(B3:C3)"                            # reads the spilled cells: 4 + 6
    path = tmp_path / "a.xlsx"
    wb.save(path)
    out = tmp_path / "out.xlsx"
    report = recalculate(path, out, functions={"DOUBLE_ROW": DOUBLE_ROW})
    values = {cell: report.values[("Sheet", cell)] for cell in
              ("A3", "B3", "C3", "A4", "B4", "C4", "D4", "A5", "A6")}
    assert values == {"A3": 2.0, "B3": 4.0, "C3": 6.0, "A4": 10.0, "B4": 20.0, "C4": 30.0,
                      "D4": "#N/A", "A5": 14.0, "A6": 10.0}
    book = openpyxl.load_workbook(out, data_only=True)["Sheet"]
    assert [book.cell(3, col).value for col in (1, 2, 3)] == [2, 4, 6]
    assert book["D4"].value == "#N/A"
    assert book["A6"].value == 10
    assert [e.address for e in report.errors] == ["Sheet!D4"]
    # the array formula itself is still there
    assert isinstance(openpyxl.load_workbook(out)["Sheet"]["A3"].value, ArrayFormula)


def _hostile_book(path: Path, *, bad: bool) -> Path:
    """A small FIDE crosstable row per player, with three kinds of bad input when ``bad``."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Crosstable"
    ws.append(["Name", "Rating", "Opp 1", "Opp 2", "Opp 3", "Res 1", "Res 2", "Res 3",
               "Points", "Change", "New rating"])
    players = [
        ("Ann", 2000, [1800, 1900, 2100], [1, 0.5, 0]),
        ("Bob", 1850, [2000, 2100, 1900], [0, 0.5, 1]),
        ("Cid", 2100, [1850, 2000, 1900], [1, 1, 0.5]),
    ]
    if bad:
        players[0] = ("=HYPERLINK(\"http://x\")", 2000, [1800, 1900, 2100], [1, 0.5, 2])
        players[1] = ("Bob", "abc", [2000, 2100, 1900], [0, 0.5, 1])
    for row, (name, rating, opps, results) in enumerate(players, start=2):
        ws.cell(row, 1).value = name
        ws.cell(row, 1).data_type = "s"  # a name is text even when it starts with "="
        ws.cell(row, 2, rating)
        for i, (opp, result) in enumerate(zip(opps, results)):
            ws.cell(row, 3 + i, opp)
            ws.cell(row, 6 + i, result)
        ws.cell(row, 9, f"=SUM(F{row}:H{row})")
        ws.cell(row, 10, f"=FIDE_CHANGE(B{row},C{row}:E{row},F{row}:H{row},20)")
        ws.cell(row, 11, f"=B{row}+ROUND(J{row},0)")
    wb.save(path)
    return path


def test_hostile_input_gives_readable_errors_in_the_affected_cells_only(tmp_path: Path):
    clean = recalculate(_hostile_book(tmp_path / "clean.xlsx", bad=False), tmp_path / "c.xlsx")
    src = _hostile_book(tmp_path / "bad.xlsx", bad=True)
    out = tmp_path / "b.xlsx"
    report = recalculate(src, out)
    assert clean.errors == []
    errors = {e.address: e for e in report.errors}
    # a result 2 (item 3 of the results) and a rating that is text, named in their cells
    # and traced to the input cell that holds them (H2: third result; B3: Bob's rating)
    assert str(errors["Crosstable!J2"]) == ("Crosstable!J2: results: 2 is not a game result "
                                            "(item 3) — input Crosstable!H2")
    assert str(errors["Crosstable!J3"]) == "Crosstable!J3: rating: 'abc' is not a number — input Crosstable!B3"
    # K3 = B3 + ROUND(J3, 0): Excel's bare #VALUE! from the text in B3
    assert errors["Crosstable!K3"].inputs == ("Crosstable!B3",)
    assert errors["Crosstable!K2"].inputs == ("Crosstable!H2",)
    # the new rating uses the change, so it shows the same reason, traced to its cell
    assert errors["Crosstable!K2"].message == "results: 2 is not a game result (item 3)"
    assert errors["Crosstable!K2"].cause == "Crosstable!J2"
    assert errors["Crosstable!K3"].message == "#VALUE!"  # 'abc' + number: Excel's #VALUE!
    # K3 fails on its own (text plus a number), K2 only repeats J2's reason
    assert [e.address for e in report.root_errors] == ["Crosstable!J2", "Crosstable!J3",
                                                       "Crosstable!K3"]
    assert sorted(errors) == ["Crosstable!J2", "Crosstable!J3", "Crosstable!K2", "Crosstable!K3"]
    # every other formula cell holds what the clean book gives
    for key, value in clean.values.items():
        if f"{key[0]}!{key[1]}" not in errors and key != ("Crosstable", "I2"):
            assert report.values[key] == value, key
    assert report.values[("Crosstable", "I2")] == 3.5  # SUM counts the 2 as Excel would
    # the file shows the reason as text in the errored cell; the name stays text
    sheet = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
    assert sheet["J2"].value == "results: 2 is not a game result (item 3)"
    assert sheet["K3"].value == "#VALUE!"
    assert sheet["A2"].value == '=HYPERLINK("http://x")'
    assert ("Crosstable", "A2") not in report.values
    assert without_values(members(src)["xl/worksheets/sheet1.xml"]) == \
        without_values(members(out)["xl/worksheets/sheet1.xml"])


def _caches(xml: bytes) -> list[tuple[str, str, int, dict[int, str]]]:
    """(formula, cache kind, ptCount, {idx: text}) of every series reference of a chart."""
    found = []
    for ref in re.finditer(rb"<c:(numRef|strRef)><c:f>(.*?)</c:f><c:(numCache|strCache)>(.*?)</c:\3>", xml, re.S):
        count = int(re.search(rb'<c:ptCount val="(\d+)"/>', ref.group(4)).group(1))
        points = {int(i): v.decode() for i, v in
                  re.findall(rb'<c:pt idx="(\d+)"><c:v>(.*?)</c:v></c:pt>', ref.group(4))}
        found.append((ref.group(2).decode(), ref.group(3).decode(), count, points))
    return found


def _helper_row_book(path: Path) -> Path:
    """Ratings typed in column B; a helper row copies each opponent's rating with INDEX,
    as the templates do, and the functions read the helper row, not the inputs."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Crosstable"
    ratings = [2000, "abc", 1900, 1800]
    for row, rating in enumerate(ratings, start=2):
        ws.cell(row, 1, f"P{row - 1}")
        ws.cell(row, 2, rating)
    ws["C6"] = "#N/A"               # a result typed as an error
    ws.cell(6, 3).data_type = "e"
    for row in range(2, 6):
        for col, opponent in enumerate(o for o in range(1, 5) if o != row - 1):
            ws.cell(row + 10, 4 + col, f"=INDEX($B$2:$B$5,{opponent})")   # helper row
            ws.cell(row + 20, 4 + col, "=IF(COLUMN()=4,C$6,0.5)" if row == 2 else 0.5)
        ws.cell(row, 8, f"=ELO_CHANGE(B{row},D{row + 10}:F{row + 10},D{row + 20}:F{row + 20})")
    wb.save(path)
    return path


def test_errors_traced_through_helper_rows_to_the_input(tmp_path: Path):
    report = recalculate(_helper_row_book(tmp_path / "h.xlsx"), tmp_path / "o.xlsx")
    errors = {e.address: e for e in report.errors}
    # P1's results row (D22:F22) copies C6, which holds #N/A: item 1 of results
    assert errors["Crosstable!H2"].message == "results: the cell holds the Excel error #N/A (item 1)"
    assert errors["Crosstable!H2"].inputs == ("Crosstable!C6",)
    # P2's own rating B3 is 'abc'
    assert errors["Crosstable!H3"].message == "rating: 'abc' is not a number"
    assert errors["Crosstable!H3"].inputs == ("Crosstable!B3",)
    # P3 (opponents 1, 2, 4) and P4 (1, 2, 3) meet P2 second: the helper cell copies B3
    assert errors["Crosstable!H4"].message == "opponent_ratings: 'abc' is not a number (item 2)"
    assert errors["Crosstable!H4"].inputs == ("Crosstable!B3",)
    assert errors["Crosstable!H5"].inputs == ("Crosstable!B3",)
    # the helper cell that copies C6 shows the error too, traced to the same input
    assert errors["Crosstable!D22"].message == "#N/A"
    assert errors["Crosstable!D22"].inputs == ("Crosstable!C6",)
    assert sorted(errors) == ["Crosstable!D22", "Crosstable!H2", "Crosstable!H3", "Crosstable!H4",
                              "Crosstable!H5"]


def test_chart_and_validation_survive(tmp_path: Path):
    src = tmp_path / "chart.xlsx"
    book = xlsxwriter.Workbook(str(src))
    ws = book.add_worksheet("Cross table")
    ws.write_column(0, 0, [2000, 1900, 1800])
    ws.write_column(0, 3, ["Ann", "Bob"])
    ws.write_formula(2, 3, '=IF(A3>0,"Cid","")')
    ws.write_formula(3, 3, "=1+1")          # a number as a label
    for row in range(3):
        ws.write_formula(row, 1, f"=ELO_EXPECTED(A{row + 1},1850)")
    ws.write_formula(3, 1, '=""')            # an empty-looking cell: no point in the chart
    ws.data_validation("C1:C3", {"validate": "list", "source": ["1", "½", "0"]})
    chart = book.add_chart({"type": "column"})
    chart.add_series({"values": "='Cross table'!$B$1:$B$4",
                      "categories": "='Cross table'!$D$1:$D$4"})
    ws.insert_chart("E2", chart)
    book.close()
    out = tmp_path / "out.xlsx"
    report = recalculate(src, out)
    old, new = members(src), members(out)
    assert list(old) == list(new)
    assert sorted(n for n in old if old[n] != new[n]) == [
        "xl/charts/chart1.xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"]
    assert "xl/drawings/drawing1.xml" in new
    assert len(openpyxl.load_workbook(out)["Cross table"].data_validations.dataValidation) == 1
    # Elo expected score 1/(1 + 10^((Ro − R)/400)) against 1850 for 2000, 1900, 1800
    expected = [1 / (1 + 10 ** ((1850 - r) / 400)) for r in (2000, 1900, 1800)]
    assert report.values[("Cross table", "B3")] == pytest.approx(expected[2])
    assert cached(out, "Cross table", "B3") == pytest.approx(expected[2])
    # the chart keeps the values too, so a viewer that never calculates draws the bars
    (categories, values) = _caches(new["xl/charts/chart1.xml"])
    assert categories[:3] == ("'Cross table'!$D$1:$D$4", "strCache", 4)
    assert categories[3] == {0: "Ann", 1: "Bob", 2: "Cid", 3: "2"}
    assert values[:3] == ("'Cross table'!$B$1:$B$4", "numCache", 4)
    assert sorted(values[3]) == [0, 1, 2]   # B4 shows "": no point
    assert [float(values[3][i]) for i in range(3)] == pytest.approx(expected)
    # outside the caches the chart part is the same, byte for byte
    strip = re.compile(rb"<c:(numCache|strCache)>.*?</c:\1>", re.S)
    assert strip.sub(b"", old["xl/charts/chart1.xml"]) == strip.sub(b"", new["xl/charts/chart1.xml"])


def test_chart_cache_written_where_missing_and_left_alone_when_unknown(tmp_path: Path):
    from xlrecalc.charts import patch_chart
    xml = (b'<c:ser xmlns:c="urn:c"><c:tx><c:strRef><c:f>Sheet1!$A$1</c:f></c:strRef></c:tx>'
           b'<c:val><c:numRef><c:f>([other.xlsx]S!$A$1,S!$B$2)</c:f><c:numCache><c:ptCount val="1"/>'
           b'</c:numCache></c:numRef></c:val></c:ser>')
    lookup = {"Sheet1!$A$1": ["Change & rating"]}.get
    patched = patch_chart(xml, lookup)
    # the series name gains a cache after its formula; the unknown reference is untouched
    assert patched == xml.replace(
        b"<c:f>Sheet1!$A$1</c:f>",
        b'<c:f>Sheet1!$A$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
        b"<c:v>Change &amp; rating</c:v></c:pt></c:strCache>")


def _assert_chart_caches_hold_the_values(book: Path, report) -> int:
    """Every series cache of every chart equals the cells its formula names; returns
    how many caches were checked."""
    shown = openpyxl.load_workbook(book, data_only=True)
    checked = 0
    for name, xml in members(book).items():
        if not re.fullmatch(r"xl/charts/chart\d+\.xml", name):
            continue
        for formula, kind, count, points in _caches(xml):
            sheet, _, area = formula.rpartition("!")
            sheet = sheet.strip("'")
            first, _, last = area.replace("$", "").partition(":")
            column = re.match(r"[A-Z]+", first).group(0)
            rows = range(int(first[len(column):]), int((last or first)[len(column):]) + 1)
            cells = [report.values.get((sheet, f"{column}{r}"), shown[sheet][f"{column}{r}"].value)
                     for r in rows]
            assert count == len(cells), formula
            if kind == "numCache":
                assert {i: float(v) for i, v in points.items()} == pytest.approx(
                    {i: c for i, c in enumerate(cells)
                     if isinstance(c, (int, float)) and not isinstance(c, bool)}), formula
                assert not points or any(float(v) != 0 for v in points.values()), formula
            else:
                assert points == {i: (c if isinstance(c, str) else f"{c:g}")
                                  for i, c in enumerate(cells) if c not in (None, "")}, formula
            checked += 1
    return checked


def test_demo_chart_holds_the_rating_changes(demo_book: Path, recalculated):
    out = demo_book
    report = recalculated(out)
    # the rating-change bar chart: names as categories, changes as values (not all zero)
    assert _assert_chart_caches_hold_the_values(out, report) >= 2
    values = _caches([m for n, m in members(out).items() if n.startswith("xl/charts/")][0])
    assert len([v for _, kind, _, pts in values if kind == "numCache" for v in pts.values()
                if float(v) != 0]) >= 5


def test_template_charts_hold_their_values(built_templates: dict[str, Path], recalculated):
    # the templates as `chessrating templates` writes them (the Goal chart of the calculators)
    books = list(built_templates.values())
    checked = 0
    for book in books:
        checked += _assert_chart_caches_hold_the_values(book, recalculated(book))
    assert checked >= 2


def test_unknown_function_circular_reference_and_bad_syntax(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "=NOSUCH_FUNC(1)"
    ws["A2"] = "=A3+1"
    ws["A3"] = "=A2+1"
    ws["A4"] = "=Players[Rating]"
    ws["A5"] = "=1+1"
    path = tmp_path / "u.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "o.xlsx")
    errors = {e.address: e.message for e in report.errors}
    # a function the engine does not know is not evaluated: the cell keeps what the
    # file holds (here nothing), and is named on one line, never an error of ours
    assert "Sheet!A1" not in errors and report.kept == {"NOSUCH_FUNC": ["Sheet!A1"]}
    assert report.kept_line == "kept Excel's value in 1 cell: NOSUCH_FUNC"
    # Excel flags every cell of a cycle, and none keeps a number computed from a blank
    assert errors["Sheet!A2"].startswith("circular reference: Sheet!A2 → Sheet!A3")
    assert errors["Sheet!A3"].startswith("circular reference: Sheet!A2 → Sheet!A3")
    assert errors["Sheet!A4"].startswith("no table named 'Players'")
    assert report.values[("Sheet", "A5")] == 2.0


def test_standings_from_defined_names(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Table"
    rows = [("Ann", 2000, 1.5), ("Bob", 1800, 2.5), ("Cid", None, 1.5), ("Dan", 2100, 1.5)]
    for i, (name, rating, points) in enumerate(rows, start=2):
        ws.cell(i, 1, name)
        ws.cell(i, 2, rating)
        ws.cell(i, 3, f"={points}*1")
        ws.cell(i, 4, f"=IF(B{i}=\"\",1700,B{i})+100")           # performance
        ws.cell(i, 5, f"=IF(B{i}=\"\",\"\",(C{i}-1.5)*10)")       # change
        ws.cell(i, 6, f"=IF(B{i}=\"\",\"\",B{i}+E{i})")           # new rating
        ws.cell(i, 7, f"=IF(B{i}=\"\",1650,\"\")")                # first rating
    for name, col in [("Names", "A"), ("Points", "C"), ("Performance", "D"),
                      ("RatingChange", "E"), ("NewRating", "F"), ("InitialRating", "G")]:
        wb.defined_names[name] = DefinedName(name, attr_text=f"Table!${col}$2:${col}$5")
    path = tmp_path / "s.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "o.xlsx")
    # points first, then performance; Ann and Cid tie on both and share third place
    assert report.standings == [
        Standing(1, "Bob", 2.5, 1900.0, 10.0, 1810.0),
        Standing(2, "Dan", 1.5, 2200.0, 0.0, 2100.0),
        Standing(3, "Ann", 1.5, 2100.0, 0.0, 2000.0),
        Standing(4, "Cid", 1.5, 1800.0, None, 1650.0),
    ]


def test_standings_from_headers(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Event"])
    ws.append(["No.", "Name", "Points", "Perf. (TPR)", "Change", "New rating"])
    ws.append([1, "Ann", "=0.5+0.5", 1900, -4.5, 1995.5])
    ws.append([2, "Bob", "=1+1", 2000, 4.5, 1804.5])
    path = tmp_path / "h.xlsx"
    wb.save(path)
    report = recalculate(path, tmp_path / "o.xlsx")
    assert report.standings == [Standing(1, "Bob", 2.0, 2000.0, 4.5, 1804.5),
                                Standing(2, "Ann", 1.0, 1900.0, -4.5, 1995.5)]


def _uscf_like(path: Path, *, named: bool) -> Path:
    """A US Chess-style table: a first-pass column headed 'New rating' and the final
    'Two passes' column; a gap in the rows, a number and a formula as names."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Crosstable"
    ws.append(["US Chess event"])
    ws.append(["No.", "Name", "Rating", "Points", "Perf", "Change", "New rating", "Two passes"])
    rows = [(1, "Ann", 1500, 2, 1600, 30, 1530, 1531),
            (2, None, None, None, None, None, None, None),          # a starting number left out
            (3, 12345, 1400, 1, 1380, -10, 1390, 1392),             # a number typed as a name
            (4, '=UPPER("eve")', 1450, 3, 1700, 40, 1490, 1488),    # a formula as a name
            (None, None, None, None, None, None, None, None),       # a row left empty
            (6, "Bob", 1600, 0.5, 1200, -20, 1580, 1579)]
    for row in rows:
        ws.append(list(row))
    ws.append([])
    ws.append(["Helper block below the table"])
    ws.append(["No.", "Name"])                                       # the next block's header
    ws.append([1, "=B3"])
    if named:
        for name, col in [("Names", "B"), ("Points", "D"), ("Performance", "E"),
                          ("RatingChange", "F"), ("NewRating", "H")]:
            wb.defined_names[name] = DefinedName(name, attr_text=f"Crosstable!${col}$3:${col}$9")
    wb.save(path)
    return path


def test_standings_read_past_gaps_numbers_and_formula_names(tmp_path: Path):
    # By headers: the first 'New rating' column; every player found past the gap and
    # the empty row, and the helper block below (its own 'Name' header) left out.
    report = recalculate(_uscf_like(tmp_path / "h.xlsx", named=False), tmp_path / "ho.xlsx")
    assert report.standings == [Standing(1, "EVE", 3.0, 1700.0, 40.0, 1490.0),
                                Standing(2, "Ann", 2.0, 1600.0, 30.0, 1530.0),
                                Standing(3, "12345", 1.0, 1380.0, -10.0, 1390.0),
                                Standing(4, "Bob", 0.5, 1200.0, -20.0, 1580.0)]
    # By the template's names: NewRating names the 'Two passes' column, so it wins
    report = recalculate(_uscf_like(tmp_path / "n.xlsx", named=True), tmp_path / "no.xlsx")
    assert report.standings == [Standing(1, "EVE", 3.0, 1700.0, 40.0, 1488.0),
                                Standing(2, "Ann", 2.0, 1600.0, 30.0, 1531.0),
                                Standing(3, "12345", 1.0, 1380.0, -10.0, 1392.0),
                                Standing(4, "Bob", 0.5, 1200.0, -20.0, 1579.0)]


def test_default_output_and_unreadable_input(tmp_path: Path, builtins_book: Path):
    assert default_output(Path("/x/Event.xlsx")) == Path("/x/Event-recalc.xlsx")
    report = recalculate(builtins_book)
    assert report.output == builtins_book.with_name("builtins-recalc.xlsx")
    assert report.output.exists()
    with pytest.raises(RecalcError, match="no such file"):
        recalculate(tmp_path / "missing.xlsx")
    (tmp_path / "notes.xlsx").write_text("not a workbook")
    with pytest.raises(RecalcError, match="not an .xlsx workbook"):
        recalculate(tmp_path / "notes.xlsx")


def test_recalculating_in_place_keeps_a_valid_file(builtins_book: Path):
    report = recalculate(builtins_book, builtins_book)
    assert report.errors == []
    assert cached(builtins_book, "Calc Sheet", "A5") == 35


# -- end to end: templates filled, recalculated, checked against the core -----------
def score_of(cell) -> float:
    return read_result(cell).points


def test_demo_round_robin_matches_the_core_called_directly(tmp_path: Path):
    """Sinquefield Cup 2016 (the bundled example): every player's points, performance,
    change and new rating in the workbook equal the rating functions called on the
    event's own data."""
    event = workbooks.load_demo_event()
    path = workbooks.fill_round_robin(event, tmp_path / "demo.xlsx", recalculate=False)
    report = recalculate(path, path)
    assert report.errors == []
    ratings = [float(p.rating) for p in event.players]
    headers = {v: c for c, v in enumerate(next(openpyxl.load_workbook(path, read_only=True)
                                               ["Crosstable"].iter_rows(min_row=4, max_row=4,
                                                                        values_only=True)), start=1)}

    def shown(row: int, header: str):
        return report.values[("Crosstable", f"{openpyxl.utils.get_column_letter(headers[header])}{row}")]

    for i, (player, results) in enumerate(zip(event.players, event.results)):
        row = 5 + i
        opponents = [ratings[j] if j != i and results[j] else None for j in range(len(ratings))]
        cells = [None if j == i or not results[j] else results[j] for j in range(len(ratings))]
        k = shown(row, "K")
        # rated games and peak: blank in the example (a tournament does not hold them)
        assert k == udfs.FIDE_K(float(player.rating), None, player.birth_year,
                                event.year, None, float(len(ratings) - 1))
        assert shown(row, "Perf. (TPR)") == pytest.approx(udfs.PERF_RATING(opponents, cells, "FIDE"))
        assert shown(row, "Change") == pytest.approx(udfs.FIDE_CHANGE(float(player.rating), opponents, cells, k))
        assert shown(row, "New rating") == udfs.FIDE_NEWRATING(float(player.rating), opponents, cells, k)
        if event.published_points:
            assert shown(row, "Points") == event.published_points[i]
        # Every per-game cell: FIDE's expected score (table 8.1.2) and that game's change.
        lay = RoundRobinLayout(len(ratings))
        expected_total = 0.0
        for j in range(len(ratings)):
            column = openpyxl.utils.get_column_letter(lay.grid + j + 1)
            expected = report.values[("Crosstable", f"{column}{lay.section(0) + i + 1}")]
            change = report.values[("Crosstable", f"{column}{lay.section(1) + i + 1}")]
            if j == i:
                assert (expected, change) == ("", "")
                continue
            assert expected == fide.expected_score(ratings[i], ratings[j])
            assert change == pytest.approx(fide.rating_change(ratings[i], [Game(ratings[j], score_of(results[j]))], k))
            expected_total += expected
        assert shown(row, "Expected") == pytest.approx(expected_total)
        assert shown(row, "First rating") == ""  # every player is rated
        titles = [p.title for p in event.players]
        federations = [p.federation for p in event.players]
        assert shown(row, "Norm") == udfs.FIDE_NORM(opponents, cells, "GM", titles, federations,
                                                    player.federation)
    assert [s.name for s in report.standings][:1] == ["So, Wesley"]  # 5.5 of 9, the winner


def test_swiss_template_agrees_with_the_formulas_engine(tmp_path: Path):
    """A 12-player, 4-round Swiss through the template: every formula cell equals what the
    ``formulas`` package's engine computes with the same rating functions, except the cells
    whose formula uses SUMPRODUCT over a comparison, which that engine reads as one cell
    instead of an array (Excel evaluates SUMPRODUCT's arguments as arrays)."""
    formulas = pytest.importorskip("formulas")
    import numpy as np
    import schedula
    from formulas.functions import wrap_func
    from formulas.tokens.operand import XlError
    import sys
    sys_path = str(Path(__file__).resolve().parents[2] / "benchmarks")
    sys.path.insert(0, sys_path)
    try:
        from recalc_swiss import random_event
    finally:
        sys.path.remove(sys_path)
    event = random_event(12, 4, seed=7)
    path = workbooks.fill_swiss(event, tmp_path / "swiss.xlsx", recalculate=False)
    report = recalculate(path, tmp_path / "out.xlsx")
    assert report.errors == []

    def classic(value):  # the formulas engine's arguments as classic xlwings shapes
        if isinstance(value, np.ndarray):
            rows = [[classic(v) for v in row] for row in np.asarray(value, object).reshape(value.shape[0], -1).tolist()]
            if len(rows) == 1:
                return rows[0][0] if len(rows[0]) == 1 else rows[0]
            return [r[0] for r in rows] if all(len(r) == 1 for r in rows) else rows
        if value is schedula.EMPTY:
            return None
        if isinstance(value, XlError):
            return str(value)
        return float(value) if isinstance(value, (int, float, np.number)) and not isinstance(value, bool) else value

    funcs = formulas.get_functions()
    saved = {}
    for name, fn in rating_functions().items():
        saved[name] = funcs.get(name)
        funcs[name] = wrap_func(lambda *a, fn=fn: (lambda r: "" if r is None else r)(fn(*[classic(x) for x in a])))
    try:
        solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    finally:
        for name, fn in saved.items():
            if fn is None:
                funcs.pop(name, None)
            else:
                funcs[name] = fn
    texts = openpyxl.load_workbook(path)
    compared = 0
    for key, value in solution.items():
        match = re.fullmatch(r"'\[swiss.xlsx\](\w+)'!([A-Z]+\d+)", key)
        if match is None:
            continue
        sheet = {"CROSSTABLE": "Crosstable", "GAMES": "Games"}.get(match.group(1))
        if (sheet, match.group(2)) not in report.values:
            continue
        if "SUMPRODUCT" in str(texts[sheet][match.group(2)].value):
            continue
        theirs = classic(value.value)
        ours = report.values[(sheet, match.group(2))]
        if isinstance(ours, float):
            assert theirs == pytest.approx(ours, abs=1e-9), (sheet, match.group(2))
        else:
            assert ours == theirs, (sheet, match.group(2))
        compared += 1
    assert compared > 300
    # the SUMPRODUCT cells: games per player counted as Excel does
    games = {p.number: sum(1 for g in p.games if g.code.strip()) for p in event.players}
    sheet = texts["Crosstable"]
    column = next(c.column_letter for c in sheet[3] if c.value == "Games")
    for number, count in games.items():
        assert report.values[("Crosstable", f"{column}{4 + number}")] == count
