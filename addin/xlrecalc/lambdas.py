"""Names bound inside a formula: LET, LAMBDA, and the functions that call a LAMBDA
(MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY, ISOMITTED).

A LAMBDA compiles once into a :class:`Lam`, a value like any other: it can be called
inline (``=LAMBDA(x,x+1)(2)``), bound by LET, passed to MAP and its kin, or be the text
of a defined name called like a function (``=MYFN(2)``, recursion included). Its
parameters read the arguments of the call under way from the Lam's own stack, so a
recursive call or a Lam used by two cells in turn never mixes their arguments. A cell
whose value is a LAMBDA that was never called shows ``#CALC!``, as in Excel. Semantics
follow Microsoft's pages "LAMBDA function", "LET function", "ISOMITTED function",
"MAP function", "REDUCE function", "SCAN function", "BYROW function", "BYCOL function"
and "MAKEARRAY function", whose examples these are:

>>> from xlrecalc.engine import Book, evaluate_book
>>> book = Book({})
>>> book.add_sheet("S")
>>> book.add_formula("S", 1, 1, "=LAMBDA(number, number + 1)(1)")
>>> book.add_formula("S", 2, 1, '=LAMBDA(x,y, IF(ISOMITTED(y),"Missing second argument",x+y))(1,)')
>>> book.add_formula("S", 3, 1, "=INDEX(MAKEARRAY(3, 3, LAMBDA(r,c, r*c)), 3, 2)")
>>> _ = evaluate_book(book)
>>> [book.value("S", row, 1) for row in (1, 2, 3)]
[2.0, 'Missing second argument', 6.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .functions.base import integer
from .parse import FormulaSyntaxError
from .values import MAX_DENSE, MISSING, Arr, Key, Rng, XlErr, grid, lift

__all__ = ["Lam", "Parser", "compile_let", "compile_lambda", "invoke", "HELPERS", "without_lambda",
           "lambda_text"]

Closure = Callable[[Key], Any]


class Parser(Protocol):
    """What these forms need of the formula compiler (:mod:`.compile`)."""

    pos: int
    local: dict[str, Closure]
    lambdas: bool

    def take(self, kind: str | None = None) -> Any: ...

    def peek(self) -> Any: ...

    def expression(self, min_precedence: int) -> Closure: ...

MAX_PARAMETERS = 253  # "LAMBDA function": up to 253 parameters
MAX_DEPTH = 1024  # calls of one LAMBDA inside itself before #NUM! (too many recursive calls)
_CALC = "#CALC!"


class Lam:
    """A compiled LAMBDA: its parameters' names, its body, and the arguments of the
    calls under way (innermost last)."""

    __slots__ = ("params", "body", "stack")

    def __init__(self, params: list[str], body: Closure, stack: list[list[Any]]):
        self.params, self.body, self.stack = params, body, stack

    def call(self, h: Key, values: list[Any]) -> Any:
        if len(values) != len(self.params):
            return XlErr("#VALUE!", f"the LAMBDA takes {len(self.params)} argument(s), "
                         f"{len(values)} given")
        if len(self.stack) >= MAX_DEPTH:
            return XlErr("#NUM!", f"more than {MAX_DEPTH} nested calls of a LAMBDA")
        self.stack.append(values)
        try:
            return self.body(h)
        finally:
            self.stack.pop()

    def __repr__(self) -> str:
        return f"Lam({', '.join(self.params)})"


def lambda_text(text: str) -> bool:
    """Whether a defined name's text is a LAMBDA (as typed, or as a file stores it)."""
    return text.lstrip("=").lstrip().upper().removeprefix("_XLFN.").startswith("LAMBDA(")


def _bindings(compiler: Parser, bind: Callable[[str, int], None],
              value: Callable[[], None] | None) -> Closure:
    """Read ``name, [value,] … calculation)``: each name bound by ``bind`` in turn (after its
    value, read by ``value``, when there is one); the calculation compiled last."""
    index = 0
    while True:
        token = compiler.take()
        following = compiler.peek()
        if token.kind == "name" and following is not None and following.kind == ",":
            compiler.pos += 1
            if value is not None:
                value()
                compiler.take(",")
            bind(token.text.upper(), index)
            index += 1
            continue
        compiler.pos -= 1
        calculation = compiler.expression(0)
        compiler.take(")")
        return calculation


