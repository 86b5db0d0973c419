"""Print areas given as a formula that follows the entries, and the fixed ranges
``chessrating recalc`` writes for them.

The templates' Crosstable, Games, Pairings, Report, Schedule and Standings sheets carry
their print area as ``OFFSET(Sheet!$A$1,0,0,MAX(top,SUMPRODUCT(MAX((marks<>"")*ROW(marks)))),width)``
(:mod:`chessrating.workbooks.print_areas` says why); where the columns printed follow the
entries too, ``width`` is ``MAX(least,SUMPRODUCT(MAX((across<>"")*COLUMN(across))))``, the
last column of the row ``across`` not blank, never fewer than ``least`` columns.
LibreOffice reads no print area from a formula and prints every row a sheet uses, so the
copy ``recalc`` writes holds, for each print area of that shape, the fixed range it gives
over the recalculated cells; any other print area (a fixed range, a formula of another
shape) is left as it is.

>>> print_area_formula("Crosstable", 60, 4, "Crosstable!$B$5:$B$204")
'OFFSET(Crosstable!$A$1,0,0,MAX(4,SUMPRODUCT(MAX((Crosstable!$B$5:$B$204<>"")*ROW(Crosstable!$B$5:$B$204)))),61)'
>>> parse_print_area(print_area_formula("Games", 9, 4, "Crosstable!$B$5:$B$204"))
EntryArea(sheet='Games', top=4, marks_sheet='Crosstable', first=4, col=1, last=203, width=10, across=None)
>>> cells = {("Crosstable", 5, 2): "Carlsen", ("Crosstable", 7, 2): "Caruana"}
>>> fixed_area(print_area_formula("Games", 9, 4, "Crosstable!$B$5:$B$204"),
...            lambda s, r, c: cells.get((s, r, c)))
'Games!$A$1:$J$7'
>>> report = print_area_formula("Report", 4, 15, "Report!$B$16:$B$35", across="Report!$B$13:$T$13")
>>> report[report.rindex("MAX(5"):]
'MAX(5,SUMPRODUCT(MAX((Report!$B$13:$T$13<>"")*COLUMN(Report!$B$13:$T$13)))))'
>>> parse_print_area(report).across
('Report', 12, 1, 19)
>>> cells = {("Report", 16, 2): "Carlsen", ("Report", 13, 2): 1, ("Report", 13, 10): 9, ("Report", 13, 11): ""}
>>> fixed_area(report, lambda s, r, c: cells.get((s, r, c)))
'Report!$A$1:$J$16'
>>> xml = (b'<workbook><sheets><sheet name="Games"/><sheet name="Report"/></sheets><definedNames>'
...        b'<definedName name="_xlnm.Print_Area" localSheetId="0">Games!$A$1:$J$204</definedName>'
...        b'</definedNames></workbook>')
>>> fix_print_areas(xml, {"Games": "Games!$A$1:$J$7", "Report": "Report!$A$1:$C$9"})[84:]
b'<definedName name="_xlnm.Print_Area" localSheetId="0">Games!$A$1:$J$7</definedName><definedName name="_xlnm.Print_Area" localSheetId="1">Report!$A$1:$C$9</definedName></definedNames></workbook>'
>>> fix_print_areas(xml, {"Games": "Games!$A$1:$J$204"}) == xml
True
>>> prefixed = xml.replace(b"<", b"<x:").replace(b"<x:/", b"</x:")   # a workbook prefixing its namespace
>>> fix_print_areas(prefixed, {"Report": "Report!$A$1:$C$9"}).endswith(
...     b'</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="1">Report!$A$1:$C$9'
...     b'</x:definedName></x:definedNames></x:workbook>')
True
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from xml.parsers.expat import ExpatError, ParserCreate

from xlrecalc import column_letters, column_number, escape, every_element

__all__ = ["ENTERED", "EntryArea", "print_area_formula", "parse_print_area", "fixed_area",
           "formula_print_areas", "fix_print_areas"]

_NAME = "_xlnm.Print_Area"
# The workbook names that keep the formulas (chessrating.workbooks.print_areas).
ENTERED = "PrintEntered"
_WORKBOOK = "xl/workbook.xml"


def print_area_formula(sheet: str, last_col: int, top: int, marks: str, across: str | None = None) -> str:
    """The print area of ``sheet``, columns A..``last_col`` (zero-based), from row 1 down
    to the last row of ``marks`` (``Sheet!$B$5:$B$204``) not blank, at least ``top`` rows;
    given ``across`` (cells of one row, ``Sheet!$B$13:$T$13``), out to its last column not
    blank, at least to ``last_col``."""
    hits = f'({marks}<>"")*ROW({marks})'
    width = str(last_col + 1)
    if across is not None:
        width = f'MAX({width},SUMPRODUCT(MAX(({across}<>"")*COLUMN({across}))))'
    return f"OFFSET({sheet}!$A$1,0,0,MAX({top},SUMPRODUCT(MAX({hits}))),{width})"


class EntryArea(NamedTuple):
    """A print area of :func:`print_area_formula`'s shape, rows and columns zero-based:
    the rows printed run to the last of rows ``first``..``last`` of column ``col`` of
    ``marks_sheet`` not blank; the columns to ``width`` or, given ``across`` (sheet, row,
    first and last column), to its last cell not blank."""

    sheet: str
    top: int
    marks_sheet: str
    first: int
    col: int
    last: int
    width: int
    across: tuple[str, int, int, int] | None


_RANGE = r"(?P<{0}>\w+)!\$(?P<{0}1>[A-Z]+)\$(?P<{0}r1>\d+):\$(?P<{0}2>[A-Z]+)\$(?P<{0}r2>\d+)"
_FORMULA = re.compile(
    r"OFFSET\((?P<sheet>\w+)!\$A\$1,0,0,MAX\((?P<top>\d+),SUMPRODUCT\(MAX\(\(" + _RANGE.format("m")
    + r"<>\"\"\)\*ROW\((?P<again>[^)]*)\)\)\)\),(?:(?P<width>\d+)|MAX\((?P<least>\d+),SUMPRODUCT\(MAX\(\("
    + _RANGE.format("a") + r"<>\"\"\)\*COLUMN\((?P<again2>[^)]*)\)\)\)\))\)$")


def parse_print_area(text: str) -> EntryArea | None:
    """The parts of a print area of :func:`print_area_formula`'s shape (the marks a single
    column, ``across`` a single row), else ``None``."""
    text = text.strip().lstrip("=")
    found = _FORMULA.match(text)
    if found is None:
        return None
    marks = text[found.start("m"):found.end("mr2")]
    if found["again"] != marks or found["m1"] != found["m2"]:
        return None
    across = None
    if found["width"] is None:
        if found["again2"] != text[found.start("a"):found.end("ar2")] or found["ar1"] != found["ar2"]:
            return None
        across = (found["a"], int(found["ar1"]) - 1, column_number(found["a1"]) - 1, column_number(found["a2"]) - 1)
    return EntryArea(found["sheet"], int(found["top"]), found["m"], int(found["mr1"]) - 1, column_number(found["m1"]) - 1,
                     int(found["mr2"]) - 1, int(found["width"] or found["least"]), across)


def fixed_area(text: str, value: Callable[[str, int, int], Any]) -> str | None:
    """The fixed range (``Sheet!$A$1:$J$7``) a print area of :func:`print_area_formula`'s
    shape gives, ``value(sheet, row, col)`` reading the (recalculated) cells, rows and
    columns counted from 1 as :meth:`xlrecalc.Book.value` counts them; ``None`` for
    another text."""
    area = parse_print_area(text)
    if area is None:
        return None
    filled = [row + 1 for row in range(area.first, area.last + 1)
              if value(area.marks_sheet, row + 1, area.col + 1) not in (None, "")]
    width = area.width
    if area.across is not None:
        sheet, row, first, last = area.across
        width = max([width, *(col + 1 for col in range(first, last + 1) if value(sheet, row + 1, col + 1) not in (None, ""))])
    return f"{area.sheet}!$A$1:${column_letters(width)}${max([area.top, *filled])}"


def formula_print_areas(path: Path) -> dict[str, str]:
    """The print area formulas the workbook keeps under ``PrintEntered…`` names, by the
    sheet they print (a name whose text is of another shape is passed over).

    One streaming pass over ``xl/workbook.xml`` that keeps the text of those names alone:
    a workbook may hold a million other names, and this runs before the engine loads it."""
    try:
        with zipfile.ZipFile(path) as archive:
            xml = archive.read(_WORKBOOK)
        texts = _entered_names(xml)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, ExpatError):
        return {}  # not a workbook this can read: the engine says what is wrong with it
    found = {}
    for text in texts:
        parsed = parse_print_area(text)
        if parsed is not None:
            found[parsed.sheet] = text.strip().lstrip("=")
    return found


def _entered_names(xml: bytes) -> list[str]:
    """The texts of the ``definedName`` elements whose name starts with :data:`ENTERED`.

    >>> _entered_names(b'<w xmlns="urn:x"><definedNames><definedName name="A">1</definedName>'
    ...                b'<definedName name="PrintEnteredGames">G&amp;H</definedName></definedNames></w>')
    ['G&H']
    """
    parser = ParserCreate(namespace_separator=" ")
    found: list[str] = []
    text: list[str] | None = None

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal text
        if tag.rpartition(" ")[2] == "definedName" and attrs.get("name", "").startswith(ENTERED):
            text = []

    def end(tag: str) -> None:
        nonlocal text
        if text is not None and tag.rpartition(" ")[2] == "definedName":
            found.append("".join(text))
            text = None

    def data(chunk: str) -> None:
        if text is not None:
            text.append(chunk)

    def no_doctype(*_: object) -> None:  # entities could expand: the engine refuses such a file
        raise ValueError("a document type declaration")

    parser.StartDoctypeDeclHandler = no_doctype
    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = data
    parser.Parse(xml, True)
    return found


def fix_print_areas(xml: bytes, fixed: dict[str, str]) -> bytes:
    """``xl/workbook.xml`` with the print area of each sheet named in ``fixed`` (sheet ->
    range) set to that range, in place of any it had (:func:`chessrating.recalc.recalculate`
    hands it to the engine, which writes it with the values, in one pass): an
    existing ``_xlnm.Print_Area`` keeps its place and tags, its text replaced where it
    differs; a sheet without one gets one at the end of ``definedNames`` (added after
    ``sheets`` if the file has none)."""
    elements = every_element(xml, text={"definedName"})
    sheets = [e.attrs.get("name") for e in elements if e.name == "sheet"]
    index = {name: str(i) for i, name in enumerate(sheets)}
    wanted = {index[sheet]: area for sheet, area in fixed.items() if sheet in index}
    out, at = [], 0
    names = None
    for element in elements:
        if element.name == "definedNames":
            names = element
        elif (element.name == "definedName" and element.attrs.get("name") == _NAME
              and element.attrs.get("localSheetId") in wanted):
            area = wanted.pop(element.attrs["localSheetId"])
            if element.text.replace("'", "") != area.replace("'", ""):
                out += [xml[at:element.tag_end], escape(area).encode("utf-8")]
                at = element.content_end
    if not wanted:
        return b"".join(out) + xml[at:]
    anchor = names if names is not None else next(e for e in elements if e.name == "sheets")
    prefix = anchor.prefix(xml).decode()  # the workbook's own prefix for its main namespace
    added = "".join(f'<{prefix}definedName name="{_NAME}" localSheetId="{i}">{escape(area)}</{prefix}definedName>'
                    for i, area in sorted(wanted.items(), key=lambda item: int(item[0]))).encode("utf-8")
    if names is not None and not names.empty:
        out += [xml[at:names.content_end], added]
        at = names.content_end
    else:
        out += [xml[at:anchor.end] if names is None else xml[at:anchor.start],
                f"<{prefix}definedNames>".encode() + added + f"</{prefix}definedNames>".encode()]
        at = anchor.end
    return b"".join(out) + xml[at:]
