"""The headless formula evaluator: a workbook's cells, formulas compiled to closures, and
evaluation in dependency order.

Excel's own functions come from the ``formulas`` package's function library, except a
few that need references or lazy arguments (``IF``, ``IFERROR``, ``INDEX``, ``ROW`` …)
or are hot in crosstables (``SUM``, ``COUNT``), which are written here. Our rating
functions are called with the shapes classic xlwings hands over: a scalar, a flat list
for a row or column, a list of lists for a block, ``None`` for blanks, floats, and an
Excel error as its text (``"#N/A"``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from .compile import Closure, Compiled, cell_name, compile_formula
from .parse import FormulaSyntaxError, Ref, relative_key, split_sheet_name
from .values import Arr, Rng, XlErr, scalar

__all__ = ["Book", "Formula", "evaluate_book"]

Key = tuple[str, int, int]  # sheet, row, column



class Formula:
    """One formula cell, or the anchor of a legacy array formula spanning ``ref``."""

    __slots__ = ("key", "text", "ref", "run", "reads", "error")

    def __init__(self, key: Key, text: str, ref: Ref | None = None):
        self.key, self.text, self.ref = key, text, ref
        self.run: Closure | None = None  # set when the formula compiles
        self.reads: list[Ref] = []
        self.error: XlErr | None = None


class Book:
    """Cell values by sheet, formulas, defined names and the functions to call."""

    def __init__(self, functions: dict[str, Callable[..., Any]]):
        self.functions = {name.upper(): fn for name, fn in functions.items()}
        self.cells: dict[str, dict[tuple[int, int], Any]] = {}
        self.sheet_names: dict[str, str] = {}  # upper-case -> as written
        self.extent: dict[str, tuple[int, int]] = {}
        self.formulas: dict[Key, Formula] = {}
        self.owner: dict[Key, Key] = {}  # cell of an array formula's range -> its anchor
        self.names: dict[tuple[str | None, str], str] = {}  # (sheet or None, NAME) -> text
        self._defaults: dict[str, list[Any]] = {}

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

    def add_formula(self, sheet: str, row: int, col: int, text: str, ref: Ref | None = None) -> None:
        key = (sheet, row, col)
        self.formulas[key] = Formula(key, text, ref)
        self.set_value(sheet, row, col, None)
        if ref is not None:
            for r in range(ref.r1, ref.r2 + 1):
                for c in range(ref.c1, ref.c2 + 1):
                    self.owner[(sheet, r, c)] = key
                    self.set_value(sheet, r, c, None)

    def define_name(self, name: str, text: str, sheet: str | None = None) -> None:
        self.names[(sheet, name.upper())] = text

    # -- reading ----------------------------------------------------------------
    def value(self, sheet: str, row: int, col: int) -> Any:
        return self.cells[sheet].get((row, col))

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

    def name_text(self, name: str, here: str) -> str | None:
        sheet, bare = split_sheet_name(name)
        scope = self.sheet(sheet, here) if sheet else here
        return self.names.get((scope, bare.upper()), self.names.get((None, bare.upper())))

    def parameters(self, name: str) -> list[str]:
        """The parameter names of a rating function, to find the argument a message names."""
        try:
            return list(inspect.signature(self.functions[name]).parameters)
        except (TypeError, ValueError):
            return []

    def defaults(self, name: str) -> list[Any]:
        """The Python defaults of a rating function's parameters, for omitted arguments."""
        if name not in self._defaults:
            try:
                params = list(inspect.signature(self.functions[name]).parameters.values())
            except (TypeError, ValueError):
                params = []
            self._defaults[name] = [None if p.default is inspect.Parameter.empty else p.default
                                    for p in params]
        return self._defaults[name]


