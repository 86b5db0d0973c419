"""Writing cached formula values into an .xlsx without re-saving it.

Only the ``<v>`` element and the ``t=`` attribute of the cells we computed change, in
the sheet parts that hold them, and the value caches of the charts
(:mod:`xlrecalc.charts`); every other byte of every part stays as it was, so
styles, validations, charts, drawings and other sheets survive (openpyxl would drop
charts and images if it re-saved the file).

>>> patch_sheet(b'<sheetData><row r="1"><c r="A1" s="2" t="e"><f>1/0</f><v>#DIV/0!</v></c>'
...             b'</row></sheetData>', {(1, 1): ("n", "0.5")})
b'<sheetData><row r="1"><c r="A1" s="2"><f>1/0</f><v>0.5</v></c></row></sheetData>'
"""

from __future__ import annotations

import copy
import math
import operator
import posixpath
import re
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from xml.etree import ElementTree

from .archive import atomic_output, copy_member, read_member
from .charts import Lookup, escape, is_chart_part, patch_chart
from .parse import column_letters, column_number
from .values import MAX_TEXT, XlErr
from .xmlspans import Element, attribute_span, scan

__all__ = ["workbook_part", "check_writable", "sheet_parts", "patch_sheet", "write_cached_values", "cell_xml_value", "value_text",
           "set_calc_properties"]

_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WORKBOOK_PART = "xl/workbook.xml"
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Excel's largest row and column: a position inferred past them is not a cell we write.
_MAX_ROW, _MAX_COL = 1_048_576, 16_384
# Excel deflates the parts it saves at the fastest setting (the zip entries' flag says
# "super fast"); the parts rewritten here are deflated the same way: on a workbook of
# 16 MB of XML, zlib's default (6) took 0.22 s and level 1 takes 0.06 s, for 2.3 MB
# written instead of 1.8 MB.
EXCEL_DEFLATE_LEVEL = 1

Updates = dict[tuple[int, int], tuple[str, str]]
RowCells = dict[int, tuple[str, str]]  # one row's updates by column


def cell_xml_value(value: object) -> tuple[str, str]:
    """The ``t=`` kind and ``<v>`` text for a value: n, str, b or e.

    A number Excel cannot hold (infinite, not a number) is Excel's ``#NUM!`` error:
    ``inf`` in a ``<v>`` makes the file unreadable to openpyxl and shows 0 elsewhere.

    >>> cell_xml_value(3.0), cell_xml_value(0.1), cell_xml_value(True), cell_xml_value("a<b")
    (('n', '3'), ('n', '0.1'), ('b', '1'), ('str', 'a<b'))
    >>> cell_xml_value(float("inf")), cell_xml_value(float("nan"))
    (('e', '#NUM!'), ('e', '#NUM!'))

    No cell holds more than Excel's 32,767 characters (counted as Excel counts them,
    in UTF-16 units): a longer text is ``#VALUE!``, a longer message is cut short.

    >>> cell_xml_value("x" * 32_768), len(cell_xml_value(XlErr("#VALUE!", "y" * 40_000))[1])
    (('e', '#VALUE!'), 32767)
    """
    if type(value) is float and math.isfinite(value):  # the most frequent, first
        return "n", str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, XlErr):
        return ("str", _fitted(value.message)) if value.message else ("e", value.code)
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):
            return "e", "#NUM!"
        if number.is_integer() and abs(number) < 1e15:
            return "n", str(int(number))
        return "n", repr(number)
    text = "" if value is None else str(value)
    return ("e", "#VALUE!") if _excel_length(text) > MAX_TEXT else ("str", text)


def _excel_length(text: str) -> int:
    """The length Excel counts: UTF-16 units, two for a character past U+FFFF."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def _fitted(message: str) -> str:
    """A message within Excel's cell limit, ending in ``…`` where it was cut."""
    if _excel_length(message) <= MAX_TEXT:
        return message
    units = 0
    for at, char in enumerate(message):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > MAX_TEXT - 1:  # room for the "…"
            return message[:at] + "…"
    return message


def value_text(text: str) -> str:
    """A ``<v>`` element's text as written: XML's characters escaped, and the control
    characters XML 1.0 cannot hold left out."""
    return escape(_CONTROL.sub("", text))


