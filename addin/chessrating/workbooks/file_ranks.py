"""The sheet ``File ranks`` of a FIDE workbook made from a TRF file: the event's ranks as
the file gives them.

A TRF file states each player's rank (``001`` columns 86-89), ranked by the tie-breaks the
event used. TRF-2026 names them (record ``202``), and ``import-trf`` then puts them into
the crosstable; a TRF16 file names none, and a team event's codes are not a player's, so
the crosstable ranks by the template's defaults and may order players the event did not.
**Decision**: the file's ranks are kept on this sheet, beside the ranks the crosstable
gave when the workbook was made, and ``export-trf`` writes the file's ranks as long as
the crosstable's ``Rank`` column still gives those: nothing that ranks (a result, a
tie-break picked, the rules) has changed since. After a change it writes the crosstable's,
and so it does for a file whose games contradict each other (the ranks at import are left
blank: the crosstable ranks such players apart).

The cells carry workbook names: ``FileRanks`` and ``ImportRanks`` (a cell per crosstable
row, in the same order), ``FileTieBreaks`` (the file's ``202`` record as written, blank
where it has none), ``ImportTieBreaks`` (the codes the crosstable ranked by).

:func:`crosstable_ranks` gives the ranks the crosstable's formulas compute
(``TIEBREAK_RANK`` over the points and the tie-break columns, which apply direct
encounter to the players still tied when its turn comes) from the tournament itself,
through the core's :func:`chessrating.tiebreaks.standings`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xlsxwriter.workbook import Workbook

from ..errors import RatingError
from ..tiebreaks import standings
from ..tiebreaks.event import from_grid, from_tournament
from ..tournament import Tournament
from .layout import CROSSTABLE, Styles, print_setup, write_quiet_formula
from .ranking import rules_in_force

__all__ = ["FILE_RANKS", "crosstable_ranks", "file_tiebreaks_text", "write_file_ranks_sheet"]

FILE_RANKS = "File ranks"
_TOP = 7  # zero-based row of the table's header


def file_tiebreaks_text(tournament: Tournament) -> str:
    """The file's ``202`` record as written (its lines joined by commas), ``""`` for none.

    >>> file_tiebreaks_text(Tournament(headers={"202": ["BH/C1,SB", "DE"]}))
    'BH/C1,SB,DE'
    """
    return ",".join(line.strip() for line in tournament.headers.get("202", []) if line.strip())


def crosstable_ranks(tournament: Tournament, codes: Sequence[str], *, round_robin: bool) -> dict[int, int]:
    """Starting number -> the rank the crosstable gives: points, then ``codes`` under the
    rules in force on the first day (:func:`.ranking.rules_in_force`), read as the
    template reads the games (the round robin's grid, the Swiss's rounds and colours).

    >>> from chessrating.tournament import Player, RoundGame
    >>> t = Tournament(players=[Player(1, games=[RoundGame(1, 2, "w", "=")]),
    ...                         Player(2, games=[RoundGame(1, 1, "b", "=")])], rounds=1)
    >>> crosstable_ranks(t, ["DE", "SB"], round_robin=True)
    {1: 1, 2: 1}
    """
    from .event import RoundRobinEvent

    if round_robin:
        event = RoundRobinEvent(tournament)
        numbers = [p.number for p in event.players]
        found = from_grid([list(row) for row in event.results]).with_ratings([p.rating for p in event.players])
    else:
        numbers = list(range(1, max((p.number for p in tournament.players), default=0) + 1))
        found = from_tournament(tournament)
    ranks = standings(found, [code for code in codes if code], rules_in_force(tournament.start_date))
    present = {p.number for p in tournament.players}
    return {n: rank for n, rank in zip(numbers, ranks) if n in present}


def write_file_ranks_sheet(book: Workbook, st: Styles, first: int, rows: int, tournament: Tournament | None,
                           codes: Sequence[str], *, round_robin: bool) -> None:
    """The sheet for a crosstable of ``rows`` player rows from zero-based row ``first``,
    when ``tournament`` (a TRF file's) gives ranks; nothing otherwise."""
    if tournament is None or not any(p.rank for p in tournament.players):
        return
    sheet = book.add_worksheet(FILE_RANKS)
    codes = [code for code in codes if code]
    try:
        at_import = crosstable_ranks(tournament, codes, round_robin=round_robin)
    except RatingError:  # two sides of a game disagree: the crosstable ranks them otherwise
        at_import = {}
    sheet.write_string(0, 0, "Ranks in the imported file", st.title)
    sheet.write_string(1, 0, "chessrating export-trf writes the file's ranks while the Crosstable's "
                             "Rank column gives every player the rank it gave when the workbook was "
                             "made; after a change that ranks (a result, a tie-break) it writes the "
                             "Crosstable's.", st.note)
    for r, (label, name, value) in enumerate((
            ("Tie-breaks in the file (TRF 202)", "FileTieBreaks", file_tiebreaks_text(tournament)),
            ("Tie-breaks of the Crosstable", "ImportTieBreaks", ", ".join(codes))), start=3):
        sheet.write_string(r, 0, label, st.label)
        sheet.write_string(r, 2, value)
        book.define_name(name, f"='{FILE_RANKS}'!$C${r + 1}")
    for c, text in enumerate(("No.", "Name", "Rank in file", "Rank at import")):
        sheet.write_string(_TOP, c, text, st.header)
    by_number = {p.number: p for p in tournament.players}
    for i in range(rows):
        r, source, number = _TOP + 1 + i, first + i + 1, i + 1
        sheet.write_number(r, 0, number, st.header)
        write_quiet_formula(sheet, r, 1, f'=IF({CROSSTABLE}!$B${source}="","",{CROSSTABLE}!$B${source})',
                            st.formula_text)
        player = by_number.get(number)
        for c, rank in ((2, player.rank if player else None), (3, at_import.get(number))):
            if rank:
                sheet.write_number(r, c, rank, st.formula_int)
            else:
                sheet.write_blank(r, c, None, st.formula_int)
    last = _TOP + max(rows, 1)
    for c, name in ((2, "FileRanks"), (3, "ImportRanks")):
        letter = "CD"[c - 2]
        book.define_name(name, f"='{FILE_RANKS}'!${letter}${_TOP + 2}:${letter}${last + 1}")
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 3, 12)
    sheet.freeze_panes(_TOP + 1, 0)
    print_setup(sheet, 0, last, 3, title_rows=(_TOP, _TOP))
