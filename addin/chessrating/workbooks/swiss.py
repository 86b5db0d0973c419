"""The FIDE Swiss template: opponent number, colour and result per round; FIDE totals per player.

Sheet ``Crosstable``: settings in row 2 (``Rules``, ``RatingYear``, ``NormTitle``), headers
in rows 3–4, one row per player from row 5: No., Name, Title, Fed, Rating, rated games,
birth year, peak, K; then for each round three columns (opponent's number, colour W/B,
result); then points, games, expected score, performance, change, new rating, first
rating and norm verdict.

Sheet ``Games`` holds, row for row, what the formulas read, one block per quantity with
one column per round: the result of each round with an opponent (blanks stay blank; a
bye is no game), the opponent's rating found with ``INDEX`` on the player list (only
where an opponent and a result are entered), the expected score and rating change of
each game, the opponent's title and federation for the norm check, the opponent's
number as checked (a message for a number outside the list or the player's own) and
the points of each round (built-in functions only, every result spelling). A round that
contradicts another row or whose opponent number is refused (:mod:`.contradictions`,
docs/RULES.md §1.1, §1.2) holds the reason in place of its points, and neither its
opponent nor its result is read by the ratings and tie-breaks; a colour that is not one
holds its reason, which the row's Check shows. The tie-breaks read the ratings as the
opponents' rows do (a refused one as its reason), and only where a code needs them.
After the blocks, one column per quantity and player: the rating's check, the rating as
the opponents read it, the label the messages name the player by, the row's first reason
among its games (``Reason``) and its note (``Note``: why no first rating, else the note
on an assumed K): each reason is spelled once there, and the totals and Check name that
cell.

Points add up every round, byes included; Games counts the rounds with an opponent and
a result. A rating cell that is blank, 0 or ``-`` means no rating. The player columns
carry the names ``chessrating recalc`` reads: ``Names``, ``Points``, ``Performance``,
``RatingChange``, ``NewRating``, ``InitialRating``. ``NormTitle`` is blank unless given
(**Decision**, as in the round robin): the norm column stays quiet until a title is
picked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..errors import RatingError
from ..how_to import CLASSIC_PAIRING
from .event import NORM_TITLES
from .fide import (
    AFTER_PLAYERS, K_COL, PLAYER_HEADERS, RATING_COL, STANDINGS_NAMES, TIEBREAK_SETTINGS, TOTAL_COLUMNS,
    fide_formats, fide_player_formulas, first_rating_note, k_note_formula, mark_assumed_k, opponent_cell, own_check_formula, row_reason,
    set_fide_widths, validate_fide_players,
    write_fide_player, write_fide_settings,
)
from .check_formulas import CHECK, checked_colour, checked_opponent, game_points, no_rating
from .layout import (
    CROSSTABLE as SHEET, GAMES, SCRIPT_MODULE, UDF_MODULE, Styles, absolute, cell, fixed_column,
    define_standings, new_workbook, print_setup, span, write_conf_sheet, reason_rows, write_how_to_sheet,
    write_quiet_formula,
)
from ..tiebreaks import FIDE_SWISS_DEFAULTS
from .ranking import (
    FIDE_CODES, TIEBREAK_COLUMNS, ranking_formulas, rules_in_force, write_ranking_headers, write_tiebreak_settings,
)
from .contradictions import (
    swiss_label, swiss_paired_twice, swiss_points,
)
from .pairing_settings import write_pairing_settings
from .print_areas import follow_entries, names_marks, print_entered
from .standings import fide_columns, write_standings_sheet
from .pairings_sheet import write_pairings_sheet
from .report import write_report_sheet
from ..pairing.book import ROUND_INPUTS
from .file_ranks import write_file_ranks_sheet
from .rounds import (
    GamesBlock, RoundsLayout, set_round_widths, validate_rounds, write_games_sheet,
    write_round_headers, write_round_inputs, write_unanswered_row,
)

if TYPE_CHECKING:
    from ..tournament import Tournament

__all__ = ["SWISS_PLAYERS", "SWISS_ROUNDS", "SwissLayout", "build_swiss", "STANDINGS_NAMES",
           "PAIR_BUTTON", "PAIR_BUTTON_CELL", "CLASSIC_PAIRING"]

# Starting number -> (rated games, peak rating): the K inputs a TRF file does not carry.
KInputs = Mapping[int, "tuple[int | None, int | None]"]

SWISS_PLAYERS = 200
SWISS_ROUNDS = 11
# The sheet button of xlwings Lite's "Pair next round" (chessrating.scripts): a shape of
# this name over the cell its link selects, row 1 beside the heading.
PAIR_BUTTON = "PairNextRound"
PAIR_BUTTON_CELL = (0, 4)  # E1, zero-based

HOW_TO = [
    "1. Fill the player list in starting-number order: the row number is the player's number. "
    "A rating is a whole number from 100 to 4000 (blank, 0 or - for an unrated player); K "
    "comes from rated games, birth year and peak, or from 'K list' (K as the FIDE list gives "
    "it), which overrides the computed K. Rated games left blank are read as the setting "
    "'Rated games unknown' says (established: 30 games; new: 0); such rows are orange and "
    "their Check cell says so.",
    "2. For each round enter the opponent's number, the colour (W or B; White and Black too) and the result: 1, ½, "
    "0, + (forfeit win), - (forfeit loss), H (half-point bye), B (full-point bye), U "
    "(pairing-allocated bye), Z (zero-point bye); W, D, L and the other results of the "
    "functions count too. Pick results from the list: a typed 1/2 would become a date. Byes "
    "have no opponent. A red opponent cell is not a player number, or the player's own.",
    "3. The opponent's rating is looked up from the player list; a game counts for rating "
    "only when it has an opponent and a result (1, ½ or 0) and the opponent is rated. A "
    "rating of 0 or - means no rating, like a blank. Points add up every round, byes "
    "included; Games counts the rounds with an opponent.",
    CLASSIC_PAIRING,
    "4. Pick a title (GM, IM, WGM, WIM) in 'Norm' at the top for each player's title-norm "
    "verdict; the column stays empty until then.",
    "Check (last column): why a player's rating is refused, or the note on an assumed K. Rows "
    "that met that player say 'check rating of player N (Name)'; a result, an opponent "
    "number or a colour that is not one says 'check result of round N', 'check opponent in "
    "round N' or 'check colour of round N'; only the rows named stop, the others keep their "
    "numbers, tie-breaks and ranks. "
    "A round that contradicts another row (two winners, a result without an opponent, two "
    "rows that disagree about a pairing, a player paired twice) stops the numbers of the "
    "players it names: 'check round N: …'. Any note on an assumed K follows the problem.",
    "5. The 'Games' sheet shows each game's expected score and rating change and what the "
    "formulas read. It is all formulas: leave it alone.",
    "6. The 'Report' sheet holds what the FIDE rating report needs beyond the crosstable: "
    "city, federation, dates, arbiters, time control, round dates, and each player's FIDE "
    "ID, sex and birth date. 'chessrating fide-list LIST --fill' fills the players with a "
    "FIDE ID from the FIDE list; 'chessrating export-trf' writes the report (TRF) and lists "
    "what a rating officer would return.",
    "7. Pairing (FIDE Dutch system, by gacrux, FIDE's own engine): save the workbook and run "
    "'chessrating pair event.xlsx'; it writes each player's opponent and colour into the next "
    "round's columns (U in the result cell for the pairing-allocated bye) and prints the list "
    "by board. Before pairing: a bye asked for is H, B or Z in the round's result cell with no "
    "opponent; on the Report sheet, 'Joins in round' for a late entry, 'Withdrawn after round' "
    "for a withdrawal, and the pairing settings (rounds planned, top board's colour in round 1, "
    "Baku acceleration, most meetings). A round is refused while a round before has a game "
    "without a result or a Check cell gives a reason. 'chessrating check-pairings event.xlsx' "
    "re-pairs every round and lists those that differ.",
    "8. The 'Pairings' sheet shows one round's boards in FIDE's board order (higher score, "
    "then higher sum of scores, then lower number), the byes and absent players after them: "
    "the latest round with a pairing entered, or the round typed in 'Round to show'. Print it "
    "to pin up.",
]


@dataclass(frozen=True)
class SwissLayout(RoundsLayout):
    """Where everything sits for ``players`` × ``rounds`` (zero-based): three columns per
    round (opponent's number, colour, result) after the nine player columns."""

    round_headers: ClassVar[tuple[str, ...]] = ("Opp", "Col", "Res")
    rounds_col: int = AFTER_PLAYERS


def _games_blocks(st: Styles) -> list[GamesBlock]:
    """The blocks of the Games sheet, in order."""
    return [GamesBlock("Result", 6.5, st.formula_text),
            GamesBlock("Opponent's rating", 6.5, st.formula_int),
            GamesBlock("Expected score", 6.5, st.formula_two),
            GamesBlock("Rating change", 6.5, st.formula_signed),
            GamesBlock("Opponent's title", 5, st.formula_text),
            GamesBlock("Opponent's federation", 5, st.formula_text),
            # the opponent's number as the ratings and tie-breaks read it: blank where
            # the round contradicts another row (the row shows why)
            GamesBlock("Opponent no.", 5, st.formula_int),
            GamesBlock("Points", 5, st.formula_one),
            # What the tie-breaks read with the opponent numbers: each round's result as
            # entered, byes and forfeits included (blank where contradicted), and the colour
            # (or why it is not one, which the row's Check shows).
            GamesBlock("Round result", 4, st.formula_text),
            GamesBlock("Colour", 3.5, st.formula_text),
            # Each round's points read from its result alone; the Points block holds them
            # unless the round contradicts another row (.contradictions.swiss_points).
            GamesBlock("Points as entered", 5, st.formula_one),
            # Why a player named by two rows in a round cannot be rated (else blank).
            GamesBlock("Paired twice", 5, st.formula_text),
            # The opponent's number as entered and checked (a message for a number outside
            # the list or the player's own), which the contradiction checks read; below
            # the players, per round, how many players are named more often than they
            # name (.contradictions.swiss_unanswered): 0 skips every search of the column.
            GamesBlock("Opponent as entered", 5, st.formula_int)]


_OPPONENTS, _POINTS, _ROUND_RESULT, _COLOUR, _ENTERED, _TWICE, _AS_ENTERED = range(6, 13)
_BLOCKS = 13


def _player_formulas(lay: SwissLayout, r: int) -> dict[str, str]:
    read, opp, points = lay.block_range(0, r), lay.block_range(1, r), lay.block_range(_POINTS, r)
    formulas = fide_player_formulas(
        r, opp=opp, read=read, expected=lay.block_range(2, r), points=points,
        entered=f'SUMPRODUCT(--({points}<>""))', played=f'SUMPRODUCT(--({read}<>""))',
        # A message in the opponents' ratings (a bad opponent number) is passed on, so the
        # function's error names it; only an all-empty block keeps the cell quiet.
        none=f'SUMPRODUCT(--({opp}<>""))=0',
        titles=lay.block_range(4, r), feds=lay.block_range(5, r),
        own_check=f"{GAMES}!{cell(r, _own_check_col(lay))}", inputs=[lay.block_range(_COLOUR, r)],
        # the Games sheet's Note says why no first rating (k_note): not spelled again here
        reason=f"{GAMES}!{cell(r, _reason_col(lay))}", k_note=f"{GAMES}!{cell(r, _reason_col(lay) + 1)}")

    def block(index: int) -> str:
        start = lay.block(index)
        return f"{GAMES}!{span(lay.first, start, lay.last, start + lay.rounds - 1, fixed=True)}"

    def total(name: str, count: int = 1) -> str:
        col = lay.totals + TOTAL_COLUMNS.index(name)
        return span(lay.first, col, lay.last, col + count - 1, fixed=True)

    # the ratings as the opponents' rows read them: a refused one is its reason, which
    # TIEBREAK shows in the rating-based values resting on it (the others never read it)
    read_col = _read_rating_col(lay)
    ratings = f"{GAMES}!{span(lay.first, read_col, lay.last, read_col, fixed=True)}"
    ranking = ranking_formulas(
        r, lay.first, points=total("Points"), tiebreaks=total(TIEBREAK_COLUMNS[0], len(TIEBREAK_COLUMNS)),
        event=f"{block(_OPPONENTS)},{block(_ROUND_RESULT)},{block(_COLOUR)},TieBreakRules,{ratings}",
        codes_at=TIEBREAK_SETTINGS)
    # (a contradiction in the row's rounds: its rank and tie-breaks show the reason)
    return {**formulas, **ranking}


def _own_check_col(lay: SwissLayout) -> int:
    """Games sheet: the column of the helper cells that say why a rating is refused
    (:func:`own_check_formula`), after the blocks."""
    return lay.block(_BLOCKS)


def _write_players(sheet: Worksheet, lay: SwissLayout, st: Styles,
                   tournament: "Tournament | None", k_inputs: KInputs) -> None:
    by_number = {p.number: p for p in tournament.players} if tournament else {}
    cells = tournament.round_cells() if tournament else None
    formats = fide_formats(st)
    for i in range(lay.players):
        r = lay.first + i
        p = by_number.get(i + 1)
        formulas = _player_formulas(lay, r)
        # The K inputs a TRF file lacks come from ``k_inputs``, the rest from the player.
        write_fide_player(sheet, st, r, i + 1, p, formulas["K"], k_inputs.get(i + 1, (None, None)))
        write_round_inputs(sheet, lay, st, r, cells)
        for offset, name in enumerate(TOTAL_COLUMNS):
            write_quiet_formula(sheet, r, lay.totals + offset, formulas[name], formats[name])


def _games_formulas(lay: SwissLayout) -> Callable[[int, int], tuple[str, ...]]:
    """Row ``r``'s formulas of round ``rnd`` on the Games sheet, one per block."""
    def column_of(col: int) -> str:
        return f"{SHEET}!{span(lay.first, col, lay.last, col, fixed=True)}"

    titles, feds = column_of(2), column_of(3)
    numbers = span(lay.first, 0, lay.last, 0, fixed=True)  # the Games sheet's own No. column
    label_col = _label_col(lay)
    labels = span(lay.first, label_col, lay.last, label_col, fixed=True)

    def round_column(index: int, rnd: int) -> str:
        col = lay.block(index) + rnd
        return span(lay.first, col, lay.last, col, fixed=True)

    def unanswered(rnd: int) -> str:
        """The round's count of players named more often than they name, in the row
        below the players (:func:`_write_round_checks`)."""
        return absolute(lay.last + 1, lay.block(_AS_ENTERED) + rnd)
    read_col = _read_rating_col(lay)
    read_ratings = span(lay.first, read_col, lay.last, read_col, fixed=True)

    def formulas(r: int, rnd: int) -> tuple[str, ...]:
        rating, k = f"{SHEET}!{fixed_column(r, RATING_COL)}", f"{SHEET}!{fixed_column(r, K_COL)}"
        entry = lay.entered(r, rnd)
        own, own_label = f"$A{r + 1}", cell(r, label_col)  # the Games sheet's No. and label
        colour = f"{SHEET}!{cell(r, lay.colour(rnd))}"
        read = cell(r, lay.block(0) + rnd)
        opp = cell(r, lay.block(1) + rnd)
        change = cell(r, lay.block(3) + rnd)
        checked = cell(r, lay.block(_OPPONENTS) + rnd)
        as_entered = cell(r, lay.block(_AS_ENTERED) + rnd)
        points = cell(r, lay.block(_POINTS) + rnd)
        # A contradicted round is no game for the ratings and the tie-breaks: they read
        # neither its opponent nor its result (the row shows the reason instead).
        # A result that is not one is left out of its own row only: the opponent's entry,
        # if any, stands for the game in the tie-breaks, as in the opponent's points.
        contradicted = f'LEFT({points},{len(CHECK)})="{CHECK}"'

        found = f"INDEX({read_ratings},{checked})"
        # A result that is not one, a bad opponent number or an opponent whose rating is
        # refused shows its message in the game's cells instead of a change.
        message = (f'IF(LEFT({points},{len(CHECK)})="{CHECK}",{points},'
                   f'IF(LEFT({opp},{len(CHECK)})="{CHECK}",{opp},')
        return (
            entry.result_read,
            # A bad opponent number shows its message here and in the functions' cells.
            f'=IF({entry.no_game},"",IF(ISNUMBER({checked}),{found},{checked}))',
            # Only rated games have an expected score: forfeits and byes give no change.
            f'=IF(ISNUMBER({change}),FIDE_EXPECTED({rating},{opp},Rules),'
            f'IFERROR(IF(LEFT({change},{len(CHECK)})="{CHECK}",{change},""),""))',
            f'={message}IF(OR({no_rating(rating)},{opp}=""),"",'
            f'FIDE_CHANGE({rating},{opp},{read},{k},Rules))))',
            f'=IF(OR({entry.no_game},NOT(ISNUMBER({checked}))),"",INDEX({titles},{checked})&"")',
            f'=IF(OR({entry.no_game},NOT(ISNUMBER({checked}))),"",INDEX({feds},{checked})&"")',
            f'=IF({contradicted},"",{as_entered})',
            "=" + swiss_points(rnd=rnd + 1, own=own, own_label=own_label, points=cell(r, lay.block(_ENTERED) + rnd),
                               opponent=as_entered, result=entry.result,
                               opponents=round_column(_AS_ENTERED, rnd), results=column_of(lay.result(rnd)),
                               all_points=round_column(_ENTERED, rnd), labels=labels,
                               twice=cell(r, lay.block(_TWICE) + rnd), all_twice=round_column(_TWICE, rnd),
                               unanswered=unanswered(rnd)),
            f'=IF(OR({entry.result}="",{contradicted}),"",{entry.result})',
            f"={checked_colour(colour, rnd + 1)}",
            f"={game_points(entry.result, f'of round {rnd + 1}')}",
            "=" + swiss_paired_twice(rnd=rnd + 1, own=own, own_label=own_label, opponents=round_column(_AS_ENTERED, rnd),
                                     labels=labels, numbers=numbers, unanswered=unanswered(rnd)),
            f"={checked_opponent(entry.opponent, own, lay.players, rnd + 1)}",
        )
    return formulas


def _read_rating_col(lay: SwissLayout) -> int:
    """Games sheet: the column of each player's rating as the opponents' rows read it
    (:func:`opponent_cell`), after the rating checks."""
    return _own_check_col(lay) + 1


def _write_round_checks(book: Workbook, lay: SwissLayout, st: Styles) -> None:
    """Below the players, under each round's checked opponent numbers, how many players
    are named more often than they name (0 in a round where no one is paired twice and
    no row names a player whose row names no one)."""
    write_unanswered_row(book.get_worksheet_by_name(GAMES), lay, lay.block(_AS_ENTERED), st)


def _label_col(lay: SwissLayout) -> int:
    """Games sheet: the column of each player's label, ``player 3 (Name)``, which the
    messages of contradicting rounds look up (:func:`.contradictions.swiss_label`)."""
    return _read_rating_col(lay) + 1


def _reason_col(lay: SwissLayout) -> int:
    """Games sheet: the column of each row's first reason among its games
    (:func:`.fide.row_reason`), then of its note on an assumed K, which the totals and
    Check name."""
    return _label_col(lay) + 1


def _write_own_checks(book: Workbook, lay: SwissLayout, st: Styles) -> None:
    """The Games sheet's columns of rating checks, one per player (shown first in the
    player's Check cell), and of the rating as the player's opponents read it: the
    rating, ``""`` for none, or ``check rating of player N (Name)`` where it is refused.
    Each opponent's row looks it up with one INDEX."""
    sheet = book.get_worksheet_by_name(GAMES)
    col, read_col = _own_check_col(lay), _read_rating_col(lay)
    sheet.merge_range(lay.first - 2, col, lay.first - 1, col, "Rating check", st.header)
    sheet.merge_range(lay.first - 2, read_col, lay.first - 1, read_col, "Rating as read", st.header)
    sheet.merge_range(lay.first - 2, _label_col(lay), lay.first - 1, _label_col(lay), "Player", st.header)
    for i in range(lay.players):
        r = lay.first + i
        write_quiet_formula(sheet, r, col, f"={own_check_formula(r, SHEET)}", st.read_ok)
        found = opponent_cell(f"{SHEET}!{cell(r, RATING_COL)}", fixed_column(r, 0), f"{SHEET}!{cell(r, 1)}",
                              cell(r, col))
        write_quiet_formula(sheet, r, read_col, f"={found}", st.formula_text)
        write_quiet_formula(sheet, r, _label_col(lay),
                            f"={swiss_label(f'{SHEET}!{cell(r, 1)}')}", st.formula_text)
    sheet.set_column(col, col, 30)
    sheet.set_column(read_col, read_col, 30)
    reason_col = _reason_col(lay)
    sheet.merge_range(lay.first - 2, reason_col, lay.first - 1, reason_col, "Reason", st.header)
    sheet.merge_range(lay.first - 2, reason_col + 1, lay.first - 1, reason_col + 1, "Note", st.header)
    for i in range(lay.players):
        r = lay.first + i
        reason = row_reason([cell(r, lay.block(_POINTS)) + ":" + cell(r, lay.block(_POINTS) + lay.rounds - 1),
                             cell(r, lay.block(1)) + ":" + cell(r, lay.block(1) + lay.rounds - 1)])
        write_quiet_formula(sheet, r, reason_col, f"={reason}", st.formula_text)
        first_rating = f"{SHEET}!{cell(r, lay.totals + TOTAL_COLUMNS.index('First rating'))}"
        write_quiet_formula(sheet, r, reason_col + 1,
                            f"={first_rating_note(first_rating, k_note_formula(r, SHEET))}", st.formula_text)
    sheet.set_column(reason_col, reason_col + 1, 30)


def _pair_button(sheet: Worksheet) -> None:
    """The sheet button "Pair next round" as xlwings Lite documents one: a named shape
    whose link selects the cell hidden behind it (E1, under the shape from D1 to G1);
    Lite runs the script when that cell is selected. Without Lite the link only selects
    the cell. It is left off the printed crosstable."""
    row, col = PAIR_BUTTON_CELL
    # Row 1 a little taller (20 points) for the button's text at the sheet's 11 points, the
    # size the print scale keeps legible (LibreOffice prints shapes whatever the file says).
    sheet.set_row(row, 20)
    sheet.insert_textbox(row, col - 1, "Pair next round", {
        "name": PAIR_BUTTON, "width": 150, "height": 26,
        "url": f"internal:{SHEET}!{cell(row, col)}",
        "tip": "xlwings Lite: pair the next round (classic add-in: Alt+F8, pair_next_round)",
        "font": {"bold": True, "color": "white", "size": 11},
        "fill": {"color": "#2F5597"}, "line": {"color": "#1F3864"},
        "align": {"vertical": "middle", "horizontal": "center"}, "print": False})


def _chart(book: Workbook, sheet: Worksheet, lay: SwissLayout) -> None:
    shown = min(lay.players, 40)
    change = lay.totals + TOTAL_COLUMNS.index("Change")
    chart = book.add_chart({"type": "bar"})
    chart.add_series({
        "name": "Rating change",
        "categories": [SHEET, lay.first, 1, lay.first + shown - 1, 1],
        "values": [SHEET, lay.first, change, lay.first + shown - 1, change],
        "fill": {"color": "#4472C4"},
    })
    chart.set_title({"name": f"Rating change (FIDE), players 1-{shown}"})
    chart.set_legend({"none": True})
    chart.set_y_axis({"reverse": True})
    chart.set_size({"width": 520, "height": max(300, 18 * shown + 80)})
    sheet.insert_chart(lay.first - 2, lay.totals + len(TOTAL_COLUMNS) + 1, chart)


def build_swiss(path: Path, players: int = SWISS_PLAYERS, rounds: int = SWISS_ROUNDS,
                tournament: "Tournament | None" = None, k_inputs: KInputs | None = None,
                norm_title: str = "", unknown_games: str = "established",
                tiebreaks: Sequence[str] | None = None) -> Path:
    """Write the Swiss workbook, sized ``players`` × ``rounds``, filled from ``tournament``.

    A tournament's player with starting number k fills row k; the size grows to the
    largest starting number and the number of rounds of the event. ``k_inputs`` maps a
    starting number to the K inputs a TRF file lacks: (rated games, peak rating).
    ``norm_title`` fills the Norm cell (blank: no norm verdicts until one is picked);
    ``unknown_games`` is how a blank Rated games cell is read (:mod:`.fide`).
    """
    if norm_title not in NORM_TITLES:
        raise RatingError(f"norm_title: {norm_title!r} is not one of "
                          f"{', '.join(t for t in NORM_TITLES if t)} or blank")
    lay = SwissLayout.sized(players, rounds, tournament)
    book, st = new_workbook(path, "FIDE Swiss", "Swiss crosstable with FIDE rating functions")
    sheet = book.add_worksheet(SHEET)
    write_fide_settings(sheet, book, st, "FIDE Swiss", tournament.name if tournament else "",
                        tournament.start_date.year if tournament and tournament.start_date else None,
                        norm_title, unknown_games)
    write_tiebreak_settings(sheet, book, st, *TIEBREAK_SETTINGS, FIDE_SWISS_DEFAULTS if tiebreaks is None else tiebreaks,
                            FIDE_CODES, rules_in_force(tournament.start_date if tournament else None))
    write_round_headers(sheet, lay, st, PLAYER_HEADERS, TOTAL_COLUMNS)
    write_ranking_headers(sheet, st, lay.first - 2, lay.totals + TOTAL_COLUMNS.index("Rank"))
    _write_players(sheet, lay, st, tournament, k_inputs or {})
    validate_rounds(sheet, lay, st, result_title="Result")
    validate_fide_players(sheet, lay.first, lay.last)
    mark_assumed_k(sheet, st, lay.first, lay.last, lay.totals)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, RATING_COL, lay.last, RATING_COL, fixed=True)}")
    # the round columns as a whole, which chessrating pair reads and writes
    book.define_name(ROUND_INPUTS, f"={SHEET}!{span(lay.first, lay.opp(0), lay.last, lay.result(lay.rounds - 1), fixed=True)}")
    define_standings(book, STANDINGS_NAMES, lay.first, lay.last, lay.totals, TOTAL_COLUMNS)
    tb_first = lay.totals + TOTAL_COLUMNS.index(TIEBREAK_COLUMNS[0])
    book.define_name("TieBreaks", f"={SHEET}!{span(lay.first, tb_first, lay.last, tb_first + len(TIEBREAK_COLUMNS) - 1, fixed=True)}")
    _chart(book, sheet, lay)
    _pair_button(sheet)
    set_fide_widths(sheet, lay.totals)
    set_round_widths(sheet, lay)
    reason_rows(sheet, lay.first, lay.last)
    sheet.freeze_panes(lay.first, 2)
    print_setup(sheet, 0, lay.last, lay.totals + len(TOTAL_COLUMNS) - 1,
                title_rows=(lay.first - 2, lay.first - 1), title_columns=(0, 1))
    print_entered(book, sheet, SHEET, lay.totals + len(TOTAL_COLUMNS) - 1, lay.first, names_marks(lay.first, lay.last))
    sheet.activate()
    write_standings_sheet(book, st, first=lay.first, players=lay.players, header_row=lay.first - 2,
                          columns=fide_columns(lay.totals), points_col=lay.totals)
    write_pairings_sheet(book, st, lay, points_col=lay.block(_ENTERED))
    write_games_sheet(book, lay, st, "Per game: what the functions read, and each game's "
                      "expected score and rating change (formulas only)",
                      _games_blocks(st), _games_formulas(lay))
    _write_own_checks(book, lay, st)
    _write_round_checks(book, lay, st)
    write_report_sheet(book, st, lay.first, lay.players, lay.rounds, tournament, columns=7)
    write_pairing_settings(book, st, lay.players, lay.rounds, tournament)
    write_file_ranks_sheet(book, st, lay.first, lay.players, tournament,
                           FIDE_SWISS_DEFAULTS if tiebreaks is None else tiebreaks, round_robin=False)
    write_how_to_sheet(book, st, "FIDE Swiss: how to use", HOW_TO)
    write_conf_sheet(book, st, modules=f"{UDF_MODULE};{SCRIPT_MODULE}")
    if tournament is None:  # a template: print what is typed
        follow_entries(book)
    book.close()
    return path
