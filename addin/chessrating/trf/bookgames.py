"""The games of a FIDE crosstable, as ``export-trf`` reads them (:mod:`.bookevent`).

A result cell becomes its TRF code: ``1 ½ 0`` → ``1 = 0``, ``+ -`` forfeits, ``H``
half-point bye, ``B`` full-point bye (TRF ``F``), ``U``, ``Z``; the functions' other
spellings too (``W D L`` rated, ``X`` forfeit win, ``F`` forfeit loss). The Swiss
crosstable gives each round's opponent, colour and result; the round robin's grid gives
the results, and the Report sheet's grid ``GameRounds`` each game's round and colour
(else the FIDE Berger tables, C.05 Annex 1).

>>> trf_code(1), trf_code("½"), trf_code("B"), trf_code(None), trf_code("F")
('1', '=', 'F', ' ', '-')
>>> cell_text(3.0), cell_text(" Open "), cell_text(None)
('3', 'Open', '')
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..cells import whole_number
from ..tournament import Player, RoundGame, berger, colour_code
from .bookview import BookView
from .preflight import Issue, WorkbookEvent

__all__ = ["trf_code", "cell_text", "swiss_games", "round_robin_games"]

_CELL_CODES = {"1": "1", "½": "=", "=": "=", "0.5": "=", "1/2": "=", "0": "0",
               "W": "1", "D": "=", "L": "0", "+": "+", "-": "-", "X": "+", "F": "-",
               "H": "H", "B": "F", "U": "U", "Z": "Z", "": " "}
# A round of the grid: 1 to 999 (round 0 is none: such a game is named, not dropped).
_GAME_ROUND = re.compile(r"\s*0*([1-9][0-9]{0,2})\s*([WB])?\s*")


def trf_code(value: Any) -> str | None:
    """The TRF result code of a result cell's value, ``" "`` for blank, ``None`` if it is
    not a result."""
    if value is None:
        return " "
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {1.0: "1", 0.5: "=", 0.0: "0"}.get(float(value))
    return _CELL_CODES.get(str(value).strip().upper())


def cell_text(value: Any) -> str:
    """A cell's value as text: blank for none, a whole number without its ``.0``."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def swiss_games(view: BookView, sheet: str, rows: list[tuple[int, int]], name_col: int,
                read: WorkbookEvent, numbers: set[int]) -> None:
    """Each player's games from the Swiss crosstable (``Opp``, colour and result a round);
    a paired game without a result is kept in ``read.unplayed``."""
    first_row = rows[0][0]
    start = name_col + 9  # the first round's Opp column
    rounds = 0
    while view.value(sheet, first_row - 1, start + 3 * rounds) == "Opp":
        rounds += 1
    colours: dict[tuple[int, int], str | None] = {}  # (player, round) -> colour, a row naming an opponent
    for p in read.tournament.players:
        row = rows[p.number - 1][0]
        for rnd in range(1, rounds + 1):
            c = start + 3 * (rnd - 1)
            opp_value, colour_value, result = (view.value(sheet, row, c + k) for k in range(3))
            opponent = whole_number(opp_value)
            if opp_value is not None and (opponent is None or opponent not in numbers or opponent == p.number):
                read.issues.append(Issue(p.number, p.name, f"round {rnd}",
                                         f"opponent {cell_text(opp_value)!r} is not another player's number"))
                opponent = None
            code = trf_code(result)
            if code is None:
                read.issues.append(Issue(p.number, p.name, f"round {rnd}",
                                         f"result {cell_text(result)!r} is not a result; written blank"))
                code = " "
            typed = cell_text(colour_value)
            colour = colour_code(typed)
            if opponent is not None:
                colours[(p.number, rnd)] = colour
                if typed and colour is None:
                    read.refused_colours[(p.number, rnd)] = typed
            if opponent is not None and code == " ":
                read.unplayed.append((rnd, p.number, opponent))  # paired, no result (yet)
                continue
            p.games.append(RoundGame(rnd, opponent, colour if opponent is not None else None, code))
        _pad(p)
    _colours_from_opponents(read, colours)


def _colours_from_opponents(read: WorkbookEvent, colours: dict[tuple[int, int], str | None]) -> None:
    """A game whose row gives no colour (blank, or text that is not one) takes the
    opposite of the opponent's (``colours``: each row naming an opponent, by player and
    round); only a game whose two rows give none is an issue, and text that is not a
    colour is named either way."""
    by_number = {p.number: p for p in read.tournament.players}
    for p in read.tournament.players:
        for g in p.games:
            if g.opponent is None or g.colour is not None:
                continue
            back = by_number[g.opponent].game(g.round)
            theirs = colours.get((g.opponent, g.round)) if back.opponent in (p.number, None) else None
            if theirs is not None:
                g.colour = "b" if theirs == "w" else "w"
            typed = read.refused_colours.get((p.number, g.round))
            if typed is not None:
                written = {"w": "White", "b": "Black"}.get(g.colour or "")
                read.issues.append(Issue(p.number, p.name, f"round {g.round}", f"colour {typed!r} is not W or B; "
                                         + (f"written {written}, the opposite of player {g.opponent}'s"
                                            if written else "not written")))
            elif g.colour is None:
                read.issues.append(Issue(p.number, p.name, f"round {g.round}",
                                         f"colour missing (W or B), on player {g.opponent}'s row too"))


