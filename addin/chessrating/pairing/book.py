"""A FIDE Swiss workbook's next round, from the values of its named ranges to the cells to write.

Nothing here opens a file: the functions take the values of the workbook names the Swiss
template defines (as lists of rows) and give back the cells to write, keyed by name, so
the command line (``chessrating pair``, which reads the file's names with openpyxl and
writes the file: :mod:`.command`) and the script "Pair next round" inside Excel (which
reads the open workbook's names through xlwings and writes its ranges:
:mod:`chessrating.scripts`) read a workbook alike and pair it alike. An empty cell may
come as ``None`` (openpyxl, xlwings) or as ``""`` (Office.js); both are blank.

The names (:data:`NAMES`): ``Names`` and ``Ratings`` (the crosstable's player columns, a
row per starting number), ``RoundInputs`` (the round columns, three per round: the
opponent's number, the colour ``W``/``B``, the result), and what the director says
before pairing: ``PairRounds`` (the rounds planned; blank: every round column),
``PairTopColour`` (the top board's colour in round 1, ``W`` or ``B``; blank: what round 1
shows, else White), ``PairAcceleration`` (``Baku`` or ``none``), ``PairMaxMeets`` (how
often two players may meet; blank: once), and per player ``JoinsInRound`` (a late entry,
left out of the rounds before) and ``WithdrawnAfter`` (left out of the rounds after).
A half-point, full-point or zero-point bye asked for is typed in the round's result cell
with no opponent (``H``, ``B``, ``Z``).

* :func:`read_event` — the values read into the tournament model and the settings
  (:class:`BookEvent`); a value that is not one is refused, naming its cell.
* :func:`pair_event` — the round to pair (the next one, or one named), refused while a
  round before has a game without a result, then paired by
  :func:`chessrating.pairing.pair_round`.
* :func:`round_cells` — a pairing as the round's cells: ``{(name, row, column): value}``,
  row and column counted from 0 inside the named range.
* :func:`pairing_lines` — the pairing list in board order, to print or show.
* :func:`book_kind` — which template a workbook is, by its names; :data:`USCF_REFUSAL`
  and :func:`round_robin_refusal` say why the others are not paired.
* :func:`rounds_by_headers` — the round columns of a Swiss made before ``RoundInputs``
  had a name, by the ``Opp`` headers from the first round's column on.

>>> from chessrating.pairing import pair_round
>>> values = {"Names": [["Ann"], ["Bob"], ["Cid"]], "RoundInputs": [[None] * 6] * 3,
...           "PairTopColour": [["W"]]}
>>> event = read_event(values)
>>> pairing = pair_event(event)
>>> pairing.boards, pairing.bye
(((1, 2),), 3)
>>> cells = round_cells(event.tournament, pairing)
>>> [cells[("RoundInputs", 0, c)] for c in range(3)], cells[("RoundInputs", 2, 2)]
([2, 'W', None], 'U')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cells import whole_number
from ..errors import RatingError
from ..results import RESULTS_BY_NUMBER, RESULTS_BY_TEXT
from ..tournament import Player, RoundGame, Tournament, cell_result
from .roundrobin import berger_schedule
from .swiss import Pairing, pair_round

__all__ = ["NAMES", "ROUND_INPUTS", "PER_ROUND", "CellKey", "Finding", "PairingRefused",
           "BookEvent", "read_event", "pair_event", "round_cells", "pairing_lines",
           "book_kind", "USCF_REFUSAL", "round_robin_refusal", "points_text", "result_code",
           "last_paired", "findings_text", "rounds_by_headers", "FIRST_ROUND_AFTER_NAME"]

CellKey = tuple[str, int, int]  # a workbook name; row and column inside its range, from 0
ROUND_INPUTS = "RoundInputs"
PER_ROUND = 3  # opponent's number, colour, result
NAMES = ("Names", "Ratings", ROUND_INPUTS, "PairRounds", "PairTopColour", "PairAcceleration",
         "PairMaxMeets", "JoinsInRound", "WithdrawnAfter")
_SHOWN = 12  # findings listed before the rest are counted
# A Swiss without the RoundInputs name: round 1's Opp column lies this many columns right
# of the Names column, after the FIDE player columns; the header row above names it Opp.
FIRST_ROUND_AFTER_NAME = 9

# The cell vocabulary's canonical results as TRF codes (a full-point bye B is TRF F).
_TRF = {"1": "1", "½": "=", "0": "0", "+": "+", "-": "-", "H": "H", "B": "F", "U": "U", "Z": "Z"}
# Codes of a round a player sits out, typed with no opponent: half-, full-, zero-point bye.
_REQUESTED = frozenset("HFZ-")
_PLAYED = frozenset("1=0")

USCF_REFUSAL = ("a US Chess event: US Chess pairs a Swiss by its own rules (rulebook chapter "
                "2, rules 27-29), not by FIDE's Dutch system; gacrux, the engine chessrating "
                "pairs with, does not implement them, so this workbook is not paired")


def round_robin_refusal(players: int) -> str:
    """Why a round robin is not paired, and its pairings: FIDE's Berger tables.

    >>> print(round_robin_refusal(4))
    a round robin: its pairings are FIDE's Berger tables (C.05 Annex 1) for 4 players, by starting number, not a Swiss pairing:
      round 1: 1-4, 2-3
      round 2: 4-3, 1-2
      round 3: 2-4, 3-1
    """
    if players < 2:
        return ("a round robin: its pairings are FIDE's Berger tables (C.05 Annex 1), by "
                "starting number, not a Swiss pairing")
    head = ("a round robin: its pairings are FIDE's Berger tables (C.05 Annex 1) for "
            f"{players} players, by starting number, not a Swiss pairing")
    rounds = [", ".join(f"{w} bye" if b == 0 else f"{w}-{b}" for w, b in boards)
              for boards in berger_schedule(players)]
    return head + ":\n" + "\n".join(f"  round {r}: {text}" for r, text in enumerate(rounds, start=1))


def book_kind(names: Iterable[str]) -> str:
    """``"swiss"``, ``"round robin"``, ``"uscf"`` or ``""`` for a workbook's names.

    >>> book_kind(["Names", "FideIds", "RoundInputs"]), book_kind(["Names", "GameRounds"])
    ('swiss', 'round robin')
    >>> book_kind(["Names", "DualRated"]), book_kind(["Sheet1"])
    ('uscf', '')
    """
    found = {n.lower() for n in names}
    if "names" not in found:
        return ""
    if "gamerounds" in found or "results" in found:
        return "round robin"
    if "dualrated" in found or "bonusthreshold" in found:
        return "uscf"
    return "swiss" if "fideids" in found or ROUND_INPUTS.lower() in found else ""


def rounds_by_headers(headers: Sequence[Any]) -> int:
    """How many rounds a header row shows from the first round's ``Opp`` column on: one
    for each ``Opp`` at every third cell, until the first that is not.

    >>> rounds_by_headers(["Opp", "Col", "Res", "Opp", "Col", "Res", "Points"])
    2
    >>> rounds_by_headers(["Points", "Opp"])
    0
    """
    rounds = 0
    while PER_ROUND * rounds < len(headers) and headers[PER_ROUND * rounds] == "Opp":
        rounds += 1
    return rounds


@dataclass(frozen=True)
class Finding:
    """Something to fix before the round is paired, and the cells that show it."""

    message: str
    cells: tuple[CellKey, ...] = ()


class PairingRefused(RatingError):
    """The round is not paired: the one-line reason, and the findings it rests on."""

    def __init__(self, message: str, findings: Sequence[Finding] = ()) -> None:
        super().__init__(message)
        self.findings = list(findings)


@dataclass
class BookEvent:
    """The workbook read: the tournament model and what the director says before pairing.

    ``rounds`` is the number of rounds planned, ``columns`` the rounds the workbook has
    columns for; ``joins`` and ``withdrawn_after`` map starting numbers to a round.
    """

    tournament: Tournament
    rounds: int
    columns: int
    top_colour: str | None = None
    accelerated: bool = False
    max_meets: int = 1
    joins: dict[int, int] = field(default_factory=dict)
    withdrawn_after: dict[int, int] = field(default_factory=dict)

    def label(self, number: int) -> str:
        """``player 3 (Name)``."""
        p = self.tournament.player(number)
        return f"player {number} ({p.name})" if p is not None and p.name else f"player {number}"


# -- reading --------------------------------------------------------------------------

def _rows(value: Any) -> list[list[Any]]:
    """A named range's values as rows: a scalar is one cell, a flat list one column."""
    if not isinstance(value, (list, tuple)):
        return [[value]]
    return [list(v) if isinstance(v, (list, tuple)) else [v] for v in value]


