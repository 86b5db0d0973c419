"""All benchmarks in one command: ``python benchmarks/run.py`` (see benchmarks/README.md).

Every figure is the median of repeated runs, printed next to a baseline measured in the
same run on the same data, and the ratio of the two. Ratios, not seconds, are what the
README quotes: they carry over to another machine.

(a) One call of each Excel function as Excel makes it: arguments shaped as classic
    xlwings hands them over (floats, text results such as ``"½"``, a row as a flat
    list), reading and conversion included. Baseline: the same games through the
    obvious plain-Python loop over the logistic curve, ``K × Σ(S − 1/(1 + 10^((Ri−R)/400)))``.
(b) ELO_EXPECTED and FIDE_EXPECTED over 1,000 / 10,000 / 100,000 cells in one call (a
    rating column against a block of opponents' ratings, ten columns wide). Baseline:
    the logistic curve over the same nested lists in a plain list comprehension.
(c) USCF_EVENT for 100 / 500 / 2,000 players over 9 rounds (ratings, games so far, an
    n×9 block of results and one of opponent numbers), its remembered last call
    forgotten before each run so every run rates the event. Baseline: one pass of the
    plain logistic loop over every player's games. Then (c') the same call repeated with
    the remembered result, as each later row of the US Chess template makes it.
(d) ``chessrating import-trf`` on the 249-player grandmommyscup.trf, and ``chessrating
    recalc`` of a filled 200-player, 11-round Swiss. Baseline: ``openpyxl.load_workbook``
    of the same workbook, the least any reader of the file pays.

Then what the figures mean for the Swiss template in Excel: one full recalculation of it
with every rating function timed, calls and Python time per function, as the add-in
would make them.

(f) USCF_NEWRATING for a provisional player (5 games before) with 4,000 games, ratings not
    whole numbers, against a field far above his prior (the special formula's walk crosses
    thousands of knots). Baseline: the plain logistic loop over the same games.

Every table row ends with the machine's load average (1 minute) when it was measured: on
a shared machine the seconds move with it. ``--cpu N`` pins the whole run to CPU ``N``
(Linux), so that the figures do not change with what the other CPU is doing.

The per-function figures of a recalculation count every call: the workbook is evaluated
in this one process (the command line may split the evaluation over two processes, whose
second one a wrapper in this process would not see).

    python benchmarks/run.py [--quick] [--only a,b,c,d,f] [--cpu N]

((e) is ``recalc_swiss.py --libreoffice``, the recalculation against LibreOffice.)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from recalc_swiss import random_event as random_swiss  # noqa: E402
from uscf_event import random_event as random_uscf  # noqa: E402

from chessrating import event_cells, udfs  # noqa: E402

# A real 249-player TRF file from the test data (tests/data/trf, see its README).
TRF = HERE.parent / "tests" / "data" / "trf" / "grandmommyscup.trf"


# ---------------------------------------------------------------------------- timing

def median_seconds(fn: Callable[[], Any], repeats: int, number: int = 1) -> float:
    """Median over ``repeats`` runs of the time of one call (each run makes ``number`` calls)."""
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - started) / number)
    return statistics.median(runs)


def calls_for(fn: Callable[[], Any], budget: float = 0.02) -> int:
    """How many calls fill about ``budget`` seconds, so short calls are timed in bulk."""
    started = time.perf_counter()
    fn()
    once = max(time.perf_counter() - started, 1e-7)
    return max(1, int(budget / once))


def timed_pair(fn: Callable[[], Any], base: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Median seconds per call of ``fn`` and of ``base``, measured alternately."""
    n_fn, n_base = calls_for(fn), calls_for(base)
    ours, theirs = [], []
    for _ in range(repeats):
        ours.append(median_seconds(fn, 1, n_fn))
        theirs.append(median_seconds(base, 1, n_base))
    return statistics.median(ours), statistics.median(theirs)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:8.1f} ms"
    return f"{seconds:8.2f} s "


class Table:
    def __init__(self, title: str, columns: tuple[str, ...]):
        self.title, self.columns, self.rows = title, columns, []

    def add(self, *cells: Any) -> None:
        self.rows.append([str(c) for c in cells])
        print("  " + " | ".join(c.ljust(w) for c, w in zip(self.rows[-1], self.widths()))
              + f" | load {load()}", flush=True)

    def widths(self) -> list[int]:
        return [max(len(h), 14) if i else 44 for i, h in enumerate(self.columns)]

    def header(self) -> None:
        print(f"\n{self.title}")
        print("  " + " | ".join(h.ljust(w) for h, w in zip(self.columns, self.widths())))
        print("  " + "-+-".join("-" * w for w in self.widths()))


