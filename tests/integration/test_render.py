"""The shipped workbooks and the demo, opened by LibreOffice headless as a viewer would.

LibreOffice does not know our functions: were it to recalculate, those cells would show
``#NAME?``. It keeps the cached values of a file written as Excel writes it, so what it
shows is what a preview, a phone or a PDF converter shows. Each workbook is converted to
PDF and to CSV (every sheet); the checks: no ``#NAME?`` and no LibreOffice ``Err:`` in
either, and every formula cell shows the value ``chessrating recalc`` computes for it.

The PDFs are also read as printed pages, on A4 and on a Letter copy: orientation, font
sizes (7 pt or more), page counts, the No. and Name columns and the header rows repeated,
no reason drawn over the next row.
"""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest


ROOT = Path(__file__).resolve().parents[2]
# the shipped workbooks; names starting with a dot are a builder's files in progress
SHIPPED = sorted(p for p in (ROOT / "workbooks").glob("*.xlsx") if not p.name.startswith("."))
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
TRF = "javafo_sample2.trf"  # of tests/data/trf, imported once per session
CSV_ALL_SHEETS = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"

pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")


def _convert(books: list[Path], target: str, out: Path, profile: Path) -> None:
    out.mkdir(exist_ok=True)
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
         "--convert-to", target, "--outdir", str(out), *map(str, books)],
        check=True, capture_output=True, timeout=600)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, demo_book, trf_import) -> dict[str, Path]:
    """Every workbook to render, copied to one folder and converted in one LibreOffice run."""
    folder = tmp_path_factory.mktemp("render")
    books = []
    for path in SHIPPED:
        books.append(Path(shutil.copy(path, folder / path.name)))
    books.append(Path(shutil.copy(demo_book, folder / "demo.xlsx")))
    # Filled workbooks too: an empty template never calls some functions.
    for system, options in (("fide", ()), ("uscf", ("--system", "uscf"))):
        code, imported = trf_import(TRF, *options)
        assert code == 0
        books.append(Path(shutil.copy(imported, folder / f"imported-{system}.xlsx")))
    profile = folder / "lo_profile"
    _convert(books, "pdf", folder / "pdf", profile)
    _convert(books, CSV_ALL_SHEETS, folder / "csv", profile)
    return {book.stem: book for book in books}


def _names() -> list[str]:
    return [p.stem for p in SHIPPED] + ["demo", "imported-fide", "imported-uscf"]


def _pdf_text(pdf: Path) -> str:
    if shutil.which("pdftotext") is None:
        return pdf.read_bytes().decode("latin-1")
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def _sheet_csv(folder: Path, stem: str, sheet: str, single: bool) -> list[list[str]]:
    path = folder / (f"{stem}.csv" if single else f"{stem}-{sheet}.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _shown(rows: list[list[str]], row: int, col: int) -> str:
    if row - 1 < len(rows) and col - 1 < len(rows[row - 1]):
        return rows[row - 1][col - 1]
    return ""


@pytest.mark.parametrize("name", _names())
def test_workbook_renders_with_values(rendered: dict[str, Path], name: str, recalculated):
    book = rendered[name]
    folder = book.parent
    pdf = _pdf_text(folder / "pdf" / f"{name}.pdf")
    assert "#NAME?" not in pdf
    assert "Err:" not in pdf
    assert pdf.strip(), "the PDF has no text"

    report = recalculated(book)
    formula_cells = {key for key in report.values}
    formats = openpyxl.load_workbook(book)  # number formats: where a text shows as "→ Check"
    sheets = formats.sheetnames
    checked = 0
    for sheet in sheets:
        rows = _sheet_csv(folder / "csv", name, sheet, single=len(sheets) == 1)
        text = "\n".join(",".join(r) for r in rows)
        assert "#NAME?" not in text, f"{name} {sheet}"
        assert "Err:" not in text, f"{name} {sheet}"
        for (where, address), value in report.values.items():
            if where != sheet:
                continue
            cell = openpyxl.utils.cell.coordinate_from_string(address)
            col = openpyxl.utils.cell.column_index_from_string(cell[0])
            shown = _shown(rows, cell[1], col)
            if isinstance(value, float) and not isinstance(value, bool):
                number = float(shown)  # a number is shown where the formula gave one
                assert math.isclose(number, value, rel_tol=1e-9, abs_tol=1e-9), \
                    f"{name} {sheet}!{address}: shows {shown}, recalc gives {value}"
            elif isinstance(value, str):
                # LibreOffice's CSV export leaves out a text's leading spaces (" (Name)");
                # only a cell formatted to show a text as "→ Check" (First rating: the
                # reason Check tells) may show that instead (LibreOffice's export does in
                # the templates, not in every book)
                told = value != "" and '"→ Check"' in (formats[sheet][address].number_format or "")
                assert shown in ((value.lstrip(" "), "→ Check") if told else (value.lstrip(" "),)), \
                    f"{name} {sheet}!{address}"
            checked += 1
    assert checked == len(formula_cells)


# --- Printing: the PDF as a director hands it out -------------------------------------
#
# Font sizes are read from the PDF's word boxes (pdftotext -bbox): a box is as tall as the
# font's ascent and descent at its size, so the height of a word set in Calibri 11 at
# 100 % (a calibration sheet rendered in the same run) gives the points per point of
# box height. The body text must print at 7 pt or more on A4 and on Letter.

MIN_POINTS = 7.0
CALIBRATION = "calibration"
A4_LANDSCAPE, LETTER_LANDSCAPE = (842, 595), (792, 612)
# The sheets printed upright: one column of text, and the lists pinned up on a wall.
PORTRAIT = {"How to use", "xlwings.conf", "Pairings", "Schedule", "Standings"}


def _calibration_book(folder: Path) -> Path:
    import xlsxwriter

    path = folder / f"{CALIBRATION}.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Calibration")
    sheet.write_string(0, 0, "Calibri eleven")  # the default font, Calibri 11
    sheet.set_paper(9)
    book.close()
    return path


