"""The script "Pair next round" (chessrating.scripts) in both Excel routes, through xlwings'
own code: the Lite copy's main.py called as xlwings Lite calls a script, and the VBA that
the classic add-in's Import Functions writes for it.

Lite: tests/core/lite_script_driver.py imports the Lite copy's main.py in a subprocess with
``XLWINGS_ON_SERVER=true`` and ``XLWINGS_LICENSE_KEY=noncommercial`` (test use only),
builds ``xlwings.Book(json=...)`` from an Office.js book payload of a FIDE Swiss workbook
(tests/officejs_book.py: empty cells as ``""``) and runs
``xlwings.server.custom_scripts_call``; the actions it returns are what Excel carries out.
Classic: the script run on a stand-in for xlwings' COM book (tests/xlwings_book.py: empty
cells as ``None``, numbers as floats). The oracle is
:func:`chessrating.pairing.pair_round` on the tournament model the workbook was filled
from, with the pairing settings typed on its Report sheet. Import Functions:
tests/core/classic_vba_driver.py runs xlwings' VBA generator on the modules the Swiss
template's xlwings.conf sheet names. (Pyodide itself: tests/integration/test_lite_runtime.py;
the same workbook through ``chessrating pair``: tests/integration/test_pair_cli.py.)
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from openpyxl.utils import get_column_letter
from xlwings_book import SETTINGS, ClassicBook, boards_of, event, lite_env, run_lite, settings_event, type_inputs

from chessrating import scripts
from chessrating.errors import RatingError
from chessrating.lite.embedded import main_py
from chessrating.pairing import pair_round
from chessrating.workbooks import fill_swiss
from chessrating.workbooks.layout import SCRIPT_MODULE, UDF_MODULE, cell
from chessrating.workbooks.report import REPORT
from chessrating.workbooks.roundrobin import build_round_robin
from chessrating.workbooks.swiss import PAIR_BUTTON, PAIR_BUTTON_CELL, build_swiss
from chessrating.workbooks.uscf import build_uscf
from chessrating.workbooks.writer import evaluation

HERE = Path(__file__).resolve().parent
FIRST_ROW, FIRST_ROUND_COL = 4, 10  # zero-based: row 5, column K
@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("script-books")
    t = event(7, 5, 2)
    unfinished = copy.deepcopy(t)
    white, black = boards_of(unfinished, 2)[1]
    unfinished.player(white).games[1].code = unfinished.player(black).games[1].code = " "
    done = event(4, 2, 2)
    made = {"swiss": fill_swiss(t, folder / "swiss.xlsx", recalculate=False),
            "unfinished": fill_swiss(unfinished, folder / "unfinished.xlsx", recalculate=False),
            "done": fill_swiss(done, folder / "done.xlsx", recalculate=False),
            "settings": type_inputs(fill_swiss(settings_event()[0], folder / "settings.xlsx",
                                               recalculate=False), SETTINGS),
            "bad setting": type_inputs(fill_swiss(t, folder / "bad.xlsx", recalculate=False),
                                       {"PairTopColour": "red"})}
    with evaluation(False):
        made["uscf"] = build_uscf(folder / "uscf.xlsx", players=6, rounds=3)
        made["round robin"] = build_round_robin(folder / "rr.xlsx", 6)
    return made


LITE_BOOKS = ["swiss", "unfinished", "done", "settings", "bad setting", "uscf", "round robin"]


@pytest.fixture(scope="module")
def lite(books: dict[str, Path]) -> dict:
    answer = run_lite([books[n] for n in LITE_BOOKS])
    answer["by_book"] = dict(zip(LITE_BOOKS, answer["outcomes"]))
    return answer


def _written_round(rows: list[list[object]], blank: object) -> tuple[set, object, dict]:
    """The round's three columns as written: boards, the U bye, the others by result."""
    boards = {(n, row[0]) for n, row in enumerate(rows, start=1) if row[1] == "W"}
    byes = [n for n, row in enumerate(rows, start=1) if row == [blank, blank, "U"]]
    absent = {n: row[2] for n, row in enumerate(rows, start=1) if row[0] == blank and row[2] not in (blank, "U")}
    left = [n for n, row in enumerate(rows, start=1) if row == [blank] * 3]
    return boards, (byes or [None])[0], {**absent, **{n: "" for n in left}}


