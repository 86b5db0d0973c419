"""The closures the formula compiler builds from: references, operators, ``IF``, the
guards around Excel's functions, and a call written twice computed once (:mod:`.compile`
parses; this module says what each piece does when the formula runs in a cell ``h``;
:mod:`.addin_calls` calls the add-in's functions).

The common cases take a short way: a one-cell reference read at once, a branch written
as a constant given without a call (:mod:`.shortcuts` has those of comparisons and
common calls). Each short way gives exactly what the general rule (:mod:`.values`)
gives for those values and leaves every other value to it."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .book_view import BookView
from .parse import RefSpec, Token, column_letters
from .values import MISSING, PENDING, Areas, Arr, Key, Rng, XlErr, scalar, to_bool


__all__ = ["Closure", "cell_at", "cell_reader", "reader_of", "cell_name", "where", "constant_closure",
           "constant_of", "ordered", "if_closure", "operand_of", "reference", "memoised", "guarded",
           "guarded_call", "range_join", "intersect", "repeated_calls", "shared_value", "index_call",
           "call_failure"]

Closure = Callable[[Key], Any]


def cell_name(row: int, col: int) -> str:
    """``A1`` address of a 1-based row and column."""
    return f"{column_letters(col)}{row}"


def where(h: Key) -> str:
    """``Sheet!A1`` of a formula's cell, as error messages name it."""
    return f"{h[0]}!{cell_name(h[1], h[2])}"


def ordered(r1: int, c1: int, r2: int, c2: int) -> tuple[int, int, int, int]:
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


# A one-cell reference's closure carries, as an attribute, a closure reading the cell's
# value straight away (an operator on a cell needs the value, not the range); that reader
# carries the cell it reads: the book, the sheet, and row h[1] * rm + sr1 and column
# h[2] * cm + sc1 (rm, cm: 1 where the reference moves with the formula, 0 where it is
# fixed). Attributes live exactly as long as their closure. A table beside the closures
# would not let them go, even with weak keys: its entries hold the reader, the reader its
# book, and the book, through its formulas, the closure that is the key, so every book
# ever compiled in the process would stay.
_READER = "xlrecalc_cell_reader"
_CELL_READ = "xlrecalc_cell_read"
_FIXED_RANGE = "xlrecalc_fixed_range"  # the range a reference with every bound fixed gives


def reader_of(closure: Closure) -> Closure | None:
    """The value reader of a one-cell reference's closure (above), or None."""
    return getattr(closure, _READER, None)


def cell_at(reader: Closure) -> tuple["BookView", str, int, int, int, int] | None:
    """The book, sheet, rm, sr1, cm and sc1 of a one-cell reference's reader (above), or
    None for any other closure."""
    return getattr(reader, _CELL_READ, None)


def _read_cell(closure: Closure, reader: Closure, place: tuple["BookView", str, int, int, int, int]) -> None:
    """Give a one-cell reference's closure its reader, and the reader the cell it reads."""
    setattr(closure, _READER, reader)
    setattr(reader, _CELL_READ, place)


# Closures of constants written in a formula, with their value (weak keys: the value
# never holds the closure, so an entry goes with its closure).
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


def if_closure(args: list[Closure]) -> Closure:
    """IF with two or three arguments outside an array formula, as the library's IF: the
    condition computed once, a TRUE or FALSE picking its branch at once."""
    condition, then = args[0], args[1]
    otherwise = args[2] if len(args) == 3 else None
    # a branch written as a constant (IF(A1="","",…)) gives its value without a call: the
    # value its closure gives, never MISSING
    then_value = constant_of(then)
    else_value = _NONE if otherwise is None else constant_of(otherwise)

    def run(h: Key) -> Any:
        flag = condition(h)
        if flag is True:
            if then_value is not _NONE:
                return then_value
            value = then(h)
        elif flag is False:
            if else_value is not _NONE:
                return else_value
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


def cell_reader(operand: Closure) -> Closure:
    """The closure of a one-cell reference as one giving that cell's value (what
    :func:`.values.scalar` reads of it); any other closure as it is."""
    reader = reader_of(operand)
    return operand if reader is None else reader


