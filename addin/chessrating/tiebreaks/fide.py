"""FIDE tie-breaks, Handbook C.07 (2024 and 2026 editions), docs/RULES.md §6.

Each function takes a :class:`Scores` (the event read once: points, the opponents'
adjusted scores of Art. 16.3, the unplayed-round categories of Art. 16.2) and gives one
value per player. A Swiss applies Art. 16 to unplayed rounds; a round robin (pre-determined
pairings) Art. 15.2: forfeits are games, except in the rating-based tie-breaks (all
forfeits) and the type-B counts (forfeit losses).

>>> from chessrating.tiebreaks.event import from_rounds
>>> scores = Scores(from_rounds([[2, 3], [1, None], [None, 1]], [["1", "1"], ["0", "U"], ["U", "0"]]))
>>> buchholz(scores, 0), sonneborn_berger(scores, 0), wins(scores, 1)
(2.0, 2.0, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .. import fide, performance
from ..results import NO_GAMES, Game, NoValue
from .event import (
    FORFEIT_LOSS, FORFEIT_WIN, FULL_BYE, PLAYED, REQUESTED_BYES, VOLUNTARY, Event, RefusedRating, Round,
)

__all__ = [
    "Scores", "Element", "buchholz", "sonneborn_berger", "wins", "won", "black_games",
    "black_wins", "progressive", "elected", "koya", "average_rating", "tpr", "ptp",
    "fore_buchholz", "average_buchholz", "average_tpr", "average_ptp", "direct_encounter",
    "direct_encounter_tiers",
]

DRAW = 0.5  # points for a draw: the regulations' "draw points" (standard scoring)

# Art. 16.2 categories of unplayed rounds.
CAT_BYE, CAT_FORFEIT_WIN, CAT_RETURNED, CAT_FORFEIT_LOSS, CAT_LATE = (
    "16.2.1", "16.2.2", "16.2.3", "16.2.4", "16.2.5")


def _categories(record: tuple[Round | None, ...]) -> list[str | None]:
    """The Art. 16.2 category of each round of a record (``None`` for a game), in one
    pass from the last round back: a requested bye is 16.2.3 when the player comes back
    (a later round not voluntarily unplayed), else 16.2.5."""
    found: list[str | None] = [None] * len(record)
    returns = False  # a later round is one the player did not voluntarily miss
    for index in range(len(record) - 1, -1, -1):
        entry = record[index]
        if entry is None:
            continue
        found[index] = _category(entry, returns)
        returns = returns or entry.kind not in VOLUNTARY
    return found


def _category(entry: Round, returns: bool) -> str | None:
    if entry.kind == PLAYED:
        return None
    if entry.kind == FULL_BYE:
        return CAT_BYE
    if entry.kind == FORFEIT_WIN:
        return CAT_FORFEIT_WIN
    if entry.kind == FORFEIT_LOSS:
        return CAT_FORFEIT_LOSS
    return CAT_RETURNED if returns else CAT_LATE


@dataclass(frozen=True)
class Element:
    """One summand of a Buchholz or Sonneborn-Berger: its value, the opponent's (or the
    dummy's) score it rests on, and whether it comes from a voluntary unplayed round."""

    value: float
    basis: float
    voluntary: bool


