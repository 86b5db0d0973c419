"""TRF-2026's national records: a player's data in a national federation's own system.

A TRF-2026 file may follow the players with lines that open with a federation's
three-letter code instead of ``001``, one per player that federation rates, laid out as
the ``001`` line up to the birth date (the file's ``###`` comment names the columns
``SSSS sTTT NNN… RRRR FFF IIIIIIIIIII BBBB/BB/BB``): starting number (columns 5–8), sex
(10), title (11–13), name (15–47), national rating (49–52), origin (54–56: the region,
for a US event the state), national ID (58–68) and birth date (70–79). The reader keeps
them verbatim (:attr:`Tournament.extra_lines`); :func:`national_records` reads those of
one federation, e.g. ``USA``: the US Chess ID and state the US Chess report needs.

>>> from chessrating.tournament import Player, Tournament
>>> line = "USA    2   FM Doe, Jane                         1812 NV  12345678    1990/05/17"
>>> t = Tournament(players=[Player(2, "Doe, Jane")], extra_lines=[line])
>>> r = national_records(t, "USA")[2]
>>> r.national_id, r.origin, r.rating, r.title
('12345678', 'NV', 1812, 'FM')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tournament import Tournament

__all__ = ["NationalRecord", "national_records", "parse_national_line"]


@dataclass(frozen=True)
class NationalRecord:
    """One national record, its fields stripped; ``rating`` ``None`` when blank or 0."""

    federation: str
    number: int
    name: str
    sex: str = ""
    title: str = ""
    rating: int | None = None
    origin: str = ""
    national_id: str = ""
    birth_date: str = ""


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, as the TRF layouts count) of ``line``, stripped."""
    return line[first - 1:last].strip()


def parse_national_line(line: str) -> NationalRecord | None:
    """A national record, or ``None`` for a line that is not one (no federation code, no
    starting number).

    >>> parse_national_line("001    1      Doe, Jane") is None
    True
    """
    federation = line[:3]
    if len(line) < 8 or not (federation.isascii() and federation.isalpha() and federation.isupper()) \
            or line[3:4] != " ":
        return None
    number = _field(line, 5, 8)
    if not number.isdigit():
        return None
    rating = _field(line, 49, 52)
    return NationalRecord(federation, int(number), _field(line, 15, 47), _field(line, 10, 10).lower(),
                          _field(line, 11, 13), int(rating) if rating.isdigit() and int(rating) else None,
                          _field(line, 54, 56).upper(), _field(line, 58, 68), _field(line, 70, 79))


def _same_name(a: str, b: str) -> bool:
    """The same words in any order: ``Doe, Jane`` is ``Jane Doe`` (files differ in the order)."""
    def words(name: str) -> list[str]:
        return sorted(name.casefold().replace(",", " ").split())
    return words(a) == words(b)


def national_records(t: "Tournament", federation: str) -> dict[int, NationalRecord]:
    """The ``federation``'s records by the players' starting numbers.

    A record goes to the player with its starting number when the names agree (the same
    words, in any order) or the record has none; otherwise to the one record of the
    player's name, so records still find their players after the import renumbered them
    (:mod:`.sizing`). A record that matches no player is left out.
    """
    records = [r for line in t.extra_lines
               if line.startswith(federation) and (r := parse_national_line(line)) is not None
               and r.federation == federation]
    by_number = {r.number: r for r in records}
    out: dict[int, NationalRecord] = {}
    for p in t.players:
        record = by_number.get(p.number)
        if record is not None and (not record.name or _same_name(record.name, p.name)):
            out[p.number] = record
            continue
        named = [r for r in records if r.name and _same_name(r.name, p.name)]
        if len(named) == 1:
            out[p.number] = named[0]
    return out
