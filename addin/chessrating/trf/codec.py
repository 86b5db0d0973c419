"""Reading and writing FIDE Tournament Report Files (TRF16 and TRF26).

The reader is tolerant: it never fails on what a file holds. Anything it cannot use, and
anything inconsistent (a points column that disagrees with the results, two sides of a
game that disagree, an opponent who does not exist), becomes a
:class:`~chessrating.tournament.ReadWarning` with its line number. It accepts CR, LF or
CRLF line ends, UTF-8 (with or without BOM), UTF-16 (by its BOM), Windows-1252 or Latin-1
for the lines that are not UTF-8 (named), a control or Unicode line-break character
inside a line as a space (named, but a tab), ``###`` comments, dates as
``YYYY/MM/DD``, ``YYYY.MM.DD``, ``DD/MM/YYYY``, ``DD.MM.YYYY`` or a year alone, TRF06
one-letter titles, blank or ``0`` ratings, omitted trailing rounds, byes with a blank
opponent and a birth date shifted one column.

Columns of the ``001`` line (1-based, inclusive; FIDE C.04 Annex 2 and TRF26):
starting number 5–8, sex 10, title 11–13, name 15–47, rating 49–52, federation 54–56,
FIDE ID 58–68, birth date 70–79, points 81–84, rank 86–89; round ``r`` opponent
92+10(r−1) … 95+10(r−1), colour 97+10(r−1), result 99+10(r−1).

>>> text = '''012 Club Championship
... 042 2024/03/01
... 001    1 m  GM Alpha, Anna                      2500 GER     1234567 1990/01/01  1.5    1     2 w 1  0000 - H
... 001    2 w     Beta, Bert                       1800 FRA                         0.0    2     1 b 0'''
>>> t = parse_trf(text)
>>> t.name, t.start_date, t.rounds, [p.name for p in t.players], t.warnings
('Club Championship', datetime.date(2024, 3, 1), 2, ['Alpha, Anna', 'Beta, Bert'], [])
>>> [(g.round, g.opponent, g.colour, g.code) for g in t.players[0].games]
[(1, 2, 'w', '1'), (2, None, None, 'H')]
>>> parse_trf(write_trf(t)).players == t.players
True
"""

from __future__ import annotations

import datetime as _dt
import os
import re

from ..errors import RatingError
from .decoding import decode_lines, decode_trf, fallback_note
from .plaintext import one_line, replaced
from ..tournament import (
    DEFAULT_SCORING, PLAYED_CODES, RESULT_CODES, TITLES, Player, ReadWarning, RoundGame,
    Scoring, Tournament,
)

__all__ = ["read_trf", "parse_trf", "decode_trf", "parse_date", "write_trf", "save_trf",
           "ascii_int", "MAX_ROUNDS", "MAX_WARNINGS", "MAX_LINE_WARNINGS", "MAX_FILE_BYTES"]

# TRF06 one-letter titles, and the way some programs spell the full ones.
_TITLE_ALIASES = {
    "G": "GM", "M": "IM", "F": "FM", "C": "CM",
    "WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM",
    **{t: t for t in TITLES},
}
_MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}
# A result on one side of a game and the results the other side may hold: a double
# forfeit is "-" on both lines, a game lost by both "0" on both (docs/RULES.md §1.3).
_COMPLEMENTS = {
    "1": "0", "0": "10", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "WL", "D": "D", " ": " ",
}
# ASCII digits only: str.isdigit() and int() also take "²" or "١", and str.strip()
# removes control characters (\x1c-\x1f) that int() refuses. Numbers are bounded too:
# int() refuses more than 4,300 digits, and no field of a TRF file holds more than 15.
_DIGITS = re.compile(r"[0-9]+")
_INTEGER = re.compile(r"[0-9]{1,15}")
_DECIMAL = re.compile(r"(?:[0-9]{1,15}(?:[.,][0-9]{0,15})?|[.,][0-9]{1,15})")
_BLANKS = " \t"
# Rounds read from one 001 line (a real event has at most a few dozen), warnings kept per
# line and per file: a damaged or hostile file must not cost time or memory in warnings.
MAX_ROUNDS = 999
MAX_LINE_WARNINGS = 10
MAX_WARNINGS = 1000
# The largest file read: 2,000 players x 30 rounds is under 1 MB.
MAX_FILE_BYTES = 64 << 20
_SCORING_FIELDS = {"W": "win", "D": "draw", "L": "loss", "A": "absence", "P": "pairing_bye"}
# Header records the reader turns into fields; the writer writes these from the fields.
_TEXT_FIELDS = {"012": "name", "022": "city", "032": "federation", "092": "type",
                "102": "chief_arbiter", "122": "time_control"}