def _value_xml(prefix: bytes, text: str) -> bytes:
    return b"<" + prefix + b"v>" + value_text(text).encode("utf-8") + b"</" + prefix + b"v>"


Edit = tuple[int, int, bytes]  # replace xml[start:end] with the bytes


# The elements a sheet's cells are found in, by depth: the worksheet, sheetData, its rows,
# their cells, and the cells' formula, value and inline string; a cell's first formula
# and value are its leaves (:class:`.xmlspans.Leaf`), as the reader reads them.
_SHEET_LEVELS = [frozenset({"worksheet", "sheetData"}), frozenset({"sheetData", "row"}),
                 frozenset({"row", "c"}), frozenset({"c", "f", "v", "is"}),
                 frozenset({"f", "v", "is"})]
_SHEET_LEAVES = frozenset({"f", "v"})


def _open_tag(xml: bytes, element: Element) -> bytes:
    """The element's start tag, written as a start tag even where it was an empty one."""
    tag = xml[element.start:element.tag_end]
    return tag[:-2].rstrip() + b">" if tag.endswith(b"/>") else tag


def _with_kind(xml: bytes, cell: Element, kind: str) -> bytes:
    """The cell's start tag with ``t=`` set to ``kind`` (none for a number); its other
    attributes, their quotes and order, and its spacing kept."""
    span = attribute_span(xml, cell, "t") if "t" in cell.attrs else None
    tag = xml[cell.start:cell.tag_end]
    if span is not None:
        tag = xml[cell.start:span[0]] + xml[span[1]:cell.tag_end]
    closing = b"/>" if tag.endswith(b"/>") else b">"
    body = tag[:-len(closing)]
    trailing = body[len(body.rstrip()):]  # keep the element's own spacing before '>'
    body = body.rstrip()
    if kind != "n":
        body += b' t="' + kind.encode() + b'"'
    return body + trailing + closing


def _cell_edits(xml: bytes, cell: Element, kind: str, text: str) -> list[Edit]:
    """A cell's new ``<v>`` and ``t=``; every other attribute and child kept (``<f>``,
    ``<is>``, ``extLst``, ``xml:space``…), and no ``r=`` added to a cell without one.
    What would be written as it stands (the same ``t=``, the same ``<v>``) is no edit."""
    prefix = b"" if xml[cell.start + 2] in _AFTER_NAME else cell.prefix(xml)  # <c …
    value = (b"<" + prefix + b"v>" + text.encode() + b"</" + prefix + b"v>" if kind == "n"  # digits
             else _value_xml(prefix, text))  # a number's text needs no escaping
    if cell.empty:
        tag = _with_kind(xml, cell, kind)
        return [(cell.start, cell.end, tag[:-2].rstrip() + b">" + value + b"</" + cell.written_name(xml) + b">")]
    edits: list[Edit] = []
    if kind != "n" or "t" in cell.attrs:  # a number's start tag without t= stays as it is
        end = cell.tag_end
        kept = _KIND_LAST.get(kind)  # t= already the kind, last, after one space: no change
        if kept is None or not xml.endswith(kept, cell.start, end) or xml[end - len(kept) - 1] in _SPACE:
            tag = _with_kind(xml, cell, kind)
            if tag != xml[cell.start:end]:
                edits.append((cell.start, end, tag))
    leaves = cell.leaves
    found = leaves.get("v")  # the first <v>, else after the first <f>
    if found is not None:
        # the same bytes there are this very <v>: its text holds no "<" before its end tag
        if not xml.startswith(value, found.start):
            edits.append((found.start, found.end, value))
    else:  # the schema's order: f, v, is, extLst
        formula = leaves.get("f")
        at = formula.end if formula is not None else cell.tag_end
        edits.append((at, at, value))
    return edits


_AFTER_NAME = frozenset(b" \t\r\n/>")  # what may follow an element's name in its tag
_SPACE = frozenset(b" \t\r\n")
# a start tag whose last attribute is t= of the kind, as this writer writes it
_KIND_LAST = {kind: b' t="' + kind.encode() + b'">' for kind in ("str", "b", "e")}


