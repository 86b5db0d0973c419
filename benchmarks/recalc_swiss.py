"""Time `chessrating recalc` on a filled 200-player, 11-round Swiss.

The Swiss template (``workbooks.swiss.build_swiss``) is filled with a seeded random
event: each round pairs the players at random and draws results from a fixed mix of
wins, draws and losses; some players are unrated. Printed: the size of the workbook,
the time of a plain ``openpyxl.load_workbook`` (the floor any reader pays), and our
recalculation split into reading, evaluating and writing; with ``--formulas`` also the
``formulas`` package's engine on the same file, for comparison.

    python benchmarks/recalc_swiss.py [--players 200] [--rounds 11] [--formulas]
        [--libreoffice] [--lazy-libreoffice] [--cpus 0] [--trf FILE.trf] [--repeats 3] [--shortcuts]

The formula text (characters per sheet) is printed first: what a reader parses and a
viewer such as LibreOffice compiles cell by cell.

``--shortcuts`` times ``recalculate`` in this process with the compiler's shortcuts on
and off (``xlrecalc.compile.SHORTCUTS``).

``--phases`` times, in this process and in CPU seconds (medians of ``--repeats``, the
cycle collector paused as ``recalculate`` pauses it), reading the workbook
(``load_book``), writing the values into a copy (``write_cached_values``, handed the
sheets the reader parsed where the engine takes them) and the whole ``recalculate``;
then the whole command in new processes (the sources byte-compiled first, as pip
installs them; otherwise PYTHONDONTWRITEBYTECODE would have each run compile them).
Run it with ``PYTHONPATH`` at another checkout's ``addin`` to compare two versions on
the same machine state.

``--libreoffice`` also times whole commands, start-up included, alternating so that
both see the same load: ``chessrating recalc`` against LibreOffice headless converting
the same file (``soffice --headless --convert-to xlsx``), as medians and their ratio.
``--trf`` times ``chessrating import-trf`` on a TRF file (a FIDE Swiss built and
recalculated) the same way.

LibreOffice with a fresh profile does **not** recalculate an .xlsx file on loading: it
keeps the cached values (a cached value changed to 999 stays 999). The yardstick is
therefore a LibreOffice told to recalculate always (``OOXMLRecalcMode`` = 0 in the
profile's registry, written here); it cannot compute the rating functions (those cells
and the cells that read them show ``#NAME?``), so besides the times the script compares
the cells it does compute with ours. ``--lazy-libreoffice`` times the fresh profile
instead, which only loads and saves. ``--cpus 0`` (or ``0,1``) runs every command under
``taskset -c``, so the ratios can be taken on one CPU and on two; the load average is
printed beside each figure.

The figures of the last recorded run, and how to read them on a shared machine, are in
``benchmarks/README.md`` (sections (d) and (e)).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

from xlrecalc import engine as recalc_engine
from chessrating.recalc import chart_values, load_book, rating_functions, recalculate
from chessrating.tournament import Player, RoundGame, Tournament
from chessrating.workbooks.swiss import build_swiss


def random_event(players: int, rounds: int, seed: int = 2024) -> Tournament:
    rnd = random.Random(seed)
    field = [Player(number=n, name=f"Player {n:03d}", federation=rnd.choice(["GER", "FRA", "IND"]),
                    rating=None if rnd.random() < 0.1 else rnd.randint(1400, 2600))
             for n in range(1, players + 1)]
    for r in range(1, rounds + 1):
        order = list(range(players))
        rnd.shuffle(order)
        if len(order) % 2:
            field[order.pop()].games.append(RoundGame(r, None, None, "H"))
        for a, b in zip(order[::2], order[1::2]):
            code = rnd.choice(["1", "1", "=", "0", "0"])
            other = {"1": "0", "0": "1", "=": "="}[code]
            field[a].games.append(RoundGame(r, b + 1, "w", code))
            field[b].games.append(RoundGame(r, a + 1, "b", other))
    return Tournament(name="Benchmark Swiss", players=field, rounds=rounds)


def formula_text(src: Path) -> dict[str, tuple[int, int]]:
    """Per sheet, the number of formula cells and the characters of their formulas, read
    from the sheets' XML (the text a reader parses and a viewer compiles)."""
    import xml.etree.ElementTree as ET
    import zipfile

    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    rel = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    with zipfile.ZipFile(src) as archive:
        workbook = ET.fromstring(archive.read("xl/workbook.xml"))
        targets = {r.get("Id"): r.get("Target") for r in ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))}
        sizes = {}
        for sheet in workbook.iter(f"{main}sheet"):
            target = targets[sheet.get(rel)]
            part = target.lstrip("/") if target.startswith("/") else "xl/" + target
            texts = [f.text or "" for f in ET.fromstring(archive.read(part)).iter(f"{main}f")]
            sizes[sheet.get("name")] = (len(texts), sum(map(len, texts)))
    return sizes