def operand_of(operand: Closure) -> Closure:
    """A closure giving an operator's operand outside an array formula: a range's
    implicit intersection with the formula's row or column, an array as it is."""
    direct = reader_of(operand)
    if direct is not None:
        return direct
    if constant_of(operand) is not _NONE:  # a constant, which read() gives back as it is
        return operand

    def read(h: Key) -> Any:
        value = operand(h)
        kind = type(value)
        if kind is float or kind is str or kind is bool or kind is Arr:
            return value  # what scalar() gives back unchanged, without the call
        if kind is Rng and value.r1 == value.r2 and value.c1 == value.c2:
            # one cell (INDEX(A1:A9,3)): its value, as scalar() reads it (Book.value, inlined)
            book, key = value.book, (value.sheet, value.r1, value.c1)
            found = book.cells[key[0]].get(key[1:])
            return book.demand(key) if found is PENDING else found
        return scalar(value, h)
    return read


def reference(book: "BookView", spec: RefSpec) -> Closure:
    """The closure of one reference: fixed, or moved with the formula's cell."""
    sheet = spec.sheet or ""
    cells = book.cells
    sr1, sc1, sr2, sc2 = spec.r1, spec.c1, spec.r2, spec.c2
    fr1, fc1, fr2, fc2 = spec.fixed
    if all(spec.fixed):
        fixed = Rng(book, sheet, *ordered(sr1, sc1, sr2, sc2))

        def whole(h: Key) -> Rng:
            return fixed
        setattr(whole, _FIXED_RANGE, fixed)
        if sr1 == sr2 and sc1 == sc2:
            def value(h: Key) -> Any:  # Book.value, inlined
                found = cells[sheet].get((sr1, sc1))
                return book.demand((sheet, sr1, sc1)) if found is PENDING else found
            _read_cell(whole, value, (book, sheet, 0, sr1, 0, sc1))
        return whole
    # a bound moves with the formula's cell (times 1) or is fixed (times 0)
    rm, cm = (0 if fr1 else 1), (0 if fc1 else 1)
    if sr1 == sr2 and sc1 == sc2 and fr1 == fr2 and fc1 == fc2:  # one cell: A1, $A1, A$1

        def cell(h: Key) -> Rng:
            r, c = h[1] * rm + sr1, h[2] * cm + sc1
            return Rng(book, sheet, r, c, r, c)

        def moved_value(h: Key) -> Any:  # Book.value, inlined
            r, c = h[1] * rm + sr1, h[2] * cm + sc1
            found = cells[sheet].get((r, c))
            return book.demand((sheet, r, c)) if found is PENDING else found

        # the same without multiplying by 1 or adding 0 times the formula's place
        def relative_value(h: Key) -> Any:  # A1
            r, c = h[1] + sr1, h[2] + sc1
            found = cells[sheet].get((r, c))
            return book.demand((sheet, r, c)) if found is PENDING else found

        def fixed_column_value(h: Key) -> Any:  # $A1
            r = h[1] + sr1
            found = cells[sheet].get((r, sc1))
            return book.demand((sheet, r, sc1)) if found is PENDING else found
        reader = relative_value if rm and cm else fixed_column_value if rm else moved_value
        _read_cell(cell, reader, (book, sheet, rm, sr1, cm, sc1))
        return cell
    if fr1 == fr2 and fc1 == fc2 and sr1 <= sr2 and sc1 <= sc2:  # corners in order anywhere

        def moved(h: Key) -> Rng:
            r, c = h[1] * rm, h[2] * cm
            return Rng(book, sheet, r + sr1, c + sc1, r + sr2, c + sc2)
        return moved

    def ref(h: Key) -> Rng:  # RefSpec.at, without the Ref it builds
        row, col = h[1], h[2]
        r1, c1 = sr1 if fr1 else row + sr1, sc1 if fc1 else col + sc1
        r2, c2 = sr2 if fr2 else row + sr2, sc2 if fc2 else col + sc2
        return Rng(book, sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))
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


