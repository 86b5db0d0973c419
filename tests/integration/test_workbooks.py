"""The template workbooks: structure, formulas, validations, cached values, filling.

Workbooks are read back with openpyxl (``data_only=True`` gives the cached values that
chessrating.recalc stored). Published values come from docs/RULES.md and from the
sources named in addin/chessrating/data/demo_sinquefield_2016.csv.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl.worksheet.formula import ArrayFormula

from chessrating.tiebreaks import CODES
from chessrating.workbooks.ranking import code_choices
from chessrating import udfs
from chessrating.errors import RatingError
from chessrating.tournament import Player, RoundGame, Tournament
from chessrating.trf import read_trf
from chessrating.workbooks import (
    TEMPLATES, RoundRobinEvent, fill_round_robin, fill_swiss, load_demo_event, write_templates,
)
from chessrating.workbooks.event import parse_event_csv
from chessrating.recalc import recalculate
from chessrating.workbooks import evaluation
from chessrating.workbooks.roundrobin import build_round_robin
from chessrating.workbooks.swiss import build_swiss
from chessrating.workbooks.uscf import build_uscf

from conftest import TRF_DATA as TRF

# Excel functions the templates may call besides ours.
BUILTINS = {"IF", "OR", "AND", "COUNT", "COUNTA", "COUNTIF", "SUM", "SUMPRODUCT", "INDEX",
            "ROW", "COLUMN", "N", "UPPER", "ISNUMBER", "NOT", "INT", "TRIM", "ISTEXT", "MATCH",
            "ISNA", "IFERROR", "LEFT", "MIN",
            # a result Excel made of a typed 1/2 is named by its day and month
            "DAY", "MONTH",
            # what is no result, so that a result cell's message is spelled once (IFERROR)
            "NA",
            # the Pairings and Schedule sheets: boards in order, byes after them
            "MAX", "MOD", "SMALL",
            # the Swiss crosstables' guard of the searches for a player paired twice: how
            # often each number is named, one cell per round
            "FREQUENCY"}
FUNCTION = re.compile(r"([A-Z][A-Z0-9_.]*)\(")


@pytest.fixture
def templates(built_templates: dict[str, Path]) -> dict[str, Path]:
    return built_templates


@pytest.fixture
def demo(demo_book: Path) -> Path:
    return demo_book


def formulas_of(path: Path) -> dict[tuple[str, str], str]:
    book = openpyxl.load_workbook(path)
    found = {}
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for c in row:
                if isinstance(c.value, ArrayFormula):
                    found[(sheet.title, c.coordinate)] = c.value.text
                elif c.data_type == "f":
                    found[(sheet.title, c.coordinate)] = c.value
    return found


def values_of(path: Path, sheet: str) -> openpyxl.worksheet.worksheet.Worksheet:
    return openpyxl.load_workbook(path, data_only=True)[sheet]


# ---------------------------------------------------------------------------- every template

def test_write_templates_makes_the_four_files(templates: dict[str, Path]) -> None:
    assert sorted(templates) == sorted(TEMPLATES)
    assert sorted(TEMPLATES) == ["calculators.xlsx", "fide-round-robin.xlsx", "fide-swiss.xlsx",
                                 "uscf-event.xlsx"]


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_conf_sheet_and_how_to(templates: dict[str, Path], name: str) -> None:
    book = openpyxl.load_workbook(templates[name])
    assert "How to use" in book.sheetnames
    conf = book["xlwings.conf"]
    # xlwings reads keys from A1 down to the first empty cell, values in B, no header.
    # The Swiss template's modules include the script that pairs the next round.
    modules = "chessrating.udfs;chessrating.scripts" if name == "fide-swiss.xlsx" else "chessrating.udfs"
    assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", modules)
    assert conf["A2"].value is None
    assert book.sheetnames[-1] == "xlwings.conf"


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_no_macros_no_external_links(templates: dict[str, Path], name: str) -> None:
    with zipfile.ZipFile(templates[name]) as archive:
        members = archive.namelist()
    assert not any("vbaProject" in m for m in members)
    assert not any(m.startswith("xl/externalLinks") for m in members)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_formulas_call_only_known_functions_and_plain_references(templates: dict[str, Path], name: str) -> None:
    ours = set(udfs.__all__)
    for (sheet, address), text in formulas_of(templates[name]).items():
        called = set(FUNCTION.findall(text))
        assert called <= ours | BUILTINS, (sheet, address, called - ours - BUILTINS)
        # structured references (Table[Col]) cannot be evaluated without Excel
        assert not re.search(r"[A-Za-z_]\[", text), (sheet, address, text)


@pytest.mark.parametrize("name", ["fide-round-robin.xlsx", "fide-swiss.xlsx", "uscf-event.xlsx"])
def test_empty_crosstables_show_no_errors(templates: dict[str, Path], name: str) -> None:
    formulas = formulas_of(templates[name])
    book = openpyxl.load_workbook(templates[name], data_only=True)
    for (sheet, address), text in formulas.items():
        value = book[sheet][address].value
        # a tie-break column's header shows its code (the Standings: the Crosstable's header)
        if text.startswith("=IF(TieBreak") or sheet == "Standings" and text.startswith("=Crosstable!$"):
            assert value in code_choices(CODES) or value in ("TB 1", "TB 2", "TB 3", "TB 4"), (sheet, address, value)
            continue
        # A quiet template: every formula is either empty or a number of a fixed layout.
        assert value in (None, "") or isinstance(value, (int, float)), (sheet, address, value)
    assert len(formulas) > 100


def test_build_is_deterministic(templates: dict[str, Path], tmp_path: Path) -> None:
    # The session's build is the same bytes as another build. That other build is the
    # shipped workbooks, made earlier in another process (so neither the time nor the hash
    # seed shows in the bytes); where a builder has changed since, a second build made now.
    shipped = Path(__file__).resolve().parents[2] / "workbooks"
    if all((shipped / name).read_bytes() == path.read_bytes() for name, path in templates.items()):
        return
    second = write_templates(tmp_path / "b")
    assert sorted(p.name for p in second) == sorted(templates)
    for b in second:
        assert templates[b.name].read_bytes() == b.read_bytes(), b.name


def test_shipped_templates_match_a_fresh_build(templates: dict[str, Path]) -> None:
    shipped = Path(__file__).resolve().parents[2] / "workbooks"
    for name, path in templates.items():
        assert (shipped / name).read_bytes() == path.read_bytes(), f"regenerate workbooks/{name}"
    # the xlwings Lite copies, which carry the add-in's modules in their main.py
    built_lite = {p.name: p for p in (next(iter(templates.values())).parent / "lite").glob("*.xlsx")}
    assert sorted(built_lite) == sorted(p.name for p in (shipped / "lite").glob("*.xlsx")) == sorted(templates)
    for name, path in built_lite.items():
        assert (shipped / "lite" / name).read_bytes() == path.read_bytes(), f"regenerate workbooks/lite/{name}"


def _same_in_one_pass_as_recalculated(build, tmp_path: Path):
    """``build(path)`` evaluated in memory, and built empty then recalculated from the
    file: the same report values and, part for part, the same bytes. Returns the
    recalculation's report and the one-pass file."""
    one, raw, two = tmp_path / "one.xlsx", tmp_path / "raw.xlsx", tmp_path / "two.xlsx"
    with evaluation(evaluate=True) as found:
        build(one)
    with evaluation(evaluate=False):
        build(raw)
    report = recalculate(raw, two)
    assert found.report is not None and found.report.values == report.values
    with zipfile.ZipFile(one) as a, zipfile.ZipFile(two) as b:
        assert a.namelist() == b.namelist()
        for member in a.namelist():
            if member == "xl/workbook.xml":  # recalc fixes the print areas that follow the entries
                assert _without_print_areas(a.read(member)) == _without_print_areas(b.read(member))
                continue
            assert a.read(member) == b.read(member), member
    return report, one


def _without_print_areas(xml: bytes) -> str:
    """The workbook part, canonical, without its ``_xlnm.Print_Area`` names."""
    import xml.etree.ElementTree as ET

    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    root = ET.fromstring(xml)
    names = root.find(f"{main}definedNames")
    if names is not None:
        for name in [n for n in names if n.get("name") == "_xlnm.Print_Area"]:
            names.remove(name)
    return ET.canonicalize(ET.tostring(root, encoding="unicode"))


@pytest.mark.parametrize("name", sorted(TEMPLATES) + ["demo", "swiss from TRF", "uscf from TRF"])
def test_one_pass_writes_what_build_then_recalc_writes(name: str, tmp_path: Path) -> None:
    """A workbook evaluated in memory before it is written is, part for part and byte for
    byte, the workbook built with empty values and then recalculated from the file
    (``chessrating recalc``, the evaluator reading the file back): the same values, the
    same cell XML, the same chart caches."""
    tournament = read_trf(TRF / "javafo_sample2.trf")
    build = {**{n: (lambda path, b=b: b(path)) for n, b in TEMPLATES.items()},
             "demo": lambda path: build_round_robin(path, event=load_demo_event()),
             "swiss from TRF": lambda path: build_swiss(path, tournament=tournament),
             "uscf from TRF": lambda path: build_uscf(path, tournament=tournament)}[name]
    _same_in_one_pass_as_recalculated(build, tmp_path)


