"""``fide-list`` (and ``import-trf --fide-list``, ``export-trf``) against hostile rating lists
and workbooks (built by tests/hostile/list_corpus.py).

Each run is the command line in a child process whose address space is capped at 1 GB,
held to the contract (README, "The FIDE rating list"): exit 0 when every named player was
filled, 1 when the workbook was written but rows were not filled (each named with the
reason: the file, the line, what is wrong), 2 when nothing was written; a refusal is one
line on stderr naming the user's file and what is wrong; no file the user gave is ever
written to; an output is replaced only by a finished one; no temporary file is left.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import list_corpus as corpus  # noqa: E402
import make_corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402
from xlrecalc.archive import TEMP_MARK  # noqa: E402

ADDIN = Path(__file__).resolve().parents[2] / "addin"
MEMORY_CAP = 1 << 30
TIME_LIMIT = 300  # a guard against a hang, not a measure (benchmarks/README.md has those)
PLAYERS = 8


def run_cli(*args: str | Path, cwd: Path, file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a child process with a memory cap (and a cap on the size of a
    file it writes: past it a write fails as on a full disk)."""
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    env = {**os.environ, "PYTHONPATH": str(ADDIN), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "chessrating.cli", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=TIME_LIMIT,
                          preexec_fn=limits)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one line of a refusal (exit 2), which must hold ``words``."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    *progress, line = proc.stderr.strip().splitlines()
    assert all(p.startswith(("reading", "evaluating ", "writing ", "  ")) for p in progress), proc.stderr
    assert line.startswith("chessrating ") and all(w in line for w in words), line
    return line


def no_temporary(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if TEMP_MARK in p.name or p.name.startswith("tmp")]


def rows(path: Path) -> dict[int, list[object]]:
    """Each player's crosstable inputs: No., Name, Title, Fed, Rating, Rated games, Birth
    year, Peak, K list."""
    sheet = openpyxl.load_workbook(path, data_only=True)["Crosstable"]
    return {n: [c.value for c in sheet[4 + n][:9]] for n in range(1, PLAYERS + 1)}


def listed(n: int) -> list[object]:
    """Player ``n``'s inputs once filled from :func:`list_corpus.player_line`."""
    return [n, f"Listed, Player {n:03d}", "FM" if n == 1 else None, "NOR", 2000 + n, None, 1990,
            None, 20]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, list[object]]]:
    """The 8-player Swiss of make_corpus.swiss_trf (FIDE IDs 100001-100008) as import-trf
    writes it, and its crosstable rows."""
    folder = tmp_path_factory.mktemp("imported")
    trf = folder / "open.trf"
    trf.write_text(make_corpus.swiss_trf(PLAYERS, 3), encoding="utf-8")
    book = folder / "open.xlsx"
    assert main(["import-trf", str(trf), "-o", str(book)]) in (0, 1)
    return book, rows(book)


