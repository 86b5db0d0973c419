"""Peak memory and time of APRO and APPO (C.07 Art. 10.4, 10.5) on events of many rounds
among few players (``python benchmarks/hostile_tiebreaks.py``).

Each event is tests/hostile/tiebreak_corpus.py's ``many_rounds`` (every player meets the
others again and again, 5 % requested byes), read by ``from_rounds`` and handed to
``tiebreaks.tiebreak`` for the whole column, in a child process of its own: the figure
is the child's peak resident memory (``ru_maxrss``) and the time of the column alone
(reading the event included). The time per game stays flat as the rounds double when
the work is linear in the games.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [(2, 1_000), (2, 2_000), (2, 4_000), (2, 8_000), (10, 2_000), (10, 4_000), (40, 1_000)]
CHILD = """
import resource, sys, time
sys.path[:0] = [sys.argv[1] + '/addin', sys.argv[1] + '/tests/hostile']
from tiebreak_corpus import many_rounds
from chessrating import tiebreaks
from chessrating.tiebreaks.event import from_rounds
players, rounds, code = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
opponents, results, colours, ratings = many_rounds(players, rounds)
started = time.perf_counter()
event = from_rounds(opponents, results, colours).with_ratings(ratings)
column = tiebreaks.tiebreak(code, event, "2026")
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main() -> None:
    print(f"{'code':5} {'players':>7} {'rounds':>7} {'games':>7} {'seconds':>8} {'µs/game':>8} {'peak MB':>8}")
    for players, rounds in CASES:
        for code in ("APRO", "APPO"):
            out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(players), str(rounds), code],
                                 capture_output=True, text=True, check=True,
                                 env={**os.environ, "PYTHONHASHSEED": "0"}).stdout.split()
            seconds, peak_kb = float(out[0]), int(out[1])
            games = players * rounds
            print(f"{code:5} {players:>7} {rounds:>7} {games:>7} {seconds:>8.2f} "
                  f"{seconds / games * 1e6:>8.1f} {peak_kb >> 10:>8}", flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
