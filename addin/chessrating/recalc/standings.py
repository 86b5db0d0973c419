"""The standings of a recalculated crosstable, found through the workbook's defined names.

A template names its player columns: ``Names`` and ``Points`` are required, and
``Performance``, ``RatingChange``, ``NewRating`` and ``InitialRating`` (the first
rating of an unrated player) are read when present. A workbook without those names is
read by its headers instead: the first row holding ``Name`` and ``Points``, with
``Perf…``, ``Change``, ``New rating`` and ``First rating`` beside them, down to the end
of the table. Rows with a blank name are skipped; a number or a formula's result in the
name column is a name. Players are ranked by points, then by performance; players equal
on both share a rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xlrecalc.parse import FormulaSyntaxError, parse_ref
from xlrecalc.values import XlErr, excel_text

__all__ = ["Standing", "ShownError", "find_standings", "format_standings", "COLUMN_NAMES"]

# Defined name used by the templates, then other spellings accepted for the same column.
COLUMN_NAMES: dict[str, tuple[str, ...]] = {
    "name": ("Names", "PlayerNames", "Players"),
    "points": ("Points", "Score", "Scores"),
    "performance": ("Performance", "Performances", "PerformanceRating", "TPR"),
    "change": ("RatingChange", "RatingChanges", "Change", "Changes"),
    "new_rating": ("NewRating", "NewRatings"),
    "initial_rating": ("InitialRating", "InitialRatings", "FirstRating"),
}


@dataclass(frozen=True)
class Standing:
    """One player's line: rank, name, points, performance, rating change, new rating.

    ``performance``, ``change`` and ``new_rating`` are numbers, or text the cell shows
    instead (a reason, an error), or ``None`` when the workbook has no such column or
    the cell is empty. For an unrated player ``new_rating`` is the first rating, where
    the event gives one.
    """

    rank: int
    name: str
    points: float | None
    performance: Any
    change: Any
    new_rating: Any


def _column(book: Any, aliases: tuple[str, ...]) -> list[Any] | None:
    for alias in aliases:
        for (scope, name), text in book.names.items():
            if name != alias.upper():
                continue
            try:
                ref = parse_ref(text.lstrip("="))
                sheet = book.sheet(ref.sheet, scope or next(iter(book.cells)))
            except FormulaSyntaxError:
                continue
            r2, c2 = book.clip(sheet, ref.r2, ref.c2)
            return [book.value(sheet, r, c) for r in range(ref.r1, r2 + 1)
                    for c in range(ref.c1, c2 + 1)]
    return None


# Header texts (lower case) of the same columns, for workbooks without the names.
HEADERS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player"),
    "points": ("points", "pts", "score", "pts."),
    "performance": ("perf", "perf.", "performance", "perf. (tpr)", "tpr"),
    "change": ("change", "rating change", "+/-", "chg"),
    "new_rating": ("new rating", "new", "new elo"),
    "initial_rating": ("first rating", "initial rating"),
}


def _columns_by_header(book: Any) -> dict[str, list[Any]] | None:
    for sheet, cells in book.cells.items():
        header_rows: dict[int, dict[str, int]] = {}
        for (row, col), value in sorted(cells.items()):
            if not isinstance(value, str):
                continue
            label = _label(value)
            for key, texts in HEADERS.items():
                if label in texts:
                    header_rows.setdefault(row, {}).setdefault(key, col)
        for row in sorted(header_rows):
            found = header_rows[row]
            if "name" in found and "points" in found:
                rows = _table_rows(book, sheet, row, found["name"])
                return {key: [cells.get((r, col)) for r in rows] for key, col in found.items()}
    return None


def _label(value: str) -> str:
    return " ".join(value.lower().split())


def _table_rows(book: Any, sheet: str, header: int, name_col: int) -> list[int]:
    """The rows under a header row that name a player, to the end of the table.

    Rows with a blank name (a gap in the starting numbers, a row left empty) are
    skipped, not taken as the end: the table ends where the name column repeats a
    header (the next block of a template) or at the sheet's last row.
    """
    cells = book.cells[sheet]
    last, _ = book.extent[sheet]
    rows: list[int] = []
    for row in range(header + 1, last + 1):
        value = cells.get((row, name_col))
        if isinstance(value, str) and _label(value) in HEADERS["name"]:
            if rows:
                break
            continue
        if _name_text(value):
            rows.append(row)
    return rows


def _name_text(value: Any) -> str:
    """A name cell as the sheet shows it: text, a number, a formula's result; '' if blank."""
    if isinstance(value, XlErr):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return excel_text(float(value))
    return value.strip() if isinstance(value, str) else ""


