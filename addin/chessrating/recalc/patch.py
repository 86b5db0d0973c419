"""Writing cached formula values into an .xlsx without re-saving it.

Only the ``<v>`` element and the ``t=`` attribute of the cells we computed change, in
the sheet parts that hold them, and the value caches of the charts
(:mod:`chessrating.recalc.charts`); every other byte of every part stays as it was, so
styles, validations, charts, drawings and other sheets survive (openpyxl would drop
charts and images if it re-saved the file).

>>> patch_sheet(b'<row r="1"><c r="A1" s="2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>',
...             {(1, 1): ("n", "0.5")})
b'<row r="1"><c r="A1" s="2"><f>1/0</f><v>0.5</v></c></row>'
"""

from __future__ import annotations

import posixpath
import re
import shutil
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from .charts import Lookup, is_chart_part, patch_chart
from .parse import column_letters, column_number

__all__ = ["sheet_parts", "patch_sheet", "write_cached_values", "cell_xml_value"]

_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CELL_RE = re.compile(rb"<((?:\w+:)?)c\b([^>]*?)(/>|>(.*?)</\1c>)", re.S)
_ROW_RE = re.compile(rb"<((?:\w+:)?)row\b([^>]*?)(/>|>(.*?)</\1row>)", re.S)
_ATTR_R = re.compile(rb'\br="([A-Z]+)(\d+)"')
_ATTR_ROW = re.compile(rb'\br="(\d+)"')
_ATTR_T = re.compile(rb'\s+t="[^"]*"')
_FORMULA = re.compile(rb"<(?:\w+:)?f\b[^>]*?(?:/>|>.*?</(?:\w+:)?f>)", re.S)
_EXT = re.compile(rb"<(?:\w+:)?extLst\b.*?</(?:\w+:)?extLst>", re.S)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")




def cell_xml_value(value: object) -> tuple[str, str]:
    """The ``t=`` kind and ``<v>`` text for a value: n, str, b or e.

    >>> cell_xml_value(3.0), cell_xml_value(0.1), cell_xml_value(True), cell_xml_value("a<b")
    (('n', '3'), ('n', '0.1'), ('b', '1'), ('str', 'a<b'))
    """
    from .values import XlErr
    if isinstance(value, XlErr):
        return ("str", value.message) if value.message else ("e", value.code)
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, (int, float)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return "n", str(int(number))
        return "n", repr(number)
    return "str", "" if value is None else str(value)


def _open_tag(prefix: bytes, attrs: bytes, kind: str) -> bytes:
    attrs = _ATTR_T.sub(b"", attrs)
    if kind != "n":
        attrs += b' t="' + kind.encode() + b'"'
    return b"<" + prefix + b"c" + attrs + b">"


def _value_xml(prefix: bytes, kind: str, text: str) -> bytes:
    text = _CONTROL.sub("", text)
    return b"<" + prefix + b"v>" + escape(text).encode("utf-8") + b"</" + prefix + b"v>"


def _rebuild(prefix: bytes, attrs: bytes, inner: bytes | None, kind: str, text: str) -> bytes:
    inner = inner or b""
    formula = _FORMULA.search(inner)
    ext = _EXT.search(inner)
    return (_open_tag(prefix, attrs, kind) + (formula.group(0) if formula else b"")
            + _value_xml(prefix, kind, text) + (ext.group(0) if ext else b"")
            + b"</" + prefix + b"c>")


def patch_sheet(xml: bytes, updates: dict[tuple[int, int], tuple[str, str]]) -> bytes:
    """Set the cached value of the cells in ``updates`` ((row, col) -> (kind, text))."""
    remaining = dict(updates)

    def replace(match: re.Match[bytes]) -> bytes:
        attrs = match.group(2)
        found = _ATTR_R.search(attrs)
        if found is None:
            return match.group(0)
        key = (int(found.group(2)), column_number(found.group(1).decode()))
        if key not in remaining:
            return match.group(0)
        kind, text = remaining.pop(key)
        return _rebuild(match.group(1), attrs, match.group(4), kind, text)

    xml = _CELL_RE.sub(replace, xml)
    if remaining:
        xml = _insert_cells(xml, remaining)
    return xml


