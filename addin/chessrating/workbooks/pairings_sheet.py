"""The Swiss template's ``Pairings`` sheet: one round's boards, as the director pins them up.

The sheet follows the crosstable live: formulas over each row's Opp, Col and Res cells of
the round shown, built-in functions only (INDEX, MATCH, COUNTIF, SMALL, MAX, MIN), so
every viewer shows it and ``chessrating recalc`` computes it as Excel does.

**Decision**: one round at a time, picked in the round cell beside the list (blank: the
latest round with a pairing entered, an opponent or a pairing-allocated bye, so the sheet
shows the round just paired without a touch; requested byes typed in ahead do not count). Printing the sheet then prints that round and nothing else: the wall chart a
director pins up before a round. Every round laid out one after another would make the
director hunt for a round's pages and print the others blank until they are paired.

Rows (zero-based): 0 the event's name; 1 ``Round N`` and the round's date (Report
sheet); 3 the headers Bo., No., White, Pts, Result, Pts, Black, No.; from row 4 the
boards, then the players without a board. On paper: portrait A4, rows 0–3 repeated on
every page. The print area holds a line per player row of the crosstable, the most a
round can need (a board seats two players, a bye one), so no line is ever left off; a
paired round fills about half of it, and the pages past its last line print blank
(Excel and LibreOffice print a print area whole; a page range leaves them out).

**Board order** — C.04.1 F.1 (the sorting FIDE's older Swiss rules publish the pairings
by) as FIDE's engine gacrux orders its boards, the order ``chessrating.pairing.pair_round``
gives: the higher score of the two players first, then the higher sum of both scores,
then the lower starting number of the two (gacrux's third key; F.1 names the higher
player's rank, which differs only where that player has the higher number). The
scores are the points before the round: every round's points as entered, byes and
forfeits included (the Games sheet's block of them). Under Baku acceleration the
engine adds the virtual points; the sheet does not.

A game is listed from the row of its White player; a game only its Black row names (the
White row blank or naming another player), from there. The players with a name and no
board follow the boards: the pairing-allocated bye (U) first, then by starting number
the requested byes (H, B/F, Z), the players not paired, and a row whose opponent is not
a player number or whose game has no colour in either row (it says so).

Right of the printed columns: the round cell (``PairingsRound``) and, hidden, what the
list reads: per crosstable row the round's entries, the score before the round and the
board of the game it heads; per line the board or player it shows.
"""

from __future__ import annotations

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .print_areas import print_entered
from .layout import (
    CROSSTABLE, Styles, absolute, cell, column, fixed_column, print_setup, span, write_quiet_formula,
)
from .rounds import RoundsLayout

__all__ = ["PAIRINGS", "PAIRINGS_HEADERS", "FIRST_LINE", "ROUND_CELL", "write_pairings_sheet",
           "shown_result", "listing_formats"]

PAIRINGS = "Pairings"
PAIRINGS_HEADERS = ("Bo.", "No.", "White", "Pts", "Result", "Pts", "Black", "No.")
_WIDTHS = (5, 5, 30, 5, 9, 5, 30, 5)
_TITLE, _ROUND, _HEADER = 0, 1, 3
FIRST_LINE = 4                 # zero-based row of the first board
ROUND_CELL = (1, 9)            # the round picked (J2); blank: the latest round paired
_SHOWN, _BOARDS, _OFF = (absolute(r, 11) for r in range(3))  # L1:L3, hidden
_HELPERS = 12                  # first hidden column of the per-player and per-line cells
# Per-player helper columns, in order from _HELPERS.
_PLAYER_COLUMNS = ("No.", "Opp", "Col", "Res", "Opponent ok", "Score", "Heads a board", "White",
                   "Black", "Top score", "Sum", "Lower No.", "Order key", "Board", "Seated", "Off key",
                   "Off note")
(_NO, _OPP, _COL, _RES, _OK, _SCORE, _HEADS, _WHITE, _BLACK, _TOP, _SUM, _LOW, _KEY, _BOARD, _SEATED,
 _OFF_KEY, _NOTE) = range(len(_PLAYER_COLUMNS))
# Per-line helper columns after them: the line's number, the player (or the row heading
# the board) shown, and what the line is ("board", "off" or blank).
_LINE, _SHOWS, _KIND = (len(_PLAYER_COLUMNS) + k for k in range(3))
_OFF_STEP = 10000              # off-board sort key: 0 for the pairing-allocated bye, then the number
_KEY_TOP, _KEY_SUM = 10 ** 7, 10 ** 4  # the order key's places: top score, sum, lower number


