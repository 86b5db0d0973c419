"""The round robin the crosstable template is filled with, and the bundled example event.

:class:`RoundRobinEvent` is a view of a :class:`~chessrating.tournament.Tournament` in
which every pair met at most once: its players in starting-number order and the n×n grid
of result cells their games make (``"1"``, ``"½"``, ``"0"``, ``"+"``, ``"-"``; ``""`` on
the diagonal and for games not played), with what only the workbook adds: the title
whose norm verdicts it shows, and for the example its sources and published points.

The example event for ``chessrating demo`` is the 4th Sinquefield Cup (Saint Louis,
5–14 August 2016), a ten-player single round robin, stored in
``data/demo_sinquefield_2016.csv`` with its sources. It asks for the GM-norm verdicts
(``norm_title``), which the README's picture shows; other events leave the title blank
and the norm column quiet until one is picked in the workbook.

**Decision**: the file holds the crosstable, not the rounds. Its games are placed in the
rounds of the FIDE Berger tables for the row numbers (as ``export-trf`` reads a crosstable
without rounds), colours unknown; nothing the workbook shows depends on them.

>>> event = load_demo_event()
>>> event.name, len(event.players), event.players[0].name, event.points()[0], event.norm_title
('4th Sinquefield Cup', 10, 'So, Wesley', 5.5, 'GM')
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import resources

from ..errors import RatingError
from ..tournament import Player, RoundGame, Tournament, berger, cell_result

__all__ = ["RoundRobinEvent", "load_demo_event", "parse_event_csv",
           "DEMO_FILE", "CELL_POINTS", "NORM_TITLES"]

DEMO_FILE = "demo_sinquefield_2016.csv"

# Title whose norm verdicts the example event shows.
DEMO_NORM_TITLE = "GM"
# Points of each result cell the round-robin grid may hold.
CELL_POINTS = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "H": 0.5, "B": 1.0,
               "U": 1.0, "Z": 0.0, "": 0.0}
# Titles the workbook's Norm cell offers, blank for none.
NORM_TITLES = ("", "GM", "IM", "WGM", "WIM")
# The results a cell's mirror may hold for the pair to make one game: a double forfeit
# is "-" in both, a game lost by both "0" in both (docs/RULES.md §1.3).
_MIRROR = {"1": ("0",), "0": ("1", "0"), "½": ("½",), "+": ("-",), "-": ("+", "-")}
# The TRF code of each result cell an event file may hold (cell_result turns it back).
_CELL_CODE = {"1": "1", "½": "=", "0": "0", "+": "+", "-": "-", "H": "H", "B": "F", "U": "U", "Z": "Z"}


@dataclass(frozen=True)
class RoundRobinEvent:
    """A single round robin: a tournament, and the grid ``results[i][j]`` of its i-th
    player against its j-th (starting-number order, both built once from the tournament).

    A pair that met twice, an opponent number no player has or a player paired with
    himself raises :class:`RatingError`; byes have no place in a crosstable and are left out.
    """

    tournament: Tournament
    norm_title: str = ""  # the workbook's NormTitle: "" (no verdicts), GM, IM, WGM or WIM
    sources: tuple[str, ...] = ()
    published_points: tuple[float, ...] | None = None
    players: tuple[Player, ...] = field(init=False, repr=False)
    results: tuple[tuple[str, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.norm_title not in NORM_TITLES:
            raise RatingError(f"norm_title: {self.norm_title!r} is not one of "
                              f"{', '.join(t for t in NORM_TITLES if t)} or blank")
        players = tuple(sorted(self.tournament.players, key=lambda p: p.number))
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "results", _grid(players))

    @property
    def name(self) -> str:
        return self.tournament.name

    @property
    def start(self) -> _dt.date | None:
        """The first day, where known: which tie-break rules were in force."""
        return self.tournament.start_date

    @property
    def year(self) -> int | None:
        return self.start.year if self.start else None

    def points(self) -> list[float]:
        """Each player's points from the grid (forfeits included)."""
        return [sum(CELL_POINTS[v] for v in row) for row in self.results]

    def mismatches(self) -> list[tuple[int, int]]:
        """Pairs (i, j), 1-based with i < j, whose two cells do not make one game."""
        bad = []
        for i, row in enumerate(self.results):
            for j in range(i + 1, len(row)):
                mine, theirs = row[j], self.results[j][i]
                if (mine or theirs) and theirs not in _MIRROR.get(mine, ()):
                    bad.append((i + 1, j + 1))
        return bad


