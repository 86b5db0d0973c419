"""Formula text to closures for the headless evaluator.

A formula compiles to a closure called with its own cell ``(sheet, row, column)``;
relative references are kept as offsets from that cell. A crosstable repeats one
formula down a column, so formulas with the same :func:`relative_key` share one
compiled closure: a 200-player sheet compiles a few dozen formulas, not thousands.

Rating functions are called with the shapes classic xlwings hands over: a scalar, a
flat list for a row or column, a list of lists for a block, ``None`` for blanks,
floats, and an Excel error as its text (``"#N/A"``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .functions import ARRAY_ARGS, BUILTINS, ELEMENTWISE, LAZY
from .parse import FormulaSyntaxError, RefSpec, Token, column_letters, parse_ref_spec, tokenize
from .trace import culprit
from .values import MISSING, Arr, Rng, XlErr, binary, lift, scalar

if TYPE_CHECKING:
    from .engine import Book

__all__ = ["Compiled", "compile_formula", "cell_name"]

Key = tuple[str, int, int]
Closure = Callable[[Key], Any]

_PRECEDENCE = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3,
               "*": 4, "/": 4, "^": 5}
_UNARY_PRECEDENCE = 7
_NOT_SUPPORTED = {"INDIRECT", "OFFSET"}  # need references made at run time


def cell_name(row: int, col: int) -> str:
    """``A1`` address of a 1-based row and column."""
    return f"{column_letters(col)}{row}"


def _where(h: Key) -> str:
    return f"{h[0]}!{cell_name(h[1], h[2])}"


class Compiled:
    """A compiled formula: the closure and the references it reads, as specs."""

    __slots__ = ("run", "reads")

    def __init__(self, run: Closure, reads: list[RefSpec]):
        self.run, self.reads = run, reads


def _as_python(value: Any) -> Any:
    """A cell value as classic xlwings hands it to a function."""
    if isinstance(value, XlErr):
        return value.code
    if isinstance(value, (int, float)) and not isinstance(value, bool):
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
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        number = float(value)
        return number if math.isfinite(number) else XlErr("#NUM!")
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _from_python(value.tolist())
    if isinstance(value, (list, tuple)):
        if not value:
            return ""
        rows = value if isinstance(value[0], (list, tuple)) else [value]
        return Arr([[_from_python(v) for v in row] for row in rows])
    return str(value)


def compile_formula(book: "Book", text: str, here: Key, array: bool) -> Compiled:
    """Compile ``text`` as written in the cell ``here``."""
    compiler = _Compiler(book, here, array)
    return Compiled(compiler.compile(text), compiler.reads)


class _Compiler:
    """Recursive-descent parser that builds closures for one formula."""

    def __init__(self, book: "Book", here: Key, array: bool, names_seen: frozenset[str] = frozenset()):
        self.book, self.here = book, here
        self.array_depth = 1 if array else 0
        self.reads: list[RefSpec] = []
        self.tokens: list[Token] = []
        self.pos = 0
        self.names_seen = names_seen

    def compile(self, text: str) -> Closure:
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
    def expression(self, min_precedence: int) -> Closure:
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
                left = _range_join(left, self.prefix())
                continue
            precedence = _PRECEDENCE[op]
            if precedence <= min_precedence:
                return left
            self.pos += 1
            left = self.apply(binary(op), left, self.expression(precedence))

    def apply(self, fn: Callable[..., Any], *operands: Closure) -> Closure:
        """An operator over operands: element by element in array context, else on the
        implicit intersection of a range with the formula's row or column."""
        if self.array_depth:
            return lambda h: lift(fn, *(op(h) for op in operands))
        if len(operands) == 1:
            (a,) = operands
            return lambda h: fn(scalar(a(h), h))
        a, b = operands
        return lambda h: fn(scalar(a(h), h), scalar(b(h), h))

    def prefix(self) -> Closure:
        token = self.take()
        kind = token.kind
        if kind == "op" and token.text in "+-":
            operand = self.expression(_UNARY_PRECEDENCE)
            if token.text == "+":
                return operand
            return self.apply(lambda a: binary("-")(0.0, a), operand)
        if kind in ("num", "str", "bool", "err"):
            constant = _constant(token)
            return lambda h: constant
        if kind == "ref":
            return self.reference(token.text)
        if kind == "name":
            return self.name(token.text)
        if kind == "func":
            return self.call(token.text[:-1])
        if kind == "(":
            inner = self.expression(0)
            self.take(")")
            return inner
        if kind == "{":
            array = self.array_constant()
            return lambda h: array
        raise FormulaSyntaxError(f"unexpected {token.text!r}")

    def reference(self, text: str) -> Closure:
        spec = parse_ref_spec(text, self.here[1], self.here[2])
        sheet = self.book.sheet(spec.sheet, self.here[0])
        spec = RefSpec(sheet, spec.r1, spec.c1, spec.r2, spec.c2, spec.fixed)
        self.reads.append(spec)
        book = self.book
        if all(spec.fixed):
            fixed = Rng(book, sheet, *_ordered(spec.r1, spec.c1, spec.r2, spec.c2))
            return lambda h: fixed

        def ref(h: Key) -> Rng:
            at = spec.at(h[1], h[2])
            return Rng(book, sheet, at.r1, at.c1, at.r2, at.c2)
        return ref

    def name(self, name: str) -> Closure:
        text = self.book.name_text(name, self.here[0])
        if text is None or name.upper() in self.names_seen:
            error = XlErr("#NAME?", f"unknown name {name}")
            return lambda h: error
        inner = _Compiler(self.book, self.here, bool(self.array_depth),
                          self.names_seen | {name.upper()})
        fn = inner.compile(text)
        self.reads.extend(inner.reads)
        return fn

    def array_constant(self) -> Arr:
        rows: list[list[Any]] = [[]]
        while True:
            token = self.take()
            sign = 1.0
            if token.kind == "op" and token.text in "+-":
                sign = -1.0 if token.text == "-" else 1.0
                token = self.take()
            if token.kind not in ("num", "str", "bool", "err"):
                raise FormulaSyntaxError(f"{token.text!r} cannot stand in an array constant")
            value = _constant(token)
            rows[-1].append(value * sign if token.kind == "num" else value)
            separator = self.take()
            if separator.kind == "}":
                return Arr(rows)
            if separator.kind == ";":
                rows.append([])
            elif separator.kind != ",":
                raise FormulaSyntaxError(f"unexpected {separator.text!r} in an array constant")

    # -- function calls ---------------------------------------------------------
    def arguments(self, array_context: bool) -> list[Closure]:
        self.array_depth += array_context
        args: list[Closure] = []
        first = self.peek()
        if first is not None and first.kind == ")":
            self.pos += 1
        else:
            while True:
                token = self.peek()
                if token is not None and token.kind in (",", ")"):
                    args.append(lambda h: MISSING)
                else:
                    args.append(self.expression(0))
                separator = self.take()
                if separator.kind == ")":
                    break
                if separator.kind != ",":
                    raise FormulaSyntaxError(f"expected ',' or ')', found {separator.text!r}")
        self.array_depth -= array_context
        return args

    def call(self, raw_name: str) -> Closure:
        name = raw_name.upper()
        for prefix in ("_XLFN.", "_XLWS."):
            name = name.removeprefix(prefix)
        # an Office.js custom function (xlwings Lite) is stored as _xldudf_NAME
        name = name.removeprefix("_XLDUDF_")
        ours = self.book.functions.get(name)
        args = self.arguments(array_context=ours is not None or name in ARRAY_ARGS)
        if ours is not None:
            return self.call_ours(name, ours, args)
        if name in LAZY:
            lazy, array = LAZY[name], bool(self.array_depth)
            return lambda h: lazy(h, array, args)
        if name in ELEMENTWISE:
            return self.elementwise(ELEMENTWISE[name], args)
        if name in BUILTINS:
            builtin = BUILTINS[name]
            return lambda h: builtin(h, *(a(h) for a in args))
        message = (f"{name} is not supported without Excel" if name in _NOT_SUPPORTED
                   else f"unknown function {name}")
        return lambda h: XlErr("#NAME?", message, _where(h))

    def elementwise(self, fn: Callable[..., Any], args: list[Closure]) -> Closure:
        """A function of scalars: over arrays element by element; a range is read whole in
        an array context and at the formula's row or column otherwise."""
        if self.array_depth:
            return lambda h: lift(fn, *(a(h) for a in args))

        def run(h: Key) -> Any:
            values = [a(h) for a in args]
            if any(type(v) is Arr for v in values):
                return lift(fn, *(scalar(v, h) if type(v) is Rng else v for v in values))
            return fn(*(scalar(v, h) if type(v) is Rng else v for v in values))
        return run

    def call_ours(self, name: str, fn: Callable[..., Any], args: list[Closure]) -> Closure:
        defaults = self.book.defaults(name)
        parameters = self.book.parameters(name)

        def run(h: Key) -> Any:
            values = [a(h) for a in args]
            while values and values[-1] is MISSING:
                values.pop()
            python_args = [_as_argument(v, defaults[i] if i < len(defaults) else None)
                           for i, v in enumerate(values)]
            try:
                return _from_python(fn(*python_args))
            except Exception as exc:  # the cell shows the reason, as Excel does
                message = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
                return XlErr("#VALUE!", message or type(exc).__name__, _where(h),
                             culprit(message, parameters, values))
        return run


def _constant(token: Token) -> Any:
    if token.kind == "num":
        return float(token.text)
    if token.kind == "str":
        return token.text[1:-1].replace('""', '"')
    if token.kind == "bool":
        return token.text.upper() == "TRUE"
    return XlErr(token.text)


def _ordered(r1: int, c1: int, r2: int, c2: int) -> tuple[int, int, int, int]:
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


def _range_join(left: Closure, right: Closure) -> Closure:
    def joined(h: Key) -> Any:
        a, b = left(h), right(h)
        if not (isinstance(a, Rng) and isinstance(b, Rng) and a.sheet == b.sheet):
            return XlErr("#REF!")
        return Rng(a.book, a.sheet, min(a.r1, b.r1), min(a.c1, b.c1),
                   max(a.r2, b.r2), max(a.c2, b.c2))
    return joined
