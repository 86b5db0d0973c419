"""Print areas given as a formula that follows the entries, and the fixed ranges
``chessrating recalc`` writes for them.

The templates' Crosstable, Games, Pairings, Schedule and Standings sheets carry their
print area as ``OFFSET(Sheet!$A$1,0,0,MAX(top,SUMPRODUCT(MAX((marks<>"")*ROW(marks)))),width)``
(:mod:`chessrating.workbooks.print_areas` says why). LibreOffice reads no print area from
a formula and prints every row a sheet uses, so the copy ``recalc`` writes holds, for each
print area of that shape, the fixed range it gives over the recalculated cells; any other
print area (a fixed range, a formula of another shape) is left as it is.

>>> print_area_formula("Crosstable", 60, 4, "Crosstable!$B$5:$B$204")
'OFFSET(Crosstable!$A$1,0,0,MAX(4,SUMPRODUCT(MAX((Crosstable!$B$5:$B$204<>"")*ROW(Crosstable!$B$5:$B$204)))),61)'
>>> parse_print_area(print_area_formula("Games", 9, 4, "Crosstable!$B$5:$B$204"))
('Games', 4, 'Crosstable', 4, 1, 203, 10)
>>> cells = {("Crosstable", 5, 2): "Carlsen", ("Crosstable", 7, 2): "Caruana"}
>>> fixed_area(print_area_formula("Games", 9, 4, "Crosstable!$B$5:$B$204"),
...            lambda s, r, c: cells.get((s, r, c)))
'Games!$A$1:$J$7'
>>> xml = (b'<workbook><sheets><sheet name="Games"/><sheet name="Report"/></sheets><definedNames>'
...        b'<definedName name="_xlnm.Print_Area" localSheetId="0">Games!$A$1:$J$204</definedName>'
...        b'</definedNames></workbook>')
>>> fix_print_areas(xml, {"Games": "Games!$A$1:$J$7", "Report": "Report!$A$1:$C$9"})[84:]
b'<definedName name="_xlnm.Print_Area" localSheetId="0">Games!$A$1:$J$7</definedName><definedName name="_xlnm.Print_Area" localSheetId="1">Report!$A$1:$C$9</definedName></definedNames></workbook>'
>>> fix_print_areas(xml, {"Games": "Games!$A$1:$J$204"}) == xml
True
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.parsers.expat import ExpatError

from xlrecalc import column_letters, every_element

__all__ = ["ENTERED", "print_area_formula", "parse_print_area", "fixed_area", "formula_print_areas", "fix_print_areas"]

_NAME = "_xlnm.Print_Area"
# The workbook names that keep the formulas (chessrating.workbooks.print_areas).
ENTERED = "PrintEntered"
_WORKBOOK = "xl/workbook.xml"


def print_area_formula(sheet: str, last_col: int, top: int, marks: str) -> str:
    """The print area of ``sheet``, columns A..``last_col`` (zero-based), from row 1 down
    to the last row of ``marks`` (``Sheet!$B$5:$B$204``) not blank, at least ``top`` rows."""
    hits = f'({marks}<>"")*ROW({marks})'
    return f"OFFSET({sheet}!$A$1,0,0,MAX({top},SUMPRODUCT(MAX({hits}))),{last_col + 1})"


_FORMULA = re.compile(
    r"OFFSET\((?P<sheet>\w+)!\$A\$1,0,0,MAX\((?P<top>\d+),SUMPRODUCT\(MAX\(\((?P<marks>\w+)!"
    r"\$(?P<c1>[A-Z]+)\$(?P<r1>\d+):\$(?P=c1)\$(?P<r2>\d+)<>\"\"\)\*ROW\((?P=marks)!\$(?P=c1)\$(?P=r1):"
    r"\$(?P=c1)\$(?P=r2)\)\)\)\),(?P<width>\d+)\)$")


def parse_print_area(text: str) -> tuple[str, int, str, int, int, int, int] | None:
    """``(sheet, top, marks sheet, first row, column, last row, width)`` (rows and column
    zero-based) of a print area of :func:`print_area_formula`'s shape, else ``None``."""
    found = _FORMULA.match(text.strip().lstrip("="))
    if found is None:
        return None
    return (found["sheet"], int(found["top"]), found["marks"], int(found["r1"]) - 1,
            _column(found["c1"]), int(found["r2"]) - 1, int(found["width"]))


def _column(letters: str) -> int:
    """``A`` is 0, ``AA`` 26."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


def fixed_area(text: str, value: Callable[[str, int, int], Any]) -> str | None:
    """The fixed range (``Sheet!$A$1:$J$7``) a print area of :func:`print_area_formula`'s
    shape gives, ``value(sheet, row, col)`` reading the (recalculated) cells, rows and
    columns counted from 1 as :meth:`xlrecalc.Book.value` counts them; ``None`` for
    another text."""
    parsed = parse_print_area(text)
    if parsed is None:
        return None
    sheet, top, marks_sheet, first, col, last, width = parsed
    filled = [row + 1 for row in range(first, last + 1) if value(marks_sheet, row + 1, col + 1) not in (None, "")]
    return f"{sheet}!$A$1:${column_letters(width)}${max([top, *filled])}"


def formula_print_areas(path: Path) -> dict[str, str]:
    """The print area formulas the workbook keeps under ``PrintEntered…`` names, by the
    sheet they print (a name whose text is of another shape is passed over)."""
    try:
        with zipfile.ZipFile(path) as archive:
            xml = archive.read(_WORKBOOK)
        elements = every_element(xml, text={"definedName"})
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, ExpatError):
        return {}  # not a workbook this can read: the engine says what is wrong with it
    found = {}
    for element in elements:
        name = element.attrs.get("name", "")
        if element.name == "definedName" and name.startswith(ENTERED):
            parsed = parse_print_area(element.text)
            if parsed is not None:
                found[parsed[0]] = element.text.strip().lstrip("=")
    return found


def _escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped for XML, as ``xml.sax.saxutils.escape`` does (that
    module loads the standard library's URL and mail clients at every start)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


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
                out += [xml[at:element.tag_end], _escape(area).encode("utf-8")]
                at = element.content_end
    if not wanted:
        return b"".join(out) + xml[at:]
    added = "".join(f'<definedName name="{_NAME}" localSheetId="{i}">{_escape(area)}</definedName>'
                    for i, area in sorted(wanted.items(), key=lambda item: int(item[0]))).encode("utf-8")
    if names is not None and not names.empty:
        out += [xml[at:names.content_end], added]
        at = names.content_end
    else:
        anchor = names if names is not None else next(e for e in elements if e.name == "sheets")
        prefix = anchor.prefix(xml).decode()
        out += [xml[at:anchor.end] if names is None else xml[at:anchor.start],
                f"<{prefix}definedNames>".encode() + added + f"</{prefix}definedNames>".encode()]
        at = anchor.end
    return b"".join(out) + xml[at:]
