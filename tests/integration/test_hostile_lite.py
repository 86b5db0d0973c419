"""``chessrating lite`` on odd and hostile workbooks (tests/hostile/lite_corpus.py).

What must hold: lite never overwrites a part it did not write (another add-in's web
extension stays, Lite's goes beside it; a workbook's own Lite code is replaced only with
``--replace-code``); values land where the XML says, whatever its quoting, prefixes or
missing addresses; a malformed or DTD-carrying part is refused quickly, in one line
naming the user's file; a refusal (exit 2) leaves the output untouched; calls Lite
cannot bind (defined names, conditional formats, validations) are named.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from chessrating.cli import main
from chessrating.lite import convert as lite_module
from chessrating.lite.convert import AUTO_SHOW, lite_properties
from chessrating.lite.sheets import cell_address, cell_place

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import lite_corpus as corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
WETP = "{http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11}"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
UNTOUCHED = b"the user's own file, which a refusal must leave as it is"


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["lite", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(code: int, err: str, src: Path) -> str:
    """The one line of a refusal, which names the user's file."""
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(src) in lines[0] and "a fault in chessrating" not in lines[0]
    assert ".tmp" not in lines[0]
    return lines[0]


def cells(book: Path, part: str = "xl/worksheets/sheet1.xml") -> dict[str, ET.Element]:
    """Each cell by its address, counted as Excel counts cells without ``r=``."""
    root = ET.fromstring(members(book)[part])
    found: dict[str, ET.Element] = {}
    row_number = 0
    for row in root.iter(f"{MAIN}row"):
        row_number = int(row.get("r", row_number + 1))
        col = 0
        for cell in row.findall(f"{MAIN}c"):
            col = cell_place(cell.get("r"))[1] if cell.get("r") else col + 1
            found[cell_address(row_number, col)] = cell
    return found


# ------------------------------------------------------------------ parts it did not write

