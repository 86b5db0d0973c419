"""AGGREGATE: nineteen aggregates with a choice of what to ignore.

``AGGREGATE(function_num, options, ref1, [ref2], …)`` (the reference form, functions
1–13) and ``AGGREGATE(function_num, options, array, k)`` (the array form, 14–19), as
Microsoft's AGGREGATE page describes them:

====  ==============  ====  ===============
 1    AVERAGE          11   VAR.P
 2    COUNT            12   MEDIAN
 3    COUNTA           13   MODE.SNGL
 4    MAX              14   LARGE
 5    MIN              15   SMALL
 6    PRODUCT          16   PERCENTILE.INC
 7    STDEV.S          17   QUARTILE.INC
 8    STDEV.P          18   PERCENTILE.EXC
 9    SUM              19   QUARTILE.EXC
10    VAR.S
====  ==============  ====  ===============

Options: 0–3 skip the cells whose formula is itself a SUBTOTAL or AGGREGATE (so totals
are not counted twice); 2, 3, 6 and 7 skip error values; 1, 3, 5 and 7 also skip hidden
rows. A workbook evaluated headlessly has no hidden rows (the evaluator does not read
row visibility, which is a matter of display), so 1 acts as 0, 3 as 2, 5 as 4 and 7 as 6.

The reference form takes references: a computed array there is ``#VALUE!``, as in Excel;
the array form takes any array (``AGGREGATE(14,6,A1:A9/(B1:B9>0),1)``) and requires
its ``k`` (``#VALUE!`` without it). The aggregates themselves are those of
:mod:`.math_aggregate` and :mod:`.statistical`.

>>> AGG = FUNCTIONS["AGGREGATE"]
>>> AGG(None, 14.0, 6.0, Arr([[XlErr("#DIV/0!"), 72.0, 30.0, XlErr("#NUM!"), 31.0]]), 2.0)
31.0
>>> AGG(None, 15.0, 6.0, Arr([[1.0, 2.0]]))
XlErr('#VALUE!')
"""

from __future__ import annotations

import re
from typing import Any

from .math_aggregate import FUNCTIONS as _AGGREGATES
from .base import VALUE, integer, registry
from .statistical import FUNCTIONS as _STATS
from ..values import MISSING, Arr, Rng, XlErr, grid

__all__ = ["FUNCTIONS", "AGGREGATE_FUNCTIONS"]

FUNCTIONS, _register = registry()

AGGREGATE_FUNCTIONS = {
    1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT", 7: "STDEV.S",
    8: "STDEV.P", 9: "SUM", 10: "VAR.S", 11: "VAR.P", 12: "MEDIAN", 13: "MODE.SNGL",
    14: "LARGE", 15: "SMALL", 16: "PERCENTILE.INC", 17: "QUARTILE.INC", 18: "PERCENTILE.EXC",
    19: "QUARTILE.EXC"}
_TOTALS = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


def _is_total(book: Any, key: tuple[str, int, int]) -> bool:
    """Whether the cell holds (or belongs to an array formula that is) a SUBTOTAL or
    AGGREGATE formula."""
    formula = book.formulas.get(book.owner.get(key, key))
    return formula is not None and _TOTALS.search(formula.text) is not None


def _kept(ref: Rng, skip_errors: bool, skip_totals: bool) -> list[Any]:
    """The values of a reference that the options keep, blanks included (COUNTA skips them)."""
    out = []
    for part in ref.areas():
        book, sheet = part.book, part.sheet
        for i, row in enumerate(part.rows()):
            for j, v in enumerate(row):
                if skip_errors and isinstance(v, XlErr):
                    continue
                if skip_totals and _is_total(book, (sheet, part.r1 + i, part.c1 + j)):
                    continue
                out.append(v)
    return out


def _function(number: Any) -> str | XlErr:
    which = integer(number)
    if isinstance(which, XlErr):
        return which
    name = AGGREGATE_FUNCTIONS.get(which)
    return name if name is not None else XlErr(VALUE, f"AGGREGATE: no function number {which}")


@_register("AGGREGATE")
def _aggregate(here: Any, function_num: Any, options: Any, *refs: Any) -> Any:
    name = _function(grid(function_num)[0][0] if isinstance(function_num, (Rng, Arr)) else function_num)
    if isinstance(name, XlErr):
        return name
    option = 0 if options is MISSING else integer(grid(options)[0][0]
                                                  if isinstance(options, (Rng, Arr)) else options)
    if isinstance(option, XlErr):
        return option
    if not 0 <= option <= 7:
        return XlErr(VALUE, f"AGGREGATE: no option {option}")
    skip_errors, skip_totals = option in (2, 3, 6, 7), option <= 3
    fn = {**_AGGREGATES, **_STATS}[name]
    if not refs or refs[0] is MISSING:
        return XlErr(VALUE, "AGGREGATE: ref1 is missing")
    if list(AGGREGATE_FUNCTIONS.values()).index(name) >= 13:  # the array form
        if len(refs) != 2 or refs[1] is MISSING:
            return XlErr(VALUE, f"AGGREGATE: {name} needs its k as the fourth argument")
        array, k = refs
        if isinstance(array, Rng):
            values = _kept(array, skip_errors, skip_totals)
        else:
            values = [v for row in grid(array) for v in row
                      if not (skip_errors and isinstance(v, XlErr))]
        return fn(here, Arr([values or [None]]), k)
    kept: list[Any] = []
    direct: list[Any] = []  # numbers typed as arguments, read as the function reads them
    for ref in refs:
        if isinstance(ref, Arr):
            return XlErr(VALUE, f"AGGREGATE: {name} takes references, not a computed array")
        if isinstance(ref, Rng):
            kept.extend(_kept(ref, skip_errors, skip_totals))
        elif ref is not MISSING and not (skip_errors and isinstance(ref, XlErr)):
            direct.append(ref)
    return fn(here, Arr([kept or [None]]), *direct)
