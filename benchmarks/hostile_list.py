"""Peak memory and time of ``chessrating fide-list`` and ``export-trf`` on hostile rating
lists and workbooks, the worst case of each kind (``python benchmarks/hostile_list.py
[--big]``).

Each file is built by tests/hostile/list_corpus.py (generated, never a copy; every one
under 5 MB) and given to the command line in a child process with its address space
capped at 1.5 GB; the figure is the child's peak resident memory (``ru_maxrss``) and its
wall time, once. A list is given as ``fide-list LIST --fill open.xlsx -o filled.xlsx``
for the 8-player workbook ``import-trf`` writes of make_corpus.swiss_trf; a workbook as
``export-trf BOOK``. The baseline is the fill from a sound 8-player list. ``--big`` adds the
densest list of each layout the bounds let through (5 MB packed, about 300 MB unpacked;
half a minute each to write).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from capped import measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import list_corpus as corpus  # noqa: E402
import make_corpus  # noqa: E402

Case = tuple[str, Callable[[Path, Path], Path]]  # command, build(folder, imported book)

CASES: dict[str, Case] = {
    "sound 8-player list (baseline)": ("fill", lambda f, b: corpus.make_sound_list(f)),
    "last line cut short (interrupted download)": ("fill", lambda f, b: corpus.make_cut_list(f)),
    "damaged and ambiguous lines": ("fill", lambda f, b: corpus.make_damaged_lines(f)),
    "a FIDE ID on two lines": ("fill", lambda f, b: corpus.make_twice_listed(f)),
    "zip bomb: one line of 2 GB": ("fill", lambda f, b: corpus.make_bomb_one_line(f)),
    "zip bomb: 2 GB of empty lines": ("fill", lambda f, b: corpus.make_bomb_blank_lines(f)),
    "zip bomb: 1 GB of one sound line": ("fill", lambda f, b: corpus.make_bomb_lines(f)),
    "zip bomb: 1 GB of XML players": ("fill", lambda f, b: corpus.make_bomb_xml(f)),
    "15 MB line (under the ratio check)": ("fill", lambda f, b: corpus.make_long_line(f)),
    "15 MB of empty lines (under the ratio check)": ("fill", lambda f, b: corpus.make_blank_lines(f)),
    "40,001 members": ("fill", lambda f, b: corpus.make_many_members(f)),
    "encrypted list zip": ("fill", lambda f, b: corpus.make_encrypted_zip(f)),
    "Deflate64 list zip": ("fill", lambda f, b: corpus.make_deflate64_zip(f)),
    "zip cut short": ("fill", lambda f, b: corpus.make_cut_zip(f)),
    "XML entities (billion laughs)": ("fill", lambda f, b: corpus.make_xml_entities(f)),
    "XML: 15 MB of non-player elements": ("fill", lambda f, b: corpus.make_xml_nested(f)),
    "XML: a 15 MB name": ("fill", lambda f, b: corpus.make_xml_long_field(f)),
    "workbook: a value at XFD1048576": ("export", lambda f, b: corpus.make_stray_cell_book(f, b)),
    "workbook: a name over a whole sheet": ("export", lambda f, b: corpus.make_whole_sheet_name(f, b)),
    "workbook: Names over a whole sheet": ("export", lambda f, b: corpus.make_whole_sheet_name(f, b, "Names")),
    "workbook: FIDE IDs typed as text": ("fill-book", lambda f, b: corpus.make_text_ids_book(f, b)),
    "workbook: 2,002,000 values (past 1,000,000)": ("export", lambda f, b: corpus.make_crowded_book(f)),
    "workbook: 30,000,000 empty cells in a row": ("export", lambda f, b: corpus.make_tiny_elements_book(f)),
}
BIG: dict[str, Case] = {
    "densest TXT list let through (300 MB, 58:1)": ("fill", lambda f, b: corpus.make_txt_dense(f)),
    "densest XML list let through (310 MB, 12-byte elements)": ("fill", lambda f, b: corpus.make_xml_dense(f)),
}


def imported(folder: Path) -> Path:
    """The 8-player Swiss as import-trf writes it (FIDE IDs 100001-100008)."""
    trf = folder / "open.trf"
    trf.write_text(make_corpus.swiss_trf(8, 3), encoding="utf-8")
    book = folder / "open.xlsx"
    subprocess.run([sys.executable, "-m", "chessrating.cli", "import-trf", str(trf), "-o", str(book)],
                   env={**os.environ, "PYTHONPATH": str(ROOT / "addin")}, capture_output=True, check=False)
    return book


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="add the densest lists let through")
    args = parser.parse_args()
    cases = {**CASES, **(BIG if args.big else {})}
    print(f"{'case':56} {'file':>9} {'peak MB':>8} {'x base':>7} {'seconds':>8} {'exit':>5}")
    base = None
    with tempfile.TemporaryDirectory() as root:
        book = imported(Path(root))
        for label, (command, build) in cases.items():
            with tempfile.TemporaryDirectory() as name:
                folder = Path(name)
                src = build(folder, book)
                size = src.stat().st_size
                shutil.copy(book, folder / "open-copy.xlsx")
                if command == "export":
                    run = ["export-trf", src.name, "-o", "out.trf"]
                elif command == "fill-book":
                    corpus.make_sound_list(folder)
                    run = ["fide-list", "players_list.zip", "--fill", src.name, "-o", "filled.xlsx"]
                else:
                    run = ["fide-list", src.name, "--fill", "open-copy.xlsx", "-o", "filled.xlsx"]
                peak, seconds, code = measure(run, folder)
            base = base or peak
            print(f"{label:56} {size / 1024:>7.0f}KB {peak >> 20:>8} {peak / base:>7.1f} "
                  f"{seconds:>8.2f} {code:>5}", flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
