"""Where the elements of an XML part lie, byte for byte, as an XML parser reads them.

One expat pass (:func:`_scan`) gives the elements with their byte offsets: where the
start tag begins and ends, where the content ends and the element ends. Writing into a
part at those offsets reads it as XML defines it: a ``<c>`` in a comment or a CDATA
section is no element, attributes may be quoted either way and come in any order, and a
``/>`` or ``>`` inside an attribute value ends nothing. Two views come out of it:

* :func:`scan`, to write values in: the elements asked for, as a tree, their names and
  attributes resolved by namespace;
* :func:`every_element`, to rewrite tags: every element in document order, each with its
  parent's place in the list, its name as written and its attributes in the file's
  order, namespace declarations included, as a new tag must repeat them.

>>> xml = b'<a><!-- <b/> --><b x="/>" y=\\'2\\'>t</b><b/></a>'
>>> top = scan(xml, lambda path: True).children[0]
>>> [(e.name, xml[e.start:e.tag_end], e.empty) for e in top.children]
[('b', b'<b x="/>" y=\\'2\\'>', False), ('b', b'<b/>', True)]
>>> first = top.children[0]
>>> xml[first.tag_end:first.content_end], attribute_span(xml, first, "y")
(b't', (25, 31))
>>> found = every_element(b"<x:a xmlns:x='u' k='1&amp;2'><x:b/><c>t&lt;</c></x:a>", text={"c"})
>>> [(e.qname, e.attrs, e.parent, e.depth, e.start, e.end) for e in found]
[('x:a', {'xmlns:x': 'u', 'k': '1&2'}, None, 0, 0, 53), ('x:b', {}, 0, 1, 29, 35), ('c', {}, 0, 1, 35, 47)]
>>> found[2].text
't<'
"""

from __future__ import annotations

import re
from xml.parsers import expat
from collections.abc import Callable, Collection, Iterator
from typing import Any

__all__ = ["Element", "ElementAsWritten", "DocumentTypeDeclared", "scan", "every_element", "walk",
           "attribute_span", "tag_end"]


class DocumentTypeDeclared(ValueError):
    """A part with a document type declaration, which no workbook part has (OPC forbids
    DTDs; expanded entities are also how small files blow up)."""


class Element:
    """An element of the part: its local name, attributes (as the parser read them: an
    unprefixed one by its name, others as ``namespace}name``), the byte offsets of its
    start tag (``start``, ``tag_end``), of the end of its content (``content_end``, the
    start of its end tag) and of its end (``end``), and the elements kept inside it.
    Its name as written and where its start tag ends are read from the bytes when asked."""

    __slots__ = ("name", "attrs", "start", "content_end", "end", "children", "text", "_xml",
                 "_tag_end", "_qname")

    def __init__(self, xml: bytes, name: str, attrs: dict[str, str], start: int):
        self._xml, self.name, self.attrs, self.start = xml, name, attrs, start
        self.content_end = self.end = -1
        self._tag_end = -1
        self._qname = b""
        self.children: list[Element] = []
        self.text = ""  # its own character data, when scanned with text=True

    @property
    def tag_end(self) -> int:
        """Just after the ``>`` of its start tag."""
        if self._tag_end < 0:
            self._tag_end = tag_end(self._xml, self.start)
        return self._tag_end

    @property
    def empty(self) -> bool:
        """Written as one empty-element tag (``<c r="A1"/>``)."""
        return self.end == self.tag_end

    def written_name(self, xml: bytes) -> bytes:
        """The element's name as its start tag spells it, prefix included."""
        if not self._qname:
            end = self.start + 1
            while xml[end] not in b" \t\r\n/>":
                end += 1
            self._qname = xml[self.start + 1:end]
        return self._qname

    def prefix(self, xml: bytes) -> bytes:
        """The namespace prefix as written, with its colon (``b"x:"``), or ``b""``."""
        name = self.written_name(xml)
        return name[:name.index(b":") + 1] if b":" in name else b""


class ElementAsWritten(Element):
    """An element as :func:`every_element` reads it: its local name (``name``) and its
    name as written (``qname``, prefix included), its attributes each by its name as
    written, its depth in the document (the root 0) and its parent's place in the list
    (``parent``, ``None`` for the root)."""

    __slots__ = ("qname", "depth", "parent", "_place")
    qname: str
    depth: int
    parent: int | None
    _place: int | None  # its own place in the list