def _column(values: Mapping[str, Any], name: str) -> list[Any]:
    return [row[0] if row else None for row in _rows(values.get(name, []))]


def _one(values: Mapping[str, Any], name: str) -> Any:
    rows = _rows(values[name]) if name in values else []
    return _blank_to_none(rows[0][0]) if rows and rows[0] else None


def _blank_to_none(value: Any) -> Any:
    return None if value is None or (isinstance(value, str) and not value.strip()) else value




def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()


def result_code(value: Any) -> str | None:
    """The TRF code of a result cell's value (``" "`` when blank), ``None`` if it is no
    result: every spelling of the cells' vocabulary (``chessrating.results``).

    >>> [result_code(v) for v in (1, 0.5, "½", " w ", "B", "U", None, "2")]
    ['1', '=', '=', '1', 'F', 'U', ' ', None]
    """
    value = _blank_to_none(value)
    if value is None:
        return " "
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        found = RESULTS_BY_NUMBER.get(float(value))
    else:
        found = RESULTS_BY_TEXT.get(str(value).strip().upper())
    return None if found is None else _TRF[found.code]


def read_event(values: Mapping[str, Any]) -> BookEvent:
    """The tournament a Swiss workbook's named ranges hold, and the pairing settings.

    ``values`` maps each of :data:`NAMES` the workbook has to its values, as rows of
    cells (a one-column or one-cell range may be a flat list or a scalar). A row with a
    name is a player, numbered by its row; a round's cells give the opponent, the colour
    and the result. Raises :class:`PairingRefused` naming every cell whose value is not
    one (an opponent that is not another player's number, a result outside the list, a
    setting outside its choices).
    """
    names = _column(values, "Names")
    if not any(_text(n) for n in names):
        raise PairingRefused("the workbook has no players (no names in the crosstable)")
    grid = _rows(values.get(ROUND_INPUTS, []))
    columns = max((len(row) for row in grid), default=0) // PER_ROUND
    if columns < 1:
        raise PairingRefused(f"the workbook has no round columns (no {ROUND_INPUTS} range)")
    findings: list[Finding] = []
    ratings = _column(values, "Ratings")
    players = [Player(i + 1, _text(name), rating=_rating(ratings[i] if i < len(ratings) else None))
               for i, name in enumerate(names) if _text(name)]
    present = {p.number for p in players}
    for p in players:
        row = grid[p.number - 1] if p.number - 1 < len(grid) else []
        p.games = _read_games(p, row, columns, present, findings)
    t = Tournament(players=players)
    event = BookEvent(t, columns, columns)
    _read_settings(values, event, findings)
    t.rounds = event.rounds
    _player_rounds(values, event, "JoinsInRound", event.joins, findings)
    _player_rounds(values, event, "WithdrawnAfter", event.withdrawn_after, findings)
    if findings:
        raise PairingRefused(f"{len(findings)} input(s) are not what the workbook allows", findings)
    return event


