"""What ``chessrating import-trf`` tells of the event it imported: the games counted
(:func:`count_games`), the unrated players who reach a first rating
(:func:`first_ratings`), and the summary it prints (:class:`ImportSummary`, with the
notes on what the workbook assumes until the arbiter fills it in). The import itself is
:mod:`chessrating.import_trf`, which imports this module's names for its callers too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RatingError
from .progress import listed
from .tournament import PLAYED_CODES, ReadWarning, Tournament

__all__ = [
    "MAX_WARNINGS_SHOWN", "LAYOUTS", "K_NOTE", "K_NOTE_NEW", "USCF_NOTE", "USCF_NOTE_NEW",
    "GameCounts", "count_games", "first_ratings", "ImportSummary",
]

MAX_WARNINGS_SHOWN = 20

K_NOTE = ("K assumed: rated games, peak and K list left empty for the arbiter to fill from "
          "the FIDE rating list; until then every rated player is read as established (30 "
          "rated games, peak = rating): K 10 from 2400, 40 for a junior under 2300, else 20; "
          "the workbook marks those rows (Check column, K in orange)")
K_NOTE_NEW = ("K assumed (--new-players): rated games, peak and K list left empty for the "
              "arbiter to fill from the FIDE rating list; until then every rated player is "
              "read as new (0 rated games): K 10 from 2400 and 40 below; the workbook marks "
              "those rows (Check column, K in orange)")
USCF_NOTE = ("US Chess: the file's ratings are the ratings before the event; games so far, "
             "age, record, peak and life master left blank for the arbiter to fill from the "
             "US Chess record; until then every rated player is read as established (N' = "
             "N*); the workbook marks those rows (Check column, values in orange)")
USCF_NOTE_NEW = ("US Chess (--new-players): the file's ratings are the ratings before the "
                 "event; games so far left blank and read as 0 (N' = 0: the new ratings "
                 "rest on this event alone); the workbook marks those rows (Check column, "
                 "values in orange)")

_GAME_SCORE = {"1": 1.0, "=": 0.5, "0": 0.0}

LAYOUTS = {"round robin": "FIDE round-robin", "swiss": "FIDE Swiss", "uscf": "US Chess event"}


@dataclass(frozen=True)
class GameCounts:
    """Games of an event, each counted once.

    ``played``: over the board (TRF 1, =, 0); ``both_rated``: of those, between two
    players with a rating; ``forfeits``: paired games not played over the board (+, -,
    and W/D/L, under one move); ``byes``: rounds without an opponent that give points
    (H, F, U, or a forfeit win with no opponent written); ``absences``: rounds without
    an opponent and without points (Z, -), blank rounds not counted.
    """

    played: int
    both_rated: int
    forfeits: int
    byes: int
    absences: int


def count_games(tournament: Tournament) -> GameCounts:
    """Count the games of ``tournament``; a game written on both players' lines counts once.

    >>> from chessrating.tournament import Player, RoundGame
    >>> a = Player(1, rating=2000, games=[RoundGame(1, 2, "w", "1"), RoundGame(2, 3, "b", "+")])
    >>> b = Player(2, rating=1900, games=[RoundGame(1, 1, "b", "0"), RoundGame(2, None, None, "H")])
    >>> c = Player(3, games=[RoundGame(1, None, None, "U"), RoundGame(2, 1, "w", "-")])
    >>> d = Player(4, games=[RoundGame(1, None, None, "Z"), RoundGame(2, None, None, " ")])
    >>> count_games(Tournament(players=[a, b, c, d], rounds=2))
    GameCounts(played=1, both_rated=1, forfeits=1, byes=2, absences=1)
    """
    rating = {p.number: p.rating for p in tournament.players}
    played: set[tuple[int, int, int]] = set()
    forfeits: set[tuple[int, int, int]] = set()
    byes = absences = 0
    for p in tournament.players:
        for g in p.games:
            if g.opponent is None:
                if g.code != " ":
                    # points by the TRF defaults: a bye gives some, an absence none
                    if g.points() > 0:
                        byes += 1
                    else:
                        absences += 1
                continue
            key = (g.round, min(p.number, g.opponent), max(p.number, g.opponent))
            (played if g.code in PLAYED_CODES else forfeits).add(key)
    forfeits -= played
    both = sum(1 for _, a, b in played if rating.get(a) and rating.get(b))
    return GameCounts(len(played), both, len(forfeits), byes, absences)


def first_ratings(tournament: Tournament) -> tuple[int, int, list[ReadWarning]]:
    """(unrated players, how many of them reach a first rating by FIDE_INITIAL's rule,
    a warning for each player whose games the rule refuses, e.g. an opponent rated 9999:
    the workbook's cells say the same, and the import goes on)."""
    from .fide import initial_rating
    from .results import Game, NoValue
    from .trf.sizing import FileWarning

    rating = {p.number: p.rating for p in tournament.players}
    unrated = [p for p in tournament.players if not p.rating]
    reached = 0
    refused: list[ReadWarning] = []
    for p in unrated:
        # a game's score for rating is 1, ½ or 0 whatever points record 162 gives
        games = [Game(opponent_rating, _GAME_SCORE[g.code], g.opponent)
                 for g in p.rated_games
                 if g.opponent is not None and (opponent_rating := rating.get(g.opponent))]
        try:
            reached += bool(games) and not isinstance(initial_rating(games), NoValue)
        except RatingError as error:
            refused.append(FileWarning(0, f"player {p.number} ({p.name}): no first rating: {error}"))
    return len(unrated), reached, refused


@dataclass
class ImportSummary:
    """What :func:`import_trf` did, for the summary it prints."""

    source: Path
    output: Path
    layout: str
    players: int
    rounds: int
    played: int  # the last round paired
    games: GameCounts
    unrated: int
    first_ratings: int
    new_players: bool
    warnings: list[ReadWarning] = field(default_factory=list)
    cell_errors: list[Any] = field(default_factory=list)
    tiebreaks: tuple[str, ...] = ()
    tiebreaks_note: str = ""
    standings: list[Any] = field(default_factory=list)
    filled: Any = None  # the FillSummary of --fide-list
    layout_reason: str = ""
    ranks_note: str = ""

    def lines(self, max_warnings: int = MAX_WARNINGS_SHOWN) -> list[str]:
        """The summary as printed: one fact a line, the warnings capped at ``max_warnings``."""
        g = self.games
        reason = f": {self.layout_reason}" if self.layout_reason else ""
        out = [f"workbook: {self.output} ({LAYOUTS[self.layout]}{reason})",
               f"players: {self.players}",
               f"rounds: {self.rounds}"]
        if self.played < self.rounds and self.layout != "round robin":
            out.append(f"rounds paired so far: {self.played} (chessrating pair pairs the next)"
                       if self.layout == "swiss" else f"rounds paired so far: {self.played}")
        if self.layout == "uscf":
            out.append(f"games rated: {g.played} (played over the board)")
        else:
            out.append(f"games rated: {g.both_rated} (played over the board between two rated "
                       f"players; {g.played - g.both_rated} more against an unrated player)")
        out.append(f"not rated: {g.forfeits} forfeits, {g.byes} byes, {g.absences} absences")
        if self.layout == "uscf":
            out.append(f"unrated players: {self.unrated} (rated by the US Chess event procedure)")
            out.append(USCF_NOTE_NEW if self.new_players else USCF_NOTE)
        else:
            out.append(f"unrated players: {self.unrated} ({self.first_ratings} reach a first "
                       "rating: at least 5 games against rated opponents)")
            if self.filled is None:
                out.append(K_NOTE_NEW if self.new_players else K_NOTE)
        if self.filled is not None:
            f = self.filled
            out.append(f"FIDE list ({f.list_kind}): {len(f.filled)} players filled with their "
                       f"{f.rating_type} rating, K, birth year, sex and title")
            unfilled = [f"player {n} {name}: no FIDE ID" for n, name in f.no_id]
            unfilled += [f"player {n} {name}: FIDE ID {i} not on the list" for n, name, i in f.not_on_list]
            unfilled += [f"player {n} {name}: FIDE ID {i}: {why}" for n, name, i, why in f.refused]
            unfilled += [f"player {n} {name}: {why}" for n, name, why in f.not_ids]
            out.append(f"not filled (left as the file gives them; K assumed where rated): {len(unfilled)}")
            out += listed(unfilled, max_warnings)
            out += [f"note: {note}" for note in f.notes]
        if self.tiebreaks:
            out.append(f"tie-breaks: {', '.join(self.tiebreaks)} ({self.tiebreaks_note})")
        if self.ranks_note:
            out.append(f"ranks: {self.ranks_note}")
        out.append(f"warnings: {len(self.warnings)}")
        out += listed(self.warnings, max_warnings)
        if self.cell_errors:
            out.append(f"cells showing an error: {len(self.cell_errors)}")
            out += listed(self.cell_errors, max_warnings)
        return out
