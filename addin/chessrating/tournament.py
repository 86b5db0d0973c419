"""A chess tournament: players, rounds, results, the one model the package shares.

The model is a handful of small dataclasses on the standard library, with no Excel and
no file format in them. Everything that reads or writes a tournament goes through it:
:mod:`chessrating.trf` fills it from a TRF16/TRF26 file and writes it back, the workbook
builders (:mod:`chessrating.workbooks`) fill the templates from it and ``export-trf``
reads a filled workbook back into it; the tie-breaks
(:func:`chessrating.tiebreaks.event.from_tournament`) and the US Chess event rating
(:func:`chessrating.uscf.event.pairings_from_tournament`) read it through
:meth:`Tournament.round_cells`, the cells the Swiss and US Chess crosstables hold. Its
vocabulary is that of FIDE's Tournament Report File, the fullest description of a
tournament there is.

* :class:`Tournament` — the event: header fields, :class:`Player` rows, the scoring,
  records kept verbatim, and the :class:`ReadWarning` list of whatever the reader could
  not use.
* :class:`Player` — one ``001`` line: starting number, identity, the points and rank the
  file states, and one :class:`RoundGame` per round.
* :class:`RoundGame` — one round of one player: opponent number, colour and the TRF
  result code (upper-case; ``" "`` for a blank result).
* :class:`RoundCells` — the players' rounds as a crosstable's cells.
* :func:`berger_rounds` — FIDE's Berger tables of a round robin (C.05 Annex 1), round by
  round in the published board order, the one source of them in the package;
  :func:`berger`, the same tables by pair.

Result codes (TRF16 = TRF26, letters case-insensitive in files):

====  ====================================  =================  ======
code  meaning                               scoring class      rated
====  ====================================  =================  ======
1     win                                   W (1)              yes
=     draw                                  D (½)              yes
0     loss                                  L (0)              yes
+     forfeit win                           W (1)              no
-     forfeit loss                          A (0)              no
W     win, game lasted under one move       W (1)              no
D     draw, under one move                  D (½)              no
L     loss, under one move                  L (0)              no
H     half-point bye                        D (½)              no
F     full-point bye                        W (1)              no
U     pairing-allocated bye                 P (= W)            no
Z     zero-point bye, known absence         A (0)              no
" "   blank: same as Z                      A (0)              no
====  ====================================  =================  ======

The scoring classes are those of TRF26 record 162 (W, D, L, A, P), see :class:`Scoring`.

>>> a = Player(1, "Anand, V", games=[RoundGame(1, 2, "w", "1"), RoundGame(2, None, None, "H")])
>>> b = Player(2, "Carlsen, M", games=[RoundGame(1, 1, "b", "0"), RoundGame(2, None, None, "U")])
>>> a.computed_points(), b.computed_points()
(1.5, 1.0)
>>> [(s.rank, s.player.number, s.points) for s in Tournament(players=[a, b], rounds=2).standings()]
[(1, 1, 1.5), (2, 2, 1.0)]
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import RatingError

__all__ = [
    "RESULT_CODES", "PLAYED_CODES", "TITLES",
    "Scoring", "DEFAULT_SCORING", "RoundGame", "Player", "Standing", "ReadWarning",
    "RoundCells", "Tournament", "cell_result", "COLOUR_CELLS", "colour_code", "berger", "berger_rounds",
]

# Every result code a 001 line may hold, upper-cased; " " is a blank result.
RESULT_CODES = frozenset("1=0+-WDLHFUZ ")
# Codes of a game played over the board, the only ones that count for rating.
PLAYED_CODES = frozenset("1=0")
# The FIDE titles TRF16 writes in columns 11-13.
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")

# Which scoring class of record 162 gives each code its points.
_SCORING_CLASS = {
    "1": "W", "+": "W", "W": "W", "F": "W",
    "=": "D", "D": "D", "H": "D",
    "0": "L", "L": "L",
    "-": "A", "Z": "A", " ": "A",
    "U": "P",
}

# TRF code -> the cell vocabulary of results.py (README, "Results a cell may hold").
# The cell letters W, D, L mean *rated* games there, so the TRF codes W, D, L (under one
# move, not rated) map to the unrated cells with the same points: "+", "H", "-".
_CELL_RESULT = {
    "1": "1", "=": "½", "0": "0", "+": "+", "-": "-",
    "W": "+", "D": "H", "L": "-",
    "H": "H", "F": "B", "U": "U", "Z": "Z", " ": "",
}


# A crosstable's colour cell, upper-cased: the colour's letter or its name, as Excel
# users type them (docs/RULES.md §1, Decision), and the TRF colour it stands for.
COLOUR_CELLS = {"W": "w", "B": "b", "WHITE": "w", "BLACK": "b"}


def colour_code(value: object) -> str | None:
    """The TRF colour (``"w"``, ``"b"``) of a crosstable's colour cell: ``W`` or ``B``,
    ``White`` or ``Black``, in any case with spaces around; ``None`` for anything else.

    >>> colour_code(" White "), colour_code("b"), colour_code("BLACK"), colour_code("X"), colour_code(1)
    ('w', 'b', 'b', None, None)
    """
    return COLOUR_CELLS.get(value.strip().upper()) if isinstance(value, str) else None


def cell_result(code: str) -> str:
    """The worksheet cell text for a TRF result code, keeping points right and rating untouched.

    TRF ``W``/``D``/``L`` (a game that lasted under one move) give points but are not
    rated, so they become ``"+"``, ``"H"`` and ``"-"``: the cells with the same points that
    results.py does not rate. **Decision**: TRF ``D`` becomes ``"H"`` (half a point, not
    rated) because the cell vocabulary has no unrated draw. ``F`` (full-point bye) becomes
    ``"B"``. A blank code becomes an empty cell: both give no points and no rating, and an
    empty cell also reads right for a round not played yet.

    >>> [cell_result(c) for c in "1=0+-WDLHFUZ "]
    ['1', '½', '0', '+', '-', '+', 'H', '-', 'H', 'B', 'U', 'Z', '']
    >>> cell_result("h")
    'H'
    >>> cell_result("x")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: code: 'x' is not a TRF result code
    """
    if not isinstance(code, str) or len(code) != 1 or code.upper() not in _CELL_RESULT:
        raise RatingError(f"code: {code!r} is not a TRF result code")
    return _CELL_RESULT[code.upper()]


@dataclass(frozen=True)
class Scoring:
    """Points per result class, TRF26 record 162; the defaults are the spec's.

    ``win`` (W: win, forfeit win, full-point bye), ``draw`` (D: draw, half-point bye),
    ``loss`` (L), ``absence`` (A: forfeit loss, zero-point bye, blank),
    ``pairing_bye`` (P: pairing-allocated bye; ``None`` = same as ``win``).

    >>> Scoring().points("U"), Scoring(win=3.0, draw=1.0).points("U"), Scoring().points("h")
    (1.0, 3.0, 0.5)
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    absence: float = 0.0
    pairing_bye: float | None = None

    def points(self, code: str) -> float:
        """The points a result code gives under this scoring."""
        if not isinstance(code, str) or code.upper() not in _SCORING_CLASS:
            raise RatingError(f"code: {code!r} is not a TRF result code")
        kind = _SCORING_CLASS[code.upper()]
        if kind == "P":
            return self.win if self.pairing_bye is None else self.pairing_bye
        return {"W": self.win, "D": self.draw, "L": self.loss, "A": self.absence}[kind]

    @property
    def is_default(self) -> bool:
        """True when no value differs from the TRF defaults (record 162 may be left out)."""
        return self == DEFAULT_SCORING