def test_lite_pairs_the_next_round_into_its_opponent_and_colour_cells(lite: dict) -> None:
    t = event(7, 5, 2)
    expected = pair_round(t)
    assert expected.round == 3 and expected.bye is not None
    outcome = lite["by_book"]["swiss"]
    assert "error" not in outcome, outcome
    [action] = outcome["actions"]  # one write: the round's three columns
    assert action["func"] == "setValues" and action["sheet_position"] == 0
    assert (action["start_row"], action["start_column"]) == (FIRST_ROW, FIRST_ROUND_COL + 3 * 2)
    assert (action["row_count"], action["column_count"]) == (7, 3)
    rows = action["values"]
    for white, black in expected.boards:
        assert rows[white - 1] == [black, "W", ""] and rows[black - 1] == [white, "B", ""]
    assert rows[expected.bye - 1] == ["", "", "U"]
    assert len(expected.boards) * 2 + 1 == 7
    # the task pane shows the pairing list in board order, as chessrating pair prints it
    output = outcome["output"].splitlines()
    assert output[0].startswith("Round 3: FIDE Dutch system C.04.3")
    white, black = expected.boards[0]
    assert re.match(rf"^ +1 +{white} Player {white} +\S+ +{black} Player {black} +\S+$", output[2])
    assert output[-2].startswith(f"pairing-allocated bye (U): {expected.bye} Player {expected.bye} (")


def test_the_report_sheets_settings_are_honoured_in_lite_and_in_the_classic_book(lite: dict,
                                                                               books: dict[str, Path]) -> None:
    """Top colour B, Baku, 6 of 7 rounds planned, a late entry and a withdrawal: the round
    both routes write is the model's under the same settings, and differs from round 3
    paired without them."""
    _, expected = settings_event()
    assert expected.round == 3 and (4, " ") in expected.absent
    assert expected.boards != pair_round(settings_event()[0], 3).boards  # the settings matter
    outcome = lite["by_book"]["settings"]
    assert "error" not in outcome, outcome
    [action] = outcome["actions"]
    assert (action["start_row"], action["start_column"], action["row_count"]) == (FIRST_ROW, FIRST_ROUND_COL + 6, 11)
    boards, bye, absent = _written_round(action["values"], "")
    assert (boards, bye) == (set(expected.boards), expected.bye)
    assert absent == {4: ""}  # withdrawn: three empty cells; player 9 is paired
    assert any(9 in board for board in expected.boards)
    classic = ClassicBook(books["settings"])
    lines = scripts.pair_book(classic)
    [(sheet, row, column, rows)] = classic.writes
    assert (sheet, row, column) == ("Crosstable", FIRST_ROW + 1, FIRST_ROUND_COL + 7)
    assert _written_round(rows, None) == (boards, bye, absent)
    assert lines == outcome["output"].splitlines()


@pytest.mark.parametrize("book, message", [
    ("unfinished", r"Not paired: round 3 cannot be paired: Crosstable!P\d+, P\d+: round 2: no result for "
                   r"player \d+ \(Player \d+\) against player \d+ \(Player \d+\)\n"),
    ("done", r"Not paired: round 3: the event has 2 rounds \(PairRounds, or the round columns\); "
             r"every round is paired\n"),
    ("bad setting", r"Not paired: 1 input\(s\) are not what the workbook allows: Report!G5: "
                    r"PairTopColour: 'red' is not W or B\n"),
    ("uscf", r"Not paired: a US Chess event: US Chess pairs a Swiss by its own rules"),
    ("round robin", r"Not paired: a round robin: its pairings are FIDE's Berger tables \(C.05 Annex 1\), "
                    r"by starting number, not a Swiss pairing\n"),
])
def test_a_book_that_cannot_be_paired_is_told_in_one_line_and_left_as_it_was(lite: dict, book: str,
                                                                             message: str) -> None:
    outcome = lite["by_book"][book]
    assert outcome == {"actions": [], "output": outcome["output"]}  # no traceback, nothing written
    assert re.match(message, outcome["output"])
    assert outcome["output"].count("\n") == 1


def test_lite_registers_the_script_with_its_button_and_loads_the_engine_at_the_first_run(lite: dict) -> None:
    [meta] = lite["meta"]
    assert meta["function_name"] == "pair_next_round" and meta["name"] == "Pair next round"
    assert meta["button"] == f"[{PAIR_BUTTON}]Crosstable!{cell(*PAIR_BUTTON_CELL)}" == "[PairNextRound]Crosstable!E1"
    # the values of the crosstable and of the Report sheet (the pairing settings) are sent
    assert meta["include"] == f"Crosstable,{REPORT}"
    assert lite["first_answer"] == [[110]]  # FIDE_DP(0.65), answered before any pairing module loads
    assert lite["loaded_at_start"] == []
    assert lite["loaded_after"] == ["chessrating.pairing", "gacrux", "networkx"]


def test_main_py_defines_the_script_where_lite_lists_scripts() -> None:
    """xlwings Lite lists the functions of main.py's own text decorated with a script
    decorator (xlwings-server's Lite code, get_xlwings_scripts)."""
    import ast
    tree = ast.parse(main_py())
    found = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
             and any("script" in ast.unparse(d) for d in node.decorator_list)]
    assert found == ["pair_next_round"]


# ------------------------------------------------------------------ classic: the COM book's shape


