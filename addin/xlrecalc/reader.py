"""Reading an .xlsx straight from its XML for the evaluator: cell values, formulas
(array and shared ones), defined names of every scope and tables.

About four times faster than building openpyxl's workbook model, which the evaluator
does not need (styles, column widths, drawings). It reads only the cells the file holds.
Each sheet part is parsed once, by :func:`.xmlspans.scan`, which also says where each
element lies in the bytes: the writer sets the values at those places
(:func:`.patch.write_cached_values` with ``parsed``) without reading or parsing the part
again. A part that declares a document type is left to openpyxl (whose file the writer
then refuses, as it refuses any such part).
Anything it does not expect (Strict OOXML, cells without an address, a member larger
than :data:`MAX_MEMBER`) makes :func:`read_book` return ``None``, and the caller reads the
file with openpyxl instead. What no file Excel wrote holds, an index past its table (a
shared string, a sheet a name is scoped to), is refused: a :class:`.archive.RecalcError`
naming the file, the cell or name and the index, where Python would read ``-1`` as the
last item.
"""

from __future__ import annotations

import datetime as _dt
import math
import posixpath
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from xml.etree import ElementTree

from .archive import RecalcError
from .dates import date_system
from .engine import Book, Table
from .iteration import MAX_ITERATIONS
from .parse import CopyTemplate, FormulaSyntaxError, Ref, column_number, parse_ref
from .references import excel_serial
from .values import ERROR_CODES, XlErr
from .xmlspans import Element, Leaf, scan

__all__ = ["read_book", "MAX_MEMBER", "iteration"]

MAX_MEMBER = 256 * 1024 * 1024  # declared uncompressed size of one part read whole
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_ADDRESS = re.compile(r"([A-Z]{1,3})(\d+)$")


class _Unreadable(Exception):
    """Something this reader leaves to openpyxl."""


class _Refused(Exception):
    """Something no workbook Excel wrote holds: the reason, without the file's name."""


def _index(text: str | None, count: int) -> int | None:
    """``text`` as an index into a table of ``count`` items, or ``None`` past it.

    >>> _index("1", 2), _index("-1", 2), _index("2", 2), _index(" 0 ", 1)
    (1, None, None, 0)
    """
    number = int(text or "")  # not a number: ValueError, which leaves the file to openpyxl
    return number if 0 <= number < count else None


def read_book(path: Any, functions: dict[str, Callable[..., Any]],
              parsed: dict[str, tuple[bytes, Element]] | None = None,
              members: Mapping[str, bytes] | None = None) -> Book | None:
    """The book of ``path`` read from its XML, or ``None`` when openpyxl should read it.
    ``parsed`` receives each sheet part's bytes and where its cells lie (the
    :func:`.xmlspans.scan` the cells were read from), for the writer to write the values
    at without parsing the part again (:func:`.patch.write_cached_values`). ``members``
    holds parts already read from ``path`` (:func:`.archive.check_archive`'s, by
    :func:`sheet_member`), used instead of expanding them again."""
    try:
        with zipfile.ZipFile(path) as archive:
            return _read(archive, functions, {} if parsed is None else parsed, members or {})
    except _Refused as refused:
        raise RecalcError(f"{path}: {refused}; not a workbook Excel wrote") from None
    except (_Unreadable, KeyError, ValueError, ElementTree.ParseError, FormulaSyntaxError):
        return None


def _xml(archive: zipfile.ZipFile, name: str) -> ElementTree.Element:
    info = archive.getinfo(name)
    if info.file_size > MAX_MEMBER:
        raise _Unreadable(f"{name} is large")
    return ElementTree.fromstring(archive.read(info))


def _relations(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """A part's relationships: id -> (type's last word, target member)."""
    folder, name = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", name + ".rels")
    if rels not in archive.namelist():
        return {}
    out = {}
    for rel in _xml(archive, rels).iter(_PKG + "Relationship"):
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            continue
        member = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target))
        out[rel.get("Id", "")] = (rel.get("Type", "").rsplit("/", 1)[-1], member)
    return out


def sheet_member(name: str) -> bool:
    """Whether a member is where a sheet part is kept (``xl/worksheets/…xml``)."""
    return name.startswith("xl/worksheets/") and name.endswith(".xml")


