"""From a cell that shows an error back to the input cell to fix.

An add-in function's exception may say which value it refuses, by attributes the engine
reads (never its message, whose words are the add-in's to change):

* ``argument``: the name of the function's parameter that holds the value;
* ``position``: where inside that argument's range: an ``int`` n, the n-th cell of a
  one-row or one-column range (in a block of several rows and columns it names no one
  cell), or a ``(row, column)`` pair, both counted from 1; ``None`` or absent for the
  argument as a whole, which names a cell when the argument is one cell;
* ``value``: the value refused, as the function received it (an error cell's code text
  for an error cell, as the engine hands such a cell over); ``None`` or absent: none.

:func:`culprit` turns ``argument`` and ``position`` into the cell the function read;
when that cell is a formula (a helper row that copies values), :func:`trace_inputs`
follows the same value back through the formulas that passed it on until it reaches
cells typed by hand. Where no cell of the argument can be named (a computed range),
:func:`inputs_holding` looks among everything the formula reads for the ``value``
(:func:`refused_value`).

>>> class Refusal(ValueError):
...     def __init__(self, argument, position=None, value=None):
...         super().__init__("any words")
...         self.argument, self.position, self.value = argument, position, value
>>> culprit(Refusal("values", 3), ["base", "values"], [None, _Area("S", 5, 10, 5, 29)])
('S', 5, 12)
>>> culprit(Refusal("base"), ["base"], [_Area("S", 6, 5, 6, 5)])
('S', 6, 5)
>>> culprit(Refusal("values", (2, 3)), ["base", "values"], [None, _Area("S", 5, 10, 8, 13)])
('S', 6, 12)
>>> culprit(ValueError("values: 2 is not allowed (item 3)"), ["values"],
...         [_Area("S", 5, 10, 5, 29)]) is None  # words alone name nothing
True
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

from .coerce import read_number
from .values import ERROR_CODES, Key, Rng, XlErr

__all__ = ["culprit", "refused_value", "trace_inputs", "inputs_holding"]


_MAX_INPUTS = 3
_BUDGET = 50_000  # cells looked at per trace: a bound for huge sheets


class _Area(NamedTuple):
    """A stand-in for a range in the examples: sheet and corners."""

    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int


def culprit(error: BaseException, parameters: list[str], values: list[Any]) -> Key | None:
    """The cell holding the value ``error`` refuses, when its argument is a reference."""
    argument = getattr(error, "argument", None)
    if not isinstance(argument, str) or argument not in parameters:
        return None
    index = parameters.index(argument)
    area = values[index] if index < len(values) else None
    if not isinstance(area, (Rng, _Area)):
        return None
    height, width = area.r2 - area.r1 + 1, area.c2 - area.c1 + 1
    position = getattr(error, "position", None)
    if position is None:
        return (area.sheet, area.r1, area.c1) if height == 1 and width == 1 else None
    if isinstance(position, tuple) and len(position) == 2:
        row, col = position[0] - 1, position[1] - 1
    elif isinstance(position, int) and not isinstance(position, bool) and (height == 1 or width == 1):
        row, col = divmod(position - 1, width)
    else:
        return None  # an item of a block is no one cell
    if 0 <= row < height and 0 <= col < width:
        return (area.sheet, area.r1 + row, area.c1 + col)
    return None


def refused_value(error: BaseException) -> Any:
    """The value ``error`` refuses as a cell holds it, or ``None``: an error's code text
    (as the engine hands an error cell to a function) stands for the error.

    >>> class Refusal(ValueError):
    ...     value = "#N/A"
    >>> refused_value(Refusal()), refused_value(ValueError("'abc' is not a number"))
    (XlErr('#N/A'), None)
    """
    value = getattr(error, "value", None)
    if isinstance(value, str) and value in ERROR_CODES:
        return XlErr(value)
    return value


def _same(value: Any, target: Any) -> bool:
    """The value that was passed on: an equal number, the same text, the same error."""
    if isinstance(target, XlErr):
        return isinstance(value, XlErr) and value.code == target.code
    if isinstance(target, bool) or isinstance(value, bool):
        return type(value) is type(target) and value == target
    if isinstance(target, (int, float)):
        return isinstance(value, (int, float)) and float(value) == float(target)
    return isinstance(value, str) and isinstance(target, str) and value == target


def _is_formula(book: Any, key: Key) -> bool:
    return key in book.formulas or key in book.owner


def _not_a_number(value: Any) -> bool:
    """A text the formulas cannot read as a number (the rule of :mod:`.coerce`, never
    Python's ``float``, which reads ``"1_000"`` and other scripts' digits)."""
    if not isinstance(value, str) or not value.strip():
        return False
    return read_number(value) is None


def _precedents(book: Any, key: Key) -> list[Key]:
    formula = book.formulas[book.owner.get(key, key)]
    cells: list[Key] = []
    for ref in formula.reads:
        r2, c2 = book.clip(ref.sheet, ref.r2, ref.c2)
        stored = book.cells.get(ref.sheet, {})
        if (r2 - ref.r1 + 1) * (c2 - ref.c1 + 1) > len(stored):  # only the cells that exist
            cells.extend(sorted((ref.sheet, r, c) for r, c in stored
                                if ref.r1 <= r <= r2 and ref.c1 <= c <= c2))
        else:
            cells.extend((ref.sheet, r, c) for r in range(ref.r1, r2 + 1)
                         for c in range(ref.c1, c2 + 1))
    return cells


def trace_inputs(book: Any, start: Key, target: Any = None, depth: int = 0,
                 allowance: list[int] | None = None) -> list[Key]:
    """The input cells (not formulas) whose value reached ``start``, at most three.

    From a formula cell, the search goes to the cells it reads that hold the same value
    (``target``, by default the value of ``start``) and on through formulas holding it;
    a bare ``#VALUE!`` also stops at input cells holding text that is not a number.
    An error carrying its own culprit is traced from there. ``allowance`` (one number,
    spent as cells are looked at) bounds the work of many traces together: 150,000
    cells of a chain, each in error, would otherwise each walk the chain.
    """
    value = book.value(*start)
    target = value if target is None else target
    if not _is_formula(book, start):
        return [start]
    if isinstance(value, XlErr) and value.culprit not in (None, start) and depth < 8:
        return trace_inputs(book, value.culprit, None, depth + 1, allowance)
    found: list[Key] = []
    seen = {start}
    queue = deque([start])
    budget = _BUDGET if allowance is None else min(_BUDGET, allowance[0])
    _trace(book, queue, seen, found, target, depth, budget, allowance)
    return found[:_MAX_INPUTS]


def _trace(book: Any, queue: deque[Key], seen: set[Key], found: list[Key], target: Any,
           depth: int, budget: int, allowance: list[int] | None) -> None:
    start_budget = budget
    while queue and budget > 0 and len(found) < _MAX_INPUTS:
        key = queue.popleft()
        for cell in _precedents(book, key):
            budget -= 1
            if cell in seen:
                continue
            seen.add(cell)
            held = book.value(*cell)
            if _is_formula(book, cell):
                if not _same(held, target):
                    continue  # another value: not the one that reached the error
                if isinstance(held, XlErr) and held.culprit is not None and depth < 8:
                    found.extend(k for k in trace_inputs(book, held.culprit, None, depth + 1,
                                                         allowance)
                                 if k not in found)
                else:
                    queue.append(cell)
            elif _same(held, target) or (isinstance(target, XlErr) and target.code == "#VALUE!"
                                         and target.message is None and _not_a_number(held)):
                found.append(cell)
    if allowance is not None:
        allowance[0] -= start_budget - budget


def inputs_holding(book: Any, start: Key, target: Any,
                   allowance: list[int] | None = None) -> list[Key]:
    """Input cells among everything ``start`` reads, directly or through formulas, that
    hold ``target``: for a value passed through a computed array, where no one cell
    of the argument can be pointed at. ``allowance`` as for :func:`trace_inputs`."""
    found: list[Key] = []
    seen = {start}
    queue = deque([start])
    budget = _BUDGET if allowance is None else min(_BUDGET, allowance[0])
    start_budget = budget
    while queue and budget > 0 and len(found) < _MAX_INPUTS:
        for cell in _precedents(book, queue.popleft()):
            budget -= 1
            if cell in seen:
                continue
            seen.add(cell)
            if _is_formula(book, cell):
                queue.append(cell)
            elif _same(book.value(*cell), target):
                found.append(cell)
    if allowance is not None:
        allowance[0] -= start_budget - budget
    return found[:_MAX_INPUTS]
