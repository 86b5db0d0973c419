"""Closures for the common shapes of a formula, each a short way to what the general
rule gives: a cell compared with a text or a number (``A1="W"``, ``B2=0``), a range
compared with a text in an array context (``A1:A9<>""``), ``--X`` over an array, AND
and OR of logicals, and a function of one or two scalars (``TRIM(A1)``, ``LEFT(A1,6)``).
Each gives exactly what :mod:`.values`'s general rule gives for the values it takes
and leaves every other value to that rule; the tests hold each to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .closures import Closure, call_failure, cell_at, cell_reader, constant_of, operand_of
from .functions.lookup import exact_positions, lookup_key
from .values import (APART, COMPARISONS, PENDING, Arr, Key, Rng, XlErr, compare, grid, lift, negate,
                     scalar)

__all__ = ["compared_with", "each_compared_with", "double_negation", "logical_call", "scalar_call",
           "kind_test", "not_call", "match_in_constant"]


def compared_with(op: str, operand: Closure, constant: Any) -> Closure:
    """``operand op constant`` outside an array formula, for a text, number or array
    constant: the common case (``A1="W"``, ``B2=0``) compared straight away, anything else
    by Excel's general rule (:func:`.values.compare`)."""
    read, general, fn = operand_of(operand), compare(op), COMPARISONS[op]
    if type(constant) is Arr:
        return _compared_with_texts(read, general, fn, constant)
    if type(constant) is str:
        lowered = constant.lower()
        # what the general rule answers for a number (numbers sort before text) and for a
        # blank (read as "" beside a text), known before the formula runs
        number_first, blank = general(0.0, constant), general(None, constant)
        at = cell_at(read)
        if at is not None:  # A1="x": the cell read here, as read(h) reads it
            # (compared() below, inlined: these run once per cell of every copy, and a
            # call each was a large share of their time)
            book, sheet, rm, sr1, cm, sc1 = at
            sheets = book.cells

            def cell_text(h: Key) -> Any:
                r, c = h[1] * rm + sr1, h[2] * cm + sc1
                v: Any = sheets[sheet].get((r, c))
                if v is PENDING:
                    v = book.demand((sheet, r, c))
                kind = type(v)
                if kind is str:
                    return fn(v.lower(), lowered)
                if kind is float:
                    return number_first
                if v is None:
                    return blank
                return lift(general, v, constant) if kind is Arr else general(v, constant)
            return cell_text

        def compared(v: Any) -> Any:
            kind = type(v)
            if kind is str:
                return fn(v.lower(), lowered)
            if kind is float:
                return number_first
            if v is None:
                return blank
            return lift(general, v, constant) if kind is Arr else general(v, constant)

        def text(h: Key) -> Any:
            return compared(read(h))
        if cell_reader(operand) is not operand:  # a reader of its own, not a known cell's
            return text

        def computed_text(h: Key) -> Any:  # LEFT(A1,6)="check ": compared(read(h)), inlined
            v = operand(h)
            kind = type(v)
            if kind is str:
                return fn(v.lower(), lowered)
            if kind is float:
                return number_first
            if v is None:
                return blank
            if kind is not bool and kind is not Arr:  # what read() intersects first
                return compared(scalar(v, h))
            return lift(general, v, constant) if kind is Arr else general(v, constant)
        return computed_text
    text_after = general("", constant)  # text sorts after numbers, whatever its letters
    size = abs(constant)
    at = cell_at(read)
    if at is not None:  # A1=0: the cell read here, as read(h) reads it (number() inlined)
        book, sheet, rm, sr1, cm, sc1 = at
        sheets = book.cells

        def cell_number(h: Key) -> Any:
            r, c = h[1] * rm + sr1, h[2] * cm + sc1
            v: Any = sheets[sheet].get((r, c))
            if v is PENDING:
                v = book.demand((sheet, r, c))
            kind = type(v)
            if kind is float and (v == constant or abs(v - constant) > APART * max(abs(v), size)):
                return fn(v, constant)
            if kind is str:
                return text_after
            return lift(general, v, constant) if kind is Arr else general(v, constant)
        return cell_number

    def number(h: Key) -> Any:
        v = read(h)
        kind = type(v)
        if kind is float and (v == constant or abs(v - constant) > APART * max(abs(v), size)):
            return fn(v, constant)  # equal, or apart by more than 15 digits tell
        if kind is str:
            return text_after
        return lift(general, v, constant) if kind is Arr else general(v, constant)
    return number


