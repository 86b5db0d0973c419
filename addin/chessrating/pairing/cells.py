"""A FIDE Swiss crosstable's cells as the tournament model, and a round's pairing as cells.

The cells are the values a spreadsheet hands over, as rows of plain Python values (a
number, a text, ``None`` or ``""`` for an empty cell): the crosstable from its two
header rows down to the last player row, from column A. The headers say where
everything is, as the FIDE Swiss template writes them (:mod:`chessrating.workbooks.swiss`):
``No.``, ``Name`` and ``Rating`` in the first header row, and under each round the
opponent's number, the colour and the result (``Opp``, ``Col``, ``Res``) in the second.
A row with a name is a player; its starting number is its row among the player rows.

* :func:`read_swiss` — the rows into a :class:`SwissCells`: the tournament model and
  where each round's columns are; a value that is not one is refused, naming the player
  and the round.
* :func:`pair_next` — the round after the last one paired, by
  :func:`chessrating.pairing.pair_round`; refused while a game of an earlier round has
  no result, or once every round column is paired.
* :func:`round_columns` — the round's three columns as the pairing fills them, a row for
  every player row: opponent and ``W``/``B`` for a board (the result left empty), ``U``
  for the pairing-allocated bye; a bye asked for keeps what was typed.

>>> rows = [["No.", "Name", "Rating", "Round 1", None, None, "Round 2", None, None],
...         [None, None, None, "Opp", "Col", "Res", "Opp", "Col", "Res"],
...         [1, "Ann", 2100, None, None, None, None, None, None],
...         [2, "Bob", 2000, None, None, None, None, None, None],
...         [3, "Cid", 1900, None, None, None, None, None, None]]
>>> swiss = read_swiss(rows)
>>> pairing = pair_next(swiss)
>>> pairing.round, pairing.boards, pairing.bye
(1, ((1, 2),), 3)
>>> round_columns(swiss, pairing, rows)
[[2, 'W', None], [1, 'B', None], [None, None, 'U']]
>>> pairing_lines(swiss.tournament, pairing)[1:]
['Board 1: 1 Ann - 2 Bob', 'Bye (U): 3 Cid']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cells import whole_number
from ..errors import RatingError
from ..results import read_result
from ..tournament import Player, RoundGame, Tournament
from .swiss import Pairing, pair_round

__all__ = ["SwissCells", "read_swiss", "pair_next", "round_columns", "pairing_lines",
           "HEADER_ROWS", "ROUND_HEADERS"]

HEADER_ROWS = 2  # the player headers and "Round n", then Opp / Col / Res
ROUND_HEADERS = ("Opp", "Col", "Res")
# A result cell's canonical text (chessrating.results) as its TRF code: B is TRF's F.
_TRF = {"1": "1", "½": "=", "0": "0", "+": "+", "-": "-", "H": "H", "B": "F", "U": "U", "Z": "Z"}
_COLOURS = {"W": "w", "B": "b"}


@dataclass(frozen=True)
class SwissCells:
    """The crosstable read: the tournament (``rounds`` its round columns) and, for each
    round, the column of its ``Opp`` cell, counted from 0 within the rows read."""

    tournament: Tournament
    round_columns: tuple[int, ...]
    player_rows: int


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()




def _header_columns(rows: Sequence[Sequence[Any]]) -> tuple[dict[str, int], tuple[int, ...]]:
    """The player headers' columns, and each round's ``Opp`` column."""
    if len(rows) < HEADER_ROWS:
        raise RatingError("crosstable: no header rows (No., Name, Rating; Opp, Col, Res)")
    top, under = [_text(v) for v in rows[0]], [_text(v) for v in rows[1]]
    players: dict[str, int] = {name: top.index(name) for name in ("Name", "Rating") if name in top}
    rounds = tuple(c for c in range(len(under) - 2) if tuple(under[c:c + 3]) == ROUND_HEADERS)
    if "Name" not in players or not rounds:
        raise RatingError("crosstable: not a FIDE Swiss crosstable (a Name column and each "
                          "round's Opp, Col, Res columns)")
    return players, rounds


def read_swiss(rows: Sequence[Sequence[Any]]) -> SwissCells:
    """The tournament the crosstable's rows hold (see the module's docstring).

    Raises :class:`RatingError` for an opponent that is not another player's number, a
    colour other than W or B, a result outside the results a cell may hold, and an
    opponent without a colour: the Dutch system pairs by the colours played.
    """
    columns, rounds = _header_columns(rows)
    body = [list(row) for row in rows[HEADER_ROWS:]]
    name_col, rating_col = columns["Name"], columns.get("Rating")

    def cell(row: list[Any], col: int | None) -> Any:
        return row[col] if col is not None and col < len(row) else None

    players = [Player(i + 1, _text(cell(row, name_col)), rating=_rating(cell(row, rating_col)))
               for i, row in enumerate(body) if not _blank(cell(row, name_col))]
    if len(players) < 2:
        raise RatingError(f"crosstable: {len(players)} players with a name; pairing needs two or more")
    numbers = {p.number for p in players}
    for p in players:
        row = body[p.number - 1]
        p.games = [_game(p, r, [cell(row, c + k) for k in range(3)], numbers)
                   for r, c in enumerate(rounds, start=1)]
        while p.games and p.games[-1].is_blank:
            p.games.pop()
    return SwissCells(Tournament(players=players, rounds=len(rounds)), rounds, len(body))


def _rating(value: Any) -> int | None:
    rating = whole_number(value)
    return rating if rating is not None and rating > 0 else None


def _game(p: Player, r: int, values: list[Any], numbers: set[int]) -> RoundGame:
    """Player ``p``'s round ``r`` from its Opp, Col and Res cells."""
    opp_value, colour_value, result_value = values
    where = f"player {p.number} ({p.name}), round {r}"
    opponent = None if _blank(opp_value) else whole_number(opp_value)
    if not _blank(opp_value) and (opponent is None or opponent == p.number or opponent not in numbers):
        raise RatingError(f"{where}: opponent {_text(opp_value)!r} is not another player's number")
    colour = None if _blank(colour_value) else _COLOURS.get(_text(colour_value).upper())
    if not _blank(colour_value) and colour is None:
        raise RatingError(f"{where}: colour {_text(colour_value)!r} is not W or B")
    if opponent is not None and colour is None:
        raise RatingError(f"{where}: opponent {opponent} has no colour (W or B)")
    if _blank(result_value):
        code = " "
    else:
        result = read_result(result_value, f"{where}, result")
        code = " " if result is None else _TRF[result.code]
    return RoundGame(r, opponent, colour if opponent is not None else None, code)


