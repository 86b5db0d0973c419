"""The calculators workbook: one sheet per single-player calculator.

* ``Elo`` — classic Elo: expected score and change per game, change, new rating, performance.
* ``FIDE`` — K from its rules (``FIDE_K``), expected score and change per game from table
  8.1.2, change, new rating, TPR, dp of the score, first rating of an unrated player.
* ``US Chess`` — N′, K, bonus, new rating (``USCF_NEWRATING``), floor, performance.
* ``Performance`` — every method of ``PERF_RATING`` side by side and the title-norm verdict.
* ``Expected score`` — logistic and FIDE expected scores by rating difference; FIDE dp by score.
* ``Goal`` — ``RATING_GOAL`` and the projected rating game by game, with a line chart.

Each sheet ships with a worked example from the rule book (docs/RULES.md) in its inputs,
so the sheet shows numbers at once; overwrite the yellow cells with your own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .. import checks
from .check_formulas import first_check, game_points, no_rating
from .layout import (
    RESULT_CHOICES, Styles, absolute, cell, new_workbook, print_setup, span, validate_range,
    validate_ratings, write_conf_sheet, write_how_to_sheet, write_input, write_quiet_formula,
    write_result, write_text_input,
)

__all__ = ["GAME_ROWS", "GOAL_GAMES", "build_calculators", "EXAMPLES"]

GAME_ROWS = 12
GOAL_GAMES = 60
TABLE_TOP = 14  # header row of the games table (Excel row 15)

# Worked examples (docs/RULES.md) written into the inputs.
EXAMPLES: dict[str, Any] = {
    # §2 classic Elo: a 2000 player against 1800, 2100 and 2200.
    "Elo": {"rating": 2000, "k": 20, "games": [(1800, "1"), (2100, "½"), (2200, "0")]},
    # §3.5 FIDE's published first rating: 1902, 1877, 1884, 2012, 1832, score 3 -> 1922.
    "FIDE": {"games": [(1902, "1"), (1877, "1"), (1884, "0"), (2012, "1"), (1832, "0")]},
    # §4.4 US Chess special formula: 1500 on 6 games; 1400 W, 1550 L, 1650 D -> 1511.11.
    "US Chess": {"rating": 1500, "games_so_far": 6,
                 "games": [(1400, "1"), (1550, "0"), (1650, "½")]},
    # §5 goal: 1600, K 20, winning against 1600 opponents reaches 1700 after 12 games.
    "Goal": {"rating": 1600, "target": 1700, "opponent": 1600, "k": 20, "score": 1, "system": "ELO"},
}

PERF_METHODS = ("FIDE", "OWN", "400", "ELO", "PTP", "USCF")

HOW_TO = [
    "Each sheet is one calculator. Yellow cells are inputs and hold a worked example from the "
    "rule book; type over them. Results: 1, ½, 0 (rated), + and - (forfeits, points only).",
    "Elo: the classic logistic formula. FIDE: expected scores from table 8.1.2 with the "
    "400-point rule, K from FIDE's rules (leave Rating blank for an unrated player: the first "
    "rating needs 5 games against rated opponents). US Chess: standard or special formula, "
    "bonus and floor. Performance: six methods side by side and the title-norm check. "
    "Expected score: the two curves by rating difference. Goal: games needed to reach a "
    "target, and the projected rating game by game.",
]


# What each numeric input is, for its data validation: the functions' own ranges.
_RATING_INPUTS = {"Rating", "Peak rating", "Target", "Opponent rating", "Rating (for OWN)"}
_RANGES = {
    "K": (checks.K, "the K-factor"),
    "Rated games so far": (checks.GAMES, "rated games before this event"),
    "Games so far": (checks.GAMES, "rated games before this event"),
    "Birth year": (checks.YEAR, "year of birth"),
    "Year": (checks.YEAR, "the rating period's year; blank for this year"),
    "Age": (checks.AGE, "age in years, used only for an unrated player"),
    "Bonus B": (checks.BONUS_THRESHOLD, "the bonus threshold B"),
    "Score per game": (checks.SCORE_PER_GAME, "the average score of each game"),
}


def _inputs(sheet: Worksheet, st: Styles, top: int, rows: list[tuple[str, Any, str]]) -> dict[str, str]:
    """Label/value pairs from ``top`` down, each validated as the functions read it;
    returns each label's absolute value address."""
    where = {}
    for offset, (label, value, kind) in enumerate(rows):
        r = top + offset
        sheet.write_string(r, 0, label, st.label)
        fmt = {"int": st.input_int, "text": st.input_result, "number": st.input_number}[kind]
        if kind == "text":
            write_text_input(sheet, r, 1, value, fmt)
        else:
            write_input(sheet, r, 1, value, fmt)
        if label in _RATING_INPUTS:
            validate_ratings(sheet, r, r, 1, label)
        elif label in _RANGES:
            validate_range(sheet, r, r, 1, *_RANGES[label][:1], label, _RANGES[label][1])
        where[label] = absolute(r, 1)
    return where


