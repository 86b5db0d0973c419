"""The Excel face for scripts: "Pair next round" in the open FIDE Swiss workbook.

:func:`pair_next_round` reads the workbook through its names, as ``chessrating pair``
reads the file: the values of the named ranges :mod:`chessrating.pairing.book` reads
(the crosstable's ``Names``, ``Ratings`` and ``RoundInputs``; on the Report sheet the
pairing settings ``PairRounds``, ``PairTopColour``, ``PairAcceleration``,
``PairMaxMeets`` and the players' ``JoinsInRound`` and ``WithdrawnAfter``) go through the
same :func:`~chessrating.pairing.book.read_event` and
:func:`~chessrating.pairing.book.pair_event`, so both pair a workbook alike. The round's
opponents and colours are written back (:func:`~chessrating.pairing.book.round_cells`),
the results left for the director; the pairing-allocated bye gets ``U``. It serves both
Excel routes, as :mod:`chessrating.udfs` does:

* Windows Excel with the classic xlwings add-in: ``xlwings.script`` is xlwings' ``sub``
  there, and Import Functions (the ``xlwings.conf`` sheet names this module) writes it
  as the VBA macro ``Sub pair_next_round()``, run from Alt+F8 or a button. The macro has
  no argument (``vba="Nothing"``): the function works on the workbook that called it.
* xlwings Lite: the Lite copy's ``main.py`` registers the script with
  ``xlwings.script(**PAIR_NEXT_ROUND)`` (Lite lists the scripts defined in ``main.py``):
  the task pane's "Pair next round", and the sheet button ``PairNextRound`` on the
  crosstable, which links to the cell behind it (:data:`BUTTON`). Only the values of the
  crosstable and the Report sheet are sent to Python (:data:`INCLUDED`); the names come
  with their sheet and address.
* No Excel: the decorators do nothing; the function takes any xlwings book.

A workbook that cannot be paired (a US Chess or round-robin book, a round before with a
game without a result, a reason in the Check column, a value that is not one) is told so
in one line, naming the cell where there is one: printed, which xlwings Lite shows in its
task pane, and in a message box with the classic add-in; the workbook is left as it was.
Pairing modules load at the first click, not with the workbook's functions.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from .errors import RatingError

__all__ = ["pair_next_round", "pair_book", "book_values", "PAIR_NEXT_ROUND", "BUTTON", "SHEET",
           "INCLUDED"]

_ON_SERVER = os.environ.get("XLWINGS_ON_SERVER") == "true"
# As in chessrating.udfs: xlwings registers scripts under Windows (classic), in xlwings
# Lite and on xlwings Server, and hands functions back unchanged elsewhere.
_XLWINGS_REGISTERS = _ON_SERVER or not sys.platform.startswith(("linux", "darwin"))
if _XLWINGS_REGISTERS:
    import xlwings as xw
_CLASSIC = _XLWINGS_REGISTERS and getattr(xw.script, "__module__", "") == "xlwings.udfs"

SHEET = "Crosstable"
# The sheets whose values the script reads: the crosstable, and the Report sheet with
# the pairing settings, late entries and withdrawals (chessrating.workbooks.pairing_settings).
INCLUDED = (SHEET, "Report")
# The sheet button: the shape's name and the cell behind it that its link selects
# (xlwings Lite runs the script when that cell is selected, then selects the one below).
BUTTON = ("PairNextRound", "E1")
# The options of xlwings' script decorator for xlwings Lite.
PAIR_NEXT_ROUND: dict[str, Any] = {
    "name": "Pair next round",
    "button": f"[{BUTTON[0]}]{SHEET}!{BUTTON[1]}",
    "include": list(INCLUDED),
}
_TITLE = "Pair next round"
# The templates' Check column (chessrating.recalc.problems): a reason there is text
# starting "check ", and a note on an assumption may follow it.
_CHECKS, _REASON, _ASSUMED_AFTER = "Checks", "check ", "; assumed: "
_NOT_SWISS = "this workbook is not a FIDE Swiss crosstable (no Names and round columns)"


def _letters(column: int) -> str:
    """``28`` -> ``AB``."""
    out = ""
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


def _address(ranges: dict[str, Any], key: tuple[str, int, int]) -> str:
    """A cell key of :mod:`chessrating.pairing.book` as ``Crosstable!K7``."""
    name, row, col = key
    found = ranges.get(name)
    if found is None:
        return name
    return f"{found.sheet.name}!{_letters(found.column + col)}{found.row + row}"


def _ranges(book: Any) -> dict[str, Any]:
    """The ranges of the book-wide names the pairing reads, by name; for a Swiss made
    before the round columns had a name, ``RoundInputs`` found by its ``Opp`` headers
    (as ``chessrating pair`` finds it)."""
    from .pairing.book import FIRST_ROUND_AFTER_NAME, NAMES, PER_ROUND, ROUND_INPUTS, rounds_by_headers

    defined = {n.name: n for n in book.names}
    ranges: dict[str, Any] = {}
    for name in (*NAMES, _CHECKS, "Points"):
        try:
            ranges[name] = defined[name].refers_to_range
        except Exception:  # not defined, or not a range (a constant, #REF!): not read
            continue
    if ROUND_INPUTS not in ranges and "Names" in ranges and "Points" in ranges:
        names = ranges["Names"]
        sheet, first, start = names.sheet, names.row, names.column + FIRST_ROUND_AFTER_NAME
        end = ranges["Points"].column - 1
        if end >= start:
            headers = sheet.range((first - 1, start), (first - 1, end)).options(ndim=2).value[0]
            rounds = rounds_by_headers(headers)
            if rounds:
                ranges[ROUND_INPUTS] = sheet.range(
                    (first, start), (names.last_cell.row, start + PER_ROUND * rounds - 1))
    ranges.pop("Points", None)
    return ranges


def book_values(book: Any) -> tuple[dict[str, list[list[Any]]], dict[str, Any]]:
    """The values of the names :func:`chessrating.pairing.book.read_event` reads (and the
    Check column), each as rows of cells as xlwings reads them, and their ranges."""
    ranges = _ranges(book)
    return {name: rng.options(ndim=2).value for name, rng in ranges.items()}, ranges


def _refusal(refused: Any, ranges: dict[str, Any]) -> str:
    """A :class:`~chessrating.pairing.book.PairingRefused` in one line, the cells of its
    first finding named."""
    text = (str(refused).splitlines() or [""])[0].rstrip(":")
    if not refused.findings:
        return text
    first = refused.findings[0]
    at = [_address(ranges, key) for key in first.cells]  # the sheet named once: Crosstable!P7, P9
    cells = ", ".join(at[:1] + [a.removeprefix(at[0].split("!", 1)[0] + "!") for a in at[1:]])
    shown = f"{cells}: {first.message}" if cells else first.message
    if first.message in text:
        return text.replace(first.message, shown, 1)
    more = f" (and {len(refused.findings) - 1} more)" if len(refused.findings) > 1 else ""
    return f"{text}: {shown}{more}"


def _check_column(values: dict[str, list[list[Any]]], ranges: dict[str, Any]) -> None:
    """Refuse while the Check column shows a reason, as ``chessrating pair`` does."""
    reasons = [(r, c, value.split(_ASSUMED_AFTER, 1)[0])
               for r, row in enumerate(values.pop(_CHECKS, []) or [])
               for c, value in enumerate(row) if isinstance(value, str) and value.startswith(_REASON)]
    if reasons:
        r, c, reason = reasons[0]
        count = len({reason for _, _, reason in reasons})
        raise RatingError(f"the Check column lists {count} input(s) to fix first: "
                          f"{_address(ranges, (_CHECKS, r, c))}: {reason}")


def pair_book(book: Any) -> list[str]:
    """Pair the next round of ``book`` (an xlwings book of the FIDE Swiss template) and
    write it into the crosstable; the pairing list in board order, as ``chessrating pair``
    prints it. Raises :class:`RatingError` with the reason, in one line, when the book is
    not paired (nothing is written then)."""
    from .pairing.book import (
        PER_ROUND, ROUND_INPUTS, USCF_REFUSAL, PairingRefused, book_kind, pair_event,
        pairing_lines, read_event, round_cells, round_robin_refusal,
    )

    kind = book_kind(n.name.rsplit("!", 1)[-1] for n in book.names)
    if kind == "uscf":
        raise RatingError(USCF_REFUSAL)
    if kind == "round robin":
        names = book.names["Names"].refers_to_range.options(ndim=2).value
        players = sum(1 for row in names for v in row if v not in (None, ""))
        raise RatingError(round_robin_refusal(players).splitlines()[0].rstrip(":"))
    values, ranges = book_values(book)
    if kind != "swiss" or ROUND_INPUTS not in ranges:
        raise RatingError(f"book: {_NOT_SWISS}")
    _check_column(values, ranges)
    try:
        event = read_event(values)
        pairing = pair_event(event)
    except PairingRefused as refused:
        raise RatingError(_refusal(refused, ranges)) from None
    cells = round_cells(event.tournament, pairing)
    grid, target = values[ROUND_INPUTS], ranges[ROUND_INPUTS]
    col = PER_ROUND * (pairing.round - 1)
    rows = max(p.number for p in event.tournament.players)

    def kept(row: int, column: int) -> Any:  # a row without a player keeps what it holds
        value = grid[row][column] if row < len(grid) and column < len(grid[row]) else None
        return None if value == "" else value

    block = [[cells[(ROUND_INPUTS, r, col + k)] if (ROUND_INPUTS, r, col + k) in cells else kept(r, col + k)
              for k in range(PER_ROUND)] for r in range(rows)]
    first_row, first_col = target.row, target.column + col
    target.sheet.range((first_row, first_col), (first_row + rows - 1, first_col + PER_ROUND - 1)).value = block
    return pairing_lines(event.tournament, pairing) + [
        "Opponents and colours are written; enter the results as the games end."]


def pair_next_round(book: Any = None):  # no return hint: classic xlwings would convert by it
    """Pair the next round of this FIDE Swiss crosstable (FIDE Dutch system, gacrux) and
    write its opponents and colours; results are left for you to enter."""
    if _CLASSIC or book is None:
        book = xw.Book.caller()  # the classic macro passes no book: the caller's
    try:
        lines = pair_book(book)
    except RatingError as error:
        _tell(book, "Not paired: " + (str(error).splitlines() or [""])[0], refused=True)
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