def _read(archive: zipfile.ZipFile, functions: dict[str, Callable[..., Any]],
          parsed: dict[str, tuple[bytes, Element]], members: Mapping[str, bytes]) -> Book:
    root = _relations(archive, "")
    workbook_part = next((m for kind, m in root.values() if kind == "officeDocument"), None)
    if workbook_part is None:
        raise _Unreadable("no workbook part")
    book = Book(dict(functions))
    workbook, defined_names = _workbook(archive, workbook_part, book)
    if workbook.tag != _MAIN + "workbook":
        raise _Unreadable("not transitional SpreadsheetML")
    rels = _relations(archive, workbook_part)
    strings = _shared_strings(archive, rels)
    dynamic = _dynamic_metadata(archive, rels)
    sheets = [(s.get("name", ""), rels[s.get(_REL + "id", "")][1])
              for s in workbook.iter(_MAIN + "sheet")]
    properties = workbook.find(_MAIN + "workbookPr")
    if properties is not None:
        book.date1904 = properties.get("date1904", "0").strip().lower() in ("1", "true")
    calculation = workbook.find(_MAIN + "calcPr")
    if calculation is not None:
        book.iteration = iteration(calculation.get("iterate"), calculation.get("iterateCount"),
                                   calculation.get("iterateDelta"))
    for name, _ in sheets:
        book.add_sheet(name)
    for name, part in sheets:
        _read_sheet(archive, book, name, part, strings, book.date1904, dynamic, parsed, members)
    for name, text, local in defined_names:
        if name.startswith("_xlnm."):
            continue  # print areas and titles, filters: nothing a formula reads
        scope = None
        if local is not None:
            try:
                at = _index(local, len(sheets))
            except ValueError:
                at = None
            if at is None:
                count = f"{len(sheets)} sheet" + ("s" if len(sheets) != 1 else "")
                raise _Refused(f"the name {name} belongs to sheet number {local} "
                               f"(localSheetId), but the workbook has {count}")
            scope = sheets[at][0]
        book.define_name(name, text, scope)
    return book


def _workbook(archive: zipfile.ZipFile, part: str, book: Book) -> tuple[
        ElementTree.Element, list[tuple[str, str, str | None]]]:
    """The workbook part without its defined names, and the names scoped to a sheet as
    (name, text, localSheetId); the workbook's own names are defined in ``book`` as they
    are read. Read streamed, each name's element let go once read: a part of millions
    of names costs their text, never their elements."""
    info = archive.getinfo(part)
    if info.file_size > MAX_MEMBER:
        raise _Unreadable(f"{part} is large")
    names: list[tuple[str, str, str | None]] = []
    stack: list[ElementTree.Element] = []
    with archive.open(info) as stream:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            if event == "start":
                stack.append(element)
                continue
            stack.pop()
            if element.tag == _MAIN + "definedName" and stack:
                name, local = element.get("name", ""), element.get("localSheetId")
                if local is not None:
                    names.append((name, element.text or "", local))
                elif not name.startswith("_xlnm."):  # print areas, titles: read by no formula
                    book.define_name(name, element.text or "")
                stack[-1].remove(element)  # the only child left: the ones before are gone
    return element, names


def iteration(iterate: Any, count: Any, delta: Any) -> tuple[int, float] | None:
    """Excel's iterative calculation from calcPr's attributes (ECMA-376 §18.2.2: 100
    iterations and a change of 0.001 unless set), or ``None`` when it is off. Excel
    iterates 32,767 times at most, and reads a larger count as that.

    >>> iteration("1", None, None), iteration("true", "7", "0.5"), iteration(None, "7", None)
    ((100, 0.001), (7, 0.5), None)
    >>> iteration("1", "100000", None)
    (32767, 0.001)
    """
    if str(iterate).strip().lower() not in ("1", "true"):
        return None
    try:
        most = int(count) if count is not None else 100
        change = float(delta) if delta is not None else 0.001
    except ValueError:
        most, change = 100, 0.001
    return min(max(1, most), MAX_ITERATIONS), max(0.0, change)