class Scores:
    """The event read once for the tie-breaks of one edition (``rules`` "2024" or "2026")."""

    def __init__(self, event: Event, rules: str = "2026") -> None:
        self.event, self.rules = event, rules
        self._elements: dict[int, list[Element]] = {}
        self._fore: Scores | None = None            # the event with the last round drawn (FB)
        self._buchholz: list[float] | None = None   # everyone's BH (AOB)
        self.points = [sum(r.points for r in rec if r is not None) for rec in event.records]
        self.categories = [_categories(rec) for rec in event.records]
        # each player's TPR and PTP once (APRO, APPO read an opponent's for every game)
        self.measured: dict[str, dict[int, int | NoValue]] = {}
        if event.round_robin:
            self.adjusted = list(self.points)
        else:  # Art. 16.3: a late requested bye (16.2.5) counts as a draw for the opponents
            self.adjusted = [
                sum(DRAW if cat == CAT_LATE else r.points
                    for r, cat in zip(rec, cats) if r is not None)
                for rec, cats in zip(event.records, self.categories)]

    def games_against(self, i: int, forfeits: bool) -> list[Round]:
        """Player i's games against an opponent: played, and forfeits when they count as games."""
        return [r for r in self.event.records[i] if r is not None and r.opponent is not None
                and (r.kind == PLAYED or (forfeits and r.kind in (FORFEIT_WIN, FORFEIT_LOSS)))]

    def dummy(self, i: int, entry: Round) -> float:
        """Art. 16.4: the dummy opponent's score of an unplayed round, capped from 2026."""
        own = self.points[i]
        if self.rules == "2024":
            return own
        if entry.kind in (FORFEIT_WIN, FORFEIT_LOSS) and entry.opponent is not None:
            return min(own, self.adjusted[entry.opponent])
        return min(own, DRAW * self.event.rounds)

    def elements(self, i: int) -> list[Element]:
        """Buchholz/SB summands of player i, one per round, in round order (kept: BH, its
        cuts and SB all ask for them)."""
        cached = self._elements.get(i)
        if cached is None:
            cached = self._elements[i] = self._summands(i)
        return list(cached)

    def _summands(self, i: int) -> list[Element]:
        out = []
        robin = self.event.round_robin
        for entry in self.event.records[i]:
            if entry is None or (robin and entry.opponent is None):
                continue  # a round robin's bye round (an odd field) is no game and no dummy
            is_game = entry.kind == PLAYED or (
                robin and entry.opponent is not None and entry.kind in (FORFEIT_WIN, FORFEIT_LOSS))
            if is_game:
                assert entry.opponent is not None
                basis = self.adjusted[entry.opponent]
                out.append(Element(basis * entry.points, basis, False))
            else:
                basis = self.dummy(i, entry)
                voluntary = entry.kind in VOLUNTARY and not robin
                out.append(Element(basis * entry.points, basis, voluntary))
        return out


# ---------------------------------------------------------------- cuts (Art. 14, 16.5)

def _cut_low(elements: list[Element], by_basis: bool) -> list[Element]:
    """Cut the least significant value, with the Art. 16.5 exception for VURs: the lowest
    contribution of a voluntary unplayed round is cut instead when it is not lower (for SB
    the higher of the two values; the VUR one when equal)."""
    if not elements:
        return elements
    if by_basis:  # SB: the opponent with the lowest score, the lowest product among them
        least = min(elements, key=lambda e: (e.basis, e.value))
    else:
        least = min(elements, key=lambda e: e.value)
    voluntary = [e for e in elements if e.voluntary]
    chosen = least
    if voluntary:
        lowest_vur = min(voluntary, key=lambda e: e.value)
        if lowest_vur.value >= least.value:
            chosen = lowest_vur
    rest = list(elements)
    rest.remove(chosen)
    return rest


def _cut_high(elements: list[Element], by_basis: bool) -> list[Element]:
    if not elements:
        return elements
    key: Callable[[Element], tuple[float, ...]] = (
        (lambda e: (e.basis, e.value)) if by_basis else (lambda e: (e.value,)))
    rest = list(elements)
    rest.remove(max(elements, key=key))
    return rest


def _modified(elements: list[Element], low: int, high: int, by_basis: bool) -> float:
    for _ in range(low):
        elements = _cut_low(elements, by_basis)
    for _ in range(high):
        elements = _cut_high(elements, by_basis)
    return sum(e.value for e in elements)


def buchholz(scores: Scores, i: int, low: int = 0, high: int = 0) -> float:
    """Art. 8.1: the sum of the opponents' (adjusted) scores, dummies for unplayed rounds;
    ``low``/``high`` values cut (C1, C2; M1, M2)."""
    elements = [Element(e.basis, e.basis, e.voluntary) for e in scores.elements(i)]
    return _modified(elements, low, high, by_basis=False)


def sonneborn_berger(scores: Scores, i: int, low: int = 0, high: int = 0) -> float:
    """Art. 9.1: Σ opponent's score × points scored against them; cuts by Art. 14.1.1.4."""
    return _modified(scores.elements(i), low, high, by_basis=True)


def fore_buchholz(scores: Scores, i: int, low: int = 0, high: int = 0) -> float:
    """Art. 8.3: Buchholz as if every game paired in the final round had been drawn."""
    return buchholz(_fore(scores), i, low, high)


def _fore(scores: Scores) -> Scores:
    cached = scores._fore
    if cached is None:
        event = scores.event
        last = event.rounds - 1
        records = []
        for rec in event.records:
            entry = rec[last] if rec and event.by_rounds else None
            if entry is not None and entry.opponent is not None:
                rec = rec[:last] + (Round(PLAYED, DRAW, entry.opponent, entry.black),)
            records.append(rec)
        cached = Scores(Event(tuple(records), event.rounds, event.round_robin, event.ratings,
                              event.by_rounds), scores.rules)
        scores._fore = cached
    return cached