def _order(book: Book) -> tuple[list[Formula], list[Formula]]:
    """Formulas in an order where each comes after every formula it reads; the second
    list holds those caught in a circular reference."""
    by_sheet: dict[str, list[Key]] = {}
    for key in list(book.formulas) + list(book.owner):
        by_sheet.setdefault(key[0], []).append(key)
    covered: dict[Ref, list[Key]] = {}

    def inside(ref: Ref) -> list[Key]:
        if ref not in covered:
            sheet = ref.sheet
            if sheet is None:  # compiling resolves every reference to its sheet
                raise ValueError(f"reference {ref} names no sheet")
            keys = by_sheet.get(sheet, [])
            r2, c2 = book.clip(sheet, ref.r2, ref.c2)
            if (r2 - ref.r1 + 1) * (c2 - ref.c1 + 1) < len(keys):
                found = [(sheet, r, c) for r in range(ref.r1, r2 + 1)
                         for c in range(ref.c1, c2 + 1)
                         if (sheet, r, c) in book.formulas or (sheet, r, c) in book.owner]
            else:
                found = [k for k in keys if ref.r1 <= k[1] <= ref.r2 and ref.c1 <= k[2] <= ref.c2]
            covered[ref] = sorted({book.owner.get(k, k) for k in found})
        return covered[ref]

    order: list[Formula] = []
    state: dict[Key, int] = {}  # 1 visiting, 2 done
    circular: list[Formula] = []
    for start in book.formulas:
        if state.get(start):
            continue
        stack: list[tuple[Key, Iterable[Key]]] = [(start, iter(_needs(book, start, inside)))]
        state[start] = 1
        while stack:
            key, pending = stack[-1]
            for need in pending:
                if state.get(need) == 1:
                    circular.append(book.formulas[need])
                elif not state.get(need):
                    state[need] = 1
                    stack.append((need, iter(_needs(book, need, inside))))
                    break
            else:
                stack.pop()
                state[key] = 2
                order.append(book.formulas[key])
    return order, circular


def _needs(book: Book, key: Key, inside: Callable[[Ref], list[Key]]) -> list[Key]:
    formula = book.formulas[key]
    needs: list[Key] = []
    for ref in formula.reads:
        needs.extend(k for k in inside(ref) if k != key)
    return needs


def _compile_all(book: Book) -> None:
    """Compile every formula; formulas copied across a table share one compiled form."""
    shared: dict[tuple[str, bool, str], Compiled | FormulaSyntaxError] = {}
    for key, formula in book.formulas.items():
        sheet, row, col = key
        array = formula.ref is not None
        form_key = (sheet, array, relative_key(formula.text, row, col))
        compiled = shared.get(form_key)
        if compiled is None:
            try:
                compiled = compile_formula(book, formula.text, key, array)
            except FormulaSyntaxError as exc:
                compiled = exc
            shared[form_key] = compiled
        if isinstance(compiled, FormulaSyntaxError):
            message = f"{compiled} in ={formula.text.lstrip('=')}"
            formula.error = XlErr("#NAME?", message, f"{sheet}!{cell_name(row, col)}")
        else:
            formula.run = compiled.run
            formula.reads = [spec.at(row, col) for spec in compiled.reads]


def evaluate_book(book: Book, progress: Callable[[int, int], None] | None = None) -> None:
    """Compile and evaluate every formula; results land in ``book.cells``."""
    _compile_all(book)
    order, circular = _order(book)
    for formula in circular:
        sheet, row, col = formula.key
        formula.error = XlErr("#REF!", "circular reference", f"{sheet}!{cell_name(row, col)}")
    total = len(order)
    for done, formula in enumerate(order, start=1):
        _store(book, formula, formula.error if formula.error else _run(formula))
        if progress is not None and (done % 1000 == 0 or done == total):
            progress(done, total)


def _run(formula: Formula) -> Any:
    if formula.run is None:  # evaluate_book runs only formulas that compiled
        raise ValueError(f"formula {formula.text!r} at {formula.key} was not compiled")
    try:
        return formula.run(formula.key)
    except RecursionError:
        return XlErr("#VALUE!", "formula nested too deeply")


def _store(book: Book, formula: Formula, result: Any) -> None:
    sheet, row, col = formula.key
    if formula.ref is None:
        if isinstance(result, (Rng, Arr)):
            result = scalar(result, formula.key)
        book.cells[sheet][(row, col)] = 0.0 if result is None else result
        return
    rows = result.rows() if isinstance(result, (Rng, Arr)) else [[result]]
    ref = formula.ref
    for r in range(ref.r1, ref.r2 + 1):
        for c in range(ref.c1, ref.c2 + 1):
            i = 0 if len(rows) == 1 else r - ref.r1
            j = 0 if len(rows[0]) == 1 else c - ref.c1
            value = rows[i][j] if i < len(rows) and j < len(rows[0]) else XlErr("#N/A")
            book.cells[sheet][(r, c)] = 0.0 if value is None else value
