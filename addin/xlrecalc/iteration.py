"""Excel's iterative calculation (``<calcPr iterate="1" iterateCount=… iterateDelta=…>``).

The book's first evaluation is the first iteration: a cell of a cycle read while under
evaluation gave its value of the iteration before (Excel's cached value at first), and
the engine noted it (``Book.cyclic``). Then, as Excel does, only the cells of the cycles
are evaluated again — the cells that read a cell of a cycle and are read by one, found
from the references their formulas are written with — up to ``iterateCount`` times in
all (Excel takes at most :data:`MAX_ITERATIONS`), until no cell of them changes by more
than ``iterateDelta``. The cells that read the cycles are then evaluated once more, with
the cycles' last values.

A cycle that never settles costs what its cells read times the iterations: past
:data:`MAX_WORK` cells read in all (each formula of the cycles counting one, and the
cells of the ranges it refers to) the iterations stop, and every cell of the cycles
shows an error saying so, rather than a value Excel would not show.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, TypeAlias

from .closures import cell_name
from .parse import FormulaSyntaxError
from .values import PENDING, Key, XlErr

# The engine's Book and Formula, which import this module (typed Any, as an import back
# would make a cycle of modules)
Book: TypeAlias = Any
Formula: TypeAlias = Any

__all__ = ["MAX_ITERATIONS", "MAX_WORK", "iterate", "start_value", "cycle_members"]

MAX_ITERATIONS = 32_767  # Excel's largest iterateCount: a larger one in a file is read as it
MAX_WORK = 4_000_000  # cells all the iterations may read (see the module): 10 to 30 s
_SMALL_RANGE = 4_096  # a range up to this many cells is looked at cell by cell


def start_value(book: Book, key: Key) -> Any:
    """A cycle's cell before its first iteration: the value Excel cached, or 0."""
    value = book.cached.get(key)
    return 0.0 if value is None else value


def iterate(book: Book, count: int, delta: float,
            evaluate: Callable[[Book, list[Formula]], None]) -> None:
    """Iterate the cycles of an evaluated ``book`` (see the module); ``evaluate`` runs
    those of the formulas given that are pending."""
    count = min(count, MAX_ITERATIONS)
    members = cycle_members(book)
    formulas = [f for k, f in book.formulas.items() if k in members and k not in book.kept]
    watched = list(dict.fromkeys([*book.cyclic, *(f.key for f in formulas)]))
    cells = book.cells
    iterations, budget = 1, MAX_WORK
    readers = _Reads(book)
    cost = sum(readers.cost(f) for f in formulas)  # the cells one iteration reads
    while True:
        previous = {k: (book.previous[k] if k in book.previous else start_value(book, k))
                    for k in watched}
        current = {k: cells[k[0]].get(k[1:]) for k in watched}
        if iterations >= count or all(_change(previous[k], current[k]) <= delta for k in current):
            break
        if budget < cost:
            _stopped(book, formulas, iterations, count)
            break
        budget -= cost
        book.previous = current
        _pending(book, formulas)
        evaluate(book, formulas)
        iterations += 1
    if iterations > 1:  # the cells reading the cycles, with the cycles' last values
        others = [f for k, f in book.formulas.items() if k not in members and k not in book.kept]
        _pending(book, others)
        evaluate(book, others)


def _pending(book: Book, formulas: list[Formula]) -> None:
    cells = book.cells
    for formula in formulas:
        sheet, row, col = formula.key
        cells[sheet][(row, col)] = PENDING
        for r, c in formula.cells or ():
            cells[sheet][(r, c)] = PENDING
    book.pending = len(formulas)


def _stopped(book: Book, formulas: list[Formula], iterations: int, count: int) -> None:
    """Every cell of the cycles an error: the iterations stopped short of Excel's."""
    reason = (f"iterative calculation stopped after {iterations:,} of {count:,} iterations "
              f"of a cycle of {len(formulas):,} cells that does not settle")
    for formula in formulas:
        sheet, row, col = formula.key
        where = f"{sheet}!{cell_name(row, col)}"
        for r, c in formula.cells or [(row, col)]:
            book.cells[sheet][(r, c)] = XlErr("#NUM!", reason, where)


