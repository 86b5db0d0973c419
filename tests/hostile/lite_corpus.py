"""Odd and hostile workbooks for ``chessrating lite``, built on demand.

Each ``lite_…`` function writes one small workbook into a folder and returns its path.
They start from one base workbook (:func:`lite_base`: a sheet whose cells call our
functions, plus a defined name, a conditional format and a data validation that call
them too), written member by member with :mod:`zipfile` so each holds exactly the XML
another program or a hand edit would. Run as a script to write them all into a folder:
``python lite_corpus.py DIR``.
"""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
WE_NS = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
WETP_NS = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

# Another add-in from the store, in its own task pane (as Excel saves one).
OTHER_ADDIN = "wa104380646"


def sheet(rows: str, extra: str = "") -> str:
    return (f'{DECLARATION}<worksheet xmlns="{MAIN_NS}" xmlns:r="{REL_NS}">'
            f"<sheetData>{rows}</sheetData>{extra}</worksheet>")


# B1 calls FIDE_DP, B2 ELO_EXPECTED; a conditional format and a validation call them too.
BASE_ROWS = ('<row r="1"><c r="A1"><v>0.65</v></c><c r="B1" s="1"><f>FIDE_DP(A1)</f><v>110</v></c></row>'
             '<row r="2"><c r="A2"><v>2000</v></c><c r="B2" s="1"><f>ELO_EXPECTED(A2,1800)</f>'
             '<v>0.76</v></c></row>')
BASE_EXTRA = ('<conditionalFormatting sqref="B1"><cfRule type="expression" dxfId="0" priority="1">'
              '<formula>FIDE_DP(A1)&gt;100</formula></cfRule></conditionalFormatting>'
              '<dataValidations count="1"><dataValidation type="custom" sqref="A2">'
              '<formula1>FIDE_K(A2,10)&gt;0</formula1></dataValidation></dataValidations>')


