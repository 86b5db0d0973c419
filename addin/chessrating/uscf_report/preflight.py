"""The pre-flight check of a US Chess rating report: what US Chess would reject or rate
wrong, by player and field, before any file is written.

The event: affiliate ID (``A`` and seven digits), chief TD ID (eight digits; the
assistant's too, if given), name, city, state, ZIP code, country, both dates, time
control, section name, rating system (``R``, ``D``, ``Q``), rounds that have no result at
all, pairing numbers that do not run 1…N and scoring other than US Chess's 1, ½, 0. Each
player: a US Chess ID (eight digits, once per section), a name ``LAST, FIRST`` that fits,
a two-letter state if one is given, and every round: a game's result needs an opponent
who is in the section and whose row names the player back with the matching result (a
win against a loss, a draw against a draw, a forfeit win against a forfeit loss) and the
other colour, and a colour.

>>> from chessrating.uscf_report.source import Player, RoundGame, Tournament
>>> t = Tournament(name="Club", city="Reno", time_control="G/60;d5", rounds=1, players=[
...     Player(1, "Doe, Jane", games=[RoundGame(1, None, None, "1")])])
>>> for issue in preflight(t, ReportInfo(chief_td_id="1234567")):
...     print(issue)  # doctest: +ELLIPSIS
event: affiliate ID: missing
event: chief TD ID: '1234567' is not 8 digits
event: state: missing
...
player 1 Doe, Jane: US Chess ID: missing
player 1 Doe, Jane: round 1: result '1' but no opponent
"""

from __future__ import annotations

from collections import Counter

from .layout import (AFFILIATE_ID, MEMBER_ID, PLAYED_LETTERS, RATING_SYSTEMS, RESULT_LETTERS,
                     STATE_CODE, US_STATES, US_ZIP, ReportInfo, report_text, text_problem)
from ..trf.preflight import Issue  # one line of a rating report's check, FIDE's and US Chess's
from .source import Player, RoundGame, Tournament

__all__ = ["Issue", "preflight"]


def _text_issues(player: int, name: str, label: str, value: str, width: int) -> list[Issue]:
    if not value.strip():
        return [Issue(player, name, label, "missing")]
    problem = text_problem(value, width)
    return [Issue(player, name, label, problem)] if problem else []


def _id_issue(player: int, name: str, label: str, value: str, *, required: bool = True) -> list[Issue]:
    if not value:
        return [Issue(player, name, label, "missing")] if required else []
    if not MEMBER_ID.fullmatch(value):
        return [Issue(player, name, label, f"{value!r} is not 8 digits")]
    if value == "00000000":  # 2C's mark for an ID not known, which US Chess cannot rate
        return [Issue(player, name, label, "00000000 stands for no ID")]
    return []


def _officials(info: ReportInfo) -> list[Issue]:
    out: list[Issue] = []
    if not info.affiliate_id:
        out.append(Issue(0, "", "affiliate ID", "missing"))
    elif not AFFILIATE_ID.fullmatch(info.affiliate_id.upper()):
        out.append(Issue(0, "", "affiliate ID", f"{info.affiliate_id!r} is not A and 7 digits"))
    out += _id_issue(0, "", "chief TD ID", info.chief_td_id)
    return out + _id_issue(0, "", "assistant TD ID", info.assistant_td_id, required=False)


def _place(t: Tournament, info: ReportInfo) -> list[Issue]:
    out = _text_issues(0, "", "city", t.city, 21)
    in_us = info.country.upper() in ("USA", "US")
    if not info.state:
        out.append(Issue(0, "", "state", "missing"))
    elif not STATE_CODE.fullmatch(info.state.upper()):
        out.append(Issue(0, "", "state", f"{info.state!r} is not a two-letter state code"))
    elif in_us and info.state.upper() not in US_STATES:
        out.append(Issue(0, "", "state", f"{info.state!r} is not a US state's code"))
    if in_us:
        if not US_ZIP.fullmatch(info.zip_code):
            problem = f"{info.zip_code!r} is not a US ZIP code" if info.zip_code else "missing"
            out.append(Issue(0, "", "ZIP code", problem))
    elif info.zip_code:
        out += _text_issues(0, "", "ZIP code", info.zip_code, 10)
    return out + _text_issues(0, "", "country", info.country, 21)


def _section(t: Tournament, info: ReportInfo) -> list[Issue]:
    out = _text_issues(0, "", "event name", t.name, 35) + _text_issues(0, "", "section name", info.section_name, 30)
    out += _text_issues(0, "", "time control", t.time_control, 40)
    for label, day in (("start date", t.start_date), ("end date", t.end_date)):
        if day is None:
            out.append(Issue(0, "", label, "missing"))
    if t.start_date and t.end_date and t.end_date < t.start_date:
        out.append(Issue(0, "", "end date", "before the start date"))
    if not info.rating_system:
        out.append(Issue(0, "", "rating system", "missing (R regular, D dual, Q quick)"))
    elif info.rating_system.upper() not in RATING_SYSTEMS:
        out.append(Issue(0, "", "rating system", f"{info.rating_system!r} is not R, D or Q"))
    if not 1 <= info.section_number <= 99:
        out.append(Issue(0, "", "section number", f"{info.section_number} is not between 1 and 99"))
    if not t.scoring.is_default:
        out.append(Issue(0, "", "scoring", "not 1, ½, 0: US Chess scores the results with its own points"))
    return out


