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

import hashlib
import json
import os
import posixpath
import re
import stat
import tempfile
import uuid
import zipfile
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape

from ..errors import RatingError
from ..recalc.parse import FormulaSyntaxError, parse_ref
from ..recalc.reader import SharedFormula
from ..udfs import __all__ as FUNCTION_NAMES
from .layout import CLASSIC_SETUP, paragraph_height
from .lite_code import main_py
from .lite_xml import Element, scan, splice, start_tag

__all__ = [
    "write_lite", "LiteCopy", "default_lite_output", "lite_output", "lite_formula",
    "webextension_xml", "lite_properties", "LITE_PREFIX", "ADDIN_REFERENCE", "PYODIDE_VERSION",
    "ADDIN_VERSION", "XLWINGS_REQUIREMENT", "REQUIREMENTS", "AUTO_SHOW", "LITE_SETUP", "CALC_PR",
    "keep_cached_values",
]

LITE_PREFIX = "_xldudf_"
ADDIN_REFERENCE = "wa200008175"   # xlwings Lite in Microsoft's add-in store
PYODIDE_VERSION = "0.27.5"        # as stored by the Lite-saved workbooks examined
ADDIN_VERSION = "1.0.0.0-18"
# xlwings' pure-Python wheel, the version the Lite runtime test runs the code with
XLWINGS_REQUIREMENT = "xlwings==0.37.8"
# requirements.txt begins as in the workbooks Lite saves: the lines it marks "# required"
# (xlwings at the version this code is tested with); the functions need nothing else.
REQUIREMENTS = (f"{XLWINGS_REQUIREMENT}  # required\n"
                "python-dotenv==1.1.0  # required\n"
                "pyodide-http  # required\n"
                "black  # required\n")
AUTO_SHOW = "Office.AutoShowTaskpaneWithDocument"
CALC_PR = '<calcPr calcId="191029"/>'
# The How-to paragraph of a Lite copy, in place of the classic set-up (layout.CLASSIC_SETUP).
LITE_SETUP = (
    "The formulas call the chessrating Excel functions (ELO_*, FIDE_*, USCF_*, PERF_RATING, "
    "RATING_GOAL) through xlwings Lite, in Excel on Windows, Mac and the web. Install the "
    "xlwings Lite add-in once (Home > Add-ins), open this file and click Trust and Continue "
    "in its task pane: the file carries the functions' code, and Lite downloads xlwings "
    "itself. Until then the cells keep the values they were saved with.")
CONF_SHEET = "xlwings.conf"  # the classic add-in's settings; Lite does not read it

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
# skipped (each also when left open: the pattern always goes forward, so the scan is
# linear in the text); a name directly followed by "(" is a function call.
_FORMULA_TOKEN = re.compile(
    r'"(?:[^"]|"")*+(?:"|$)|\'(?:[^\']|\'\')*+(?:\'|$)|\[(?:[^\[\]]|\[[^\]]*+\]?)*+\]?'
    r'|(?<![\w.\\])([A-Za-z_\\][\w.]*+)(?=\()')


def default_lite_output(src: Path) -> Path:
    """``BOOK-lite.xlsx`` beside ``BOOK.xlsx``."""
    return src.with_name(f"{src.stem}-lite{src.suffix or '.xlsx'}")


def lite_output(src: Path, dst: Path | None) -> Path:
    """Where the copy goes, checked before any work: ``dst``, ``BOOK-lite.xlsx`` beside
    ``src``, or that name inside ``dst`` when it is a folder. A name that is not
    ``.xlsx``/``.xlsm``, or not the input's kind, is refused (Excel would not open it)."""
    if dst is None:
        dst = default_lite_output(src)
    elif dst.is_dir():
        dst = dst / default_lite_output(src).name
    if dst.suffix.lower() not in (".xlsx", ".xlsm"):
        raise RatingError(f"{dst}: the copy must be named .xlsx (or .xlsm for a macro "
                          "workbook); nothing written")
    if src.suffix.lower() in (".xlsx", ".xlsm") and dst.suffix.lower() != src.suffix.lower():
        raise RatingError(f"{dst}: the copy must keep the input's extension "
                          f"{src.suffix.lower()}; nothing written")
    if not dst.parent.is_dir():
        raise RatingError(f"{dst}: the folder {dst.parent} does not exist; nothing written")
    if dst.exists() and not dst.is_file():
        raise RatingError(f"{dst}: not a file; nothing written")
    return dst


