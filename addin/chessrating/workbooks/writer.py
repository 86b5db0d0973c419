"""XlsxWriter's workbook and worksheet as the templates use them: formulas prepared once
per set of functions, and every formula written with the value it computes.

A template is built in XlsxWriter's memory, then evaluated there, before a byte is
written: :class:`EvaluatedWorkbook` hands the cells, formulas and names it holds to the
headless evaluator (:mod:`chessrating.recalc`) when it is closed, and writes each formula
cell with its value, as ``chessrating recalc`` would write it into the finished file
(:func:`xlrecalc.cell_xml_value`); the charts' caches come from the same
values. One pass: no file is written, read back and rewritten.

What this takes of XlsxWriter's private side, and why (``benchmarks/xlsx_writer.py``
measures each against XlsxWriter's own code; figures in ``benchmarks/README.md``, (m)):

* the value of each formula cell (:meth:`FormulaWorksheet._write_cell`), written as
  Excel and ``chessrating recalc`` write it. The public ``write_formula(..., value=)``
  cannot: it writes an empty text as an untyped empty value (which some programs take
  as a cue to recalculate on opening), a text spelled like one of its seven error codes
  as that error, and any other error code as a text; and handing every value back
  through it once the workbook is evaluated costs 12 to 15 times the CPU of the build;
* the charts' caches (:meth:`EvaluatedWorkbook._add_chart_data`): XlsxWriter caches an
  empty text as the number 0, where the recalculation leaves the point out;
* formulas prepared once per set of functions called (:class:`FormulaWorksheet`), where
  XlsxWriter runs some thirty regular expressions over each: 6 to 8 times the CPU of a
  build otherwise;
* the zip deflated at zlib's fastest level (:meth:`EvaluatedWorkbook._store_workbook`):
  XlsxWriter's own packing, run with a ``ZipFile`` of its own; XlsxWriter's module is
  never changed. A tenth of a build's instructions, for a file a third larger.

The cells, formulas and names are read from XlsxWriter's tables (:func:`book_of`): it
has no public way to read back what was written. Each formula's text is then held once,
by the evaluator's book (the table's cell lets its copy go), and each value is turned
into its XML as its cell is written: a 2,000-player Swiss peaks at 448 MiB where holding
both copies and every value's XML took 729 (``benchmarks/import_trf.py --memory 2000``).

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
import math
import re
import types
import zipfile
from collections.abc import Callable, Iterator, Mapping
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

from ..recalc import Report, Step, chart_values, rating_functions, record_values
from xlrecalc import (ERROR_CODES, Book, XlErr, cell_xml_value, evaluate_book, label_text, number_text,
                      value_text)

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
        # the formula cells evaluated: (row, column), counted from 1 -> the value found
        self.cached: dict[tuple[int, int], Any] = {}
        # the evaluator's formulas, which hold this sheet's formula texts once
        # book_of(..., hand_over=True) has let the table's copies go
        self.formula_source: Mapping[tuple[str, int, int], Any] = {}
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

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        """A formula cell evaluated is written as ``chessrating recalc`` writes its value
        into a file: the kind in ``t=`` (none for a number) and the value in ``<v>``."""
        at = (row + 1, col + 1)
        if type(cell) is not CellFormulaTuple:
            super()._write_cell(row, col, cell)
            return
        formula = cell.formula
        if formula is _HANDED_OVER:  # the book holds the text now (book_of)
            formula = self.formula_source[(self.name, *at)].text[1:]
        if at not in self.cached:  # no value found (a function the engine does not know)
            super()._write_cell(row, col, cell._replace(formula=formula))
            return
        typed, text = _xml_value(self.cached[at])
        self.fh.write(f'<c r="{column_name(col)}{row + 1}"{self._style_of(row, col, cell)}{typed}>'
                      f"<f>{self._escape_data(formula)}</f><v>{text}</v></c>")

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
    """XlsxWriter's workbook, evaluated when closed (see the module's docstring); its
    worksheets are :class:`FormulaWorksheet`, which write the values found."""

    worksheet_class = FormulaWorksheet

    def close(self) -> None:
        if not self.fileclosed:
            self._number_styles()
            settings = current_evaluation()
            if settings.evaluate:
                settings.report = self._evaluate(settings)
        super().close()

    def _number_styles(self) -> None:
        """Give every format a cell, row or column uses its style index (``s=``) now, in
        the order the formats were made. XlsxWriter numbers a format when a cell first
        writes it; numbered here, a style's index does not depend on which sheet or row
        is written first."""
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
        """XlsxWriter's packaging, its parts deflated at zlib's fastest level
        (:func:`_packing_at_fastest_level`)."""
        _packing(self)

    def _evaluate(self, settings: Evaluation) -> Report:
        book = book_of(self, hand_over=True)
        path = Path(str(self.filename))
        report = Report(source=path, output=path, formula_count=len(book.formulas))
        say = settings.progress or (lambda step: None)
        name = settings.label or path.name
        total = len(book.formulas)
        say(Step("evaluating", 0, total, name))

        def step(done: int, total: int) -> None:
            say(Step("evaluating", done, total, name))
        evaluate_book(book, step if total >= 2000 else None)
        written = record_values(book, report)
        for sheet in self.worksheets():
            if not isinstance(sheet, FormulaWorksheet):  # it would write no value
                if written.get(sheet.name):
                    raise TypeError(f"{sheet.name}: formulas in a sheet that is no FormulaWorksheet")
                continue
            # each value is turned into its XML as its cell is written: held as XML
            # text, the values of a 2,000-player event took a tenth of its memory
            sheet.cached = written.get(sheet.name, {})
            sheet.formula_source = book.formulas
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


class _HandedOverText(str):
    """The formula of a worksheet cell whose text the evaluator's book holds."""


# the one object every handed-over cell holds as its formula (compared by identity)
_HANDED_OVER = _HandedOverText("")


def _packing_at_fastest_level() -> Callable[[xlsxwriter.Workbook], None]:
    """XlsxWriter's own packaging (``Workbook._store_workbook``), its ``ZipFile`` one that
    deflates at zlib's fastest level.

    XlsxWriter's default level costs a template's build 8 to 10% more instructions and a
    2,000-player import 12% more CPU, for a file about a quarter smaller, which every
    reader opens alike; XlsxWriter offers no setting for it. The same code runs with a
    namespace of its own, XlsxWriter's module's names but ``ZipFile``: XlsxWriter's
    module is never changed, so every other workbook in the process, in any thread,
    packs as XlsxWriter does."""
    store = xlsxwriter.Workbook._store_workbook
    names = dict(store.__globals__, ZipFile=functools.partial(zipfile.ZipFile, compresslevel=1))
    packing = types.FunctionType(store.__code__, names, store.__name__, store.__defaults__, store.__closure__)
    packing.__qualname__ = store.__qualname__
    return packing


_packing = _packing_at_fastest_level()


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


def book_of(workbook: xlsxwriter.Workbook, *, hand_over: bool = False) -> Book:
    """The evaluator's book of what an XlsxWriter workbook holds so far: values, formulas,
    defined names and the date system, with the rating functions. Array formulas and
    tables, which no template writes, are refused rather than guessed at.

    With ``hand_over``, each formula cell of the worksheets' tables lets its text go
    once the book holds it (its formula becomes :data:`_HANDED_OVER`, and
    :class:`FormulaWorksheet` writes the book's text): a 2,000-player Swiss holds 127
    million characters of formulas, which would otherwise be held twice."""
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
                    if hand_over:
                        cells[col] = tuple.__new__(CellFormulaTuple, (_HANDED_OVER, cell.format, cell.value))
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