DEFAULT_SCORING = Scoring()


@dataclass
class RoundGame:
    """One round of one player: opponent's starting number, colour and TRF result code.

    ``opponent`` is ``None`` for a bye, an absence or a round not paired; ``colour`` is
    ``"w"``, ``"b"`` or ``None`` (``-`` or blank in the file); ``code`` is upper-case,
    ``" "`` for blank.

    >>> RoundGame(1, 7, "w", "=").points(), RoundGame(1, 7, "w", "=").rated
    (0.5, True)
    >>> RoundGame(2, 7, "b", "W").points(), RoundGame(2, 7, "b", "W").rated
    (1.0, False)
    """

    round: int
    opponent: int | None = None
    colour: str | None = None
    code: str = " "

    def points(self, scoring: Scoring = DEFAULT_SCORING) -> float:
        """Points of this round under ``scoring`` (TRF defaults unless given)."""
        return scoring.points(self.code)

    @property
    def rated(self) -> bool:
        """Played over the board against a known opponent: only ``1``, ``=``, ``0`` are rated."""
        return self.code in PLAYED_CODES and self.opponent is not None

    @property
    def is_blank(self) -> bool:
        """Nothing written for this round: no opponent, no colour, blank result."""
        return self.opponent is None and self.colour is None and self.code == " "

    @property
    def cell(self) -> str:
        """The worksheet cell text of this result, see :func:`cell_result`."""
        return cell_result(self.code)