def lite_formula(text: str) -> tuple[str, set[str]]:
    """The formula with each call of our functions as ``_xldudf_NAME``, and the names used.

    >>> lite_formula('IF(A1="FIDE_K(",  "", fide_k(A1, 20))')
    ('IF(A1="FIDE_K(",  "", _xldudf_FIDE_K(A1, 20))', {'FIDE_K'})
    >>> lite_formula("_xldudf_FIDE_DP(0.5)+SUM(A1:A2)")
    ('_xldudf_FIDE_DP(0.5)+SUM(A1:A2)', {'FIDE_DP'})
    >>> lite_formula('"open string FIDE_DP(1)')
    ('"open string FIDE_DP(1)', set())
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


def _place(where: str) -> tuple[int, int] | None:
    """A cell's ``r=`` address as (row, column); ``None`` if it has none that reads."""
    try:
        ref = parse_ref(where)
    except (FormulaSyntaxError, ValueError):
        return None
    if ref.r1 < 1 or ref.c1 < 1:
        return None
    return ref.r1, ref.c1


def _address(row: int, col: int) -> str:
    """``(3, 28)`` -> ``AB3``."""
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


# Where a call of our functions that is not a cell's formula sits: Lite binds only cells.
_UNBOUND_KINDS = {"conditionalFormatting": "a conditional format",
                  "dataValidation": "a data validation", "dataValidations": "a data validation"}


class _SheetRewrite:
    """The changes to one sheet part: calls of our functions bound as Lite functions
    (``<c cm=…><f t="array" ref=…>_xldudf_…</f>``), and rows given new heights."""

    def __init__(self, xml: bytes, cm: str, where: str):
        self.xml = xml
        self.cm = cm
        self.where = where
        self.used: set[str] = set()
        self.unbound: list[str] = []
        self.elements = scan(xml, keep_text={"f", "v", "formula", "formula1", "formula2"},
                             where=where)
        self.cells: list[tuple[int, int, tuple[int, int] | None]] = []  # (c, f, place)
        self.string_rows: dict[str, list[int]] = {}  # shared string index -> rows
        self._locate()

    def _locate(self) -> None:
        """Each cell's place (from ``r=``, or counted as Excel counts a cell without it),
        each formula's cell, each call outside a cell."""
        row = col = 0
        row_index = -1
        cell_of: dict[int, tuple[int, tuple[int, int] | None]] = {}
        kinds: list[str | None] = []  # the kind of place each element sits in, in one pass
        for index, element in enumerate(self.elements):
            local = element.local
            kinds.append(_UNBOUND_KINDS.get(local) or
                         (kinds[element.parent] if element.parent is not None else None))
            if local == "row":
                row = int(element.attrs["r"]) if _digits(element.attrs.get("r", "")) else row + 1
                col, row_index = 0, index
            elif local == "c" and element.parent == row_index and row_index >= 0:
                place = _place(element.attrs["r"]) if "r" in element.attrs else (row, col + 1)
                if place is not None:
                    col = place[1]
                cell_of[index] = (row_index, place)
            elif local == "f" and element.parent in cell_of:
                self.cells.append((element.parent, index, cell_of[element.parent][1]))
            elif local == "v" and element.parent in cell_of and \
                    self.elements[element.parent].attrs.get("t") == "s":
                self.string_rows.setdefault(element.text.strip(), []).append(cell_of[element.parent][0])
            elif local in ("f", "formula", "formula1", "formula2") and lite_formula(element.text)[1]:
                self.unbound.append(kinds[index] or "another part of the sheet")

    def changes(self, row_heights: dict[int, float]) -> list[tuple[int, int, bytes]]:
        shared: dict[str, SharedFormula] = {}
        for c, f, place in self.cells:
            attrs = self.elements[f].attrs
            if attrs.get("t") == "shared" and "ref" in attrs and place is not None and \
                    lite_formula(self.elements[f].text)[1]:
                shared[attrs.get("si", "")] = SharedFormula(self.elements[f].text, *place)
        out: list[tuple[int, int, bytes]] = []
        for c, f, place in self.cells:
            cell, formula = self.elements[c], self.elements[f]
            f_attrs = dict(formula.attrs)
            if f_attrs.get("t") == "shared":
                master = shared.get(f_attrs.get("si", ""))
                if master is None or place is None:
                    continue
                try:
                    text = master.at(*place)
                except (FormulaSyntaxError, ValueError):
                    raise RatingError(f"{self.where}: the shared formula of cell "
                                      f"{_address(*place)} does not read") from None
            elif f_attrs.get("t") == "dataTable":
                continue
            else:
                text = formula.text
            lite, used = lite_formula(text)
            if not used:
                continue
            if place is None:
                raise RatingError(f"{self.where}: a cell calling {sorted(used)[0]} has the "
                                  f"address {cell.attrs.get('r', '')!r}, which does not read")
            self.used |= used
            where = _address(*place)
            if f_attrs.get("t") == "array":
                if not f_attrs.get("ref"):
                    f_attrs["ref"] = where
            else:
                for key in ("t", "ref", "si"):
                    f_attrs.pop(key, None)
                f_attrs = {"t": "array", "ref": where, **f_attrs}
            cell_attrs = dict(cell.attrs)
            cell_attrs["cm"] = self.cm
            out.append((cell.start, cell.start_end, start_tag(cell.name, cell_attrs)))
            out.append((formula.start, formula.end, start_tag(formula.name, f_attrs)
                        + escape(lite).encode("utf-8") + f"</{formula.name}>".encode("utf-8")))
        for index, height in row_heights.items():
            row = self.elements[index]
            if "ht" in row.attrs:
                attrs = dict(row.attrs, ht=f"{height:g}")
                out.append((row.start, row.start_end, start_tag(row.name, attrs, row.empty)))
        return out


