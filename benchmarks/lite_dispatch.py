"""Cost of one Excel call in xlwings Lite: FIDE_CHANGE of 11 games through xlwings'
Office.js dispatcher, in Pyodide (the WebAssembly Python Lite runs), under Node.

Both variants run in one Node run, alternating round by round on the same calls:

* ``published``: xlwings' own ``is_jsnull`` / ``js_to_none``, which try
  ``from pyodide.ffi import JsNull`` for every argument cell (Pyodide 0.27.5 has no
  JsNull, so each cell pays a failed import);
* ``replaced``: the Lite copy's ``main.py`` as written, which puts checks resolving that
  import once in their place (chessrating.lite.embedded).

Also times the function alone (CPython, this process) for scale, and prints the start-up
of the Pyodide run: from Node's start to Pyodide loaded, xlwings imported, main.py run,
the first answer. Needs Node and ``npm ci`` in tests/lite (no network afterwards).

Run: ``PYTHONPATH=addin python benchmarks/lite_dispatch.py [--repeat N] [--rounds R] [--main FILE]``
(``--main``: another Lite copy's main.py, e.g. an earlier one, for its start-up).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / "tests" / "lite"

RATING = 2000
OPPONENTS = [1850, 1920, 2010, 2105, 1995, 2230, 1780, 2050, 1900, 2150, 2075]
RESULTS = [1, "½", 0, 1, 1, 0, 1, "½", 1, 0, "½"]


def fide_change_call() -> dict:
    """FIDE_CHANGE(rating, 11 opponents, 11 results, K 20, rules omitted), as Excel
    sends it to Lite: every argument 2-D, the omitted one null."""
    return {"func": "FIDE_CHANGE",
            "args": [[[RATING]], [OPPONENTS], [RESULTS], [[20]], [[None]]]}


def xlwings_site(folder: Path) -> Path:
    """xlwings' pure-Python package, as in its py3-none-any wheel."""
    import xlwings
    site = folder / "site"
    shutil.copytree(Path(xlwings.__file__).parent, site / "xlwings",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dll", "*.dylib", "__pycache__"))
    return site


def run_pyodide(repeat: int, rounds: int, main: Path | None = None) -> dict:
    from chessrating.lite.embedded import main_py
    main_text = main.read_text(encoding="utf-8") if main else main_py()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        request = folder / "request.json"
        request.write_text(json.dumps({
            "site": str(xlwings_site(folder)), "main": main_text, "calls": [fide_change_call()],
            "published": True, "timing": {"repeat": repeat, "rounds": rounds}}), encoding="utf-8")
        done = subprocess.run(["node", str(NODE_DIR / "run_main.mjs"), str(request)], cwd=NODE_DIR,
                              capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        sys.exit(done.stderr[-2000:])
    return json.loads(done.stdout)


def cpython_alone(repeat: int) -> float:
    """ms per call of the function itself, as Python (no dispatcher), in this process."""
    from chessrating.udfs import FIDE_CHANGE
    start = time.perf_counter()
    for _ in range(repeat):
        FIDE_CHANGE(RATING, OPPONENTS, RESULTS, 20, None)
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=50, help="calls per round and variant")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (the median is printed)")
    parser.add_argument("--main", type=Path, help="the main.py to run (default: this tree's Lite copy's)")
    args = parser.parse_args()
    answer = run_pyodide(args.repeat, args.rounds, args.main)
    assert answer["outcomes"] == answer["published_outcomes"], "the variants disagree"
    published = answer["timing"]["published"][0]
    replaced = answer["timing"]["replaced"][0]
    start = answer["startup"]
    print(f"Pyodide {answer['python']} ({answer['platform']}), xlwings {answer['xlwings']}; "
          f"replaced: {', '.join(answer['replaced'])}")
    print(f"FIDE_CHANGE, 11 games, through the dispatcher, ms per call "
          f"(median of {args.rounds} rounds x {args.repeat} calls):")
    print(f"  xlwings as published  {published:7.3f} ms")
    print(f"  checks resolved once  {replaced:7.3f} ms   ratio {replaced / published:.2f}")
    print(f"  the function alone, CPython: {cpython_alone(2000):.3f} ms")
    print(f"  value: {answer['outcomes'][0]}")
    print("start-up, ms from Node's start: "
          f"Pyodide loaded {start['pyodide']:.0f}, xlwings imported {start['xlwings']:.0f}, "
          f"main.py run {start['main']:.0f}, first answer {start['first_answer']:.0f}")
    cpu = answer["startup_cpu"]
    print("  the Node process's CPU ms at the same points: "
          f"{cpu['pyodide']:.0f}, {cpu['xlwings']:.0f}, {cpu['main']:.0f}, {cpu['first_answer']:.0f}")
    print(f"chessrating modules loaded at the first answer: {len(answer['modules_at_first_answer'])}")


if __name__ == "__main__":
    main()
