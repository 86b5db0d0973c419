"""``recalc`` and ``import-trf`` against hostile and odd files (built by tests/hostile/make_corpus.py).

Each file is run through ``python -m chessrating.cli`` in a subprocess with its address
space capped (``RLIMIT_AS``) and a time limit, and the run is held to the command line's
contract: the exit code (0 values, 1 written with cell errors, 2 nothing written), one
line and no traceback on stderr for a refusal, the input unchanged, the output readable
by openpyxl (and LibreOffice for some), every zip member the patcher does not own byte
for byte as it was, and no temporary file left behind.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import xml.etree.ElementTree as ET

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl.utils import column_index_from_string, get_column_letter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import make_corpus as corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402
from xlrecalc.archive import TEMP_MARK, atomic_output, check_archive  # noqa: E402
from chessrating.recalc import RecalcError  # noqa: E402
from xlrecalc.patch import patch_sheet  # noqa: E402
from chessrating.trf.codec import MAX_FILE_BYTES, MAX_WARNINGS, parse_trf  # noqa: E402

ADDIN = Path(__file__).resolve().parents[2] / "addin"
MEMORY_CAP = 1536 << 20
TIME_LIMIT = 300
# Files Excel calculates at once: minutes here mean the evaluator walks what is not there.
QUICK_LIMIT = 120
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
# The members recalc rewrites: sheets, charts and workbook.xml (calcPr).
OWNED_PREFIXES = ("xl/worksheets/sheet", "xl/charts/chart", "xl/workbook.xml")


def run_cli(*args: str | Path, cwd: Path, umask: int = 0o022,
            timeout: int = TIME_LIMIT) -> subprocess.CompletedProcess[str]:
    """The command line in a child process with a memory cap and a time limit."""
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        os.umask(umask)
    env = {**os.environ, "PYTHONPATH": str(ADDIN), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    return subprocess.run([sys.executable, "-m", "chessrating.cli", *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limits)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


def assert_clean(proc: subprocess.CompletedProcess[str], code: int) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr[-3000:]
    assert proc.returncode == code, (proc.returncode, proc.stderr[-3000:])
    if code == 2:  # one line says why; only progress lines may come before it
        *progress, reason = proc.stderr.strip().splitlines()
        assert reason.startswith("chessrating "), proc.stderr
        assert all(line.startswith(("evaluating ", "writing ", "  ")) for line in progress), proc.stderr


def assert_no_temporary(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if TEMP_MARK in p.name or p.name.startswith("tmp")]


def assert_members_kept(src: Path, out: Path) -> None:
    """Same members in the same order; every one the patcher does not own unchanged."""
    old, new = members(src), members(out)
    assert list(old) == list(new)
    changed = [n for n in old if old[n] != new[n] and not n.startswith(OWNED_PREFIXES)]
    assert changed == []


def recalc_case(build, tmp_path: Path, code: int, *extra: str, timeout: int = TIME_LIMIT):
    """Build a corpus file, recalc it, check the contract; the output path and the run."""
    src = build(tmp_path)
    before = digest(src)
    proc = run_cli("recalc", src.name, *extra, cwd=tmp_path, timeout=timeout)
    assert_clean(proc, code)
    assert digest(src) == before
    assert_no_temporary(tmp_path)
    out = tmp_path / f"{src.stem}-recalc.xlsx"
    if code in (0, 1):
        assert_members_kept(src, out)
        openpyxl.load_workbook(out)  # readable
        assert b"<v>inf</v>" not in b"".join(members(out).values())
    else:
        assert not out.exists()
    return out, proc


def values(path: Path, sheet: str) -> dict[str, object]:
    book = openpyxl.load_workbook(path, data_only=True)
    return {c.coordinate: c.value for row in book[sheet].iter_rows() for c in row
            if c.value is not None}


# -- the patcher keeps what it does not own ---------------------------------------------
def test_cells_without_r_keep_their_place_and_content(tmp_path: Path):
    out, _ = recalc_case(corpus.make_no_r, tmp_path, 0)
    assert values(out, "Data") == {"A1": 5, "B1": 10, "C1": "keep me ", "A2": 7, "B2": 8,
                                   "C2": 18, "A4": 1, "B4": 2, "C4": 3}
    sheet = members(out)["xl/worksheets/sheet1.xml"]
    # every element and attribute of the input is still there, only <v> added or changed
    assert sheet == corpus.sheet_xml(corpus.NO_R_ROWS
                                     .replace("<f>A1*2</f>", "<f>A1*2</f><v>10</v>")
                                     .replace("<v>0</v>", "<v>8</v>")
                                     .replace("<f>B1+B2</f>", "<f>B1+B2</f><v>18</v>")
                                     .replace("<f>A4+B4</f>", "<f>A4+B4</f><v>3</v>"))


def _cells_as_excel_reads(xml: bytes) -> dict[tuple[int, int], ET.Element]:
    """Every cell by position, inferring a missing ``r=`` as Excel does."""
    found: dict[tuple[int, int], ET.Element] = {}
    row = 0
    for row_element in ET.fromstring(xml).iter(f"{{{corpus.MAIN_NS}}}row"):
        row = int(row_element.get("r", row + 1))
        col = 0
        for cell in row_element:
            ref = cell.get("r")
            col = column_index_from_string(ref.rstrip("0123456789")) if ref else col + 1
            found[(row, col)] = cell
    return found


def _without_value(cell: ET.Element) -> tuple[dict[str, str], list[bytes]]:
    attrs = {k: v for k, v in cell.attrib.items() if k != "t"}
    return attrs, [ET.tostring(child) for child in cell if not child.tag.endswith("}v")]


_CELL_KINDS = [
    "<v>1</v>", "<f>1+1</f>", "<f>A1</f><v>3</v>", '<is><t xml:space="preserve"> x </t></is>',
    "<f>2</f><extLst><ext uri='u'/></extLst>", "",
]


@st.composite
def sheets_and_updates(draw):
    rows, row, cells = [], 0, []
    for _ in range(draw(st.integers(1, 6))):
        row += draw(st.integers(1, 3))
        with_r = draw(st.booleans()) or row - (cells[-1][0] if cells else 0) > 1
        col, body = 0, []
        for _ in range(draw(st.integers(0, 5))):
            gap = draw(st.integers(1, 3))
            named = draw(st.booleans()) or gap > 1
            col += gap
            kind = draw(st.sampled_from(_CELL_KINDS))
            attrs = (f' r="{get_column_letter(col)}{row}"' if named else "") + draw(
                st.sampled_from(["", ' s="1"', ' t="n"', ' t="inlineStr"']))
            body.append(f"<c{attrs}>{kind}</c>" if kind else f"<c{attrs}/>")
            cells.append((row, col))
        rows.append((f'<row r="{row}">' if with_r else "<row>") + "".join(body) + "</row>")
        if not with_r and not body:
            rows[-1] = f'<row r="{row}"/>'
        cells.append((row, 0))
    existing = [c for c in cells if c[1]]
    chosen = draw(st.lists(st.sampled_from(existing), unique=True)) if existing else []
    new = draw(st.lists(st.tuples(st.integers(1, row + 2), st.integers(1, 9)), max_size=4))
    updates = {key: ("n", str(i)) for i, key in enumerate(chosen + new)}
    return corpus.sheet_xml("".join(rows)), updates


@given(sheets_and_updates())
def test_patcher_keeps_every_cell_and_sets_only_its_own(case):
    xml, updates = case
    before = _cells_as_excel_reads(xml)
    after = _cells_as_excel_reads(patch_sheet(xml, updates))
    assert set(after) == set(before) | set(updates)
    for key, cell in before.items():
        assert _without_value(after[key]) == _without_value(cell), key
        if key not in updates:
            assert ET.tostring(after[key]) == ET.tostring(cell), key
    for key, (_, text) in updates.items():
        assert after[key].find(f"{{{corpus.MAIN_NS}}}v").text == text, key


def test_in_place_recalc_keeps_the_content_and_the_mode(tmp_path: Path):
    src = corpus.make_no_r(tmp_path)
    src.chmod(0o640)
    proc = run_cli("recalc", src.name, "-o", src.name, cwd=tmp_path)
    assert_clean(proc, 0)
    assert stat.S_IMODE(src.stat().st_mode) == 0o640
    assert values(src, "Data")["C1"] == "keep me " and values(src, "Data")["C2"] == 18
    assert_no_temporary(tmp_path)


def test_overflow_is_num_error_in_cells_and_chart_caches(tmp_path: Path):
    out, proc = recalc_case(corpus.make_overflow, tmp_path, 1)
    assert values(out, "Data")["A3"] == "#NUM!" and values(out, "Data")["B1"] == 9
    assert "Data!A3: #NUM!" in proc.stderr
    assert b'<c r="A3" t="e"><f>SUM(A1:A2)</f><v>#NUM!</v></c>' in members(out)["xl/worksheets/sheet1.xml"]
    chart = members(out)["xl/charts/chart1.xml"]
    assert b"inf" not in chart and b'<c:ptCount val="3"/>' in chart


def test_calc_properties_say_the_values_are_current(tmp_path: Path):
    out, _ = recalc_case(corpus.make_plain, tmp_path, 0)
    book = members(out)["xl/workbook.xml"]
    assert b'<calcPr calcId="191029"/>' in book and b"fullCalcOnLoad" not in book
    assert values(out, "Data")["B1"] == 42


def test_calc_properties_added_when_missing(tmp_path: Path):
    src = corpus.workbook(tmp_path / "bare.xlsx", {"S": '<row r="1"><c r="A1"><f>1+1</f></c></row>'},
                          calc_pr="")
    proc = run_cli("recalc", src.name, cwd=tmp_path)
    assert_clean(proc, 0)
    book = members(tmp_path / "bare-recalc.xlsx")["xl/workbook.xml"]
    assert book.endswith(b'</sheets><calcPr calcId="191029"/></workbook>')


# -- formulas Excel evaluates without trouble ------------------------------------------
def test_cycles_flag_every_cell(tmp_path: Path):
    out, proc = recalc_case(corpus.make_cycles, tmp_path, 1, timeout=QUICK_LIMIT)
    got = values(out, "Data")
    assert got["E1"] == 6
    for cell in ("A1", "B1", "C1", "D1"):
        assert isinstance(got.get(cell), str), (cell, got.get(cell))  # an error, never a number
        assert cell in proc.stderr


def test_far_cell_and_whole_columns_cost_only_the_cells_that_exist(tmp_path: Path):
    out, _ = recalc_case(corpus.make_far_cell, tmp_path, 0, timeout=QUICK_LIMIT)
    assert values(out, "Calc") == {"A1": 6, "B1": 4, "C1": 6, "D1": 8}


def test_name_bomb_is_evaluated_once_per_name(tmp_path: Path):
    out, _ = recalc_case(corpus.make_name_bomb, tmp_path, 0, timeout=QUICK_LIMIT)
    assert values(out, "Data")["B1"] == 2 ** 20


def test_deep_nesting_is_a_cell_error_or_a_value_never_a_crash(tmp_path: Path):
    src = corpus.make_deep_nesting(tmp_path)
    proc = run_cli("recalc", src.name, cwd=tmp_path, timeout=QUICK_LIMIT)
    assert "Traceback" not in proc.stderr
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    out = tmp_path / "deep-recalc.xlsx"
    got = values(out, "Data")
    assert got["C1"] == 2
    deep = [got.get("A1"), got.get("B1")]
    assert all(v == 1 or isinstance(v, str) for v in deep), deep
    assert proc.returncode == (1 if any(isinstance(v, str) for v in deep) else 0)
    assert_members_kept(src, out)


# -- zips ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def zip_bomb(tmp_path_factory) -> Path:
    return corpus.make_zip_bomb(tmp_path_factory.mktemp("bomb"))


def test_zip_bomb_is_refused_by_name_before_reading(zip_bomb: Path, tmp_path: Path):
    assert zip_bomb.stat().st_size < 4 << 20
    src = Path(shutil.copy(zip_bomb, tmp_path / zip_bomb.name))
    out, proc = recalc_case(lambda _: src, tmp_path, 2)
    assert proc.stderr.strip() == ("chessrating recalc: error: zip-bomb.xlsx: "
                                   "xl/worksheets/sheet1.xml expands past 500 MB; "
                                   "not a workbook Excel wrote")


def test_limits_apply_per_member_and_in_total(tmp_path: Path):
    src = corpus.make_plain(tmp_path)
    with pytest.raises(RecalcError, match=r"^plain.xlsx: \S+ expands past 100 bytes; not a workbook Excel wrote$"):
        check_archive(src, "plain.xlsx", member_limit=100)
    with pytest.raises(RecalcError, match=r"^plain.xlsx: the workbook expands past 1000 bytes"):
        check_archive(src, "plain.xlsx", total_limit=1000)
    check_archive(src, "plain.xlsx")


def test_a_member_packed_far_tighter_than_xml_is_refused(tmp_path: Path):
    # 30 MB of blanks packs ~1000:1; XML sheets pack 10-50:1
    src = corpus.workbook(tmp_path / "packed.xlsx", {"S": '<row r="1"><c r="A1"><f>1+1</f></c></row>'},
                          extra=[("xl/media/blank.bin", b" " * (30 << 20))])
    _, proc = recalc_case(lambda _: src, tmp_path, 2)
    assert "packed.xlsx: xl/media/blank.bin expands" in proc.stderr
    assert "times its packed size; not a workbook Excel wrote" in proc.stderr


def test_a_directory_that_understates_a_size_is_refused(tmp_path: Path):
    # a member expands to no more than the directory says: past it, the CRC fails
    src = corpus.make_plain(tmp_path, "understated.xlsx")
    raw = bytearray(src.read_bytes())
    entry = raw.index(b"PK\x01\x02")  # the central directory's first entry
    while not raw[entry + 46:].startswith(b"xl/worksheets/sheet1.xml"):
        entry = raw.index(b"PK\x01\x02", entry + 4)
    raw[entry + 24:entry + 28] = (10).to_bytes(4, "little")
    src.write_bytes(bytes(raw))
    _, proc = recalc_case(lambda _: src, tmp_path, 2)
    assert "understated.xlsx: xl/worksheets/sheet1.xml is damaged" in proc.stderr


@pytest.mark.parametrize("member", [corpus.BYSTANDER[0], "xl/worksheets/sheet1.xml"])
def test_corrupt_member_is_a_clean_refusal(tmp_path: Path, member: str):
    out, proc = recalc_case(lambda folder: corpus.make_corrupt(folder, member), tmp_path, 2)
    assert proc.stderr.startswith(f"chessrating recalc: error: corrupt.xlsx: {member} is damaged")


# -- the exit-code contract and the output's name and mode ---------------------------
@pytest.mark.parametrize("args, message", [
    (["missing.xlsx"], "missing.xlsx: no such file"),
    (["plain.xlsx", "-o", "out.csv"], "out.csv: the output must be named .xlsx"),
    (["plain.xlsx", "-o", "nowhere/out.xlsx"], "nowhere/out.xlsx: the folder nowhere does not exist"),
    (["plain.xlsx", "-o", "out.xlsm"], "out.xlsm: the output must keep the input's extension .xlsx"),
    (["notes.xlsx"], "notes.xlsx: not an .xlsx workbook"),
])
def test_refusals_name_the_users_path_and_write_nothing(tmp_path: Path, args, message):
    corpus.make_plain(tmp_path)
    (tmp_path / "notes.xlsx").write_text("not a zip")
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = run_cli("recalc", *args, cwd=tmp_path)
    assert_clean(proc, 2)
    assert proc.stderr.startswith(f"chessrating recalc: error: {message}")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_has_a_new_files_mode(tmp_path: Path, umask: int, mode: int):
    corpus.make_plain(tmp_path)
    proc = run_cli("recalc", "plain.xlsx", cwd=tmp_path, umask=umask)
    assert_clean(proc, 0)
    assert stat.S_IMODE((tmp_path / "plain-recalc.xlsx").stat().st_mode) == mode


@pytest.mark.parametrize("recalculate", [False, True])
def test_templates_get_a_new_files_mode_and_leave_no_draft(tmp_path: Path, recalculate: bool):
    from chessrating.workbooks import write_templates
    old = os.umask(0o022)
    try:
        paths = write_templates(tmp_path, recalculate=recalculate)
    finally:
        os.umask(old)
    assert {stat.S_IMODE(p.stat().st_mode) for p in paths} == {0o644}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)


def test_output_folder_gets_the_default_name(tmp_path: Path):
    corpus.make_plain(tmp_path)
    (tmp_path / "out").mkdir()
    proc = run_cli("recalc", "plain.xlsx", "-o", "out", cwd=tmp_path)
    assert_clean(proc, 0)
    assert proc.stderr.strip().endswith(f"written: {Path('out') / 'plain-recalc.xlsx'}")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["plain-recalc.xlsx"]


def test_interrupted_write_leaves_nothing(tmp_path: Path, monkeypatch, capsys):
    src = corpus.make_plain(tmp_path)

    def interrupt(xml: bytes) -> bytes:
        raise KeyboardInterrupt
    monkeypatch.setattr("xlrecalc.patch.set_calc_properties", interrupt)
    assert main(["recalc", str(src)]) == 130
    assert capsys.readouterr().err.strip() == "chessrating recalc: interrupted"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.xlsx"]


def test_an_unexpected_fault_is_one_line_and_exit_2(tmp_path: Path, monkeypatch, capsys):
    src = corpus.make_plain(tmp_path)

    def fault(xml: bytes) -> bytes:
        raise AttributeError("'NoneType' object has no attribute 'x'")
    monkeypatch.setattr("xlrecalc.patch.set_calc_properties", fault)
    assert main(["recalc", str(src)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "AttributeError" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.xlsx"]


def test_atomic_output_removes_its_temporary_on_error(tmp_path: Path):
    target = tmp_path / "out.xlsx"
    with pytest.raises(ValueError), atomic_output(target) as stream:
        stream.write(b"half")
        raise ValueError("stop")
    assert list(tmp_path.iterdir()) == []


def test_sigterm_while_writing_leaves_no_temporary(tmp_path: Path):
    # a workbook with a large member that does not compress, so writing takes a while
    src = corpus.workbook(tmp_path / "big.xlsx", {"S": '<row r="1"><c r="A1"><f>1+1</f></c></row>'},
                          extra=[("xl/media/noise.bin", os.urandom(96 << 20))])
    env = {**os.environ, "PYTHONPATH": str(ADDIN)}
    child = subprocess.Popen([sys.executable, "-m", "chessrating.cli", "recalc", src.name],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + TIME_LIMIT
        while child.poll() is None and time.monotonic() < deadline:
            if any(TEMP_MARK in p.name for p in tmp_path.iterdir()):
                child.send_signal(signal.SIGTERM)
                break
            time.sleep(0.005)
        _, err = child.communicate(timeout=TIME_LIMIT)
    finally:
        child.kill()
    assert "Traceback" not in err
    assert child.returncode == 130, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.xlsx"]


# -- LibreOffice reads what recalc writes ------------------------------------------------
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_reads_the_outputs(tmp_path: Path):
    outs = []
    for build in (corpus.make_no_r, corpus.make_overflow, corpus.make_plain):
        src = build(tmp_path)
        assert run_cli("recalc", src.name, cwd=tmp_path).returncode in (0, 1)
        outs.append(tmp_path / f"{src.stem}-recalc.xlsx")
    profile = tmp_path / "lo_profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                    "--norestore", "--convert-to", "csv", "--outdir", str(tmp_path / "csv"),
                    *map(str, outs)], check=True, capture_output=True, timeout=600)
    csv = {p.stem: p.read_text().splitlines() for p in (tmp_path / "csv").iterdir()}
    assert csv["no-r-recalc"][:2] == ["5,10,keep me ", "7,8,18"]
    assert csv["plain-recalc"] == ["2,42"]
    assert csv["overflow-recalc"][0].split(",")[1] == "9"


# -- import-trf ------------------------------------------------------------------------
def trf_case(build, tmp_path: Path, code: int = 0):
    src = build(tmp_path)
    before = digest(src)
    proc = run_cli("import-trf", src.name, cwd=tmp_path)
    assert_clean(proc, code)
    assert digest(src) == before
    assert_no_temporary(tmp_path)
    out = tmp_path / f"{src.stem}.xlsx"
    openpyxl.load_workbook(out)
    return out, proc


def test_trf_control_characters_in_headers(tmp_path: Path):
    _, proc = trf_case(corpus.make_trf_control, tmp_path)
    assert "players: 8" in proc.stdout and "rounds: 7" in proc.stdout
    # each control read as a space and named (docs/RULES.md §9); then " 2" is a number
    assert "U+001E: a control or line-break character, read as a space" in proc.stdout
    assert "U+0000, U+0007: a control or line-break character, read as a space" in proc.stdout
    assert "062 gives 2 players, the file lists 8" in proc.stdout


def test_trf_huge_player_line_caps_its_warnings(tmp_path: Path):
    _, proc = trf_case(corpus.make_trf_huge_line, tmp_path)
    assert "rounds: 7" in proc.stdout
    assert "more warnings on this line" in proc.stdout
    assert "warnings: 10" in proc.stdout


def test_trf_warnings_are_capped_per_file():
    lines = "\n".join(["012 Many"] + [f"001 xx{i:02d}" for i in range(3 * MAX_WARNINGS)])
    warnings = parse_trf(lines).warnings
    assert len(warnings) == MAX_WARNINGS + 1
    assert warnings[-1].message == f"… {5 * MAX_WARNINGS} more warnings not listed"


def test_trf_file_larger_than_any_report_is_refused(tmp_path: Path):
    path = tmp_path / "huge.trf"
    with path.open("wb") as handle:  # sparse: nothing held in memory
        handle.truncate(MAX_FILE_BYTES + 1)
    proc = run_cli("import-trf", path.name, cwd=tmp_path)
    assert_clean(proc, 2)
    assert "'huge.trf' is larger than 64 MB" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.trf"]


def test_trf_stray_starting_number_does_not_size_the_workbook(tmp_path: Path):
    out, proc = trf_case(corpus.make_trf_stray_number, tmp_path)
    assert "players: 56" in proc.stdout
    assert "starting numbers run to 959 for 56 players: renumbered 1-56" in proc.stdout
    sheet = openpyxl.load_workbook(out, read_only=True)["Crosstable"]
    assert sheet.max_row < 100


def test_trf_header_disagreeing_with_the_data_takes_the_data(tmp_path: Path):
    _, proc = trf_case(corpus.make_trf_disagreeing_header, tmp_path)
    assert "rounds: 7" in proc.stdout
    assert "the header declares 31 rounds" in proc.stdout


def test_trf_output_without_xlsx_is_refused_before_any_work(tmp_path: Path):
    src = corpus.make_trf_disagreeing_header(tmp_path)
    proc = run_cli("import-trf", src.name, "-o", "event.ods", cwd=tmp_path)
    assert_clean(proc, 2)
    assert "'event.ods' must be named .xlsx" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [src.name]