def test_one_pass_keeps_column_formats_typed_chart_numbers_and_the_1904_dates(tmp_path: Path) -> None:
    # cases the templates do not write today, held to the same standard: a formula without
    # a format of its own takes its column's, a chart over typed numbers caches them, and a
    # 1904 workbook's dates are read in its own date system
    import datetime as dt

    from chessrating.workbooks.writer import EvaluatedWorkbook, FormulaWorksheet

    def build(path: Path) -> None:
        book = EvaluatedWorkbook(str(path), {"date_1904": True})
        book.worksheet_class = FormulaWorksheet
        book.set_properties({"created": dt.datetime(2026, 1, 1)})  # not the second each is packed in
        book.set_calc_mode("auto", calc_id=191029)
        book.calc_on_load = False
        sheet = book.add_worksheet("S")
        sheet.set_column(2, 2, 10, book.add_format({"bold": True}))
        sheet.write_datetime(0, 0, dt.datetime(2020, 1, 1), book.add_format({"num_format": "yyyy-mm-dd"}))
        sheet.write_formula(0, 2, "=YEAR(A1)")
        for row, (name, number) in enumerate([("Ann", 3), ("Bob", 4)], start=1):
            sheet.write_string(row, 1, name)
            sheet.write_number(row, 0, number)
            sheet.write_formula(row, 2, f"=A{row + 1}*2")
        chart = book.add_chart({"type": "bar"})
        chart.add_series({"categories": "=S!$B$2:$B$3", "values": "=S!$A$2:$A$3"})
        chart.add_series({"categories": "=S!$B$2:$B$3", "values": "=S!$C$2:$C$3"})
        sheet.insert_chart("E2", chart)
        book.close()

    report, one = _same_in_one_pass_as_recalculated(build, tmp_path)
    assert report.values[("S", "C1")] == 2020.0 and report.values[("S", "C3")] == 8.0
    with zipfile.ZipFile(one) as a:
        sheet = a.read("xl/worksheets/sheet1.xml").decode()
        column = re.search(r'<col min="3" max="3" [^>]*style="(\d+)"', sheet)
        assert column and f'<c r="C2" s="{column.group(1)}"><f>A2*2</f><v>6</v></c>' in sheet  # the column's bold
        assert b"<c:v>3</c:v>" in a.read("xl/charts/chart1.xml")


def test_an_evaluated_workbook_writes_values_into_its_own_sheets_only(tmp_path: Path) -> None:
    # Its sheets are FormulaWorksheet, which write the values found; formulas in a sheet
    # of another class would be written without them, and are refused instead.
    from xlsxwriter.worksheet import Worksheet

    from chessrating.workbooks.writer import EvaluatedWorkbook, FormulaWorksheet

    book = EvaluatedWorkbook(str(tmp_path / "x.xlsx"))
    ours = book.add_worksheet("Ours")
    ours.write_formula(0, 0, "=1+1")
    assert isinstance(ours, FormulaWorksheet)
    book.add_worksheet("Plain", worksheet_class=Worksheet).write_formula(0, 0, "=Ours!A1*2")
    with pytest.raises(TypeError, match="Plain"):
        book.close()
    assert not (tmp_path / "x.xlsx").exists()


def test_a_formula_the_engine_cannot_evaluate_is_written_whole(tmp_path: Path) -> None:
    # its text handed over to the evaluating book comes back for the file, with no value
    # the engine found (an add-in function it does not know), as with one it evaluated
    import zipfile
    import xml.etree.ElementTree as ET

    from chessrating.workbooks.writer import EvaluatedWorkbook

    book = EvaluatedWorkbook(str(tmp_path / "x.xlsx"))
    sheet = book.add_worksheet("S")
    sheet.write_formula(0, 0, "=NOSUCHFN(1)")
    sheet.write_formula(1, 0, "=1+1")
    book.close()
    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    with zipfile.ZipFile(tmp_path / "x.xlsx") as archive:
        root = ET.fromstring(archive.read("xl/worksheets/sheet1.xml"))
    formulas = {c.get("r"): (c.find(f"{main}f").text, c.find(f"{main}v").text) for c in root.iter(f"{main}c")}
    assert formulas == {"A1": ("NOSUCHFN(1)", "0"), "A2": ("1+1", "2")}


def test_rows_and_spans_are_written_as_xlsxwriter_writes_them(tmp_path: Path) -> None:
    # A FormulaWorksheet with gaps, comments, rows set apart and cells far right, its
    # formulas left without values, comes out byte for byte as XlsxWriter's own
    # Worksheet writes it.
    import datetime as dt

    import xlsxwriter

    from chessrating.workbooks.writer import EvaluatedWorkbook, FormulaWorksheet, evaluation

    def build(kind, path: Path) -> bytes:
        book = kind(str(path))
        book.set_properties({"created": dt.datetime(2026, 1, 1)})
        if kind is EvaluatedWorkbook:
            book.worksheet_class = FormulaWorksheet
        sheet = book.add_worksheet("S")
        sheet.set_row(3, 30)
        sheet.set_row(40, None, None, {"hidden": True})
        for row in (0, 1, 2, 15, 16, 17, 31, 47, 60):
            sheet.write_number(row, (row * 7) % 40, row)
            sheet.write_formula(row, 45, f"=A{row + 1}+1")
        sheet.write_comment(20, 60, "far right")
        sheet.write_comment(33, 2, "left")
        sheet.write_string(99, 3, "last")
        with evaluation(evaluate=False):
            book.close()
        with zipfile.ZipFile(path) as archive:
            return archive.read("xl/worksheets/sheet1.xml")

    ours = build(EvaluatedWorkbook, tmp_path / "ours.xlsx")
    assert b'spans="' in ours and ours == build(xlsxwriter.Workbook, tmp_path / "theirs.xlsx")


def test_formats_numbered_in_the_order_made_look_as_xlsxwriter_writes_them(tmp_path: Path,
                                                                          monkeypatch) -> None:
    # The workbook numbers its formats (s=) in the order they were made, before any
    # sheet is written, where XlsxWriter numbers them as cells first use them. Each row
    # here uses the formats in another order: every cell, row and column looks the
    # same as XlsxWriter writes it.
    import xlsxwriter

    from chessrating.workbooks.writer import EvaluatedWorkbook, FormulaWorksheet

    def build(kind, path: Path) -> Path:
        book = kind(str(path))
        book.worksheet_class = FormulaWorksheet if kind is EvaluatedWorkbook else book.worksheet_class
        made = [book.add_format(options) for options in (
            {"bold": True}, {"num_format": "0.00"}, {"italic": True, "bg_color": "#FFFF00"},
            {"border": 1}, {"font_color": "#FF0000", "num_format": "0%"}, {"bold": True})]
        first, second = book.add_worksheet("First"), book.add_worksheet("Second")
        second.set_column(2, 2, 12, made[3])
        second.set_row(4, None, made[2])
        for row in range(64):
            first.write_number(row, 0, row)
            for col in range(1, 6):
                first.write_formula(row, col, f"=A{row + 1}*{col}", made[(row * 7 + col) % 6])
            second.write_string(row, 0, f"x{row}", made[4 - row % 4])
            second.write_formula(row, 1, f"=First!B{row + 1}+1")
        first.write_url(70, 0, "https://www.fide.com")
        book.close()
        return path

    ours = build(EvaluatedWorkbook, tmp_path / "ours.xlsx")
    theirs = build(xlsxwriter.Workbook, tmp_path / "theirs.xlsx")

    def looks(path: Path) -> dict[tuple[str, str], tuple[str, ...]]:
        book = openpyxl.load_workbook(path)
        return {(sheet.title, cell.coordinate): tuple(repr(getattr(cell, a)) for a in (
                    "number_format", "font", "fill", "border", "alignment", "protection"))
                for sheet in book.worksheets for row in sheet.iter_rows() for cell in row}

    assert looks(ours) == looks(theirs)


# ---------------------------------------------------------------------------- round robin

def test_round_robin_layout(templates: dict[str, Path]) -> None:
    book = openpyxl.load_workbook(templates["fide-round-robin.xlsx"])
    ws = book["Crosstable"]
    assert [ws.cell(4, c).value for c in range(1, 11)] == [
        "No.", "Name", "Title", "Fed", "Rating", "Rated games", "Birth year", "Peak", "K list", "K"]
    assert [ws.cell(4, c).value for c in range(11, 31)] == list(range(1, 21))   # K..AD
    assert [ws.cell(4, c).value for c in range(31, 45)] == [
        "Points", "Games", "Expected", "Perf. (TPR)", "Change", "New rating", "First rating", "Norm",
        "Rank", *(f'=IF(TieBreak{k}="","TB {k}",TieBreak{k}&"")' for k in range(1, 5)), "Check"]
    # The tie-breaks picked at the top, C.07's round-robin defaults (docs/RULES.md).
    assert [ws.cell(1, c).value for c in (11, 14, 17, 20, 23, 26, 29)] == [
        "Tie-breaks", "DE", "SB", "WIN", "KS", "TB rules", "2026"]
    assert book.defined_names["TieBreak1"].attr_text == "Crosstable!$N$1"
    assert book.defined_names["TieBreakRules"].attr_text == "Crosstable!$AC$1"
    assert book.defined_names["TieBreaks"].attr_text == "Crosstable!$AN$5:$AQ$24"
    assert book.defined_names["Rank"].attr_text == "Crosstable!$AM$5:$AM$24"
    assert ws["A24"].value == 20 and ws["A25"].value is None
    assert ws.freeze_panes == "C5"
    assert set(book.defined_names) >= {"Rules", "RatingYear", "NormTitle", "Ratings", "Results",
                                       "UnknownGames"}
    assert book.defined_names["UnknownGames"].attr_text == "Crosstable!$P$2"
    assert ws["P2"].value == "established"
    assert book.defined_names["Rules"].attr_text == "Crosstable!$E$2"
    # No norm title until one is picked: the Norm column stays quiet.
    assert ws["E2"].value == "2025" and ws["I2"].value is None


