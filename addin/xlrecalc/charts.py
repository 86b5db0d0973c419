"""Refreshing the data a chart part keeps beside its formulas.

Each series of a chart names its cells (``<c:f>Sheet1!$X$5:$X$14</c:f>``) and keeps
a copy of their values (``<c:numCache>`` for numbers, ``<c:strCache>`` for labels).
Excel redraws from the cells; previews, phones and PDF converters draw from the copy,
so a copy written before the workbook was calculated draws a flat chart. Only those
cache elements change (found by an XML parser); the rest of the chart part stays byte for byte.

>>> cells = {"S!$A$1:$A$2": [2.5, None], "S!$B$1:$B$2": ["Ann", 7.0]}
>>> xml = (b'<c:ser xmlns:c="urn:c"><c:val><c:numRef><c:f>S!$A$1:$A$2</c:f><c:numCache>'
...        b'<c:formatCode>0.0</c:formatCode><c:ptCount val="2"/><c:pt idx="0"><c:v>0</c:v>'
...        b'</c:pt></c:numCache></c:numRef></c:val><c:cat><c:strRef><c:f>S!$B$1:$B$2</c:f>'
...        b'</c:strRef></c:cat></c:ser>')
>>> print(patch_chart(xml, cells.get).decode())  # doctest: +NORMALIZE_WHITESPACE
<c:ser xmlns:c="urn:c"><c:val><c:numRef><c:f>S!$A$1:$A$2</c:f><c:numCache><c:formatCode>0.0</c:formatCode><c:ptCount
val="2"/><c:pt idx="0"><c:v>2.5</c:v></c:pt></c:numCache></c:numRef></c:val><c:cat><c:strRef><c:f>S!$B$1:$B$2</c:f><c:strCache><c:ptCount
val="2"/><c:pt idx="0"><c:v>Ann</c:v></c:pt><c:pt idx="1"><c:v>7</c:v></c:pt></c:strCache></c:strRef></c:cat></c:ser>

A number Excel cannot hold (infinite, not a number) is the ``#NUM!`` error it shows:
left out of a number cache, ``#NUM!`` in a label cache, never ``inf``.

>>> huge = {"S!$A$1:$A$2": [float("inf"), 1.0]}
>>> xml = b'<c:val xmlns:c="urn:c"><c:numRef><c:f>S!$A$1:$A$2</c:f></c:numRef></c:val>'
>>> b"inf" in patch_chart(xml, huge.get), label_text(float("nan"))
(False, '#NUM!')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from .xmlspans import escape

__all__ = ["is_chart_part", "patch_chart", "Lookup", "number_text", "label_text", "escape", "unescape"]

# The values of the cells a series formula names, in order, or None when unknown.
Lookup = Callable[[str], "list[Any] | None"]

_CHART_PART = re.compile(r"xl/charts/chart\d*\.xml")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ENTITIES = {"&apos;": "'", "&quot;": '"'}


def unescape(text: str, entities: dict[str, str] | None = None) -> str:
    """The inverse of :func:`escape`, with ``entities`` replaced too, as
    ``xml.sax.saxutils.unescape`` does (``&amp;`` last).

    >>> unescape("a&lt;b &amp;quot; &quot;", _ENTITIES)
    'a<b &quot; "'
    """
    text = text.replace("&lt;", "<").replace("&gt;", ">")
    for entity, char in (entities or {}).items():
        text = text.replace(entity, char)
    return text.replace("&amp;", "&")


def is_chart_part(name: str) -> bool:
    """True for a chart's XML part inside the .xlsx.

    >>> is_chart_part("xl/charts/chart1.xml"), is_chart_part("xl/charts/_rels/chart1.xml.rels")
    (True, False)
    """
    return _CHART_PART.fullmatch(name) is not None


def number_text(value: float) -> str:
    if not math.isfinite(value):  # Excel holds no infinity: the cell shows #NUM!
        return "#NUM!"
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def label_text(value: Any) -> str | None:
    """A cell's value as a category label; ``None`` for an empty cell."""
    from .values import XlErr
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return number_text(float(value))
    if isinstance(value, XlErr):
        return value.code
    return str(value)


def _cache(prefix: bytes, kind: bytes, values: list[Any], old_format: bytes | None) -> bytes:
    """A fresh numCache or strCache for ``values``; numbers keep the old formatCode."""
    tag = prefix + (b"numCache" if kind == b"numRef" else b"strCache")
    points = []
    for index, value in enumerate(values):
        if kind == b"numRef":
            if (not isinstance(value, (int, float)) or isinstance(value, bool)
                    or not math.isfinite(value)):
                continue  # Excel leaves out the points of blank, text and error cells
            text = number_text(float(value))
        else:
            label = label_text(value)
            if label is None:
                continue
            text = _CONTROL.sub("", label)
        points.append(b'<' + prefix + b'pt idx="' + str(index).encode() + b'"><' + prefix
                      + b"v>" + escape(text).encode("utf-8") + b"</" + prefix + b"v></"
                      + prefix + b"pt>")
    head = b""
    if kind == b"numRef":
        head = old_format or b"<" + prefix + b"formatCode>General</" + prefix + b"formatCode>"
    count = b"<" + prefix + b'ptCount val="' + str(len(values)).encode() + b'"/>'
    return b"<" + tag + b">" + head + count + b"".join(points) + b"</" + tag + b">"


def _chart_path(path: list[str]) -> bool:
    """A series reference, its formula and value cache, and the cache's number format."""
    name = path[-1]
    parent = path[-2] if len(path) > 1 else ""
    return name in ("numRef", "strRef") or (
        parent in ("numRef", "strRef") and name in ("f", "numCache", "strCache")) or (
        parent == "numCache" and name == "formatCode")


def patch_chart(xml: bytes, lookup: Lookup) -> bytes:
    """Rewrite the value caches of every series reference whose cells ``lookup`` knows;
    the references, formulas and caches are found by an XML parser (:mod:`.xmlspans`)."""
    from .xmlspans import scan, walk
    edits: list[tuple[int, int, bytes]] = []
    for ref in walk(scan(xml, _chart_path, text=True)):
        if ref.name not in ("numRef", "strRef"):
            continue
        formula = next((c for c in ref.children if c.name == "f"), None)
        if formula is None:
            continue
        values = lookup(formula.text.strip())
        if values is None:
            continue
        kind = ref.name.encode()
        cache_name = "numCache" if kind == b"numRef" else "strCache"
        cache = next((c for c in ref.children if c.name == cache_name), None)
        old_format = None
        if cache is not None:
            found = next((c for c in cache.children if c.name == "formatCode"), None)
            old_format = xml[found.start:found.end] if found is not None else None
        new = _cache(ref.prefix(xml), kind, values, old_format)
        if cache is not None:
            edits.append((cache.start, cache.end, new))
        else:  # the cache follows the formula
            edits.append((formula.end, formula.end, new))
    out, done = [], 0
    for start, end, data in sorted(edits):
        out += [xml[done:start], data]
        done = end
    return b"".join(out) + xml[done:]