def _change(before: Any, after: Any) -> float:
    """How much a cell changed between two iterations: numbers by their difference,
    anything else by whether it is the same."""
    if type(before) is float and type(after) is float:
        return abs(after - before)
    return 0.0 if type(before) is type(after) and before == after else math.inf


def cycle_members(book: Book) -> set[Key]:
    """The formula cells (anchors) of the book's cycles: those the engine met in a cycle
    (``book.cyclic``), and every formula that reads one of them and is read by one, by
    the references written in the formulas (names' included)."""
    owner = book.owner
    seeds = {owner.get(k, k) for k in book.cyclic}
    readers = _Reads(book)
    reached: dict[Key, list[Key]] = {}  # formula -> the formulas it reads, from the seeds on
    todo = list(seeds)
    while todo:
        key = todo.pop()
        if key in reached:
            continue
        reached[key] = found = readers(key)
        todo.extend(k for k in found if k not in reached)
    back: dict[Key, list[Key]] = {}
    for key, found in reached.items():
        for read in found:
            back.setdefault(read, []).append(key)
    members = set(seeds)
    todo = list(seeds)
    while todo:  # what reaches a seed, among what the seeds reach
        for reader in back.get(todo.pop(), ()):
            if reader not in members:
                members.add(reader)
                todo.append(reader)
    return members


class _Reads:
    """The formula cells (anchors) a formula's references cover."""

    def __init__(self, book: Book):
        self.book = book
        self._by_sheet: dict[str, list[tuple[int, int]]] | None = None

    def __call__(self, key: Key) -> list[Key]:
        formula = self.book.formulas.get(key)
        if formula is None:
            return []
        found: dict[Key, None] = {}
        for ref in formula.reads:
            for sheet in self._sheets(ref.sheet, key[0]):
                found.update(dict.fromkeys(self._formulas_in(sheet, ref.r1, ref.c1, ref.r2, ref.c2)))
        return list(found)

    def cost(self, formula: Formula) -> int:
        """What evaluating ``formula`` reads: one, and the cells of its ranges (clipped
        to what their sheets hold)."""
        total = 1
        for ref in formula.reads:
            for sheet in self._sheets(ref.sheet, formula.key[0]):
                r2, c2 = self.book.clip(sheet, ref.r2, ref.c2)
                total += max(0, r2 - ref.r1 + 1) * max(0, c2 - ref.c1 + 1)
        return total

    def _sheets(self, name: str | None, here: str) -> list[str]:
        book = self.book
        try:
            if name is not None and ":" in name and name.upper() not in book.sheet_names:
                first, last = name.split(":", 1)
                return book.sheets_between(first, last)
            return [book.sheet(name, here)]
        except (FormulaSyntaxError, ValueError):
            return []

    def _formulas_in(self, sheet: str, r1: int, c1: int, r2: int, c2: int) -> Iterable[Key]:
        book = self.book
        r2, c2 = book.clip(sheet, r2, c2)
        if (r2 - r1 + 1) * (c2 - c1 + 1) <= _SMALL_RANGE:
            places: Iterable[tuple[int, int]] = (
                (r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))
        else:
            places = (p for p in self._formula_cells(sheet) if r1 <= p[0] <= r2 and c1 <= p[1] <= c2)
        formulas, owner = book.formulas, book.owner
        for row, col in places:
            cell = (sheet, row, col)
            anchor = owner.get(cell, cell)
            if anchor in formulas:
                yield anchor

    def _formula_cells(self, sheet: str) -> list[tuple[int, int]]:
        if self._by_sheet is None:
            self._by_sheet = {}
            for s, r, c in [*self.book.formulas, *self.book.owner]:
                self._by_sheet.setdefault(s, []).append((r, c))
        return self._by_sheet.get(sheet, [])
