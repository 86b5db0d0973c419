"""The FIDE rating list reader (chessrating.trf.fidelist) on synthetic lines in FIDE's
published layouts (the list itself carries no licence: no real list is committed).

Layouts: the combined ``players_list_foa.txt`` header and column positions (FIDE download
page; columns 0-based: ID 0-15, name 15-76, fed 76-80, sex 80-84, title 84-89, WTit
89-94, OTit 94-109, FOA 109-113, SRtng 113-119, SGm 119-123, SK 123-126, rapid 126-139,
blitz 139-152, B-day 152-158, flag 158-162), the older layout without FOA, a per-type
list headed by its month, and the XML elements.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from chessrating.errors import RatingError
from chessrating.trf.fidelist import (
    COMBINED_HEADER, LEGACY_HEADER, TYPE_HEADER, list_kind_of, list_line, read_fide_list,
)

CARLSEN = list_line(1503014, "Carlsen, Magnus", "NOR", "M", "GM", standard=(2837, 0, 10),
                    rapid=(2823, 0, 20), blitz=(2886, 9, 20), birth_year=1990)
JUNIOR = list_line(25000001, "Junior, Jana", "GER", "F", "", "WFM", standard=(1850, 4, 40),
                   birth_year=2012, flag="w")
NOBIRTH = list_line(4100018, "Unknown, Year", "ESP", "M", birth_year=0, standard=(1500, 0, 40),
                    flag="i")
# Other titles running on past their 15 columns into FOA, as three lines of a real list do.
OVERFLOW = list_line(2000001, "Arbiter, Long", "FRA", "M", "IM", "", "IA,FA,FST,DI,IO",
                     standard=(2300, 0, 20), birth_year=1960).replace(
                         "IA,FA,FST,DI,IO    ", "IA,FA,FST,DI,IO,SI", 1)


def _book(*lines: str, header: str = COMBINED_HEADER) -> io.BytesIO:
    return io.BytesIO(("\r\n".join([header, *lines]) + "\r\n").encode("utf-8"))


def test_list_line_matches_the_published_columns() -> None:
    assert COMBINED_HEADER.index("SRtng") == 113 and COMBINED_HEADER.index("B-day") == 152
    assert len(COMBINED_HEADER) == 162
    assert CARLSEN[15:30].strip() == "Carlsen, Magnus" and CARLSEN[76:79] == "NOR"
    assert CARLSEN[113:119].strip() == "2837" and CARLSEN[123:126].strip() == "10"


def test_combined_list_fields() -> None:
    found = read_fide_list(_book(CARLSEN, JUNIOR, NOBIRTH))
    assert found.kind == "combined" and found.lines == 3 and found.layout == "combined"
    c = found.players[1503014]
    assert (c.name, c.federation, c.sex, c.title, c.birth_year) == ("Carlsen, Magnus", "NOR", "m", "GM", 1990)
    assert [c.rating(k) for k in ("standard", "rapid", "blitz")] == [2837, 2823, 2886]
    assert [c.k(k) for k in ("standard", "rapid", "blitz")] == [10, 20, 20]
    assert c.games["blitz"] == 9
    j = found.players[25000001]
    assert (j.sex, j.title, j.rating("standard"), j.k("standard"), j.rating("rapid"), j.flag) == \
        ("w", "WFM", 1850, 40, None, "w")
    assert found.players[4100018].birth_year is None  # 0 means unknown


def test_only_the_ids_asked_for_are_kept() -> None:
    found = read_fide_list(_book(CARLSEN, JUNIOR, NOBIRTH), ids=[25000001, 99])
    assert list(found.players) == [25000001] and found.lines == 3


def test_title_running_into_the_next_column() -> None:
    assert OVERFLOW[94:113] == "IA,FA,FST,DI,IO,SI "
    p = read_fide_list(_book(OVERFLOW)).players[2000001]
    assert p.titles == ("IM", "", "IA,FA,FST,DI,IO,SI", "") and p.rating("standard") == 2300


@pytest.mark.parametrize("by_bytes", [False, True])
def test_names_in_any_script(by_bytes: bool) -> None:
    name = "Ðорошенко, Élodie 张伟"
    line = list_line(3000001, name, "UKR", "F", "", "WGM", standard=(2400, 0, 10), birth_year=1999)
    data = line.encode()
    if by_bytes:  # padded to 61 bytes, not 61 characters
        extra = len(name.encode()) - len(name)
        data = data.replace(b"UKR", b"", 1)
        cut = 15 + len(name.encode())
        data = data[:cut] + data[cut + extra:76 + extra] + b"UKR" + data[76 + extra:]
        assert data[76:79] == b"UKR"
    found = read_fide_list(io.BytesIO(COMBINED_HEADER.encode() + b"\n" + data + b"\n"))
    p = found.players[3000001]
    assert (p.name, p.federation, p.title, p.rating("standard"), p.birth_year) == \
        (name, "UKR", "WGM", 2400, 1999)


def test_legacy_layout_without_foa() -> None:
    line = list_line(1503014, "Carlsen, Magnus", "NOR", "M", "GM", standard=(2882, 0, 10),
                     birth_year=1990, legacy=True)
    found = read_fide_list(_book(line, header=LEGACY_HEADER))
    p = found.players[1503014]
    assert found.layout == "combined, without FOA"
    assert (p.rating("standard"), p.k("standard"), p.birth_year) == (2882, 10, 1990)


def _type_line(header: str, values: dict[str, str]) -> str:
    """A per-type line: each value written from its header word's column."""
    line = [" "] * len(header)
    for word, value in values.items():
        at = header.index(word)
        line[at:at + len(value)] = value
    return "".join(line).rstrip()