def _as_letter(source: Path, target: Path) -> Path:
    """A copy of ``source`` with every sheet's paper set to Letter (paperSize 1), the
    sheet XML rewritten by an XML parser, every other zip member copied as it is."""
    import io
    import xml.etree.ElementTree as ET
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename.startswith("xl/worksheets/sheet") and info.filename.endswith(".xml"):
                # keep the prefixes as written (mc:Ignorable names them)
                for _, (prefix, uri) in ET.iterparse(io.BytesIO(data), events=("start-ns",)):
                    ET.register_namespace(prefix, uri)
                root = ET.fromstring(data)
                setup = root.find(f"{{{main}}}pageSetup")
                if setup is None:  # the schema's place: right after pageMargins
                    margins = root.find(f"{{{main}}}pageMargins")
                    assert margins is not None, info.filename
                    setup = ET.Element(f"{{{main}}}pageSetup")
                    root.insert(list(root).index(margins) + 1, setup)
                setup.set("paperSize", "1")
                data = ET.tostring(root, encoding="UTF-8", xml_declaration=True)
            new.writestr(info, data)
    return target


@dataclass
class Page:
    """One PDF page: its size, the sheet named in its footer and its word boxes."""

    width: float
    height: float
    sheet: str
    words: list[tuple[float, float, float, float, str]]


def _pages(pdf: Path) -> list[Page]:
    import xml.etree.ElementTree as ET

    xhtml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                           capture_output=True).stdout
    space = "{http://www.w3.org/1999/xhtml}"
    pages = []
    for page in ET.fromstring(xhtml).iter(f"{space}page"):
        height = float(page.get("height"))
        words = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")),
                  float(w.get("yMax")), w.text or "") for w in page.iter(f"{space}word")]
        # the footer, the page's lowest line: the sheet's name on the left, "Page N of M"
        # on the right
        marks = [w for w in words if w[4] == "Page" and w[1] > height - 40]
        if not marks:
            pages.append(Page(float(page.get("width")), height, "", words))
            continue
        mark = max(marks, key=lambda w: w[1])
        footer = [w for w in words if abs(w[1] - mark[1]) < 1 and w[2] <= mark[0]]
        names = [w[4] for w in sorted(footer, key=lambda w: w[0])]
        body = [w for w in words if abs(w[1] - mark[1]) >= 1]
        pages.append(Page(float(page.get("width")), height, " ".join(names), body))
    return pages


def _font_points(box_height: float, per_point: float) -> float:
    return box_height / per_point


