"""Peak memory and time of ``chessrating recalc`` on the engine's hostile files, the
worst case of each kind (``python benchmarks/hostile_engine.py [--big]``).

Each file is built by tests/hostile/engine_corpus.py (a few kilobytes, generated, never
a copy) and recalculated by the command line in a child process with its address space
capped at 1.5 GB; the figure is the child's peak resident memory (``ru_maxrss``) and its
wall time, once. The baseline is the same command on a sound two-cell workbook, run in
the same way: the interpreter and the imports every run pays. ``--big`` adds the
largest names chain and the most names a file under 5 MB holds (4.9 MB each).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from capped import measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import cycle_corpus  # noqa: E402
import engine_corpus as corpus  # noqa: E402
import make_corpus  # noqa: E402


CASES = {
    "sound two-cell workbook (baseline)": make_corpus.make_plain,
    "shared-string index -1": lambda f: corpus.make_shared_string(f, "-1"),
    "localSheetId past the sheets": lambda f: corpus.make_local_name(f, "1"),
    "1_000 and full-width digits as text": corpus.make_python_numbers,
    "number cell <v>1_000</v>": lambda f: corpus.make_number_cell(f, "1_000"),
    "blocked and shorter spills": corpus.make_blocked_spill,
    "texts past 32,767 characters": corpus.make_long_texts,
    "macro workbook named .xlsx": corpus.make_macro_named_xlsx,
    "array formula over A1:XFD1048576": corpus.make_whole_sheet_array,
    "20,000 overlapping whole-sheet arrays": corpus.make_many_whole_sheet_arrays,
    "array formula over a whole column": corpus.make_column_array,
    "names chained 9,000 deep": lambda f: corpus.make_name_chain(f, 9_000),
    "names chained 12,000 deep (past 10,000)": lambda f: corpus.make_name_chain(f, 12_000),
    "LAMBDA names chained 9,000 deep": lambda f: corpus.make_lambda_chain(f, 9_000),
    "150,000 cells chained, all in error": corpus.make_cell_chain,
    "encrypted workbook": corpus.make_encrypted,
    "reference to another workbook": corpus.make_external_link,
    "workbook part at book/main.xml": corpus.make_workbook_elsewhere,
    "sheet in UTF-16 (refused before evaluating)": lambda f: corpus.make_unwritable_sheet(f, "utf-16"),
    "cycle through two names": cycle_corpus.make_name_cycle,
    "2-cell cycle, iterateCount 100,000 (32,767 run)": cycle_corpus.make_endless_cycle,
    "1,000-cell cycle that never settles (stopped)": lambda f: cycle_corpus.make_endless_cycle(
        f, 100_000, 1_000),
    "2,000 cells each reading all 2,000 (stopped)": cycle_corpus.make_dense_cycle,
    "2,000 cells each reading all 2,000, no iteration": lambda f: cycle_corpus.make_dense_cycle(
        f, 2_000, None),
}
BIG = {"names chained 950,000 deep (4.9 MB)": lambda f: corpus.make_name_chain(f, 950_000),
       "1,900,000 names (4.9 MB)": lambda f: corpus.make_many_names(f, 1_900_000)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="add the 4.9 MB names chain")
    parser.add_argument("--only", default="", help="the cases whose label holds this text (and the baseline)")
    args = parser.parse_args()
    cases = {label: build for label, build in {**CASES, **(BIG if args.big else {})}.items()
             if args.only in label or "baseline" in label}
    print(f"{'case':45} {'file':>9} {'peak MB':>8} {'x base':>7} {'seconds':>8} {'exit':>5}")
    base = None
    for label, build in cases.items():
        with tempfile.TemporaryDirectory() as folder:
            src = build(Path(folder))
            size = src.stat().st_size
            peak, seconds, code = measure(["recalc", str(src)], src.parent)
        base = base or peak
        print(f"{label:45} {size / 1024:>7.0f}KB {peak >> 20:>8} {peak / base:>7.1f} "
              f"{seconds:>8.2f} {code:>5}", flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
