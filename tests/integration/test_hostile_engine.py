"""The engine against hostile files (built by tests/hostile/engine_corpus.py).

Each file is a few kilobytes made here, never a copy of anything. The command line's
contract holds for each: exit 0 written, 1 written with cell errors, 2 nothing written
and one line naming the user's file and what is wrong with it, never a traceback; a run
that exits 2 leaves the file ``-o`` names as it was. The resource cases run in a child
process whose address space is capped, and print the peak memory and time they took.
"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
import engine_corpus as corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402

ADDIN = Path(__file__).resolve().parent.parent.parent / "addin"
MEMORY_CAP = 1 << 30  # every run on an input under 5 MB stays under 1 GB resident …
TIME_LIMIT = 120  # … and two minutes
# The child's address space, a net under the figure asserted: the evaluation thread
# reserves a large stack it does not use, which counts here and not in memory used.
ADDRESS_SPACE = 1536 << 20


def recalc(capsys, src: Path, *extra: str, code: int) -> str:
    """``chessrating recalc src`` in this process: its stderr, held to the contract.
    A file that ``-o`` names is left as it was by a refusal."""
    out = Path(extra[extra.index("-o") + 1]) if "-o" in extra else None
    before = hashlib.sha256(out.read_bytes()).hexdigest() if out and out.is_file() else None
    assert main(["recalc", str(src), *extra]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if code == 2:
        *progress, reason = err.strip().splitlines()
        named = out if out is not None and str(out) in reason else src  # the file at fault
        assert reason.startswith(f"chessrating recalc: error: {named}"), err
        assert "a fault in chessrating" not in reason, err
        assert all(line.startswith(("evaluating ", "writing ", "  ")) for line in progress), err
        if out is not None:
            now = hashlib.sha256(out.read_bytes()).hexdigest() if out.is_file() else None
            assert now == before
        assert not list(src.parent.glob(f"{src.stem}-recalc*"))
    return err


def values(path: Path, sheet: str = "Data") -> dict[str, object]:
    book = openpyxl.load_workbook(path, data_only=True)
    return {c.coordinate: c.value for row in book[sheet].iter_rows() for c in row
            if c.value is not None}


def measured(src: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], int, float]:
    """The command line on ``src`` in a child capped at :data:`ADDRESS_SPACE`: the run,
    its peak resident memory in bytes and its seconds (printed, for the report)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    env = {**os.environ, "PYTHONPATH": str(ADDIN), "OPENBLAS_NUM_THREADS": "1"}
    script = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
              "p = subprocess.run(sys.argv[1:]); "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
              "time.perf_counter() - t, p.returncode, file=sys.stderr)")
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "chessrating.cli",
                           "recalc", str(src), *extra], env=env, capture_output=True, text=True,
                          timeout=TIME_LIMIT, preexec_fn=cap)
    *lines, last = proc.stderr.strip().splitlines()
    peak_kb, seconds, code = last.split()
    proc = subprocess.CompletedProcess(proc.args, int(code), proc.stdout, "\n".join(lines))
    print(f"{src.name}: peak {int(peak_kb) // 1024} MB, {float(seconds):.2f} s "
          f"({time.perf_counter() - started:.2f} s with the child's start)")
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc, int(peak_kb) * 1024, float(seconds)


# -- indexes out of range ------------------------------------------------------------
@pytest.mark.parametrize("index", ["-1", "2", "99999999999"])
def test_a_shared_string_index_out_of_range_is_refused_by_name(tmp_path, capsys, index):
    src = corpus.make_shared_string(tmp_path, index)
    err = recalc(capsys, src, code=2)
    assert err.strip().endswith(f"{src}: Data!A1 names shared string {index}, but the workbook "
                                "holds 2; not a workbook Excel wrote")


def test_shared_strings_in_range_are_read(tmp_path, capsys):
    src = corpus.make_shared_string(tmp_path, "1")
    recalc(capsys, src, code=0)
    assert values(tmp_path / "shared-string-recalc.xlsx")["B1"] == "last!"


