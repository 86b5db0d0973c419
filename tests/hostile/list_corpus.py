"""Hostile and odd FIDE rating lists, and workbooks, for ``chessrating fide-list`` and
``import-trf --fide-list`` (and ``export-trf``, which reads workbooks as ``--fill`` does).

Each ``make_…`` function writes one file into a folder and returns its path. The lists
are FIDE's combined TXT layout (:data:`COMBINED_HEADER`) for the players of
:func:`make_corpus.swiss_trf` (FIDE IDs 100001 …), each line written by
:func:`chessrating.trf.fidelist.list_line`, then damaged as a download, an editor or a
hand-made file damages one. The zips are written member by member: the bombs as raw
Deflate blocks, one block compressed once and repeated (a 2 GB member costs seconds to
write and never exists unpacked), the encrypted one with the traditional PKWARE cipher
(APPNOTE 6.1), the Deflate64 one as Huffman-only blocks (valid Deflate64: no match uses
what Deflate64 changed). Workbooks with a stray far cell, a name over a whole sheet or
FIDE IDs typed as text are made from a workbook ``import-trf`` wrote.
Run as a script to write the lists into a folder: ``python list_corpus.py DIR`` (the dense
ones, half a minute each to write, are left to ``benchmarks/hostile_list.py --big``).
"""

from __future__ import annotations

import re
import struct
import sys
import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "addin"))
import make_corpus  # noqa: E402

from chessrating.trf.fidelist import COMBINED_HEADER, list_line  # noqa: E402

MEMBER = "players_list_foa.txt"
GB = 1 << 30
MB = 1 << 20


def player_line(n: int, **changes: object) -> str:
    """The list's line of the TRF's player ``n`` (FIDE ID 100000 + n): rated 2000 + n,
    K 20, rapid 1900 + n, born 1990."""
    values: dict = dict(fide_id=100000 + n, name=f"Listed, Player {n:03d}", federation="NOR",
                        sex="M" if n % 2 else "F", title="FM" if n == 1 else "",
                        standard=(2000 + n, 3, 20), rapid=(1900 + n, 0, 20), birth_year=1990)
    values.update(changes)
    return list_line(**values)  # type: ignore[arg-type]


def list_text(lines: Iterable[str], end: str = "\r\n") -> str:
    return end.join([COMBINED_HEADER, *lines]) + end


def sound_lines(players: int = 8) -> list[str]:
    return [player_line(n) for n in range(1, players + 1)]


def _write_list(path: Path, text: str | bytes) -> Path:
    data = text.encode("utf-8") if isinstance(text, str) else text
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(MEMBER, data)
    else:
        path.write_bytes(data)
    return path


def make_sound_list(folder: Path, players: int = 8) -> Path:
    """The eight players of the TRF, as FIDE's zip holds them."""
    return _write_list(folder / "players_list.zip", list_text(sound_lines(players)))


# -- damaged lines ----------------------------------------------------------------------
def make_cut_list(folder: Path) -> Path:
    """An interrupted download: the unzipped list's last line (player 8) stops after its
    standard rating, with no line end (nothing past it: rapid, K, birth year)."""
    lines = sound_lines()
    lines[-1] = lines[-1][:118]
    return _write_list(folder / "players_list_foa.txt", list_text(lines).removesuffix("\r\n"))


# player -> (what the line says instead, a word of the reason the reader must give)
DAMAGE: dict[int, tuple[str, str]] = {
    2: ("rating 28x7", "not a number"),
    3: ("no federation", "not a federation"),
    4: ("rating and games run together", "run together"),
    5: ("other titles running into the rating", "run together"),
    6: ("sex Q", "not M or F"),
    7: ("no name", "no name"),
    8: ("two lines run together (no line end between them)", "not a flag"),
}


def _damaged(n: int, line: str) -> str:
    if n == 2:
        return line[:113] + " 28x7" + line[118:]
    if n == 3:
        return line[:76] + "   " + line[79:]
    if n == 4:
        return line[:113] + "  20023333" + line[123:]  # 2002 and 3333 games: whose digits?
    if n == 5:
        return line[:94] + "IA,FA,FST,DI,IO,SI,XXXXX" + line[118:]  # into SRtng
    if n == 6:
        return line[:80] + "Q" + line[81:]
    if n == 7:
        return line[:15] + " " * 61 + line[76:]
    return line + "   " + player_line(9)  # the next line joined on
    # (n == 8)


