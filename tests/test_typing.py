"""The package is typed: mypy finds no errors in it."""

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed")

PACKAGE = Path(__file__).resolve().parent.parent / "addin" / "chessrating"


def test_mypy_finds_no_type_errors(tmp_path):
    report, errors, status = mypy_api.run(
        ["--ignore-missing-imports", "--cache-dir", str(tmp_path / "mypy"), str(PACKAGE)])
    assert status == 0, report + errors
