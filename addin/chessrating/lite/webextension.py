"""The Lite add-in's web extension in a copy (:mod:`.convert`): its part and task pane.

``xl/webextensions/`` holds the Lite add-in's reference (``wa200008175``) and its
properties, as a workbook Excel saved with Lite has them: ``main.py``
(:func:`chessrating.lite.embedded.main_py`), ``requirements.txt``, ``pyodideVersion``,
``addinVersion``, each a JSON string literal, and Microsoft's
``Office.AutoShowTaskpaneWithDocument``; the ids of the functions the cells use; a task
pane that opens with the workbook.

The workbook's own web-extension parts are read within bounds: each as a stream up to
its reference (another add-in's part costs that much whatever its size), Lite's own up
to :data:`PART_LIMIT`, the task-pane list up to :data:`PANES_LIMIT`. Another add-in's
part and task pane stay as they are, Lite's beside them; Lite code the workbook already
carries is replaced only when asked.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import uuid
import zipfile
from pathlib import Path
from typing import NamedTuple

from ..errors import RatingError
from .embedded import main_py
from .parts import add_relationship, append_child, empty_rels, relationship_id
from .sheets import LITE_PREFIX
from .spans import digits, escape, prefix_of, scan, start_tag, stream

__all__ = [
    "ADDIN_REFERENCE", "PYODIDE_VERSION", "ADDIN_VERSION", "XLWINGS_REQUIREMENT",
    "PAIRING_REQUIREMENTS", "REQUIREMENTS", "AUTO_SHOW", "TASKPANES", "TASKPANES_RELS",
    "WEBEXTENSION", "PART_LIMIT", "PANES_LIMIT", "LiteExtension", "lite_properties",
    "webextension_xml", "lite_extension", "refuse_other_code", "add_web_extension",
]

ADDIN_REFERENCE = "wa200008175"   # xlwings Lite in Microsoft's add-in store
PYODIDE_VERSION = "0.27.5"        # as stored by the Lite-saved workbooks examined
ADDIN_VERSION = "1.0.0.0-18"
# xlwings' pure-Python wheel, the version the Lite runtime test runs the code with
XLWINGS_REQUIREMENT = "xlwings==0.37.8"
# The pairing engine of the script "Pair next round" and the one package it needs, at
# the versions the Lite runtime test runs. networkx is pinned to a version from PyPI:
# Pyodide's own build of networkx (3.4.2 for Pyodide 0.27) would bring numpy and
# matplotlib, which gacrux does not use; PyPI's wheel requires nothing. It comes first
# so that gacrux's own "networkx>=2.6" finds it chosen.
PAIRING_REQUIREMENTS = ("networkx==3.6.1", "gacrux==1.11.65")
# requirements.txt begins as in the workbooks Lite saves: the lines it marks "# required"
# (xlwings at the version this code is tested with); the functions need nothing else,
# the script the pairing engine.
REQUIREMENTS = (f"{XLWINGS_REQUIREMENT}  # required\n"
                "python-dotenv==1.1.0  # required\n"
                "pyodide-http  # required\n"
                "black  # required\n"
                + "".join(f"{line}\n" for line in PAIRING_REQUIREMENTS))
AUTO_SHOW = "Office.AutoShowTaskpaneWithDocument"

_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_WE_NS = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_WETP_NS = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
_URI_CONTAINS = "{D87F86FE-615C-45B5-9D79-34F1136793EB}"  # the workbook uses custom functions
_URI_ID_LIST = "{7C84B067-C214-45C3-A712-C9D94CD141B2}"   # ... these ones
_QUOTE = {'"': "&quot;"}
_REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
WEBEXTENSION = "xl/webextensions/webextension1.xml"
# The largest web-extension part of Lite read (this package's is about 0.4 MB, main.py
# and all), and the largest task-pane list (a few hundred bytes an add-in), read whole
PART_LIMIT = 16 << 20
PANES_LIMIT = 1 << 20


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
    # start_tag quotes as an attribute needs (a name kept from the workbook may hold a
    # quote; a value a line break, which a plain attribute would read back as a space)
    props = "".join(start_tag("we:property", {"name": name, "value": value}, empty=True).decode("utf-8")
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


def _taskpanes_xml(rel_id: str) -> bytes:
    # visibility="1": the task pane opens with the workbook, and Excel offers the
    # add-in where it is not installed yet (with the AUTO_SHOW property)
    return (f'{_DECLARATION}<wetp:taskpanes xmlns:wetp="{_WETP_NS}">{_taskpane("wetp:", rel_id, 2)}'
            f'</wetp:taskpanes>').encode("utf-8")


def _taskpane(prefix: str, rel_id: str, row: int) -> str:
    return (f'<{prefix}taskpane dockstate="right" visibility="1" width="350" row="{row}">'
            f'<{prefix}webextensionref xmlns:r="{_R_NS}" r:id="{rel_id}"/></{prefix}taskpane>')


class LiteExtension(NamedTuple):
    part: str
    guid: str
    properties: dict[str, str]  # name -> value as stored


def lite_extension(archive: zipfile.ZipFile, names: list[str], src: Path) -> LiteExtension | None:
    """The web-extension part of xlwings Lite the workbook carries, if any. Each part is
    read as a stream up to its reference (the first child of its root): another add-in's
    part costs that much whatever its size; Lite's own is read on for its properties,
    up to :data:`PART_LIMIT`."""
    for name in sorted(n for n in names if n.startswith("xl/webextensions/webextension")
                       and n.endswith(".xml") and "/" not in n[len("xl/webextensions/"):]):
        where = f"{src}: {name}"
        found: dict[str, str] = {}  # the root's id, and the reference's
        properties: dict[str, str] = {}

        def visit(local: str, attrs: dict[str, str], depth: int) -> bool:
            if depth == 0:
                found["guid"] = attrs.get("id", "")
            elif depth == 1 and local == "reference" and "reference" not in found:
                found["reference"] = attrs.get("id", "").lower()
                if found["reference"] != ADDIN_REFERENCE:
                    return True  # another add-in's: nothing more to read
                _within_limit(archive, name, src)
            elif local == "property" and found.get("reference") == ADDIN_REFERENCE:
                properties[attrs.get("name", "")] = attrs.get("value", "")
            return False
        with archive.open(name) as part:
            stream(part, visit, where)
        if found.get("reference") == ADDIN_REFERENCE:
            return LiteExtension(name, found.get("guid", ""), properties)
    return None


def _within_limit(archive: zipfile.ZipFile, name: str, src: Path, limit: int | None = None) -> None:
    """Refuse a web-extension part larger than ``limit``: no add-in's is near it."""
    limit = PART_LIMIT if limit is None else limit
    size = archive.getinfo(name).file_size
    if size > limit:
        raise RatingError(f"{src}: {name} holds {size / (1 << 20):.1f} MB, more than the "
                          f"{limit >> 20} MB a web-extension part is read up to; nothing written")


