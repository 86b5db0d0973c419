"""The cells a legacy array formula's range fills, and whether a dynamic array's result
can spill: what keeps a range over a whole sheet to the cells the file holds, and what
makes a spill with a cell in its way ``#SPILL!`` as in Excel.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from .parse import Ref

__all__ = ["HeldCells", "spill_blocked"]

_LAST_ROW, _LAST_COL = 1_048_576, 16_384


class HeldCells:
    """The cells a sheet's file holds that no array range has taken yet, by row: each
    is taken once, so ranges however many and however large cost what the file holds.

    >>> held = HeldCells([(1, 1), (1, 5), (3, 2), (9, 9)])
    >>> held.take(Ref("S", 1, 1, 3, 4)), held.take(Ref("S", 1, 1, 9, 9))
    ([(1, 1), (3, 2)], [(1, 5), (9, 9)])
    """

    def __init__(self, cells: Iterable[tuple[int, int]]):
        self.rows: dict[int, set[int]] = {}
        for row, col in cells:
            self.rows.setdefault(row, set()).add(col)
        self.order = sorted(self.rows)

    def take(self, ref: Ref) -> list[tuple[int, int]]:
        """The cells held within ``ref``, in rows, taken: no later range gets them."""
        taken: list[tuple[int, int]] = []
        rows = self.rows
        for row in self.order[bisect.bisect_left(self.order, ref.r1):
                              bisect.bisect_right(self.order, ref.r2)]:
            cols = rows.get(row)
            if not cols:
                continue
            found = sorted(c for c in cols if ref.c1 <= c <= ref.c2)
            cols.difference_update(found)
            taken.extend((row, c) for c in found)
            if not cols:
                del rows[row]
        if len(rows) < len(self.order) // 2:  # rows emptied: walked no more
            self.order = sorted(rows)
        return taken


def spill_blocked(cells: dict[tuple[int, int], Any], anchor: tuple[int, int],
                  shape: tuple[int, int], ref: Ref, own: set[tuple[int, int]]) -> bool:
    """Whether a result of ``shape`` cannot spill from ``anchor``: the range it needs
    runs past the sheet's edge, or holds, outside the range the formula fills already
    (``ref``, its cells ``own``), a cell of ``cells`` that is not blank (a value or a
    formula). Excel shows ``#SPILL!`` then.

    >>> sheet = {(1, 1): 0.0, (3, 1): 5.0}
    >>> here = Ref("S", 1, 1, 1, 1)
    >>> spill_blocked(sheet, (1, 1), (2, 1), here, {(1, 1)}), spill_blocked(sheet, (1, 1), (3, 1), here, {(1, 1)})
    (False, True)
    >>> spill_blocked(sheet, (1, 1), (1, 16_385), here, {(1, 1)})
    True
    """
    row, col = anchor
    height, width = shape
    last_row, last_col = row + height - 1, col + width - 1
    if last_row > _LAST_ROW or last_col > _LAST_COL:
        return True
    if last_row <= ref.r2 and last_col <= ref.c2:
        return False  # within the range it fills

    def blocks(r: int, c: int) -> bool:
        return (r, c) not in own and cells.get((r, c)) is not None
    if height * width <= len(cells):  # the smaller of the two to walk
        return any(blocks(r, c) for r in range(row, last_row + 1) for c in range(col, last_col + 1))
    return any(row <= r <= last_row and col <= c <= last_col and blocks(r, c) for r, c in cells)
