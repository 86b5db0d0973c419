"""Where each element of an XML part starts and ends, read by expat, to change a part in place.

A Lite copy changes a few elements of a part and keeps every other byte. The parser finds
the elements (:func:`scan`): expat's ``CurrentByteIndex`` gives the byte where each start
tag and each end tag begins; the end of a tag is the first ``>`` outside a quoted
attribute value from there (:func:`xlrecalc.xmlspans.tag_end`, as the recalculation
finds it). This reader keeps every element in a flat list with its parent, its name as
written and its attributes in the file's order, which a Lite copy needs to rewrite tags;
the recalculation's keeps only the elements it asks for, as a tree. So a change lands where the XML says, whatever the quoting,
prefixes or spacing of the file, in one pass over the part (time linear in its size).
:func:`splice` then puts new bytes in place of some spans.

Refused, as no Excel-written part has them: a document type declaration (OPC forbids
DTDs; expanded entities are also how small files blow up), and any encoding but UTF-8
(the new bytes are UTF-8).

>>> found = scan(b"<a x='1&amp;2'><b/><c>t&lt;</c></a>", keep_text={"c"})
>>> [(e.local, e.attrs, e.start, e.end) for e in found]
[('a', {'x': '1&2'}, 0, 35), ('b', {}, 15, 19), ('c', {}, 19, 31)]
>>> found[2].text, splice(b"<a><b/></a>", [(3, 7, b"<b n='2'/>")])
('t<', b"<a><b n='2'/></a>")
"""

from __future__ import annotations

from xml.parsers import expat
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from xlrecalc.xmlspans import tag_end

from ..errors import RatingError

__all__ = ["Element", "XMLRefused", "scan", "splice", "start_tag", "digits"]


class XMLRefused(RatingError):
    """A part that is not well-formed, or has a DTD, or another encoding than UTF-8."""


@dataclass
class Element:
    """One element: its name as written, attributes in order, where it is, its parents."""

    name: str                      # qualified, as in the file ("c", "x:c")
    attrs: dict[str, str]          # values decoded, in the file's order
    start: int                     # byte of its "<"
    start_end: int                 # byte after its start tag's ">"
    depth: int
    parent: int | None             # index of the parent in scan()'s list
    end: int = -1                  # byte after its end tag (or after the empty tag)
    text: str = ""                 # its character data, if asked for (keep_text)
    inner_end: int = -1            # byte where its end tag begins
    _parts: list[str] = field(default_factory=list, repr=False)

    @property
    def local(self) -> str:
        return self.name.rsplit(":", 1)[-1]

    @property
    def prefix(self) -> str:
        """``"x:"`` for ``x:c``, ``""`` for ``c``."""
        return self.name[:len(self.name) - len(self.local)]

    @property
    def empty(self) -> bool:
        return self.end == self.start_end


def _declared_encoding(xml: bytes) -> str | None:
    """The encoding the XML declaration names, if any (BOMs count as their encoding)."""
    if xml.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if not xml.lstrip(b"\xef\xbb\xbf").startswith(b"<?xml"):
        return None
    declaration = xml[:xml.find(b"?>") + 2]
    for quote in (b'"', b"'"):
        key = b"encoding=" + quote
        at = declaration.find(key)
        if at >= 0:
            value = declaration[at + len(key):declaration.find(quote, at + len(key))]
            return value.decode("ascii", "replace").lower()
    return None


def scan(xml: bytes, keep_text: Collection[str] = (), where: str = "the part") -> list[Element]:
    """Every element of ``xml`` in document order, with its byte spans.

    ``keep_text``: local names whose character data is kept in ``Element.text``.
    ``where`` names the part in messages (the user's file and the member).
    """
    encoding = _declared_encoding(xml)
    if encoding not in (None, "utf-8", "utf8"):
        raise XMLRefused(f"{where} is encoded as {encoding}; only UTF-8 is read")
    parser = expat.ParserCreate("utf-8")
    elements: list[Element] = []
    open_: list[int] = []

    def refuse_dtd(*_: object) -> None:
        raise XMLRefused(f"{where} has a document type declaration (DTD), which no "
                         f"workbook part may have; refused")

    def start(name: str, attributes: list[str]) -> None:
        at = parser.CurrentByteIndex
        attrs = dict(zip(attributes[::2], attributes[1::2]))
        elements.append(Element(name, attrs, at, tag_end(xml, at), len(open_),
                                open_[-1] if open_ else None))
        open_.append(len(elements) - 1)

    def end(name: str) -> None:
        element = elements[open_.pop()]
        at = parser.CurrentByteIndex
        if xml[element.start_end - 2:element.start_end] == b"/>":
            element.end = element.inner_end = element.start_end
        else:
            element.inner_end = at
            element.end = xml.find(b">", at) + 1
        if element._parts:
            element.text = "".join(element._parts)
            element._parts = []

    def text(data: str) -> None:
        if open_:
            element = elements[open_[-1]]
            if element.local in keep_text:
                element._parts.append(data)

    parser.ordered_attributes = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as error:
        raise XMLRefused(f"{where} is not well-formed XML ({error})") from None
    return elements


def splice(xml: bytes, changes: Iterable[tuple[int, int, bytes]]) -> bytes:
    """``xml`` with each (start, end) span replaced by its bytes; spans must not overlap."""
    pieces, at = [], 0
    for start, end, new in sorted(changes, key=lambda change: (change[0], change[1])):
        if start < at:
            raise ValueError("overlapping changes")
        pieces += [xml[at:start], new]
        at = end
    pieces.append(xml[at:])
    return b"".join(pieces)


def start_tag(name: str, attrs: dict[str, str], empty: bool = False) -> bytes:
    """A start tag (or an empty-element tag) with these attributes, values escaped.

    >>> start_tag("c", {"r": "A1", "s": 'a"<'})
    b'<c r="A1" s="a&quot;&lt;">'
    """
    text = "".join(f" {key}={_quoted(value)}" for key, value in attrs.items())
    return f"<{name}{text}{'/' if empty else ''}>".encode("utf-8")


def _quoted(value: str) -> str:
    quoted = quoteattr(value, {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
    if quoted.startswith("'"):  # quoteattr picks ' when the value holds "; keep "
        quoted = '"' + value.replace("&", "&amp;").replace("<", "&lt;").replace(
            ">", "&gt;").replace('"', "&quot;").replace("\n", "&#10;").replace(
            "\r", "&#13;").replace("\t", "&#9;") + '"'
    return quoted


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``"²".isdigit()`` is true).

    >>> digits("12"), digits("²"), digits("")
    (True, False, False)
    """
    return text.isascii() and text.isdigit()