@dataclass
class Player:
    """One ``001`` line.

    ``title`` is normalised to ``GM IM WGM FM WIM CM WFM WCM`` (or ``""``); ``sex`` is
    ``"m"``, ``"w"`` or ``""``; ``rating`` and ``fide_id`` are ``None`` when blank or 0;
    ``birth_date`` is the text as written, ``birth_year`` the year read from it;
    ``points`` and ``rank`` are what the file states (``None`` if blank).
    ``games[i]`` is round ``i + 1``; rounds past the end of the line are not listed.
    """

    number: int
    name: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    birth_date: str = ""
    birth_year: int | None = None
    points: float | None = None
    rank: int | None = None
    games: list[RoundGame] = field(default_factory=list)

    def game(self, round_number: int) -> RoundGame:
        """The player's game in round ``round_number`` (a blank one past the end of the line)."""
        if 1 <= round_number <= len(self.games):
            return self.games[round_number - 1]
        return RoundGame(round_number)

    def computed_points(self, scoring: Scoring = DEFAULT_SCORING) -> float:
        """Sum of the points of every round under ``scoring``, forfeits and byes included."""
        return sum(g.points(scoring) for g in self.games)

    @property
    def rated_games(self) -> list[RoundGame]:
        """The rounds that count for rating (played against a known opponent)."""
        return [g for g in self.games if g.rated]


@dataclass(frozen=True)
class Standing:
    """One row of :meth:`Tournament.standings`."""

    rank: int
    player: Player
    points: float


