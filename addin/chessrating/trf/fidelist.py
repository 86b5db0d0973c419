"""The FIDE rating list: FIDE's monthly download, read for the players a workbook names.

FIDE publishes (https://ratings.fide.com/download_lists.phtml) the combined list
``players_list.zip`` → ``players_list_foa.txt`` (standard, rapid and blitz on one line,
1.9 million lines), one list per rating type (``standard_rating_list.zip``, rapid,
blitz; monthly archives ``standard_sep26frl.zip`` …), each also as XML. All of them are
read here, zipped or not:

* TXT: fixed columns, whose positions are taken from the file's own header line
  (``ID Number  Name … Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm Rk BRtng BGm
  BK B-day Flag``); FIDE has moved them over the years, and the older layout has no
  ``FOA`` column. A per-type list has one rating column headed by its month
  (``SEP26``), then ``Gms`` and ``K``.
* XML: ``<player>`` elements with ``fideid, name, country, sex, title, w_title,
  o_title, foa_title, rating, games, k, rapid_rating … blitz_k, birthday, flag``,
  read by an XML parser as a stream.

What real lists hold and the reader accepts: a title running on into the next column
(a value crossing a column edge belongs to the column it starts in), names in any
script, a birth year of 0 (unknown: ``None``), a rating of 0 or blank (unrated:
``None``). **Decision** (names outside ASCII): the columns are counted in characters of
the UTF-8 text; a line whose federation is not three letters there is read again by
bytes, so a list padded either way is read right. A line not UTF-8 is read as Latin-1.

:func:`read_fide_list` streams the file once, zip members without unpacking them to
disk, and keeps only the players asked for (or all of them for a small file).

>>> header = ("ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           FOA SRtng SGm "
...           "SK RRtng RGm Rk BRtng BGm BK B-day Flag")
>>> line = list_line(1503014, "Carlsen, Magnus", "NOR", "M", "GM", standard=(2837, 0, 10),
...                  rapid=(2823, 0, 20), blitz=(2886, 9, 20), birth_year=1990)
>>> found = read_fide_list(io.BytesIO((header + "\\n" + line + "\\n").encode()), ids={1503014})
>>> p = found.players[1503014]
>>> p.name, p.federation, p.sex, p.title, p.birth_year, p.rating("standard"), p.k("blitz")
('Carlsen, Magnus', 'NOR', 'm', 'GM', 1990, 2837, 20)
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, BinaryIO

from ..errors import RatingError

__all__ = ["RATING_TYPES", "ListPlayer", "FideList", "read_fide_list", "list_line",
           "list_kind_of", "COMBINED_HEADER", "LEGACY_HEADER", "TYPE_HEADER"]

RATING_TYPES = ("standard", "rapid", "blitz")
# The header lines of the layouts, as FIDE writes them (shared/notes, FIDE downloads).
COMBINED_HEADER = ("ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           FOA "
                   "SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
LEGACY_HEADER = ("ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           "
                 "SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
TYPE_HEADER = ("ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           FOA "
               "SEP26 Gms  K  B-day Flag")
# Header words -> field. A per-type list heads its rating column with the month (SEP26).
_FIELDS = {
    "ID": "id", "NAME": "name", "FED": "fed", "SEX": "sex", "TIT": "title", "WTIT": "w_title",
    "OTIT": "o_title", "FOA": "foa", "SRTNG": "standard", "SGM": "standard_games",
    "SK": "standard_k", "RRTNG": "rapid", "RGM": "rapid_games", "RK": "rapid_k",
    "BRTNG": "blitz", "BGM": "blitz_games", "BK": "blitz_k", "B-DAY": "born", "FLAG": "flag",
    "GMS": "games", "K": "k", "BORN": "born",
}
_MONTH = re.compile(r"[A-Z]{3}\d{2}")
_TEXT_FIELDS = ("title", "w_title", "o_title", "foa")
_FED = re.compile(r"[A-Z]{3}")
_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
# Read buffer of a zip member: large reads keep the decompression and line splitting fast.
_CHUNK = 1 << 20


@dataclass(frozen=True)
class ListPlayer:
    """One player of the list. Ratings, games and K by rating type; ``None`` = none."""

    fide_id: int
    name: str
    federation: str = ""
    sex: str = ""
    titles: tuple[str, str, str, str] = ("", "", "", "")  # Tit, WTit, OTit, FOA
    ratings: dict[str, int | None] = field(default_factory=dict)
    games: dict[str, int | None] = field(default_factory=dict)
    ks: dict[str, int | None] = field(default_factory=dict)
    birth_year: int | None = None
    flag: str = ""

    @property
    def title(self) -> str:
        """The FIDE title a TRF and the workbook carry: the open title, else the women's."""
        for t in self.titles[:2]:
            if t.upper() in _TITLES:
                return t.upper()
        return ""

    def rating(self, kind: str) -> int | None:
        """The rating of ``kind`` (standard, rapid, blitz)."""
        return self.ratings.get(kind)

    def k(self, kind: str) -> int | None:
        """The K of ``kind`` as the list gives it."""
        return self.ks.get(kind)


