"""The headless evaluator against the values Excel cached in other people's workbooks.

Every workbook under ``tests/data/conformance/`` is recalculated from its formulas and
inputs, and every formula cell is compared with the value saved in the file (numbers to
1e-9 relative, text exactly, errors by code; see :mod:`xlrecalc.conformance`).
A cell may differ only when it is listed below with the reason; a listed cell that agrees
again must leave the list, so the list stays the truth.

The corpus and its origin: ``tests/data/conformance/README.md``. Agreement per workbook:
``python benchmarks/conformance.py`` (recorded in ``benchmarks/README.md``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xlrecalc.conformance import Agreement, compare_with_excel

CORPUS = Path(__file__).parents[1] / "data" / "conformance"
BOOKS = sorted(p for p in CORPUS.glob("*/*.xls[xm]"))

# Where we differ from the cached value, and why. A key is a cell ("Sheet!A1"), a sheet
# ("Sheet!*") or a function ("VDB()": any differing cell whose formula calls it).
EXCEPTIONS: dict[str, dict[str, str]] = {
    "xlcalculator/SQRT.xlsx": {
        "Sheet1!B1": "saved by LibreOffice, which caches #VALUE! for SQRT(-16); Excel "
                     "documents #NUM! (support.microsoft.com, SQRT function)",
    },
    "poi/61495-test.xlsm": {
        "TEST!*": "saved by an Excel whose locale swaps the separators (TEXT(67.1,\"00.00\") "
                  "is '0.067', TEXT(68.2,\"00,00\") is '68,20'); the engine formats as en-US",
    },
    "sheetjs/formula_stress_test.xlsx": {
        "NOW()": "volatile: the time of the last save", "TODAY()": "volatile",
        "RAND()": "volatile", "RANDBETWEEN()": "volatile",
        "Lookup!B15": "the looked-up range holds the formula's own cell; Excel reads only "
                      "the cells the lookup needs and sees no cycle, the engine sees one",
        "Lookup!B21": "reads Lookup!B15",
        "Math!C48": "ROMAN's concise forms (form 1-4) are not written",
        "Text!B20": "saved by Excel for Mac: CHAR(240) is the Mac Roman character U+F8FF",
        "Text!B21": "saved by Excel for Mac: CODE of that character in Mac Roman",
        "Text!C38": "the cached text keeps the control character escaped (_x0007_) as "
                    "openpyxl reads it; the value is CHAR(7)",
        "PHONETIC()": "PHONETIC reads furigana the cell does not hold here; Excel gives #N/A",
        "JIS()": "not a function in Excel for Mac 2011 (#NAME?)",
    },
    "sheetjs/metadata_2019.xlsx": {
        "Sheet1!C13": "a dynamic array blocked by the text below it: Excel caches #SPILL! "
                      "as #VALUE! with value metadata; the engine fills the one-cell ref",
    },
    # the rows of fraction codes (# ?/?) with letters among their places, zero and whole
    # numbers in them, as POI's sheet calls them "Fractions" and "Improper Fractions"
    "poi/NumberFormatTests.xlsx": {
        f"Tests!A{row}": "fraction codes with letters among the places (|#\\:#=/=#|), not "
                         "in the engine's format codes"
        for row in [*range(120, 164), *range(165, 197), *range(198, 333)]
    },
    "poi/FormulaEvalTestData_Copy.xlsx": {
        "EverythingTests!D180": "the exact sum is 0; Excel's running sum leaves -4.1e-9",
        "EverythingTests!G716": "approximate HLOOKUP on an unsorted row: Excel's bisection "
                                "lands elsewhere",
        "EverythingTests!E872": "approximate LOOKUP on an unsorted row: Excel's bisection "
                                "lands elsewhere",
        "MODE()": "MODE answers #VALUE! for text typed as an argument or in a single-cell "
                  "reference; the engine skips it",
        "EverythingTests!H1216": "SEARCH with a wildcard pattern held in a cell",
        "SUMPRODUCT()": "SUMPRODUCT of a range holding an error",
        "SUMX2MY2()": "an error inside the arrays is the answer",
        "SUMX2PY2()": "an error inside the arrays is the answer",
        "SUMXMY2()": "an error inside the arrays is the answer",
        "T()": "T of a range takes the cell in the formula's row or column (implicit "
               "intersection)",
    },
}


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _functions(formula: str) -> set[str]:
    return {name.upper().removeprefix("_XLFN.") for name in
            re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", formula)}


def _excused(cell: str, formula: str, listed: dict[str, str]) -> str | None:
    """The exception key that covers a differing cell, if any."""
    sheet = cell.split("!")[0]
    if cell in listed:
        return cell
    if f"{sheet}!*" in listed:
        return f"{sheet}!*"
    for name in sorted(_functions(formula)):
        if f"{name}()" in listed:
            return f"{name}()"
    return None


_RESULTS: dict[Path, Agreement] = {}


def _agreement(path: Path) -> Agreement:
    if path not in _RESULTS:
        _RESULTS[path] = compare_with_excel(path)
    return _RESULTS[path]


def test_the_corpus_is_there() -> None:
    assert len(BOOKS) >= 60
    for folder in {p.parent for p in BOOKS}:
        assert (folder / "LICENSE").is_file(), f"{folder} has no licence beside it"
    assert set(EXCEPTIONS) <= {_name(p) for p in BOOKS}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("path", BOOKS, ids=_name)
def test_every_formula_cell_agrees_with_excel(path: Path) -> None:
    result = _agreement(path)
    assert result.failure is None, f"{_name(path)} could not be recalculated: {result.failure}"
    listed = EXCEPTIONS.get(_name(path), {})
    unexplained = [str(m) for m in result.mismatches if _excused(m.cell, m.formula, listed) is None]
    assert not unexplained, "\n".join(unexplained[:20])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_every_listed_exception_is_still_needed(name: str) -> None:
    result = _agreement(CORPUS / name)
    listed = EXCEPTIONS[name]
    used = {_excused(m.cell, m.formula, listed) for m in result.mismatches}
    # a random draw may meet Excel's by chance (RANDBETWEEN(1,9)): its entry stays
    used |= {key for key in listed if key in ("RAND()", "RANDBETWEEN()")}
    assert not set(listed) - used, f"{name}: these now agree, take them off the list"
