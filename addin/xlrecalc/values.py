"""Values of the headless evaluator and Excel's rules for mixing them.

A cell holds ``None`` (blank), a float, a str, a bool or an :class:`XlErr`. A reference
evaluates to a :class:`Rng` (read lazily, so ``INDEX`` can return a reference); an array
constant or an array result is an :class:`Arr` (rows of values).

>>> add = binary("+")
>>> add(1.0, "2"), add(None, True), add("x", 1.0), add("1,000", "50%")
(3.0, 1.0, XlErr('#VALUE!'), 1000.5)
>>> compare("=")("abc", "ABC"), compare("<")(5.0, "a"), compare("=")(None, "")
(True, True, True)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from .codes import ERROR_CODES
from .coerce import read_number

__all__ = ["XlErr", "Rng", "Areas", "Arr", "MISSING", "PENDING", "Key", "ERROR_CODES",
           "RangeTooLarge", "errors_in", "to_number", "to_text", "to_bool", "binary", "compare", "COMPARISONS",
           "grid", "lift", "excel_text", "scalar", "shown", "MAX_TEXT", "too_long", "APART",
           "negate", "percent", "settled"]

Key = tuple[str, int, int]  # sheet, row, column: one cell of the book

MAX_TEXT = 32_767  # Excel's longest text in a cell
MAX_DENSE = 4_000_000  # cells a range may spell out one by one (blanks included)


class XlErr:
    """An Excel error value; ``message`` and ``origin`` say why and where, when known.

    An add-in function's exception becomes ``#VALUE!`` carrying its message, and the
    message travels with the error into every cell that uses it. ``culprit`` is the
    cell (sheet, row, column) holding the value the function refused, and ``refused``
    that value, where they are known (:mod:`.trace`).
    """

    __slots__ = ("code", "message", "origin", "culprit", "refused")

    def __init__(self, code: str, message: str | None = None, origin: str | None = None,
                 culprit: tuple[str, int, int] | None = None, refused: Any = None):
        self.code = code
        self.message = message
        self.origin = origin
        self.culprit = culprit
        self.refused = refused

    def __repr__(self) -> str:
        return f"XlErr({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XlErr) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)


def too_long(text: str) -> "XlErr":
    return XlErr("#VALUE!", f"text of {len(text):,} characters is longer than Excel's "
                 f"{MAX_TEXT:,}")


def shown(value: Any) -> Any:
    """A value as the written workbook shows it: an error carrying a message is written
    as that message (text), so the functions that test a value's kind (ISERROR, ISTEXT,
    IFERROR …) see text, as classic Excel does when it reads the cell back."""
    if isinstance(value, XlErr) and value.message:
        return value.message
    return value


class RangeTooLarge(ValueError):
    """A range that would have to be spelled out cell by cell and is too large for it."""


class _Pending:
    """The value of a formula cell not evaluated yet: reading it evaluates it first."""

    def __repr__(self) -> str:
        return "PENDING"


PENDING = _Pending()


class _Missing:
    """An argument left out between commas, as in ``IF(A1,,1)``."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