def test_round_robin_formulas_per_cell(templates: dict[str, Path]) -> None:
    f = formulas_of(templates["fide-round-robin.xlsx"])
    # Helper grids start at rows 28 (expected), 51 (change), 74 (results read), 97 (opponents),
    # 120 (points, or why a game's two cells contradict each other), 143 (points as
    # entered). A rating of blank, 0 or "-" is no rating (README). K list overrides FIDE_K
    # where FIDE_CHANGE reads it (else its refusal shows); a blank Rated games is read as
    # the UnknownGames setting says.
    k_list = 'FIDE_CHANGE(2000,2000,0.5,I5,"2025")'
    assert f[("Crosstable", "J5")] == ('=IF(OR(E5="",E5=0,E5="-"),"",IF(I5<>"",'
                                       f'IF(ISNUMBER({k_list}),I5,{k_list}),FIDE_K(E5,'
                                       'IF(AND(F5="",UnknownGames<>"new"),30,F5),G5,RatingYear,H5,'
                                       'COUNT(K97:AD97))))')
    # Opponent's rating only where a result is entered; an opponent whose rating check
    # (column E of this grid) refuses the rating is named instead; the diagonal is empty.
    # (a number, shown as "ok", once the rating is read: LibreOffice recalculates empty
    # stored values and would show #NAME? for a blank that needed our function)
    assert f[("Crosstable", "E98")] == '=IF(OR(E6="",E6=0,E6="-"),"",FIDE_EXPECTED(E6,E6))'
    # (beside it, column F: the rating as the opponents and the tie-breaks read it)
    assert f[("Crosstable", "F98")] == (
        '=IF(IFERROR(AND(ISTEXT($E$98),$E$98<>"",LEFT($E$98,9)<>"assumed: ",LEFT($E$98,6)<>"check "),TRUE),'
        '"check rating of player "&2&IF($B$6="",""," ("&$B$6&")"),'
        'IF(OR($E$6="",$E$6=0,$E$6="-"),"",$E$6))')
    assert f[("Crosstable", "L97")] == '=IF(L5="","",$F$98)'
    assert "TIEBREAK($N$1:$N$1,,$K$74:$AD$93,,TieBreakRules,$F$97:$F$116)" in f[("Crosstable", "AN5")]
    assert f[("Crosstable", "K97")] == '=""'
    # (blank where the game's points grid, L120, shows why the game contradicts its mirror)
    assert f[("Crosstable", "L74")] == '=IF(OR(L5="",LEFT(L120,6)="check "),"",L5)'
    # Expected score only where the game is rated (it has a change); a message instead.
    assert f[("Crosstable", "L28")] == ('=IF(ISNUMBER(L51),FIDE_EXPECTED($E$5,L97,Rules),'
                                        'IFERROR(IF(LEFT(L51,6)="check ",L51,""),""))')
    assert f[("Crosstable", "L51")] == ('=IF(LEFT(L120,6)="check ",L120,IF(LEFT(L97,6)="check ",L97,'
                                        'IF(OR(OR($E$5="",$E$5=0,$E$5="-"),L97=""),"",'
                                        'FIDE_CHANGE($E$5,L97,L74,$J$5,Rules))))')
    # The totals show the first message of the points or the opponents' ratings, else
    # the function's value (the change and new rating: K's refusal, if K is refused).
    k_refused = 'IFERROR(AND(ISTEXT(J6),J6<>"",LEFT(J6,9)<>"assumed: ",LEFT(J6,6)<>"check "),TRUE)'
    checked = ('IF(ISNA(MATCH("check *",K121:AD121,0)),IF(ISNA(MATCH("check *",K98:AD98,0)),{},'
               'INDEX(K98:AD98,MATCH("check *",K98:AD98,0))),INDEX(K121:AD121,MATCH("check *",K121:AD121,0)))')
    # (a reason before the test for games: a contradicted game has no opponent's rating)
    no_games = 'SUMPRODUCT(--(K98:AD98<>""))=0'
    assert f[("Crosstable", "AI6")] == ('=IF(OR(E6="",E6=0,E6="-"),"",' + checked.format(
        f'IF({no_games},"",IF({k_refused},J6,FIDE_CHANGE(E6,K98:AD98,K75:AD75,J6,Rules)))') + ")")
    assert f[("Crosstable", "AJ6")] == ('=IF(OR(E6="",E6=0,E6="-"),"",' + checked.format(
        f'IF({no_games},"",IF({k_refused},J6,FIDE_NEWRATING(E6,K98:AD98,K75:AD75,J6,Rules)))') + ")")
    assert f[("Crosstable", "AH6")] == "=" + checked.format(f'IF({no_games},"",PERF_RATING(K98:AD98,K75:AD75,"FIDE"))')
    assert f[("Crosstable", "AK6")] == ('=IF(OR(E6="",E6=0,E6="-"),'
                                        + checked.format(f'IF({no_games},"",FIDE_INITIAL(K98:AD98,K75:AD75))') + ',"")')
    assert f[("Crosstable", "AL6")] == ('=IF(OR(NormTitle="",COUNTA(K6:AD6)=0),"",' + checked.format(
        "FIDE_NORM(K98:AD98,K75:AD75,NormTitle,$C$5:$C$24,$D$5:$D$24,D6)") + ")")
    # Points: the sum of the points-per-game grid, built-ins only, or its first message.
    # (a row whose only entry is a blank against its mirror's result shows that reason)
    assert f[("Crosstable", "AE5")] == ('=IF(COUNTA(K5:AD5)+COUNTIF(K120:AD120,"check *")=0,"",'
                                        'IF(ISNA(MATCH("check *",K120:AD120,0)),'
                                        'SUM(K120:AD120),INDEX(K120:AD120,MATCH("check *",K120:AD120,0))))')
    # The points as entered, read from each cell alone...
    # (the points of a result, #N/A for what is none, which names itself once: IFERROR)
    assert f[("Crosstable", "L143")].startswith('=IF(TRIM(L5)="","",IFERROR(IF(ISNUMBER(L5),'
                                                'IF(OR(L5={0,0.5,1}),L5,NA()),')
    assert f[("Crosstable", "L143")].endswith(',"check result against player 2: "&IF(IFERROR(AND(ISNUMBER(L5),'
                                              'L5>366,L5<2958466,L5=INT(L5),OR(AND(MONTH(L5)=1,DAY(L5)=2),'
                                              'AND(MONTH(L5)=2,DAY(L5)=1))),FALSE),"L"&ROW(L5)&": "&DAY(L5)&'
                                              'IF(MONTH(L5)=1,"-Jan","-Feb")&" was typed as 1/2 and became a date; '
                                              'pick ½ from the list",L5&" is not a game result")))')
    # ...then compared with the mirror's: the points, or why the two cells contradict.
    assert f[("Crosstable", "L120")].startswith(
        '=IF(AND(L143<>"",NOT(ISNUMBER(L143))),L143,IF(AND(L143="",K144=""),"",')
    assert ('"check game of "&"player "&1&IF($B$5="",""," ("&$B$5&")")&" and "&'
            '"player "&2&IF($B$6="",""," ("&$B$6&")")&": "') in f[("Crosstable", "L120")]
    # Check: the rating's refusal, else K's, else the row's first message (the note on an
    # assumed K after it), else the note.
    assert f[("Crosstable", "AR5")].startswith(
        '=IF(IFERROR(AND(ISTEXT($E$97),$E$97<>"",LEFT($E$97,9)<>"assumed: ",LEFT($E$97,6)<>"check "),TRUE),'
        '$E$97,IF(IFERROR(AND(ISTEXT(J5),J5<>"",LEFT(J5,9)<>"assumed: ",LEFT(J5,6)<>"check "),TRUE),J5,'
        'IF(ISNA(MATCH("check *",K120:AD120,0)),IF(ISNA(MATCH("check *",K97:AD97,0)),'
        # why an unrated player gets no first rating (First rating, AK, points here)
        'IF(AND(ISTEXT(AK5),AK5<>"",LEFT(AK5,6)<>"check "),AK5,'
        'IF(NOT(AND(NOT(OR(E5="",E5=0,E5="-")),I5="",F5="",N(E5)<2400,N(H5)<2400)),"",'
        '"assumed: rated games unknown, read as "&IF(UnknownGames="new",')


def test_round_robin_validation_and_warning(templates: dict[str, Path]) -> None:
    ws = openpyxl.load_workbook(templates["fide-round-robin.xlsx"])["Crosstable"]
    lists = {dv.formula1: dv for dv in ws.data_validations.dataValidation}
    results = lists['"1,½,0,+,-"']
    covered = {c for r in results.sqref.ranges for c in r.cells}
    grid = {(r, c) for r in range(5, 25) for c in range(11, 31)}
    diagonal = {(5 + i, 11 + i) for i in range(20)}
    assert covered == grid - diagonal
    blocked = lists["FALSE"]
    assert {c for r in blocked.sqref.ranges for c in r.cells} == diagonal
    rules = [(str(cf.sqref), rule.formula[0]) for cf in ws.conditional_formatting for rule in cf.rules]
    mirror = [formula for where, formula in rules if where == "K5:AD24"]
    assert len(mirror) == 1
    assert "INDEX($K$5:$AD$24,COLUMN(K5)-COLUMN($K$5)+1,ROW(K5)-ROW($K$5)+1)" in mirror[0]
    # The warning compares the points-per-game grid, so every result spelling counts, and
    # a refused result (a message, not a number) is red whatever its mirror holds.
    theirs = "INDEX($K$120:$AD$139,COLUMN(K5)-COLUMN($K$5)+1,ROW(K5)-ROW($K$5)+1)"
    assert f"NOT(ISNUMBER({theirs}))" in mirror[0] and f"N({theirs})" in mirror[0]
    # K, change and new rating are marked while K rests on an assumption.
    assumed = 'AND(NOT(OR($E5="",$E5=0,$E5="-")),$I5="",$F5="",N($E5)<2400,N($H5)<2400)'
    assert {where for where, formula in rules if formula == assumed} == {"J5:J24", "AI5:AI24", "AJ5:AJ24"}
    by_range = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    # Ratings: whole numbers from 100 to 4000, or blank, 0 or "-" (no rating).
    for where in ("E5:E24", "H5:H24"):
        assert (by_range[where].type, by_range[where].formula1) == (
            "custom", 'OR(E5=0,E5="-",AND(ISNUMBER(E5),E5=INT(E5),E5>=100,E5<=4000))'.replace(
                "E5", where.split(":")[0]))
        assert "100 to 4000" in by_range[where].error and "100 to 4000" in by_range[where].prompt
    # Rated games, birth year, K list: the functions' own ranges (chessrating.checks).
    for where, low, high in (("F5:F24", "0", "100000"), ("G5:G24", "1900", "2100"), ("I5:I24", "1", "40")):
        assert (by_range[where].type, by_range[where].formula1, by_range[where].formula2) == ("whole", low, high)
        assert f"{low} to {high}" in by_range[where].error


def test_round_robin_has_a_bar_chart(templates: dict[str, Path]) -> None:
    with zipfile.ZipFile(templates["fide-round-robin.xlsx"]) as archive:
        chart = archive.read("xl/charts/chart1.xml").decode()
    assert "<c:barChart>" in chart and "Crosstable!$AI$5:$AI$24" in chart