def each_compared_with(op: str, operand: Closure, constant: str) -> Closure:
    """``A1:A9<>""`` in an array context: each value of the range or array compared with
    a text constant (a text without case at once, any other value by the general rule),
    as :func:`.values.lift` would compare them one by one."""
    general, fn, lowered = compare(op), COMPARISONS[op], constant.lower()
    # what the general rule answers for any number (numbers sort before text) and for a
    # blank (read as "" beside a text), as compared_with knows them before the formula runs
    number_first, blank = general(0.0, constant), general(None, constant)

    def each(h: Key) -> Any:
        value = operand(h)
        if isinstance(value, (Rng, Arr)):
            rows = grid(value)
            if len(rows) != 1 or len(rows[0]) != 1:  # lift gives one value for one value
                return Arr([[fn(v.lower(), lowered) if type(v) is str else number_first
                             if type(v) is float else blank if v is None else general(v, constant)
                             for v in row] for row in rows])
        return lift(general, value, constant)
    return each


def _compared_with_texts(read: Closure, general: Callable[[Any, Any], Any],
                         fn: Callable[[Any, Any], bool], constant: Arr) -> Closure:
    """``A1={"W","D"}`` outside an array formula: a text compared with each text of the
    array constant without case (the general rule for two texts), the text lowered once;
    anything else element by element by the general rule."""
    rows = constant.rows_
    # a one-value array gives one value (lift's rule): only a wider one is taken at once
    texts = all(type(v) is str for row in rows for v in row) and (len(rows) > 1 or len(rows[0]) > 1)
    lowered = [[v.lower() for v in row] for row in rows] if texts else []

    def each(h: Key) -> Any:
        v = read(h)
        if texts and type(v) is str:
            x = v.lower()
            return Arr([[fn(x, c) for c in row] for row in lowered])
        return lift(general, v, constant)
    return each


def double_negation(operand: Closure) -> Closure:
    """``--X`` in an array context: what lifting :func:`.values.negate` twice gives. An
    array of more than one value keeps its shape through each lift, so each value is
    negated twice in place (a logical is 1 or 0 then, as ``-(-1.0)`` and ``-(0.0)`` give);
    anything else is lifted twice as written."""
    def twice(h: Key) -> Any:
        x = operand(h)
        if type(x) is Arr:
            rows = x.rows_
            if len(rows) != 1 or len(rows[0]) != 1:  # lift gives one value for one value
                return Arr([[(1.0 if v else 0.0) if type(v) is bool else negate(negate(v))
                             for v in row] for row in rows])
        return lift(negate, lift(negate, x))
    return twice


def logical_call(conjunction: bool, builtin: Callable[..., Any], args: list[Closure]) -> Closure:
    """AND or OR outside an array formula with logicals, or arrays holding logicals
    only (``OR(A1={"W","D"})``), combined at once: the function counts a logical as it
    is wherever it stands, so it combines all of them; anything else, or an empty array,
    goes to the function. Two or three arguments are read without a list."""
    combine = all if conjunction else any

    def general(h: Key, values: list[Any]) -> Any:
        flat: list[bool] = []
        for value in values:
            kind = type(value)
            if kind is bool:
                flat.append(value)
            elif kind is Arr:
                for row in value.rows_:
                    for v in row:
                        if type(v) is not bool:
                            return builtin(h, *values)
                        flat.append(v)
            else:
                return builtin(h, *values)
        return combine(flat) if flat else builtin(h, *values)

    if len(args) == 2:
        first, second = args

        def two(h: Key) -> Any:
            x, y = first(h), second(h)
            if type(x) is bool and type(y) is bool:  # all((x, y)) or any((x, y))
                return (x and y) if conjunction else (x or y)
            return general(h, [x, y])
        return two
    if len(args) == 3:
        first, second, third = args

        def three(h: Key) -> Any:
            x, y, z = first(h), second(h), third(h)
            if type(x) is bool and type(y) is bool and type(z) is bool:
                return (x and y and z) if conjunction else (x or y or z)
            return general(h, [x, y, z])
        return three

    def many(h: Key) -> Any:
        values = [a(h) for a in args]
        for value in values:
            if type(value) is not bool:
                return general(h, values)
        return combine(values)
    return many


