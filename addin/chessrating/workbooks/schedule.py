"""The round-robin template's schedule: the Berger formulas of the Report sheet's grid of
rounds and colours, and the ``Schedule`` sheet a director prints.

Who meets whom in which round, with which colour, is the FIDE Berger table (Handbook
C.05 Annex 1) for the number of players entered: the number of the last crosstable row
with a name (workbook name ``ScheduledPlayers``), 3 to 20 in the template; an odd field
plays the table of the next even number (``BergerTable``) and its highest number is
the bye. The Report sheet's grid ``GameRounds`` holds in each cell the round and the row
player's colour (``3W``) as :func:`berger_formula` computes it, the construction of
:func:`chessrating.tournament.berger_rounds` spelled in built-in functions: players i < j
< N meet in round (i + j − 2) mod (N − 1) + 1, the lower number White when i + j is odd;
player N meets i in round (2i − 2) mod (N − 1) + 1, i White when i ≤ N/2. A workbook
made from a TRF file holds the file's rounds as typed values instead; a director may
type over a cell too. ``export-trf`` reads the grid.

The ``Schedule`` sheet lists, round after round, the boards as the grid gives them:
Bo., No., White, Result, Black, No., then the player with the bye. Board order is the
published one: board 1 is player N's game, board b ≥ 2 the game whose White stands
b − 1 places after N's opponent p in the round's rotation, (White − p) mod (N − 1) + 1
(a grid typed over keeps this order for the games it has, the lower place first). Each
round takes ⌈n/2⌉ + 2 lines: its heading (with its date from the Report sheet), its
boards and bye, and a blank line.

Layout (zero-based rows): 0 the event's name; 1 the table used; 3 the headers; from
row 4 the lines. Right of the printed columns, hidden: the players and table cells,
and per player and round the opponent as White, the board's place in the rotation, the
board and the player without a game; per line the round, the place in it and the player.
"""

from __future__ import annotations

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .layout import (
    CROSSTABLE, Styles, absolute, cell, column, fixed_column, print_setup, span, write_quiet_formula,
)
from .pairings_sheet import listing_formats, shown_result
from .print_areas import print_entered

__all__ = ["SCHEDULE", "SCHEDULE_HEADERS", "FIRST_LINE", "berger_formula", "write_schedule_sheet",
           "lines_per_round", "schedule_rounds"]

SCHEDULE = "Schedule"
SCHEDULE_HEADERS = ("Bo.", "No.", "White", "Result", "Black", "No.")
_WIDTHS = (5, 5, 30, 11, 30, 5)
# Printed at 74 %: a round robin of 10 players (a norm event's usual size) prints its 63
# lines and the headings (1,011 pt high at 100 %, rows of 15 pt) on one A4 page (770 pt
# within the margins), the text at 8.1 pt; 20 players take 4 pages rather than 5.
_PRINT_SCALE = 74
_TITLE, _TABLE, _HEADER = 0, 1, 3
FIRST_LINE = 4
_LABELS, _VALUES = 7, 8          # hidden: the players, the table, the rounds, lines per round
_PLAYERS, _BERGER, _ROUNDS, _LINES = (absolute(r, _VALUES) for r in range(4))
_NUMBERS = 9                     # the players' numbers, left of the tables
_TABLES = 10                     # first column of the per-player, per-round tables


def schedule_rounds(players: int) -> int:
    """The rounds of a single round robin of ``players``.

    >>> schedule_rounds(8), schedule_rounds(5)
    (7, 5)
    """
    return players - 1 + players % 2


def lines_per_round(players: int) -> int:
    """The Schedule sheet's lines per round: heading, boards and bye, a blank line.

    >>> lines_per_round(8), lines_per_round(5)
    (6, 5)
    """
    return (players + 1) // 2 + 2