def test_another_addins_web_extension_is_kept_beside_lites(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_other_addin(tmp_path)
    code, _, err = run(capsys, src)
    assert code == 0, err
    before, after = members(src), members(tmp_path / "other-addin-lite.xlsx")
    # the other add-in's part, its task pane and relationship stay as they were
    assert after["xl/webextensions/webextension1.xml"] == before["xl/webextensions/webextension1.xml"]
    lite = ET.fromstring(after["xl/webextensions/webextension2.xml"])
    assert lite.find(f"{WE}reference").get("id") == "wa200008175"
    panes = ET.fromstring(after["xl/webextensions/taskpanes.xml"])
    rels = {r.get("Id"): r.get("Target")
            for r in ET.fromstring(after["xl/webextensions/_rels/taskpanes.xml.rels"])}
    targets = [rels[p.find(f"{WETP}webextensionref").get(R_ID)] for p in panes.iter(f"{WETP}taskpane")]
    assert targets == ["webextension1.xml", "webextension2.xml"]
    visibility = [p.get("visibility") for p in panes.iter(f"{WETP}taskpane")]
    assert visibility == ["0", "1"]  # theirs as it was; Lite's opens with the workbook
    types = {o.get("PartName"): o.get("ContentType")
             for o in ET.fromstring(after["[Content_Types].xml"]) if o.tag == f"{CT}Override"}
    assert types["/xl/webextensions/webextension1.xml"] == types["/xl/webextensions/webextension2.xml"] \
        == "application/vnd.ms-office.webextension+xml"
    root_rels = ET.fromstring(after["_rels/.rels"])
    assert [r.get("Target") for r in root_rels].count("xl/webextensions/taskpanes.xml") == 1


def test_own_lite_code_is_replaced_only_when_asked(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_own_code(tmp_path)
    out = tmp_path / "out.xlsx"
    out.write_bytes(UNTOUCHED)
    line = refused(*run(capsys, src, "-o", out)[::2], src)
    assert "main.py (5 lines)" in line and "requirements.txt (1 line)" in line
    assert "--replace-code" in line
    assert out.read_bytes() == UNTOUCHED
    code, _, err = run(capsys, src, "-o", out, "--replace-code")
    assert code == 0, err
    before = ET.fromstring(members(src)["xl/webextensions/webextension1.xml"])
    after = ET.fromstring(members(out)["xl/webextensions/webextension1.xml"])
    old = {p.get("name"): p.get("value") for p in before.iter(f"{WE}property")}
    new = {p.get("name"): p.get("value") for p in after.iter(f"{WE}property")}
    ours = lite_properties()
    assert json.loads(new["main.py"]) == json.loads(ours["main.py"])
    assert new["requirements.txt"] == ours["requirements.txt"]
    # its settings are its own: versions kept, none added, the same id
    assert {k: v for k, v in new.items() if k not in ("main.py", "requirements.txt")} == \
        {k: v for k, v in old.items() if k not in ("main.py", "requirements.txt")}
    assert AUTO_SHOW not in new and after.get("id") == before.get("id")


# ------------------------------------------------------------------ where the values land

def test_single_quoted_attributes_keep_style_and_address(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_single_quotes(tmp_path)
    code, out, err = run(capsys, src)
    assert code == 0, err
    assert "ELO_EXPECTED, FIDE_DP" in out
    found = cells(tmp_path / "single-quotes-lite.xlsx")
    for address, call in (("B1", "_xldudf_FIDE_DP(A1)"), ("B2", "_xldudf_ELO_EXPECTED(A2,1800)")):
        cell = found[address]
        assert cell.get("r") == address and cell.get("s") == "1" and cell.get("cm") == "1"
        formula = cell.find(f"{MAIN}f")
        assert (formula.get("t"), formula.get("ref"), formula.text) == ("array", address, call)
    assert found["B1"].find(f"{MAIN}v").text == "110"  # the cached value kept


def test_cells_without_addresses_are_bound_where_excel_counts_them(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_no_addresses(tmp_path)
    code, _, err = run(capsys, src)
    assert code == 0, err
    book = tmp_path / "no-addresses-lite.xlsx"
    found = cells(book)
    assert found["B1"].find(f"{MAIN}f").get("ref") == "B1"
    assert found["B1"].get("note") == "a>b" and found["B1"].get("s") == "1"
    assert found["C2"].find(f"{MAIN}f").get("ref") == "C2"
    assert found["C2"].find(f"{MAIN}f").text == "_xldudf_FIDE_DP(A2)"
    assert "r" not in found["C2"].attrib  # the rest of the cell as it was
    assert b"<x:f " in members(book)["xl/worksheets/sheet1.xml"]  # the file's own prefix


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("build, says", [
    (corpus.lite_dtd_entity, "document type declaration"),
    (corpus.lite_undefined_entity, "not well-formed"),
    (corpus.lite_malformed, "not well-formed"),
])
def test_bad_xml_is_refused_in_one_line_leaving_the_output(build, says: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    src = build(tmp_path)
    out = tmp_path / "out.xlsx"
    out.write_bytes(UNTOUCHED)
    line = refused(*run(capsys, src, "-o", out)[::2], src)
    assert says in line and "xl/worksheets/sheet1.xml" in line
    assert out.read_bytes() == UNTOUCHED
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([src.name, out.name])


def test_malformed_sheets_take_time_linear_in_their_size(tmp_path: Path) -> None:
    """A 200 KB malformed sheet took past two minutes (lazy patterns searched to the end
    of the part from every cell); one ten times larger is refused well inside the limit."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "addin"))
    for size in (200_000, 2_000_000):
        folder = tmp_path / str(size)
        folder.mkdir()
        src = corpus.lite_malformed(folder, size)
        done = subprocess.run([sys.executable, "-m", "chessrating.cli", "lite", str(src)], env=env,
                              capture_output=True, text=True, timeout=60)
        refused(done.returncode, done.stderr, src)


def test_output_names_and_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_base(tmp_path)
    text = tmp_path / "out.txt"
    text.write_bytes(UNTOUCHED)
    assert ".xlsx" in refused(*run(capsys, src, "-o", text)[::2], text)
    assert text.read_bytes() == UNTOUCHED
    refused(*run(capsys, src, "-o", tmp_path / "out.xlsm")[::2], tmp_path / "out.xlsm")
    assert not (tmp_path / "out.xlsm").exists()
    folder = tmp_path / "copies"
    folder.mkdir()
    code, _, err = run(capsys, src, "-o", folder)
    assert code == 0, err
    assert [p.name for p in folder.iterdir()] == ["base-lite.xlsx"]
    assert str(folder / "base-lite.xlsx") in err


def test_a_failed_write_names_the_output_not_a_temporary_file(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    src = corpus.lite_base(tmp_path)
    hidden = tmp_path / ".base-lite.xlsx.abc123.tmp"

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(hidden))
    monkeypatch.setattr(lite_module.tempfile, "NamedTemporaryFile", denied)
    code, _, err = run(capsys, src)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert str(tmp_path / "base-lite.xlsx") in err and "Permission denied" in err
    assert "abc123" not in err
    assert not (tmp_path / "base-lite.xlsx").exists()


# ------------------------------------------------------------------ calls left unbound

def test_calls_outside_cells_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus.lite_base(tmp_path)
    code, _, err = run(capsys, src)
    assert code == 0, err
    note = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(note) == 1
    for place in ("the defined name Bonus", "a conditional format on sheet Calc",
                  "a data validation on sheet Calc"):
        assert place in note[0]
    # and they are left as they were
    sheet = members(tmp_path / "base-lite.xlsx")["xl/worksheets/sheet1.xml"]
    assert b"<formula>FIDE_DP(A1)&gt;100</formula>" in sheet
    assert b"<formula1>FIDE_K(A2,10)&gt;0</formula1>" in sheet


# ------------------------------------------------------------------ any layout of a sheet

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from chessrating.lite.sheets import SheetRewrite, lite_formula  # noqa: E402
from chessrating.lite.spans import splice  # noqa: E402

FORMULAS = ["FIDE_DP(A1)", "SUM(A1:A2)", 'IF(A1="FIDE_K(",1,fide_k(A1,20))', "ELO_EXPECTED(2000,1800)+1"]


@st.composite
def sheets(draw):
    """A sheet as any writer may spell it: either quote, a prefix or none, rows and cells
    without r= where they follow the one before (Excel counts them), other attributes in
    any order (a '>' and the other quote inside a value)."""
    quote = draw(st.sampled_from(['"', "'"]))
    other = "'" if quote == '"' else '"'
    prefix = draw(st.sampled_from(["", "x:"]))
    rows, expected, number = [], {}, 0
    for _ in range(draw(st.integers(1, 4))):
        step = draw(st.integers(1, 3))
        number += step
        row_r = f" r={quote}{number}{quote}" if step > 1 or draw(st.booleans()) else ""
        cells, col = [], 0
        for _ in range(draw(st.integers(1, 4))):
            step = draw(st.integers(1, 3))
            col += step
            where = cell_address(number, col)
            attrs = []
            if step > 1 or draw(st.booleans()):
                attrs.append(("r", where))
            if draw(st.booleans()):
                attrs.append(("s", str(draw(st.integers(0, 9)))))
            if draw(st.booleans()):
                attrs.append(("note", "a>b" + other))
            attrs = draw(st.permutations(attrs))
            formula = draw(st.sampled_from(FORMULAS + [None]))
            text = "".join(f" {k}={quote}{v}{quote}" for k, v in attrs)
            body = (f"<{prefix}f>{formula.replace('&', '&amp;').replace('<', '&lt;')}</{prefix}f>"
                    if formula else "") + f"<{prefix}v>{col}</{prefix}v>"
            cells.append(f"<{prefix}c{text}>{body}</{prefix}c>")
            expected[where] = (dict(attrs), formula)
        rows.append(f"<{prefix}row{row_r}>{''.join(cells)}</{prefix}row>")
    space = "xmlns" + (":" + prefix[:-1] if prefix else "")
    main_ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    xml = (f"<{prefix}worksheet {space}={quote}{main_ns}{quote}><{prefix}sheetData>{''.join(rows)}"
           f"</{prefix}sheetData></{prefix}worksheet>")
    return xml.encode("utf-8"), expected


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets())
def test_each_bound_cell_is_the_cell_the_xml_says(case) -> None:
    xml, expected = case
    rewrite = SheetRewrite(xml, "1", "sheet.xml")
    after = splice(xml, rewrite.changes({}))
    root = ET.fromstring(after)
    found: dict[str, ET.Element] = {}
    number = 0
    for row in root.iter(f"{MAIN}row"):
        number, col = int(row.get("r", number + 1)), 0
        for cell in row.findall(f"{MAIN}c"):
            col = cell_place(cell.get("r"))[1] if cell.get("r") else col + 1
            found[cell_address(number, col)] = cell
    assert set(found) == set(expected)
    for where, (attrs, formula) in expected.items():
        cell = found[where]
        lite, used = lite_formula(formula) if formula else ("", set())
        f = cell.find(f"{MAIN}f")
        if used:
            assert cell.attrib == {**attrs, "cm": "1"}
            assert (f.get("t"), f.get("ref"), f.text) == ("array", where, lite)
        else:
            assert cell.attrib == attrs and (f is None or (f.attrib == {} and f.text == formula))
        assert cell.find(f"{MAIN}v").text == str(cell_place(where)[1])  # the value stays
