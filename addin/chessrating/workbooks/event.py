"""The events the crosstable templates are filled with, and the bundled example event.

:class:`RoundRobinEvent` is a crosstable in plain values: the players and an n×n grid of
result cells (``"1"``, ``"½"``, ``"0"``, ``"+"``, ``"-"``; ``""`` on the diagonal and
for games not played). :func:`round_robin_from_tournament` makes one from a tournament
read from a TRF file (:mod:`chessrating.tournament`).

The example event for ``chessrating demo`` is the 4th Sinquefield Cup (Saint Louis,
5–14 August 2016), a ten-player single round robin, stored in
``data/demo_sinquefield_2016.csv`` with its sources. It asks for the GM-norm verdicts
(``norm_title``), which the README's picture shows; other events leave the title blank
and the norm column quiet until one is picked in the workbook.

>>> event = load_demo_event()
>>> event.name, len(event.players), event.players[0].name, event.points()[0], event.norm_title
('4th Sinquefield Cup', 10, 'So, Wesley', 5.5, 'GM')
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import TYPE_CHECKING

from ..errors import RatingError

if TYPE_CHECKING:  # the tournament model is only read, never required
    from ..tournament import Tournament

__all__ = ["EventPlayer", "RoundRobinEvent", "load_demo_event", "round_robin_from_tournament",
           "DEMO_FILE", "CELL_POINTS", "NORM_TITLES"]

DEMO_FILE = "demo_sinquefield_2016.csv"

# Title whose norm verdicts the example event shows.
DEMO_NORM_TITLE = "GM"
# Points of each result cell the round-robin grid may hold.
CELL_POINTS = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "H": 0.5, "B": 1.0,
               "U": 1.0, "Z": 0.0, "": 0.0}
# Titles the workbook's Norm cell offers, blank for none.
NORM_TITLES = ("", "GM", "IM", "WGM", "WIM")
# Cells whose mirror must hold a given result for the pair to add up.
_MIRROR = {"1": "0", "0": "1", "½": "½", "+": "-", "-": "+"}


@dataclass(frozen=True)
class EventPlayer:
    """One player of a crosstable: identity, rating and the inputs of FIDE's K rules."""

    name: str
    title: str = ""
    federation: str = ""
    rating: int | None = None
    birth_year: int | None = None
    rated_games: int | None = None
    peak_rating: int | None = None
    number: int | None = None
    k: int | None = None  # K as the FIDE list gives it; blank: computed by FIDE_K


@dataclass(frozen=True)
class RoundRobinEvent:
    """A single round robin: players and the grid ``results[i][j]`` of player i against j."""

    name: str
    players: tuple[EventPlayer, ...]
    results: tuple[tuple[str, ...], ...]
    year: int | None = None
    site: str = ""
    dates: str = ""
    sources: tuple[str, ...] = field(default_factory=tuple)
    published_points: tuple[float, ...] | None = None
    norm_title: str = ""  # the workbook's NormTitle: "" (no verdicts), GM, IM, WGM or WIM
    start: _dt.date | None = None  # the first day, where known: which tie-break rules were in force

    def __post_init__(self) -> None:
        size = len(self.players)
        if len(self.results) != size or any(len(row) != size for row in self.results):
            raise RatingError(f"results: the grid must be {size}×{size}, one row and column per player")
        for i, row in enumerate(self.results):
            for j, value in enumerate(row):
                if value not in CELL_POINTS:
                    raise RatingError(f"results: {value!r} is not a crosstable result "
                                      f"(row {i + 1}, column {j + 1})")
                if i == j and value:
                    raise RatingError(f"results: player {i + 1} cannot play themself")
        if self.norm_title not in NORM_TITLES:
            raise RatingError(f"norm_title: {self.norm_title!r} is not one of "
                              f"{', '.join(t for t in NORM_TITLES if t)} or blank")

    def points(self) -> list[float]:
        """Each player's points from the grid (forfeits included)."""
        return [sum(CELL_POINTS[v] for v in row) for row in self.results]

    def mismatches(self) -> list[tuple[int, int]]:
        """Pairs (i, j), 1-based with i < j, whose two cells do not make one game."""
        bad = []
        for i, row in enumerate(self.results):
            for j in range(i + 1, len(row)):
                mine, theirs = row[j], self.results[j][i]
                if (mine or theirs) and _MIRROR.get(mine) != theirs:
                    bad.append((i + 1, j + 1))
        return bad


def _optional_int(text: str, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RatingError(f"{what}: {text!r} is not a whole number") from None


def parse_event_csv(text: str) -> RoundRobinEvent:
    """Read an event file: ``# key: value`` lines, then a CSV crosstable with a header row.

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
        players.append(EventPlayer(
            name=row[1], title=row[2], federation=row[3],
            rating=_optional_int(row[4], "rating"), birth_year=_optional_int(row[5], "birth_year"),
            number=index))
        grid.append(tuple(row[6:6 + size]))
        published.append(float(row[6 + size]))
    event = RoundRobinEvent(
        name=(meta.get("event") or [""])[0], players=tuple(players), results=tuple(grid),
        year=_optional_int((meta.get("year") or [""])[0], "year"),
        site=(meta.get("site") or [""])[0], dates=(meta.get("dates") or [""])[0],
        sources=tuple(meta.get("source", [])), published_points=tuple(published))
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


def round_robin_from_tournament(tournament: "Tournament") -> RoundRobinEvent:
    """A crosstable from a tournament in which every pair met at most once.

    Players keep their starting numbers' order; each result cell is the worksheet text of
    the TRF code (:func:`chessrating.tournament.cell_result`). Byes have no place in a
    crosstable and are left out; a pair that met twice raises :class:`RatingError`.
    """
    from ..tournament import cell_result

    ordered = sorted(tournament.players, key=lambda p: p.number)
    position = {p.number: i for i, p in enumerate(ordered)}
    size = len(ordered)
    grid = [["" for _ in range(size)] for _ in range(size)]
    for p in ordered:
        row = position[p.number]
        for game in p.games:
            if game.opponent is None:
                continue
            if game.opponent not in position:
                raise RatingError(f"opponent: player {p.number} meets unknown number {game.opponent} "
                                  f"in round {game.round}")
            col = position[game.opponent]
            if grid[row][col]:
                raise RatingError(f"opponent: players {p.number} and {game.opponent} met twice; "
                                  "use the Swiss template")
            grid[row][col] = cell_result(game.code)
    players = tuple(
        EventPlayer(name=p.name, title=p.title, federation=p.federation, rating=p.rating,
                    birth_year=p.birth_year, number=p.number)
        for p in ordered)
    year = tournament.start_date.year if tournament.start_date else None
    return RoundRobinEvent(name=tournament.name, players=players,
                           results=tuple(tuple(r) for r in grid), year=year, site=tournament.city,
                           start=tournament.start_date)