def _new_cell(prefix: bytes, row: int, col: int, kind: str, text: str) -> bytes:
    attrs = f' r="{column_letters(col)}{row}"'.encode()
    return _open_tag(prefix, attrs, kind) + _value_xml(prefix, kind, text) + b"</" + prefix + b"c>"


def _insert_cells(xml: bytes, cells: dict[tuple[int, int], tuple[str, str]]) -> bytes:
    """Add cells that have no element yet (the range of an array formula)."""
    by_row: dict[int, dict[int, tuple[str, str]]] = {}
    for (row, col), value in cells.items():
        by_row.setdefault(row, {})[col] = value

    def fill_row(match: re.Match[bytes]) -> bytes:
        found = _ATTR_ROW.search(match.group(2))
        if found is None or int(found.group(1)) not in by_row:
            return match.group(0)
        row = int(found.group(1))
        prefix, inner = match.group(1), match.group(4) or b""
        new = by_row.pop(row)
        pieces = [(column_number(address.group(1).decode()), c.group(0))
                  for c in _CELL_RE.finditer(inner) if (address := _ATTR_R.search(c.group(2)))]
        pieces += [(col, _new_cell(prefix, row, col, *v)) for col, v in new.items()]
        pieces.sort(key=lambda p: p[0])
        body = b"".join(p[1] for p in pieces)
        return b"<" + prefix + b"row" + match.group(2) + b">" + body + b"</" + prefix + b"row>"

    xml = _ROW_RE.sub(fill_row, xml)
    if by_row:  # rows with no element at all
        data = re.search(rb"<((?:\w+:)?)sheetData\b[^>]*?(/>|>)", xml)
        if data is None:
            raise ValueError("the sheet has no sheetData element")
        prefix = data.group(1)
        rows = [(int(number.group(1)), m.group(0))
                for m in _ROW_RE.finditer(xml) if (number := _ATTR_ROW.search(m.group(2)))]
        rows += [(r, b"<" + prefix + b'row r="' + str(r).encode() + b'">'
                  + b"".join(_new_cell(prefix, r, c, *v) for c, v in sorted(cols.items()))
                  + b"</" + prefix + b"row>") for r, cols in by_row.items()]
        rows.sort(key=lambda p: p[0])
        body = b"".join(p[1] for p in rows)
        start = data.start()
        if data.group(2) == b"/>":
            end = data.end()
        else:
            end = xml.index(b"</" + prefix + b"sheetData>", start) + len(b"</" + prefix + b"sheetData>")
        open_tag = xml[start:data.end()].removesuffix(b"/>").removesuffix(b">") + b">"
        xml = xml[:start] + open_tag + body + b"</" + prefix + b"sheetData>" + xml[end:]
    return xml


def sheet_parts(archive: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> the zip member holding its XML."""
    import xml.etree.ElementTree as ET
    workbook = ET.fromstring(archive.read("xl/workbook.xml"))
    rels = ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
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


def write_cached_values(src: Path, dst: Path,
                        values: dict[str, dict[tuple[int, int], object]],
                        charts: Lookup | None = None) -> None:
    """Copy ``src`` to ``dst`` with the given cells' cached values set.

    ``values`` maps a sheet name to {(row, col): value}. With ``charts`` (the values of
    a series formula's cells), each chart part's value caches are refreshed too.
    Members are copied in order with their names, dates and compression; only the
    patched sheets' and charts' bytes differ.
    """
    with tempfile.NamedTemporaryFile(dir=Path(dst).parent, suffix=".xlsx", delete=False) as tmp:
        tmp_path = Path(tmp.name)
    try:
        with zipfile.ZipFile(src) as archive, zipfile.ZipFile(tmp_path, "w") as out:
            parts = sheet_parts(archive)
            patches = {parts[sheet]: {key: cell_xml_value(v) for key, v in cells.items()}
                       for sheet, cells in values.items() if cells and sheet in parts}
            for info in archive.infolist():
                data = archive.read(info)
                if info.filename in patches:
                    data = patch_sheet(data, patches[info.filename])
                elif charts is not None and is_chart_part(info.filename):
                    data = patch_chart(data, charts)
                out.writestr(info, data)
        # replace only once the source is closed: dst may be src itself
        shutil.move(str(tmp_path), str(dst))
    finally:
        tmp_path.unlink(missing_ok=True)
