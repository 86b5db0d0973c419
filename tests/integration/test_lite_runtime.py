"""The Lite runtime itself: a Lite workbook's ``main.py`` run in Pyodide, under Node.

xlwings Lite runs a workbook's code in Pyodide, the WebAssembly CPython. The npm package
``pyodide`` (version pinned in tests/lite/package-lock.json, the version the Lite-saved
workbooks name) runs it here under Node, with xlwings' pure-Python package on its path
(the installed package without its compiled extension, as in its py3-none-any wheel) and
``XLWINGS_ON_SERVER=true``, ``XLWINGS_LICENSE_KEY=noncommercial`` (test use only).
tests/lite/run_main.mjs calls every function through ``xlwings.server.custom_functions_call``
with payloads shaped as Office.js sends them, and lists what ``custom_functions_meta``
registers. Each outcome must equal the same call in CPython (tests/officejs_driver.py).
It also runs the script "Pair next round" as the add-in runs a script
(``xlwings.server.custom_scripts_call`` on ``xlwings.Book(json=...)``) on a 20-player FIDE
Swiss workbook's Office.js payload, with gacrux and networkx on the path as their
pure-Python wheels (the versions the copy's requirements.txt pins); the round it writes
must be :func:`chessrating.pairing.pair_round`'s.
Needs no network once ``npm ci`` has run in tests/lite (.ci/run does it).
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gacrux_events import before_round, generated_trf
from officejs_book import officejs_book
from xlwings_book import type_inputs

from chessrating import scripts, udfs, workbooks
from chessrating.lite.convert import LITE_PREFIX, PAIRING_REQUIREMENTS, PYODIDE_VERSION, write_lite
from chessrating.pairing import Pairing, pair_round
from chessrating.tournament import cell_result
from chessrating.trf import parse_trf

from test_lite import _calls, _formulas, _raw_properties

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = Path(__file__).resolve().parents[1] / "lite"
NAMES = frozenset(udfs.__all__)


@pytest.fixture(scope="module")
def lite_books(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The Lite copies of the four templates (built without cached values: quick)."""
    folder = tmp_path_factory.mktemp("lite-books")
    return [write_lite(book, folder / f"lite-{book.name}")[0]
            for book in workbooks.write_templates(folder, recalculate=False)]


def _payloads() -> dict[str, tuple[str, list]]:
    """Calls of every function as Excel sends them to Lite: each argument 2-D, blank
    cells and omitted arguments as null, text as text, an error cell as Office.js's object."""
    payloads = {name: (func, _padded(func, args)) for name, (func, args) in _written_payloads().items()}
    return payloads


def _padded(func: str, args: list) -> list:
    """Every parameter sent, as Excel does: an omitted optional argument as null."""
    count = len(inspect.signature(getattr(udfs, func)).parameters)
    assert len(args) <= count, func
    return args + [None] * (count - len(args))


