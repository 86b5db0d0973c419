"""The headless formula evaluator: a workbook's cells, formulas compiled to closures, and
evaluation on demand.

Every formula cell starts as :data:`~.values.PENDING`. Cells are evaluated in sheet
order, and reading a cell that is still pending evaluates it first, so the order follows
what each formula actually reads, references made at run time included (``INDEX(…):INDEX(…)``,
``OFFSET``, ``INDIRECT``). Reading a cell whose evaluation is under way is a circular
reference: every cell of the loop, from that cell to the reader, is flagged, as Excel
flags every cell of a cycle, and none of them keeps a number computed from a blank.

Only cells that exist cost anything: whole columns and rows stop at the sheet's used
range, and a range larger than what its sheet stores reads the stored cells only
(:meth:`.values.Rng.cells`). Evaluation runs in a thread with a large stack, so a chain
of thousands of cells each reading the next is followed rather than cut short.
"""

from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

from .addin_calls import forget_answers
from .array_ranges import HeldCells
from .book_view import Table
from .closures import where
from .collector import collector_paused
from .compile import EXTERNAL, CircularName, Closure, Compiled, compile_formula
from .dates import date_system
from .iteration import iterate, start_value
from .parse import CopyTemplate, FormulaSyntaxError, Ref, RefSpec, relative_key, split_sheet_name
from .storing import failed, store
from .values import PENDING, Key, Rng, XlErr, scalar, MAX_TEXT

__all__ = ["Book", "Formula", "Table", "evaluate_book", "collector_paused"]

_STACK_BYTES = 512 * 1024 * 1024  # the evaluation thread's stack (reserved, not used up front)
_RECURSION = 600_000  # Python frames in that thread: chains of about 60,000 cells


# Cells of array formulas' ranges a book fills whole, the cells its file does not hold
# included (a program may write only the anchor of <f t="array" ref="A1:C3">). Past it,
# a range covers the cells the file holds: what Excel writes, one <c> per cell of the
# range, and what a range over a whole sheet in a 2 KB file (17 billion cells) is not.
ARRAY_CELLS_FILLED = 1 << 16


class Formula:
    """One formula cell, or the anchor of a legacy array formula spanning ``ref``;
    ``cells`` are the cells of ``ref`` it fills, in rows (its own cell first)."""

    __slots__ = ("key", "text", "ref", "run", "specs", "error", "cells")

    def __init__(self, key: Key, text: str, ref: Ref | None = None,
                 cells: list[tuple[int, int]] | None = None):
        self.key, self.text, self.ref = key, text, ref
        self.cells = cells if cells is not None or ref is None else [
            (r, c) for r in range(ref.r1, ref.r2 + 1) for c in range(ref.c1, ref.c2 + 1)]
        self.run: Closure | None = None  # set when the formula compiles
        self.specs: list[RefSpec] = []
        self.error: XlErr | None = None

    @property
    def reads(self) -> list[Ref]:
        """The references written in the formula, as ranges of this cell."""
        return [spec.at(self.key[1], self.key[2]) for spec in self.specs]