def fill(imported: tuple[Path, dict[int, list[object]]], tmp_path: Path, build, code: int,
         *extra: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``fide-list LIST --fill open.xlsx -o filled.xlsx`` for a list ``build`` makes; the
    book and the list left as they were, no temporary; the output written when ``code``
    says so."""
    book = tmp_path / "open.xlsx"
    shutil.copy(imported[0], book)
    source = build(tmp_path)
    before = (digest(book), digest(source))
    out = tmp_path / "filled.xlsx"
    proc = run_cli("fide-list", source.name, "--fill", book.name, "-o", out.name, *extra, cwd=tmp_path)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert proc.returncode == code, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert (digest(book), digest(source)) == before
    assert out.exists() == (code != 2)
    no_temporary(tmp_path)
    return proc, out


def test_a_sound_list_fills_every_player(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc, out = fill(imported, tmp_path, corpus.make_sound_list, 0)
    assert rows(out) == {n: listed(n) for n in range(1, PLAYERS + 1)}
    assert "players filled from the list: 8" in proc.stdout.splitlines()


def test_a_line_cut_short_changes_nothing_and_is_named(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc, out = fill(imported, tmp_path, corpus.make_cut_list, 1)
    found = rows(out)
    assert found[8] == imported[1][8]  # not rating 0 and no federation: as it was
    assert all(found[n] == listed(n) for n in range(1, 8))
    printed = proc.stdout.splitlines()
    assert "players filled from the list: 7" in printed
    assert ("  player 8 Player 008 (FIDE ID 100008): 'players_list_foa.txt', line 9: cut short: the "
            "line ends at column 118, before B-day (column 153)") in printed
    assert printed[-1].startswith("note: 'players_list_foa.txt' ends inside line 9")


def test_damaged_lines_change_nothing_and_are_named(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc, out = fill(imported, tmp_path, corpus.make_damaged_lines, 1)
    found = rows(out)
    assert found[1] == listed(1)
    assert {n: found[n] for n in corpus.DAMAGE} == {n: imported[1][n] for n in corpus.DAMAGE}
    printed = proc.stdout.splitlines()
    for n, (_, reason) in corpus.DAMAGE.items():
        line = next(p for p in printed if p.startswith(f"  player {n} Player {n:03d} (FIDE ID {100000 + n}): "))
        assert f"'players_list.zip' (players_list_foa.txt), line {n + 1}: " in line and reason in line, line


def test_an_id_listed_twice_fills_neither(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc, out = fill(imported, tmp_path, corpus.make_twice_listed, 1)
    found = rows(out)
    assert found[3] == imported[1][3] and found[4] == listed(4)
    assert ("  player 3 Player 003 (FIDE ID 100003): 'players_list.zip' (players_list_foa.txt), "
            "lines 4 and 10: FIDE ID 100003 is on two lines; which one is the player cannot be "
            "told") in proc.stdout.splitlines()
    lookup = run_cli("fide-list", "players_list.zip", "--id", "100003", "--id", "100004", cwd=tmp_path)
    assert lookup.returncode == 1 and lookup.stdout.splitlines()[1:] == [
        "100003: cannot be read: 'players_list.zip' (players_list_foa.txt), lines 4 and 10: FIDE ID "
        "100003 is on two lines; which one is the player cannot be told",
        "100004: Listed, Player 004, NOR, w, no title, born 1990; standard 2004 (K 20), rapid 1904 "
        "(K 20), blitz - (K -)"]


@pytest.mark.parametrize("build, words", [
    (corpus.make_bomb_one_line, "expands 1,010 times its packed size"),
    (corpus.make_bomb_lines, "expands 252 times its packed size"),
    (corpus.make_bomb_blank_lines, "times its packed size"),
    (corpus.make_bomb_xml, "times its packed size"),
    (corpus.make_long_line, "line 2: longer than 4,096 bytes"),
    (corpus.make_blank_lines, "more than 1,000 lines too short for a player"),
    (corpus.make_many_members, "a zip of 40,001 files"),
    (corpus.make_encrypted_zip, "players_list_foa.txt is encrypted (protected by a password)"),
    (corpus.make_deflate64_zip, "players_list_foa.txt is packed with Deflate64"),
    (corpus.make_cut_zip, "a damaged zip, or one cut short (an interrupted download?)"),
    (corpus.make_damaged_zip, "damaged, cannot be read (Bad CRC-32"),
    (corpus.make_xml_entities, "a document type declaration"),
    (corpus.make_xml_nested, "<x> among the players"),
], ids=lambda v: getattr(v, "__name__", "")[5:])
def test_a_file_that_is_no_list_is_refused_in_one_line(imported, tmp_path: Path, build, words: str) -> None:  # type: ignore[no-untyped-def]
    proc, _ = fill(imported, tmp_path, build, 2)
    source = next(p for p in tmp_path.iterdir() if p.name not in ("open.xlsx",))
    refused(proc, f"list: {source.name!r}", words)


def test_fide_ids_typed_as_text(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    book = corpus.make_text_ids_book(tmp_path, imported[0])
    shutil.copy(book, tmp_path / "text.xlsx")
    corpus.make_sound_list(tmp_path)
    proc = run_cli("fide-list", "players_list.zip", "--fill", "text.xlsx", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    found = rows(tmp_path / "text.xlsx")
    assert [found[n] for n in (1, 2, 6, 7, 8)] == [listed(n) for n in (1, 2, 6, 7, 8)]
    assert [found[n] for n in (3, 4, 5)] == [imported[1][n] for n in (3, 4, 5)]
    printed = proc.stdout.splitlines()
    assert printed[printed.index("FIDE ID cells that hold no FIDE ID (left as they are): 3") + 1:][:3] == [
        "  player 3 Player 003: '１００００３' is not a FIDE ID (digits 0-9 only)",
        "  player 4 Player 004: '100004x' is not a FIDE ID (digits 0-9 only)",
        "  player 5 Player 005: '1e5' is not a FIDE ID (digits 0-9 only)"]
    assert "FIDE IDs not on the list (left as they are): 0" in printed


def test_a_stray_far_cell_and_a_name_over_a_whole_sheet_are_not_walked(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corpus.make_sound_list(tmp_path)
    assert run_cli("export-trf", imported[0], "-o", tmp_path / "sound.trf", cwd=tmp_path).returncode == 1
    for book in (corpus.make_stray_cell_book(tmp_path, imported[0]),
                 corpus.make_whole_sheet_name(tmp_path, imported[0]),
                 corpus.make_small_stray_cell_book(tmp_path)):
        before = digest(book)
        out = tmp_path / f"{book.stem}.trf"
        proc = run_cli("export-trf", book.name, "-o", out.name, cwd=tmp_path)
        assert digest(book) == before
        if book.name == "small-stray-cell.xlsx":  # no K list column: no crosstable of ours
            refused(proc, "'small-stray-cell.xlsx' is not a FIDE crosstable")
        else:  # the same report as the workbook without the far cell or the name
            assert proc.returncode == 1, proc.stderr
            assert out.read_text(encoding="utf-8") == (tmp_path / "sound.trf").read_text(encoding="utf-8")
        filled = tmp_path / f"{book.stem}-filled.xlsx"
        proc = run_cli("fide-list", "players_list.zip", "--fill", book.name, "-o", filled.name, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert digest(book) == before
    assert rows(tmp_path / "stray-cell-filled.xlsx") == {n: listed(n) for n in range(1, PLAYERS + 1)}
    no_temporary(tmp_path)


def test_a_template_name_over_a_whole_sheet_is_refused(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corpus.make_sound_list(tmp_path)
    book = corpus.make_whole_sheet_name(tmp_path, imported[0], "Names")
    for args in (["export-trf", book.name], ["fide-list", "players_list.zip", "--fill", book.name]):
        before = digest(book)
        proc = run_cli(*args, cwd=tmp_path)
        refused(proc, f"book: {book.name!r}: the name Names covers 17,179,869,184 cells of Crosstable")
        assert digest(book) == before and not (tmp_path / "name-Names.trf").exists()
    no_temporary(tmp_path)


def test_a_full_disk_names_the_output_and_replaces_nothing(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    book = tmp_path / "open.xlsx"
    shutil.copy(imported[0], book)
    corpus.make_sound_list(tmp_path)
    out = tmp_path / "filled.xlsx"
    out.write_bytes(b"the user's")
    before = digest(book)
    for target in (out.name, book.name):  # -o an existing file, then the workbook in place
        proc = run_cli("fide-list", "players_list.zip", "--fill", book.name, "-o", target,
                       cwd=tmp_path, file_size=8 << 10)
        refused(proc, f"output: {target!r} cannot be written (File too large); it was left as it was")
        assert digest(book) == before and out.read_bytes() == b"the user's"
        no_temporary(tmp_path)


def test_a_file_the_user_gave_is_never_written(imported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    book = tmp_path / "open.xlsx"
    shutil.copy(imported[0], book)
    text = corpus.list_text(corpus.sound_lines()).encode()
    named_as_book = tmp_path / "players_list.xlsx"  # the TXT list, whatever its name
    named_as_book.write_bytes(text)
    os.link(named_as_book, tmp_path / "linked.xlsx")
    trf = tmp_path / "open.trf"
    trf.write_text(make_corpus.swiss_trf(PLAYERS, 3), encoding="utf-8")
    for args in (["fide-list", "players_list.xlsx", "--fill", "open.xlsx", "-o", "players_list.xlsx"],
                 ["fide-list", "players_list.xlsx", "--fill", "open.xlsx", "-o", "linked.xlsx"],
                 ["import-trf", "open.trf", "--fide-list", "players_list.xlsx", "-o", "players_list.xlsx"],
                 ["import-trf", "open.trf", "--fide-list", "players_list.xlsx", "-o", "linked.xlsx"]):
        before = digest(book)
        proc = run_cli(*args, cwd=tmp_path)
        refused(proc, "output: ", args[-1])
        assert named_as_book.read_bytes() == text and digest(book) == before
    no_temporary(tmp_path)


def test_import_with_a_damaged_list_names_the_lines(tmp_path: Path) -> None:
    corpus.make_damaged_lines(tmp_path)
    trf = tmp_path / "open.trf"
    trf.write_text(make_corpus.swiss_trf(PLAYERS, 3), encoding="utf-8")
    proc = run_cli("import-trf", "open.trf", "-o", "open.xlsx", "--fide-list", "players_list.zip", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    printed = proc.stdout.splitlines()
    assert "FIDE list (combined): 1 players filled with their standard rating, K, birth year, sex and title" in printed
    assert ("  player 7 Player 007: FIDE ID 100007: 'players_list.zip' (players_list_foa.txt), line 8: "
            "no name") in printed
    assert rows(tmp_path / "open.xlsx")[7][1:5] == ["Player 007", None, "GER", 1570]