@dataclass
class FideList:
    """What :func:`read_fide_list` found: ``kind`` is ``"combined"`` or one rating type;
    ``players`` by FIDE ID; ``lines`` read; ``warnings`` for lines it could not use."""

    kind: str
    players: dict[int, ListPlayer]
    lines: int = 0
    layout: str = ""
    warnings: list[str] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        """True when the list gives ratings of ``kind``."""
        return self.kind in ("combined", kind)


def list_kind_of(name: str) -> str | None:
    """The rating type a file's name says, ``"combined"`` for ``players_list``, else None.

    >>> list_kind_of("players_list_foa.txt"), list_kind_of("blitz_sep26frl_xml.zip")
    ('combined', 'blitz')
    """
    low = Path(name).name.lower()
    if low.startswith("players_list"):
        return "combined"
    for kind in RATING_TYPES:
        if low.startswith(kind):
            return kind
    return None


def _int(text: str) -> int | None:
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value or None


class _Columns:
    """The fields of a TXT layout and where each starts, read from its header line."""

    def __init__(self, header: str) -> None:
        words = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
        if len(words) >= 2 and words[0][1].upper() == "ID" and words[1][1].upper() == "NUMBER":
            words = [(0, "ID")] + words[2:]
        self.starts: list[tuple[str, int]] = []
        for start, word in words:
            key = word.upper()
            name = _FIELDS.get(key) or ("rating" if _MONTH.fullmatch(key) else None)
            if name is None:
                raise RatingError(f"list: header word {word!r} at column {start + 1} is not one "
                                  "of a FIDE rating list")
            self.starts.append((name, start))
        names = [n for n, _ in self.starts]
        if names[:2] != ["id", "name"] or "fed" not in names:
            raise RatingError("list: the first line is not a FIDE rating list header "
                              "(ID Number, Name, Fed …)")
        self.combined = "standard" in names
        self.layout = ("combined" if "foa" in names else "combined, without FOA") \
            if self.combined else "one rating type"
        self.id_end = self.starts[1][1]

    def split(self, line: str) -> dict[str, str]:
        """The fields of a line, a value crossing into the next text column kept whole."""
        out: dict[str, str] = {}
        edges = self.starts + [("", max(len(line), self.starts[-1][1]) + 1)]
        carry = 0
        for (name, start), (_, end) in zip(edges, edges[1:]):
            start += carry
            carry = 0
            if name in _TEXT_FIELDS and end < len(line) and line[end - 1] != " " and line[end] != " ":
                # the value runs on past its column: the rest of its word is its own
                while end + carry < len(line) and line[end + carry] != " ":
                    carry += 1
            out[name] = line[start:end + carry].strip() if start < end + carry else ""
        return out