class Book:
    """Cell values by sheet, formulas, defined names, tables and the functions to call."""

    def __init__(self, functions: dict[str, Callable[..., Any]]):
        self.functions = {name.upper(): fn for name, fn in functions.items()}
        self.cells: dict[str, dict[tuple[int, int], Any]] = {}
        self.sheet_names: dict[str, str] = {}  # upper-case -> as written
        self.extent: dict[str, tuple[int, int]] = {}
        self.formulas: dict[Key, Formula] = {}
        self.owner: dict[Key, Key] = {}  # cell of an array formula's range -> its anchor
        self.names: dict[tuple[str | None, str], str] = {}  # (sheet or None, NAME) -> text
        self.tables: dict[str, Table] = {}  # NAME -> table
        self.compiled_names: dict[tuple[str, str, bool], Any] = {}  # memo of the compiler
        # what the functions derived from ranges no cell of which changes again in this
        # evaluation (:func:`.values.settled`), emptied before each evaluation
        self.settled: dict[tuple[Any, ...], Any] = {}
        self.pending = 0  # formulas not evaluated yet
        self.evaluations = 0  # formula evaluations begun (closures.shared_value reads it)
        self.volatile = False  # whether a formula calls RAND, NOW, OFFSET … (set by compiling)
        self.date1904 = False  # the workbook counts dates from 1904 (<workbookPr date1904="1"/>)
        # Excel's cached values of formula cells, as the file holds them (set by the
        # readers); ``load_cached`` reads them on demand where a reader left that for later
        self.cached: dict[Key, Any] = {}
        self.load_cached: Callable[[], dict[Key, Any]] | None = None
        # formula cells not evaluated, which keep Excel's value: anchor -> the unknown
        # functions their formula calls
        self.kept: dict[Key, tuple[str, ...]] = {}
        # Excel's iterative calculation (<calcPr iterate="1" iterateCount=… iterateDelta=…>):
        # (most iterations, largest change that stops them), or None: cycles are errors
        self.iteration: tuple[int, float] | None = None
        self.cyclic: dict[Key, None] = {}  # cells met in a cycle, when iterating
        self.previous: dict[Key, Any] = {}  # their values of the iteration before
        self.array_room = ARRAY_CELLS_FILLED  # cells array ranges may still fill whole
        # anchors of array formulas past that room whose file holds only some cells of
        # their range: the range, and how many cells of it are calculated (those held)
        self.unfilled: dict[Key, tuple[Ref, int]] = {}
        # anchors of dynamic array formulas (Excel 365's spills, cm= a cell metadata whose
        # XLDAPR properties say fDynamic), as opposed to legacy (CSE) array formulas
        self.dynamic: set[Key] = set()
        self._pools: dict[str, HeldCells] = {}  # per sheet, for ranges past array_room
        self._defaults: dict[str, list[Any]] = {}
        self._active: dict[Key, int] = {}  # formulas under evaluation -> depth, in order begun
        self._circular: dict[Key, str] = {}
        # formulas under evaluation already found in a cycle -> the depth of the lowest
        # formula of it (the walk down the stack stops at one found with a loop as low)
        self._in_loop: dict[Key, int] = {}
        self._cycle_errors: dict[Key, XlErr] = {}

    def drop_compiled(self) -> None:
        """Forget the formulas' compiled forms (an evaluation compiles them again). Each
        holds the book and the book holds it: dropped, the book is freed as soon as it
        is no longer used, without the cycle collector walking its every object."""
        for formula in self.formulas.values():
            formula.run = None
        self.compiled_names.clear()

    # -- building ---------------------------------------------------------------
    def add_sheet(self, name: str) -> None:
        self.cells[name] = {}
        self.sheet_names[name.upper()] = name
        self.extent[name] = (0, 0)

    def set_value(self, sheet: str, row: int, col: int, value: Any) -> None:
        self.cells[sheet][(row, col)] = value
        rows, cols = self.extent[sheet]
        if row > rows or col > cols:
            self.extent[sheet] = (max(rows, row), max(cols, col))

    def add_formula(self, sheet: str, row: int, col: int, text: str, ref: Ref | None = None,
                    held: Callable[[], Iterable[tuple[int, int]]] | None = None) -> None:
        """A formula at (row, col); ``ref`` the range of a legacy array formula, filled
        whole while :data:`ARRAY_CELLS_FILLED` lasts, else at the cells of the sheet that
        ``held`` gives (the cells its file holds)."""
        key = (sheet, row, col)
        if key not in self.formulas:
            self.pending += 1
        cells = None
        if ref is not None:
            area = (ref.r2 - ref.r1 + 1) * (ref.c2 - ref.c1 + 1)
            if area <= self.array_room:
                self.array_room -= area
            else:
                pool = self._pools.get(sheet)
                if pool is None:
                    pool = self._pools[sheet] = HeldCells(held() if held is not None else ())
                cells = sorted(set(pool.take(ref)) | {(row, col)})
                if len(cells) < area:
                    self.unfilled[key] = (ref, len(cells))
        formula = self.formulas[key] = Formula(key, text, ref, cells)
        self.set_value(sheet, row, col, PENDING)
        for r, c in formula.cells or ():
            if (r, c) != (row, col):
                self.owner[(sheet, r, c)] = key
                self.set_value(sheet, r, c, PENDING)

    def add_cells(self, sheet: str, values: dict[tuple[int, int], Any],
                  formulas: dict[tuple[int, int], str]) -> None:
        """A sheet's values and (ordinary) formulas by (row, column) at once: what
        :meth:`set_value` and :meth:`add_formula` do cell by cell, for a whole sheet."""
        cells = self.cells[sheet]
        cells.update(values)
        cells.update(dict.fromkeys(formulas, PENDING))
        for (row, col), text in formulas.items():
            key = (sheet, row, col)
            if key not in self.formulas:
                self.pending += 1
            self.formulas[key] = Formula(key, text)
        if cells:
            rows, cols = self.extent[sheet]
            self.extent[sheet] = (max(rows, max(r for r, _ in cells)),
                                  max(cols, max(c for _, c in cells)))

    def define_name(self, name: str, text: str, sheet: str | None = None) -> None:
        self.names[(sheet, name.upper())] = text

    def add_table(self, table: Table) -> None:
        self.tables[table.name.upper()] = table

    # -- reading ----------------------------------------------------------------
    def value(self, sheet: str, row: int, col: int) -> Any:
        value = self.cells[sheet].get((row, col))
        if value is PENDING:
            return self.demand((sheet, row, col))
        return value

    def clip(self, sheet: str, row: int, col: int) -> tuple[int, int]:
        rows, cols = self.extent.get(sheet, (0, 0))
        return min(row, rows), min(col, cols)

    def sheet(self, name: str | None, here: str) -> str:
        if name is None:
            return here
        found = self.sheet_names.get(name.upper())
        if found is None:
            raise FormulaSyntaxError(f"no sheet named {name!r}")
        return found

    def sheets_between(self, first: str, last: str) -> list[str]:
        """The sheets of a 3-D reference ``First:Last!``, in the workbook's order."""
        order = list(self.cells)
        i, j = order.index(self.sheet(first, "")), order.index(self.sheet(last, ""))
        return order[min(i, j):max(i, j) + 1]

    def name_text(self, name: str, here: str) -> str | None:
        sheet, bare = split_sheet_name(name)
        scope = self.sheet(sheet, here) if sheet else here
        return self.names.get((scope, bare.upper()), self.names.get((None, bare.upper())))

    def table_at(self, key: Key) -> Table | None:
        """The table whose range holds the cell ``key``."""
        sheet, row, col = key
        for table in self.tables.values():
            if table.sheet == sheet and table.r1 <= row <= table.r2 and table.c1 <= col <= table.c2:
                return table
        return None

    def parameters(self, name: str) -> list[str]:
        """The parameter names of an add-in function, to find the argument its error names."""
        try:
            return list(inspect.signature(self.functions[name]).parameters)
        except (TypeError, ValueError):
            return []

    def defaults(self, name: str) -> list[Any]:
        """The Python defaults of an add-in function's parameters, for omitted arguments."""
        if name not in self._defaults:
            try:
                params = list(inspect.signature(self.functions[name]).parameters.values())
            except (TypeError, ValueError):
                params = []
            self._defaults[name] = [None if p.default is inspect.Parameter.empty else p.default
                                    for p in params]
        return self._defaults[name]

    def compile_formula(self, text: str, here: Key, array: bool) -> Compiled:
        """``text`` compiled as written in the cell ``here`` (INDIRECT reads a text
        reference this way)."""
        return compile_formula(self, text, here, array)

    # -- evaluating -------------------------------------------------------------
    def demand(self, key: Key) -> Any:
        """The value of a formula cell, evaluating it now if it is still pending."""
        owner = self.owner
        anchor = owner.get(key, key) if owner else key  # no array formula: its own anchor
        if anchor in self._active:
            if self.iteration is not None:  # the value of the iteration before
                self._note_cycle(anchor, key)
                previous = self.previous
                return previous[key] if key in previous else start_value(self, key)
            self._flag_cycle(anchor)
            found = self._cycle_errors.get(anchor)  # one error a cell, however often read
            if found is None:
                found = self._cycle_errors[anchor] = XlErr("#REF!", self._circular[anchor], where(anchor))
            return found
        formula = self.formulas.get(anchor)
        if formula is not None and self.cells[anchor[0]].get(anchor[1:]) is PENDING:
            self.evaluate(formula)
        return self.cells[key[0]].get(key[1:])

    def _flag_cycle(self, anchor: Key) -> None:
        fresh = self._new_in_loop(anchor)
        if not fresh:
            return
        # the formulas under evaluation, in the order their evaluations began
        loop = list(self._active)[self._active[anchor]:]
        path = " → ".join(where(k) for k in [*loop, anchor])
        for key in fresh:
            self._circular.setdefault(key, f"circular reference: {path}")

    def _note_cycle(self, anchor: Key, key: Key) -> None:
        for member in self._new_in_loop(anchor):
            self.cyclic[member] = None
        self.cyclic[key] = None

    def _new_in_loop(self, anchor: Key) -> list[Key]:
        """The formulas from ``anchor`` to the top of the stack (a loop, the top reading
        ``anchor``) not yet known to be in one as low: walked down from the top, and
        stopped at a formula marked by a loop reaching as low, since every formula
        between was marked with it. A loop met a million times (cells that each read
        all the others) costs its length once, not at each meeting."""
        depth = self._active[anchor]
        marks, fresh = self._in_loop, []
        for key in reversed(self._active):
            if marks.get(key, depth + 1) <= depth:
                break
            marks[key] = depth
            fresh.append(key)
            if key == anchor:
                break
        return fresh

    def evaluate(self, formula: Formula) -> None:
        key = formula.key
        self.evaluations += 1
        # the formulas under evaluation: a dict keeps the order they were added in, and
        # each leaves it before the one that demanded it (a stack, with a fast lookup)
        active = self._active
        active[key] = len(active)
        result: Any
        try:
            if formula.error is not None:
                result = formula.error
            else:
                run = formula.run
                if run is None:  # only formulas that compiled have a closure
                    raise ValueError(f"formula {formula.text!r} at {key} was not compiled")
                try:
                    result = run(key)
                    kind = type(result)
                    if kind is not float and kind is not str and isinstance(result, Rng):
                        # a reference (=B1, =INDEX(…)) is read while its formula is still
                        # under evaluation, so a cycle through it is seen as one
                        if formula.ref is None:
                            result = scalar(result, key)
                        else:
                            result.rows()  # the cells it shows, evaluated now
                except Exception as exc:  # one formula failing costs its cell, never the workbook
                    result = failed(formula, exc)
        finally:
            del active[key]
            if self._in_loop:  # a mark holds while its formula is under evaluation
                self._in_loop.pop(key, None)
        if self._circular and key in self._circular:
            result = XlErr("#REF!", self._circular[key], where(key))
        kind = type(result)
        # a number, or a text Excel can hold, stored as it is (storing.store's first cases,
        # inlined)
        if formula.ref is None and (kind is float or kind is str and len(result) <= MAX_TEXT):
            self.cells[key[0]][key[1:]] = result
        else:
            store(self, formula, result)
        self.pending -= 1