@dataclass(frozen=True)
class ReadWarning:
    """Something in a file the reader could not use or found inconsistent, by line (1-based)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class RoundCells(NamedTuple):
    """A tournament in the cells of a crosstable with a group of columns per round (the
    Swiss and US Chess templates): row ``k - 1`` is starting number ``k``, column ``r - 1``
    round ``r``; a blank cell is ``None``. See :meth:`Tournament.round_cells`.

    ``opponents`` holds starting numbers, ``results`` the worksheet text of each result
    (:func:`cell_result`), ``colours`` ``"W"`` or ``"B"``.
    """

    opponents: list[list[int | None]]
    results: list[list[str | None]]
    colours: list[list[str | None]]


@dataclass
class Tournament:
    """A tournament report: header fields, players, scoring and what else the file held.

    ``headers`` keeps the text of every tournament record (``012`` … ``362``) as written,
    one list entry per line, keyed by record code; the named fields are read from them.
    ``extra_lines`` keeps other records (``XXR``, ``XXC``, ``BBU``, ``DAT``, NRS, ``013``,
    ``240``, ``310`` …) verbatim, in file order. ``rounds`` is the number of rounds of the
    event: the largest of the players' lines and records ``142``, ``XXR`` and ``132``.
    """

    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: _dt.date | None = None
    end_date: _dt.date | None = None
    type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = field(default_factory=list)
    time_control: str = ""
    round_dates: list[_dt.date | None] = field(default_factory=list)
    scoring: Scoring = DEFAULT_SCORING
    headers: dict[str, list[str]] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    rounds: int = 0
    extra_lines: list[str] = field(default_factory=list)
    warnings: list[ReadWarning] = field(default_factory=list)

    def player(self, number: int) -> Player | None:
        """The player with starting number ``number``, or ``None``."""
        for candidate in self.players:
            if candidate.number == number:
                return candidate
        return None

    def computed_points(self, player: Player) -> float:
        """A player's points from the results, under this tournament's scoring."""
        return player.computed_points(self.scoring)

    @property
    def is_round_robin(self) -> bool:
        """Every player was paired with every other exactly once (forfeits count as paired).

        A double round robin is not a round robin here: each pair must meet once.
        """
        numbers = [p.number for p in self.players]
        if len(numbers) < 2 or len(set(numbers)) != len(numbers):
            return False
        everyone = set(numbers)
        for p in self.players:
            met = Counter(g.opponent for g in p.games if g.opponent is not None)
            if set(met) != everyone - {p.number} or any(n != 1 for n in met.values()):
                return False
        return True

    def standings(self) -> list[Standing]:
        """Players by points from the results (this tournament's scoring), best first.

        Equal points share a rank (1, 1, 3 …): tie-breaks are not applied. Within a tie
        the file's rank, then the starting number, gives the order.
        """
        def order(p: Player) -> tuple[float, int, int]:
            return (-self.computed_points(p), p.rank if p.rank else 1 << 30, p.number)

        rows: list[Standing] = []
        for position, p in enumerate(sorted(self.players, key=order), start=1):
            points = self.computed_points(p)
            rank = rows[-1].rank if rows and rows[-1].points == points else position
            rows.append(Standing(rank, p, points))
        return rows

    def round_cells(self) -> RoundCells:
        """The players' rounds as the Swiss and US Chess crosstables hold them: a row for
        every starting number up to the largest (a number no player has stays blank), a
        column for every round of the event or of the longest line of games.

        >>> a = Player(1, games=[RoundGame(1, 3, "w", "1"), RoundGame(2, None, None, "H")])
        >>> c = Player(3, games=[RoundGame(1, 1, "b", "0")])
        >>> cells = Tournament(players=[a, c], rounds=2).round_cells()
        >>> cells.opponents, cells.results
        ([[3, None], [None, None], [1, None]], [['1', 'H'], [None, None], ['0', None]])
        >>> cells.colours
        [['W', None], [None, None], ['B', None]]
        """
        size = max((p.number for p in self.players), default=0)
        width = max(self.rounds, max((len(p.games) for p in self.players), default=0))
        opponents: list[list[int | None]] = [[None] * width for _ in range(size)]
        results: list[list[str | None]] = [[None] * width for _ in range(size)]
        colours: list[list[str | None]] = [[None] * width for _ in range(size)]
        for p in self.players:
            for index in range(width):
                game = p.game(index + 1)
                opponents[p.number - 1][index] = game.opponent
                results[p.number - 1][index] = game.cell or None
                colours[p.number - 1][index] = (game.colour or "").upper() or None
        return RoundCells(opponents, results, colours)


def berger_rounds(players: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger tables (Handbook C.05 Annex 1): the rounds of a round robin of
    ``players``, each a list of boards ``(white, black)`` in the published board order.

    An odd field plays the table of the next even number N, whose player N is the bye: that
    board is written ``(player, 0)``, so the published board numbers stay. In round r of
    the table for N, player N meets p = (r + 1) / 2 (r odd, p White) or (r + N) / 2 (r even,
    N White) on board 1; board b ≥ 2 has White (p + b − 2) mod (N − 1) + 1 against the
    player whose number adds up with White's to r + 1 modulo N − 1. The workbooks' Berger
    formulas (:mod:`chessrating.workbooks.schedule`) spell the same construction.

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    >>> berger_rounds(3)[0], len(berger_rounds(5))
    ([(1, 0), (2, 3)], 5)
    """
    if players < 2:
        return []
    n = players + players % 2
    rounds = []
    for rnd in range(1, n):
        p = (rnd + 1) // 2 if rnd % 2 else (rnd + n) // 2
        boards = [(p, n) if rnd % 2 else (n, p)]
        for board in range(2, n // 2 + 1):
            white = (p + board - 2) % (n - 1) + 1
            boards.append((white, (rnd - white) % (n - 1) + 1))
        rounds.append([(w, 0) if b > players else (b, 0) if w > players else (w, b) for w, b in boards])
    return rounds


def berger(players: int) -> dict[tuple[int, int], tuple[int, bool]]:
    """FIDE's Berger tables (:func:`berger_rounds`) by pair: for each pair ``(i, j)``,
    ``i < j``, the round they meet and whether ``i`` has White. An odd number of players
    meets a dummy (the free round), which is no pair.

    >>> sorted(berger(4).items())[:3]
    [((1, 2), (2, True)), ((1, 3), (3, False)), ((1, 4), (1, True))]
    """
    out: dict[tuple[int, int], tuple[int, bool]] = {}
    for rnd, boards in enumerate(berger_rounds(players), start=1):
        for white, black in boards:
            if black:
                out[(min(white, black), max(white, black))] = (rnd, white < black)
    return out
