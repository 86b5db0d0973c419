"""Filling a workbook from the full FIDE rating list: ``chessrating fide-list LIST --fill``.

A synthetic list of FIDE's full size is written in a temporary folder: the combined
``players_list_foa.txt`` layout (FIDE's header, 162-character lines, the real columns),
1,932,868 players (the Oct 2026 file's count), zipped as ``players_list.zip``. No real
list is used: it carries no licence. A Swiss workbook of 500 players, each with a FIDE
ID spread over the list, is imported from a synthetic TRF; then the command fills it
from the zip (streamed: never unpacked to disk), as a user runs it, in a new process.

References, taken next to each run on this shared machine:

* the floor: a new Python process that only streams the zip member and counts its lines
  (``zipfile`` + ``readline``), the least any reader of the zip pays;
* a fixed single-threaded loop (5,000,000 additions of squares), the machine's speed.

Peak memory is the child's maximum resident set (``getrusage``, KiB on Linux).

    python benchmarks/fide_list.py [--runs 5] [--players 1932868]

Prints every run, then the medians, the ratios to the references and the peak memory.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "addin"))

from chessrating.trf.fidelist import COMBINED_HEADER, list_line  # noqa: E402

FULL_LIST = 1_932_868
BOOK_PLAYERS = 500
LOOP = "s = 0\nfor i in range(5_000_000):\n    s += i * i\n"
FLOOR = ("import sys, zipfile\n"
         "with zipfile.ZipFile(sys.argv[1]) as z, z.open('players_list_foa.txt') as f:\n"
         "    n = sum(1 for _ in f)\nprint(n)")


def write_list(path: Path, players: int) -> list[int]:
    """The synthetic combined list, zipped; returns its FIDE IDs."""
    rnd = random.Random(2026)
    ids = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("players_list_foa.txt", "w", force_zip64=True) as member:
        member.write((COMBINED_HEADER + "\r\n").encode())
        chunk = []
        for i in range(players):
            fide_id = 100_000 + i * 7
            ids.append(fide_id)
            standard = (rnd.randint(1000, 2800), rnd.randint(0, 9), rnd.choice((10, 20, 40)))
            rapid = (rnd.randint(1000, 2800), 0, 20) if i % 3 else (0, 0, 0)
            line = list_line(fide_id, f"Player{i:07d}, Given", "ENG", "MF"[i % 2], "", "", "", "",
                             standard=standard, rapid=rapid, blitz=rapid,
                             birth_year=0 if i % 57 == 0 else 1940 + i % 70, flag="i" if i % 5 == 0 else "")
            chunk.append(line.ljust(161) + "\r\n")
            if len(chunk) == 10_000:
                member.write("".join(chunk).encode())
                chunk = []
        member.write("".join(chunk).encode())
    return ids


def write_trf(path: Path, ids: list[int]) -> None:
    """A 500-player, 1-round Swiss whose players' FIDE IDs are spread over the list."""
    chosen = ids[:: max(1, len(ids) // BOOK_PLAYERS)][:BOOK_PLAYERS]
    lines = ["012 Benchmark Open", "022 Oslo", "032 NOR", "102 Arbiter, A"]
    for n, fide_id in enumerate(chosen, start=1):
        opponent = n + 1 if n % 2 else n - 1
        colour, result = ("w", "1") if n % 2 else ("b", "0")
        lines.append(f"001 {n:>4} m    {'Player' + str(n):<33} 1500 ENG {fide_id:>11} 1990/01/01 "
                     f"{'1.0' if n % 2 else '0.0':>4} {n:>4}  {opponent:>4} {colour} {result}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(args: list[str]) -> float:
    """Wall seconds of a new process running ``args``, start-up included."""
    started = time.perf_counter()
    subprocess.run(args, capture_output=True, check=False)
    return time.perf_counter() - started


def peak_of(args: list[str]) -> int:
    """Peak resident memory (MiB) of one process, measured by itself."""
    code = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], capture_output=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return int(out.stdout)


def loop_seconds() -> float:
    code = f"import time\nt = time.perf_counter()\n{LOOP}print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=FULL_LIST)
    options = parser.parse_args()
    env_path = str(HERE.parent / "addin")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        started = time.perf_counter()
        zipped = root / "players_list.zip"
        ids = write_list(zipped, options.players)
        info = zipfile.ZipFile(zipped).getinfo("players_list_foa.txt")
        print(f"list: {options.players:,} players, {info.file_size / 2**20:.0f} MB unzipped, "
              f"{zipped.stat().st_size / 2**20:.0f} MB zipped (written in "
              f"{time.perf_counter() - started:.0f} s)")
        trf, book = root / "open.trf", root / "open.xlsx"
        write_trf(trf, ids)
        python = [sys.executable, "-c", f"import sys; sys.path.insert(0, {env_path!r}); "
                                        "from chessrating.cli import run; sys.argv[0] = 'chessrating'; run()"]
        subprocess.run([*python, "import-trf", str(trf), "-o", str(book)], capture_output=True, check=True)
        command = [*python, "fide-list", str(zipped), "--fill", str(book), "-o", str(root / "filled.xlsx")]
        check = subprocess.run(command, capture_output=True, text=True)
        print(check.stdout.splitlines()[2] if check.stdout else check.stderr)
        floor = [sys.executable, "-c", FLOOR, str(zipped)]
        fills, floors, loops = [], [], []
        print(f"{'run':>3}  {'loop':>6}  {'floor':>6}  {'fill':>6}  {'fill / floor':>12}")
        for run in range(1, options.runs + 1):
            loops.append(loop_seconds())
            floors.append(timed(floor))
            fills.append(timed(command))
            print(f"{run:>3}  {loops[-1]:6.2f}  {floors[-1]:6.2f}  {fills[-1]:6.2f}  "
                  f"{fills[-1] / floors[-1]:12.2f}")
        fill, base, loop = (statistics.median(x) for x in (fills, floors, loops))
        print(f"median: fill {fill:.2f} s, floor (stream the zip, count lines) {base:.2f} s, "
              f"loop {loop:.2f} s")
        print(f"ratios: fill / floor {fill / base:.2f}, fill / loop {fill / loop:.2f}")
        print(f"peak memory: fill {peak_of(command)} MiB, floor {peak_of(floor)} MiB")


if __name__ == "__main__":
    main()