def test_sizes_are_checked(tmp_path: Path) -> None:
    with pytest.raises(RatingError, match="size: 1 players"):
        build_round_robin(tmp_path / "x.xlsx", size=1)
    with pytest.raises(RatingError, match="size: 5 players × 0 rounds"):
        build_swiss(tmp_path / "y.xlsx", players=5, rounds=0)


# ---------------------------------------------------------------------------- Swiss and US Chess

def test_swiss_layout_and_lookups(templates: dict[str, Path]) -> None:
    book = openpyxl.load_workbook(templates["fide-swiss.xlsx"])
    ws, games = book["Crosstable"], book["Games"]
    assert ws["K3"].value == "Round 1" and [ws.cell(4, c).value for c in (11, 12, 13)] == ["Opp", "Col", "Res"]
    assert ws["AQ4"].value == "Res" and ws["AR3"].value == "Points"      # 11 rounds, then totals
    assert ws["BE3"].value == "Check" and ws["AZ3"].value == "Rank"
    # The tie-breaks read the opponent numbers as checked, each round's result as entered
    # (byes and forfeits too), the colours and the ratings as the opponents' rows read them
    # (FD: a refused one as its reason); C.07's usual Swiss list picked at the top.
    # A row whose Points show a reason shows it there too.
    assert ws["BA5"].value == ('=IF(OR(TieBreak1="",AR5=""),"",IF(LEFT(AR5,6)="check ",AR5,INDEX(TIEBREAK($N$1:$N$1,'
                               'Games!$BW$5:$CG$204,Games!$CU$5:$DE$204,Games!$DG$5:$DQ$204,'
                               'TieBreakRules,Games!$FD$5:$FD$204),ROW()-4)))')
    # (blank where the round's Points cell, CI5, shows why it contradicts another row)
    assert games["CU5"].value == '=IF(OR(Crosstable!M5="",LEFT(CI5,6)="check "),"",Crosstable!M5)'
    # the colour, W or B, White or Black in any case, else why not (the row's Check shows it)
    assert games["DG5"].value == ('=IF(OR(TRIM(Crosstable!L5)={"","W","B","WHITE","BLACK"}),TRIM(Crosstable!L5),'
                                  '"check colour of round 1: "&Crosstable!L5&" is not W or B")')
    assert 'INDEX(Games!DG5:DQ5,MATCH("check *",Games!DG5:DQ5,0))' in ws["BE5"].value
    assert [ws.cell(1, c).value for c in (11, 14, 17, 20, 23)] == ["Tie-breaks", "BH/C1", "BH", "SB", "DE"]
    assert ws["A204"].value == 200 and ws["A205"].value is None
    # A round without an opponent (a bye) is no game for the functions.
    assert games["C5"].value == '=IF(OR(Crosstable!K5="",Crosstable!M5=""),"",Crosstable!M5)'
    # The opponent's number as entered and checked (block 13, from column EQ), then as
    # the ratings and tie-breaks read it (block 7, from column BW: blank where the round
    # contradicts another row), then looked up.
    assert games["EQ5"].value.startswith('=IF(Crosstable!K5="","",IF(IF(ISNUMBER(Crosstable!K5),AND(')
    assert '"check opponent in round 1: "&Crosstable!K5&IF(Crosstable!K5=$A5," is the player himself"' in games["EQ5"].value
    assert '" is text: type it as a number"' in games["EQ5"].value
    assert games["BW5"].value == '=IF(LEFT(CI5,6)="check ","",EQ5)'
    # each player's rating as the opponents read it, once per player after the checks
    check = "FC5"
    assert games["FD5"].value == (
        f'=IF(IFERROR(AND(ISTEXT({check}),{check}<>"",LEFT({check},9)<>"assumed: ",LEFT({check},6)<>"check "),TRUE),'
        f'"check rating of player "&$A5&IF(Crosstable!B5="",""," ("&Crosstable!B5&")"),'
        f'IF(OR(Crosstable!E5="",Crosstable!E5=0,Crosstable!E5="-"),"",Crosstable!E5))')
    assert games["O5"].value == (
        '=IF(OR(Crosstable!K5="",Crosstable!M5=""),"",IF(ISNUMBER(BW5),INDEX($FD$5:$FD$204,BW5),BW5))')
    # The row's first reason among its games has one home (Games, "Reason", FF), and so
    # has its note (FG: why no first rating, else the note on an assumed K): the totals
    # and Check name them.
    assert games["FF3"].value == "Reason" and games["FG3"].value == "Note"
    assert games["FF5"].value == ('=IFERROR(INDEX(CI5:CS5,MATCH("check *",CI5:CS5,0)),'
                                  'IFERROR(INDEX(O5:Y5,MATCH("check *",O5:Y5,0)),""))')
    assert games["FG5"].value.startswith('=IF(AND(ISTEXT(Crosstable!AX5),Crosstable!AX5<>"",'
                                         'LEFT(Crosstable!AX5,6)<>"check "),Crosstable!AX5,IF(NOT(')
    assert games["FG5"].value.endswith('"assumed: rated games unknown, read as "&IF(UnknownGames="new",'
                                       '"0 (new player)","30 (established)")&"; K list overrides"))')
    assert ws["AV5"].value == (
        '=IF(OR(E5="",E5=0,E5="-"),"",IF(Games!FF5<>"",Games!FF5,'
        'IF(SUMPRODUCT(--(Games!O5:Y5<>""))=0,"",'
        'IF(IFERROR(AND(ISTEXT(J5),J5<>"",LEFT(J5,9)<>"assumed: ",LEFT(J5,6)<>"check "),TRUE),J5,'
        'FIDE_CHANGE(E5,Games!O5:Y5,Games!C5:M5,J5,Rules)))))')
    assert 'IF(Games!FF5<>"",Games!FF5&IF(Games!FG5="","","; "&Games!FG5),' in ws["BE5"].value
    assert "assumed: " not in ws["BE5"].value.replace('"assumed: ",', "")  # (the note: FG5 alone)
    assert ws["AR5"].value == ('=IF(SUMPRODUCT(--(Games!CI5:CS5<>""))=0,"",IF(ISNA(MATCH("check *",'
                               'Games!CI5:CS5,0)),SUM(Games!CI5:CS5),INDEX(Games!CI5:CS5,'
                               'MATCH("check *",Games!CI5:CS5,0))))')
    # The points as entered (block 11, from column DS), then, in the Points block, the
    # reason where the round contradicts another row.
    assert games["DS5"].value.startswith('=IF(TRIM(Crosstable!M5)="","",')
    assert games["DS5"].value.endswith(',"check result of round 1: "&IF(IFERROR(AND(ISNUMBER(Crosstable!M5),'
                                       'Crosstable!M5>366,Crosstable!M5<2958466,Crosstable!M5=INT(Crosstable!M5),'
                                       'OR(AND(MONTH(Crosstable!M5)=1,DAY(Crosstable!M5)=2),'
                                       'AND(MONTH(Crosstable!M5)=2,DAY(Crosstable!M5)=1))),FALSE),"M"&ROW(Crosstable!M5)'
                                       '&": "&DAY(Crosstable!M5)&IF(MONTH(Crosstable!M5)=1,"-Jan","-Feb")&" was typed as '
                                       '1/2 and became a date; pick ½ from the list",Crosstable!M5&" is not a game result")))')
    assert games["CI5"].value.startswith('=IF(AND(DS5<>"",NOT(ISNUMBER(DS5))),DS5,'
                                         'IF(AND(EQ5<>"",NOT(ISNUMBER(EQ5))),EQ5,'
                                         'IF(EE5<>"",EE5,')
    # (a player named by two rows in the round: block 12, from column EE, searched only
    # in a round where some player is named more often than he names, counted below the
    # opponents as entered: FREQUENCY of the numbers named, 1..199 as bins and the last
    # count for 200, against whether the player's own row names a number)
    assert games["EE5"].value.startswith('=IF($EQ$205=0,"",IF(COUNTIF($EQ$5:$EQ$204,$A5)<2,"",')
    assert games["EQ205"].value == ('=IFERROR(SUMPRODUCT(--(FREQUENCY($EQ$5:$EQ$204,$A$5:$A$203)'
                                    '-ISNUMBER($EQ$5:$EQ$204)>0)),1)')
    assert games["FA205"].value == games["EQ205"].value.replace("$EQ$", "$FA$")
    assert games["FB205"].value is None and games["EP205"].value is None
    lists = {dv.formula1 for dv in ws.data_validations.dataValidation}
    assert '"1,½,0,+,-,H,B,U,Z"' in lists and '"W,B"' in lists and '"established,new"' in lists
    # Opponent numbers: whole 1..200, not the player's own (column A), one rule per round.
    assert "AND(ISNUMBER(K5),K5>=1,K5<=200,K5=INT(K5),K5<>$A5)" in lists
    assert "AND(ISNUMBER(AO5),AO5>=1,AO5<=200,AO5=INT(AO5),AO5<>$A5)" in lists


