"""The FIDE player columns the round-robin and the Swiss templates share.

Row 2 of the ``Crosstable`` sheet holds the settings with workbook names: ``Rules``
("2025"/"2024"), ``RatingYear`` (year for K; blank = this year) and ``NormTitle``. Each
player row starts No., Name, Title, Fed, Rating, the K inputs (rated games, birth year,
peak), K list (K as the FIDE list gives it, which overrides the computed one; written by
``chessrating fide-list LIST --fill``) and K
(``FIDE_K`` unless K list is filled), and ends, after the games, with the same totals:
points, games, expected score, ``PERF_RATING``, ``FIDE_CHANGE``, ``FIDE_NEWRATING``,
``FIDE_INITIAL`` (unrated players), the ``FIDE_NORM`` verdict for ``NormTitle`` and
Check: why the player's rating is refused, or the note that K rests on an assumption.
A rating cell that is blank, 0 or ``-`` means no rating.

**Decision** (rated games unknown): a blank Rated games cell of a rated player is read
as the setting ``UnknownGames`` says, ``established`` (30 games; K then follows the
rating, the peak and the birth year) by default or ``new`` (0 games). Either way K, the
change and the new rating of that row are marked as assumed and Check says so, until
K list or Rated games is filled.

An opponent whose rating the functions refuse is not passed on as a number: the rows
that meet that opponent show ``check rating of player N (Name)`` (the opponent's own row
says what is wrong), and a result that is not one shows ``check result …``.

>>> formulas = fide_player_formulas(4, opp="O5:Q5", read="R5:T5", expected="E5:G5",
...     points="P5:S5", entered="COUNTA(J5:L5)", played="COUNTA(J5:L5)", none="COUNT(O5:Q5)=0",
...     titles="$C$5:$C$7", feds="$D$5:$D$7")
>>> formulas["Change"].startswith('=IF(OR(E5="",E5=0,E5="-"),"",IF(ISNA(MATCH("check *",P5:S5,0)),')
True
>>> formulas["Change"].endswith('IF(COUNT(O5:Q5)=0,"",IF(IFERROR(AND(ISTEXT(J5),J5<>"",LEFT(J5,9)<>"assumed: ",'
...     'LEFT(J5,6)<>"check "),TRUE),J5,FIDE_CHANGE(E5,O5:Q5,R5:T5,J5,Rules))),'
...     'INDEX(O5:Q5,MATCH("check *",O5:Q5,0))),INDEX(P5:S5,MATCH("check *",P5:S5,0))))')
True
>>> list(formulas) == ["K", *(c for c in TOTAL_COLUMNS if c not in RANKING_COLUMNS)]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .. import checks
from ..tournament import Player
from .ranking import RANKING_COLUMNS, ranking_formats
from .check_formulas import ASSUMED, CHECK, check_player, first_check, no_rating, refused
from .layout import (
    CROSSTABLE, Styles, cell, column, validate_ratings, validate_range, write_input, write_quiet_formula,
    write_text_input,
)

__all__ = ["TIEBREAK_SETTINGS",
           "PLAYER_HEADERS", "TOTAL_COLUMNS", "STANDINGS_NAMES", "RATING_COL", "K_COL", "K_LIST_COL",
           "AFTER_PLAYERS", "ESTABLISHED_GAMES", "UNKNOWN_GAMES_CHOICES", "mark_assumed_k",
           "validate_fide_players", "own_check_formula", "k_assumed", "k_note_formula", "first_rating_note", "row_reason",
           "opponent_cell",
           "write_fide_settings", "write_fide_player", "fide_player_formulas", "fide_formats",
           "set_fide_widths"]

PLAYER_HEADERS = ("No.", "Name", "Title", "Fed", "Rating", "Rated games", "Birth year", "Peak",
                  "K list", "K")
TITLE_COL, FED_COL, RATING_COL, GAMES_COL, BIRTH_COL, PEAK_COL, K_LIST_COL, K_COL = range(2, 10)
# The first column after the player columns (the results grid, or the rounds).
AFTER_PLAYERS = len(PLAYER_HEADERS)
# Where the tie-break codes are picked: row 1, from column K (:func:`.ranking.write_tiebreak_settings`).
TIEBREAK_SETTINGS = (0, 10)
# Rank and the tie-breaks (:mod:`.ranking`) stand after the rating totals; Check stays last.
TOTAL_COLUMNS = ("Points", "Games", "Expected", "Perf. (TPR)", "Change", "New rating",
                 "First rating", "Norm", *RANKING_COLUMNS, "Check")
# Rated games written for a player whose count is unknown, in the default reading
# ("established"): the 30 games of §8.3.3 after which K no longer is 40 for that reason.
ESTABLISHED_GAMES = 30
UNKNOWN_GAMES_CHOICES = ("established", "new")
# Totals that rest on K, marked while K rests on an assumption.
RESTS_ON_K = ("Change", "New rating")
# Workbook names of the player columns, read by ``chessrating recalc`` for the standings.
STANDINGS_NAMES = {"Names": "Name", "Points": "Points", "Rank": "Rank", "Performance": "Perf. (TPR)",
                   "RatingChange": "Change", "NewRating": "New rating", "InitialRating": "First rating",
                   # the reasons a row cannot be rated, listed by recalc (recalc.problems)
                   "Checks": "Check"}


def write_fide_settings(sheet: Worksheet, book: Workbook, st: Styles, heading: str,
                        event_name: str, year: int | None, norm_title: str,
                        unknown_games: str = "established") -> None:
    """Rows 1-2: the heading, the event's name and the settings with their workbook names.

    ``UnknownGames`` says how a blank Rated games cell of a rated player is read:
    ``established`` (30 games: K from the rating and the birth year) or ``new`` (0 games).
    """
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
    validate_range(sheet, 1, 1, 6, checks.YEAR, "Year (K)",
                   "the rating period's year for the junior rule; blank for this year")
    sheet.data_validation(1, 8, 1, 8, {"validate": "list", "source": ["GM", "IM", "WGM", "WIM"]})
    sheet.write_string(1, 10, "Rated games unknown", st.label)
    sheet.merge_range(1, 15, 1, 17, unknown_games, st.input_result)
    book.define_name("UnknownGames", f"={CROSSTABLE}!$P$2")
    sheet.data_validation(1, 15, 1, 15, {
        "validate": "list", "source": list(UNKNOWN_GAMES_CHOICES), "input_title": "Rated games unknown",
        "input_message": "How a blank Rated games cell is read: established (30 games, K from "
                         "rating and birth year) or new (0 games, K 40 below 2400). Either way "
                         "the row is marked as assumed until K list or Rated games is filled."})


def write_fide_player(sheet: Worksheet, st: Styles, r: int, number: int,
                      player: Player | None, k_formula: str,
                      k_inputs: tuple[int | None, int | None] = (None, None)) -> None:
    """Row ``r``'s player columns: the number, the player's inputs, the K inputs a
    tournament does not hold (rated games and peak, blank unless given; K list blank) and
    the K formula."""
    rated_games, peak_rating = k_inputs
    sheet.write_number(r, 0, number, st.header)
    write_text_input(sheet, r, 1, player.name if player else "", st.input_text)
    write_text_input(sheet, r, TITLE_COL, player.title if player else "", st.input_result)
    write_text_input(sheet, r, FED_COL, player.federation if player else "", st.input_result)
    write_input(sheet, r, RATING_COL, player.rating if player else None, st.input_int)
    write_input(sheet, r, 5, rated_games, st.input_int)
    write_input(sheet, r, 6, player.birth_year if player else None, st.input_int)
    write_input(sheet, r, 7, peak_rating, st.input_int)
    write_input(sheet, r, K_LIST_COL, None, st.input_int)
    write_quiet_formula(sheet, r, K_COL, k_formula, st.formula_int)


def fide_player_formulas(r: int, *, opp: str, read: str, expected: str, points: str,
                         entered: str, played: str, none: str, titles: str,
                         feds: str, own_check: str = "", inputs: Sequence[str] = (),
                         first_rating: str = "", reason: str = "",
                         k_note: str = "") -> dict[str, str]:
    """Row ``r``'s K and total formulas, by column header.

    The ranges of the row's games: ``opp`` the opponents' ratings and ``read`` the
    results as the functions read them, ``expected`` the expected scores, ``points``
    the points per game; ``titles`` and ``feds`` the player list's title and federation
    columns. Counts: ``entered`` (0 while no result is entered: the totals stay quiet),
    ``played`` (the games), and ``none`` is TRUE while no game has an opponent.
    ``own_check`` is the helper cell holding :func:`own_check_formula` (the rating's
    refusal, read by the rows of the player's opponents); Check shows it first.
    ``inputs`` are ranges of the row's other refused inputs (a colour that is not one)
    that only Check shows, after the reasons among its games. ``first_rating`` is the
    row's First rating cell: why an unrated player gets no first rating (a text too long
    for the narrow column, which shows ``→ Check``) is told in Check. ``reason`` and
    ``k_note`` are helper cells, the one home of the row's first reason among its games
    (:func:`row_reason`) and of the row's note (:func:`first_rating_note`, else
    :func:`k_note_formula`), which the totals then name rather than spell again; without
    them each total spells both.
    """
    rating, k, fed = cell(r, RATING_COL), cell(r, K_COL), cell(r, FED_COL)
    games, k_list = cell(r, GAMES_COL), cell(r, K_LIST_COL)
    unrated = no_rating(rating)
    # A message among the points (a result that is not one) or the opponents' ratings (a
    # refused rating, a bad opponent number) is shown instead of the function's value.
    checked = [points, opp]
    games_read = f'IF(AND({games}="",UnknownGames<>"new"),{ESTABLISHED_GAMES},{games})'
    note = k_note or k_note_formula(r)

    def unless_reason(otherwise: str) -> str:
        """The row's first reason among its games, else ``otherwise``."""
        return f'IF({reason}<>"",{reason},{otherwise})' if reason else first_check(checked, otherwise)
    own = own_check or f"({own_check_formula(r)})"
    k_list_read = f'FIDE_CHANGE(2000,2000,0.5,{k_list},"2025")'
    # Check: the row's own refused inputs (rating, then K and its inputs), then the first
    # reason among its games, then the note on an assumption, after a reason if both
    if first_rating and not k_note:  # why no first rating: said in Check ("→ Check")
        note = first_rating_note(first_rating, note)
    also = f'IF({note}="","","; "&{note})'
    check = (f'IF({reason}<>"",{reason}&{also},{first_check(inputs, note, also)})' if reason
             else first_check([*checked, *inputs], note, also))
    return {
        # K list as FIDE_CHANGE reads it: a K it refuses (200) shows the refusal here,
        # and so in every total resting on K and in Check
        "K": f'=IF({unrated},"",IF({k_list}<>"",IF(ISNUMBER({k_list_read}),{k_list},{k_list_read}),'
             f'FIDE_K({rating},{games_read},{cell(r, BIRTH_COL)},RatingYear,{cell(r, PEAK_COL)},'
             f'COUNT({opp}))))',
        "Points": f'=IF({entered}=0,"",{first_check([points], f"SUM({points})")})',
        # a contradicted game counts in no total: the row's reason, as in Points
        "Games": f'=IF({entered}=0,"",{first_check([points], played)})',
        "Expected": f'={first_check([expected], f"""IF(COUNT({expected})=0,"",SUM({expected}))""")}',
        # A reason among the row's games before the test for games: a contradicted
        # round has no opponent's rating, so a row whose every game is contradicted has
        # none but shows why.
        "Perf. (TPR)": f'={unless_reason(f"""IF({none},"",PERF_RATING({opp},{read},"FIDE"))""")}',
        "Change": f'=IF({unrated},"",{unless_reason(f"""IF({none},"",IF({refused(k)},{k},FIDE_CHANGE({rating},{opp},{read},{k},Rules)))""")})',
        "New rating": f'=IF({unrated},"",{unless_reason(f"""IF({none},"",IF({refused(k)},{k},FIDE_NEWRATING({rating},{opp},{read},{k},Rules)))""")})',
        "First rating": f'=IF({unrated},{unless_reason(f"""IF({none},"",FIDE_INITIAL({opp},{read}))""")},"")',
        "Norm": f'=IF(OR(NormTitle="",{played}=0),"",'
                f'{unless_reason(f"FIDE_NORM({opp},{read},NormTitle,{titles},{feds},{fed})")})',
        # The row's first problem, in a column wide enough to print it whole: the
        # player's own rating or K refused, a result, opponent or game to check (the
        # note on an assumed K after it), else the note alone.
        "Check": f"=IF({refused(own)},{own},IF({refused(k)},{k},{check}))",
    }


