"""Reading an HTML page back in the tests: a strict structure check, the tables' cells,
a PNG's pixels, and a headless Chromium to render the page (Debian's ``chromium``).

:func:`check_page` parses with the standard library's :class:`html.parser.HTMLParser`
and lists what breaks the rules the published page keeps: the HTML5 doctype first,
every element closed in order (only void elements stand alone), ``<html lang>``,
``<meta charset="utf-8">``, a viewport, a non-empty ``<title>``, every ``<th>`` with a
``scope``, and nothing fetched or run: no ``script``, ``link``, ``img``, ``iframe``,
``object``, no ``src``/``href`` and no ``url(``/``@import`` in the style sheet.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FETCHING = {"script", "link", "img", "iframe", "object", "embed", "frame", "audio", "video", "source"}


@dataclass
class Cell:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""


@dataclass
class Page:
    """What a page holds, as parsed."""

    doctype: str = ""
    problems: list[str] = field(default_factory=list)
    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    title: str = ""
    text: str = ""
    tables: dict[str, list[list[Cell]]] = field(default_factory=dict)  # by class or id, row by row
    style: str = ""

    def first(self, tag: str) -> dict[str, str | None] | None:
        return next((attrs for name, attrs in self.tags if name == tag), None)


class _Strict(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.stack: list[str] = []
        self.table: list[list[Cell]] | None = None
        self.cell: Cell | None = None
        self.seen_anything = False

    def handle_decl(self, decl: str) -> None:
        if self.seen_anything:
            self.page.problems.append("the doctype is not first")
        self.page.doctype = decl
        self.seen_anything = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen_anything = True
        found = dict(attrs)
        self.page.tags.append((tag, found))
        if tag in FETCHING:
            self.page.problems.append(f"<{tag}> fetches or runs something")
        for name in ("src", "href", "srcset", "action"):
            if name in found:
                self.page.problems.append(f"<{tag} {name}=…> refers to another file")
        if any(name.startswith("on") for name in found):
            self.page.problems.append(f"<{tag}> has an event handler")
        if tag == "table":
            self.table = []
            key = found.get("id") or found.get("class") or f"table{len(self.page.tables)}"
            self.page.tables[key if key not in self.page.tables else f"{key}{len(self.page.tables)}"] = self.table
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table:
            self.cell = Cell(tag, found)
            self.table[-1].append(self.cell)
            if tag == "th" and found.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
                self.page.problems.append("a <th> without scope")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.page.problems.append(f"<{tag}/> is not a void element")
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.page.problems.append(f"</{tag}> closes a void element")
            return
        if not self.stack or self.stack[-1] != tag:
            self.page.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag in ("td", "th"):
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.seen_anything = True
        top = self.stack[-1] if self.stack else ""
        if top == "title":
            self.page.title += data
        elif top == "style":
            self.page.style += data
        else:
            self.page.text += data
            if self.cell is not None:
                self.cell.text += data


def check_page(text: str) -> Page:
    """The page parsed, with every rule it breaks in ``problems``."""
    parser = _Strict()
    parser.feed(text)
    parser.close()
    page = parser.page
    if parser.stack:
        page.problems.append(f"left open: {parser.stack}")
    if page.doctype.lower() != "doctype html":
        page.problems.append(f"doctype {page.doctype!r} is not HTML5's")
    html = page.first("html")
    if not html or not html.get("lang"):
        page.problems.append("<html> without lang")
    metas = [attrs for tag, attrs in page.tags if tag == "meta"]
    if not any((m.get("charset") or "").lower() == "utf-8" for m in metas):
        page.problems.append("no <meta charset=\"utf-8\">")
    if not any(m.get("name") == "viewport" for m in metas):
        page.problems.append("no viewport meta")
    if not page.title.strip():
        page.problems.append("no title")
    lowered = page.style.lower()
    for word in ("url(", "@import", "@font-face"):
        if word in lowered:
            page.problems.append(f"the style sheet uses {word}")
    return page


# -- PNG, as Chromium writes its screenshots (8-bit RGB or RGBA, not interlaced) ----------
def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of an 8-bit RGB(A) PNG as RGB bytes."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = depth = colour = 0
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = previous[x]
            c = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = line
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
    return width, height, rows


# -- Chromium ----------------------------------------------------------------------------
def chromium() -> str | None:
    """Debian's Chromium, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_chromium(*args: str, timeout: float = 120) -> str:
    """Headless Chromium with ``args``; its stdout."""
    exe = chromium()
    assert exe is not None
    done = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", "--disable-extensions", *args],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