def _bh_all(scores: Scores) -> list[float]:
    if scores._buchholz is None:
        scores._buchholz = [buchholz(scores, j) for j in range(scores.event.size)]
    return scores._buchholz


def average_buchholz(scores: Scores, i: int) -> float | NoValue:
    """Art. 8.2: the average Buchholz of the opponents played over the board."""
    opponents = [r.opponent for r in scores.games_against(i, False)]
    if not opponents:
        return NO_GAMES
    everyone = _bh_all(scores)
    return sum(everyone[j] for j in opponents if j is not None) / len(opponents)


# ---------------------------------------------------------------- the player's own record (Art. 7)

def wins(scores: Scores, i: int) -> int:
    """Art. 7.1: rounds with a win's points, played or not."""
    return sum(1 for r in scores.event.records[i] if r is not None and r.points == 1.0)


def _type_b_games(scores: Scores, i: int) -> list[Round]:
    """Games for the type-B counts: played over the board, in a round robin too (a forfeit
    is not a game won or played with Black, whatever 15.2 makes of it elsewhere)."""
    return [r for r in scores.event.records[i] if r is not None and r.kind == PLAYED]


def won(scores: Scores, i: int) -> int:
    """Art. 7.2: games won."""
    return sum(1 for r in _type_b_games(scores, i) if r.points == 1.0)


def black_games(scores: Scores, i: int) -> int:
    """Art. 7.3: games played with Black."""
    return sum(1 for r in _type_b_games(scores, i) if r.black)


def black_wins(scores: Scores, i: int) -> int:
    """Art. 7.4: games won with Black."""
    return sum(1 for r in _type_b_games(scores, i) if r.black and r.points == 1.0)


def progressive(scores: Scores, i: int, cut: int = 0) -> float:
    """Art. 7.5: the sum of the running score after each round; C1/C2 leave out the first
    one or two rounds' running scores."""
    running, terms = 0.0, []
    for r in scores.event.records[i]:
        if r is not None:
            running += r.points
            terms.append(running)
    return sum(terms[cut:])


def elected(scores: Scores, i: int) -> int:
    """Art. 7.6 (REP, GE before 2026): rounds minus half- and zero-point byes (absences
    included) and forfeit losses."""
    skipped = sum(1 for r in scores.event.records[i]
                  if r is not None and (r.kind in REQUESTED_BYES or r.kind == FORFEIT_LOSS))
    return scores.event.rounds - skipped


def koya(scores: Scores, i: int) -> float:
    """Art. 9.2: points against the opponents who scored at least half the maximum.

    Art. 16 names Buchholz and Sonneborn-Berger only, so the opponents' final scores are
    not adjusted, and a forfeit against a scheduled opponent counts (as FIDE's own
    TieBreakServer reads it). The maximum is a win in every game a player could play:
    the rounds of a Swiss, the games of a round robin (an odd one has a bye a cycle).
    """
    event = scores.event
    games = event.rounds
    if event.round_robin:
        games = max(sum(1 for r in rec if r is not None and r.opponent is not None) for rec in event.records)
    threshold = DRAW * games
    return sum(r.points for r in scores.games_against(i, True)
               if r.opponent is not None and scores.points[r.opponent] >= threshold)


# ---------------------------------------------------------------- ratings (Art. 10)

def _rated_games(scores: Scores, i: int) -> list[Game] | NoValue:
    """Games over the board against rated opponents (forfeits never count, 15.2), or the
    reason an opponent's rating was refused (:class:`.event.RefusedRating`): the value
    rests on a rating no one could read."""
    ratings = scores.event.ratings
    games = []
    for r in scores.games_against(i, False):
        rating = ratings[r.opponent] if ratings and r.opponent is not None else None
        if isinstance(rating, NoValue):
            return rating
        if rating is not None:
            games.append(Game(rating, r.points))
    return games


def average_rating(scores: Scores, i: int, low: int = 0, high: int = 0) -> int | NoValue:
    """Art. 10.1: the average rating of the opponents, rounded half up; unrated opponents
    left out; ``low``/``high`` ratings cut."""
    games = _rated_games(scores, i)
    if isinstance(games, NoValue):
        return games
    ratings = sorted(g.opponent for g in games)
    kept = ratings[low:len(ratings) - high]
    if not kept:
        return NO_GAMES
    return fide.half_up(Fraction(sum(Fraction(r) for r in kept), len(kept)))


def tpr(scores: Scores, i: int) -> int | NoValue:
    """Art. 10.2: tournament performance rating, ARO + dp(p)."""
    games = _rated_games(scores, i)
    if isinstance(games, NoValue):
        return games
    return performance.tpr(games) if games else NO_GAMES