# A start tag as XML writes it: up to the first ">" outside a quoted attribute value.
_TAG = re.compile(rb"<[^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*>")
# One attribute of a start tag: the whitespace before it, its name, "=", its quoted value.
_ATTRIBUTE = re.compile(rb"([ \t\r\n]*)([^ \t\r\n=/>]+)[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"]*\"|'[^']*')")


def tag_end(xml: bytes, start: int) -> int:
    """Just after the ``>`` of the tag that begins at ``start`` (a well-formed tag: a
    quote opens an attribute value, which only the same quote closes).

    >>> tag_end(b"<c r='A1' s='>'/><v/>", 0)
    17
    """
    found = _TAG.match(xml, start)
    if found is not None:
        return found.end()
    i = start  # no ">" after it, or an attribute value never closed
    while True:
        close = xml.find(b">", i)
        double, single = xml.find(b'"', i, close), xml.find(b"'", i, close)
        quotes = [q for q in (double, single) if q >= 0]
        if close < 0 or not quotes:
            return close + 1
        quote = min(quotes)
        i = xml.index(xml[quote:quote + 1], quote + 1) + 1


Keep = Callable[[list[str]], bool] | list[frozenset[str]]


def scan(xml: bytes, keep: Keep, text: bool | Collection[str] = False) -> Element:
    """The part's elements whose path of local names from the root (``["worksheet",
    "sheetData", "row"]``) ``keep`` accepts (or, given as a list, whose name is in
    ``keep[depth]``, the root at depth 0), as a tree under a document element (an
    element kept inside one that is not hangs from the nearest kept ancestor); with
    ``text``, each kept element's own character data, as the parser read it (given as
    local names, only those elements'). A
    document type declaration is refused (:class:`DocumentTypeDeclared`), and so is
    XML that is not well-formed (``ValueError``). Names and attributes are read with
    their namespaces, so an undeclared prefix is not well-formed. The document
    element's ``attrs`` hold the declared ``encoding``, if any."""
    return _scan(xml, keep, text)[0]


def every_element(xml: bytes, text: Collection[str] = (), encoding: str | None = None
                  ) -> list[ElementAsWritten]:
    """Every element of the part in document order, names (``qname``) and attributes as
    written, ``parent`` its parent's place in the list; the character data of the
    elements whose local name is in ``text``. ``encoding`` overrides the one the part
    declares. Refused as :func:`scan` refuses."""
    return _scan(xml, None, text, encoding)[1]