def scalar_call(fn: Callable[..., Any], args: list[Closure]) -> Closure:
    """A function of scalars outside an array formula: a range read at the formula's row
    or column, arrays element by element (:func:`.values.lift`)."""

    def spread(h: Key, values: list[Any]) -> Any:
        if any(type(v) is Arr for v in values):
            return lift(fn, *(scalar(v, h) if type(v) is Rng else v for v in values))
        return fn(*(scalar(v, h) if type(v) is Rng else v for v in values))

    # scalars only, the common case: nothing to intersect or lift (one or two
    # arguments, as TRIM(A1) and LEFT(A1,6), read without a list)
    if len(args) == 1:
        only = args[0]

        def one(h: Key) -> Any:
            v = only(h)
            if type(v) is Rng or type(v) is Arr:
                return spread(h, [v])
            return fn(v)
        return one
    if len(args) == 2:
        first, second = args

        def two(h: Key) -> Any:
            x, y = first(h), second(h)
            if type(x) is Rng or type(x) is Arr or type(y) is Rng or type(y) is Arr:
                return spread(h, [x, y])
            return fn(x, y)
        return two

    def run(h: Key) -> Any:
        values = [a(h) for a in args]
        for v in values:
            if type(v) is Rng or type(v) is Arr:
                break
        else:
            return fn(*values)
        return spread(h, values)
    return run


def kind_test(name: str, test: Callable[[Any], bool], read: Closure) -> Closure:
    """``ISTEXT(A1)``, ``ISNUMBER(INDEX(…))`` … outside an array formula: ``test`` of the
    value ``read`` gives, as the written workbook shows it (an error with a message is
    its text, :func:`.values.shown`), a failure the cell's error naming the function:
    ``guarded(name, lambda h: test(shown(read(h))))`` in one closure."""
    def tested(h: Key) -> Any:
        try:
            v = read(h)
            if isinstance(v, XlErr) and v.message:  # shown(), inlined
                v = v.message
            return test(v)
        except RecursionError:
            raise
        except Exception as exc:
            return call_failure(name, exc, h)
    return tested


def not_call(fn: Callable[[Any], Any], only: Closure) -> Closure:
    """``NOT(x)`` outside an array formula (``fn`` the library's NOT): a logical negated
    at once, anything else as :func:`scalar_call` takes it (a range at the formula's
    row or column, an array element by element)."""
    def negation(h: Key) -> Any:
        v = only(h)
        if v is True:
            return False
        if v is False:
            return True
        kind = type(v)
        if kind is Arr:
            return lift(fn, v)
        return fn(scalar(v, h) if kind is Rng else v)
    return negation


def match_in_constant(match: Callable[..., Any], args: list[Closure]) -> Closure | None:
    """``MATCH(x,{"+","X","-"},0)`` outside an array formula, the array written in the
    formula: its values' positions found once (:func:`.functions.lookup.exact_positions`),
    a number, text without wildcards or logical looked up among them at once; any other
    value to ``match`` (the library's MATCH) as written. ``None`` for other calls."""
    if len(args) != 3:
        return None
    array, mode = constant_of(args[1]), constant_of(args[2])
    if type(array) is not Arr or type(mode) is not float or mode != 0.0:
        return None
    positions = exact_positions(array)
    if positions is None:
        return None
    first = cell_reader(args[0])  # a cell's value, as MATCH reads a one-cell range

    def run(h: Key) -> Any:
        v = first(h)
        kind = type(v)
        if kind is float or kind is bool or kind is str and not ("*" in v or "?" in v or "~" in v):
            found = positions.get(lookup_key(v))  # type: ignore[arg-type]
            return XlErr("#N/A") if found is None else float(found + 1)
        return match(h, v, array, mode)
    return run