def _event_issues(t: Tournament, info: ReportInfo) -> list[Issue]:
    return _officials(info) + _place(t, info) + _section(t, info) + _round_issues(t) + _number_issues(t)


def _round_issues(t: Tournament) -> list[Issue]:
    rounds = max([t.rounds] + [len(p.games) for p in t.players])
    if not 1 <= rounds <= 99:
        return [Issue(0, "", "rounds", f"{rounds} is not between 1 and 99")]
    empty = [r for r in range(1, rounds + 1) if all(p.game(r).is_blank for p in t.players)]
    if empty:
        listed = ", ".join(map(str, empty))
        return [Issue(0, "", "rounds", f"the section has {rounds} rounds but no result in round(s) {listed}")]
    return []


def _number_issues(t: Tournament) -> list[Issue]:
    numbers = sorted(p.number for p in t.players)
    if not numbers:
        return [Issue(0, "", "players", "none")]
    if numbers != list(range(1, len(numbers) + 1)):
        return [Issue(0, "", "pairing numbers", f"do not run 1..{len(numbers)} (they run {numbers[0]}..{numbers[-1]}"
                      f"{', some twice' if len(set(numbers)) < len(numbers) else ''})")]
    if len(numbers) > 9999:
        return [Issue(0, "", "pairing numbers", "more than 9999 players")]
    return []


def _game_issues(p: Player, by_number: dict[int, Player]) -> list[Issue]:
    out: list[Issue] = []
    for g in p.games:
        label = f"round {g.round}"
        letter = RESULT_LETTERS.get(g.code.upper())
        if letter is None:
            out.append(Issue(p.number, p.name, label, f"{g.code!r} is not a TRF result code"))
        other = by_number.get(g.opponent) if g.opponent is not None else None
        back = other.game(g.round) if other is not None else None
        if other is not None and back is not None and back.opponent == p.number and p.number < other.number:
            out += _pair_issues(p, g, back)  # a game or a forfeit, named once
        if letter not in PLAYED_LETTERS:
            continue
        if g.opponent is None:
            out.append(Issue(p.number, p.name, label, f"result {g.code!r} but no opponent"))
        elif back is None:
            out.append(Issue(p.number, p.name, label, f"opponent {g.opponent} is not a player of the section"))
        elif back.opponent != p.number:
            gives = "no opponent" if back.opponent is None else f"player {back.opponent}"
            out.append(Issue(p.number, p.name, label, f"paired with player {g.opponent}, whose row gives {gives}"))
        if g.opponent is not None and g.colour not in ("w", "b"):
            out.append(Issue(p.number, p.name, label, "a game without colour (w or b)"))
    return out


# The letters the opponent's row may give for each letter of a game (a double forfeit is F, F).
_ANSWERS = {"W": "L", "L": "W", "D": "D", "X": "F", "F": "XF"}


def _pair_issues(p: Player, g: RoundGame, back: RoundGame) -> list[Issue]:
    """Where the two rows of one game disagree: the results, or both the same colour
    (named once, on the lower number's row)."""
    out: list[Issue] = []
    mine, theirs = RESULT_LETTERS.get(g.code.upper(), "?"), RESULT_LETTERS.get(back.code.upper(), "?")
    if theirs not in _ANSWERS.get(mine, ""):
        out.append(Issue(p.number, p.name, f"round {g.round}", f"result {mine} against player {g.opponent}, "
                         f"whose row gives {theirs}: the two sides disagree"))
    if mine in PLAYED_LETTERS and g.colour in ("w", "b") and g.colour == back.colour:
        out.append(Issue(p.number, p.name, f"round {g.round}", f"the same colour as player {g.opponent}"))
    return out


def _player_issues(p: Player, info: ReportInfo, by_number: dict[int, Player], twice: set[str]) -> list[Issue]:
    member = info.member_ids.get(p.number, "")
    out = _id_issue(p.number, p.name, "US Chess ID", member)
    if member in twice:
        out.append(Issue(p.number, p.name, "US Chess ID", f"{member} is given to more than one player"))
    out += _text_issues(p.number, p.name, "name", p.name, 30)
    if p.name.strip() and "," not in report_text(p.name):
        out.append(Issue(p.number, p.name, "name", "not in the form LAST, FIRST"))
    state = info.player_states.get(p.number, "")
    if state and not STATE_CODE.fullmatch(state.upper()):
        out.append(Issue(p.number, p.name, "state", f"{state!r} is not a two-letter state code"))
    if p.rating is not None and not 0 <= p.rating <= 9999:
        out.append(Issue(p.number, p.name, "rating", f"{p.rating} does not fit 4 digits"))
    return out + _game_issues(p, by_number)


def preflight(t: Tournament, info: ReportInfo) -> list[Issue]:
    """What US Chess would reject or rate wrong, the event's issues first, then by player."""
    out = _event_issues(t, info)
    by_number = {p.number: p for p in t.players}
    ids = Counter(info.member_ids.get(p.number, "") for p in t.players)
    twice = {member for member, count in ids.items() if member and count > 1}
    for p in sorted(t.players, key=lambda q: q.number):
        out += _player_issues(p, info, by_number, twice)
    return out