def _grid(players: Sequence[Player]) -> tuple[tuple[str, ...], ...]:
    """The crosstable of ``players``: each game's worksheet cell (:func:`cell_result`)."""
    position = {p.number: i for i, p in enumerate(players)}
    grid = [["" for _ in players] for _ in players]
    for p in players:
        row = position[p.number]
        for game in p.games:
            if game.opponent is None:
                continue
            if game.opponent not in position:
                raise RatingError(f"opponent: player {p.number} meets unknown number {game.opponent} "
                                  f"in round {game.round}")
            col = position[game.opponent]
            if col == row:
                raise RatingError(f"results: player {row + 1} cannot play themself")
            if grid[row][col]:
                raise RatingError(f"opponent: players {p.number} and {game.opponent} met twice; "
                                  "use the Swiss template")
            grid[row][col] = cell_result(game.code)
    return tuple(tuple(row) for row in grid)


def _optional_int(text: str, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RatingError(f"{what}: {text!r} is not a whole number") from None


def _optional_date(text: str, what: str) -> _dt.date | None:
    try:
        return _dt.date.fromisoformat(text) if text else None
    except ValueError:
        raise RatingError(f"{what}: {text!r} is not a date YYYY-MM-DD") from None


def _games(grid: Sequence[Sequence[str]]) -> list[list[RoundGame]]:
    """Each row's games, in the rounds of the Berger tables (the module's **Decision**);
    a round without a game is blank."""
    size = len(grid)
    rounds = size - 1 if size % 2 == 0 else size
    table = berger(size)
    lines = []
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value not in CELL_POINTS:
                raise RatingError(f"results: {value!r} is not a crosstable result "
                                  f"(row {i + 1}, column {j + 1})")
            if i == j and value:
                raise RatingError(f"results: player {i + 1} cannot play themself")
        by_round = {}
        for j, value in enumerate(row):
            if value:
                rnd = table[min(i, j) + 1, max(i, j) + 1][0]
                by_round[rnd] = RoundGame(rnd, j + 1, None, _CELL_CODE[value])
        lines.append([by_round.get(r, RoundGame(r)) for r in range(1, rounds + 1)])
    return lines


def parse_event_csv(text: str) -> RoundRobinEvent:
    """Read an event file: ``# key: value`` lines (``event``, ``site``, ``start`` and
    ``end`` as YYYY-MM-DD, ``source`` …), then a CSV crosstable with a header row.

    Columns: ``no, name, title, federation, rating, birth_year``, one column per opponent
    number, then ``points`` (the published score, checked against the grid).
    """
    meta: dict[str, list[str]] = {}
    body = []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            meta.setdefault(key.strip().lower(), []).append(value.strip())
        elif line.strip():
            body.append(line)
    rows = list(csv.reader(io.StringIO("\n".join(body))))
    header, rows = rows[0], rows[1:]
    size = len(rows)
    expected = ["no", "name", "title", "federation", "rating", "birth_year",
                *[str(n) for n in range(1, size + 1)], "points"]
    if header != expected:
        raise RatingError(f"header: {header} is not {expected}")
    players, grid, published = [], [], []
    for index, row in enumerate(rows, start=1):
        if _optional_int(row[0], "no") != index:
            raise RatingError(f"no: row {index} holds number {row[0]!r}")
        players.append(Player(
            index, name=row[1], title=row[2], federation=row[3],
            rating=_optional_int(row[4], "rating"), birth_year=_optional_int(row[5], "birth_year")))
        grid.append(row[6:6 + size])
        published.append(float(row[6 + size]))
    for player, games in zip(players, _games(grid)):
        player.games = games
    first = (meta.get("start") or [""])[0]
    tournament = Tournament(
        name=(meta.get("event") or [""])[0], city=(meta.get("site") or [""])[0],
        start_date=_optional_date(first, "start"),
        end_date=_optional_date((meta.get("end") or [""])[0], "end"),
        players=players, rounds=size - 1 if size % 2 == 0 else size)
    event = RoundRobinEvent(tournament, sources=tuple(meta.get("source", [])),
                            published_points=tuple(published))
    if event.points() != list(published):
        raise RatingError(f"points: the grid gives {event.points()}, the file states {published}")
    if event.mismatches():
        raise RatingError(f"results: cells and their mirrors disagree at {event.mismatches()}")
    return event


def load_demo_event() -> RoundRobinEvent:
    """The bundled example event (4th Sinquefield Cup 2016), checked as it is read, with
    the GM-norm verdicts asked for."""
    text = resources.files("chessrating").joinpath("data", DEMO_FILE).read_text(encoding="utf-8")
    return replace(parse_event_csv(text), norm_title=DEMO_NORM_TITLE)
