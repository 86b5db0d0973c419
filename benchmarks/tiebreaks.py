"""The default tie-breaks and ranks of a Swiss as worksheet calls, and how they grow.

A seeded random Swiss (pairings at random among the players present, 3 % forfeits, a few
half-point byes, a pairing-allocated bye for an odd field) is handed to ``TIEBREAK`` the
way classic xlwings hands a block over: opponent numbers as floats, results as the texts
"1", "½", "0" (and "+", "-", "H", "U"), colours "W"/"B". One standings sheet asks, as the
templates will, for each code of ``FIDE_SWISS_DEFAULTS`` (BH/C1, BH, SB, DE) and of
``USCF_DEFAULTS`` (MODMED, SOLKOFF, CUMULATIVE), then ``TIEBREAK_RANK`` of the points and
the four FIDE columns.

* **sheet**: all those calls in a row, as one recalculation makes them: the block is read
  once and the later calls find it in the cache (the arguments are the key).
* **cold**: every call reads the block again (the cache emptied before each call): the
  cost when every call hands over a different range.
* **baseline**: the obvious Python loop for Buchholz over the same games already read
  (opponent lists and points in lists), timed alongside: ratios travel between machines.

    python benchmarks/tiebreaks.py [--players 125,250,500,1000,2000] [--rounds 11] [--repeats 7]

Prints per size the medians, the time per game (flat when growth is linear in games) and
the ratio to the baseline. Figures of the last recorded run: ``benchmarks/README.md`` (f).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "addin"))

from chessrating import event_cells, tiebreaks  # noqa: E402
from chessrating.udfs import TIEBREAK, TIEBREAK_RANK  # noqa: E402


def random_swiss(players: int, rounds: int, seed: int = 1) -> tuple[list, list, list, list[float]]:
    """Opponents, results, colours (players × rounds, as Excel hands them) and points."""
    rng = random.Random(seed)
    opponents = [[None] * rounds for _ in range(players)]
    results: list[list[object]] = [[None] * rounds for _ in range(players)]
    colours: list[list[object]] = [[None] * rounds for _ in range(players)]
    points = [0.0] * players
    for r in range(rounds):
        present = []
        for p in range(players):
            if rng.random() < 0.02:
                results[p][r] = "H"
                points[p] += 0.5
            else:
                present.append(p)
        rng.shuffle(present)
        if len(present) % 2:
            p = present.pop()
            results[p][r] = "U"
            points[p] += 1.0
        for a, b in zip(present[::2], present[1::2]):
            opponents[a][r], opponents[b][r] = float(b + 1), float(a + 1)
            colours[a][r], colours[b][r] = "W", "B"
            if rng.random() < 0.03:
                results[a][r], results[b][r] = "+", "-"
                points[a] += 1.0
                continue
            score = rng.choice([1.0, 0.5, 0.0])
            text = {1.0: ("1", "0"), 0.5: ("½", "½"), 0.0: ("0", "1")}[score]
            results[a][r], results[b][r] = text
            points[a] += score
            points[b] += 1.0 - score
    return opponents, results, colours, points


def sheet(opponents: list, results: list, colours: list, points: list[float], cold: bool) -> None:
    """The calls of one standings sheet: the default codes, then the ranks."""
    columns = []
    for code in tiebreaks.FIDE_SWISS_DEFAULTS + tiebreaks.USCF_DEFAULTS:
        if cold:
            event_cells.tiebreak_scores.cache_clear()
        column = TIEBREAK(code, opponents, results, colours, "2026")
        if code in tiebreaks.FIDE_SWISS_DEFAULTS:
            columns.append(column)
    block = [[c[i][0] for c in columns] for i in range(len(points))]
    TIEBREAK_RANK([[p] for p in points], block)


def baseline(opponents: list, points: list[float]) -> None:
    """Buchholz by the obvious loop over games already read."""
    table = [[int(o) - 1 for o in row if o is not None] for row in opponents]
    _ = [sum(points[o] for o in row) for row in table]


def median_seconds(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        event_cells.tiebreak_scores.cache_clear()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="125,250,500,1000,2000")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args()
    print(f"{'players':>7} {'games':>6} {'sheet':>9} {'per game':>9} {'cold':>9} {'per game':>9} "
          f"{'baseline':>9} {'sheet/base':>10}")
    for players in (int(p) for p in options.players.split(",")):
        opponents, results, colours, points = random_swiss(players, options.rounds)
        games = sum(1 for row in opponents for o in row if o is not None) // 2
        warm = median_seconds(lambda: sheet(opponents, results, colours, points, False), options.repeats)
        cold = median_seconds(lambda: sheet(opponents, results, colours, points, True), options.repeats)
        base = median_seconds(lambda: baseline(opponents, points), options.repeats * 3)
        print(f"{players:7d} {games:6d} {warm * 1e3:7.1f}ms {warm / games * 1e6:7.1f}µs "
              f"{cold * 1e3:7.1f}ms {cold / games * 1e6:7.1f}µs {base * 1e3:7.2f}ms {warm / base:9.0f}×")


if __name__ == "__main__":
    main()
