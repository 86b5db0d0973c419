"""Shared test set-up: where the test data lives, workbooks built once per session, the
``slow`` marker.

``python -m pytest -m "not slow"`` runs the rating core, the Excel face and the engine (the
inner loop); the tests that build, import or recalculate whole workbooks, or drive the
command line, LibreOffice or Node (tests/integration, and the engine's comparisons with
LibreOffice), carry ``slow``, set here by folder, by fixture and by name so the test files
need no markers.

The workbooks the slow tests share are made once per session the way a user makes them,
through the command line (``chessrating templates``, ``demo``, ``import-trf``). Each keeps
what the command printed; a test that checks the printout gets it replayed on stdout and
stderr, where ``capsys`` reads it as if the command had just run.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Hypothesis example counts by profile, not by hand in each test: "dev" for the inner
# loop, "ci" where CI is set (.ci/run) for more; HYPOTHESIS_PROFILE overrides. Only a test
# whose examples are expensive (an oracle, LibreOffice) sets a count of its own.
settings.register_profile("dev", max_examples=40, deadline=None)
settings.register_profile("ci", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The Office.js drivers run in a subprocess with the xlwings server environment (and the
# classic one with Windows' modules stood in for); importing them here (pytest --doctest-modules collects every module) would need a licence key.
collect_ignore = ["core/officejs_driver.py", "core/lite_script_driver.py", "core/classic_vba_driver.py"]

# The files the tests read. Test modules import these names from here (``from conftest
# import TRF_DATA``), which pytest's default import mode allows.
DATA = Path(__file__).resolve().parent / "data"
# Real TRF files (echecsjs/trf test fixtures, MIT; see data/trf/README.md).
TRF_DATA = DATA / "trf"

# The suite's folders: core/ (the rating core and the worksheet face), engine/ (xlrecalc)
# and integration/ (workbooks, the command line, LibreOffice, Pyodide). Every test of
# integration/ is slow; elsewhere a test is slow when it uses a fixture that hands it
# whole workbooks, or is named here.
INTEGRATION = Path(__file__).resolve().parent / "integration"
# Fixtures that hand a test whole workbooks; any test using one is slow.
SLOW_FIXTURES = {"built_templates", "templates_command", "demo_book", "demo_command",
                 "trf_import", "recalculated"}
# Tests elsewhere that build a whole template themselves, or start LibreOffice (engine/).
SLOW_TESTS = {"test_swiss_template_agrees_with_the_formulas_engine",
              "test_reference_semantics_agree_with_libreoffice", "test_text_as_number_agrees_with_libreoffice",
              "test_date1904_agrees_with_libreoffice", "test_sheet_functions_agree_with_libreoffice"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        name = getattr(item, "originalname", item.name)
        if INTEGRATION in item.path.parents or name in SLOW_TESTS or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)


@dataclass(frozen=True)
class Run:
    """A ``chessrating`` command run once: exit code, what it printed, what it wrote."""

    code: int
    out: str
    err: str
    path: Path

    def replay(self) -> None:
        """Print the command's output again, for ``capsys`` to read."""
        sys.stdout.write(self.out)
        sys.stderr.write(self.err)


def run_command(argv: list[str], path: Path) -> Run:
    """Run ``chessrating argv`` in this process, keeping what it prints."""
    from chessrating.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return Run(code, out.getvalue(), err.getvalue(), path)


@pytest.fixture(scope="session")
def templates_command(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``chessrating templates FOLDER`` run once; ``path`` is the folder."""
    folder = tmp_path_factory.mktemp("templates") / "books"
    return run_command(["templates", str(folder)], folder)


@pytest.fixture(scope="session")
def built_templates(templates_command: Run) -> dict[str, Path]:
    """The four templates of one build, by file name (read them, do not change them)."""
    assert templates_command.code == 0, templates_command.err
    return {Path(line).name: Path(line) for line in templates_command.out.splitlines()}


@pytest.fixture(scope="session")
def demo_command(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``chessrating demo -o demo.xlsx`` run once; ``path`` is the workbook."""
    book = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    return run_command(["demo", "-o", str(book)], book)


@pytest.fixture(scope="session")
def demo_book(demo_command: Run) -> Path:
    """The demo workbook, filled and recalculated (read it, do not change it)."""
    assert demo_command.code == 0, demo_command.err
    return demo_command.path


@pytest.fixture(scope="session")
def trf_import(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., tuple[int, Path]]:
    """``chessrating import-trf FILE [options]`` for a file of ``TRF_DATA``, run once per
    file and options; each call replays the printout and returns (exit code, workbook)."""
    runs: dict[tuple[str, ...], Run] = {}

    def imported(source: str | Path, *options: str) -> tuple[int, Path]:
        source = TRF_DATA / source
        assert source.parent == TRF_DATA, f"{source} is not one of the real files"
        key = (source.name, *options)
        if key not in runs:
            book = tmp_path_factory.mktemp("imported") / f"{source.stem}.xlsx"
            runs[key] = run_command(["import-trf", str(source), "-o", str(book), *options], book)
        runs[key].replay()
        return runs[key].code, runs[key].path

    return imported


@pytest.fixture(scope="session")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Any]:
    """``chessrating.recalc.recalculate``'s report for a workbook, computed once per content
    (the shipped templates and a fresh build are the same bytes)."""
    from chessrating.recalc import recalculate

    reports: dict[str, Any] = {}

    def report(book: Path) -> Any:
        key = hashlib.sha256(Path(book).read_bytes()).hexdigest()
        if key not in reports:
            reports[key] = recalculate(book, tmp_path_factory.mktemp("recalc") / "again.xlsx")
        return reports[key]

    return report
