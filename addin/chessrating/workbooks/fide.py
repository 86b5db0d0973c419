"""The FIDE player columns the round-robin and the Swiss templates share.

Row 2 of the ``Crosstable`` sheet holds the settings with workbook names: ``Rules``
("2025"/"2024"), ``RatingYear`` (year for K; blank = this year) and ``NormTitle``. Each
player row starts No., Name, Title, Fed, Rating, the K inputs (rated games, birth year,
peak) and K = ``FIDE_K``, and ends, after the games, with the same totals: points,
games, expected score, ``PERF_RATING``, ``FIDE_CHANGE``, ``FIDE_NEWRATING``,
``FIDE_INITIAL`` (unrated players) and the ``FIDE_NORM`` verdict for ``NormTitle``.
A rating cell that is blank, 0 or ``-`` means no rating.

>>> formulas = fide_player_formulas(4, opp="O5:Q5", read="R5:T5", expected="E5:G5",
...     points="P5:S5", entered="COUNTA(J5:L5)", played="COUNTA(J5:L5)", none="COUNT(O5:Q5)=0",
...     titles="$C$5:$C$7", feds="$D$5:$D$7")
>>> formulas["Change"]
'=IF(OR(OR(E5="",E5=0,E5="-"),COUNT(O5:Q5)=0),"",FIDE_CHANGE(E5,O5:Q5,R5:T5,I5,Rules))'
>>> list(formulas) == ["K", *TOTAL_COLUMNS]
True
"""

from __future__ import annotations

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .event import EventPlayer
from .layout import (
    CROSSTABLE, Styles, cell, no_rating, write_input, write_quiet_formula, write_text_input,
)

__all__ = ["PLAYER_HEADERS", "TOTAL_COLUMNS", "STANDINGS_NAMES", "RATING_COL", "K_COL",
           "write_fide_settings", "write_fide_player", "fide_player_formulas", "fide_formats",
           "set_fide_widths"]

PLAYER_HEADERS = ("No.", "Name", "Title", "Fed", "Rating", "Rated games", "Birth year", "Peak", "K")
TITLE_COL, FED_COL, RATING_COL, K_COL = 2, 3, 4, 8
TOTAL_COLUMNS = ("Points", "Games", "Expected", "Perf. (TPR)", "Change", "New rating",
                 "First rating", "Norm")
# Workbook names of the player columns, read by ``chessrating recalc`` for the standings.
STANDINGS_NAMES = {"Names": "Name", "Points": "Points", "Performance": "Perf. (TPR)",
                   "RatingChange": "Change", "NewRating": "New rating", "InitialRating": "First rating"}


def write_fide_settings(sheet: Worksheet, book: Workbook, st: Styles, heading: str,
                        event_name: str, year: int | None, norm_title: str) -> None:
    """Rows 1-2: the heading, the event's name and the settings with their workbook names."""
    sheet.write_string(0, 0, heading, st.title)
    sheet.write_string(1, 0, "Event", st.label)
    write_text_input(sheet, 1, 1, event_name, st.input_text)
    sheet.write_string(1, 3, "Rules", st.label)
    sheet.write_string(1, 4, "2025", st.input_result)
    sheet.write_string(1, 5, "Year (K)", st.label)
    write_input(sheet, 1, 6, year, st.input_int)
    sheet.write_string(1, 7, "Norm", st.label)
    write_text_input(sheet, 1, 8, norm_title, st.input_result)
    book.define_name("Rules", f"={CROSSTABLE}!$E$2")
    book.define_name("RatingYear", f"={CROSSTABLE}!$G$2")
    book.define_name("NormTitle", f"={CROSSTABLE}!$I$2")
    sheet.data_validation(1, 4, 1, 4, {"validate": "list", "source": ["2025", "2024"]})
    sheet.data_validation(1, 6, 1, 6, {"validate": "integer", "criteria": "between",
                                       "minimum": 1950, "maximum": 2200})
    sheet.data_validation(1, 8, 1, 8, {"validate": "list", "source": ["GM", "IM", "WGM", "WIM"]})


def write_fide_player(sheet: Worksheet, st: Styles, r: int, number: int,
                      player: EventPlayer | None, k_formula: str) -> None:
    """Row ``r``'s player columns: the number, the player's inputs and the K formula."""
    sheet.write_number(r, 0, number, st.header)
    write_text_input(sheet, r, 1, player.name if player else "", st.input_text)
    write_text_input(sheet, r, TITLE_COL, player.title if player else "", st.input_result)
    write_text_input(sheet, r, FED_COL, player.federation if player else "", st.input_result)
    write_input(sheet, r, RATING_COL, player.rating if player else None, st.input_int)
    write_input(sheet, r, 5, player.rated_games if player else None, st.input_int)
    write_input(sheet, r, 6, player.birth_year if player else None, st.input_int)
    write_input(sheet, r, 7, player.peak_rating if player else None, st.input_int)
    write_quiet_formula(sheet, r, K_COL, k_formula, st.formula_int)


def fide_player_formulas(r: int, *, opp: str, read: str, expected: str, points: str,
                         entered: str, played: str, none: str, titles: str,
                         feds: str) -> dict[str, str]:
    """Row ``r``'s K and total formulas, by column header.

    The ranges of the row's games: ``opp`` the opponents' ratings and ``read`` the
    results as the functions read them, ``expected`` the expected scores, ``points``
    the points per game; ``titles`` and ``feds`` the player list's title and federation
    columns. Counts: ``entered`` (0 while no result is entered: the totals stay quiet),
    ``played`` (the games), and ``none`` is TRUE while no game has an opponent.
    """
    rating, k, fed = cell(r, RATING_COL), cell(r, K_COL), cell(r, FED_COL)
    unrated = no_rating(rating)
    return {
        "K": f'=IF({unrated},"",FIDE_K({rating},{cell(r, 5)},{cell(r, 6)},RatingYear,'
             f'{cell(r, 7)},COUNT({opp})))',
        "Points": f'=IF({entered}=0,"",SUM({points}))',
        "Games": f'=IF({entered}=0,"",{played})',
        "Expected": f'=IF(COUNT({expected})=0,"",SUM({expected}))',
        "Perf. (TPR)": f'=IF({none},"",PERF_RATING({opp},{read},"FIDE"))',
        "Change": f'=IF(OR({unrated},{none}),"",FIDE_CHANGE({rating},{opp},{read},{k},Rules))',
        "New rating": f'=IF(OR({unrated},{none}),"",FIDE_NEWRATING({rating},{opp},{read},{k},Rules))',
        "First rating": f'=IF(AND({unrated},NOT({none})),FIDE_INITIAL({opp},{read}),"")',
        "Norm": f'=IF(OR(NormTitle="",{played}=0),"",'
                f'FIDE_NORM({opp},{read},NormTitle,{titles},{feds},{fed}))',
    }


def fide_formats(st: Styles) -> dict[str, Format]:
    """The number format of each total column, by header."""
    return {"Points": st.formula_points, "Games": st.formula_int,
            "Expected": st.formula_two, "Perf. (TPR)": st.formula_int,
            "Change": st.formula_signed, "New rating": st.formula_int,
            "First rating": st.formula_int, "Norm": st.formula_text}


def set_fide_widths(sheet: Worksheet, totals: int) -> None:
    """Widths of the player columns and of the totals from column ``totals``."""
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 3, 5.5)
    sheet.set_column(4, 7, 7.5)
    sheet.set_column(8, 8, 4.5)
    sheet.set_column(totals, totals + 6, 8)
    sheet.set_column(totals + 7, totals + 7, 34)
