"""The shipped workbooks and the demo, opened by LibreOffice headless as a viewer would.

LibreOffice does not know our functions: were it to recalculate, those cells would show
``#NAME?``. It keeps the cached values of a file written as Excel writes it, so what it
shows is what a preview, a phone or a PDF converter shows. Each workbook is converted to
PDF and to CSV (every sheet); the checks: no ``#NAME?`` and no LibreOffice ``Err:`` in
either, and every formula cell shows the value ``chessrating recalc`` computes for it.
"""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest


ROOT = Path(__file__).resolve().parent.parent
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
    sheets = openpyxl.load_workbook(book, read_only=True).sheetnames
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
                assert shown == value, f"{name} {sheet}!{address}"
            checked += 1
    assert checked == len(formula_cells)