def shown_result(value: str) -> str:
    """Formula (no ``=``): a result cell as the list shows it, ½ for 0.5.

    >>> shown_result("X5")
    'IF(X5=0.5,"½",X5&"")'
    """
    return f'IF({value}=0.5,"½",{value}&"")'


def listing_formats(book: Workbook) -> dict[str, Format]:
    """The list's own formats: unboxed, so the lines not used print blank; a used line
    gets a rule below it from a conditional format (``rule``)."""
    def fmt(**props: object) -> Format:
        return book.add_format({"valign": "vcenter", **props})

    return {"number": fmt(num_format="0", align="center"), "text": fmt(),
            "points": fmt(num_format="General", align="center"), "result": fmt(align="center"),
            "round": fmt(bold=True, font_size=14), "date": fmt(num_format="yyyy/mm/dd", align="right"),
            "date_result": fmt(num_format="yyyy/mm/dd", align="center"),
            "rule": book.add_format({"bottom": 1, "bottom_color": "#BFBFBF"}),
            "helper": fmt(font_color="#7F7F7F")}


def write_pairings_sheet(book: Workbook, st: Styles, lay: RoundsLayout, points_col: int) -> Worksheet:
    """The Pairings sheet of a Swiss crosstable laid out as ``lay`` (its rounds' Opp, Col
    and Res columns); ``points_col`` is the first column of the Games sheet's block of
    each round's points as entered, which give the scores before the round."""
    sheet = book.add_worksheet(PAIRINGS)
    fmt = listing_formats(book)
    _write_heading(sheet, st, fmt, lay)
    _write_round_cells(book, sheet, st, lay)
    _write_player_helpers(sheet, lay, points_col, fmt["helper"])
    _write_lines(sheet, lay, fmt)
    last = FIRST_LINE + lay.players - 1
    sheet.conditional_format(FIRST_LINE, 0, last, len(PAIRINGS_HEADERS) - 1, {
        "type": "formula", "criteria": f'=${column(1)}{FIRST_LINE + 1}<>""', "format": fmt["rule"]})
    for col, width in enumerate(_WIDTHS):
        sheet.set_column(col, col, width)
    sheet.set_column(ROUND_CELL[1], ROUND_CELL[1], 16)
    sheet.set_column(ROUND_CELL[1] + 1, _HELPERS + _KIND, 9, None, {"hidden": True})
    sheet.set_row(_ROUND, 21)
    sheet.freeze_panes(FIRST_LINE, 0)
    print_setup(sheet, 0, last, len(PAIRINGS_HEADERS) - 1, title_rows=(_TITLE, _HEADER), landscape=False)
    print_entered(book, sheet, PAIRINGS, len(PAIRINGS_HEADERS) - 1, FIRST_LINE,
                  f"{PAIRINGS}!{span(FIRST_LINE, 1, last, 1, fixed=True)}")
    return sheet


def _row_span(row: int, first_col: int, last_col: int) -> str:
    """``$K5:$AP5``: columns fixed, the row moving with the formula, so that the formulas of
    a column are one formula copied down (the evaluator compiles it once)."""
    return f"{fixed_column(row, first_col)}:{fixed_column(row, last_col)}"


def _column(lay: RoundsLayout, col: int) -> str:
    """The whole helper column ``col`` over the player rows, absolute."""
    return span(FIRST_LINE, _HELPERS + col, FIRST_LINE + lay.players - 1, _HELPERS + col, fixed=True)


def _write_heading(sheet: Worksheet, st: Styles, fmt: dict[str, Format], lay: RoundsLayout) -> None:
    """The event's name, ``Round N`` with its date, and the column headers."""
    event = f"{CROSSTABLE}!$B$2"
    # blank while the crosstable is: an empty template shows no text
    write_quiet_formula(sheet, _TITLE, 0, f'=TRIM({event}&"")', st.title)
    write_quiet_formula(sheet, _ROUND, 0, f'=IF({_BOARDS}+{_OFF}=0,"","Round "&{_SHOWN})', fmt["round"])
    date = f"INDEX(RoundDates,{_SHOWN})"
    write_quiet_formula(sheet, _ROUND, 6, f'=IF(ISNUMBER({date}),{date},"")', fmt["date"])
    for col, text in enumerate(PAIRINGS_HEADERS):
        sheet.write_string(_HEADER, col, text, st.header)
    for col, text in enumerate(_PLAYER_COLUMNS + ("Line", "Shows", "Kind")):
        sheet.write_string(_HEADER, _HELPERS + col, text, st.header)