def _compile_all(book: Book) -> None:
    """Compile every formula; formulas copied across a table share one compiled form.

    Copies are found cheaply first: a column keeps the last few formulas compiled in it
    as :class:`CopyTemplate`; a formula whose text is one of them moved down by the rows
    between is that formula copied, found by one comparison of texts. Others are
    compared by :func:`relative_key`."""
    shared: dict[tuple[str, bool, str], Compiled | FormulaSyntaxError] = {}
    # per sheet, per column (its number, negative for array formulas): (first row, its
    # text as a template, its compiled form, the form when it is an ordinary one: what
    # a copy of it takes at once)
    copies: dict[str, dict[int, list[tuple[int, CopyTemplate, Any, Compiled | None]]]] = {}
    columns: dict[int, list[tuple[int, CopyTemplate, Any, Compiled | None]]] = {}
    last_sheet = None  # a sheet's formulas come together: its columns looked up once
    for key, formula in book.formulas.items():
        sheet, row, col = key
        if sheet is not last_sheet:
            columns, last_sheet = copies.setdefault(sheet, {}), sheet
        array = formula.ref is not None
        text = formula.text
        group = -col if array else col
        forms = columns.get(group)
        if forms is not None:
            for first_row, form, found, plain in forms:
                if form.moved(row - first_row) == text:
                    break
            else:
                found = None
            if plain is not None and found is not None:  # a copy of an ordinary formula
                formula.run, formula.specs = plain.run, plain.reads
                continue
            if found is not None:
                _take_compiled(book, formula, found)
                continue
        form_key = (sheet, array, relative_key(text, row, col))
        in_table = bool(book.tables) and "[" in text
        if in_table:  # [@Col] means the table the cell is in
            table = book.table_at(key)
            form_key = (sheet + "\0" + (table.name if table else ""), array, form_key[2])
        compiled = shared.get(form_key)
        if compiled is None:
            try:
                compiled = compile_formula(book, text, key, array)
            except FormulaSyntaxError as exc:
                compiled = exc
            shared[form_key] = compiled
        if not in_table:  # the few forms a column alternates between, newest first
            ordinary = compiled if type(compiled) is Compiled and not compiled.unknown \
                and not compiled.volatile else None
            columns[group] = [(row, CopyTemplate(text), compiled, ordinary), *(forms or [])][:_FORMS_KEPT]
        _take_compiled(book, formula, compiled)