def test_the_classic_book_reads_blank_settings_as_blank_and_refuses_a_contradiction(books: dict[str, Path]) -> None:
    """COM hands empty cells over as None and numbers as floats: PairMaxMeets and
    PairRounds blank are the engine's default and every round column, not 0."""
    classic = ClassicBook(books["swiss"])
    values, ranges = scripts.book_values(classic)
    assert values["PairMaxMeets"] == [[None]] and values["PairRounds"] == [[5.0]]
    assert ranges["RoundInputs"].sheet.name == "Crosstable"
    lines = scripts.pair_book(classic)
    assert lines[0].startswith("Round 3: ") and len(classic.writes) == 1
    # a reason in the Check column (as Excel shows it) refuses the round, nothing written
    checked = ClassicBook(books["swiss"])
    checks = checked.names["Checks"].refers_to_range
    checks.sheet.ws.cell(checks.row + 1, checks.column, "check game of player 2 and player 5: both won")
    at = f"Crosstable!{get_column_letter(checks.column)}{checks.row + 1}"
    with pytest.raises(RatingError, match=rf"^the Check column lists 1 input\(s\) to fix first: {at}: "
                                          r"check game of player 2 and player 5: both won$"):
        scripts.pair_book(checked)
    assert checked.writes == []


def test_a_swiss_made_before_the_round_columns_had_a_name_is_read_by_its_headers(books: dict[str, Path]) -> None:
    classic = ClassicBook(books["swiss"])
    classic.names[:] = [n for n in classic.names if n.name != "RoundInputs"]
    named = ClassicBook(books["swiss"])
    scripts.pair_book(classic), scripts.pair_book(named)
    assert classic.writes == named.writes and len(classic.writes) == 1


# ------------------------------------------------------------------ the sheet button


def test_the_swiss_template_carries_the_sheet_button_lite_runs_the_script_from(tmp_path: Path) -> None:
    with evaluation(False):
        book = build_swiss(tmp_path / "swiss.xlsx", players=10, rounds=3)
    with zipfile.ZipFile(book) as archive:
        drawing = ET.fromstring(archive.read("xl/drawings/drawing1.xml"))
        rels = ET.fromstring(archive.read("xl/drawings/_rels/drawing1.xml.rels"))
    xdr = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
    rel_ns = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
    shapes = [a for a in drawing.iter(f"{xdr}twoCellAnchor") if a.find(f"{xdr}sp") is not None]
    [anchor] = shapes
    named = anchor.find(f".//{xdr}cNvPr")
    assert named.get("name") == PAIR_BUTTON
    link = named.find("{http://schemas.openxmlformats.org/drawingml/2006/main}hlinkClick").get(f"{rel_ns}id")
    targets = {r.get("Id"): r.get("Target") for r in rels}
    shape, cell_ref = scripts.PAIR_NEXT_ROUND["button"][1:].split("]")
    assert shape == PAIR_BUTTON and targets[link] == "#" + cell_ref
    # the linked cell lies under the shape: its column between the anchor's first and last
    row, col = PAIR_BUTTON_CELL
    start, end = anchor.find(f"{xdr}from"), anchor.find(f"{xdr}to")
    assert int(start.find(f"{xdr}col").text) < col < int(end.find(f"{xdr}col").text)
    assert int(start.find(f"{xdr}row").text) == row and int(start.find(f"{xdr}rowOff").text) == 0
    # Excel leaves it off the printed crosstable (ECMA-376 fPrintsWithSheet)
    assert anchor.find(f"{xdr}clientData").get("fPrintsWithSheet") == "0"


# ------------------------------------------------------------------ classic: Import Functions


@pytest.fixture(scope="module")
def classic_vba() -> dict:
    modules = f"{UDF_MODULE};{SCRIPT_MODULE}"  # the Swiss template's UDF Modules
    done = subprocess.run([sys.executable, str(HERE / "classic_vba_driver.py"), modules],
                          env=dict(lite_env(), XLWINGS_ON_SERVER="false"), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_import_functions_writes_the_script_as_a_macro_without_arguments(classic_vba: dict) -> None:
    vba = classic_vba["vba"]
    start = vba.index("Sub pair_next_round()\n")
    body = vba[start:vba.index("End Sub", start)]
    assert ('XLPy.CallUDF "chessrating.scripts", "pair_next_round", Array(Nothing), ThisWorkbook, '
            "Application.Caller") in body
    # VBA's Nothing reaches the function as it is (then it takes the calling workbook)
    assert classic_vba["subs"] == {"pair_next_round": [{"name": "book", "vba": "Nothing",
                                                        "options": {"convert": "raw"}}]}
    # the worksheet functions beside it, as functions
    assert "Function FIDE_CHANGE(rating, opponent_ratings, results, k, Optional rules)" in vba
    assert vba.count("\nSub ") + vba.startswith("Sub ") == 1


def test_the_swiss_templates_conf_sheet_names_both_modules(tmp_path: Path) -> None:
    import openpyxl
    with evaluation(False):
        book = build_swiss(tmp_path / "swiss.xlsx", players=4, rounds=2)
    conf = openpyxl.load_workbook(book)["xlwings.conf"]
    assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", "chessrating.udfs;chessrating.scripts")