def _outputs(sheet: Worksheet, st: Styles, top: int, col: int,
             rows: list[tuple[str, str, Any]]) -> dict[str, str]:
    where = {}
    for offset, (label, formula, fmt) in enumerate(rows):
        r = top + offset
        sheet.write_string(r, col, label, st.label)
        if formula:  # else written later by the caller
            write_quiet_formula(sheet, r, col + 1, formula, fmt)
        where[label] = absolute(r, col + 1)
    return where


def _games_table(sheet: Worksheet, st: Styles, games: list[tuple[int | None, str]],
                 extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Opponent rating and result per game (inputs), plus the two columns the functions
    read: the result with blanks kept blank and the rating only where a result is entered.

    Returns the ranges: ``opp``/``res`` (inputs), ``read``/``counted``/``points`` (helpers;
    the points of each result, every spelling, with built-ins) and one per ``extra`` input
    column.
    """
    first, last = TABLE_TOP + 1, TABLE_TOP + GAME_ROWS
    headers = ["Game", "Opponent rating", "Result", *extra]
    helper = len(headers) + 3  # leave room for per-game outputs
    # On paper: everything left of the helper columns the functions read.
    print_setup(sheet, 0, last, helper - 1)
    for col, text in enumerate(headers):
        sheet.write_string(TABLE_TOP, col, text, st.header)
    sheet.write_string(TABLE_TOP, helper, "Result read", st.header)
    sheet.write_string(TABLE_TOP, helper + 1, "Rating counted", st.header)
    sheet.write_string(TABLE_TOP, helper + 2, "Points", st.header)
    sheet.write_string(TABLE_TOP - 1, helper, "read by the functions", st.note)
    for i in range(GAME_ROWS):
        r = first + i
        opp, res = games[i] if i < len(games) else (None, "")
        sheet.write_number(r, 0, i + 1, st.header)
        write_input(sheet, r, 1, opp, st.input_int)
        write_result(sheet, r, 2, res, st.input_result)
        for offset in range(len(extra)):
            sheet.write_blank(r, 3 + offset, None, st.input_result)
        write_quiet_formula(sheet, r, helper, f'=IF({cell(r, 2)}="","",{cell(r, 2)})', st.formula_text)
        write_quiet_formula(sheet, r, helper + 1,
                            f'=IF(OR({no_rating(cell(r, 1))},{cell(r, 2)}=""),"",{cell(r, 1)})',
                            st.formula_int)
        write_quiet_formula(sheet, r, helper + 2, f"={game_points(cell(r, 2), f'of game {i + 1}')}",
                            st.formula_one)
    sheet.data_validation(first, 2, last, 2, {
        "validate": "list", "source": list(RESULT_CHOICES),
        "error_message": "Pick a result: 1, ½, 0, + (forfeit win) or - (forfeit loss)."})
    validate_ratings(sheet, first, last, 1, "Opponent rating")
    ranges = {
        "opp": span(first, 1, last, 1, fixed=True), "res": span(first, 2, last, 2, fixed=True),
        "read": span(first, helper, last, helper, fixed=True),
        "counted": span(first, helper + 1, last, helper + 1, fixed=True),
        "points": span(first, helper + 2, last, helper + 2, fixed=True),
        "first": str(first), "helper": str(helper), "next": str(len(headers)),
    }
    for offset, name in enumerate(extra):
        ranges[name] = span(first, 3 + offset, last, 3 + offset, fixed=True)
    return ranges


def _per_game(sheet: Worksheet, st: Styles, g: dict[str, str], columns: list[tuple[str, str, Any]]) -> None:
    """Per-game output columns; ``{opp}``/``{read}`` in a formula are that row's helper cells."""
    first, helper, start = int(g["first"]), int(g["helper"]), int(g["next"])
    for offset, (title, template, fmt) in enumerate(columns):
        sheet.write_string(TABLE_TOP, start + offset, title, st.header)
        for i in range(GAME_ROWS):
            r = first + i
            formula = template.format(opp=cell(r, helper + 1), read=cell(r, helper))
            write_quiet_formula(sheet, r, start + offset, formula, fmt)


def _score(g: dict[str, str]) -> str:
    """The score: the points of the games, or the first result that is not one."""
    points = g["points"]
    return f'=IF(SUMPRODUCT(--({g["read"]}<>""))=0,"",{first_check([points], f"SUM({points})")})'


def _sheet(book: Workbook, st: Styles, name: str, title: str, note: str) -> Worksheet:
    sheet = book.add_worksheet(name)
    sheet.write_string(0, 0, title, st.title)
    sheet.write_string(1, 0, note, st.note)
    sheet.set_column(0, 0, 22)
    sheet.set_column(1, 12, 11)
    sheet.set_row(TABLE_TOP, 30)
    return sheet


def _elo(book: Workbook, st: Styles) -> None:
    ex = EXAMPLES["Elo"]
    sheet = _sheet(book, st, "Elo", "Classic Elo", "E = 1 / (1 + 10^((opponent - you)/400)); "
                   "change = K x (score - expected), unrounded.")
    i = _inputs(sheet, st, 3, [("Rating", ex["rating"], "int"), ("K", ex["k"], "number")])
    g = _games_table(sheet, st, ex["games"])
    R, K = i["Rating"], i["K"]
    unrated = no_rating(R)
    none = f'OR({unrated},COUNT({g["counted"]})=0)'
    _outputs(sheet, st, 6, 0, [
        ("Score", _score(g), st.formula_points),
        ("Expected score", "", st.formula_two),
        ("Rating change", f'=IF({none},"",ELO_CHANGE({R},{g["counted"]},{g["read"]},{K}))', st.formula_signed),
        ("New rating", f'=IF({none},"",ELO_NEWRATING({R},{g["counted"]},{g["read"]},{K}))', st.formula_one),
        ("Performance", f'=IF(COUNT({g["counted"]})=0,"",PERF_RATING({g["counted"]},{g["read"]},"ELO"))',
         st.formula_one),
    ])
    _per_game(sheet, st, g, [
        ("Expected", f'=IF(OR({unrated},{{opp}}=""),"",ELO_EXPECTED({R},{{opp}}))', st.formula_two),
        ("Change", f'=IF(OR({unrated},{{opp}}=""),"",ELO_CHANGE({R},{{opp}},{{read}},{K}))', st.formula_signed),
    ])
    _sum_expected(sheet, st, g, 7)


def _sum_expected(sheet: Worksheet, st: Styles, g: dict[str, str], row: int) -> None:
    """The expected-score total: the sum of the per-game column written by _per_game."""
    first, col = int(g["first"]), int(g["next"])
    column = span(first, col, first + GAME_ROWS - 1, col, fixed=True)
    write_quiet_formula(sheet, row, 1, f'=IF(COUNT({column})=0,"",SUM({column}))', st.formula_two)


def _fide(book: Workbook, st: Styles) -> None:
    ex = EXAMPLES["FIDE"]
    sheet = _sheet(book, st, "FIDE", "FIDE rating", "Expected scores from table 8.1.2 with the "
                   "400-point rule; K by FIDE's rules; leave Rating blank for an unrated player.")
    i = _inputs(sheet, st, 3, [("Rating", None, "int"), ("Rated games so far", None, "int"),
                               ("Birth year", None, "int"), ("Year", None, "int"),
                               ("Peak rating", None, "int"), ("Rules", "2025", "text")])
    sheet.data_validation(i["Rules"].replace("$", ""), {"validate": "list", "source": ["2025", "2024"]})
    g = _games_table(sheet, st, ex["games"])
    R, rules = i["Rating"], i["Rules"]
    unrated = no_rating(R)
    counted, read = g["counted"], g["read"]
    none = f'OR({unrated},COUNT({counted})=0)'
    out = _outputs(sheet, st, 3, 3, [
        ("K", f'=IF({unrated},"",FIDE_K({R},{i["Rated games so far"]},{i["Birth year"]},{i["Year"]},'
              f'{i["Peak rating"]},COUNT({counted})))', st.formula_int),
        ("Score", _score(g), st.formula_points),
        ("Expected score", "", st.formula_two),
        ("Rating change", "", st.formula_signed),
        ("New rating", "", st.formula_int),
        ("Performance (TPR)", f'=IF(COUNT({counted})=0,"",PERF_RATING({counted},{read},"FIDE"))',
         st.formula_int),
        ("dp of the score", f'=IF(COUNT({counted})=0,"",FIDE_DP({absolute(4, 4)}/COUNT({counted})))', st.formula_int),
        ("First rating (unrated)", f'=IF(AND({unrated},COUNT({counted})>0),FIDE_INITIAL({counted},{read}),"")',
         st.formula_int),
    ])
    K = out["K"]
    write_quiet_formula(sheet, 6, 4, f'=IF({none},"",FIDE_CHANGE({R},{counted},{read},{K},{rules}))',
                        st.formula_signed)
    write_quiet_formula(sheet, 7, 4, f'=IF({none},"",FIDE_NEWRATING({R},{counted},{read},{K},{rules}))',
                        st.formula_int)
    _per_game(sheet, st, g, [
        ("Expected", f'=IF(OR({unrated},{{opp}}=""),"",FIDE_EXPECTED({R},{{opp}},{rules}))', st.formula_two),
        ("Change", f'=IF(OR({unrated},{{opp}}=""),"",FIDE_CHANGE({R},{{opp}},{{read}},{K},{rules}))',
         st.formula_signed),
    ])
    first, col = int(g["first"]), int(g["next"])
    column = span(first, col, first + GAME_ROWS - 1, col, fixed=True)
    write_quiet_formula(sheet, 5, 4, f'=IF(COUNT({column})=0,"",SUM({column}))', st.formula_two)
    sheet.set_column(3, 3, 22)


def _uscf(book: Workbook, st: Styles) -> None:
    ex = EXAMPLES["US Chess"]
    sheet = _sheet(book, st, "US Chess", "US Chess rating", "Standard formula, or the special "
                   "formula for 8 games or fewer and all-win/all-loss records; bonus; floor.")
    i = _inputs(sheet, st, 3, [("Rating", ex["rating"], "int"), ("Games so far", ex["games_so_far"], "int"),
                               ("Age", None, "int"), ("Record (W/L)", None, "text"),
                               ("Peak rating", None, "int"), ("Dual rated", False, "text"),
                               ("Bonus B", 10, "number"), ("Life master", False, "text")])
    sheet.data_validation(i["Record (W/L)"].replace("$", ""), {"validate": "list", "source": ["W", "L"]})
    for key in ("Dual rated", "Life master"):
        sheet.data_validation(i[key].replace("$", ""), {"validate": "list", "source": ["TRUE", "FALSE"]})
    g = _games_table(sheet, st, ex["games"])
    R, N = i["Rating"], i["Games so far"]
    unrated = no_rating(R)
    counted, read = g["counted"], g["read"]
    none = f'COUNT({counted})=0'
    _outputs(sheet, st, 3, 3, [
        ("Score", _score(g), st.formula_points),
        ("Effective games N′", f'=IF({unrated},"",USCF_EFFECTIVE_GAMES({R},{N}))', st.formula_two),
        ("K", f'=IF(OR({unrated},{none}),"",USCF_K({R},{N},COUNT({counted}),{i["Dual rated"]}))', st.formula_one),
        ("Bonus", f'=IF(OR({unrated},{none}),"",USCF_BONUS({R},{N},{counted},{read},{i["Dual rated"]},'
                  f'{i["Bonus B"]}))', st.formula_one),
        ("New rating", f'=IF({none},"",USCF_NEWRATING({R},{N},{counted},{read},{i["Age"]},'
                       f'{i["Record (W/L)"]},{i["Peak rating"]},{i["Dual rated"]},{i["Bonus B"]}))',
         st.formula_two),
        ("Floor", f'=IF({i["Peak rating"]}="","",USCF_FLOOR({i["Peak rating"]},{i["Life master"]}))',
         st.formula_int),
        ("Performance", f'=IF({none},"",PERF_RATING({counted},{read},"USCF"))', st.formula_one),
    ])
    _per_game(sheet, st, g, [
        ("Expected", f'=IF(OR({unrated},{{opp}}=""),"",ELO_EXPECTED({R},{{opp}}))', st.formula_two),
    ])
    sheet.set_column(3, 3, 22)


def _performance(book: Workbook, st: Styles) -> None:
    ex = EXAMPLES["FIDE"]
    sheet = _sheet(book, st, "Performance", "Performance rating, six ways", "FIDE TPR, own rating "
                   "+ dp, algorithm of 400, logistic, FIDE perfect performance (PTP), US Chess.")
    i = _inputs(sheet, st, 3, [("Rating (for OWN)", 1922, "int"), ("Norm title", "GM", "text"),
                               ("Federation", None, "text")])
    sheet.data_validation(i["Norm title"].replace("$", ""),
                          {"validate": "list", "source": ["GM", "IM", "WGM", "WIM"]})
    g = _games_table(sheet, st, ex["games"], extra=("Opp. title", "Opp. fed"))
    counted, read = g["counted"], g["read"]
    row = 8
    for offset, method in enumerate(PERF_METHODS):
        sheet.write_string(row, offset + 1, method, st.header)
        rating = f',{i["Rating (for OWN)"]}' if method == "OWN" else ""
        guard = f'OR(COUNT({counted})=0,{i["Rating (for OWN)"]}="")' if method == "OWN" else f"COUNT({counted})=0"
        # FIDE's TPR, own rating + dp and the perfect performance are whole numbers.
        whole = method in ("FIDE", "OWN", "PTP")
        write_quiet_formula(sheet, row + 1, offset + 1,
                            f'=IF({guard},"",PERF_RATING({counted},{read},"{method}"{rating}))',
                            st.formula_int if whole else st.formula_one)
    sheet.write_string(row + 1, 0, "Performance", st.label)
    sheet.write_string(11, 0, "Norm verdict", st.label)
    write_quiet_formula(sheet, 11, 1,
                        f'=IF(SUMPRODUCT(--({read}<>""))=0,"",FIDE_NORM({counted},{read},{i["Norm title"]},'
                        f'{g["Opp. title"]},{g["Opp. fed"]},{i["Federation"]}))', st.formula_text)
    # The verdict wraps within its cell: four lines of a column twice the usual width hold
    # a verdict that names every condition missed (about 110 characters).
    sheet.set_column(1, 1, 22)
    sheet.set_row(11, 4 * 15)


def _expected_table(book: Workbook, st: Styles) -> None:
    sheet = book.add_worksheet("Expected score")
    sheet.write_string(0, 0, "Expected score by rating difference", st.title)
    i = _inputs(sheet, st, 2, [("Rating", 2000, "int"), ("Rules", "2025", "text")])
    R, rules = i["Rating"], i["Rules"]
    headers = ["Difference", "Opponent", "Elo: stronger", "Elo: weaker", "FIDE: stronger", "FIDE: weaker"]
    top = 5
    for col, text in enumerate(headers):
        sheet.write_string(top, col, text, st.header)
    for n in range(33):
        r = top + 1 + n
        sheet.write_number(r, 0, 25 * n, st.header)
        opp = cell(r, 1)
        write_quiet_formula(sheet, r, 1, f'=IF({R}="","",{R}-{cell(r, 0)})', st.formula_int)
        for col, formula in enumerate([
                f'ELO_EXPECTED({R},{opp})', f'ELO_EXPECTED({opp},{R})',
                f'FIDE_EXPECTED({R},{opp},{rules})', f'FIDE_EXPECTED({opp},{R},{rules})'], start=2):
            write_quiet_formula(sheet, r, col, f'=IF({R}="","",{formula})', st.formula_two)
    sheet.write_string(top, 7, "Score p", st.header)
    sheet.write_string(top, 8, "FIDE dp", st.header)
    for n in range(21):
        r = top + 1 + n
        sheet.write_number(r, 7, n / 20, st.formula_two)
        write_quiet_formula(sheet, r, 8, f"=FIDE_DP({cell(r, 7)})", st.formula_int)
    sheet.set_column(0, 0, 12)
    sheet.set_column(1, 8, 11)
    sheet.set_row(top, 30)
    sheet.freeze_panes(top + 1, 0)
    print_setup(sheet, 0, top + 33, 8)


def _goal(book: Workbook, st: Styles) -> None:
    ex = EXAMPLES["Goal"]
    sheet = book.add_worksheet("Goal")
    sheet.write_string(0, 0, "Rating goal planner", st.title)
    sheet.write_string(1, 0, "Games needed at one opponent rating and score per game, the rating "
                             "updated after every game (unrounded).", st.note)
    i = _inputs(sheet, st, 3, [("Rating", ex["rating"], "int"), ("Target", ex["target"], "int"),
                               ("Opponent rating", ex["opponent"], "int"), ("K", ex["k"], "number"),
                               ("Score per game", ex["score"], "number"), ("System", ex["system"], "text")])
    sheet.data_validation(i["System"].replace("$", ""), {"validate": "list", "source": ["ELO", "FIDE"]})
    R, T, O, K, S, system = (i[k] for k in ("Rating", "Target", "Opponent rating", "K",
                                            "Score per game", "System"))
    sheet.write_string(10, 0, "Games needed", st.label)
    write_quiet_formula(sheet, 10, 1, f'=IF(OR({R}="",{T}="",{O}="",{K}=""),"",'
                                      f'RATING_GOAL({R},{T},{O},{K},{S},{system}))', st.formula_text)
    top = 12
    for col, text in enumerate(["Game", "Projected rating", "Target"]):
        sheet.write_string(top, col, text, st.header)
    for n in range(GOAL_GAMES + 1):
        r = top + 1 + n
        sheet.write_number(r, 0, n, st.header)
        if n == 0:
            formula = f'=IF({R}="","",{R})'
        else:
            prev = cell(r - 1, 1)
            expected = f'IF(UPPER({system})="FIDE",FIDE_EXPECTED({prev},{O}),ELO_EXPECTED({prev},{O}))'
            formula = f'=IF(OR({prev}="",{O}="",{K}=""),"",{prev}+{K}*(N({S})-{expected}))'
        write_quiet_formula(sheet, r, 1, formula, st.formula_one)
        write_quiet_formula(sheet, r, 2, f'=IF({T}="","",{T})', st.formula_int)
    chart = book.add_chart({"type": "line"})
    last = top + 1 + GOAL_GAMES
    chart.add_series({"name": "Projected rating", "categories": ["Goal", top + 1, 0, last, 0],
                      "values": ["Goal", top + 1, 1, last, 1], "line": {"color": "#4472C4", "width": 2.25}})
    chart.add_series({"name": "Target", "categories": ["Goal", top + 1, 0, last, 0],
                      "values": ["Goal", top + 1, 2, last, 2],
                      "line": {"color": "#C00000", "dash_type": "dash", "width": 1.5}})
    chart.set_title({"name": "Projected rating"})
    chart.set_x_axis({"name": "Games", "interval_unit": 5})
    chart.set_y_axis({"name": "Rating", "num_format": "0"})
    chart.set_legend({"position": "bottom"})
    chart.set_size({"width": 620, "height": 360})
    sheet.insert_chart(3, 4, chart)
    sheet.set_column(0, 0, 18)
    sheet.set_column(1, 2, 14)
    sheet.set_column(3, 3, 3)
    sheet.freeze_panes(top + 1, 0)
    # The chart (620 px from column E, default columns 64 px) ends inside column N.
    print_setup(sheet, 0, last, 14, landscape=True)


def build_calculators(path: Path) -> Path:
    """Write the calculators workbook."""
    book, st = new_workbook(path, "Chess rating calculators", "Elo, FIDE, US Chess, performance, goals")
    _elo(book, st)
    _fide(book, st)
    _uscf(book, st)
    _performance(book, st)
    _expected_table(book, st)
    _goal(book, st)
    book.worksheets()[0].activate()
    write_how_to_sheet(book, st, "Calculators: how to use", HOW_TO)
    write_conf_sheet(book, st)
    book.close()
    return path
