"""The US Chess event template: one rating per player by the one-pass formula and by the
full two-pass event procedure, side by side.

Sheet ``Crosstable``: settings in row 2 (``DualRated``, ``BonusThreshold``), headers in
rows 3–4, one row per player from row 5: No., Name, Rating (blank: unrated), games rated
so far, age, record (W if every earlier game was won, L if every one was lost), peak
rating; per round the opponent's number and the result; then points, games, N′, K,
bonus, ``USCF_NEWRATING`` (one pass, against the opponents' pre-event ratings) and
``USCF_EVENT`` (the whole event in two passes; each row takes its item of the column the
function returns), the change (two passes − rating), the difference between the two
and the rating floor; the performance (``PERF_RATING``, method ``USCF``) after the games.

Sheet ``Games`` holds what the formulas read: results of the rounds with an opponent
(blanks stay blank; a bye is no game), opponent numbers as checked (a number outside the
list or the player's own shows why instead) and opponent ratings only where a result is
entered, and the points of every round (built-in functions only, every result spelling).
A rating cell that is blank, 0 or ``-`` means no rating. The player columns carry the
names ``chessrating recalc`` reads: ``Names``, ``Points``, ``Performance``,
``RatingChange`` (the Change column) and ``NewRating`` (Two passes, the official one).

:func:`build_uscf` given a tournament (:mod:`chessrating.trf.model`, e.g. read from a TRF
file) sizes the sheet to it and fills names, ratings, opponents and results; the player
with starting number k fills row k.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .layout import (
    CROSSTABLE as SHEET, Styles, cell, checked_opponent, define_standings, game_points,
    new_workbook, no_rating, opponent_rating, print_setup, span, validate_ratings, write_conf_sheet,
    write_how_to_sheet, write_input, write_quiet_formula, write_text_input,
)
from .rounds import (
    GamesBlock, RoundsLayout, set_round_widths, validate_rounds, write_games_sheet,
    write_round_headers, write_round_inputs,
)

if TYPE_CHECKING:
    from ..trf.model import Tournament

__all__ = ["USCF_PLAYERS", "USCF_ROUNDS", "UscfLayout", "build_uscf", "WHY_THEY_DIFFER",
           "STANDINGS_NAMES"]

USCF_PLAYERS = 100
USCF_ROUNDS = 9
PLAYER_HEADERS = ("No.", "Name", "Rating", "Games so far", "Age", "Record", "Peak")
RATING_COL = 2
TOTAL_COLUMNS = ("Points", "Games", "Perf.", "N′", "K", "Bonus", "One pass", "Two passes",
                 "Change", "Difference", "Floor")
# Workbook names of the player columns, read by ``chessrating recalc`` for the standings.
STANDINGS_NAMES = {"Names": "Name", "Points": "Points", "Performance": "Perf.",
                   "RatingChange": "Change", "NewRating": "Two passes"}

WHY_THEY_DIFFER = (
    "Why 'One pass' and 'Two passes' differ: USCF_NEWRATING rates each player against the "
    "opponents' ratings before the event and skips unrated opponents. US Chess rates a "
    "whole event in two passes (USCF_EVENT): unrated players first get an estimate, then "
    "everyone gets an intermediate rating, and the final rating is computed again against "
    "the opponents' intermediate ratings. The official result is 'Two passes'.")

HOW_TO = [
    "1. List the players in pairing-number order (the row number is the player's number): "
    "rating before the event (blank if unrated), games rated so far, age (used only for "
    "unrated players), record (W if every earlier game was won, L if every one was lost, "
    "else blank) and the highest established rating for the floor.",
    "2. For each round enter the opponent's number and the result: 1, ½, 0; + and - for "
    "forfeits, H, B, U, Z for byes (points only, not rated); W, D, L and the other results "
    "of the functions count too. Pick results from the list: a typed 1/2 would become a "
    "date. A red opponent cell is not a player number, or the player's own. A rating of 0 "
    "or - means no rating, like a blank.",
    "3. Set Dual rated to TRUE for a dual-rated event (30 to 65 minutes) and the bonus "
    "multiplier B (10 for events from 2025).",
    WHY_THEY_DIFFER,
    "'Two passes' calls USCF_EVENT, which rates the whole event and returns one rating per "
    "player; each row takes its own with INDEX. In your own sheets one USCF_EVENT call over "
    "the whole table spills the column at once. 'Change' is Two passes minus the rating "
    "before the event; 'Perf.' the US Chess performance rating of the games.",
]


@dataclass(frozen=True)
class UscfLayout(RoundsLayout):
    """Where everything sits for ``players`` × ``rounds`` (zero-based): two columns per
    round (opponent's number, result) after the seven player columns."""

    players: int = USCF_PLAYERS
    rounds: int = USCF_ROUNDS
    rounds_col: int = 7


def _player_formulas(lay: UscfLayout, r: int) -> dict[str, str]:
    read, ids, opp, points = (lay.block_range(i, r) for i in range(4))
    rating, games, age, record, peak = (cell(r, c) for c in range(2, 7))
    unrated = no_rating(rating)
    entered = f'SUMPRODUCT(--({points}<>""))'
    played = f'SUMPRODUCT(--({read}<>""))'
    # A message among the opponent numbers (a bad number) is passed on, so the
    # function's error names it; only an all-empty block keeps the cell quiet.
    none = f'SUMPRODUCT(--({ids}<>""))=0'
    one = cell(r, lay.totals + TOTAL_COLUMNS.index("One pass"))
    two = cell(r, lay.totals + TOTAL_COLUMNS.index("Two passes"))
    return {
        "Points": f'=IF({entered}=0,"",SUM({points}))',
        "Games": f'=IF({entered}=0,"",{played})',
        "Perf.": f'=IF(COUNT({opp})=0,"",PERF_RATING({opp},{read},"USCF"))',
        "N′": f'=IF({unrated},"",USCF_EFFECTIVE_GAMES({rating},{games}))',
        "K": f'=IF(OR({unrated},COUNT({opp})=0),"",USCF_K({rating},{games},COUNT({opp}),DualRated))',
        "Bonus": f'=IF(OR({unrated},COUNT({opp})=0),"",USCF_BONUS({rating},{games},{opp},{read},'
                 f'DualRated,BonusThreshold,{ids}))',
        "One pass": f'=IF({none},"",USCF_NEWRATING({rating},{games},{opp},{read},{age},{record},'
                    f'{peak},DualRated,BonusThreshold,{ids}))',
        "Change": f'=IF({unrated},"",IF(N({two})=0,"",{two}-{rating}))',
        "Difference": f'=IF(OR(N({one})=0,N({two})=0),"",{two}-{one})',
        "Floor": f'=IF({peak}="","",USCF_FLOOR({peak}))',
        "Two passes": _event_formula(lay, r),
    }


def _event_formula(lay: UscfLayout, r: int) -> str:
    """Row ``r``'s post-event rating: its item of USCF_EVENT's column.

    Each row picks its own item with INDEX rather than one array formula over the column:
    viewers that recalculate array formulas on opening (LibreOffice) would show #NAME?
    where the cached values stand. The function remembers its last event, so the rows
    after the first cost a lookup.
    """
    def col(c: int) -> str:
        return span(lay.first, c, lay.last, c, fixed=True)

    results = lay.block_range(0, lay.first, lay.last)
    opponents = lay.block_range(1, lay.first, lay.last)
    return (f'=IF(SUMPRODUCT(--({lay.block_range(1, r)}<>""))=0,"",INDEX(USCF_EVENT({col(2)},{col(3)},{results},'
            f'{opponents},{col(4)},{col(5)},DualRated,BonusThreshold),{r - lay.first + 1}))')


def _write_top(sheet: Worksheet, book: Workbook, st: Styles, lay: UscfLayout, name: str = "") -> None:
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
    sheet.data_validation(1, 6, 1, 6, {"validate": "decimal", "criteria": ">", "value": 0})
    sheet.write_string(1, 8, WHY_THEY_DIFFER, st.note)
    write_round_headers(sheet, lay, st, PLAYER_HEADERS, TOTAL_COLUMNS)


def _write_rows(sheet: Worksheet, lay: UscfLayout, st: Styles,
                tournament: "Tournament | None" = None) -> None:
    by_number = {p.number: p for p in tournament.players} if tournament else {}
    formats = {"Points": st.formula_points, "Games": st.formula_int, "Perf.": st.formula_int,
               "N′": st.formula_two, "K": st.formula_one, "Bonus": st.formula_one,
               "One pass": st.formula_one, "Two passes": st.formula_one,
               "Change": st.formula_signed, "Difference": st.formula_signed,
               "Floor": st.formula_int}
    for i in range(lay.players):
        r = lay.first + i
        p = by_number.get(i + 1)
        sheet.write_number(r, 0, i + 1, st.header)
        write_text_input(sheet, r, 1, p.name if p else "", st.input_text)
        write_input(sheet, r, 2, p.rating if p else None, st.input_int)
        for c in range(3, 5):
            sheet.write_blank(r, c, None, st.input_int)
        sheet.write_blank(r, 5, None, st.input_result)
        sheet.write_blank(r, 6, None, st.input_int)
        write_round_inputs(sheet, lay, st, r, p)
        formulas = _player_formulas(lay, r)
        for offset, name in enumerate(TOTAL_COLUMNS):
            write_quiet_formula(sheet, r, lay.totals + offset, formulas[name], formats[name])


def _games_blocks(st: Styles) -> list[GamesBlock]:
    """The blocks of the Games sheet, in order."""
    return [GamesBlock("Result", 6, st.formula_text), GamesBlock("Opponent no.", 6, st.formula_int),
            GamesBlock("Opponent's rating", 6, st.formula_int), GamesBlock("Points", 6, st.formula_one)]


def _games_formulas(lay: UscfLayout) -> Callable[[int, int], tuple[str, ...]]:
    """Row ``r``'s formulas of round ``rnd`` on the Games sheet, one per block."""
    ratings = f"{SHEET}!{span(lay.first, 2, lay.last, 2, fixed=True)}"

    def formulas(r: int, rnd: int) -> tuple[str, ...]:
        entry = lay.entered(r, rnd)
        ids = cell(r, lay.block(1) + rnd)
        return (
            entry.result_read,
            # The number as checked: a bad one shows why, here and in the rating cells.
            f'=IF({entry.no_game},"",{checked_opponent(entry.opponent, f"{SHEET}!$A{r + 1}", lay.players)})',
            f'=IF({ids}="","",{opponent_rating(ratings, ids)})',
            f"={game_points(entry.result)}",
        )
    return formulas


def build_uscf(path: Path, players: int = USCF_PLAYERS, rounds: int = USCF_ROUNDS,
               tournament: "Tournament | None" = None) -> Path:
    """Write the US Chess event workbook for ``players`` × ``rounds``, filled from ``tournament``.

    A tournament sizes the sheet to its largest starting number and its rounds and fills,
    per player, the name, the rating (as the rating before the event), the opponents'
    numbers and the results (:func:`chessrating.trf.model.cell_result`). Games so far,
    age, record and peak are left blank: a TRF file does not hold them.
    """
    lay = UscfLayout.sized(players, rounds, tournament)
    book, st = new_workbook(path, "US Chess event", "US Chess crosstable: one pass and two passes")
    sheet = book.add_worksheet(SHEET)
    _write_top(sheet, book, st, lay, tournament.name if tournament else "")
    _write_rows(sheet, lay, st, tournament)
    validate_rounds(sheet, lay, st)
    sheet.data_validation(lay.first, 5, lay.last, 5, {"validate": "list", "source": ["W", "L"]})
    validate_ratings(sheet, lay.first, lay.last, RATING_COL)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, RATING_COL, lay.last, RATING_COL, fixed=True)}")
    define_standings(book, STANDINGS_NAMES, lay.first, lay.last, lay.totals, TOTAL_COLUMNS)
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 6, 7.5)
    set_round_widths(sheet, lay)
    sheet.set_column(lay.totals, lay.totals + len(TOTAL_COLUMNS) - 1, 9)
    sheet.freeze_panes(lay.first, 2)
    print_setup(sheet, 0, lay.last, lay.totals + len(TOTAL_COLUMNS) - 1,
                title_rows=(lay.first - 2, lay.first - 1))
    sheet.activate()
    write_games_sheet(book, lay, st, "What the functions read (formulas only)",
                      _games_blocks(st), _games_formulas(lay))
    write_how_to_sheet(book, st, "US Chess event: how to use", HOW_TO)
    write_conf_sheet(book, st)
    book.close()
    return path

