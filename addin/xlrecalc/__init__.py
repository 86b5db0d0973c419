"""xlrecalc: recalculating an .xlsx workbook without Excel and writing the values into it.

:func:`recalculate` evaluates every formula of an .xlsx: Excel's own functions
(``SUM``, ``IF``, ``INDEX`` … from :mod:`.functions`) and the functions the caller hands
over by name (an add-in's worksheet functions), and writes a copy of the workbook
whose formula cells carry the results as cached values, so viewers that never
calculate (previews, phones, PDF converters) show numbers. The file itself is never
re-saved by a spreadsheet library: only the cached values inside its sheet XML change.

An add-in function's exception stands in its cell as the message text (as classic
xlwings shows it) and is listed in :attr:`Report.errors` with the cell's address;
cells that use an errored cell show the same message. The functions that test what a
cell holds (``ISERROR``, ``ISTEXT``, ``IFERROR`` …) see such a cell as the text written
into it, as classic Excel does when it reads the file back.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
import warnings
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .archive import RecalcError, check_archive, not_a_zip
from .engine import Book, Table, collector_paused, evaluate_book
from .parse import FormulaSyntaxError, column_letters, parse_ref
from .trace import inputs_holding, trace_inputs
from .values import ERROR_CODES, Key, XlErr
from .patch import check_writable, write_cached_values
from .reader import iteration, read_book

__all__ = ["recalculate", "Report", "CellError", "RecalcError", "default_output", "Step"]


@dataclass(frozen=True)
class Step:
    """Where :func:`recalculate` is: ``"evaluating"`` (``done`` of ``total`` formulas)
    or ``"writing"``; ``book`` is the file it reads or writes. ``str()`` is a status line."""

    stage: str
    done: int
    total: int
    book: str

    def __str__(self) -> str:
        if self.stage == "writing":
            return f"writing {self.book}"
        if self.done == 0:
            return f"evaluating {self.total} formulas in {self.book}"
        return f"  {self.done}/{self.total} formulas"


@dataclass(frozen=True)
class CellError:
    """A cell whose formula ended in an error; ``cause`` names the cell it came from,
    ``inputs`` the cells typed by hand that hold the value to fix, where they are found."""

    sheet: str
    cell: str
    message: str
    cause: str | None = None
    inputs: tuple[str, ...] = ()

    @property
    def address(self) -> str:
        return f"{self.sheet}!{self.cell}"

    def __str__(self) -> str:
        text = f"{self.address}: {self.message}"
        if self.inputs:
            text += " — input " + ", ".join(self.inputs)
        return text


@dataclass
class Report:
    """What :func:`recalculate` found.

    ``values`` maps (sheet, "A1") of every formula cell (and every cell of an array
    formula's range) to the value written: a float, a str, a bool, or an error's text
    (``"#N/A"``, or an add-in function's message).
    """

    source: Path
    output: Path | None
    values: dict[tuple[str, str], Any] = field(default_factory=dict)
    errors: list[CellError] = field(default_factory=list)
    formula_count: int = 0
    seconds: float = 0.0
    kept: dict[str, list[str]] = field(default_factory=dict)

    @property
    def kept_line(self) -> str | None:
        """One line on the cells that keep Excel's value, their formulas calling
        functions the engine does not know, or ``None``:
        ``kept Excel's value in 3 cells: XIRR, CONVERT``."""
        cells = {cell for found in self.kept.values() for cell in found}
        if not cells:
            return None
        plural = "s" if len(cells) != 1 else ""
        return f"kept Excel's value in {len(cells)} cell{plural}: {', '.join(self.kept)}"

    @property
    def root_errors(self) -> list[CellError]:
        """Errors that start in their own cell, not copied from a cell they read."""
        return [e for e in self.errors if e.cause is None or e.cause == e.address]


# Excel opens a workbook only under the extension its content type has.
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def default_output(src: Path, kind: str | None = None) -> Path:
    """``BOOK-recalc.xlsx`` beside ``BOOK.xlsx`` (``.xlsm`` for a macro workbook);
    ``kind`` is the extension the content calls for (:func:`content_kind`), where known.

    >>> default_output(Path("a/open.xlsm")).as_posix(), default_output(Path("open.zip")).as_posix()
    ('a/open-recalc.xlsm', 'open-recalc.xlsx')
    >>> default_output(Path("macros.xlsx"), ".xlsm").as_posix()
    'macros-recalc.xlsm'
    """
    suffix = kind or (src.suffix if src.suffix.lower() in WORKBOOK_SUFFIXES else ".xlsx")
    return src.with_name(f"{src.stem}-recalc{suffix}")


# The workbook part's content type: a macro workbook's (or macro template's) names
# "macroEnabled"; Excel opens a file only under the extension its content type has.
_CONTENT_TYPES = "[Content_Types].xml"
_TYPES_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_PACKAGE_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def content_kind(src: Path) -> str | None:
    """``.xlsm`` when the workbook part's content type is a macro workbook's, ``.xlsx``
    when it is another workbook's, ``None`` when the package does not say (or cannot be
    read: the reader's checks name that later)."""
    from xml.etree import ElementTree
    from .archive import read_member
    try:
        with zipfile.ZipFile(src) as archive:
            # small parts: a bomb among them is refused, by check_archive, later
            types = ElementTree.fromstring(read_member(
                archive, archive.getinfo(_CONTENT_TYPES), str(src), limit=1 << 20))
            rels = ElementTree.fromstring(read_member(
                archive, archive.getinfo("_rels/.rels"), str(src), limit=1 << 20))
    except (KeyError, OSError, RecalcError, ElementTree.ParseError, zipfile.BadZipFile):
        return None
    part = next((rel.get("Target", "") for rel in rels.iter(_PACKAGE_NS + "Relationship")
                 if rel.get("Type", "").endswith("/officeDocument")), None)
    if part is None:
        return None
    name = "/" + part.lstrip("/")
    found = next((o.get("ContentType", "") for o in types.iter(_TYPES_NS + "Override")
                  if o.get("PartName", "").lower() == name.lower()), None)
    if found is None:
        return None
    return ".xlsm" if "macroenabled" in found.lower() else ".xlsx"


def output_path(src: Path, dst: Path | None, kind: str | None = None) -> Path:
    """Where the result goes, checked before any work: ``dst``, or ``default_output``
    beside ``src``, or inside ``dst`` when it is a folder. **Decision**: a name that
    does not end in ``.xlsx``/``.xlsm`` is refused, not given an extension (a file the
    user did not name would appear), and so is a different kind from a macro
    workbook's (``.xlsm`` in, ``.xlsx`` out: Excel would refuse to open it). ``kind``,
    the extension the content calls for (:func:`content_kind`), decides over the
    input's own name: a macro workbook named ``.xlsx`` is written as ``.xlsm``.
    """
    if dst is None:
        dst = default_output(src, kind)
    elif dst.is_dir():
        dst = dst / default_output(src, kind).name
    if dst.suffix.lower() not in WORKBOOK_SUFFIXES:
        raise RecalcError(f"{dst}: the output must be named .xlsx (or .xlsm for a macro "
                          "workbook); nothing written")
    if kind is not None and kind != src.suffix.lower() and dst.suffix.lower() != kind:
        what = "a macro workbook" if kind == ".xlsm" else "a workbook without macros"
        raise RecalcError(f"{dst}: {src.name} is {what} whatever its name says; the "
                          f"output must be named {kind}; nothing written")
    expected = kind or (src.suffix.lower() if src.suffix.lower() in WORKBOOK_SUFFIXES else None)
    if expected is not None and dst.suffix.lower() != expected:
        raise RecalcError(f"{dst}: the output must keep the input's extension "
                          f"{expected}; nothing written")
    if not dst.parent.is_dir():
        raise RecalcError(f"{dst}: the folder {dst.parent} does not exist; nothing written")
    if dst.exists() and not dst.is_file():
        raise RecalcError(f"{dst}: not a file; nothing written")
    return dst


def _cell_value(value: Any, epoch: _dt.datetime | None = None) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time, _dt.timedelta)):
        from openpyxl.utils.datetime import to_excel
        return float(to_excel(value, epoch) if epoch is not None else to_excel(value))
    return value if isinstance(value, str) else str(value)


