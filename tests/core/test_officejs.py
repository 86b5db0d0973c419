"""Office.js calls answered before xlwings converts their arguments (chessrating.officejs).

The functions a crosstable asks once per row (TIEBREAK, TIEBREAK_RANK, USCF_EVENT) take
their arguments raw under Office.js; :func:`officejs.remembered` converts them as xlwings
would and answers a repeated call from the answer it gave. The values these functions
give under Office.js are asserted in test_tiebreaks_udfs.py and test_uscf_event.py (and
in Pyodide by tests/integration/test_lite_runtime.py); here, what is remembered.

xlwings' Office.js converter exists only when xlwings is imported with a licence key,
so the calls run in a subprocess with ``XLWINGS_LICENSE_KEY=noncommercial`` (test use
only), which prints what it saw as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xlwings")

from chessrating import officejs  # noqa: E402

ADDIN = Path(__file__).resolve().parents[2] / "addin"

SCENARIOS = r'''
import json
import os
from xlwings import conversion
from chessrating import officejs
from chessrating.errors import RatingError

OPTIONS = {"block": {"err_to_str": True, "ndim": 2}, "code": {"err_to_str": True}}
NA = {"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}


def counted():
    seen = []

    def column(block, code="BH"):
        seen.append([block, code])
        if code == "XX":
            raise RatingError("code: 'XX' is not a tie-break", argument="code")
        return [[len(row)] for row in block]

    return officejs.remembered(column, OPTIONS), seen


out = {}
column, seen = counted()
block = [[1, "", None], [NA, "½", 0]]
out["miss"] = {"answer": column(block, "BH"), "seen": seen[:],
               "xlwings": conversion.read(None, block, OPTIONS["block"], engine_name="officejs")}
column([[5, 6]], "BH")
out["one_row"] = seen[-1]

column, seen = counted()
first = column([[1, 2], [3, None]], "SB")
again = column([[1, 2], [3, None]], "SB")
again[0] = ["changed"]
out["repeat"] = {"first": first, "again": column([[1, 2], [3, None]], "SB"), "calls": len(seen),
                 "rows": sorted({type(row).__name__ for row in again[1:]})}

out["others"] = []
for other in ([[1.0, 2], [3, None]], [[True, 2], [3, None]], [["1", 2], [3, None]],
              [[1, 2], [3, ""]], [[1, 2], [3, None], [4, 5]]):
    column, seen = counted()
    column([[1, 2], [3, None]], "SB")
    column(other, "SB")
    out["others"].append(len(seen))

column, seen = counted()
out["refused"] = []
for _ in range(2):
    try:
        column([[1]], "XX")
    except RatingError as error:
        out["refused"].append(str(error))
out["refused_calls"] = len(seen)

column, seen = counted()
for n in range(officejs.KEPT + 1):
    column([[n]], "BH")
kept = len(column.answers)
column([[officejs.KEPT]], "BH")
newest = len(seen)
column([[0]], "BH")
out["kept"] = [kept, newest, len(seen)]

column, seen = counted()
odd = type("JsNull", (), {})()
column([[odd, 1]], "BH")
column([[odd, 1]], "BH")
out["unkeyed"] = [officejs.answers_key(([[odd]],)) is None, len(seen)]

import inspect
out["signature"] = [str(inspect.signature(column)), column.__signature__ is inspect.signature(column)]
# TIEBREAK: a range its code does not read is neither in the key nor handed over
import functools
from chessrating import udfs
from chessrating.cells import MAX_CELLS

TB_OPTIONS = {"code": {"err_to_str": True}, "opponents": {"err_to_str": True, "ndim": 2},
              "results": {"err_to_str": True, "ndim": 2}, "colours": {"err_to_str": True, "ndim": 2},
              "rules": {"err_to_str": True}, "ratings": {"err_to_str": True}}
# four players, three rounds: 1-2 1-0, 3-4 draw; 3-1 draw, 2-4 1-0; 1-4 1-0, 3-2 draw
OPPONENTS = [[2, 3, 4], [1, 4, 3], [4, 1, 2], [3, 2, 1]]
RESULTS = [[1, "½", 1], [0, 1, "½"], ["½", "½", "½"], ["½", 0, 0]]
COLOURS = [["W", "B", "W"], ["B", "W", "B"], ["W", "W", "W"], ["B", "B", "B"]]
SWAPPED = [["B" if c == "W" else "W" for c in row] for row in COLOURS]
RATINGS = [[2000], [1900], [1800], [1700]]
LOWER = [[r - 100] for [r] in RATINGS]


def tiebreak_seen():
    seen = []

    @functools.wraps(udfs.TIEBREAK)
    def recorded(*args):
        seen.append({"colours": args[3], "ratings": args[5]})
        return udfs.TIEBREAK(*args)

    return officejs.remembered(recorded, TB_OPTIONS), seen


def outcome(call, *args):
    try:
        return {"value": call(*args)}
    except RatingError as error:
        return {"error": str(error)}


def plain(code, colours, ratings):
    return outcome(udfs.TIEBREAK, code, OPPONENTS, RESULTS, colours, "2026", ratings)


out["tiebreak"] = {}
for label, code, others in (
        ("SB", "SB", [(SWAPPED, RATINGS), (COLOURS, LOWER), ([["X", NA, 3]] * 4, None)]),
        ("BPG", "BPG", [(SWAPPED, RATINGS), (COLOURS, LOWER)]),
        ("ARO", "ARO", [(SWAPPED, RATINGS), (COLOURS, LOWER)]),
        ("BPG, DE", ["BPG", None, "DE"], [(SWAPPED, RATINGS)]),
        ("BPG, SB", ["BPG", "SB"], [(SWAPPED, RATINGS)])):
    tiebreak, seen = tiebreak_seen()
    answers = [outcome(tiebreak, code, OPPONENTS, RESULTS, COLOURS, "2026", RATINGS)]
    expected = [plain(code, COLOURS, RATINGS)]
    for colours, ratings in others:
        answers.append(outcome(tiebreak, code, OPPONENTS, RESULTS, colours, "2026", ratings))
        expected.append(plain(code, colours, ratings))
    # rows as JSON gives them back (a remembered answer's rows are tuples)
    out["tiebreak"][label] = {"same": json.dumps(answers) == json.dumps(expected), "answers": answers, "calls": len(seen),
                              "first_seen": seen[0]}

if os.environ.get("SCENARIO_TOO_LARGE"):  # seconds outside Pyodide: xlwings reads each cell
    tiebreak, seen = tiebreak_seen()
    wide = [["W"] * 10] * (MAX_CELLS // 10 + 1)
    out["unread_too_large"] = [outcome(tiebreak, "SB", OPPONENTS, RESULTS, wide, "2026", None),
                               plain("SB", wide, None)]
tiebreak, seen = tiebreak_seen()
out["unreadable_code"] = [outcome(tiebreak, "XX", OPPONENTS, RESULTS, COLOURS, "2026", RATINGS)
                          for _ in range(2)] + [len(seen), seen[0]["colours"] is not None]
print(json.dumps(out))
'''


def _scenarios(**more: str) -> dict:
    env = dict(os.environ, XLWINGS_LICENSE_KEY="noncommercial", PYTHONPATH=str(ADDIN), **more)
    done = subprocess.run([sys.executable, "-c", SCENARIOS], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def seen() -> dict:
    return _scenarios()


def test_a_miss_converts_each_argument_as_xlwings_does(seen: dict) -> None:
    assert seen["miss"]["answer"] == [[3], [3]]
    assert seen["miss"]["seen"] == [[[[1, None, None], ["#N/A", "½", 0]], "BH"]]
    assert seen["miss"]["seen"][0][0] == seen["miss"]["xlwings"]
    assert seen["one_row"] == [[[5, 6]], "BH"]  # one row under ndim=2 stays 2-D, as xlwings keeps it


def test_a_repeated_call_is_answered_without_the_function(seen: dict) -> None:
    # new lists with equal values, as Excel sends each row; the answer is a new list
    # (changing it changes no later answer) of rows no one can change
    assert seen["repeat"] == {"first": [[2], [2]], "again": [[2], [2]], "calls": 1, "rows": ["tuple"]}


def test_a_value_of_another_type_or_shape_is_another_call(seen: dict) -> None:
    # 1.0, TRUE and "1" for 1, "" for a null, a third row: each reaches the function
    assert seen["others"] == [2, 2, 2, 2, 2]


def test_a_refusal_is_not_remembered(seen: dict) -> None:
    assert seen["refused"] == ["code: 'XX' is not a tie-break"] * 2
    assert seen["refused_calls"] == 2


def test_at_most_kept_answers_are_kept_the_oldest_going_first(seen: dict) -> None:
    kept = officejs.KEPT
    assert seen["kept"] == [kept, kept + 1, kept + 2]


def test_an_argument_marshal_cannot_write_is_read_every_time(seen: dict) -> None:
    assert seen["unkeyed"] == [True, 2]


def test_a_range_larger_than_an_argument_may_be_gets_no_key() -> None:
    from chessrating.cells import MAX_CELLS
    assert officejs.answers_key(([[0] * 10] * (MAX_CELLS // 10),)) is not None
    assert officejs.answers_key(([[0] * 10] * (MAX_CELLS // 10 + 1),)) is None


def test_a_tie_break_leaves_the_ranges_its_code_does_not_read_out_of_the_key(seen: dict) -> None:
    by_code = seen["tiebreak"]
    # every answer is the one the function gives called directly (the key never hits wrongly)
    assert all(entry["same"] for entry in by_code.values())
    assert all("value" in answer for entry in by_code.values() for answer in entry["answers"])
    # SB reads neither colours nor ratings: other colours, other ratings, or colours that
    # are no colours at all are the same call, and the function is given neither
    assert by_code["SB"]["calls"] == 1
    assert by_code["SB"]["first_seen"] == {"colours": None, "ratings": None}
    # BPG reads the colours (and not the ratings), ARO the ratings (and not the colours)
    assert by_code["BPG"]["calls"] == 2 and by_code["BPG"]["answers"][0] != by_code["BPG"]["answers"][1]
    assert by_code["BPG"]["first_seen"]["ratings"] is None and by_code["BPG"]["first_seen"]["colours"]
    assert by_code["ARO"]["calls"] == 2 and by_code["ARO"]["answers"][0] != by_code["ARO"]["answers"][2]
    assert by_code["ARO"]["first_seen"]["colours"] is None and by_code["ARO"]["first_seen"]["ratings"]
    # a range of codes reads what the codes computed read: BPG before DE, not BPG before SB
    assert by_code["BPG, DE"]["calls"] == 2
    assert by_code["BPG, SB"]["calls"] == 1


@pytest.mark.slow
def test_an_unread_range_too_large_is_refused_as_before() -> None:
    refused, direct = _scenarios(SCENARIO_TOO_LARGE="1")["unread_too_large"]
    assert refused == direct and refused["error"].startswith("colours: ")


def test_a_code_that_cannot_be_read_reads_every_range(seen: dict) -> None:
    first, second, calls, colours_given = seen["unreadable_code"]
    assert first == second and first["error"].startswith("code: 'XX' is not a tie-break")
    assert calls == 2 and colours_given


def test_the_signature_xlwings_reads_is_the_function_s_worked_out_once(seen: dict) -> None:
    # xlwings reads it at every call: the function's own, not the wrapper's (*args)
    assert seen["signature"] == ["(block, code='BH')", True]