def _player(fields: dict[str, str], kind: str) -> ListPlayer | None:
    fide_id = _int(fields.get("id", ""))
    if fide_id is None:
        return None
    ratings, games, ks = {}, {}, {}
    kinds = RATING_TYPES if kind == "combined" else (kind,)
    for k in kinds:
        prefix = f"{k}" if kind == "combined" else "rating"
        ratings[k] = _int(fields.get(prefix, ""))
        games[k] = _int(fields.get(f"{k}_games" if kind == "combined" else "games", ""))
        ks[k] = _int(fields.get(f"{k}_k" if kind == "combined" else "k", ""))
    sex = fields.get("sex", "").upper()
    return ListPlayer(
        fide_id=fide_id, name=fields.get("name", ""), federation=fields.get("fed", "").upper(),
        sex={"M": "m", "F": "w", "W": "w"}.get(sex, ""),
        titles=tuple(fields.get(f, "") for f in _TEXT_FIELDS),  # type: ignore[arg-type]
        ratings=ratings, games=games, ks=ks, birth_year=_int(fields.get("born", "")),
        flag=fields.get("flag", ""))


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _read_txt(stream: BinaryIO, kind: str | None, ids: set[int] | None, result: FideList) -> None:
    header_raw = stream.readline(4096)
    header = _decode(header_raw).lstrip("\ufeff").rstrip("\r\n")
    columns = _Columns(header)
    if columns.combined:
        kind = "combined"
    elif kind in (None, "combined"):
        raise RatingError("list: a list of one rating type whose name does not say which "
                          "(standard, rapid or blitz); name the file as FIDE does")
    result.kind, result.layout = kind or "combined", columns.layout
    wanted = None if ids is None else {str(i).encode() for i in ids}
    id_end = columns.id_end
    fed_at = dict(columns.starts)["fed"]
    count = 0
    for raw in stream:
        count += 1
        if wanted is not None and raw[:id_end].strip() not in wanted:
            continue
        line = _decode(raw).rstrip("\r\n")
        fields = columns.split(line)
        if not _FED.fullmatch(fields.get("fed", "")) and not line.isascii():
            # padded by bytes, not characters: read the columns by bytes
            by_bytes = raw.rstrip(b"\r\n")
            if _FED.fullmatch(_decode(by_bytes[fed_at:fed_at + 3])):
                fields = {k: _decode(v.encode("latin-1")) for k, v in
                          columns.split(by_bytes.decode("latin-1")).items()}
        player = _player(fields, result.kind)
        if player is None:
            result.warnings.append(f"line {count + 1}: no FIDE ID in columns 1-{id_end}")
        else:
            result.players[player.fide_id] = player
    result.lines = count


_XML_FIELDS = {"fideid": "id", "name": "name", "country": "fed", "sex": "sex", "title": "title",
               "w_title": "w_title", "o_title": "o_title", "foa_title": "foa",
               "rating": "rating", "games": "games", "k": "k", "birthday": "born", "flag": "flag",
               **{f"{k}_{f}": f"{k}_{g}" for k in ("rapid", "blitz")
                  for f, g in (("rating", ""), ("games", "games"), ("k", "k"))}}


def _read_xml(stream: BinaryIO, kind: str | None, ids: set[int] | None, result: FideList) -> None:
    import xml.etree.ElementTree as ET

    count = 0
    combined: bool | None = None
    root = None
    for event, element in ET.iterparse(stream, events=("start", "end")):
        if root is None:
            root = element
        if event == "start" or element.tag != "player":
            continue
        count += 1
        values = {(_XML_FIELDS.get(child.tag, child.tag)).rstrip("_"): (child.text or "").strip()
                  for child in element}
        root.clear()  # the players read so far: memory stays flat over the 856 MB file
        if combined is None:
            combined = "rapid" in values or kind == "combined"
            if not combined and kind in (None, "combined"):
                raise RatingError("list: a list of one rating type whose name does not say "
                                  "which (standard, rapid or blitz); name the file as FIDE does")
            result.kind = "combined" if combined else kind  # type: ignore[assignment]
            result.layout = "XML"
        if ids is not None and _int(values.get("id", "")) not in ids:
            continue
        if combined:
            values["standard"] = values.pop("rating", "")
            values["standard_games"] = values.pop("games", "")
            values["standard_k"] = values.pop("k", "")
        player = _player(values, result.kind)
        if player is not None:
            result.players[player.fide_id] = player
    result.lines = count


