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

What is never filled from, but named (file, line, what is wrong) in
:attr:`FideList.refused`: a line cut short (an interrupted download ends inside a line:
it must reach the B-day column), a number that is none or out of its range (a rating
from 100 to 4000, a K from 1 to 40, a birth year from 1900 to 2100), a federation that is
not three letters, no name, a sex other than M or F, a flag that is not one (two lines
run together), two numbers or a title and a number running into each other across a
column edge (which column a digit belongs to cannot be told), and a FIDE ID on two lines
(both named: which is the player cannot be told). **Decision**: a line must reach the
B-day column; FIDE pads every line to the header's width, so only a cut line stops short.

:func:`read_fide_list` streams the file once, zip members without unpacking them to
disk (:mod:`.listfile` refuses what is not FIDE's: zip bombs, encrypted or Deflate64
members), and keeps only the players asked for (or all of them for a small file). A line
longer than :data:`MAX_LINE` bytes, or more than :data:`MAX_SHORT_LINES` lines too short to
be a player's, refuse the file: FIDE's lines are 162 characters.

>>> import io
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

import functools
import os
import re
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..checks import FIDE_K, RATING, YEAR, Domain
from ..errors import RatingError
from .listfile import open_list

__all__ = ["RATING_TYPES", "ListPlayer", "FideList", "read_fide_list", "list_line",
           "list_kind_of", "COMBINED_HEADER", "LEGACY_HEADER", "TYPE_HEADER", "MAX_LINE",
           "MAX_SHORT_LINES", "player_from_fields", "problem_of"]

RATING_TYPES = ("standard", "rapid", "blitz")
# The header lines of the layouts, as FIDE writes them (FIDE downloads).
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
_RATINGS = ("standard", "rapid", "blitz", "rating")
_NUMBERS = {"id", "born", *_RATINGS, *(f"{k}_{x}" for k in RATING_TYPES for x in ("games", "k")),
            "games", "k"}