def berger_formula(i: int, j: int) -> str:
    """The Report grid's formula for row player ``i`` against column player ``j``: the
    round and ``i``'s colour by the Berger table of the players entered, blank past them.

    >>> berger_formula(2, 3)
    '=IF(3>ScheduledPlayers,"",IF(3<BergerTable,(MOD(3,BergerTable-1)+1)&"W",(MOD(2,BergerTable-1)+1)&IF(2<=BergerTable/2,"W","B")))'
    """
    low, high = sorted((i, j))
    first = i == low
    parity = "W" if ((low + high) % 2 == 1) == first else "B"
    at_table = f'IF({low}<=BergerTable/2,"{"W" if first else "B"}","{"B" if first else "W"}")'
    return (f'=IF({high}>ScheduledPlayers,"",IF({high}<BergerTable,'
            f'(MOD({low + high - 2},BergerTable-1)+1)&"{parity}",(MOD({2 * low - 2},BergerTable-1)+1)&{at_table}))')


class _Tables:
    """Where the per-player, per-round tables sit: four of ``rounds`` columns each, one
    column apart, rows :data:`FIRST_LINE` on, one per player."""

    OPPONENT, PLACE, BOARD, FREE = range(4)

    def __init__(self, players: int, rounds: int) -> None:
        self.players, self.rounds = players, rounds

    def col(self, table: int, rnd: int) -> int:
        return _TABLES + table * (self.rounds + 1) + rnd - 1

    def whole(self, table: int) -> str:
        return span(FIRST_LINE, self.col(table, 1), FIRST_LINE + self.players - 1,
                    self.col(table, self.rounds), fixed=True)

    def round_column(self, table: int, rnd: int) -> str:
        c = self.col(table, rnd)
        return span(FIRST_LINE, c, FIRST_LINE + self.players - 1, c, fixed=True)

    @property
    def after(self) -> int:
        """The first column after the tables: the per-line cells."""
        return self.col(self.FREE, self.rounds) + 2


def write_schedule_sheet(book: Workbook, st: Styles, first: int, players: int) -> Worksheet:
    """The Schedule sheet of a round-robin crosstable whose ``players`` rows start at
    zero-based row ``first``; defines ``ScheduledPlayers`` and ``BergerTable``."""
    sheet = book.add_worksheet(SCHEDULE)
    fmt = listing_formats(book)
    rounds = schedule_rounds(players)
    tables = _Tables(players, rounds)
    names = f"{CROSSTABLE}!{span(first, 1, first + players - 1, 1, fixed=True)}"
    _write_heading(sheet, st, fmt["round"])
    _write_counts(book, sheet, st, names)
    _write_tables(sheet, st, tables, fmt["helper"])
    lines = rounds * lines_per_round(players)
    kind_col = _write_lines(sheet, tables, lines, names, fmt)
    last = FIRST_LINE + lines - 1
    kind = f"${column(kind_col)}{FIRST_LINE + 1}"
    sheet.conditional_format(FIRST_LINE, 0, last, len(SCHEDULE_HEADERS) - 1, {
        "type": "formula", "criteria": f'={kind}="round"', "format": book.add_format({"bold": True, "top": 1})})
    sheet.conditional_format(FIRST_LINE, 0, last, len(SCHEDULE_HEADERS) - 1, {
        "type": "formula", "criteria": f'={kind}="board"', "format": fmt["rule"]})
    for col, width in enumerate(_WIDTHS):
        sheet.set_column(col, col, width)
    sheet.set_column(_LABELS, kind_col, 9, None, {"hidden": True})
    sheet.set_row(_TABLE, 21)
    sheet.freeze_panes(FIRST_LINE, 0)
    print_setup(sheet, 0, last, len(SCHEDULE_HEADERS) - 1, title_rows=(_TITLE, _HEADER), landscape=False,
                scale=_PRINT_SCALE)
    # the lines of the players entered: a round's heading and its boards show White's name
    print_entered(book, sheet, SCHEDULE, len(SCHEDULE_HEADERS) - 1, FIRST_LINE,
                  f"{SCHEDULE}!{span(FIRST_LINE, 2, last, 2, fixed=True)}")
    return sheet


