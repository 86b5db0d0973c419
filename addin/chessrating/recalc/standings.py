"""The standings of a recalculated crosstable, found through the workbook's defined names.

A template names its player columns: ``Names`` and ``Points`` are required, and
``Performance``, ``RatingChange``, ``NewRating`` and ``InitialRating`` (the first
rating of an unrated player) are read when present. A workbook without those names is
read by its headers instead: the first row holding ``Name`` and ``Points``, with
``Perf…``, ``Change``, ``New rating`` and ``First rating`` beside them, down to the end
of the table. Rows with a blank name are skipped; a number or a formula's result in the
name column is a name.

A template ranks its players itself: the column named ``Rank`` (``TIEBREAK_RANK`` of the
points and the tie-break columns named ``TieBreaks``, whose codes stand in the cells named
``TieBreak1`` … ``TieBreak4`` and whose edition in ``TieBreakRules``). The standings
follow that column and say which tie-breaks made it. A workbook without a Rank column is
ranked by points, then by performance, and the standings say so; players equal on what
ranked them share a rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xlrecalc import FormulaSyntaxError, XlErr, excel_text, parse_ref

__all__ = ["Standing", "Standings", "ShownError", "name_text", "find_standings", "format_standings", "not_final",
           "COLUMN_NAMES", "named_ref"]

# Defined name used by the templates, then other spellings accepted for the same column.
COLUMN_NAMES: dict[str, tuple[str, ...]] = {
    "name": ("Names", "PlayerNames", "Players"),
    "points": ("Points", "Score", "Scores"),
    "performance": ("Performance", "Performances", "PerformanceRating", "TPR"),
    "change": ("RatingChange", "RatingChanges", "Change", "Changes"),
    "new_rating": ("NewRating", "NewRatings"),
    "initial_rating": ("InitialRating", "InitialRatings", "FirstRating"),
    "rank": ("Rank", "Ranks"),
}
# The tie-break columns of a template, one per code, and the cells holding the codes.
TIEBREAK_BLOCK = "TieBreaks"
TIEBREAK_CODES = tuple(f"TieBreak{slot}" for slot in range(1, 5))


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
    tiebreaks: tuple[Any, ...] = ()


class Standings(list[Standing]):
    """The players, best first, with what ranked them (``ranked_by``, a sentence) and the
    codes of the tie-break columns shown (``codes``)."""

    def __init__(self, rows: list[Standing] = (), ranked_by: str = "",  # type: ignore[assignment]
                 codes: tuple[str, ...] = ()) -> None:
        super().__init__(rows)
        self.ranked_by = ranked_by
        self.codes = codes


def named_ref(book: Any, name: str) -> tuple[str, Any] | None:
    """The sheet and the reference a workbook name stands for, if it is a plain range."""
    for (scope, defined), text in book.names.items():
        if defined != name.upper():
            continue
        try:
            ref = parse_ref(text.lstrip("="))
            return book.sheet(ref.sheet, scope or next(iter(book.cells))), ref
        except FormulaSyntaxError:
            continue
    return None


def _column(book: Any, aliases: tuple[str, ...]) -> list[Any] | None:
    rows = _block(book, aliases)
    return None if rows is None else [value for row in rows for value in row]


def _block(book: Any, aliases: tuple[str, ...]) -> list[list[Any]] | None:
    """The values of the first of ``aliases`` that names a range, row by row."""
    for alias in aliases:
        found = named_ref(book, alias)
        if found is None:
            continue
        sheet, ref = found
        r2, c2 = book.clip(sheet, ref.r2, ref.c2)
        return [[book.value(sheet, r, c) for c in range(ref.c1, c2 + 1)] for r in range(ref.r1, r2 + 1)]
    return None


def _tiebreak_codes(book: Any) -> tuple[list[str], str]:
    """The codes picked for the tie-break columns (blank for a slot left empty) and the
    edition of the rules, from the cells the template names."""
    codes = []
    for name in TIEBREAK_CODES:
        block = _block(book, (name,))
        value = block[0][0] if block and block[0] else None
        codes.append(value.strip().upper() if isinstance(value, str) else "")
    rules = _block(book, ("TieBreakRules",))
    edition = rules[0][0] if rules and rules[0] else None
    if isinstance(edition, float) and edition.is_integer():
        edition = int(edition)
    return codes, "" if edition is None else str(edition).strip()


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
        if name_text(value):
            rows.append(row)
    return rows


def name_text(value: Any) -> str:
    """A name cell as the sheet shows it: text, a number, an error's code; ``""`` if blank.

    >>> name_text("  Ann "), name_text(12.0), name_text(None)
    ('Ann', '12', '')
    """
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


def find_standings(book: Any) -> Standings:
    """The players of the workbook's named table, best first; empty without a table."""
    columns: dict[str, list[Any] | None] = {key: _column(book, aliases)
                                            for key, aliases in COLUMN_NAMES.items()}
    if columns["name"] is None or columns["points"] is None:
        columns = dict(_columns_by_header(book) or {})
    names, points = columns.get("name"), columns.get("points")
    if names is None or points is None:
        return Standings()
    extra = {key: columns.get(key)
             for key in ("performance", "change", "new_rating", "initial_rating", "rank")}
    ranks = extra["rank"]
    block = _block(book, (TIEBREAK_BLOCK,)) if ranks is not None else None
    codes, edition = _tiebreak_codes(book) if block is not None else ([], "")
    shown = [i for i, code in enumerate(codes) if code]

    def pick(key: str, index: int) -> Any:
        column = extra[key]
        return _shown(column[index]) if column is not None and index < len(column) else None

    rows = []
    for index, cell in enumerate(names):
        name = name_text(cell)
        if not name:
            continue
        new_rating, initial = pick("new_rating", index), pick("initial_rating", index)
        if _number(new_rating) is None and _number(initial) is not None:
            new_rating = initial  # an unrated player: the first rating the event gives
        score = points[index] if index < len(points) else None
        tiebreaks = tuple(_shown(block[index][i]) for i in shown) if block and index < len(block) else ()
        rows.append((_number(pick("rank", index)), name, _number(_shown(score)), pick("performance", index),
                     pick("change", index), new_rating, tiebreaks))

    if ranks is not None:
        # The workbook's own ranks; a row without one (no points yet, or an error) last.
        def order(row: tuple[Any, ...]) -> tuple[float, ...]:
            return (row[0] if row[0] is not None else float("inf"),)
        used = [codes[i] for i in shown]
        ranked_by = ("Ranked by points, then " + ", ".join(used) if used else "Ranked by points") + \
            (f" (Rank column; tie-break rules {edition})" if used and edition else " (Rank column)")
    else:
        def order(row: tuple[Any, ...]) -> tuple[float, ...]:
            points_, performance = row[2], _number(row[3])
            return (-(points_ if points_ is not None else float("-inf")),
                    -(performance if performance is not None else float("-inf")))
        ranked_by = "Ranked by points, then performance (the workbook has no Rank column)"

    rows.sort(key=order)
    standings = Standings(ranked_by=ranked_by, codes=tuple(codes[i] for i in shown))
    for position, row in enumerate(rows, start=1):
        if ranks is not None and row[0] is not None:
            rank = int(row[0])
        elif standings and order(row) == order(rows[position - 2]):
            rank = standings[-1].rank
        else:
            rank = position
        standings.append(Standing(rank, *row[1:]))
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
    """One line per player: rank, name, points, the tie-breaks, performance, rating change,
    new rating; first, what ranked them.

    A cell that shows an error reads ``error`` (the errors are listed with their cells
    elsewhere); a long reason is cut at its colon and given in full below the table.

    >>> print(format_standings(Standings([
    ...     Standing(1, "Ann", 2.5, 2105.4, 12.34, 1962.0, (6.25, 2.0)),
    ...     Standing(2, "Bob", 0.5, "no games", None, 1600.0, (0.5, 0.0)),
    ...     Standing(3, "Cid", 0.0, ShownError("rating: 'x' is not a number"),
    ...              None, "no first rating: a zero score is disregarded", (0.0, 0.0))],
    ...     ranked_by="Ranked by points, then SB, WIN", codes=("SB", "WIN"))))
    Ranked by points, then SB, WIN
    #  Name  Points  SB    WIN  Perf      Change  New rating
    1  Ann      2.5  6.25  2    2105      +12.3   1962
    2  Bob      0.5  0.5   0    no games          1600
    3  Cid      0.0  0     0    error             no first rating
    <BLANKLINE>
    no first rating: a zero score is disregarded
    """
    codes = tuple(getattr(standings, "codes", ()))
    header = ("#", "Name", "Points", *codes, "Perf", "Change", "New rating")
    notes: list[str] = []
    lines = [(str(s.rank), s.name, _fmt(s.points, 1),
              *(_tiebreak_text(v, notes) for v in (tuple(s.tiebreaks) + ("",) * len(codes))[:len(codes)]),
              _fmt(s.performance, 0, notes=notes),
              _fmt(s.change, 1, signed=True, notes=notes), _fmt(s.new_rating, 0, notes=notes))
             for s in standings]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    ranked_by = getattr(standings, "ranked_by", "")
    out = [ranked_by] if ranked_by else []
    for row in [header, *lines]:
        cells = [text.rjust(widths[i]) if i == 2 else text.ljust(widths[i]) for i, text in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    if notes:
        out += ["", *notes]
    return "\n".join(out)


_CAUSES_SHOWN = 3


def not_final(standings: list[Standing], causes: list[str], to_fix: int = 0, errors: int = 0,
              other: str = "", listed: str = "below") -> tuple[list[str], bool]:
    """The lines that open standings which are not final, and whether they are withheld.

    ``causes`` are the reasons, each once (an input to fix, the first cell of a group of
    errors), of which the first few are named; ``to_fix`` counts the inputs the Check
    column refuses, ``errors`` the cells showing an error, ``other`` says anything else
    that makes the command exit 1; ``listed`` says where all causes are printed. No cause:
    no lines. The standings are withheld when
    no row has its points (every row shows a reason instead).

    >>> rows = [Standing(1, "Ann", 1.0, None, None, None), Standing(2, "Bob", None, None, None, None)]
    >>> print("\\n".join(not_final(rows, ["Crosstable!AB6: check result: 2 is not a result"], 1)[0]))
    Provisional standings, not final: 1 input to fix; the rows it names show the reason instead of numbers and rank last:
      Crosstable!AB6: check result: 2 is not a result
    >>> not_final(rows[1:], ["Crosstable!E5: rating: 'x' is not a number"], 0, 3)[1]
    True
    >>> not_final(rows, [])
    ([], False)
    """
    if not causes and not other:
        return [], False
    parts = []
    if to_fix:
        parts.append(f"{to_fix} input{'s' if to_fix > 1 else ''} to fix")
    if errors:
        parts.append(f"{errors} cell{'s' if errors > 1 else ''} showing an error")
    if other:
        parts.append(other)
    withheld = bool(standings) and all(s.points is None for s in standings)
    head = ("Standings withheld: no row has its points" if withheld else "Provisional standings, not final")
    what = " and ".join(parts)
    if to_fix and not withheld:
        what += f"; the rows {'they name' if to_fix > 1 else 'it names'} show the reason instead of " \
                "numbers and rank last"
    lines = [f"{head}: {what}" + (":" if causes else "")]
    lines += [f"  {cause}" for cause in causes[:_CAUSES_SHOWN]]
    if len(causes) > _CAUSES_SHOWN:
        lines.append(f"  … and {len(causes) - _CAUSES_SHOWN} more (all listed {listed})")
    return lines, withheld


def _tiebreak_text(value: Any, notes: list[str]) -> str:
    """A tie-break as the cell shows it: 6.25, 2, 14.5."""
    number = _number(value)
    if number is None:
        return _fmt(value, 0, notes=notes)
    return excel_text(number)
