"""Lite copies: a workbook rewritten for xlwings Lite (Excel on Windows, Mac and the web).

Excel binds a cell to an Office.js custom function, the kind xlwings Lite registers,
only when the file stores the call as ``_xldudf_NAME(…)`` in a single-cell dynamic
array; a plain ``FIDE_CHANGE(…)`` stays ``#NAME?`` under Lite even after the functions
are registered (:mod:`.sheets` binds the cells). And Lite runs the Python code
stored in the workbook's web-extension part. :func:`write_lite` writes such a copy:

* every formula in a cell that calls one of our functions is bound, its cached value
  kept; calls in defined names, conditional formats and validations are listed;
* ``xl/webextensions/`` holds the Lite add-in's reference (``wa200008175``) and its
  properties, as a workbook Excel saved with Lite has them: ``main.py``
  (:func:`chessrating.lite.embedded.main_py`, the functions and the script with the
  code they need), ``requirements.txt`` (the lines Lite marks required, and the
  script's pairing engine), ``pyodideVersion``,
  ``addinVersion``, each a JSON string literal, and Microsoft's
  ``Office.AutoShowTaskpaneWithDocument``; the ids of the functions the cells use
  (:mod:`.webextension`). Another add-in's web extension stays as it is, Lite's beside
  it; Lite code the workbook already carries is replaced only when asked (``replace_code``);
* ``xl/workbook.xml`` keeps its cached values (``calcId 191029``, no ``fullCalcOnLoad``);
  the classic add-in's ``xlwings.conf`` sheet and How-to paragraphs give way
  (:mod:`.parts`).

The file is changed at the zip and XML level, part by part, never re-saved by a
spreadsheet library: styles, validations, charts, drawings and the sheets that call
none of our functions keep every byte.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple

from ..errors import RatingError
from ..how_to import CLASSIC_PAIRING, CLASSIC_SETUP, paragraph_height
from .parts import (
    add_override, add_relationship, blank_strings, drop_sheet, drop_titles,
    keep_cached_values, read_part, relationship_id, relationships, resolve, sheet_entries,
    shared_string_index,
)
from .sheets import LITE_PREFIX, SheetRewrite, dynamic_array_cm, lite_formula
from .spans import digits, escape, prefix_of, scan, splice, start_tag, stream, well_formed
from .webextension import (
    ADDIN_REFERENCE, ADDIN_VERSION, AUTO_SHOW, PAIRING_REQUIREMENTS, PYODIDE_VERSION, REQUIREMENTS,
    TASKPANES, XLWINGS_REQUIREMENT, add_web_extension, lite_extension, lite_properties,
    refuse_other_code, webextension_xml,
)

__all__ = [
    "write_lite", "LiteCopy", "default_lite_output", "lite_output", "lite_formula",
    "webextension_xml", "lite_properties", "LITE_PREFIX", "ADDIN_REFERENCE", "PYODIDE_VERSION",
    "ADDIN_VERSION", "XLWINGS_REQUIREMENT", "PAIRING_REQUIREMENTS", "REQUIREMENTS", "AUTO_SHOW",
    "LITE_SETUP", "LITE_PAIRING", "LITE_PARAGRAPHS", "CALC_PR",
    "keep_cached_values",
]
CALC_PR = '<calcPr calcId="191029"/>'
# The How-to paragraph of a Lite copy, in place of the classic set-up (how_to.CLASSIC_SETUP).
LITE_SETUP = (
    "The formulas call the chessrating Excel functions (ELO_*, FIDE_*, USCF_*, PERF_RATING, "
    "RATING_GOAL) through xlwings Lite, in Excel on Windows, Mac and the web. Install the "
    "xlwings Lite add-in once (Home > Add-ins), open this file and click Trust and Continue "
    "in its task pane: the file carries the functions' code, and Lite downloads xlwings "
    "itself. Until then the cells keep the values they were saved with.")
# The FIDE Swiss template's How-to paragraph on pairing, in place of the classic one
# (how_to.CLASSIC_PAIRING).
LITE_PAIRING = (
    "Pairing the next round (FIDE Dutch system, computed by gacrux, FIDE's engine): once every "
    "game of a round has its result, click the button 'Pair next round' at the top (once the "
    "xlwings Lite task pane has started), or run the script Pair next round from the task "
    "pane: it writes the next round's opponents and colours (U for the pairing-allocated "
    "bye), results left empty. The first start downloads gacrux, the first click loads it. A "
    "player who asks for a bye gets H, B or Z in that round's result, with no opponent, before "
    "the pairing. A round with a game without a result is not paired: the task pane says which.")
# The How-to paragraphs that tell how to work in Excel: each classic one and Lite's.
LITE_PARAGRAPHS = {CLASSIC_SETUP: LITE_SETUP, CLASSIC_PAIRING: LITE_PAIRING}
CONF_SHEET = "xlwings.conf"  # the classic add-in's settings; Lite does not read it

_REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
_REL_METADATA = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
_CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
_CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
_CT_METADATA = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
METADATA = "xl/metadata.xml"
# The most XML elements of a sheet a copy rewrites: each is held with its spans while
# the sheet is bound (about 0.9 KB apiece); the largest template sheet has 96,000
SHEET_ELEMENTS = 500_000

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


def default_lite_output(src: Path) -> Path:
    """``BOOK-lite.xlsx`` beside ``BOOK.xlsx``."""
    return src.with_name(f"{src.stem}-lite{src.suffix or '.xlsx'}")


def lite_output(src: Path, dst: Path | None) -> Path:
    """Where the copy goes, checked before any work: ``dst``, ``BOOK-lite.xlsx`` beside
    ``src``, or that name inside ``dst`` when it is a folder. A name that is not
    ``.xlsx``/``.xlsm``, or not the input's kind, is refused (Excel would not open it)."""
    from xlrecalc import RecalcError, output_path
    try:  # the recalculation's check, in the copy's words
        return output_path(src, dst, default=default_lite_output(src), noun="the copy")
    except RecalcError as error:
        raise RatingError(str(error)) from None


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
    from xlrecalc import check_archive, new_file_mode
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
    parts = _Parts(archive, src)
    existing = lite_extension(archive, parts.names, src)
    ours = lite_properties()
    refuse_other_code(existing, ours, src, replace_code)
    paragraphs = parts.lite_setup()
    cm = parts.dynamic_array_cm()
    settings = parts.bind_sheets(cm, paragraphs)
    if settings is not None:
        parts.drop_settings_sheet(settings)
    part = add_web_extension(archive, src, existing, ours, parts.used, parts.added, parts.rewrites)
    parts.add_entries(part)
    for name, data in [*parts.rewrites.items(), *parts.added.items()]:
        reason = well_formed(data) if name.endswith((".xml", ".rels")) else None
        if reason is not None:  # a last check: no copy leaves with a part Excel cannot read
            raise RatingError(f"{src}: the copy's {name} would not be well-formed XML "
                              f"({reason}); nothing written")
    return parts.rewrites, parts.added, parts.removed, parts.used, parts.unbound


