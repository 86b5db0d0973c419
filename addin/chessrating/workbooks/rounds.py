"""Crosstables with a group of columns per round: the Swiss and the US Chess templates.

Both list the players in starting-number order, one row each, and give every round a
group of input columns (the opponent's number first, the result last; the Swiss
template has the colour between them), then the players' totals. A second sheet,
``Games``, holds row for row what the formulas read, one block of round columns per
quantity. :class:`RoundsLayout` says where everything sits; the writers here fill what
the two templates share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, NamedTuple, TypeVar

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..errors import RatingError
from .contradictions import swiss_unanswered
from .print_areas import print_entered
from .layout import (
    CROSSTABLE, GAMES, SWISS_RESULT_CHOICES, Styles, cell, opponent_rules, print_setup, span,
    write_input, write_quiet_formula, write_result, write_text_input,
)

if TYPE_CHECKING:
    from ..tournament import RoundCells, Tournament

__all__ = ["RoundsLayout", "RoundEntry", "GamesBlock", "write_round_headers", "write_round_inputs",
           "set_round_widths", "validate_rounds", "write_games_sheet", "write_unanswered_row"]

_Layout = TypeVar("_Layout", bound="RoundsLayout")


class RoundEntry(NamedTuple):
    """A round's inputs in one row of the crosstable, as addresses the Games sheet reads.

    >>> entry = RoundEntry("Crosstable!H5", "Crosstable!I5")
    >>> entry.result_read
    '=IF(OR(Crosstable!H5="",Crosstable!I5=""),"",Crosstable!I5)'
    """

    opponent: str
    result: str

    @property
    def no_game(self) -> str:
        """Formula (no ``=``): TRUE while the opponent or the result is blank (a bye, or a
        game not played yet)."""
        return f'OR({self.opponent}="",{self.result}="")'

    @property
    def result_read(self) -> str:
        """The result as the functions read it: a round without an opponent (a bye) is no game."""
        return f'=IF({self.no_game},"",{self.result})'


@dataclass(frozen=True)
class RoundsLayout:
    """Where everything sits in a crosstable with a group of columns per round, for
    ``players`` × ``rounds`` (zero-based): player rows from ``first``, the rounds from
    ``rounds_col`` (the opponent's number first in each group, the result last), the
    totals after them; on the Games sheet one block of ``rounds`` columns per quantity.

    >>> lay = RoundsLayout(10, 3, rounds_col=7)
    >>> lay.last, lay.opp(1), lay.result(1), lay.totals, lay.block(1), lay.block_range(1, 4)
    (13, 9, 10, 13, 6, 'Games!G5:I5')
    """

    players: int
    rounds: int
    first: int = 4
    rounds_col: int = 9
    # The headers of one round's columns; their number is the columns per round.
    round_headers: ClassVar[tuple[str, ...]] = ("Opp", "Res")

    @classmethod
    def sized(cls: type[_Layout], players: int, rounds: int,
              tournament: Tournament | None = None) -> _Layout:
        """The layout for ``players`` × ``rounds``, or sized to ``tournament``: its largest
        starting number and its rounds (or the longest line of games, if longer).

        >>> RoundsLayout.sized(1, 31)
        Traceback (most recent call last):
        ...
        chessrating.errors.RatingError: size: 1 players × 31 rounds is outside 1-2000 × 1-30
        """
        if tournament is not None:
            players = max((p.number for p in tournament.players), default=1)
            rounds = max(tournament.rounds, max((len(p.games) for p in tournament.players), default=1), 1)
        if not 1 <= players <= 2000 or not 1 <= rounds <= 30:
            raise RatingError(f"size: {players} players × {rounds} rounds is outside 1-2000 × 1-30")
        return cls(players, rounds)

    @property
    def last(self) -> int:
        return self.first + self.players - 1

    @property
    def per_round(self) -> int:
        return len(self.round_headers)

    @property
    def has_colour(self) -> bool:
        return "Col" in self.round_headers

    def opp(self, rnd: int) -> int:
        return self.rounds_col + self.per_round * rnd

    def colour(self, rnd: int) -> int:
        """The colour column (W/B) of a round; only layouts that have one."""
        assert self.has_colour, "this layout has no colour column"
        return self.opp(rnd) + 1

    def result(self, rnd: int) -> int:
        return self.opp(rnd) + self.per_round - 1

    @property
    def totals(self) -> int:
        return self.rounds_col + self.per_round * self.rounds

    def block(self, index: int) -> int:
        """First column of a block on the Games sheet (one gap column between blocks)."""
        return 2 + index * (self.rounds + 1)

    def block_range(self, index: int, first: int, last: int | None = None) -> str:
        """A block's rounds on the Games sheet, in row ``first`` (to ``last``)."""
        start = self.block(index)
        return f"{GAMES}!{span(first, start, first if last is None else last, start + self.rounds - 1)}"

    def entered(self, r: int, rnd: int) -> RoundEntry:
        """The crosstable's opponent-number and result cells of row ``r`` in round ``rnd``."""
        return RoundEntry(f"{CROSSTABLE}!{cell(r, self.opp(rnd))}", f"{CROSSTABLE}!{cell(r, self.result(rnd))}")


def write_round_headers(sheet: Worksheet, lay: RoundsLayout, st: Styles,
                        player_headers: Sequence[str], total_columns: Sequence[str]) -> None:
    """The two header rows above the players: player and total columns merged over both,
    ``Round n`` over each round's group with the group's column headers below it."""
    top = lay.first - 1
    for col, text in enumerate(player_headers):
        sheet.merge_range(top - 1, col, top, col, text, st.header)
    for rnd in range(lay.rounds):
        sheet.merge_range(top - 1, lay.opp(rnd), top - 1, lay.result(rnd), f"Round {rnd + 1}", st.header)
        for offset, text in enumerate(lay.round_headers):
            sheet.write_string(top, lay.opp(rnd) + offset, text, st.header)
    for offset, text in enumerate(total_columns):
        sheet.merge_range(top - 1, lay.totals + offset, top, lay.totals + offset, text, st.header)


def write_round_inputs(sheet: Worksheet, lay: RoundsLayout, st: Styles, r: int,
                       cells: "RoundCells | None") -> None:
    """Row ``r``'s round inputs from a tournament's cells (:meth:`Tournament.round_cells`;
    its row for this row's starting number), blank where they hold nothing."""
    row = r - lay.first
    games = (list(zip(cells.opponents[row], cells.colours[row], cells.results[row]))
             if cells is not None and row < len(cells.results) else [])
    for rnd in range(lay.rounds):
        opponent, colour, result = games[rnd] if rnd < len(games) else (None, None, None)
        write_input(sheet, r, lay.opp(rnd), opponent, st.input_int)
        if lay.has_colour:
            write_text_input(sheet, r, lay.colour(rnd), colour, st.input_result)
        write_result(sheet, r, lay.result(rnd), result, st.input_result)


def set_round_widths(sheet: Worksheet, lay: RoundsLayout) -> None:
    """Narrow round columns: opponent's number, colour, result."""
    for rnd in range(lay.rounds):
        sheet.set_column(lay.opp(rnd), lay.opp(rnd), 4.5)
        if lay.has_colour:
            sheet.set_column(lay.colour(rnd), lay.colour(rnd), 3.5)
        sheet.set_column(lay.result(rnd), lay.result(rnd), 4)


def validate_rounds(sheet: Worksheet, lay: RoundsLayout, st: Styles,
                    result_title: str | None = None) -> None:
    """Round inputs: opponent numbers (:func:`opponent_rules`), colours W/B and results
    from the list of Swiss results; ``result_title`` heads the refusal of a result."""
    opponent_rules(sheet, lay.first, lay.last, [lay.opp(r) for r in range(lay.rounds)],
                   lay.players, st.mirror_warning)
    if lay.has_colour:
        colours = " ".join(span(lay.first, lay.colour(r), lay.last, lay.colour(r)) for r in range(lay.rounds))
        sheet.data_validation(cell(lay.first, lay.colour(0)), {
            "validate": "list", "source": ["W", "B"], "multi_range": colours})
    results = " ".join(span(lay.first, lay.result(r), lay.last, lay.result(r)) for r in range(lay.rounds))
    titled = {"error_title": result_title} if result_title else {}
    sheet.data_validation(cell(lay.first, lay.result(0)), {
        "validate": "list", "source": list(SWISS_RESULT_CHOICES), "multi_range": results,
        **titled,
        "error_message": "Pick a result: 1, ½, 0, + or - (forfeits), H, B, U or Z (byes)."})


class GamesBlock(NamedTuple):
    """One block of the Games sheet: its title, column width and number format."""

    title: str
    width: float
    fmt: Format


def write_games_sheet(book: Workbook, lay: RoundsLayout, st: Styles, heading: str,
                      blocks: Sequence[GamesBlock],
                      formulas: Callable[[int, int], Sequence[str]]) -> Worksheet:
    """The Games sheet: row for row the players of the crosstable, one block of round
    columns per quantity; ``formulas(r, rnd)`` gives row ``r``'s formulas of round
    ``rnd``, one per block."""
    sheet = book.add_worksheet(GAMES)
    sheet.write_string(0, 0, heading, st.subtitle)
    sheet.merge_range(lay.first - 2, 0, lay.first - 1, 0, "No.", st.header)
    sheet.merge_range(lay.first - 2, 1, lay.first - 1, 1, "Name", st.header)
    for index, block in enumerate(blocks):
        start = lay.block(index)
        sheet.merge_range(lay.first - 2, start, lay.first - 2, start + lay.rounds - 1, block.title, st.header)
        for rnd in range(lay.rounds):
            sheet.write_number(lay.first - 1, start + rnd, rnd + 1, st.header)
        sheet.set_column(start, start + lay.rounds - 1, block.width)
        sheet.set_column(start + lay.rounds, start + lay.rounds, 1.5)
    for i in range(lay.players):
        r = lay.first + i
        sheet.write_number(r, 0, i + 1, st.header)
        name = f"{CROSSTABLE}!{cell(r, 1)}"
        write_quiet_formula(sheet, r, 1, f'=IF({name}="","",{name})', st.formula_text)
        for rnd in range(lay.rounds):
            for index, formula in enumerate(formulas(r, rnd)):
                write_quiet_formula(sheet, r, lay.block(index) + rnd, formula, blocks[index].fmt)
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 22)
    sheet.freeze_panes(lay.first, 2)
    last = lay.block(len(blocks) - 1) + lay.rounds - 1
    print_setup(sheet, 0, lay.last, last, title_rows=(lay.first - 2, lay.first - 1), title_columns=(0, 1))
    print_entered(book, sheet, GAMES, last, lay.first, f"{GAMES}!{span(lay.first, 1, lay.last, 1, fixed=True)}")
    return sheet


def write_unanswered_row(sheet: Worksheet, lay: RoundsLayout, start: int, st: Styles) -> None:
    """Below the players, under each round's column of checked opponent numbers (the
    block from column ``start``), the round's :func:`.contradictions.swiss_unanswered`
    cell, which the contradiction checks read as their guard."""
    bins = span(lay.first, 0, lay.last - 1, 0, fixed=True)  # the numbers 1 .. players - 1
    for rnd in range(lay.rounds):
        col = start + rnd
        opponents = span(lay.first, col, lay.last, col, fixed=True)
        write_quiet_formula(sheet, lay.last + 1, col,
                            "=" + swiss_unanswered(opponents=opponents, bins=bins, players=lay.players),
                            st.formula_int)
