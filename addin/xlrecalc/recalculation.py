"""Recalculating a workbook file: :func:`recalculate` reads it, evaluates every
formula, and writes a copy whose formula cells carry the results as cached values.

:func:`record_values` turns an evaluated book into the values to write and the
:class:`Report` (the errors with the input cells behind each, traced by
:mod:`.trace`); :func:`chart_values` gives the charts their series' values.
"""

from __future__ import annotations

import math
import re
import time
import zipfile
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .archive import RecalcError, not_a_zip
from .collector import collector_paused
from .engine import Book, evaluate_book
from .loading import load_book
from .output import content_kind, output_path
from .parse import FormulaSyntaxError, column_letters, column_number, parse_ref
from .patch import _CONTROL, cell_xml_value, check_writable, write_cached_values
from .trace import inputs_holding, trace_inputs
from .values import ERROR_CODES, Key, XlErr
from .xmlspans import Element

_ADDRESS = re.compile(r"([A-Z]{1,3})([1-9][0-9]*)")

__all__ = ["recalculate", "Report", "CellError", "CellValues", "Step", "record_values", "chart_values",
           "written_value", "as_read", "TRACE_ALLOWANCE"]


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
    (``"#N/A"``, or an add-in function's message). Filled by :func:`record_values`, it is
    a :class:`CellValues`, a view of the values written that reads as that dict does.
    """

    source: Path
    output: Path | None
    values: MutableMapping[tuple[str, str], Any] = field(default_factory=dict)
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
    if isinstance(report.values, dict) and not report.values:  # a view of what is written
        report.values = CellValues(written)
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
    viewed = isinstance(values, CellValues) and values.written is written  # nothing to add
    sheet_values: dict[tuple[int, int], Any] = {}
    sheet_written: dict[tuple[int, int], Any] = {}
    current = None
    for sheet, row, col in sorted(cells):
        if sheet != current:  # sorted: a sheet's cells come together
            current, sheet_values = sheet, book.cells[sheet]
            sheet_written = written.setdefault(sheet, {})
        value = sheet_values.get((row, col))
        if viewed and not isinstance(value, XlErr) and not (
                isinstance(value, float) and not math.isfinite(value)):
            sheet_written[(row, col)] = value  # written as it is (written_value): no address spelled
            continue
        column = letters.get(col)
        if column is None:
            column = letters[col] = column_letters(col)
        address = f"{column}{row}"
        value = written_value(value, f"{sheet}!{address}")
        sheet_written[(row, col)] = value
        if isinstance(value, XlErr):
            report.errors.append(CellError(sheet, address, value.message or value.code,
                                           value.origin, inputs(value, (sheet, row, col))))
        if not viewed:
            values[(sheet, address)] = value.message or value.code if isinstance(value, XlErr) else value
    return written


class CellValues(MutableMapping[tuple[str, str], Any]):
    """:attr:`Report.values` as a view of the values written (sheet -> {(row, col):
    value}), each address spelled when asked for: for a workbook of 344,000 formula
    cells, their addresses and keys held as a dict took 50 MB. An error reads
    as its message (or its code). Cells set by hand (the kept ones) are held as given."""

    def __init__(self, written: dict[str, dict[tuple[int, int], Any]]):
        self.written = written
        self.own: dict[tuple[str, str], Any] = {}

    @staticmethod
    def _shown(value: Any) -> Any:
        return value.message or value.code if isinstance(value, XlErr) else value

    def _place(self, key: tuple[str, str]) -> tuple[dict[tuple[int, int], Any], tuple[int, int]] | None:
        sheet, address = key
        cells = self.written.get(sheet)
        found = _ADDRESS.fullmatch(address) if cells is not None else None
        if cells is None or found is None:
            return None
        return cells, (int(found.group(2)), column_number(found.group(1)))

    def __getitem__(self, key: tuple[str, str]) -> Any:
        if key in self.own:
            return self.own[key]
        place = self._place(key)
        if place is None or place[1] not in place[0]:
            raise KeyError(key)
        return self._shown(place[0][place[1]])

    def __setitem__(self, key: tuple[str, str], value: Any) -> None:
        place = self._place(key)
        if place is not None and place[1] in place[0]:
            place[0][place[1]] = value
        else:
            self.own[key] = value

    def __delitem__(self, key: tuple[str, str]) -> None:
        if key in self.own:
            del self.own[key]
            return
        place = self._place(key)
        if place is None or place[1] not in place[0]:
            raise KeyError(key)
        del place[0][place[1]]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        yield from self.own
        for sheet, cells in self.written.items():
            for row, col in cells:
                yield sheet, f"{column_letters(col)}{row}"

    def __len__(self) -> int:
        return len(self.own) + sum(len(cells) for cells in self.written.values())

    def __contains__(self, key: object) -> bool:
        if key in self.own:
            return True
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        place = self._place(key)  # type: ignore[arg-type]
        return place is not None and place[1] in place[0]


def _unwritable(src: Path, exc: Exception) -> RecalcError:
    reason = (str(exc).splitlines() or [exc.__class__.__name__])[0][:160]
    return RecalcError(f"{src}: a part of the workbook cannot be rewritten: {reason}")


def recalculate(src: Path | str, dst: Path | str | None = None, *,
                functions: Mapping[str, Callable[..., Any]] | None = None,
                progress: Callable[[Step], None] | None = None, label: str | None = None,
                report_type: type[Report] = Report,
                before_write: Callable[[Book, Report], None] | None = None,
                inputs: Mapping[str, Mapping[tuple[int, int], Any]] | None = None,
                workbook_edit: Callable[[bytes], bytes] | None = None) -> Report:
    """Evaluate every formula of ``src`` and write a copy with the values cached.

    ``dst`` defaults to ``BOOK-recalc.xlsx`` beside ``src``; ``dst=src`` updates the
    workbook in place. ``functions`` adds or replaces Excel functions by name (upper
    case): an add-in hands its worksheet functions over here. ``progress`` receives a :class:`Step` at each stage, and every thousand
    formulas of a long workbook. ``label`` is the name the progress gives the workbook
    (``src``'s own name unless ``src`` is a draft of a file the user named).
    ``report_type`` is the :class:`Report` (sub)class returned, and ``before_write``
    sees the evaluated book and the report before anything is written, so a caller can
    read more from the book or refuse (raise) with nothing written. ``inputs`` (sheet ->
    {(row, col): value}) are values typed into cells before the evaluation: the book
    reads them as it would read them from a copy of ``src`` they were written into
    (:func:`as_read`), and the copy written holds them, in the one pass that writes the
    formulas' values (the same bytes as writing them into a draft first, and
    recalculating the draft). ``workbook_edit`` rewrites the copy's workbook.xml
    (bytes to bytes) in the same pass, after ``before_write``
    (:func:`.patch.write_cached_values`).

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
                            before_write, inputs or {}, workbook_edit)