def _take_compiled(book: Book, formula: Formula, compiled: Compiled | FormulaSyntaxError) -> None:
    """Give ``formula`` its compiled form, or its error, or its cells Excel's values."""
    key, text = formula.key, formula.text
    if isinstance(compiled, CircularName):  # reported as a cycle of cells is
        loop = " → ".join(f"name {n}" for n in compiled.names)
        formula.error = XlErr("#REF!", f"circular reference: {where(key)} → {loop}", where(key))
    elif isinstance(compiled, FormulaSyntaxError):
        message = f"{compiled} in ={text.lstrip('=')[:200]}"
        formula.error = XlErr("#NAME?", message, where(key))
    elif compiled.unknown:
        _keep_cached(book, formula, compiled.unknown)
    else:
        formula.run = compiled.run
        formula.specs = compiled.reads
        if compiled.volatile:  # book.volatile or compiled.volatile, stored only when true
            book.volatile = True


_FORMS_KEPT = 4


def evaluate_book(book: Book, progress: Callable[[int, int], None] | None = None, *,
                  then: Callable[[list[Formula]], Any] | None = None) -> list[Any]:
    """Compile and evaluate every formula; results land in ``book.cells``.

    ``then(formulas)`` is called once every formula is evaluated, with all of them, in
    the evaluation's thread (with its large stack); what it returns is returned as the
    one item of a list (empty without ``then``)."""
    forget_answers(book)  # the add-in functions' answers of an earlier evaluation
    book.settled.clear()
    try:
        with collector_paused():
            return _evaluate_book(book, progress, then)
    finally:  # they serve one evaluation: held on, they are memory the values to write need
        forget_answers(book)
        book.settled.clear()


