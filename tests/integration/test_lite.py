"""Workbooks that work the moment Excel opens them: kept values, and xlwings Lite copies.

* Kept values: every workbook the project writes (templates, the demo, imports, recalc
  output, Lite copies) stores ``<calcPr calcId="191029"/>`` without ``fullCalcOnLoad``,
  as current Excel saves a file, so Excel shows the cached values on open instead of
  ``#NAME?`` wherever the functions are not loaded yet.
* Lite copies: the file layout is that of the workbooks xlwings Lite saves (web-extension
  part with reference wa200008175, its properties as JSON string literals, the task pane,
  relationships, content types); every call of our functions is stored as a bound
  Office.js custom function (``_xldudf_NAME`` in a single-cell dynamic array); the rest
  of the file keeps its bytes.
* The Lite runtime itself: tests/test_lite_runtime.py.
* Round trip: ``lite`` then ``recalc`` gives the values of ``recalc`` of the classic file.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
import xlsxwriter

from chessrating import udfs, workbooks
from chessrating.cli import main
from chessrating.recalc import recalculate
from chessrating.import_trf import import_trf
from chessrating.lite.convert import (
    ADDIN_REFERENCE, AUTO_SHOW, LITE_PAIRING, LITE_PARAGRAPHS, LITE_PREFIX, LITE_SETUP,
    PAIRING_REQUIREMENTS, PYODIDE_VERSION, XLWINGS_REQUIREMENT, write_lite,
)
from chessrating.workbooks.layout import CLASSIC_SETUP
from chessrating.workbooks.swiss import CLASSIC_PAIRING

from test_trf_import import round_robin_text

ROOT = Path(__file__).resolve().parents[2]
# The web-extension parts of a workbook Excel saved with xlwings Lite (MIT, see its README).
SAVED = Path(__file__).resolve().parents[1] / "lite" / "saved" / "techtonique"
NAMES = frozenset(udfs.__all__)
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
CSV_ALL_SHEETS = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"

# The parts of a Lite-saved workbook (six real files, one layout).
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
WETP = "{http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
REL_METADATA = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"


# ------------------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of workbook the project writes, and the Lite copy of each."""
    folder = tmp_path_factory.mktemp("books")
    written = {p.stem: p for p in workbooks.write_templates(folder)}
    written["demo"] = workbooks.fill_round_robin(workbooks.load_demo_event(), folder / "demo.xlsx")
    trf = folder / "spring.trf"
    trf.write_text(round_robin_text(), encoding="utf-8", newline="")
    for system in ("fide", "uscf"):
        import_trf(trf, folder / f"imported-{system}.xlsx", system=system)
        written[f"imported-{system}"] = folder / f"imported-{system}.xlsx"
    # recalc of a workbook written elsewhere: the demo with XlsxWriter's own calcPr
    foreign = folder / "foreign.xlsx"
    _with_calc_pr(written["demo"], foreign, b'<calcPr calcId="124519" fullCalcOnLoad="1"/>')
    recalculate(foreign, folder / "recalc.xlsx")
    written["recalc"] = folder / "recalc.xlsx"
    for name in list(written):
        written[f"{name}-lite"] = write_lite(written[name], folder / f"{name}-lite.xlsx")[0]
    return written


def _with_calc_pr(src: Path, dst: Path, calc_pr: bytes) -> None:
    with zipfile.ZipFile(src) as archive, zipfile.ZipFile(dst, "w") as out:
        for info in archive.infolist():
            data = archive.read(info)
            if info.filename == "xl/workbook.xml":
                data = re.sub(rb"<calcPr\b[^>]*/>", calc_pr, data)
            out.writestr(info, data)


def _formulas(book: Path) -> list[str]:
    """The text of every formula of every sheet (cells, validations, formatting)."""
    texts = []
    with zipfile.ZipFile(book) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                root = ET.fromstring(archive.read(name))
                texts += [e.text for e in root.iter()
                          if e.tag.rsplit("}", 1)[-1] in ("f", "formula", "formula1", "formula2") and e.text]
    return texts