def compile_let(compiler: Parser) -> Closure:
    """LET(name1, value1, [name2, value2, …], calculation): each value computed once per
    evaluation, in order, each name visible to the values after it."""
    slots: dict[Key, list[Any]] = {}  # values of the evaluation under way, by cell
    values: list[Closure] = []
    saved = dict(compiler.local)

    def bind(name: str, index: int) -> None:
        compiler.local[name] = lambda h: slots[h][index]

    calculation = _bindings(compiler, bind, lambda: values.append(compiler.expression(0)))
    compiler.local = saved
    if not values:
        raise FormulaSyntaxError("LET needs a name and a value before its calculation")

    def run(h: Key) -> Any:
        outer = slots.get(h)
        slots[h] = bound = []
        try:
            for value in values:
                bound.append(value(h))
            return calculation(h)
        finally:
            if outer is None:
                del slots[h]
            else:
                slots[h] = outer
    return run


def compile_lambda(compiler: Parser) -> Closure:
    """LAMBDA([parameter1, …,] calculation): a :class:`Lam`, the same value at each evaluation."""
    stack: list[list[Any]] = []
    params: list[str] = []
    saved = dict(compiler.local)
    compiler.lambdas = True

    def bind(name: str, index: int) -> None:
        params.append(name)
        compiler.local[name] = lambda h: stack[-1][index]

    body = _bindings(compiler, bind, None)
    compiler.local = saved
    if len(params) > MAX_PARAMETERS:
        raise FormulaSyntaxError(f"a LAMBDA takes at most {MAX_PARAMETERS} parameters")
    lam = Lam(params, body, stack)
    return lambda h: lam


def invoke(callee: Closure, args: list[Closure], what: str) -> Closure:
    """A call of whatever ``callee`` gives (a LAMBDA, a name or a LET name bound to one)."""
    def call(h: Key) -> Any:
        fn = callee(h)
        if isinstance(fn, XlErr):
            return fn
        if not isinstance(fn, Lam):
            return XlErr("#VALUE!", f"{what} is not a LAMBDA and cannot be called")
        return fn.call(h, [a(h) for a in args])
    return call


def without_lambda(run: Closure) -> Closure:
    """A cell's formula whose value may be a LAMBDA never called: that shows ``#CALC!``."""
    def checked(h: Key) -> Any:
        value = run(h)
        if isinstance(value, Lam):
            return XlErr(_CALC, "the cell's value is a LAMBDA that is never called")
        return value
    return checked


# -- the functions that call a LAMBDA ------------------------------------------------------
def _lam(value: Any, name: str) -> Lam | XlErr:
    if isinstance(value, XlErr):
        return value
    if not isinstance(value, Lam):
        return XlErr("#VALUE!", f"{name}: its last argument must be a LAMBDA")
    return value


def _one(value: Any, name: str) -> Any:
    """A LAMBDA's result where one value is wanted: an array of several is ``#CALC!``."""
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        if len(rows) == 1 and len(rows[0]) == 1:
            return rows[0][0]
        return XlErr(_CALC, f"{name}: the LAMBDA gives an array where one value is wanted")
    if isinstance(value, Lam):
        return XlErr(_CALC, f"{name}: the LAMBDA gives a LAMBDA")
    return value


def _map(h: Key, *args: Any) -> Any:
    """MAP(array1, [array2, …], lambda): the LAMBDA on each value (of each array in step)."""
    if len(args) < 2:
        return XlErr("#VALUE!", "MAP takes arrays and a LAMBDA")
    fn = _lam(args[-1], "MAP")
    if isinstance(fn, XlErr):
        return fn
    arrays = [Arr(grid(a)) for a in args[:-1]]
    found = lift(lambda *values: _one(fn.call(h, list(values)), "MAP"), *arrays)
    return found


def _items(array: Any) -> list[Any]:
    return [v for row in grid(array) for v in row]


