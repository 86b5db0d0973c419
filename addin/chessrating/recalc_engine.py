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
import math
from collections.abc import Callable, Iterable
from typing import Any

from .recalc_functions import BUILTINS, LAZY, ARRAY_ARGS, call_library, library_has
from .recalc_parse import FormulaSyntaxError, Ref, Token, parse_ref, split_sheet_name, tokenize
from .recalc_values import MISSING, Arr, Rng, XlErr, binary, lift

__all__ = ["Book", "Formula", "evaluate_book"]

Key = tuple[str, int, int]  # sheet, row, column

_PRECEDENCE = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3,
               "*": 4, "/": 4, "^": 5}
_UNARY_PRECEDENCE = 7
_SPECIAL_NAMES = {"INDIRECT", "OFFSET"}  # need references computed at run time


class Formula:
    """One formula cell, or the anchor of a legacy array formula spanning ``ref``."""

    __slots__ = ("key", "text", "ref", "run", "reads", "error")

    def __init__(self, key: Key, text: str, ref: Ref | None = None):
        self.key, self.text, self.ref = key, text, ref
        self.run: Callable[[], Any] | None = None
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


def _as_python(value: Any) -> Any:
    """A cell value as classic xlwings hands it to a function."""
    if isinstance(value, XlErr):
        return value.code
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return value


def _as_argument(value: Any, default: Any) -> Any:
    if value is MISSING:
        return default
    if isinstance(value, (Rng, Arr)):
        rows = [[_as_python(v) for v in row] for row in value.rows()]
        if len(rows) == 1 and len(rows[0]) == 1:
            return rows[0][0]
        if len(rows) == 1:
            return rows[0]
        if rows and len(rows[0]) == 1:
            return [row[0] for row in rows]
        return rows
    return _as_python(value)