def _calls(formula: str) -> list[str]:
    """The names of the functions a formula calls (string literals left out)."""
    return re.findall(r"([A-Za-z_][\w.]*)\(", re.sub(r'"(?:[^"]|"")*"', '""', formula))


# ------------------------------------------------------------------------------ kept values

KINDS = ["fide-round-robin", "fide-swiss", "uscf-event", "calculators", "demo",
         "imported-fide", "imported-uscf", "recalc"]


@pytest.mark.parametrize("name", KINDS + [f"{k}-lite" for k in KINDS])
def test_every_written_workbook_keeps_its_cached_values(books: dict[str, Path], name: str) -> None:
    with zipfile.ZipFile(books[name]) as archive:
        workbook = ET.fromstring(archive.read("xl/workbook.xml"))
    calc = [e for e in workbook.iter() if e.tag.endswith("}calcPr")]
    assert len(calc) == 1 and calc[0].attrib == {"calcId": "191029"}, name


# ------------------------------------------------------------------------------ file structure

@pytest.mark.parametrize("name", KINDS)
def test_classic_workbooks_call_plain_names_and_lite_copies_bound_ones(books: dict[str, Path],
                                                                       name: str) -> None:
    classic = [c for f in _formulas(books[name]) for c in _calls(f)]
    lite = [c for f in _formulas(books[f"{name}-lite"]) for c in _calls(f)]
    assert not [c for c in classic if c.lower().startswith(LITE_PREFIX)]
    ours = sorted({c for c in classic if c.upper() in NAMES})
    assert ours, "the workbook calls none of our functions"
    assert not [c for c in lite if c.upper() in NAMES]  # no plain name is left
    bound = sorted({c[len(LITE_PREFIX):] for c in lite if c.startswith(LITE_PREFIX)})
    assert bound == ours
    # every other function call is as it was
    assert sorted(c for c in lite if not c.startswith(LITE_PREFIX)) == \
        sorted(c for c in classic if c.upper() not in NAMES)


