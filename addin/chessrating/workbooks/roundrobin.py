"""The FIDE round-robin template: player list, n×n results grid, per-game and per-player formulas.

Sheet ``Crosstable`` (rows are zero-based here, Excel rows one-based):

* row 2: event name, ``Rules`` ("2025"/"2024"), ``RatingYear`` (year for K; blank = this
  year), ``NormTitle`` — inputs with defined names;
* row 4: headers; rows 5…: one row per player: No., Name, Title, Fed, Rating, the K
  inputs (rated games, birth year, peak) and K = ``FIDE_K``; then the results grid (row
  player's result against the column player; the diagonal is greyed and refuses input,
  a warning colour marks a cell whose mirror does not complete the game); then points,
  games, expected score, ``PERF_RATING``, ``FIDE_CHANGE``, ``FIDE_NEWRATING``,
  ``FIDE_INITIAL`` (unrated players) and the ``FIDE_NORM`` verdict for the title in
  ``NormTitle`` (quiet while it is blank);
* below, grids in the same columns as the results: the expected score of each game
  (``FIDE_EXPECTED``) and its rating change (``FIDE_CHANGE``); the two grids the
  functions read: the results with blanks kept as ``""`` and the opponent's rating
  only where a result is entered (so an empty cell, which Office.js hands over as 0,
  never counts as a loss), beside each player's rating as read (a refused one as its
  reason, which the rating-based tie-breaks show where they rest on it); and the points
  of each game, which the points column adds up and the mirror warning compares
  (built-in functions only);
* a bar chart of the rating changes.

A rating cell that is blank, 0 or ``-`` means no rating (README). The player columns
carry the workbook names ``chessrating recalc`` prints the standings from: ``Names``,
``Points``, ``Performance``, ``RatingChange``, ``NewRating``, ``InitialRating``.

**Decision**: ``NormTitle`` is blank in the template and in imported events, so the
norm column stays empty until a title is picked; the example event sets ``GM``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..errors import RatingError
from ..tournament import Tournament
from .event import RoundRobinEvent
from .report import write_report_sheet
from .file_ranks import write_file_ranks_sheet
from .schedule import write_schedule_sheet
from .print_areas import follow_entries, names_marks, print_entered
from .standings import fide_columns, write_standings_sheet
from .fide import (
    AFTER_PLAYERS, K_COL, PLAYER_HEADERS, RATING_COL, STANDINGS_NAMES, TIEBREAK_SETTINGS, TOTAL_COLUMNS,
    fide_formats, fide_player_formulas, mark_assumed_k, opponent_cell, own_check_formula, set_fide_widths, validate_fide_players,
    write_fide_player, write_fide_settings,
)
from ..tiebreaks import FIDE_ROUND_ROBIN_DEFAULTS
from .ranking import (
    FIDE_CODES, TIEBREAK_COLUMNS, ranking_formulas, rules_in_force, write_ranking_headers, write_tiebreak_settings,
)
from .contradictions import round_robin_points
from .check_formulas import CHECK, game_points, no_rating
from .layout import (
    CROSSTABLE as SHEET, RESULT_CHOICES, Styles, absolute, cell, define_standings, new_workbook,
    print_setup, span, write_conf_sheet, TWO_LINES, reason_rows, write_how_to_sheet, write_quiet_formula,
    write_result,
)

__all__ = ["ROUND_ROBIN_SIZE", "RoundRobinLayout", "build_round_robin", "STANDINGS_NAMES"]

ROUND_ROBIN_SIZE = 20

HOW_TO = [
    "1. Fill the player list: name, title, federation (three letters), rating (a whole number "
    "from 100 to 4000; blank, 0 or - for an unrated player) and, for K, rated games so far, "
    "birth year and highest rating ever, or K as the FIDE list gives it in 'K list' (it "
    "overrides the computed K).",
    "Rated games left blank are read as the setting 'Rated games unknown' at the top says: "
    "established (30 games: K from the rating and the birth year) or new (0 games). The "
    "row's K, change and new rating are then orange and its Check cell says so.",
    "2. Enter each result in the row of the player it belongs to, against the column of the "
    "opponent: 1, ½, 0, + (forfeit win) or - (forfeit loss); W, D, L and the other results of "
    "the functions count too. Pick from the list: a typed 1/2 would become a date. Enter both cells of a game; a red cell means its mirror does not "
    "complete the game yet.",
    "3. Each row then shows points, expected score, performance (FIDE TPR), the rating change "
    "and new rating (FIDE, unrounded change, rating rounded), the first rating of an unrated "
    "player (at least 5 games against rated opponents) and, once a title (GM, IM, WGM, WIM) "
    "is picked in 'Norm' at the top, the title-norm verdict. A rating of 0 or - means no "
    "rating, like a blank.",
    "Check (last column): why a player's rating is refused, or the note on an assumed K. A "
    "row that met a player whose rating is refused says 'check rating of player N (Name)'; "
    "a result that is not one says 'check result against player N'. Two cells of one game "
    "that contradict each other (1 and 1, a result against a blank mirror) stop both "
    "players' numbers: their cells say 'check game of player N and player M'. Fix the input "
    "named; any note on an assumed K follows the problem.",
    "4. Below the crosstable: expected score and rating change of every single game. The last "
    "four grids are what the formulas read: results, the opponent's rating only where a "
    "result is entered, the points of each game (or why its two cells contradict each "
    "other) and the points as entered. Leave them alone.",
    "Rules: 2025 (from 1 October 2025: no 400-point cap for players rated 2650 or more) or "
    "2024 (cap for everyone). Year: the rating period's year for the junior K rule; blank "
    "means this year.",
    "5. The 'Report' sheet holds what the FIDE rating report needs beyond the crosstable: "
    "city, federation, dates, arbiters, time control, round dates, each player's FIDE ID, sex "
    "and birth date, and each game's round and colour (e.g. 3W): the FIDE Berger table for the "
    "players entered, or the rounds of the TRF file the workbook was made from; type over a "
    "cell for another round. 'chessrating fide-list LIST --fill' fills the players with a FIDE "
    "ID from the FIDE list; 'chessrating export-trf' writes the report (TRF) and lists what a "
    "rating officer would return.",
    "6. The 'Schedule' sheet lists every round's boards (White, Black, the result once entered) "
    "and the bye, from the Report sheet's rounds: print it to pin up. The players entered are "
    "counted to the last row with a name: fill the list from the top.",
]


@dataclass(frozen=True)
class RoundRobinLayout:
    """Where everything sits for ``size`` players (zero-based rows and columns)."""

    size: int
    first: int = 4          # first player row (Excel row 5)
    grid: int = AFTER_PLAYERS  # first results column (K)

    @property
    def last(self) -> int:
        return self.first + self.size - 1

    @property
    def grid_last(self) -> int:
        return self.grid + self.size - 1

    @property
    def totals(self) -> int:
        """First column after the grid: points."""
        return self.grid + self.size

    def section(self, index: int) -> int:
        """First player row of the index-th grid below the crosstable (0 expected,
        1 change, 2 results read, 3 opponent ratings read, 4 points per game, a
        contradiction's reason in place of the points, 5 points per game as entered)."""
        return self.last + 4 + index * (self.size + 3)

    def row_range(self, row: int) -> str:
        return span(row, self.grid, row, self.grid_last)


def _player_formulas(lay: RoundRobinLayout, i: int) -> dict[str, str]:
    r = lay.first + i
    # A game counts once a result is entered in the row, whatever its spelling; a row
    # whose only entries are blanks against a result in the mirror shows that reason.
    entered = f"COUNTA({lay.row_range(r)})"
    points = lay.row_range(lay.section(4) + i)
    shown = f'{entered}+COUNTIF({points},"{CHECK}*")'
    opp = lay.row_range(lay.section(3) + i)
    formulas = fide_player_formulas(
        r, opp=opp, read=lay.row_range(lay.section(2) + i),
        expected=lay.row_range(lay.section(0) + i), points=lay.row_range(lay.section(4) + i),
        entered=shown, played=entered, none=f'SUMPRODUCT(--({opp}<>""))=0',
        titles=span(lay.first, 2, lay.last, 2, fixed=True),
        feds=span(lay.first, 3, lay.last, 3, fixed=True), own_check=_own_check(lay, i),
        first_rating=cell(r, lay.totals + TOTAL_COLUMNS.index("First rating")))
    # The tie-breaks read the results grid as the functions read it (a round robin: no
    # opponents, no colours) and the ratings for ARO and the performances.
    results = span(lay.section(2), lay.grid, lay.section(2) + lay.size - 1, lay.grid_last, fixed=True)
    # (the ratings as the opponents' rows read them: a refused one is its reason, which
    # TIEBREAK shows in the rating-based values resting on it; the others never read it)
    ratings = span(lay.section(3), _READ_RATING_COL, lay.section(3) + lay.size - 1, _READ_RATING_COL, fixed=True)
    ranking = ranking_formulas(
        r, lay.first, points=_total_range(lay, "Points"), tiebreaks=_tiebreak_range(lay),
        event=f",{results},,TieBreakRules,{ratings}", codes_at=TIEBREAK_SETTINGS)
    # (a contradiction in the row's games: its tie-breaks show the reason, as its points do)
    return {**formulas, **ranking}


def _total_range(lay: RoundRobinLayout, name: str) -> str:
    col = lay.totals + TOTAL_COLUMNS.index(name)
    return span(lay.first, col, lay.last, col, fixed=True)


def _tiebreak_range(lay: RoundRobinLayout) -> str:
    start = lay.totals + TOTAL_COLUMNS.index(TIEBREAK_COLUMNS[0])
    return span(lay.first, start, lay.last, start + len(TIEBREAK_COLUMNS) - 1, fixed=True)


def _own_check(lay: RoundRobinLayout, i: int) -> str:
    """The helper cell of player ``i`` (zero-based) that says why the rating is refused:
    in the opponents' ratings grid, below the Rating column."""
    return absolute(lay.section(3) + i, RATING_COL)


# Beside the own check, the rating of each player as the opponents' rows (and the
# tie-breaks) read it: the rating, "" for none, or ``check rating of player N (Name)``.
_READ_RATING_COL = RATING_COL + 1


def _game_points(lay: RoundRobinLayout, i: int, j: int) -> str:
    """Formula (no ``=``) of the points row ``i`` scored against column ``j``
    (zero-based): the points as entered, or the reason the game's two cells contradict
    each other (:func:`.contradictions.round_robin_points`)."""
    entered = lay.section(5)
    low, high = sorted((i, j))
    side = {k: (k + 1, absolute(lay.first + k, 1), absolute(lay.first + k, lay.grid + (high if k == low else low)))
            for k in (low, high)}
    return round_robin_points(cell(entered + i, lay.grid + j), cell(entered + j, lay.grid + i),
                              side[low], side[high])


def _mirror_rule(lay: RoundRobinLayout) -> str:
    """Conditional-format formula (relative to the grid's top-left cell): the cell and its
    mirror do not add up to one game's point, read from the points-per-game grid so that
    every result spelling counts."""
    top = cell(lay.first, lay.grid)
    grid = span(lay.first, lay.grid, lay.last, lay.grid_last, fixed=True)
    first_row, first_col = absolute(lay.first, lay.grid), absolute(lay.first, lay.grid)
    swap = f"COLUMN({top})-COLUMN({first_col})+1,ROW({top})-ROW({first_row})+1"
    mirror = f"INDEX({grid},{swap})"
    points = span(lay.section(4), lay.grid, lay.section(4) + lay.size - 1, lay.grid_last, fixed=True)
    mine = f"INDEX({points},ROW({top})-ROW({first_row})+1,COLUMN({top})-COLUMN({first_col})+1)"
    theirs = f"INDEX({points},{swap})"
    # Red unless both cells hold results worth a point together, or none (a double
    # forfeit, a game lost by both): a cell entered alone, a result the functions refuse
    # (its points cell holds a message) or a pair that does not make one game.
    total = f"N({mine})+N({theirs})"
    return (f'=AND(ROW({top})-ROW({first_row})<>COLUMN({top})-COLUMN({first_col}),'
            f'OR({top}<>"",{mirror}<>""),'
            f'OR(NOT(ISNUMBER({mine})),NOT(ISNUMBER({theirs})),AND({total}<>1,{total}<>0)))')


def _write_settings(sheet: Worksheet, book: Workbook, st: Styles, event: RoundRobinEvent | None,
                    unknown_games: str, tiebreaks: Sequence[str]) -> None:
    write_fide_settings(sheet, book, st, "FIDE round robin", event.name if event else "",
                        event.year if event else None, event.norm_title if event else "",
                        unknown_games)
    sheet.write_string(2, 0, "Row player's result against the column player: 1, ½, 0, + "
                             "(forfeit win), - (forfeit loss). Yellow cells are inputs; pick "
                             "a title in Norm for the norm verdicts.", st.note)
    # The edition in force on the first day.
    write_tiebreak_settings(sheet, book, st, *TIEBREAK_SETTINGS, tiebreaks, FIDE_CODES,
                            rules_in_force(event.start if event else None))


def _write_players(sheet: Worksheet, lay: RoundRobinLayout, st: Styles,
                   event: RoundRobinEvent | None) -> None:
    for col, text in enumerate(PLAYER_HEADERS):
        sheet.write_string(lay.first - 1, col, text, st.header)
    for j in range(lay.size):
        sheet.write_number(lay.first - 1, lay.grid + j, j + 1, st.header)
    for offset, text in enumerate(TOTAL_COLUMNS):
        sheet.write_string(lay.first - 1, lay.totals + offset, text, st.header)
    write_ranking_headers(sheet, st, lay.first - 1, lay.totals + TOTAL_COLUMNS.index("Rank"))
    formats = fide_formats(st)
    for i in range(lay.size):
        r = lay.first + i
        formulas = _player_formulas(lay, i)
        write_fide_player(sheet, st, r, i + 1, event.players[i] if event else None, formulas["K"])
        for j in range(lay.size):
            if i == j:
                sheet.write_blank(r, lay.grid + j, None, st.diagonal)
            else:
                write_result(sheet, r, lay.grid + j, event.results[i][j] if event else "",
                             st.input_result)
        for offset, name in enumerate(TOTAL_COLUMNS):
            write_quiet_formula(sheet, r, lay.totals + offset, formulas[name], formats[name])


def _write_grids(sheet: Worksheet, lay: RoundRobinLayout, st: Styles) -> None:
    titles = [
        "Expected score per game (FIDE_EXPECTED, table 8.1.2)",
        "Rating change per game (FIDE_CHANGE)",
        "Results as the functions read them (blank stays blank, and a game that contradicts "
        "its mirror) - do not edit",
        "Opponent's rating where a result is entered (read by the functions) - do not edit",
        "Points per game (added up by Points, compared by the red mirror warning; a game whose "
        "two cells contradict each other shows why instead) - do not edit",
        "Points per game as entered (read from each cell alone) - do not edit",
    ]
    for index, title in enumerate(titles):
        top = lay.section(index)
        sheet.write_string(top - 2, 0, title, st.subtitle)
        sheet.write_string(top - 1, 0, "No.", st.header)
        sheet.write_string(top - 1, 1, "Name", st.header)
        for j in range(lay.size):
            sheet.write_number(top - 1, lay.grid + j, j + 1, st.header)
        if index == 3:
            sheet.write_string(top - 1, RATING_COL, "Rating check", st.header)
            sheet.write_string(top - 1, _READ_RATING_COL, "Rating as read", st.header)
        for i in range(lay.size):
            r, source = top + i, lay.first + i
            sheet.write_number(r, 0, i + 1, st.header)
            if index == 3:
                write_quiet_formula(sheet, r, RATING_COL, f"={own_check_formula(source)}", st.read_ok)
                read_rating = opponent_cell(absolute(source, RATING_COL), str(i + 1), absolute(source, 1),
                                            _own_check(lay, i))
                write_quiet_formula(sheet, r, _READ_RATING_COL, f"={read_rating}", st.formula_int)
            write_quiet_formula(sheet, r, 1, f'=IF({cell(source, 1)}="","",{cell(source, 1)})',
                                st.formula_text)
            rating, k = absolute(source, RATING_COL), absolute(source, K_COL)
            for j in range(lay.size):
                c = lay.grid + j
                if i == j:
                    sheet.write_formula(r, c, '=""', st.diagonal, "")
                    continue
                result = cell(source, c)
                read = cell(lay.section(2) + i, c)
                opp = cell(lay.section(3) + i, c)
                change = cell(lay.section(1) + i, c)
                points = cell(lay.section(4) + i, c)
                opp_rating = absolute(lay.section(3) + j, _READ_RATING_COL)
                # A result that is not one, or an opponent whose rating is refused, shows
                # its message in the game's cells instead of a change or an expected score.
                message = (f'IF(LEFT({points},{len(CHECK)})="{CHECK}",{points},'
                           f'IF(LEFT({opp},{len(CHECK)})="{CHECK}",{opp},')
                formula, fmt = {
                    # Only rated games have an expected score: forfeits and byes give no change.
                    0: (f'=IF(ISNUMBER({change}),FIDE_EXPECTED({rating},{opp},Rules),'
                        f'IFERROR(IF(LEFT({change},{len(CHECK)})="{CHECK}",{change},""),""))',
                        st.formula_two),
                    1: (f'={message}IF(OR({no_rating(rating)},{opp}=""),"",'
                        f'FIDE_CHANGE({rating},{opp},{read},{k},Rules))))', st.formula_signed),
                    # a game whose cells contradict each other is no game for the ratings
                    # and the tie-breaks: its reason shows. A result that is not one is left
                    # out of its own row only; the mirror's result, if any, stands for the
                    # game in the tie-breaks, as it does in the opponent's points.
                    2: (f'=IF(OR({result}="",LEFT({points},{len(CHECK)})="{CHECK}"),"",{result})',
                        st.formula_text),
                    3: (f'=IF({result}="","",{opp_rating})', st.formula_int),
                    4: (f"={_game_points(lay, i, j)}", st.formula_one),
                    5: (f'={game_points(result, f"against player {j + 1}")}', st.formula_one),
                }[index]
                write_quiet_formula(sheet, r, c, formula, fmt)


def _validate(sheet: Worksheet, lay: RoundRobinLayout) -> None:
    pieces = []
    for i in range(lay.size):
        r, diagonal = lay.first + i, lay.grid + i
        if diagonal > lay.grid:
            pieces.append(span(r, lay.grid, r, diagonal - 1))
        if diagonal < lay.grid_last:
            pieces.append(span(r, diagonal + 1, r, lay.grid_last))
    first = pieces[0].split(":")[0]
    sheet.data_validation(first, {
        "validate": "list", "source": list(RESULT_CHOICES), "multi_range": " ".join(pieces),
        "error_title": "Result", "input_title": "Result",
        "input_message": "1, ½, 0, + (forfeit win), - (forfeit loss)",
        "error_message": "Pick a result from the list: 1, ½, 0, + (forfeit win) or - (forfeit loss)."})
    diagonal_cells = " ".join(cell(lay.first + i, lay.grid + i) for i in range(lay.size))
    sheet.data_validation(cell(lay.first, lay.grid), {
        "validate": "custom", "value": "=FALSE", "multi_range": diagonal_cells,
        "error_title": "No game", "error_message": "A player does not play themself."})
    validate_fide_players(sheet, lay.first, lay.last)


def _chart(book: Workbook, sheet: Worksheet, lay: RoundRobinLayout) -> None:
    chart = book.add_chart({"type": "bar"})
    change = lay.totals + TOTAL_COLUMNS.index("Change")
    chart.add_series({
        "name": "Rating change",
        "categories": [SHEET, lay.first, 1, lay.last, 1],
        "values": [SHEET, lay.first, change, lay.last, change],
        "fill": {"color": "#4472C4"},
        "invert_if_negative": False,
        "data_labels": {"value": True, "num_format": "+0.0;-0.0;0"},
    })
    chart.set_title({"name": "Rating change (FIDE)"})
    chart.set_legend({"none": True})
    chart.set_y_axis({"reverse": True})
    chart.set_x_axis({"num_format": "+0;-0;0"})
    chart.set_size({"width": 520, "height": max(300, 22 * lay.size + 80)})
    sheet.insert_chart(lay.first - 1, lay.totals + len(TOTAL_COLUMNS) + 1, chart)


def build_round_robin(path: Path, size: int = ROUND_ROBIN_SIZE,
                      event: RoundRobinEvent | None = None, unknown_games: str = "established",
                      tiebreaks: Sequence[str] | None = None,
                      report: Tournament | None = None) -> Path:
    """Write the round-robin workbook for ``size`` players, filled with ``event`` if given;
    ``unknown_games`` is how a blank Rated games cell is read (:mod:`.fide`); the header
    fields and players of ``report`` fill the Report sheet (:mod:`.report`; its rounds are
    those of a single round robin).

    Cached values of the formulas start empty; :mod:`chessrating.recalc` fills them in.
    """
    if event is not None:
        size = len(event.players)
    if not 2 <= size <= 100:
        raise RatingError(f"size: {size} players; a round robin takes 2 to 100")
    lay = RoundRobinLayout(size)
    book, st = new_workbook(path, "FIDE round robin", "Crosstable with FIDE rating functions")
    sheet = book.add_worksheet(SHEET)
    _write_settings(sheet, book, st, event, unknown_games,
                    FIDE_ROUND_ROBIN_DEFAULTS if tiebreaks is None else tiebreaks)
    _write_players(sheet, lay, st, event)
    _write_grids(sheet, lay, st)
    _validate(sheet, lay)
    sheet.conditional_format(span(lay.first, lay.grid, lay.last, lay.grid_last), {
        "type": "formula", "criteria": _mirror_rule(lay), "format": st.mirror_warning})
    mark_assumed_k(sheet, st, lay.first, lay.last, lay.totals)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, 4, lay.last, 4, fixed=True)}")
    book.define_name("Results", f"={SHEET}!{span(lay.first, lay.grid, lay.last, lay.grid_last, fixed=True)}")
    define_standings(book, STANDINGS_NAMES, lay.first, lay.last, lay.totals, TOTAL_COLUMNS)
    book.define_name("TieBreaks", f"={SHEET}!{_tiebreak_range(lay)}")
    _chart(book, sheet, lay)
    set_fide_widths(sheet, lay.totals)
    sheet.set_column(lay.grid, lay.grid_last, 3.5)
    sheet.set_row(lay.first - 1, TWO_LINES)
    reason_rows(sheet, lay.first, lay.last)
    sheet.freeze_panes(lay.first, 2)
    # The grids below the crosstable (what the formulas read) and the chart stay off paper.
    print_setup(sheet, 0, lay.last, lay.totals + len(TOTAL_COLUMNS) - 1,
                title_rows=(lay.first - 1, lay.first - 1), title_columns=(0, 1))
    print_entered(book, sheet, SHEET, lay.totals + len(TOTAL_COLUMNS) - 1, lay.first, names_marks(lay.first, lay.last))
    sheet.activate()
    write_standings_sheet(book, st, first=lay.first, players=size, header_row=lay.first - 1,
                          columns=fide_columns(lay.totals), points_col=lay.totals)
    write_schedule_sheet(book, st, lay.first, size)
    write_report_sheet(book, st, lay.first, size, size - 1 if size % 2 == 0 else size, report,
                       round_robin=True)
    write_file_ranks_sheet(book, st, lay.first, size, report,
                           FIDE_ROUND_ROBIN_DEFAULTS if tiebreaks is None else tiebreaks, round_robin=True)
    write_how_to_sheet(book, st, "FIDE round robin: how to use", HOW_TO)
    write_conf_sheet(book, st)
    if event is None:  # a template: print what is typed
        follow_entries(book)
    book.close()
    return path