def _reduce(h: Key, initial: Any, array: Any = MISSING, fn: Any = MISSING) -> Any:
    """REDUCE([initial_value], array, lambda(accumulator, value)): the accumulator after
    every value, row by row; without an initial value the first value starts it (the
    page's note)."""
    lam = _lam(fn, "REDUCE")
    if isinstance(lam, XlErr):
        return lam
    values = _items(array)
    accumulator = initial
    if initial is MISSING and values:
        accumulator, values = values[0], values[1:]
    for value in values:
        accumulator = lam.call(h, [accumulator, value])
    return accumulator


def _scan(h: Key, initial: Any, array: Any = MISSING, fn: Any = MISSING) -> Any:
    """SCAN([initial_value], array, lambda(accumulator, value)): every intermediate
    accumulator, in the array's shape."""
    lam = _lam(fn, "SCAN")
    if isinstance(lam, XlErr):
        return lam
    rows = grid(array)
    accumulator = "" if initial is MISSING else initial
    out = []
    for row in rows:
        line = []
        for value in row:
            accumulator = _one(lam.call(h, [accumulator, value]), "SCAN")
            line.append(accumulator)
        out.append(line)
    return Arr(out)


def _by(h: Key, array: Any, fn: Any, name: str, by_row: bool) -> Any:
    lam = _lam(fn, name)
    if isinstance(lam, XlErr):
        return lam
    if isinstance(array, XlErr):
        return array
    if isinstance(array, Rng) and len(array.areas()) == 1:  # each row or column as a reference
        book, sheet = array.book, array.sheet
        r2, c2 = book.clip(sheet, array.r2, array.c2)
        parts: list[Any] = [Rng(book, sheet, r, array.c1, r, c2) for r in range(array.r1, r2 + 1)] \
            if by_row else [Rng(book, sheet, array.r1, c, r2, c) for c in range(array.c1, c2 + 1)]
    else:
        rows = grid(array)
        parts = [Arr([row]) for row in rows] if by_row else \
            [Arr([[row[c]] for row in rows]) for c in range(len(rows[0]) if rows else 0)]
    results = [_one(lam.call(h, [part]), name) for part in parts]
    if not results:
        return XlErr(_CALC, f"{name}: an empty array")
    return Arr([[v] for v in results]) if by_row else Arr([results])


def _byrow(h: Key, array: Any, fn: Any = MISSING) -> Any:
    """BYROW(array, lambda(row)): one value per row, as a column."""
    return _by(h, array, fn, "BYROW", True)


def _bycol(h: Key, array: Any, fn: Any = MISSING) -> Any:
    """BYCOL(array, lambda(column)): one value per column, as a row."""
    return _by(h, array, fn, "BYCOL", False)


def _count(value: Any, h: Key) -> int | XlErr:
    if isinstance(value, Rng):
        value = grid(value)[0][0]
    found = integer(value)
    if isinstance(found, XlErr):
        return found
    return found if found >= 1 else XlErr("#VALUE!", "MAKEARRAY: rows and columns must be 1 or more")


def _makearray(h: Key, rows: Any, cols: Any, fn: Any = MISSING) -> Any:
    """MAKEARRAY(rows, cols, lambda(row, col)): the LAMBDA at each place, 1-based."""
    lam = _lam(fn, "MAKEARRAY")
    height, width = _count(rows, h), _count(cols, h)
    for found in (lam, height, width):
        if isinstance(found, XlErr):
            return found
    assert isinstance(lam, Lam) and isinstance(height, int) and isinstance(width, int)
    if height * width > MAX_DENSE:
        return XlErr("#NUM!", f"MAKEARRAY: more than {MAX_DENSE:,} values")
    return Arr([[_one(lam.call(h, [float(r), float(c)]), "MAKEARRAY") for c in range(1, width + 1)]
                for r in range(1, height + 1)])


def _isomitted(h: Key, *args: Any) -> Any:
    """ISOMITTED(argument): TRUE for a LAMBDA parameter whose argument was left empty."""
    if len(args) != 1:
        return XlErr("#VALUE!", "ISOMITTED takes one argument")
    return args[0] is MISSING


HELPERS: dict[str, Callable[..., Any]] = {
    "MAP": _map, "REDUCE": _reduce, "SCAN": _scan, "BYROW": _byrow, "BYCOL": _bycol,
    "MAKEARRAY": _makearray, "ISOMITTED": _isomitted,
}
