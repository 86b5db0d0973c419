"""Timing of the whole-event US Chess procedure (docs/RULES.md §4.6) on random Swiss-like events.

This times the core procedure alone (``rate_event`` on pairings already read); ``run.py``
(c) times the Excel function ``USCF_EVENT`` on the sheet's cells, reading included.

Run: ``python benchmarks/uscf_event.py``. Prints seconds per event for 100, 500 and 2000
players over 9 rounds: random pre-event ratings (one player in ten unrated), random
earlier game counts (so both formulas run), random pairings each round and random
results. The target is a 500-player event well under a second, 2000 players about one.

Recorded (Python 3.11.7, Linux x86_64, 2 cores):

    100 players,   450 games: best 0.002 s, median 0.002 s
    500 players,  2250 games: best 0.009 s, median 0.009 s
   2000 players,  9000 games: best 0.041 s, median 0.042 s

Re-run after the fast paths of the Excel functions: the same (0.002, 0.009, 0.043 s).

``--crosstable 500,2000`` times instead a whole recalculation of the US Chess template
filled with a random Swiss of that many players over 9 rounds (``benchmarks/README.md``,
"The US Chess crosstable"): every row asks ``INDEX(USCF_EVENT(table…), k)``. Each size
is timed single-process (reading, compiling and evaluating every formula in one process,
writing left out) and as ``chessrating recalc`` runs it (start to written file, the
evaluation split over two processes where it can be), with the machine's load beside.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from chessrating.uscf.event import rate_event

ROUNDS = 9
SIZES = (100, 500, 2000)
REPEATS = 5


def random_event(players: int, rng: random.Random) -> tuple[list[float | None], list[int], list[tuple[int, int, float]]]:
    """Ratings, earlier games and the played games of a random event."""
    ratings: list[float | None] = []
    games: list[int] = []
    for _ in range(players):
        if rng.random() < 0.1:
            ratings.append(None)
            games.append(0)
        else:
            ratings.append(round(rng.uniform(400, 2600), 3))
            games.append(rng.choice([rng.randint(1, 8), rng.randint(9, 25), rng.randint(26, 400)]))
    pairings = []
    order = list(range(players))
    for _ in range(ROUNDS):
        rng.shuffle(order)
        for a, b in zip(order[0::2], order[1::2]):
            pairings.append((a, b, rng.choice((0.0, 0.5, 1.0))))
    return ratings, games, pairings


def crosstable(sizes: list[int], repeats: int) -> None:
    """Whole recalculations of the filled US Chess template, one line per size."""
    import gc
    import os
    import tempfile
    from pathlib import Path

    from recalc_swiss import random_event as random_swiss

    from chessrating import event_cells, workbooks
    from xlrecalc import engine

    from chessrating.recalc import load_book, rating_functions, recalculate

    rating_functions()  # the one-off import of the function libraries, not timed
    with tempfile.TemporaryDirectory() as tmp:
        for players in sizes:
            src = Path(tmp) / f"uscf{players}.xlsx"
            workbooks.fill_uscf(random_swiss(players, ROUNDS), src, recalculate=False)
            alone, whole = [], []
            for _ in range(repeats):
                event_cells.rated_event.cache_clear()
                gc.collect()  # the last run's workbook, not this run's time
                start = time.perf_counter()
                book = load_book(src, rating_functions())
                engine.evaluate_book(book)
                alone.append(time.perf_counter() - start)
                del book
                event_cells.rated_event.cache_clear()
                gc.collect()
                start = time.perf_counter()
                recalculate(src, Path(tmp) / "out.xlsx")
                whole.append(time.perf_counter() - start)
            load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"US Chess crosstable {players:5d} players x {ROUNDS}: read + evaluate in one process "
                  f"{statistics.median(alone):6.2f} s; chessrating recalc {statistics.median(whole):6.2f} s "
                  f"(medians of {repeats}; load average {load})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crosstable", help="player counts, e.g. 500,2000: time the US Chess template")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.crosstable:
        crosstable([int(n) for n in args.crosstable.split(",")], args.repeats)
        return
    rng = random.Random(2026)
    print(f"python {sys.version.split()[0]}; {ROUNDS} rounds; best and median of {REPEATS} runs")
    for players in SIZES:
        ratings, games, pairings = random_event(players, rng)
        timings = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            rate_event(ratings, games, pairings)
            timings.append(time.perf_counter() - start)
        print(f"{players:5d} players, {len(pairings):5d} games: best {min(timings):.3f} s, "
              f"median {statistics.median(timings):.3f} s")


if __name__ == "__main__":
    main()
