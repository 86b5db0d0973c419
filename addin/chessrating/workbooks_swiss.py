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
the points of each round (built-in functions only, every result spelling).

Points add up every round, byes included; Games counts the rounds with an opponent and
a result. A rating cell that is blank, 0 or ``-`` means no rating. The player columns
carry the names ``chessrating recalc`` reads: ``Names``, ``Points``, ``Performance``,
``RatingChange``, ``NewRating``, ``InitialRating``. ``NormTitle`` is blank unless given
(**Decision**, as in the round robin): the norm column stays quiet until a title is
picked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .errors import RatingError
from .workbooks_event import NORM_TITLES
from .workbooks_layout import (
    SWISS_RESULT_CHOICES, Styles, absolute, cell, checked_opponent, game_points, new_workbook,
    no_rating, opponent_rules, print_setup, span, write_conf_sheet, write_how_to_sheet, write_input, write_quiet_formula, write_result,
    write_text_input,
)

if TYPE_CHECKING:
    from .tournament import Tournament

__all__ = ["SWISS_PLAYERS", "SWISS_ROUNDS", "SwissLayout", "build_swiss", "STANDINGS_NAMES"]

# Starting number -> (rated games, peak rating): the K inputs a TRF file does not carry.
KInputs = Mapping[int, "tuple[int | None, int | None]"]

SWISS_PLAYERS = 200
SWISS_ROUNDS = 11
SHEET = "Crosstable"
GAMES = "Games"
TOTAL_COLUMNS = ("Points", "Games", "Expected", "Perf. (TPR)", "Change", "New rating",
                 "First rating", "Norm")
BLOCKS = ("Result", "Opponent's rating", "Expected score", "Rating change",
          "Opponent's title", "Opponent's federation", "Opponent no.", "Points")
# Workbook names of the player columns, read by ``chessrating recalc`` for the standings.
STANDINGS_NAMES = {"Names": "Name", "Points": "Points", "Performance": "Perf. (TPR)",
                   "RatingChange": "Change", "NewRating": "New rating", "InitialRating": "First rating"}

HOW_TO = [
    "1. Fill the player list in starting-number order: the row number is the player's number.",
    "2. For each round enter the opponent's number, the colour (W or B) and the result: 1, ½, "
    "0, + (forfeit win), - (forfeit loss), H (half-point bye), B (full-point bye), U "
    "(pairing-allocated bye), Z (zero-point bye); W, D, L and the other results of the "
    "functions count too. Pick results from the list: a typed 1/2 would become a date. Byes "
    "have no opponent. A red opponent cell is not a player number, or the player's own.",
    "3. The opponent's rating is looked up from the player list; a game counts for rating "
    "only when it has an opponent and a result (1, ½ or 0) and the opponent is rated. A "
    "rating of 0 or - means no rating, like a blank. Points add up every round, byes "
    "included; Games counts the rounds with an opponent.",
    "4. Pick a title (GM, IM, WGM, WIM) in 'Norm' at the top for each player's title-norm "
    "verdict; the column stays empty until then.",
    "5. The 'Games' sheet shows each game's expected score and rating change and what the "
    "formulas read. It is all formulas: leave it alone.",
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
    points = lay.block_range(7, r)
    rating, k, fed = cell(r, 4), cell(r, 8), cell(r, 3)
    unrated = no_rating(rating)
    entered = f'SUMPRODUCT(--({points}<>""))'
    played = f'SUMPRODUCT(--({read}<>""))'
    # A message in the opponents' ratings (a bad opponent number) is passed on, so the
    # function's error names it; only an all-empty block keeps the cell quiet.
    none = f'SUMPRODUCT(--({opp}<>""))=0'
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
        "Norm": f'=IF(OR(NormTitle="",{played}=0),"",FIDE_NORM({opp},{read},NormTitle,{titles},{feds},{fed}))',
    }


