"""The US Chess event template: one rating per player by the one-pass formula and by the
full two-pass event procedure, side by side.

Sheet ``Crosstable``: settings in row 2 (``DualRated``, ``BonusThreshold``), headers in
rows 3–4, one row per player from row 5: No., Name, Rating (blank: unrated), games rated
so far, age, record (W if every earlier game was won, L if every one was lost), peak
rating, life master, personal absolute floor before the event; per round the opponent's
number, the colour (W/B: the rating report writes it, the tie-break ``BLACKS`` counts
it) and the result; then points, games, N′, K,
bonus, ``USCF_NEWRATING`` (one pass, against the opponents' pre-event ratings) and
``USCF_EVENT`` (the whole event in two passes; each row takes its item of the column the
function returns), the change (two passes − rating), the difference between the two
and the rating floor; the performance (``PERF_RATING``, method ``USCF``) after the games.

Sheet ``Games`` holds what the formulas read: results of the rounds with an opponent
(blanks stay blank; a bye is no game), opponent numbers as checked (a number outside the
list or the player's own shows why instead) and opponent ratings only where a result is
entered, and the points of every round (built-in functions only, every result spelling);
each round's colour as the tie-breaks read it (:mod:`.uscf_games`, which also holds the
grid, :class:`.uscf_games.UscfLayout`).
A round that contradicts another row or whose opponent number is refused
(:mod:`.contradictions`, docs/RULES.md §1.1, §1.2) holds the reason in place of its
points, and neither its opponent nor its result is read by the ratings and tie-breaks; a
colour that is not one holds its reason, which the row's Check shows.
A rating cell that is blank, 0 or ``-`` means no rating. The player columns carry the
names ``chessrating recalc`` reads: ``Names``, ``Points``, ``Performance``,
``RatingChange`` (the Change column) and ``NewRating`` (Two passes, the official one).

Sheet ``Report`` (:mod:`.uscf_report_sheet`): what the US Chess rating report needs beyond
the crosstable (affiliate, TDs, place, section, rating system, each player's US Chess ID
and state), which ``chessrating export-uscf`` reads.

:func:`build_uscf` given a tournament (:mod:`chessrating.tournament`, e.g. read from a TRF
file) sizes the sheet to it and fills names, ratings, opponents, colours and results, and
the Report sheet with what the file holds of it; the player with starting number k fills
row k.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .. import checks
from ..uscf.player import ABSOLUTE_FLOORS
from .check_formulas import CHECK, check_player, first_check, no_rating, refused
from .layout import (
    CROSSTABLE as SHEET, GAMES, Styles, cell, column, define_standings, new_workbook,
    print_setup, reason_rows, span, validate_range, validate_ratings, write_conf_sheet,
    write_how_to_sheet, write_input, write_quiet_formula, write_text_input,
)
from ..tiebreaks import USCF_DEFAULTS
from .ranking import (
    RANKING_COLUMNS, TIEBREAK_COLUMNS, USCF_CODES, ranking_formats, ranking_formulas, write_ranking_headers,
    write_tiebreak_settings,
)
from .rounds import set_round_widths, validate_rounds, write_round_headers, write_round_inputs
from .print_areas import follow_entries, names_marks, print_entered
from .standings import TIEBREAK_WIDTH, uscf_columns, write_standings_sheet
from ..uscf_report.layout import ReportInfo
from .uscf_games import (
    ABSOLUTE_FLOOR_COL, AGE_COL, COLOUR_BLOCK, ESTABLISHED_GAMES, FIRST_TO_CHECK, GAMES_COL, MASTER_COL,
    PEAK_COL, PLAYER_HEADERS, RATING_COL, RECORD_COL, ROUND_RESULT_BLOCK, USCF_PLAYERS, USCF_ROUNDS,
    UscfLayout, write_uscf_games_sheet,
)
from .uscf_report_sheet import uscf_report_info, write_uscf_report_sheet

if TYPE_CHECKING:
    from ..tournament import Tournament

__all__ = ["USCF_PLAYERS", "USCF_ROUNDS", "UscfLayout", "build_uscf", "WHY_THEY_DIFFER",
           "STANDINGS_NAMES"]

# Rank and the tie-breaks (:mod:`.ranking`) stand after the rating totals; Check stays last.
TOTAL_COLUMNS = ("Points", "Games", "Perf.", "N′", "K", "Bonus", "One pass", "Two passes",
                 "Change", "Difference", "Floor", *RANKING_COLUMNS, "Check")
UNKNOWN_GAMES_CHOICES = ("established", "new")
# Totals that rest on the games so far, marked while those rest on an assumption.
RESTS_ON_GAMES = ("N′", "K", "Bonus", "One pass", "Two passes", "Change", "Difference")
# Workbook names of the player columns, read by ``chessrating recalc`` for the standings.
STANDINGS_NAMES = {"Names": "Name", "Points": "Points", "Rank": "Rank", "Performance": "Perf.",
                   "RatingChange": "Change", "NewRating": "Two passes",
                   # the reasons a row cannot be rated, listed by recalc (recalc.problems)
                   "Checks": "Check"}

WHY_THEY_DIFFER = (
    "Why 'One pass' and 'Two passes' differ: USCF_NEWRATING rates each player against the "
    "opponents' ratings before the event and skips unrated opponents. US Chess rates a "
    "whole event in two passes (USCF_EVENT): unrated players first get an estimate, then "
    "everyone gets an intermediate rating, and the final rating is computed again against "
    "the opponents' intermediate ratings; floors (peak, life master, personal absolute "
    "floor) apply to the final "
    "ratings. The official result is 'Two passes'.")

HOW_TO = [
    "1. List the players in pairing-number order (the row number is the player's number): "
    "rating before the event (blank if unrated), games rated so far, age (used only for "
    "unrated players), record (W if every earlier game was won, L if every one was lost, "
    "else blank), the highest established rating and Life master (TRUE for an original Life "
    "Master) for the floor, and Abs. floor: the player's personal absolute floor before the "
    "event, 100 to 150 (blank: 100; this event's wins, draws and three games completed are "
    "added, up to 150). A rating is a whole number from 100 to 4000.",
    "Age of an unrated player: his starting estimate, which also moves his opponents' "
    "ratings (US Chess takes 15 for a junior without a birth date; blank: 1300).",
    "Games so far left blank for a rated player: read as the setting 'Games so far unknown' "
    "at the top says: established (read as 50, so N′ = N*, US Chess §2) or new (0 games). "
    "The row's N′, K, bonus and new ratings are then marked (orange) and its Check cell "
    "says so until the number is entered.",
    "2. For each round enter the opponent's number, the colour (W or B; White and Black too) and the result: 1, "
    "½, 0; + and - for forfeits, H, B, U, Z for byes (points only, not rated); W, D, L and "
    "the other results of the functions count too. Pick results from the list: a typed 1/2 "
    "would become a date. A red opponent cell is not a player number, or the player's own. "
    "A rating of 0 or - means no rating, like a blank. The colour goes to the rating report "
    "and to the tie-break BLACKS.",
    "3. Set Dual rated to TRUE for a dual-rated event (30 to 65 minutes) and the bonus "
    "multiplier B (10 for events from 2025).",
    WHY_THEY_DIFFER,
    "'Two passes' calls USCF_EVENT, which rates the whole event and returns one rating per "
    "player; each row takes its own with INDEX. In your own sheets one USCF_EVENT call over "
    "the whole table spills the column at once. 'Change' is Two passes minus the rating "
    "before the event; 'Perf.' the US Chess performance rating of the games.",
    "Check (last column): the row's first problem. A round that contradicts another row (two "
    "winners, a result without an opponent, an opponent without a result where the "
    "opponent's row has one, two rows that disagree about a pairing, a player paired twice) "
    "stops the numbers of the players it names: 'check round N: …'; so does an opponent "
    "number that is not one ('check opponent in round N'), while a colour that is not one "
    "is only named ('check colour of round N'). The event is rated as a "
    "whole, so the other rows' Two passes name the first player to check until it is fixed; "
    "their points, one pass, tie-breaks and ranks stand.",
    "4. The 'Report' sheet holds what the US Chess rating report needs beyond the "
    "crosstable: affiliate ID, chief and assistant TD's IDs, city, state, ZIP code, "
    "country, dates, time control, section name, rating system (R regular, D dual, Q "
    "quick), and each player's US Chess ID and state. 'chessrating export-uscf' writes the "
    "report (THEXPORT.DBF, TSEXPORT.DBF, TDEXPORT.DBF) after a pre-flight check of what "
    "US Chess would reject.",
    "Pairing: US Chess pairs a Swiss by its own rules (rulebook chapter 2, rules 27-29: "
    "transpositions, interchanges, its colour rules), which are not FIDE's Dutch system. "
    "gacrux, the engine 'chessrating pair' uses for the FIDE Swiss workbook, does not implement "
    "them, so this workbook is not paired by chessrating: pair with a US Chess pairing program "
    "and enter the pairings here.",
]


def _player_formulas(lay: UscfLayout, r: int) -> dict[str, str]:
    read, ids, opp, points = (lay.block_range(i, r) for i in range(4))
    rating, age, record, peak, master = (cell(r, c) for c in (RATING_COL, AGE_COL, RECORD_COL,
                                                              PEAK_COL, MASTER_COL))
    games = f"{GAMES}!{cell(r, lay.games_read)}"
    unrated = no_rating(rating)
    entered = f'SUMPRODUCT(--({points}<>""))'
    played = f'SUMPRODUCT(--({read}<>""))'
    # A message among the opponent numbers (a bad number) is passed on and shown; only an
    # all-empty block keeps the cell quiet.
    none = f'SUMPRODUCT(--({ids}<>""))=0'
    checked = [points, opp]
    own = f"{GAMES}!{cell(r, lay.own_check)}"
    note = f"{GAMES}!{cell(r, lay.note)}"
    also = f'IF({note}="","","; "&{note})'
    one = cell(r, lay.totals + TOTAL_COLUMNS.index("One pass"))
    two = cell(r, lay.totals + TOTAL_COLUMNS.index("Two passes"))
    return {
        "Points": f'=IF({entered}=0,"",{first_check([points], f"SUM({points})")})',
        # a contradicted game counts in no total: the row's reason, as in Points
        "Games": f'=IF({entered}=0,"",{first_check([points], played)})',
        # a reason among the row's games first: a contradicted round has no opponent here
        "Perf.": f'={first_check(checked, f"""IF(OR({none},COUNT({opp})=0),"",PERF_RATING({opp},{read},"USCF"))""")}',
        "N′": f'=IF({unrated},"",USCF_EFFECTIVE_GAMES({rating},{games}))',
        "K": f'=IF({unrated},"",{first_check([points], f"""IF(COUNT({opp})=0,"",USCF_K({rating},{games},COUNT({opp}),DualRated))""")})',
        "Bonus": f'=IF({unrated},"",{first_check(checked, f"""IF(COUNT({opp})=0,"",USCF_BONUS({rating},{games},{opp},{read},DualRated,BonusThreshold,{ids}))""")})',
        "One pass": f'={first_check(checked, f"""IF({none},"",USCF_NEWRATING({rating},{games},{opp},{read},{age},{record},{peak},DualRated,BonusThreshold,{ids}))""")}',
        # blank for an unrated player; a reason in Two passes is the change's too
        "Change": f'=IF({unrated},"",IF(LEFT({two},{len(CHECK)})="{CHECK}",{two},IF(N({two})=0,"",{two}-{rating})))',
        "Difference": f'=IF(OR(N({one})=0,N({two})=0),"",{two}-{one})',
        "Floor": f'=IF(AND({peak}="",{master}=""),"",USCF_FLOOR({peak},{master}))',
        "Two passes": _event_formula(lay, r),
        # The row's first problem, in a column wide enough to print it whole.
        # (the note on an assumption after a reason of the row's own games)
        "Check": f"=IF({refused(own)},{own},"
                 f"{first_check([points, ids, opp, lay.block_range(COLOUR_BLOCK, r)], _event_check(lay, note), also)})",
        # The tie-breaks read the opponent numbers as checked, each round's result as
        # entered (byes and forfeits too) and its colour (BLACKS counts them).
        # (a contradiction in the row's rounds: its rank and tie-breaks show the reason)
        **ranking_formulas(r, lay.first, points=_total_range(lay, "Points"),
                           tiebreaks=_total_range(lay, TIEBREAK_COLUMNS[0], len(TIEBREAK_COLUMNS)),
                           event=f"{_games_block(lay, 1)},{_games_block(lay, ROUND_RESULT_BLOCK)},"
                                 f"{_games_block(lay, COLOUR_BLOCK)},,"
                                 f"{span(lay.first, RATING_COL, lay.last, RATING_COL, fixed=True)}",
                           codes_at=TIEBREAK_SETTINGS),
    }


def _total_range(lay: UscfLayout, name: str, count: int = 1) -> str:
    col = lay.totals + TOTAL_COLUMNS.index(name)
    return span(lay.first, col, lay.last, col + count - 1, fixed=True)


def _games_block(lay: UscfLayout, index: int) -> str:
    start = lay.block(index)
    return f"{GAMES}!{span(lay.first, start, lay.last, start + lay.rounds - 1, fixed=True)}"


def _event_check(lay: UscfLayout, otherwise: str) -> str:
    """Formula (no ``=``): ``check inputs of player N (Name)`` for the first player whose
    inputs USCF_EVENT would refuse (the one cell ``FirstToCheck``), else ``otherwise``."""
    names = span(lay.first, 1, lay.last, 1, fixed=True)
    first = FIRST_TO_CHECK
    return (f'IF({first}>0,{check_player(first, f"INDEX({names},{first})", "inputs")},'
            f'{otherwise})')


def _event_formula(lay: UscfLayout, r: int) -> str:
    """Row ``r``'s post-event rating: its item of USCF_EVENT's column.

    Each row picks its own item with INDEX rather than one array formula over the column:
    viewers that recalculate array formulas on opening (LibreOffice) would show #NAME?
    where the cached values stand. The function remembers its last event, so the rows
    after the first cost a lookup. The event is rated as a whole, so one player's refused
    input stops every row: each then names the first such player (``check inputs of
    player 6 (Name)``) rather than the function's item number.
    """
    def col(c: int) -> str:
        return span(lay.first, c, lay.last, c, fixed=True)

    def block(index: int) -> str:
        start = lay.block(index)
        return f"{GAMES}!{span(lay.first, start, lay.last, start + lay.rounds - 1, fixed=True)}"

    # Every row's formula is the same but for its own row (the item is the row's number
    # among the players, the ranges are fixed), so a spreadsheet program can treat the column as copies
    # of one formula (chessrating recalc compiles it once).
    item = f"ROW()-{lay.first}"  # the player's number: the rows above the first are headers
    games = f"{GAMES}!{col(lay.games_read)}"
    event = (f"INDEX(USCF_EVENT({col(RATING_COL)},{games},{block(0)},{block(1)},{col(AGE_COL)},"
             f"{col(RECORD_COL)},DualRated,BonusThreshold,{col(PEAK_COL)},{col(MASTER_COL)},"
             f"{col(ABSOLUTE_FLOOR_COL)}),{item})")
    # a contradicted round of the row: its reason, rather than the first player to check
    rated = f'IF(SUMPRODUCT(--({lay.block_range(1, r)}<>""))=0,"",{_event_check(lay, event)})'
    return f"={first_check([lay.block_range(3, r)], rated)}"


def _write_top(sheet: Worksheet, book: Workbook, st: Styles, lay: UscfLayout, name: str = "",
               unknown_games: str = "established", tiebreaks: Sequence[str] = USCF_DEFAULTS) -> None:
    sheet.write_string(0, 0, "US Chess event", st.title)
    sheet.write_string(1, 0, "Event", st.label)
    write_text_input(sheet, 1, 1, name, st.input_text)
    sheet.write_string(1, 3, "Dual rated", st.label)
    sheet.write_boolean(1, 4, False, st.input_result)
    sheet.write_string(1, 5, "Bonus B", st.label)
    sheet.write_number(1, 6, 10, st.input_int)
    book.define_name("DualRated", f"={SHEET}!$E$2")
    book.define_name("BonusThreshold", f"={SHEET}!$G$2")
    sheet.data_validation(1, 4, 1, 4, {"validate": "list", "source": ["TRUE", "FALSE"]})
    validate_range(sheet, 1, 1, 6, checks.BONUS_THRESHOLD, "Bonus B", "the bonus threshold B")
    sheet.write_string(1, 8, "Games so far unknown", st.label)
    sheet.merge_range(1, 13, 1, 15, unknown_games, st.input_result)
    book.define_name("UnknownGames", f"={SHEET}!$N$2")
    sheet.data_validation(1, 13, 1, 13, {
        "validate": "list", "source": list(UNKNOWN_GAMES_CHOICES), "input_title": "Games so far unknown",
        "input_message": "How a blank Games so far cell of a rated player is read: established "
                         f"({ESTABLISHED_GAMES} games, so N′ = N*) or new (0 games). The row is "
                         "marked as assumed until the number is entered."})
    sheet.write_string(1, 17, WHY_THEY_DIFFER, st.note)
    write_round_headers(sheet, lay, st, PLAYER_HEADERS, TOTAL_COLUMNS)
    write_ranking_headers(sheet, st, lay.first - 2, lay.totals + TOTAL_COLUMNS.index("Rank"))
    write_tiebreak_settings(sheet, book, st, *TIEBREAK_SETTINGS, tiebreaks, USCF_CODES, rules=None)


def _write_rows(sheet: Worksheet, lay: UscfLayout, st: Styles,
                tournament: "Tournament | None" = None) -> None:
    by_number = {p.number: p for p in tournament.players} if tournament else {}
    cells = tournament.round_cells() if tournament else None
    formats = {"Points": st.formula_points, "Games": st.formula_int, "Perf.": st.formula_int,
               "N′": st.formula_two, "K": st.formula_one, "Bonus": st.formula_one,
               "One pass": st.formula_one, "Two passes": st.formula_one,
               "Change": st.formula_signed, "Difference": st.formula_signed,
               "Floor": st.formula_int, **ranking_formats(st), "Check": st.formula_text}
    for i in range(lay.players):
        r = lay.first + i
        p = by_number.get(i + 1)
        sheet.write_number(r, 0, i + 1, st.header)
        write_text_input(sheet, r, 1, p.name if p else "", st.input_text)
        write_input(sheet, r, 2, p.rating if p else None, st.input_int)
        for c in (GAMES_COL, AGE_COL, PEAK_COL, ABSOLUTE_FLOOR_COL):
            sheet.write_blank(r, c, None, st.input_int)
        sheet.write_blank(r, RECORD_COL, None, st.input_result)
        sheet.write_blank(r, MASTER_COL, None, st.input_result)
        write_round_inputs(sheet, lay, st, r, cells)
        formulas = _player_formulas(lay, r)
        for offset, name in enumerate(TOTAL_COLUMNS):
            write_quiet_formula(sheet, r, lay.totals + offset, formulas[name], formats[name])


# Where the tie-break codes are picked: row 1, from column I.
TIEBREAK_SETTINGS = (0, 8)
def _mark_assumed(sheet: Worksheet, lay: UscfLayout, st: Styles) -> None:
    """Mark the values of every rated row whose games so far are unknown (read as the
    setting says): N′, K, bonus, both new ratings, change and difference."""
    top = lay.first + 1
    rating, typed = f"${column(RATING_COL)}{top}", f"${column(GAMES_COL)}{top}"
    rule = f'=AND(NOT({no_rating(rating)}),{typed}="")'
    for name in RESTS_ON_GAMES:
        col = lay.totals + TOTAL_COLUMNS.index(name)
        sheet.conditional_format(lay.first, col, lay.last, col,
                                 {"type": "formula", "criteria": rule, "format": st.assumed})


def _validate_players(sheet: Worksheet, lay: UscfLayout) -> None:
    validate_ratings(sheet, lay.first, lay.last, RATING_COL)
    validate_range(sheet, lay.first, lay.last, GAMES_COL, checks.GAMES, "Games so far",
                   "US Chess rated games before this event")
    validate_range(sheet, lay.first, lay.last, AGE_COL, checks.AGE, "Age",
                   "age in years, used only for unrated players")
    sheet.data_validation(lay.first, RECORD_COL, lay.last, RECORD_COL, {
        "validate": "list", "source": ["W", "L"], "input_title": "Record",
        "input_message": "W if every earlier game was won, L if every one was lost, else blank."})
    validate_ratings(sheet, lay.first, lay.last, PEAK_COL, "Peak")
    sheet.data_validation(lay.first, MASTER_COL, lay.last, MASTER_COL, {
        "validate": "list", "source": ["TRUE", "FALSE"], "input_title": "Life master",
        "input_message": "TRUE for an original Life Master (floor 2200), else blank."})
    validate_range(sheet, lay.first, lay.last, ABSOLUTE_FLOOR_COL, ABSOLUTE_FLOORS, "Abs. floor",
                   "the personal absolute floor before the event (blank: 100)")


def build_uscf(path: Path, players: int = USCF_PLAYERS, rounds: int = USCF_ROUNDS,
               tournament: "Tournament | None" = None, unknown_games: str = "established",
               tiebreaks: Sequence[str] = USCF_DEFAULTS, report: ReportInfo | None = None) -> Path:
    """Write the US Chess event workbook for ``players`` × ``rounds``, filled from ``tournament``.

    A tournament sizes the sheet to its largest starting number and its rounds and fills,
    per player, the name, the rating (as the rating before the event), the opponents'
    numbers and the results (:func:`chessrating.tournament.cell_result`). Games so far,
    age, record, peak, life master and absolute floor are left blank: a TRF file does not
    hold them.

    **Decision**: a rated player's blank Games so far is read as ``unknown_games`` says,
    ``established`` (50 games: N′ = N*, US Chess §2) or ``new`` (0 games); the row's values
    are marked as assumed and its Check cell says so until the number is entered.
    """
    lay = UscfLayout.sized(players, rounds, tournament)
    book, st = new_workbook(path, "US Chess event", "US Chess crosstable: one pass and two passes")
    sheet = book.add_worksheet(SHEET)
    _write_top(sheet, book, st, lay, tournament.name if tournament else "", unknown_games, tiebreaks)
    _write_rows(sheet, lay, st, tournament)
    validate_rounds(sheet, lay, st)
    _validate_players(sheet, lay)
    _mark_assumed(sheet, lay, st)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, RATING_COL, lay.last, RATING_COL, fixed=True)}")
    define_standings(book, STANDINGS_NAMES, lay.first, lay.last, lay.totals, TOTAL_COLUMNS)
    book.define_name("TieBreaks", f"={SHEET}!{_total_range(lay, TIEBREAK_COLUMNS[0], len(TIEBREAK_COLUMNS))}")
    # Each column as narrow as its two-line header and its values allow; Check wraps a
    # reason over the three lines of a player row.
    sheet.set_column(0, 0, 3.5)
    sheet.set_column(1, 1, 17)
    sheet.set_column(2, ABSOLUTE_FLOOR_COL, 6)
    set_round_widths(sheet, lay)
    sheet.set_column(lay.totals, lay.totals + len(TOTAL_COLUMNS) - 2, 6.5)
    difference = lay.totals + TOTAL_COLUMNS.index("Difference")
    sheet.set_column(difference, difference, 8.5)
    rank = lay.totals + TOTAL_COLUMNS.index("Rank")
    sheet.set_column(rank, rank, 4.5)
    # wide enough for the longest code on one line (CUMULATIVE): a header never breaks in a word
    sheet.set_column(rank + 1, rank + len(TIEBREAK_COLUMNS), TIEBREAK_WIDTH)
    sheet.set_column(lay.totals + len(TOTAL_COLUMNS) - 1, lay.totals + len(TOTAL_COLUMNS) - 1, 27)
    reason_rows(sheet, lay.first, lay.last)
    sheet.freeze_panes(lay.first, 2)
    print_setup(sheet, 0, lay.last, lay.totals + len(TOTAL_COLUMNS) - 1,
                title_rows=(lay.first - 2, lay.first - 1), title_columns=(0, 1))
    print_entered(book, sheet, SHEET, lay.totals + len(TOTAL_COLUMNS) - 1, lay.first, names_marks(lay.first, lay.last))
    sheet.activate()
    write_standings_sheet(book, st, first=lay.first, players=lay.players, header_row=lay.first - 2,
                          columns=uscf_columns(lay.totals, TOTAL_COLUMNS, RATING_COL), points_col=lay.totals)
    write_uscf_games_sheet(book, lay, st)
    write_uscf_report_sheet(book, st, lay.first, lay.players, tournament,
                            report if report is not None else uscf_report_info(tournament))
    write_how_to_sheet(book, st, "US Chess event: how to use", HOW_TO)
    write_conf_sheet(book, st)
    if tournament is None:  # a template: print what is typed
        follow_entries(book)
    book.close()
    return path
