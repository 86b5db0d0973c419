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

``--repeat`` times instead the Excel function ``USCF_EVENT`` called again with the same
ranges (every row of a crosstable after the first, answered from the remembered event),
beside the first call that rates the event, for 100, 500 and 2000 players; with
``--profile`` also where a repeat call spends its time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

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


RESULT_CELLS = {1.0: 1.0, 0.5: "½", 0.0: 0.0}  # 1 and 0 arrive as numbers, ½ as text


def sheet_event(players: int, rng: random.Random) -> tuple[list[Any], list[Any], list[list[Any]], list[list[Any]]]:
    """A random event as USCF_EVENT receives it from the sheet: ratings, games so far, and
    players x rounds blocks of results and opponent numbers."""
    ratings, games, pairings = random_event(players, rng)
    results: list[list[Any]] = [[None] * ROUNDS for _ in range(players)]
    opponents: list[list[Any]] = [[None] * ROUNDS for _ in range(players)]
    for index, (a, b, score) in enumerate(pairings):
        r = index // (players // 2)
        opponents[a][r], opponents[b][r] = float(b + 1), float(a + 1)
        results[a][r], results[b][r] = RESULT_CELLS[score], RESULT_CELLS[1.0 - score]
    return list(ratings), [float(g) for g in games], results, opponents


def repeat_calls(profile: bool) -> None:
    """USCF_EVENT's repeat call (the same ranges again) beside its first call, per size."""
    from chessrating import event_cells, udfs

    rng = random.Random(2026)
    print(f"python {sys.version.split()[0]}; {ROUNDS} rounds; medians of {REPEATS} runs")
    for players in SIZES:
        arguments = sheet_event(players, rng)
        firsts, repeats = [], []
        for _ in range(REPEATS):
            event_cells.rated_event.cache_clear()
            start = time.perf_counter()
            first = udfs.USCF_EVENT(*arguments)
            firsts.append(time.perf_counter() - start)
            calls = max(1, int(0.05 / max(firsts[-1] / 50, 1e-6)))  # about 50 ms of repeats
            start = time.perf_counter()
            for _ in range(calls):
                again = udfs.USCF_EVENT(*arguments)
            repeats.append((time.perf_counter() - start) / calls)
            assert again == first
        once, repeat = statistics.median(firsts), statistics.median(repeats)
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{players:5d} players: first call {once * 1e3:7.2f} ms, repeat {repeat * 1e3:6.3f} ms "
              f"(repeat / first {repeat / once:.3f}; load average {load})")
        if profile:
            import cProfile
            import pstats
            profiler = cProfile.Profile()
            profiler.runcall(lambda: [udfs.USCF_EVENT(*arguments) for _ in range(200)])
            pstats.Stats(profiler).sort_stats("tottime").print_stats(8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crosstable", help="player counts, e.g. 500,2000: time the US Chess template")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--repeat", action="store_true", help="time USCF_EVENT called again on the same ranges")
    parser.add_argument("--profile", action="store_true", help="with --repeat: profile of the repeat call")
    args = parser.parse_args()
    if args.repeat:
        repeat_calls(args.profile)
        return
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
