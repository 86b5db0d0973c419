"""Lite copies: a workbook rewritten for xlwings Lite (Excel on Windows, Mac and the web).

Excel binds a cell to an Office.js custom function, the kind xlwings Lite registers,
only when the file stores the call as ``_xldudf_NAME(…)`` in a single-cell dynamic
array (``<c cm="1"><f t="array" ref="A1">…</f>``, the ``cm`` pointing at the dynamic
array entry of ``xl/metadata.xml``); a plain ``FIDE_CHANGE(…)`` stays ``#NAME?`` under
Lite even after the functions are registered. And Lite runs the Python code stored in
the workbook's web-extension part. :func:`write_lite` writes such a copy:

* every formula that calls one of our functions is stored that way, its cached value
  kept (a shared formula that calls one is first written out cell by cell);
* ``xl/webextensions/`` holds the Lite add-in's reference (``wa200008175``) and its
  properties: ``main.py`` (:func:`chessrating.workbooks.lite_code.main_py`, the
  functions with the code they need), ``requirements.txt`` (xlwings only),
  ``pyodideVersion`` and ``addinVersion``, each a JSON string literal, as Lite writes
  them, and the ids of the functions the workbook uses;
* ``xl/workbook.xml`` keeps its cached values (``calcId 191029``, no ``fullCalcOnLoad``).

The file is changed at the zip and XML level, part by part, never re-saved by a
spreadsheet library: styles, validations, charts, drawings and the sheets that call
none of our functions keep every byte.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from ..errors import RatingError
from xlrecalc.charts import escape
from xlrecalc.parse import FormulaSyntaxError, parse_ref
from xlrecalc.reader import SharedFormula
from ..udfs import __all__ as FUNCTION_NAMES
from .lite_code import main_py

__all__ = [
    "write_lite", "default_lite_output", "lite_formula", "webextension_xml", "LITE_PREFIX",
    "ADDIN_REFERENCE", "PYODIDE_VERSION", "ADDIN_VERSION", "XLWINGS_REQUIREMENT", "CALC_PR",
    "keep_cached_values",
]

LITE_PREFIX = "_xldudf_"
ADDIN_REFERENCE = "wa200008175"   # xlwings Lite in Microsoft's add-in store
PYODIDE_VERSION = "0.27.5"        # as stored by the Lite-saved workbooks examined
ADDIN_VERSION = "1.0.0.0-18"
# xlwings' pure-Python wheel, the version the Lite runtime test runs the code with
XLWINGS_REQUIREMENT = "xlwings==0.37.8"
CALC_PR = '<calcPr calcId="191029"/>'
# fixed, so that the same workbook always gives the same bytes
WEBEXTENSION_ID = "{5F3E6B1C-2D4A-4C8E-9B7F-0A1C2E3D4B5A}"

_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_WE_NS = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_WETP_NS = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
_PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_URI_CONTAINS = "{D87F86FE-615C-45B5-9D79-34F1136793EB}"  # the workbook uses custom functions
_URI_ID_LIST = "{7C84B067-C214-45C3-A712-C9D94CD141B2}"   # ... these ones
_QUOTE = {'"': "&quot;"}
_REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
_REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
_REL_METADATA = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
_CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
_CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
_CT_METADATA = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
WEBEXTENSION = "xl/webextensions/webextension1.xml"
METADATA = "xl/metadata.xml"

# The cell metadata of a dynamic array, as Excel (and XlsxWriter) write it: cm="1".
_METADATA_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
    '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" '
    'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
    'clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
    '<futureMetadata name="XLDAPR" count="1"><bk><extLst>'
    '<ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">'
    '<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk>'
    '</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
    '</metadata>')

_NAMES = frozenset(FUNCTION_NAMES)
# In formula text: string literals, quoted sheet names and structured references are
# skipped; a name directly followed by "(" is a function call.
_FORMULA_TOKEN = re.compile(
    r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|\[(?:[^\[\]]|\[[^\]]*\])*\]'
    r'|(?<![\w.\\])([A-Za-z_\\][\w.]*)(?=\()')
_CELL = re.compile(rb"<((?:\w+:)?)c\b([^>]*?)(/>|>(.*?)</\1c>)", re.S)
_FORMULA = re.compile(rb"<((?:\w+:)?)f\b([^>]*?)(/>|>(.*?)</\1f>)", re.S)
_ATTR = re.compile(rb'\s([\w:]+)="([^"]*)"')
_CALC_PR = re.compile(rb"<((?:\w+:)?)calcPr\b[^>]*?/>|<((?:\w+:)?)calcPr\b.*?</\2calcPr>", re.S)


def default_lite_output(src: Path) -> Path:
    """``BOOK-lite.xlsx`` beside ``BOOK.xlsx``."""
    return src.with_name(f"{src.stem}-lite{src.suffix or '.xlsx'}")


def lite_formula(text: str) -> tuple[str, set[str]]:
    """The formula with each call of our functions as ``_xldudf_NAME``, and the names used.

    >>> lite_formula('IF(A1="FIDE_K(",  "", fide_k(A1, 20))')
    ('IF(A1="FIDE_K(",  "", _xldudf_FIDE_K(A1, 20))', {'FIDE_K'})
    >>> lite_formula("_xldudf_FIDE_DP(0.5)+SUM(A1:A2)")
    ('_xldudf_FIDE_DP(0.5)+SUM(A1:A2)', {'FIDE_DP'})
    """
    used: set[str] = set()

    def rename(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        upper = name.upper()
        if upper in _NAMES:
            used.add(upper)
            return LITE_PREFIX + upper
        if upper.startswith(LITE_PREFIX.upper()) and upper[len(LITE_PREFIX):] in _NAMES:
            used.add(upper[len(LITE_PREFIX):])
        return name

    return _FORMULA_TOKEN.sub(rename, text), used


def _attributes(raw: bytes) -> dict[str, str]:
    return {m.group(1).decode(): m.group(2).decode("utf-8") for m in _ATTR.finditer(raw)}


def _formula_text(inner: bytes | None) -> str:
    if not inner:
        return ""
    element = ET.fromstring(b"<f>" + inner + b"</f>")
    return element.text or ""


def _attr_xml(attrs: dict[str, str]) -> str:
    return "".join(f' {key}="{value}"' for key, value in attrs.items())


def _place(where: str) -> tuple[int, int] | None:
    """A cell's ``r=`` address as (row, column); ``None`` if it has none that reads."""
    try:
        ref = parse_ref(where)
    except FormulaSyntaxError:
        return None
    return ref.r1, ref.c1


