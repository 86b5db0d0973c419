"""Round-robin schedules from FIDE's Berger tables (Handbook C.05 Annex 1)."""

from __future__ import annotations

from ..errors import RatingError
from ..tournament import berger_rounds

__all__ = ["berger_schedule"]


def berger_schedule(n_players: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin by FIDE's Berger tables, each a list of ``(white, black)``.

    The tables are the tournament model's (:func:`chessrating.tournament.berger_rounds`,
    which the workbooks' schedules spell as formulas); they equal gacrux's
    (``gacrux.berger.bergertables``) for 3 to 20 players, and those of FIDE Handbook C.05
    Annex 1. For an odd number of players the table of the next even number is used and
    its highest number is the bye: that board is written ``(player, 0)``, so the
    published board numbers stay.

    >>> berger_schedule(6)[1]
    [(6, 4), (5, 3), (1, 2)]
    >>> berger_schedule(3)
    [[(1, 0), (2, 3)], [(3, 0), (1, 2)], [(2, 0), (3, 1)]]
    """
    if isinstance(n_players, bool) or not isinstance(n_players, int) or n_players < 2:
        raise RatingError(f"n_players: {n_players!r} is not a number of players (2 or more)")
    return berger_rounds(n_players)