def timed(label: str, fn):
    started = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - started
    return result, elapsed


def wall(command: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, child processes included) of one
    command, start-up included; it must succeed. On a shared machine the CPU seconds
    are the fairer comparison: they do not count the time spent waiting for a core."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def libreoffice_profile(folder: Path, recalculating: bool) -> Path:
    """A LibreOffice user profile; ``recalculating``: one that recalculates every .xlsx file
    it loads (``/org.openoffice.Office.Calc/Formula/Load``, ``OOXMLRecalcMode`` 0: always)."""
    import xml.etree.ElementTree as ET

    profile = folder / ("lo-recalculating" if recalculating else "lo-fresh")
    if recalculating:
        (profile / "user").mkdir(parents=True, exist_ok=True)
        oor = "http://openoffice.org/2001/registry"
        ET.register_namespace("oor", oor)
        items = ET.Element(f"{{{oor}}}items")
        item = ET.SubElement(items, "item", {f"{{{oor}}}path": "/org.openoffice.Office.Calc/Formula/Load"})
        prop = ET.SubElement(item, "prop", {f"{{{oor}}}name": "OOXMLRecalcMode", f"{{{oor}}}op": "fuse"})
        ET.SubElement(prop, "value").text = "0"
        ET.ElementTree(items).write(profile / "user" / "registrymodifications.xcu",
                                    encoding="UTF-8", xml_declaration=True)
    return profile


def compare_with_libreoffice(src: Path, theirs: Path) -> None:
    """LibreOffice's values against ours on the cells it can compute: those whose value
    does not move when the rating functions, which it does not know, fail (evaluated
    twice here, once with them and once with each raising)."""
    import math

    from xlrecalc.values import XlErr

    def evaluated(functions: dict) -> dict:
        book = load_book(src, functions)
        recalc_engine.evaluate_book(book)
        return {key: book.cells[key[0]].get(key[1:]) for key in book.formulas}

    def unknown(*_: object) -> None:
        raise NameError("not known to LibreOffice")

    ours = evaluated(rating_functions())
    blind = evaluated({name: unknown for name in rating_functions()})

    def same(a: object, b: object) -> bool:
        if isinstance(a, XlErr) or isinstance(b, XlErr):
            return isinstance(a, XlErr) and isinstance(b, XlErr)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
        return (a in (None, "")) == (b in (None, "")) and (a in (None, "") or a == b)

    computable = [key for key in ours if same(ours[key], blind[key])]
    office = openpyxl.load_workbook(theirs, data_only=True)
    agree = 0
    for sheet, row, col in computable:
        value = office[sheet].cell(row, col).value
        if isinstance(value, str) and value.startswith("#"):
            value = XlErr(value)
        agree += same(ours[(sheet, row, col)], value)
    print(f"LibreOffice's values: {len(ours):,} formula cells, {len(ours) - len(computable):,} "
          f"rest on the rating functions; of the {len(computable):,} it can compute, "
          f"{agree:,} agree with ours")