def lite_base(folder: Path, name: str = "base.xlsx", sheet_xml: str | None = None,
              extra: dict[str, str] | None = None, root_rels: str = "",
              types: str = "") -> Path:
    """The base workbook, with ``sheet_xml`` as its sheet and ``extra`` parts added."""
    members = {
        "[Content_Types].xml": (
            f'{DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            f"{types}</Types>"),
        "_rels/.rels": (
            f'{DECLARATION}<Relationships xmlns="{PKG_REL_NS}">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships/officeDocument" Target="xl/workbook.xml"/>{root_rels}</Relationships>'),
        "xl/workbook.xml": (
            f'{DECLARATION}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>'
            '<sheet name="Calc" sheetId="1" r:id="rId1"/></sheets><definedNames>'
            '<definedName name="Bonus">FIDE_DP(0.9)</definedName></definedNames>'
            '<calcPr calcId="191029"/></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'{DECLARATION}<Relationships xmlns="{PKG_REL_NS}">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
        "xl/worksheets/sheet1.xml": sheet_xml if sheet_xml is not None else sheet(BASE_ROWS, BASE_EXTRA),
    }
    members.update(extra or {})
    path = folder / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, text in members.items():
            archive.writestr(member, text.encode("utf-8"))
    return path


def _webextension(reference: str, properties: dict[str, str], guid: str) -> str:
    props = "".join(f'<we:property name="{n}" value="{v}"/>' for n, v in properties.items())
    return (f'{DECLARATION}<we:webextension xmlns:we="{WE_NS}" id="{guid}">'
            f'<we:reference id="{reference}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
            f'<we:alternateReferences/><we:properties>{props}</we:properties><we:bindings/>'
            f'<we:snapshot xmlns:r="{REL_NS}"/></we:webextension>')


def _with_extension(folder: Path, name: str, extension: str) -> Path:
    return lite_base(folder, name, extra={
        "xl/webextensions/webextension1.xml": extension,
        "xl/webextensions/taskpanes.xml": (
            f'{DECLARATION}<wetp:taskpanes xmlns:wetp="{WETP_NS}"><wetp:taskpane dockstate="right" '
            f'visibility="0" width="350" row="0"><wetp:webextensionref xmlns:r="{REL_NS}" r:id="rId1"/>'
            '</wetp:taskpane></wetp:taskpanes>'),
        "xl/webextensions/_rels/taskpanes.xml.rels": (
            f'{DECLARATION}<Relationships xmlns="{PKG_REL_NS}"><Relationship Id="rId1" '
            f'Type="{REL_WEBEXTENSION}" Target="webextension1.xml"/></Relationships>'),
    }, root_rels=f'<Relationship Id="rId2" Type="{REL_TASKPANES}" Target="xl/webextensions/taskpanes.xml"/>',
        types='<Override PartName="/xl/webextensions/taskpanes.xml" '
              'ContentType="application/vnd.ms-office.webextensiontaskpanes+xml"/>'
              '<Override PartName="/xl/webextensions/webextension1.xml" '
              'ContentType="application/vnd.ms-office.webextension+xml"/>')


def lite_other_addin(folder: Path) -> Path:
    """Another add-in's web extension in webextension1.xml, with its task pane."""
    return _with_extension(folder, "other-addin.xlsx", _webextension(
        OTHER_ADDIN, {"Office.AutoShowTaskpaneWithDocument": "true"},
        "{11111111-2222-4333-8444-555555555555}"))


OWN_MAIN = "import xlwings as xw\n\n@xw.func\ndef HELLO(name):\n    return f'Hello {name}!'\n"


def lite_own_code(folder: Path) -> Path:
    """A workbook saved with Lite, carrying its own main.py and requirements.txt."""
    def stored(text: str) -> str:
        return json.dumps(text).replace("/", "\\/").replace("&", "&amp;").replace('"', "&quot;") \
            .replace("<", "&lt;")
    return _with_extension(folder, "own-code.xlsx", _webextension("wa200008175", {
        "main.py": stored(OWN_MAIN), "requirements.txt": stored("xlwings==0.33.15\n"),
        "pyodideVersion": stored("0.27.5"), "addinVersion": stored("1.0.0.0-18")},
        "{AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE}"))


def lite_single_quotes(folder: Path) -> Path:
    """The base sheet with every attribute in single quotes, as some writers do."""
    rows = BASE_ROWS.replace('"', "'")
    return lite_base(folder, "single-quotes.xlsx", sheet_xml=sheet(rows).replace(
        f'xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"', f"xmlns='{MAIN_NS}' xmlns:r='{REL_NS}'"))


def lite_no_addresses(folder: Path) -> Path:
    """Cells and rows without ``r=`` (Excel counts them in order), a prefix on every tag,
    a '>' inside an attribute value."""
    rows = ('<x:row><x:c><x:v>0.65</x:v></x:c><x:c s="1" note="a>b"><x:f>FIDE_DP(A1)</x:f>'
            '<x:v>110</x:v></x:c></x:row>'
            '<x:row><x:c><x:v>0.9</x:v></x:c><x:c><x:v>1</x:v></x:c><x:c><x:f>fide_dp(A2)</x:f></x:c></x:row>')
    xml = (f'{DECLARATION}<x:worksheet xmlns:x="{MAIN_NS}"><x:sheetData>{rows}</x:sheetData>'
           '</x:worksheet>')
    return lite_base(folder, "no-addresses.xlsx", sheet_xml=xml)


def lite_malformed(folder: Path, size: int = 200_000) -> Path:
    """A sheet of about ``size`` bytes of cells that never close (the old rewrite's
    lazy patterns searched to the end from each one)."""
    cell = '<c r="B1"><f>FIDE_DP(A1)</f><v>1</v>'
    rows = '<row r="1">' + cell * (size // len(cell))
    return lite_base(folder, "malformed.xlsx", sheet_xml=sheet(rows))


def lite_dtd_entity(folder: Path) -> Path:
    """A sheet declaring an entity in a DTD and using it inside a formula."""
    xml = (f'{DECLARATION}<!DOCTYPE worksheet [<!ENTITY call "FIDE_DP(A1)">]>'
           f'<worksheet xmlns="{MAIN_NS}"><sheetData><row r="1"><c r="A1"><v>0.65</v></c>'
           '<c r="B1"><f>&call;</f></c></row></sheetData></worksheet>')
    return lite_base(folder, "dtd-entity.xlsx", sheet_xml=xml)


def lite_undefined_entity(folder: Path) -> Path:
    """An entity used inside a formula that nothing declares."""
    return lite_base(folder, "undefined-entity.xlsx", sheet_xml=sheet(
        '<row r="1"><c r="B1"><f>FIDE_DP(&nothing;)</f></c></row>'))


CORPUS: list[Callable[[Path], Path]] = [
    lite_base, lite_other_addin, lite_own_code, lite_single_quotes, lite_no_addresses,
    lite_malformed, lite_dtd_entity, lite_undefined_entity,
]


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    target.mkdir(parents=True, exist_ok=True)
    for build in CORPUS:
        print(build(target))
