"""Reading a workbook file into a :class:`~.engine.Book`: cells, formulas, defined
names and tables.

:func:`load_book` reads straight from the sheet XML (:mod:`.reader`) and leaves to
openpyxl (:func:`load_book_openpyxl`, reading only) the files that reader does not
take. Either way :func:`~.archive.check_archive` has bounded and verified every member
first.
"""

from __future__ import annotations

import datetime as _dt
import warnings
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .archive import RecalcError, check_archive
from .engine import Book, Table
from .parse import FormulaSyntaxError, parse_ref
from .reader import iteration, read_book, sheet_member
from .values import ERROR_CODES, Key, XlErr
from .xmlspans import Element

__all__ = ["load_book", "load_book_openpyxl"]


def _cell_value(value: Any, epoch: _dt.datetime | None = None) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time, _dt.timedelta)):
        from openpyxl.utils.datetime import to_excel
        return float(to_excel(value, epoch) if epoch is not None else to_excel(value))
    return value if isinstance(value, str) else str(value)


def load_book(src: Path, functions: Mapping[str, Callable[..., Any]],
              parsed: dict[str, tuple[bytes, Element]] | None = None) -> Book:
    """Read cells, formulas, defined names and tables: straight from the XML
    (:mod:`.reader`), or with openpyxl for a file that reader leaves to it. ``parsed``
    receives the sheet parts the XML reader parsed, for the writer
    (:func:`.reader.read_book`)."""
    # bounded sizes and intact members before any reader reads one; the sheets' bytes
    # kept as they are checked, not expanded again
    members = check_archive(src, keep=sheet_member)
    fast = read_book(src, dict(functions), parsed, members)
    del members
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