def test_uscf_one_pass_beside_two_passes(templates: dict[str, Path]) -> None:
    book = openpyxl.load_workbook(templates["uscf-event.xlsx"])
    ws = book["Crosstable"]
    assert [ws.cell(3, c).value for c in range(1, 10)] == [
        "No.", "Name", "Rating", "Games so far", "Age", "Record", "Peak", "Life master", "Abs. floor"]
    assert [ws.cell(3, c).value for c in range(37, 54)] == [
        "Points", "Games", "Perf.", "N′", "K", "Bonus", "One pass", "Two passes", "Change",
        "Difference", "Floor", "Rank", *(f'=IF(TieBreak{k}="","TB {k}",TieBreak{k}&"")' for k in range(1, 5)),
        "Check"]
    # Three columns a round from J: opponent, colour, result (the report needs the colour).
    assert [ws.cell(4, c).value for c in range(10, 16)] == ["Opp", "Col", "Res", "Opp", "Col", "Res"]
    assert [ws.cell(3, c).value for c in (10, 13, 34)] == ["Round 1", "Round 2", "Round 9"]
    # US Chess's usual tie-breaks (rule 34E) picked at the top; no FIDE edition. They read
    # the colours (Games!CE5:CM104, the Colour block) for BLACKS.
    assert [ws.cell(1, c).value for c in (9, 12, 15, 18, 21)] == ["Tie-breaks", "MODMED", "SOLKOFF", "CUMULATIVE", None]
    assert "TieBreakRules" not in book.defined_names
    assert ("TIEBREAK($L$1:$L$1,Games!$M$5:$U$104,Games!$AQ$5:$AY$104,Games!$CE$5:$CM$104,,$C$5:$C$104)"
            in ws["AW5"].value)
    assert book["Games"]["CE5"].value == ('=IF(OR(TRIM(Crosstable!K5)={"","W","B","WHITE","BLACK"}),TRIM(Crosstable!K5),'
                                          '"check colour of round 1: "&Crosstable!K5&" is not W or B")')
    assert book["Games"]["CM5"].value.startswith('=IF(OR(TRIM(Crosstable!AI5)={"","W","B","WHITE","BLACK"}),')
    assert '"check colour of round 9: "&Crosstable!AI5&" is not W or B"' in book["Games"]["CM5"].value
    # The functions read the games so far from the Games sheet (CO, after the nine blocks):
    # the typed number, or for a rated player left blank, 50 (established: N' = N*) unless
    # UnknownGames is "new".
    assert book["Games"]["CO5"].value == ('=IF(Crosstable!D5="",IF(OR(OR(Crosstable!C5="",Crosstable!C5=0,'
                                          'Crosstable!C5="-"),UnknownGames="new"),"",50),Crosstable!D5)')
    # a reason among the row's points (Games!AG5:AO5) first, then among the opponents' ratings
    assert ws["AQ5"].value.startswith('=IF(ISNA(MATCH("check *",Games!AG5:AO5,0)),IF(ISNA(MATCH("check *",'
                                      'Games!W5:AE5,0)),IF(SUMPRODUCT(--(Games!M5:U5<>""))=0,"",')
    assert ("USCF_NEWRATING(C5,Games!CO5,Games!W5:AE5,Games!C5:K5,E5,F5,G5,DualRated,BonusThreshold,"
            "Games!M5:U5)") in ws["AQ5"].value
    # One USCF_EVENT call per row, each taking its item, its row's number (not an array
    # formula, which LibreOffice recalculates on opening and shows as #NAME?), with the
    # peaks, life masters and personal absolute floors for the floors; a refused input
    # anywhere names its player instead: the first such player found once for the table
    # (Games!CP2, named FirstToCheck), not once per row. A contradicted round of the row's
    # own (its reason in the Points block, Games!AG5:AO5) is shown first.
    flagged = "Games!$CP$5:$CP$104"
    assert book["Games"]["CP2"].value == "=IF(COUNT($CP$5:$CP$104)=0,0,MIN($CP$5:$CP$104))"
    assert book.defined_names["FirstToCheck"].attr_text == "Games!$CP$2"
    assert flagged not in ws["AR5"].value
    assert ws["AR5"].value == (
        '=IF(ISNA(MATCH("check *",Games!AG5:AO5,0)),'
        'IF(SUMPRODUCT(--(Games!M5:U5<>""))=0,"",IF(FirstToCheck>0,"check inputs of player "'
        '&FirstToCheck&IF(INDEX($B$5:$B$104,FirstToCheck)="",""," ("&INDEX($B$5:$B$104,FirstToCheck)&")"),'
        'INDEX(USCF_EVENT($C$5:$C$104,Games!$CO$5:$CO$104,Games!$C$5:$K$104,Games!$M$5:$U$104,'
        '$E$5:$E$104,$F$5:$F$104,DualRated,BonusThreshold,$G$5:$G$104,$H$5:$H$104,$I$5:$I$104),'
        'ROW()-4))),INDEX(Games!AG5:AO5,MATCH("check *",Games!AG5:AO5,0)))')
    # Every row the same formula but for its own row: the column is copies of one formula.
    assert ws["AR104"].value == ws["AR5"].value.replace("M5:U5", "M104:U104").replace("AG5:AO5", "AG104:AO104")
    assert ws["AS5"].value == '=IF(OR(C5="",C5=0,C5="-"),"",IF(LEFT(AR5,6)="check ",AR5,IF(N(AR5)=0,"",AR5-C5)))'
    assert ws["AU5"].value == '=IF(AND(G5="",H5=""),"",USCF_FLOOR(G5,H5))'
    assert ws["AK5"].value == ('=IF(SUMPRODUCT(--(Games!AG5:AO5<>""))=0,"",IF(ISNA(MATCH("check *",'
                               'Games!AG5:AO5,0)),SUM(Games!AG5:AO5),INDEX(Games!AG5:AO5,'
                               'MATCH("check *",Games!AG5:AO5,0))))')
    assert "Why 'One pass' and 'Two passes' differ" in ws["R2"].value
    assert (ws["I2"].value, ws["N2"].value) == ("Games so far unknown", "established")
    by_range = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    assert by_range["K5:K104 N5:N104 Q5:Q104 T5:T104 W5:W104 Z5:Z104 AC5:AC104 AF5:AF104 AI5:AI104"].formula1 == '"W,B"'
    assert by_range["C5:C104"].formula1 == 'OR(C5=0,C5="-",AND(ISNUMBER(C5),C5=INT(C5),C5>=100,C5<=4000))'
    assert (by_range["D5:D104"].formula1, by_range["D5:D104"].formula2) == ("0", "100000")
    assert (by_range["E5:E104"].formula1, by_range["E5:E104"].formula2) == ("1", "120")
    assert "from 1 to 120" in by_range["E5:E104"].error
    assert by_range["H5:H104"].formula1 == '"TRUE,FALSE"'
    assert (by_range["I5:I104"].formula1, by_range["I5:I104"].formula2) == ("100", "150")


# ---------------------------------------------------------------------------- calculators

def test_calculators_show_the_rule_book_examples(templates: dict[str, Path]) -> None:
    path = templates["calculators.xlsx"]
    assert openpyxl.load_workbook(path).sheetnames == [
        "Elo", "FIDE", "US Chess", "Performance", "Expected score", "Goal", "How to use", "xlwings.conf"]
    fide = values_of(path, "FIDE")
    # docs/RULES.md §3.5: opponents 1902, 1877, 1884, 2012, 1832, score 3 -> first rating 1922
    assert (fide["D11"].value, fide["E11"].value) == ("First rating (unrated)", 1922)
    assert fide["E5"].value == 3
    uscf = values_of(path, "US Chess")
    # docs/RULES.md §4.4: 1500 on 6 games; 1400 W, 1550 L, 1650 D -> 1511.11
    assert uscf["D8"].value == "New rating" and uscf["E8"].value == pytest.approx(1511.11, abs=0.005)
    goal = values_of(path, "Goal")
    # docs/RULES.md §5: 1600, K 20, winning against 1600: 1695.6 after 11 games, 1700 after 12
    assert goal["B11"].value == 12
    assert (goal["A25"].value, round(goal["B25"].value, 1)) == (11, 1695.6)
    assert goal["B26"].value > 1700 > goal["B25"].value
    table = values_of(path, "Expected score")
    # docs/RULES.md §3.1: at a 400-point gap the FIDE table gives 0.92, the curve 0.909
    assert table["A23"].value == 400 and table["E23"].value == 0.92
    assert round(table["C23"].value, 3) == 0.909
    perf = values_of(path, "Performance")
    assert [perf.cell(9, c).value for c in range(2, 8)] == ["FIDE", "OWN", "400", "ELO", "PTP", "USCF"]
    shown = [perf.cell(10, c).value for c in range(2, 8)]
    # By hand (docs/RULES.md §3.6): average 9507/5 = 1901.4, ARO 1901; p 3/5 = 0.60 -> dp 72;
    # TPR 1901 + 72; own 1922 + 72; algorithm of 400: 1901.4 + 400 x (3 - 2)/5.
    assert shown[:3] == [1973, 1994, pytest.approx(1981.4)]
    assert all(isinstance(v, (int, float)) and 1900 < v < 2050 for v in shown[3:])


# ---------------------------------------------------------------------------- the example event

def test_demo_event_matches_the_published_crosstable() -> None:
    from datetime import date

    event = load_demo_event()
    assert event.name == "4th Sinquefield Cup" and event.year == 2016
    assert (event.start, event.tournament.end_date) == (date(2016, 8, 5), date(2016, 8, 14))
    assert len(event.players) == 10 and len(event.sources) >= 5
    # Final standings (chesshive.com final ranking)
    assert event.points() == [5.5, 5, 5, 5, 5, 4.5, 4.5, 4, 3.5, 3]
    assert event.points() == list(event.published_points)
    assert event.mismatches() == []
    # Average rating 27786/10 (chessaccount.com)
    assert sum(p.rating for p in event.players) == 27786
    # Column totals: every game gives one point in all
    assert sum(event.points()) == 45


def test_demo_workbook_values(demo: Path) -> None:
    ws = values_of(demo, "Crosstable")
    assert ws["B5"].value == "So, Wesley" and ws["B2"].value == "4th Sinquefield Cup"
    assert [ws.cell(r, 21).value for r in range(5, 15)] == [5.5, 5, 5, 5, 5, 4.5, 4.5, 4, 3.5, 3]
    # So: TPR 2859 and +11.2 rating points (chessaccount.com report of the event)
    assert ws["X5"].value == 2859
    assert round(ws["Y5"].value, 1) == 11.2
    assert ws["Z5"].value == 2771 + 11
    assert ws["J5"].value == 10          # K 10 for a 2400+ player
    # Each game's change adds up to the row's change
    row_changes = [ws.cell(r, 25).value for r in range(5, 15)]
    grid = [[ws.cell(r, c).value for c in range(11, 21)] for r in range(31, 41)]  # change grid
    for total, games in zip(row_changes, grid):
        assert total == pytest.approx(sum(v for v in games if v not in (None, "")))


