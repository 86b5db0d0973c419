"""One command line of ``chessrating`` in a child capped in address space: its peak
resident memory, seconds and exit code, for the hostile-input benchmarks
(hostile_engine, hostile_lite, hostile_list, hostile_report)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAP = 1536 << 20  # a net under the 1 GB asserted: the evaluation thread reserves stack


def measure(args: list[str], cwd: Path, file_size: int | None = None,
            cap: int = CAP) -> tuple[int, float, int]:
    """(peak bytes, seconds, exit code) of ``chessrating ARGS`` run in ``cwd``, in a
    child whose address space is ``cap``; ``file_size`` caps the files it writes (a
    full disk, as the command meets it)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "addin")}
    size = "" if file_size is None else (
        f"signal.signal(signal.SIGXFSZ, signal.SIG_IGN), "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({file_size}, {file_size}))")
    script = ("import resource, signal, subprocess, sys, time; t = time.perf_counter(); "
              f"p = subprocess.run(sys.argv[1:], capture_output=True, preexec_fn=lambda: ({size or 'None'})); "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
              "time.perf_counter() - t, p.returncode)")
    out = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "chessrating.cli", *args],
                         env=env, capture_output=True, text=True, preexec_fn=limit, cwd=cwd,
                         check=True).stdout.split()
    return int(out[0]) * 1024, float(out[1]), int(out[2])
