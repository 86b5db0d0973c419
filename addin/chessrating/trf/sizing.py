"""Sizing the workbook from the players and rounds a TRF file really holds.

A stray starting number (one 959 among 55 players) or a header declaring more rounds
than were played must not size a workbook of hundreds of empty rows, nor one wider than
a workbook holds: :func:`fit_to_workbook` renumbers or trims, and says so in a warning.
"""

from __future__ import annotations

from dataclasses import replace

from ..tournament import ReadWarning, Tournament

__all__ = ["fit_to_workbook", "FileWarning", "WORKBOOK_MAX_ROUNDS"]

# The most rounds a workbook holds (the layouts' limit).
WORKBOOK_MAX_ROUNDS = 30


class FileWarning(ReadWarning):
    """A warning about the file as a whole (how the workbook is sized), on no one line."""

    def __str__(self) -> str:
        return self.message


def fit_to_workbook(tournament: Tournament) -> tuple[Tournament, list[ReadWarning]]:
    """The tournament as the workbook is sized from it, and a warning for each change.

    * **Decision**: starting numbers that skip many (the file's largest number more than
      ``players + max(10, players // 10)``, e.g. one stray 959 among 55 players) are
      renumbered 1…n in their order, opponents with them, so the workbook has a row per
      player present, not per number; a few gaps (withdrawn players) keep the file's
      numbers, as rows left empty.
    * a header (142, XXR, round dates) declaring more rounds than a workbook holds gives
      way to the rounds the results fill: the import goes on, with a warning.

    >>> from chessrating.tournament import Player, RoundGame
    >>> a = Player(3, games=[RoundGame(1, 959, "w", "1")])
    >>> b = Player(959, games=[RoundGame(1, 3, "b", "0")])
    >>> fitted, notes = fit_to_workbook(Tournament(players=[a, b], rounds=31))
    >>> [(p.number, p.games[0].opponent) for p in fitted.players], fitted.rounds
    ([(1, 2), (2, 1)], 1)
    >>> for note in notes: print(note)
    starting numbers run to 959 for 2 players: renumbered 1-2 in their order (3 is 1, 959 is 2)
    the header declares 31 rounds, more than a workbook holds (30); the results fill 1, so 1 used
    """
    notes: list[ReadWarning] = []
    players = tournament.players
    largest = max((p.number for p in players), default=0)
    if largest > len(players) + max(10, len(players) // 10):
        ordered = sorted(players, key=lambda p: p.number)
        new = {p.number: i for i, p in enumerate(ordered, start=1)}
        shown = ", ".join(f"{old} is {n}" for old, n in list(new.items())[:3])
        far = [f"{old} is {n}" for old, n in new.items() if old > len(players)][-2:]
        shown += "".join(f", … {m}" for m in far if m not in shown)
        notes.append(FileWarning(0, f"starting numbers run to {largest} for {len(players)} "
                                    f"players: renumbered 1-{len(players)} in their order ({shown})"))
        players = [replace(p, number=new[p.number], games=[
            replace(g, opponent=new.get(g.opponent)) if g.opponent is not None else g
            for g in p.games]) for p in ordered]
    played = max((len(p.games) for p in players), default=0)
    rounds = tournament.rounds
    if rounds > WORKBOOK_MAX_ROUNDS and played <= WORKBOOK_MAX_ROUNDS:
        notes.append(FileWarning(0, f"the header declares {rounds} rounds, more than a workbook "
                                    f"holds ({WORKBOOK_MAX_ROUNDS}); the results fill {played}, "
                                    f"so {max(played, 1)} used"))
        rounds = max(played, 1)
    if players is tournament.players and rounds == tournament.rounds:
        return tournament, notes
    return replace(tournament, players=players, rounds=rounds,
                   round_dates=tournament.round_dates[:rounds]), notes
