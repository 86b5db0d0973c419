"""``chessrating lite`` on hostile web-extension parts (tests/hostile/lite_parts.py):
every XML part of a copy is well-formed and says what the input said; huge parts of
other add-ins are read only up to their reference and copied as a stream (memory does
not grow with them), Lite's own past its limit is refused naming it; stored code that
is JSON nested 100,000 deep is a one-line refusal naming the file and the part.
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path
from xml.parsers import expat
import xml.etree.ElementTree as ET

import pytest

from chessrating.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
import lite_corpus  # noqa: E402
import lite_parts as corpus  # noqa: E402

WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
MB = 1 << 20


def _lite(capsys, *args: object) -> tuple[int, str]:
    code = main(["lite", *map(str, args)])
    return code, capsys.readouterr().err


def _parts_parse(book: Path) -> None:
    """Every XML part of ``book`` read by an XML parser, streamed."""
    with zipfile.ZipFile(book) as archive:
        for name in archive.namelist():
            if name.endswith((".xml", ".rels")):
                parser = expat.ParserCreate()
                with archive.open(name) as part:
                    parser.ParseFile(part)


def _digests(book: Path) -> dict[str, str]:
    found = {}
    with zipfile.ZipFile(book) as archive:
        for name in archive.namelist():
            digest = hashlib.sha256()
            with archive.open(name) as part:
                while chunk := part.read(MB):
                    digest.update(chunk)
            found[name] = digest.hexdigest()
    return found


def _refused(code: int, err: str, src: Path, part: str) -> str:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(src) in lines[0] and part in lines[0], err
    assert "a fault in chessrating" not in lines[0]
    return lines[0]


@pytest.mark.parametrize("build", [*lite_corpus.CORPUS, corpus.lite_quoted_property, corpus.lite_nested_xml],
                         ids=lambda b: b.__name__)
def test_every_part_of_a_copy_is_well_formed(build, tmp_path: Path, capsys) -> None:
    src = build(tmp_path)
    code, _ = _lite(capsys, src, "-o", tmp_path / "copy.xlsx", "--replace-code")
    if code == 0:
        _parts_parse(tmp_path / "copy.xlsx")
    else:
        assert not (tmp_path / "copy.xlsx").exists()


def test_kept_properties_come_back_as_the_input_said(tmp_path: Path, capsys) -> None:
    # a quote in a name and line breaks in a value: written as they were read (a raw
    # quote made the part malformed, a raw line break reads back as a space)
    src = corpus.lite_quoted_property(tmp_path)
    assert _lite(capsys, src, "-o", tmp_path / "copy.xlsx")[0] == 0
    with zipfile.ZipFile(tmp_path / "copy.xlsx") as archive:
        root = ET.fromstring(archive.read("xl/webextensions/webextension1.xml"))
    properties = {p.get("name"): p.get("value") for p in root.iter(f"{WE}property")}
    assert properties['say "hi"'] == "one\ntwo\rthree\tfour & <five>"
    assert root.get("id") == '{A"B}'


def test_huge_parts_of_other_addins_are_kept_byte_for_byte(tmp_path: Path, capsys) -> None:
    src = corpus.lite_huge_parts(tmp_path, size=24 * MB)
    assert _lite(capsys, src, "-o", tmp_path / "copy.xlsx")[0] == 0
    before, after = _digests(src), _digests(tmp_path / "copy.xlsx")
    for part in ("xl/webextensions/webextension1.xml", "xl/webextensions/webextension2.xml"):
        assert after[part] == before[part]
    _parts_parse(tmp_path / "copy.xlsx")


def test_a_huge_lite_part_is_refused_naming_it(tmp_path: Path, capsys) -> None:
    src = corpus.lite_huge_parts(tmp_path, size=17 * MB, lite_second=True)
    line = _refused(*_lite(capsys, src, "-o", tmp_path / "copy.xlsx"), src,
                    "xl/webextensions/webextension2.xml")
    assert "more than the 16 MB a web-extension part is read up to; nothing written" in line
    assert not (tmp_path / "copy.xlsx").exists()


def test_code_nested_100000_deep_is_a_one_line_refusal(tmp_path: Path, capsys) -> None:
    src = corpus.lite_nested_json(tmp_path)
    line = _refused(*_lite(capsys, src, "-o", tmp_path / "copy.xlsx"), src,
                    "xl/webextensions/webextension1.xml")
    assert "main.py (unreadable)" in line and "--replace-code" in line
    assert _lite(capsys, src, "-o", tmp_path / "copy.xlsx", "--replace-code")[0] == 0
    _parts_parse(tmp_path / "copy.xlsx")


def test_a_sheet_of_a_million_elements_is_refused_naming_it(tmp_path: Path, capsys) -> None:
    src = corpus.lite_crowded_sheet(tmp_path)
    line = _refused(*_lite(capsys, src, "-o", tmp_path / "copy.xlsx"), src, "xl/worksheets/sheet1.xml")
    assert "holds more than 500,000 XML elements" in line
    assert not (tmp_path / "copy.xlsx").exists()