class _SheetRewrite:
    """The calls of our functions in one sheet part, rewritten as bound Lite functions."""

    def __init__(self, cm: str):
        self.cm = cm
        self.used: set[str] = set()
        self.shared: dict[str, SharedFormula] = {}  # si -> the formula its cells share

    def _collect_shared(self, xml: bytes) -> None:
        for cell in _CELL.finditer(xml):
            formula = _FORMULA.search(cell.group(4) or b"")
            if formula is None:
                continue
            attrs = _attributes(formula.group(2))
            if attrs.get("t") == "shared" and "ref" in attrs and formula.group(4):
                text = _formula_text(formula.group(4))
                at = _place(_attributes(cell.group(2)).get("r", ""))
                if lite_formula(text)[1] and at is not None:
                    self.shared[attrs.get("si", "")] = SharedFormula(text, *at)

    def _text_of(self, where: str, attrs: dict[str, str], inner: bytes | None) -> str | None:
        """The formula text of a cell, a shared formula's written out for the cell."""
        if attrs.get("t") == "shared":
            formula = self.shared.get(attrs.get("si", ""))
            at = _place(where)
            return None if formula is None or at is None else formula.at(*at)
        if attrs.get("t") == "dataTable":
            return None
        return _formula_text(inner)

    def rewrite(self, xml: bytes) -> bytes:
        self._collect_shared(xml)

        def cell(match: re.Match[bytes]) -> bytes:
            prefix, raw_attrs, inner = match.group(1), match.group(2), match.group(4)
            found = _FORMULA.search(inner or b"")
            if found is None:
                return match.group(0)
            cell_attrs = _attributes(raw_attrs)
            f_attrs = _attributes(found.group(2))
            where = cell_attrs.get("r", "")
            text = self._text_of(where, f_attrs, found.group(4))
            if text is None:
                return match.group(0)
            lite, used = lite_formula(text)
            if not used:
                return match.group(0)
            self.used |= used
            if f_attrs.get("t") == "array":
                f_attrs.setdefault("ref", where)
            else:
                for key in ("t", "ref", "si"):
                    f_attrs.pop(key, None)
                f_attrs = {"t": "array", "ref": where, **f_attrs}
            cell_attrs["cm"] = self.cm
            f_prefix = found.group(1).decode()
            new_f = (f"<{f_prefix}f{_attr_xml(f_attrs)}>{escape(lite)}</{f_prefix}f>").encode("utf-8")
            body = (inner or b"")
            body = body[:found.start()] + new_f + body[found.end():]
            tag = prefix.decode()
            return f"<{tag}c{_attr_xml(cell_attrs)}>".encode("utf-8") + body + f"</{tag}c>".encode()

        return _CELL.sub(cell, xml)