def _write_round_cells(book: Workbook, sheet: Worksheet, st: Styles, lay: RoundsLayout) -> None:
    """The round cell and its note; hidden: each round's number and whether it is paired,
    the round shown, the number of boards and of players without one."""
    row, col = ROUND_CELL
    sheet.write_string(row - 1, col, "Round to show", st.label)
    sheet.write_blank(row, col, None, st.input_int)
    sheet.write_string(row + 1, col, "blank: the latest paired", st.note)
    book.define_name("PairingsRound", f"={PAIRINGS}!{absolute(row, col)}")
    sheet.data_validation(row, col, row, col, {
        "validate": "integer", "criteria": "between", "minimum": 1, "maximum": lay.rounds,
        "input_title": "Round to show", "input_message": f"A round from 1 to {lay.rounds}; blank shows "
                                                          "the latest round with a pairing entered"})
    for r, label in enumerate(("Round shown", "Boards", "Not on a board")):
        sheet.write_string(r, 10, label, st.label)
    for rnd in range(lay.rounds):
        c = _HELPERS + rnd
        sheet.write_number(0, c, rnd + 1, st.header)
        opp, res = (f"{CROSSTABLE}!{span(lay.first, k, lay.last, k, fixed=True)}"
                    for k in (lay.opp(rnd), lay.result(rnd)))
        # paired: an opponent or a pairing-allocated bye entered (requested byes entered
        # ahead of the pairing do not make a round paired)
        write_quiet_formula(sheet, 1, c, f'=IF(COUNT({opp})+COUNTIF({res},"U")>0,{rnd + 1},0)', st.formula_int)
    latest = f"MAX(1,{span(1, _HELPERS, 1, _HELPERS + lay.rounds - 1, fixed=True)})"
    picked = absolute(row, col)
    write_quiet_formula(sheet, 0, 11, f"=IF(ISNUMBER({picked}),MIN(MAX(INT({picked}),1),{lay.rounds}),{latest})",
                        st.formula_int)
    write_quiet_formula(sheet, 1, 11, f"=COUNT({_column(lay, _BOARD)})", st.formula_int)
    write_quiet_formula(sheet, 2, 11, f"=COUNT({_column(lay, _OFF_KEY)})", st.formula_int)


def _write_player_helpers(sheet: Worksheet, lay: RoundsLayout, points_col: int, fmt: Format) -> None:
    """Per crosstable row, the round's entries and the board its game gets."""
    col = {k: _column(lay, k) for k in range(len(_PLAYER_COLUMNS))}
    names = f"{CROSSTABLE}!{span(lay.first, 1, lay.last, 1, fixed=True)}"
    for i in range(lay.players):
        r, source = FIRST_LINE + i, lay.first + i
        here = {k: cell(r, _HELPERS + k) for k in range(len(_PLAYER_COLUMNS))}
        above = f"{absolute(_HEADER, _HELPERS + _KEY)}:{cell(r - 1, _HELPERS + _KEY)}"
        group = f"{CROSSTABLE}!{_row_span(source, lay.opp(0), lay.result(lay.rounds - 1))}"

        def entry(offset: int) -> str:
            return f"INDEX({group},1,{lay.per_round}*({_SHOWN}-1)+{offset})"
        no, opp, colour, res = here[_NO], here[_OPP], here[_COL], here[_RES]
        white, black, heads = here[_WHITE], here[_BLACK], here[_HEADS]
        points = f"Games!{_row_span(source, points_col, points_col + lay.rounds - 1)}"
        before = f"INDEX({points},1,1):INDEX({points},1,{_SHOWN}-1)"
        code = f"UPPER(TRIM({res}&\"\"))"
        note = (f'IF({here[_OK]},"no colour: paired with "&{opp},IF({opp}<>"","check the opponent number",'
                f'IF({code}="U","pairing-allocated bye",IF({code}="H","half-point bye",'
                f'IF(OR({code}="B",{code}="F"),"full-point bye",IF({code}="Z","zero-point bye",'
                f'IF({code}="","not paired",IF({code}="-","absent","result "&{res}))))))))')
        formulas = {
            _OPP: f'=IF({entry(1)}="","",{entry(1)})',
            _COL: f'=UPPER(TRIM({entry(2)}&""))',
            _RES: f'=IF({entry(lay.per_round)}="","",{entry(lay.per_round)})',
            _OK: f"=IF(ISNUMBER({opp}),AND({opp}=INT({opp}),{opp}>=1,{opp}<={lay.players},{opp}<>{no}),FALSE)",
            _SCORE: f"=IF({_SHOWN}=1,0,SUM({before}))",
            # the row heads its game's board: White's row, or Black's when White's row does
            # not name it back as White
            _HEADS: f'=IF(NOT({here[_OK]}),0,IF({colour}="W",1,IF({colour}="B",'
                    f'IF(AND(INDEX({col[_OPP]},{opp})={no},INDEX({col[_COL]},{opp})="W"),0,1),0)))',
            _WHITE: f'=IF({heads}=1,IF({colour}="W",{no},{opp}),"")',
            _BLACK: f'=IF({heads}=1,IF({colour}="W",{opp},{no}),"")',
            _TOP: f'=IF({heads}=1,MAX(INDEX({col[_SCORE]},{white}),INDEX({col[_SCORE]},{black})),"")',
            _SUM: f'=IF({heads}=1,INDEX({col[_SCORE]},{white})+INDEX({col[_SCORE]},{black}),"")',
            _LOW: f'=IF({heads}=1,MIN({white},{black}),"")',
            # the three in one number, larger first: scores are halves (at most 30 rounds),
            # numbers at most 2000, so no part reaches into the next
            _KEY: (f'=IF({heads}=1,2*{here[_TOP]}*{_KEY_TOP}+2*{here[_SUM]}*{_KEY_SUM}'
                   f'+{_KEY_SUM - 1}-{here[_LOW]},"")'),
            # boards before this one: a larger key; rows above with the same key (two boards
            # naming one player) come first
            _BOARD: f'=IF({heads}=1,1+COUNTIF({col[_KEY]},">"&{here[_KEY]})+COUNTIF({above},{here[_KEY]}),"")',
            _SEATED: (f"=IF(OR(ISNUMBER(MATCH({no},{col[_WHITE]},0)),ISNUMBER(MATCH({no},{col[_BLACK]},0))),"
                      "1,0)"),
            _OFF_KEY: (f'=IF(OR({here[_SEATED]}=1,TRIM(INDEX({names},{no})&"")=""),"",'
                       f'IF({code}="U",0,1)*{_OFF_STEP}+{no})'),
            _NOTE: f'=IF({here[_OFF_KEY]}="","",{note})',
        }
        sheet.write_number(r, _HELPERS + _NO, i + 1, fmt)
        for k, formula in formulas.items():
            write_quiet_formula(sheet, r, _HELPERS + k, formula, fmt)


