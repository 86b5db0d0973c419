"""Hostile web-extension parts for ``chessrating lite``, built on demand around
:func:`lite_corpus.lite_base`: huge parts (another add-in's and Lite's, hundreds of
megabytes of properties packed into a few), a Lite part whose stored code is JSON
nested 100,000 deep, one nested as deep in XML, and one whose kept properties hold a
quote in a name and line breaks in a value (which a copy must write back well-formed),
and a sheet of a million empty cells.
Run as a script to write them into a folder: ``python lite_parts.py DIR``.
"""

from __future__ import annotations

import random
import sys
import zipfile
from pathlib import Path

from lite_corpus import DECLARATION, OTHER_ADDIN, REL_NS, WE_NS, _webextension, _with_extension, lite_base, sheet

LITE = "wa200008175"
MB = 1 << 20


def _head(reference: str, guid: str) -> str:
    return (f'{DECLARATION}<we:webextension xmlns:we="{WE_NS}" id="{guid}">'
            f'<we:reference id="{reference}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
            '<we:alternateReferences/><we:properties>')


_TAIL = f'</we:properties><we:bindings/><we:snapshot xmlns:r="{REL_NS}"/></we:webextension>'


def _write_huge(archive: zipfile.ZipFile, name: str, reference: str, size: int, seed: int) -> None:
    """``name``: a web-extension part of about ``size`` bytes, written a megabyte at a
    time: properties with one random letter each and padding between, packed about
    180:1 (under the 200:1 past which a member is refused as a zip bomb)."""
    rng = random.Random(seed)
    with archive.open(name, "w", force_zip64=True) as part:
        part.write(_head(reference, "{%08d-0000-4000-8000-000000000000}" % seed).encode())
        written = 0
        while written < size:
            block = "".join(f'<we:property name="setting" value="{rng.choice("abcdefghijklmnop")}"/>'
                            + " " * 500 for _ in range(2_000)).encode()
            part.write(block)
            written += len(block)
        part.write(_TAIL.encode())


def lite_huge_parts(folder: Path, size: int = 420 * MB, lite_second: bool = False) -> Path:
    """Two web-extension parts of ``size`` bytes each (4.7 MB packed at 420 MB): another
    add-in's, and a second add-in's or (``lite_second``) Lite's."""
    path = lite_base(folder, f"huge-parts{'-lite' if lite_second else ''}.xlsx")
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive:
        _write_huge(archive, "xl/webextensions/webextension1.xml", OTHER_ADDIN, size, 1)
        _write_huge(archive, "xl/webextensions/webextension2.xml", LITE if lite_second else "wa104099688",
                    size, 2)
    return path


def lite_nested_json(folder: Path, depth: int = 100_000) -> Path:
    """A Lite part whose main.py is JSON nested ``depth`` deep (``[[[…]]]``)."""
    nested = "[" * depth + "]" * depth
    return _with_extension(folder, "nested-json.xlsx", _webextension(
        LITE, {"main.py": nested, "requirements.txt": "&quot;xlwings&quot;"},
        "{AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE}"))


def lite_nested_xml(folder: Path, depth: int = 100_000) -> Path:
    """A Lite part with elements nested ``depth`` deep inside its properties."""
    nested = "<we:x>" * depth + "</we:x>" * depth
    extension = _webextension(LITE, {"Office.AutoShowTaskpaneWithDocument": "true"},
                              "{AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE}")
    return _with_extension(folder, "nested-xml.xlsx", extension.replace("<we:bindings/>", nested + "<we:bindings/>"))


def lite_quoted_property(folder: Path) -> Path:
    """A Lite part keeping a property named ``say "hi"`` whose value holds a line feed, a
    carriage return and a tab (as character references), and an id holding a quote."""
    return _with_extension(folder, "quoted-property.xlsx", _webextension(
        LITE, {"say &quot;hi&quot;": "one&#10;two&#13;three&#9;four &amp; &lt;five&gt;",
               "Office.AutoShowTaskpaneWithDocument": "true"}, "{A&quot;B}"))


def lite_crowded_sheet(folder: Path, cells: int = 1_000_000) -> Path:
    """A sheet of ``cells`` empty cells in one row (2.4 MB packed at a million), and B1
    calling FIDE_DP."""
    row = "".join(f'<c r="A{i}"/>' for i in range(2, cells + 1))
    return lite_base(folder, f"crowded-{cells}.xlsx", sheet_xml=sheet(
        f'<row r="1"><c r="B1"><f>FIDE_DP(0.5)</f></c></row><row r="2">{row}</row>'))


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for build in (lite_huge_parts, lite_nested_json, lite_nested_xml, lite_quoted_property, lite_crowded_sheet):
        print(build(out))
