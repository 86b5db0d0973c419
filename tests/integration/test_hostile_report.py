"""The rating reports against hostile workbooks and files (built by
tests/hostile/report_corpus.py): ``export-trf`` and its pre-flight workbook, ``import-trf``,
``export-uscf``.

Held to the contract (README; docs/RULES.md §9): no file the user gave is ever written to,
whatever its name; an output is replaced only by a finished one, and exit 2 means nothing
was replaced; every value that leaves (TRF, DBF) is what the input said or is named in the
check; text fields carry no line or record separator of any kind and count their columns
as every reader does; a refusal is one line naming the file.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import report_corpus as corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402
from chessrating.errors import RatingError  # noqa: E402
from chessrating.trf.codec import MAX_ROUNDS, parse_trf, read_trf, write_trf  # noqa: E402
from xlrecalc.archive import TEMP_MARK  # noqa: E402

ADDIN = Path(__file__).resolve().parents[2] / "addin"
MEMORY_CAP = 1 << 30
TIME_LIMIT = 300  # a guard against a hang, not a measure (benchmarks/README.md has those)


def run_cli(*args: str | Path, cwd: Path, file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a child process capped at 1 GB (and, with ``file_size``, at
    that size of a file written: past it a write fails as on a full disk)."""
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    env = {**os.environ, "PYTHONPATH": str(ADDIN), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "chessrating.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIME_LIMIT, preexec_fn=limits)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one line of a refusal (exit 2), which must hold ``words``."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    line = proc.stderr.strip()
    assert "\n" not in line and line.startswith("chessrating ") and "fault" not in line, line
    assert all(w in line for w in words), line
    return line


def no_temporary(folder: Path) -> None:
    assert not [p.name for p in folder.rglob("*") if TEMP_MARK in p.name or p.name.startswith("tmp")]


def check_rows(path: Path) -> list[tuple[object, ...]]:
    """The rows of the pre-flight workbook's list: player, name, field, problem."""
    sheet = openpyxl.load_workbook(path, read_only=True)["Pre-flight"]
    return [tuple(row) for row in sheet.iter_rows(min_row=4, values_only=True)]


def records(trf: Path) -> list[str]:
    return trf.read_bytes().decode("utf-8").split("\r\n")[:-1]


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 8-player Swiss as import-trf writes it."""
    return corpus.imported(tmp_path_factory.mktemp("swiss"))


def export(book: Path, cwd: Path, code: int, *extra: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``export-trf BOOK -o out.trf`` with its exit code ``code``; the book left as it was."""
    before = digest(book)
    proc = run_cli("export-trf", book.name, "-o", "out.trf", *extra, cwd=cwd)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert proc.returncode == code, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert digest(book) == before
    no_temporary(cwd)
    return proc, cwd / "out.trf"


# -- 1. a file the user gave is never written -----------------------------------------------
def test_a_workbook_named_as_a_check_is_never_written(swiss: Path, tmp_path: Path) -> None:
    book = corpus.make_preflight_named(tmp_path, swiss)
    before = digest(book)
    proc = run_cli("export-trf", book.name, "-o", "club.trf", cwd=tmp_path)
    refused(proc, "'club-preflight.xlsx'", "never written to")
    assert digest(book) == before and not (tmp_path / "club.trf").exists()
    own, link = corpus.make_linked_preflight(tmp_path, swiss)  # another name of the same file
    proc = run_cli("export-trf", own.name, "-o", "out.trf", cwd=tmp_path)
    refused(proc, "'out-preflight.xlsx'", "'club.xlsx'")
    assert digest(own) == digest(swiss) and not (tmp_path / "out.trf").exists()
    no_temporary(tmp_path)


# -- 2. exit 2 means nothing was replaced ---------------------------------------------------
@pytest.mark.parametrize("held", ["check", "trf"])
def test_an_output_that_cannot_be_replaced_replaces_nothing(swiss: Path, tmp_path: Path, held: str) -> None:
    book = Path(shutil.copy(swiss, tmp_path / "open.xlsx"))
    earlier = corpus.make_held_outputs(tmp_path, held)
    proc = run_cli("export-trf", book.name, "-o", "out.trf", cwd=tmp_path)
    target = "out-preflight.xlsx" if held == "check" else "out.trf"
    refused(proc, f"output: {target!r} cannot be written", "nothing was replaced")
    for kind, data in earlier.items():  # the other, replaced first or not at all, is back
        assert (tmp_path / ("out.trf" if kind == "trf" else "out-preflight.xlsx")).read_bytes() == data
    no_temporary(tmp_path)


def test_a_full_disk_names_the_file_and_replaces_nothing(swiss: Path, tmp_path: Path) -> None:
    book = Path(shutil.copy(swiss, tmp_path / "open.xlsx"))
    (tmp_path / "out.trf").write_bytes(b"earlier")
    proc = run_cli("export-trf", book.name, "-o", "out.trf", cwd=tmp_path, file_size=2 << 10)
    refused(proc, "output: 'out-preflight.xlsx' cannot be written (File too large)", "nothing was replaced")
    assert (tmp_path / "out.trf").read_bytes() == b"earlier" and not (tmp_path / "out-preflight.xlsx").exists()
    no_temporary(tmp_path)


def _no_space(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["zip", "trf"])
def test_no_space_left_names_the_file(swiss: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str], where: str) -> None:
    """ENOSPC itself (the write patched): the pre-flight workbook's zip or the TRF's bytes."""
    book = Path(shutil.copy(swiss, tmp_path / "open.xlsx"))
    (tmp_path / "out.trf").write_bytes(b"earlier")
    if where == "zip":
        monkeypatch.setattr(zipfile.ZipFile, "writestr", _no_space)
    else:
        monkeypatch.setattr(Path, "write_bytes", _no_space)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "out.trf")]) == 2
    line = capsys.readouterr().err.strip()
    target = "out-preflight.xlsx" if where == "zip" else "out.trf"
    assert "\n" not in line and f"{target}' cannot be written (No space left on device)" in line, line
    monkeypatch.undo()
    assert (tmp_path / "out.trf").read_bytes() == b"earlier" and not (tmp_path / "out-preflight.xlsx").exists()
    no_temporary(tmp_path)