def _write_heading(sheet: Worksheet, st: Styles, big: Format) -> None:
    event = f"{CROSSTABLE}!$B$2"
    # blank while the crosstable is: an empty template shows no text
    write_quiet_formula(sheet, _TITLE, 0, f'=TRIM({event}&"")', st.title)
    write_quiet_formula(sheet, _TABLE, 0,
                        f'=IF({_PLAYERS}<2,"",{_PLAYERS}&" players, "&{_ROUNDS}'
                        f'&" rounds: FIDE Berger table for "&{_BERGER}&" players")', big)
    for col, text in enumerate(SCHEDULE_HEADERS):
        sheet.write_string(_HEADER, col, text, st.header)


def _write_counts(book: Workbook, sheet: Worksheet, st: Styles, names: str) -> None:
    """The players entered (the last row with a name), the Berger table, the rounds and
    the lines a round takes; the first two named."""
    cells = (
        ("Players", f'=SUMPRODUCT(MAX((TRIM({names}&"")<>"")*(ROW({names})-ROW({names.split(":")[0]})+1)))'),
        ("Berger table", f"={_PLAYERS}+MOD({_PLAYERS},2)"),
        ("Rounds", f"=IF({_PLAYERS}<2,0,{_BERGER}-1)"),
        ("Lines per round", f"=INT(({_PLAYERS}+1)/2)+2"),
    )
    for r, (label, formula) in enumerate(cells):
        sheet.write_string(r, _LABELS, label, st.label)
        write_quiet_formula(sheet, r, _VALUES, formula, st.formula_int)
    book.define_name("ScheduledPlayers", f"={SCHEDULE}!{_PLAYERS}")
    book.define_name("BergerTable", f"={SCHEDULE}!{_BERGER}")


def _write_tables(sheet: Worksheet, st: Styles, tables: _Tables, fmt: Format) -> None:
    """Per player and round: the opponent when White, the place in the round's rotation,
    the board, and the player's number when without a game (the bye)."""
    titles = ("Opponent as White", "Place", "Board", "Without a game")
    for table, title in enumerate(titles):
        sheet.write_string(0, tables.col(table, 1), title, st.label)
        for rnd in range(1, tables.rounds + 1):
            sheet.write_number(_HEADER, tables.col(table, rnd), rnd, st.header)
    for rnd in range(1, tables.rounds + 1):
        # the player meeting the table's highest number (row 2 over the places), and the
        # round's number of boards (row 1 over the boards)
        this_round = f"{column(tables.col(tables.PLACE, rnd))}${_HEADER + 1}"
        write_quiet_formula(sheet, 2, tables.col(tables.PLACE, rnd),
                            f"=IF(MOD({this_round},2)=1,({this_round}+1)/2,({this_round}+{_BERGER})/2)",
                            st.formula_int)
        write_quiet_formula(sheet, 1, tables.col(tables.BOARD, rnd),
                            f"=COUNT({tables.round_column(tables.BOARD, rnd)})", st.formula_int)
    sheet.write_string(_HEADER, _NUMBERS, "No.", st.header)
    for i in range(1, tables.players + 1):
        r = FIRST_LINE + i - 1
        sheet.write_number(r, _NUMBERS, i, st.header)
        # the player's number and the round's from the cells beside and above: each
        # table's formulas are one formula copied, which the evaluator compiles once
        number = fixed_column(r, _NUMBERS)
        row = f"INDEX(GameRounds,{number},0)"
        for rnd in range(1, tables.rounds + 1):
            opponent, place = cell(r, tables.col(tables.OPPONENT, rnd)), cell(r, tables.col(tables.PLACE, rnd))
            this_round = f"{column(tables.col(tables.OPPONENT, rnd))}${_HEADER + 1}"
            beyond = f"OR({number}>{_PLAYERS},{this_round}>{_ROUNDS})"
            p = f"{column(tables.col(tables.PLACE, rnd))}$3"
            places = tables.round_column(tables.PLACE, rnd)
            earlier = (f"+COUNTIF({span(FIRST_LINE, tables.col(tables.PLACE, rnd), r - 1, tables.col(tables.PLACE, rnd))},{place})"
                       if i > 1 else "")
            formulas = {
                tables.OPPONENT: f'=IF({beyond},"",IFERROR(MATCH({this_round}&"W",{row},0),""))',
                tables.PLACE: (f'=IF({opponent}="","",IF(OR({number}={_BERGER},{opponent}={_BERGER}),1,'
                               f'MOD({number}-{p},{_BERGER}-1)+1))'),
                tables.BOARD: f'=IF({place}="","",1+COUNTIF({places},"<"&{place}){earlier})',
                tables.FREE: (f'=IF({beyond},"",IF(COUNTIF({row},{this_round}&"W")+COUNTIF({row},{this_round}&"B")>0,'
                              f'"",{number}))'),
            }
            for table, formula in formulas.items():
                write_quiet_formula(sheet, r, tables.col(table, rnd), formula, fmt)


