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
import posixpath
import re
import zipfile
from pathlib import Path

from .archive import atomic_output, copy_member, read_member
from .charts import Lookup, escape, is_chart_part, patch_chart
from .parse import column_letters, column_number
from .values import XlErr

__all__ = ["sheet_parts", "patch_sheet", "write_cached_values", "cell_xml_value", "value_text",
           "set_calc_properties"]

_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WORKBOOK_PART = "xl/workbook.xml"
# Attributes may be quoted either way; ``r`` is matched on its own, never ``xr:r``.
_CELL_RE = re.compile(rb"<((?:\w+:)?)c(?=[\s/>])([^>]*?)(/>|>(.*?)</\1c>)", re.S)
_ROW_RE = re.compile(rb"<((?:\w+:)?)row(?=[\s/>])([^>]*?)(/>|>(.*?)</\1row>)", re.S)
_SHEET_DATA = re.compile(rb"<((?:\w+:)?)sheetData(?=[\s/>])[^>]*?(/>|>)")
_ATTR_R = re.compile(rb"""(?<![\w:.-])r\s*=\s*["']\$?([A-Za-z]+)\$?(\d+)["']""")
_ATTR_ROW = re.compile(rb"""(?<![\w:.-])r\s*=\s*["'](\d+)["']""")
_ATTR_T = re.compile(rb"""\s+t\s*=\s*(?:"[^"]*"|'[^']*')""")
_VALUE = re.compile(rb"<((?:\w+:)?)v(?=[\s/>])[^>]*?(?:/>|>.*?</\1v>)", re.S)
_FORMULA = re.compile(rb"<((?:\w+:)?)f(?=[\s/>])[^>]*?(?:/>|>.*?</\1f>)", re.S)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Excel's largest row and column: a position inferred past them is not a cell we write.
_MAX_ROW, _MAX_COL = 1_048_576, 16_384

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
    """
    if isinstance(value, XlErr):
        return ("str", value.message) if value.message else ("e", value.code)
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):
            return "e", "#NUM!"
        if number.is_integer() and abs(number) < 1e15:
            return "n", str(int(number))
        return "n", repr(number)
    return "str", "" if value is None else str(value)


def value_text(text: str) -> str:
    """A ``<v>`` element's text as written: XML's characters escaped, and the control
    characters XML 1.0 cannot hold left out."""
    return escape(_CONTROL.sub("", text))


def _value_xml(prefix: bytes, text: str) -> bytes:
    return b"<" + prefix + b"v>" + value_text(text).encode("utf-8") + b"</" + prefix + b"v>"


def _with_kind(attrs: bytes, kind: str) -> bytes:
    attrs = _ATTR_T.sub(b"", attrs).rstrip(b"/")
    trailing = attrs[len(attrs.rstrip()):]  # keep the element's own spacing before '>'
    attrs = attrs.rstrip()
    if kind != "n":
        attrs += b' t="' + kind.encode() + b'"'
    return attrs + trailing


def _rebuild(match: re.Match[bytes], kind: str, text: str) -> bytes:
    """The cell with a new ``<v>`` and ``t=``; every other attribute and child kept
    (``<f>``, ``<is>``, ``extLst``, ``xml:space``…), and no ``r=`` added to a cell
    without one (its place is inferred from the cell before it, which stays)."""
    prefix, attrs, inner = match.group(1), match.group(2), match.group(4) or b""
    value = _value_xml(prefix, text)
    found = _VALUE.search(inner)
    if found is not None:
        inner = inner[:found.start()] + value + inner[found.end():]
    else:  # the schema's order: f, v, is, extLst
        formula = _FORMULA.search(inner)
        at = formula.end() if formula else len(inner) - len(inner.lstrip())
        inner = inner[:at] + value + inner[at:]
    attrs = _with_kind(attrs, kind)
    return b"<" + prefix + b"c" + attrs + b">" + inner + b"</" + prefix + b"c>"


def _new_cell(prefix: bytes, row: int, col: int, kind: str, text: str) -> bytes:
    attrs = _with_kind(f' r="{column_letters(col)}{row}"'.encode(), kind)
    return b"<" + prefix + b"c" + attrs + b">" + _value_xml(prefix, text) + b"</" + prefix + b"c>"


def _patch_row(prefix: bytes, row: int, inner: bytes, cells: RowCells) -> bytes:
    """One row's cells with ``cells`` ({col: …} of this row) set; a cell without ``r=``
    sits in the column after the previous cell, as Excel reads it."""
    out: list[bytes] = []
    pending = sorted(cells.items())
    done = 0
    col = 0
    for match in _CELL_RE.finditer(inner):
        found = _ATTR_R.search(match.group(2))
        col = column_number(found.group(1).upper().decode()) if found else col + 1
        while pending and pending[0][0] < col:  # cells to add before this one
            new_col, (kind, text) = pending.pop(0)
            out.append(inner[done:match.start()])
            done = match.start()
            out.append(_new_cell(prefix, row, new_col, kind, text))
        out.append(inner[done:match.start()])
        if pending and pending[0][0] == col:
            _, (kind, text) = pending.pop(0)
            out.append(_rebuild(match, kind, text))
        else:
            out.append(match.group(0))
        done = match.end()
    tail = inner[done:]
    spacing = tail[:len(tail) - len(tail.lstrip())]
    out.append(spacing)
    out += [_new_cell(prefix, row, c, *v) for c, v in pending]
    out.append(tail[len(spacing):])
    return b"".join(out)


def _patch_rows(body: bytes, prefix: bytes, by_row: dict[int, RowCells]) -> bytes:
    """The sheetData's content with every update applied; rows without ``r=`` follow
    the previous row, as Excel reads them; rows that do not exist yet are added in order."""
    pending = sorted(by_row.items())
    out: list[bytes] = []
    done = 0
    row = 0
    for match in _ROW_RE.finditer(body):
        found = _ATTR_ROW.search(match.group(2))
        row = int(found.group(1)) if found else row + 1
        while pending and pending[0][0] < row:
            number, cells = pending.pop(0)
            out.append(body[done:match.start()])
            done = match.start()
            out.append(_new_row(prefix, number, cells))
        out.append(body[done:match.start()])
        done = match.end()
        if not pending or pending[0][0] != row:
            out.append(match.group(0))
            continue
        _, cells = pending.pop(0)
        row_prefix, attrs = match.group(1), match.group(2).rstrip(b"/")
        inner = _patch_row(row_prefix, row, match.group(4) or b"", cells)
        out.append(b"<" + row_prefix + b"row" + attrs + b">" + inner + b"</" + row_prefix + b"row>")
    out.append(body[done:])
    out += [_new_row(prefix, number, cells) for number, cells in pending]
    return b"".join(out)


def _new_row(prefix: bytes, row: int, cells: RowCells) -> bytes:
    return (b"<" + prefix + b'row r="' + str(row).encode() + b'">'
            + b"".join(_new_cell(prefix, row, c, *v) for c, v in sorted(cells.items()))
            + b"</" + prefix + b"row>")


def patch_sheet(xml: bytes, updates: dict[tuple[int, int], tuple[str, str]]) -> bytes:
    """Set the cached value of the cells in ``updates`` ((row, col) -> (kind, text)).

    Only those cells' ``<v>`` and ``t=`` change, and cells that had no element yet (the
    range of an array formula) are added in their place; every other byte stays.

    >>> patch_sheet(b'<sheetData><row><c t="n"><v>5</v></c><c><f>A1*2</f></c>'
    ...             b'<c t="inlineStr"><is><t>keep</t></is></c></row></sheetData>',
    ...             {(1, 2): ("n", "10")})
    b'<sheetData><row><c t="n"><v>5</v></c><c><f>A1*2</f><v>10</v></c><c t="inlineStr"><is><t>keep</t></is></c></row></sheetData>'
    """
    if not updates:
        return xml
    by_row: dict[int, RowCells] = {}
    for (row, col), value in updates.items():
        by_row.setdefault(row, {})[col] = value
    data = _SHEET_DATA.search(xml)
    if data is None:
        raise ValueError("the sheet has no sheetData element")
    prefix = data.group(1)
    if data.group(2) == b"/>":
        open_tag = xml[data.start():data.end() - 2].rstrip() + b">"
        body = _patch_rows(b"", prefix, by_row)
        return (xml[:data.start()] + open_tag + body + b"</" + prefix + b"sheetData>"
                + xml[data.end():])
    close = b"</" + prefix + b"sheetData>"
    end = xml.index(close, data.end())
    return xml[:data.end()] + _patch_rows(xml[data.end():end], prefix, by_row) + xml[end:]


def sheet_parts(archive: zipfile.ZipFile, shown: str = "") -> dict[str, str]:
    """Sheet name -> the zip member holding its XML."""
    import xml.etree.ElementTree as ET
    workbook = ET.fromstring(read_member(archive, archive.getinfo(WORKBOOK_PART), shown))
    rels = ET.fromstring(read_member(archive, archive.getinfo("xl/_rels/workbook.xml.rels"), shown))
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
                posixpath.join("xl", target))
            parts[name] = path
    return parts


# calcPr's place among workbook.xml's children (ECMA-376 CT_Workbook): before these.
_AFTER_CALC_PR = (b"oleSize", b"customWorkbookViews", b"pivotCaches", b"smartTagPr",
                  b"smartTagTypes", b"webPublishing", b"fileRecoveryPr", b"webPublishObjects",
                  b"extLst")
_CALC_PR = re.compile(rb"<((?:\w+:)?)calcPr(?=[\s/>])([^>]*?)(/>|>)")
_FULL_CALC = re.compile(rb"""\s+fullCalcOnLoad\s*=\s*(?:"[^"]*"|'[^']*')""")
_CALC_ID = re.compile(rb"""(\s)calcId\s*=\s*(?:"[^"]*"|'[^']*')""")
CALC_ID = b"191029"