def read_trf(source: str | bytes | os.PathLike[str]) -> Tournament:
    """A tournament from a TRF file path, its bytes, or its text.

    A ``str`` with a line break in it is taken as the text itself, any other ``str`` as
    a path. A file that cannot be opened raises :class:`RatingError`; its content never does.
    """
    if isinstance(source, bytes):
        text, odd = decode_lines(source)
    elif isinstance(source, str) and ("\n" in source or "\r" in source):
        return parse_trf(source)
    elif isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
                if len(data) > MAX_FILE_BYTES:
                    raise RatingError(f"path: {os.fspath(source)!r} is larger than "
                                      f"{MAX_FILE_BYTES >> 20} MB; no tournament report is")
                text, odd = decode_lines(data)
        except OSError as error:
            raise RatingError(f"path: {os.fspath(source)!r} cannot be read ({error.strerror})") from None
    else:
        raise RatingError(f"source: {source!r} is neither a path, bytes nor TRF text")
    tournament = parse_trf(text)
    if odd:
        notes = [ReadWarning(line, message) for line, message in fallback_note(odd, text)]
        tournament.warnings[:0] = notes[:MAX_LINE_WARNINGS]
        if len(notes) > MAX_LINE_WARNINGS:
            tournament.warnings.insert(MAX_LINE_WARNINGS, ReadWarning(
                notes[MAX_LINE_WARNINGS].line, f"… {len(notes) - MAX_LINE_WARNINGS} more lines not UTF-8"))
    return tournament


def parse_date(text: str) -> _dt.date | None:
    """A date as TRF files write it, or ``None`` if the text is not one.

    ``YYYY/MM/DD`` (also ``.`` or ``-``), ``YY/MM/DD`` (round dates, 20YY),
    ``DD/MM/YYYY``, ``DD.MM.YYYY`` (spaces after the dots allowed), and English month
    names (``May 29, 2020``, ``29 May 2020``). **Decision**: ``NN/NN/YYYY`` is read day
    first unless the first number cannot be a month day pair that way round.

    >>> parse_date("2024/12/01"), parse_date("24/09/2010"), parse_date("28. 07. 2005")
    (datetime.date(2024, 12, 1), datetime.date(2010, 9, 24), datetime.date(2005, 7, 28))
    >>> parse_date("24/12/06"), parse_date("May 29, 2020"), parse_date("1987/00/00")
    (datetime.date(2024, 12, 6), datetime.date(2020, 5, 29), None)
    """
    text = text.strip()
    parts = [p for p in re.split(r"[./\-\s,]+", text) if p]
    try:
        if len(parts) == 3 and all(_DIGITS.fullmatch(p) for p in parts):
            a, b, c = (int(p) for p in parts)
            if len(parts[0]) == 4:
                return _dt.date(a, b, c)
            if len(parts[2]) == 4:
                return _dt.date(c, a, b) if b > 12 >= a else _dt.date(c, b, a)
            if all(len(p) == 2 for p in parts):
                return _dt.date(2000 + a, b, c)
        if len(parts) == 3:
            words = [p[:3].lower() for p in parts]
            if words[0] in _MONTHS and _DIGITS.fullmatch(parts[1]) and _DIGITS.fullmatch(parts[2]):
                return _dt.date(int(parts[2]), _MONTHS[words[0]], int(parts[1]))
            if words[1] in _MONTHS and _DIGITS.fullmatch(parts[0]) and _DIGITS.fullmatch(parts[2]):
                return _dt.date(int(parts[2]), _MONTHS[words[1]], int(parts[0]))
    except (ValueError, OverflowError):
        return None
    return None