def ptp(scores: Scores, i: int) -> int | NoValue:
    """Art. 10.3: perfect tournament performance, the lowest rating whose expected score
    (table 8.1.2, no cap) reaches the score; 0 % gives the lowest opponent − 800, 100 % the
    highest opponent + 736 (:func:`chessrating.performance.ptp`, docs/RULES.md §3.6)."""
    games = _rated_games(scores, i)
    if isinstance(games, NoValue):
        return games
    return performance.ptp(games) if games else NO_GAMES


def _average_of_opponents(scores: Scores, i: int, measure: Callable[[Scores, int], int | NoValue]) -> int | NoValue:
    """The average of the opponents' ``measure``, rounded half up: opponents without one
    (no rated games) left out, a refused rating it rests on given as the reason. Each
    player's ``measure`` is computed once per :class:`Scores`, so a column of it costs
    the games of the event, not the games times the rounds."""
    values = []
    known = scores.measured.setdefault(measure.__name__, {})
    for r in scores.games_against(i, False):
        assert r.opponent is not None
        value = known.get(r.opponent)
        if value is None:
            value = known[r.opponent] = measure(scores, r.opponent)
        if isinstance(value, RefusedRating):
            return value
        if not isinstance(value, NoValue):
            values.append(value)
    if not values:
        return NO_GAMES
    return fide.half_up(Fraction(sum(values), len(values)))


def average_tpr(scores: Scores, i: int) -> int | NoValue:
    """Art. 10.4 (APRO): the average TPR of the opponents, rounded half up."""
    return _average_of_opponents(scores, i, tpr)


def average_ptp(scores: Scores, i: int) -> int | NoValue:
    """Art. 10.5 (APPO): the average PTP of the opponents, rounded half up."""
    return _average_of_opponents(scores, i, ptp)


# ---------------------------------------------------------------- direct encounter (Art. 6)

def _mini_table(scores: Scores, group: list[int], forfeits: bool) -> tuple[dict[int, Fraction | int], dict[int, int]]:
    """Half-points among the group (repeat meetings averaged, exactly) and, per player,
    the members never met."""
    members = set(group)
    points: dict[int, Fraction | int] = {p: 0 for p in group}
    missing = {p: 0 for p in group}
    for p in group:
        met: dict[int, list[float]] = {}
        for r in scores.games_against(p, forfeits):
            if r.opponent in members:
                met.setdefault(r.opponent, []).append(r.points)
        for results in met.values():
            halves = round(2 * sum(results))
            points[p] += halves if len(results) == 1 else Fraction(halves, len(results))
        scheduled = {r.opponent for r in scores.event.records[p] if r is not None and r.opponent in members}
        missing[p] = 2 * len(members - scheduled - {p})   # in half-points too
    return points, missing


def direct_encounter_tiers(scores: Scores, group: list[int], forfeits: bool) -> list[list[int]]:
    """A tied group in direct-encounter order, best first, as tiers of players still tied.

    All met (6.1, 6.2): the mini-table orders the group, and a part still tied is ordered
    again among itself. Not all met in a Swiss (6.3): a player who is alone on top whatever
    the missing games would give is ranked first, and again for the rest.
    """
    if len(group) < 2:
        return [list(group)]
    points, missing = _mini_table(scores, group, forfeits)
    if not any(missing.values()):
        tiers: list[list[int]] = []
        for value in sorted(set(points.values()), reverse=True):
            tied = [p for p in group if points[p] == value]
            tiers.extend([tied] if len(tied) in (1, len(group)) else
                         direct_encounter_tiers(scores, tied, forfeits))
        return tiers
    for candidate in group:
        if all(points[candidate] > points[other] + missing[other] for other in group if other != candidate):
            rest = [p for p in group if p != candidate]
            return [[candidate]] + direct_encounter_tiers(scores, rest, forfeits)
    return [list(group)]


def direct_encounter(scores: Scores, forfeits: bool = False,
                     groups: list[list[int]] | None = None) -> list[int]:
    """Art. 6 as a column: for each player, how many players of his group (by default the
    players equal on points) direct encounter places below him. Forfeits count in a round
    robin (15.2) and with DE/P."""
    if groups is None:
        by_points: dict[float, list[int]] = {}
        for p, value in enumerate(scores.points):
            by_points.setdefault(value, []).append(p)
        groups = list(by_points.values())
    counted = forfeits or scores.event.round_robin
    below = [0] * scores.event.size
    for group in groups:
        remaining = len(group)
        for tier in direct_encounter_tiers(scores, list(group), counted):
            remaining -= len(tier)
            for p in tier:
                below[p] = remaining
    return below