def _rating(value: Any) -> int | None:
    rating = whole_number(value)
    return rating if rating and 0 < rating < 10_000 else None


def _read_games(p: Player, row: Sequence[Any], columns: int, present: set[int],
                findings: list[Finding]) -> list[RoundGame]:
    games = []
    for rnd in range(1, columns + 1):
        col = PER_ROUND * (rnd - 1)
        opp_value, colour_value, result_value = (
            _blank_to_none(row[col + k]) if col + k < len(row) else None for k in range(PER_ROUND))
        where = f"player {p.number} ({p.name}), round {rnd}"
        opponent = whole_number(opp_value)
        if opponent == 0:  # 0 is no opponent, as the tie-breaks read it (RULES.md §6.1)
            opp_value = opponent = None
        if opp_value is not None and (opponent is None or opponent == p.number or opponent not in present):
            findings.append(Finding(f"{where}: opponent {_text(opp_value)!r} is not another "
                                    "player's number", ((ROUND_INPUTS, p.number - 1, col),)))
            opponent = None
        colour = {"W": "w", "B": "b"}.get(_text(colour_value).upper())
        if colour_value is not None and colour is None:
            findings.append(Finding(f"{where}: colour {_text(colour_value)!r} is not W or B",
                                    ((ROUND_INPUTS, p.number - 1, col + 1),)))
        code = result_code(result_value)
        if code is None:
            findings.append(Finding(f"{where}: {_text(result_value)!r} is not a result",
                                    ((ROUND_INPUTS, p.number - 1, col + 2),)))
            code = " "
        games.append(RoundGame(rnd, opponent, colour if opponent is not None else None, code))
    while games and games[-1].is_blank:
        games.pop()
    return games