def _dynamic_array_cm(metadata: bytes | None) -> str | None:
    """The ``cm`` index of the dynamic-array cell metadata in an existing metadata part."""
    if metadata is None:
        return None
    root = ET.fromstring(metadata)
    local = [child for child in root]
    types = [e for c in local if c.tag.endswith("}metadataTypes") for e in c]
    type_index = next((i + 1 for i, t in enumerate(types) if t.get("name") == "XLDAPR"), None)
    future = next((c for c in local if c.tag.endswith("}futureMetadata") and c.get("name") == "XLDAPR"), None)
    if type_index is None or future is None:
        return None
    dynamic = [i for i, bk in enumerate(future)
               if any(e.tag.endswith("}dynamicArrayProperties") and e.get("fDynamic") == "1"
                      for e in bk.iter())]
    cells = next((c for c in local if c.tag.endswith("}cellMetadata")), None)
    if not dynamic or cells is None:
        return None
    for index, bk in enumerate(cells):
        for rc in bk.iter():
            if rc.tag.endswith("}rc") and rc.get("t") == str(type_index) and \
                    rc.get("v") in {str(i) for i in dynamic}:
                return str(index + 1)
    return None


def _property_value(text: str) -> str:
    """A web-extension property as Lite stores it: a JSON string, slashes escaped."""
    return json.dumps(text, ensure_ascii=False).replace("/", "\\/")


def webextension_xml(properties: dict[str, str], function_ids: list[str]) -> str:
    """The Lite add-in's web-extension part with these properties and function ids."""
    props = "".join(
        f'<we:property name="{escape(name)}" value="{escape(_property_value(text), _QUOTE)}"/>'
        for name, text in properties.items())
    ids = "".join(f"<we:customFunctionIds>{escape(i)}</we:customFunctionIds>" for i in function_ids)
    id_list = (f"<we:customFunctionIdList>{ids}</we:customFunctionIdList>" if ids
               else "<we:customFunctionIdList/>")
    store_id = ADDIN_REFERENCE.upper()
    return (
        f'{_DECLARATION}<we:webextension xmlns:we="{_WE_NS}" id="{WEBEXTENSION_ID}">'
        f'<we:reference id="{ADDIN_REFERENCE}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
        f'<we:alternateReferences><we:reference id="{store_id}" version="1.0.0.0" '
        f'store="{store_id}" storeType="OMEX"/></we:alternateReferences>'
        f'<we:properties>{props}</we:properties><we:bindings/>'
        f'<we:snapshot xmlns:r="{_R_NS}"/>'
        f'<we:extLst>'
        f'<a:ext xmlns:a="{_A_NS}" uri="{_URI_CONTAINS}"><we:containsCustomFunctions/></a:ext>'
        f'<a:ext xmlns:a="{_A_NS}" uri="{_URI_ID_LIST}">{id_list}</a:ext>'
        f'</we:extLst></we:webextension>')


