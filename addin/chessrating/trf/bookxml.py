"""A workbook's parts read as streams by an XML parser (expat), within bounds, for
:mod:`.bookview`.

Only what :mod:`.bookview` asks for is kept: the sheets' names and parts and the
workbook-wide names (``workbook.xml`` and its relationships), which cell styles show dates
(``styles.xml``), the values of one sheet's cells in its first rows and columns (the rows
past them are never parsed), and the shared strings those cells use (the strings past the
last one used are never parsed). Nothing builds a tree: a part of a million elements
costs their callbacks, not their memory.

Every part read counts against one budget of :data:`MAX_ELEMENTS` elements, so a workbook
made of tiny elements (a sheet of cells without ``r=``, a huge ``workbook.xml``) is
refused, naming the workbook and the part, before it costs minutes; a template of 10,000
players reads about a tenth of it. Values are read as openpyxl reads them with
``data_only=True``: numbers (``int`` when written without a point or exponent), dates
where the cell's style is a date format (:func:`openpyxl.styles.numbers.is_date_format`,
:func:`openpyxl.utils.datetime.from_excel`), booleans, error codes as text, strings
shared or inline.
"""

from __future__ import annotations

import posixpath
import pyexpat
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RatingError

__all__ = ["Parts", "read_parts", "sheet_values", "shared_strings", "MAX_ELEMENTS"]

MAX_ELEMENTS = 8_000_000
_CHUNK = 1 << 20
_MAX_TEXT = 32_767  # the most characters a cell holds in Excel
_CELL = re.compile(r"([A-Z]{1,3})([0-9]+)")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class _Stop(Exception):
    """Everything wanted of the part was read."""


@dataclass
class Parts:
    """What ``workbook.xml`` and the parts beside it say: each sheet's part by its title,
    the workbook-wide names' texts, the styles that show dates and times, the shared
    strings' part, whether dates count from 1904; ``budget`` is the elements left."""

    shown: str
    sheets: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    dates: set[int] = field(default_factory=set)
    durations: set[int] = field(default_factory=set)
    strings: str | None = None
    date1904: bool = False
    budget: int = MAX_ELEMENTS


_LOCAL: dict[str, str] = {}


def _local(name: str) -> str:
    """An element's or attribute's name without its prefix (``x:c`` -> ``c``)."""
    local = _LOCAL.get(name)
    if local is None:
        local = _LOCAL.setdefault(name, name.rpartition(":")[2]) if len(_LOCAL) < 4096 \
            else name.rpartition(":")[2]
    return local


def _over_budget(parts: Parts, part: str) -> RatingError:
    return RatingError(f"book: {parts.shown}: more than {MAX_ELEMENTS:,} XML elements before "
                       f"{part} ends what is read of it; not a FIDE template")


