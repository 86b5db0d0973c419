"""From a cell that shows an error back to the input cell to fix.

A add-in function's message names its argument and the position inside it
(``opponent_ratings: 'abc' is not a number (item 2)``). :func:`culprit` turns that into
the cell the function read; when that cell is a formula (a helper row that copies
ratings or results), :func:`trace_inputs` follows the same value back through the
formulas that passed it on until it reaches cells typed by hand.

>>> culprit("results: 2 is not a game result (item 3)", ["rating", "results"],
...         [None, _Area("S", 5, 10, 5, 29)])
('S', 5, 12)
>>> culprit("rating: 'abc' is not a number", ["rating"], [_Area("S", 6, 5, 6, 5)])
('S', 6, 5)
>>> culprit("results: '?' is not a game result (row 2, column 3)", ["ratings", "results"],
...         [None, _Area("S", 5, 10, 8, 13)])
('S', 6, 12)
"""

from __future__ import annotations

import ast
import re
from collections import deque
from typing import Any, NamedTuple

from .coerce import read_number
from .values import Key, Rng, XlErr

__all__ = ["culprit", "trace_inputs", "named_value", "inputs_holding"]


_ARGUMENT = re.compile(r"^(\w+): ")
_POSITIONS = [  # where a message says which value of a list or block it means
    (re.compile(r"\((?:item|player) (\d+)\)"), "item"),
    (re.compile(r"\(row (\d+), column (\d+)\)"), "cell"),
    (re.compile(r"\(player (\d+), round (\d+)\)"), "cell"),
]
_MAX_INPUTS = 3
_BUDGET = 50_000  # cells looked at per trace: a bound for huge sheets


class _Area(NamedTuple):
    """A stand-in for a range in the examples: sheet and corners."""

    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int


def culprit(message: str, parameters: list[str], values: list[Any]) -> Key | None:
    """The cell holding the value ``message`` names, when the argument is a reference."""
    found = _ARGUMENT.match(message)
    if found is None or found.group(1) not in parameters:
        return None
    index = parameters.index(found.group(1))
    area = values[index] if index < len(values) else None
    if not isinstance(area, (Rng, _Area)):
        return None
    height, width = area.r2 - area.r1 + 1, area.c2 - area.c1 + 1
    for pattern, kind in _POSITIONS:
        position = pattern.search(message)
        if position is None:
            continue
        if kind == "cell":
            row, col = int(position.group(1)) - 1, int(position.group(2)) - 1
        elif height == 1 or width == 1:
            row, col = divmod(int(position.group(1)) - 1, width)
        else:
            return None  # a player of a block means a whole row
        if 0 <= row < height and 0 <= col < width:
            return (area.sheet, area.r1 + row, area.c1 + col)
        return None
    if height == 1 and width == 1:
        return (area.sheet, area.r1, area.c1)
    return None


_EXCEL_ERROR = re.compile(r"holds the Excel error (#[A-Z0-9/]+[!?]?)")
_NAMED = re.compile(r"^\w+: (.+?) is (?:not|negative)\b")


def named_value(message: str) -> Any:
    """The cell value a message names, or ``None``.

    >>> named_value("rating: 'abc' is not a number"), named_value("results: 2 is not a game result (item 3)")
    ('abc', 2.0)
    >>> named_value("results: the cell holds the Excel error #N/A (item 1)")
    XlErr('#N/A')
    """
    found = _EXCEL_ERROR.search(message)
    if found:
        return XlErr(found.group(1))
    found = _NAMED.match(message)
    if found is None:
        return None
    text = found.group(1)
    if text[:1] in "'\"":
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    try:
        return float(text)
    except ValueError:
        return None


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
