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


def test_a_cells_first_formula_and_value_are_leaves_with_their_own_text() -> None:
    """The reader's scan keeps a cell's first <f> and <v> as leaves: their own character
    data (a comment, a CDATA section and a child element inside are no part of it), the
    empty <v/> with its two ends at its "/>", and a second <v> an element as before."""
    from xlrecalc.reader import _SHEET_LEVELS, _SHEET_TEXTS, SHEET_LEAVES
    from xlrecalc.xmlspans import scan

    xml = (_SHEET + b'<row r="1"><c r="A1"><f>A<!-- x -->1<y xmlns="urn:y">no</y>+<![CDATA[<2]]></f>'
           b'<v/><v>3</v></c></row></sheetData></worksheet>')
    document = scan(xml, _SHEET_LEVELS, text=_SHEET_TEXTS, leaves=SHEET_LEAVES)
    cell = document.children[0].children[0].children[0].children[0]
    formula, value = cell.leaves["f"], cell.leaves["v"]
    assert formula.text == "A1+<2"
    assert xml[formula.end:value.start] == b"" and xml[value.start:value.end] == b"<v/>"
    assert value.content_end == value.end and value.text == ""
    assert [(e.name, e.text) for e in cell.children] == [("v", "3")]
    # the writer sets the first <v> (the empty one), and leaves the second where it is
    out = patch_sheet(xml, {(1, 1): ("n", "7")}, document)
    assert out == xml.replace(b"<v/><v>3</v>", b"<v>7</v><v>3</v>")
    assert out == patch_sheet(xml, {(1, 1): ("n", "7")})


def test_a_cell_written_as_it_stands_is_left_byte_for_byte() -> None:
    """The same t= (last, after one space) and the same <v>: no edit; the same value
    with t= spelled otherwise is written as the writer spells it."""
    xml = (_SHEET + b'<row r="1"><c r="A1" s="2" t="str"><f>"a"</f><v>a</v></c>'
           b"<c r='B1' t='str' s='2'><f>\"a\"</f><v>a</v></c><c r=\"C1\"><f>1</f><v>1</v></c>"
           b"</row></sheetData></worksheet>")
    same = patch_sheet(xml, {(1, 1): ("str", "a"), (1, 3): ("n", "1")})
    assert same == xml
    respelled = patch_sheet(xml, {(1, 2): ("str", "a")})
    assert respelled == xml.replace(b"<c r='B1' t='str' s='2'>", b"<c r='B1' s='2' t=\"str\">")