def _birth_year(text: str) -> int | None:
    """The year of a birth date written any of the accepted ways, ``YYYY/00/00`` included."""
    match = re.fullmatch(r"(\d{4})(?:[./\-]\d{1,2}[./\-]\d{1,2})?|\d{1,2}[./\-]\s?\d{1,2}[./\-]\s?(\d{4})",
                         text.strip(), re.ASCII)
    if not match:
        return None
    return int(match.group(1) or match.group(2))


def ascii_int(text: str) -> int | None:
    """The whole number ``text`` spells in ASCII digits (blanks around it allowed), else ``None``.

    >>> ascii_int(" 62 "), ascii_int("\x1e2"), ascii_int("²"), ascii_int("9" * 5000)
    (62, None, None, None)
    """
    text = text.strip(_BLANKS)
    return int(text) if _INTEGER.fullmatch(text) else None


def _col(line: str, first: int, last: int) -> str:
    """Columns ``first`` … ``last`` of a line, 1-based and inclusive as the spec counts."""
    return line[first - 1:last]


def _number(text: str, what: str, warn: list[str], *, decimal: bool = False) -> float | None:
    """A number field, ``None`` when blank; anything else becomes a warning."""
    text = text.strip(_BLANKS)
    if not text:
        return None
    if not (_DECIMAL if decimal else _INTEGER).fullmatch(text):
        warn.append(f"{what} {text!r} is not a number")
        return None
    return float(text.replace(",", ".")) if decimal else int(text)


def _sex_and_title(line: str, warn: list[str]) -> tuple[str, str]:
    sex = _col(line, 10, 10).strip().lower()
    title = _col(line, 11, 13).strip().upper()
    if sex and sex not in "mwf" and _col(line, 10, 13).strip().upper() in _TITLE_ALIASES:
        # A title started one column early, in the sex column.
        sex, title = "", _col(line, 10, 13).strip().upper()
    if sex == "f":  # TRF06 wrote f for women
        sex = "w"
    elif sex and sex not in "mw":
        warn.append(f"sex {sex!r} is not m or w")
        sex = ""
    if title and title not in _TITLE_ALIASES:
        warn.append(f"title {title!r} is not a FIDE title; kept as written")
        return sex, title
    return sex, _TITLE_ALIASES.get(title, "")


def _birth_date(line: str, warn: list[str]) -> tuple[str, int | None]:
    written = _col(line, 69, 80).strip()  # one column either side: shifted dates are common
    if len(written) > 10:  # the columns beside it are not blank: keep to the field
        written = _col(line, 70, 79).strip()
    if not written:
        return "", None
    if _col(line, 70, 79).strip() != written:
        warn.append(f"birth date {written!r} is not in columns 70-79; read anyway")
    year = _birth_year(written)
    if year is None:
        warn.append(f"birth date {written!r} is not a date")
    return written, year


def _round_game(number: int, r: int, slot: str, warn: list[str]) -> RoundGame:
    slot = slot.ljust(10)
    if slot[4] != " " or slot[6] != " " or slot[8:10].strip():
        warn.append(f"round {r}: {slot.rstrip()!r} is not aligned to the round columns")
    opponent_text, colour_text, code = slot[0:4].strip(_BLANKS), slot[5].lower(), slot[7].upper()
    opponent: int | None = None
    read = ascii_int(opponent_text)
    if opponent_text and read is None:
        warn.append(f"round {r}: opponent {opponent_text!r} is not a number")
    elif read and read == number:
        warn.append(f"round {r}: player is paired with himself; opponent dropped")
    elif read:
        opponent = read
    colour = colour_text if colour_text in ("w", "b") else None
    if colour_text not in ("w", "b", "-", " "):
        warn.append(f"round {r}: colour {slot[5]!r} is not w, b or -")
    if code not in RESULT_CODES:
        warn.append(f"round {r}: result {slot[7]!r} is not a TRF result code")
        code = " "
    if opponent is None and code in PLAYED_CODES | set("WDL"):
        warn.append(f"round {r}: result {code!r} without an opponent")
    elif opponent is not None and code in "HFUZ":
        warn.append(f"round {r}: bye {code!r} with opponent {opponent}")
    return RoundGame(r, opponent, colour, code)


