"""The ``chessrating import-trf`` command on the 249-player grandmommyscup.trf, whole:
start-up, reading the file, filling the Swiss, evaluating its 31,125 formulas and writing
the workbook, as a user runs it (a new process each time, wall seconds).

On a shared machine whose speed moves from one minute to the next, a single timing says
little. Each run is therefore timed next to two references taken just before it:

* a fixed single-threaded Python loop (5,000,000 additions of squares), which shows how
  fast the machine is at that moment;
* ``openpyxl.load_workbook`` of the workbook the command writes, in its own process,
  start-up included: the least any program that reads the file pays.

    python benchmarks/import_trf.py [--runs 9] [--cpus 0]
    python benchmarks/import_trf.py --memory 2000 [--rounds 9] [--runs 3] [--addin PATH]

Prints every run with the machine's load average (1 minute) when it ended, then the
medians and the ratios of the command to each reference. ``--cpus`` runs the command and
both references under ``taskset -c`` (``0``: one CPU; ``0,1``: two), so the figures do not
move with the load of the other CPU.

``--memory N`` imports instead a seeded random Swiss of N players (``--rounds``, 9 by
default: the event of ``recalc_swiss.py``), written as a TRF file, and prints each run's
peak resident memory (the process's ``ru_maxrss``, measured by a parent of its own) and
CPU seconds. ``--addin`` names the ``addin`` folder whose chessrating runs (default this
checkout's), so two versions can be measured alternately on the same file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRF = HERE.parent / "tests" / "data" / "trf" / "grandmommyscup.trf"

LOOP = "s = 0\nfor i in range(5_000_000):\n    s += i * i\n"


def loop_seconds(pin: list[str]) -> float:
    """The fixed loop, timed inside a fresh interpreter (its start-up left out)."""
    code = f"import time\nt = time.perf_counter()\n{LOOP}print(time.perf_counter() - t)"
    out = subprocess.run([*pin, sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def wall(args: list[str]) -> float:
    """Wall seconds of a new process running ``args``, start-up included."""
    started = time.perf_counter()
    subprocess.run(args, capture_output=True, check=True)
    return time.perf_counter() - started


PEAK = ("import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True, check=True)\n"
        "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(used.ru_maxrss, used.ru_utime + used.ru_stime)")


def memory(players: int, rounds: int, runs: int, addin: Path) -> None:
    """Peak resident memory and CPU seconds of ``import-trf`` on a random Swiss."""
    sys.path[:0] = [str(HERE), str(HERE.parent / "addin")]
    from recalc_swiss import random_event

    from chessrating.trf.codec import save_trf
    env = dict(os.environ, PYTHONPATH=str(addin))
    with tempfile.TemporaryDirectory() as folder:
        trf, out = Path(folder) / "event.trf", Path(folder) / "event.xlsx"
        save_trf(random_event(players, rounds), trf)
        command = [sys.executable, "-m", "chessrating.cli", "import-trf", str(trf), "-o", str(out)]
        peaks, cpus = [], []
        print(f"import-trf of {players} players x {rounds} rounds, chessrating from {addin}")
        for run in range(1, runs + 1):
            found = subprocess.run([sys.executable, "-c", PEAK, *command], capture_output=True,
                                   text=True, check=True, env=env).stdout.split()
            peaks.append(int(found[0]) / 1024)
            cpus.append(float(found[1]))
            print(f"{run:>3}  peak {peaks[-1]:6.0f} MiB  CPU {cpus[-1]:6.2f} s  "
                  f"load average {os.getloadavg()[0]:.2f}")
    print(f"median: peak {statistics.median(peaks):.0f} MiB, CPU {statistics.median(cpus):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs (default 9)")
    parser.add_argument("--cpus", help="run everything under taskset -c CPUS, e.g. 0 or 0,1")
    parser.add_argument("--memory", type=int, metavar="N",
                        help="peak memory of importing a random Swiss of N players instead")
    parser.add_argument("--rounds", type=int, default=9, help="with --memory: rounds (default 9)")
    parser.add_argument("--addin", type=Path, default=HERE.parent / "addin",
                        help="with --memory: the addin folder to run (default this checkout's)")
    args = parser.parse_args()
    if args.memory:
        memory(args.memory, args.rounds, args.runs, args.addin.resolve())
        return
    runs = args.runs
    pin = ["taskset", "-c", args.cpus] if args.cpus else []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "grandmommyscup.xlsx"
        command = [*pin, sys.executable, "-m", "chessrating.cli", "import-trf", str(TRF), "-o", str(out)]
        load = [*pin, sys.executable, "-c", f"import openpyxl; openpyxl.load_workbook({str(out)!r})"]
        subprocess.run(command, capture_output=True, check=True)  # warm the disk cache
        loops, loads, imports = [], [], []
        print(f"on CPUs {args.cpus or 'all'}")
        print(f"{'run':>3}  {'loop':>6}  {'openpyxl load':>13}  {'import-trf':>10}  {'import / loop':>13}"
              f"  {'load average':>12}")
        for run in range(1, runs + 1):
            loops.append(loop_seconds(pin))
            loads.append(wall(load))
            imports.append(wall(command))
            print(f"{run:>3}  {loops[-1]:>5.2f}s  {loads[-1]:>12.2f}s  {imports[-1]:>9.2f}s"
                  f"  {imports[-1] / loops[-1]:>13.2f}  {os.getloadavg()[0]:>12.2f}")
    median = statistics.median
    print(f"median: loop {median(loops):.2f} s, openpyxl load {median(loads):.2f} s, "
          f"import-trf {median(imports):.2f} s (fastest {min(imports):.2f} s)")
    print(f"import-trf / openpyxl load: {median(i / b for i, b in zip(imports, loads)):.2f}; "
          f"import-trf / loop: {median(i / b for i, b in zip(imports, loops)):.2f}")


if __name__ == "__main__":
    main()
