"""A workbook as xlwings Lite sends it to a script: the Office.js book payload.

xlwings' Office.js client (xlwings.js ``getBookData``) sends the book's name, each
sheet's values from A1 to the last used cell (an empty cell as ``""``; a sheet left out
by the script's ``include`` as ``[[]]``) and the workbook names with their sheet and
address. :func:`officejs_book` builds that payload from an .xlsx file's values, as
openpyxl reads them, so a test can hand a template to a script as Lite does.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import openpyxl

XLWINGS_VERSION = __import__("xlwings").__version__


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    return value


def officejs_book(path: Path, include: Iterable[str] | None = None) -> dict[str, Any]:
    """The payload of the workbook at ``path``; only the sheets in ``include`` carry
    values when it is given (the others ``[[]]``, as xlwings.js sends them)."""
    wb = openpyxl.load_workbook(path, data_only=True)
    chosen = None if include is None else set(include)
    sheets = []
    for ws in wb.worksheets:
        if chosen is not None and ws.title not in chosen:
            values: list[list[Any]] = [[]]
        else:
            values = [[_cell(v) for v in row] for row in
                      ws.iter_rows(min_row=1, max_row=ws.max_row, max_col=ws.max_column, values_only=True)]
        sheets.append({"name": ws.title, "values": values, "pictures": [], "tables": []})
    index = {ws.title: i for i, ws in enumerate(wb.worksheets)}
    names = []
    for name, defined in wb.defined_names.items():
        destinations = list(defined.destinations)
        if len(destinations) != 1:
            continue
        sheet, address = destinations[0]
        names.append({"name": name, "sheet_index": index[sheet], "address": address.replace("$", ""),
                      "scope_sheet_name": None, "scope_sheet_index": None, "book_scope": True})
    return {"client": "Office.js", "version": XLWINGS_VERSION,
            "book": {"name": path.name, "active_sheet_index": 0, "selection": "A1"},
            "names": names, "sheets": sheets}
