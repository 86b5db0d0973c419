"""The ranks ``export-trf`` writes: the TRF file's, the workbook's, or by points.

A workbook made by ``import-trf`` carries the ranks of the file it was made from and the
ranks its own ``Rank`` column gave then (sheet ``File ranks``,
:mod:`chessrating.workbooks.file_ranks`). **Decision** (docs/RULES.md §6.5): the file's
ranks are written while the ``Rank`` column still gives every player the rank it gave
then, nothing that ranks having changed; otherwise the workbook's own ranks (TRF16 wants
one player a rank, so equal ranks, and players without one, follow in starting-number
order; TRF-2026 keeps shared ranks); a workbook without a ``Rank`` column ranks by points,
then starting number.
"""

from __future__ import annotations

from typing import Any

from ..tournament import Player
from .bookview import BookView
from .preflight import WorkbookEvent

__all__ = ["read_ranking", "read_file_ranks", "file_ranks_stand", "ranked"]

_SHOWN = 5


def _rank(value: Any) -> int | None:
    """A rank a cell holds (a whole number from 1), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if float(value).is_integer() and value >= 1 else None


def read_ranking(view: BookView, read: WorkbookEvent) -> None:
    """The workbook's ranks (``Rank``, a cell per crosstable row) and the tie-break codes
    that made them."""
    ranks = view.named("Rank")
    for p in read.tournament.players:
        rank = _rank(ranks[p.number - 1]) if p.number <= len(ranks) else None
        if rank:
            read.ranks[p.number] = rank
    read.tiebreaks = [view.text(f"TieBreak{slot}").strip().upper() for slot in range(1, 5)
                      if view.text(f"TieBreak{slot}").strip()]


def read_file_ranks(view: BookView, read: WorkbookEvent) -> None:
    """The ranks of the TRF file the workbook was made from and the workbook's then."""
    if not view.has("FileRanks"):
        return
    for target, name in ((read.file_ranks, "FileRanks"), (read.import_ranks, "ImportRanks")):
        values = view.named(name)
        for p in read.tournament.players:
            rank = _rank(values[p.number - 1]) if p.number <= len(values) else None
            if rank:
                target[p.number] = rank
    read.file_tiebreaks = view.text("FileTieBreaks")


def file_ranks_stand(read: WorkbookEvent) -> tuple[bool, str]:
    """Whether the export writes the ranks of the TRF file the workbook was made from,
    and a line saying whose ranks it writes and why (``""`` for a workbook typed by hand).

    >>> from chessrating.tournament import Tournament
    >>> read = WorkbookEvent(Tournament(players=[Player(1, "A"), Player(2, "B")]), "swiss",
    ...                      ranks={1: 1, 2: 2}, file_ranks={1: 2, 2: 1}, import_ranks={1: 1, 2: 2})
    >>> file_ranks_stand(read)[1]
    "the file's (sheet File ranks): the Crosstable ranks as when imported; its tie-breaks order 2 player(s) otherwise: player 1 A (file 2, Crosstable 1), player 2 B (file 1, Crosstable 2)"
    >>> read.ranks = {1: 2, 2: 1}
    >>> file_ranks_stand(read)
    (False, "the Crosstable's: its ranks changed since the import for 2 player(s) (player 1 A: 1, now 2; player 2 B: 2, now 1); the file's ranks no longer stand")
    """
    players = read.tournament.players
    if not read.file_ranks:
        return False, ""
    missing = [p for p in players if p.number not in read.file_ranks]
    if missing:
        return False, f"the Crosstable's: the file gives no rank for {_named(missing)}"
    if not read.ranks:
        return False, ("the file's ranks not written: the Crosstable's Rank column holds no values "
                       "(recalculate the workbook: chessrating recalc); by points")
    if not read.import_ranks:
        return False, ("the Crosstable's: the file's games contradicted each other when imported, so "
                       "the file's ranks (sheet File ranks) do not stand")
    changed = [p for p in players if read.ranks.get(p.number) != read.import_ranks.get(p.number)]
    if changed:
        shown = "; ".join(f"player {p.number} {p.name}: {read.import_ranks.get(p.number, '-')}, now "
                          f"{read.ranks.get(p.number, '-')}" for p in changed[:_SHOWN])
        return False, (f"the Crosstable's: its ranks changed since the import for {len(changed)} "
                       f"player(s) ({shown}{'; …' if len(changed) > _SHOWN else ''}); the file's ranks "
                       "no longer stand")
    other = [p for p in players if read.ranks[p.number] != read.file_ranks[p.number]]
    note = "the file's (sheet File ranks): the Crosstable ranks as when imported"
    if other:
        note += (f"; its tie-breaks order {len(other)} player(s) otherwise: "
                 + ", ".join(f"player {p.number} {p.name} (file {read.file_ranks[p.number]}, Crosstable "
                             f"{read.ranks[p.number]})" for p in other[:_SHOWN])
                 + (", …" if len(other) > _SHOWN else ""))
    return True, note


def _named(players: list[Player]) -> str:
    shown = ", ".join(f"player {p.number} {p.name}" for p in players[:_SHOWN])
    return shown + (f" and {len(players) - _SHOWN} more" if len(players) > _SHOWN else "")


def ranked(read: WorkbookEvent, trf_format: str) -> None:
    """Each player's points and rank (the module's **Decision**)."""
    t = read.tournament
    for p in t.players:
        p.points = p.computed_points(t.scoring)
    if file_ranks_stand(read)[0]:
        for p in t.players:
            p.rank = read.file_ranks[p.number]
        return
    if read.ranks:
        # The workbook's own ranks; TRF16 wants one player a rank, so equal ranks (and
        # players with none: no result yet) are told apart by starting number.
        ordered = sorted(t.players, key=lambda p: (read.ranks.get(p.number) or len(t.players) + 1, p.number))
        for position, p in enumerate(ordered, start=1):
            rank = read.ranks.get(p.number)
            p.rank = rank if trf_format == "trf26" and rank is not None else position
        return
    ordered = sorted(t.players, key=lambda p: (-(p.points or 0.0), p.number))
    for position, p in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        if trf_format == "trf26" and previous is not None and previous.points == p.points:
            p.rank = previous.rank
        else:
            p.rank = position
