"""The template writer (``chessrating.workbooks.writer``) against XlsxWriter's public API.

The writer builds a workbook in XlsxWriter's memory, evaluates it there and writes each
formula with its value; to do so it overrides some of XlsxWriter's private methods. This
script builds the heaviest workbooks with the writer as it is (the baseline) and with
variants, each in a fresh process, and prints for each the median wall and CPU seconds
of the build, the peak memory of the process, the ratios to the baseline, and whether
the file is the baseline's, byte for byte:

* ``public``: no override at all. Every formula's value goes in through XlsxWriter's
  public ``write_formula(row, col, formula, format, value=...)`` once the workbook is
  evaluated, and XlsxWriter writes the rows, the chart caches and the zip its own way.
  (Reading the cells to evaluate them still reads XlsxWriter's cell table, as the writer
  does: XlsxWriter has no public way to read back what was written.)
* ``xlsxwriter-formulas``: formulas prepared and stored by XlsxWriter's own
  ``_prepare_formula`` and ``_write_formula`` (the writer remembers per set of calls).
* ``zip-default``: the parts deflated at zlib's default level, XlsxWriter's.
* ``before``, with ``--before REV``: the writer as it was at the git revision ``REV``
  (``writer.py`` of that revision, loaded beside today's).

The workbooks: the shipped 200 × 11 Swiss and 100 × 9 US Chess templates (empty, as
``chessrating templates`` builds them), and a random 2,000-player, 9-round Swiss filled
by ``fill_swiss`` as ``chessrating import-trf`` fills it (``--players`` sets the size).

Runs alternate between the variants, so that the load of the shared machine falls on
all alike; each line ends with the load average (1 minute).

    python benchmarks/xlsx_writer.py [--repeats 3] [--only swiss,uscf,import] [--players 2000]
                                     [--variants public,zip-default] [--before REV]

Peak memory is the process's high-water mark of resident memory (``VmHWM``), start-up
and the job's data included. ``--callgrind`` counts machine instructions instead (each
process under valgrind's callgrind, less a process that makes the job's data and builds
nothing): a count the load of a shared machine does not move, at fifty times the time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ADDIN = HERE.parent / "addin"
sys.path[:0] = [str(ADDIN), str(HERE)]

BASELINE = "current"
VARIANTS = ["public", "xlsxwriter-formulas", "zip-default"]
JOBS = ["swiss", "uscf", "import"]


def load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"


# ------------------------------------------------------------------ the variants (child)

def _public_value(value: Any) -> Any:
    """A value as ``write_formula(value=)`` takes it, chosen so that XlsxWriter writes the
    ``<v>`` text ``chessrating recalc`` writes wherever its public API can: a whole number
    as an int (XlsxWriter writes ``str(value)``), an error as its code (XlsxWriter marks
    seven codes ``t="e"``), a text without the control characters XML cannot hold."""
    from xlrecalc.patch import cell_xml_value
    kind, text = cell_xml_value(value)
    if kind == "n":
        number = float(text)
        return int(number) if number.is_integer() and abs(number) < 1e15 else number
    if kind == "b":
        return text == "1"
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", text)


def _public_workbook() -> type:
    """XlsxWriter's own workbook, evaluated at closing like the writer's, each value
    handed back through the public ``write_formula``."""
    import xlsxwriter
    from xlsxwriter.worksheet import CellFormulaTuple

    from chessrating.recalc import Report, record_values
    from chessrating.workbooks.writer import book_of, current_evaluation
    from xlrecalc.engine import evaluate_book

    class PublicWorkbook(xlsxwriter.Workbook):  # type: ignore[misc]
        def close(self) -> None:
            settings = current_evaluation()
            if not self.fileclosed and settings.evaluate:
                book = book_of(self)
                report = Report(source=Path(self.filename), output=Path(self.filename),
                                formula_count=len(book.formulas))
                evaluate_book(book)
                written = record_values(book, report)
                for sheet in self.worksheets():
                    for (row, col), value in written.get(sheet.name, {}).items():
                        cell = sheet.table[row - 1][col - 1]
                        if type(cell) is CellFormulaTuple:
                            sheet.write_formula(row - 1, col - 1, "=" + cell.formula, cell.format,
                                                _public_value(value))
                settings.report = report
            super().close()

    return PublicWorkbook


def _writer_at(revision: str) -> Any:
    """``writer.py`` as it was at a git revision, loaded as a module beside today's, with
    today's evaluation settings (the ones ``fill_swiss`` sets)."""
    from chessrating.workbooks import writer
    source = subprocess.run(["git", "-C", str(HERE.parent), "show",
                             f"{revision}:addin/chessrating/workbooks/writer.py"],
                            capture_output=True, text=True, check=True).stdout
    name = "chessrating.workbooks._writer_before"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "chessrating.workbooks"
    sys.modules[name] = module
    exec(compile(source, f"writer.py@{revision}", "exec"), module.__dict__)
    setattr(module, "_SETTINGS", writer._SETTINGS)
    return module