def _members(book: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(book) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


CELL = re.compile(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", re.S)


@pytest.mark.parametrize("name", ["calculators", "demo", "imported-uscf"])
def test_lite_copy_changes_only_the_bound_cells_and_adds_the_lite_parts(books: dict[str, Path],
                                                                        name: str) -> None:
    classic, lite = _members(books[name]), _members(books[f"{name}-lite"])
    added = set(lite) - set(classic)
    assert added == {"xl/metadata.xml", "xl/webextensions/webextension1.xml",
                     "xl/webextensions/taskpanes.xml", "xl/webextensions/_rels/taskpanes.xml.rels"}
    conf = _sheet_parts(books[name])["xlwings.conf"]
    assert set(classic) - set(lite) == {conf}  # the classic add-in's settings sheet only
    assert [m for m in lite if m in classic] == [m for m in classic if m != conf]  # in order
    changed = {part for part in classic if part in lite and classic[part] != lite[part]}
    sheets = {p for p in changed if p.startswith("xl/worksheets/sheet")}
    assert changed - sheets == {"[Content_Types].xml", "_rels/.rels", "xl/_rels/workbook.xml.rels",
                                "xl/workbook.xml", "docProps/app.xml", "xl/sharedStrings.xml"}
    assert "xl/styles.xml" in set(classic) - changed
    for part in sheets:
        old, new = list(CELL.finditer(classic[part])), list(CELL.finditer(lite[part]))
        assert len(old) == len(new)
        outside_old = CELL.sub(b"<c/>", classic[part])
        assert outside_old == CELL.sub(b"<c/>", lite[part]), part  # rows, validations, ...
        for before, after in zip(old, new):
            if before.group(0) == after.group(0):
                continue
            assert b"_xldudf_" in after.group(0)
            # same address and style, a cell-metadata pointer added; same cached value
            assert after.group(1) == before.group(1) + b' cm="1"'
            assert re.findall(rb"<v>.*?</v>", before.group(2)) == re.findall(rb"<v>.*?</v>", after.group(2))
            address = re.search(rb'r="(\w+)"', before.group(1)).group(1)
            assert re.search(rb'<f t="array" ref="' + address + rb'">', after.group(2))


@pytest.mark.parametrize("name", ["fide-swiss", "imported-uscf"])
def test_lite_layout_is_the_layout_lite_saves(books: dict[str, Path], name: str) -> None:
    parts = _members(books[f"{name}-lite"])
    # _rels/.rels: the task panes, from the package root
    rels = ET.fromstring(parts["_rels/.rels"])
    panes = [r for r in rels if r.get("Type") == REL_TASKPANES]
    assert [r.get("Target") for r in panes] == ["xl/webextensions/taskpanes.xml"]
    # the task pane points at the web extension through its own relationships
    taskpanes = ET.fromstring(parts["xl/webextensions/taskpanes.xml"])
    pane = taskpanes.find(f"{WETP}taskpane")
    assert pane is not None and pane.get("dockstate") == "right" and pane.get("width") == "350"
    ref = pane.find(f"{WETP}webextensionref")
    pane_rels = ET.fromstring(parts["xl/webextensions/_rels/taskpanes.xml.rels"])
    assert [(r.get("Id"), r.get("Type"), r.get("Target")) for r in pane_rels] == \
        [(ref.get(R_ID), REL_WEBEXTENSION, "webextension1.xml")]
    # content types of the new parts
    types = {o.get("PartName"): o.get("ContentType")
             for o in ET.fromstring(parts["[Content_Types].xml"]) if o.tag == f"{CT}Override"}
    assert types["/xl/webextensions/taskpanes.xml"] == "application/vnd.ms-office.webextensiontaskpanes+xml"
    assert types["/xl/webextensions/webextension1.xml"] == "application/vnd.ms-office.webextension+xml"
    assert types["/xl/metadata.xml"] == \
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
    # the dynamic-array cell metadata that cm="1" points at
    book_rels = ET.fromstring(parts["xl/_rels/workbook.xml.rels"])
    assert [r.get("Target") for r in book_rels if r.get("Type") == REL_METADATA] == ["metadata.xml"]
    metadata = ET.fromstring(parts["xl/metadata.xml"])
    assert [t.get("name") for t in metadata.iter() if t.tag.endswith("}metadataType")] == ["XLDAPR"]
    dynamic = [e for e in metadata.iter() if e.tag.endswith("}dynamicArrayProperties")]
    assert [(e.get("fDynamic"), e.get("fCollapsed")) for e in dynamic] == [("1", "0")]
    assert [(rc.get("t"), rc.get("v")) for rc in metadata.iter() if rc.tag.endswith("}rc")] == [("1", "0")]
    # the web extension: xlwings Lite from the store, with its properties
    extension = ET.fromstring(parts["xl/webextensions/webextension1.xml"])
    reference = extension.find(f"{WE}reference")
    assert reference.attrib == {"id": ADDIN_REFERENCE, "version": "1.0.0.0", "store": "en-US",
                                "storeType": "OMEX"}
    assert ADDIN_REFERENCE == "wa200008175"
    alternates = extension.find(f"{WE}alternateReferences")
    assert [r.attrib for r in alternates] == [{"id": "WA200008175", "version": "1.0.0.0",
                                               "store": "WA200008175", "storeType": "OMEX"}]
    properties = [p.get("name") for p in extension.iter(f"{WE}property")]
    assert properties == ["main.py", "requirements.txt", "pyodideVersion", "addinVersion", AUTO_SHOW]
    assert extension.find(f"{WE}bindings") is not None and extension.find(f"{WE}snapshot") is not None
    exts = {e.get("uri"): e for e in extension.find(f"{WE}extLst")}
    assert exts["{D87F86FE-615C-45B5-9D79-34F1136793EB}"].find(f"{WE}containsCustomFunctions") is not None
    ids = [i.text for i in exts["{7C84B067-C214-45C3-A712-C9D94CD141B2}"].iter(f"{WE}customFunctionIds")]
    used = sorted({c for f in _formulas(books[f"{name}-lite"]) for c in _calls(f)
                   if c.startswith(LITE_PREFIX)})
    assert ids == used and ids


def _raw_properties(book: Path) -> dict[str, str]:
    """Each property's value attribute as stored (XML-unescaped only), read without a parser,
    from a workbook's webextension1.xml, or from that part itself."""
    text = (book.read_bytes() if book.suffix == ".xml" else
            _members(book)["xl/webextensions/webextension1.xml"]).decode("utf-8")
    found = re.findall(r'<we:property name="([^"]*)" value="([^"]*)"/>', text)
    unescape = {"&quot;": '"', "&lt;": "<", "&gt;": ">", "&apos;": "'", "&amp;": "&"}
    return {name: re.sub(r"&(?:quot|lt|gt|apos|amp);", lambda m: unescape[m.group(0)], value)
            for name, value in found}


def test_property_encoding_round_trips_exactly(books: dict[str, Path]) -> None:
    raw = _raw_properties(books["calculators-lite"])
    for name, stored in raw.items():
        text = json.loads(stored)
        if name == AUTO_SHOW:  # Microsoft's setting: the JSON true
            assert stored == "true"
            continue
        assert isinstance(text, str)
        assert json.dumps(text, ensure_ascii=False).replace("/", "\\/") == stored, name
        assert "/" not in stored.replace("\\/", "")  # every slash escaped, as Lite writes
    assert json.loads(raw["pyodideVersion"]) == PYODIDE_VERSION
    # the code of the Excel functions, readable: the modules' sources as they are
    code = json.loads(raw["main.py"])
    elo = (ROOT / "addin" / "chessrating" / "elo.py").read_text(encoding="utf-8")
    assert elo in code and "def FIDE_CHANGE(" in code
    assert "½" in code  # text stays text (ensure_ascii=False), not \u escapes


def test_requirements_begin_with_the_lines_lite_marks_required(books: dict[str, Path]) -> None:
    requirements = json.loads(_raw_properties(books["demo-lite"])["requirements.txt"])
    saved = json.loads(_raw_properties(SAVED / "webextension1.xml")["requirements.txt"])
    required = [line for line in saved.splitlines() if line.endswith("# required")]
    assert len(required) == 4
    lines = requirements.splitlines()
    assert [_package(line) for line in lines[:4]] == [_package(line) for line in required]
    assert all(line.endswith("  # required") for line in lines[:4])
    assert lines[0] == XLWINGS_REQUIREMENT + "  # required"  # the version the tests run
    assert re.fullmatch(r"xlwings==\d+\.\d+\.\d+", XLWINGS_REQUIREMENT)
    assert lines[1:4] == required[1:4]
    # then the pairing engine of "Pair next round", networkx first and from PyPI (not
    # Pyodide's build, which brings numpy and matplotlib)
    assert lines[4:] == list(PAIRING_REQUIREMENTS) == ["networkx==3.6.1", "gacrux==1.11.65"]


def _package(line: str) -> str:
    return re.split(r"[=<>~! #]", line, maxsplit=1)[0]


def test_lite_of_a_lite_copy_is_the_same_file(books: dict[str, Path], tmp_path: Path) -> None:
    again = write_lite(books["demo-lite"], tmp_path / "again.xlsx")[0]
    assert again.read_bytes() == books["demo-lite"].read_bytes()


def test_same_workbook_same_bytes(books: dict[str, Path], tmp_path: Path) -> None:
    assert write_lite(books["demo"], tmp_path / "a.xlsx")[0].read_bytes() == \
        books["demo-lite"].read_bytes()


def _shared_formula_book(path: Path) -> Path:
    """A workbook whose B1:B3 hold one shared formula (as Excel writes a filled-down
    column) and whose D1 holds a dynamic array (so it has a metadata part already)."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Calc")
    for row, p in enumerate([0.5, 0.65, 0.9]):
        sheet.write_number(row, 0, p)
        sheet.write_formula(row, 1, f"=FIDE_DP(A{row + 1})")
    sheet.write_dynamic_array_formula("D1:D1", "=LEN(\"ab\")")
    book.close()
    parts = _members(path)
    xml = parts["xl/worksheets/sheet1.xml"]
    xml = xml.replace(b"<f>FIDE_DP(A1)</f>", b'<f t="shared" ref="B1:B3" si="0">FIDE_DP(A1)</f>')
    xml = xml.replace(b"<f>FIDE_DP(A2)</f>", b'<f t="shared" si="0"/>')
    xml = xml.replace(b"<f>FIDE_DP(A3)</f>", b'<f t="shared" si="0"/>')
    with zipfile.ZipFile(path, "w") as out:
        for name, data in parts.items():
            out.writestr(name, xml if name == "xl/worksheets/sheet1.xml" else data)
    return path


def test_shared_formulas_are_written_out_and_metadata_reused(tmp_path: Path) -> None:
    source = _shared_formula_book(tmp_path / "shared.xlsx")
    lite, used, unbound = write_lite(source, tmp_path / "shared-lite.xlsx")
    assert unbound == []
    assert used == ["FIDE_DP"]
    parts = _members(lite)
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    for row in (1, 2, 3):
        assert f'<c r="B{row}" cm="1"><f t="array" ref="B{row}">_xldudf_FIDE_DP(A{row})</f>' in sheet
    assert 'si="0"' not in sheet
    assert parts["xl/metadata.xml"] == _members(source)["xl/metadata.xml"]  # one entry, reused
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    assert rels.count("metadata.xml") == 1
    # Table 8.1.1: p 0.50 -> 0, 0.65 -> 110, 0.90 -> 366
    values = recalculate(lite, tmp_path / "shared-recalc.xlsx").values
    assert [values[("Calc", f"B{r}")] for r in (1, 2, 3)] == [0.0, 110.0, 366.0]


# ------------------------------------------------------------------------------ round trip

@pytest.mark.parametrize("name", ["demo", "imported-fide", "imported-uscf", "calculators"])
def test_lite_then_recalc_gives_the_values_of_recalc(books: dict[str, Path], name: str,
                                                      tmp_path: Path) -> None:
    classic = recalculate(books[name], tmp_path / "classic.xlsx")
    lite = recalculate(books[f"{name}-lite"], tmp_path / "lite.xlsx")
    assert lite.values == classic.values
    assert [str(e) for e in lite.errors] == [str(e) for e in classic.errors]
    assert len(classic.values) > 100
    # the formulas are kept as found: the recalculated Lite copy still binds them
    assert not [c for f in _formulas(tmp_path / "lite.xlsx") for c in _calls(f) if c.upper() in NAMES]


def test_cli_lite(books: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = shutil.copy(books["demo"], tmp_path / "club.xlsx")
    assert main(["lite", str(source)]) == 0
    out = capsys.readouterr()
    assert (tmp_path / "club-lite.xlsx").read_bytes() == books["demo-lite"].read_bytes()
    assert "FIDE_CHANGE" in out.out and "club-lite.xlsx" in out.err
    assert main(["lite", str(tmp_path / "none.xlsx")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_cli_templates_writes_the_lite_copies(books: dict[str, Path], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # the templates as built above, instead of building them again
    def built(folder: Path) -> list[Path]:
        return [Path(shutil.copy(books[Path(n).stem], folder / n)) for n in workbooks.TEMPLATES]
    monkeypatch.setattr(workbooks, "write_templates", built)
    assert main(["templates", str(tmp_path)]) == 0
    for name in workbooks.TEMPLATES:
        lite = tmp_path / "lite" / name
        assert lite.read_bytes() == write_lite(tmp_path / name, tmp_path / "again.xlsx")[0].read_bytes()


# ------------------------------------------------------------------------------ LibreOffice

def _cells_with(book: Path, needle: bytes) -> dict[str, set[tuple[int, int]]]:
    """Sheet name -> (row, column) of each cell whose XML holds ``needle``."""
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string
    from xlrecalc.patch import sheet_parts
    found: dict[str, set[tuple[int, int]]] = {}
    with zipfile.ZipFile(book) as archive:
        for sheet, part in sheet_parts(archive).items():
            for cell in CELL.finditer(archive.read(part)):
                if needle in (cell.group(2) or b""):
                    letters, row = coordinate_from_string(re.search(r'r="(\w+)"', cell.group(1).decode()).group(1))
                    found.setdefault(sheet, set()).add((row, column_index_from_string(letters)))
    return found


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_kept_values(books: dict[str, Path], tmp_path: Path) -> None:
    """LibreOffice with its default settings does not know our functions: it shows what
    a file keeps. Every classic workbook shows its values, no #NAME? and no Err:.

    A Lite copy shows the same inputs and labels, and no Err:, but not all its values:
    LibreOffice's xlsx import never takes the cached result of an array formula
    (sc/source/filter/oox/sheetdatacontext.cxx: "set cell formatting, but do not set
    result as cell value"), so it computes the cells bound to Lite itself and, not
    knowing the function, shows #NAME? there and in the formulas that read them.
    """
    names = KINDS + [f"{k}-lite" for k in KINDS]
    copies = [shutil.copy(books[n], tmp_path / f"{n}.xlsx") for n in names]
    profile = (tmp_path / "profile").as_uri()
    for target, out in (("pdf", "pdf"), (CSV_ALL_SHEETS, "csv")):
        subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(tmp_path / out), *map(str, copies)],
                       check=True, capture_output=True, timeout=900)
    for name in KINDS:
        pdf = tmp_path / "pdf" / f"{name}.pdf"
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                              text=True).stdout if shutil.which("pdftotext") else \
            pdf.read_bytes().decode("latin-1")
        assert text.strip() and "#NAME?" not in text and "Err:" not in text, name
        assert (tmp_path / "pdf" / f"{name}-lite.pdf").stat().st_size > 0
        bound = _cells_with(books[f"{name}-lite"], b"_xldudf_")
        formulas = _cells_with(books[f"{name}-lite"], b"<f")
        sheets = _sheet_names(books[name])
        lite_sheets = _sheet_names(books[f"{name}-lite"])
        assert lite_sheets == [s for s in sheets if s != "xlwings.conf"]
        compared = differing = 0
        for sheet in lite_sheets:
            classic = _rows(tmp_path / "csv" / (f"{name}.csv" if len(sheets) == 1 else f"{name}-{sheet}.csv"))
            lite = _rows(tmp_path / "csv" / (f"{name}-lite.csv" if len(lite_sheets) == 1
                                             else f"{name}-lite-{sheet}.csv"))
            if sheet == "How to use":  # Lite's own set-up (and pairing) paragraphs in place of the classic ones
                assert [r for r in lite if LITE_SETUP in r] and not [r for r in lite if CLASSIC_SETUP in r]
                assert not [r for r in lite if CLASSIC_PAIRING in r]
                classic_of = {v: k for k, v in LITE_PARAGRAPHS.items()}
                lite = [[classic_of.get(c, c) for c in r] for r in lite]
            shown = "\n".join(",".join(r) for r in classic)
            assert "#NAME?" not in shown and "Err:" not in shown, (name, sheet)
            assert "Err:" not in "\n".join(",".join(r) for r in lite), (name, sheet)
            assert len(lite) == len(classic), (name, sheet)
            for r, (old_row, new_row) in enumerate(zip(classic, lite), start=1):
                width = max(len(old_row), len(new_row))
                for c in range(1, width + 1):
                    old = old_row[c - 1] if c <= len(old_row) else ""
                    new = new_row[c - 1] if c <= len(new_row) else ""
                    if old != new:  # only a formula's value, never an input or a label
                        assert (r, c) in formulas.get(sheet, set()), (name, sheet, r, c, old, new)
                        differing += 1
                    compared += 1
        assert compared > 100, name
        assert sum(len(v) for v in bound.values()) > 0


def _sheet_names(book: Path) -> list[str]:
    from xlrecalc.patch import sheet_parts
    with zipfile.ZipFile(book) as archive:
        return list(sheet_parts(archive))


def _sheet_parts(book: Path) -> dict[str, str]:
    from xlrecalc.patch import sheet_parts
    with zipfile.ZipFile(book) as archive:
        return sheet_parts(archive)


# ------------------------------------------------------------------------------ as Lite saves it

def _shape(root: ET.Element) -> list[tuple[str, list[str]]]:
    """Each element's tag and attribute names, in document order."""
    return [(e.tag, sorted(e.attrib)) for e in root.iter()]


def test_lite_part_is_built_as_excel_saves_it_with_lite(books: dict[str, Path]) -> None:
    """Part by part against a workbook Excel saved with xlwings Lite (tests/lite/saved)."""
    saved = ET.parse(SAVED / "webextension1.xml").getroot()
    ours = ET.fromstring(_members(books["demo-lite"])["xl/webextensions/webextension1.xml"])
    # the same elements and attributes, properties and function ids apart
    def outline(root: ET.Element) -> list[tuple[str, list[str]]]:
        return [s for s in _shape(root) if s[0] not in (f"{WE}property", f"{WE}customFunctionIds")]
    assert outline(ours) == outline(saved)
    contains = [(e.tag, e.attrib) for e in ours.iter(f"{WE}containsCustomFunctions")]
    assert contains == [(e.tag, e.attrib) for e in saved.iter(f"{WE}containsCustomFunctions")]
    assert contains == [(f"{WE}containsCustomFunctions", {"val": "1"})]  # absent means false
    # the saved file's properties, ours keeping Lite's own encoding of each
    saved_names = {p.get("name") for p in saved.iter(f"{WE}property")}
    our_names = {p.get("name") for p in ours.iter(f"{WE}property")}
    assert saved_names <= our_names and our_names - saved_names == {AUTO_SHOW}
    # the task pane and its relationship as saved
    panes = ET.fromstring(_members(books["demo-lite"])["xl/webextensions/taskpanes.xml"])
    assert _shape(panes) == _shape(ET.parse(SAVED / "taskpanes.xml").getroot())
    rels = ET.fromstring(_members(books["demo-lite"])["xl/webextensions/_rels/taskpanes.xml.rels"])
    assert [(r.get("Type"), r.get("Target")) for r in rels] == \
        [(r.get("Type"), r.get("Target")) for r in ET.parse(SAVED / "taskpanes.xml.rels").getroot()]


def test_the_task_pane_opens_with_the_document_as_microsoft_documents_it(books: dict[str, Path]) -> None:
    """Microsoft, "Automatically open a task pane with a document": the web extension
    carries the property Office.AutoShowTaskpaneWithDocument = true, and its task pane
    visibility="1"."""
    parts = _members(books["calculators-lite"])
    extension = ET.fromstring(parts["xl/webextensions/webextension1.xml"])
    assert [p.get("value") for p in extension.iter(f"{WE}property") if p.get("name") == AUTO_SHOW] == ["true"]
    panes = ET.fromstring(parts["xl/webextensions/taskpanes.xml"])
    assert [p.get("visibility") for p in panes.iter(f"{WETP}taskpane")] == ["1"]


def test_each_copy_has_its_own_guid(books: dict[str, Path]) -> None:
    ids = [ET.fromstring(_members(books[f"{k}-lite"])["xl/webextensions/webextension1.xml"]).get("id")
           for k in KINDS]
    assert all(re.fullmatch(r"\{[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}\}", i)
               for i in ids)
    assert len(set(ids)) == len(ids)


def _strings(book: Path) -> list[str]:
    root = ET.fromstring(_members(book)["xl/sharedStrings.xml"])
    return ["".join(t.text or "" for t in si.iter() if t.tag.endswith("}t")) for si in root]


@pytest.mark.parametrize("name", KINDS)
def test_lite_copy_has_no_classic_sheet_or_instructions(books: dict[str, Path], name: str) -> None:
    assert "xlwings.conf" in _sheet_names(books[name])
    sheets = _sheet_names(books[f"{name}-lite"])
    assert "xlwings.conf" not in sheets
    strings = _strings(books[f"{name}-lite"])
    if "How to use" in sheets:
        assert CLASSIC_SETUP in _strings(books[name])
        assert LITE_SETUP in strings and CLASSIC_SETUP not in strings
    assert not [s for s in strings if "Import Functions" in s or "Ctrl+Alt+F9" in s]
    assert not [s for s in strings if "classic" in s and "xlwings" in s or s in ("UDF Modules",
                                                                                "chessrating.udfs")]
    # every cell still shows its words: the string numbers did not move
    assert _shown_strings(books[f"{name}-lite"]) == {
        sheet: {cell: LITE_PARAGRAPHS.get(text, text) for cell, text in words.items()}
        for sheet, words in _shown_strings(books[name]).items() if sheet != "xlwings.conf"}
    assert "Windows" in LITE_SETUP and "downloads xlwings" in LITE_SETUP
    if name == "fide-swiss":  # the pairing paragraph: the button in Lite, the macro in classic
        assert CLASSIC_PAIRING in _strings(books[name]) and LITE_PAIRING in strings
        assert "Alt+F8" not in LITE_PAIRING and "Alt+F8" in CLASSIC_PAIRING
    # the document properties list the sheets and names that remain
    props = ET.fromstring(_members(books[f"{name}-lite"])["docProps/app.xml"])
    vt = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"
    titles = [t.text for t in props.iter(f"{vt}lpstr")]
    assert not [t for t in titles if t and "xlwings.conf" in t]
    vectors = list(props.iter(f"{vt}vector"))
    assert all(int(v.get("size")) == len(list(v)) for v in vectors)
    counts = dict(zip(titles, [int(i.text) for i in props.iter(f"{vt}i4")]))
    assert counts["Worksheets"] == len(sheets)
    workbook = ET.fromstring(_members(books[f"{name}-lite"])["xl/workbook.xml"])
    local = [int(d.get("localSheetId")) for d in workbook.iter() if d.tag.endswith("}definedName")
             and d.get("localSheetId") is not None]
    assert all(0 <= i < len(sheets) for i in local)


def _shown_strings(book: Path) -> dict[str, dict[str, str]]:
    """Sheet -> cell -> the shared string it shows."""
    strings = _strings(book)
    shown: dict[str, dict[str, str]] = {}
    with zipfile.ZipFile(book) as archive:
        for sheet, part in _sheet_parts(book).items():
            root = ET.fromstring(archive.read(part))
            shown[sheet] = {c.get("r"): strings[int(c.find(f"{MAIN}v").text)]
                            for c in root.iter(f"{MAIN}c") if c.get("t") == "s"}
    return shown


def test_readme_says_lite_downloads_xlwings() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("#### xlwings Lite"):readme.index("#### No Excel")]
    assert "nothing to install from a package index" not in section
    assert "downloads xlwings" in section and "Windows" in section
