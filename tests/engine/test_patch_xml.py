"""The values are written into the sheet XML at places an XML parser found (expat's
byte offsets): comments, CDATA, either quote style, any attribute order, ``/>`` inside
an attribute value, and rows or cells out of order are read as XML defines them
(issue 23's hostile cases, built by tests/hostile/xml_cells.py)."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from xml_cells import CASES  # noqa: E402

from xlrecalc import recalculate  # noqa: E402
from xlrecalc.patch import patch_sheet  # noqa: E402

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _cells(xml: bytes) -> dict[str, list[ET.Element]]:
    """Every cell of the sheet by its address (a list, to see duplicates)."""
    found: dict[str, list[ET.Element]] = {}
    for cell in ET.fromstring(xml).iter(MAIN + "c"):
        found.setdefault(cell.get("r", ""), []).append(cell)
    return found


@pytest.mark.parametrize("build, expected, kept", CASES, ids=[c[0].__name__ for c in CASES])
def test_hostile_sheet_markup_is_read_as_xml(build, expected, kept, tmp_path: Path) -> None:
    source = build(tmp_path)
    report = recalculate(source, tmp_path / "out.xlsx")
    assert not report.errors
    with zipfile.ZipFile(source) as archive:
        before = archive.read("xl/worksheets/sheet1.xml")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as archive:
        after = archive.read("xl/worksheets/sheet1.xml")
    cells = _cells(after)  # well-formed, or ElementTree raises
    for address, text in expected.items():
        assert len(cells[address]) == 1, f"{address} written {len(cells[address])} times"
        cell = cells[address][0]
        assert cell.findtext(MAIN + "v") == text and cell.get("t") is None
    rows = [row.get("r") for row in ET.fromstring(after).iter(MAIN + "row")]
    assert len(rows) == len(set(rows)), rows
    assert kept in before and kept in after


def test_the_cdata_formula_and_the_comment_are_the_only_bytes_that_stay_around_b1(tmp_path: Path) -> None:
    from xml_cells import make_comment
    source = make_comment(tmp_path)
    recalculate(source, tmp_path / "out.xlsx")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as archive:
        after = archive.read("xl/worksheets/sheet1.xml")
    comment = after[after.index(b"<!--"):after.index(b"-->") + 3]
    assert b"<v>0</v>" in comment and b"<v>6</v>" in after[after.index(b"-->"):]


_SHEET = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'


@st.composite
def shuffled_sheets(draw):
    """A sheet whose rows and cells come in any order, quoted either way, attributes in
    any order, some cells empty-element tags; and the cells to set."""
    rows = draw(st.lists(st.integers(1, 6), min_size=1, max_size=5, unique=True))
    parts = []
    present = []
    for row in draw(st.permutations(rows)):
        cols = draw(st.lists(st.integers(1, 5), min_size=0, max_size=4, unique=True))
        quote = draw(st.sampled_from(['"', "'"]))
        cells = []
        for col in draw(st.permutations(cols)):
            address = f"{'ABCDE'[col - 1]}{row}"
            present.append((row, col))
            attrs = [f"r={quote}{address}{quote}", f"s={quote}1{quote}"]
            if draw(st.booleans()):
                attrs.append(f"t={quote}str{quote}")
            attrs = draw(st.permutations(attrs))
            if draw(st.booleans()):
                cells.append(f"<c {' '.join(attrs)}/>")
            else:
                cells.append(f"<c {' '.join(attrs)}><f>1+1</f><v>old</v></c>")
        parts.append(f"<row r={quote}{row}{quote}>{''.join(cells)}</row>")
    xml = _SHEET + "".join(parts).encode() + b"</sheetData></worksheet>"
    targets = draw(st.lists(st.tuples(st.integers(1, 7), st.integers(1, 6)), max_size=8, unique=True))
    return xml, {t: ("n", str(i)) for i, t in enumerate(targets)}, present


@given(shuffled_sheets())
def test_every_cell_is_set_once_wherever_the_sheet_lists_it(case) -> None:
    xml, updates, present = case
    out = patch_sheet(xml, updates)
    cells = _cells(out)
    for (row, col), (_, text) in updates.items():
        address = f"{'ABCDEF'[col - 1]}{row}"
        assert len(cells[address]) == 1
        assert cells[address][0].findtext(MAIN + "v") == text
        assert cells[address][0].get("t") is None and (
            (row, col) not in present or cells[address][0].get("s") == "1")
    for row, col in present:  # nothing else lost
        assert len(cells[f"{'ABCDE'[col - 1]}{row}"]) == 1
    rows = [r.get("r") for r in ET.fromstring(out).iter(MAIN + "row")]
    assert len(rows) == len(set(rows))
