"""What the event page shows, read from a recalculated workbook.

The standings are the workbook's own values: the book is evaluated in memory by the
project's engine (:func:`evaluate`, the same evaluation ``chessrating recalc`` makes) and
the Crosstable's computed cells are read, never computed a second time. Columns are
found through the workbook names the templates define (``Names``, ``Points``, ``Rank``,
``TieBreaks``, ``RatingChange``, ``NewRating``, ``InitialRating``, ``Ratings``) and, for
the columns without one, by their header above the first player row (``No.``,
``Title``, ``Fed``, ``Rating``), so a column moved by a later layout is still found.

The standings' columns, in order: Rank, No., Name, Title, Fed (FIDE workbooks), Rating,
Points, the tie-breaks picked (headed as the Crosstable heads them, ``BH/C1``…; a slot
left empty is not shown), then Change and New rating (FIDE) or New rating (US Chess,
its "Two passes" column, the rating the report sends). An unrated FIDE player's new
rating is the first rating the event gives him, as ``recalc`` prints it. Rows follow
the Rank column; a row without a rank (a reason instead, no points yet) comes last;
equal ranks by starting number.

The rounds are read from the same evaluated cells into the package's model
(:class:`~chessrating.tournament.Tournament`): a Swiss or US Chess row's ``Opp``, ``Col``
and ``Res`` cells per round; a round robin's results grid (``Results``), with the round
and colour of each game from the Report sheet's ``GameRounds`` grid (``3W``).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cells import whole_number
from ..recalc.standings import name_text
from ..tournament import Player, RoundGame, Tournament, colour_code
from ..trf.bookgames import trf_code

__all__ = ["EventData", "StandingsTable", "evaluate", "read_event", "date_text"]


@dataclass
class StandingsTable:
    """The standings as the workbook computes them: a header per column and, per row
    in rank order, the cells' values (numbers, text, ``None`` for an empty cell)."""

    headers: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    kinds: tuple[str, ...] = ()  # per column: rank, number, name, text, rating, points, tiebreak, change

    def column(self, header: str) -> list[Any]:
        """The values of the column headed ``header``, in rank order."""
        index = self.headers.index(header)
        return [row[index] for row in self.rows]


@dataclass
class EventData:
    """Everything the page shows: the event, its standings, its rounds, the reasons."""

    name: str
    kind: str  # "swiss", "round robin", "uscf"
    start: Any = None
    end: Any = None
    standings: StandingsTable = field(default_factory=lambda: StandingsTable((), []))
    tournament: Tournament = field(default_factory=Tournament)
    round_dates: list[Any] = field(default_factory=list)
    results_grid: dict[tuple[int, int], str] = field(default_factory=dict)  # round robin: (row, col) -> shown
    problems: list[str] = field(default_factory=list)  # why provisional (the command's)


def evaluate(path: Path) -> tuple[Any, Any]:
    """The workbook at ``path`` evaluated in memory with the rating functions, and the
    report ``chessrating recalc`` would give (its problems, errors and standings)."""
    from xlrecalc import evaluate_book, load_book

    from ..recalc import Report, rating_functions, record_values

    book = load_book(path, rating_functions())
    evaluate_book(book)
    report = Report(source=path, output=path, formula_count=len(book.formulas))
    record_values(book, report)
    return book, report


# -- cells --------------------------------------------------------------------------
def _named(book: Any, name: str) -> tuple[str, Any] | None:
    from ..recalc.standings import named_ref
    return named_ref(book, name)


def _named_values(book: Any, name: str) -> list[list[Any]] | None:
    found = _named(book, name)
    if found is None:
        return None
    sheet, ref = found
    r2, c2 = book.clip(sheet, ref.r2, ref.c2)
    return [[book.value(sheet, r, c) for c in range(ref.c1, c2 + 1)] for r in range(ref.r1, r2 + 1)]


def _one(book: Any, name: str) -> Any:
    values = _named_values(book, name)
    return values[0][0] if values and values[0] else None


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _label(value: Any) -> str:
    return " ".join(value.split()).lower() if isinstance(value, str) else ""