def _dynamic_array_cm(metadata: bytes, where: str) -> str | None:
    """The ``cm`` index of the dynamic-array cell metadata in an existing metadata part."""
    elements = scan(metadata, where=where)
    types = [e for e in elements if e.local == "metadataType" and e.depth == 2]
    type_index = next((str(i + 1) for i, t in enumerate(types) if t.attrs.get("name") == "XLDAPR"), None)
    future = next((i for i, e in enumerate(elements) if e.depth == 1 and e.local == "futureMetadata"
                   and e.attrs.get("name") == "XLDAPR"), None)
    cells = next((i for i, e in enumerate(elements) if e.depth == 1 and e.local == "cellMetadata"), None)
    if type_index is None or future is None or cells is None:
        return None
    # each element's block (bk) of the future metadata or of the cell metadata, in one pass
    block: dict[int, tuple[int, int]] = {}
    counts = {future: 0, cells: 0}
    dynamic: set[str] = set()
    for i, e in enumerate(elements):
        if e.parent in counts and e.local == "bk":
            block[i] = (e.parent, counts[e.parent])
            counts[e.parent] += 1
        elif e.parent in block:
            block[i] = block[e.parent]
        else:
            continue
        owner, number = block[i]
        if owner == future and e.local == "dynamicArrayProperties" and e.attrs.get("fDynamic") == "1":
            dynamic.add(str(number))
    for i, e in enumerate(elements):
        if e.local == "rc" and i in block and block[i][0] == cells and \
                e.attrs.get("t") == type_index and e.attrs.get("v") in dynamic:
            return str(block[i][1] + 1)
    return None


def _property_value(text: str) -> str:
    """A web-extension property as Lite stores it: a JSON string, slashes escaped."""
    return json.dumps(text, ensure_ascii=False).replace("/", "\\/")


def _guid(data: bytes) -> str:
    """A GUID of the form Office writes, drawn from ``data`` (the same file, the same GUID).

    >>> _guid(b"book") == _guid(b"book") != _guid(b"other book"), len(_guid(b"book"))
    (True, 38)
    >>> str(uuid.UUID(_guid(b"book"))).upper() == _guid(b"book")[1:-1]
    True
    """
    digest = hashlib.sha256(data).digest()
    return "{" + str(uuid.UUID(bytes=digest[:16], version=4)).upper() + "}"


def lite_properties() -> dict[str, str]:
    """The properties of the Lite part, as stored (each value already encoded)."""
    return {
        "main.py": _property_value(main_py()),
        "requirements.txt": _property_value(REQUIREMENTS),
        "pyodideVersion": _property_value(PYODIDE_VERSION),
        "addinVersion": _property_value(ADDIN_VERSION),
        # Microsoft, "Automatically open a task pane with a document": the property and
        # the task pane's visibility="1" open Lite, and offer it where it is missing
        AUTO_SHOW: "true",
    }


