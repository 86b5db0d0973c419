"""Cost of "Pair next round" in xlwings Lite: the Lite copy's script pairing a Swiss round
in Pyodide (the WebAssembly Python Lite runs), under Node, from the script call to the
actions it returns.

A seeded Swiss (benchmarks/pairing.py's: ratings from 2400 down, the higher rating
favoured, 30 % draws, 2 % half-point byes) with its first rounds played is written as the
FIDE Swiss template (cached values left empty), and its values are handed to the script
as the add-in hands them (an Office.js book payload, only the values of the crosstable and
the Report sheet: the script's ``include``). tests/lite/run_main.mjs runs it as the add-in does:
``xlwings.Book(json=...)``, ``xlwings.server.custom_scripts_call``, ``book.json()``.

* **first run**: the first click after opening: the pairing modules, gacrux and networkx
  imported, the crosstable read, the round paired and written;
* **later runs**: the same again with the modules loaded (median): reading, pairing and
  writing alone;
* **for scale**: the same round paired by :func:`chessrating.pairing.pair_round` from the
  model in CPython, this process (the round Pyodide writes must be this one).

Needs Node and ``npm ci`` in tests/lite (no network afterwards).

Run: ``PYTHONPATH=addin python benchmarks/lite_pairing.py [--players 200] [--played 4] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / "tests" / "lite"
sys.path[:0] = [str(ROOT / "addin"), str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

from officejs_book import officejs_book  # noqa: E402
from pairing import swiss  # noqa: E402

from chessrating import scripts  # noqa: E402
from chessrating.lite.embedded import main_py  # noqa: E402
from chessrating.pairing import pair_round  # noqa: E402
from chessrating.workbooks import fill_swiss  # noqa: E402


def site(folder: Path) -> Path:
    """xlwings, gacrux and networkx, pure Python as in their py3-none-any wheels."""
    import gacrux
    import networkx
    import xlwings
    out = folder / "site"
    for package in (xlwings, gacrux, networkx):
        shutil.copytree(Path(package.__file__).parent, out / package.__name__,
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dll", "*.dylib", "__pycache__"))
    return out


def _load() -> str:
    import os
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--played", type=int, default=4, help="rounds played before the one paired")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the script (the first imports)")
    args = parser.parse_args()
    t = swiss(args.players, args.rounds, args.played)
    start, used = time.perf_counter(), time.process_time()
    expected = pair_round(t)
    cpython = time.perf_counter() - start, time.process_time() - used
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        book = fill_swiss(t, folder / "swiss.xlsx", recalculate=False)
        payload = officejs_book(book, include=scripts.PAIR_NEXT_ROUND["include"])
        request = folder / "request.json"
        request.write_text(json.dumps({
            "site": str(site(folder)), "main": main_py(),
            "calls": [{"func": "FIDE_DP", "args": [[[0.65]]]}],
            "scripts": [{"script": "pair_next_round", "book": payload, "repeat": args.repeat}]}),
            encoding="utf-8")
        done = subprocess.run(["node", str(NODE_DIR / "run_main.mjs"), str(request)], cwd=NODE_DIR,
                              capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        sys.exit(done.stderr[-2000:])
    answer = json.loads(done.stdout)
    [outcome] = answer["script_outcomes"]
    if "error" in outcome:
        sys.exit(f"{outcome['error']}: {outcome['message']}")
    rows = outcome["actions"][0]["values"]
    written = {(n, row[0]) for n, row in enumerate(rows, start=1) if row[1] == "W"}
    assert written == set(expected.boards), "Pyodide's pairing differs from CPython's"
    wall, cpu = outcome["ms"], outcome["cpu_ms"]
    size = len(json.dumps(payload)) / 1e6
    print(f"Pyodide {answer['python']} ({answer['platform']}), xlwings {answer['xlwings']}; "
          f"{args.players} players, round {expected.round} of {args.rounds} "
          f"({len(expected.boards)} boards); payload {size:.2f} MB; load average {_load()}")
    print("  seconds, wall (Node's CPU)")
    print(f"  first run (imports included)  {wall[0] / 1000:6.2f} ({cpu[0] / 1000:.2f})")
    if len(wall) > 1:
        print(f"  later runs (median of {len(wall) - 1})   {statistics.median(wall[1:]) / 1000:6.2f} "
              f"({statistics.median(cpu[1:]) / 1000:.2f})")
    print(f"  pair_round alone, CPython      {cpython[0]:6.2f} ({cpython[1]:.2f}) (same round, for scale)")
    print(f"  pairing modules loaded at the first answer: {answer['engine_at_first_answer'] or 'none'}")


if __name__ == "__main__":
    main()