def date_text(value: Any, date1904: bool = False) -> str:
    """A date cell as the page writes it: ISO ``2026-03-07`` for a date serial, the text
    as typed otherwise, ``""`` for a blank cell.

    >>> date_text(46088.0), date_text("7 March 2026"), date_text(None)
    ('2026-03-07', '7 March 2026', '')
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 1 <= value < 2_958_466:
        base = _dt.date(1904, 1, 1) if date1904 else _dt.date(1899, 12, 30)
        return (base + _dt.timedelta(days=int(value))).isoformat()
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()[:10]
    return value.strip() if isinstance(value, str) else ""


# -- the crosstable's layout -----------------------------------------------------------
@dataclass
class _Layout:
    sheet: str
    rows: list[int]          # the player rows (every row of Names)
    name_col: int
    header_row: int
    headers: dict[str, int]  # lower-case header text -> column


def _layout(book: Any) -> _Layout:
    from ..errors import RatingError

    found = _named(book, "Names")
    if found is None:
        raise RatingError("book: no Names range; publish reads the crosstable workbooks "
                          "(the templates and import-trf's)")
    sheet, ref = found
    r2, _ = book.clip(sheet, ref.r2, ref.c1)
    header_row = next((r for r in range(ref.r1 - 1, 0, -1) if _label(book.value(sheet, r, ref.c1)) == "name"),
                      ref.r1 - 1)
    _, last_col = book.extent.get(sheet, (0, 0))
    headers: dict[str, int] = {}
    for c in range(1, last_col + 1):
        text = _label(book.value(sheet, header_row, c))
        if text:
            headers.setdefault(text, c)
    return _Layout(sheet, list(range(ref.r1, max(r2, ref.r1 - 1) + 1)), ref.c1, header_row, headers)


def _kind(book: Any) -> str:
    from ..pairing.book import book_kind
    return book_kind(name for _, name in book.names) or "swiss"


def _name_column(book: Any, layout: _Layout, name: str) -> int | None:
    """The column of a workbook name on the crosstable's rows, if it names one."""
    found = _named(book, name)
    if found is None or found[0] != layout.sheet:
        return None
    return found[1].c1


def _event_name(book: Any, layout: _Layout) -> str:
    """The Event cell: the cell right of the label ``Event`` above the table."""
    for r in range(1, layout.header_row):
        for c in range(1, 6):
            if _label(book.value(layout.sheet, r, c)) == "event":
                value = book.value(layout.sheet, r, c + 1)
                return value.strip() if isinstance(value, str) else ("" if value is None else str(value))
    return ""


# -- standings ------------------------------------------------------------------------
Column = tuple[str, str, int | None]  # header, kind of value, sheet column


def _standings_columns(book: Any, layout: _Layout, kind: str) -> list[Column]:
    """The standings' columns and where the Crosstable holds them: a workbook name on its
    rows where the template defines one, else the header above the first row."""
    from ..recalc.standings import TIEBREAK_BLOCK, TIEBREAK_CODES

    def by_header(text: str) -> int | None:
        return layout.headers.get(text.lower())

    def named_or_header(name: str, header: str) -> int | None:
        col = _name_column(book, layout, name)
        return col if col is not None else by_header(header)

    columns: list[Column] = [("Rank", "rank", named_or_header("Rank", "Rank")),
                             ("No.", "number", by_header("No.")), ("Name", "name", layout.name_col)]
    if kind != "uscf":
        columns += [("Title", "text", by_header("Title")), ("Fed", "text", by_header("Fed"))]
    columns += [("Rating", "rating", named_or_header("Ratings", "Rating")),
                ("Points", "points", named_or_header("Points", "Points"))]
    block = _named(book, TIEBREAK_BLOCK)
    if block is not None and block[0] == layout.sheet:
        for slot, code_name in enumerate(TIEBREAK_CODES):
            code, col = _one(book, code_name), block[1].c1 + slot
            if _blank(code) or col > block[1].c2:
                continue  # a slot left empty is not shown (recalc's standings leave it out too)
            header = book.value(layout.sheet, layout.header_row, col)
            shown = header.strip() if isinstance(header, str) and header.strip() else str(code).strip()
            columns.append((shown, "tiebreak", col))
    if kind != "uscf":
        columns.append(("Change", "change", named_or_header("RatingChange", "Change")))
    columns.append(("New rating", "rating", named_or_header("NewRating", "New rating")))
    return [c for c in columns if c[2] is not None or c[1] in ("number", "rank")]


def _standings(book: Any, layout: _Layout, kind: str) -> StandingsTable:
    """Each named row's values in the columns of :func:`_standings_columns`, in rank order."""
    columns = _standings_columns(book, layout, kind)
    initial = _name_column(book, layout, "InitialRating")
    rows: list[tuple[Any, ...]] = []
    for index, r in enumerate(layout.rows):
        name = name_text(book.value(layout.sheet, r, layout.name_col))
        if not name:
            continue
        line: list[Any] = []
        for header, what, col in columns:
            value = None if col is None else book.value(layout.sheet, r, col)
            if what == "number":
                value = whole_number(value) or index + 1
            elif what == "name":
                value = name
            elif header == "New rating" and initial is not None and not _is_number(value):
                first = book.value(layout.sheet, r, initial)  # an unrated player's first rating
                value = first if _is_number(first) else value
            line.append(None if _blank(value) else (value.strip() if isinstance(value, str) else value))
        rows.append(tuple(line))
    kinds = [c[1] for c in columns]
    rank_at, number_at = kinds.index("rank"), kinds.index("number")

    def order(row: tuple[Any, ...]) -> tuple[float, float]:
        rank = row[rank_at]
        return (float(rank) if _is_number(rank) else float("inf"), float(row[number_at]))
    rows.sort(key=order)
    return StandingsTable(tuple(c[0] for c in columns), rows, tuple(kinds))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# -- rounds ---------------------------------------------------------------------------