def _player(line: str, warn: list[str]) -> Player | None:
    number = _number(_col(line, 5, 8), "starting number", warn)
    if number is None or number <= 0:
        warn.append("no starting number in columns 5-8; line skipped")
        return None
    number = int(number)
    sex, title = _sex_and_title(line, warn)
    rating = _number(_col(line, 49, 52), "rating", warn)
    fide_id = _number(_col(line, 58, 68), "FIDE ID", warn)
    birth_date, birth_year = _birth_date(line, warn)
    points = _number(_col(line, 81, 84), "points", warn, decimal=True)
    rank = _number(_col(line, 86, 89), "rank", warn)
    slots = (len(line) - 91 + 9) // 10
    if slots > MAX_ROUNDS:
        warn.append(f"{slots} round columns; rounds past {MAX_ROUNDS} not read")
    games = [_round_game(number, r, line[91 + 10 * (r - 1): 101 + 10 * (r - 1)], warn)
             for r in range(1, min(slots, MAX_ROUNDS) + 1)]
    while games and games[-1].is_blank:
        games.pop()
    return Player(
        number=number, name=_col(line, 15, 47).strip(), sex=sex, title=title,
        rating=int(rating) if rating else None, federation=_col(line, 54, 56).strip(),
        fide_id=int(fide_id) if fide_id else None, birth_date=birth_date,
        birth_year=birth_year, points=points, rank=None if rank is None else int(rank),
        games=games)


def _scoring(text: str) -> Scoring | None:
    """Record 162: result class letters with their points; ``None`` if none could be read."""
    pairs = re.findall(r"\b([WDLAPX])\s*(\d+(?:[.,]\d+)?)", text.upper(), re.ASCII)
    values = {_SCORING_FIELDS[k]: float(v.replace(",", ".")) for k, v in pairs if k in _SCORING_FIELDS}
    return Scoring(**values) if values else None