def _read_settings(values: Mapping[str, Any], event: BookEvent, findings: list[Finding]) -> None:
    def refuse(name: str, value: Any, allowed: str) -> None:
        findings.append(Finding(f"{name}: {_text(value)!r} is not {allowed}", ((name, 0, 0),)))

    rounds = _one(values, "PairRounds")
    if rounds is not None:
        number = whole_number(rounds)
        if number is None or not 1 <= number <= event.columns:
            refuse("PairRounds", rounds, f"a number of rounds from 1 to {event.columns} (the round columns)")
        else:
            event.rounds = number
    colour = _one(values, "PairTopColour")
    if colour is not None:
        word = _text(colour).lower()
        if word not in ("w", "b", "white", "black"):
            refuse("PairTopColour", colour, "W or B")
        else:
            event.top_colour = word[0]
    acceleration = _one(values, "PairAcceleration")
    if acceleration is not None:
        word = _text(acceleration).lower()
        if word not in ("none", "baku"):
            refuse("PairAcceleration", acceleration, "none or Baku")
        event.accelerated = word == "baku"
    meets = _one(values, "PairMaxMeets")
    if meets is not None:
        number = whole_number(meets)
        if number is None or number < 1:
            refuse("PairMaxMeets", meets, "a number of meetings, 1 or more")
        else:
            event.max_meets = number


def _player_rounds(values: Mapping[str, Any], event: BookEvent, name: str, out: dict[int, int],
                   findings: list[Finding]) -> None:
    """A per-player round (``JoinsInRound``, ``WithdrawnAfter``) of the rows with a player."""
    low = 1 if name == "JoinsInRound" else 0
    for i, value in enumerate(_column(values, name)):
        value = _blank_to_none(value)
        if value is None:
            continue
        number = whole_number(value)
        if number is None or not low <= number <= event.columns:
            findings.append(Finding(f"{name} of row {i + 1}: {_text(value)!r} is not a round from "
                                    f"{low} to {event.columns}", ((name, i, 0),)))
        elif event.tournament.player(i + 1) is not None:
            out[i + 1] = number


# -- pairing --------------------------------------------------------------------------

def last_paired(t: Tournament) -> int:
    """The last round in which somebody has an opponent or the pairing-allocated bye."""
    return max((g.round for p in t.players for g in p.games if g.opponent is not None or g.code == "U"),
               default=0)