def _players(book: Any, layout: _Layout, kind: str) -> list[tuple[int, Player]]:
    """Each player row with a name, and its player (number, name, title, federation, rating)."""
    sheet, found = layout.sheet, []
    number_col = layout.headers.get("no.")
    rating_col = _name_column(book, layout, "Ratings") or layout.headers.get("rating")
    for index, r in enumerate(layout.rows):
        name = name_text(book.value(sheet, r, layout.name_col))
        if not name:
            continue
        number = (whole_number(book.value(sheet, r, number_col)) if number_col else None) or index + 1
        p = Player(number, name)
        if kind != "uscf":
            for attr, header in (("title", "title"), ("federation", "fed")):
                col = layout.headers.get(header)
                value = book.value(sheet, r, col) if col else None
                setattr(p, attr, value.strip() if isinstance(value, str) else "")
        p.rating = whole_number(book.value(sheet, r, rating_col)) if rating_col else None
        found.append((r, p))
    return found


def _round_columns(book: Any, layout: _Layout) -> list[int]:
    """The first column (Opp) of every round of a Swiss or US Chess crosstable."""
    sheet, below = layout.sheet, layout.header_row + 1
    _, last_col = book.extent.get(sheet, (0, 0))
    return [c for c in range(layout.name_col + 1, last_col + 1)
            if _label(book.value(sheet, below, c)) == "opp"
            and _label(book.value(sheet, below, c + 2)) == "res"]


def _swiss_games(book: Any, layout: _Layout, players: list[tuple[int, Player]]) -> None:
    starts = _round_columns(book, layout)
    for row, p in players:
        for k, c in enumerate(starts, start=1):
            opponent = whole_number(book.value(layout.sheet, row, c))
            colour = colour_code(book.value(layout.sheet, row, c + 1))
            code = trf_code(book.value(layout.sheet, row, c + 2)) or " "
            p.games.append(RoundGame(k, opponent, colour, code))
        while p.games and p.games[-1].is_blank:
            p.games.pop()


_SHOWN_RESULT = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "H": "½", "F": "1", "U": "1", "Z": "0"}


def _round_robin_games(book: Any, layout: _Layout, players: list[tuple[int, Player]],
                       grid: dict[tuple[int, int], str]) -> None:
    """The results grid into each player's games, each in its round and colour: the
    ``GameRounds`` grid's ``3W`` (round 3, the row player White), else the Berger table."""
    import re

    from ..tournament import berger

    results = _named(book, "Results")
    if results is None:
        return
    sheet, ref = results
    rounds_grid = _named_values(book, "GameRounds") or []
    numbers = {p.number for _, p in players}
    table = berger(max(numbers, default=0))
    pattern = re.compile(r"\s*([0-9]{1,3})\s*([WB])?\s*")
    for row, p in players:
        games: dict[int, RoundGame] = {}
        for j in range(1, ref.c2 - ref.c1 + 2):
            if j == p.number:
                continue
            value = book.value(sheet, row, ref.c1 + j - 1)
            code = trf_code(value)
            if _blank(value) or j not in numbers:
                continue
            grid[(p.number, j)] = _SHOWN_RESULT.get(code or "", str(value).strip())
            if code is None:
                continue
            stated = rounds_grid[p.number - 1][j - 1] if p.number - 1 < len(rounds_grid) and \
                j - 1 < len(rounds_grid[p.number - 1]) else None
            match = pattern.fullmatch(str(stated).upper()) if isinstance(stated, str) else None
            if match:
                rnd, colour = int(match[1]), {"W": "w", "B": "b"}.get(match[2] or "")
            else:
                low, high = min(p.number, j), max(p.number, j)
                rnd, low_white = table.get((low, high), (0, True))
                colour = "w" if (low_white == (p.number == low)) else "b"
            if rnd >= 1 and rnd not in games:
                games[rnd] = RoundGame(rnd, j, colour, code)
        last = max(games, default=0)
        p.games = [games.get(k, RoundGame(k)) for k in range(1, last + 1)]


def read_event(book: Any, report: Any, path: Path) -> EventData:
    """The page's content from an evaluated ``book`` and its ``report`` (:func:`evaluate`)."""
    layout = _layout(book)
    kind = _kind(book)
    date1904 = bool(getattr(book, "date1904", False))
    data = EventData(name=_event_name(book, layout) or Path(path).stem, kind=kind,
                     start=date_text(_one(book, "ReportStart"), date1904),
                     end=date_text(_one(book, "ReportEnd"), date1904))
    data.standings = _standings(book, layout, kind)
    players = _players(book, layout, kind)
    if kind == "round robin":
        _round_robin_games(book, layout, players, data.results_grid)
    else:
        _swiss_games(book, layout, players)
    t = Tournament(name=data.name, players=[p for _, p in players])
    t.rounds = max((len(p.games) for p in t.players), default=0)
    data.tournament = t
    dates = _named_values(book, "RoundDates") or []
    data.round_dates = [date_text(v, date1904) for row in dates for v in row]
    return data
