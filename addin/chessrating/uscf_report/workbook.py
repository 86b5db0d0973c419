"""The US Chess event workbook read into the report: a :class:`Tournament`, the
:class:`ReportInfo` and what reading found wrong.

The workbook is read once (:func:`chessrating.trf.bookview.read_book_view`: the values the
file holds, inputs only, so a template typed into by any program needs no recalculation)
and its cells found through the workbook names the template defines: ``Names`` (the
crosstable's player rows), the Report sheet's ``Report…`` cells, ``UscfIds`` and
``PlayerStates`` (:mod:`chessrating.workbooks.uscf_report_sheet`), ``DualRated``. Beside
the names stand, in the template's order, Rating and the other player columns; the
rounds are found by their headers (``Opp``, ``Col``, ``Res`` under ``Round n``), so a
workbook built before the colour column existed is read too and its games named as
lacking a colour.

Where things come from: the event's name is the crosstable's Event cell; city, dates and
time control the Report sheet's; each player's number (the row), name, rating (blank, 0
or ``-``: unrated) and every round the crosstable's; US Chess ID and state the Report
sheet's. A result cell becomes its TRF code (:func:`chessrating.trf.bookgames.trf_code`:
``1 ½ 0``, ``+ -`` forfeits, ``H`` half-point bye, ``B`` full-point bye, ``U``, ``Z``),
which :func:`.layout.round_cell` turns into US Chess's letter.

**Decisions**

* A round with an opponent and no result is a game not reported: named, not written as
  played (the report would give both players ``U0``).
* A date typed as text is read only as ``YYYY/MM/DD`` (or ``YYYY-MM-DD``): ``03/07/2026``
  means 7 March to a US director and 3 July to the TRF reader, so it is named instead.
* A date before 1910 (a year typed into a date cell: 2026 is 1905/07/18 there) is named
  instead; a number in a cell not formatted as a date is read as the serial date it is.
* A name that is an Excel error (``#N/A`` as a formula's value) is named, not a player.
* The rating system must agree with the crosstable's Dual rated setting (``D`` exactly
  when it is TRUE), since the ratings the workbook shows were computed with it.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..cells import whole_number
from ..errors import RatingError
from ..results import EXCEL_ERRORS
from ..trf.celldates import cell_date
from ..trf.bookview import BookView, read_book_view
from ..trf.bookgames import cell_text, trf_code
from .layout import ReportInfo
from .preflight import Issue
from .source import Player, RoundGame, Tournament, colour_code

__all__ = ["UscfBook", "read_uscf_book", "uscf_book"]

_ISO_DATE = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})")
_NOT_USCF = "is not a US Chess crosstable ({}); export-uscf reads the US Chess event workbook"


@dataclass
class UscfBook:
    """A US Chess workbook read for the report, with what reading it found wrong."""

    path: Path
    tournament: Tournament
    info: ReportInfo
    issues: list[Issue] = field(default_factory=list)


def _date(value: Any) -> tuple[_dt.date | None, str]:
    """A date cell's date, or ``None`` and why not (a blank cell is not asked)."""
    if isinstance(value, (_dt.date, int, float)) and not isinstance(value, bool):
        # a date before 1910 is a year or number typed into a date cell (2026 shows as
        # 1905/07/18): named as such (trf.celldates)
        found_date, problem = cell_date(value)
        return found_date, (problem or "").removesuffix("; not written")
    found = _ISO_DATE.fullmatch(cell_text(value))
    if found:
        try:
            return _dt.date(*(int(g) for g in found.groups())), ""
        except ValueError:
            pass
    return None, f"{cell_text(value)!r} is not a date (type it as a date, e.g. 2026/03/07)"


def _rounds(view: BookView, sheet: str, header_row: int, from_col: int) -> list[tuple[int, int | None, int]]:
    """(opponent, colour or ``None``, result) columns of each round, by their headers."""
    out: list[tuple[int, int | None, int]] = []
    last = view.max_col.get(sheet, 0)
    for c in range(from_col, last + 1):
        if view.value(sheet, header_row, c) != "Opp":
            continue
        colour = c + 1 if view.value(sheet, header_row, c + 1) == "Col" else None
        result = next((r for r in range(c + 1, c + 4) if view.value(sheet, header_row, r) == "Res"), None)
        if result is not None:
            out.append((c, colour, result))
    return out


