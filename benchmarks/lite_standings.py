"""Cost of recalculating a Swiss's standings in xlwings Lite: every cell of a Lite copy that
calls a chessrating function, called as Excel calls it, in Pyodide (the WebAssembly Python
Lite runs) under Node.

A random Swiss (benchmarks/recalc_swiss.py's event: 11 rounds, one player in ten unrated)
is written as the FIDE Swiss template and as the US Chess template and recalculated by
``chessrating.recalc``. While it recalculates, every call of a chessrating function is
recorded cell by cell, with its arguments as the ranges and values the cell hands over
(the engine answers a repeated call from its memory, but each cell's call is recorded).
Each call is then sent to the Lite copy's ``main.py`` as Excel sends it: every argument
2-D, blank cells and omitted arguments as null, whole numbers as integers, an error cell
as Office.js's error object, through ``xlwings.server.custom_functions_call``
(tests/lite/run_main.mjs). Each cell's arguments are parsed from JSON just before its
call, outside the time, so no call receives the objects of another, as in Lite.

Three recalculations in one Node run, each timed as the sum of its calls:

* **first**: the first after opening (nothing remembered yet);
* **repeat**: the same cells again with the same values (Excel's F9, or a result typed
  and typed back);
* **changed**: the book with one result of the last round changed (a draw made a win),
  every cell recalculated, as Excel does on a typed result.

Every distinct call's answer in Pyodide must equal the engine's (the same function in
CPython; numbers to 1e-9 relative, as Pyodide's libm may give another last digit).
``--keep DIR`` keeps the recorded calls, so that ``--main OTHER/main.py`` (an earlier
Lite copy's) is timed on the same calls. Needs Node and ``npm ci`` in tests/lite (no network afterwards).

``--split N`` times instead one repeated call of each standings function (the first
cell's of the FIDE Swiss, and of the US Chess book for USCF_EVENT), N times each after
one call that fills the memo, and splits it: writing the memo's key
(``chessrating.officejs.answers_key``), xlwings converting the answer back
(``xlwings.pro.udfs_officejs.convert``) and the rest, in the Node process's CPU
milliseconds per call. For that the main.py called gets a few lines appended that wrap
those two functions and answer what they took (:data:`SPLIT_CODE`).

Run: ``PYTHONPATH=addin python benchmarks/lite_standings.py [--players 250,500] [--rounds 11]
[--keep DIR] [--main FILE] [--only LABELS] [--split N]``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / "tests" / "lite"
sys.path[:0] = [str(ROOT / "addin"), str(Path(__file__).resolve().parent)]

from recalc_swiss import random_event  # noqa: E402

from chessrating import udfs, workbooks  # noqa: E402
from chessrating.lite.embedded import main_py  # noqa: E402
from chessrating.recalc import recalculate  # noqa: E402
from chessrating.tournament import RoundGame, Tournament  # noqa: E402
from xlrecalc import addin_calls  # noqa: E402
from xlrecalc.values import MISSING, Arr, XlErr  # noqa: E402

# the functions of a standings list: tie-breaks, ranks and the US Chess event
STANDINGS = frozenset({"TIEBREAK", "TIEBREAK_RANK", "USCF_EVENT"})
_OFFICEJS_ERRORS = {"#N/A": "NotAvailable", "#VALUE!": "Value", "#REF!": "Reference", "#DIV/0!": "Div0",
                    "#NUM!": "Num", "#NAME?": "Name", "#NULL!": "Null"}


def _officejs_cell(value: Any) -> Any:
    """A cell value as Office.js hands it to a custom function."""
    if isinstance(value, XlErr):
        return {"type": "Error", "errorType": _OFFICEJS_ERRORS.get(value.code, "Value"),
                "basicValue": value.code}
    if type(value) is float and value.is_integer():
        return int(value)
    return value


class Recorder:
    """Every call of a chessrating function during a recalculation, cell by cell: the
    function's name and each argument as the cell hands it over, in the order made."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.answers: dict[tuple[str, tuple[Any, ...]], Any] = {}
        self.book: Any = None
        self.names = {id(fn): name for name, fn in vars(udfs).items() if name in udfs.__all__}

    def __enter__(self) -> Recorder:
        own = addin_calls._remembered

        def remembered(book: Any, key: Any, call: Any) -> Any:
            answer = own(book, key, call)
            name = self.names.get(id(key[0])) if key else None
            if name is not None:
                self.book = book
                self.calls.append((name, key[1:]))
                self.answers.setdefault((name, key[1:]), answer)
            return answer

        self._own = own
        addin_calls._remembered = remembered
        return self

    def __exit__(self, *exc: Any) -> None:
        addin_calls._remembered = self._own

    def argument(self, part: Any) -> Any:
        """One argument as Excel sends it to Lite: a 2-D list."""
        kind = part[0]
        if kind == "range":
            _, sheet, r1, c1, r2, c2 = part
            cells = self.book.cells[sheet]
            return [[_officejs_cell(cells.get((r, c))) for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)]
        if kind == "cell":
            _, sheet, r, c = part
            return [[_officejs_cell(self.book.cells[sheet].get((r, c)))]]
        value = part[1]
        return [[None if value is MISSING else _officejs_cell(value)]]