def _free_part(names: list[str]) -> str:
    number = 1
    while f"xl/webextensions/webextension{number}.xml" in names:
        number += 1
    return f"xl/webextensions/webextension{number}.xml"


_CODE = ("main.py", "requirements.txt")


def _code_lines(value: str) -> str:
    """How many lines a stored code property holds, for the refusal that names it."""
    try:
        text = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return "unreadable"
    if not isinstance(text, str):
        return "not a text"
    count = len(text.splitlines())
    return f"{count} line{'' if count == 1 else 's'}"


def refuse_other_code(existing: LiteExtension | None, ours: dict[str, str], src: Path,
                      replace_code: bool) -> None:
    """Lite code of the workbook's own is replaced only when asked."""
    if existing is None:
        return
    differing = [n for n in _CODE if existing.properties.get(n) not in (None, ours[n])]
    if differing and not replace_code:
        what = ", ".join(f"{n} ({_code_lines(existing.properties[n])})" for n in differing)
        raise RatingError(f"{src}: it already carries xlwings Lite code of its own: {what} "
                          f"in {existing.part}; give --replace-code to replace it; nothing written")


def add_web_extension(archive: zipfile.ZipFile, src: Path, existing: LiteExtension | None,
                      ours: dict[str, str], used: set[str], added: dict[str, bytes],
                      rewrites: dict[str, bytes]) -> str:
    """Lite's web extension: its own part, beside any other add-in's, put in ``added``
    (the task pane's parts in ``added`` or ``rewrites``); returns the part. ``used``: the
    functions the cells call."""
    ids = [LITE_PREFIX + name for name in sorted(used)]
    if existing is not None:
        properties = dict(existing.properties)  # its settings as they are; the code ours
        properties.update({n: ours[n] for n in _CODE})
        part, guid = existing.part, existing.guid
    else:
        properties, part, guid = ours, _free_part(archive.namelist()), _guid(src.read_bytes())
    added[part] = webextension_xml(properties, ids, guid).encode("utf-8")
    _add_task_pane(archive, src, posixpath.basename(part), added, rewrites)
    return part


def _add_task_pane(archive: zipfile.ZipFile, src: Path, rel_target: str, added: dict[str, bytes],
                   rewrites: dict[str, bytes]) -> None:
    """A task pane for the part, after any other add-in's."""
    at, names = f"{src}:", archive.namelist()
    if TASKPANES not in names:
        added[TASKPANES] = _taskpanes_xml("rId1")
        added[TASKPANES_RELS], _ = add_relationship(empty_rels(), _REL_WEBEXTENSION, rel_target, "")
        return
    pane_rels = archive.read(TASKPANES_RELS) if TASKPANES_RELS in names else empty_rels()
    pane_rels, rel_id = add_relationship(pane_rels, _REL_WEBEXTENSION, rel_target,
                                         f"{at} {TASKPANES_RELS}")
    _within_limit(archive, TASKPANES, src, PANES_LIMIT)
    panes = archive.read(TASKPANES)
    elements = scan(panes, where=f"{at} {TASKPANES}")
    refs = [e for e in elements if e.name == "webextensionref"]
    if not any(relationship_id(r) == rel_id for r in refs):
        rows = [int(e.attrs["row"]) for e in elements if e.name == "taskpane"
                and digits(e.attrs.get("row", ""))]
        pane = _taskpane(prefix_of(elements[0]), rel_id, max(rows, default=0) + 1).encode("utf-8")
        rewrites[TASKPANES] = append_child(panes, pane, f"{at} {TASKPANES}")
    (rewrites if TASKPANES_RELS in names else added)[TASKPANES_RELS] = pane_rels