def load_book(src: Path, functions: Mapping[str, Callable[..., Any]]) -> Book:
    """Read cells, formulas, defined names and tables: straight from the XML
    (:mod:`.reader`), or with openpyxl for a file that reader leaves to it."""
    check_archive(src)  # bounded sizes and intact members before any reader reads one
    fast = read_book(src, dict(functions))
    if fast is not None:
        return fast
    return load_book_openpyxl(src, functions)


def load_book_openpyxl(src: Path, functions: Mapping[str, Callable[..., Any]]) -> Book:
    """Read cells, formulas and defined names with openpyxl (reading only)."""
    import openpyxl
    from openpyxl.worksheet.formula import ArrayFormula
    check_archive(src)  # bounded sizes and intact members before openpyxl reads any
    try:
        with warnings.catch_warnings():  # openpyxl's notes on parts it skips are not ours
            warnings.simplefilter("ignore")
            workbook = openpyxl.load_workbook(src, data_only=False, keep_links=False)
    except FileNotFoundError:
        raise RecalcError(f"{src}: no such file") from None
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        raise RecalcError(f"{src}: not an .xlsx workbook ({exc.__class__.__name__})") from None
    except MemoryError:
        raise RecalcError(f"{src}: too large to read in the memory available") from None
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        reason = (str(exc).splitlines() or [exc.__class__.__name__])[0][:160]
        raise RecalcError(f"{src}: cannot be read as an .xlsx workbook: {reason}") from None
    book = Book(dict(functions))
    book.load_cached = lambda: _cached_values(src)
    from openpyxl.utils.datetime import CALENDAR_MAC_1904
    book.date1904 = workbook.epoch == CALENDAR_MAC_1904
    calculation = workbook.calculation
    if calculation is not None:
        book.iteration = iteration(calculation.iterate, calculation.iterateCount,
                                   calculation.iterateDelta)
    for sheet in workbook.worksheets:
        book.add_sheet(sheet.title)
    for sheet in workbook.worksheets:
        # the cells the file holds, never the rectangle up to its last cell (which
        # iter_rows() would create: one value at XFD1048576 is 17 billion cells)
        for _, cell in sorted(sheet._cells.items()):
            value = cell.value
            if value is None:
                continue
            if isinstance(value, ArrayFormula):
                book.add_formula(sheet.title, cell.row, cell.column, value.text,
                                 _array_ref(value.ref, sheet.title), lambda: list(sheet._cells))
            elif cell.data_type == "f" and isinstance(value, str):
                if (sheet.title, cell.row, cell.column) in book.owner:
                    continue  # a cell of an array formula's range (often <f ca="1"/>)
                if value.strip() not in ("", "="):
                    book.add_formula(sheet.title, cell.row, cell.column, value)
            elif cell.data_type == "e" and value in ERROR_CODES:
                book.set_value(sheet.title, cell.row, cell.column, XlErr(value))
            elif (sheet.title, cell.row, cell.column) not in book.owner:
                book.set_value(sheet.title, cell.row, cell.column,
                               _cell_value(value, workbook.epoch))
        for name, defined in sheet.defined_names.items():
            book.define_name(name, defined.attr_text, sheet.title)
        for table in sheet.tables.values():
            _add_table(book, sheet.title, table)
    for name, defined in workbook.defined_names.items():
        if defined.localSheetId is not None:
            at = int(defined.localSheetId)
            if not 0 <= at < len(workbook.worksheets):  # as the XML reader refuses it
                count = len(workbook.worksheets)
                raise RecalcError(f"{src}: the name {name} belongs to sheet number {at} "
                                  f"(localSheetId), but the workbook has {count} sheet"
                                  f"{'s' if count != 1 else ''}; not a workbook Excel wrote")
            scope = workbook.worksheets[at].title
            book.define_name(name, defined.attr_text, scope)
        elif not name.startswith("_xlnm."):
            book.define_name(name, defined.attr_text)
    return book