def test_no_space_left_under_fide_list_names_the_file(swiss: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import list_corpus
    book = Path(shutil.copy(swiss, tmp_path / "open.xlsx"))
    listed = list_corpus.make_sound_list(tmp_path)
    before = digest(book)
    monkeypatch.setattr(zipfile.ZipFile, "writestr", _no_space)
    monkeypatch.setattr(zipfile._ZipWriteFile, "write", _no_space)  # type: ignore[attr-defined]
    assert main(["fide-list", str(listed), "--fill", str(book), "-o", str(tmp_path / "filled.xlsx")]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert "filled.xlsx" in line and "No space left on device" in line and "fault" not in line, line
    monkeypatch.undo()
    assert digest(book) == before and not (tmp_path / "filled.xlsx").exists()
    no_temporary(tmp_path)


# -- 3. dates --------------------------------------------------------------------------------
def test_dates_are_what_the_cells_say_or_named(swiss: Path, tmp_path: Path) -> None:
    book = corpus.make_dates_book(tmp_path, swiss)
    proc, trf = export(book, tmp_path, 1)
    lines = records(trf)
    assert "042 2026/03/02" in lines  # 02.03.26, day first
    assert not any(line.startswith("052") for line in lines)  # 2026 in a date cell: not 1905/07/18
    dates = next(line for line in lines if line.startswith("132"))
    assert dates[91:99] == "26/03/03" and dates[101:109].strip() == "" and dates[111:119] == "26/03/06"
    births = {int(line[4:8]): line[69:79].strip() for line in lines if line.startswith("001")}
    assert births[1] == "1990/05/02" and births[2] == "1987/04/15" and births[4] == "1991"
    assert births[3] == "1990"  # the date refused: the crosstable's birth year stands for it
    problems = "\n".join(" | ".join(str(c) for c in row) for row in check_rows(tmp_path / "out-preflight.xlsx"))
    assert "ReportEnd | Report!B7: holds 2026, a year typed into a date cell" in problems
    assert "round 2 date | Report!C16: '03/04/2026' could be day first or month first" in problems
    assert "Report!E19: 32995 read as the date 1990/05/02" in problems
    assert "Report!E21: '02/03/04' could be year, day or month first" in problems
    assert "1905" not in trf.read_text(encoding="utf-8") and "32995" not in trf.read_text(encoding="utf-8")


# -- 4. names that are Excel errors -------------------------------------------------------------
def test_a_name_that_is_an_excel_error_is_no_player(swiss: Path, tmp_path: Path) -> None:
    book = corpus.make_error_name_book(tmp_path, swiss)
    proc = run_cli("export-trf", book.name, "-o", "out.trf", cwd=tmp_path)
    refused(proc, "'error-name.xlsx'", "Crosstable!B7 holds the Excel error #N/A", "nothing written")
    assert not (tmp_path / "out.trf").exists()
    book = corpus.make_error_fields_book(tmp_path, swiss)
    proc, trf = export(book, tmp_path, 1)
    text = trf.read_text(encoding="utf-8")
    assert "#REF!" not in text and "#NAME?" not in text
    assert "Event: Crosstable!B2 holds the Excel error #REF!; not written" in proc.stdout
    assert "ReportCity: holds the Excel error #NAME?; not written" in proc.stdout


# -- 5. round 0 ----------------------------------------------------------------------------------
def test_a_game_in_round_zero_is_named(tmp_path: Path) -> None:
    book = corpus.make_round_zero_book(tmp_path)
    proc, trf = export(book, tmp_path, 1)
    assert ("player 1 Player 001: against player 2: round and colour '0W' names round 0 (rounds count "
            "from 1); the game is not written") in proc.stdout
    first = next(line for line in records(trf) if line.startswith("001    1"))
    assert not re.search(r"  \s*2 [wb] ", first[91:]), first
    second = next(line for line in records(trf) if line.startswith("001    2"))
    assert re.search(r"  \s*1 [wb] ", second[91:]), second  # player 2's own row still holds it
    assert "player 2 Player 002" in proc.stdout  # and the two rows disagree: named too


# -- 6. a thousand rounds --------------------------------------------------------------------------
def test_a_thousand_rounds_are_refused_by_the_writer_and_named_by_the_reader(tmp_path: Path) -> None:
    read = parse_trf(corpus.thousand_round_trf())
    assert read.rounds == 1000 and len(read.players[0].games) == MAX_ROUNDS == 999
    assert [w.message for w in read.warnings if "999" in w.message] == \
        ["1000 round columns; rounds past 999 not read"] * 2  # each line names it; XXR says 1000
    with pytest.raises(RatingError, match="^rounds: 1000 rounds; a TRF file is read back up to 999"):
        write_trf(read)
    kept = parse_trf(corpus.thousand_round_trf(999))
    assert kept.rounds == 999 and parse_trf(write_trf(kept)).players == kept.players
    path = corpus.make_thousand_rounds(tmp_path)
    proc = run_cli("import-trf", path.name, "-o", "endless.xlsx", cwd=tmp_path)
    assert "Traceback" not in proc.stderr and "fault" not in proc.stderr, proc.stderr[-2000:]
    assert "1000 rounds" in proc.stdout + proc.stderr


# -- 7, 8. text that breaks lines or columns ----------------------------------------------------
def test_a_name_outside_the_bmp_keeps_every_column(swiss: Path, tmp_path: Path) -> None:
    book = corpus.make_astral_name_book(tmp_path, swiss)
    proc, trf = export(book, tmp_path, 1)
    lines = records(trf)
    second = next(line for line in lines if line.startswith("001    2"))
    assert second[14:47].rstrip() == "?lpha, Anna ?"
    for line in lines:  # the same columns counted in code points and in UTF-16 units
        assert len(line.encode("utf-16-le")) // 2 == len(line)
    assert "player 2 ?lpha, Anna ?: Name: U+1D504, U+1F600" in proc.stdout


def test_no_line_break_of_any_kind_forges_a_record(swiss: Path, tmp_path: Path) -> None:
    book = corpus.make_forging_book(tmp_path, swiss)
    proc, trf = export(book, tmp_path, 1)
    text = trf.read_bytes().decode("utf-8")
    written = text.split("\r\n")[:-1]
    assert text.splitlines() == written  # Python splits at every Unicode line break
    players = [line for line in written if line.startswith("001")]
    assert len(players) == corpus.PLAYERS and not any(line.startswith("001   99") for line in written)
    assert [line[:3] for line in written].count("012") == 1 and [line[:3] for line in written].count("022") == 1
    assert all(ch == " " or ch.isprintable() for ch in text.replace("\r\n", ""))
    for n, brk in enumerate(corpus.BREAKS, 1):  # each named
        assert re.search(rf"player {n} Player {n:03d}\s+001 .*: Name: U\+{ord(brk[0]):04X}", proc.stdout), proc.stdout
    assert "event: Event: U+2029" in proc.stdout and "event: ReportCity: U+0085" in proc.stdout


def test_what_xml_cannot_carry_forges_no_record_either() -> None:
    """The breaks and controls a workbook cannot hold (XML 1.0 has no U+000B …), given to
    the writer directly: one record a line still."""
    from chessrating.tournament import Player, Tournament
    t = Tournament(name="Open\x0b012 Forged", city="Oslo\x1c022 Forged")
    t.players = [Player(n, f"Player {n:03d}{brk}{corpus.FORGED}") for n, brk in enumerate(corpus.XML_LESS, 1)]
    text = write_trf(t)
    written = text.split("\r\n")[:-1]
    assert text.splitlines() == written and len(written) == 2 + len(corpus.XML_LESS)
    assert [line[:3] for line in written] == ["012", "022"] + ["001"] * len(corpus.XML_LESS)


def test_a_line_break_in_a_us_chess_name_is_never_reported(tmp_path: Path) -> None:
    book = corpus.make_forging_uscf_book(tmp_path)
    proc = run_cli("export-uscf", book.name, "-o", "report", cwd=tmp_path)
    assert "Traceback" not in proc.stderr and proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "name: has a control or line-break character: U+2028" in proc.stdout
    assert not (tmp_path / "report").exists()


# -- 9. a file UTF-8 but for one line --------------------------------------------------------------
def test_one_latin_line_shifts_no_column(tmp_path: Path) -> None:
    t = read_trf(corpus.make_mixed_encoding_trf(tmp_path))
    names = {p.number: p.name for p in t.players}
    assert [names[n] for n in corpus.ACCENTED] == list(corpus.ACCENTED.values())
    assert [p.rating for p in t.players] == [1500 + 10 * n for n in range(1, corpus.PLAYERS + 1)]
    assert [(w.line, w.message) for w in t.warnings] == [
        (4, "line 4 is not UTF-8, unlike the rest of the file; read as Windows-1252")]
    proc = run_cli("import-trf", "mixed.trf", "-o", "mixed.xlsx", cwd=tmp_path)
    assert proc.returncode in (0, 1) and "line 4 is not UTF-8" in proc.stdout, proc.stdout[-2000:]
    sheet = openpyxl.load_workbook(tmp_path / "mixed.xlsx", read_only=True)["Crosstable"]
    shown = [row[1] for row in sheet.iter_rows(min_row=5, max_row=7, values_only=True)]
    assert shown == list(corpus.ACCENTED.values())


# -- 11. a missing output folder -------------------------------------------------------------------
def test_import_trf_makes_no_folder(tmp_path: Path) -> None:
    (tmp_path / "open.trf").write_text(corpus.make_corpus.swiss_trf(4, 2), encoding="utf-8")
    proc = run_cli("import-trf", "open.trf", "-o", "missing/deeper/open.xlsx", cwd=tmp_path)
    refused(proc, "output: the folder 'missing/deeper' does not exist")
    assert not (tmp_path / "missing").exists()