def _last_paired(t: Tournament) -> int:
    return max((g.round for p in t.players for g in p.games if g.opponent is not None or g.code == "U"),
               default=0)


def pair_next(swiss: SwissCells) -> Pairing:
    """The round after the last one paired, paired by the Dutch system over the rounds the
    crosstable has columns for; a bye typed in that round (``H``, ``B``, ``Z``) keeps the
    player out of it. Refused while a game of the rounds before has no result."""
    t = swiss.tournament
    r = _last_paired(t) + 1
    if r > t.rounds:
        raise RatingError(f"round: every round of the crosstable is paired ({t.rounds} round columns)")
    return pair_round(t, r)


def round_columns(swiss: SwissCells, pairing: Pairing,
                  rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The round's Opp, Col and Res cells for every player row, as the pairing fills them;
    the rows and players it does not pair keep the values ``rows`` hold."""
    col = swiss.round_columns[pairing.round - 1]
    body = rows[HEADER_ROWS:HEADER_ROWS + swiss.player_rows]
    out = [[row[c] if c < len(row) and not _blank(row[c]) else None for c in range(col, col + 3)]
           for row in body]
    for white, black in pairing.boards:
        out[white - 1] = [black, "W", None]
        out[black - 1] = [white, "B", None]
    if pairing.bye is not None:
        out[pairing.bye - 1] = [None, None, "U"]
    return out


def pairing_lines(t: Tournament, pairing: Pairing) -> list[str]:
    """What was paired, to show: the round and the rules, each board, the bye and the
    players sitting out."""
    def who(number: int) -> str:
        p = t.player(number)
        return f"{number} {p.name}" if p is not None and p.name else str(number)

    sitting = {" ": "not paired", "H": "half-point bye (H)", "F": "full-point bye (B)",
               "Z": "zero-point bye (Z)"}
    lines = [f"Round {pairing.round}: {len(pairing.boards)} boards ({pairing.rules})"]
    lines += [f"Board {b}: {who(w)} - {who(k)}" for b, (w, k) in enumerate(pairing.boards, start=1)]
    if pairing.bye is not None:
        lines.append(f"Bye (U): {who(pairing.bye)}")
    lines += [f"{sitting.get(code, code)}: {who(n)}" for n, code in pairing.absent]
    return lines