def _write_settings(sheet: Worksheet, book: Workbook, st: Styles, name: str, year: int | None,
                    norm_title: str) -> None:
    sheet.write_string(0, 0, "FIDE Swiss", st.title)
    sheet.write_string(1, 0, "Event", st.label)
    write_text_input(sheet, 1, 1, name, st.input_text)
    sheet.write_string(1, 3, "Rules", st.label)
    sheet.write_string(1, 4, "2025", st.input_result)
    sheet.write_string(1, 5, "Year (K)", st.label)
    write_input(sheet, 1, 6, year, st.input_int)
    sheet.write_string(1, 7, "Norm", st.label)
    write_text_input(sheet, 1, 8, norm_title, st.input_result)
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
               st.formula_text, st.formula_text, st.formula_int, st.formula_one)
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
            checked = cell(r, lay.block(6) + rnd)
            paired = f'OR({opp_no}="",{res}="")'
            found = f"INDEX({ratings},{checked})"
            formulas = (
                # A round without an opponent (a bye) is no game for the functions.
                f'=IF({paired},"",{res})',
                # A bad opponent number shows its message here and in the functions' cells.
                f'=IF({paired},"",IF(ISNUMBER({checked}),IF({no_rating(found)},"",{found}),{checked}))',
                # Only rated games have an expected score: forfeits and byes give no change.
                f'=IF(ISNUMBER({change}),FIDE_EXPECTED({rating},{opp},Rules),"")',
                f'=IF(OR({no_rating(rating)},{opp}=""),"",FIDE_CHANGE({rating},{opp},{read},{k},Rules))',
                f'=IF(OR({paired},NOT(ISNUMBER({checked}))),"",INDEX({titles},{checked})&"")',
                f'=IF(OR({paired},NOT(ISNUMBER({checked}))),"",INDEX({feds},{checked})&"")',
                f"={checked_opponent(opp_no, f'{SHEET}!$A{r + 1}', lay.players)}",
                f"={game_points(res)}",
            )
            for index, formula in enumerate(formulas):
                write_quiet_formula(sheet, r, lay.block(index) + rnd, formula, formats[index])
    sheet.set_column(0, 0, 4.5)
    sheet.set_column(1, 1, 22)
    sheet.freeze_panes(lay.first, 2)
    last = lay.block(len(BLOCKS) - 1) + lay.rounds - 1
    print_setup(sheet, 0, lay.last, last, title_rows=(lay.first - 2, lay.first - 1), title_columns=(0, 1))
    return sheet


def _validate(sheet: Worksheet, lay: SwissLayout, st: Styles) -> None:
    col = " ".join(span(lay.first, lay.colour(r), lay.last, lay.colour(r)) for r in range(lay.rounds))
    res = " ".join(span(lay.first, lay.result(r), lay.last, lay.result(r)) for r in range(lay.rounds))
    opponent_rules(sheet, lay.first, lay.last, [lay.opp(r) for r in range(lay.rounds)],
                   lay.players, st.mirror_warning)
    sheet.data_validation(cell(lay.first, lay.colour(0)), {
        "validate": "list", "source": ["W", "B"], "multi_range": col})
    sheet.data_validation(cell(lay.first, lay.result(0)), {
        "validate": "list", "source": list(SWISS_RESULT_CHOICES), "multi_range": res,
        "error_title": "Result",
        "error_message": "Pick a result: 1, ½, 0, + or - (forfeits), H, B, U or Z (byes)."})
    sheet.data_validation(lay.first, 4, lay.last, 4, {
        "validate": "integer", "criteria": "between", "minimum": 1, "maximum": 3500,
        "error_message": "A rating is a whole number from 1 (blank for unrated)."})


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
                norm_title: str = "") -> Path:
    """Write the Swiss workbook, sized ``players`` × ``rounds``, filled from ``tournament``.

    A tournament's player with starting number k fills row k; the size grows to the
    largest starting number and the number of rounds of the event. ``k_inputs`` maps a
    starting number to the K inputs a TRF file lacks: (rated games, peak rating).
    ``norm_title`` fills the Norm cell (blank: no norm verdicts until one is picked).
    """
    if norm_title not in NORM_TITLES:
        raise RatingError(f"norm_title: {norm_title!r} is not one of "
                          f"{', '.join(t for t in NORM_TITLES if t)} or blank")
    if tournament is not None:
        players = max((p.number for p in tournament.players), default=1)
        rounds = max(tournament.rounds, max((len(p.games) for p in tournament.players), default=1), 1)
    if not 1 <= players <= 2000 or not 1 <= rounds <= 30:
        raise RatingError(f"size: {players} players × {rounds} rounds is outside 1-2000 × 1-30")
    lay = SwissLayout(players, rounds)
    book, st = new_workbook(path, "FIDE Swiss", "Swiss crosstable with FIDE rating functions")
    sheet = book.add_worksheet(SHEET)
    _write_settings(sheet, book, st, tournament.name if tournament else "",
                    tournament.start_date.year if tournament and tournament.start_date else None,
                    norm_title)
    _write_headers(sheet, lay, st)
    _write_players(sheet, lay, st, tournament, k_inputs or {})
    _validate(sheet, lay, st)
    book.define_name("Ratings", f"={SHEET}!{span(lay.first, 4, lay.last, 4, fixed=True)}")
    for name, header in STANDINGS_NAMES.items():
        col = 1 if header == "Name" else lay.totals + TOTAL_COLUMNS.index(header)
        book.define_name(name, f"={SHEET}!{span(lay.first, col, lay.last, col, fixed=True)}")
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
