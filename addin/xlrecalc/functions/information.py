"""Excel's information functions: ISBLANK, ISERROR, ISNA, ISERR, ISNUMBER, ISTEXT,
ISNONTEXT, ISLOGICAL, ISEVEN, ISODD, ERROR.TYPE, NA, TYPE, ISREF and ISFORMULA (CELL,
SHEET and SHEETS read the workbook itself: :mod:`xlrecalc.references`).

The IS functions take a value, as Excel's function reference declares them: given a range
they are tested cell by cell in an array context (``SUMPRODUCT(--ISNUMBER(A1:A9))``
counts the numbers) and on the cell in the formula's row or column otherwise, as every
function of :data:`ELEMENTWISE` is. :data:`KIND_TESTS`, the tests of what kind a value
is, see a cell as the written workbook shows it (:func:`xlrecalc.values.shown`).

>>> ELEMENTWISE["ISEVEN"](4.0), ELEMENTWISE["ERROR.TYPE"](XlErr("#N/A"))
(True, 7.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..values import Arr, Rng, XlErr, grid
from .base import NA, VALUE, is_number, number

__all__ = ["ELEMENTWISE", "FUNCTIONS", "KIND_TESTS"]

_ERROR_NUMBERS = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
                  "#N/A": 7, "#GETTING_DATA": 8, "#SPILL!": 9, "#CALC!": 14}


def _type(here: Any, value: Any) -> float:
    if isinstance(value, (Rng, Arr)) and value.shape != (1, 1):
        return 64.0
    value = grid(value)[0][0] if isinstance(value, (Rng, Arr)) else value
    if isinstance(value, bool):
        return 4.0
    if isinstance(value, XlErr):
        return 16.0
    if isinstance(value, str):
        return 2.0
    return 1.0


def _isref(here: Any, value: Any) -> bool:
    return isinstance(value, Rng)


def _isformula(here: Any, value: Any) -> Any:
    if not isinstance(value, Rng):
        return XlErr(VALUE)
    key = (value.sheet, value.r1, value.c1)
    return key in value.book.formulas or key in value.book.owner


def _parity(odd: bool) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        found = number(value)
        return found if isinstance(found, XlErr) else (int(found) % 2 == 1) == odd
    return check


# the tests of a value's kind; none can fail, so the compiler calls them unguarded
KIND_TESTS: dict[str, Callable[[Any], bool]] = {
    "ISBLANK": lambda v: v is None,
    "ISERROR": lambda v: isinstance(v, XlErr),
    "ISNA": lambda v: isinstance(v, XlErr) and v.code == NA,
    "ISERR": lambda v: isinstance(v, XlErr) and v.code != NA,
    "ISNUMBER": is_number,
    "ISTEXT": lambda v: isinstance(v, str),
    "ISNONTEXT": lambda v: not isinstance(v, str),
    "ISLOGICAL": lambda v: isinstance(v, bool),
}
ELEMENTWISE: dict[str, Callable[..., Any]] = {
    **KIND_TESTS,
    "ISEVEN": _parity(False), "ISODD": _parity(True),
    "ERROR.TYPE": lambda v: float(_ERROR_NUMBERS.get(v.code, 0)) or XlErr(NA)
    if isinstance(v, XlErr) else XlErr(NA),
    "NA": lambda: XlErr(NA),
}
FUNCTIONS: dict[str, Callable[..., Any]] = {"TYPE": _type, "ISREF": _isref, "ISFORMULA": _isformula}