def _shared_strings(archive: zipfile.ZipFile, rels: dict[str, tuple[str, str]]) -> list[str]:
    part = next((m for kind, m in rels.values() if kind == "sharedStrings"), None)
    if part is None:
        return []
    return [_text(item) for item in _xml(archive, part).iter(_MAIN + "si")]


_DYNAMIC_ARRAYS = "{http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray}"


def _dynamic_metadata(archive: zipfile.ZipFile, rels: dict[str, tuple[str, str]]) -> frozenset[str]:
    """The ``cm=`` values that mark a dynamic array formula ([MS-XLSX] 2.6.230 and
    2.3.8): cellMetadata's block ``cm`` (from 1) records a type named XLDAPR and a
    future-metadata block whose dynamicArrayProperties say ``fDynamic="1"``."""
    part = next((m for kind, m in rels.values() if kind == "sheetMetadata"), None)
    if part is None or part not in archive.namelist():
        return frozenset()
    root = _xml(archive, part)
    types = [t.get("name", "") for t in root.iter(_MAIN + "metadataType")]
    future: dict[str, list[bool]] = {}
    for block in root.iter(_MAIN + "futureMetadata"):
        future[block.get("name", "")] = [
            any(p.get("fDynamic", "0").strip().lower() in ("1", "true")
                for p in bk.iter(_DYNAMIC_ARRAYS + "dynamicArrayProperties"))
            for bk in block.findall(_MAIN + "bk")]
    found: set[str] = set()
    cell_metadata = root.find(_MAIN + "cellMetadata")
    for number, bk in enumerate(cell_metadata.findall(_MAIN + "bk") if cell_metadata is not None else [], 1):
        for record in bk.iter(_MAIN + "rc"):
            try:  # t counts from 1, v from 0; an index past its list marks nothing
                kind = _index(str(int(record.get("t", "")) - 1), len(types))
                name = types[kind] if kind is not None else ""
                blocks = future.get(name, [])
                at = _index(record.get("v"), len(blocks))
            except ValueError:
                continue
            if name == "XLDAPR" and at is not None and blocks[at]:
                found.add(str(number))
    return frozenset(found)


def _text(item: ElementTree.Element) -> str:
    """The text of a string item: its runs, without phonetic guides, with the characters
    XML cannot hold read back from their ``_xHHHH_`` escapes (ECMA-376 ST_Xstring)."""
    direct = item.find(_MAIN + "t")
    if direct is not None:
        return _unescape(direct.text or "")
    return _unescape("".join(t.text or "" for r in item.iter(_MAIN + "r") for t in r.iter(_MAIN + "t")))


def _inline_text(item: Element) -> str:
    """:func:`_text` of an inline string (``<is>``) as :func:`.xmlspans.scan` read it."""
    direct = _child(item, "t")
    if direct is not None:
        return _unescape(direct.text)
    return _unescape("".join(t.text for r in item.children if r.name == "r"
                             for t in r.children if t.name == "t"))


_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _unescape(text: str) -> str:
    """``_x0007_`` is the character 7; ``_x005F_`` an underscore, so that a text which
    itself reads ``_x0041_`` is written ``_x005F_x0041_``.

    >>> _unescape("a_x0007_b"), _unescape("_x005F_x0041_")
    ('a\\x07b', '_x0041_')
    """
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


# The elements of a sheet part read, by depth (:func:`.xmlspans.scan`): the worksheet,
# its cells (sheetData, row, c, and a cell's formula, value and inline string with its
# runs) and its tables' relationships; the character data of formulas, values and texts.
# A cell's first formula and value, the ones Excel reads, are leaves of the cell
# (:class:`.xmlspans.Leaf`), not elements.
_SHEET_LEVELS = [frozenset({"worksheet"}), frozenset({"sheetData", "tableParts"}),
                 frozenset({"row", "tablePart"}), frozenset({"c"}), frozenset({"f", "v", "is"}),
                 frozenset({"t", "r", "rPh"}), frozenset({"t"})]
_SHEET_TEXTS = frozenset({"f", "v", "t"})
SHEET_LEAVES = frozenset({"f", "v"})