def pair_event(event: BookEvent, round: int | None = None) -> Pairing:
    """Pair the round after the last one paired, or ``round``: that round again while it
    is the last one paired and holds no result. Refused (:class:`PairingRefused`) while a
    round before has a game without a result, when the round's cells hold a result that
    is not a requested bye, or when gacrux finds no pairing; the reason names the
    players, and the findings their cells."""
    t = event.tournament
    last = last_paired(t)
    r = last + 1 if round is None else round
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise PairingRefused(f"round: {r!r} is not a round number")
    if r > event.rounds:
        raise PairingRefused(f"round {r}: the event has {event.rounds} rounds (PairRounds, or the "
                             "round columns); every round is paired" if round is None else
                             f"round {r}: the event has {event.rounds} rounds")
    if r > last + 1:
        raise PairingRefused(f"round {r}: round {last + 1} is not paired yet")
    if r < last:
        raise PairingRefused(f"round {r}: rounds up to {last} are paired; only the last round "
                             "paired can be paired again")
    findings = _open_games(event, r) + _round_entries(event, r)
    if findings:
        raise PairingRefused(f"round {r} cannot be paired: {findings[0].message}"
                             + (f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""),
                             findings)
    sitting_out = {p.number for p in t.players
                   if p.game(r).opponent is None and p.game(r).code in _REQUESTED}
    left_out = [n for n in sorted(set(event.joins) | set(event.withdrawn_after))
                if n not in sitting_out and (r < event.joins.get(n, 0) or r > event.withdrawn_after.get(n, r))]
    try:
        return pair_round(t, r, top_colour=event.top_colour, withdrawn=left_out,
                          accelerated=event.accelerated, max_meets=event.max_meets,
                          rounds=event.rounds)
    except RatingError as error:
        raise PairingRefused(str(error)) from None


def _open_games(event: BookEvent, r: int) -> list[Finding]:
    """The games of the rounds before ``r`` without a result on one row or both."""
    out = []
    for p in event.tournament.players:
        for game in p.games[:r - 1]:
            if game.opponent is None or game.code != " ":
                continue
            rnd, other = game.round, event.tournament.player(game.opponent)
            back = other.game(rnd) if other is not None else RoundGame(rnd)
            if back.opponent == p.number and back.code == " " and game.opponent < p.number:
                continue  # the game is named once, from its lower number
            cells = [(ROUND_INPUTS, p.number - 1, PER_ROUND * (rnd - 1) + 2)]
            if back.opponent == p.number and back.code == " ":
                cells.append((ROUND_INPUTS, game.opponent - 1, PER_ROUND * (rnd - 1) + 2))
                says = f"no result for {event.label(p.number)} against {event.label(game.opponent)}"
            else:
                says = f"{event.label(p.number)} has no result against {event.label(game.opponent)}"
            out.append(Finding(f"round {rnd}: {says}", tuple(cells)))
    return out


def _round_entries(event: BookEvent, r: int) -> list[Finding]:
    """The round's own cells: results already entered, or a result with no opponent that
    is not a bye asked for (H, B, Z, -)."""
    out = []
    for p in event.tournament.players:
        game = p.game(r)
        cell = (ROUND_INPUTS, p.number - 1, PER_ROUND * (r - 1) + 2)
        if game.opponent is not None and game.code != " ":
            out.append(Finding(f"round {r} already has results ({event.label(p.number)}: "
                               f"{cell_result(game.code)})", (cell,)))
        elif game.opponent is None and game.code not in _REQUESTED | {" "}:
            out.append(Finding(f"{event.label(p.number)} has {cell_result(game.code)} in round {r} "
                               "with no opponent; a player who sits out a round has H, B or Z",
                               (cell,)))
    return out


# -- writing --------------------------------------------------------------------------