def row_reason(ranges: Sequence[str]) -> str:
    """Formula (no ``=``) of a row's helper cell: the first ``check …`` message among
    ``ranges`` (its games' points, then its opponents' ratings), else ``""``: the one
    home of the reason every total of the row shows in place of its value.

    >>> row_reason(["P5:S5", "O5:Q5"])
    'IFERROR(INDEX(P5:S5,MATCH("check *",P5:S5,0)),IFERROR(INDEX(O5:Q5,MATCH("check *",O5:Q5,0)),""))'
    """
    formula = '""'
    for found in reversed(ranges):
        formula = f'IFERROR(INDEX({found},MATCH("{CHECK}*",{found},0)),{formula})'
    return formula


def first_rating_note(first_rating: str, otherwise: str) -> str:
    """Formula (no ``=``): why the First rating cell ``first_rating`` gives no first
    rating (its text, too long for the narrow column, which shows ``→ Check``), else
    ``otherwise``; a ``check …`` reason there is the row's own, which Check shows first.

    >>> first_rating_note("AX5", '""')
    'IF(AND(ISTEXT(AX5),AX5<>"",LEFT(AX5,6)<>"check "),AX5,"")'
    """
    return (f'IF(AND(ISTEXT({first_rating}),{first_rating}<>"",LEFT({first_rating},{len(CHECK)})<>"{CHECK}"),'
            f'{first_rating},{otherwise})')


