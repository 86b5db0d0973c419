"""Hostile workbooks for the formula engine (``xlrecalc``), each a few kilobytes built on
demand with :mod:`zipfile` around :func:`make_corpus.workbook`: out-of-range indexes,
text that only Python reads as a number, a blocked spill, text past Excel's limit, a
macro workbook under the wrong name, ranges over a whole sheet, a deep chain of names,
an encrypted workbook, a reference to another workbook and a workbook part elsewhere.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

from make_corpus import MAIN_NS, REL_NS, workbook

SHARED_STRINGS = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN_NS}" count="2" '
                  'uniqueCount="2"><si><t>first</t></si><si><t>last</t></si></sst>').encode()


def rewrite(path: Path, change) -> Path:
    """Rewrite the zip at ``path`` with ``change({name: bytes})``'s members, in order."""
    with zipfile.ZipFile(path) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    members = change(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _relate(members: dict[str, bytes], kind: str, target: str, content_type: str) -> None:
    """A part of the workbook: its relationship and its content type."""
    types = "[Content_Types].xml"
    members[types] = members[types].replace(
        b"</Types>", f'<Override PartName="/xl/{target}" ContentType="{content_type}"/></Types>'.encode())
    rels = "xl/_rels/workbook.xml.rels"
    # the macro project's relationship type is Microsoft's, the others ECMA-376's
    kind_ns = "http://schemas.microsoft.com/office/2006/relationships" if kind == "vbaProject" else REL_NS
    members[rels] = members[rels].replace(
        b"</Relationships>",
        f'<Relationship Id="rId90" Type="{kind_ns}/{kind}" Target="{target}"/></Relationships>'.encode())


def make_shared_string(folder: Path, index: str) -> Path:
    """A1 names shared string ``index`` of a table of two ("first", "last"); B1 = A1&"!"."""
    rows = (f'<row r="1"><c r="A1" t="s"><v>{index}</v></c>'
            '<c r="B1"><f>A1&amp;"!"</f></c></row>')
    path = workbook(folder / "shared-string.xlsx", {"Data": rows},
                    extra=[("xl/sharedStrings.xml", SHARED_STRINGS)])

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        _relate(members, "sharedStrings", "sharedStrings.xml",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml")
        return members
    return rewrite(path, change)


def make_local_name(folder: Path, sheet_id: str) -> Path:
    """A name ``two`` (Data!$A$1) scoped to sheet index ``sheet_id`` of a one-sheet book."""
    rows = '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>two*2</f></c></row>'
    path = workbook(folder / "local-name.xlsx", {"Data": rows})

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        members["xl/workbook.xml"] = members["xl/workbook.xml"].replace(
            b"</sheets>", f'</sheets><definedNames><definedName name="two" localSheetId='
                          f'"{sheet_id}">Data!$A$1</definedName></definedNames>'.encode())
        return members
    return rewrite(path, change)


def make_python_numbers(folder: Path) -> Path:
    """Text only Python reads as a number, in cells a formula adds 0 to: ``1_000`` and
    full-width digits (B1, B2), and a plain ``abc`` (B3)."""
    texts = ["1_000", "\uff11\uff12", "abc"]
    rows = "".join(f'<row r="{i}"><c r="A{i}" t="inlineStr"><is><t>{t}</t></is></c>'
                   f'<c r="B{i}"><f>A{i}+0</f></c><c r="C{i}"><f>VALUE(A{i})</f></c></row>'
                   for i, t in enumerate(texts, 1))
    return workbook(folder / "python-numbers.xlsx", {"Data": rows})


def make_number_cell(folder: Path, text: str) -> Path:
    """A number cell (no ``t=``) whose ``<v>`` is ``text``; B1 = A1+1."""
    rows = f'<row r="1"><c r="A1"><v>{text}</v></c><c r="B1"><f>A1+1</f></c></row>'
    return workbook(folder / "number-cell.xlsx", {"Data": rows})


def make_long_texts(folder: Path, length: int = 32_760) -> Path:
    """A1 holds ``length`` x's (within Excel's 32,767); B1 = DATEVALUE(A1), whose
    message quotes it past the limit; C1 = LONG(A1), an add-in function failing with a
    message quoting it; D1 = REPT of 20,000 emoji, 40,000 UTF-16 units (Excel's count)."""
    rows = (f'<row r="1"><c r="A1" t="inlineStr"><is><t>{"x" * length}</t></is></c>'
            '<c r="B1"><f>DATEVALUE(A1)</f></c><c r="C1"><f>LONG(A1)</f></c>'
            '<c r="D1"><f>REPT("\U0001F600",20000)</f></c></row>')
    return workbook(folder / "long-texts.xlsx", {"Data": rows})


MACRO_WORKBOOK = "application/vnd.ms-excel.sheet.macroEnabled.main+xml"
PLAIN_WORKBOOK = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


def make_macro_named_xlsx(folder: Path, name: str = "macros.xlsx", macros: bool = True) -> Path:
    """A macro workbook (its workbook part typed macroEnabled, a vbaProject.bin) under
    ``name``; ``macros=False`` gives a plain workbook. A1 = 2, B1 = A1*21."""
    rows = '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*21</f></c></row>'
    path = workbook(folder / name, {"Data": rows})
    if not macros:
        return path

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        types = "[Content_Types].xml"
        members[types] = members[types].replace(PLAIN_WORKBOOK.encode(), MACRO_WORKBOOK.encode())
        members["xl/vbaProject.bin"] = b"\xd0\xcf\x11\xe0 not a real project"
        _relate(members, "vbaProject", "vbaProject.bin", "application/vnd.ms-office.vbaProject")
        return members
    return rewrite(path, change)


def compound_file(path: Path, streams: list[str]) -> Path:
    """An OLE compound file (MS-CFB, version 3, 512-byte sectors) whose directory holds
    empty ``streams``: a header, one FAT sector, then directory sectors."""
    entries = [("Root Entry", 5)] + [(name, 2) for name in streams]
    directory = b""
    for i, (name, kind) in enumerate(entries):
        encoded = (name + "\0").encode("utf-16-le")
        child = 1 if kind == 5 and len(entries) > 1 else 0xFFFFFFFF
        # the streams chained as right siblings: a tree degenerate but valid
        right = i + 1 if kind == 2 and i + 1 < len(entries) else 0xFFFFFFFF
        directory += (encoded.ljust(64, b"\0") + struct.pack("<HBB", len(encoded), kind, 1)
                      + struct.pack("<III", 0xFFFFFFFF, right, child) + bytes(16 + 4 + 16)
                      + struct.pack("<IQ", 0xFFFFFFFE, 0))
    directory = directory.ljust(-(-len(directory) // 512) * 512, b"\0")
    dir_sectors = len(directory) // 512
    fat = [0xFFFFFFFD] + [n + 1 for n in range(1, dir_sectors)] + [0xFFFFFFFE]
    fat_sector = b"".join(struct.pack("<I", n) for n in fat).ljust(512, b"\xff")
    header = (bytes.fromhex("d0cf11e0a1b11ae1") + bytes(16)
              + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + bytes(6)
              + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
              + struct.pack("<I", 0) + b"\xff" * (109 * 4 - 4))
    assert len(header) == 512
    path.write_bytes(header + fat_sector + directory)
    return path


def make_encrypted(folder: Path) -> Path:
    """What Excel saves a workbook protected by a password to open as (MS-OFFCRYPTO)."""
    return compound_file(folder / "secret.xlsx", ["EncryptionInfo", "EncryptedPackage",
                                                   "\x06DataSpaces"])


def make_legacy_xls(folder: Path) -> Path:
    """An Excel 97-2003 workbook's container, renamed .xlsx."""
    return compound_file(folder / "old.xlsx", ["Workbook", "\x05SummaryInformation"])


def make_workbook_elsewhere(folder: Path) -> Path:
    """A package whose workbook part is book/main.xml, its sheets in book/sheets/: the
    package relationship (_rels/.rels) names it, as OPC allows. A1 = 2, B1 = A1*21."""
    rows = '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*21</f></c></row>'
    path = workbook(folder / "elsewhere.xlsx", {"Data": rows})

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        moved = {"xl/workbook.xml": "book/main.xml",
                 "xl/_rels/workbook.xml.rels": "book/_rels/main.xml.rels",
                 "xl/worksheets/sheet1.xml": "book/sheets/data.xml"}
        out = {moved.get(name, name): data for name, data in members.items()}
        out["_rels/.rels"] = out["_rels/.rels"].replace(b"xl/workbook.xml", b"book/main.xml")
        out["book/_rels/main.xml.rels"] = out["book/_rels/main.xml.rels"].replace(
            b"worksheets/sheet1.xml", b"sheets/data.xml")
        out["[Content_Types].xml"] = out["[Content_Types].xml"].replace(
            b"/xl/workbook.xml", b"/book/main.xml").replace(
            b"/xl/worksheets/sheet1.xml", b"/book/sheets/data.xml")
        return out
    return rewrite(path, change)


def make_unwritable_sheet(folder: Path, how: str) -> Path:
    """A sheet whose formula calls SPY(), in UTF-16 (``how="utf-16"``) or declaring a
    document type (``how="doctype"``): parts the writer refuses to patch."""
    rows = '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>SPY()</f></c></row>'
    path = workbook(folder / f"{how}.xlsx", {"Data": rows})

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        sheet = members["xl/worksheets/sheet1.xml"].decode()
        if how == "utf-16":
            members["xl/worksheets/sheet1.xml"] = sheet.replace(
                'encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
        else:
            members["xl/worksheets/sheet1.xml"] = sheet.replace(
                "<worksheet ", '<!DOCTYPE worksheet [<!ENTITY two "2">]><worksheet ').encode()
        return members
    return rewrite(path, change)


def make_external_link(folder: Path) -> Path:
    """A1 reads another workbook (``[1]Sheet1!A1+1``) and holds Excel's value 5; B1 =
    A1*2; C1 reads it too (``'[1]My Sheet'!A1``) with no value cached; D1 = C1+1."""
    rows = ('<row r="1"><c r="A1"><f>[1]Sheet1!A1+1</f><v>5</v></c><c r="B1"><f>A1*2</f></c>'
            "<c r=\"C1\"><f>'[1]My Sheet'!A1</f></c><c r=\"D1\"><f>C1+1</f></c></row>")
    return workbook(folder / "linked.xlsx", {"Data": rows})


def make_whole_sheet_array(folder: Path) -> Path:
    """A legacy array formula over the whole sheet, ``<f t="array" ref="A1:XFD1048576">``
    (17 billion cells) at Calc!A1 reading Data!A1 (= 1) times 2; the file holds two
    more cells of its range, B1 and A3. Other!A1 sums Data's whole sheet times 3 in an
    array formula."""
    calc = ('<row r="1"><c r="A1"><f t="array" ref="A1:XFD1048576">Data!A1*2</f></c>'
            '<c r="B1"><v>0</v></c></row><row r="3"><c r="A3"><v>0</v></c></row>')
    other = '<row r="1"><c r="A1"><f t="array" ref="A1">SUM(Data!A1:XFD1048576*3)</f></c></row>'
    return workbook(folder / "whole-sheet.xlsx", {"Data": '<row r="1"><c r="A1"><v>1</v></c></row>',
                                                   "Calc": calc, "Other": other})


def make_name_chain(folder: Path, length: int) -> Path:
    """Names each adding 1 to the one before, ``length`` deep: B1 = chain_{length-1},
    which is ``length`` when A1 = 1."""
    names = [("chain_0", "Data!$A$1")] + [(f"chain_{i}", f"chain_{i - 1}+1")
                                          for i in range(1, length)]
    rows = f'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>chain_{length - 1}</f></c></row>'
    return workbook(folder / f"name-chain-{length}.xlsx", {"Data": rows}, names=names)


DYNAMIC_METADATA = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><metadata xmlns="{MAIN_NS}" '
    'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
    '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" '
    'pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" '
    'clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
    '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-'
    '3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst>'
    '</bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
    '</metadata>').encode()


def make_blocked_spill(folder: Path) -> Path:
    """Dynamic array formulas as Excel 365 writes them (``cm="1"``, xl/metadata.xml):
    A1 = SEQUENCE(3) with A2 holding 5 in its way (Excel's file: ref="A1", #SPILL!);
    C1 = SEQUENCE(2) with C2 free; E1 = SEQUENCE(1,2) whose F1 holds a formula; G1 =
    SEQUENCE(2) as a legacy array formula (no cm) over G1 alone, with G2 holding 7; H1 =
    SEQUENCE(1) that spilled over H1:H2 before, and I1 = Data!C1:C2 over I1:I3."""
    rows = ('<row r="1">'
            '<c r="A1" cm="1" t="e"><f t="array" ref="A1">SEQUENCE(3)</f><v>#SPILL!</v></c>'
            '<c r="C1" cm="1"><f t="array" ref="C1:C2">SEQUENCE(2)</f><v>1</v></c>'
            '<c r="E1" cm="1" t="e"><f t="array" ref="E1">SEQUENCE(1,2)</f><v>#SPILL!</v></c>'
            '<c r="F1"><f>1+1</f><v>2</v></c>'
            '<c r="G1"><f t="array" ref="G1">SEQUENCE(2)</f><v>1</v></c>'
            '<c r="H1" cm="1"><f t="array" ref="H1:H2">SEQUENCE(1)</f><v>1</v></c>'
            '<c r="I1" cm="1"><f t="array" ref="I1:I3">Data!C1:C2</f><v>1</v></c></row>'
            '<row r="2"><c r="A2"><v>5</v></c><c r="C2"><v>2</v></c><c r="G2"><v>7</v></c>'
            '<c r="H2"><v>2</v></c><c r="I2"><v>2</v></c></row><row r="3"><c r="I3"><v>3</v></c></row>')
    return dynamic_array_book(folder / "spill.xlsx", {"Data": rows})


def dynamic_array_book(path: Path, sheets: dict[str, str]) -> Path:
    """A workbook of Excel 365 (:func:`make_corpus.workbook`) whose ``xl/metadata.xml``
    makes ``cm="1"`` mark a dynamic array formula, as Excel writes it."""
    workbook(path, sheets, extra=[("xl/metadata.xml", DYNAMIC_METADATA)])

    def change(members: dict[str, bytes]) -> dict[str, bytes]:
        _relate(members, "sheetMetadata", "metadata.xml",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml")
        return members
    return rewrite(path, change)


def make_many_whole_sheet_arrays(folder: Path, count: int = 20_000) -> Path:
    """``count`` legacy array formulas, row i's over A{i}:XFD1048576, each ``=1``: ranges
    overlapping as no file Excel wrote has them (the first takes every cell held)."""
    rows = "".join(f'<row r="{i}"><c r="A{i}"><f t="array" ref="A{i}:XFD1048576">1</f></c></row>'
                   for i in range(1, count + 1))
    return workbook(folder / "many-arrays.xlsx", {"Data": rows})


def make_column_array(folder: Path) -> Path:
    """One legacy array formula over a whole column, B1:B1048576 = ROW(B1:B1048576)*2,
    in a file that holds its first cell only."""
    rows = '<row r="1"><c r="B1"><f t="array" ref="B1:B1048576">ROW(B1:B1048576)*2</f></c></row>'
    return workbook(folder / "column-array.xlsx", {"Data": rows})


def make_many_names(folder: Path, count: int = 1_500_000) -> Path:
    """``count`` defined names (name_0 … each Data!$A$1), 4 MB packed: B1 = name_7+1 = 2."""
    names = [(f"name_{i}", "Data!$A$1") for i in range(count)]
    rows = '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>name_7+1</f></c></row>'
    return workbook(folder / "many-names.xlsx", {"Data": rows}, names=names)


def make_lambda_chain(folder: Path, length: int) -> Path:
    """LAMBDA names each calling the one before and adding 1, ``length`` deep: B1 =
    fn_{length-1}(A1), which is ``length`` when A1 = 1."""
    names = [("fn_0", "LAMBDA(x,x)")] + [(f"fn_{i}", f"LAMBDA(x,fn_{i - 1}(x)+1)")
                                         for i in range(1, length)]
    rows = f'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>fn_{length - 1}(A1)</f></c></row>'
    return workbook(folder / f"lambda-chain-{length}.xlsx", {"Data": rows}, names=names)


def make_cell_chain(folder: Path, length: int = 150_000) -> Path:
    """A column of ``length`` cells each adding 1 to the cell below (A1 = A2+1 …), the
    last holding 1: a chain deeper than the engine follows, so every cell of it is in
    error and the error report traces each."""
    rows = "".join(f'<row r="{i}"><c r="A{i}"><f>A{i + 1}+1</f></c></row>' for i in range(1, length))
    rows += f'<row r="{length}"><c r="A{length}"><v>1</v></c></row>'
    return workbook(folder / "cell-chain.xlsx", {"Data": rows})