def test_fill_keeps_names_as_text(tmp_path: Path) -> None:
    names = ["=1+1", "+44 Smith", "-Jones", "@home", "=HYPERLINK(\"x\")"]
    players = [Player(i + 1, n, rating=2000 + i) for i, n in enumerate(names)]
    players[0].games, players[1].games = [RoundGame(1, 2, "w", "1")], [RoundGame(1, 1, "b", "0")]
    event = RoundRobinEvent(Tournament(name="=cmd|' /C calc'!A0", players=players, rounds=5))
    path = fill_round_robin(event, tmp_path / "names.xlsx")
    ws = openpyxl.load_workbook(path)["Crosstable"]
    assert [ws.cell(r, 2).value for r in range(5, 10)] == names
    assert all(ws.cell(r, 2).data_type == "s" for r in range(5, 10))
    assert ws["B2"].data_type == "s"
    cached = values_of(path, "Crosstable")
    assert cached["B13"].value == "=1+1"  # the name copied by a formula is still the text


def test_fill_swiss_from_a_trf_file(tmp_path: Path) -> None:
    tournament = read_trf(TRF / "javafo_sample2.trf")
    path = fill_swiss(tournament, tmp_path / "swiss.xlsx")
    ws = values_of(path, "Crosstable")
    rounds = tournament.rounds
    points_col = 11 + 3 * rounds
    assert ws.cell(3, points_col).value == "Points"
    for p in tournament.players:
        r = 4 + p.number
        assert ws.cell(r, 2).value == p.name
        assert ws.cell(r, 5).value == p.rating
        first = p.game(1)
        assert ws.cell(r, 11).value == first.opponent
        cell = first.cell
        assert ws.cell(r, 13).value == (int(cell) if cell in ("1", "0") else (cell or None))
        expected_points = tournament.computed_points(p)
        shown = ws.cell(r, points_col).value
        assert (shown or 0) == expected_points, p.number


def test_round_robin_event_refuses_a_pair_met_twice() -> None:
    a = Player(1, "A", games=[RoundGame(1, 2, "w", "1"), RoundGame(2, 2, "b", "0")])
    b = Player(2, "B", games=[RoundGame(1, 1, "b", "0"), RoundGame(2, 1, "w", "1")])
    with pytest.raises(RatingError, match="met twice"):
        RoundRobinEvent(Tournament(players=[a, b], rounds=2))
    single = RoundRobinEvent(Tournament(players=[
        Player(2, "B", games=[RoundGame(1, 1, "b", "="), RoundGame(2, None, None, "U")]),
        Player(1, "A", games=[RoundGame(1, 2, "w", "=")])], rounds=2))
    assert single.results == (("", "½"), ("½", ""))  # by starting number; the bye left out
    assert [p.name for p in single.players] == ["A", "B"]
    with pytest.raises(RatingError, match="^opponent: player 1 meets unknown number 3 in round 1$"):
        RoundRobinEvent(Tournament(players=[Player(1, games=[RoundGame(1, 3, "w", "1")]), Player(2)]))
    with pytest.raises(RatingError, match="^results: player 2 cannot play themself$"):
        RoundRobinEvent(Tournament(players=[Player(1), Player(2, games=[RoundGame(1, 2, "w", "1")])]))


EVENT_FILE = """# event: e
# start: 2026-05-01
no,name,title,federation,rating,birth_year,1,2,3,points
1,A,,,2000,,{},1,½,1.5
2,B,,,,,0,,1,1
3,C,,,,,½,0,{},0.5
"""


def test_event_file_is_read_and_checked() -> None:
    event = parse_event_csv(EVENT_FILE.format("", ""))
    assert event.results == (("", "1", "½"), ("0", "", "1"), ("½", "0", ""))
    assert (event.name, event.year, event.points()) == ("e", 2026, [1.5, 1.0, 0.5])
    # three players: each sits out the round of the Berger tables' dummy
    assert [[(g.round, g.opponent) for g in p.games] for p in event.players] == [
        [(1, None), (2, 2), (3, 3)], [(1, 3), (2, 1), (3, None)], [(1, 2), (2, None), (3, 1)]]
    with pytest.raises(RatingError, match=r"^results: 'x' is not a crosstable result \(row 1, column 1\)$"):
        parse_event_csv(EVENT_FILE.format("x", ""))
    with pytest.raises(RatingError, match="^results: player 3 cannot play themself$"):
        parse_event_csv(EVENT_FILE.format("", "1"))
    with pytest.raises(RatingError, match="^start: 'May' is not a date YYYY-MM-DD$"):
        parse_event_csv(EVENT_FILE.format("", "").replace("2026-05-01", "May"))


@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                    reason="LibreOffice and pdftotext render the workbook")
def test_libreoffice_renders_the_cached_values(demo: Path, tmp_path: Path) -> None:
    profile = (tmp_path / "profile").as_uri()
    subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf",
                    "--outdir", str(tmp_path), str(demo)], check=True, capture_output=True, timeout=180)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "demo.pdf"), "-"],
                          check=True, capture_output=True, text=True).stdout
    assert "So, Wesley" in text and "2859" in text and "GM norm" in text


# ---------------------------------------------------------------------------- filled by hand
# Cells typed by a user, read back after chessrating.recalc (the evaluator behind the
# cached values): the spelling of results, ratings of 0, bad opponent numbers.

def fill_and_recalculate(template: Path, cells: dict[tuple[int, int], object], out: Path) -> Path:
    """Write values into the Crosstable sheet as a user would, then recalculate."""
    from chessrating.recalc import recalculate

    book = openpyxl.load_workbook(template)
    sheet = book["Crosstable"]
    for (row, col), value in cells.items():
        sheet.cell(row, col).value = value
    typed = out.with_name(out.stem + "-typed.xlsx")
    book.save(typed)
    recalculate(typed, out)
    return out


def round_robin_cells(players: list[tuple[str, object]], results: dict[tuple[int, int], object]) -> dict:
    cells: dict[tuple[int, int], object] = {}
    for i, (name, rating) in enumerate(players):
        cells[(5 + i, 2)], cells[(5 + i, 5)] = name, rating
    for (i, j), value in results.items():
        cells[(5 + i, 11 + j)] = value
    return cells


# Every spelling of the README's "Results a cell may hold" for a game, the row player's
# cell and its mirror. (A bye has no opponent: test_a_bye_in_a_round_robin_game_cell.)
SPELLINGS = [(1, 0), ("1", "0"), ("w", "l"), ("W", "L"), (0.5, "½"), ("=", "0.5"), ("d", "D"),
             ("0,5", "1/2"), ("+", "-"), ("X", "F")]


@pytest.mark.parametrize("mine,theirs", SPELLINGS)
def test_points_count_every_result_spelling(templates: dict[str, Path], tmp_path: Path,
                                            mine: object, theirs: object) -> None:
    from chessrating.results import read_result

    cells = round_robin_cells([("Alpha", 2100), ("Beta", 2000), ("Gamma", 1900)],
                              {(0, 1): mine, (1, 0): theirs, (0, 2): 1, (2, 0): 0})
    path = fill_and_recalculate(templates["fide-round-robin.xlsx"], cells, tmp_path / "rr.xlsx")
    ws = values_of(path, "Crosstable")
    # Points: the points the functions give each result (results.read_result), one per game.
    mine_points = read_result(mine).points
    assert ws["AE5"].value == mine_points + 1
    assert ws["AE6"].value == read_result(theirs).points
    assert ws["AE7"].value == 0
    assert (ws["AF5"].value, ws["AF6"].value, ws["AF7"].value) == (2, 1, 1)
    # The points grid the mirror warning compares holds the same points.
    assert (ws["L120"].value, ws["K121"].value) == (mine_points, read_result(theirs).points)


@pytest.mark.parametrize("mine,theirs", [("H", "H"), ("B", "Z"), ("U", "z"), (1, "-")])
def test_a_bye_in_a_round_robin_game_cell(templates: dict[str, Path], tmp_path: Path,
                                          mine: object, theirs: object) -> None:
    # A bye has no opponent, and a played result is no forfeit: the two cells do not make
    # one game (docs/RULES.md §1.1), so neither counts; Gamma keeps his numbers.
    cells = round_robin_cells([("Alpha", 2100), ("Beta", 2000), ("Gamma", 1900)],
                              {(0, 1): mine, (1, 0): theirs, (0, 2): 1, (2, 0): 0})
    path = fill_and_recalculate(templates["fide-round-robin.xlsx"], cells, tmp_path / "rr.xlsx")
    ws = values_of(path, "Crosstable")
    reason = (f"check game of player 1 (Alpha) and player 2 (Beta): L5 holds {mine} and K6 holds "
              f"{theirs}, which do not add up to one game")
    assert (ws["AE5"].value, ws["AE6"].value, ws["AE7"].value) == (reason, reason, 0)
    assert (ws["L120"].value, ws["K121"].value) == (reason, reason)


def test_a_rating_of_zero_is_no_rating(templates: dict[str, Path], tmp_path: Path) -> None:
    # README: a rating of 0 is no rating. Beta's rating is 0 in a four-player event.
    results = {(0, 1): 1, (1, 0): 0, (0, 2): "½", (2, 0): "½", (0, 3): "½", (3, 0): "½",
               (1, 2): 1, (2, 1): 0, (1, 3): 1, (3, 1): 0, (2, 3): 1, (3, 2): 0}
    players = [("Alpha", 2100), ("Beta", 0), ("Gamma", 1900), ("Delta", "-")]
    path = fill_and_recalculate(templates["fide-round-robin.xlsx"],
                                round_robin_cells(players, results), tmp_path / "zero.xlsx")
    ws = values_of(path, "Crosstable")
    # Beta and Delta: no K, change or new rating; the first-rating rule speaks instead.
    for row in (6, 8):
        assert ws[f"J{row}"].value is None
        assert (ws[f"AI{row}"].value, ws[f"AJ{row}"].value) == (None, None)
        assert ws[f"AK{row}"].value.startswith("no first rating: ")
        # too long for First rating (which shows "→ Check"): Check tells it
        assert ws[f"AR{row}"].value == ws[f"AK{row}"].value
    # Alpha and Gamma are rated only against each other: Beta and Delta count as unrated
    # opponents, never as opponents rated 0. FIDE_CHANGE on the one rated game, from the core:
    assert ws["L97"].value is None and ws["M97"].value == 1900
    # Rated games left blank: read as an established player's (K 20 for an adult under
    # 2400, docs/RULES.md §3.3), and the row says so.
    assert ws["J5"].value == 20
    assert ws["AR5"].value == "assumed: rated games unknown, read as 30 (established); K list overrides"
    assert ws["AI5"].value == pytest.approx(udfs.FIDE_CHANGE(2100, [[1900]], [["½"]], 20, "2025"))
    assert ws["AI7"].value == pytest.approx(udfs.FIDE_CHANGE(1900, [[2100]], [["½"]], 20, "2025"))
    assert [ws[f"AE{r}"].value for r in range(5, 9)] == [2, 2, 1.5, 0.5]