@pytest.fixture(scope="module")
def printed(tmp_path_factory, rendered: dict[str, Path], built_templates) -> dict[str, Any]:
    """The PDF pages of the templates as this code builds them (the shipped ones are
    rebuilt from it), recalculated, of the demo and the imported events, of a Letter copy of each, and
    of the calibration sheet, by file stem; under ``"fonts"`` the fonts of the calibration
    sheet's PDF."""
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils (pdftotext) is not installed")
    folder = tmp_path_factory.mktemp("print")
    books = [_calibration_book(folder)]
    # A template prints as a viewer without Excel prints it: the copy `chessrating recalc`
    # writes, whose print areas are the rows entered (LibreOffice reads none from the
    # template's formula: docs in chessrating.workbooks.print_areas)
    from chessrating.recalc import recalculate

    built = {Path(name).stem: recalculate(path, folder / f"{Path(name).stem}-recalc.xlsx").output
             for name, path in built_templates.items()}
    for name, book in rendered.items():
        book = built.get(name, book)
        books.append(Path(shutil.copy(book, folder / f"{name}.xlsx")))
        books.append(_as_letter(book, folder / f"{name}-letter.xlsx"))
    _convert(books, "pdf", folder / "pdf", folder / "lo_profile")
    pages: dict[str, Any] = {book.stem: _pages(folder / "pdf" / f"{book.stem}.pdf") for book in books}
    listing = subprocess.run(["pdffonts", str(folder / "pdf" / f"{CALIBRATION}.pdf")],
                             check=True, capture_output=True, text=True).stdout
    # the font names, after the two heading lines, subset prefix (ABCDEF+) removed
    pages["fonts"] = {line.split()[0].split("+")[-1] for line in listing.splitlines()[2:] if line.strip()}
    return pages


def _needs_calibri_metrics(printed: dict[str, list[Page]]) -> None:
    """Skip a test of what fits where unless LibreOffice set the text in Calibri or in its
    metric twin Carlito (Debian: fonts-crosextra-carlito): a wider substitute (DejaVu
    Sans) widens every column by a fifth. Font sizes hold with any font (the scale is
    fixed); the page breaks do not."""
    fonts = printed["fonts"]
    if not any(name in font for font in fonts for name in ("Carlito", "Calibri")):
        pytest.skip(f"LibreOffice substituted {sorted(fonts)} for Calibri; install Carlito "
                    "(fonts-crosextra-carlito)")


def _per_point(printed: dict[str, list[Page]]) -> float:
    (page,) = printed[CALIBRATION]
    heights = {round(w[3] - w[1], 3) for w in page.words}
    assert len(heights) == 1, heights
    return heights.pop() / 11


def _sheet_pages(pages: list[Page], sheet: str) -> list[Page]:
    found = [p for p in pages if p.sheet == sheet]
    assert found, f"no page of {sheet}: {sorted({p.sheet for p in pages})}"
    return found


@pytest.mark.parametrize("paper", ["", "-letter"])
@pytest.mark.parametrize("name", _names())
def test_every_page_prints_landscape_at_7_points_or_more(printed, name: str, paper: str):
    per_point = _per_point(printed)
    pages = printed[name + paper]
    for number, page in enumerate(pages, start=1):
        if not page.words and not page.sheet:
            continue  # a blank page (LibreOffice ends the How-to sheet with one on Letter)
        size = (round(page.width), round(page.height))
        # the US Chess Report: four columns, a form
        upright = page.sheet in PORTRAIT or (page.sheet == "Report" and "uscf" in name)
        expected = A4_LANDSCAPE if not paper else LETTER_LANDSCAPE
        assert size == (expected[::-1] if upright else expected), (name, paper, number, page.sheet)
        smallest = min(w[3] - w[1] for w in page.words) if page.words else per_point * 11
        points = _font_points(smallest, per_point)
        assert points >= MIN_POINTS - 0.05, (name, paper, number, page.sheet, round(points, 2))


