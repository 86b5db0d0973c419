"""The Excel face for scripts: "Pair next round" in the open FIDE Swiss workbook.

:func:`pair_next_round` reads the workbook's crosstable through xlwings, pairs the next
round by the Dutch system (:mod:`chessrating.pairing`, gacrux) and writes the round's
opponents and colours back, the results left for the director; the pairing-allocated
bye gets ``U``. It serves both Excel routes, as :mod:`chessrating.udfs` does:

* Windows Excel with the classic xlwings add-in: ``xlwings.script`` is xlwings' ``sub``
  there, and Import Functions (the ``xlwings.conf`` sheet names this module) writes it
  as the VBA macro ``Sub pair_next_round()``, run from Alt+F8 or a button. The macro has
  no argument (``vba="Nothing"``): the function works on the workbook that called it.
* xlwings Lite: the Lite copy's ``main.py`` registers the script with
  ``xlwings.script(**PAIR_NEXT_ROUND)`` (Lite lists the scripts defined in ``main.py``):
  the task pane's "Pair next round", and the sheet button ``PairNextRound`` on the
  crosstable, which links to the cell behind it (:data:`BUTTON`); only the crosstable's
  values are sent to Python.
* No Excel: the decorators do nothing; the function takes any xlwings book.

A workbook that cannot be paired (a US Chess or round-robin book, a round before with a
game without a result, a value that is not one) is told so in one line: printed, which
xlwings Lite shows in its task pane, and in a message box with the classic add-in; the
workbook is left as it was. Pairing modules load at the first click, not with the
workbook's functions.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

from .errors import RatingError

__all__ = ["pair_next_round", "pair_book", "book_kind", "PAIR_NEXT_ROUND", "BUTTON", "SHEET"]

_ON_SERVER = os.environ.get("XLWINGS_ON_SERVER") == "true"
# As in chessrating.udfs: xlwings registers scripts under Windows (classic), in xlwings
# Lite and on xlwings Server, and hands functions back unchanged elsewhere.
_XLWINGS_REGISTERS = _ON_SERVER or not sys.platform.startswith(("linux", "darwin"))
if _XLWINGS_REGISTERS:
    import xlwings as xw
_CLASSIC = _XLWINGS_REGISTERS and getattr(xw.script, "__module__", "") == "xlwings.udfs"

SHEET = "Crosstable"
# The sheet button: the shape's name and the cell behind it that its link selects
# (xlwings Lite runs the script when that cell is selected, then selects the one below).
BUTTON = ("PairNextRound", "E1")
# The options of xlwings' script decorator for xlwings Lite.
PAIR_NEXT_ROUND: dict[str, Any] = {
    "name": "Pair next round",
    "button": f"[{BUTTON[0]}]{SHEET}!{BUTTON[1]}",
    "include": [SHEET],
}
_TITLE = "Pair next round"


def book_kind(names: Iterable[str]) -> str:
    """Which template a workbook is, by its workbook names: ``"swiss"``, ``"round robin"``,
    ``"uscf"`` or ``""``.

    >>> book_kind(["Names", "FideIds", "Points"]), book_kind(["Names", "GameRounds"])
    ('swiss', 'round robin')
    >>> book_kind(["Names", "DualRated"]), book_kind(["Crosstable!Print_Titles"])
    ('uscf', '')
    """
    found = {n.rsplit("!", 1)[-1].lower() for n in names}
    if "names" not in found:
        return ""
    if found & {"gamerounds", "results"}:
        return "round robin"
    if found & {"dualrated", "uscfids"}:
        return "uscf"
    return "swiss" if "points" in found else ""


_REFUSED = {
    "uscf": "this is a US Chess event: US Chess pairs by its own Swiss rules (rulebook "
            "chapter 2, rules 27-29), which gacrux does not implement; it is not paired here",
    "round robin": "this is a round robin: its rounds are FIDE's Berger tables (C.05 "
                   "Annex 1) by starting number, not a Swiss pairing",
    "": "this workbook is not a FIDE Swiss crosstable (no Names and Points ranges)",
}


def pair_book(book: Any) -> list[str]:
    """Pair the next round of ``book`` (an xlwings book of the FIDE Swiss template) and
    write it into the crosstable; the lines that say what was paired. Raises
    :class:`RatingError` with the reason when the book is not paired."""
    from .pairing.cells import HEADER_ROWS, pair_next, pairing_lines, read_swiss, round_columns

    names = [n.name for n in book.names]
    kind = book_kind(names)
    if kind != "swiss":
        raise RatingError(f"book: {_REFUSED[kind]}")
    crosstable = book.names["Names"].refers_to_range
    sheet, first, last = crosstable.sheet, crosstable.row, crosstable.last_cell.row
    width = book.names["Points"].refers_to_range.column - 1
    rows = sheet.range((first - HEADER_ROWS, 1), (last, width)).options(ndim=2).value
    swiss = read_swiss(rows)
    pairing = pair_next(swiss)
    col = swiss.round_columns[pairing.round - 1] + 1
    sheet.range((first, col), (first + swiss.player_rows - 1, col + 2)).value = \
        round_columns(swiss, pairing, rows)
    return pairing_lines(swiss.tournament, pairing) + [
        "Opponents and colours are written; enter the results as the games end."]


def pair_next_round(book: Any = None):  # no return hint: classic xlwings would convert by it
    """Pair the next round of this FIDE Swiss crosstable (FIDE Dutch system, gacrux) and
    write its opponents and colours; results are left for you to enter."""
    if _CLASSIC or book is None:
        book = xw.Book.caller()  # the classic macro passes no book: the caller's
    try:
        lines = pair_book(book)
    except RatingError as error:
        _tell(book, "Not paired: " + ((str(error).splitlines() or [""])[0]), refused=True)
        return
    _tell(book, "\n".join(lines), refused=False)


def _tell(book: Any, text: str, refused: bool) -> None:
    """``text`` in xlwings Lite's task pane (what a script prints) and, with the classic
    add-in, in a message box."""
    print(text)
    if _CLASSIC:  # pragma: no cover - Windows only
        book.app.alert(text, title=_TITLE, mode="critical" if refused else "info")


if _CLASSIC:  # pragma: no cover - Windows only
    # Import Functions writes a Sub without arguments (Alt+F8 lists only those): VBA
    # passes Nothing, read as it is, and the function takes the calling workbook.
    pair_next_round = xw.script(xw.arg("book", "raw", vba="Nothing")(pair_next_round))