def k_note_formula(r: int, sheet: str = "") -> str:
    """Formula (no ``=``): row ``r``'s note on an assumed K (rated games unknown, read as
    the setting ``UnknownGames`` says), else ``""``; ``sheet`` names the crosstable when
    the formula stands on another sheet."""
    def at(col: int) -> str:
        return f"{sheet}!{cell(r, col)}" if sheet else cell(r, col)
    return (f'IF(NOT({k_assumed(at(RATING_COL), at(K_LIST_COL), at(GAMES_COL), at(PEAK_COL))}),"",'
            f'"{ASSUMED}rated games unknown, read as "&IF(UnknownGames="new","0 (new player)",'
            f'"{ESTABLISHED_GAMES} (established)")&"; K list overrides")')


def k_assumed(rating: str, k_list: str, games: str, peak: str) -> str:
    """Formula (no ``=``): TRUE when K rests on the reading of unknown rated games: a
    rated player with K list and Rated games blank, whose rating and peak are under
    2400 (from 2400 K is 10 whatever the games). Built-ins only, so that viewers without
    our functions compute the mark too."""
    return (f'AND(NOT({no_rating(rating)}),{k_list}="",{games}="",N({rating})<2400,'
            f'N({peak})<2400)')


def own_check_formula(r: int, sheet: str = "") -> str:
    """Formula (no ``=``) of the helper cell that says why row ``r``'s rating is refused
    (the function's own message); a number (shown as ``ok``) once the rating is read,
    blank for no rating. The rows of the player's opponents read it
    (:func:`opponent_cell`), so it never depends on them. ``sheet`` names the crosstable
    when the helper stands on another sheet.

    A read rating gives a number rather than a blank on purpose: viewers that recalculate
    cells whose stored value is empty (LibreOffice) and do not know our functions would
    otherwise turn a good rating into #NAME?.
    """
    rating = f"{sheet}!{cell(r, RATING_COL)}" if sheet else cell(r, RATING_COL)
    return f'IF({no_rating(rating)},"",FIDE_EXPECTED({rating},{rating}))'


