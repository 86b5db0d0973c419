"""XlsxWriter's workbook and worksheet as the templates use them: formulas prepared once
per set of functions, and every formula written with the value it computes.

A template is built in XlsxWriter's memory, then evaluated there, before a byte is
written: :class:`EvaluatedWorkbook` hands the cells, formulas and names it holds to the
headless evaluator (:mod:`chessrating.recalc`) when it is closed, and writes each formula
cell with its value, as ``chessrating recalc`` would write it into the finished file
(:func:`xlrecalc.cell_xml_value`); the charts' caches come from the same
values. One pass: no file is written, read back and rewritten.

Every formula is written out in its own cell, never as a shared formula (one formula
stored for a filled-down column, as Excel saves one): that would make the file a third
as large, but LibreOffice recalculates every cell of a shared formula when it opens a
file, so it would show ``#NAME?`` for the rating functions instead of their values.

:func:`evaluation` sets, for the workbooks closed inside it, whether to evaluate (a
quick structural build leaves the values empty), where progress goes, and receives the
:class:`chessrating.recalc.Report`.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import math
import re
import threading
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import xlsxwriter
import xlsxwriter.workbook
from xlsxwriter.drawing import Drawing, DrawingInfo
from xlsxwriter.utility import xl_col_to_name, xl_rowcol_to_cell
from xlsxwriter.worksheet import (
    CellArrayFormulaTuple, CellBlankTuple, CellBooleanTuple, CellDatetimeTuple, CellErrorTuple,
    CellFormulaTuple, CellNumberTuple, CellRichStringTuple, CellStringTuple, Worksheet,
    re_dynamic_function,
)

from ..recalc import Report, Step, chart_values, rating_functions, record_values, written_value
from xlrecalc import (ERROR_CODES, PENDING, Book, XlErr, cell_xml_value, evaluate_book, label_text,
                      number_text, value_text)

__all__ = ["FormulaWorksheet", "EvaluatedWorkbook", "Evaluation", "evaluation", "current_evaluation",
           "book_of", "calls_of", "column_name"]

_CALL = re.compile(r"[A-Za-z0-9_.]+\(")
# A zero-based column's letters: the templates address a few dozen columns tens of
# thousands of times.
column_name = functools.lru_cache(maxsize=None)(xl_col_to_name)
_DIGITS_MASKED = bytes.maketrans(b"0123456789", b"##########")
# calls by formula shape (its text with every digit masked): the call names, and those
# of them holding a digit with their byte offsets
_CALLS_BY_SHAPE: dict[bytes, tuple[frozenset[str], tuple[tuple[int, bytes], ...]]] = {}
_SHAPES_KEPT = 20_000


def calls_of(formula: str) -> frozenset[str]:
    """The function calls in ``formula``: each name with its opening parenthesis.

    Copied formulas differ only in their digits, so the answer is remembered by the
    formula's shape, its text with every digit masked: a shape fixes where every name and
    parenthesis is, so two formulas of one shape call the same functions unless a name
    itself holds a digit (LOG10, T.DIST.2T), and those are checked at their place. One
    scan of a masked copy costs a fraction of the regular expression over the text.

    >>> sorted(calls_of("=SUM(A1:A3)+LOG10(B2)")), sorted(calls_of("=SUM(A9:A9)+LOG20(B7)"))
    (['LOG10(', 'SUM('], ['LOG20(', 'SUM('])
    """
    encoded = formula.encode()
    shape = encoded.translate(_DIGITS_MASKED)
    known = _CALLS_BY_SHAPE.get(shape)
    if known is not None:
        calls, with_digits = known
        if not with_digits or all(encoded.startswith(name, at) for at, name in with_digits):
            return calls
    found = [(match.start(), match.group()) for match in _CALL.finditer(formula)]
    calls = frozenset(name for _, name in found)
    if known is None and len(_CALLS_BY_SHAPE) < _SHAPES_KEPT:
        with_digits = tuple((len(formula[:at].encode()), name.encode()) for at, name in found
                            if any(c in "0123456789" for c in name))
        _CALLS_BY_SHAPE[shape] = calls, with_digits
    return calls


class FormulaWorksheet(Worksheet):
    """XlsxWriter's worksheet, with its formula preparation done once per set of functions,
    and formula cells written with the values :class:`EvaluatedWorkbook` found.

    XlsxWriter runs some thirty regular expressions over every formula to give newer
    functions their ``_xlfn.`` prefix; a 200-player Swiss has tens of thousands of formulas
    calling the same few functions. Those rewrites only ever touch a function name and its
    parenthesis, so a formula whose calls come out unchanged when XlsxWriter prepares them
    on their own (a probe of just those calls) comes out unchanged as a whole: the answer
    is remembered per set of calls, and only formulas with a call XlsxWriter rewrites go
    through its own code. The output is byte for byte XlsxWriter's.

    >>> sheet = FormulaWorksheet()
    >>> sheet._prepare_formula("=SUM(A1:A3)"), sheet._prepare_formula("=SORT(A1:A3)")
    ('SUM(A1:A3)', '_xlfn._xlws.SORT(A1:A3)')
    """

    _unchanged: dict[tuple[frozenset[str], bool, bool], bool] = {}

    def __init__(self) -> None:
        super().__init__()
        # (row, column) -> the ` t=` attribute and the <v> text of each formula cell evaluated
        self.cached: dict[tuple[int, int], tuple[str, str]] = {}
        # row -> the XML of its cells, written where the row was evaluated (render_rows)
        self.rendered: dict[int, str] = {}
        # sets of calls whose formulas XlsxWriter writes as they are (for this sheet's
        # setting of future functions)
        self._plain: dict[frozenset[str], bool] = {}

    def _prepare_formula(self, formula: str, expand_future_functions: bool = False,
                         calls: frozenset[str] | None = None) -> str:
        if not self._unchanged_by_xlsxwriter(calls_of(formula) if calls is None else calls,
                                             expand_future_functions):
            return str(super()._prepare_formula(formula, expand_future_functions))
        return _stripped(formula)

    def _unchanged_by_xlsxwriter(self, calls: frozenset[str], expand_future_functions: bool) -> bool:
        """Whether XlsxWriter's rewrites leave a formula with these calls as it is."""
        key = (calls, bool(self.use_future_functions), bool(expand_future_functions))
        unchanged = self._unchanged.get(key)
        if unchanged is None:
            probe = " ".join(sorted(calls))
            unchanged = super()._prepare_formula(probe, expand_future_functions) == probe
            self._unchanged[key] = unchanged
        return unchanged

    def _write_formula(self, row: int, col: int, formula: str, cell_format: Any = None,
                       value: Any = 0) -> int:
        """XlsxWriter's own, with its search for dynamic-array functions (another regular
        expression over the whole formula) answered once per set of calls: it looks
        only at a function name and its parenthesis."""
        if not formula or formula.startswith("{") or self.constant_memory:
            return int(super()._write_formula(row, col, formula, cell_format, value))
        calls = calls_of(formula)
        plain = self._plain.get(calls)
        if plain is None:  # neither a dynamic array nor rewritten by XlsxWriter
            dynamic = re_dynamic_function.search(" ".join(sorted(calls))) is not None
            plain = self._plain[calls] = not dynamic and self._unchanged_by_xlsxwriter(calls, False)
        if not plain:
            return int(super()._write_formula(row, col, formula, cell_format, value))
        if self._check_dimensions(row, col):
            return -1
        prepared = formula[1:] if formula[0] == "=" and formula[-1] != "}" else _stripped(formula)
        self.table[row][col] = CellFormulaTuple(prepared, cell_format, value)
        return 0

    def _prepare_shape(self, index: int, drawing_id: int) -> None:
        """XlsxWriter's text box, named as its ``name`` option says when it has one
        (XlsxWriter names every text box ``TextBox n``): xlwings Lite finds a sheet
        button by the shape's name. ``"print": False`` keeps it off the printed page."""
        super()._prepare_shape(index, drawing_id)
        options = self.shapes[index][8]
        if options.get("name") or options.get("print", True) is False:
            self.drawing.__class__ = _NamedShapesDrawing
            shape = self.drawing.drawings[-1]._shape
            shape.given_name = options.get("name")
            shape.prints = options.get("print", True)

    def render_rows(self, rows: Iterable[int]) -> dict[int, str]:
        """The XML of the cells of ``rows`` (zero-based), each row's as one text, as
        :meth:`_write_cell` writes them; the formula cells' values must be in
        :attr:`cached`. Rows are rendered right after the evaluation
        (:meth:`EvaluatedWorkbook._evaluate`)."""
        texts: dict[int, str] = {}
        table, written = self.table, self.fh  # type: ignore[has-type]  # XlsxWriter's stream
        self.fh = buffer = io.StringIO()
        try:
            for row in rows:
                cells = table.get(row)
                if not cells:
                    continue
                for col in sorted(cells):
                    self._write_cell(row, col, cells[col])
                texts[row] = buffer.getvalue()
                buffer.seek(0)
                buffer.truncate()
        finally:
            self.fh = written
        return texts

    def _write_rows(self) -> None:
        """XlsxWriter's rows (``Worksheet._write_rows``), a row rendered already written
        whole, and each row's cells taken in column order instead of a scan of every
        column of the sheet."""
        if not self.rendered:
            super()._write_rows()
            return
        self._calculate_spans()
        table, row_info, rendered, spans = self.table, self.row_info, self.rendered, self.row_spans
        for row in range(self.dim_rowmin, self.dim_rowmax + 1):
            cells = table.get(row)
            if not cells:
                if row in row_info or row in self.comments:
                    self._write_empty_row(row, spans.get(row // 16), row_info.get(row))
                continue
            self._write_row(row, spans.get(row // 16), row_info.get(row))
            text = rendered.get(row)
            if text is not None:
                self.fh.write(text)
            else:
                for col in sorted(cells):
                    self._write_cell(row, col, cells[col])
            self._xml_end_tag("row")

    def _calculate_spans(self) -> None:
        """XlsxWriter's ``spans`` of each block of 16 rows (its first and last column with
        a cell or a comment), from each row's columns instead of a scan of every column."""
        spans: dict[int, str] = {}
        low = high = None
        first, last = self.dim_colmin, self.dim_colmax
        for row in range(self.dim_rowmin, self.dim_rowmax + 1):
            for cols in (self.table.get(row), self.comments.get(row)):
                inside = [col for col in cols or () if first <= col <= last]
                if inside:
                    if low is None or high is None:  # the block's first
                        low, high = min(inside), max(inside)
                    else:
                        low, high = min(low, *inside), max(high, *inside)
            if (row + 1) % 16 == 0 or row == self.dim_rowmax:
                if low is not None and high is not None:
                    spans[row // 16] = f"{low + 1}:{high + 1}"
                    low = high = None
        self.row_spans = spans

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        """A formula cell evaluated is written as ``chessrating recalc`` writes its value
        into a file: the kind in ``t=`` (none for a number) and the value in ``<v>``."""
        found = self.cached.get((row, col))  # only formula cells have one
        if found is None:
            super()._write_cell(row, col, cell)
            return
        typed, text = found
        self.fh.write(f'<c r="{column_name(col)}{row + 1}"{self._style_of(row, col, cell)}{typed}>'
                      f"<f>{self._escape_data(cell.formula)}</f><v>{text}</v></c>")

    def _style_of(self, row: int, col: int, cell: Any) -> str:
        """The ``s=`` attribute XlsxWriter gives a cell: its own format, else its row's,
        else its column's."""
        fmt = cell.format
        if not fmt:
            info = self.row_info.get(row)
            fmt = info.row_format if info is not None else None
        if not fmt:
            column = self.col_info.get(col)
            fmt = column.column_format if column is not None else None
        return f' s="{fmt._get_xf_index()}"' if fmt else ""


@dataclass
class Evaluation:
    """What :func:`evaluation` sets for the workbooks closed inside it, and the report of
    the last one evaluated."""

    evaluate: bool = True
    progress: Callable[[Step], None] | None = None
    label: str | None = None
    report: Report | None = field(default=None)


_SETTINGS: contextvars.ContextVar[Evaluation] = contextvars.ContextVar("evaluation")


class _NamedShapesDrawing(Drawing):
    """XlsxWriter's drawing part, with a shape's own name (``given_name``) and whether it
    prints (``prints``: ECMA-376's ``fPrintsWithSheet`` of the anchor's client data)."""

    _prints = True

    def _write_nv_sp_pr(self, index: int, drawing: DrawingInfo) -> None:
        name = getattr(drawing._shape, "given_name", None)
        if name is None:
            super()._write_nv_sp_pr(index, drawing)
            return
        self._xml_start_tag("xdr:nvSpPr")
        self._write_c_nv_pr(index + 1, drawing, name)
        self._xml_empty_tag("xdr:cNvSpPr", [("txBox", 1)])
        self._xml_end_tag("xdr:nvSpPr")

    def _write_sp(self, index: int, col_absolute: int, row_absolute: int, drawing: DrawingInfo) -> None:
        self._prints = getattr(drawing._shape, "prints", True)  # for this anchor's client data
        super()._write_sp(index, col_absolute, row_absolute, drawing)

    def _write_client_data(self) -> None:
        if self._prints:
            super()._write_client_data()
        else:
            self._xml_empty_tag("xdr:clientData", [("fPrintsWithSheet", 0)])
        self._prints = True


@contextlib.contextmanager
def evaluation(evaluate: bool = True, progress: Callable[[Step], None] | None = None,
               label: str | None = None) -> Iterator[Evaluation]:
    """Settings for the :class:`EvaluatedWorkbook` closed inside the ``with`` block:
    ``evaluate=False`` writes the formulas with empty values; ``progress`` receives a
    :class:`chessrating.recalc.Step` as the evaluation goes, naming the workbook ``label``.
    The yielded object's ``report`` holds what the evaluation found."""
    settings = Evaluation(evaluate, progress, label)
    token = _SETTINGS.set(settings)
    try:
        yield settings
    finally:
        _SETTINGS.reset(token)


def current_evaluation() -> Evaluation:
    """The settings of the innermost :func:`evaluation` (the defaults outside any)."""
    return _SETTINGS.get(None) or Evaluation()


class EvaluatedWorkbook(xlsxwriter.Workbook):
    """XlsxWriter's workbook, evaluated when closed (see the module's docstring)."""

    def close(self) -> None:
        if not self.fileclosed:
            self._number_styles()
            settings = current_evaluation()
            if settings.evaluate:
                settings.report = self._evaluate(settings)
        super().close()

    def _number_styles(self) -> None:
        """Give every format a cell, row or column uses its style index (``s=``) now, in
        the order the formats were made. XlsxWriter numbers a format when it is first
        written; rows of formulas are rendered before the others, which must number the
        formats alike, whichever is written first."""
        used: set[int] = set()
        for sheet in self.worksheets():
            for cells in getattr(sheet, "table", _NO_CELLS).values():
                used.update(id(cell.format) for cell in cells.values() if cell.format)
            used.update(id(info.row_format) for info in getattr(sheet, "row_info", _NO_CELLS).values()
                        if info.row_format)
            used.update(id(info.column_format) for info in getattr(sheet, "col_info", _NO_CELLS).values()
                        if info.column_format)
        for cell_format in self.formats:
            if id(cell_format) in used:
                cell_format._get_xf_index()

    def _store_workbook(self) -> None:
        """XlsxWriter's packaging, its parts deflated at zlib's fastest level.

        At zlib's default level, compressing the sheets took a tenth of a 249-player
        import; the fastest level takes a third of that, for a file about 40% larger
        (1.2 MB instead of 0.8 MB for that event), which every reader opens alike.
        XlsxWriter offers no setting for it: its module's ``ZipFile`` is, for the time
        of the packaging (one workbook at a time), one that deflates at level 1."""
        with _PACKAGING:
            xlsxwriter.workbook.ZipFile = functools.partial(zipfile.ZipFile, compresslevel=1)  # type: ignore[misc]
            try:
                super()._store_workbook()
            finally:
                xlsxwriter.workbook.ZipFile = zipfile.ZipFile  # type: ignore[misc]

    def _evaluate(self, settings: Evaluation) -> Report:
        book = book_of(self)
        path = Path(str(self.filename))
        report = Report(source=path, output=path, formula_count=len(book.formulas))
        say = settings.progress or (lambda step: None)
        name = settings.label or path.name
        total = len(book.formulas)
        say(Step("evaluating", 0, total, name))

        def step(done: int, total: int) -> None:
            say(Step("evaluating", done, total, name))
        sheets = {sheet.name: sheet for sheet in self.worksheets() if isinstance(sheet, FormulaWorksheet)}
        rendered = evaluate_book(book, step if total >= 2000 else None,
                                 then=lambda formulas: _render(book, sheets, formulas))
        written = record_values(book, report)
        for part in rendered:
            for sheet_name, rows in part.items():
                sheets[sheet_name].rendered.update(rows)
        for sheet in sheets.values():
            cells = written.get(sheet.name, {})
            table, cached, done = sheet.table, sheet.cached, sheet.rendered
            for (row, col), value in cells.items():
                if row - 1 not in done and type(table.get(row - 1, _NO_CELLS).get(col - 1)) is CellFormulaTuple:
                    cached[(row - 1, col - 1)] = _xml_value(value)
        self._chart_values = chart_values(book)
        say(Step("writing", total, total, name))
        return report

    def _add_chart_data(self) -> None:
        """The charts' caches, from the values found, as ``chessrating recalc`` writes them
        (:mod:`xlrecalc.charts`): a value series holds the numbers only, a
        category series the labels of the cells that are not empty."""
        super()._add_chart_data()
        lookup = getattr(self, "_chart_values", None)
        if lookup is None:
            return
        charts = [c for chart in self.charts for c in (chart, chart.combined) if c is not None]
        for chart in charts:
            numbers = {series.get("val_data_id") for series in chart.series}
            # a category series stays a text or a number series as its cells decide
            kinds: dict[int, str] = {}
            for formula, r_id in chart.formula_ids.items():
                data, values = chart.formula_data[r_id], lookup(formula)
                if not data or isinstance(data[0], list) or values is None:
                    continue
                if r_id in numbers:
                    chart.formula_data[r_id] = [_number(value) for value in values]
                else:
                    labels = [label_text(value) for value in values]
                    kinds[id(labels)] = chart._get_data_type(data)
                    chart.formula_data[r_id] = labels
            if kinds:
                chart._get_data_type = _kind_of(kinds, chart._get_data_type)


_NO_CELLS: dict[int, Any] = {}
_PACKAGING = threading.Lock()


def _render(book: Book, sheets: dict[str, FormulaWorksheet], formulas: list[Any]) -> dict[str, dict[int, str]]:
    """The XML of the cells of the rows of ``formulas`` (evaluated, with every formula of
    their rows), by sheet and zero-based row: run in the evaluation's thread once every
    formula is evaluated."""
    rows: dict[str, set[int]] = {}
    for formula in formulas:
        sheet, row, _ = formula.key
        rows.setdefault(sheet, set()).add(row)
    rendered: dict[str, dict[int, str]] = {}
    for name, numbers in rows.items():
        sheet = sheets.get(name)
        if sheet is None:
            continue
        values, table, cached = book.cells[name], sheet.table, sheet.cached
        ready = []
        for row in sorted(numbers):
            cells = table.get(row - 1, _NO_CELLS)
            found = [(col, values.get((row, col + 1), PENDING)) for col, cell in cells.items()
                     if type(cell) is CellFormulaTuple]
            if any(value is PENDING for _, value in found):
                continue  # not evaluated here: written from the merged values
            for col, value in found:
                cached[(row - 1, col)] = _xml_value(written_value(value))
            ready.append(row - 1)
        rendered[name] = sheet.render_rows(ready)
    return rendered


def _xml_value(value: Any) -> tuple[str, str]:
    """A formula cell's ``t=`` attribute and ``<v>`` text as written
    (:func:`xlrecalc.cell_xml_value`): only a text can hold characters
    XML escapes, numbers, logicals and error codes never do."""
    kind, text = cell_xml_value(value)
    if kind == "n":
        return "", text
    return f' t="{kind}"', value_text(text) if kind == "str" else text


def _kind_of(kinds: dict[int, str], decide: Callable[[Any], str]) -> Callable[[Any], str]:
    """XlsxWriter's choice of a series' cache kind, kept from the cells as written."""
    return lambda data: kinds.get(id(data)) or decide(data)


def _number(value: Any) -> str | None:
    """A value in a chart's number cache; ``None`` (left out) unless a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return number_text(float(value))


def _stripped(formula: str) -> str:
    """What XlsxWriter strips from a formula before its rewrites: array braces and the
    leading ``=``."""
    formula = formula[1:] if formula.startswith("{") else formula
    formula = formula[1:] if formula.startswith("=") else formula
    return formula[:-1] if formula.endswith("}") else formula


def book_of(workbook: xlsxwriter.Workbook) -> Book:
    """The evaluator's book of what an XlsxWriter workbook holds so far: values, formulas,
    defined names and the date system, with the rating functions. Array formulas and
    tables, which no template writes, are refused rather than guessed at."""
    book = Book(rating_functions())
    book.date1904 = bool(workbook.date_1904)
    # XlsxWriter numbers its shared strings as they come; the list is made at closing
    strings = {index: text for text, index in workbook.str_table.string_table.items()}
    sheets = workbook.worksheets()
    for sheet in sheets:
        book.add_sheet(sheet.name)
    for sheet in sheets:
        name = sheet.name
        if sheet.tables:  # none in the templates: say so rather than guess
            raise ValueError(f"{name}: a table; workbooks written in one pass hold none")
        values: dict[tuple[int, int], Any] = {}
        formulas: dict[tuple[int, int], str] = {}
        for row, cells in sheet.table.items():
            for col, cell in cells.items():
                kind = type(cell)
                if kind is CellBlankTuple:
                    continue
                at = (row + 1, col + 1)
                if kind is CellFormulaTuple:
                    formulas[at] = "=" + cell.formula
                elif kind is CellNumberTuple or kind is CellDatetimeTuple:
                    values[at] = float(cell.number)
                elif kind is CellStringTuple:
                    values[at] = strings[cell.string]
                elif kind is CellRichStringTuple:
                    values[at] = cell.raw_string
                elif kind is CellBooleanTuple:
                    values[at] = bool(cell.boolean)
                elif kind is CellErrorTuple and cell.error in ERROR_CODES:
                    values[at] = XlErr(cell.error)
                elif kind is CellArrayFormulaTuple:  # none in the templates: say so rather than guess
                    raise ValueError(f"{name}!{xl_rowcol_to_cell(row, col)}: an array formula; "
                                     "workbooks written in one pass hold none")
        book.add_cells(name, values, formulas)
    for defined, index, text, _hidden in workbook.defined_names:
        if defined.startswith("_xlnm."):
            continue  # print areas and titles: nothing a formula reads
        scope = sheets[index].name if index >= 0 else None
        book.define_name(defined, text.lstrip("="), scope)
    return book