class ShownError(str):
    """The text an errored cell shows (a message or an Excel error code), kept apart
    from a reason such as "no games" so the table can mark it briefly."""


def _shown(value: Any) -> Any:
    if isinstance(value, XlErr):
        return ShownError(value.message or value.code)
    if value == "":
        return None
    return value


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def find_standings(book: Any) -> list[Standing]:
    """The players of the workbook's named table, best first; empty without a table."""
    columns: dict[str, list[Any] | None] = {key: _column(book, aliases)
                                            for key, aliases in COLUMN_NAMES.items()}
    if columns["name"] is None or columns["points"] is None:
        columns = dict(_columns_by_header(book) or {})
    names, points = columns.get("name"), columns.get("points")
    if names is None or points is None:
        return []
    extra = {key: columns.get(key)
             for key in ("performance", "change", "new_rating", "initial_rating")}

    def pick(key: str, index: int) -> Any:
        column = extra[key]
        return _shown(column[index]) if column is not None and index < len(column) else None

    rows = []
    for index, cell in enumerate(names):
        name = _name_text(cell)
        if not name:
            continue
        new_rating, initial = pick("new_rating", index), pick("initial_rating", index)
        if _number(new_rating) is None and _number(initial) is not None:
            new_rating = initial  # an unrated player: the first rating the event gives
        score = points[index] if index < len(points) else None
        rows.append((name, _number(_shown(score)), pick("performance", index),
                     pick("change", index), new_rating))

    def order(row: tuple[Any, ...]) -> tuple[float, float]:
        points_, performance = row[1], _number(row[2])
        return (-(points_ if points_ is not None else float("-inf")),
                -(performance if performance is not None else float("-inf")))

    rows.sort(key=order)
    standings: list[Standing] = []
    for position, row in enumerate(rows, start=1):
        rank = standings[-1].rank if standings and order(row) == order(rows[position - 2]) else position
        standings.append(Standing(rank, *row))
    return standings


_SHORT = 16  # longer text in a column is cut at its colon, and given in full below


def _fmt(value: Any, digits: int, signed: bool = False, notes: list[str] | None = None) -> str:
    if isinstance(value, ShownError):
        return "error"
    number = _number(value)
    if number is None:
        text = "" if value is None else str(value)
        if len(text) > _SHORT and notes is not None:
            if text not in notes:
                notes.append(text)
            head = text.split(":")[0].strip()
            return head if len(head) <= _SHORT + 4 else head[:_SHORT] + "…"
        return text
    return f"{number:+.{digits}f}" if signed else f"{number:.{digits}f}"


def format_standings(standings: list[Standing]) -> str:
    """One line per player: rank, name, points, performance, rating change, new rating.

    A cell that shows an error reads ``error`` (the errors are listed with their cells
    elsewhere); a long reason is cut at its colon and given in full below the table.

    >>> print(format_standings([Standing(1, "Ann", 2.5, 2105.4, 12.34, 1962.0),
    ...                         Standing(2, "Bob", 0.5, "no games", None, 1600.0),
    ...                         Standing(3, "Cid", 0.0, ShownError("rating: 'x' is not a number"),
    ...                                  None, "no first rating: a zero score is disregarded")]))
    #  Name  Points  Perf      Change  New rating
    1  Ann      2.5  2105      +12.3   1962
    2  Bob      0.5  no games          1600
    3  Cid      0.0  error             no first rating
    <BLANKLINE>
    no first rating: a zero score is disregarded
    """
    header = ("#", "Name", "Points", "Perf", "Change", "New rating")
    notes: list[str] = []
    lines = [(str(s.rank), s.name, _fmt(s.points, 1), _fmt(s.performance, 0, notes=notes),
              _fmt(s.change, 1, signed=True, notes=notes), _fmt(s.new_rating, 0, notes=notes))
             for s in standings]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    out = []
    for row in [header, *lines]:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2]),
                 row[3].ljust(widths[3]), row[4].ljust(widths[4]), row[5].ljust(widths[5])]
        out.append("  ".join(cells).rstrip())
    if notes:
        out += ["", *notes]
    return "\n".join(out)