def _evaluate_book(book: Book, progress: Callable[[int, int], None] | None,
                   then: Callable[[list[Formula]], Any] | None) -> list[Any]:
    failure: list[BaseException] = []
    found: list[Any] = []

    def work() -> None:
        try:
            with date_system(book.date1904):
                _compile_all(book)
                _evaluate_all(book, progress)
                if book.iteration is not None and book.cyclic:
                    iterate(book, *book.iteration,
                            lambda b, formulas: _evaluate_formulas(b, formulas, None))
                if then is not None:
                    found.append(then(list(book.formulas.values())))
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    previous_limit = sys.getrecursionlimit()
    previous_stack = threading.stack_size()
    try:
        threading.stack_size(_STACK_BYTES)
        sys.setrecursionlimit(_RECURSION)
        thread = threading.Thread(target=work, name="recalc")
        thread.start()
    except (ValueError, RuntimeError, MemoryError):  # no big stack here: evaluate in place
        sys.setrecursionlimit(previous_limit)
        thread = None
        work()
    finally:
        threading.stack_size(previous_stack)
    if thread is not None:
        thread.join()
        sys.setrecursionlimit(previous_limit)
    if failure:
        raise failure[0]
    return found


def _keep_cached(book: Book, formula: Formula, unknown: tuple[str, ...]) -> None:
    """A formula calling a function the engine does not know is not evaluated: its
    cells hold the value Excel cached (which the cells reading them then read), and are
    not written. Without a cached value a cell is ``#NAME?`` naming the function, for
    the cells that read it."""
    if book.load_cached is not None:
        book.cached.update(book.load_cached())
        book.load_cached = None
    key = formula.key
    book.kept[key] = unknown
    if unknown[0].endswith(EXTERNAL):  # a reference to another workbook
        missing = XlErr("#REF!", f"a reference to another workbook "
                                 f"{unknown[0].removesuffix(EXTERNAL).strip()} without Excel's value",
                        where(key))
    else:
        missing = XlErr("#NAME?", f"unknown function {unknown[0]}", where(key))
    cells = [key] if formula.cells is None else [(key[0], r, c) for r, c in formula.cells]
    for cell in cells:
        book.cells[cell[0]][cell[1:]] = book.cached.get(cell, missing)
    book.pending -= 1


def _evaluate_all(book: Book, progress: Callable[[int, int], None] | None) -> None:
    _evaluate_formulas(book, list(book.formulas.values()), progress)


def _evaluate_formulas(book: Book, formulas: list[Formula],
                       progress: Callable[[int, int], None] | None) -> None:
    """Evaluate those of ``formulas`` still pending, in order; ``progress`` hears of the
    share done, scaled to all the book's formulas."""
    count, total = len(formulas), len(book.formulas)
    cells, evaluate = book.cells, book.evaluate
    if progress is None:  # the loop below without its progress
        for formula in formulas:
            key = formula.key
            if cells[key[0]].get(key[1:]) is PENDING:
                evaluate(formula)
        return
    for done, formula in enumerate(formulas, start=1):
        key = formula.key
        if cells[key[0]].get(key[1:]) is PENDING:
            evaluate(formula)
        if done % 1000 == 0 or done == count:
            progress(done * total // count, total)