@pytest.mark.parametrize("sheet_id", ["1", "-1", "x"])
def test_a_name_scoped_to_a_sheet_that_is_not_there_is_refused_by_name(tmp_path, capsys, sheet_id):
    src = corpus.make_local_name(tmp_path, sheet_id)
    out = tmp_path / "kept.xlsx"
    out.write_bytes(b"the user's own file")
    err = recalc(capsys, src, "-o", str(out), code=2)
    assert err.strip().endswith(f"{src}: the name two belongs to sheet number {sheet_id} "
                                "(localSheetId), but the workbook has 1 sheet; "
                                "not a workbook Excel wrote")
    assert out.read_bytes() == b"the user's own file"


# -- text only Python reads as a number ---------------------------------------------------
def test_underscores_and_full_width_digits_are_text_in_values_and_in_the_error_report(tmp_path, capsys):
    src = corpus.make_python_numbers(tmp_path)
    err = recalc(capsys, src, code=1)
    got = values(tmp_path / "python-numbers-recalc.xlsx")
    assert [got[f"{col}{row}"] for row in (1, 2, 3) for col in "BC"] == ["#VALUE!"] * 6
    # each error traced to the text typed in its row, as for a plain word
    for row in (1, 2, 3):
        assert f"Data!B{row}: #VALUE! — input Data!A{row}" in err, err


@pytest.mark.parametrize("text", ["1_000", "\uff11", "nan", "inf", "-Infinity"])
def test_a_number_cell_holding_no_number_is_refused_by_name(tmp_path, capsys, text):
    src = corpus.make_number_cell(tmp_path, text)
    err = recalc(capsys, src, code=2)
    assert err.strip().endswith(f"{src}: Data!A1 holds {text!r} as a number; "
                                "not a workbook Excel wrote")


@pytest.mark.parametrize("text, value", [("1000", 1001), (" 2.5E1 ", 26), ("-.5", 0.5)])
def test_a_number_cell_in_xml_schema_form_is_read(tmp_path, capsys, text, value):
    recalc(capsys, corpus.make_number_cell(tmp_path, text), code=0)
    assert values(tmp_path / "number-cell-recalc.xlsx")["B1"] == value


# -- what is written fits Excel ----------------------------------------------------------
def _excel_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_no_cell_is_written_longer_than_excels_32767_characters(tmp_path):
    from xlrecalc import recalculate

    def long(text: str) -> str:
        raise ValueError(f"text: {text!r} is not a game result")
    src = corpus.make_long_texts(tmp_path)
    out = tmp_path / "out.xlsx"
    report = recalculate(src, out, functions={"LONG": long})
    got = values(out)
    assert len(got["A1"]) == 32_760
    assert [_excel_length(got[c]) for c in ("B1", "C1")] == [32_767, 32_767]
    assert got["B1"].startswith("'xxx") and got["B1"].endswith("…")
    assert got["C1"].startswith("text: 'xxx") and got["C1"].endswith("…")
    assert got["D1"] == "#VALUE!"
    assert report.values[("Data", "C1")].endswith("' is not a game result")  # the report's in full


def test_a_macro_workbook_named_xlsx_is_written_as_xlsm(tmp_path, capsys):
    src = corpus.make_macro_named_xlsx(tmp_path)
    err = recalc(capsys, src, code=0)
    out = tmp_path / "macros-recalc.xlsm"
    assert err.strip().endswith(f"written: {out}")
    assert not (tmp_path / "macros-recalc.xlsx").exists()
    assert values(out)["B1"] == 42
    with zipfile.ZipFile(out) as z:
        assert corpus.MACRO_WORKBOOK.encode() in z.read("[Content_Types].xml")


@pytest.mark.parametrize("name, macros, asked, kind", [
    ("macros.xlsx", True, "out.xlsx", ".xlsm"),
    ("plain.xlsm", False, "out.xlsm", ".xlsx"),
])
def test_an_output_named_against_the_content_is_refused(tmp_path, capsys, name, macros, asked, kind):
    src = corpus.make_macro_named_xlsx(tmp_path, name, macros)
    out = tmp_path / asked
    out.write_bytes(b"the user's own file")
    err = recalc(capsys, src, "-o", str(out), code=2)
    what = "a macro workbook" if macros else "a workbook without macros"
    assert err.strip() == (f"chessrating recalc: error: {out}: {name} is {what} whatever its "
                           f"name says; the output must be named {kind}; nothing written")
    assert out.read_bytes() == b"the user's own file"


