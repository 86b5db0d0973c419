"""The package parts a Lite copy changes besides its sheets, each changed in place.

Relationships and content types gain entries, ``xl/workbook.xml`` keeps its cached
values, and the classic add-in's leftovers go: the ``xlwings.conf`` sheet (its entry,
local names and document-property titles) and the How-to paragraph on the classic
set-up (found among the shared strings). Every part is read with expat
(:mod:`.spans`) and changed at the byte spans it reports.
"""

from __future__ import annotations

import posixpath
import zipfile
from pathlib import Path

from ..errors import RatingError
from .spans import ElementAsWritten, digits, prefix_of, scan, splice, start_tag

__all__ = ["read_part", "append_child", "relationships", "resolve", "add_relationship",
           "add_override", "keep_cached_values", "empty_rels", "shared_string_index", "blank_strings",
           "drop_sheet", "sheet_entries", "drop_titles", "relationship_id"]

_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


def read_part(archive: zipfile.ZipFile, name: str, src: Path) -> bytes:
    try:
        return archive.read(name)
    except KeyError:
        raise RatingError(f"{src}: not an Excel workbook: it has no {name}") from None


def append_child(xml: bytes, entry: bytes, where: str) -> bytes:
    """``xml`` with ``entry`` as the last child of its root element."""
    root = scan(xml, where=where)[0]
    if root.empty:
        opened = start_tag(root.qname, root.attrs)
        return splice(xml, [(root.start, root.end, opened + entry + f"</{root.qname}>".encode())])
    return splice(xml, [(root.content_end, root.content_end, entry)])


def relationships(rels: bytes, where: str) -> list[ElementAsWritten]:
    return [e for e in scan(rels, where=where) if e.name == "Relationship" and e.depth == 1]


def resolve(folder: str, target: str) -> str:
    """A relationship's target as a member name (``folder`` holds the source part)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target)).lstrip("./") if folder else \
        posixpath.normpath(target)


def add_relationship(rels: bytes, rel_type: str, target: str, where: str) -> tuple[bytes, str]:
    """One more relationship, unless one of that type already points at ``target``;
    returns the part and the relationship's id."""
    entries = relationships(rels, where)
    for entry in entries:
        if entry.attrs.get("Type") == rel_type and entry.attrs.get("Target", "").lstrip("/") == target:
            return rels, entry.attrs.get("Id", "")
    taken = {entry.attrs.get("Id") for entry in entries}
    numbers = [int(i[3:]) for i in taken if i and i.startswith("rId") and digits(i[3:])]
    number = max(numbers, default=0) + 1
    while f"rId{number}" in taken:
        number += 1
    prefix = prefix_of(scan(rels, where=where)[0])
    new = start_tag(f"{prefix}Relationship",
                    {"Id": f"rId{number}", "Type": rel_type, "Target": target}, empty=True)
    return append_child(rels, new, where), f"rId{number}"


def add_override(types: bytes, part: str, content_type: str, where: str) -> bytes:
    elements = scan(types, where=where)
    if any(e.name == "Override" and e.attrs.get("PartName") == part for e in elements):
        return types
    entry = start_tag(f"{prefix_of(elements[0])}Override", {"PartName": part, "ContentType": content_type},
                      empty=True)
    return append_child(types, entry, where)


def keep_cached_values(workbook_xml: bytes, where: str = "xl/workbook.xml") -> bytes:
    """``xl/workbook.xml`` with ``<calcPr calcId="191029"/>``: Excel keeps the cached values.

    >>> keep_cached_values(b'<workbook><sheets/><calcPr fullCalcOnLoad="1" calcId="124519"/></workbook>')
    b'<workbook><sheets/><calcPr calcId="191029"/></workbook>'
    """
    elements = scan(workbook_xml, where=where)
    top = [e for e in elements if e.depth == 1]
    calc = next((e for e in top if e.name == "calcPr"), None)
    if calc is None:
        before = [e for e in top if e.name in ("sheets", "functionGroups", "externalReferences",
                                                 "definedNames")]
        if not before:
            raise RatingError(f"{where} has no sheets element")
        at = max(e.end for e in before)
        tag = start_tag(f"{prefix_of(elements[0])}calcPr", {"calcId": "191029"}, empty=True)
        return splice(workbook_xml, [(at, at, tag)])
    attrs = {k: v for k, v in calc.attrs.items() if k != "fullCalcOnLoad"}
    attrs = {"calcId": "191029", **attrs} if "calcId" not in attrs else {**attrs, "calcId": "191029"}
    return splice(workbook_xml, [(calc.start, calc.tag_end, start_tag(calc.qname, attrs, calc.empty))])


def empty_rels() -> bytes:
    return f'{_DECLARATION}<Relationships xmlns="{_PKG_REL_NS}"></Relationships>'.encode("utf-8")



def shared_string_index(strings: bytes, text: str, where: str) -> tuple[int, ElementAsWritten] | None:
    """The index and element of the shared string that reads exactly ``text``."""
    elements = scan(strings, keep_text={"t"}, where=where)
    items = [i for i, e in enumerate(elements) if e.name == "si" and e.depth == 1]
    position = {i: n for n, i in enumerate(items)}
    texts: dict[int, list[str]] = {}
    item_of: list[int | None] = []  # the item each element belongs to (not in a phonetic run)
    for i, e in enumerate(elements):
        if i in position:
            item_of.append(i)
        elif e.parent is None or e.name == "rPh":
            item_of.append(None)
        else:
            item_of.append(item_of[e.parent])
        item = item_of[i]
        if e.name == "t" and item is not None:
            texts.setdefault(item, []).append(e.text)
    for index in items:
        if "".join(texts.get(index, [])) == text:
            return position[index], elements[index]
    return None