class Rng:
    """A rectangle of cells on one sheet, 1-based and inclusive."""

    __slots__ = ("book", "sheet", "r1", "c1", "r2", "c2")

    def __init__(self, book: Any, sheet: str, r1: int, c1: int, r2: int, c2: int):
        self.book, self.sheet = book, sheet
        self.r1, self.c1, self.r2, self.c2 = r1, c1, r2, c2

    @property
    def shape(self) -> tuple[int, int]:
        return self.r2 - self.r1 + 1, self.c2 - self.c1 + 1

    def rows(self) -> list[list[Any]]:
        """The cells' values row by row; whole-column ranges stop at the sheet's last row
        (its used range), and a formula cell not evaluated yet is evaluated first."""
        book, sheet = self.book, self.sheet
        rows, cols = book.extent.get(sheet, (0, 0))  # Book.clip, inlined
        r2 = self.r2 if self.r2 < rows else rows
        c2 = self.c2 if self.c2 < cols else cols
        if (r2 - self.r1 + 1) * (c2 - self.c1 + 1) > MAX_DENSE:
            raise RangeTooLarge(f"the range {self.address()} spans more than "
                                f"{MAX_DENSE:,} cells of its sheet's used range")
        get = book.cells[sheet].get
        cols = range(self.c1, c2 + 1)
        out = [[get((r, c)) for c in cols] for r in range(self.r1, r2 + 1)]
        if book.pending:
            for i, row in enumerate(out):
                if PENDING in row:
                    out[i] = [book.value(sheet, self.r1 + i, self.c1 + j) if v is PENDING else v
                              for j, v in enumerate(row)]
        return out

    def values(self) -> list[Any]:
        """The cells' values row by row as one list: what :meth:`rows` gives, its rows
        joined (the same cells read, pending ones evaluated in the same order), without
        a list for each row."""
        rows, cols = self.book.extent.get(self.sheet, (0, 0))  # Book.clip, inlined
        r2 = self.r2 if self.r2 < rows else rows
        c2 = self.c2 if self.c2 < cols else cols
        if (r2 - self.r1 + 1) * (c2 - self.c1 + 1) > MAX_DENSE:
            raise RangeTooLarge(f"the range {self.address()} spans more than "
                                f"{MAX_DENSE:,} cells of its sheet's used range")
        return self._flat()[0]

    def _flat(self) -> tuple[list[Any], bool]:
        """:meth:`values` without its check of the size, and whether a cell of the range
        was pending when it was read."""
        book, sheet, r1, c1 = self.book, self.sheet, self.r1, self.c1
        rows, cols = book.extent.get(sheet, (0, 0))  # Book.clip, inlined
        r2 = self.r2 if self.r2 < rows else rows
        c2 = self.c2 if self.c2 < cols else cols
        get = book.cells[sheet].get
        if c1 == c2:  # one column
            out = [get((r, c1)) for r in range(r1, r2 + 1)]
        else:
            columns = range(c1, c2 + 1)
            out = [get((r, c)) for r in range(r1, r2 + 1) for c in columns]
        pending = bool(book.pending) and PENDING in out
        if pending:
            width = c2 - c1 + 1
            for i, v in enumerate(out):
                if v is PENDING:
                    out[i] = book.value(sheet, r1 + i // width, c1 + i % width)
        return out, pending

    def cells(self) -> list[Any]:
        """The values row by row. A range larger than the number of cells its sheet
        stores (a whole column of a sheet with one far cell, ``A:XFD``) lists only the
        cells that exist, so it costs what the sheet holds, never its rectangle."""
        book, sheet = self.book, self.sheet
        r2, c2 = book.clip(sheet, self.r2, self.c2)
        stored = book.cells[sheet]
        if (r2 - self.r1 + 1) * (c2 - self.c1 + 1) <= len(stored):
            rows = self.rows()  # lists of its own: one row is the list of the cells
            return rows[0] if len(rows) == 1 else [v for row in rows for v in row]
        r1, c1 = self.r1, self.c1
        found = sorted(k for k in stored if r1 <= k[0] <= r2 and c1 <= k[1] <= c2)
        return [book.value(sheet, r, c) for r, c in found]

    def areas(self) -> list["Rng"]:
        return [self]

    def address(self) -> str:
        from .parse import column_letters
        first = f"{column_letters(self.c1)}{self.r1}"
        if (self.r1, self.c1) == (self.r2, self.c2):
            return f"{self.sheet}!{first}"
        return f"{self.sheet}!{first}:{column_letters(self.c2)}{self.r2}"

    def __repr__(self) -> str:
        return f"Rng({self.sheet!r}, {self.r1}, {self.c1}, {self.r2}, {self.c2})"


_SEEN_ONCE = object()


def settled(rng: Rng, kind: str, derive: Callable[[list[Any]], Any]) -> Any:
    """``derive`` of the values of ``rng`` (:meth:`Rng.values`, without its check of the
    size), kept for the next calls with the same range and ``kind`` once the range is
    settled: none of its cells pending when it is read (one under evaluation, in a cycle,
    reads as the cycle's error for now), so no cell of it changes again in this
    evaluation of the book (``Book.settled``, emptied before each; a book that iterates
    its cycles evaluates cells again, and keeps nothing). A formula copied down a column
    looking up the same column (``MATCH(A5,$B$5:$B$204,0)``) reads it and derives from
    it once. ``None`` the first time a range is asked for, which the caller then reads
    its own way: most ranges are read once, and keep nothing."""
    book = rng.book
    key = (kind, rng.sheet, rng.r1, rng.c1, rng.r2, rng.c2)
    memo = book.settled
    found = memo.get(key)
    if found is None:
        if book.iteration is None:
            memo[key] = _SEEN_ONCE
        return None
    if found is not _SEEN_ONCE:
        return found
    values, pending = rng._flat()
    answer = derive(values)
    if not pending:  # read whole as it stands: kept (a pending cell read now is kept next time)
        memo[key] = answer
    return answer


class Areas(Rng):
    """Several ranges as one reference: the union operator ``(A1:A3,C1)`` and 3-D
    references ``Sheet1:Sheet3!A1``. Its geometry is its first area's; ``cells()``
    lists every area's, which is what SUM, COUNT and the other aggregates read."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Rng]):
        first = parts[0]
        super().__init__(first.book, first.sheet, first.r1, first.c1, first.r2, first.c2)
        self.parts = parts

    def rows(self) -> list[list[Any]]:
        if len(self.parts) == 1:
            return self.parts[0].rows()
        return [self.cells()]

    def values(self) -> list[Any]:
        return [v for row in self.rows() for v in row]

    def cells(self) -> list[Any]:
        return [v for part in self.parts for v in part.cells()]

    def areas(self) -> list[Rng]:
        return list(self.parts)

    def __repr__(self) -> str:
        return f"Areas({self.parts!r})"


class Arr:
    """An array value: rows of scalars, all rows the same length."""

    __slots__ = ("rows_",)

    def __init__(self, rows: list[list[Any]]):
        self.rows_ = rows

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows_), len(self.rows_[0]) if self.rows_ else 0

    def rows(self) -> list[list[Any]]:
        return self.rows_

    def cells(self) -> list[Any]:
        return [v for row in self.rows_ for v in row]

    def __repr__(self) -> str:
        return f"Arr({self.rows_!r})"


def grid(value: Any) -> list[list[Any]]:
    """Any value as rows of scalars."""
    if isinstance(value, (Rng, Arr)):
        return value.rows()
    return [[value]]


def errors_in(values: list[Any]) -> XlErr | None:
    for value in values:
        if isinstance(value, XlErr):
            return value
    return None


def to_number(value: Any) -> float | XlErr:
    """Excel's coercion for arithmetic: blank is 0, TRUE is 1, text is read as Excel
    reads what is typed into a cell (:mod:`.coerce`: ``"1,000"``, ``"50%"``, dates,
    times), other text is ``#VALUE!``."""
    kind = type(value)
    if kind is float:  # the common cases first, as the general rule below reads them
        return value
    if kind is bool:
        return 1.0 if value else 0.0
    if value is None or value is MISSING:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        found = read_number(value)
        return XlErr("#VALUE!") if found is None else found
    if isinstance(value, XlErr):
        return value
    return XlErr("#VALUE!")


def excel_text(number: float) -> str:
    """A number as Excel's General format shows it in text (up to 15 digits)."""
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    text = f"{number:.15g}"
    return text


def to_text(value: Any) -> str | XlErr:
    kind = type(value)
    if kind is str:  # a text is its own (the last line below, sooner)
        return value
    if kind is float:  # a number, as the fourth case below gives it
        return excel_text(value)
    if value is None or value is MISSING:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return excel_text(float(value))
    if isinstance(value, XlErr):
        return value
    return str(value)


def to_bool(value: Any) -> bool | XlErr:
    if value is True or value is False:  # a logical is its own (as below, sooner)
        return value
    if value is None or value is MISSING:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        return XlErr("#VALUE!")
    if isinstance(value, XlErr):
        return value
    return XlErr("#VALUE!")


def _power(a: float, b: float) -> float | XlErr:
    try:
        result = a ** b
    except (ZeroDivisionError, OverflowError):
        return XlErr("#NUM!") if a or b >= 0 else XlErr("#DIV/0!")
    if isinstance(result, complex) or math.isinf(result) or math.isnan(result):
        return XlErr("#NUM!")
    return result


def _divide(a: float, b: float) -> float | XlErr:
    return XlErr("#DIV/0!") if b == 0 else a / b


_ARITHMETIC: dict[str, Callable[[float, float], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": _divide, "^": _power,
}


def binary(op: str) -> Callable[[Any, Any], Any]:
    """A scalar binary operator with Excel's coercions and error propagation."""
    if op == "&":
        def concat(a: Any, b: Any) -> Any:
            if type(a) is not str or type(b) is not str:  # two texts need no conversion
                a, b = to_text(a), to_text(b)
            if isinstance(a, XlErr):
                return a
            if isinstance(b, XlErr):
                return b
            text = a + b
            return text if len(text) <= MAX_TEXT else too_long(text)
        return concat
    if op in _ARITHMETIC:
        fn = _ARITHMETIC[op]

        def arithmetic(a: Any, b: Any) -> Any:
            if type(a) is not float or type(b) is not float:  # two numbers need no coercion
                a, b = to_number(a), to_number(b)
                if isinstance(a, XlErr):
                    return a
                if isinstance(b, XlErr):
                    return b
            result = fn(a, b)
            if isinstance(result, float) and not math.isfinite(result):
                return XlErr("#NUM!")
            return result
        return arithmetic
    return compare(op)


APART = 1e-13  # numbers further apart than this share of the larger differ within 15 digits
_subtract, _divide_op = binary("-"), binary("/")


def negate(value: Any) -> Any:
    """Unary minus: ``0 - value`` (so ``-0`` is 0). A logical, as in ``--(A1:A9<>"")``,
    negated at once: TRUE is 1 and FALSE 0, as :func:`to_number` reads them."""
    if type(value) is bool:
        return -1.0 if value else 0.0
    if type(value) is float:  # what the subtraction gives a number: itself negated, if finite
        result = 0.0 - value
        return result if math.isfinite(result) else XlErr("#NUM!")
    return _subtract(0.0, value)


def percent(value: Any) -> Any:
    """The ``%`` operator: ``value / 100``."""
    return _divide_op(value, 100.0)


_TYPE_RANK = {float: 0, int: 0, str: 1, bool: 2}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "<>": operator.ne, "<": operator.lt, ">": operator.gt,
    "<=": operator.le, ">=": operator.ge,
}


def compare(op: str) -> Callable[[Any, Any], Any]:
    """Excel comparison: numbers < text < logicals, text ignores case, blank matches 0/""/FALSE."""
    fn = COMPARISONS[op]

    def comparison(a: Any, b: Any) -> Any:
        kind = type(a)
        if kind is type(b):  # two values of one kind: the general rule's last steps at once
            if kind is str:
                return fn(a.lower(), b.lower())
            if kind is float and (a == b or abs(a - b) > APART * max(abs(a), abs(b))):
                return fn(a, b)  # equal, or apart by more than 15 digits tell
            if kind is bool:
                return fn(a, b)
        if isinstance(a, XlErr):
            return a
        if isinstance(b, XlErr):
            return b
        if a is None or a is MISSING:
            a = "" if isinstance(b, str) else False if isinstance(b, bool) else 0.0
        if b is None or b is MISSING:
            b = "" if isinstance(a, str) else False if isinstance(a, bool) else 0.0
        rank_a, rank_b = _TYPE_RANK[type(a)], _TYPE_RANK[type(b)]
        if rank_a != rank_b:
            return fn(rank_a, rank_b)
        if rank_a == 1:
            return fn(a.lower(), b.lower())
        if rank_a == 0 and a != b:
            return fn(*_fifteen_digits(a, b))
        return fn(a, b)
    return comparison


def _fifteen_digits(a: float, b: float) -> tuple[float, float]:
    """Excel compares numbers at 15 significant digits: ``0.1+0.2=0.3`` is TRUE.
    Numbers further apart than that compare as they are."""
    if abs(a - b) > APART * max(abs(a), abs(b)):
        return a, b
    return float(f"{a:.15g}"), float(f"{b:.15g}")


def lift(fn: Callable[..., Any], *values: Any) -> Any:
    """Apply a scalar function element by element over arrays, Excel style.

    A 1-row or 1-column operand is repeated along the other dimension; cells outside
    a smaller operand are ``#N/A``.
    """
    grids = [grid(v) for v in values]
    wide = [i for i, g in enumerate(grids) if len(g) != 1 or len(g[0]) != 1]
    if not wide:
        return fn(*(g[0][0] for g in grids))
    if len(wide) == 1:  # one array among scalars, the common case: no index arithmetic
        spread, others = grids[wide[0]], [g[0][0] for g in grids]
        if len(grids) == 1:
            return Arr([[fn(v) for v in row] for row in spread])
        if len(grids) == 2:
            other = others[1 - wide[0]]
            if wide[0] == 0:
                return Arr([[fn(v, other) for v in row] for row in spread])
            return Arr([[fn(other, v) for v in row] for row in spread])
    height = max(len(g) for g in grids)
    width = max(len(g[0]) if g else 0 for g in grids)
    out = []
    for r in range(height):
        row = []
        for c in range(width):
            args = []
            for g in grids:
                gr = 0 if len(g) == 1 else r
                gc = 0 if len(g[0]) == 1 else c
                args.append(g[gr][gc] if gr < len(g) and gc < len(g[0]) else XlErr("#N/A"))
            row.append(fn(*args))
        out.append(row)
    return Arr(out)


def scalar(value: Any, h: tuple[str, int, int]) -> Any:
    """A range used where one value is wanted: its one cell, or the cell in the
    formula's own row (for a column) or column (for a row); an array gives its first."""
    kind = type(value)
    if kind is float or kind is str or kind is bool or value is None:
        return value  # neither range nor array: as the last line gives it
    if isinstance(value, Rng):
        book, r1, c1 = value.book, value.r1, value.c1
        if r1 == value.r2 and c1 == value.c2:
            found = book.cells[value.sheet].get((r1, c1))  # Book.value, inlined
            return book.demand((value.sheet, r1, c1)) if found is PENDING else found
        if value.c1 == value.c2 and value.r1 <= h[1] <= value.r2:
            return book.value(value.sheet, h[1], value.c1)
        if value.r1 == value.r2 and value.c1 <= h[2] <= value.c2:
            return book.value(value.sheet, value.r1, h[2])
        return XlErr("#VALUE!")
    if isinstance(value, Arr):
        return value.rows_[0][0] if value.rows_ and value.rows_[0] else XlErr("#VALUE!")
    return value
