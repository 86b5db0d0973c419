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
                         "IA,FA,FST,DI,IO    ", "IA,FA,FST,DI,IO,SI ", 1)


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
    assert p.k("standard") == 20 and p.birth_year == 1960


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


@given(fide_id=st.integers(1, 10**10 - 1), rating=st.just(0) | st.integers(100, 3000),
       k=st.sampled_from([0, 10, 20, 40]), year=st.just(0) | st.integers(1900, 2020), name=st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"],
                                                            blacklist_characters=" "), min_size=1, max_size=30)
       .filter(lambda n: n == n.strip()))  # a name does not start or end in white space
def test_every_line_reads_back(fide_id: int, rating: int, k: int, year: int, name: str) -> None:
    line = list_line(fide_id, name, "ENG", "M", standard=(rating, 1, k), blitz=(rating, 0, k),
                     birth_year=year)
    p = read_fide_list(_book(line), ids=[fide_id]).players[fide_id]
    assert (p.name, p.rating("standard"), p.k("standard"), p.rating("blitz")) == \
        (name, rating or None, k or None, rating or None)
    assert p.birth_year == (year or None)


# -- lines that cannot fill a player, files that are no list (tests/hostile/list_corpus.py)
def _corpus():  # type: ignore[no-untyped-def]
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
    import list_corpus
    return list_corpus


def test_a_line_cut_short_fills_nothing_and_is_named(tmp_path: Path) -> None:
    corpus = _corpus()
    found = read_fide_list(corpus.make_cut_list(tmp_path), ids={100001, 100008})
    assert sorted(found.players) == [100001] and found.players[100001].rating("standard") == 2001
    assert found.refused[100008] == (f"{str(tmp_path / 'players_list_foa.txt')!r}, line 9: cut short: "
                                     "the line ends at column 118, before B-day (column 153)")
    assert found.notes == [f"{str(tmp_path / 'players_list_foa.txt')!r} ends inside line 9, shorter than "
                           "the header: cut short (an interrupted download?); a player past the cut "
                           "is missing from it"]


def test_damaged_lines_are_named_with_their_line(tmp_path: Path) -> None:
    corpus = _corpus()
    path = corpus.make_damaged_lines(tmp_path)
    for ids in ({100000 + n for n in range(1, 9)}, None):  # the players asked for, or all
        found = read_fide_list(path, ids)
        assert sorted(found.players) == [100001]
        assert sorted(found.refused) == [100000 + n for n in corpus.DAMAGE]
        for n, (_, reason) in corpus.DAMAGE.items():
            assert found.refused[100000 + n].startswith(f"{str(path)!r} (players_list_foa.txt), line {n + 1}: ")
            assert reason in found.refused[100000 + n], found.refused[100000 + n]
    assert "SRtng '28x7' is not a number" in found.refused[100002]
    assert "SRtng and SGm run together ('2002333320')" in found.refused[100004]
    assert "FOA and SRtng run together" in found.refused[100005]


@pytest.mark.parametrize("value, reason", [
    ("rating 9999", "SRtng 9999 is not a rating from 100 to 4000"),
    ("K 55", "SK 55 is not a FIDE K-factor, a whole number from 1 to 40"),
    ("born 199", "B-day 199 is not a year from 1900 to 2100"),
])
def test_numbers_out_of_their_range_are_named(value: str, reason: str) -> None:
    changes = {"rating 9999": dict(standard=(9999, 0, 20)), "K 55": dict(standard=(2000, 0, 55)),
               "born 199": dict(birth_year=199)}[value]
    line = list_line(**{**dict(fide_id=7, name="A, B", federation="NOR", sex="M"), **changes})  # type: ignore[arg-type]
    found = read_fide_list(_book(line), ids=[7])
    assert found.players == {} and found.refused[7] == f"the list, line 2: {reason}"