def blank_strings(strings: bytes, indices: set[int], cells_dropped: int, where: str) -> bytes:
    """The shared strings with the items at ``indices`` emptied, their numbers kept (so
    no cell's reference moves), and the count of references less ``cells_dropped``.

    >>> blank_strings(b'<sst count="3" uniqueCount="2"><si><t>a</t></si><si><t>b</t></si></sst>', {1}, 1, "")
    b'<sst count="2" uniqueCount="2"><si><t>a</t></si><si><t/></si></sst>'
    """
    elements = scan(strings, where=where)
    items = [e for e in elements if e.name == "si" and e.depth == 1]
    changes = [(e.tag_end, e.content_end, start_tag(f"{prefix_of(e)}t", {}, empty=True))
               for n, e in enumerate(items) if n in indices and not e.empty]
    root = elements[0]
    if digits(root.attrs.get("count", "")) and cells_dropped:
        count = max(int(root.attrs["count"]) - cells_dropped, 0)
        changes.append((root.start, root.tag_end, start_tag(root.qname, dict(root.attrs, count=str(count)))))
    return splice(strings, changes)


def drop_sheet(workbook: bytes, elements: list[ElementAsWritten], index: int, where: str) -> bytes:
    """``xl/workbook.xml`` without sheet number ``index``: its entry, its local names,
    the views' tab numbers shifted."""
    changes = [(elements[i].start, elements[i].end, b"") for i in sheet_entries(elements)[index:index + 1]]
    for e in elements:
        if e.name == "definedName" and digits(e.attrs.get("localSheetId", "")):
            local = int(e.attrs["localSheetId"])
            if local == index:
                changes.append((e.start, e.end, b""))
            elif local > index:
                changes.append((e.start, e.tag_end,
                                start_tag(e.qname, dict(e.attrs, localSheetId=str(local - 1)), e.empty)))
        elif e.name == "workbookView":
            attrs = dict(e.attrs)
            for key in ("activeTab", "firstSheet"):
                if digits(attrs.get(key, "")) and int(attrs[key]) >= index:
                    attrs[key] = str(max(int(attrs[key]) - 1, 0) if int(attrs[key]) > index else 0)
            if attrs != e.attrs:
                changes.append((e.start, e.tag_end, start_tag(e.qname, attrs, e.empty)))
    return splice(workbook, changes)


def sheet_entries(elements: list[ElementAsWritten]) -> list[int]:
    return [i for i, e in enumerate(elements) if e.name == "sheet" and e.parent is not None
            and elements[e.parent].name == "sheets"]


def _number(text: str) -> int | None:
    return int(text) if digits(text.strip()) else None


def drop_titles(app: bytes, sheet: str, where: str) -> bytes:
    """``docProps/app.xml`` without the sheet's title and its named ranges' titles
    (left as it is when its lists do not read)."""
    elements = scan(app, keep_text={"lpstr", "i4"}, where=where)
    children: dict[int, list[int]] = {}
    for i, e in enumerate(elements):
        if e.parent is not None:
            children.setdefault(e.parent, []).append(i)
    quoted = "'" + sheet.replace("'", "''") + "'!"
    titles = next((i for i, e in enumerate(elements) if e.name == "TitlesOfParts"), None)
    pairs = next((i for i, e in enumerate(elements) if e.name == "HeadingPairs"), None)
    if titles is None or pairs is None or not children.get(titles) or not children.get(pairs):
        return app
    vector, pair_vector = children[titles][0], children[pairs][0]
    changes = []
    removed = {"Worksheets": 0, "Named Ranges": 0}
    for i in children.get(vector, []):
        e = elements[i]
        if e.name != "lpstr":
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
    changes.append((vec.start, vec.tag_end, start_tag(
        vec.qname, dict(vec.attrs, size=str(size - sum(removed.values()))))))
    variants = children.get(pair_vector, [])
    dropped = 0
    for label, count in zip(variants[::2], variants[1::2]):
        name = "".join(elements[c].text for c in children.get(label, []) if elements[c].name == "lpstr")
        number = next((elements[c] for c in children.get(count, []) if elements[c].name == "i4"), None)
        value = _number(number.text) if number is not None else None
        if number is None or value is None or not removed.get(name):
            continue
        if value > removed[name]:
            changes.append((number.tag_end, number.content_end, str(value - removed[name]).encode()))
        else:
            changes += [(elements[label].start, elements[label].end, b""),
                        (elements[count].start, elements[count].end, b"")]
            dropped += 2
    pair_size = _number(elements[pair_vector].attrs.get("size", ""))
    if dropped and pair_size is not None:
        pv = elements[pair_vector]
        size_left = str(pair_size - dropped)
        changes.append((pv.start, pv.tag_end, start_tag(pv.qname, dict(pv.attrs, size=size_left))))
    return splice(app, changes)


def relationship_id(element: ElementAsWritten) -> str:
    return next((v for k, v in element.attrs.items() if k.endswith(":id")), "")