def _answer(value: Any) -> Any:
    """The engine's answer in the shape xlwings returns it to Excel."""
    if isinstance(value, Arr):
        return [[_officejs_cell(v) for v in row] for row in value.rows()]
    return [[_officejs_cell(value)]]


def recorded_calls(book: Path, table: dict[str, int]) -> tuple[list[dict], dict[str, Any], Counter]:
    """Each cell's call while ``book`` recalculates: {"func", "args": indices into
    ``table`` (argument JSON text -> index, extended here)}; the engine's answer by call
    (its arguments' indices joined); the calls per function."""
    with Recorder() as recorder:
        recalculate(book, book.with_suffix(".out.xlsx"))
    calls, answers, count = [], {}, Counter()
    index_of: dict[Any, int] = {}  # an argument's place in the book -> its index in table
    omitted = table.setdefault(json.dumps([[None]]), len(table))
    for name, parts in recorder.calls:
        params = len(inspect.signature(getattr(udfs, name)).parameters)
        indices = []
        for part in parts:
            if part not in index_of:
                text = json.dumps(recorder.argument(part), ensure_ascii=False)
                index_of[part] = table.setdefault(text, len(table))
            indices.append(index_of[part])
        indices += [omitted] * max(0, params - len(parts))
        calls.append({"func": name, "args": indices})
        answers.setdefault(f"{name}:{indices}", _answer(recorder.answers[(name, parts)]))
        count[name] += 1
    return calls, answers, count


def one_result_changed(t: Tournament) -> Tournament:
    """``t`` with the first drawn game of the last round made a win for White."""
    last = t.rounds
    for player in t.players:
        game = next((g for g in player.games if g.round == last and g.code == "=" and g.colour == "w"), None)
        if game is not None and game.opponent is not None:
            opponent = t.players[game.opponent - 1]
            player.games[player.games.index(game)] = RoundGame(last, game.opponent, "w", "1")
            theirs = next(g for g in opponent.games if g.round == last)
            opponent.games[opponent.games.index(theirs)] = RoundGame(last, player.number, "b", "0")
            return t
    raise SystemExit("no drawn game in the last round to change")