def _pad(p: Player) -> None:
    """Rounds in order, a blank one for a round not listed; no trailing blank rounds."""
    by_round = {g.round: g for g in p.games}
    last = max(by_round, default=0)
    p.games = [by_round.get(r, RoundGame(r)) for r in range(1, last + 1)]
    while p.games and p.games[-1].is_blank:
        p.games.pop()


def round_robin_games(view: BookView, sheet: str, rows: list[tuple[int, int]], name_col: int,
                      read: WorkbookEvent, numbers: set[int]) -> None:
    """Each player's games from the round-robin grid, each game's round and colour from
    the Report sheet's ``GameRounds`` (else the Berger tables); a blank cell between two
    players is kept in ``read.unplayed``."""
    grid = name_col + 9
    size = len(rows)
    by_number = {p.number: p for p in read.tournament.players}
    # the table of the players entered (the last row with a name), as the sheet's formulas
    table = berger(max(by_number, default=0))
    given = view.names.get("GameRounds", [])
    rounds_of = {(r - given[0][1] + 1, c - given[0][2] + 1): view.value(s, r, c)
                 for s, r, c in given} if given else {}
    from_berger = 0
    for p in read.tournament.players:
        row = rows[p.number - 1][0]
        for j in range(1, size + 1):
            if j == p.number:
                continue
            value = view.value(sheet, row, grid + j - 1)
            code = trf_code(value)
            if code is None:
                read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                         f"result {cell_text(value)!r} is not a result; not written"))
                continue
            if code == " ":
                continue
            if j not in by_number:
                read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                         "a result against an empty row"))
                continue
            stated = cell_text(rounds_of.get((p.number, j)))
            found = _GAME_ROUND.fullmatch(stated.upper())
            if found:
                rnd, colour = int(found[1]), {"W": "w", "B": "b"}.get(found[2] or "")
            else:
                if re.fullmatch(r"\s*0+\s*[WB]?\s*", stated.upper()):
                    read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                             f"round and colour {stated!r} names round 0 (rounds count "
                                             "from 1); the game is not written"))
                    continue
                if stated:
                    read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                             f"round and colour {stated!r} is not like 3W; Berger tables used"))
                a, b = min(p.number, j), max(p.number, j)
                rnd, low_white = table[(a, b)]
                colour = "w" if (low_white if p.number == a else not low_white) else "b"
                from_berger += 1
            if colour is None:
                read.issues.append(Issue(p.number, p.name, f"round {rnd}", "colour missing (W or B)"))
            p.games.append(RoundGame(rnd, j, colour, code))
    _blank_games(view, sheet, rows, grid, read, lambda a, b: _scheduled_round(rounds_of, table, a, b))
    for p in read.tournament.players:
        twice = sorted(r for r, n in Counter(g.round for g in p.games).items() if n > 1)
        for rnd in twice:
            read.issues.append(Issue(p.number, p.name, f"round {rnd}", "two games in one round; "
                                     "the second not written"))
        p.games.sort(key=lambda g: g.round)
        _pad(p)
    if from_berger:
        read.issues.append(Issue(0, "", "rounds", f"{from_berger} game(s) without round and colour "
                                 "(Report sheet): written by the FIDE Berger tables for the starting numbers"))


def _scheduled_round(rounds_of: dict[tuple[int, int], Any], table: dict[tuple[int, int], tuple[int, bool]],
                     a: int, b: int) -> int:
    """The round players ``a`` and ``b`` are scheduled to meet in: the Report sheet's grid
    (either cell), else the Berger tables."""
    for key in ((a, b), (b, a)):
        found = _GAME_ROUND.fullmatch(cell_text(rounds_of.get(key)).upper())
        if found:
            return int(found[1])
    return table.get((min(a, b), max(a, b)), (0, True))[0]


def _blank_games(view: BookView, sheet: str, rows: list[tuple[int, int]], grid: int, read: WorkbookEvent,
                 round_of: Any) -> None:
    """Each blank cell of the grid between two players, kept with its round (the mirror's
    game's, else the scheduled one) as a row naming an opponent without a result."""
    players = read.tournament.players
    played = {(p.number, g.opponent): g.round for p in players for g in p.games if g.opponent is not None}
    for p in players:
        for q in players:
            if q is p or (p.number, q.number) in played:
                continue
            if trf_code(view.value(sheet, rows[p.number - 1][0], grid + q.number - 1)) == " ":
                rnd = played.get((q.number, p.number)) or round_of(p.number, q.number)
                read.unplayed.append((rnd, p.number, q.number))
