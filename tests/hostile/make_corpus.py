"""Hostile and odd files for ``chessrating recalc`` and ``import-trf``, built on demand.

Each ``make_…`` function writes one file into a folder and returns its path. Workbooks
are written member by member with :mod:`zipfile`, so each holds exactly the XML a
hand-edited file or another program would (cells without ``r=``, a far cell, names,
a corrupt member); the zip bomb is written streamed, never held in memory.
Run as a script to write the whole corpus into a folder: ``python make_corpus.py DIR``.
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"

# A member nobody reads or rewrites: it must come back byte for byte.
BYSTANDER = ("docProps/custom-notes.xml", b'<?xml version="1.0"?><notes>keep \xc3\xa9 me</notes>')


def _content_types(sheets: int) -> bytes:
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{SHEET_TYPE}"/>'
        for i in range(1, sheets + 1))
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        f"{overrides}</Types>").encode()


def sheet_xml(rows: str) -> bytes:
    """A worksheet part around ``rows`` (the content of sheetData)."""
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f'<worksheet xmlns="{MAIN_NS}"><sheetData>{rows}</sheetData></worksheet>').encode()


def workbook(path: Path, sheets: dict[str, str], *, names: Iterable[tuple[str, str]] = (),
             calc_pr: str = '<calcPr calcId="124519" fullCalcOnLoad="1"/>',
             extra: Iterable[tuple[str, bytes]] = (BYSTANDER,)) -> Path:
    """An .xlsx with the given sheets ({title: sheetData content}) and defined names."""
    titles = list(sheets)
    defined = "".join(f'<definedName name="{n}">{text}</definedName>' for n, text in names)
    book = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f'<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>'
            + "".join(f'<sheet name="{t}" sheetId="{i}" r:id="rId{i}"/>'
                      for i, t in enumerate(titles, 1))
            + "</sheets>" + (f"<definedNames>{defined}</definedNames>" if defined else "")
            + calc_pr + "</workbook>").encode()
    rels = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="{PKG_REL_NS}">'
            + "".join(f'<Relationship Id="rId{i}" Type="{REL_NS}/worksheet" '
                      f'Target="worksheets/sheet{i}.xml"/>' for i in range(1, len(titles) + 1))
            + "</Relationships>").encode()
    root_rels = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="{PKG_REL_NS}">'
                 f'<Relationship Id="rId1" Type="{REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
                 "</Relationships>").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _content_types(len(titles)))
        z.writestr("_rels/.rels", root_rels)
        z.writestr("xl/workbook.xml", book)
        z.writestr("xl/_rels/workbook.xml.rels", rels)
        for i, title in enumerate(titles, 1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", sheet_xml(sheets[title]))
        for name, data in extra:
            z.writestr(name, data)
    return path


# -- recalc -------------------------------------------------------------------------
NO_R_ROWS = ('<row r="1"><c t="n"><v>5</v></c><c><f>A1*2</f></c>'
             '<c t="inlineStr"><is><t xml:space="preserve">keep me </t></is></c></row>'
             '<row><c><v>7</v></c><c s="0"><f>A2+1</f><v>0</v><extLst><ext uri="x"/></extLst></c>'
             '<c><f>B1+B2</f></c></row>'
             '<row r="4" spans="1:3"><c r="A4"><v>1</v></c><c><v>2</v></c><c r="C4"><f>A4+B4</f></c></row>')


def make_no_r(folder: Path) -> Path:
    """Cells and rows without the optional ``r=``: B1 = 10, B2 = 8, C2 = 18, C4 = 3."""
    return workbook(folder / "no-r.xlsx", {"Data": NO_R_ROWS})


def make_overflow(folder: Path) -> Path:
    """Two cells of 9e307 summed (legal in Excel, which shows #NUM!), with a chart of them."""
    import xlsxwriter
    path = folder / "overflow.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    sheet.write_number("A1", 9e307)
    sheet.write_number("A2", 9e307)
    sheet.write_formula("A3", "=SUM(A1:A2)")
    sheet.write_formula("B1", "=A1/1e307")
    chart = book.add_chart({"type": "column"})
    chart.add_series({"values": "=Data!$A$1:$A$3"})
    sheet.insert_chart("D2", chart)
    book.close()
    return path


def make_cycles(folder: Path) -> Path:
    """A self-reference (A1 = A1+1) and a three-cell cycle (B1 → C1 → D1 → B1); E1 is fine."""
    rows = ('<row r="1"><c r="A1"><f>A1+1</f></c><c r="B1"><f>C1+1</f></c>'
            '<c r="C1"><f>D1+1</f></c><c r="D1"><f>B1+1</f></c><c r="E1"><f>2*3</f></c></row>')
    return workbook(folder / "cycles.xlsx", {"Data": rows})


def make_far_cell(folder: Path) -> Path:
    """A few cells, one value at XFD1048576 and whole-column/whole-sheet references."""
    data = ('<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>'
            '<row r="3"><c r="A3"><v>3</v></c></row>'
            '<row r="1048576"><c r="XFD1048576"><v>4</v></c></row>')
    calc = ('<row r="1"><c r="A1"><f>SUM(Data!A:A)</f></c><c r="B1"><f>COUNT(Data!A:XFD)</f></c>'
            '<c r="C1"><f>SUM(Data!1:3)</f></c><c r="D1"><f>Data!XFD1048576*2</f></c></row>')
    return workbook(folder / "far-cell.xlsx", {"Data": data, "Calc": calc})


def make_name_bomb(folder: Path, levels: int = 20) -> Path:
    """Names each doubling the one before: twice20 is 2^20 times A1 (= 1)."""
    names = [("twice0", "Data!$A$1")] + [(f"twice{i}", f"twice{i - 1}+twice{i - 1}")
                                         for i in range(1, levels + 1)]
    rows = f'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>twice{levels}</f></c></row>'
    return workbook(folder / "name-bomb.xlsx", {"Data": rows}, names=names)


def make_deep_nesting(folder: Path, depth: int = 600) -> Path:
    """Formulas nested ``depth`` deep (parentheses, then function calls); C1 is plain."""
    parens = "(" * depth + "1" + ")" * depth
    calls = "ABS(" * depth + "1" + ")" * depth
    rows = (f'<row r="1"><c r="A1"><f>{parens}</f></c><c r="B1"><f>{calls}</f></c>'
            f'<c r="C1"><f>1+1</f></c></row>')
    return workbook(folder / "deep.xlsx", {"Data": rows})


def make_plain(folder: Path, name: str = "plain.xlsx") -> Path:
    """A small sound workbook: A1 = 2, B1 = A1*21 (42)."""
    return workbook(folder / name, {"Data": '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*21</f></c></row>'})


def make_zip_bomb(folder: Path, size: int = 1536 << 20) -> Path:
    """A sound workbook whose sheet expands to ``size`` bytes (~1.5 MB packed), written
    streamed in 1 MB chunks of blanks after the sheet's real XML."""
    path = make_plain(folder, "zip-bomb.xlsx")
    with zipfile.ZipFile(path) as z:
        members = [(info, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in members:
            if info.filename != "xl/worksheets/sheet1.xml":
                z.writestr(info, data)
                continue
            bomb = zipfile.ZipInfo(info.filename, info.date_time)
            bomb.compress_type = zipfile.ZIP_DEFLATED
            with z.open(bomb, "w", force_zip64=True) as out:
                out.write(data)
                chunk = b" " * (1 << 20)
                for _ in range(size >> 20):
                    out.write(chunk)
    return path


def make_corrupt(folder: Path, member: str = BYSTANDER[0], name: str = "corrupt.xlsx") -> Path:
    """A sound workbook whose ``member``'s packed bytes are damaged (a member openpyxl
    never reads, by default)."""
    path = make_plain(folder, name)
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    raw = bytearray(path.read_bytes())
    name_length = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little")
    extra_length = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
    start = info.header_offset + 30 + name_length + extra_length
    for at in range(start, start + info.compress_size):
        raw[at] ^= 0x5A
    path.write_bytes(bytes(raw))
    return path


# -- import-trf -----------------------------------------------------------------------
def trf_player(number: int, name: str, rating: int, games: list[tuple[int, str, str]],
               points: float) -> str:
    """A 001 line in the TRF16 columns; ``games`` is (opponent, colour, result) per round."""
    line = (f"001 {number:>4} m    {name:<33} {rating:>4} GER {100000 + number:>11} 1990/01/01 "
            f"{points:>4.1f} {number:>4}")
    for opponent, colour, result in games:
        line += f"  {opponent:>4} {colour} {result}"
    return line


def round_robin_pairs(players: int, rounds: int) -> list[list[tuple[int, int]]]:
    """The circle method's pairings (1-based) for ``rounds`` rounds of an even field."""
    numbers = list(range(1, players + 1))
    schedule = []
    for _ in range(rounds):
        schedule.append([(numbers[i], numbers[-1 - i]) for i in range(players // 2)])
        numbers = [numbers[0], numbers[-1], *numbers[1:-1]]
    return schedule


def swiss_trf(players: int = 8, rounds: int = 7, *, headers: Iterable[str] = (),
              numbers: dict[int, int] | None = None, tail: dict[int, str] | None = None) -> str:
    """A consistent TRF event: the white player wins every game. ``numbers`` renames
    starting numbers (old → new), ``tail`` appends text to a player's line."""
    games: dict[int, list[tuple[int, str, str]]] = {n: [] for n in range(1, players + 1)}
    for pairs in round_robin_pairs(players, rounds):
        for white, black in pairs:
            games[white].append((black, "w", "1"))
            games[black].append((white, "b", "0"))
    rename = numbers or {}
    lines = ["012 Hostile Open", "042 2024/03/01", *headers]
    for n in range(1, players + 1):
        points = sum(1.0 for _, _, r in games[n] if r == "1")
        moved = [(rename.get(o, o), c, r) for o, c, r in games[n]]
        line = trf_player(rename.get(n, n), f"Player {n:03d}", 1500 + 10 * n, moved, points)
        lines.append(line + (tail or {}).get(n, ""))
    return "\r\n".join(lines) + "\r\n"


def make_trf_control(folder: Path) -> Path:
    """Control characters in header records: ``062 \\x1e2``, ``142 \\x1f7``, ``012`` too."""
    text = swiss_trf(headers=["062 \x1e2", "072 \x1c8", "142 \x1f7", "092 Swiss\x00\x07"])
    path = folder / "control.trf"
    path.write_text(text.replace("012 Hostile Open", "012 Hostile\x1e Open"), encoding="utf-8")
    return path


def make_trf_huge_line(folder: Path, size: int = 10 << 20) -> Path:
    """A 10 MB player line: junk after the last round, in the round columns."""
    path = folder / "huge-line.trf"
    path.write_text(swiss_trf(tail={3: "  " + "x" * size}), encoding="utf-8")
    return path


def make_trf_stray_number(folder: Path) -> Path:
    """55 players, the last with starting number 959."""
    path = folder / "stray-number.trf"
    path.write_text(swiss_trf(56, 5, numbers={56: 959}), encoding="utf-8")
    return path


def make_trf_disagreeing_header(folder: Path) -> Path:
    """``142 31`` for a Swiss event (10 players) whose results fill 7 rounds."""
    path = folder / "header-31.trf"
    path.write_text(swiss_trf(10, 7, headers=["142 31"]), encoding="utf-8")
    return path


CORPUS: dict[str, Callable[[Path], Path]] = {
    name.removeprefix("make_"): fn for name, fn in list(globals().items())
    if name.startswith("make_") and callable(fn)
}

if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-corpus")
    target.mkdir(parents=True, exist_ok=True)
    for build in CORPUS.values():
        print(build(target))