def apply_variant(variant: str) -> None:
    """Put ``variant`` in place of the writer's own code, in this process only."""
    import xlsxwriter
    from xlsxwriter.worksheet import Worksheet

    from chessrating.workbooks import layout, writer
    if variant == BASELINE:
        return
    if variant.startswith("before@"):
        before = _writer_at(variant.split("@", 1)[1])
        setattr(layout, "EvaluatedWorkbook", before.EvaluatedWorkbook)
        setattr(layout, "FormulaWorksheet", before.FormulaWorksheet)
        return
    if variant == "public":
        setattr(layout, "EvaluatedWorkbook", _public_workbook())
        setattr(layout, "FormulaWorksheet", Worksheet)
    elif variant == "xlsxwriter-formulas":
        writer.FormulaWorksheet._prepare_formula = Worksheet._prepare_formula  # type: ignore[method-assign]
        writer.FormulaWorksheet._write_formula = Worksheet._write_formula  # type: ignore[method-assign]
    elif variant == "zip-default":
        writer.EvaluatedWorkbook._store_workbook = xlsxwriter.Workbook._store_workbook  # type: ignore[method-assign]
    else:
        raise SystemExit(f"unknown variant {variant!r}")


def job_builder(job: str, players: int) -> Callable[[Path], Any]:
    """The build of ``job`` into a path, its data made before the clock starts."""
    if job == "swiss":
        from chessrating.workbooks.swiss import build_swiss
        return build_swiss
    if job == "uscf":
        from chessrating.workbooks.uscf import build_uscf
        return build_uscf
    if job == "import":
        from recalc_swiss import random_event

        from chessrating.workbooks import fill_swiss
        tournament = random_event(players, 9)
        return lambda path: fill_swiss(tournament, path)
    raise SystemExit(f"unknown job {job!r}")


def child(job: str, variant: str, out: Path, players: int) -> None:
    """One build, timed; prints wall, CPU and peak memory as JSON. With ``out`` named
    ``-``, no build: the start-up and the data alone, for counting instructions."""
    apply_variant(variant)
    build = job_builder(job, players)
    if str(out) == "-":
        print(json.dumps({"wall": 0.0, "cpu": 0.0, "peak_mb": peak_megabytes()}))
        return
    wall, cpu = time.perf_counter(), time.process_time()
    build(out)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak_megabytes()}))


def peak_megabytes() -> float:
    """This process's high-water mark of resident memory. (``ru_maxrss`` would not do: a
    process started by another keeps its parent's mark across ``exec`` on Linux.)"""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return float("nan")
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return int(found.group(1)) / 1024 if found else float("nan")


# ------------------------------------------------------------------ comparing the files

def _cells(path: Path) -> dict[tuple[str, str], tuple[Any, Any]]:
    """Every cell's formula (or value) and cached value, as openpyxl reads them."""
    import openpyxl
    found: dict[tuple[str, str], tuple[Any, Any]] = {}
    formulas = openpyxl.load_workbook(path, read_only=True)
    values = openpyxl.load_workbook(path, read_only=True, data_only=True)
    for sheet in formulas.worksheets:
        for row_f, row_v in zip(sheet.iter_rows(), values[sheet.title].iter_rows()):
            for f, v in zip(row_f, row_v):
                if f.value is not None or v.value is not None:
                    found[(sheet.title, f.coordinate)] = (f.value, v.value)
    formulas.close()
    values.close()
    return found