def repeated_calls(tokens: list[Token]) -> set[int]:
    """Where the function calls written more than once in a formula begin: calls whose
    tokens, from the name to its closing parenthesis, are the same."""
    places: dict[tuple[int, ...], list[int]] = {}
    opened: list[int] = []
    ids: dict[Token, int] = {}  # each distinct token as a number: a call's key is numbers
    numbered = [ids.setdefault(token, len(ids)) for token in tokens]
    for i, token in enumerate(tokens):
        if token.kind in ("func", "("):
            opened.append(i)
        elif token.kind == ")" and opened:
            start = opened.pop()
            if tokens[start].kind == "func":
                places.setdefault(tuple(numbered[start:i + 1]), []).append(start)
    return {start for starts in places.values() if len(starts) > 1 for start in starts}


def shared_value(book: "BookView", fn: Closure) -> Closure:
    """One closure for the places of a call written twice or more in a formula: the
    value computed at the first place is given again at the next ones, in the same cell,
    while no other cell has been evaluated since (cells change only when a formula is
    evaluated: :meth:`.engine.Book.evaluate` counts them). Then the cells the call reads
    are the same cells holding the same values, and a call of Excel's functions without
    a volatile one gives the same value again; any other time it is computed anew."""
    last: list[Any] = [None, -1, None]  # the cell, the count of evaluations, the value

    def once(h: Key) -> Any:
        if last[0] is h and last[1] == book.evaluations:
            return last[2]
        value = fn(h)
        last[0], last[1], last[2] = h, book.evaluations, value
        return value
    reader = reader_of(fn)
    if reader is not None:  # its value as an operand read its own way (it costs less)
        setattr(once, _READER, reader)
    return once


def guarded_call(name: str, fn: Callable[..., Any], book: "BookView", *args: Closure) -> Closure:
    """``guarded(name, lambda h: fn(book, h, *[a(h) for a in args]))`` for one or two
    arguments, without the lambda between: the arguments are computed inside the same
    ``try``, so a failure costs the cell alike."""
    if len(args) == 1:
        only = args[0]

        def one(h: Key) -> Any:
            try:
                return fn(book, h, only(h))
            except RecursionError:
                raise
            except Exception as exc:
                return call_failure(name, exc, h)
        return one
    first, second = args

    def two(h: Key) -> Any:
        try:
            return fn(book, h, first(h), second(h))
        except RecursionError:
            raise
        except Exception as exc:
            return call_failure(name, exc, h)
    return two


def index_call(fn: Callable[..., Any], book: "BookView", array: Closure, row: Closure) -> Closure:
    """``INDEX(array, row)`` outside an array formula: the call as :func:`guarded_call`
    makes it (a reference, for ``INDEX(…):INDEX(…)`` and the functions that take one),
    with a reader of the value it gives as an operand (what :func:`operand_of` reads of
    the call: the cell it picks), which reads a row of one column at once without the
    range between."""
    call = guarded_call("INDEX", fn, book, array, row)
    fixed = getattr(array, _FIXED_RANGE, None)  # $A$1:$A$9: the range known here

    def value(h: Key) -> Any:
        try:
            given = fixed if fixed is not None else array(h)
            number = row(h)
            if type(number) is float and type(given) is Rng and given.c1 == given.c2:
                r = int(number)  # the general way's first case (references._index), at once
                if 1 <= r <= given.r2 - given.r1 + 1:
                    result = (given.sheet, given.r1 + r - 1, given.c1)  # the cell it picks
                else:
                    result = fn(book, h, given, number)
            else:
                result = fn(book, h, given, number)
        except RecursionError:
            raise
        except Exception as exc:
            return call_failure("INDEX", exc, h)
        kind = type(result)  # what operand_of's read does with the call's value
        if kind is tuple:  # the cell picked: its value (Book.value, inlined)
            found = book.cells[result[0]].get(result[1:])
            return book.demand(result) if found is PENDING else found
        if kind is float or kind is str or kind is bool or kind is Arr:
            return result
        return scalar(result, h)
    setattr(call, _READER, value)
    return call


def call_failure(name: str, exc: Exception, h: Key) -> XlErr:
    """The error of a call of ``name`` that raised ``exc``, as :func:`guarded` gives it."""
    if isinstance(exc, TypeError):
        return XlErr("#VALUE!", f"{name}: wrong number or kind of arguments ({exc})", where(h))
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return XlErr("#VALUE!", f"{name}: {reason}", where(h))


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
