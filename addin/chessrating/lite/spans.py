"""Where each element of an XML part starts and ends, to change a part in place.

A Lite copy changes a few elements of a part and keeps every other byte. The elements
and their byte spans come from the engine's reader (:func:`xlrecalc.every_element`, the
same expat pass the recalculation writes its values with): every element in a flat list
with its parent, its name as written and its attributes in the file's order, which a
Lite copy needs to rewrite tags. So a change lands where the XML says, whatever the
quoting, prefixes or spacing of the file, in one pass over the part (time linear in its
size). :func:`splice` then puts new bytes in place of some spans.

Refused, as no Excel-written part has them: a document type declaration (OPC forbids
DTDs; expanded entities are also how small files blow up), and any encoding but UTF-8
(the new bytes are UTF-8).

>>> found = scan(b"<a x='1&amp;2'><b/><c>t&lt;</c></a>", keep_text={"c"})
>>> [(e.name, e.attrs, e.start, e.end) for e in found]
[('a', {'x': '1&2'}, 0, 35), ('b', {}, 15, 19), ('c', {}, 19, 31)]
>>> found[2].text, splice(b"<a><b/></a>", [(3, 7, b"<b n='2'/>")])
('t<', b"<a><b n='2'/></a>")
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import IO
from xml.parsers import expat

from xlrecalc import DocumentTypeDeclared, ElementAsWritten, escape, every_element

from ..errors import RatingError

__all__ = ["ElementAsWritten", "XMLRefused", "scan", "stream", "splice", "start_tag", "prefix_of",
           "digits", "well_formed", "escape"]


class XMLRefused(RatingError):
    """A part that is not well-formed, or has a DTD, or another encoding than UTF-8."""


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


def scan(xml: bytes, keep_text: Collection[str] = (), where: str = "the part") -> list[ElementAsWritten]:
    """Every element of ``xml`` in document order, with its byte spans.

    ``keep_text``: local names whose character data is kept in ``ElementAsWritten.text``.
    ``where`` names the part in messages (the user's file and the member).
    """
    encoding = _declared_encoding(xml)
    if encoding not in (None, "utf-8", "utf8"):
        raise XMLRefused(f"{where} is encoded as {encoding}; only UTF-8 is read")
    try:
        return every_element(xml, text=keep_text, encoding="utf-8")
    except DocumentTypeDeclared:
        raise XMLRefused(f"{where} has a document type declaration (DTD), which no "
                         f"workbook part may have; refused") from None
    except ValueError as error:  # "not well-formed XML (expat's reason)"
        raise XMLRefused(f"{where} is {error}") from None


class _Stop(Exception):
    """Raised by :func:`stream`'s handler to stop reading: what was wanted is found."""


_CHUNK = 1 << 20


def stream(source: IO[bytes], visit: Callable[[str, dict[str, str], int], bool],
           where: str = "the part") -> None:
    """Each start tag of the XML read from ``source``, in document order:
    ``visit(local name, attributes, depth)``, the document element at depth 0; reading
    stops when ``visit`` returns true. The part is read a megabyte at a time and nothing
    of it is kept here, so time is linear in what is read and memory does not grow with
    the part (nor with its depth). Refused as :func:`scan` refuses.

    >>> import io
    >>> seen = []
    >>> stream(io.BytesIO(b"<x:a xmlns:x='u'><b n='1'/><c/><d/></x:a>"),
    ...        lambda name, attrs, depth: seen.append((name, attrs, depth)) or name == "c")
    >>> seen
    [('a', {'xmlns:x': 'u'}, 0), ('b', {'n': '1'}, 1), ('c', {}, 1)]
    """
    head = source.read(_CHUNK)
    encoding = _declared_encoding(head)
    if encoding not in (None, "utf-8", "utf8"):
        raise XMLRefused(f"{where} is encoded as {encoding}; only UTF-8 is read")
    parser = expat.ParserCreate("utf-8")
    depth = [0]

    def start(name: str, attrs: dict[str, str]) -> None:
        if visit(name[name.rfind(":") + 1:], attrs, depth[0]):
            raise _Stop
        depth[0] += 1

    def end(name: str) -> None:
        depth[0] -= 1

    def refuse(*args: object) -> None:
        raise XMLRefused(f"{where} has a document type declaration (DTD), which no "
                         f"workbook part may have; refused")

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = refuse
    try:
        chunk = head
        while chunk:
            parser.Parse(chunk, False)
            chunk = source.read(_CHUNK)
        parser.Parse(b"", True)
    except _Stop:
        return
    except expat.ExpatError as error:
        raise XMLRefused(f"{where} is not well-formed XML ({error})") from None


def well_formed(xml: bytes) -> str | None:
    """Why ``xml`` is not well-formed XML 1.0, or ``None`` when it is.

    >>> well_formed(b"<a x='1'/>"), well_formed(b'<a x="1"y="2"/>') is not None
    (None, True)
    >>> well_formed("<a>\x01</a>".encode()) is not None
    True
    """
    parser = expat.ParserCreate("utf-8")
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as error:
        return str(error)
    return None


def prefix_of(element: ElementAsWritten) -> str:
    """The element's namespace prefix as written: ``"x:"`` for ``x:c``, ``""`` for ``c``.

    >>> [prefix_of(e) for e in scan(b"<x:a xmlns:x='u'><b/></x:a>")]
    ['x:', '']
    """
    return element.qname[:len(element.qname) - len(element.name)]


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


# An attribute value always in double quotes, its line ends and tabs kept as references
# (an XML reader turns them into spaces otherwise).
_ATTRIBUTE = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def _quoted(value: str) -> str:
    return f'"{escape(value, _ATTRIBUTE)}"'


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``"²".isdigit()`` is true).

    >>> digits("12"), digits("²"), digits("")
    (True, False, False)
    """
    return text.isascii() and text.isdigit()