def _write_lines(sheet: Worksheet, lay: RoundsLayout, fmt: dict[str, Format]) -> None:
    """Line t (1 to the number of player rows): board t while there are boards, then
    the players without one, in order."""
    col = {k: _column(lay, k) for k in range(len(_PLAYER_COLUMNS))}
    names = f"{CROSSTABLE}!{span(lay.first, 1, lay.last, 1, fixed=True)}"
    for t in range(1, lay.players + 1):
        r = FIRST_LINE + t - 1
        sheet.write_number(r, _HELPERS + _LINE, t, fmt["helper"])
        line = fixed_column(r, _HELPERS + _LINE)
        shows, kind = cell(r, _HELPERS + _SHOWS), cell(r, _HELPERS + _KIND)
        white_no, black_no = cell(r, 1), cell(r, 7)
        write_quiet_formula(sheet, r, _HELPERS + _SHOWS,
                            f'=IF({line}<={_BOARDS},MATCH({line},{col[_BOARD]},0),IF({line}-{_BOARDS}<={_OFF},'
                            f'MOD(SMALL({col[_OFF_KEY]},{line}-{_BOARDS}),{_OFF_STEP}),""))', fmt["helper"])
        write_quiet_formula(sheet, r, _HELPERS + _KIND,
                            f'=IF({shows}="","",IF({line}<={_BOARDS},"board","off"))', fmt["helper"])
        board = f'{kind}="board"'
        w_res, b_res = f"INDEX({col[_RES]},{white_no})", f"INDEX({col[_RES]},{black_no})"
        result = (f'=IF({board},IF(AND({w_res}="",{b_res}=""),"",{shown_result(w_res)}&" - "&{shown_result(b_res)}),'
                  f'IF({kind}="off",{shown_result(w_res)},""))')
        cells = (
            (f'=IF({board},{line},"")', fmt["number"]),
            (f'=IF({board},INDEX({col[_WHITE]},{shows}),IF({kind}="off",{shows},""))', fmt["number"]),
            (f'=IF({white_no}="","",INDEX({names},{white_no})&"")', fmt["text"]),
            (f'=IF({white_no}="","",INDEX({col[_SCORE]},{white_no}))', fmt["points"]),
            (result, fmt["result"]),
            (f'=IF({board},INDEX({col[_SCORE]},{black_no}),"")', fmt["points"]),
            (f'=IF({board},INDEX({names},{black_no})&"",IF({kind}="off",INDEX({col[_NOTE]},{shows}),""))',
             fmt["text"]),
            (f'=IF({board},INDEX({col[_BLACK]},{shows}),"")', fmt["number"]),
        )
        for c, (formula, cell_format) in enumerate(cells):
            write_quiet_formula(sheet, r, c, formula, cell_format)