def _parse(archive: zipfile.ZipFile, part: str, parts: Parts, start: Callable[[str, dict[str, str]], None],
           end: Callable[[str], None] | None = None, text: Callable[[str], None] | None = None,
           *, counts: bool = False) -> None:
    """Stream ``part`` through expat with the handlers given, every element counted
    against ``parts.budget`` (by ``start`` itself when it ``counts``); :class:`_Stop`
    ends it early."""
    parser = pyexpat.ParserCreate()
    parser.buffer_text = True

    def counted(name: str, attrs: dict[str, str]) -> None:
        parts.budget -= 1
        if parts.budget < 0:
            raise _over_budget(parts, part)
        start(name, attrs)
    parser.StartElementHandler = start if counts else counted
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        with archive.open(part) as stream:
            while chunk := stream.read(_CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except _Stop:
        pass
    except pyexpat.ExpatError as error:
        raise RatingError(f"book: {parts.shown}: {part} is not well-formed XML "
                          f"({pyexpat.ErrorString(error.code)}, line {error.lineno})") from None
    except KeyError:
        raise RatingError(f"book: {parts.shown}: no part {part}; not an .xlsx workbook") from None


def _relations(archive: zipfile.ZipFile, part: str, parts: Parts) -> dict[str, tuple[str, str]]:
    """Relationship id -> (type's last word, target part) of ``part``."""
    folder, name = posixpath.split(part)
    found: dict[str, tuple[str, str]] = {}

    def start(tag: str, attrs: dict[str, str]) -> None:
        if _local(tag) == "Relationship" and attrs.get("TargetMode") != "External":
            target = attrs.get("Target", "")
            target = target[1:] if target.startswith("/") else posixpath.normpath(
                posixpath.join(folder, target))
            found[attrs.get("Id", "")] = (attrs.get("Type", "").rsplit("/", 1)[-1], target)
    rels = posixpath.join(folder, "_rels", f"{name}.rels")
    if rels in archive.NameToInfo:
        _parse(archive, rels, parts, start)
    return found


def read_parts(archive: zipfile.ZipFile, shown: str) -> Parts:
    """The workbook's sheets, names, date styles and shared strings' part."""
    parts = Parts(shown)
    book = next((t for kind, t in _relations(archive, "", parts).values() if kind == "officeDocument"),
                "xl/workbook.xml")
    relations = _relations(archive, book, parts)
    name: list[str | None] = [None]
    texts: list[str] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _local(tag)
        if local == "sheet":
            rid = next((v for k, v in attrs.items() if k != "id" and _local(k) == "id"), "")
            if rid in relations:
                parts.sheets[attrs.get("name", "")] = relations[rid][1]
        elif local == "definedName" and "localSheetId" not in attrs:
            name[0] = attrs.get("name")
            texts.clear()
        elif local == "workbookPr":
            parts.date1904 = attrs.get("date1904", "0").lower() in ("1", "true")

    def end(tag: str) -> None:
        if name[0] is not None and _local(tag) == "definedName":
            parts.names[name[0]] = "".join(texts)
            name[0] = None

    def text(data: str) -> None:
        if name[0] is not None and len(texts) < 64:
            texts.append(data)
    _parse(archive, book, parts, start, end, text)
    for kind, target in relations.values():
        if kind == "styles":
            _styles(archive, target, parts)
        elif kind == "sharedStrings":
            parts.strings = target
    return parts


def _styles(archive: zipfile.ZipFile, part: str, parts: Parts) -> None:
    """The cell styles (``cellXfs``) whose number format shows a date or a duration."""
    from openpyxl.styles.numbers import builtin_format_code, is_date_format, is_timedelta_format

    formats: dict[int, str] = {}
    styles: list[int] = []
    inside = [False]

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _local(tag)
        if local == "numFmt":
            formats[int(attrs.get("numFmtId", "0") or 0)] = attrs.get("formatCode", "")
        elif local == "cellXfs":
            inside[0] = True
        elif local == "xf" and inside[0]:
            styles.append(int(attrs.get("numFmtId", "0") or 0))

    def end(tag: str) -> None:
        if _local(tag) == "cellXfs":
            inside[0] = False
    _parse(archive, part, parts, start, end)
    for index, number_format in enumerate(styles):
        code = formats.get(number_format) or builtin_format_code(number_format) or ""
        if is_date_format(code):
            parts.dates.add(index)
        if is_timedelta_format(code):
            parts.durations.add(index)


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


class _Cells:
    """Expat's handlers for a sheet: the values of the cells in the first ``rows`` rows
    and ``cols`` columns (a cell or a row without ``r=`` follows the one before)."""

    def __init__(self, parts: Parts, part: str, rows: int, cols: int, limit: int, refusal: str) -> None:
        self.parts, self.part = parts, part
        self.rows, self.cols, self.limit, self.refusal = rows, cols, limit, refusal
        self.row = self.col = 0
        self.found: dict[tuple[int, int], tuple[str, str, int]] = {}
        self.kind, self.style = "n", 0
        self.keep = self.collect = False
        self.text: list[str] = []
        self.size = 0

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.parts.budget -= 1
        if self.parts.budget < 0:
            raise _over_budget(self.parts, self.part)
        local = _LOCAL.get(tag) or _local(tag)
        if local == "c":
            ref = _CELL.fullmatch(attrs.get("r", ""))
            if ref is not None:
                self.row, self.col = int(ref[2]), _column(ref[1])
            else:
                self.col += 1
            self.keep = self.col <= self.cols
            self.kind, self.style = attrs.get("t", "n"), int(attrs.get("s", "0") or 0)
            self.text, self.size = [], 0
        elif local == "row":
            r = attrs.get("r", "")
            self.row = int(r) if r.isdigit() else self.row + 1
            self.col = 0
            if self.row > self.rows:
                raise _Stop
        elif self.keep and (local == "v" or (local == "t" and self.kind == "inlineStr")):
            self.collect = True
        elif local == "rPh":  # a phonetic run is no part of the text
            self.collect = False

    def end(self, tag: str) -> None:
        local = _local(tag)
        if local in ("v", "t"):
            self.collect = False
        elif local == "c" and self.keep and self.text:
            self.found[(self.row, self.col)] = (self.kind, "".join(self.text), self.style)
            self.keep = False
            if len(self.found) > self.limit:
                raise RatingError(self.refusal)

    def data(self, text: str) -> None:
        if self.collect and self.size < _MAX_TEXT:
            self.text.append(text)
            self.size += len(text)


def sheet_values(archive: zipfile.ZipFile, part: str, parts: Parts, rows: int, cols: int,
                 limit: int, refusal: str) -> dict[tuple[int, int], tuple[str, str, int]]:
    """(type, text, style) of each cell holding a value in the first ``rows`` rows and
    ``cols`` columns of the sheet ``part``, refused (``refusal``) past ``limit`` of them;
    :func:`value` reads them."""
    cells = _Cells(parts, part, rows, cols, limit, refusal)
    _parse(archive, part, parts, cells.start, cells.end, cells.data, counts=True)
    return cells.found


def shared_strings(archive: zipfile.ZipFile, parts: Parts, wanted: set[int]) -> dict[int, str]:
    """The shared strings of the indexes ``wanted``, read up to the last of them."""
    found: dict[int, str] = {}
    if not wanted or parts.strings is None:
        return found
    last = max(wanted)
    index = [-1]
    texts: list[str] = []
    collect = [False]

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _local(tag)
        if local == "si":
            index[0] += 1
            if index[0] > last:
                raise _Stop
            texts.clear()
        elif local == "t":
            collect[0] = index[0] in wanted
        elif local == "rPh":
            collect[0] = False

    def end(tag: str) -> None:
        local = _local(tag)
        if local == "t":
            collect[0] = False
        elif local == "si" and index[0] in wanted:
            found[index[0]] = "".join(texts)[:_MAX_TEXT]

    def text(data: str) -> None:
        if collect[0] and len(texts) < 1024:
            texts.append(data)
    _parse(archive, parts.strings, parts, start, end, text)
    return found


def value(kind: str, text: str, style: int, parts: Parts, strings: dict[int, str], where: str) -> Any:
    """A cell's value as openpyxl gives it (``data_only``); ``where`` names the cell."""
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel, from_ISO8601

    if kind == "s":
        if not text.strip().isdigit() or int(text) not in strings:
            raise RatingError(f"book: {parts.shown}: {where} refers to shared string {text!r}, "
                              "which the workbook does not hold")
        return strings[int(text)]
    if kind in ("str", "inlineStr", "e"):
        return text
    if kind == "b":
        return text.strip() not in ("0", "false", "")
    if kind == "d":
        try:
            return from_ISO8601(text.strip())
        except ValueError:
            return text
    if not _NUMBER.fullmatch(text.strip()):
        return text  # not a number as Excel writes one: read as the text it is
    number: int | float = float(text) if any(c in text for c in ".eE") else int(text)
    if style in parts.dates:
        epoch = CALENDAR_MAC_1904 if parts.date1904 else CALENDAR_WINDOWS_1900
        try:
            return from_excel(number, epoch, timedelta=style in parts.durations)
        except (OverflowError, ValueError):
            return "#VALUE!"
    return number