def test_crosstables_name_the_standings_columns(templates: dict[str, Path]) -> None:
    # chessrating recalc prints the standings from these names (recalc.standings.COLUMN_NAMES).
    expected = {
        "fide-round-robin.xlsx": {"Names": "Name", "Points": "Points", "Performance": "Perf. (TPR)",
                                  "RatingChange": "Change", "NewRating": "New rating",
                                  "InitialRating": "First rating"},
        "fide-swiss.xlsx": {"Names": "Name", "Points": "Points", "Performance": "Perf. (TPR)",
                            "RatingChange": "Change", "NewRating": "New rating",
                            "InitialRating": "First rating"},
        "uscf-event.xlsx": {"Names": "Name", "Points": "Points", "Performance": "Perf.",
                            "RatingChange": "Change", "NewRating": "Two passes"},
    }
    sizes = {"fide-round-robin.xlsx": 20, "fide-swiss.xlsx": 200, "uscf-event.xlsx": 100}
    for name, columns in expected.items():
        book = openpyxl.load_workbook(templates[name])
        ws = book["Crosstable"]
        for defined, header in columns.items():
            sheet, ref = book.defined_names[defined].attr_text.split("!")
            first, last = ref.replace("$", "").split(":")
            top = ws[first]
            assert sheet == "Crosstable" and top.row == 5 and ws[last].row == 4 + sizes[name]
            assert top.column == ws[last].column
            assert header in (ws.cell(3, top.column).value, ws.cell(4, top.column).value), (name, defined)


def test_recalc_reads_the_named_standings(demo: Path, tmp_path: Path) -> None:
    from chessrating.recalc import recalculate

    report = recalculate(demo, tmp_path / "again.xlsx")
    ws = values_of(demo, "Crosstable")
    # The standings come from the names: every player, by the Rank column (points, then the
    # round-robin tie-breaks DE, SB, WIN, KS): the published order of the four on 5 points.
    assert [s.name for s in report.standings][:5] == [
        "So, Wesley", "Anand, Viswanathan", "Aronian, Levon", "Caruana, Fabiano", "Topalov, Veselin"]
    assert report.standings.ranked_by == "Ranked by points, then DE, SB, WIN, KS (Rank column; tie-break rules 2024)"
    assert {s.name for s in report.standings} == {ws.cell(r, 2).value for r in range(5, 15)}
    so = report.standings[0]
    # So: 5.5 points, TPR 2859, +11.2 (chessaccount.com report of the event)
    assert (so.points, so.performance, round(so.change, 1), so.new_rating) == (5.5, 2859, 11.2, 2782)
    assert [s.points for s in report.standings] == [ws.cell(r, 21).value for r in range(5, 15)]


def swiss_cells(players: list[tuple[str, object]], rounds: dict[tuple[int, int], tuple]) -> dict:
    cells: dict[tuple[int, int], object] = {}
    for i, (name, rating) in enumerate(players):
        cells[(5 + i, 2)], cells[(5 + i, 5)] = name, rating
    for (number, rnd), (opponent, colour, result) in rounds.items():
        col = 11 + 3 * (rnd - 1)
        cells[(4 + number, col)], cells[(4 + number, col + 1)], cells[(4 + number, col + 2)] = (
            opponent, colour, result)
    return cells


def test_swiss_bad_opponent_numbers_say_why(tmp_path: Path) -> None:
    template = build_swiss(tmp_path / "swiss.xlsx", players=6, rounds=2)
    rounds = {(1, 1): (2, "W", 1), (2, 1): (1, "B", 0), (3, 1): (4, "W", "½"), (4, 1): (3, "B", "½"),
              (1, 2): (999, "B", 1),      # beyond the list
              (2, 2): (2, "W", 1),        # paired with himself
              (3, 2): ("x", "W", 0),      # not a number
              (4, 2): (None, None, 1)}    # a result without an opponent: no game, no points
    players = [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)]
    path = fill_and_recalculate(template, swiss_cells(players, rounds), tmp_path / "bad.xlsx")
    ws, games = values_of(path, "Crosstable"), values_of(path, "Games")
    # Games sheet: the round's points (column Y) say what is wrong: the round is no game
    # (docs/RULES.md §1.2), and the opponent's rating (column G) is not looked up.
    bad = ["check opponent in round 2: 999 is not a player number (1 to 6)",
           "check opponent in round 2: 2 is the player himself",
           "check opponent in round 2: x is not a player number (1 to 6)"]
    assert [games[f"Y{r}"].value for r in (5, 6, 7)] == bad
    assert [games[f"G{r}"].value for r in (5, 6, 7)] == [None] * 3
    # The row's points, games, change show the reason; columns: points Q, games R, change U, norm X
    assert [ws[f"U{r}"].value for r in (5, 6, 7)] == bad
    # D's played result without an opponent is refused: D's points, games, change and Check say so.
    no_opponent = "check round 2: player 4 (D) has the result 1 but no opponent"
    assert [ws[f"Q{r}"].value for r in range(5, 9)] == [*bad, no_opponent]
    assert ws["AD8"].value.startswith(no_opponent + "; assumed: ")
    assert [ws[f"R{r}"].value for r in range(5, 9)] == [*bad, no_opponent]
    # D's change shows the reason, not the one game against C.
    assert ws["U8"].value == no_opponent
    # No norm title picked: the norm column stays quiet.
    assert all(ws[f"X{r}"].value is None for r in range(5, 9))


def test_uscf_bad_opponent_numbers_say_why(tmp_path: Path) -> None:
    from chessrating.workbooks.uscf import build_uscf

    template = build_uscf(tmp_path / "uscf.xlsx", players=4, rounds=2)
    cells = {(5, 2): "A", (5, 3): 1600, (6, 2): "B", (6, 3): 1500, (7, 2): "C", (7, 3): 0,
             (5, 10): 2, (5, 12): "w", (6, 10): 1, (6, 12): "l", (7, 10): 3, (7, 12): 1, (6, 13): 7,
             (6, 15): "d"}
    path = fill_and_recalculate(template, cells, tmp_path / "bad.xlsx")
    ws, games = values_of(path, "Crosstable"), values_of(path, "Games")
    # Games sheet, opponent numbers as entered and checked (round 1 in column R, round 2 in
    # S) and the rounds' points (L, M): the round is no game (docs/RULES.md §1.2), so the
    # opponent numbers the functions read (F, G) are blank.
    assert games["R7"].value == games["L7"].value == "check opponent in round 1: 3 is the player himself"
    assert games["S6"].value == games["M6"].value == "check opponent in round 2: 7 is not a player number (1 to 4)"
    assert (games["F7"].value, games["G6"].value) == (None, None)
    # One pass (column V) names the reason for the player whose opponent is wrong.
    assert ws["V7"].value == "check opponent in round 1: 3 is the player himself"
    assert ws["V6"].value == "check opponent in round 2: 7 is not a player number (1 to 4)"
    # Two passes rate the whole event: every other row names the first player to fix.
    assert [ws[f"W{r}"].value for r in range(5, 8)] == [
        "check inputs of player 2 (B)", ws["V6"].value, ws["V7"].value]
    # Points: W and L read as 1 and 0; B's and C's rows show why a round is no game; C's
    # rating 0 is no rating (no N', no change).
    assert [ws[f"P{r}"].value for r in range(5, 8)] == [
        1, "check opponent in round 2: 7 is not a player number (1 to 4)",
        "check opponent in round 1: 3 is the player himself"]
    assert (ws["S7"].value, ws["X7"].value) == (None, None)