def opponent_cell(found: str, number: str, name: str, check: str) -> str:
    """Formula (no ``=``): what the functions read as an opponent's rating, ``found``
    being the opponent's rating cell: ``""`` for no rating, ``check rating of player N
    (Name)`` where the opponent's own-check cell ``check`` (:func:`own_check_formula`)
    refuses the rating, else the rating."""
    return (f'IF({refused(check)},{check_player(number, name)},'
            f'IF({no_rating(found)},"",{found}))')


def mark_assumed_k(sheet: Worksheet, st: Styles, first: int, last: int, totals: int) -> None:
    """Mark K, the change and the new rating of every row whose K rests on an assumption
    (rated, K list and Rated games blank): the Check cell says which."""
    top = first + 1
    rating, k_list, games = (f"${column(c)}{top}" for c in (RATING_COL, K_LIST_COL, GAMES_COL))
    rule = f"={k_assumed(rating, k_list, games, f'${column(PEAK_COL)}{top}')}"
    columns = [K_COL] + [totals + TOTAL_COLUMNS.index(name) for name in RESTS_ON_K]
    for col in columns:
        sheet.conditional_format(first, col, last, col, {"type": "formula", "criteria": rule,
                                                         "format": st.assumed})


def validate_fide_players(sheet: Worksheet, first: int, last: int) -> None:
    """Data validation of the player inputs: ratings, rated games, birth year, peak, K list."""
    validate_ratings(sheet, first, last, RATING_COL)
    validate_range(sheet, first, last, GAMES_COL, checks.GAMES, "Rated games",
                   "rated games played before this event (FIDE list)")
    validate_range(sheet, first, last, BIRTH_COL, checks.YEAR, "Birth year", "year of birth")
    validate_ratings(sheet, first, last, PEAK_COL, "Peak")
    validate_range(sheet, first, last, K_LIST_COL, checks.FIDE_K, "K list",
                   "K as the FIDE list gives it; overrides the computed K")