def _scan(xml: bytes, keep: Keep | None, text: bool | Collection[str],
          encoding: str | None = None) -> tuple[Element, list[ElementAsWritten]]:
    """The one pass both views share. :func:`scan`'s, given ``keep``: expat reads names
    by namespace (``namespace}local``), and the elements ``keep`` accepts hang from the
    document element as a tree. :func:`every_element`'s, ``keep`` ``None``: names as
    written, and every element also listed in document order. ``text`` is ``True`` for
    every kept element's character data, or the local names whose data is kept."""
    parser = expat.ParserCreate(encoding, "}" if keep is not None else None)
    document: Element = Element(xml, "", {}, 0) if keep is not None else _top(xml)
    document._tag_end = 0
    listed: list[ElementAsWritten] = []
    owners: list[Any] = [document]  # the kept elements open, innermost last (in
    # every_element's pass each an ElementAsWritten)
    kept: list[bool] = []
    path: list[str] = []

    levels = keep if isinstance(keep, list) else None
    accepts = None if isinstance(keep, list) else keep
    deepest = len(levels) if levels is not None else 0
    wanted = None if text is True else frozenset(text or ())

    def start(name: str, attrs: dict[str, str]) -> None:
        local = name[name.rfind("}") + 1:]
        depth = len(path)
        path.append(local)
        if levels is not None:
            if depth >= deepest or local not in levels[depth]:
                kept.append(False)
                return
        elif accepts is not None and not accepts(path):
            kept.append(False)
            return
        element = Element(xml, local, attrs, parser.CurrentByteIndex)
        owners[-1].children.append(element)
        owners.append(element)
        kept.append(True)

    # The reader's and writer's pass over a sheet (``keep`` a list of levels): the path
    # is not kept, only each open element or ``None`` where it is not kept, and each
    # name's local part is found once (expat hands the same name as the same string).
    opened: list[Element | None] = []
    # per depth, each name as expat hands it (the same string each time) -> its local
    # part where that depth keeps it, else None
    known: list[dict[str, str | None]] = [{} for _ in range(deepest)]

    def start_level(name: str, attrs: dict[str, str]) -> None:
        depth = len(opened)
        if depth < deepest:
            names = known[depth]
            local = names.get(name, "")
            if local == "":
                local = name[name.rfind("}") + 1:]
                local = names[name] = local if local in levels[depth] else None  # type: ignore[index]
            if local is not None:
                element = Element(xml, local, attrs, parser.CurrentByteIndex)
                owners[-1].children.append(element)
                owners.append(element)
                opened.append(element)
                return
        opened.append(None)

    def end_level(name: str) -> None:
        element = opened.pop()
        if element is None:
            return
        owners.pop()
        at = parser.CurrentByteIndex
        # an empty-element tag's end event comes just after its "/>"; an end tag's at "</"
        if xml[at - 1] == 62 and xml[at - 2] == 47 and element.tag_end == at:  # "/>"
            element.content_end = element.end = at
            return
        element.content_end = at
        element.end = xml.index(b">", at) + 1

    def characters_level(data: str) -> None:
        owner = opened[-1] if opened else None
        if owner is not None and (wanted is None or owner.name in wanted):
            owner.text += data

    def start_every(name: str, attrs: dict[str, str]) -> None:
        owner = owners[-1]
        element = ElementAsWritten(xml, name[name.rfind(":") + 1:], attrs, parser.CurrentByteIndex)
        element.qname, element.depth, element.parent, element._place = \
            name, len(path), owner._place, len(listed)
        path.append(name)
        owner.children.append(element)
        owners.append(element)
        listed.append(element)
        kept.append(True)

    def end(name: str) -> None:
        path.pop()
        if not kept.pop():
            return
        element = owners.pop()
        at = parser.CurrentByteIndex
        # an empty-element tag's end event comes just after its "/>"; an end tag's at "</"
        if xml[at - 2:at] == b"/>" and element.tag_end == at:
            element.content_end = element.end = at
            return
        element.content_end = at
        element.end = xml.index(b">", at) + 1

    def characters(data: str) -> None:
        if kept and kept[-1]:
            owner = owners[-1]
            if wanted is None or owner.name in wanted:
                owner.text += data

    def refuse(*args: object) -> None:
        raise DocumentTypeDeclared("the part declares a document type")

    def declaration(version: str, encoding: str | None, standalone: int) -> None:
        if encoding is not None:
            document.attrs["encoding"] = encoding

    parser.StartElementHandler = start_level if levels is not None else start if keep is not None else start_every
    parser.EndElementHandler = end_level if levels is not None else end
    if text:
        parser.buffer_text = True
        parser.CharacterDataHandler = characters_level if levels is not None else characters
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.XmlDeclHandler = declaration
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as exc:
        raise ValueError(f"not well-formed XML ({exc})") from None
    finally:  # the handlers and the parser hold each other: a cycle that would keep
        # every element alive until the cycle collector walks them all
        parser.StartElementHandler = parser.EndElementHandler = None
        parser.CharacterDataHandler = parser.XmlDeclHandler = None
        parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = None
    document.end = document.content_end = len(xml)
    return document, listed


def _top(xml: bytes) -> ElementAsWritten:
    """The document element of :func:`every_element`'s pass: the root's owner."""
    top = ElementAsWritten(xml, "", {}, 0)
    top.qname, top.depth, top.parent, top._place = "", -1, None, None
    return top


def walk(element: Element) -> Iterator[Element]:
    """The kept elements under ``element``, in document order."""
    for child in element.children:
        yield child
        yield from walk(child)


def attribute_span(xml: bytes, element: Element, name: str) -> tuple[int, int] | None:
    """The bytes of the unprefixed attribute ``name`` in ``element``'s start tag, from
    the whitespace before it to its closing quote, or ``None``."""
    i = element.start + 1 + len(element.written_name(xml))
    limit = element.tag_end
    wanted = name.encode()
    while i < limit:
        found = _ATTRIBUTE.match(xml, i, limit)
        if found is None:
            return None
        if found[2] == wanted:
            return found.start(), found.end()
        i = found.end()
    return None