def test_an_id_on_two_lines_is_refused_naming_both(tmp_path: Path) -> None:
    corpus = _corpus()
    path = corpus.make_twice_listed(tmp_path)
    found = read_fide_list(path, ids={100003, 100004})
    assert sorted(found.players) == [100004]
    assert found.refused == {100003: f"{str(path)!r} (players_list_foa.txt), lines 4 and 10: FIDE ID "
                                     "100003 is on two lines; which one is the player cannot be told"}
    assert 100003 in read_fide_list(path).refused  # keeping all of them: the same


@pytest.mark.parametrize("make, words", [
    ("make_bomb_one_line", "expands 1,008 times its packed size, to 67,109,028 bytes"),
    ("make_bomb_blank_lines", "times its packed size"),
    ("make_encrypted_zip", "players_list_foa.txt is encrypted"),
    ("make_deflate64_zip", "players_list_foa.txt is packed with Deflate64"),
    ("make_cut_zip", "a damaged zip, or one cut short"),
    ("make_damaged_zip", "damaged, cannot be read (Bad CRC-32"),
    ("make_long_line", "line 2: longer than 4,096 bytes"),
    ("make_blank_lines", "more than 1,000 lines too short for a player (the last at line 1002)"),
])
def test_files_that_are_no_list_are_refused_naming_them(tmp_path: Path, make: str, words: str) -> None:
    corpus = _corpus()
    sizes = {"make_bomb_one_line": 64 << 20, "make_bomb_blank_lines": 64 << 20,
             "make_long_line": 1 << 20, "make_blank_lines": 1 << 20}
    build = getattr(corpus, make)
    path = build(tmp_path, sizes[make]) if make in sizes else build(tmp_path)
    with pytest.raises(RatingError) as refused:
        read_fide_list(path, ids={100001})
    message = str(refused.value)
    assert message.startswith(f"list: {str(path)!r}") and words in message, message
    assert "\n" not in message


def test_the_encrypted_list_is_a_real_one(tmp_path: Path) -> None:
    corpus = _corpus()
    with zipfile.ZipFile(corpus.make_encrypted_zip(tmp_path)) as z:
        assert z.read(corpus.MEMBER, pwd=b"fide").decode() == corpus.list_text(corpus.sound_lines())


def test_a_zip_of_many_files_is_refused(tmp_path: Path) -> None:
    path = _corpus().make_many_members(tmp_path, members=20)
    with pytest.raises(RatingError, match=r"a zip of 21 files; a FIDE list download holds one"):
        read_fide_list(path)


XML_PLAYER = ("<player><fideid>{id}</fideid><name>A, B</name><country>NOR</country><sex>M</sex>"
              "<rating>{rating}</rating><rapid_rating>0</rapid_rating></player>")


def _xml(tmp_path: Path, body: str, name: str = "players_list_xml_foa.xml") -> Path:
    path = tmp_path / name
    path.write_text(f'<?xml version="1.0"?>\n<playerslist>\n{body}\n</playerslist>\n', encoding="utf-8")
    return path


def test_xml_damaged_and_twice_listed_players(tmp_path: Path) -> None:
    body = "\n".join([XML_PLAYER.format(id=1, rating="28x7"), XML_PLAYER.format(id=2, rating="2000"),
                      XML_PLAYER.format(id=3, rating="2100"), XML_PLAYER.format(id=3, rating="2200")])
    path = _xml(tmp_path, body)
    found = read_fide_list(path, ids={1, 2, 3})
    assert sorted(found.players) == [2] and found.players[2].rating("standard") == 2000
    assert found.refused == {1: f"{str(path)!r}, line 3: <rating> '28x7' is not a number",
                             3: f"{str(path)!r}, lines 5 and 6: FIDE ID 3 is on two lines; which one "
                                "is the player cannot be told"}