def webextension_xml(properties: dict[str, str], function_ids: list[str],
                     guid: str = "{00000000-0000-4000-8000-000000000000}") -> str:
    """The Lite add-in's web-extension part: these properties (values as stored) and
    function ids, ``guid`` its id."""
    props = "".join(
        f'<we:property name="{escape(name)}" value="{escape(value, _QUOTE)}"/>'
        for name, value in properties.items())
    ids = "".join(f"<we:customFunctionIds>{escape(i)}</we:customFunctionIds>" for i in function_ids)
    id_list = (f"<we:customFunctionIdList>{ids}</we:customFunctionIdList>" if ids
               else "<we:customFunctionIdList/>")
    store_id = ADDIN_REFERENCE.upper()
    return (
        f'{_DECLARATION}<we:webextension xmlns:we="{_WE_NS}" id="{escape(guid, _QUOTE)}">'
        f'<we:reference id="{ADDIN_REFERENCE}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
        f'<we:alternateReferences><we:reference id="{store_id}" version="1.0.0.0" '
        f'store="{store_id}" storeType="OMEX"/></we:alternateReferences>'
        f'<we:properties>{props}</we:properties><we:bindings/>'
        f'<we:snapshot xmlns:r="{_R_NS}"/>'
        f'<we:extLst>'
        # val="1": the workbook registers custom functions (the attribute defaults to false)
        f'<a:ext xmlns:a="{_A_NS}" uri="{_URI_CONTAINS}"><we:containsCustomFunctions val="1"/></a:ext>'
        f'<a:ext xmlns:a="{_A_NS}" uri="{_URI_ID_LIST}">{id_list}</a:ext>'
        f'</we:extLst></we:webextension>')


# ------------------------------------------------------------------ package parts

def _read(archive: zipfile.ZipFile, name: str, src: Path) -> bytes:
    try:
        return archive.read(name)
    except KeyError:
        raise RatingError(f"{src}: not an Excel workbook: it has no {name}") from None


def _append(xml: bytes, entry: bytes, where: str) -> bytes:
    """``xml`` with ``entry`` as the last child of its root element."""
    root = scan(xml, where=where)[0]
    if root.empty:
        opened = start_tag(root.name, root.attrs)
        return splice(xml, [(root.start, root.end, opened + entry + f"</{root.name}>".encode())])
    return splice(xml, [(root.inner_end, root.inner_end, entry)])


def _relationships(rels: bytes, where: str) -> list[Element]:
    return [e for e in scan(rels, where=where) if e.local == "Relationship" and e.depth == 1]


def _resolve(folder: str, target: str) -> str:
    """A relationship's target as a member name (``folder`` holds the source part)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target)).lstrip("./") if folder else \
        posixpath.normpath(target)


def _add_relationship(rels: bytes, rel_type: str, target: str, where: str) -> tuple[bytes, str]:
    """One more relationship, unless one of that type already points at ``target``;
    returns the part and the relationship's id."""
    entries = _relationships(rels, where)
    for entry in entries:
        if entry.attrs.get("Type") == rel_type and entry.attrs.get("Target", "").lstrip("/") == target:
            return rels, entry.attrs.get("Id", "")
    taken = {entry.attrs.get("Id") for entry in entries}
    numbers = [int(i[3:]) for i in taken if i and i.startswith("rId") and _digits(i[3:])]
    number = max(numbers, default=0) + 1
    while f"rId{number}" in taken:
        number += 1
    prefix = scan(rels, where=where)[0].prefix
    new = start_tag(f"{prefix}Relationship",
                    {"Id": f"rId{number}", "Type": rel_type, "Target": target}, empty=True)
    return _append(rels, new, where), f"rId{number}"


def _add_override(types: bytes, part: str, content_type: str, where: str) -> bytes:
    elements = scan(types, where=where)
    if any(e.local == "Override" and e.attrs.get("PartName") == part for e in elements):
        return types
    entry = start_tag(f"{elements[0].prefix}Override", {"PartName": part, "ContentType": content_type},
                      empty=True)
    return _append(types, entry, where)


def keep_cached_values(workbook_xml: bytes, where: str = "xl/workbook.xml") -> bytes:
    """``xl/workbook.xml`` with ``<calcPr calcId="191029"/>``: Excel keeps the cached values.

    >>> keep_cached_values(b'<workbook><sheets/><calcPr fullCalcOnLoad="1" calcId="124519"/></workbook>')
    b'<workbook><sheets/><calcPr calcId="191029"/></workbook>'
    """
    elements = scan(workbook_xml, where=where)
    top = [e for e in elements if e.depth == 1]
    calc = next((e for e in top if e.local == "calcPr"), None)
    if calc is None:
        before = [e for e in top if e.local in ("sheets", "functionGroups", "externalReferences",
                                                 "definedNames")]
        if not before:
            raise RatingError(f"{where} has no sheets element")
        at = max(e.end for e in before)
        tag = start_tag(f"{elements[0].prefix}calcPr", {"calcId": "191029"}, empty=True)
        return splice(workbook_xml, [(at, at, tag)])
    attrs = {k: v for k, v in calc.attrs.items() if k != "fullCalcOnLoad"}
    attrs = {"calcId": "191029", **attrs} if "calcId" not in attrs else {**attrs, "calcId": "191029"}
    return splice(workbook_xml, [(calc.start, calc.start_end, start_tag(calc.name, attrs, calc.empty))])


