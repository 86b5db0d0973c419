"""Peak memory and time of ``chessrating lite`` on hostile web-extension parts, the
worst case of each kind (``python benchmarks/hostile_lite.py``).

Each file is built by tests/hostile/lite_parts.py (generated, never a copy) and turned
into a Lite copy by the command line in a child process with its address space capped
at 1.5 GB; the figure is the child's peak resident memory (``ru_maxrss``) and its wall
time, once. The contract: every input under 5 MB under 1 GB and two minutes.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from capped import measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import lite_corpus  # noqa: E402
import lite_parts as corpus  # noqa: E402

CASES = {
    "sound workbook (baseline)": lite_corpus.lite_base,
    "two other add-ins' parts of 420 MB (4.7 MB file)": corpus.lite_huge_parts,
    "an add-in's and Lite's part of 420 MB (refused)": lambda f: corpus.lite_huge_parts(f, lite_second=True),
    "main.py as JSON nested 100,000 deep (refused)": corpus.lite_nested_json,
    "Lite part nested 100,000 deep in XML": corpus.lite_nested_xml,
    "kept property with a quote in its name": corpus.lite_quoted_property,
    "sheet of 499,990 empty cells (under the bound)": lambda f: corpus.lite_crowded_sheet(f, 499_990),
    "sheet of 1,000,000 empty cells (refused)": corpus.lite_crowded_sheet,
}


def main() -> None:
    print(f"{'case':50} {'file':>9} {'peak MB':>8} {'seconds':>8} {'exit':>5}")
    for label, build in CASES.items():
        with tempfile.TemporaryDirectory() as folder:
            src = build(Path(folder))
            size = src.stat().st_size
            peak, seconds, code = measure(["lite", str(src), "-o", str(src.with_name("copy.xlsx"))], src.parent)
        print(f"{label:50} {size / 1024:>7.0f}KB {peak >> 20:>8} {seconds:>8.2f} {code:>5}", flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