def as_read(value: Any) -> Any:
    """The value a reader finds in a cell once ``value`` is written into it
    (:func:`xlrecalc.patch.cell_xml_value`): a number as a float, a text without the
    control characters XML cannot hold and with its line ends as an XML parser reads
    them, an error as its code; ``""`` for an empty text (an input cell left empty).

    >>> as_read(3), as_read("a\\x07b\\r\\nc"), as_read(True), as_read(float("inf")), as_read(None)
    (3.0, 'ab\\nc', True, XlErr('#NUM!'), '')
    """
    kind, text = cell_xml_value(value)
    if kind == "n":
        return float(text)
    if kind == "b":
        return text == "1"
    if kind == "e":
        return XlErr(text) if text in ERROR_CODES else text
    return _CONTROL.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


def _type_inputs(book: Book, inputs: Mapping[str, Mapping[tuple[int, int], Any]]) -> None:
    """The typed values in ``book``: an input cell's value, a formula cell's cached
    value (which the book reads only where it cannot evaluate the formula)."""
    for sheet, cells in inputs.items():
        if sheet not in book.cells:
            continue  # written into no sheet, as write_cached_values skips it
        for (row, col), value in cells.items():
            key = (sheet, row, col)
            found = as_read(value)
            if key in book.formulas or key in book.owner:
                book.cached[key] = found
            elif found == "":  # an empty <v> of a text: the reader finds no value
                book.cells[sheet].pop((row, col), None)
            else:
                book.set_value(sheet, row, col, found)


def _recalculate(src: Path, dst: Path, functions: Mapping[str, Callable[..., Any]] | None,
                 progress: Callable[[Step], None] | None, label: str | None,
                 started: float, report_type: type[Report],
                 before_write: Callable[[Book, Report], None] | None,
                 inputs: Mapping[str, Mapping[tuple[int, int], Any]],
                 workbook_edit: Callable[[bytes], bytes] | None = None) -> Report:
    table = {name.upper(): fn for name, fn in (functions or {}).items()}
    parsed: dict[str, tuple[bytes, Element]] = {}  # each sheet parsed once, for reading and writing
    book = load_book(src, table, parsed)
    _type_inputs(book, inputs)
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
        if inputs:  # a formula's value over a value typed into its cell
            written = {sheet: {**inputs.get(sheet, {}), **written.get(sheet, {})}
                       for sheet in {**inputs, **written}}
        write_cached_values(src, dst, written, charts=chart_values(book), shown=str(src),
                            parsed=parsed, workbook_edit=workbook_edit)
    except OSError as exc:
        raise RecalcError(f"{dst}: cannot write the workbook ({exc.strerror or exc})") from None
    except (KeyError, ValueError, SyntaxError) as exc:  # SyntaxError: ElementTree's ParseError
        raise _unwritable(src, exc) from None
    book.drop_compiled()
    report.seconds = time.perf_counter() - started
    return report
