"""Formula text to closures for the headless evaluator.

A formula compiles to a closure called with its own cell ``(sheet, row, column)``;
relative references are kept as offsets from that cell. A table repeats one
formula down a column, so formulas with the same :func:`relative_key` share one
compiled closure: a sheet of 200 rows compiles a few dozen formulas, not thousands.

Add-in functions are called with the shapes classic xlwings hands over: a scalar, a
flat list for a row or column, a list of lists for a block, ``None`` for blanks,
floats, and an Excel error as its text (``"#N/A"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .book_view import BookView
from . import lambdas
from .addin_calls import addin_call
from .arguments import cells_shown, criteria_intersected, each_looked_up, spread
from .closures import (Closure, cell_name, cell_reader, constant_closure, constant_of,
                       guarded, guarded_call, if_closure, index_call, intersect, operand_of,
                       range_join, reference, repeated_calls, shared_value, where)
from .functions import ARRAY_ARGS, BUILTINS, ELEMENTWISE, KIND_TESTS, LAZY, LOOKUP_VALUE
from .functions.lookup import MANY as MANY_LOOKUPS
from .names import CircularName, compile_name, unique
from .parse import FormulaSyntaxError, RefSpec, Token, parse_ref_spec, tokenize
from .references import ENGINE, VOLATILE
from .shortcuts import (compared_with, double_negation, each_compared_with, kind_test, logical_call,
                        match_in_constant, not_call, scalar_call)
from .structured import table_reference
from .values import (COMPARISONS, MISSING, Areas, Arr, Key, Rng, XlErr, binary, lift, negate, percent,
                     scalar)


__all__ = ["Compiled", "CircularName", "compile_formula", "cell_name", "Closure"]


_PRECEDENCE = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3,
               "*": 4, "/": 4, "^": 5}
_UNARY_PRECEDENCE = 7
MAX_NESTING = 64  # Excel's limit of nested function calls in one formula


# The shortcuts for common cases (a comparison with a constant, --(range), a call written
# twice computed once, IF, AND and OR of logicals, a one-cell argument read straight
# away). Off, every formula takes the general way: tests compare the two
# (tests/engine/test_shortcuts.py); benchmarks/recalc_swiss.py --no-shortcuts times them.
SHORTCUTS = True


class Compiled:
    """A compiled formula: the closure, the references it reads (as specs), whether it
    calls a volatile function (its value may change at each evaluation), and the
    functions it calls that the engine does not know (its cell keeps Excel's value)."""

    __slots__ = ("run", "reads", "volatile", "unknown")

    def __init__(self, run: Closure, reads: list[RefSpec], volatile: bool = False,
                 unknown: tuple[str, ...] = ()):
        self.run, self.reads, self.volatile, self.unknown = run, reads, volatile, unknown


# A reference to another workbook, as a file stores it: the workbook's index among the
# external links (or its name), then a sheet or nothing, then "!": [1]Sheet1!A1,
# '[1]My Sheet'!A1, [1]!Name, 'C:\\x\\[Book.xlsx]S'!A1. A table's brackets are never
# followed by "!". Text in quotes is taken out first.
_STRING = re.compile(r'"(?:[^"]|"")*"')
_EXTERNAL = re.compile(r"(?:'[^'\[]*|(?<![\w\]]))(\[[^\[\]]+\])(?:[^'!\[\]]*'|[\w.]*)!")
EXTERNAL = "(another workbook)"  # how a kept cell names what it reads


def external_workbooks(text: str) -> list[str]:
    """The other workbooks a formula reads, as it names them (``[1]``).

    >>> external_workbooks('''=[1]Sheet1!A1+'[2]My Sheet'!B2+[1]!Rate+Table1[Col]+"[3]S!A1"''')
    ['[1]', '[2]']
    """
    if "[" not in text or "!" not in text:
        return []
    return list(dict.fromkeys(_EXTERNAL.findall(_STRING.sub('""', text))))


def compile_formula(book: "BookView", text: str, here: Key, array: bool) -> Compiled:
    """Compile ``text`` as written in the cell ``here``. A formula nested deeper than
    Python can follow is a :class:`FormulaSyntaxError` with a one-line reason. A
    formula reading another workbook is not evaluated (its cells keep Excel's value, as
    Excel keeps them until the links are updated): its ``unknown`` names the workbook."""
    linked = external_workbooks(text)
    if linked:
        error = XlErr("#REF!", f"a reference to another workbook {linked[0]}")
        return Compiled(lambda h: error, [], False, tuple(f"{w} {EXTERNAL}" for w in linked))
    compiler = _Compiler(book, here, array)
    try:
        run = compiler.compile(text)
    except RecursionError:
        raise FormulaSyntaxError("the formula is nested too deeply to read") from None
    if compiler.lambdas:
        run = lambdas.without_lambda(run)
    return Compiled(run, unique(compiler.reads), compiler.volatile,
                    tuple(dict.fromkeys(compiler.unknown)))


class _Compiler:
    """Recursive-descent parser that builds closures for one formula."""

    def __init__(self, book: "BookView", here: Key, array: bool,
                 names_seen: dict[str, str] | None = None,
                 local: dict[str, Closure] | None = None,
                 recursive: dict[str, list[Closure]] | None = None):
        self.book, self.here = book, here
        self.array_depth = 1 if array else 0
        self.reads: list[RefSpec] = []
        self.tokens: list[Token] = []
        self.pos = 0
        # the names whose text is being compiled (upper case -> as written), outermost
        # first: one dict shared down a chain of names (a copy at each level would hold
        # a chain's length squared)
        self.names_seen = {} if names_seen is None else names_seen
        self.local: dict[str, Closure] = dict(local or {})  # LET's and LAMBDA's names
        # LAMBDA names being compiled, for their own calls (shared with inner compilers)
        self.recursive = {} if recursive is None else recursive
        self.nesting = 0
        self.volatile = False
        self.lambdas = False  # the formula may give a LAMBDA as its value
        self.calls_ours = False  # the formula calls an add-in function (its own code)
        self.unknown: list[str] = []  # functions called that neither the library nor the caller has
        self.repeated: set[int] = set()  # where a call written twice or more begins
        self.shared: dict[tuple[tuple[Token, ...], int], Closure] = {}
        self.negated: dict[Closure, Closure] = {}  # -X in an array context -> X

    def compile(self, text: str) -> Closure:
        self.tokens, self.pos = tokenize(text), 0
        self.repeated = repeated_calls(self.tokens)
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
                left = self.apply(percent, left)
                continue
            if op == ":":
                self.pos += 1
                left = range_join(left, self.prefix())
                continue
            if op == " ":
                self.pos += 1
                left = intersect(left, self.range_operand())
                continue
            if op == "@":
                raise FormulaSyntaxError("unexpected '@'")
            precedence = _PRECEDENCE[op]
            if precedence <= min_precedence:
                return left
            self.pos += 1
            right = self.expression(precedence)
            constant = constant_of(right)
            if not SHORTCUTS:
                left = self.apply(binary(op), left, right)
            elif not self.array_depth and op in COMPARISONS and type(constant) in (str, float, Arr):
                left = compared_with(op, left, constant)
            elif self.array_depth and op in COMPARISONS and type(constant) is str:
                left = each_compared_with(op, left, constant)
            else:
                left = self.apply(binary(op), left, right)

    def apply(self, fn: Callable[..., Any], *operands: Closure) -> Closure:
        """An operator over operands: element by element in array context, else on the
        implicit intersection of a range with the formula's row or column."""
        if self.array_depth:
            return lambda h: lift(fn, *(op(h) for op in operands))
        # an array (a constant, a function's result) stays whole: only ranges intersect
        if len(operands) == 1:
            a = operand_of(operands[0])

            def unary(h: Key) -> Any:
                x = a(h)
                return lift(fn, x) if type(x) is Arr else fn(x)
            return unary
        if len(operands) == 2:
            a, b = operand_of(operands[0]), operand_of(operands[1])

            def pair(h: Key) -> Any:
                x, y = a(h), b(h)
                return lift(fn, x, y) if type(x) is Arr or type(y) is Arr else fn(x, y)
            return pair
        readers = [operand_of(op) for op in operands]

        def many(h: Key) -> Any:
            values = [read(h) for read in readers]
            return lift(fn, *values) if any(type(v) is Arr for v in values) else fn(*values)
        return many

    def range_operand(self) -> Closure:
        """One operand of a reference operator: a reference with its ``:`` joins."""
        operand = self.prefix()
        while (token := self.peek()) is not None and token.kind == "op" and token.text == ":":
            self.pos += 1
            operand = range_join(operand, self.prefix())
        return operand

    def prefix(self) -> Closure:
        token = self.take()
        kind = token.kind
        if kind == "op" and token.text == "@":
            operand = self.range_operand()
            return lambda h: scalar(operand(h), h)
        if kind == "op" and token.text in "+-":
            operand = self.expression(_UNARY_PRECEDENCE)
            if token.text == "+":
                return operand
            inner = self.negated.get(operand) if SHORTCUTS else None
            if inner is not None:  # --X in an array context, as in SUMPRODUCT(--(A1:A9<>""))
                return double_negation(inner)
            negated = self.apply(negate, operand)
            if self.array_depth:
                self.negated[negated] = operand
            return negated
        if kind in ("num", "str", "bool", "err"):
            return constant_closure(_constant(token))
        if kind == "ref":
            return self.reference(token.text)
        if kind == "spill":  # A1#: the range the formula in A1 spilled into
            anchor, book = self.reference(token.text), self.book
            return lambda h: ENGINE["ANCHORARRAY"](book, h, anchor(h))
        if kind == "table":
            return self.table(token.text)
        if kind == "name":
            return self.name(token.text)
        if kind == "func":
            start = self.pos - 1
            if SHORTCUTS and start in self.repeated and not self.local and not self.recursive:
                return self.shared_call(start)
            return self.function_call(token)
        if kind == "(":
            inner = self.expression(0)
            following = self.peek()
            if following is not None and following.kind == ",":
                return self.union(inner)
            self.take(")")
            return inner
        if kind == "{":
            return constant_closure(self.array_constant())
        raise FormulaSyntaxError(f"unexpected {token.text!r}")

    def function_call(self, token: Token) -> Closure:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise FormulaSyntaxError(f"more than Excel's {MAX_NESTING} nested functions")
        called = self.call(token.text[:-1])
        self.nesting -= 1
        while (following := self.peek()) is not None and following.kind == "(":
            self.pos += 1  # LAMBDA(x,x+1)(2): the function's value called
            called = lambdas.invoke(called, self.arguments(False), token.text[:-1])
        return called

    def shared_call(self, start: int) -> Closure:
        """A call written more than once in the formula (``MATCH("x",A1:A9,0)`` tested by
        ISNA, then read by INDEX): computed once per evaluation of the cell, when nothing
        in it can differ between its places (:func:`.closures.shared_value`). Each place is
        compiled all the same, so its errors and the references it reads are found."""
        flags = self.volatile, self.lambdas, self.calls_ours
        self.volatile = self.lambdas = self.calls_ours = False
        called = self.function_call(self.tokens[start])
        pure = not (self.volatile or self.lambdas or self.calls_ours)
        self.volatile, self.lambdas, self.calls_ours = (
            flags[0] or self.volatile, flags[1] or self.lambdas, flags[2] or self.calls_ours)
        if not pure:  # a random number or an add-in function is called at each place
            return called
        key = (tuple(self.tokens[start:self.pos]), self.array_depth)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = shared_value(self.book, called)
        return found

    def union(self, first: Closure) -> Closure:
        """``(A1:A3,C1)``: Excel's union operator, inside parentheses."""
        parts = [first]
        while self.take().kind == ",":
            parts.append(self.expression(0))
        self.pos -= 1
        self.take(")")

        def joined(h: Key) -> Any:
            values = [part(h) for part in parts]
            for value in values:
                if isinstance(value, XlErr):
                    return value
                if not isinstance(value, Rng):
                    return XlErr("#VALUE!", "the union operator joins references only")
            return Areas([a for value in values for a in value.areas()])
        return joined

    def reference(self, text: str) -> Closure:
        spec = parse_ref_spec(text, self.here[1], self.here[2])
        if spec.sheet is not None and ":" in spec.sheet and spec.sheet.upper() not in self.book.sheet_names:
            return self.three_d(spec)
        sheet = self.book.sheet(spec.sheet, self.here[0])
        spec = RefSpec(sheet, spec.r1, spec.c1, spec.r2, spec.c2, spec.fixed)
        self.reads.append(spec)
        return reference(self.book, spec)

    def three_d(self, spec: RefSpec) -> Closure:
        """``Sheet1:Sheet3!A1``: the same range on every sheet from the first to the last."""
        first, _, last = (spec.sheet or "").partition(":")
        sheets = self.book.sheets_between(first, last)
        parts = []
        for sheet in sheets:
            one = RefSpec(sheet, spec.r1, spec.c1, spec.r2, spec.c2, spec.fixed)
            self.reads.append(one)
            parts.append(reference(self.book, one))
        return lambda h: Areas([part(h) for part in parts])

    def table(self, text: str) -> Closure:
        spec = table_reference(self.book, text, self.here)
        self.reads.append(spec)
        found = reference(self.book, spec)
        if spec.fixed[0]:
            return found
        table = self.book.table_at(self.here) if text.startswith("[") else \
            self.book.tables.get(text.partition("[")[0].upper())
        low, high = (table.r1 + table.headers, table.r2 - table.totals) if table else (0, 0)

        def this_row(h: Key) -> Any:
            if not low <= h[1] <= high:
                return XlErr("#VALUE!", f"{text} is used outside the table's data rows")
            return found(h)
        return this_row

    def name(self, name: str) -> Closure:
        """A defined name, a LET or LAMBDA name, or a table's name (:func:`.names.compile_name`)."""
        return compile_name(self, name)

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
        if name == "LET":
            return lambdas.compile_let(self)
        if name == "LAMBDA":
            return lambdas.compile_lambda(self)
        ours = self.book.functions.get(name)
        args = self.arguments(array_context=ours is not None or name in ARRAY_ARGS)
        if ours is not None:
            self.calls_ours = True
            return addin_call(self.book, name, ours, args)
        self.volatile |= name in VOLATILE
        array = bool(self.array_depth)
        if name in ENGINE:
            engine, book = ENGINE[name], self.book
            if len(args) == 1:  # AREAS(A1:B2), INDIRECT(A1): no list of one
                return guarded_call(name, engine, book, args[0])
            if SHORTCUTS and name == "INDEX":  # INDEX(A1:A9,B1): the row and column numbers read straight
                # away, a cell's value read as INDEX reads a one-cell range given there
                # (a blank as 0, the default of both)
                args = [args[0], *(cell_reader(a) for a in args[1:3]), *args[3:]]
                if len(args) == 2 and not array:  # with a reader of the cell it picks
                    return index_call(engine, book, *args)
            if len(args) == 2:
                return guarded_call(name, engine, book, *args)
            return guarded(name, lambda h: engine(book, h, *[a(h) for a in args]))
        # the library's functions guard themselves (their failure is their cell's error)
        if SHORTCUTS and name == "IF" and not array and 2 <= len(args) <= 3:
            return if_closure(args)
        if name in LAZY:
            lazy = LAZY[name]
            return lambda h: lazy(h, array, args)
        if name in ELEMENTWISE:
            return self.elementwise(name, args)
        if name in BUILTINS:
            if array and name in LOOKUP_VALUE and args:
                return each_looked_up(BUILTINS[name], args, MANY_LOOKUPS.get(name))
            return self.builtin(name, args, array)
        if name in lambdas.HELPERS:
            helper = lambdas.HELPERS[name]
            return guarded(name, lambda h: helper(h, *[a(h) for a in args]))
        if raw_name.upper() in self.local or self.book.name_text(raw_name, self.here[0]) is not None:
            return lambdas.invoke(self.name(raw_name), args, raw_name)  # a LAMBDA by its name
        self.unknown.append(name)
        message = f"unknown function {name}"
        return lambda h: XlErr("#NAME?", message, where(h))

    def builtin(self, name: str, args: list[Closure], array: bool) -> Closure:
        """A call of a library function taking its arguments as evaluated; AND and OR of
        logicals (``OR(A1="",A1=0)``) combined at once, as the function combines them."""
        builtin = BUILTINS[name]
        if not array:
            args = criteria_intersected(name, args)
        if SHORTCUTS and name in ("AND", "OR") and args and not array:
            return logical_call(name == "AND", builtin, args)
        if SHORTCUTS and name == "MATCH" and not array:  # MATCH(x,{…},0): the array indexed once
            found = match_in_constant(builtin, args)
            if found is not None:
                return found
        if len(args) == 1:
            only = args[0]
            return lambda h: builtin(h, only(h))
        if len(args) == 2:
            first, second = args
            return lambda h: builtin(h, first(h), second(h))
        return lambda h: builtin(h, *[a(h) for a in args])

    def elementwise(self, name: str, args: list[Closure]) -> Closure:
        """A function of values (every parameter a value parameter, as Excel declares
        ISNUMBER's, LEN's, ABS's): over arrays element by element; a range is read whole
        in an array context (an array formula, a dynamic array, an argument of
        SUMPRODUCT …) and at the formula's row or column otherwise. The tests of a
        value's kind (ISTEXT …) see a cell as the written workbook shows it."""
        fn, test = ELEMENTWISE[name], KIND_TESTS.get(name)
        if test is not None:
            if SHORTCUTS and not self.array_depth and len(args) == 1:
                read = cell_reader(args[0])
                if read is not args[0]:  # ISTEXT(A1): the cell's value tested at once
                    return kind_test(name, test, read)
            args = [cells_shown(a, bool(self.array_depth)) for a in args]
        if self.array_depth:
            return lambda h: lift(fn, *(a(h) for a in args))

        if not SHORTCUTS:  # the general way: each range at the formula's row or column
            return lambda h: spread(fn, h, [a(h) for a in args])
        if name == "NOT" and len(args) == 1:  # NOT(ISNUMBER(A1)): a logical negated at once
            return not_call(fn, cell_reader(args[0]))
        # a one-cell reference read straight away
        return scalar_call(fn, [cell_reader(a) for a in args])


def _constant(token: Token) -> Any:
    if token.kind == "num":
        return float(token.text)
    if token.kind == "str":
        return token.text[1:-1].replace('""', '"')
    if token.kind == "bool":
        return token.text.upper() == "TRUE"
    return XlErr(token.text)