def _round_dates(text: str) -> list[_dt.date | None] | None:
    """Record 132 (text from column 5): YY/MM/DD at columns 92-99, 102-109 …"""
    count = max(0, (len(text) - 87 + 9) // 10)
    slots = [text[87 + 10 * i: 97 + 10 * i].strip() for i in range(min(count, MAX_ROUNDS + 1))]
    if not any(slots):  # not aligned: fall back to the words on the line
        slots = text.split(maxsplit=MAX_ROUNDS + 1)
    slots = slots[:MAX_ROUNDS]  # the caller names the dates past them
    dates = [parse_date(s) if s else None for s in slots]
    if any(s and d is None for s, d in zip(slots, dates)):
        return None
    while dates and dates[-1] is None:
        dates.pop()
    return dates


def parse_trf(text: str) -> Tournament:
    """A tournament from TRF text; never raises for what the text holds (see module doc)."""
    if not isinstance(text, str):
        raise RatingError(f"text: {type(text).__name__} is not TRF text")
    t = Tournament()
    t.warnings = _CappedWarnings()
    header_line: dict[str, int] = {}
    player_line: dict[int, int] = {}
    extra_line: list[int] = []
    for lineno, line in enumerate(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")), start=1):
        if not line.strip() or line.startswith("###"):
            continue
        odd = [c for c in replaced(line, astral=False) if c != "U+0009"]  # a tab: one blank column
        line = one_line(line, astral=False)  # no field holds a control or a line break
        if odd:
            t.warnings.append(ReadWarning(lineno, f"{', '.join(odd[:5])}: a control or line-break "
                                                  "character, read as a space"))
        code = line[:3]
        if code == "001":
            warn: list[str] = []
            player = _player(line.rstrip(), warn)
            if player is not None and player.number in player_line:
                warn.append(f"starting number {player.number} already used on line "
                            f"{player_line[player.number]}; line skipped")
                player = None
            if len(warn) > MAX_LINE_WARNINGS:
                warn[MAX_LINE_WARNINGS - 1:] = [f"… {len(warn) - MAX_LINE_WARNINGS + 1} more "
                                                "warnings on this line"]
            t.warnings.extend(ReadWarning(lineno, m) for m in warn)
            if player is not None:
                player_line[player.number] = lineno
                t.players.append(player)
        elif _DIGITS.fullmatch(code) and code.endswith("2"):
            t.headers.setdefault(code, []).append(line[4:].rstrip())
            header_line.setdefault(code, lineno)
        else:
            t.extra_lines.append(line)
            extra_line.append(lineno)
    _read_headers(t, header_line, extra_line)
    _check(t, player_line)
    t.warnings = t.warnings.closed()
    return t


class _CappedWarnings(list):  # type: ignore[type-arg]
    """The reader's warnings, the first :data:`MAX_WARNINGS` kept and the rest counted."""

    dropped = 0

    def append(self, warning: ReadWarning) -> None:
        if len(self) < MAX_WARNINGS:
            super().append(warning)
        else:
            self.dropped += 1

    def extend(self, warnings: object) -> None:
        for warning in warnings:  # type: ignore[attr-defined]
            self.append(warning)

    def closed(self) -> list[ReadWarning]:
        """A plain list, ending in one line that counts the warnings not kept."""
        kept = list(self)
        if self.dropped:
            kept.append(ReadWarning(kept[-1].line, f"… {self.dropped} more warnings not listed"))
        return kept


def _read_headers(t: Tournament, header_line: dict[str, int], extra_line: list[int]) -> None:
    first = {code: lines[0] for code, lines in t.headers.items()}
    for code, name in _TEXT_FIELDS.items():
        setattr(t, name, first.get(code, "").strip())
    t.deputy_arbiters = [d.strip() for d in t.headers.get("112", []) if d.strip()]
    for code, name in (("042", "start_date"), ("052", "end_date")):
        if first.get(code, "").strip():
            setattr(t, name, parse_date(first[code]))
            if getattr(t, name) is None:
                t.warnings.append(ReadWarning(header_line[code], f"date {first[code].strip()!r} not understood"))
    if "132" in first:
        dates = _round_dates(first["132"])
        if dates is None:
            t.warnings.append(ReadWarning(header_line["132"], "round dates not understood"))
        elif len(dates) == MAX_ROUNDS and len(first["132"].split()) > MAX_ROUNDS:
            t.warnings.append(ReadWarning(header_line["132"], f"round dates past round {MAX_ROUNDS} not read"))
        t.round_dates = dates or []
    if first.get("162", "").strip():
        scoring = _scoring(first["162"])
        if scoring is None:
            t.warnings.append(ReadWarning(header_line["162"], "scoring system not understood; TRF defaults used"))
        t.scoring = scoring or DEFAULT_SCORING
    declared = [len(t.round_dates)] + [len(p.games) for p in t.players]
    given = [(first["142"], header_line["142"])] if "142" in first else []
    given += [(line[3:], at) for line, at in zip(t.extra_lines, extra_line) if line.startswith("XXR")]
    for text, at in given:
        number = ascii_int(text)
        if number is not None:
            declared.append(number)
        elif text.strip():
            t.warnings.append(ReadWarning(at, f"number of rounds {text.strip(_BLANKS)!r} is not a number"))
    t.rounds = max(declared)
    listed = ascii_int(first.get("062", ""))
    if listed is None and first.get("062", "").strip():
        t.warnings.append(ReadWarning(header_line["062"], f"number of players {first['062'].strip(_BLANKS)!r} is not a number"))
    elif listed is not None and listed != len(t.players):
        t.warnings.append(ReadWarning(
            header_line["062"], f"062 gives {listed} players, the file lists {len(t.players)}"))
    for line, at in zip(t.extra_lines, extra_line):
        if line.startswith("XXS"):
            t.warnings.append(ReadWarning(
                at, "JaVaFo XXS scoring is not read; points checked with 162 or the defaults"))


def _check(t: Tournament, player_line: dict[int, int]) -> None:
    """Warnings for points and pairings that do not add up."""
    by_number = {p.number: p for p in t.players}
    for p in t.players:
        line = player_line[p.number]
        computed = t.computed_points(p)
        if p.points is not None and abs(p.points - computed) > 1e-9:
            t.warnings.append(ReadWarning(
                line, f"player {p.number}: points column gives {p.points:.1f}, the results give {computed:.1f}"))
        for g in p.games:
            if g.opponent is None:
                continue
            other = by_number.get(g.opponent)
            if other is None:
                t.warnings.append(ReadWarning(
                    line, f"player {p.number} round {g.round}: opponent {g.opponent} does not exist"))
                continue
            back = other.game(g.round)
            if back.opponent != p.number:
                gives = "no opponent" if back.opponent is None else f"opponent {back.opponent}"
                t.warnings.append(ReadWarning(
                    line, f"player {p.number} round {g.round}: opponent {other.number}'s line gives {gives}"))
            elif p.number < other.number:
                if g.code in _COMPLEMENTS and back.code not in _COMPLEMENTS[g.code]:
                    t.warnings.append(ReadWarning(
                        line, f"round {g.round}: results {g.code!r} of player {p.number} and "
                              f"{back.code!r} of player {other.number} do not match"))
                if g.colour is not None and g.colour == back.colour:
                    t.warnings.append(ReadWarning(
                        line, f"round {g.round}: players {p.number} and {other.number} both have colour {g.colour!r}"))


# ---------------------------------------------------------------- writer


def _fits(value: object, width: int, what: str, number: int) -> str:
    text = "" if value is None else str(value)
    if len(text) > width:
        raise RatingError(f"players: {what} {text!r} of player {number} does not fit in {width} columns")
    return text


def _player_line(p: Player) -> str:
    number = _fits(p.number, 4, "starting number", p.number)
    birth = p.birth_date if len(p.birth_date) <= 10 else str(p.birth_year or "")
    points = None if p.points is None else f"{p.points:.1f}"
    line = (f"001 {number:>4} {p.sex[:1]:1}{_fits(p.title, 3, 'title', p.number):>3} "
            f"{p.name[:33]:<33} {_fits(p.rating, 4, 'rating', p.number):>4} "
            f"{_fits(p.federation, 3, 'federation', p.number):<3} "
            f"{_fits(p.fide_id, 11, 'FIDE ID', p.number):>11} {birth:<10} "
            f"{_fits(points, 4, 'points', p.number):>4} {_fits(p.rank, 4, 'rank', p.number):>4}")
    for g in p.games:
        if g.is_blank:
            line += " " * 10
            continue
        opponent = _fits(g.opponent if g.opponent is not None else "0000", 4, "opponent", p.number)
        line += f"  {opponent:>4} {g.colour or '-'} {g.code}"
    return line.rstrip()


def _header_texts(t: Tournament) -> dict[str, list[str]]:
    """Every header record to write: the raw text where it still says what the field says."""
    out = {code: list(lines) for code, lines in t.headers.items()}
    raw = {code: lines[0] for code, lines in t.headers.items()}

    def put(code: str, value: str, same: bool) -> None:
        if code in raw and same:
            return
        if value or code in out:
            out[code] = [value] + out.get(code, [])[1:]

    for code, name in _TEXT_FIELDS.items():
        put(code, getattr(t, name), raw.get(code, "").strip() == getattr(t, name))
    if [d.strip() for d in t.headers.get("112", []) if d.strip()] != t.deputy_arbiters:
        out["112"] = list(t.deputy_arbiters)
    for code, date in (("042", t.start_date), ("052", t.end_date)):
        put(code, "" if date is None else f"{date:%Y/%m/%d}", parse_date(raw.get(code, "")) == date)
    counts = {"062": str(len(t.players)), "072": str(sum(1 for p in t.players if p.rating))}
    for code in counts.keys() & raw.keys():  # counts are optional: updated, never added
        put(code, counts[code], raw[code].strip() == counts[code])
    dates = " " * 87 + "".join(f"{d:%y/%m/%d}  " if d else " " * 10 for d in t.round_dates)
    put("132", dates.rstrip() if t.round_dates else "", _round_dates(raw.get("132", "")) == t.round_dates)
    if "142" in raw:
        put("142", str(t.rounds), raw["142"].strip() == str(t.rounds))
    score = "    ".join(f"{k}{getattr(t.scoring, f):4.1f}" for k, f in _SCORING_FIELDS.items()
                         if getattr(t.scoring, f) is not None)
    put("162", "" if t.scoring.is_default else " " + score,
        (_scoring(raw.get("162", "")) or DEFAULT_SCORING) == t.scoring)
    return {code: out[code] for code in sorted(out) if out[code]}


def write_trf(tournament: Tournament, *, line_end: str = "\r\n") -> str:
    """TRF16 text of a tournament: header records, ``001`` lines, then the kept records.

    Header records the model reads (name, city, dates, arbiters, counts, round dates,
    rounds, scoring) are written from its fields, keeping the file's own text where it
    still says the same; other header records (TRF26 ``152``–``362`` …) and the extra
    lines (``XXR`` updated to ``rounds``, NRS, team records …) are written as kept.
    Comments and warnings are not written. **Decision**: lines end in CR LF by default,
    which ends each line with a CR as the spec asks and opens everywhere; pass
    ``line_end="\\r"`` for bare CR (the spec's letter) or ``"\\n"``.
    Names are cut to their 33 columns; any other value that does not fit its columns,
    or more than :data:`MAX_ROUNDS` rounds, raises :class:`RatingError`. Every line
    break and control character of any kind in a text becomes a space, a character
    outside the Basic Multilingual Plane ``?`` (:mod:`.plaintext`): one record a line,
    its columns where every reader counts them.

    >>> t = Tournament(name="Blitz", players=[Player(1, "Alpha, Anna", "w", "WIM", 2200)])
    >>> write_trf(t, line_end="\\n").splitlines()[-1]
    '001    1 wWIM Alpha, Anna                       2200'
    """
    if line_end not in ("\r\n", "\r", "\n"):
        raise RatingError(f"line_end: {line_end!r} is not CR, LF or CR LF")
    rounds = max([tournament.rounds, len(tournament.round_dates), *(len(p.games) for p in tournament.players)])
    if rounds > MAX_ROUNDS:  # what is written must read back whole
        raise RatingError(f"rounds: {rounds} rounds; a TRF file is read back up to {MAX_ROUNDS} rounds, "
                          "so none is written")
    lines = [f"{code} {text}".rstrip() for code, texts in _header_texts(tournament).items() for text in texts]
    lines += [_player_line(p) for p in tournament.players]
    extra = [f"XXR {tournament.rounds}" if line.startswith("XXR") else line for line in tournament.extra_lines]
    declared = [len(tournament.round_dates), *(len(p.games) for p in tournament.players)]
    if "142" in tournament.headers or any(line.startswith("XXR") for line in extra):
        declared.append(tournament.rounds)
    if tournament.rounds > max(declared):
        extra.append(f"XXR {tournament.rounds}")
    # A line break of any kind inside a name or a kept record would start a new record,
    # and a character outside the BMP would shift the columns after it for some readers.
    return "".join(one_line(line) + line_end for line in lines + extra)


def save_trf(tournament: Tournament, path: str | os.PathLike[str], *, encoding: str = "utf-8",
             line_end: str = "\r\n") -> None:
    """Write :func:`write_trf` text to ``path`` in ``encoding``."""
    text = write_trf(tournament, line_end=line_end)
    try:
        with open(path, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
    except (OSError, UnicodeEncodeError) as error:
        raise RatingError(f"path: {os.fspath(path)!r} cannot be written ({error})") from None