def _from_python(value: Any) -> Any:
    """A function's return value as a cell value: ``None`` shows as an empty string."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        number = float(value)
        return XlErr("#NUM!") if not math.isfinite(number) else number
    if isinstance(value, str):
        return value
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _from_python(value.tolist())
    if isinstance(value, (list, tuple)):
        if not value:
            return ""
        rows = value if isinstance(value[0], (list, tuple)) else [value]
        return Arr([[_from_python(v) for v in row] for row in rows])
    return str(value)


class _Compiler:
    """Recursive-descent parser that builds closures for one formula."""

    def __init__(self, book: Book, here: Key, array: bool):
        self.book, self.here = book, here
        self.array_depth = 1 if array else 0
        self.reads: list[Ref] = []
        self.tokens: list[Token] = []
        self.pos = 0
        self._names_seen: set[str] = set()

    def compile(self, text: str) -> Callable[[], Any]:
        self.tokens, self.pos = tokenize(text), 0
        fn = self.expression(0)
        if self.pos != len(self.tokens):
            raise FormulaSyntaxError(f"unexpected {self.tokens[self.pos].text!r}")
        return fn

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str | None = None) -> Token:
        token = self.peek()
        if token is None or (kind is not None and token.kind != kind):
            raise FormulaSyntaxError(f"expected {kind or 'more'} at the end" if token is None
                                     else f"expected {kind}, found {token.text!r}")
        self.pos += 1
        return token

    # -- expressions ------------------------------------------------------------
    def expression(self, min_precedence: int) -> Callable[[], Any]:
        left = self.prefix()
        while True:
            token = self.peek()
            if token is None or token.kind != "op":
                return left
            op = token.text
            if op == "%":
                self.pos += 1
                left = self.apply(lambda a: binary("/")(a, 100.0), left)
                continue
            if op == ":":
                self.pos += 1
                left = self.range_join(left, self.prefix())
                continue
            precedence = _PRECEDENCE[op]
            if precedence <= min_precedence:
                return left
            self.pos += 1
            right = self.expression(precedence)
            left = self.apply(binary(op), left, right)

    def apply(self, fn: Callable[..., Any], *operands: Callable[[], Any]) -> Callable[[], Any]:
        """An operator over operands: element by element in array context, else on the
        implicit intersection of a range with the formula's row or column."""
        if self.array_depth:
            return lambda: lift(fn, *(op() for op in operands))
        scalar = self.scalar
        if len(operands) == 1:
            (a,) = operands
            return lambda: fn(scalar(a()))
        a, b = operands
        return lambda: fn(scalar(a()), scalar(b()))

    def scalar(self, value: Any) -> Any:
        if isinstance(value, Rng):
            rows, cols = value.shape
            sheet, row, col = self.here
            if rows == 1 and cols == 1:
                return self.book.value(value.sheet, value.r1, value.c1)
            if cols == 1 and value.r1 <= row <= value.r2:
                return self.book.value(value.sheet, row, value.c1)
            if rows == 1 and value.c1 <= col <= value.c2:
                return self.book.value(value.sheet, value.r1, col)
            return XlErr("#VALUE!")
        if isinstance(value, Arr):
            return value.rows_[0][0] if value.rows_ and value.rows_[0] else XlErr("#VALUE!")
        return value

    def range_join(self, left: Callable[[], Any], right: Callable[[], Any]) -> Callable[[], Any]:
        def joined() -> Any:
            a, b = left(), right()
            if not (isinstance(a, Rng) and isinstance(b, Rng) and a.sheet == b.sheet):
                return XlErr("#REF!")
            return Rng(a.book, a.sheet, min(a.r1, b.r1), min(a.c1, b.c1),
                       max(a.r2, b.r2), max(a.c2, b.c2))
        return joined

    def prefix(self) -> Callable[[], Any]:
        token = self.take()
        kind = token.kind
        if kind == "op" and token.text in "+-":
            operand = self.expression(_UNARY_PRECEDENCE)
            if token.text == "+":
                return operand
            return self.apply(lambda a: binary("-")(0.0, a), operand)
        if kind == "num":
            number = float(token.text)
            return lambda: number
        if kind == "str":
            text = token.text[1:-1].replace('""', '"')
            return lambda: text
        if kind == "bool":
            flag = token.text.upper() == "TRUE"
            return lambda: flag
        if kind == "err":
            error = XlErr(token.text)
            return lambda: error
        if kind == "ref":
            return self.reference(parse_ref(token.text))
        if kind == "name":
            return self.name(token.text)
        if kind == "func":
            return self.call(token.text[:-1])
        if kind == "(":
            inner = self.expression(0)
            self.take(")")
            return inner
        if kind == "{":
            return self.array_constant()
        raise FormulaSyntaxError(f"unexpected {token.text!r}")

    def reference(self, ref: Ref) -> Callable[[], Any]:
        sheet = self.book.sheet(ref.sheet, self.here[0])
        ref = Ref(sheet, ref.r1, ref.c1, ref.r2, ref.c2)
        self.reads.append(ref)
        book = self.book
        return lambda: Rng(book, sheet, ref.r1, ref.c1, ref.r2, ref.c2)

    def name(self, name: str) -> Callable[[], Any]:
        text = self.book.name_text(name, self.here[0])
        if text is None or name.upper() in self._names_seen:
            error = XlErr("#NAME?", f"unknown name {name}")
            return lambda: error
        inner = _Compiler(self.book, self.here, bool(self.array_depth))
        inner._names_seen = self._names_seen | {name.upper()}
        fn = inner.compile(text)
        self.reads.extend(inner.reads)
        return fn

    def array_constant(self) -> Callable[[], Any]:
        rows: list[list[Any]] = [[]]
        while True:
            negative = False
            token = self.take()
            if token.kind == "op" and token.text in "+-":
                negative = token.text == "-"
                token = self.take()
            value = {"num": lambda t: float(t.text) * (-1 if negative else 1),
                     "str": lambda t: t.text[1:-1].replace('""', '"'),
                     "bool": lambda t: t.text.upper() == "TRUE",
                     "err": lambda t: XlErr(t.text)}.get(token.kind)
            if value is None:
                raise FormulaSyntaxError(f"{token.text!r} cannot stand in an array constant")
            rows[-1].append(value(token))
            separator = self.take()
            if separator.kind == "}":
                break
            if separator.kind == ";":
                rows.append([])
            elif separator.kind != ",":
                raise FormulaSyntaxError(f"unexpected {separator.text!r} in an array constant")
        array = Arr(rows)
        return lambda: array

    # -- function calls ---------------------------------------------------------
    def arguments(self, array_context: bool) -> list[Callable[[], Any]]:
        self.array_depth += array_context
        args: list[Callable[[], Any]] = []
        if self.peek() is not None and self.peek().kind == ")":
            self.pos += 1
        else:
            while True:
                token = self.peek()
                if token is not None and token.kind in (",", ")"):
                    args.append(lambda: MISSING)
                else:
                    args.append(self.expression(0))
                separator = self.take()
                if separator.kind == ")":
                    break
                if separator.kind != ",":
                    raise FormulaSyntaxError(f"expected ',' or ')', found {separator.text!r}")
        self.array_depth -= array_context
        return args

    def call(self, raw_name: str) -> Callable[[], Any]:
        name = raw_name.upper()
        for prefix in ("_XLFN.", "_XLWS."):
            name = name.removeprefix(prefix)
        ours = self.book.functions.get(name)
        args = self.arguments(array_context=ours is not None or name in ARRAY_ARGS)
        where = f"{self.here[0]}!{_cell_name(self.here[1], self.here[2])}"
        if ours is not None:
            return self.call_ours(name, ours, args, where)
        if name in LAZY:
            lazy = LAZY[name]
            return lambda: lazy(self, args)
        if name in BUILTINS:
            builtin = BUILTINS[name]
            here = self.here
            return lambda: builtin(here, *(a() for a in args))
        if name in _SPECIAL_NAMES or not library_has(name):
            message = (f"{name} is not supported without Excel" if name in _SPECIAL_NAMES
                       else f"unknown function {name}")
            error = XlErr("#NAME?", message, where)
            return lambda: error
        return lambda: call_library(name, [a() for a in args])

    def call_ours(self, name: str, fn: Callable[..., Any], args: list[Callable[[], Any]],
                  where: str) -> Callable[[], Any]:
        book = self.book

        def run() -> Any:
            values = [a() for a in args]
            while values and values[-1] is MISSING:
                values.pop()
            defaults = book.defaults(name)
            python_args = [_as_argument(v, defaults[i] if i < len(defaults) else None)
                           for i, v in enumerate(values)]
            try:
                return _from_python(fn(*python_args))
            except Exception as exc:  # the cell shows the reason, as Excel does
                message = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
                return XlErr("#VALUE!", message or type(exc).__name__, where)
        return run


