"""One Swiss round paired by gacrux through ``chessrating.pairing``, and what it costs.

A seeded Swiss (ratings from 2400 down, 9 rounds, results drawn with the higher rating
favoured, 2 % half-point byes) is paired round by round with :func:`pair_round` and
:func:`apply_pairing`; then its last round is paired again from the rounds before it:

* **pair_round**: the round as the package pairs it: the model read and checked, gacrux's
  tournament built, the engine run, the boards turned back into starting numbers.
* **baseline**: gacrux's engine alone (``pairing_dutch(...).compute_pairing``) on the same
  tournament dictionary, built beforehand: the least any caller of gacrux pays. The ratio
  is what the adapter adds.
* **process**: ``python -c`` reading the event's TRF file (written to a temporary folder,
  removed afterwards) and pairing its next round, as a command would: interpreter start,
  imports (gacrux, networkx) and all. Floor: ``python -c "pass"``, the same run.
* **chessrating pair** (``--cli``, default 200 players): the event's TRF file imported into
  the FIDE Swiss workbook once (``import-trf``, not timed), then ``chessrating pair BOOK -o
  OUT`` as a director runs it: start, reading the workbook, pairing, writing the round's
  cells and recalculating the whole workbook. Baseline: ``chessrating recalc BOOK -o OUT``
  of the same workbook, the recalculation alone; the difference is what pairing adds.

    python benchmarks/pairing.py [--players 200,500] [--cli 200] [--rounds 9] [--repeats 5]

Prints per size the medians and the ratios. Figures of the last recorded run:
``benchmarks/README.md`` (k).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ADDIN = Path(__file__).resolve().parent.parent / "addin"
sys.path.insert(0, str(ADDIN))

from gacrux.pairingdutch import pairing_dutch  # noqa: E402

from chessrating.pairing import apply_pairing, pair_round  # noqa: E402
from chessrating.pairing.engine import Event  # noqa: E402
from chessrating.trf import save_trf  # noqa: E402
from chessrating.tournament import Player, RoundGame, Tournament  # noqa: E402

PROCESS = ("import sys; from chessrating.trf import read_trf; "
           "from chessrating.pairing import pair_round; "
           "p = pair_round(read_trf(sys.argv[1])); print(len(p.boards))")


def swiss(players: int, rounds: int, played: int, seed: int = 1) -> Tournament:
    """An event of ``rounds`` rounds whose first ``played`` rounds are paired and played."""
    rng = random.Random(seed)
    t = Tournament(name="Benchmark", rounds=rounds,
                   players=[Player(n, f"Player {n}", rating=2400 - n) for n in range(1, players + 1)])
    for r in range(1, played + 1):
        byes = {p.number: "H" for p in t.players if rng.random() < 0.02}
        apply_pairing(t, pair_round(t, absent=byes, top_colour="w"))
        for p in t.players:
            game = p.game(r)
            if game.opponent is None or game.colour != "w":
                continue
            other = t.player(game.opponent)
            favour = 0.5 + (other.number - p.number) / (4 * players)
            draw = rng.random() < 0.3
            code = "=" if draw else "1" if rng.random() < favour else "0"
            game.code = code
            other.games[r - 1] = RoundGame(r, p.number, "b", {"1": "0", "0": "1", "=": "="}[code])
    return t


def median(function, repeats: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of ``function`` (CPU of this process and of the
    processes it waited for): on a shared machine the CPU seconds move less."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, used = time.perf_counter(), _cpu()
        function()
        wall.append(time.perf_counter() - start)
        cpu.append(_cpu() - used)
    return statistics.median(wall), statistics.median(cpu)


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def engine_alone(t: Tournament, r: int):
    """gacrux's engine on the dictionary the package builds, built once beforehand."""
    event = Event(t, None)
    data = event.gacrux_tournament(r, set(), "w", None, 1)
    params = {"experimental": [], "verbose": 0, "top_color": "w", "rank": False}

    def run() -> None:
        # the engine marks the dictionary's competitors as it pairs; a fresh shallow copy
        # of the parts it writes keeps every run the same
        fresh = {**data, "competitors": [dict(c) for c in data["competitors"]]}
        pairing_dutch(fresh, r, params).compute_pairing(False, 0)
    return run


def process_seconds(args: list[str], repeats: int) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(ADDIN)}
    return median(lambda: subprocess.run([sys.executable, *args], env=env, check=True,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), repeats)


def shown(pair: tuple[float, float]) -> str:
    """Wall-clock seconds, CPU seconds in brackets."""
    return f"{pair[0]:6.2f} ({pair[1]:5.2f})"


def command_seconds(t: Tournament, repeats: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """``chessrating pair`` and ``chessrating recalc`` of the event's workbook, whole processes."""
    from chessrating.import_trf import import_trf
    from chessrating.progress import Progress

    with tempfile.TemporaryDirectory() as folder:
        trf, book, out = Path(folder) / "event.trf", Path(folder) / "event.xlsx", Path(folder) / "out.xlsx"
        save_trf(t, trf)
        import_trf(trf, book, progress=Progress(io.StringIO()))
        cli = ["-m", "chessrating.cli"]
        paired = process_seconds([*cli, "pair", str(book), "-o", str(out)], repeats)
        recalculated = process_seconds([*cli, "recalc", str(book), "-o", str(out)], repeats)
    return paired, recalculated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="200,500")
    parser.add_argument("--cli", default="200", help="players of the chessrating pair case ('' for none)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    r = options.rounds
    print("wall-clock seconds (CPU seconds)")
    print(f"{'players':>7} {'make':>7} {'pair_round':>15} {'baseline':>15} {'ratio':>5} "
          f"{'process':>15} {'floor':>13}  load")
    for players in (int(p) for p in options.players.split(",")):
        start = time.perf_counter()
        t = swiss(players, r, r - 1)
        made = time.perf_counter() - start
        ours = median(lambda: pair_round(t, r, top_colour="w"), options.repeats)
        base = median(engine_alone(t, r), options.repeats)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "event.trf"
            save_trf(t, path)
            whole = process_seconds(["-c", PROCESS, str(path)], options.repeats)
            floor = process_seconds(["-c", "pass"], options.repeats)
        print(f"{players:7d} {made:6.1f}s {shown(ours):>15} {shown(base):>15} {ours[1] / base[1]:4.2f}× "
              f"{shown(whole):>15} {shown(floor):>13}  {os.getloadavg()[0]:.1f}")
    sizes = [int(p) for p in options.cli.split(",") if p.strip()]
    if sizes:
        print(f"\n{'players':>7} {'chessrating pair':>17} {'recalc alone':>15} {'ratio':>5}  load")
    for players in sizes:
        paired, recalculated = command_seconds(swiss(players, r, r - 1), options.repeats)
        print(f"{players:7d} {shown(paired):>17} {shown(recalculated):>15} "
              f"{paired[1] / recalculated[1]:4.2f}×  {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