def _written_payloads() -> dict[str, tuple[str, list]]:
    na = {"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}
    nine = [[2600, 2610, 2580, 2620, 2590, 2650, 2570, 2600, 2605]]
    return {
        "elo_expected": ("ELO_EXPECTED", [[[2000]], [[1800]]]),
        "elo_expected_2d": ("ELO_EXPECTED", [[[2000, 1600], [2400, None]], [[1800]]]),
        "elo_change": ("ELO_CHANGE", [[[2000]], [[1800, 2100, None]], [[1, "½", None]], [[None]]]),
        "elo_newrating": ("ELO_NEWRATING", [[[2000]], [[1800, 2100]], [["W", "L"]], [[32]]]),
        "fide_expected": ("FIDE_EXPECTED", [[[2000, 1600], [1997, 2400]], [[1600]], [[None]]]),
        "fide_dp": ("FIDE_DP", [[[0.65]]]),
        "fide_k": ("FIDE_K", [[[2000]], [[100]], [[None]], [[2026]], [[None]], [[39]]]),
        "fide_change": ("FIDE_CHANGE", [[[2000]], [[1800, None, None]], [[1, None, None]], [[10]], [[None]]]),
        "fide_change_2024": ("FIDE_CHANGE", [[[2700]], [[2150]], [[1]], [[10]], [["2024"]]]),
        "fide_newrating": ("FIDE_NEWRATING", [[[2000]], [[1800, 2200]], [["1", "="]], [[20]], [[None]]]),
        "fide_initial": ("FIDE_INITIAL", [[[1902], [1877], [1884], [2012], [1832]], [["1", "1", "½", "½", "0"]]]),
        "fide_norm": ("FIDE_NORM", [nine, [[1, 1, 0.5, 1, 0.5, 1, 1, 0.5, 0.5]], [["GM"]],
                                    [["GM"] * 9], [["USA", "GER", "FRA", "IND", "NOR", "ESP", "ITA", "NED", "RUS"]],
                                    [["ENG"]]]),
        "perf_fide": ("PERF_RATING", [[[2000, 2100, 1900]], [[1, 0.5, 0]], [[None]], [[None]]]),
        "perf_elo_text": ("PERF_RATING", [[[2000, 2000]], [[1, 1]], [["ELO"]], [[None]]]),
        "perf_uscf": ("PERF_RATING", [[[1500, 1600, 1700]], [[1, 0, 0.5]], [["USCF"]], [[None]]]),
        "goal": ("RATING_GOAL", [[[1600]], [[1700]], [[1600]], [[20]], [[None]], [[None]]]),
        "goal_never": ("RATING_GOAL", [[[1600]], [[2800]], [[1400]], [[20]], [[0]], [["FIDE"]]]),
        "uscf_effective": ("USCF_EFFECTIVE_GAMES", [[[1500]], [[10]]]),
        "uscf_k": ("USCF_K", [[[1500]], [[10]], [[4]], [[None]]]),
        "uscf_bonus": ("USCF_BONUS", [[[1800]], [[50]], [[2000, 2000, 2000, 2000]], [[1, 1, 1, 1]],
                                      [[None]], [[None]], [[None]]]),
        "uscf_newrating": ("USCF_NEWRATING", [[[1500]], [[10]], [[1800, 1400]], [[1, 0]], [[None]],
                                              [[None]], [[None]], [[None]], [[None]], [[None]]]),
        "uscf_unrated": ("USCF_NEWRATING", [[[None]], [[0]], [[1800, 1400, 1500]], [[1, 0, "D"]], [[30]],
                                            [[None]], [[None]], [[None]], [[None]], [[None]]]),
        "uscf_floor": ("USCF_FLOOR", [[[2150]], [[None]]]),
        "uscf_event": ("USCF_EVENT", [[[1500], [1500], [1500]], [[30], [30], [30]],
                                      [[None, 1, 1], [0, None, 0.5], [0, 0.5, None]]]),
        "tiebreak_swiss": ("TIEBREAK", [[["BH/C1"]], [[2, 3], [1, 0], [0, 1]], [["1", "½"], ["0", "H"], ["U", "½"]],
                                        [["W", "B"], ["B", None], [None, "W"]], [["2024"]], [[2000], [1900], [1800]]]),
        "tiebreak_grid": ("TIEBREAK", [[["SB"]], [[None]], [[None, 1, "½"], [0, None, 1], ["½", 0, None]]]),
        "tiebreak_rank": ("TIEBREAK_RANK", [[[1.5], [1], [1]], [[1.25], [0.5], [0.75]]]),
        # bad input: an error, never a number
        "bad_result": ("FIDE_CHANGE", [[[2000]], [[1800, 1900]], [[1, 2]], [[20]], [[None]]]),
        "bad_rating": ("ELO_EXPECTED", [[["abc"]], [[1800]]]),
        "bad_p": ("FIDE_DP", [[[2]]]),
        "bad_method": ("PERF_RATING", [[[2000]], [[1]], [["XYZ"]], [[None]]]),
        "bad_games": ("USCF_NEWRATING", [[[1500]], [[-3]], [[1800]], [[1]], [[None]], [[None]], [[None]],
                                         [[None]], [[None]], [[None]]]),
        "error_cell": ("FIDE_CHANGE", [[[2000]], [[na]], [[1]], [[20]], [[None]]]),
        "bad_system": ("RATING_GOAL", [[[1600]], [[1700]], [[1600]], [[20]], [[1]], [["XYZ"]]]),
        "bad_tiebreak": ("TIEBREAK", [[["XX"]], [[2], [1]], [["1"], ["0"]]]),
    }


BAD = ["bad_result", "bad_rating", "bad_p", "bad_method", "bad_games", "error_cell", "bad_system",
       "bad_tiebreak"]


def _cpython(calls: list[dict]) -> list[dict]:
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "addin"), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str((Path(__file__).resolve().parents[1] / "core" / "officejs_driver.py"))],
                          input=json.dumps(calls), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _node_ready() -> str | None:
    """Why the Pyodide runner cannot run here, or None. The suite installs nothing: the
    pinned npm package (tests/lite/package-lock.json) is installed by ``npm ci`` in
    tests/lite, which .ci/run does."""
    if shutil.which("node") is None:
        return "Node.js is not installed (.ci/run installs it: apt-get install nodejs npm)"
    if not (NODE_DIR / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        return "the pinned pyodide package is not installed: run `npm ci` in tests/lite"
    return None


def _xlwings_site(folder: Path) -> Path:
    """xlwings' pure-Python package, as in its py3-none-any wheel: no compiled extension;
    and the pairing engine the copy's requirements.txt installs, gacrux with networkx
    (both pure Python, py3-none-any)."""
    import gacrux
    import networkx
    import xlwings
    site = folder / "site"
    for package in (xlwings, gacrux, networkx):
        shutil.copytree(Path(package.__file__).parent, site / package.__name__,
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dll", "*.dylib", "__pycache__"))
    return site


PAIRED_ROUND = 3


@pytest.fixture(scope="module")
def swiss_20(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Pairing]:
    """A 20-player, 5-round FIDE Swiss as it stood before round 3 (generated and paired by
    gacrux: byes asked for, forfeits), with Baku acceleration and a player withdrawn after
    round 2 typed on its Report sheet, as the Office.js payload Lite sends the script (the
    values of the crosstable and the Report sheet); and the round as ``pair_round`` pairs
    it under those settings."""
    event = parse_trf(generated_trf(20, 5, 4))
    before = before_round(event, PAIRED_ROUND)
    book = workbooks.fill_swiss(before, tmp_path_factory.mktemp("swiss-20") / "swiss.xlsx", recalculate=False)
    gone = min(p.number for p in before.players if p.game(PAIRED_ROUND).is_blank)
    type_inputs(book, {"PairAcceleration": "Baku", "WithdrawnAfter": {gone - 1: PAIRED_ROUND - 1}})
    return (officejs_book(book, include=scripts.PAIR_NEXT_ROUND["include"]),
            pair_round(before, PAIRED_ROUND, withdrawn=[gone], accelerated=True))


@pytest.fixture(scope="module")
def lite_runtime(lite_books: list[Path], swiss_20: tuple[dict, Pairing],
                 tmp_path_factory: pytest.TempPathFactory) -> dict:
    why = _node_ready()
    if why:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("pyodide")
    main_py = json.loads(_raw_properties(lite_books[0])["main.py"])
    calls = [{"func": f, "args": a} for f, a in _payloads().values()]
    request = folder / "request.json"
    request.write_text(json.dumps({"site": str(_xlwings_site(folder)), "main": main_py, "calls": calls,
                                   "published": True,
                                   "scripts": [{"script": "pair_next_round", "book": swiss_20[0]}]}),
                       encoding="utf-8")
    done = subprocess.run(["node", str(NODE_DIR / "run_main.mjs"), str(request)], cwd=NODE_DIR,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout)
    answer["names"] = list(_payloads())
    answer["cpython"] = _cpython(calls)
    return answer


def test_lite_runtime_is_pyodide(lite_runtime: dict) -> None:
    assert lite_runtime["platform"] == "emscripten"
    assert lite_runtime["python"].startswith("3.12.")  # Pyodide 0.27's Python
    pinned = json.loads((NODE_DIR / "package-lock.json").read_text())["packages"]["node_modules/pyodide"]
    assert pinned["version"] == PYODIDE_VERSION


def test_every_function_in_pyodide_equals_cpython(lite_runtime: dict) -> None:
    outcomes = dict(zip(lite_runtime["names"], lite_runtime["outcomes"]))
    expected = dict(zip(lite_runtime["names"], lite_runtime["cpython"]))
    called = {_payloads()[name][0] for name in outcomes}
    assert called == NAMES
    for name, outcome in outcomes.items():
        assert outcome == expected[name], name
    for name in BAD:
        assert "value" not in outcomes[name] and outcomes[name]["error"] == "XlwingsError", name
        assert outcomes[name]["message"] and "\n" not in outcomes[name]["message"], name
    for name, outcome in outcomes.items():
        if name not in BAD:
            assert "value" in outcome, (name, outcome)
    # values from the rule books, to be sure the runtime computed, not only agreed
    assert outcomes["fide_initial"] == {"value": [[1922]]}  # FIDE 8.2.1 example
    assert outcomes["fide_dp"] == {"value": [[110]]}        # table 8.1.1: p 0.65 -> 110
    assert outcomes["fide_expected"] == {"value": [[0.92, 0.5], [0.92, 0.92]]}  # table 8.1.2
    assert outcomes["error_cell"]["message"] == \
        "opponent_ratings: the cell holds the Excel error #N/A (item 1)"


def test_every_function_is_registered_under_the_name_the_formulas_use(lite_runtime: dict,
                                                                       lite_books: list[Path]) -> None:
    functions = lite_runtime["meta"]["functions"]
    assert sorted(f["id"] for f in functions) == sorted(NAMES)
    assert all(f["name"] == f["id"] for f in functions)  # no namespace: _xldudf_ + id
    for function in functions:
        parameters = list(inspect.signature(getattr(udfs, function["id"])).parameters)
        assert [p["name"] for p in function["parameters"]] == parameters, function["id"]
    bound = {c[len(LITE_PREFIX):] for book in lite_books for f in _formulas(book)
             for c in _calls(f) if c.startswith(LITE_PREFIX)}
    # the templates call every function, and each call names a registered id
    assert bound == NAMES == {f["id"] for f in functions}


# The checks for Pyodide's JsNull that main.py replaces (tests/lite/run_main.mjs runs the
# calls again with xlwings' own in place: "published_outcomes").
REPLACED = ["xlwings.utils.is_jsnull", "xlwings.conversion.standard.is_jsnull",
            "xlwings.pro.udfs_officejs.js_to_none"]


def test_jsnull_checks_replaced_give_the_values_of_xlwings_own(lite_runtime: dict) -> None:
    assert lite_runtime["replaced"] == REPLACED
    assert lite_runtime["published_outcomes"] == lite_runtime["outcomes"]
    outcomes = dict(zip(lite_runtime["names"], lite_runtime["outcomes"]))
    assert outcomes["fide_change"] == {"value": [[2.4]]}  # 2000 beats 1800, K 10: 10 x (1 - 0.76)
    startup = lite_runtime["startup"]
    assert 0 < startup["pyodide"] < startup["xlwings"] < startup["main"] <= startup["first_answer"]


def _xlwings_sources() -> dict[str, ast.Module]:
    import xlwings
    root = Path(xlwings.__file__).parent
    return {".".join(("xlwings",) + p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"):
            ast.parse(p.read_text(encoding="utf-8")) for p in root.rglob("*.py")}


def test_every_xlwings_module_holding_a_jsnull_check_by_name_is_patched() -> None:
    """Whatever imports is_jsnull or js_to_none by name keeps its own reference: main.py
    must replace it there too. And xlwings' own tries the import at every call and
    answers False where it fails, which is what the replacement resolves once."""
    holders = {f"{module}.is_jsnull" for module, tree in _xlwings_sources().items()
               for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               for alias in node.names if alias.name == "is_jsnull" and (alias.asname or alias.name) == "is_jsnull"}
    defined = {f"{module}.{node.name}" for module, tree in _xlwings_sources().items()
               for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
               and node.name in ("is_jsnull", "js_to_none")}
    assert holders | defined == set(REPLACED)
    trees = _xlwings_sources()
    for name in REPLACED:
        module, function = name.rsplit(".", 1)
        found = [n for n in ast.walk(trees[module]) if isinstance(n, ast.FunctionDef) and n.name == function]
        if not found:
            continue  # imported by name, defined in xlwings.utils
        tries = [t for t in ast.walk(found[0]) if isinstance(t, ast.Try)]
        assert len(tries) == 1, name
        imports = [i for i in ast.walk(tries[0]) if isinstance(i, ast.ImportFrom)]
        assert [(i.module, [a.name for a in i.names]) for i in imports] == [("pyodide.ffi", ["JsNull"])]
        assert [ast.unparse(h.type) for h in tries[0].handlers] == ["ImportError"], name


# ------------------------------------------------------------------ the script "Pair next round"


def test_the_pinned_pairing_engine_is_the_one_run_here() -> None:
    from importlib.metadata import version
    assert [f"{name}=={version(name)}" for name in ("networkx", "gacrux")] == list(PAIRING_REQUIREMENTS)


def test_pair_next_round_in_pyodide_writes_pair_rounds_pairing(lite_runtime: dict,
                                                             swiss_20: tuple[dict, Pairing]) -> None:
    expected = swiss_20[1]
    assert expected.round == PAIRED_ROUND and expected.absent  # a bye asked for in round 3
    [outcome] = lite_runtime["script_outcomes"]
    assert "error" not in outcome, outcome
    [action] = outcome["actions"]
    assert action["func"] == "setValues" and action["sheet_position"] == 0
    # row 5 on, the round's Opp, Col and Res columns (K is round 1's Opp)
    assert (action["start_row"], action["start_column"]) == (4, 10 + 3 * (PAIRED_ROUND - 1))
    assert (action["row_count"], action["column_count"]) == (20, 3)
    rows = action["values"]
    written = {(n, row[0]) for n, row in enumerate(rows, start=1) if row[1] == "W"}
    assert written == set(expected.boards)
    for white, black in expected.boards:
        assert rows[white - 1] == [black, "W", ""] and rows[black - 1] == [white, "B", ""]
    assert [n for n, row in enumerate(rows, start=1) if row == ["", "", "U"]] == \
        ([expected.bye] if expected.bye is not None else [])
    for number, code in expected.absent:  # the bye asked for stays as typed; withdrawn: empty
        assert rows[number - 1] == ["", "", cell_result(code)], number
    assert any(code == " " for _, code in expected.absent)
    shown = outcome["output"].splitlines()
    assert shown[0].startswith(f"Round {PAIRED_ROUND}: FIDE Dutch system")
    assert len(shown) == 2 + len(expected.boards) + (expected.bye is not None) + len(expected.absent) + 1
    assert len(outcome["ms"]) == 1


def test_lite_registers_the_script_and_imports_the_engine_only_when_it_runs(lite_runtime: dict) -> None:
    [meta] = lite_runtime["scripts_meta"]
    assert (meta["function_name"], meta["name"]) == ("pair_next_round", "Pair next round")
    assert meta["button"] == scripts.PAIR_NEXT_ROUND["button"] and meta["include"] == "Crosstable,Report"
    assert lite_runtime["engine_at_first_answer"] == []


# What a Lite copy loads only when a function or the script first needs it: the pairing,
# the exports (TRF, US Chess dBASE), the import of a report file, the workbooks and the
# engine (not carried at all), and the tie-breaks and the US Chess event with the
# tournament model they read (carried, imported by TIEBREAK, TIEBREAK_RANK and USCF_EVENT).
LOADED_WHEN_FIRST_USED = ("chessrating.pairing", "chessrating.trf", "chessrating.uscf_report",
                          "chessrating.import_trf", "chessrating.workbooks", "chessrating.recalc",
                          "chessrating.lite", "chessrating.tiebreaks", "chessrating.event_cells",
                          "chessrating.tournament", "chessrating.uscf.event")


def test_the_first_formula_answered_loads_only_the_modules_it_needs(lite_runtime: dict) -> None:
    first = lite_runtime["names"][0]
    assert _payloads()[first][0] == "ELO_EXPECTED"
    loaded = lite_runtime["modules_at_first_answer"]
    early = [m for m in loaded if any(m == lazy or m.startswith(lazy + ".") for lazy in LOADED_WHEN_FIRST_USED)]
    assert early == []
    # what ELO_EXPECTED needs is there: the function, its readers and Elo's formula
    assert {"chessrating.udfs", "chessrating.cells", "chessrating.elo"} <= set(loaded)
    # and the tie-break calls after it were answered (test_every_function_in_pyodide_equals_cpython
    # compares their values): the lazy imports load when first used
    tiebreak = lite_runtime["names"].index("tiebreak_swiss")
    assert "value" in lite_runtime["outcomes"][tiebreak]