# ------------------------------------------------------------------ web extensions

def _taskpanes_xml(rel_id: str) -> bytes:
    # visibility="1": the task pane opens with the workbook, and Excel offers the
    # add-in where it is not installed yet (with the AUTO_SHOW property)
    return (f'{_DECLARATION}<wetp:taskpanes xmlns:wetp="{_WETP_NS}">{_taskpane("wetp:", rel_id, 2)}'
            f'</wetp:taskpanes>').encode("utf-8")


def _taskpane(prefix: str, rel_id: str, row: int) -> str:
    return (f'<{prefix}taskpane dockstate="right" visibility="1" width="350" row="{row}">'
            f'<{prefix}webextensionref xmlns:r="{_R_NS}" r:id="{rel_id}"/></{prefix}taskpane>')


def _empty_rels() -> bytes:
    return f'{_DECLARATION}<Relationships xmlns="{_PKG_REL_NS}"></Relationships>'.encode("utf-8")


class _Extension(NamedTuple):
    part: str
    guid: str
    properties: dict[str, str]  # name -> value as stored


def _lite_extension(archive: zipfile.ZipFile, names: list[str], src: Path) -> _Extension | None:
    """The web-extension part of xlwings Lite the workbook carries, if any."""
    for name in sorted(n for n in names if n.startswith("xl/webextensions/webextension")
                       and n.endswith(".xml") and "/" not in n[len("xl/webextensions/"):]):
        elements = scan(archive.read(name), where=f"{src}: {name}")
        references = [e for e in elements if e.local == "reference" and e.depth == 1]
        if references and references[0].attrs.get("id", "").lower() == ADDIN_REFERENCE:
            properties = {e.attrs.get("name", ""): e.attrs.get("value", "")
                          for e in elements if e.local == "property"}
            return _Extension(name, elements[0].attrs.get("id", ""), properties)
    return None


def _free_part(names: list[str]) -> str:
    number = 1
    while f"xl/webextensions/webextension{number}.xml" in names:
        number += 1
    return f"xl/webextensions/webextension{number}.xml"


_CODE = ("main.py", "requirements.txt")


def _code_lines(value: str) -> str:
    try:
        text = json.loads(value)
    except ValueError:
        return "unreadable"
    count = len(str(text).splitlines())
    return f"{count} line{'' if count == 1 else 's'}"


# ------------------------------------------------------------------ the classic leftovers

def _shared_string_index(strings: bytes, text: str, where: str) -> tuple[int, Element] | None:
    """The index and element of the shared string that reads exactly ``text``."""
    elements = scan(strings, keep_text={"t"}, where=where)
    items = [i for i, e in enumerate(elements) if e.local == "si" and e.depth == 1]
    position = {i: n for n, i in enumerate(items)}
    texts: dict[int, list[str]] = {}
    item_of: list[int | None] = []  # the item each element belongs to (not in a phonetic run)
    for i, e in enumerate(elements):
        if i in position:
            item_of.append(i)
        elif e.parent is None or e.local == "rPh":
            item_of.append(None)
        else:
            item_of.append(item_of[e.parent])
        item = item_of[i]
        if e.local == "t" and item is not None:
            texts.setdefault(item, []).append(e.text)
    for index in items:
        if "".join(texts.get(index, [])) == text:
            return position[index], elements[index]
    return None


def _drop_conf_sheet(workbook: bytes, elements: list[Element], index: int, where: str) -> bytes:
    """``xl/workbook.xml`` without sheet number ``index``: its entry, its local names,
    the views' tab numbers shifted."""
    changes = [(elements[i].start, elements[i].end, b"") for i in _sheet_entries(elements)[index:index + 1]]
    for e in elements:
        if e.local == "definedName" and _digits(e.attrs.get("localSheetId", "")):
            local = int(e.attrs["localSheetId"])
            if local == index:
                changes.append((e.start, e.end, b""))
            elif local > index:
                changes.append((e.start, e.start_end,
                                start_tag(e.name, dict(e.attrs, localSheetId=str(local - 1)), e.empty)))
        elif e.local == "workbookView":
            attrs = dict(e.attrs)
            for key in ("activeTab", "firstSheet"):
                if _digits(attrs.get(key, "")) and int(attrs[key]) >= index:
                    attrs[key] = str(max(int(attrs[key]) - 1, 0) if int(attrs[key]) > index else 0)
            if attrs != e.attrs:
                changes.append((e.start, e.start_end, start_tag(e.name, attrs, e.empty)))
    return splice(workbook, changes)