def _new_cell(prefix: bytes, row: int, col: int, kind: str, text: str) -> bytes:
    kind_attr = b"" if kind == "n" else b' t="' + kind.encode() + b'"'
    return (b"<" + prefix + b'c r="' + f"{column_letters(col)}{row}".encode() + b'"' + kind_attr
            + b">" + _value_xml(prefix, text) + b"</" + prefix + b"c>")


_PLAIN_REF = re.compile(r"([A-Z]{1,3})[0-9]+")
_COLUMNS: dict[str, int] = {}  # column letters -> number, as met


def _column_of(ref: str | None) -> int | None:
    """The column of a cell reference (``B7``, ``$B$7``), or ``None``.

    >>> _column_of("B7"), _column_of("$AA$7"), _column_of("b7"), _column_of("7B"), _column_of("XFE1")
    (2, 27, 2, None, None)
    """
    plain = _PLAIN_REF.fullmatch(ref) if ref else None
    if plain is not None:  # as a writer spells it: the general reading below, memoised
        letters = plain[1]
        col = _COLUMNS.get(letters)
        if col is None:
            col = _COLUMNS[letters] = column_number(letters)
        return col if col <= _MAX_COL else None
    if not ref:
        return None
    letters = ref.replace("$", "").rstrip("0123456789")
    if not letters.isalpha() or not letters.isascii():
        return None
    col = column_number(letters.upper())
    return col if 1 <= col <= _MAX_COL else None


def _row_of(number: str | None) -> int | None:
    return int(number) if number and number.strip().isdigit() else None


def _placed(children: list[Element], name: str, number_of: Callable[[str | None], int | None],
            ) -> tuple[dict[int, Element], list[tuple[int, Element]]]:
    """The ``name`` children by their number (a row's ``r``, a cell's column), as Excel
    reads them: one without ``r=`` follows the one before; the first of a number wins.
    Also every one with its number, in the order the part holds them."""
    found: dict[int, Element] = {}
    placed: list[tuple[int, Element]] = []
    number = 0
    for child in children:
        if child.name != name:
            continue
        number = number_of(child.attrs.get("r")) or number + 1
        found.setdefault(number, child)
        placed.append((number, child))
    return found, placed


def _row_edits(xml: bytes, row: Element, number: int, prefix: bytes, cells: RowCells) -> list[Edit]:
    """One row's cells set: each cell found where the row holds it, in whatever order
    (a cell without ``r=`` sits in the column after the cell before it, as Excel reads
    it), and a cell the row lacks added before the first cell right of it."""
    found = _cells_by_column(row.children, str(number))
    edits: list[Edit] = []
    added: list[tuple[int, bytes]] = []
    placed: list[tuple[int, Element]] | None = None
    for col, (kind, text) in sorted(cells.items()):
        cell = found.get(col)
        if cell is not None:
            edits += _cell_edits(xml, cell, kind, text)
            continue
        if placed is None:
            placed = _placed(row.children, "c", _column_of)[1]
        right = next((c.start for c_col, c in placed if c_col > col), row.content_end)
        added.append((right, _new_cell(prefix, number, col, kind, text)))
    if added and row.empty:
        body = b"".join(new for _, new in added)
        return [(row.start, row.end, _open_tag(xml, row) + body + b"</" + row.written_name(xml) + b">")]
    return edits + [(at, at, new) for at, new in added]


def _cells_by_column(children: list[Element], digits: str) -> dict[int, Element]:
    """:func:`_placed`'s cells by column, for a row whose cells' ``r=`` mostly end in
    ``digits`` (the row's number): a column's letters looked up without a pattern."""
    found: dict[int, Element] = {}
    col = 0
    size = len(digits)
    for child in children:
        if child.name != "c":
            continue
        ref = child.attrs.get("r")
        known = _COLUMNS.get(ref[:-size]) if ref is not None and ref.endswith(digits) else None
        col = known if known is not None and known <= _MAX_COL else _column_of(ref) or col + 1
        if col not in found:
            found[col] = child
    return found


def _new_row(prefix: bytes, row: int, cells: RowCells) -> bytes:
    return (b"<" + prefix + b'row r="' + str(row).encode() + b'">'
            + b"".join(_new_cell(prefix, row, c, *v) for c, v in sorted(cells.items()))
            + b"</" + prefix + b"row>")


_PLACE = operator.itemgetter(0, 1)