def _open_list(source: str | os.PathLike[str] | BinaryIO) -> Iterator[tuple[BinaryIO, str]]:
    """The list's byte stream and its name: a zip's one list member, else the file."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            handle: IO[bytes] = open(path, "rb")
        except OSError as error:
            raise RatingError(f"list: {str(path)!r} cannot be read ({error.strerror})") from None
        name = path.name
    else:
        handle, name = source, getattr(source, "name", "") or ""
    with handle:
        if zipfile.is_zipfile(handle):
            handle.seek(0)
            with zipfile.ZipFile(handle) as archive:
                members = [i for i in archive.infolist()
                           if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))]
                if len(members) != 1:
                    raise RatingError(f"list: {name!r} holds {len(members)} TXT or XML files; "
                                      "a FIDE list download holds one")
                with archive.open(members[0]) as member:
                    yield io.BufferedReader(member, _CHUNK), members[0].filename  # type: ignore[arg-type,type-var]
            return
        handle.seek(0)
        yield handle, name  # type: ignore[misc]


def read_fide_list(source: str | os.PathLike[str] | BinaryIO, ids: Iterable[int] | None = None,
                   *, kind: str | None = None) -> FideList:
    """The players of a FIDE rating list file (path or binary stream), one pass.

    ``ids``: only these FIDE IDs are kept (the others are skipped without being
    parsed); ``None`` keeps every player. ``kind`` names the rating type of a per-type
    list whose file name does not say it. A file that is not a FIDE list raises
    :class:`RatingError`.
    """
    if kind is not None and kind not in RATING_TYPES:
        raise RatingError(f"kind: {kind!r} is not one of {', '.join(RATING_TYPES)}")
    wanted = None if ids is None else {int(i) for i in ids}
    result = FideList(kind="combined", players={})
    try:
        for stream, name in _open_list(source):
            named = list_kind_of(name) if name else None
            if kind is None and named is not None:
                kind = named
            start = stream.peek(64)[:64] if hasattr(stream, "peek") else b""
            if not start:
                start = stream.read(64)
                stream.seek(0)
            if start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
                _read_xml(stream, kind, wanted, result)
            else:
                _read_txt(stream, kind, wanted, result)
    except (zipfile.BadZipFile, EOFError, OSError) as error:
        raise RatingError(f"list: the file cannot be read ({error})") from None
    except SyntaxError as error:  # ElementTree's ParseError
        raise RatingError(f"list: not a FIDE XML list ({error})") from None
    return result


def list_line(fide_id: int, name: str, federation: str, sex: str, title: str = "",
              women_title: str = "", other_titles: str = "", foa: str = "", *,
              standard: tuple[int, int, int] = (0, 0, 0), rapid: tuple[int, int, int] = (0, 0, 0),
              blitz: tuple[int, int, int] = (0, 0, 0), birth_year: int = 0, flag: str = "",
              legacy: bool = False) -> str:
    """One line of the combined TXT list in FIDE's columns (for tests and benchmarks):
    ratings as (rating, games, K), 0 written blank where FIDE leaves it blank."""
    def num(value: int, width: int) -> str:
        return (str(value) if value else "").rjust(width)

    line = f"{fide_id:<15}{name:<61}{federation:<4}{sex:<4}{title:<5}{women_title:<5}{other_titles:<15}"
    if not legacy:
        line += f"{foa:<4}"
    for rating, games, k in (standard, rapid, blitz):
        line += f"{num(rating, 5)} {num(games, 3)} {num(k, 2)} "
    return line + f"{birth_year:>5} {flag:<4}".rstrip()