def _write_lines(sheet: Worksheet, tables: _Tables, lines: int, names: str, fmt: dict[str, Format]) -> int:
    """Line t: round ⌊(t − 1) / lines per round⌋ + 1, its heading, boards, bye and a blank
    line; returns the column of the lines' kinds."""
    line_col, rnd_col, place_col, shows_col, kind_col = (tables.after + k for k in range(5))
    sheet.write_string(_HEADER, line_col, "Line", fmt["helper"])
    sheet.write_string(_HEADER, rnd_col, "Round", fmt["helper"])
    sheet.write_string(_HEADER, place_col, "Line in round", fmt["helper"])
    sheet.write_string(_HEADER, shows_col, "Player", fmt["helper"])
    sheet.write_string(_HEADER, kind_col, "Kind", fmt["helper"])
    boards_row = span(1, tables.col(tables.BOARD, 1), 1, tables.col(tables.BOARD, tables.rounds), fixed=True)
    for t in range(1, lines + 1):
        r = FIRST_LINE + t - 1
        sheet.write_number(r, line_col, t, fmt["helper"])
        line = fixed_column(r, line_col)
        rnd, place, shows, kind = (cell(r, c) for c in (rnd_col, place_col, shows_col, kind_col))
        boards = f"INDEX({boards_row},{rnd})"
        white_no, black_no = cell(r, 1), cell(r, 5)
        helpers = (
            (rnd_col, f'=IF({line}>{_ROUNDS}*{_LINES},"",INT(({line}-1)/{_LINES})+1)'),
            (place_col, f'=IF({rnd}="","",MOD({line}-1,{_LINES}))'),
            (shows_col, f'=IF(OR({rnd}="",{place}=0),"",IF({place}<={boards},'
                        f'MATCH({place},INDEX({tables.whole(tables.BOARD)},0,{rnd}),0),'
                        f'IFERROR(SMALL(INDEX({tables.whole(tables.FREE)},0,{rnd}),{place}-{boards}),"")))'),
            (kind_col, f'=IF({rnd}="","",IF({place}=0,"round",IF({shows}="","",IF({place}<={boards},"board","bye"))))'),
        )
        for c, formula in helpers:
            write_quiet_formula(sheet, r, c, formula, fmt["helper"])
        board = f'{kind}="board"'
        w_res, b_res = f"INDEX(Results,{white_no},{black_no})", f"INDEX(Results,{black_no},{white_no})"
        date = f"INDEX(RoundDates,{rnd})"
        cells = (
            (f'=IF({board},{place},"")', fmt["number"]),
            (f'=IF(OR({board},{kind}="bye"),{shows},"")', fmt["number"]),
            (f'=IF({kind}="round","Round "&{rnd},IF({white_no}="","",INDEX({names},{white_no})&""))', fmt["text"]),
            (f'=IF({kind}="round",IF(ISNUMBER({date}),{date},""),IF({board},IF(AND({w_res}="",{b_res}=""),"",'
             f'{shown_result(w_res)}&" - "&{shown_result(b_res)}),""))', fmt["date_result"]),
            (f'=IF({board},INDEX({names},{black_no})&"",IF({kind}="bye","bye",""))', fmt["text"]),
            (f'=IF({board},INDEX({tables.whole(tables.OPPONENT)},{shows},{rnd}),"")', fmt["number"]),
        )
        for c, (formula, cell_format) in enumerate(cells):
            write_quiet_formula(sheet, r, c, formula, cell_format)
    return kind_col