def byte_compiled(sources: Path) -> None:
    """Write the bytecode of ``sources`` (the package as pip installs it, compiled), so
    that a command timed does not compile its modules on every start, which it would
    where PYTHONDONTWRITEBYTECODE is set (as on CI)."""
    import compileall
    compileall.compile_dir(str(sources), quiet=1)


def whole_commands(src: Path, folder: Path, repeats: int, trf: Path | None,
                   recalculating: bool = True, cpus: str | None = None) -> None:
    """`chessrating recalc` against LibreOffice headless on the same file, alternating."""
    env_path = str(Path(__file__).resolve().parents[1] / "addin")
    byte_compiled(Path(env_path))
    os.environ["PYTHONPATH"] = env_path + os.pathsep + os.environ.get("PYTHONPATH", "")
    pin = ["taskset", "-c", cpus] if cpus else []
    ours_cmd = [*pin, sys.executable, "-m", "chessrating.cli", "recalc", str(src), "-o", str(folder / "ours.xlsx")]
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    profile = libreoffice_profile(folder, recalculating)
    kind = "recalculating" if recalculating else "fresh profile, not recalculating"
    print(f"on CPUs {cpus or 'all'}; LibreOffice {kind}")
    ours, office = [], []
    for _ in range(repeats):
        ours.append(wall(ours_cmd))
        if soffice:
            office.append(wall([*pin, soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                                "--norestore", "--convert-to", "xlsx", "--outdir",
                                str(folder / "lo"), str(src)]))
    mine, mine_cpu = _medians(ours)
    print(f"chessrating recalc, whole command (median of {repeats}): wall {mine:.2f} s, "
          f"CPU {mine_cpu:.2f} s (load {load()})")
    if office:
        theirs, theirs_cpu = _medians(office)
        print(f"LibreOffice headless convert-to xlsx (median): wall {theirs:.2f} s, "
              f"CPU {theirs_cpu:.2f} s; ratio ours/LibreOffice wall {mine / theirs:.2f}, "
              f"CPU {mine_cpu / theirs_cpu:.2f} (load {load()})")
        compare_with_libreoffice(src, folder / "lo" / src.name)
    if trf is not None:
        runs = [wall([*pin, sys.executable, "-m", "chessrating.cli", "import-trf", str(trf), "-o",
                      str(folder / "trf.xlsx")]) for _ in range(repeats)]
        trf_wall, trf_cpu = _medians(runs)
        ratio = f"; ratio to LibreOffice wall {trf_wall / theirs:.2f}, CPU {trf_cpu / theirs_cpu:.2f}" if office else ""
        print(f"chessrating import-trf {trf.name} (median): wall {trf_wall:.2f} s, "
              f"CPU {trf_cpu:.2f} s{ratio} (load {load()})")


def phases(src: Path, folder: Path, repeats: int) -> None:
    """CPU seconds of reading, writing and the whole recalculation, in this process."""
    import inspect

    from xlrecalc import collector_paused, write_cached_values
    from xlrecalc import record_values as engine_values
    from chessrating.recalc import Report
    reuse = "parsed" in inspect.signature(write_cached_values).parameters
    byte_compiled(Path(__file__).resolve().parents[1] / "addin")
    functions = rating_functions()
    reads, writes, totals, commands = [], [], [], []
    for _ in range(repeats):
        parsed: dict = {}
        with collector_paused():
            started = time.process_time()
            book = load_book(src, functions, parsed) if reuse else load_book(src, functions)
            reads.append(time.process_time() - started)
            recalc_engine.evaluate_book(book)
            written = engine_values(book, Report(source=src, output=None))
            started = time.process_time()
            extra = {"parsed": parsed} if reuse else {}
            write_cached_values(src, folder / "phases.xlsx", written, charts=chart_values(book), **extra)
            writes.append(time.process_time() - started)
        started = time.process_time()
        recalculate(src, folder / "whole.xlsx")
        totals.append(time.process_time() - started)
        commands.append(wall([sys.executable, "-m", "chessrating.cli", "recalc", str(src),
                              "-o", str(folder / "command.xlsx")])[1])
    median = statistics.median
    print(f"phases, CPU s (medians of {repeats}; sheets parsed once: {reuse}): read {median(reads):.3f}, "
          f"write {median(writes):.3f}, recalculate {median(totals):.3f}, "
          f"chessrating recalc command {median(commands):.3f}   (load {load()})")
    print(f"  reads {[round(x, 3) for x in reads]}, writes {[round(x, 3) for x in writes]}")