def test_how_to_and_helper_sheets_print_readably(templates: dict[str, Path]) -> None:
    for name, path in templates.items():
        book = openpyxl.load_workbook(path)
        how = book["How to use"]
        assert how.column_dimensions["A"].width <= 92
        paragraphs = [r for r in range(3, how.max_row + 1) if how.cell(r, 1).value]
        for r in paragraphs:
            text = how.cell(r, 1).value
            assert how.cell(r, 1).alignment.wrap_text
            # About 100 characters a line at 15 points: never less room than the text needs.
            assert how.row_dimensions[r].height >= 15 * (len(text) // 110 + 1), (name, r)
        for sheet in ("How to use", "xlwings.conf"):
            ws = book[sheet]
            # upright, at 100 % (the file's default scale, not written): one column of text
            assert ws.print_area and ws.page_setup.orientation == "portrait"
            assert (ws.page_setup.scale or 100) == 100 and not ws.sheet_properties.pageSetUpPr.fitToPage
    for name in ("fide-swiss.xlsx", "uscf-event.xlsx"):
        for sheet in ("Games", "Crosstable"):
            ws = openpyxl.load_workbook(templates[name])[sheet]
            # a fixed scale of at least 64 % (Calibri 11 prints at 7 pt or more), pages
            # across repeating No. and Name, pages down the header rows
            assert ws.page_setup.orientation == "landscape" and ws.page_setup.paperSize == 9
            assert ws.page_setup.scale >= 64 and not ws.sheet_properties.pageSetUpPr.fitToPage
            assert ws.print_title_rows == "$3:$4" and ws.print_title_cols == "$A:$B", (name, sheet)
            # across, then down: the pages of the same players follow each other
            assert ws.page_setup.pageOrder == "overThenDown", (name, sheet)
    swiss = openpyxl.load_workbook(templates["fide-swiss.xlsx"])
    # (to the last block, the opponents as entered; down to the last row with a name)
    assert swiss.defined_names["PrintEnteredGames"].attr_text == (
        'OFFSET(Games!$A$1,0,0,MAX(4,SUMPRODUCT(MAX((Games!$B$5:$B$204<>"")*ROW(Games!$B$5:$B$204)))),157)')
    # the Report: the players entered (their names copied); a round robin's columns end
    # with the last round its players play (the round numbers shown)
    assert swiss.defined_names["PrintEnteredReport"].attr_text == (
        'OFFSET(Report!$A$1,0,0,MAX(18,SUMPRODUCT(MAX((Report!$B$19:$B$218<>"")*ROW(Report!$B$19:$B$218)))),12)')
    robin = openpyxl.load_workbook(templates["fide-round-robin.xlsx"])
    assert robin.defined_names["PrintEnteredReport"].attr_text == (
        'OFFSET(Report!$A$1,0,0,MAX(18,SUMPRODUCT(MAX((Report!$B$19:$B$38<>"")*ROW(Report!$B$19:$B$38)))),'
        'MAX(5,SUMPRODUCT(MAX((Report!$B$15:$T$15<>"")*COLUMN(Report!$B$15:$T$15)))))')
    assert [robin["Report"].cell(15, c).value for c in (2, 20)] == ['=IF(1<BergerTable,1,"")', '=IF(19<BergerTable,19,"")']
    schedule = robin["Schedule"].page_setup
    assert (schedule.orientation, schedule.scale) == ("portrait", 74)


def test_norm_column_is_quiet_until_a_title_is_picked(templates: dict[str, Path], demo: Path) -> None:
    for name in ("fide-round-robin.xlsx", "fide-swiss.xlsx"):
        assert openpyxl.load_workbook(templates[name])["Crosstable"]["I2"].value is None
    ws = values_of(demo, "Crosstable")
    # The example event asks for GM norms (the README picture): 9 of 10 reach the GM
    # norm's performance; Giri's 3/9 is below 35 % (FIDE norm rule 1.4.6 in docs/RULES.md).
    assert ws["I2"].value == "GM"
    assert [ws.cell(r, 28).value for r in range(5, 14)] == ["GM norm"] * 9
    assert ws["AB14"].value == "no GM norm: score 33 % < 35 %"
    with pytest.raises(RatingError, match="norm_title: 'FM' is not one of GM, IM, WGM, WIM or blank"):
        RoundRobinEvent(Tournament(players=[Player(1, "a"), Player(2, "b")]), norm_title="FM")


def test_calculator_formats_and_goal_print_area(templates: dict[str, Path]) -> None:
    book = openpyxl.load_workbook(templates["calculators.xlsx"])
    perf = book["Performance"]
    # FIDE TPR, own rating + dp and the perfect performance are whole numbers.
    assert [perf.cell(10, c).number_format for c in range(2, 8)] == ["0", "0", "0.0", "0.0", "0", "0.0"]
    goal = book["Goal"]
    assert goal.print_area == "'Goal'!$A$1:$O$74"
    values = values_of(templates["calculators.xlsx"], "Elo")
    # docs/RULES.md §2 example: 1 + ½ + 0 against 1800, 2100, 2200
    assert values["B7"].value == 1.5


@pytest.mark.parametrize("name, sheets", [
    ("fide-round-robin.xlsx", ("Crosstable",)),
    ("fide-swiss.xlsx", ("Crosstable", "Games")),
    ("uscf-event.xlsx", ("Crosstable", "Games")),
])
def test_inputs_look_different_from_formulas_and_panes_are_frozen(
        templates: dict[str, Path], name: str, sheets: tuple[str, ...]) -> None:
    book = openpyxl.load_workbook(templates[name])
    for sheet in sheets:
        assert book[sheet].freeze_panes, (name, sheet)
        # the print area follows the entries (a formula openpyxl leaves out; kept by name)
        assert book.defined_names[f"PrintEntered{sheet}"].attr_text.startswith(f"OFFSET({sheet}!$A$1,"), (name, sheet)
    ws = book["Crosstable"]
    # Row 5 is the first player: its rating is an input, its points a formula.
    header = {c.value: c.column for row in (ws[4], ws[3]) for c in row if isinstance(c.value, str)}
    rating, points = ws.cell(5, header["Rating"]), ws.cell(5, header["Points"])
    assert isinstance(points.value, str) and points.value.startswith("=")
    assert rating.fill.fgColor.rgb.endswith("FFF2CC")
    assert not points.fill.fgColor.rgb.endswith("FFF2CC")


def test_goal_planner_has_a_line_chart(templates: dict[str, Path]) -> None:
    with zipfile.ZipFile(templates["calculators.xlsx"]) as book:
        charts = [book.read(n) for n in book.namelist() if n.startswith("xl/charts/chart")]
    assert any(b"<c:lineChart>" in chart for chart in charts)


@given(st.lists(st.sampled_from(["SUM(", "LOG10(", "LOG20(", "T.DIST.2T(", "T.DIST.3T(", "A1", "B22",
                                  "$C$3", "7", "+", ",", ")", "\"9(\"", "ÄB1(", "X٣(", "MY.F1("]),
                max_size=12))
def test_calls_found_by_shape_equal_the_full_scan(pieces):
    # calls_of answers copies from memory by the formula's shape (digits masked): it must
    # give what the regular expression finds in the text itself, whichever formula of a
    # shape came first, also where names differ only in a digit
    from chessrating.workbooks.writer import _CALL, calls_of

    formula = "=" + "".join(pieces)
    twin = formula.translate(str.maketrans("0123456789", "1234567890"))
    for text in (formula, twin, formula):
        assert calls_of(text) == frozenset(_CALL.findall(text)), text


def test_formula_preparation_equals_xlsxwriters_own(tmp_path, monkeypatch):
    # The templates' worksheets prepare formulas once per set of functions called; every
    # formula the four templates write must come out as XlsxWriter's own code makes it.
    from xlsxwriter.worksheet import Worksheet

    from chessrating.workbooks import write_templates
    from chessrating.workbooks.writer import FormulaWorksheet

    fast, write = FormulaWorksheet._prepare_formula, FormulaWorksheet._write_formula
    seen: list[str] = []

    def compared(self, row, col, formula, cell_format=None, value=0):
        seen.append(formula)
        answer = write(self, row, col, formula, cell_format, value)
        theirs = Worksheet()
        theirs.use_future_functions = self.use_future_functions
        assert answer == theirs._write_formula(row, col, formula, cell_format, value), formula
        assert self.table[row][col] == theirs.table[row][col], formula
        return answer

    monkeypatch.setattr(FormulaWorksheet, "_write_formula", compared)
    write_templates(tmp_path, recalculate=False)
    assert len(seen) > 10_000
    sheet = FormulaWorksheet()
    for formula in ["=SORT(A1:A3)", "{=XLOOKUP(1,A:A,B:B)}", '="SEQUENCE(" & A1', "=SINGLE(A1)",
                    "=_xlfn.SINGLE(A1)", "=LOG10(100)+FILTER(A1:A3,A1:A3>1)", "=MY.SORT(1)"]:
        assert fast(sheet, formula) == Worksheet._prepare_formula(sheet, formula), formula
    # and the cells written: an ordinary formula, a dynamic array, an array formula
    ours, theirs = FormulaWorksheet(), Worksheet()
    formulas = ["=SUM(A1:A3)", "=SORT(A1:A3)", '="SORT(" & A1', "=XSORT(A1)", "{=SUM(A1:A3*2)}",
                "=UNIQUE(B:B)+1", "=IF(OR(A1={1,2}),1,0)"]
    for row, formula in enumerate(formulas):
        assert ours._write_formula(row, 1, formula) == theirs._write_formula(row, 1, formula)
    assert ours.table == theirs.table
    assert (ours.dim_rowmax, ours.dim_colmax) == (theirs.dim_rowmax, theirs.dim_colmax)


def test_workbooks_are_deflated_fast_and_xlsxwriter_is_left_as_it_was(tmp_path):
    # EvaluatedWorkbook packs its parts at zlib's fastest level: the same parts as
    # XlsxWriter's own packing, each deflated (readable by zipfile), a larger file; and
    # XlsxWriter's module keeps its ZipFile all along, while the packing runs too, so
    # any other workbook of the process packs as XlsxWriter does.
    import xlsxwriter.exceptions
    import xlsxwriter.workbook

    from chessrating.workbooks.writer import EvaluatedWorkbook, evaluation

    import datetime as dt

    seen_while_packing = []

    class Watched(EvaluatedWorkbook):
        def _add_chart_data(self):  # called by the packing, before the zip is written
            seen_while_packing.append(xlsxwriter.workbook.ZipFile)
            super()._add_chart_data()

    def build(kind, path):
        book = kind(str(path))
        book.set_properties({"created": dt.datetime(2026, 1, 1)})  # the same second in both
        sheet = book.add_worksheet("Data")
        for row in range(2000):
            sheet.write_string(row, 0, f"player {row} of the event")
            sheet.write_formula(row, 1, f"=LEN(A{row + 1})*2")
        with evaluation(evaluate=False):
            book.close()
        return path

    ours, theirs = build(Watched, tmp_path / "ours.xlsx"), build(xlsxwriter.Workbook, tmp_path / "theirs.xlsx")
    assert seen_while_packing == [zipfile.ZipFile] and xlsxwriter.workbook.ZipFile is zipfile.ZipFile
    with zipfile.ZipFile(ours) as a, zipfile.ZipFile(theirs) as b:
        assert a.namelist() == b.namelist()
        assert all(a.read(name) == b.read(name) for name in a.namelist())
        assert {info.compress_type for info in a.infolist()} == {zipfile.ZIP_DEFLATED}
        fast = sum(info.compress_size for info in a.infolist())
        assert fast > sum(info.compress_size for info in b.infolist())
    broken = EvaluatedWorkbook(str(tmp_path / "missing-folder" / "x.xlsx"))
    broken.add_worksheet()
    with evaluation(evaluate=False), pytest.raises(xlsxwriter.exceptions.FileCreateError):
        broken.close()
    assert xlsxwriter.workbook.ZipFile is zipfile.ZipFile