def _overlaps(words: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes cross by more than half a point across and half their
    height down: text drawn over other text (a wrapped reason spilling over the rows
    above and below; the boxes of two lines of one cell touch less)."""
    found = []
    ordered = sorted(words, key=lambda w: w[1])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b[1] >= a[3] - 0.5:
                break
            tall = min(a[3] - a[1], b[3] - b[1]) / 2
            # on one line: a text cut at its cell's edge (drawn clipped, reported whole)
            same_line = abs((a[1] + a[3]) - (b[1] + b[3])) / 2 < tall / 2
            if (not same_line and min(a[2], b[2]) - max(a[0], b[0]) > 0.5
                    and min(a[3], b[3]) - max(a[1], b[1]) > tall):
                found.append((a[4], b[4]))
    return found


@pytest.mark.parametrize("name", ["demo", "imported-fide", "imported-uscf"])
def test_reasons_stay_inside_their_cells(printed, name: str):
    """No text of the player rows is drawn over other text (the rows below the header
    row whose first word is No.)."""
    _needs_calibri_metrics(printed)
    for page in _sheet_pages(printed[name], "Crosstable"):
        header = max(w[3] for w in page.words if w[4] == "No.")
        rows = [w for w in page.words if w[1] > header]
        assert not _overlaps(rows), (name, page.sheet, _overlaps(rows)[:5])


def _row_lines(page: Page) -> list[float]:
    """The lines between the player rows of a crosstable page: halfway between the
    centres of the player numbers in the No. column, and as far below the last one (the
    line above the first is the header's)."""
    header = next(w for w in page.words if w[4] == "No.")
    centres = sorted((w[1] + w[3]) / 2 for w in page.words
                     if w[4].isdigit() and w[1] > header[3] and w[0] < header[2] and w[2] > header[0])
    if len(centres) < 2:  # a last page with one player: no line to cross
        return []
    lines = [(a + b) / 2 for a, b in zip(centres, centres[1:])]
    pitch = min(b - a for a, b in zip(centres, centres[1:]))
    return [*lines, centres[-1] + pitch / 2]


@pytest.mark.parametrize("name", ["demo", "imported-fide", "imported-uscf"])
def test_no_text_crosses_the_line_between_two_player_rows(printed, name: str):
    """A reason wrapped in Norm or Check stays within its row on paper: no word of the
    page is cut by the line between two player rows."""
    _needs_calibri_metrics(printed)
    for paper in ("", "-letter"):
        for page in _sheet_pages(printed[name + paper], "Crosstable"):
            lines = _row_lines(page)
            crossing = [(w[4], round(line, 1)) for w in page.words for line in lines
                        if w[1] < line - 0.5 and w[3] > line + 0.5]
            assert not crossing, (name, paper, crossing[:5])


def test_ten_player_round_robin_prints_one_page_wide_on_a4(printed):
    _needs_calibri_metrics(printed)
    pages = _sheet_pages(printed["demo"], "Crosstable")
    assert len(pages) == 1
    words = {w[4] for w in pages[0].words}
    # the first and the last columns, and the last player
    assert {"No.", "Name", "Check", "Giri,"} <= words


def test_letter_keeps_the_scale_and_repeats_the_names(printed):
    """On Letter the round robin keeps its A4 scale: what passes the page width goes on a
    page of its own, with the No. and Name columns and the header row again."""
    _needs_calibri_metrics(printed)
    pages = _sheet_pages(printed["demo-letter"], "Crosstable")
    assert 1 <= len(pages) <= 2
    for page in pages:
        words = {w[4] for w in page.words}
        assert {"No.", "Name", "Giri,"} <= words
    assert "Check" in {w[4] for page in pages for w in page.words}


@pytest.mark.parametrize("name", ["imported-fide", "imported-uscf"])
def test_large_event_repeats_names_and_headers_on_every_page(printed, name: str):
    _needs_calibri_metrics(printed)
    pages = _sheet_pages(printed[name], "Crosstable")
    assert len(pages) > 1
    for page in pages:
        words = {w[4] for w in page.words}
        assert {"No.", "Name"} <= words, (name, pages.index(page) + 1)
        # the No. column: player 1 on the first pages down, the last player on the last
    players = {w[4] for page in pages for w in page.words}
    assert "Check" in players


# The lists a director pins up, and their pages: the Swiss's Pairings of javafo_sample2
# (52 players: 52 lines, the most a round can need) and the demo's Schedule (10 players,
# 9 rounds of 7 lines: 63 lines); an A4 page upright holds 46 lines under the headings at
# 100 % (the Pairings), 63 at the Schedule's 74 %.
LISTS = [("imported-fide", "Pairings", "Round", 2), ("demo", "Schedule", "players,", 1)]


@pytest.mark.parametrize(("name", "sheet", "heading", "count"), LISTS)
def test_lists_print_upright_with_their_headings_on_every_page(printed, rendered, name: str, sheet: str,
                                                               heading: str, count: int):
    """Every page repeats the heading and the column headers; the boards print in order,
    each once, on as many pages as the print area's lines need."""
    _needs_calibri_metrics(printed)
    pages = _sheet_pages(printed[name], sheet)
    assert len(pages) == count
    values = openpyxl.load_workbook(rendered[name], data_only=True)[sheet]
    boards = [values.cell(r, 1).value for r in range(5, values.max_row + 1)
              if isinstance(values.cell(r, 1).value, (int, float))]
    assert boards and boards[0] == 1
    printed_boards = []
    for number, page in enumerate(pages, start=1):
        words = {w[4] for w in page.words}
        assert {"Bo.", "No.", "White", "Result", "Black", heading} <= words, (name, number)
        column = next(w for w in page.words if w[4] == "Bo.")
        below = sorted((w for w in page.words if w[1] > column[3] and w[4].isdigit()
                        and w[0] >= column[0] - 2 and w[2] <= column[2] + 2), key=lambda w: w[1])
        printed_boards += [int(w[4]) for w in below]
    assert printed_boards == boards