def _sheet_entries(elements: list[Element]) -> list[int]:
    return [i for i, e in enumerate(elements) if e.local == "sheet" and e.parent is not None
            and elements[e.parent].local == "sheets"]


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``"²".isdigit()`` is true)."""
    return text.isascii() and text.isdigit()


def _number(text: str) -> int | None:
    return int(text) if _digits(text.strip()) else None


def _drop_titles(app: bytes, sheet: str, where: str) -> bytes:
    """``docProps/app.xml`` without the sheet's title and its named ranges' titles
    (left as it is when its lists do not read)."""
    elements = scan(app, keep_text={"lpstr", "i4"}, where=where)
    children: dict[int, list[int]] = {}
    for i, e in enumerate(elements):
        if e.parent is not None:
            children.setdefault(e.parent, []).append(i)
    quoted = "'" + sheet.replace("'", "''") + "'!"
    titles = next((i for i, e in enumerate(elements) if e.local == "TitlesOfParts"), None)
    pairs = next((i for i, e in enumerate(elements) if e.local == "HeadingPairs"), None)
    if titles is None or pairs is None or not children.get(titles) or not children.get(pairs):
        return app
    vector, pair_vector = children[titles][0], children[pairs][0]
    changes = []
    removed = {"Worksheets": 0, "Named Ranges": 0}
    for i in children.get(vector, []):
        e = elements[i]
        if e.local != "lpstr":
            continue
        if e.text == sheet:
            removed["Worksheets"] += 1
        elif e.text.startswith((sheet + "!", quoted)):
            removed["Named Ranges"] += 1
        else:
            continue
        changes.append((e.start, e.end, b""))
    size = _number(elements[vector].attrs.get("size", ""))
    if not changes or size is None:
        return app
    vec = elements[vector]
    changes.append((vec.start, vec.start_end, start_tag(
        vec.name, dict(vec.attrs, size=str(size - sum(removed.values()))))))
    variants = children.get(pair_vector, [])
    dropped = 0
    for label, count in zip(variants[::2], variants[1::2]):
        name = "".join(elements[c].text for c in children.get(label, []) if elements[c].local == "lpstr")
        number = next((elements[c] for c in children.get(count, []) if elements[c].local == "i4"), None)
        value = _number(number.text) if number is not None else None
        if number is None or value is None or not removed.get(name):
            continue
        if value > removed[name]:
            changes.append((number.start_end, number.inner_end, str(value - removed[name]).encode()))
        else:
            changes += [(elements[label].start, elements[label].end, b""),
                        (elements[count].start, elements[count].end, b"")]
            dropped += 2
    pair_size = _number(elements[pair_vector].attrs.get("size", ""))
    if dropped and pair_size is not None:
        pv = elements[pair_vector]
        changes.append((pv.start, pv.start_end, start_tag(pv.name, dict(pv.attrs, size=str(pair_size - dropped)))))
    return splice(app, changes)


# ------------------------------------------------------------------ the copy

class LiteCopy(NamedTuple):
    """What :func:`write_lite` wrote: the copy, the functions its cells call, and the
    places whose calls Lite cannot bind (only cells are bound)."""

    path: Path
    used: list[str]
    unbound: list[str]


def write_lite(src: Path | str, dst: Path | str | None = None, *,
               replace_code: bool = False) -> LiteCopy:
    """Write the xlwings Lite copy of ``src``.

    ``dst`` defaults to ``BOOK-lite.xlsx`` beside ``src`` (or that name in ``dst`` when
    it is a folder); ``dst=src`` converts in place. A workbook that already carries Lite
    code other than this package's is refused unless ``replace_code``; another add-in's
    web extension is kept beside Lite's.
    """
    from ..recalc.archive import check_archive, new_file_mode
    src = Path(src)
    if not src.is_file():
        raise RatingError(f"{src}: no such file")
    dst = lite_output(src, None if dst is None else Path(dst))
    if not zipfile.is_zipfile(src):
        raise RatingError(f"{src}: not an .xlsx workbook")
    check_archive(src)  # bounded sizes and intact members before any is read whole
    with zipfile.ZipFile(src) as archive:
        rewrites, added, removed, used, unbound = _lite_parts(archive, src, replace_code)
        written = _write_zip(archive, dst, rewrites, added, removed)
    try:  # replace only once the source is closed: dst may be src itself
        os.chmod(written, stat.S_IMODE(dst.stat().st_mode) if dst.exists() else new_file_mode())
        os.replace(written, dst)
    except OSError as error:
        raise RatingError(f"{dst}: cannot write the copy there ({error.strerror or error}); "
                          "nothing written") from None
    finally:
        written.unlink(missing_ok=True)
    return LiteCopy(dst, sorted(used), unbound)


def _lite_parts(archive: zipfile.ZipFile, src: Path, replace_code: bool
                ) -> tuple[dict[str, bytes], dict[str, bytes], set[str], set[str], list[str]]:
    """The parts the copy changes, adds and leaves out, the functions its cells call and
    where calls stay unbound."""
    names = archive.namelist()
    at = f"{src}:"
    rewrites: dict[str, bytes] = {}
    added: dict[str, bytes] = {}
    removed: set[str] = set()
    workbook = _read(archive, "xl/workbook.xml", src)
    book_rels = _read(archive, "xl/_rels/workbook.xml.rels", src)
    types = _read(archive, "[Content_Types].xml", src)
    book = scan(workbook, keep_text={"definedName"}, where=f"{at} xl/workbook.xml")
    targets = {e.attrs.get("Id"): _resolve("xl", e.attrs.get("Target", ""))
               for e in _relationships(book_rels, f"{at} xl/_rels/workbook.xml.rels")}
    sheets = [(book[i].attrs.get("name", ""), targets.get(_rid(book[i]), "")) for i in _sheet_entries(book)]

    existing = _lite_extension(archive, names, src)
    ours = lite_properties()
    if existing is not None:
        differing = [n for n in _CODE if existing.properties.get(n) not in (None, ours[n])]
        if differing and not replace_code:
            what = ", ".join(f"{n} ({_code_lines(existing.properties[n])})" for n in differing)
            raise RatingError(f"{src}: it already carries xlwings Lite code of its own: {what} "
                              f"in {existing.part}; give --replace-code to replace it; nothing written")

    # The How-to paragraph: the classic set-up gives way to Lite's.
    row_heights: dict[str, dict[int, float]] = {}
    setup_index = None
    if "xl/sharedStrings.xml" in names:
        strings = archive.read("xl/sharedStrings.xml")
        found = _shared_string_index(strings, CLASSIC_SETUP, f"{at} xl/sharedStrings.xml")
        if found is not None:
            setup_index, item = found
            text = start_tag(f"{item.prefix}t", {}) + escape(LITE_SETUP).encode("utf-8") + \
                f"</{item.prefix}t>".encode()
            rewrites["xl/sharedStrings.xml"] = splice(strings, [(item.start_end, item.inner_end, text)])

    # The classic add-in's settings sheet: Lite does not read it.
    conf = next((n for n, (name, part) in enumerate(sheets)
                 if name.lower() == CONF_SHEET and part in names), None)
    existing_metadata = archive.read(METADATA) if METADATA in names else None
    cm = _dynamic_array_cm(existing_metadata, f"{at} {METADATA}") if existing_metadata is not None else None
    if existing_metadata is not None and cm is None:
        raise RatingError(f"{src}: its {METADATA} has no dynamic-array entry to use")
    used: set[str] = set()
    unbound: list[str] = []
    for e in book:
        if e.local == "definedName" and lite_formula(e.text)[1]:
            unbound.append(f"the defined name {e.attrs.get('name', '')}")
    for n, (name, part) in enumerate(sheets):
        if part not in names:
            continue
        data = archive.read(part)
        sheet = _SheetRewrite(data, cm or "1", f"{at} {part}")
        if n == conf:
            if any(e.local == "f" for e in sheet.elements) or len(sheets) == 1:
                conf = None  # it computes something: keep it
            else:
                continue
        heights = {row: paragraph_height(LITE_SETUP)
                   for row in sheet.string_rows.get(str(setup_index), [])} if setup_index is not None else {}
        changes = sheet.changes(heights)
        used |= sheet.used
        unbound += [f"{kind} on sheet {name}" for kind in dict.fromkeys(sheet.unbound)]
        if changes:
            rewrites[part] = splice(data, changes)
    if conf is not None:
        name, part = sheets[conf]
        workbook = _drop_conf_sheet(workbook, book, conf, f"{at} xl/workbook.xml")
        rid = _rid(book[_sheet_entries(book)[conf]])
        entry = next(e for e in _relationships(book_rels, "") if e.attrs.get("Id") == rid)
        book_rels = splice(book_rels, [(entry.start, entry.end, b"")])
        override = [e for e in scan(types, where=f"{at} [Content_Types].xml")
                    if e.local == "Override" and e.attrs.get("PartName") == "/" + part]
        types = splice(types, [(e.start, e.end, b"") for e in override])
        folder, file = posixpath.split(part)
        removed |= {part, f"{folder}/_rels/{file}.rels"}
        if "docProps/app.xml" in names:
            rewrites["docProps/app.xml"] = _drop_titles(archive.read("docProps/app.xml"), name,
                                                        f"{at} docProps/app.xml")

    # Lite's web extension: its own part, beside any other add-in's.
    ids = [LITE_PREFIX + name for name in sorted(used)]
    if existing is not None:
        properties = dict(existing.properties)  # its settings as they are; the code ours
        properties.update({n: ours[n] for n in _CODE})
        part, guid = existing.part, existing.guid
    else:
        properties, part, guid = ours, _free_part(names), _guid(src.read_bytes())
    added[part] = webextension_xml(properties, ids, guid).encode("utf-8")
    rel_target = posixpath.basename(part)
    if TASKPANES not in names:
        added[TASKPANES] = _taskpanes_xml("rId1")
        added[TASKPANES_RELS], _ = _add_relationship(_empty_rels(), _REL_WEBEXTENSION, rel_target, "")
    else:
        pane_rels = archive.read(TASKPANES_RELS) if TASKPANES_RELS in names else _empty_rels()
        pane_rels, rel_id = _add_relationship(pane_rels, _REL_WEBEXTENSION, rel_target,
                                              f"{at} {TASKPANES_RELS}")
        panes = archive.read(TASKPANES)
        elements = scan(panes, where=f"{at} {TASKPANES}")
        refs = [e for e in elements if e.local == "webextensionref"]
        if not any(r.attrs.get("r:id") == rel_id for r in refs):
            rows = [int(e.attrs["row"]) for e in elements if e.local == "taskpane"
                    and _digits(e.attrs.get("row", ""))]
            pane = _taskpane(elements[0].prefix, rel_id, max(rows, default=0) + 1).encode("utf-8")
            rewrites[TASKPANES] = _append(panes, pane, f"{at} {TASKPANES}")
        (rewrites if TASKPANES_RELS in names else added)[TASKPANES_RELS] = pane_rels
    if existing_metadata is None and used:
        added[METADATA] = _METADATA_XML.encode("utf-8")
        book_rels, _ = _add_relationship(book_rels, _REL_METADATA, "metadata.xml",
                                         f"{at} xl/_rels/workbook.xml.rels")
    rewrites["xl/workbook.xml"] = keep_cached_values(workbook, f"{at} xl/workbook.xml")
    rewrites["xl/_rels/workbook.xml.rels"] = book_rels
    rewrites["_rels/.rels"], _ = _add_relationship(_read(archive, "_rels/.rels", src), _REL_TASKPANES,
                                                   TASKPANES, f"{at} _rels/.rels")
    for name, content_type in ((TASKPANES, _CT_TASKPANES), (part, _CT_WEBEXTENSION),
                               (METADATA, _CT_METADATA)):
        if name in added or name == part:
            types = _add_override(types, "/" + name, content_type, f"{at} [Content_Types].xml")
    rewrites["[Content_Types].xml"] = types
    for name in list(rewrites):  # parts left as they were keep their bytes
        if name in names and rewrites[name] == archive.read(name):
            del rewrites[name]
    return rewrites, added, removed, used, unbound


def _rid(element: Element) -> str:
    return next((v for k, v in element.attrs.items() if k.endswith(":id")), "")


def _write_zip(archive: zipfile.ZipFile, dst: Path, rewrites: dict[str, bytes],
               added: dict[str, bytes], removed: set[str]) -> Path:
    """A temporary file beside ``dst``: every member copied in order with its name, date
    and compression, the rewritten ones with their new bytes, then the new parts."""
    added = dict(added)
    try:
        with tempfile.NamedTemporaryFile(dir=dst.parent, prefix=f".{dst.name}.", suffix=".tmp",
                                         delete=False) as tmp:
            tmp_path = Path(tmp.name)
    except OSError as error:
        raise RatingError(f"{dst}: cannot write the copy there ({error.strerror or error}); "
                          "nothing written") from None
    try:
        with zipfile.ZipFile(tmp_path, "w") as out:
            stamp = (1980, 1, 1, 0, 0, 0)
            for info in archive.infolist():
                stamp = info.date_time
                if info.filename in removed:
                    continue
                if info.filename in added:
                    out.writestr(info, added.pop(info.filename))
                else:
                    out.writestr(info, rewrites.get(info.filename, archive.read(info)))
            for name, data in added.items():
                info = zipfile.ZipInfo(name, date_time=stamp)
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, data)
    except OSError as error:
        tmp_path.unlink(missing_ok=True)
        raise RatingError(f"{dst}: cannot write the copy there ({error.strerror or error}); "
                          "nothing written") from None
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return tmp_path
