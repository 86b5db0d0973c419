"""The three tables of a US Chess rating report (format 2C) and the records of one section.

US Chess rates an event from three dBASE III tables the director uploads: ``THEXPORT.DBF``
(one record: the event), ``TSEXPORT.DBF`` (one per section) and ``TDEXPORT.DBF`` (one per
player and section, with every round). The field lists below are the 2C format of US
Chess's TD/affiliate file-format page with its 2025 correction: every field a
left-justified, space-filled character field except the four dates; ``docs/USCF-DBF.md``
gives each field's meaning and the sources.

A round is written as US Chess's result letter, the opponent's pairing number and the
colour (``W12B``: won against number 12 with black); a round without a game is the
letter and ``0`` (``H0``, ``B0``, ``U0``). :data:`RESULT_LETTERS` maps each TRF result
code to its letter (``docs/RULES.md`` §8).

>>> from chessrating.uscf_report.source import RoundGame
>>> [round_cell(RoundGame(1, 12, "b", "1")), round_cell(RoundGame(2, 3, "w", "+")),
...  round_cell(RoundGame(3, None, None, "H")), round_cell(RoundGame(4))]
['W12B', 'X0', 'H0', 'U0']
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import RatingError
from ..trf.plaintext import one_line, replaced
from .source import Player, RoundGame, Tournament

__all__ = [
    "Field", "EVENT_FIELDS", "SECTION_FIELDS", "PLAYER_FIELDS", "FILE_NAMES", "round_fields",
    "ReportInfo", "RESULT_LETTERS", "PLAYED_LETTERS", "result_letter", "round_cell", "report_text",
    "text_problem", "ReportRecords", "report_records", "PROGRAM", "RATING_SYSTEMS",
    "MEMBER_ID", "AFFILIATE_ID", "STATE_CODE", "US_ZIP", "US_STATES", "Value",
]

FILE_NAMES = ("THEXPORT.DBF", "TSEXPORT.DBF", "TDEXPORT.DBF")
PROGRAM = "CHESSRATNG"  # H_PROGRAM holds ten characters
RATING_SYSTEMS = {"R": "regular", "D": "dual (regular and quick)", "Q": "quick"}
MEMBER_ID = re.compile(r"\d{8}")
AFFILIATE_ID = re.compile(r"A\d{7}")
STATE_CODE = re.compile(r"[A-Z]{2}")
US_ZIP = re.compile(r"\d{5}(-\d{4})?")
# The USPS codes of the states, DC, the territories and the armed forces' addresses.
US_STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY", "AS", "GU", "MP", "PR", "VI", "AA", "AE", "AP",
)


@dataclass(frozen=True)
class Field:
    """One dBASE field: name, type (``C`` character, ``D`` date) and length in bytes."""

    name: str
    type: str
    length: int


def _c(name: str, length: int) -> Field:
    return Field(name, "C", length)


EVENT_FIELDS = (
    _c("H_FORMAT", 5), _c("H_PROGRAM", 10), _c("H_EVENT_ID", 12), _c("H_NAME", 35),
    _c("H_TOT_SECT", 2), Field("H_BEG_DATE", "D", 8), Field("H_END_DATE", "D", 8),
    _c("H_AFF_ID", 8), _c("H_CITY", 21), _c("H_STATE", 2), _c("H_ZIPCODE", 10),
    _c("H_COUNTRY", 21), _c("H_SENDCROS", 1), _c("H_CTD_ID", 8), _c("H_ATD_ID", 8),
    _c("H_OTHER_TD", 255),
)
SECTION_FIELDS = (
    _c("S_EVENT_ID", 12), _c("S_SEC_NUM", 2), _c("S_SEC_NAME", 30), _c("S_R_SYSTEM", 1),
    _c("S_TIMECTL", 40), _c("S_CTD_ID", 8), _c("S_ATD_ID", 8), _c("S_TRN_TYPE", 1),
    _c("S_TOT_RNDS", 2), _c("S_LST_PAIR", 4), Field("S_BEG_DATE", "D", 8),
    Field("S_END_DATE", "D", 8), _c("S_SCH_LVL", 1), _c("S_GR_PRIX", 1), _c("S_GP_PTS", 3),
    _c("S_FIDE", 1),
)
PLAYER_FIELDS = (
    _c("D_EVENT_ID", 12), _c("D_SEC_NUM", 2), _c("D_PAIR_NUM", 4), _c("D_MEM_ID", 8),
    _c("D_NAME", 30), _c("D_STATE", 2), _c("D_RATING", 4),
)


def round_fields(rounds: int) -> tuple[Field, ...]:
    """``D_RND01`` … one character field of 7 bytes per round.

    >>> [f.name for f in round_fields(3)]
    ['D_RND01', 'D_RND02', 'D_RND03']
    """
    if not 1 <= rounds <= 99:
        raise RatingError(f"rounds: {rounds!r} is not between 1 and 99")
    return tuple(_c(f"D_RND{n:02d}", 7) for n in range(1, rounds + 1))


# TRF result code -> US Chess letter. W/D/L need the opponent and colour after them;
# every other letter is followed by 0. TRF W/D/L (a game of under one move, not rated)
# become the unrated letters with the same points, as the workbook cells do (cell_result).
RESULT_LETTERS = {
    "1": "W", "=": "D", "0": "L",
    "+": "X", "-": "F", "W": "X", "L": "F", "D": "H",
    "H": "H", "F": "B", "U": "B", "Z": "Z", " ": "U",
}
PLAYED_LETTERS = frozenset("WDL")


def result_letter(code: str) -> str:
    """US Chess's result letter for a TRF result code (``docs/RULES.md`` §8).

    >>> "".join(result_letter(c) for c in "1=0+-WDLHFUZ ")
    'WDLXFXHFHBBZU'
    """
    if not isinstance(code, str) or code.upper() not in RESULT_LETTERS:
        raise RatingError(f"code: {code!r} is not a TRF result code")
    return RESULT_LETTERS[code.upper()]


def round_cell(game: RoundGame) -> str:
    """The ``D_RNDnn`` text of one round: letter, opponent's pairing number, colour.

    A game played without a colour is written without it (the pre-flight check names it).
    """
    letter = result_letter(game.code)
    if letter not in PLAYED_LETTERS:
        return letter + "0"
    if game.opponent is None:
        raise RatingError(f"round {game.round}: result {game.code!r} has no opponent")
    if not 1 <= game.opponent <= 9999:
        raise RatingError(f"round {game.round}: opponent {game.opponent} is not a pairing number 1..9999")
    colour = {"w": "W", "b": "B"}.get(game.colour or "", "")
    return f"{letter}{game.opponent}{colour}"


def report_text(value: str) -> str:
    """The text as the report holds it: accents folded to ASCII, spaces collapsed.

    >>> report_text("  Álvarez,   José ")
    'Alvarez, Jose'
    """
    folded = unicodedata.normalize("NFKD", one_line(value, astral=False))  # no line break; past U+FFFF kept, named
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(plain.split())


def text_problem(value: str, width: int) -> str | None:
    """Why ``value`` cannot go into a character field of ``width`` bytes, or ``None``.

    Nothing is cut short: a value too long for its field is a problem to fix.

    >>> text_problem("Ødegård", 30), text_problem("x" * 31, 30), text_problem("Odegard", 30)
    ("has a character outside ASCII: 'Ø'", 'is 31 characters, the field holds 30', None)
    >>> text_problem("Smith, Ann\\u2028Forged", 30)
    'has a control or line-break character: U+2028'
    >>> text_problem("Ann \U0001F600", 30)
    "has a character outside ASCII: '\U0001f600'"

    """
    breaks = replaced(value, astral=False)  # a character past U+FFFF is named below, as not ASCII
    if breaks:  # a line break or control: named, never written (a reader may split there)
        return f"has a control or line-break character: {', '.join(breaks[:3])}"
    text = report_text(value)
    odd = [ch for ch in text if not " " <= ch <= "~"]
    if odd:
        return f"has a character outside ASCII: {odd[0]!r}"
    if len(text) > width:
        return f"is {len(text)} characters, the field holds {width}"
    return None


@dataclass(frozen=True)
class ReportInfo:
    """What the report needs that the tournament model does not hold.

    The event's name, city, dates, time control and rounds come from the
    :class:`Tournament`. ``member_ids`` and ``player_states`` are keyed by the player's
    starting (pairing) number; a player's US Chess ID has 8 digits. ``rating_system`` is
    ``R`` (regular), ``D`` (dual: regular and quick) or ``Q`` (quick).
    """

    affiliate_id: str = ""
    chief_td_id: str = ""
    assistant_td_id: str = ""
    state: str = ""
    zip_code: str = ""
    country: str = "USA"
    section_number: int = 1
    section_name: str = ""
    rating_system: str = "R"
    member_ids: Mapping[int, str] = field(default_factory=dict)
    player_states: Mapping[int, str] = field(default_factory=dict)


Value = str | _dt.date | None


@dataclass(frozen=True)
class ReportRecords:
    """The records of the three tables, by field name (text as written, dates as dates)."""

    event: dict[str, Value]
    sections: list[dict[str, Value]]
    players: list[dict[str, Value]]
    rounds: int


def _text(value: str, f: Field) -> str:
    problem = text_problem(value, f.length)
    if problem:
        raise RatingError(f"{f.name}: {value!r} {problem}")
    return report_text(value)


def _checked(record: dict[str, Value], fields: tuple[Field, ...]) -> dict[str, Value]:
    """The record in field order, every text checked against its field."""
    values = {f.name: record[f.name] for f in fields}
    return {f.name: _text(v, f) if isinstance(v, str) else v for f, v in zip(fields, values.values())}


def _player_record(p: Player, info: ReportInfo, rounds: int) -> dict[str, Value]:
    record: dict[str, Value] = {
        "D_EVENT_ID": "", "D_SEC_NUM": str(info.section_number), "D_PAIR_NUM": str(p.number),
        "D_MEM_ID": info.member_ids.get(p.number, ""), "D_NAME": p.name,
        "D_STATE": info.player_states.get(p.number, "").upper(),
        # US Chess takes 0 for an unrated player, as SwissSys writes it
        "D_RATING": str(p.rating or 0),
    }
    fields = PLAYER_FIELDS + round_fields(rounds)
    for n in range(1, rounds + 1):
        record[f"D_RND{n:02d}"] = round_cell(p.game(n))
    return _checked(record, fields)


def report_records(t: Tournament, info: ReportInfo) -> ReportRecords:
    """The three tables' records for a tournament reported as one section.

    Raises :class:`RatingError` for a value the format cannot hold (too long, not ASCII,
    a game without opponent); :func:`~chessrating.uscf_report.preflight.preflight` lists
    those and what US Chess would reject besides.
    """
    rounds = max([t.rounds] + [len(p.games) for p in t.players])
    event = _checked({
        "H_FORMAT": "2C", "H_PROGRAM": PROGRAM, "H_EVENT_ID": "", "H_NAME": t.name,
        "H_TOT_SECT": "1", "H_BEG_DATE": t.start_date, "H_END_DATE": t.end_date,
        "H_AFF_ID": info.affiliate_id.upper(), "H_CITY": t.city, "H_STATE": info.state.upper(),
        "H_ZIPCODE": info.zip_code, "H_COUNTRY": info.country, "H_SENDCROS": "N",
        "H_CTD_ID": info.chief_td_id, "H_ATD_ID": info.assistant_td_id, "H_OTHER_TD": "",
    }, EVENT_FIELDS)
    section = _checked({
        "S_EVENT_ID": "", "S_SEC_NUM": str(info.section_number), "S_SEC_NAME": info.section_name,
        "S_R_SYSTEM": info.rating_system.upper(), "S_TIMECTL": t.time_control,
        "S_CTD_ID": info.chief_td_id, "S_ATD_ID": info.assistant_td_id,
        # rounds are reported in order, the Swiss way, for round robins too
        "S_TRN_TYPE": "S", "S_TOT_RNDS": str(rounds),
        "S_LST_PAIR": str(max((p.number for p in t.players), default=0)),
        "S_BEG_DATE": t.start_date, "S_END_DATE": t.end_date,
        "S_SCH_LVL": "", "S_GR_PRIX": "N", "S_GP_PTS": "0", "S_FIDE": "N",
    }, SECTION_FIELDS)
    players = [_player_record(p, info, rounds) for p in sorted(t.players, key=lambda p: p.number)]
    return ReportRecords(event, [section], players, rounds)