def make_damaged_lines(folder: Path) -> Path:
    """Player 1 sound; players 2-8 each damaged as :data:`DAMAGE` says."""
    lines = [player_line(1)] + [_damaged(n, player_line(n)) for n in range(2, 9)]
    return _write_list(folder / "players_list.zip", list_text(lines))


def make_twice_listed(folder: Path) -> Path:
    """Player 3's FIDE ID on two lines (lines 4 and 10), the second another person."""
    lines = sound_lines() + [player_line(3, name="Other, Person", federation="SWE",
                                         standard=(1500, 0, 40), birth_year=2010)]
    return _write_list(folder / "players_list.zip", list_text(lines))


def make_cut_zip(folder: Path) -> Path:
    """An interrupted download of the zip itself: its first half, no directory."""
    path = make_sound_list(folder)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    return path


def make_damaged_zip(folder: Path) -> Path:
    """A zip whose list member's packed bytes are damaged (CRC and Deflate fail)."""
    path = make_sound_list(folder, players=400)
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(MEMBER)
    raw = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for at in range(start + info.compress_size // 2, start + info.compress_size // 2 + 64):
        raw[at] ^= 0x5A
    path.write_bytes(bytes(raw))
    return path


# -- raw zips: bombs, encryption, Deflate64 ---------------------------------------------
def _deflated(data: bytes, *, last: bool = False, strategy: int = zlib.Z_DEFAULT_STRATEGY) -> bytes:
    """Raw Deflate blocks of ``data`` that refer to nothing before them and end on a byte
    (a full flush), so copies of them can follow one another; ``last`` closes the stream."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, strategy)
    out = packer.compress(data) + packer.flush(zlib.Z_FULL_FLUSH)
    return out + packer.flush(zlib.Z_FINISH) if last else out


def _raw_zip(path: Path, name: str, pieces: list[tuple[bytes, bytes, int]], *, method: int = 8,
             flags: int = 0, crc: int | None = None) -> Path:
    """A zip of one member written from ``pieces`` (plain bytes, packed bytes, times
    repeated): sizes and CRC computed from them, so the directory tells the truth."""
    size = sum(len(plain) * times for plain, _, times in pieces)
    packed = sum(len(data) * times for _, data, times in pieces)
    if crc is None:
        crc = 0
        for plain, _, times in pieces:
            for _ in range(times):
                crc = zlib.crc32(plain, crc)
    encoded = name.encode()
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, packed,
                        size, len(encoded), 0) + encoded
    with open(path, "wb") as out:
        out.write(local)
        for _, data, times in pieces:
            for _ in range(times):
                out.write(data)
        directory = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc,
                                packed, size, len(encoded), 0, 0, 0, 0, 0, 0) + encoded
        offset = len(local) + packed
        out.write(directory)
        out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(directory), offset, 0))
    return path


def _bomb(path: Path, head: bytes, unit: bytes, size: int, name: str = MEMBER) -> Path:
    """A member of ``head`` then ``unit`` repeated to about ``size`` bytes."""
    chunk = unit * max(1, MB // len(unit))
    return _raw_zip(path, name, [(head, _deflated(head), 1),
                                 (chunk, _deflated(chunk), max(1, size // len(chunk))),
                                 (b"", _deflated(b"", last=True), 1)])


def make_bomb_one_line(folder: Path, size: int = 2 * GB) -> Path:
    """The header, then one line of ``size`` blanks (about 2 MB packed)."""
    return _bomb(folder / "bomb-one-line.zip", (COMBINED_HEADER + "\r\n").encode(), b" ", size)


def make_bomb_lines(folder: Path, size: int = 1 * GB) -> Path:
    """The header, then one sound line repeated to ``size`` bytes (4.3 MB packed; a FIDE
    ID no one asks for: every line must be read, none kept)."""
    line = (player_line(900) + "\r\n").encode()
    return _bomb(folder / "bomb-lines.zip", (COMBINED_HEADER + "\r\n").encode(), line, size)


def make_bomb_blank_lines(folder: Path, size: int = 2 * GB) -> Path:
    """The header, then ``size`` bytes of empty lines."""
    return _bomb(folder / "bomb-blank-lines.zip", (COMBINED_HEADER + "\r\n").encode(), b"\r\n", size)


def make_bomb_xml(folder: Path, size: int = 1 * GB) -> Path:
    """The XML list: one player element repeated to ``size`` bytes (4.3 MB packed)."""
    head = b'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n'
    player = (b"<player><fideid>900</fideid><name>Same, Again</name><country>NOR</country>"
              b"<sex>M</sex><rating>2000</rating><rapid_rating>0</rapid_rating></player>\n")
    return _bomb(folder / "players_list_xml_bomb.zip", head, player, size,
                 name="players_list_xml_foa.xml")


def make_long_line(folder: Path, size: int = 15 * MB) -> Path:
    """A zip under the ratio check: the header, then one line of ``size`` blanks."""
    return _bomb(folder / "long-line.zip", (COMBINED_HEADER + "\r\n").encode(), b" ", size)


def make_blank_lines(folder: Path, size: int = 15 * MB) -> Path:
    """A zip under the ratio check: the header, then ``size`` bytes of empty lines."""
    return _bomb(folder / "blank-lines.zip", (COMBINED_HEADER + "\r\n").encode(), b"\r\n", size)


def make_many_members(folder: Path, members: int = 40_000) -> Path:
    """The list and ``members`` empty files beside it (3.6 MB)."""
    path = folder / "many-members.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr(MEMBER, list_text(sound_lines()))
        for n in range(members):
            z.writestr(f"d/{n}", b"")
    return path


def _pkware_encrypted(data: bytes, password: bytes, check: int) -> bytes:
    """``data`` under the traditional PKWARE cipher (APPNOTE 6.1), after its 12-byte
    header whose last byte is ``check`` (the CRC's high byte)."""
    keys = [0x12345678, 0x23456789, 0x34567890]

    def crc(value: int, byte: int) -> int:
        return zlib.crc32(bytes([byte]), value ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    def update(byte: int) -> None:
        keys[0] = crc(keys[0], byte)
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        keys[2] = crc(keys[2], keys[1] >> 24)

    for byte in password:
        update(byte)
    out = bytearray()
    for byte in bytes(range(11)) + bytes([check]) + data:
        temp = (keys[2] | 2) & 0xFFFF
        out.append(byte ^ (((temp * (temp ^ 1)) >> 8) & 0xFF))
        update(byte)
    return bytes(out)


def make_encrypted_zip(folder: Path) -> Path:
    """The list, encrypted with the password ``fide`` (as an archiver's "protect")."""
    plain = list_text(sound_lines()).encode()
    crc = zlib.crc32(plain)
    packed = _pkware_encrypted(_deflated(plain, last=True), b"fide", crc >> 24)
    return _raw_zip(folder / "encrypted.zip", MEMBER, [(plain, packed, 1)], flags=0x1, crc=crc)


def make_deflate64_zip(folder: Path) -> Path:
    """The list packed with Deflate64 (method 9, as Windows packs files past 2 GB)."""
    plain = list_text(sound_lines()).encode()
    packed = _deflated(plain, last=True, strategy=zlib.Z_HUFFMAN_ONLY)
    return _raw_zip(folder / "deflate64.zip", MEMBER, [(plain, packed, 1)], method=9)


# -- XML ----------------------------------------------------------------------------------
def make_xml_entities(folder: Path, levels: int = 9) -> Path:
    """A document type declaring entities of ten times the one before ("billion laughs")."""
    entities = '<!ENTITY e0 "laugh">' + "".join(
        f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10}">' for i in range(1, levels + 1))
    text = (f'<?xml version="1.0"?><!DOCTYPE playerslist [{entities}]><playerslist><player>'
            f"<fideid>100001</fideid><name>&e{levels};</name><country>NOR</country>"
            "<sex>M</sex><rating>2000</rating><rapid_rating>0</rapid_rating></player></playerslist>")
    path = folder / "players_list_xml_foa.xml"
    path.write_text(text, encoding="utf-8")
    return path


def make_xml_long_field(folder: Path, size: int = 15 * MB) -> Path:
    """Player 100001's name ``size`` characters long, then player 100002 sound."""
    head = b'<?xml version="1.0"?><playerslist><player><fideid>100001</fideid><name>'
    tail = (b"</name><country>NOR</country><sex>M</sex><rating>2001</rating>"
            b"<rapid_rating>0</rapid_rating></player><player><fideid>100002</fideid>"
            b"<name>Listed, Player 002</name><country>NOR</country><sex>F</sex>"
            b"<rating>2002</rating><rapid_rating>0</rapid_rating></player></playerslist>")
    chunk = b"x" * MB
    return _raw_zip(folder / "players_list_xml.zip", "players_list_xml_foa.xml",
                    [(head, _deflated(head), 1), (chunk, _deflated(chunk), size // MB),
                     (tail, _deflated(tail, last=True), 1)])


def make_xml_nested(folder: Path, size: int = 15 * MB) -> Path:
    """Elements that are not players, ``size`` bytes of them."""
    return _bomb(folder / "players_list_xml_nested.zip", b'<?xml version="1.0"?><playerslist>',
                 b"<x/>", size, name="players_list_xml_foa.xml")


# -- workbooks (made from one import-trf wrote) ---------------------------------------
def _with_member(book: Path, path: Path, change: Callable[[str, bytes], bytes]) -> Path:
    """A copy of ``book`` with each member passed through ``change(name, data)``."""
    with zipfile.ZipFile(book) as z, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            out.writestr(info, change(info.filename, z.read(info)))
    return path


def sheet_part(book: Path, title: str) -> str:
    """The zip member of the sheet named ``title``."""
    import xml.etree.ElementTree as ET
    with zipfile.ZipFile(book) as z:
        root = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    rid = next(s.get(f"{{{make_corpus.REL_NS}}}id") for s in root.iter(f"{{{make_corpus.MAIN_NS}}}sheet")
               if s.get("name") == title)
    target = next(r.get("Target") for r in rels if r.get("Id") == rid)
    return "xl/" + target.removeprefix("/xl/") if not target.startswith("/") else target[1:]


def make_stray_cell_book(folder: Path, book: Path, sheet: str = "Crosstable") -> Path:
    """``book`` with one value typed at XFD1048576 of ``sheet`` (its dimension says so)."""
    part = sheet_part(book, sheet)

    def change(name: str, data: bytes) -> bytes:
        if name != part:
            return data
        text = data.decode()
        text = re.sub(r'<dimension ref="[^"]*"/>', '<dimension ref="A1:XFD1048576"/>', text)
        return text.replace("</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c>'
                                            "</row></sheetData>").encode()
    return _with_member(book, folder / "stray-cell.xlsx", change)


def make_whole_sheet_name(folder: Path, book: Path, name: str = "Everything",
                          sheet: str = "Crosstable") -> Path:
    """``book`` with the workbook name ``name`` over the whole of ``sheet`` (a new name,
    or one of the template's moved there)."""
    ref = f"{sheet}!$A$1:$XFD$1048576"

    def change(member: str, data: bytes) -> bytes:
        if member != "xl/workbook.xml":
            return data
        text = data.decode()
        own = re.compile(rf'<definedName name="{name}">[^<]*</definedName>')
        if own.search(text):
            return own.sub(f'<definedName name="{name}">{ref}</definedName>', text).encode()
        return text.replace("<definedNames>", f'<definedNames><definedName name="{name}">'
                                              f"{ref}</definedName>").encode()
    return _with_member(book, folder / f"name-{name}.xlsx", change)


# player -> what its FIDE ID cell holds, typed as text
TEXT_IDS = {1: "100001", 2: " 100002 ", 3: "１００００３", 4: "100004x", 5: "1e5"}


def make_text_ids_book(folder: Path, book: Path) -> Path:
    """``book`` whose first five FIDE IDs are text (:data:`TEXT_IDS`): two of them IDs
    (digits, digits with spaces), three not (full-width digits, a letter, an exponent)."""
    from chessrating.trf.bookview import read_book_view
    from xlrecalc.patch import write_cached_values

    cells = read_book_view(book).names["FideIds"]
    updates = {cells[0][0]: {(row, col): TEXT_IDS[n] for n, (_, row, col) in enumerate(cells, 1)
                             if n in TEXT_IDS}}
    path = folder / "text-ids.xlsx"
    write_cached_values(book, path, updates, shown=str(book))
    return path


def make_small_stray_cell_book(folder: Path) -> Path:
    """A few KB: a crosstable of two players (names Names, FideIds, Sexes, RatingList as
    the templates define them) and one value at XFD1048576."""
    cross = ('<row r="5"><c r="A5"><v>1</v></c><c r="B5" t="inlineStr"><is><t>A</t></is></c></row>'
             '<row r="6"><c r="A6"><v>2</v></c><c r="B6" t="inlineStr"><is><t>B</t></is></c></row>'
             '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')
    report = ('<row r="12"><c r="B12" t="inlineStr"><is><t>standard</t></is></c></row>'
              '<row r="19"><c r="C19"><v>100001</v></c></row><row r="20"><c r="C20"><v>100002</v></c></row>')
    names = [("Names", "Crosstable!$B$5:$B$6"), ("FideIds", "Report!$C$19:$C$20"),
             ("Sexes", "Report!$D$19:$D$20"), ("RatingList", "Report!$B$12")]
    return make_corpus.workbook(folder / "small-stray-cell.xlsx", {"Crosstable": cross, "Report": report},
                                names=names)


LISTS: dict[str, Callable[[Path], Path]] = {
    name.removeprefix("make_"): fn for name, fn in list(globals().items())
    if name.startswith("make_") and callable(fn) and "book" not in name and "dense" not in name
}

if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-lists")
    target.mkdir(parents=True, exist_ok=True)
    for build in LISTS.values():
        sub = target / build.__name__.removeprefix("make_")
        sub.mkdir(exist_ok=True)
        print(build(sub))


def make_crowded_book(folder: Path, rows: int = 2_000, cols: int = 1_001) -> Path:
    """A workbook whose name ``Everything`` spans its sheet and whose sheet holds ``rows`` x
    ``cols`` numbers (2,002,000: past what is read, 4 MB packed) beside the names of
    :func:`make_small_stray_cell_book`."""
    from openpyxl.utils import get_column_letter
    letters = [get_column_letter(c) for c in range(1, cols + 1)]
    cross = "".join(f'<row r="{r}">' + "".join(f'<c r="{x}{r}"><v>1</v></c>' for x in letters)
                    + "</row>"
                    for r in range(1, rows + 1))
    report = '<row r="19"><c r="C19"><v>100001</v></c></row>'
    names = [("Names", "Crosstable!$B$5:$B$6"), ("FideIds", "Report!$C$19:$C$20"),
             ("Everything", "Crosstable!$A$1:$XFD$1048576")]
    return make_corpus.workbook(folder / "crowded.xlsx", {"Crosstable": cross, "Report": report},
                                names=names)


DENSE_CHUNKS, DENSE_MIX = 15, 0.29


def make_xml_dense(folder: Path, seed: int = 1) -> Path:
    """About the densest XML list the bounds let through, 5 MB packed: 300 MB of 16-byte
    elements (the least average let through), 58 times its packed size (under 60), the
    first player (read whole) of 64 fields. Slow to write (half a minute)."""
    import random
    rnd = random.Random(seed)
    path = folder / "players_list_xml_dense.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z, \
            z.open("players_list_xml_foa.xml", "w", force_zip64=True) as member:
        member.write(b'<?xml version="1.0"?><playerslist>')
        for _ in range(DENSE_CHUNKS):
            member.write("".join("<player>" + "".join("<bbbbbbbbbbbbb/>" if rnd.random() < DENSE_MIX
                                                      else "<aaaaaaaaaaaaa/>" for _ in range(62))
                                 + "</player>" for _ in range(20_000)).encode())
        member.write(b"</playerslist>")
    return path


def make_txt_dense(folder: Path, seed: int = 1) -> Path:
    """About the largest TXT list the bounds let through, 5 MB packed: 300 MB of lines of
    FIDE's width whose IDs no one asks for, 58 times its packed size (under 60)."""
    import random
    rnd = random.Random(seed)
    line = player_line(900)
    path = folder / "players_list_dense.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z, \
            z.open(MEMBER, "w", force_zip64=True) as member:
        member.write((COMBINED_HEADER + "\r\n").encode())
        for _ in range(190):
            member.write("".join(f"{10**7 + rnd.getrandbits(8):<15}" + line[15:] + "\r\n"
                                 for _ in range(10_000)).encode())
    return path


def make_tiny_elements_book(folder: Path, elements: int = 30_000_000, seed: int = 1) -> Path:
    """A workbook whose names point at a crosstable row holding ``elements`` empty cells
    without ``r=`` (``<c/>``, a few ``<c s="1"/>`` so it packs under 200 to 1: 4.3 MB),
    past the columns read: time goes by elements, not by values."""
    import random
    rnd = random.Random(seed)
    path = folder / "tiny-elements.xlsx"
    make_small_stray_cell_book(folder).rename(path)
    part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(path) as z:
        members = [(info, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in members:
            if info.filename != part:
                z.writestr(info, data)
                continue
            packed = zipfile.ZipInfo(part, info.date_time)
            packed.compress_type = zipfile.ZIP_DEFLATED
            with z.open(packed, "w", force_zip64=True) as out:
                head, tail = data.decode().split("</row>", 1)
                out.write(head.encode())
                for _ in range(elements // 100_000):
                    out.write("".join('<c s="1"/>' if rnd.random() < 0.1 else "<c/>"
                                      for _ in range(100_000)).encode())
                out.write(("</row>" + tail).encode())
    return path