class _Settings(NamedTuple):
    """The classic add-in's settings sheet to leave out: its number among the sheets, the
    shared strings it shows (index -> rows) and those the kept sheets show."""

    number: int
    strings: dict[str, list[int]]
    strings_kept: set[str]


class _Parts:
    """The package as read, and what the copy changes in it, gathered section by section
    by the methods below, in the order :func:`_lite_parts` calls them."""

    def __init__(self, archive: zipfile.ZipFile, src: Path):
        self.archive, self.src, self.names, self.at = archive, src, archive.namelist(), f"{src}:"
        self.rewrites: dict[str, bytes] = {}
        self.added: dict[str, bytes] = {}
        self.removed: set[str] = set()
        self.used: set[str] = set()
        self.unbound: list[str] = []
        self.workbook = read_part(archive, "xl/workbook.xml", src)
        self.book_rels = read_part(archive, "xl/_rels/workbook.xml.rels", src)
        self.types = read_part(archive, "[Content_Types].xml", src)
        self.book = scan(self.workbook, keep_text={"definedName"}, where=f"{self.at} xl/workbook.xml")
        targets = {e.attrs.get("Id"): resolve("xl", e.attrs.get("Target", ""))
                   for e in relationships(self.book_rels, f"{self.at} xl/_rels/workbook.xml.rels")}
        self.sheets = [(self.book[i].attrs.get("name", ""), targets.get(relationship_id(self.book[i]), ""))
                       for i in sheet_entries(self.book)]  # (name, part) in the workbook's order

    def lite_setup(self) -> dict[int, str]:
        """The How-to paragraphs: each classic one (set-up, pairing) gives way to Lite's.
        Returns the shared strings' indices and their Lite texts, for those the workbook has."""
        if "xl/sharedStrings.xml" not in self.names:
            return {}
        strings = self.archive.read("xl/sharedStrings.xml")
        replaced, changes = {}, []
        for classic, lite in LITE_PARAGRAPHS.items():
            found = shared_string_index(strings, classic, f"{self.at} xl/sharedStrings.xml")
            if found is None:
                continue
            index, item = found
            replaced[index] = lite
            changes.append((item.tag_end, item.content_end, start_tag(f"{prefix_of(item)}t", {})
                            + escape(lite).encode("utf-8") + f"</{prefix_of(item)}t>".encode()))
        if changes:
            self.rewrites["xl/sharedStrings.xml"] = splice(strings, changes)
        return replaced

    def dynamic_array_cm(self) -> str | None:
        """The ``cm`` of the dynamic-array entry in the workbook's own metadata part, if
        it has one (a part without that entry is refused)."""
        if METADATA not in self.names:
            return None
        cm = dynamic_array_cm(self.archive.read(METADATA), f"{self.at} {METADATA}")
        if cm is None:
            raise RatingError(f"{self.src}: its {METADATA} has no dynamic-array entry to use")
        return cm

    def bind_sheets(self, cm: str | None, paragraphs: dict[int, str]) -> _Settings | None:
        """Every sheet's calls bound, the How-to rows sized for Lite's paragraphs, the calls
        Lite cannot bind listed. The classic add-in's settings sheet, which Lite does not
        read, is returned to leave out unless it computes something or is the only sheet."""
        conf = next((n for n, (name, part) in enumerate(self.sheets)
                     if name.lower() == CONF_SHEET and part in self.names), None)
        strings_kept: set[str] = set()  # shared strings the kept sheets show
        conf_strings: dict[str, list[int]] = {}  # ... and those the settings sheet shows
        self.unbound += [f"the defined name {e.attrs.get('name', '')}" for e in self.book
                         if e.name == "definedName" and lite_formula(e.text)[1]]
        for n, (name, part) in enumerate(self.sheets):
            if part not in self.names:
                continue
            self._within_elements(part)
            data = self.archive.read(part)
            sheet = SheetRewrite(data, cm or "1", f"{self.at} {part}")
            if n == conf:
                if any(e.name == "f" for e in sheet.elements) or len(self.sheets) == 1:
                    conf = None  # it computes something: keep it
                else:
                    conf_strings = sheet.string_rows
                    continue
            strings_kept |= set(sheet.string_rows)
            self._bind_sheet(name, part, data, sheet, paragraphs)
        return None if conf is None else _Settings(conf, conf_strings, strings_kept)

    def _within_elements(self, part: str) -> None:
        """Refuse a sheet of more than :data:`SHEET_ELEMENTS` elements, counted in a
        stream before the sheet is read whole (a few megabytes packed can hold millions)."""
        count = [0]

        def counted(local: str, attrs: dict[str, str], depth: int) -> bool:
            count[0] += 1
            return count[0] > SHEET_ELEMENTS
        with self.archive.open(part) as stream_of:
            stream(stream_of, counted, f"{self.at} {part}")
        if count[0] > SHEET_ELEMENTS:
            raise RatingError(f"{self.src}: {part} holds more than {SHEET_ELEMENTS:,} XML elements, "
                              "more than a Lite copy rewrites; nothing written")

    def _bind_sheet(self, name: str, part: str, data: bytes, sheet: SheetRewrite,
                    paragraphs: dict[int, str]) -> None:
        heights = {row: paragraph_height(text) for index, text in paragraphs.items()
                   for row in sheet.string_rows.get(str(index), [])}
        changes = sheet.changes(heights)
        self.used |= sheet.used
        self.unbound += [f"{kind} on sheet {name}" for kind in dict.fromkeys(sheet.unbound)]
        if changes:
            self.rewrites[part] = splice(data, changes)

    def drop_settings_sheet(self, settings: _Settings) -> None:
        """The settings sheet left out: its part, its entries in the workbook, its
        relationship and content type, and its words."""
        at, book = self.at, self.book
        name, part = self.sheets[settings.number]
        self.workbook = drop_sheet(self.workbook, book, settings.number, f"{at} xl/workbook.xml")
        rid = relationship_id(book[sheet_entries(book)[settings.number]])
        entry = next(e for e in relationships(self.book_rels, "") if e.attrs.get("Id") == rid)
        self.book_rels = splice(self.book_rels, [(entry.start, entry.end, b"")])
        override = [e for e in scan(self.types, where=f"{at} [Content_Types].xml")
                    if e.name == "Override" and e.attrs.get("PartName") == "/" + part]
        self.types = splice(self.types, [(e.start, e.end, b"") for e in override])
        folder, file = posixpath.split(part)
        self.removed |= {part, f"{folder}/_rels/{file}.rels"}
        self._drop_settings_words(name, settings)

    def _drop_settings_words(self, name: str, settings: _Settings) -> None:
        """Its words (the classic add-in's instructions) go with it; no other cell moves."""
        orphans = {int(i) for i in set(settings.strings) - settings.strings_kept if digits(i)}
        if "xl/sharedStrings.xml" in self.names and orphans:
            strings = self.rewrites.get("xl/sharedStrings.xml", self.archive.read("xl/sharedStrings.xml"))
            self.rewrites["xl/sharedStrings.xml"] = blank_strings(
                strings, orphans, sum(len(rows) for rows in settings.strings.values()),
                f"{self.at} xl/sharedStrings.xml")
        if "docProps/app.xml" in self.names:
            self.rewrites["docProps/app.xml"] = drop_titles(self.archive.read("docProps/app.xml"), name,
                                                             f"{self.at} docProps/app.xml")

    def add_entries(self, part: str) -> None:
        """The package's own entries: the metadata part where a bound cell needs one, the
        workbook's cached values kept, the relationships and content types of the new
        parts. Parts left as they were keep their bytes."""
        at, names = self.at, self.names
        if METADATA not in names and self.used:
            self.added[METADATA] = _METADATA_XML.encode("utf-8")
            self.book_rels, _ = add_relationship(self.book_rels, _REL_METADATA, "metadata.xml",
                                                 f"{at} xl/_rels/workbook.xml.rels")
        self.rewrites["xl/workbook.xml"] = keep_cached_values(self.workbook, f"{at} xl/workbook.xml")
        self.rewrites["xl/_rels/workbook.xml.rels"] = self.book_rels
        self.rewrites["_rels/.rels"], _ = add_relationship(
            read_part(self.archive, "_rels/.rels", self.src), _REL_TASKPANES, TASKPANES, f"{at} _rels/.rels")
        types = self.types
        for name, content_type in ((TASKPANES, _CT_TASKPANES), (part, _CT_WEBEXTENSION),
                                   (METADATA, _CT_METADATA)):
            if name in self.added or name == part:
                types = add_override(types, "/" + name, content_type, f"{at} [Content_Types].xml")
        self.rewrites["[Content_Types].xml"] = types
        for name in list(self.rewrites):
            if name in names and self.rewrites[name] == self.archive.read(name):
                del self.rewrites[name]


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
                elif info.filename in rewrites:
                    out.writestr(info, rewrites[info.filename])
                else:  # copied a megabyte at a time: a large part is never held whole
                    with archive.open(info) as part, out.open(info, "w") as copy:
                        shutil.copyfileobj(part, copy, 1 << 20)
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
