"""Each round's pairings in board order, and the crosstable's cells, from the model.

**Board order** — as the Swiss template's Pairings sheet and FIDE's engine gacrux order
a round (:mod:`chessrating.workbooks.pairings_sheet`): the higher score of the two
players before the round first, then the higher sum of both scores, then the lower
starting number of the two. A round robin lists its boards as FIDE's Berger table
(C.05 Annex 1) does; a game the table does not hold follows, by starting number.

A game is listed once, from the row of its White player (a game only one row names is
listed from that row, as it stands). The players without a board follow: the
pairing-allocated bye, the requested byes and the players not paired.

>>> a = Player(1, "Ann", games=[RoundGame(1, 2, "b", "0")])
>>> b = Player(2, "Bob", games=[RoundGame(1, 1, "w", "1")])
>>> c = Player(3, "Cid", games=[RoundGame(1, None, None, "U")])
>>> boards, off = round_boards(Tournament(players=[a, b, c], rounds=1), 1)
>>> [(x.white.name, x.black.name, x.result) for x in boards], [(p.name, what) for p, what in off]
([('Bob', 'Ann', '1 – 0')], [('Cid', 'pairing-allocated bye (1 point)')])
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tournament import Player, RoundGame, Tournament, berger_rounds

__all__ = ["Board", "round_boards", "paired_rounds", "round_cell", "result_text"]

_SHOWN = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "W": "1", "D": "½", "L": "0"}
_OFF = {"U": "pairing-allocated bye (1 point)", "H": "half-point bye", "F": "full-point bye",
        "Z": "zero-point bye", "-": "absent (forfeit)", " ": "not paired"}


@dataclass(frozen=True)
class Board:
    """One game of a round: White, Black and the result as shown (``1 – 0``, blank
    while not played)."""

    number: int
    white: Player
    black: Player | None
    result: str


def result_text(white: RoundGame, black: RoundGame | None) -> str:
    """A board's result from both rows' codes: ``1 – 0``, ``½ – ½``, ``+ – −``; one side
    alone where the other row does not name the game; blank while neither has one.

    >>> result_text(RoundGame(1, 2, "w", "="), RoundGame(1, 1, "b", "="))
    '½ – ½'
    >>> result_text(RoundGame(1, 2, "w", " "), RoundGame(1, 1, "b", " "))
    ''
    """
    w = _SHOWN.get(white.code, "")
    b = _SHOWN.get(black.code, "") if black is not None and black.opponent is not None else ""
    if not w and not b:
        return ""
    return f"{w or '?'} – {b or '?'}"


def paired_rounds(t: Tournament) -> list[int]:
    """The rounds in which somebody has an opponent or a bye."""
    return [r for r in range(1, t.rounds + 1)
            if any(p.game(r).opponent is not None or p.game(r).code in _OFF and p.game(r).code != " "
                   for p in t.players)]


def _score_before(p: Player | None, r: int, t: Tournament) -> float:
    if p is None:
        return 0.0
    return sum(g.points(t.scoring) for g in p.games[:r - 1])


def round_boards(t: Tournament, r: int, round_robin: bool = False) -> tuple[list[Board], list[tuple[Player, str]]]:
    """Round ``r``'s boards in board order, and the players without a board with what
    they have instead (a bye, not paired)."""
    by_number = {p.number: p for p in t.players}
    games: list[tuple[Player, Player | None, str]] = []
    seen: set[frozenset[int]] = set()
    off: list[tuple[Player, str]] = []
    paired = any(q.game(r).opponent is not None for q in t.players)  # a round with a game
    for p in sorted(t.players, key=lambda q: q.number):
        game = p.game(r)
        if game.opponent is None:
            if not (game.is_blank and not paired):
                off.append((p, _OFF.get(game.code, "not paired")))
            continue
        pair = frozenset((p.number, game.opponent))
        if pair in seen:
            continue
        seen.add(pair)
        other = by_number.get(game.opponent)
        back = other.game(r) if other is not None else None
        if other is None or back is None or back.opponent != p.number:
            games.append((p, other, result_text(game, None)))
        elif game.colour == "b" or (game.colour is None and back.colour == "w"):
            games.append((other, p, result_text(back, game)))
        else:
            games.append((p, other, result_text(game, back)))
    off.sort(key=lambda item: (item[0].game(r).code != "U", item[0].number))
    order = _berger_order(t, r) if round_robin else None

    def key(item: tuple[Player, Player | None, str]) -> tuple[float, ...]:
        white, black, _ = item
        low = min(white.number, black.number if black else white.number)
        if order is not None:
            pair = (white.number, black.number if black else 0)
            return (float(order.get(frozenset(pair), len(order))), float(low))
        sw, sb = _score_before(white, r, t), _score_before(black, r, t)
        return (-max(sw, sb), -(sw + sb), float(low))
    games.sort(key=key)
    boards = [Board(n, w, b, res) for n, (w, b, res) in enumerate(games, start=1)]
    return boards, off


def _berger_order(t: Tournament, r: int) -> dict[frozenset[int], int]:
    size = max((p.number for p in t.players), default=0)
    rounds = berger_rounds(size) if size >= 2 else []
    if r > len(rounds):
        return {}
    return {frozenset(pair): board for board, pair in enumerate(rounds[r - 1])}


def round_cell(game: RoundGame) -> str:
    """A Swiss crosstable cell: opponent, colour, result (``12w 1``); a bye's letter.

    >>> round_cell(RoundGame(1, 12, "w", "=")), round_cell(RoundGame(2, None, None, "H")), round_cell(RoundGame(3))
    ('12w ½', 'H', '')
    """
    if game.opponent is None:
        return "" if game.code == " " else {"F": "B", "-": "−"}.get(game.code, game.code)
    shown = _SHOWN.get(game.code, "")
    return f"{game.opponent}{game.colour or ''} {shown}".rstrip()