def shortcuts(src: Path, folder: Path, repeats: int) -> None:
    """CPU seconds of recalculate with the compiler's shortcuts and without
    (xlrecalc.compile.SHORTCUTS), alternating; medians."""
    from xlrecalc import compile as compiler
    runs: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(repeats):
        for flag in (True, False):
            compiler.SHORTCUTS = flag
            started = time.process_time()
            recalculate(src, folder / "shortcuts.xlsx")
            runs[flag].append(time.process_time() - started)
    compiler.SHORTCUTS = True
    on, off = statistics.median(runs[True]), statistics.median(runs[False])
    print(f"recalculate CPU (median of {repeats}): shortcuts on {on:.2f} s, off {off:.2f} s; "
          f"they save {100 * (off - on) / off:.0f} %")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--formulas", action="store_true",
                        help="also time the formulas package's engine (slow)")
    parser.add_argument("--libreoffice", action="store_true",
                        help="also time whole commands against LibreOffice headless")
    parser.add_argument("--lazy-libreoffice", action="store_true",
                        help="LibreOffice with a fresh profile, which keeps the cached values")
    parser.add_argument("--cpus", help="run the whole commands under taskset -c CPUS, e.g. 0 or 0,1")
    parser.add_argument("--trf", type=Path, help="also time import-trf on this file")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--phases", action="store_true",
                        help="CPU of reading, writing and the whole recalculation, in this process")
    parser.add_argument("--shortcuts", action="store_true",
                        help="also time recalculate with the compiler's shortcuts off")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "swiss.xlsx"
        build_swiss(src, tournament=random_event(args.players, args.rounds))
        _, imports = timed("imports", lambda: rating_functions())
        _, baseline = timed("openpyxl", lambda: openpyxl.load_workbook(src))
        book, read = timed("read", lambda: load_book(src, rating_functions()))
        print(f"workbook: {args.players} players x {args.rounds} rounds, "
              f"{len(book.formulas):,} formula cells")
        sizes = formula_text(src)
        print(f"formula text: {sum(chars for _, chars in sizes.values()):,} characters ("
              + ", ".join(f"{name} {chars:,} in {count:,}" for name, (count, chars) in sizes.items() if count) + ")")
        print(f"one-off import of the function libraries {imports:.2f} s")
        print(f"openpyxl.load_workbook (baseline)        {baseline:.2f} s")
        _, evaluate = timed("evaluate", lambda: recalc_engine.evaluate_book(book))
        report, total = timed("total", lambda: recalculate(src, Path(tmp) / "out.xlsx"))
        print(f"recalculate: read {read:.2f} s, evaluate {evaluate:.2f} s; "
              f"whole call with writing and standings {total:.2f} s "
              f"({len(report.errors)} cells with errors)")
        if args.phases:
            phases(src, Path(tmp), args.repeats)
        if args.shortcuts:
            shortcuts(src, Path(tmp), args.repeats)
        if args.libreoffice or args.trf:
            whole_commands(src, Path(tmp), args.repeats, args.trf,
                           recalculating=not args.lazy_libreoffice, cpus=args.cpus)
        if args.formulas:
            try:
                import formulas
            except ImportError:
                print("formulas engine: not installed (pip install '.[compare]')")
                return 0
            from formulas.functions import wrap_func
            funcs = formulas.get_functions()
            for name, fn in rating_functions().items():
                funcs[name] = wrap_func(fn)
            model, load = timed("formulas load", lambda: formulas.ExcelModel().loads(str(src)).finish())
            _, calc = timed("formulas calc", model.calculate)
            print(f"formulas engine: load+compile {load:.1f} s, calculate {calc:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