def _cached_values(src: Path) -> dict[Key, Any]:
    """Excel's cached values of the formula cells, read with openpyxl (``data_only``)."""
    import openpyxl
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        workbook = openpyxl.load_workbook(src, data_only=True, keep_links=False)
    found: dict[Key, Any] = {}
    for sheet in workbook.worksheets:
        for _, cell in sheet._cells.items():
            value = cell.value
            if value is None:
                continue
            if cell.data_type == "e" and value in ERROR_CODES:
                found[(sheet.title, cell.row, cell.column)] = XlErr(value)
            else:
                found[(sheet.title, cell.row, cell.column)] = _cell_value(value, workbook.epoch)
    return found


def _add_table(book: Book, sheet: str, table: Any) -> None:
    """An Excel table (``xl/tables/*.xml``, found by openpyxl through the sheet's rels)."""
    try:
        ref = parse_ref(table.ref)
    except (FormulaSyntaxError, TypeError):
        return
    columns = [column.name or "" for column in table.tableColumns]
    headers = 1 if table.headerRowCount is None else int(table.headerRowCount)
    totals = int(table.totalsRowCount or 0)
    book.add_table(Table(table.displayName or table.name, sheet, ref, columns, headers, totals))


def _array_ref(ref: str, sheet: str):
    found = parse_ref(ref)
    return type(found)(sheet, found.r1, found.c1, found.r2, found.c2)