# -- files that are no package -------------------------------------------------------------
@pytest.mark.parametrize("build, says", [
    (corpus.make_encrypted, "the workbook is encrypted (protected by a password to open); "
                            "save a copy without the password in Excel and recalc that"),
    (corpus.make_legacy_xls, "an Excel 97-2003 workbook (.xls), not an .xlsx; save it as "
                             ".xlsx in Excel or LibreOffice first"),
])
def test_a_compound_file_is_named_for_what_it_is(tmp_path, capsys, build, says):
    src = build(tmp_path)
    out = tmp_path / "kept.xlsx"
    out.write_bytes(b"the user's own file")
    err = recalc(capsys, src, "-o", str(out), code=2)
    assert err.strip() == f"chessrating recalc: error: {src}: {says}"
    assert out.read_bytes() == b"the user's own file"


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


def test_a_workbook_part_wherever_the_package_names_it_is_recalculated(tmp_path, capsys):
    src = corpus.make_workbook_elsewhere(tmp_path)
    recalc(capsys, src, code=0)
    out = tmp_path / "elsewhere-recalc.xlsx"
    assert values(out) == {"A1": 2, "B1": 42}
    old, new = members(src), members(out)
    assert list(old) == list(new)
    assert [n for n in old if old[n] != new[n]] == ["book/main.xml", "book/sheets/data.xml"]
    assert b'<calcPr calcId="191029"/>' in new["book/main.xml"]


@pytest.mark.parametrize("how, reason", [("utf-16", "the sheet is not written in UTF-8"),
                                         ("doctype", "the part declares a document type")])
def test_a_part_the_writer_refuses_is_refused_before_any_formula_is_evaluated(tmp_path, how, reason):
    from xlrecalc import RecalcError, recalculate
    calls: list[int] = []
    src = corpus.make_unwritable_sheet(tmp_path, how)
    with pytest.raises(RecalcError) as refused:
        recalculate(src, tmp_path / "out.xlsx", functions={"SPY": lambda: calls.append(1) or 1})
    assert str(refused.value) == f"{src}: a part of the workbook cannot be rewritten: {reason}"
    assert calls == []  # refused before the evaluation
    assert sorted(p.name for p in tmp_path.iterdir()) == [src.name]


def test_a_reference_to_another_workbook_keeps_excels_value_and_says_so(tmp_path, capsys):
    src = corpus.make_external_link(tmp_path)
    err = recalc(capsys, src, code=1)
    got = values(tmp_path / "linked-recalc.xlsx")
    assert got["A1"] == 5 and got["B1"] == 10  # Excel's value, and what reads it
    assert "C1" not in got  # kept as the file has it: no value
    assert "kept Excel's value in 2 cells: [1] (another workbook)" in err
    assert "Data!D1: a reference to another workbook [1] without Excel's value" in err
    assert "outside a table" not in err


# -- resources: every run on a file under 5 MB stays under 1 GB and two minutes ----------
def test_an_array_formula_over_a_whole_sheet_fills_the_cells_the_file_holds(tmp_path):
    src = corpus.make_whole_sheet_array(tmp_path)
    assert src.stat().st_size < 5 << 20
    proc, peak, seconds = measured(src)
    assert proc.returncode == 1, proc.stderr[-2000:]  # the cells not held are named
    assert ("Calc!A1: the array formula over A1:XFD1048576 is stored in 3 of its "
            "17,179,869,184 cells") in proc.stderr
    assert peak < MEMORY_CAP and seconds < TIME_LIMIT
    out = tmp_path / "whole-sheet-recalc.xlsx"
    assert values(out, "Calc") == {"A1": 2, "B1": 2, "A3": 2}
    assert values(out, "Other") == {"A1": 3}


@pytest.mark.parametrize("build, shown", [
    (corpus.make_many_whole_sheet_arrays, {"A1": 1, "A2": 1, "A20000": 1}),
    (corpus.make_column_array, {"B1": 2}),
])
def test_array_ranges_cost_what_the_file_holds(tmp_path, build, shown):
    src = build(tmp_path)
    assert src.stat().st_size < 5 << 20
    proc, peak, seconds = measured(src)
    # the cells of the ranges the file does not hold are not calculated, and said so
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "formula(s) not calculated whole:" in proc.stderr
    assert peak < MEMORY_CAP // 2 and seconds < TIME_LIMIT
    got = values(tmp_path / f"{src.stem}-recalc.xlsx")
    assert {k: got[k] for k in shown} == shown and len(got) == (20_000 if "A2" in shown else 1)