def difference(ours: Path, base: Path) -> str:
    """How the file ``ours`` differs from the baseline's ``base``."""
    if ours.read_bytes() == base.read_bytes():
        return "same bytes"
    with zipfile.ZipFile(ours) as a, zipfile.ZipFile(base) as b:
        if a.namelist() != b.namelist():
            return "other parts"
        members = [name for name in a.namelist() if a.read(name) != b.read(name)]
    size = f"{ours.stat().st_size / 1e6:.2f} MB against {base.stat().st_size / 1e6:.2f} MB"
    if not members:
        return f"same parts, other zip ({size})"
    mine, theirs = _cells(ours), _cells(base)
    changed = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
    example = ""
    if changed:
        key = changed[0]
        example = f"; e.g. {key[0]}!{key[1]}: {theirs.get(key)!r} -> {mine.get(key)!r}"
    return (f"{len(members)} parts differ ({', '.join(m.rsplit('/', 1)[-1] for m in members[:4])}"
            f"{'…' if len(members) > 4 else ''}); {len(changed)} of {len(theirs)} cells read "
            f"otherwise by openpyxl{example}")


# ------------------------------------------------------------------ the parent

def run_child(job: str, variant: str, out: Path | str, players: int,
              callgrind: Path | None = None) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ADDIN), str(HERE)])}
    command = [sys.executable, __file__, "--child", job, variant, str(out), str(players)]
    if callgrind is not None:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind}", *command]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"{job} / {variant} failed:\n{done.stderr}")
    found = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    if callgrind is not None:
        totals = re.search(r"^(?:summary|totals): (\d+)", callgrind.read_text(), re.M)
        found["instructions"] = float(totals.group(1)) if totals else float("nan")
        callgrind.unlink()
    return found


def count_instructions(job: str, variants: list[str], players: int, folder: Path) -> None:
    """Each variant's build in machine instructions (callgrind), less the start-up and data."""
    counts = {}
    for variant in variants:
        out = folder / f"{job}-{variant}-counted.xlsx"
        built = run_child(job, variant, out, players, folder / "callgrind.out")
        idle = run_child(job, variant, "-", players, folder / "callgrind.out")
        counts[variant] = built["instructions"] - idle["instructions"]
        out.unlink()
        print(f"  {variant:<20} {counts[variant] / 1e9:7.2f} billion instructions "
              f"{counts[variant] / counts[BASELINE]:6.2f} | load {load()}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=",".join(JOBS), help="jobs: swiss, uscf, import")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--players", type=int, default=2000, help="players of the filled Swiss")
    parser.add_argument("--before", help="also the writer as it was at this git revision")
    parser.add_argument("--callgrind", action="store_true", help="count instructions (one run each)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        job, variant, out, players = args.child
        child(job, variant, Path(out), int(players))
        return 0
    variants = [BASELINE, *(v for v in args.variants.split(",") if v and v != BASELINE)]
    if args.before:
        variants.insert(1, f"before@{args.before}")
    counted = "instructions counted once" if args.callgrind else f"medians of {args.repeats}"
    print(f"XlsxWriter {_version()}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; "
          f"{counted}; ratios to the writer as it is ({BASELINE})")
    with tempfile.TemporaryDirectory() as folder:
        for job in args.only.split(","):
            if args.callgrind:
                print(f"\n{job}: instructions of the build, ratio to {BASELINE}")
                count_instructions(job, variants, args.players, Path(folder))
                continue
            runs: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
            files: dict[str, Path] = {}
            for repeat in range(args.repeats):
                for variant in variants:
                    out = Path(folder) / f"{job}-{variant}-{repeat}.xlsx"
                    runs[variant].append(run_child(job, variant, out, args.players))
                    if variant in files:
                        out.unlink()
                    else:
                        files[variant] = out
            label = {"import": f"{args.players}-player Swiss, fill_swiss"}.get(job, f"{job} template")
            print(f"\n{label}")
            print(f"  {'variant':<20} {'wall':>7} {'ratio':>6} {'CPU':>7} {'ratio':>6} "
                  f"{'peak MB':>8} {'ratio':>6}  file")
            base = {k: statistics.median(r[k] for r in runs[BASELINE]) for k in ("wall", "cpu", "peak_mb")}
            for variant in variants:
                med = {k: statistics.median(r[k] for r in runs[variant]) for k in ("wall", "cpu", "peak_mb")}
                same = "baseline" if variant == BASELINE else difference(files[variant], files[BASELINE])
                print(f"  {variant:<20} {med['wall']:6.2f}s {med['wall'] / base['wall']:6.2f} "
                      f"{med['cpu']:6.2f}s {med['cpu'] / base['cpu']:6.2f} {med['peak_mb']:8.0f} "
                      f"{med['peak_mb'] / base['peak_mb']:6.2f}  {same} | load {load()}", flush=True)
    return 0


def _version() -> str:
    import xlsxwriter
    return str(xlsxwriter.__version__)


if __name__ == "__main__":
    raise SystemExit(main())