def fide_formats(st: Styles) -> dict[str, Format]:
    """The number format of each total column, by header."""
    return {"Points": st.formula_points, **ranking_formats(st), "Games": st.formula_int,
            "Expected": st.formula_two, "Perf. (TPR)": st.formula_int,
            "Change": st.formula_signed, "New rating": st.formula_int,
            "First rating": st.formula_int_reason, "Norm": st.formula_text, "Check": st.formula_text}


def set_fide_widths(sheet: Worksheet, totals: int) -> None:
    """Widths of the player columns and of the totals from column ``totals``: each as
    narrow as its two-line header and its values allow, so that a ten-player round robin
    prints one page wide on A4 at 7 pt (:func:`.layout.print_setup`). Norm and Check wrap
    a reason over the three lines of a player row (:func:`.layout.reason_rows`)."""
    widths = {0: 4.5, 1: 17, TITLE_COL: 4, FED_COL: 4.5, RATING_COL: 5.5, GAMES_COL: 6,
              BIRTH_COL: 5, PEAK_COL: 4.5, K_LIST_COL: 4, K_COL: 3}
    totals_widths = {"Points": 5.5, "Games": 5.5, "Expected": 7.5, "Perf. (TPR)": 5.5,
                     "Change": 6, "New rating": 6, "First rating": 7, "Norm": 15.5,
                     "Rank": 4.5, **{name: 5 for name in RANKING_COLUMNS[1:]}, "Check": 27}
    widths.update({totals + TOTAL_COLUMNS.index(name): width for name, width in totals_widths.items()})
    for col, width in widths.items():
        sheet.set_column(col, col, width)
