"""The closures the formula compiler builds from: references, operators, ``IF``, and the
guards around Excel's functions (:mod:`.compile` parses; this module says what each
piece does when the formula runs in a cell ``h``)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .parse import RefSpec, column_letters
from .values import (COMPARISONS, MISSING, Areas, Arr, Key, Rng, XlErr, compare, lift, scalar,
                     to_bool)

if TYPE_CHECKING:
    from .engine import Book

__all__ = ["Closure", "cell_name", "where", "constant_closure", "constant_of", "ordered", "compared_with", "if_closure",
           "operand_of", "reference", "memoised", "guarded", "range_join", "intersect"]

Closure = Callable[[Key], Any]


def cell_name(row: int, col: int) -> str:
    """``A1`` address of a 1-based row and column."""
    return f"{column_letters(col)}{row}"


def where(h: Key) -> str:
    """``Sheet!A1`` of a formula's cell, as error messages name it."""
    return f"{h[0]}!{cell_name(h[1], h[2])}"


def ordered(r1: int, c1: int, r2: int, c2: int) -> tuple[int, int, int, int]:
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


# One-cell references, each with a closure reading its value straight away: an operator
# on a cell needs the value, not the range (weak keys: forms die with their book).
_SCALAR: "weakref.WeakKeyDictionary[Closure, Closure]" = weakref.WeakKeyDictionary()


# Closures of constants written in a formula, with their value (weak keys, as above).
_CONSTANT: "weakref.WeakKeyDictionary[Closure, Any]" = weakref.WeakKeyDictionary()
_NONE = object()


def constant_closure(value: Any) -> Closure:
    """The closure of a constant written in a formula (a number, a text, TRUE, an error)."""
    def constant(h: Key) -> Any:
        return value
    _CONSTANT[constant] = value
    return constant


def constant_of(closure: Closure) -> Any:
    """The value of a constant's closure; a marker object for any other closure."""
    return _CONSTANT.get(closure, _NONE)


def compared_with(op: str, operand: Closure, constant: Any) -> Closure:
    """``operand op constant`` outside an array formula, for a text or number constant:
    the common case (``A1="W"``, ``B2=0``) compared straight away, anything else by
    Excel's general rule (:func:`.values.compare`)."""
    read, general, fn = operand_of(operand), compare(op), COMPARISONS[op]
    if type(constant) is str:
        lowered = constant.lower()

        def text(h: Key) -> Any:
            v = read(h)
            if type(v) is str:
                return fn(v.lower(), lowered)
            return lift(general, v, constant) if type(v) is Arr else general(v, constant)
        return text

    def number(h: Key) -> Any:
        v = read(h)
        if type(v) is float and v == constant:
            return fn(v, constant)
        return lift(general, v, constant) if type(v) is Arr else general(v, constant)
    return number


def if_closure(args: list[Closure]) -> Closure:
    """IF with two or three arguments outside an array formula, as the library's IF: the
    condition computed once, a TRUE or FALSE picking its branch at once."""
    condition, then = args[0], args[1]
    otherwise = args[2] if len(args) == 3 else None

    def run(h: Key) -> Any:
        flag = condition(h)
        if flag is True:
            value = then(h)
        elif flag is False:
            if otherwise is None:
                return False
            value = otherwise(h)
        else:  # the condition read as Excel reads it, never computed again
            flag = to_bool(scalar(flag, h))
            if isinstance(flag, XlErr):
                return flag
            if flag:
                value = then(h)
            elif otherwise is None:
                return False
            else:
                value = otherwise(h)
        return 0.0 if value is MISSING else value
    return run


def operand_of(operand: Closure) -> Closure:
    """A closure giving an operator's operand outside an array formula: a range's
    implicit intersection with the formula's row or column, an array as it is."""
    direct = _SCALAR.get(operand)
    if direct is not None:
        return direct

    def read(h: Key) -> Any:
        value = operand(h)
        return value if type(value) is Arr else scalar(value, h)
    return read


def reference(book: "Book", spec: RefSpec) -> Closure:
    """The closure of one reference: fixed, or moved with the formula's cell."""
    sheet = spec.sheet or ""
    if all(spec.fixed):
        fixed = Rng(book, sheet, *ordered(spec.r1, spec.c1, spec.r2, spec.c2))

        def whole(h: Key) -> Rng:
            return fixed
        if spec.r1 == spec.r2 and spec.c1 == spec.c2:
            r, c = spec.r1, spec.c1
            _SCALAR[whole] = lambda h: book.value(sheet, r, c)
        return whole
    if not any(spec.fixed) and spec.r1 == spec.r2 and spec.c1 == spec.c2:
        dr, dc = spec.r1, spec.c1  # one relative cell, the common case of a copied formula

        def cell(h: Key) -> Rng:
            r, c = h[1] + dr, h[2] + dc
            return Rng(book, sheet, r, c, r, c)
        _SCALAR[cell] = lambda h: book.value(sheet, h[1] + dr, h[2] + dc)
        return cell

    def ref(h: Key) -> Rng:
        at = spec.at(h[1], h[2])
        return Rng(book, sheet, at.r1, at.c1, at.r2, at.c2)
    return ref


def memoised(fn: Closure) -> Closure:
    """A name whose value is the same from every cell: computed once, at its first use,
    after everything it reads (reading a pending cell evaluates it first)."""
    memo: list[Any] = []

    def once(h: Key) -> Any:
        if not memo:
            memo.append(fn(h))
        return memo[0]
    return once


def guarded(name: str, fn: Closure) -> Closure:
    """A call of Excel's function ``name`` whose failure costs its cell only (the
    message names the function)."""
    def call(h: Key) -> Any:
        try:
            return fn(h)
        except RecursionError:
            raise
        except TypeError as exc:
            return XlErr("#VALUE!", f"{name}: wrong number or kind of arguments ({exc})", where(h))
        except Exception as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return XlErr("#VALUE!", f"{name}: {reason}", where(h))
    return call


def range_join(left: Closure, right: Closure) -> Closure:
    def joined(h: Key) -> Any:
        a, b = left(h), right(h)
        for value in (a, b):
            if isinstance(value, XlErr):
                return value
        if not (isinstance(a, Rng) and isinstance(b, Rng) and a.sheet == b.sheet):
            return XlErr("#REF!", "the range operator ':' joins references on one sheet")
        return Rng(a.book, a.sheet, min(a.r1, b.r1), min(a.c1, b.c1),
                   max(a.r2, b.r2), max(a.c2, b.c2))
    return joined


def intersect(left: Closure, right: Closure) -> Closure:
    """Excel's intersection operator (a space): the cells both references share;
    #NULL! when they share none."""
    def common(h: Key) -> Any:
        a, b = left(h), right(h)
        for value in (a, b):
            if isinstance(value, XlErr):
                return value
        if not (isinstance(a, Rng) and isinstance(b, Rng)):
            return XlErr("#VALUE!", "the intersection operator takes references only")
        found = []
        for x in a.areas():
            for y in b.areas():
                r1, c1 = max(x.r1, y.r1), max(x.c1, y.c1)
                r2, c2 = min(x.r2, y.r2), min(x.c2, y.c2)
                if x.sheet == y.sheet and r1 <= r2 and c1 <= c2:
                    found.append(Rng(x.book, x.sheet, r1, c1, r2, c2))
        if not found:
            return XlErr("#NULL!", "the references do not intersect")
        return found[0] if len(found) == 1 else Areas(found)
    return common