def _cell_name(row: int, col: int) -> str:
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


def _order(book: Book) -> tuple[list[Formula], list[Formula]]:
    """Formulas in an order where each comes after every formula it reads; the second
    list holds those caught in a circular reference."""
    by_sheet: dict[str, list[Key]] = {}
    for key in list(book.formulas) + list(book.owner):
        by_sheet.setdefault(key[0], []).append(key)
    covered: dict[Ref, list[Key]] = {}

    def inside(ref: Ref) -> list[Key]:
        if ref not in covered:
            keys = by_sheet.get(ref.sheet, [])
            r2, c2 = book.clip(ref.sheet, ref.r2, ref.c2)
            if (r2 - ref.r1 + 1) * (c2 - ref.c1 + 1) < len(keys):
                found = [(ref.sheet, r, c) for r in range(ref.r1, r2 + 1)
                         for c in range(ref.c1, c2 + 1)
                         if (ref.sheet, r, c) in book.formulas or (ref.sheet, r, c) in book.owner]
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


def evaluate_book(book: Book, progress: Callable[[int, int], None] | None = None) -> None:
    """Compile and evaluate every formula; results land in ``book.cells``."""
    for key, formula in book.formulas.items():
        compiler = _Compiler(book, key, array=formula.ref is not None)
        try:
            formula.run = compiler.compile(formula.text)
        except FormulaSyntaxError as exc:
            message = f"{exc} in ={formula.text.lstrip('=')}"
            where = f"{key[0]}!{_cell_name(key[1], key[2])}"
            formula.error = XlErr("#NAME?", message, where)
        formula.reads = compiler.reads
    order, circular = _order(book)
    for formula in circular:
        where = f"{formula.key[0]}!{_cell_name(formula.key[1], formula.key[2])}"
        formula.error = XlErr("#REF!", "circular reference", where)
    total = len(order)
    for done, formula in enumerate(order, start=1):
        _store(book, formula, formula.error if formula.error else _run(formula))
        if progress is not None and (done % 500 == 0 or done == total):
            progress(done, total)


def _run(formula: Formula) -> Any:
    try:
        return formula.run()
    except RecursionError:
        return XlErr("#VALUE!", "formula nested too deeply")


def _store(book: Book, formula: Formula, result: Any) -> None:
    sheet, row, col = formula.key
    if formula.ref is None:
        if isinstance(result, (Rng, Arr)):
            rows = result.rows()
            result = rows[0][0] if rows and rows[0] else XlErr("#VALUE!")
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