def test_per_type_list_named_by_its_file(tmp_path: Path) -> None:
    line = _type_line(TYPE_HEADER, {"ID Number": "1503014", "Name": "Carlsen, Magnus",
                                   "Fed": "NOR", "Sex": "M", "Tit": "GM", "SEP26": " 2823",
                                   "Gms": "  3", " K ": " 20", "B-day": "1990"})
    path = tmp_path / "rapid_sep26frl.txt"
    path.write_text(TYPE_HEADER + "\n" + line + "\n", encoding="utf-8")
    found = read_fide_list(path)
    p = found.players[1503014]
    assert found.kind == "rapid" and found.has("rapid") and not found.has("standard")
    assert (p.rating("rapid"), p.games["rapid"], p.k("rapid"), p.birth_year) == (2823, 3, 20, 1990)
    unnamed = tmp_path / "list.txt"
    unnamed.write_bytes(path.read_bytes())
    with pytest.raises(RatingError, match="does not say which"):
        read_fide_list(unnamed)
    assert read_fide_list(unnamed, kind="blitz").players[1503014].rating("blitz") == 2823


def test_zipped_list_is_streamed(tmp_path: Path) -> None:
    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("players_list_foa.txt", _book(CARLSEN, JUNIOR).getvalue())
    found = read_fide_list(path, ids={1503014})
    assert found.kind == "combined" and found.players[1503014].rating("blitz") == 2886


XML_COMBINED = """<?xml version="1.0" encoding="utf-8"?>
<playerslist>
<player><fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country><sex>M</sex>
<title>GM</title><w_title></w_title><o_title></o_title><foa_title></foa_title><rating>2837</rating>
<games>0</games><k>10</k><rapid_rating>2823</rapid_rating><rapid_games>0</rapid_games><rapid_k>20</rapid_k>
<blitz_rating>2886</blitz_rating><blitz_games>9</blitz_games><blitz_k>20</blitz_k>
<birthday>1990</birthday><flag></flag></player>
<player><fideid>4100018</fideid><name>Nö, Body</name><country>ESP</country><sex>F</sex><title></title>
<w_title>WIM</w_title><o_title></o_title><foa_title></foa_title><rating>2100</rating><games>2</games>
<k>20</k><rapid_rating>0</rapid_rating><rapid_games>0</rapid_games><rapid_k>0</rapid_k><blitz_rating>0</blitz_rating>
<blitz_games>0</blitz_games><blitz_k>0</blitz_k><birthday>0</birthday><flag>wi</flag></player>
</playerslist>
"""


def test_xml_lists(tmp_path: Path) -> None:
    path = tmp_path / "players_list_xml.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("players_list_xml_foa.xml", XML_COMBINED.encode())
    found = read_fide_list(path)
    c, b = found.players[1503014], found.players[4100018]
    assert found.kind == "combined" and found.lines == 2
    assert [c.rating(k) for k in ("standard", "rapid", "blitz")] == [2837, 2823, 2886]
    assert (b.name, b.sex, b.title, b.k("standard"), b.rating("rapid"), b.birth_year) == \
        ("Nö, Body", "w", "WIM", 20, None, None)
    single = re.sub(r"<(rapid|blitz)_\w+>\d*</\1_\w+>", "", XML_COMBINED)
    per_type = tmp_path / "blitz_rating_list_xml.xml"
    per_type.write_text(single, encoding="utf-8")
    found = read_fide_list(per_type, ids=[1503014])
    assert found.kind == "blitz" and list(found.players) == [1503014]
    assert found.players[1503014].rating("blitz") == 2837


def test_not_a_list(tmp_path: Path) -> None:
    path = tmp_path / "players_list.txt"
    path.write_text("012 A tournament\n001    1 m\n", encoding="utf-8")
    with pytest.raises(RatingError, match="not one of a FIDE rating list"):
        read_fide_list(path)
    with pytest.raises(RatingError, match="cannot be read"):
        read_fide_list(tmp_path / "missing.zip")


def test_kind_from_file_names() -> None:
    assert [list_kind_of(n) for n in ("players_list.zip", "standard_rating_list.zip",
                                      "rapid_sep26frl.zip", "other.txt")] == \
        ["combined", "standard", "rapid", None]


@given(fide_id=st.integers(1, 10**10 - 1), rating=st.integers(0, 3000), k=st.sampled_from([0, 10, 20, 40]),
       year=st.integers(0, 2020), name=st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"],
                                                            blacklist_characters=" "), min_size=1, max_size=30)
       .filter(lambda n: n == n.strip()))  # a name does not start or end in white space
def test_every_line_reads_back(fide_id: int, rating: int, k: int, year: int, name: str) -> None:
    line = list_line(fide_id, name, "ENG", "M", standard=(rating, 1, k), blitz=(rating, 0, k),
                     birth_year=year)
    p = read_fide_list(_book(line), ids=[fide_id]).players[fide_id]
    assert (p.name, p.rating("standard"), p.k("standard"), p.rating("blitz")) == \
        (name, rating or None, k or None, rating or None)
    assert p.birth_year == (year or None)
