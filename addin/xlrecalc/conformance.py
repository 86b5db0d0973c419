"""How far the headless evaluator agrees with Excel on a workbook Excel saved.

A workbook saved by Excel carries, beside every formula, the value Excel computed (its
cached value). :func:`compare_with_excel` recalculates the workbook from its formulas and
inputs alone and compares every formula cell with that value: numbers to a relative
1e-9 (and 1e-12 absolute, for results that should be zero), text exactly, logicals as
logicals, errors by their code.

Some workbooks that look like Excel's were last saved by LibreOffice, which caches a
logical as the number 1 or 0 (with a boolean number format); for those, and only those,
a logical result is compared with its number.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .parse import column_letters
from .values import ERROR_CODES, XlErr

__all__ = ["Agreement", "Mismatch", "compare_with_excel", "same_value"]



@dataclass(frozen=True)
class Mismatch:
    """A formula cell whose value differs from Excel's; ``ours`` and ``excel`` as shown."""

    cell: str  # Sheet!A1
    formula: str
    ours: Any
    excel: Any

    def __str__(self) -> str:
        return f"{self.cell} ={self.formula.lstrip('=')}: ours {self.ours!r}, Excel {self.excel!r}"


@dataclass
class Agreement:
    """Formula cells compared and those that differ; ``failure`` when the book could not
    be recalculated at all (then no cell counts as agreeing); ``kept`` the formula cells
    not evaluated, which keep Excel's value (functions out of the engine's scope)."""

    book: str
    application: str = ""
    compared: int = 0
    kept: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    failure: str | None = None

    @property
    def agreed(self) -> int:
        return 0 if self.failure else self.compared - len(self.mismatches)

    @property
    def ratio(self) -> float:
        return self.agreed / self.compared if self.compared else 1.0


def _excel_number(value: Any) -> Any:
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time, _dt.timedelta)):
        from openpyxl.utils.datetime import to_excel
        return float(to_excel(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def same_value(ours: Any, excel: Any, logicals_as_numbers: bool = False) -> bool:
    """Whether a recalculated value is the one Excel cached (``excel`` as openpyxl reads
    it: an error as its code text, an empty text result as ``None``).

    >>> same_value(0.30000000000000004, 0.3), same_value(True, 1), same_value(True, 1, True)
    (True, False, True)
    """
    excel = _excel_number(excel)
    if logicals_as_numbers and isinstance(ours, bool) and isinstance(excel, float):
        ours = float(ours)
    if isinstance(excel, str) and excel in ERROR_CODES:
        return isinstance(ours, XlErr) and ours.code == excel
    if isinstance(ours, XlErr):
        return False
    if excel is None or excel == "":
        return ours is None or ours == ""
    if isinstance(excel, bool) or isinstance(ours, bool):
        return type(excel) is type(ours) and excel == ours
    if isinstance(excel, float):
        return (isinstance(ours, (int, float)) and
                math.isclose(float(ours), excel, rel_tol=1e-9, abs_tol=1e-12))
    return isinstance(ours, str) and ours == excel


def _shown(value: Any) -> Any:
    if isinstance(value, XlErr):
        return value.code + (f" ({value.message})" if value.message else "")
    return value


def _application(path: Path) -> str:
    """The program that last saved the workbook, from docProps/app.xml."""
    try:
        with zipfile.ZipFile(path) as archive:
            xml = archive.read("docProps/app.xml").decode("utf-8", "replace")
    except (KeyError, zipfile.BadZipFile):
        return ""
    found = re.search(r"<Application>([^<]*)</Application>", xml)
    version = re.search(r"<AppVersion>([^<]*)</AppVersion>", xml)
    name = found.group(1).split("$")[0] if found else ""
    return f"{name} {version.group(1)}" if version and name else name


def compare_with_excel(path: Path | str,
                       functions: Mapping[str, Callable[..., Any]] | None = None) -> Agreement:
    """Recalculate ``path`` and compare every formula cell with Excel's cached value;
    ``functions`` are the add-in functions the workbook may call, by name."""
    import openpyxl

    from .engine import evaluate_book
    from .loading import load_book

    path = Path(path)
    cached = openpyxl.load_workbook(path, data_only=True)
    result = Agreement(path.name, _application(path))
    libreoffice = result.application.startswith("LibreOffice")
    try:
        book = load_book(path, dict(functions or {}))
        evaluate_book(book)
    except Exception as exc:  # the whole book lost: counted, and said why
        result.failure = f"{type(exc).__name__}: {exc}"
    cells = sorted({*book.formulas, *book.owner}) if result.failure is None else []
    if result.failure is None:
        result.kept = sum(1 for key in cells if book.owner.get(key, key) in book.kept)
    if result.failure is not None:
        formulas = openpyxl.load_workbook(path)
        cells = sorted((ws.title, c.row, c.column) for ws in formulas.worksheets
                       for row in ws.iter_rows() for c in row if c.data_type == "f")
    for sheet, row, col in cells:
        # an empty text result is cached as t="str" with an empty <v/>: None here
        excel = cached[sheet].cell(row, col).value
        result.compared += 1
        if result.failure is not None:
            continue
        ours = book.cells[sheet].get((row, col))
        if not same_value(ours, excel, libreoffice):
            anchor = book.owner.get((sheet, row, col), (sheet, row, col))
            formula = book.formulas[anchor].text if anchor in book.formulas else ""
            result.mismatches.append(Mismatch(f"{sheet}!{column_letters(col)}{row}", formula,
                                              _shown(ours), excel))
    return result