def round_cells(tournament: Tournament, pairing: Pairing) -> dict[CellKey, Any]:
    """The round's cells as the pairing fills them, for every player of ``tournament``:
    ``{("RoundInputs", row, column): value}``, the row the starting number − 1, the
    columns the round's opponent, colour and result. A board gives both players their
    opponent, ``W``/``B`` and an empty result; the pairing-allocated bye ``U`` and no
    opponent; a bye asked for keeps the code typed (``H``, ``B``, ``Z``, ``-``); a player
    left out (withdrawn, not yet entered) gets three empty cells. ``None`` is an empty cell.
    """
    r = pairing.round
    col = PER_ROUND * (r - 1)
    cells: dict[CellKey, Any] = {}

    def put(number: int, opponent: int | None, colour: str | None, result: str | None) -> None:
        row = number - 1
        cells.update({(ROUND_INPUTS, row, col): opponent, (ROUND_INPUTS, row, col + 1): colour,
                      (ROUND_INPUTS, row, col + 2): result})

    for white, black in pairing.boards:
        put(white, black, "W", None)
        put(black, white, "B", None)
    if pairing.bye is not None:
        put(pairing.bye, None, None, "U")
    for number, code in pairing.absent:
        p = tournament.player(number)
        typed = p.game(r) if p is not None else RoundGame(r)
        kept = typed.code if typed.opponent is None and typed.code in _REQUESTED else code
        put(number, None, None, cell_result(kept) or None)
    return cells


def points_text(points: float) -> str:
    """Points as a crosstable shows them: ``2½``, ``½``, ``3``.

    >>> points_text(2.5), points_text(0.5), points_text(3.0)
    ('2½', '½', '3')
    """
    whole, half = divmod(round(points * 2), 2)
    return (f"{whole}" if whole or not half else "") + ("½" if half else "")


def pairing_lines(tournament: Tournament, pairing: Pairing) -> list[str]:
    """The pairing list in board order: board, White (number, name, points before the
    round), Black the same; then the pairing-allocated bye and the players not paired."""
    def points(number: int) -> str:  # before the round: a bye typed in it not counted yet
        p = tournament.player(number)
        games = p.games[:pairing.round - 1] if p is not None else []
        return points_text(sum(g.points(tournament.scoring) for g in games))

    def name(number: int) -> str:
        p = tournament.player(number)
        return (p.name if p is not None else "")[:28]

    def who(number: int) -> tuple[str, str]:
        return f"{number:>4} {name(number):<28}", f"{points(number):>4}"

    def alone(number: int) -> str:
        return f"{number} {name(number)} ({points(number)})"

    out = [f"Round {pairing.round}: {pairing.rules}",
           f"{'Board':>5}  {'White':<33} {'Pts':>4}   {'Black':<33} {'Pts':>4}"]
    for board, (white, black) in enumerate(pairing.boards, start=1):
        (w, wp), (b, bp) = who(white), who(black)
        out.append(f"{board:>5}  {w} {wp}   {b} {bp}")
    if pairing.bye is not None:
        out.append(f"pairing-allocated bye (U): {alone(pairing.bye)}")
    meaning = {"H": "half-point bye (H)", "F": "full-point bye (B)", "Z": "zero-point bye (Z)",
               " ": "not paired (withdrawn or not yet entered)"}
    for number, code in pairing.absent:  # a "-" typed with no opponent is a Z here
        out.append(f"absent: {alone(number)}: {meaning.get(code, code)}")
    return out


def findings_text(findings: Sequence[Finding], where: Any = None) -> list[str]:
    """The findings as lines, each with its cells as ``where(key)`` names them."""
    lines = []
    for finding in findings[:_SHOWN]:
        cells = ", ".join(where(key) for key in finding.cells) if where is not None else ""
        lines.append(f"{cells}: {finding.message}" if cells else finding.message)
    if len(findings) > _SHOWN:
        lines.append(f"… and {len(findings) - _SHOWN} more")
    return lines


