"""Round-robin schedules from FIDE's Berger tables (Handbook C.05 Annex 1), by gacrux."""

from __future__ import annotations

from ..errors import RatingError

__all__ = ["berger_schedule"]


def berger_schedule(n_players: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin by FIDE's Berger tables, each a list of ``(white, black)``.

    gacrux's tables (``gacrux.berger.bergertables``) are those of FIDE Handbook C.05
    Annex 1; larger fields follow the same construction. For an odd number of players the
    table of the next even number is used and its highest number is the bye: that board is
    written ``(player, 0)``, so the published board numbers stay.

    >>> berger_schedule(6)[1]
    [(6, 4), (5, 3), (1, 2)]
    >>> berger_schedule(3)
    [[(1, 0), (2, 3)], [(3, 0), (1, 2)], [(2, 0), (3, 1)]]
    """
    if isinstance(n_players, bool) or not isinstance(n_players, int) or n_players < 2:
        raise RatingError(f"n_players: {n_players!r} is not a number of players (2 or more)")
    from gacrux import berger

    table = berger.bergertables(n_players)

    def board(pair: dict[str, int]) -> tuple[int, int]:
        white, black = pair["white"], pair["black"]
        if white > n_players:
            return black, 0
        return (white, 0) if black > n_players else (white, black)

    return [[board(pair) for _, pair in sorted(boards.items())]
            for _, boards in sorted(table["pairing"].items())]