_FED = re.compile(r"[A-Z]{3}")
_FLAG = re.compile(r"[A-Za-z]{0,3}")
_SEXES = {"M": "m", "F": "w", "W": "w", "": ""}
_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
# FIDE's lines are 162 characters (a name in UTF-8 adds bytes): a longer one is no list's.
MAX_LINE = 4096
# A list's last line may be blank; thousands of lines too short for a player are no list.
MAX_SHORT_LINES = 1000


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
    ``players`` by FIDE ID; ``lines`` read; ``warnings`` for lines it could not use;
    ``refused`` the FIDE IDs asked for that no line can fill, each with its reason
    (file, line, what is wrong); ``notes`` on the file as a whole (cut short);
    ``shown`` the file as messages name it."""

    kind: str
    players: dict[int, ListPlayer]
    lines: int = 0
    layout: str = ""
    warnings: list[str] = field(default_factory=list)
    refused: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    shown: str = "the list"
    _first: dict[int, int] = field(default_factory=dict, repr=False)
    _twice: dict[int, list[int]] = field(default_factory=dict, repr=False)
    _damaged: dict[int, str] = field(default_factory=dict, repr=False)

    def has(self, kind: str) -> bool:
        """True when the list gives ratings of ``kind``."""
        return self.kind in ("combined", kind)

    def seen(self, fide_id: int) -> bool:
        """True once a line of ``fide_id`` was kept."""
        return fide_id in self._first

    def keep(self, fide_id: int, line: int, player: ListPlayer | None, problem: str | None) -> None:
        """Keep what line ``line`` says of ``fide_id``: the player, or why it cannot fill."""
        first = self._first.get(fide_id)
        if first is not None:
            self._twice.setdefault(fide_id, [first]).append(line)
            return
        self._first[fide_id] = line
        if problem is not None or player is None:
            self._damaged[fide_id] = f"{self.shown}, line {line}: {problem}"
        else:
            self.players[fide_id] = player

    def finish(self) -> None:
        """An ID on two lines is refused, both named; a damaged line is refused."""
        for fide_id, lines in self._twice.items():
            self.players.pop(fide_id, None)
            self._damaged.pop(fide_id, None)
            shown = " and ".join(map(str, lines[:2])) + (f" (and {len(lines) - 2} more)"
                                                          if len(lines) > 2 else "")
            self.refused[fide_id] = (f"{self.shown}, lines {shown}: FIDE ID {fide_id} is on "
                                     "two lines; which one is the player cannot be told")
        self.refused.update(self._damaged)
        self._first.clear()


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


def _quoted(value: str, longest: int = 24) -> str:
    """A value as a message quotes it, cut to ``longest`` characters."""
    return repr(value if len(value) <= longest else value[:longest] + "…")


def problem_of(fields: dict[str, str], words: dict[str, str]) -> str | None:
    """What keeps a line's ``fields`` from filling a player, ``None`` when nothing does;
    ``words`` names each field as the list's header does.

    >>> problem_of({"id": "5", "name": "A, B", "fed": "NOR", "sex": "M", "standard": "28x7"},
    ...            {"standard": "SRtng"})
    "SRtng '28x7' is not a number"
    """
    def word(name: str) -> str:
        return words.get(name, name)
    for name, value in fields.items():
        if name in _NUMBERS and value and not (value.isascii() and value.isdigit()):
            return f"{word(name)} {_quoted(value)} is not a number"
    if not fields.get("name"):
        return "no name"
    if not _FED.fullmatch(fields.get("fed", "")):
        return f"{word('fed')} {_quoted(fields.get('fed', ''))} is not a federation (three letters)"
    if fields.get("sex", "").upper() not in _SEXES:
        return f"{word('sex')} {_quoted(fields['sex'])} is not M or F"
    ranges: list[tuple[str, Domain]] = [*((r, RATING) for r in _RATINGS), ("born", YEAR),
                                        *((k, FIDE_K) for k in fields if k == "k" or k.endswith("_k"))]
    for name, domain in ranges:
        number = int(fields.get(name) or 0)
        if number and number not in domain:
            return f"{word(name)} {number} is not {domain}"
    if not _FLAG.fullmatch(fields.get("flag", "")):
        return (f"{word('flag')} {_quoted(fields['flag'])} is not a flag (i, w, wi): two lines "
                "run together?")
    return None


class _Columns:
    """The fields of a TXT layout and where each starts, read from its header line."""

    def __init__(self, header: str, shown: str = "the list") -> None:
        words = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
        if len(words) >= 2 and words[0][1].upper() == "ID" and words[1][1].upper() == "NUMBER":
            words = [(0, "ID Number")] + words[2:]
        self.starts: list[tuple[str, int]] = []
        self.words: dict[str, str] = {}
        for start, word in words:
            key = word.split()[0].upper()
            name = _FIELDS.get(key) or ("rating" if _MONTH.fullmatch(key) else None)
            if name is None:
                raise RatingError(f"list: {shown}: header word {_quoted(word)} at column "
                                  f"{start + 1} is not one of a FIDE rating list")
            self.starts.append((name, start))
            self.words[name] = word
        names = [n for n, _ in self.starts]
        if names[:2] != ["id", "name"] or "fed" not in names:
            raise RatingError(f"list: {shown}: the first line is not a FIDE rating list "
                              "header (ID Number, Name, Fed …)")
        self.combined = "standard" in names
        self.layout = ("combined" if "foa" in names else "combined, without FOA") \
            if self.combined else "one rating type"
        self.id_end = self.starts[1][1]
        # a line must reach its last number column (B-day): FIDE pads every line
        self.reach = dict(self.starts).get("born", self.starts[-1][1])

    def split(self, line: str) -> tuple[dict[str, str], str | None]:
        """The fields of a line, a text value crossing into the next text column kept
        whole; and what makes the line unreadable (cut short, values running together)."""
        if len(line) <= self.reach:
            word = self.words.get("born", "its last column")
            return {}, (f"cut short: the line ends at column {len(line)}, before {word} "
                        f"(column {self.reach + 1})")
        out: dict[str, str] = {}
        edges = self.starts + [("", max(len(line), self.starts[-1][1]) + 1)]
        carry = 0
        for (name, start), (after, end) in zip(edges, edges[1:]):
            start += carry
            carry = 0
            if end < len(line) and line[end - 1] != " " and line[end] != " ":
                if name not in _TEXT_FIELDS or after not in _TEXT_FIELDS:
                    stop = line.find(" ", end)
                    run = line[start:stop if stop >= 0 else len(line)].strip()
                    return out, (f"{self.words[name]} and {self.words[after]} run together "
                                 f"({_quoted(run)}): which column a character belongs to "
                                 "cannot be told")
                # a title runs on past its column: the rest of its word is its own
                while end + carry < len(line) and line[end + carry] != " ":
                    carry += 1
            out[name] = line[start:end + carry].strip() if start < end + carry else ""
        return out, None


def player_from_fields(fields: dict[str, str], kind: str) -> ListPlayer | None:
    """The player a line's fields give (``kind``: the list's, combined or one type);
    ``None`` without a FIDE ID. The fields are checked first by :func:`problem_of`."""
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
        sex=_SEXES.get(sex, ""),
        titles=tuple(fields.get(f, "") for f in _TEXT_FIELDS),  # type: ignore[arg-type]
        ratings=ratings, games=games, ks=ks, birth_year=_int(fields.get("born", "")),
        flag=fields.get("flag", ""))


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _fields(columns: _Columns, raw: bytes) -> tuple[dict[str, str], str | None]:
    """A line's fields and its problem: read by characters, and for a line outside ASCII
    that does not read so, by bytes (a list padded by bytes)."""
    line = _decode(raw)
    fields, problem = columns.split(line)
    problem = problem or problem_of(fields, columns.words)
    if problem is None or line.isascii():
        return fields, problem
    as_bytes, bytes_problem = columns.split(raw.decode("latin-1"))
    as_bytes = {k: _decode(v.encode("latin-1")) for k, v in as_bytes.items()}
    if bytes_problem is None and problem_of(as_bytes, columns.words) is None:
        return as_bytes, None
    return fields, problem


def _read_txt(stream: BinaryIO, kind: str | None, ids: set[int] | None, result: FideList) -> None:
    header_raw = stream.readline(MAX_LINE)
    if len(header_raw) == MAX_LINE and not header_raw.endswith(b"\n"):
        raise RatingError(f"list: {result.shown}: the first line is longer than {MAX_LINE:,} "
                          "bytes; not a FIDE rating list")
    header = _decode(header_raw).lstrip("\ufeff").rstrip("\r\n")
    columns = _Columns(header, result.shown)
    if columns.combined:
        kind = "combined"
    elif kind in (None, "combined"):
        raise RatingError(f"list: {result.shown}: a list of one rating type whose name does not "
                          "say which (standard, rapid or blitz); name the file as FIDE does")
    result.kind, result.layout = kind or "combined", columns.layout
    wanted = None if ids is None else {str(i).encode() for i in ids}
    id_end = columns.id_end
    short_below = columns.reach + 2  # the line end may take two bytes
    count = short = 0
    raw = b"\n"
    for raw in iter(functools.partial(stream.readline, MAX_LINE), b""):
        count += 1
        if len(raw) <= short_below or len(raw) == MAX_LINE:
            short = _odd_line(raw, count + 1, columns, short, result)
        if wanted is not None and raw[:id_end].strip() not in wanted:
            continue
        fields, problem = _fields(columns, raw.rstrip(b"\r\n"))
        player = player_from_fields(fields, result.kind) if fields else None
        fide_id = player.fide_id if player else _int(_decode(raw[:id_end]))
        if fide_id is None:
            result.warnings.append(f"line {count + 1}: no FIDE ID in columns 1-{id_end}")
        else:
            result.keep(fide_id, count + 1, player, problem)
    if not raw.endswith(b"\n") and len(raw) < len(header):
        result.notes.append(f"{result.shown} ends inside line {count + 1}, shorter than the "
                            "header: cut short (an interrupted download?); a player past the "
                            "cut is missing from it")
    result.lines = count


def _odd_line(raw: bytes, line: int, columns: _Columns, short: int, result: FideList) -> int:
    """A line too long (refused: no FIDE list has one) or too short for a player (counted,
    refused past :data:`MAX_SHORT_LINES`); returns the count of short lines."""
    if len(raw) == MAX_LINE and not raw.endswith(b"\n"):
        raise RatingError(f"list: {result.shown}, line {line}: longer than {MAX_LINE:,} bytes; "
                          "a FIDE list's lines are 162 characters: not a FIDE rating list")
    if len(raw.rstrip(b"\r\n")) > columns.reach:
        return short
    short += 1
    if short > MAX_SHORT_LINES:
        raise RatingError(f"list: {result.shown}: more than {MAX_SHORT_LINES:,} lines too short "
                          f"for a player (the last at line {line}); not a FIDE rating list")
    return short


def read_fide_list(source: str | os.PathLike[str] | BinaryIO, ids: Iterable[int] | None = None,
                   *, kind: str | None = None) -> FideList:
    """The players of a FIDE rating list file (path or binary stream), one pass.

    ``ids``: only these FIDE IDs are kept (the others are skipped without being
    parsed); ``None`` keeps every player. ``kind`` names the rating type of a per-type
    list whose file name does not say it. A file that is not a FIDE list raises
    :class:`RatingError` naming it; a line that cannot fill its player is in
    :attr:`FideList.refused`.
    """
    from .listxml import read_xml

    if kind is not None and kind not in RATING_TYPES:
        raise RatingError(f"kind: {kind!r} is not one of {', '.join(RATING_TYPES)}")
    wanted = None if ids is None else {int(i) for i in ids}
    result = FideList(kind="combined", players={})
    with open_list(source) as opened:
        result.shown = opened.shown
        named = list_kind_of(opened.name) if opened.name else None
        if kind is None and named is not None:
            kind = named
        stream = opened.stream
        try:
            start = stream.peek(64)[:64] if hasattr(stream, "peek") else b""
            if not start:
                start = stream.read(64)
                stream.seek(0)
            if start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
                read_xml(stream, kind, wanted, result)
            else:
                _read_txt(stream, kind, wanted, result)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
            raise RatingError(f"list: {opened.shown}: damaged, cannot be read ({error})") from None
    result.finish()
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