def set_calc_properties(xml: bytes) -> bytes:
    """workbook.xml with ``<calcPr calcId="191029">`` and no ``fullCalcOnLoad``: Excel
    (and xlwings Lite) then keep the cached values instead of recalculating on open.
    calcPr's other attributes stay; a missing calcPr is added in its schema place.

    >>> set_calc_properties(b'<workbook><sheets/><calcPr calcId="124519" fullCalcOnLoad="1"'
    ...                     b' iterate="1"/></workbook>')
    b'<workbook><sheets/><calcPr calcId="191029" iterate="1"/></workbook>'
    >>> set_calc_properties(b'<x:workbook><x:sheets/><x:extLst/></x:workbook>')
    b'<x:workbook><x:sheets/><x:calcPr calcId="191029"/><x:extLst/></x:workbook>'
    """
    found = _CALC_PR.search(xml)
    if found is not None:
        attrs = _FULL_CALC.sub(b"", found.group(2))
        if _CALC_ID.search(attrs):
            attrs = _CALC_ID.sub(rb'\1calcId="' + CALC_ID + b'"', attrs, count=1)
        else:
            attrs = b' calcId="' + CALC_ID + b'"' + attrs
        return (xml[:found.start()] + b"<" + found.group(1) + b"calcPr" + attrs
                + found.group(3) + xml[found.end():])
    root = re.search(rb"<((?:\w+:)?)workbook(?=[\s/>])", xml)
    if root is None:
        raise ValueError("workbook.xml has no workbook element")
    prefix = root.group(1)
    names = b"|".join(re.escape(prefix + n) for n in _AFTER_CALC_PR)
    later = re.compile(rb"<(?:" + names + rb")(?=[\s/>])|</" + re.escape(prefix) + rb"workbook>")
    place = later.search(xml, root.end())
    if place is None:
        raise ValueError("workbook.xml has no end")
    return xml[:place.start()] + b"<" + prefix + b'calcPr calcId="' + CALC_ID + b'"/>' + xml[place.start():]



