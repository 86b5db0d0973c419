"""The US Chess template's grid and its Games sheet, what the Crosstable's formulas read.

:class:`UscfLayout` says where everything stands: the nine player columns of the
Crosstable (No. to Abs. floor), three columns per round, the totals, and on the Games
sheet one block of columns per kind of value and the player helper columns after them.

:func:`write_uscf_games_sheet` writes the Games sheet: per round, the result where there is
an opponent, the opponent's number as checked (a bad one shows why) and the opponent's
rating where a result is entered, the points (the reason instead where the round contradicts
another row, :mod:`.contradictions`), the result the tie-breaks read, what the
contradiction checks read, and the colour as the tie-breaks read it; then per player the
games so far as the functions read them (a blank of a rated player read as the
``UnknownGames`` setting says), whether an input USCF_EVENT reads is refused, the player's
own-input check, label and note on an assumption, and the one cell ``FirstToCheck``.
The Crosstable itself and the workbook are built in :mod:`.uscf`.

Four players, three rounds: the rounds from column J (9), the totals from column S (18); on
the Games sheet the second block from column G (6), each block three rounds and a gap, the
helper columns from column AM (38):

>>> lay = UscfLayout(players=4, rounds=3)
>>> lay.rounds_col, lay.totals, lay.block(1), lay.games_read
(9, 18, 6, 38)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xlsxwriter.workbook import Workbook

from .check_formulas import (
    ASSUMED, CHECK, check_player, checked_colour, checked_opponent, game_points, no_rating, refused,
)
from .contradictions import swiss_label, swiss_paired_twice, swiss_points
from .layout import CROSSTABLE as SHEET, GAMES, Styles, absolute, cell, span, write_quiet_formula
from .rounds import GamesBlock, RoundsLayout, write_games_sheet, write_unanswered_row

__all__ = ["USCF_PLAYERS", "USCF_ROUNDS", "PLAYER_HEADERS", "RATING_COL", "GAMES_COL", "AGE_COL",
           "RECORD_COL", "PEAK_COL", "MASTER_COL", "ABSOLUTE_FLOOR_COL", "ESTABLISHED_GAMES",
           "ROUND_RESULT_BLOCK", "COLOUR_BLOCK", "UscfLayout", "FIRST_TO_CHECK", "write_uscf_games_sheet"]

# The template's size: players x rounds.
USCF_PLAYERS = 100
USCF_ROUNDS = 9
# The Crosstable's player columns, before the rounds.
PLAYER_HEADERS = ("No.", "Name", "Rating", "Games so far", "Age", "Record", "Peak", "Life master",
                  "Abs. floor")
RATING_COL, GAMES_COL, AGE_COL, RECORD_COL, PEAK_COL, MASTER_COL, ABSOLUTE_FLOOR_COL = range(2, 9)
# Games so far read for a rated player whose count is unknown, in the default reading
# ("established"): N′ = min(N, N*) and N* is at most 50, so N′ = N* (US Chess §2), and
# more than 8 games means the standard formula.
ESTABLISHED_GAMES = 50
# The Games sheet's blocks (:func:`_games_blocks`) by index: 0 the results, 1 the opponent
# numbers, 2 their ratings, 3 the points, then these.
ROUND_RESULT_BLOCK, OPPONENTS_BLOCK, ENTERED_BLOCK, TWICE_BLOCK, COLOUR_BLOCK = 4, 5, 6, 7, 8
_BLOCKS = 9  # the helper columns stand after the blocks


@dataclass(frozen=True)
class UscfLayout(RoundsLayout):
    """Where everything sits for ``players`` × ``rounds`` (zero-based): three columns per
    round (opponent's number, colour, result) after the nine player columns."""

    round_headers: ClassVar[tuple[str, ...]] = ("Opp", "Col", "Res")
    players: int = USCF_PLAYERS
    rounds: int = USCF_ROUNDS
    rounds_col: int = len(PLAYER_HEADERS)

    @property
    def games_read(self) -> int:
        """Games sheet: the column of games so far as the functions read them."""
        return self.block(_BLOCKS)

    @property
    def to_check(self) -> int:
        """Games sheet: the column of the numbers of players whose inputs are refused."""
        return self.block(_BLOCKS) + 1

    @property
    def own_check(self) -> int:
        """Games sheet: the column that says why a player's own inputs are refused."""
        return self.block(_BLOCKS) + 2

    @property
    def label(self) -> int:
        """Games sheet: the column of each player's label, `` (Name)``, which the messages
        of contradicting rounds look up (:func:`.contradictions.swiss_label`)."""
        return self.block(_BLOCKS) + 3

    @property
    def note(self) -> int:
        """Games sheet: the column of each row's note on an assumed games so far (the one
        home of its words, which Check names)."""
        return self.block(_BLOCKS) + 4


def _own_check_formula(r: int, games: str) -> str:
    """Formula (no ``=``) of row ``r``'s own-input check (Games sheet): why the rating, the
    games so far, the peak or the life-master flag are refused (the function's message);
    a number (shown as ``ok``: N′ or the floor) once they are read; blank when there is
    nothing to read. The rows of the player's opponents read it, so it never depends on
    them. A read input gives a number rather than a blank so that viewers that
    recalculate empty stored values without our functions (LibreOffice) keep it."""
    rating, peak, master = (f"{SHEET}!{cell(r, c)}" for c in (RATING_COL, PEAK_COL, MASTER_COL))
    effective = f"USCF_EFFECTIVE_GAMES({rating},{games})"
    floor = f"USCF_FLOOR({peak},{master})"
    no_floor = f'AND({peak}="",{master}="")'
    return (f'IF({no_rating(rating)},IF({no_floor},"",{floor}),IF({no_floor},{effective},'
            f'IF(ISNUMBER({effective}),{floor},{effective})))')


def _note(r: int) -> str:
    """Formula (no ``=``) of the Games sheet's note that row ``r``'s games so far rest on
    an assumption, else ``""``."""
    rating, typed = f"{SHEET}!{cell(r, RATING_COL)}", f"{SHEET}!{cell(r, GAMES_COL)}"
    return (f'IF(OR({no_rating(rating)},{typed}<>""),"","{ASSUMED}games so far unknown, read as "&'
            f'IF(UnknownGames="new","0 (new player)","{ESTABLISHED_GAMES} (established, N′ = N*)"))')


# Games sheet cell holding the number of the first player whose inputs USCF_EVENT would
# refuse (0: none), computed once for the table rather than once per row.
FIRST_TO_CHECK = "FirstToCheck"


def _games_blocks(st: Styles) -> list[GamesBlock]:
    """The blocks of the Games sheet, in order."""
    return [GamesBlock("Result", 6, st.formula_text), GamesBlock("Opponent no.", 6, st.formula_int),
            GamesBlock("Opponent's rating", 6, st.formula_int), GamesBlock("Points", 6, st.formula_one),
            # what the tie-breaks read with the opponent numbers: each round's result as
            # entered (byes and forfeits too), blank where the round is contradicted
            GamesBlock("Round result", 4, st.formula_text),
            # What the contradiction checks read (.contradictions.swiss_points): the opponent
            # number as entered and checked, whether or not a result is, and each round's
            # points read from its result alone; the Points block holds them unless the
            # round contradicts another row. Below the opponent numbers, per round, how
            # many players are named more often than they name
            # (.contradictions.swiss_unanswered): 0 skips every search of the column.
            GamesBlock("Opponent as entered", 5, st.formula_int),
            GamesBlock("Points as entered", 5, st.formula_one),
            # Why a player named by two rows in a round cannot be rated (else blank).
            GamesBlock("Paired twice", 5, st.formula_text),
            # each round's colour as entered, which the tie-breaks read (BLACKS), or why
            # it is not one (the row's Check shows it)
            GamesBlock("Colour", 3.5, st.formula_text)]


def _games_formulas(lay: UscfLayout) -> Callable[[int, int], tuple[str, ...]]:
    """Row ``r``'s formulas of round ``rnd`` on the Games sheet, one per block."""
    def column_of(col: int) -> str:
        return f"{SHEET}!{span(lay.first, col, lay.last, col, fixed=True)}"

    ratings, names = column_of(RATING_COL), column_of(1)
    numbers = span(lay.first, 0, lay.last, 0, fixed=True)  # the Games sheet's own No. column
    checks = span(lay.first, lay.own_check, lay.last, lay.own_check, fixed=True)
    labels = span(lay.first, lay.label, lay.last, lay.label, fixed=True)

    def round_column(index: int, rnd: int) -> str:
        col = lay.block(index) + rnd
        return span(lay.first, col, lay.last, col, fixed=True)

    def formulas(r: int, rnd: int) -> tuple[str, ...]:
        entry = lay.entered(r, rnd)
        colour = f"{SHEET}!{cell(r, lay.colour(rnd))}"
        own, own_label = f"$A{r + 1}", cell(r, lay.label)  # the Games sheet's No. and label
        ids = cell(r, lay.block(1) + rnd)
        points = cell(r, lay.block(3) + rnd)
        opponent = cell(r, lay.block(OPPONENTS_BLOCK) + rnd)
        found = f"INDEX({ratings},{ids})"
        # A contradicted round is no game for the ratings and the tie-breaks: they read
        # neither its opponent nor its result (the row shows the reason instead).
        # A result that is not one is left out of its own row only: the opponent's entry,
        # if any, stands for the game in the tie-breaks, as in the opponent's points.
        contradicted = f'LEFT({points},{len(CHECK)})="{CHECK}"'
        unanswered = absolute(lay.last + 1, lay.block(OPPONENTS_BLOCK) + rnd)  # (write_unanswered_row)
        return (
            entry.result_read,
            # The number as checked: a bad one shows why, here and in the rating cells.
            f'=IF(OR({entry.no_game},{contradicted}),"",{opponent})',
            f'=IF({ids}="","",IF(ISNUMBER({ids}),IF({refused(f"INDEX({checks},{ids})")},'
            f'{check_player(ids, f"INDEX({names},{ids})", "inputs")},'
            f'IF({no_rating(found)},"",{found})),{ids}))',
            "=" + swiss_points(rnd=rnd + 1, own=own, own_label=own_label, points=cell(r, lay.block(ENTERED_BLOCK) + rnd),
                               opponent=opponent, result=entry.result,
                               opponents=round_column(OPPONENTS_BLOCK, rnd),
                               results=column_of(lay.result(rnd)),
                               all_points=round_column(ENTERED_BLOCK, rnd), labels=labels,
                               twice=cell(r, lay.block(TWICE_BLOCK) + rnd), all_twice=round_column(TWICE_BLOCK, rnd),
                               unanswered=unanswered, double_loss=False),
            f'=IF(OR({entry.result}="",{contradicted}),"",{entry.result})',
            f"={checked_opponent(entry.opponent, own, lay.players, rnd + 1)}",
            f"={game_points(entry.result, f'of round {rnd + 1}')}",
            "=" + swiss_paired_twice(rnd=rnd + 1, own=own, own_label=own_label, opponents=round_column(OPPONENTS_BLOCK, rnd),
                                     labels=labels, numbers=numbers, unanswered=unanswered),
            f"={checked_colour(colour, rnd + 1)}",
        )
    return formulas


def _write_player_helpers(book: Workbook, lay: UscfLayout, st: Styles) -> None:
    """Two columns of the Games sheet after the blocks: the games so far as the functions
    read them, and the player's number where an input USCF_EVENT reads is refused (the
    rating or games so far, a result that is not one, a bad opponent number)."""
    sheet = book.get_worksheet_by_name(GAMES)
    games_col, flag_col, own_col = lay.games_read, lay.to_check, lay.own_check
    sheet.merge_range(lay.first - 2, games_col, lay.first - 1, games_col, "Games so far read", st.header)
    sheet.merge_range(lay.first - 2, flag_col, lay.first - 1, flag_col, "Inputs to check", st.header)
    sheet.merge_range(lay.first - 2, own_col, lay.first - 1, own_col, "Own inputs check", st.header)
    sheet.merge_range(lay.first - 2, lay.label, lay.first - 1, lay.label, "Player", st.header)
    sheet.merge_range(lay.first - 2, lay.note, lay.first - 1, lay.note, "Note", st.header)
    for i in range(lay.players):
        r = lay.first + i
        rating, typed = f"{SHEET}!{cell(r, RATING_COL)}", f"{SHEET}!{cell(r, GAMES_COL)}"
        check = cell(r, own_col)
        write_quiet_formula(sheet, r, own_col, f"={_own_check_formula(r, cell(r, games_col))}",
                            st.read_ok)
        write_quiet_formula(sheet, r, games_col,
                            f'=IF({typed}="",IF(OR({no_rating(rating)},UnknownGames="new"),"",'
                            f'{ESTABLISHED_GAMES}),{typed})', st.formula_int)
        # Block ranges are on this sheet: drop the sheet name.
        bad = ",".join(f'NOT(ISNA(MATCH("{CHECK}*",{lay.block_range(index, r).split("!")[1]},0)))'
                       for index in (1, 3))
        write_quiet_formula(sheet, r, flag_col, f'=IF(OR({refused(check)},{bad}),{r - lay.first + 1},"")',
                            st.formula_int)
        write_quiet_formula(sheet, r, lay.label, f"={swiss_label(f'{SHEET}!{cell(r, 1)}')}", st.formula_text)
        write_quiet_formula(sheet, r, lay.note, f"={_note(r)}", st.formula_text)
    write_unanswered_row(sheet, lay, lay.block(OPPONENTS_BLOCK), st)
    flagged = span(lay.first, flag_col, lay.last, flag_col, fixed=True)
    sheet.write_string(1, flag_col - 1, "First to check", st.label)
    write_quiet_formula(sheet, 1, flag_col, f"=IF(COUNT({flagged})=0,0,MIN({flagged}))", st.formula_int)
    book.define_name(FIRST_TO_CHECK, f"={GAMES}!{absolute(1, flag_col)}")
    sheet.set_column(games_col, flag_col, 9)
    sheet.set_column(own_col, own_col, 30)
    sheet.set_column(lay.note, lay.note, 30)


def write_uscf_games_sheet(book: Workbook, lay: UscfLayout, st: Styles) -> None:
    """The Games sheet: its blocks, one column per round each, and the player helper
    columns after them."""
    write_games_sheet(book, lay, st, "What the functions read (formulas only)",
                      _games_blocks(st), _games_formulas(lay))
    _write_player_helpers(book, lay, st)