def _read_sheet(archive: zipfile.ZipFile, book: Book, sheet: str, part: str,
                strings: list[str], date1904: bool, dynamic: frozenset[str],
                parsed: dict[str, tuple[bytes, Element]], members: Mapping[str, bytes]) -> None:
    info = archive.getinfo(part)
    if info.file_size > MAX_MEMBER:
        raise _Unreadable(f"{part} is large")
    # one parse, with each element's byte offsets: the cells are read from it, and the
    # values are later written at its places
    xml = members.get(part)
    if xml is None:
        xml = archive.read(info)
    document = scan(xml, _SHEET_LEVELS, text=_SHEET_TEXTS, leaves=SHEET_LEAVES)
    root = document.children[0] if document.children else Element(xml, "", {}, 0)
    try:
        _read_cells(book, sheet, root, strings, date1904, dynamic)
    except _BadString as bad:
        raise _Refused(f"{sheet}!{bad.cell} names shared string {bad.index}, but the "
                       f"workbook holds {len(strings)}") from None
    except _BadNumber as bad:
        raise _Refused(f"{sheet}!{bad.cell} holds {bad.text!r} as a number") from None
    parsed[part] = xml, document
    parts = [p for e in root.children if e.name == "tableParts" for p in e.children if p.name == "tablePart"]
    for rel_id in (p.attrs.get(_REL[1:] + "id", "") for p in parts):
        target = _relations(archive, part).get(rel_id)
        if target is not None:
            _read_table(archive, book, sheet, target[1])


class _BadString(Exception):
    """A cell's shared-string index past the table."""

    def __init__(self, cell: str, index: str):
        super().__init__(cell, index)
        self.cell, self.index = cell, index


class _BadNumber(Exception):
    """A number cell's ``<v>`` that is no number."""

    def __init__(self, cell: str, text: str):
        super().__init__(cell, text)
        self.cell, self.text = cell, text


def _read_cells(book: Book, sheet: str, root: Element, strings: list[str],
                date1904: bool, dynamic: frozenset[str]) -> None:
    shared: dict[str, SharedFormula] = {}  # si -> the formula its cells share
    cached, owner = book.cached, book.owner
    add_formula, set_value = book.add_formula, book.set_value
    positions: list[list[tuple[int, int]]] = []

    def held() -> list[tuple[int, int]]:
        """The cells the sheet holds, read once, when an array formula's range needs them."""
        if not positions:
            positions.append([(row, col) for _, row, col in _cells(root)])
        return positions[0]
    for cell, row, col in _cells(root):
        key = (sheet, row, col)
        leaves = cell.leaves  # the first formula and value, as Excel reads a cell
        formula, v = leaves.get("f"), leaves.get("v")
        owned = key in owner  # a cell of an array formula's range (often <f ca="1"/>)
        if formula is not None or owned:
            # Excel's value, kept where the formula calls a function the engine lacks
            value = _cached_value(cell, v, strings, date1904)
            if value is not None:
                cached[key] = value
        if formula is not None:
            kind = formula.attrs.get("t")
            text = formula.text
            if kind == "shared":
                si = formula.attrs.get("si", "")
                if text:
                    shared[si] = SharedFormula(text, row, col)
                elif si in shared:
                    text = shared[si].at(row, col)
            if kind == "array" and formula.attrs.get("ref"):
                found = parse_ref(formula.attrs["ref"])
                add_formula(sheet, row, col, "=" + text,
                            Ref(sheet, found.r1, found.c1, found.r2, found.c2), held)
                if dynamic and cell.attrs.get("cm") in dynamic:
                    book.dynamic.add(key)
                continue
            if owned:
                continue
            if text.strip():
                add_formula(sheet, row, col, "=" + text)
                continue
        if owned:
            continue
        value = _value(cell, v, strings, date1904)
        if value is not None:
            set_value(sheet, row, col, value)


def _cells(root: Element) -> Iterator[tuple[Element, int, int]]:
    columns: dict[str, int] = {}  # each column's number, counted once
    for data in root.children:
        if data.name != "sheetData":
            continue
        for row in data.children:
            if row.name != "row":
                continue
            # a cell's r= is its column's letters and, mostly, its row's r=: looked up
            # as such without the pattern (which reads the same letters and digits)
            digits = row.attrs.get("r", "")
            size = len(digits) if digits.isdigit() and digits.isascii() else 0
            number = int(digits) if size else 0
            for cell in row.children:
                ref = cell.attrs.get("r", "")
                col = columns.get(ref[:-size]) if size and ref.endswith(digits) else None
                if col is not None:
                    yield cell, number, col
                    continue
                address = _ADDRESS.match(ref)
                if address is None:
                    raise _Unreadable("a cell without its address")
                letters, cell_row = address.groups()
                col = columns.get(letters)
                if col is None:
                    col = columns[letters] = column_number(letters)
                yield cell, int(cell_row), col