def site(folder: Path) -> Path:
    """xlwings' pure-Python package, as in its py3-none-any wheel."""
    import xlwings
    out = folder / "site"
    shutil.copytree(Path(xlwings.__file__).parent, out / "xlwings",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dll", "*.dylib", "__pycache__"))
    return out


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "n/a"


def recorded_request(players: int, rounds: int, folder: Path, keep: Path | None) -> dict[str, Any]:
    """The recalculations to run and the engine's answers, recorded once per size (kept in
    ``keep`` when given, so that two copies of main.py are timed on the same calls)."""
    saved = keep / f"lite-standings-{players}x{rounds}.json" if keep else None
    if saved is not None and saved.exists():
        return json.loads(saved.read_text(encoding="utf-8"))
    table: dict[str, int] = {}
    started = time.perf_counter()
    books: dict[str, dict[str, Any]] = {}
    for label, fill in (("FIDE Swiss", workbooks.fill_swiss), ("US Chess", workbooks.fill_uscf)):
        runs = {}
        for state, event in (("first", random_event(players, rounds)),
                             ("changed", one_result_changed(random_event(players, rounds)))):
            path = folder / f"{label.split()[0]}-{state}-{players}.xlsx"
            fill(event, path, recalculate=False)
            runs[state] = recorded_calls(path, table)
            print(f"  {label} {state}: recorded ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        books[label] = runs
    recorded = {"arguments": [text for text, _ in sorted(table.items(), key=lambda kv: kv[1])], "runs": [],
                "expected": {key: value for runs in books.values() for _, answers, _ in runs.values()
                             for key, value in answers.items()},
                "counts": {label: runs["first"][2] for label, runs in books.items()}}
    for label, runs in books.items():
        for state in ("first", "repeat", "changed"):
            calls = runs["first" if state == "repeat" else state][0]
            recorded["runs"].append({"label": f"{label} {state}", "calls": calls})
    if saved is not None:
        saved.write_text(json.dumps(recorded, ensure_ascii=False), encoding="utf-8")
    return recorded


# Appended to main.py by --split: the time in the memo's key and in xlwings' conversion of
# the answer, by function, answered by LITE_SPLIT(reset) (cpu_ms is run_main.mjs's).
SPLIT_CODE = """

import __main__ as _host
import json as _json
import xlwings as _xw
import xlwings.pro.udfs_officejs as _udfs_officejs
from chessrating import officejs as _officejs

_SPLIT, _KEY_MS = {}, [0.0]
_own_key, _own_convert = _officejs.answers_key, _udfs_officejs.convert


def _timed_key(arguments):
    start = _host.cpu_ms()
    try:
        return _own_key(arguments)
    finally:
        _KEY_MS[0] += _host.cpu_ms() - start


async def _timed_convert(result, ret_info, data):
    start = _host.cpu_ms()
    try:
        return await _own_convert(result, ret_info, data)
    finally:
        part = _SPLIT.setdefault(data["func_name"], {"key": 0.0, "back": 0.0, "calls": 0})
        part["back"] += _host.cpu_ms() - start
        part["key"] += _KEY_MS[0]
        part["calls"] += 1
        _KEY_MS[0] = 0.0


_officejs.answers_key, _udfs_officejs.convert = _timed_key, _timed_convert


@_xw.func
def LITE_SPLIT(reset):
    text = _json.dumps(_SPLIT)
    if reset:
        _SPLIT.clear()
    return text
"""


def run_in_node(folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    """``request`` run by tests/lite/run_main.mjs in Node (written to ``folder`` first);
    its answer, or the script's exit with Node's error."""
    path = folder / "request.json"
    path.write_text(json.dumps(request, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(["node", "--max-old-space-size=4096", str(NODE_DIR / "run_main.mjs"), str(path)],
                          cwd=NODE_DIR, capture_output=True, text=True, timeout=7200)
    if done.returncode != 0:
        sys.exit(done.stderr[-3000:])
    return json.loads(done.stdout)


def split(players: int, rounds: int, folder: Path, keep: Path | None, main_text: str, repeat: int) -> None:
    """Print one repeated call of each standings function split into the key, the answer
    converted back and the rest (see the module's ``--split``)."""
    recorded = recorded_request(players, rounds, folder, keep)
    texts = list(recorded["arguments"])
    picked: dict[str, dict[str, Any]] = {}
    for run in recorded["runs"]:
        for c in run["calls"]:
            if c["func"] in STANDINGS and c["func"] not in picked:
                picked[c["func"]] = c
    reset, report_ = len(texts), len(texts) + 1
    texts += [json.dumps([[True]]), json.dumps([[False]])]
    warm = [*picked.values(), {"func": "LITE_SPLIT", "args": [reset]}]
    timed = [c for _ in range(repeat) for c in picked.values()] + [{"func": "LITE_SPLIT", "args": [report_]}]
    request = {"site": str(site(folder)), "main": main_text + SPLIT_CODE, "calls": [],
               "recalculations": {"arguments": texts, "runs": [{"label": "warm", "calls": warm},
                                                                 {"label": "split", "calls": timed}]}}
    answer = run_in_node(folder, request)
    given = answer["recalculation_answers"][f"LITE_SPLIT:[{report_}]"]["value"]
    parts = json.loads(given[0][0] if isinstance(given, list) else given)  # xlwings hands a cell as [[text]]
    cpu = answer["recalculations"][1]["cpu_ms_by_function"]
    print(f"{players} players x {rounds} rounds, a repeated call, {repeat} times each; load average {_load()}")
    print("  Node's CPU ms per call: key + answer converted back + rest = call")
    for name in sorted(picked):
        part = parts[name]
        n = part["calls"]
        key, back, total = part["key"] / n, part["back"] / n, cpu[name] / n
        print(f"  {name:14s} {key:.3f} + {back:.3f} + {total - key - back:.3f} = {total:.3f}")


def same(got: Any, expected: Any) -> bool:
    """Equal answers, numbers to 1e-9 relative (Pyodide's libm may give another last digit)."""
    if isinstance(got, list) and isinstance(expected, list):
        return len(got) == len(expected) and all(same(a, b) for a, b in zip(got, expected))
    if isinstance(got, (int, float)) and isinstance(expected, (int, float)) \
            and not isinstance(got, bool) and not isinstance(expected, bool):
        return abs(got - expected) <= 1e-9 * max(abs(got), abs(expected), 1.0)
    return got == expected


def measure(players: int, rounds: int, folder: Path, keep: Path | None, main_text: str,
            only: set[str] | None) -> dict[str, Any]:
    """The recalculations of the FIDE Swiss and the US Chess book of one event, in Pyodide."""
    recorded = recorded_request(players, rounds, folder, keep)
    runs = [run for run in recorded["runs"] if only is None or run["label"] in only]
    request = {"site": str(site(folder)), "main": main_text, "calls": [],
               "recalculations": {"arguments": recorded["arguments"], "runs": runs}}
    answer = run_in_node(folder, request)
    expected = recorded["expected"]
    answer["wrong"] = [key for key, value in answer["recalculation_answers"].items()
                       if "value" not in value or not same(value["value"], expected[key])]
    answer["counts"] = recorded["counts"]
    return answer


def report(players: int, rounds: int, answer: dict[str, Any]) -> None:
    print(f"{players} players x {rounds} rounds; Pyodide {answer['python']}, xlwings {answer['xlwings']}; "
          f"load average {_load()}")
    for label, count in answer["counts"].items():
        shown = ", ".join(f"{name} {n}" for name, n in sorted(count.items()))
        print(f"  {label}: {sum(count.values())} cells call a function ({shown})")
    print("  seconds per recalculation, the calls' sum, wall and (Node's CPU): standings functions | "
          "all functions; the slowest standings call, ms wall")
    for run in answer["recalculations"]:
        standings = sum(ms for name, ms in run["ms_by_function"].items() if name in STANDINGS)
        busy = sum(ms for name, ms in run["cpu_ms_by_function"].items() if name in STANDINGS)
        slowest = max((ms for name, ms in run["slowest_ms"].items() if name in STANDINGS), default=0.0)
        print(f"  {run['label']:22s} {standings / 1000:6.2f} ({busy / 1000:5.2f}) | "
              f"{run['ms'] / 1000:6.2f} ({run['cpu_ms'] / 1000:5.2f}); slowest {slowest:6.1f} ms")
    start = answer["startup"]
    print(f"  start-up, ms from Node's start: Pyodide loaded {start['pyodide']:.0f}, xlwings imported "
          f"{start['xlwings']:.0f}, main.py run {start['main']:.0f}")
    if answer["wrong"]:
        sys.exit(f"  Pyodide's answer differs from the engine's in {len(answer['wrong'])} distinct calls, "
                 f"e.g. {answer['wrong'][0][:60]}")
    print(f"  every distinct call's answer equals the engine's ({len(answer['recalculation_answers'])} calls)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="250,500", help="sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--main", type=Path, help="the main.py to call (default: this tree's Lite copy's)")
    parser.add_argument("--keep", type=Path, help="folder keeping the recorded calls, reused when present")
    parser.add_argument("--only", help="recalculations to run, comma-separated labels "
                                       "(e.g. 'FIDE Swiss first,FIDE Swiss repeat')")
    parser.add_argument("--split", type=int, metavar="N",
                        help="instead: one repeated call of each standings function, N times, split "
                             "into the memo's key, the answer converted back and the rest")
    args = parser.parse_args()
    main_text = args.main.read_text(encoding="utf-8") if args.main else main_py()
    only = set(args.only.split(",")) if args.only else None
    for players in (int(p) for p in args.players.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            if args.split:
                split(players, args.rounds, Path(tmp), args.keep, main_text, args.split)
            else:
                report(players, args.rounds, measure(players, args.rounds, Path(tmp), args.keep, main_text, only))


if __name__ == "__main__":
    main()