def _apply(xml: bytes, edits: list[Edit]) -> bytes:
    """``xml`` with each (start, end, bytes) replacement made; insertions at the same
    place keep the order they were listed in."""
    out: list[bytes] = []
    done = 0
    for start, end, data in sorted(edits, key=_PLACE):
        out.append(xml[done:start])
        out.append(data)
        done = end
    out.append(xml[done:])
    return b"".join(out)


def patch_sheet(xml: bytes, updates: dict[tuple[int, int], tuple[str, str]],
                document: Element | None = None) -> bytes:
    """Set the cached value of the cells in ``updates`` ((row, col) -> (kind, text), as
    :func:`cell_xml_value` gives them: a number's text is its digits, written as they are).

    The cells are found by an XML parser (:mod:`.xmlspans`), so a cell in a comment or
    a CDATA section is no cell, attributes are read in either quote style and any
    order, and rows and cells listed out of order are found where they are. Only those
    cells' ``<v>`` and ``t=`` change, and cells that had no element yet (the range of an
    array formula) are added in their place; every other byte stays; a cell whose ``t=``
    and ``<v>`` would be written as they stand is left alone. ``document`` is
    :func:`.xmlspans.scan`'s reading of these very bytes, with at least the elements of
    :data:`_SHEET_LEVELS` and a cell's first ``<f>`` and ``<v>`` as its leaves (the
    reader's: :func:`.reader.read_book`), where the part was parsed already.

    >>> patch_sheet(b'<sheetData><row><c t="n"><v>5</v></c><c><f>A1*2</f></c>'
    ...             b'<c t="inlineStr"><is><t>keep</t></is></c></row></sheetData>',
    ...             {(1, 2): ("n", "10")})
    b'<sheetData><row><c t="n"><v>5</v></c><c><f>A1*2</f><v>10</v></c><c t="inlineStr"><is><t>keep</t></is></c></row></sheetData>'
    """
    if not updates:
        return xml
    if xml[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError("the sheet is not written in UTF-8")
    if document is None:
        document = scan(xml, _SHEET_LEVELS, leaves=_SHEET_LEAVES)
    if document.attrs.get("encoding", "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ValueError("the sheet is not written in UTF-8")  # the values are written in UTF-8
    root = document.children[0] if document.children else None
    data = root if root is not None and root.name == "sheetData" else next(
        (e for e in (root.children if root is not None else []) if e.name == "sheetData"), None)
    if data is None:
        raise ValueError("the sheet has no sheetData element")
    prefix = data.prefix(xml)
    by_row: dict[int, RowCells] = {}
    for (row_number, col), value in updates.items():
        row_cells = by_row.get(row_number)
        if row_cells is None:
            row_cells = by_row[row_number] = {}
        row_cells[col] = value
    rows, placed = _placed(data.children, "row", _row_of)
    edits: list[Edit] = []
    added: list[tuple[int, bytes]] = []
    for number, cells in sorted(by_row.items()):
        if number in rows:
            edits += _row_edits(xml, rows[number], number, prefix, cells)
        else:
            right = next((r.start for r_number, r in placed if r_number > number), data.content_end)
            added.append((right, _new_row(prefix, number, cells)))
    if added and data.empty:
        body = b"".join(new for _, new in added)
        edits.append((data.start, data.end, _open_tag(xml, data) + body + b"</" + data.written_name(xml) + b">"))
    else:
        edits += [(at, at, new) for at, new in added]
    return _apply(xml, edits)


def workbook_part(archive: zipfile.ZipFile, shown: str = "") -> str:
    """The member holding the workbook: the target of the package's officeDocument
    relationship (``_rels/.rels``), which may name another part than xl/workbook.xml."""
    import xml.etree.ElementTree as ET
    try:
        info = archive.getinfo("_rels/.rels")
    except KeyError:
        return WORKBOOK_PART
    for rel in ET.fromstring(read_member(archive, info, shown)):
        if (rel.get("Type", "").endswith("/officeDocument")
                and rel.get("TargetMode") != "External" and rel.get("Target")):
            return posixpath.normpath(rel.get("Target", "").lstrip("/"))
    return WORKBOOK_PART


class _Prolog(Exception):
    """The prolog read: the root element has begun."""


def check_writable(src: Path, shown: str | None = None) -> None:
    """Raise ``ValueError`` at once for what :func:`write_cached_values` would refuse
    only once the values are computed: a workbook or sheet part in another encoding
    than UTF-8 or declaring a document type. Only each part's prolog is read."""
    from xml.parsers import expat
    shown = shown or str(src)
    with zipfile.ZipFile(src) as archive:
        book_part = workbook_part(archive, shown)
        names = set(archive.namelist())
        for part in [book_part, *sheet_parts(archive, shown, book_part).values()]:
            if part not in names:
                continue
            with archive.open(part) as member:
                head = member.read(1 << 16)
            what = "the sheet" if part != book_part else "workbook.xml"
            if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
                raise ValueError(f"{what} is not written in UTF-8")
            found: dict[str, str] = {}

            def declaration(version: str, encoding: str | None, standalone: int) -> None:
                found["encoding"] = encoding or "utf-8"

            def doctype(*_: object) -> None:
                raise ValueError("the part declares a document type")

            def root(*_: object) -> None:
                raise _Prolog
            parser = expat.ParserCreate()
            parser.XmlDeclHandler = declaration
            parser.StartDoctypeDeclHandler = doctype
            parser.StartElementHandler = root
            try:
                parser.Parse(head, False)
            except (_Prolog, expat.ExpatError):
                pass  # the writer's own parse names what else is wrong
            if found.get("encoding", "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8"):
                raise ValueError(f"{what} is not written in UTF-8")


def _sheets_element(archive: zipfile.ZipFile, part: str) -> ElementTree.Element:
    """The workbook part's ``<sheets>``, read streamed up to its end (the defined names
    after it, millions in a hostile file, are never parsed), or an empty element."""
    with archive.open(part) as stream:
        for _, element in ElementTree.iterparse(stream):
            if element.tag.endswith("}sheets") or element.tag == "sheets":
                return element
    return ElementTree.Element("sheets")


def sheet_parts(archive: zipfile.ZipFile, shown: str = "", part: str | None = None) -> dict[str, str]:
    """Sheet name -> the zip member holding its XML (``part`` is the workbook's)."""
    import xml.etree.ElementTree as ET
    part = part or workbook_part(archive, shown)
    folder, file_name = posixpath.split(part)
    workbook = _sheets_element(archive, part)
    rels = ET.fromstring(read_member(
        archive, archive.getinfo(posixpath.join(folder, "_rels", file_name + ".rels")), shown))
    targets: dict[str, str] = {}
    for rel in rels:
        rel_id, rel_target = rel.get("Id"), rel.get("Target")
        if rel_id is not None and rel_target is not None:
            targets[rel_id] = rel_target
    parts: dict[str, str] = {}
    for sheet in workbook.iter():
        if sheet.tag.endswith("}sheet"):
            name = sheet.get("name")
            if name is None:
                raise ValueError("workbook.xml lists a sheet without a name")
            target = targets.get(sheet.get(f"{{{_REL_NS}}}id", ""), "")
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                posixpath.join(folder, target))
            parts[name] = path
    return parts


# calcPr's place among workbook.xml's children (ECMA-376 CT_Workbook): before these.
_AFTER_CALC_PR = ("oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr",
                  "smartTagTypes", "webPublishing", "fileRecoveryPr", "webPublishObjects",
                  "extLst")
CALC_ID = b"191029"


def set_calc_properties(xml: bytes) -> bytes:
    """workbook.xml with ``<calcPr calcId="191029">`` and no ``fullCalcOnLoad``: Excel
    (and xlwings Lite) then keep the cached values instead of recalculating on open.
    calcPr's other attributes stay; a missing calcPr is added in its schema place. The
    element and its attributes are found by an XML parser (:mod:`.xmlspans`).

    >>> set_calc_properties(b'<workbook><sheets/><calcPr calcId="124519" fullCalcOnLoad="1"'
    ...                     b' iterate="1"/></workbook>')
    b'<workbook><sheets/><calcPr calcId="191029" iterate="1"/></workbook>'
    >>> set_calc_properties(b'<x:workbook xmlns:x="urn:x"><x:sheets/><x:extLst/></x:workbook>')
    b'<x:workbook xmlns:x="urn:x"><x:sheets/><x:calcPr calcId="191029"/><x:extLst/></x:workbook>'
    >>> set_calc_properties(b"<workbook><!-- <calcPr/> --><calcPr fullCalcOnLoad='1'/></workbook>")
    b'<workbook><!-- <calcPr/> --><calcPr calcId="191029"/></workbook>'
    """
    document = scan(xml, lambda path: len(path) <= 2)
    root = document.children[0] if document.children else None
    if root is None or root.name != "workbook":
        raise ValueError("workbook.xml has no workbook element")
    found = next((e for e in root.children if e.name == "calcPr"), None)
    if found is None:
        later = next((e.start for e in root.children if e.name in _AFTER_CALC_PR), root.content_end)
        if root.empty:
            raise ValueError("workbook.xml has no sheets")
        added = b"<" + root.prefix(xml) + b'calcPr calcId="' + CALC_ID + b'"/>'
        return xml[:later] + added + xml[later:]
    edits: list[Edit] = []
    full = attribute_span(xml, found, "fullCalcOnLoad")
    if full is not None:
        edits.append((full[0], full[1], b""))
    calc_id = attribute_span(xml, found, "calcId")
    if calc_id is not None:
        edits.append((calc_id[0], calc_id[1], xml[calc_id[0]:calc_id[1]].split(b"calcId")[0]
                      + b'calcId="' + CALC_ID + b'"'))
    else:
        at = found.start + 1 + len(found.written_name(xml))
        edits.append((at, at, b' calcId="' + CALC_ID + b'"'))
    return _apply(xml, edits)


def write_cached_values(src: Path, dst: Path,
                        values: dict[str, dict[tuple[int, int], object]],
                        charts: Lookup | None = None, shown: str | None = None,
                        parsed: Mapping[str, tuple[bytes, Element]] | None = None,
                        workbook_edit: Callable[[bytes], bytes] | None = None) -> None:
    """Copy ``src`` to ``dst`` with the given cells' cached values set.

    ``values`` maps a sheet name to {(row, col): value}. With ``charts`` (the values of
    a series formula's cells), each chart part's value caches are refreshed too; and
    workbook.xml's calcPr says the values are current (:func:`set_calc_properties`).
    Members are copied in order, streamed, with their names, dates and compression; only
    the patched sheets', charts' and workbook.xml's bytes differ (deflated as Excel
    deflates, :data:`EXCEL_DEFLATE_LEVEL`). A sheet part in
    ``parsed`` (member -> its bytes and their :func:`.xmlspans.scan`, as
    :func:`.reader.read_book` read them from ``src``) is not read nor parsed again.
    ``workbook_edit`` rewrites workbook.xml further, in the same pass (after its calcPr
    is set). ``dst`` appears whole
    or not at all (:func:`xlrecalc.archive.atomic_output`); ``dst`` may be
    ``src``. ``shown`` names ``src`` in messages.
    """
    shown = shown or str(src)
    with zipfile.ZipFile(src) as archive, atomic_output(Path(dst)) as stream:
        book_part = workbook_part(archive, shown)
        parts = sheet_parts(archive, shown, book_part)
        patches = {parts[sheet]: {key: cell_xml_value(v) for key, v in cells.items()}
                   for sheet, cells in values.items() if cells and sheet in parts}
        with zipfile.ZipFile(stream, "w") as out:
            for info in archive.infolist():
                name = info.filename
                if name in patches or name == book_part or (
                        charts is not None and is_chart_part(name)):
                    if name in patches and parsed is not None and name in parsed:
                        data, document = parsed[name]
                        data = patch_sheet(data, patches[name], document)
                        out.writestr(copy.copy(info), data, compresslevel=EXCEL_DEFLATE_LEVEL)
                        continue
                    data = read_member(archive, info, shown)
                    if name in patches:
                        data = patch_sheet(data, patches[name])
                    elif name == book_part:
                        data = set_calc_properties(data)
                        if workbook_edit is not None:
                            data = workbook_edit(data)
                    else:
                        data = patch_chart(data, charts)  # type: ignore[arg-type]
                    out.writestr(copy.copy(info), data, compresslevel=EXCEL_DEFLATE_LEVEL)
                else:
                    copy_member(archive, info, out, shown)
