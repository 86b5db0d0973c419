"""Tie-breaks of a tournament by code, and the ranks they give (docs/RULES.md §6).

FIDE codes as Handbook C.07 spells them, with their modifiers after ``/`` or ``-``
(``BH/C1``, ``bh-c1``), under the 2024 or the 2026 edition; US Chess codes of rule 34E.
:func:`tiebreak` gives one value per player; :func:`ranks` orders players by points and
then by each tie-break column; the default lists are :data:`FIDE_SWISS_DEFAULTS`,
:data:`FIDE_ROUND_ROBIN_DEFAULTS` and :data:`USCF_DEFAULTS`.

>>> from chessrating.tiebreaks.event import from_grid
>>> event = from_grid([[None, "1", "½"], ["0", None, "1"], ["½", "0", None]])
>>> tiebreak("SB", event), tiebreak("win", event), tiebreak("DE", event)
([1.25, 0.5, 0.75], [1, 1, 0], [0, 0, 0])
>>> ranks([1.5, 1.0, 1.0], [[1.25, 0.5, 0.75]])
[1, 3, 2]
>>> tiebreak("XX", event)
Traceback (most recent call last):
...
chessrating.errors.RatingError: code: 'XX' is not a tie-break; known: DE, WIN, WON, BPG, BWG, PS, REP (GE), BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO, MODMED, MEDIAN, SOLKOFF, CUMULATIVE, OPPCUM, KASHDAN, BLACKS
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import fide as fide_tb
from . import uscf as uscf_tb
from ..errors import RatingError
from ..results import NoValue, describe, refusal
from .event import Event

__all__ = [
    "RULES", "CODES", "FIDE_SWISS_DEFAULTS", "FIDE_ROUND_ROBIN_DEFAULTS", "USCF_DEFAULTS",
    "Code", "parse_code", "tiebreak", "ranks", "standings", "reads_ratings", "reads_colours",
]

RULES = ("2026", "2024")

# Defaults for the templates and the command line (docs/RULES.md §6.5). C.07 itself lists
# none; these are what tournament software offers first.
FIDE_SWISS_DEFAULTS = ("BH/C1", "BH", "SB", "DE")
FIDE_ROUND_ROBIN_DEFAULTS = ("DE", "SB", "WIN", "KS")
USCF_DEFAULTS = ("MODMED", "SOLKOFF", "CUMULATIVE")

Value = float | int | NoValue

_CUTS = {"C1": (1, 0), "C2": (2, 0), "M1": (1, 1), "M2": (2, 2)}
# The modifiers each base code takes: cuts/medians (Art. 14), P for forfeits as games.
_MODIFIERS: dict[str, tuple[str, ...]] = {
    "DE": ("P",), "PS": ("C1", "C2"),
    "BH": tuple(_CUTS), "FB": tuple(_CUTS), "SB": tuple(_CUTS), "ARO": tuple(_CUTS),
}
_ALIASES = {
    "GE": "REP", "MM": "MODMED", "MED": "MEDIAN", "SOLK": "SOLKOFF", "CUM": "CUMULATIVE",
    "OC": "OPPCUM", "KASH": "KASHDAN", "MB": "BLACKS",
}
CODES = ("DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "BH", "FB", "AOB", "SB", "KS", "ARO",
         "TPR", "PTP", "APRO", "APPO", "MODMED", "MEDIAN", "SOLKOFF", "CUMULATIVE", "OPPCUM",
         "KASHDAN", "BLACKS")


@dataclass(frozen=True)
class Code:
    """A parsed tie-break code: the base, how many low and high values are cut, and
    whether forfeits count as games (``/P``)."""

    base: str
    low: int = 0
    high: int = 0
    forfeits: bool = False
    text: str = ""


def _known() -> str:
    return ", ".join("REP (GE)" if c == "REP" else c for c in CODES)


def parse_code(code: Any) -> Code:
    """A code such as ``"BH/C1"``, ``"bh-c1"``, ``"SB/M1"``, ``"DE/P"``, ``"GE"``.

    >>> parse_code(" bh-c1 "), parse_code("GE").base
    (Code(base='BH', low=1, high=0, forfeits=False, text='BH/C1'), 'REP')
    >>> parse_code("WIN/C1")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: code: 'WIN/C1' has a modifier WIN does not take; WIN takes none
    """
    if not isinstance(code, str) or not code.strip():
        raise refusal("code", code, f"is not a tie-break; known: {_known()}")
    parts = code.strip().upper().replace("-", "/").split("/")
    base = _ALIASES.get(parts[0].strip(), parts[0].strip())
    if base not in CODES:
        raise refusal("code", code, f"is not a tie-break; known: {_known()}")
    modifiers = [p.strip() for p in parts[1:]]
    allowed = _MODIFIERS.get(base, ())
    low = high = 0
    forfeits = False
    for modifier in modifiers:
        if modifier not in allowed or (modifier in _CUTS and (low or high)) or (modifier == "P" and forfeits):
            takes = ", ".join(allowed) if allowed else "none"
            raise RatingError(f"code: {describe(code)} has a modifier {base} does not take; "
                              f"{base} takes {takes}", argument="code")
        if modifier == "P":
            forfeits = True
        else:
            low, high = _CUTS[modifier]
    return Code(base, low, high, forfeits, "/".join([base] + modifiers))


def _per_player(function: Callable[..., Value], *extra: Any) -> Callable[[fide_tb.Scores, Code], list[Value]]:
    return lambda scores, code: [function(scores, i, *extra) for i in range(scores.event.size)]


def _cut(function: Callable[..., Value]) -> Callable[[fide_tb.Scores, Code], list[Value]]:
    return lambda scores, code: [function(scores, i, code.low, code.high) for i in range(scores.event.size)]


def _progressive(scores: fide_tb.Scores, code: Code) -> list[Value]:
    if not scores.event.by_rounds:
        raise RatingError("code: PS needs the rounds in order; give opponents by round, not a grid", argument="code")
    return [fide_tb.progressive(scores, i, code.low) for i in range(scores.event.size)]


def _direct(scores: fide_tb.Scores, code: Code) -> list[Value]:
    return list(fide_tb.direct_encounter(scores, code.forfeits))


_FIDE: dict[str, Callable[[fide_tb.Scores, Code], list[Value]]] = {
    "DE": _direct,
    "WIN": _per_player(fide_tb.wins), "WON": _per_player(fide_tb.won),
    "BPG": _per_player(fide_tb.black_games), "BWG": _per_player(fide_tb.black_wins),
    "PS": _progressive, "REP": _per_player(fide_tb.elected),
    "BH": _cut(fide_tb.buchholz), "FB": _cut(fide_tb.fore_buchholz),
    "AOB": _per_player(fide_tb.average_buchholz),
    "SB": _cut(fide_tb.sonneborn_berger), "KS": _per_player(fide_tb.koya),
    "ARO": _cut(fide_tb.average_rating), "TPR": _per_player(fide_tb.tpr),
    "PTP": _per_player(fide_tb.ptp), "APRO": _per_player(fide_tb.average_tpr),
    "APPO": _per_player(fide_tb.average_ptp),
}
_NEEDS_RATINGS = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO"})
# The codes that count colours (Art. 7.3, 7.4; US Chess 34E11).
_NEEDS_COLOURS = frozenset({"BPG", "BWG", "BLACKS"})


def _computed(code: Any) -> list[Code]:
    """The codes :func:`tiebreak` computes for ``code``: the code, or of a list the last
    one, and with a last ``DE`` every code before it too (its groups)."""
    if not isinstance(code, (list, tuple)):
        return [parse_code(code)]
    listed = [parse_code(c) for c in code]
    return listed if listed and listed[-1].base == "DE" else listed[-1:]


def reads_ratings(code: Any) -> bool:
    """Whether :func:`tiebreak` of ``code`` (a code or a list, as there) reads any rating:
    the ones that never do need none, and a rating no one can read stops none of them.

    >>> reads_ratings("BH/C1"), reads_ratings("aro"), reads_ratings(["ARO", "DE"]), reads_ratings(["ARO", "SB"])
    (False, True, True, False)
    """
    return any(c.base in _NEEDS_RATINGS for c in _computed(code))


def reads_colours(code: Any) -> bool:
    """Whether :func:`tiebreak` of ``code`` reads any colour (BPG, BWG, BLACKS).

    >>> reads_colours("SB"), reads_colours(["BPG", "DE"]), reads_colours("blacks")
    (False, True, True)
    """
    return any(c.base in _NEEDS_COLOURS for c in _computed(code))


def tiebreak(code: Any, event: Event, rules: str = "2026", scores: fide_tb.Scores | None = None) -> list[Value]:
    """One tie-break for every player of ``event``, in row order.

    ``code`` may also be a list of codes (the sheet's tie-break list up to this one): the
    column is the last code's, and a last ``DE`` compares the players equal on points *and*
    on every code before it, as Art. 6 means after other tie-breaks. ``scores`` may hand
    over the event already read (:class:`fide.Scores`) when several codes are
    computed for one event.

    >>> from chessrating.tiebreaks.event import from_grid
    >>> event = from_grid([[None, "0", "1", "0"], ["1", None, "0", "1"], ["0", "1", None, "0"],
    ...                    ["1", "0", "1", None]])
    >>> tiebreak("SB", event), tiebreak("DE", event), tiebreak(["SB", "DE"], event)
    ([1.0, 3.0, 2.0, 2.0], [1, 1, 0, 0], [0, 0, 0, 0])
    """
    if rules not in RULES:
        raise refusal("rules", rules, f"is not one of {', '.join(RULES)}")
    if isinstance(code, (list, tuple)):
        listed = [parse_code(c) for c in code]
        if not listed:
            raise RatingError(f"code: no tie-break code given; known: {_known()}", argument="code")
        *before, last = listed
        if last.base != "DE" or not before:
            return tiebreak(last.text, event, rules, scores)
        scores = _scores(event, rules, scores)
        groups = _staged_groups(event, scores, before, rules)
        return list(fide_tb.direct_encounter(scores, last.forfeits, groups))
    parsed = parse_code(code)
    if parsed.base in _NEEDS_RATINGS and not event.ratings:
        raise RatingError(f"ratings: {parsed.base} needs the players' ratings", argument="ratings")
    if parsed.base in uscf_tb.CODES:
        if parsed.base in ("CUMULATIVE", "OPPCUM") and not event.by_rounds:
            raise RatingError(f"code: {parsed.base} needs the rounds in order; give opponents by round, "
                              "not a grid", argument="code")
        return uscf_tb.CODES[parsed.base](event)
    return _FIDE[parsed.base](_scores(event, rules, scores), parsed)


def _scores(event: Event, rules: str, scores: fide_tb.Scores | None) -> fide_tb.Scores:
    if scores is None or scores.event is not event or scores.rules != rules:
        scores = fide_tb.Scores(event, rules)
    return scores


def _key(value: Any) -> tuple[int, float]:
    """Blanks and texts (no value) sort below every number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return (0, 0.0)
    return (1, float(value))


def ranks(points: Sequence[Any], tiebreaks: Sequence[Sequence[Any]] = ()) -> list[int]:
    """The rank of each player: more points first, then each tie-break column in order
    (higher first); players equal on all share the best rank of their group (1, 2, 2, 4).

    >>> ranks([3, 2, 3, 2], [[5, 1, 5, 2]])
    [1, 4, 1, 3]
    """
    count = len(points)
    for number, column in enumerate(tiebreaks, start=1):
        if len(column) != count:
            raise RatingError(f"tiebreaks: column {number} has {len(column)} values but points has "
                              f"{count}; one per player", argument="tiebreaks")
    keys = [tuple(_key(v) for v in (points[i], *(column[i] for column in tiebreaks))) for i in range(count)]
    order = sorted(range(count), key=lambda i: keys[i], reverse=True)
    out = [0] * count
    for position, i in enumerate(order):
        previous = order[position - 1] if position else None
        out[i] = out[previous] if previous is not None and keys[previous] == keys[i] else position + 1
    return out


def standings(event: Event, codes: Sequence[Any], rules: str = "2026") -> list[int]:
    """The ranks of a whole standings list: points, then each code in order, with direct
    encounter applied to the players still tied when its turn comes (Art. 6 as C.07 means
    it, where the ``DE`` column of one code alone compares players equal on points only).

    >>> from chessrating.tiebreaks.event import from_grid
    >>> standings(from_grid([[None, "1", "0"], ["0", None, "1"], ["1", "0", None]]), ["DE", "SB"])
    [1, 1, 1]
    """
    if rules not in RULES:
        raise refusal("rules", rules, f"is not one of {', '.join(RULES)}")
    scores = fide_tb.Scores(event, rules)
    groups = _staged_groups(event, scores, [parse_code(code) for code in codes], rules)
    out = [0] * event.size
    position = 1
    for group in groups:
        for p in group:
            out[p] = position
        position += len(group)
    return out


def _staged_groups(event: Event, scores: fide_tb.Scores, codes: list[Code], rules: str) -> list[list[int]]:
    """The players in order of points and ``codes``, as groups still tied, best first."""
    groups = _split([list(range(event.size))], lambda p: _key(scores.points[p]))
    for code in codes:
        if code.base == "DE":
            counted = code.forfeits or event.round_robin
            groups = [tier for group in groups
                      for tier in fide_tb.direct_encounter_tiers(scores, group, counted)]
        else:
            column = tiebreak(code.text, event, rules, scores)
            groups = _split(groups, lambda p: _key(column[p]))
    return groups


def _split(groups: list[list[int]], key: Callable[[int], tuple[int, float]]) -> list[list[int]]:
    """Each group cut into the players equal by ``key``, best first; order kept otherwise."""
    out: list[list[int]] = []
    for group in groups:
        by_value: dict[tuple[int, float], list[int]] = {}
        for p in group:
            by_value.setdefault(key(p), []).append(p)
        out.extend(by_value[k] for k in sorted(by_value, reverse=True))
    return out
