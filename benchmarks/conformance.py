"""Agreement of ``chessrating recalc`` with Excel on the conformance corpus.

Every workbook under ``tests/data/conformance/`` is recalculated from its formulas and
inputs and each formula cell compared with the value the saving program cached (see
:mod:`xlrecalc.conformance`). Prints one row per workbook: formula cells,
cells that agree, the share, and the first differing cells.

    python benchmarks/conformance.py             # the table, on stdout
    python benchmarks/conformance.py --write     # and into benchmarks/README.md
    python benchmarks/conformance.py -v          # every differing cell
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "addin"))

from xlrecalc.conformance import Agreement, compare_with_excel  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "conformance"
README = ROOT / "benchmarks" / "README.md"
BEGIN, END = "<!-- conformance:begin -->", "<!-- conformance:end -->"


def measure() -> list[tuple[str, Agreement]]:
    found = []
    for path in sorted(CORPUS.glob("*/*.xls[xm]")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found.append((f"{path.parent.name}/{path.name}", compare_with_excel(path)))
    return found


def table(results: list[tuple[str, Agreement]]) -> str:
    lines = ["| workbook | saved by | formula cells | agree | share | kept Excel's value |",
             "|---|---|---:|---:|---:|---:|"]
    for name, result in results:
        share = f"{100 * result.ratio:.1f} %" if result.compared else "—"
        lines.append(f"| {name} | {result.application or '?'} | {result.compared} | "
                     f"{result.agreed} | {share} | {result.kept or ''} |")
    compared = sum(r.compared for _, r in results)
    agreed = sum(r.agreed for _, r in results)
    books = [r for _, r in results if r.compared]
    mean = sum(r.ratio for r in books) / len(books) if books else 1.0
    whole = sum(1 for r in books if r.agreed == r.compared)
    kept = sum(r.kept for _, r in results)
    evaluated = [r for r in books if r.compared > r.kept]
    evaluated_mean = (sum((r.agreed - r.kept) / (r.compared - r.kept) for r in evaluated)
                      / len(evaluated)) if evaluated else 1.0
    lines.append(f"| **all {len(results)} workbooks** | | **{compared}** | **{agreed}** | "
                 f"**{100 * agreed / compared:.1f} %** | **{kept}** |")
    lines.append("")
    lines.append(f"Mean agreement per workbook {100 * mean:.1f} %; {whole} of {len(books)} "
                 f"workbooks agree on every formula cell. {kept} cells call functions out of "
                 f"the engine's scope and keep Excel's value; of the {compared - kept} cells "
                 f"evaluated, {agreed - kept} agree (mean per workbook "
                 f"{100 * evaluated_mean:.1f} %).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update benchmarks/README.md")
    parser.add_argument("-v", "--verbose", action="store_true", help="every differing cell")
    args = parser.parse_args(argv)
    results = measure()
    text = table(results)
    print(text)
    print()
    for name, result in results:
        if result.failure:
            print(f"{name}: not recalculated: {result.failure}")
        shown = result.mismatches if args.verbose else result.mismatches[:3]
        for mismatch in shown:
            print(f"{name}: {mismatch}")
        if len(result.mismatches) > len(shown):
            print(f"{name}: … {len(result.mismatches) - len(shown)} more")
    if args.write:
        readme = README.read_text(encoding="utf-8")
        block = f"{BEGIN}\n{text}\n{END}"
        if BEGIN not in readme:
            raise SystemExit(f"{README} has no {BEGIN} … {END} section to fill")
        readme = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda m: block, readme,
                        flags=re.S)
        README.write_text(readme, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