def test_a_chain_of_lambda_names_costs_memory_in_its_length_not_its_square(tmp_path):
    src = corpus.make_lambda_chain(tmp_path, 9_000)
    proc, peak, seconds = measured(src)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert peak < MEMORY_CAP // 4 and seconds < TIME_LIMIT
    assert values(tmp_path / f"{src.stem}-recalc.xlsx")["B1"] == 9_000


def test_a_chain_too_deep_to_follow_is_reported_within_two_minutes(tmp_path):
    src = corpus.make_cell_chain(tmp_path)
    assert src.stat().st_size < 5 << 20
    proc, peak, seconds = measured(src)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert peak < MEMORY_CAP and seconds < TIME_LIMIT
    assert "formulas nested or chained too deeply to evaluate" in proc.stderr


def test_a_million_and_a_half_names_stay_under_a_gigabyte(tmp_path):
    src = corpus.make_many_names(tmp_path)
    assert src.stat().st_size < 5 << 20
    proc, peak, seconds = measured(src)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert peak < MEMORY_CAP and seconds < TIME_LIMIT
    assert values(tmp_path / "many-names-recalc.xlsx")["B1"] == 2


@pytest.mark.parametrize("length, code, shown", [
    (9_000, 0, 9_000),
    (12_000, 1, "names nested more than 10,000 deep (at chain_1999)"),
])
def test_a_chain_of_names_costs_memory_in_its_length_not_its_square(tmp_path, length, code, shown):
    src = corpus.make_name_chain(tmp_path, length)
    assert src.stat().st_size < 5 << 20
    proc, peak, seconds = measured(src)
    assert proc.returncode == code, proc.stderr[-2000:]
    assert peak < MEMORY_CAP // 4 and seconds < TIME_LIMIT
    assert values(tmp_path / f"{src.stem}-recalc.xlsx")["B1"] == shown


# -- spills ----------------------------------------------------------------------------------
def test_a_blocked_spill_is_spill_error_and_a_free_one_its_values(tmp_path, capsys):
    src = corpus.make_blocked_spill(tmp_path)
    err = recalc(capsys, src, code=1)
    out = tmp_path / "spill-recalc.xlsx"
    got = values(out)
    assert {k: v for k, v in got.items() if v != ""} == {
        "A1": "#SPILL!", "A2": 5, "C1": 1, "C2": 2, "E1": "#SPILL!", "F1": 2,
        "G1": 1, "G2": 7,  # a legacy array formula keeps its range
        "H1": 1, "I1": 1, "I2": 2}  # H2 and I3: blank, the spill being shorter now
    assert "Data!A1: #SPILL!" in err and "Data!E1" in err
    sheet = members(out)["xl/worksheets/sheet1.xml"]
    assert b'<c r="A1" cm="1" t="e"><f t="array" ref="A1">SEQUENCE(3)</f><v>#SPILL!</v></c>' in sheet


# -- a refusal touches nothing --------------------------------------------------------------
REFUSED = {
    "shared string -1": lambda folder: corpus.make_shared_string(folder, "-1"),
    "localSheetId past the sheets": lambda folder: corpus.make_local_name(folder, "3"),
    "number cell 1_000": lambda folder: corpus.make_number_cell(folder, "1_000"),
    "encrypted": corpus.make_encrypted,
    "xls": corpus.make_legacy_xls,
    "sheet in UTF-16": lambda folder: corpus.make_unwritable_sheet(folder, "utf-16"),
    "macros named .xlsx": corpus.make_macro_named_xlsx,
}


@pytest.mark.parametrize("case", list(REFUSED))
@pytest.mark.parametrize("target", ["another file", "the input itself"])
def test_a_refusal_leaves_the_file_o_names_as_it_was(tmp_path, capsys, case, target):
    src = REFUSED[case](tmp_path)
    out = src if target == "the input itself" else tmp_path / "theirs.xlsx"
    if out != src:
        out.write_bytes(b"the user's own file")
    before = hashlib.sha256(out.read_bytes()).hexdigest()
    recalc(capsys, src, "-o", str(out), code=2)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({src.name, out.name})
