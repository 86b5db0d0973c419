"""Time from pytest's summary line to the end of its process.

Run: ``python benchmarks/suite_exit.py [pytest arguments]``, e.g.
``python benchmarks/suite_exit.py -q -p no:cacheprovider tests/engine tests/core``.
Runs ``python -m pytest`` with those arguments, passes its output through, and prints the
seconds the tests took (to the summary line), the seconds from the summary line to the
process's exit, its exit code and the load average.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

# pytest's last line: "12 passed, 1 skipped in 3.45s" (-q) or "==== 12 passed in 3.45s ====".
SUMMARY = re.compile(r"\b(passed|failed|error|errors|skipped|deselected|no tests ran)\b.* in [\d.]+s")


def main(arguments: list[str]) -> int:
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pytest", *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, bufsize=1)
    assert process.stdout is not None
    summary_at = None
    for line in process.stdout:
        sys.stdout.write(line)
        if SUMMARY.search(line):
            summary_at = time.perf_counter()
    code = process.wait()
    ended = time.perf_counter()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if summary_at is None:
        print(f"no summary line; {ended - start:.1f} s in all, exit code {code}")
    else:
        print(f"tests {summary_at - start:.1f} s; summary line to exit {ended - summary_at:.2f} s; "
              f"exit code {code} (load average {load})")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
