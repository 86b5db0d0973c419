"""The FIDE Swiss template: opponent number, colour and result per round; FIDE totals per player.

Sheet ``Crosstable``: settings in row 2 (``Rules``, ``RatingYear``, ``NormTitle``), headers
in rows 3–4, one row per player from row 5: No., Name, Title, Fed, Rating, rated games,
birth year, peak, K; then for each round three columns (opponent's number, colour W/B,
result); then points, games, expected score, performance, change, new rating, first
rating and norm verdict.

Sheet ``Games`` holds, row for row, what the functions read, one block per quantity with
one column per round: the result (blanks stay blank), the opponent's rating found with
``INDEX`` on the player list (only where an opponent and a result are entered), the
expected score and rating change of each game, and the opponent's title and federation
for the norm check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .errors import RatingError
from .workbooks_layout import (
    SWISS_RESULT_CHOICES, Styles, absolute, cell, new_workbook, print_setup, span,
    write_conf_sheet, write_how_to_sheet, write_input, write_quiet_formula, write_result,
    write_text_input,
)

if TYPE_CHECKING:
    from .tournament import Tournament

__all__ = ["SWISS_PLAYERS", "SWISS_ROUNDS", "SwissLayout", "build_swiss"]

# Starting number -> (rated games, peak rating): the K inputs a TRF file does not carry.
KInputs = Mapping[int, "tuple[int | None, int | None]"]

SWISS_PLAYERS = 200
SWISS_ROUNDS = 11
SHEET = "Crosstable"
GAMES = "Games"
TOTAL_COLUMNS = ("Points", "Games", "Expected", "Perf. (TPR)", "Change", "New rating",
                 "First rating", "Norm")
BLOCKS = ("Result", "Opponent's rating", "Expected score", "Rating change",
          "Opponent's title", "Opponent's federation")

HOW_TO = [
    "1. Fill the player list in starting-number order: the row number is the player's number.",
    "2. For each round enter the opponent's number, the colour (W or B) and the result: 1, ½, "
    "0, + (forfeit win), - (forfeit loss), H (half-point bye), B (full-point bye), U "
    "(pairing-allocated bye), Z (zero-point bye). Pick results from the list: a typed 1/2 "
    "would become a date. Byes have no opponent.",
    "3. The opponent's rating is looked up from the player list; a game counts for rating "
    "only when it has an opponent and a result (1, ½ or 0) and the opponent is rated.",
    "4. The 'Games' sheet shows each game's expected score and rating change and what the "
    "functions read. It is all formulas: leave it alone.",
]


@dataclass(frozen=True)
class SwissLayout:
    """Where everything sits for ``players`` × ``rounds`` (zero-based)."""

    players: int
    rounds: int
    first: int = 4
    rounds_col: int = 9

    @property
    def last(self) -> int:
        return self.first + self.players - 1

    def opp(self, rnd: int) -> int:
        return self.rounds_col + 3 * rnd

    def colour(self, rnd: int) -> int:
        return self.rounds_col + 3 * rnd + 1

    def result(self, rnd: int) -> int:
        return self.rounds_col + 3 * rnd + 2

    @property
    def totals(self) -> int:
        return self.rounds_col + 3 * self.rounds

    def block(self, index: int) -> int:
        """First column of a block on the Games sheet (one gap column between blocks)."""
        return 2 + index * (self.rounds + 1)

    def block_range(self, index: int, row: int) -> str:
        start = self.block(index)
        return f"{GAMES}!{span(row, start, row, start + self.rounds - 1)}"


def _player_formulas(lay: SwissLayout, r: int) -> dict[str, str]:
    read = lay.block_range(0, r)
    opp = lay.block_range(1, r)
    expected = lay.block_range(2, r)
    titles = lay.block_range(4, r)
    feds = lay.block_range(5, r)
    rating, k, fed = cell(r, 4), cell(r, 8), cell(r, 3)
    entered = f'SUMPRODUCT(--({read}<>""))'
    none = f"COUNT({opp})=0"
    return {
        "K": f'=IF({rating}="","",FIDE_K({rating},{cell(r, 5)},{cell(r, 6)},RatingYear,'
             f'{cell(r, 7)},COUNT({opp})))',
        "Points": f'=IF({entered}=0,"",COUNTIF({read},1)+COUNTIF({read},"+")+COUNTIF({read},"B")'
                  f'+COUNTIF({read},"U")+(COUNTIF({read},"½")+COUNTIF({read},"H"))/2)',
        "Games": f'=IF({entered}=0,"",{entered})',
        "Expected": f'=IF(COUNT({expected})=0,"",SUM({expected}))',
        "Perf. (TPR)": f'=IF({none},"",PERF_RATING({opp},{read},"FIDE"))',
        "Change": f'=IF(OR({rating}="",{none}),"",FIDE_CHANGE({rating},{opp},{read},{k},Rules))',
        "New rating": f'=IF(OR({rating}="",{none}),"",FIDE_NEWRATING({rating},{opp},{read},{k},Rules))',
        "First rating": f'=IF(OR({rating}<>"",{none}),"",FIDE_INITIAL({opp},{read}))',
        "Norm": f'=IF({entered}=0,"",FIDE_NORM({opp},{read},NormTitle,{titles},{feds},{fed}))',
    }


def _write_settings(sheet: Worksheet, book: Workbook, st: Styles, name: str, year: int | None) -> None:
    sheet.write_string(0, 0, "FIDE Swiss", st.title)
    sheet.write_string(1, 0, "Event", st.label)
    write_text_input(sheet, 1, 1, name, st.input_text)
    sheet.write_string(1, 3, "Rules", st.label)
    sheet.write_string(1, 4, "2025", st.input_result)
    sheet.write_string(1, 5, "Year (K)", st.label)
    write_input(sheet, 1, 6, year, st.input_int)
    sheet.write_string(1, 7, "Norm", st.label)
    sheet.write_string(1, 8, "GM", st.input_result)
    book.define_name("Rules", f"={SHEET}!$E$2")
    book.define_name("RatingYear", f"={SHEET}!$G$2")
    book.define_name("NormTitle", f"={SHEET}!$I$2")
    sheet.data_validation(1, 4, 1, 4, {"validate": "list", "source": ["2025", "2024"]})
    sheet.data_validation(1, 6, 1, 6, {"validate": "integer", "criteria": "between",
                                       "minimum": 1950, "maximum": 2200})
    sheet.data_validation(1, 8, 1, 8, {"validate": "list", "source": ["GM", "IM", "WGM", "WIM"]})


def _write_headers(sheet: Worksheet, lay: SwissLayout, st: Styles) -> None:
    top = lay.first - 1
    for col, text in enumerate(["No.", "Name", "Title", "Fed", "Rating", "Rated games",
                                "Birth year", "Peak", "K"]):
        sheet.merge_range(top - 1, col, top, col, text, st.header)
    for rnd in range(lay.rounds):
        sheet.merge_range(top - 1, lay.opp(rnd), top - 1, lay.result(rnd), f"Round {rnd + 1}", st.header)
        sheet.write_string(top, lay.opp(rnd), "Opp", st.header)
        sheet.write_string(top, lay.colour(rnd), "Col", st.header)
        sheet.write_string(top, lay.result(rnd), "Res", st.header)
    for offset, text in enumerate(TOTAL_COLUMNS):
        sheet.merge_range(top - 1, lay.totals + offset, top, lay.totals + offset, text, st.header)


def _write_players(sheet: Worksheet, lay: SwissLayout, st: Styles,
                   tournament: "Tournament | None", k_inputs: KInputs) -> None:
    by_number = {p.number: p for p in tournament.players} if tournament else {}
    formats = {"K": st.formula_int, "Points": st.formula_points, "Games": st.formula_int,
               "Expected": st.formula_two, "Perf. (TPR)": st.formula_int,
               "Change": st.formula_signed, "New rating": st.formula_int,
               "First rating": st.formula_int, "Norm": st.formula_text}
    for i in range(lay.players):
        r = lay.first + i
        p = by_number.get(i + 1)
        sheet.write_number(r, 0, i + 1, st.header)
        write_text_input(sheet, r, 1, p.name if p else "", st.input_text)
        write_text_input(sheet, r, 2, p.title if p else "", st.input_result)
        write_text_input(sheet, r, 3, p.federation if p else "", st.input_result)
        write_input(sheet, r, 4, p.rating if p else None, st.input_int)
        rated_games, peak = k_inputs.get(i + 1, (None, None))
        write_input(sheet, r, 5, rated_games, st.input_int)
        write_input(sheet, r, 6, p.birth_year if p else None, st.input_int)
        write_input(sheet, r, 7, peak, st.input_int)
        formulas = _player_formulas(lay, r)
        write_quiet_formula(sheet, r, 8, formulas["K"], formats["K"])
        for rnd in range(lay.rounds):
            game = p.game(rnd + 1) if p else None
            write_input(sheet, r, lay.opp(rnd), game.opponent if game else None, st.input_int)
            colour = (game.colour or "").upper() if game else ""
            write_text_input(sheet, r, lay.colour(rnd), colour, st.input_result)
            write_result(sheet, r, lay.result(rnd), game.cell if game else "", st.input_result)
        for offset, name in enumerate(TOTAL_COLUMNS):
            write_quiet_formula(sheet, r, lay.totals + offset, formulas[name], formats[name])


def _write_games_sheet(book: Workbook, lay: SwissLayout, st: Styles) -> Worksheet:
    sheet = book.add_worksheet(GAMES)
    sheet.write_string(0, 0, "Per game: what the functions read, and each game's expected score "
                             "and rating change (formulas only)", st.subtitle)
    ratings = f"{SHEET}!{span(lay.first, 4, lay.last, 4, fixed=True)}"
    titles = f"{SHEET}!{span(lay.first, 2, lay.last, 2, fixed=True)}"
    feds = f"{SHEET}!{span(lay.first, 3, lay.last, 3, fixed=True)}"
    sheet.merge_range(lay.first - 2, 0, lay.first - 1, 0, "No.", st.header)
    sheet.merge_range(lay.first - 2, 1, lay.first - 1, 1, "Name", st.header)
    for index, title in enumerate(BLOCKS):
        start = lay.block(index)
        sheet.merge_range(lay.first - 2, start, lay.first - 2, start + lay.rounds - 1, title, st.header)
        for rnd in range(lay.rounds):
            sheet.write_number(lay.first - 1, start + rnd, rnd + 1, st.header)
        sheet.set_column(start, start + lay.rounds - 1, 6.5 if index < 4 else 5)
        sheet.set_column(start + lay.rounds, start + lay.rounds, 1.5)
    formats = (st.formula_text, st.formula_int, st.formula_two, st.formula_signed,
               st.formula_text, st.formula_text)
    for i in range(lay.players):
        r = lay.first + i
        sheet.write_number(r, 0, i + 1, st.header)
        name = f"{SHEET}!{cell(r, 1)}"
        write_quiet_formula(sheet, r, 1, f'=IF({name}="","",{name})', st.formula_text)
        rating, k = f"{SHEET}!{absolute(r, 4)}", f"{SHEET}!{absolute(r, 8)}"
        for rnd in range(lay.rounds):
            opp_no = f"{SHEET}!{cell(r, lay.opp(rnd))}"
            res = f"{SHEET}!{cell(r, lay.result(rnd))}"
            read = cell(r, lay.block(0) + rnd)
            opp = cell(r, lay.block(1) + rnd)
            change = cell(r, lay.block(3) + rnd)
            paired = f'OR({opp_no}="",{res}="")'
            formulas = (
                f'=IF({res}="","",{res})',
                f'=IF({paired},"",IF(INDEX({ratings},{opp_no})="","",INDEX({ratings},{opp_no})))',
                # Only rated games have an expected score: forfeits and byes give no change.
                f'=IF(ISNUMBER({change}),FIDE_EXPECTED({rating},{opp},Rules),"")',
                f'=IF(OR({rating}="",{opp}=""),"",FIDE_CHANGE({rating},{opp},{read},{k},Rules))',
                f'=IF({paired},"",INDEX({titles},{opp_no})&"")',
                f'=IF({paired},"",INDEX({feds},{opp_no})&"")',
            )
            for index, formula in enumerate(formulas):
                write_quiet_formula(sheet, r, lay.block(index) + rnd, formula, formats[index])
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 22)
    sheet.freeze_panes(lay.first, 2)
    return sheet


def _validate(sheet: Worksheet, lay: SwissLayout) -> None:
    opp = " ".join(span(lay.first, lay.opp(r), lay.last, lay.opp(r)) for r in range(lay.rounds))
    col = " ".join(span(lay.first, lay.colour(r), lay.last, lay.colour(r)) for r in range(lay.rounds))
    res = " ".join(span(lay.first, lay.result(r), lay.last, lay.result(r)) for r in range(lay.rounds))
    sheet.data_validation(cell(lay.first, lay.opp(0)), {
        "validate": "integer", "criteria": "between", "minimum": 1, "maximum": lay.players,
        "multi_range": opp, "error_title": "Opponent",
        "error_message": f"The opponent's number, 1 to {lay.players}; blank for a bye."})
    sheet.data_validation(cell(lay.first, lay.colour(0)), {
        "validate": "list", "source": ["W", "B"], "multi_range": col})
    sheet.data_validation(cell(lay.first, lay.result(0)), {
        "validate": "list", "source": list(SWISS_RESULT_CHOICES), "multi_range": res,
        "error_title": "Result",
        "error_message": "Pick a result: 1, ½, 0, + or - (forfeits), H, B, U or Z (byes)."})
    sheet.data_validation(lay.first, 4, lay.last, 4, {
        "validate": "integer", "criteria": "between", "minimum": 0, "maximum": 3500})


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
                tournament: "Tournament | None" = None, k_inputs: KInputs | None = None) -> Path:
    """Write the Swiss workbook, sized ``players`` × ``rounds``, filled from ``tournament``.

    A tournament's player with starting number k fills row k; the size grows to the
    largest starting number and the number of rounds of the event. ``k_inputs`` maps a
    starting number to the K inputs a TRF file lacks: (rated games, peak rating).
    """
    if tournament is not None:
        players = max((p.number for p in tournament.players), default=1)
        rounds = max(tournament.rounds, max((len(p.games) for p in tournament.players), default=1), 1)
    if not 1 <= players <= 2000 or not 1 <= rounds <= 30:
        raise RatingError(f"size: {players} players × {rounds} rounds is outside 1-2000 × 1-30")
    lay = SwissLayout(players, rounds)
    book, st = new_workbook(path, "FIDE Swiss", "Swiss crosstable with FIDE rating functions")
    sheet = book.add_worksheet(SHEET)
    _write_settings(sheet, book, st, tournament.name if tournament else "",
                    tournament.start_date.year if tournament and tournament.start_date else None)
    _write_headers(sheet, lay, st)
    _write_players(sheet, lay, st, tournament, k_inputs or {})
    _validate(sheet, lay)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, 4, lay.last, 4, fixed=True)}")
    _chart(book, sheet, lay)
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 3, 5.5)
    sheet.set_column(4, 7, 7.5)
    sheet.set_column(8, 8, 4.5)
    for rnd in range(lay.rounds):
        sheet.set_column(lay.opp(rnd), lay.opp(rnd), 4.5)
        sheet.set_column(lay.colour(rnd), lay.colour(rnd), 3.5)
        sheet.set_column(lay.result(rnd), lay.result(rnd), 4)
    sheet.set_column(lay.totals, lay.totals + 6, 8)
    sheet.set_column(lay.totals + 7, lay.totals + 7, 34)
    sheet.freeze_panes(lay.first, 2)
    print_setup(sheet, 0, lay.last, lay.totals + len(TOTAL_COLUMNS) - 1,
                title_rows=(lay.first - 2, lay.first - 1))
    sheet.activate()
    _write_games_sheet(book, lay, st)
    write_how_to_sheet(book, st, "FIDE Swiss: how to use", HOW_TO)
    write_conf_sheet(book, st)
    book.close()
    return path