def _event(view: BookView, t: Tournament, issues: list[Issue]) -> ReportInfo:
    """The Report sheet's event cells: into ``t`` what the model holds, the rest returned."""
    if not view.has("ReportAffiliate"):
        issues.append(Issue(0, "", "Report sheet", "missing (a workbook built before it): copy the "
                            "players and rounds into a new US Chess template"))
    t.city, t.time_control = view.text("ReportCity"), view.text("ReportTimeControl")
    for name, attr, label in (("ReportStart", "start_date", "start date"), ("ReportEnd", "end_date", "end date")):
        raw = view.one(name)
        found, why = _date(raw) if raw is not None else (None, "")
        setattr(t, attr, found)
        if found is None and why:
            issues.append(Issue(0, "", label, why))
    system = view.text("ReportRatingSystem").upper()
    dual = view.one("DualRated")
    if system in ("R", "D", "Q") and isinstance(dual, bool) and dual != (system == "D"):
        issues.append(Issue(0, "", "rating system", f"{system} but the crosstable's Dual rated is "
                            f"{str(dual).upper()}: D exactly when the event is dual rated"))
    country = view.text("ReportCountry") if view.has("ReportCountry") else "USA"
    return ReportInfo(affiliate_id=view.text("ReportAffiliate").upper(), chief_td_id=view.text("ReportChiefTd"),
                      assistant_td_id=view.text("ReportAssistantTd"), state=view.text("ReportState").upper(),
                      zip_code=view.text("ReportZip"), country=country,
                      section_name=view.text("ReportSection"), rating_system=system)


def _games(view: BookView, sheet: str, row: int, p: Player, rounds: list[tuple[int, int | None, int]],
           numbers: set[int], issues: list[Issue]) -> None:
    for rnd, (opp_col, colour_col, result_col) in enumerate(rounds, start=1):
        opp_value, result = view.value(sheet, row, opp_col), view.value(sheet, row, result_col)
        colour_value = view.value(sheet, row, colour_col) if colour_col else None
        label = f"round {rnd}"
        opponent = whole_number(opp_value)
        if opp_value is not None and (opponent is None or opponent not in numbers or opponent == p.number):
            issues.append(Issue(p.number, p.name, label,
                                f"opponent {cell_text(opp_value)!r} is not another player's number"))
            opponent = None
        code = trf_code(result)
        if code is None:
            issues.append(Issue(p.number, p.name, label, f"result {cell_text(result)!r} is not a result"))
            code = " "
        colour = colour_code(cell_text(colour_value))
        if colour_value is not None and colour is None:
            issues.append(Issue(p.number, p.name, label, f"colour {cell_text(colour_value)!r} is not W or B"))
        if opponent is not None and code == " ":
            issues.append(Issue(p.number, p.name, label, f"paired with player {opponent}, no result"))
            continue
        p.games.append(RoundGame(rnd, opponent, colour if opponent is not None else None, code))
    while p.games and p.games[-1].is_blank:
        p.games.pop()


def _rating(value: Any, p: Player, issues: list[Issue]) -> int | None:
    if value is None or value == "-" or value == 0:
        return None
    rating = whole_number(value)
    if rating is None or not 100 <= rating <= 4000:
        issues.append(Issue(p.number, p.name, "rating", f"{cell_text(value)!r} is not a rating"))
        return None
    return rating


def uscf_book(view: BookView) -> UscfBook:
    """The report's tournament and fields that a US Chess workbook's values hold."""
    cells = view.names.get("Names")
    if not cells:
        raise RatingError(f"book: {str(view.path)!r} " + _NOT_USCF.format("no Names range"))
    sheet, first_row, name_col = cells[0]
    if view.value(sheet, first_row - 2, name_col + 2) != "Games so far":
        raise RatingError(f"book: {str(view.path)!r} " + _NOT_USCF.format("no Games so far column"))
    t = Tournament(name=cell_text(view.value(sheet, 2, name_col)))
    issues: list[Issue] = []
    info = _event(view, t, issues)
    rows = [(i + 1, row) for i, (_, row, _) in enumerate(cells) if cell_text(view.value(sheet, row, name_col))]
    numbers = {number for number, _ in rows}
    rounds = _rounds(view, sheet, first_row - 1, name_col + 1)
    ids, states = view.named("UscfIds"), view.named("PlayerStates")
    member_ids: dict[int, str] = {}
    player_states: dict[int, str] = {}
    for number, row in rows:
        p = Player(number, cell_text(view.value(sheet, row, name_col)))
        if p.name in EXCEL_ERRORS:
            issues.append(Issue(number, "", "name", f"holds the Excel error {p.name}, not a name"))
        p.rating = _rating(view.value(sheet, row, name_col + 1), p, issues)
        _games(view, sheet, row, p, rounds, numbers, issues)
        t.players.append(p)
        member_ids[number] = cell_text(ids[number - 1] if number <= len(ids) else None)
        player_states[number] = cell_text(states[number - 1] if number <= len(states) else None).upper()
    t.rounds = max((len(p.games) for p in t.players), default=0)
    info = replace(info, member_ids=member_ids, player_states=player_states)
    return UscfBook(view.path, t, info, issues)


def read_uscf_book(path: str | Path) -> UscfBook:
    """The US Chess workbook at ``path``, read for the report."""
    return uscf_book(read_book_view(path))