def write_cached_values(src: Path, dst: Path,
                        values: dict[str, dict[tuple[int, int], object]],
                        charts: Lookup | None = None, shown: str | None = None) -> None:
    """Copy ``src`` to ``dst`` with the given cells' cached values set.

    ``values`` maps a sheet name to {(row, col): value}. With ``charts`` (the values of
    a series formula's cells), each chart part's value caches are refreshed too; and
    workbook.xml's calcPr says the values are current (:func:`set_calc_properties`).
    Members are copied in order, streamed, with their names, dates and compression; only
    the patched sheets', charts' and workbook.xml's bytes differ. ``dst`` appears whole
    or not at all (:func:`xlrecalc.archive.atomic_output`); ``dst`` may be
    ``src``. ``shown`` names ``src`` in messages.
    """
    shown = shown or str(src)
    with zipfile.ZipFile(src) as archive, atomic_output(Path(dst)) as stream:
        parts = sheet_parts(archive, shown)
        patches = {parts[sheet]: {key: cell_xml_value(v) for key, v in cells.items()}
                   for sheet, cells in values.items() if cells and sheet in parts}
        with zipfile.ZipFile(stream, "w") as out:
            for info in archive.infolist():
                name = info.filename
                if name in patches or name == WORKBOOK_PART or (
                        charts is not None and is_chart_part(name)):
                    data = read_member(archive, info, shown)
                    if name in patches:
                        data = patch_sheet(data, patches[name])
                    elif name == WORKBOOK_PART:
                        data = set_calc_properties(data)
                    else:
                        data = patch_chart(data, charts)  # type: ignore[arg-type]
                    out.writestr(copy.copy(info), data)
                else:
                    copy_member(archive, info, out, shown)
