"""Time `chessrating recalc` on a filled 200-player, 11-round Swiss.

The Swiss template (``workbooks.swiss.build_swiss``) is filled with a seeded random
event: each round pairs the players at random and draws results from a fixed mix of
wins, draws and losses; some players are unrated. Printed: the size of the workbook,
the time of a plain ``openpyxl.load_workbook`` (the floor any reader pays), and our
recalculation split into reading, evaluating and writing; with ``--formulas`` also the
``formulas`` package's engine on the same file, for comparison.

    python benchmarks/recalc_swiss.py [--players 200] [--rounds 11] [--formulas]
        [--libreoffice] [--trf FILE.trf] [--repeats 3] [--shortcuts]

``--shortcuts`` times ``recalculate`` in this process with the compiler's shortcuts on
and off (``xlrecalc.compile.SHORTCUTS``).

``--libreoffice`` also times whole commands, start-up included, alternating so that
both see the same load: ``chessrating recalc`` against LibreOffice headless converting
the same file (``soffice --headless --convert-to xlsx``, its own fresh profile), as
medians and their ratio. ``--trf`` times ``chessrating import-trf`` on a TRF file
(a FIDE Swiss built and recalculated) the same way.

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
from chessrating.recalc import load_book, rating_functions, recalculate
from chessrating.trf.model import Player, RoundGame, Tournament
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


def whole_commands(src: Path, folder: Path, repeats: int, trf: Path | None) -> None:
    """`chessrating recalc` against LibreOffice headless on the same file, alternating."""
    env_path = str(Path(__file__).resolve().parents[1] / "addin")
    os.environ["PYTHONPATH"] = env_path + os.pathsep + os.environ.get("PYTHONPATH", "")
    ours_cmd = [sys.executable, "-m", "chessrating.cli", "recalc", str(src), "-o", str(folder / "ours.xlsx")]
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    ours, office = [], []
    for _ in range(repeats):
        ours.append(wall(ours_cmd))
        if soffice:
            profile = folder / "lo-profile"
            office.append(wall([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                                "--norestore", "--convert-to", "xlsx", "--outdir",
                                str(folder / "lo"), str(src)]))
    mine, mine_cpu = _medians(ours)
    print(f"chessrating recalc, whole command (median of {repeats}): wall {mine:.2f} s, "
          f"CPU {mine_cpu:.2f} s")
    if office:
        theirs, theirs_cpu = _medians(office)
        print(f"LibreOffice headless convert-to xlsx (median): wall {theirs:.2f} s, "
              f"CPU {theirs_cpu:.2f} s; ratio ours/LibreOffice wall {mine / theirs:.2f}, "
              f"CPU {mine_cpu / theirs_cpu:.2f}")
    if trf is not None:
        runs = [wall([sys.executable, "-m", "chessrating.cli", "import-trf", str(trf), "-o",
                      str(folder / "trf.xlsx")]) for _ in range(repeats)]
        trf_wall, trf_cpu = _medians(runs)
        print(f"chessrating import-trf {trf.name} (median): wall {trf_wall:.2f} s, "
              f"CPU {trf_cpu:.2f} s; ratio to the recalc above, CPU {trf_cpu / mine_cpu:.2f}")


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
    parser.add_argument("--trf", type=Path, help="also time import-trf on this file")
    parser.add_argument("--repeats", type=int, default=3)
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
        print(f"one-off import of the function libraries {imports:.2f} s")
        print(f"openpyxl.load_workbook (baseline)        {baseline:.2f} s")
        _, evaluate = timed("evaluate", lambda: recalc_engine.evaluate_book(book))
        report, total = timed("total", lambda: recalculate(src, Path(tmp) / "out.xlsx"))
        print(f"recalculate: read {read:.2f} s, evaluate {evaluate:.2f} s; "
              f"whole call with writing and standings {total:.2f} s "
              f"({len(report.errors)} cells with errors)")
        if args.shortcuts:
            shortcuts(src, Path(tmp), args.repeats)
        if args.libreoffice or args.trf:
            whole_commands(src, Path(tmp), args.repeats, args.trf)
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
