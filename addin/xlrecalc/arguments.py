"""How a compiled call reads its arguments where Excel reads them a particular way: the
criteria of COUNTIF and its kin intersected with the formula's row or column, the cells a
test of a value's kind reads shown as the written workbook shows them, several values
looked up at once in an array context, and a function of scalars spread over ranges and
arrays (:mod:`.compile` builds the calls)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .closures import Closure, cell_reader
from .values import Arr, Key, Rng, XlErr, lift, scalar, shown

__all__ = ["each_looked_up", "criteria_intersected", "cells_shown", "spread"]


def each_looked_up(lookup: Callable[..., Any], args: list[Closure],
                    many: Callable[..., Any] | None = None) -> Closure:
    """A lookup in an array context: given several values to look up (a range or an
    array), each looked up alone, the answers an array of their shape (an answer of
    several cells, XLOOKUP's of a row, is ``#VALUE!`` in its place); one value as the
    lookup takes it. ``many`` looks up several values at once where it can (``None``
    where it cannot)."""
    first, rest = args[0], args[1:]

    def each(h: Key) -> Any:
        value = first(h)
        others = [a(h) for a in rest]
        if not isinstance(value, (Rng, Arr)) or value.shape == (1, 1):
            return lookup(h, value, *others)
        if many is not None:
            found = many(h, value, *others)
            if found is not None:
                return found
        return Arr([[_one(lookup(h, v, *others)) for v in row] for row in value.rows()])
    return each


def _one(answer: Any) -> Any:
    """One lookup's answer as an element of an array: a one-cell range its value."""
    if isinstance(answer, (Rng, Arr)):
        rows = answer.rows()
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else XlErr("#VALUE!")
    return answer


def _criteria_positions(name: str, count: int) -> range:
    """Where the criteria of COUNTIF, SUMIF … stand among ``count`` arguments."""
    if name in ("COUNTIF", "SUMIF", "AVERAGEIF"):
        return range(1, 2)
    if name == "COUNTIFS":
        return range(1, count, 2)
    if name in ("SUMIFS", "AVERAGEIFS", "MAXIFS", "MINIFS"):
        return range(2, count, 2)
    return range(0)


def criteria_intersected(name: str, args: list[Closure]) -> list[Closure]:
    """Outside an array formula a criterion given as a range of several cells is the cell
    of it in the formula's own row or column (implicit intersection, ``#VALUE!`` where
    there is none), as Excel reads ``=COUNTIF(G7:K7,E8:G8)`` typed in F296: as ``F8``."""
    spots = _criteria_positions(name, len(args))
    if not spots:
        return args

    def intersected(read: Closure) -> Closure:
        def criterion(h: Key) -> Any:
            value = read(h)
            return scalar(value, h) if isinstance(value, Rng) and value.shape != (1, 1) else value
        return criterion
    return [intersected(a) if i in spots else a for i, a in enumerate(args)]


def cells_shown(operand: Closure, array: bool) -> Closure:
    """``operand`` with the cells of a reference it gives read as the written workbook
    shows them (:func:`.values.shown`): every cell in an array context, the cell in the
    formula's row or column otherwise; a computed value as computed."""
    read = cell_reader(operand)
    if read is not operand:  # one cell
        return lambda h: shown(read(h))

    def cells(h: Key) -> Any:
        value = operand(h)
        if not isinstance(value, Rng):
            return value
        if array:
            return Arr([[shown(v) for v in row] for row in value.rows()])
        return shown(scalar(value, h))
    return cells


def spread(fn: Callable[..., Any], h: Key, values: list[Any]) -> Any:
    """A function of scalars on its arguments as evaluated, outside an array formula."""
    values = [scalar(v, h) if isinstance(v, Rng) else v for v in values]
    return lift(fn, *values) if any(isinstance(v, Arr) for v in values) else fn(*values)