# Cells the error report's traces look at in all, a few seconds' work: past it, errors
# are reported without their input cells (a chain of 150,000 cells in error, each
# traced down the chain, took hours).
TRACE_ALLOWANCE = 2_000_000


def _input_finder(book: Book) -> Callable[[XlErr, Key], tuple[str, ...]]:
    """Each error's input cells, traced once per culprit (cells sharing a cause share it)."""
    found: dict[Any, tuple[str, ...]] = {}
    allowance = [TRACE_ALLOWANCE]  # cells all the traces together may look at

    def inputs(error: XlErr, key: Key) -> tuple[str, ...]:
        memo = error.culprit or key
        if memo not in found:
            if error.culprit:
                cells = trace_inputs(book, error.culprit, allowance=allowance)
            else:
                cells = trace_inputs(book, key, error, allowance=allowance)
                if not cells and error.refused is not None:
                    cells = inputs_holding(book, key, error.refused, allowance)
            found[memo] = tuple(f"{s}!{column_letters(c)}{r}" for s, r, c in cells
                                if (s, r, c) != key)
        return found[memo]
    return inputs


def chart_values(book: Book) -> Callable[[str], list[Any] | None]:
    """The values a chart series formula names (``Sheet!$A$1:$A$9`` or a defined name),
    in row order, for :func:`xlrecalc.charts.patch_chart`; ``None`` when the
    formula is not one range of the book (several areas, another workbook)."""
    first_sheet = next(iter(book.cells), "")

    def lookup(text: str) -> list[Any] | None:
        text = text.lstrip("=")
        try:
            ref = parse_ref(text)
        except FormulaSyntaxError:
            named = book.name_text(text, first_sheet) if "[" not in text else None
            if named is None:
                return None
            try:
                ref = parse_ref(named.lstrip("="))
            except FormulaSyntaxError:
                return None
        try:
            sheet = book.sheet(ref.sheet, first_sheet)
        except FormulaSyntaxError:
            return None
        last_row, last_col = book.clip(sheet, ref.r2, ref.c2)
        # a whole column or row stops at the sheet's last cell; a fixed range keeps its size
        rows = range(ref.r1, (ref.r2 if ref.r2 < 1_048_576 else last_row) + 1)
        cols = range(ref.c1, (ref.c2 if ref.c2 < 16_384 else last_col) + 1)
        return [_chart_value(book.value(sheet, r, c)) for r in rows for c in cols]
    return lookup


def _chart_value(value: Any) -> Any:
    if isinstance(value, XlErr) and value.message:
        return XlErr(value.code)
    return value


def written_value(value: Any, origin: str | None = None) -> Any:
    """A formula's value as a file holds it: Excel holds no infinity or NaN, ``#NUM!``
    stands in their place (``origin`` names the cell)."""
    if isinstance(value, float) and not math.isfinite(value):
        return XlErr("#NUM!", origin=origin)
    return value


def record_values(book: Book, report: Report) -> dict[str, dict[tuple[int, int], Any]]:
    """The values to write of an evaluated book, by sheet and (row, column): every
    formula cell and every cell of an array formula's range. ``report`` receives them
    and the errors with the input cells behind each."""
    inputs = _input_finder(book)
    written: dict[str, dict[tuple[int, int], Any]] = {}
    kept = book.kept
    for anchor, names in kept.items():  # in formula order: the first function met first
        for name in names:
            report.kept.setdefault(name, []).append(f"{anchor[0]}!{column_letters(anchor[2])}{anchor[1]}")
    cells = [*book.formulas, *(k for k in book.owner if k not in book.formulas)]
    if kept:  # a kept formula's cells stay as the file has them, and are reported so
        for sheet, row, col in cells:
            if book.owner.get((sheet, row, col), (sheet, row, col)) in kept:
                value = book.cells[sheet].get((row, col))
                report.values[(sheet, f"{column_letters(col)}{row}")] = (
                    value.message or value.code if isinstance(value, XlErr) else value)
        cells = [k for k in cells if book.owner.get(k, k) not in kept]
    letters: dict[int, str] = {}  # each column's letters, spelled once
    values = report.values
    sheet_values: dict[tuple[int, int], Any] = {}
    sheet_written: dict[tuple[int, int], Any] = {}
    current = None
    for sheet, row, col in sorted(cells):
        if sheet != current:  # sorted: a sheet's cells come together
            current, sheet_values = sheet, book.cells[sheet]
            sheet_written = written.setdefault(sheet, {})
        value = sheet_values.get((row, col))
        column = letters.get(col)
        if column is None:
            column = letters[col] = column_letters(col)
        address = f"{column}{row}"
        value = written_value(value, f"{sheet}!{address}")
        sheet_written[(row, col)] = value
        if isinstance(value, XlErr):
            values[(sheet, address)] = value.message or value.code
            report.errors.append(CellError(sheet, address, value.message or value.code,
                                           value.origin, inputs(value, (sheet, row, col))))
        else:
            values[(sheet, address)] = value
    return written


