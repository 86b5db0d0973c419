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
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def seen() -> dict:
    env = dict(os.environ, XLWINGS_LICENSE_KEY="noncommercial", PYTHONPATH=str(ADDIN))
    done = subprocess.run([sys.executable, "-c", SCENARIOS], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


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