def _child(element: Element, name: str) -> Element | None:
    """The first child named ``name``, or ``None``."""
    for child in element.children:
        if child.name == name:
            return child
    return None


def _cached_value(cell: Element, v: Leaf | None, strings: list[str], date1904: bool) -> Any:
    """A formula cell's cached value (``v`` its first ``<v>``), ``None`` when the file
    holds none; an empty ``<v/>`` of a text result is the empty text."""
    if v is None:
        return None
    if not v.text:
        return "" if cell.attrs.get("t") == "str" else None
    return _value(cell, v, strings, date1904)


def _value(cell: Element, v: Leaf | None, strings: list[str], date1904: bool) -> Any:
    """The cell's value as its ``t=`` reads its first ``<v>`` (``v``) or its ``<is>``."""
    kind = cell.attrs.get("t", "n")
    if kind == "inlineStr":
        inline = _child(cell, "is")
        return _inline_text(inline) if inline is not None else None
    if v is None or not v.text:
        return None
    text = v.text
    if kind == "n":
        number = float(text)
        # Python's float also reads "1_000", other scripts' digits, "nan" and "inf",
        # none of which is a number in a file (an XML Schema double of Excel's)
        if not text.isascii() or "_" in text or not math.isfinite(number):
            raise _BadNumber(cell.attrs.get("r", ""), text)
        return number
    if kind == "s":
        at = _index(text, len(strings))
        if at is None:
            raise _BadString(cell.attrs.get("r", ""), text.strip())
        return strings[at]
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind == "e":
        return XlErr(text) if text in ERROR_CODES else text
    if kind == "d":
        with date_system(date1904):
            return excel_serial(_dt.datetime.fromisoformat(text))
    return text  # "str": a formula's cached text, kept as text


class SharedFormula:
    """A shared formula (``<f t="shared" ref=… si=…>text</f>``): its text as written in
    its first cell (``row``, ``col``), and as it reads in any other cell of its range.

    A copy down the formula's own column, the way Excel stores a filled-down column, is
    spelled by :class:`.parse.CopyTemplate` without parsing; any other by openpyxl's
    ``Translator``.

    >>> formula = SharedFormula("IF(B2>0,$A$1*B2,C1)", 2, 3)
    >>> formula.at(5, 3), formula.at(2, 4)
    ('IF(B5>0,$A$1*B5,C4)', 'IF(C2>0,$A$1*C2,D1)')
    """

    __slots__ = ("text", "row", "col", "_down")

    def __init__(self, text: str, row: int, col: int):
        self.text, self.row, self.col = text, row, col
        self._down: CopyTemplate | None = None

    def at(self, row: int, col: int) -> str:
        if col == self.col:
            if self._down is None:
                self._down = CopyTemplate("=" + self.text)
            moved = self._down.moved(row - self.row)
            if moved is not None:
                return moved[1:]
        from openpyxl.formula.translate import Translator
        from openpyxl.utils import get_column_letter
        origin = f"{get_column_letter(self.col)}{self.row}"
        return str(Translator("=" + self.text, origin).translate_formula(f"{get_column_letter(col)}{row}")[1:])


def _read_table(archive: zipfile.ZipFile, book: Book, sheet: str, part: str) -> None:
    table = _xml(archive, part)
    try:
        ref = parse_ref(table.get("ref", ""))
    except FormulaSyntaxError:
        return
    columns = [c.get("name", "") for c in table.iter(_MAIN + "tableColumn")]
    headers = int(table.get("headerRowCount", "1"))
    totals = int(table.get("totalsRowCount", "0"))
    name = table.get("displayName") or table.get("name") or ""
    book.add_table(Table(name, sheet, ref, columns, headers, totals))