def load() -> str:
    """The machine's load average over the last minute, where the system tells it."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"


# ---------------------------------------------------------------------------- baselines

def logistic_change(rating: float, opponents: list[float], scores: list[float], k: float) -> float:
    """The obvious plain-Python Elo change: the baseline of (a) and (c)."""
    total = 0.0
    for opponent, score in zip(opponents, scores):
        total += score - 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))
    return k * total


# ---------------------------------------------------------------------------- (a) one call

RESULT_CELLS = {1.0: 1.0, 0.5: "½", 0.0: 0.0}   # 1 and 0 arrive as numbers, ½ as text


def one_call_cases(rng: random.Random) -> dict[int, tuple[list[float], list[Any], list[float]]]:
    cases = {}
    for games in (1, 11):
        opponents = [float(rng.randint(1700, 2500)) for _ in range(games)]
        scores = [rng.choice((1.0, 0.5, 0.0)) for _ in range(games)]
        # keep the PERF cases away from 0 % and 100 %, where some methods have no value
        if games > 1:
            scores[0], scores[1] = 1.0, 0.0
        cells = [RESULT_CELLS[s] for s in scores]
        cases[games] = (opponents, cells, scores)
    return cases


def bench_one_call(repeats: int) -> None:
    rng = random.Random(11)
    table = Table("(a) one call as Excel makes it (median per call; baseline: plain logistic loop)",
                  ("function", "games", "add-in", "baseline", "ratio"))
    table.header()
    rating, k = 2100.0, 20.0
    for games, (opponents, cells, scores) in one_call_cases(rng).items():
        opp_arg: Any = opponents[0] if games == 1 else opponents
        res_arg: Any = cells[0] if games == 1 else cells
        calls: list[tuple[str, Callable[[], Any]]] = [
            ("FIDE_CHANGE", lambda: udfs.FIDE_CHANGE(rating, opp_arg, res_arg, k, "2025")),
            ("FIDE_NEWRATING", lambda: udfs.FIDE_NEWRATING(rating, opp_arg, res_arg, k, "2025")),
        ]
        for method in ("FIDE", "OWN", "400", "ELO", "PTP", "USCF"):
            calls.append((f"PERF_RATING {method}",
                          lambda m=method: udfs.PERF_RATING(opp_arg, res_arg, m, rating)))
        calls += [
            ("USCF_NEWRATING standard (50 games before)",
             lambda: udfs.USCF_NEWRATING(1800.0, 50.0, opp_arg, res_arg)),
            ("USCF_NEWRATING special (5 games before)",
             lambda: udfs.USCF_NEWRATING(1800.0, 5.0, opp_arg, res_arg)),
        ]
        for name, call in calls:
            ours, base = timed_pair(call, lambda: logistic_change(rating, opponents, scores, k), repeats)
            table.add(name, games, fmt(ours), fmt(base), f"{ours / base:6.1f}x")


# ---------------------------------------------------------------------------- (b) arrays

def bench_arrays(repeats: int, sizes: tuple[int, ...]) -> None:
    rng = random.Random(12)
    table = Table("(b) one call over many cells (rating column against a block 10 wide)",
                  ("function", "cells", "per cell", "baseline/cell", "ratio", "growth x10"))
    table.header()
    for name, fn in (("ELO_EXPECTED", udfs.ELO_EXPECTED), ("FIDE_EXPECTED", udfs.FIDE_EXPECTED)):
        previous = None
        for cells in sizes:
            rows = cells // 10
            ratings = [[float(rng.randint(1400, 2700))] for _ in range(rows)]
            block = [[float(rng.randint(1400, 2700)) for _ in range(10)] for _ in range(rows)]

            def plain() -> list[list[float]]:
                return [[1.0 / (1.0 + 10.0 ** ((o - r[0]) / 400.0)) for o in row]
                        for r, row in zip(ratings, block)]
            ours, base = timed_pair(lambda: fn(ratings, block), plain, max(3, repeats // 2))
            growth = "" if previous is None else f"{ours / previous:6.1f}x"
            previous = ours
            table.add(name, f"{cells:,}", fmt(ours / cells), fmt(base / cells), f"{ours / base:6.1f}x", growth)


# ---------------------------------------------------------------------------- (c) USCF_EVENT

def excel_event(players: int, seed: int) -> tuple[list[Any], list[Any], list[list[Any]], list[list[Any]], tuple]:
    """A random 9-round event as USCF_EVENT receives it from the sheet."""
    ratings, games, pairings = random_uscf(players, random.Random(seed))
    rounds = len(pairings) // (players // 2)
    results: list[list[Any]] = [[None] * rounds for _ in range(players)]
    opponents: list[list[Any]] = [[None] * rounds for _ in range(players)]
    for index, (a, b, score) in enumerate(pairings):
        r = index // (players // 2)
        opponents[a][r], opponents[b][r] = float(b + 1), float(a + 1)
        results[a][r], results[b][r] = RESULT_CELLS[score], RESULT_CELLS[1.0 - score]
    return ([r for r in ratings], [float(g) for g in games], results, opponents,
            (ratings, pairings))


def bench_event(repeats: int, sizes: tuple[int, ...]) -> None:
    table = Table("(c) USCF_EVENT, 9 rounds, one call (baseline: one plain logistic pass)",
                  ("players", "games", "add-in", "baseline", "ratio"))
    table.header()
    repeat_rows = []
    for players in sizes:
        ratings, games, results, opponents, (plain_ratings, pairings) = excel_event(players, players)
        schedule: list[list[tuple[float, float]]] = [[] for _ in range(players)]
        for a, b, score in pairings:
            schedule[a].append((b, score))
            schedule[b].append((a, 1.0 - score))
        own = [r if r is not None else 1300.0 for r in plain_ratings]

        def plain() -> list[float]:
            return [own[i] + logistic_change(own[i], [own[j] for j, _ in s], [x for _, x in s], 32.0)
                    for i, s in enumerate(schedule)]

        def fresh() -> Any:
            # USCF_EVENT remembers its last call; forget it so every call rates the event
            event_cells.rated_event.cache_clear()
            return udfs.USCF_EVENT(ratings, games, results, opponents)

        def repeat() -> Any:
            return udfs.USCF_EVENT(ratings, games, results, opponents)
        n = max(3, repeats // 2)
        ours = median_seconds(fresh, n)
        base = median_seconds(plain, n, calls_for(plain))
        table.add(f"{players:,}", f"{len(pairings):,}", fmt(ours), fmt(base), f"{ours / base:6.1f}x")
        fresh()  # the event is now remembered: what every later row of the template pays
        repeat_rows.append((players, median_seconds(repeat, n, calls_for(repeat)), ours))
    event_cells.rated_event.cache_clear()
    table = Table("(c') USCF_EVENT called again with the same arguments (each later row of the "
                  "US Chess template)", ("players", "repeat", "first call", "ratio"))
    table.header()
    for players, again, first in repeat_rows:
        table.add(f"{players:,}", fmt(again), fmt(first), f"{again / first:6.3f}x")


# ---------------------------------------------------------------------------- (d) files

def bench_files(repeats: int, players: int, rounds: int) -> None:
    import openpyxl

    from chessrating import cli, workbooks
    from chessrating.recalc import rating_functions, recalculate
    from xlrecalc.functions import library_has
    from chessrating.workbooks.swiss import build_swiss

    rating_functions(), library_has("SUM")   # one-off imports, not part of any figure
    table = Table("(d) whole files (baseline: openpyxl.load_workbook of the same workbook)",
                  ("job", "size", "chessrating", "baseline", "ratio"))
    table.header()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
        if TRF.is_file():
            out = folder / "trf.xlsx"
            if "import-trf" in commands:
                label = "chessrating import-trf grandmommyscup.trf"

                def run_import() -> None:
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        cli.main(["import-trf", str(TRF), "-o", str(out)])
            else:
                from chessrating import trf
                label = "workbooks.fill_swiss(read_trf(grandmommyscup.trf))"

                def run_import() -> None:
                    workbooks.fill_swiss(trf.read_trf(TRF), out)
            ours = median_seconds(run_import, repeats)
            base = median_seconds(lambda: openpyxl.load_workbook(out), repeats)
            table.add(label, "249 x 14", fmt(ours), fmt(base), f"{ours / base:6.1f}x")
        src = folder / "swiss.xlsx"
        build_swiss(src, tournament=random_swiss(players, rounds))
        ours = median_seconds(lambda: recalculate(src, folder / "out.xlsx"), repeats)
        base = median_seconds(lambda: openpyxl.load_workbook(src), repeats)
        table.add("chessrating recalc, filled Swiss", f"{players} x {rounds}", fmt(ours), fmt(base),
                  f"{ours / base:6.1f}x")
        excel_estimate(src, f"the {players} x {rounds} Swiss")
        uscf = folder / "uscf.xlsx"
        workbooks.fill_uscf(random_swiss(100, 9), uscf, recalculate=False)
        excel_estimate(uscf, "the 100 x 9 US Chess event")
        print("  (every USCF_EVENT call receives the whole table: 100 ratings, 100 game counts, "
              "100 x 9 results and 100 x 9 opponents)")


def python_time_per_function(path: Path) -> dict[str, tuple[int, float]]:
    """Calls and Python seconds per rating function in one recalculation of ``path``.

    The functions are called as Excel's add-in would call them, one call per formula cell
    (one per array formula), with the same arguments; only the time inside them counts.
    """
    from xlrecalc import addin_calls
    from xlrecalc.engine import evaluate_book

    from chessrating.recalc import load_book, rating_functions

    spent: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args)
            finally:
                spent.setdefault(name, []).append(time.perf_counter() - started)
        call.__signature__ = __import__("inspect").signature(fn)  # type: ignore[attr-defined]
        return call

    wrapped = {name: timed(name, fn) for name, fn in rating_functions().items()}
    event_cells.rated_event.cache_clear()  # the first USCF_EVENT call rates the event, as in a fresh Excel
    # Evaluated in this process only: calls made in a second process would not be counted.
    # The evaluator answers a rating function called again over the same ranges from its
    # first call (addin_calls._remembered); Excel calls it again, so here every call is made.
    remembered = addin_calls._remembered
    addin_calls._remembered = lambda book, key, call: call()
    try:
        evaluate_book(load_book(path, wrapped))
    finally:
        addin_calls._remembered = remembered
    return {name: (len(times), sum(times)) for name, times in sorted(spent.items())}


def excel_estimate(path: Path, what: str) -> None:
    """What the figures mean in Excel: the calls a full recalculation makes, and their Python time."""
    table = Table(f"In Excel: {what}, every formula recalculated once",
                  ("function", "calls", "per call", "Python time"))
    table.header()
    found = python_time_per_function(path)
    for name, (calls, seconds) in found.items():
        table.add(name, f"{calls:,}", fmt(seconds / calls), fmt(seconds))
    calls = sum(c for c, _ in found.values())
    seconds = sum(s for _, s in found.values())
    table.add("all rating functions", f"{calls:,}", fmt(seconds / calls), fmt(seconds))
    print("  (each call also pays Excel's own cost of crossing into Python and back)")


# ---------------------------------------------------------------------------- (f) special formula

def bench_special(repeats: int) -> None:
    rng = random.Random(15)
    table = Table("(f) USCF_NEWRATING, special formula, 4,000 games far from the prior "
                  "(baseline: plain logistic loop)", ("case", "games", "add-in", "baseline", "ratio"))
    table.header()
    for label, prior, low, high in (("field 1,300-2,000 above", 900.5, 2200.0, 2900.0),
                                    ("field 1,750-2,550 below", 2650.25, 100.0, 900.0)):
        opponents = [round(rng.uniform(low, high), 3) for _ in range(4000)]
        scores = [rng.choice((1.0, 0.5, 0.0)) for _ in opponents]
        cells = [RESULT_CELLS[x] for x in scores]
        ours, base = timed_pair(lambda: udfs.USCF_NEWRATING(prior, 5.0, opponents, cells),
                                lambda: logistic_change(prior, opponents, scores, 32.0), repeats)
        table.add(label, "4,000", fmt(ours), fmt(base), f"{ours / base:6.1f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and no 100,000-cell arrays")
    parser.add_argument("--only", default="a,b,c,d,f", help="sections to run, e.g. a,b")
    parser.add_argument("--cpu", type=int, help="run on this CPU only (Linux)")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 9
    only = set(args.only.split(","))
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"python {platform.python_version()} on {platform.system()} {platform.machine()}, "
          f"{os.cpu_count()} cores, running on {cpus}; medians of {repeats} runs; load {load()}")
    if "a" in only:
        bench_one_call(repeats)
    if "b" in only:
        bench_arrays(repeats, (1_000, 10_000) if args.quick else (1_000, 10_000, 100_000))
    if "c" in only:
        bench_event(repeats, (100, 500, 2_000))
    if "d" in only:
        bench_files(3 if args.quick else 5, 200, 11)
    if "f" in only:
        bench_special(max(3, repeats // 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