def _taskpanes_xml() -> str:
    # visibility="1": the task pane opens with the workbook, and Excel offers the
    # add-in where it is not installed yet
    return (f'{_DECLARATION}<wetp:taskpanes xmlns:wetp="{_WETP_NS}">'
            f'<wetp:taskpane dockstate="right" visibility="1" width="350" row="2">'
            f'<wetp:webextensionref xmlns:r="{_R_NS}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>')


def _taskpanes_rels() -> str:
    return (f'{_DECLARATION}<Relationships xmlns="{_PKG_REL_NS}">'
            f'<Relationship Id="rId1" Type="{_REL_WEBEXTENSION}" Target="webextension1.xml"/>'
            f'</Relationships>')


def _add_relationship(rels: bytes, rel_type: str, target: str) -> bytes:
    """One more relationship, unless one of that type already points at ``target``."""
    text = rels.decode("utf-8")
    if re.search(rf'Type="{re.escape(rel_type)}"[^>]*Target="/?{re.escape(target)}"', text) or \
            re.search(rf'Target="/?{re.escape(target)}"[^>]*Type="{re.escape(rel_type)}"', text):
        return rels
    taken = {int(n) for n in re.findall(r'Id="rId(\d+)"', text)}
    new_id = max(taken, default=0) + 1
    entry = f'<Relationship Id="rId{new_id}" Type="{rel_type}" Target="{target}"/>'
    return text.replace("</Relationships>", entry + "</Relationships>", 1).encode("utf-8")


def _add_override(types: bytes, part: str, content_type: str) -> bytes:
    text = types.decode("utf-8")
    if f'PartName="{part}"' in text:
        return types
    entry = f'<Override PartName="{part}" ContentType="{content_type}"/>'
    return text.replace("</Types>", entry + "</Types>", 1).encode("utf-8")


def keep_cached_values(workbook_xml: bytes) -> bytes:
    """``xl/workbook.xml`` with ``<calcPr calcId="191029"/>``: Excel keeps the cached values."""
    found = _CALC_PR.search(workbook_xml)
    if found is None:
        for closing in (b"</definedNames>", b"</externalReferences>", b"</functionGroups>", b"</sheets>"):
            at = workbook_xml.find(closing)
            if at >= 0:
                at += len(closing)
                return workbook_xml[:at] + CALC_PR.encode() + workbook_xml[at:]
        raise RatingError("workbook: xl/workbook.xml has no sheets element")
    element = found.group(0)
    element = re.sub(rb'\s+fullCalcOnLoad="[^"]*"', b"", element)
    if re.search(rb'\bcalcId="', element):
        element = re.sub(rb'\bcalcId="[^"]*"', b'calcId="191029"', element)
    else:
        element = re.sub(rb"calcPr\b", b'calcPr calcId="191029"', element, count=1)
    return workbook_xml[:found.start()] + element + workbook_xml[found.end():]


def _lite_webextension(archive: zipfile.ZipFile) -> str | None:
    """The web-extension part of the Lite add-in the workbook already carries, if any."""
    for name in archive.namelist():
        if name.startswith("xl/webextensions/webextension") and name.endswith(".xml"):
            if ADDIN_REFERENCE.encode() in archive.read(name).lower():
                return name
    if TASKPANES in archive.namelist():
        raise RatingError("workbook: it carries another Office add-in's task pane; "
                          "a Lite copy of it cannot be written")
    return None


