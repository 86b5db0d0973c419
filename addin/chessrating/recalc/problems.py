"""The inputs a recalculated crosstable refuses, read from its Check column.

A template's formulas show a reason instead of a number where the inputs cannot be
rated: a result that is not one, a bad opponent number, two cells of a game that
contradict each other. Such a reason is text starting ``check `` (not an Excel error),
and the row's Check cell shows its first one. The Check column carries the workbook name
``Checks``; :func:`find_problems` lists every reason there, each once with the cells that
show it, so ``chessrating recalc``, ``demo`` and ``import-trf`` name them and exit 1.

>>> Problem("Crosstable", ("AB5", "AB6"), "check game of player 1 and player 2: …").__str__()
'Crosstable!AB5, AB6: check game of player 1 and player 2: …'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xlrecalc import CellError, column_letters

from .standings import named_ref

__all__ = ["Problem", "find_problems", "CHECK_NAME", "as_cell_errors"]

# The workbook name of the templates' Check column.
CHECK_NAME = "Checks"
_REASON = "check "
_ASSUMED_AFTER = "; assumed: "


@dataclass(frozen=True)
class Problem:
    """One reason (``message``) and the cells of ``sheet`` that show it."""

    sheet: str
    cells: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return f"{self.sheet}!{', '.join(self.cells)}: {self.message}"


def find_problems(book: Any) -> list[Problem]:
    """Every ``check …`` reason the cells named :data:`CHECK_NAME` show, in row order,
    each once with the cells showing it (the two players of a contradicted game show the
    same reason); ``[]`` for a workbook without the name."""
    found = named_ref(book, CHECK_NAME)
    if found is None:
        return []
    sheet, ref = found
    r2, c2 = book.clip(sheet, ref.r2, ref.c2)
    cells: dict[str, list[str]] = {}
    for r in range(ref.r1, r2 + 1):
        for c in range(ref.c1, c2 + 1):
            value = book.value(sheet, r, c)
            if isinstance(value, str) and value.startswith(_REASON):
                # the note on an assumption a row adds after its reason is not the reason
                value = value.split(_ASSUMED_AFTER, 1)[0]
                cells.setdefault(value, []).append(f"{column_letters(c)}{r}")
    return [Problem(sheet, tuple(at), message) for message, at in cells.items()]


def as_cell_errors(problems: list[Problem]) -> list[CellError]:
    """The problems as the report's cell errors: one per cell, each after the first
    naming the first as its cause, so a listing groups a reason's cells together."""
    errors = []
    for problem in problems:
        first = f"{problem.sheet}!{problem.cells[0]}"
        for at in problem.cells:
            errors.append(CellError(problem.sheet, at, problem.message,
                                    None if at == problem.cells[0] else first))
    return errors