@pytest.mark.parametrize("body, words", [
    ("<other/>", "line 3: <other> among the players"),
    ("<player><fideid><b>1</b></fideid></player>", "line 3: <b> inside a player's field"),
    ("<player>" + "<x/>" * 65 + "</player>", "a player of more than 64 fields"),
    (XML_PLAYER.format(id=1, rating=1), "line 3, column 56: not well-formed XML (unclosed token): "
                                        "damaged, or cut short (an interrupted download?)"),
])
def test_xml_that_is_no_list_is_refused(tmp_path: Path, body: str, words: str) -> None:
    path = _xml(tmp_path, body)
    if "cut short" in words:  # an interrupted download: the file ends inside a player
        path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(RatingError) as refused:
        read_fide_list(path)
    assert str(refused.value).startswith(f"list: {str(path)!r}") and words in str(refused.value), refused.value


def test_xml_entities_and_long_fields(tmp_path: Path) -> None:
    corpus = _corpus()
    with pytest.raises(RatingError, match="a document type declaration, which FIDE's list never has"):
        read_fide_list(corpus.make_xml_entities(tmp_path))
    found = read_fide_list(corpus.make_xml_long_field(tmp_path, 2 << 20), ids={100001, 100002})
    assert list(found.players) == [100002]
    assert found.refused[100001].endswith("line 1: <name> is longer than 256 characters")


@pytest.mark.parametrize("value, read", [
    (1503014, 1503014), (1503014.0, 1503014), ("1503014", 1503014), ("\t1503014 ", 1503014),
    (None, None), ("", None), ("   ", None),
    ("１５０３０１４", "'１５０３０１４' is not a FIDE ID (digits 0-9 only)"),
    ("1_503_014", "'1_503_014' is not a FIDE ID (digits 0-9 only)"),
    ("1503014.0", "'1503014.0' is not a FIDE ID (digits 0-9 only)"),
    (1503014.5, "1503014.5 is not a FIDE ID (a whole number)"),
    (-5, "-5 is not a FIDE ID (a whole number)"), (True, "True is not a FIDE ID (a whole number)"),
    (float("nan"), "nan is not a FIDE ID (a whole number)"),
])
def test_fide_id_cells_are_read_as_the_ids_they_show(value: object, read: object) -> None:
    from chessrating.trf.fill import fide_id_of
    assert fide_id_of(value) == read


# -- the workbook reader (chessrating.trf.bookview) on small hand-made workbooks
def test_the_book_reader_reads_only_what_the_names_point_at(tmp_path: Path) -> None:
    from chessrating.trf.bookview import MAX_ROWS, read_book_view
    corpus = _corpus()
    import make_corpus  # beside list_corpus, in tests/hostile
    book = corpus.make_small_stray_cell_book(tmp_path)  # a value at XFD1048576
    view = read_book_view(book)
    assert view.named("Names") == ["A", "B"] and view.named("FideIds") == [100001, 100002]
    assert view.text("RatingList") == "standard" and view.value("Crosstable", 1048576, 16384) is None
    assert max(r for r, _ in view.values["Crosstable"]) == 6  # no row past the names is read
    names = [("Names", "Crosstable!$B$5:$B$6"), ("FideIds", "Report!$C$19:$C$1048576"),
             ("Everything", "Crosstable!$A$1:$XFD$1048576")]
    other = make_corpus.workbook(tmp_path / "names.xlsx", {
        "Crosstable": '<row r="5"><c r="B5" t="inlineStr"><is><t>A</t></is></c></row>',
        "Report": '<row r="19"><c r="C19" t="inlineStr"><is><t> 100001</t></is></c></row>'}, names=names)
    view = read_book_view(other)
    assert view.named("Names") == ["A", None]
    assert len(view.names["FideIds"]) == MAX_ROWS - 18 and view.named("FideIds")[0] == " 100001"
    with pytest.raises(RatingError, match=r"names.xlsx': the name Everything covers 17,179,869,184 cells "
                                          r"of Crosstable; a FIDE template's names cover a row"):
        view.names["Everything"]