def write_lite(src: Path | str, dst: Path | str | None = None) -> tuple[Path, list[str]]:
    """Write the xlwings Lite copy of ``src``; returns its path and the functions it calls.

    ``dst`` defaults to ``BOOK-lite.xlsx`` beside ``src``; ``dst=src`` converts in place.
    A workbook that already carries Lite's part (a Lite copy, or a file saved by Excel
    with Lite) gets this package's ``main.py`` and ``requirements.txt`` in it.
    """
    from xlrecalc.archive import check_archive, new_file_mode
    from xlrecalc.patch import sheet_parts
    src = Path(src)
    dst = default_lite_output(src) if dst is None else Path(dst)
    if not src.is_file():
        raise RatingError(f"workbook: {src}: no such file")
    if not zipfile.is_zipfile(src):
        raise RatingError(f"workbook: {src}: not an .xlsx workbook")
    check_archive(src)  # bounded sizes and intact members before any is read whole
    with zipfile.ZipFile(src) as archive:
        names = archive.namelist()
        existing_metadata = archive.read(METADATA) if METADATA in names else None
        cm = _dynamic_array_cm(existing_metadata)
        if existing_metadata is not None and cm is None:
            raise RatingError(f"workbook: {src}: its {METADATA} has no dynamic-array entry to use")
        rewrites: dict[str, bytes] = {}
        used: set[str] = set()
        for part in sheet_parts(archive).values():
            if part not in names:
                continue
            sheet = _SheetRewrite(cm or "1")
            data = archive.read(part)
            new = sheet.rewrite(data)
            if sheet.used:
                rewrites[part] = new
                used |= sheet.used
        ids = [LITE_PREFIX + name for name in sorted(used)]
        webextension = _lite_webextension(archive) or WEBEXTENSION
        properties = {
            "main.py": main_py(),
            "requirements.txt": XLWINGS_REQUIREMENT + "\n",
            "pyodideVersion": PYODIDE_VERSION,
            "addinVersion": ADDIN_VERSION,
        }
        added: dict[str, bytes] = {webextension: webextension_xml(properties, ids).encode("utf-8")}
        if webextension == WEBEXTENSION and TASKPANES not in names:
            added[TASKPANES] = _taskpanes_xml().encode("utf-8")
            added[TASKPANES_RELS] = _taskpanes_rels().encode("utf-8")
        if existing_metadata is None and used:
            added[METADATA] = _METADATA_XML.encode("utf-8")
        rewrites["xl/workbook.xml"] = keep_cached_values(archive.read("xl/workbook.xml"))
        rewrites["_rels/.rels"] = _add_relationship(archive.read("_rels/.rels"), _REL_TASKPANES, TASKPANES)
        if METADATA in added:
            rewrites["xl/_rels/workbook.xml.rels"] = _add_relationship(
                archive.read("xl/_rels/workbook.xml.rels"), _REL_METADATA, "metadata.xml")
        types = archive.read("[Content_Types].xml")
        for part, content_type in ((TASKPANES, _CT_TASKPANES), (webextension, _CT_WEBEXTENSION),
                                   (METADATA, _CT_METADATA)):
            if part in added or part == webextension:
                types = _add_override(types, "/" + part, content_type)
        rewrites["[Content_Types].xml"] = types
        written = _write_zip(archive, dst.parent, rewrites, added)
    try:  # replace only once the source is closed: dst may be src itself
        os.chmod(written, stat.S_IMODE(dst.stat().st_mode) if dst.exists() else new_file_mode())
        os.replace(written, dst)
    finally:
        written.unlink(missing_ok=True)
    return dst, sorted(used)


def _write_zip(archive: zipfile.ZipFile, folder: Path, rewrites: dict[str, bytes],
               added: dict[str, bytes]) -> Path:
    """A temporary file in ``folder``: every member copied in order with its name, date
    and compression, the rewritten ones with their new bytes, then the new parts."""
    with tempfile.NamedTemporaryFile(dir=folder, suffix=".xlsx", delete=False) as tmp:
        tmp_path = Path(tmp.name)
    try:
        with zipfile.ZipFile(tmp_path, "w") as out:
            stamp = (1980, 1, 1, 0, 0, 0)
            for info in archive.infolist():
                stamp = info.date_time
                if info.filename in added:
                    out.writestr(info, added.pop(info.filename))
                else:
                    out.writestr(info, rewrites.get(info.filename, archive.read(info)))
            for name, data in added.items():
                info = zipfile.ZipInfo(name, date_time=stamp)
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, data)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return tmp_path