def _unwritable(src: Path, exc: Exception) -> RecalcError:
    reason = (str(exc).splitlines() or [exc.__class__.__name__])[0][:160]
    return RecalcError(f"{src}: a part of the workbook cannot be rewritten: {reason}")


def recalculate(src: Path | str, dst: Path | str | None = None, *,
                functions: Mapping[str, Callable[..., Any]] | None = None,
                progress: Callable[[Step], None] | None = None, label: str | None = None,
                report_type: type[Report] = Report,
                before_write: Callable[[Book, Report], None] | None = None) -> Report:
    """Evaluate every formula of ``src`` and write a copy with the values cached.

    ``dst`` defaults to ``BOOK-recalc.xlsx`` beside ``src``; ``dst=src`` updates the
    workbook in place. ``functions`` adds or replaces Excel functions by name (upper
    case): an add-in hands its worksheet functions over here. ``progress`` receives a :class:`Step` at each stage, and every thousand
    formulas of a long workbook. ``label`` is the name the progress gives the workbook
    (``src``'s own name unless ``src`` is a draft of a file the user named).
    ``report_type`` is the :class:`Report` (sub)class returned, and ``before_write``
    sees the evaluated book and the report before anything is written, so a caller can
    read more from the book or refuse (raise) with nothing written.

    ``dst`` may be a folder (the default name inside it); its name must end in .xlsx or
    .xlsm (:func:`output_path`). Every refusal is a :class:`RecalcError` naming the
    user's path, raised before anything is written; the output appears whole or not at
    all, with a new file's mode (or the replaced file's).
    """
    started = time.perf_counter()
    src = Path(src)
    if not src.is_file():
        raise RecalcError(f"{src}: no such file" if not src.exists() else f"{src}: not a file")
    kind = content_kind(src)
    dst = output_path(src, None if dst is None else Path(dst), kind)
    if not zipfile.is_zipfile(src):
        raise not_a_zip(src, str(src))
    with collector_paused():
        return _recalculate(src, dst, functions, progress, label, started, report_type,
                            before_write)


def _recalculate(src: Path, dst: Path, functions: Mapping[str, Callable[..., Any]] | None,
                 progress: Callable[[Step], None] | None, label: str | None,
                 started: float, report_type: type[Report],
                 before_write: Callable[[Book, Report], None] | None) -> Report:
    table = {name.upper(): fn for name, fn in (functions or {}).items()}
    book = load_book(src, table)
    try:  # what the writer would refuse, refused before the evaluation
        check_writable(src, str(src))
    except (KeyError, ValueError, SyntaxError) as exc:
        raise _unwritable(src, exc) from None
    report = report_type(source=src, output=dst, formula_count=len(book.formulas))
    say = progress or (lambda step: None)
    total = len(book.formulas)
    shown_name = label or src.name
    say(Step("evaluating", 0, total, shown_name))

    def step(done: int, total: int) -> None:
        say(Step("evaluating", done, total, shown_name))
    evaluate_book(book, step if total >= 2000 else None)

    written = record_values(book, report)
    if before_write is not None:
        before_write(book, report)
    say(Step("writing", total, total, dst.name))
    try:
        write_cached_values(src, dst, written, charts=chart_values(book), shown=str(src))
    except OSError as exc:
        raise RecalcError(f"{dst}: cannot write the workbook ({exc.strerror or exc})") from None
    except (KeyError, ValueError, SyntaxError) as exc:  # SyntaxError: ElementTree's ParseError
        raise _unwritable(src, exc) from None
    report.seconds = time.perf_counter() - started
    return report


__all__ += ["content_kind", "load_book", "chart_values", "record_values", "written_value", "FormulaSyntaxError", "output_path",
            "check_archive"]
