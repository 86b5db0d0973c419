"""Peak memory and time of ``export-trf``, ``import-trf`` and ``export-uscf`` on the hostile
workbooks and files of the rating reports, the worst case of each kind (``python
benchmarks/hostile_report.py``).

Each file is built by tests/hostile/report_corpus.py (generated, never a copy; every one
under 5 MB) and given to the command line once in a child process with its address space
capped at 1.5 GB; the figure is the child's peak resident memory (``ru_maxrss``) and its
wall time. The workbooks are made from the 8-player Swiss ``import-trf`` writes of
make_corpus.swiss_trf (the round robin: 6 players, 5 rounds); the baseline is
``export-trf`` of that Swiss as written.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from capped import measure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "hostile"))
sys.path.insert(0, str(ROOT / "addin"))
import report_corpus as corpus  # noqa: E402

# label -> build(folder, the imported Swiss) returning the command's arguments (and a
# file size cap, for a full disk)
Case = Callable[[Path, Path], tuple[list[str], int | None]]


def _export(book: Path, *extra: str) -> tuple[list[str], int | None]:
    return ["export-trf", book.name, "-o", "out.trf", *extra], None


def _held(folder: Path, book: Path) -> tuple[list[str], int | None]:
    corpus.make_held_outputs(folder, "check")
    return _export(book)


def _full(folder: Path, book: Path) -> tuple[list[str], int | None]:
    (folder / "out.trf").write_bytes(b"earlier")
    return ["export-trf", book.name, "-o", "out.trf"], 2 << 10


def _missing(folder: Path, book: Path) -> tuple[list[str], int | None]:
    (folder / "open.trf").write_text(corpus.make_corpus.swiss_trf(8, 3), encoding="utf-8")
    return ["import-trf", "open.trf", "-o", "missing/open.xlsx"], None


CASES: dict[str, Case] = {
    "export-trf of the 8-player Swiss (baseline)": lambda f, b: _export(b),
    "1. the workbook named as its check (club-preflight.xlsx)":
        lambda f, b: (["export-trf", corpus.make_preflight_named(f, b).name, "-o", "club.trf"], None),
    "1. the check a hard link to the workbook":
        lambda f, b: (["export-trf", corpus.make_linked_preflight(f, b)[0].name, "-o", "out.trf"], None),
    "2. the check cannot be replaced (a folder in its place)": _held,
    "3. dates: 02.03.26, a year in a date cell, 32995, 03/04/2026, 02/03/04":
        lambda f, b: _export(corpus.make_dates_book(f, b)),
    "4. a name #N/A": lambda f, b: _export(corpus.make_error_name_book(f, b)),
    "4. event name #REF!, city #NAME?": lambda f, b: _export(corpus.make_error_fields_book(f, b)),
    "5. a round-robin game in round 0": lambda f, b: _export(corpus.make_round_zero_book(f)),
    "6. import-trf: 2 players, 1,000 rounds": lambda f, b: (["import-trf", corpus.make_thousand_rounds(f).name,
                                                             "-o", "endless.xlsx"], None),
    "6. import-trf: 245 players x 2,000 rounds (5 MB)": lambda f, b: (["import-trf", corpus.make_wide_trf(f).name,
                                                                        "-o", "wide.xlsx"], None),
    "7. a name outside the BMP": lambda f, b: _export(corpus.make_astral_name_book(f, b)),
    "8. names and event fields holding line breaks and a 001 record":
        lambda f, b: _export(corpus.make_forging_book(f, b)),
    "8. export-uscf: a name holding U+2028":
        lambda f, b: (["export-uscf", corpus.make_forging_uscf_book(f).name, "-o", "report"], None),
    "9. import-trf: UTF-8 but for one Latin-1 line": lambda f, b: (["import-trf", corpus.make_mixed_encoding_trf(f).name,
                                                                    "-o", "mixed.xlsx"], None),
    "9. import-trf: 85,000 lines, every other one Latin-1 (5 MB)":
        lambda f, b: (["import-trf", corpus.make_mixed_encoding_big(f).name, "-o", "mixed.xlsx"], None),
    "10. export-trf on a full disk (files capped at 2 KB)": _full,
    "11. import-trf into a missing folder": _missing,
}


def main() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    print(f"{'case':66} {'file':>9} {'peak MB':>8} {'x base':>7} {'seconds':>8} {'exit':>5}")
    base = None
    with tempfile.TemporaryDirectory() as root:
        with contextlib.redirect_stdout(io.StringIO()):
            book = corpus.imported(Path(root))
        for label, build in CASES.items():
            with tempfile.TemporaryDirectory() as name:
                folder = Path(name)
                shutil.copy(book, folder / book.name)
                with contextlib.redirect_stdout(io.StringIO()):  # import-trf's summaries
                    args, file_size = build(folder, folder / book.name)
                size = (folder / args[1]).stat().st_size  # the file given
                peak, seconds, code = measure(args, folder, file_size)
            base = base or peak
            print(f"{label:66} {size / 1024:>7.0f}KB {peak >> 20:>8} {peak / base:>7.1f} "
                  f"{seconds:>8.2f} {code:>5}", flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
