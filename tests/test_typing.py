"""The package is typed: mypy finds no errors in it."""

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed")

ADDIN = Path(__file__).resolve().parent.parent / "addin"
PACKAGE = ADDIN / "chessrating"


def test_mypy_finds_no_type_errors(request, tmp_path):
    # mypy's incremental cache lives in pytest's cache (.pytest_cache), so a second run
    # checks only what changed; without the cache plugin, a fresh one each time.
    cache = getattr(request.config, "cache", None)
    folder = cache.mkdir("mypy") if cache is not None else tmp_path / "mypy"
    report, errors, status = mypy_api.run(
        ["--ignore-missing-imports", "--cache-dir", str(folder), str(PACKAGE), str(ADDIN / "xlrecalc")])
    assert status == 0, report + errors
