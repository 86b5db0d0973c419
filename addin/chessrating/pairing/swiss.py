"""Pair a Swiss round, write it into the model, check an event's pairings (C.04.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import RatingError
from .engine import ABSENT_CODES, Board, Event, NoPairing, RoundGame, Tournament, absence_code, names

__all__ = ["Pairing", "RoundDifference", "pair_round", "apply_pairing", "check_pairings"]


@dataclass(frozen=True)
class Pairing:
    """One round's pairing.

    ``boards`` are ``(white, black)`` starting numbers in board order; ``bye`` the player
    given the pairing-allocated bye (or ``None``); ``absent`` the players not paired, by
    number, with the code the round gets: ``H``, ``F``, ``Z`` for requested byes and ``" "``
    for a withdrawn player. ``rules`` names the engine and the rules it applied.
    """

    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None
    absent: tuple[tuple[int, str], ...] = ()
    rules: str = ""


@dataclass(frozen=True)
class RoundDifference:
    """A round whose pairing differs from the engine's.

    ``event`` holds the event's boards the engine does not pair, ``engine`` the engine's
    boards in their place, as ``(white, black)``; black ``0`` stands for the
    pairing-allocated bye. ``note`` says why there is no engine pairing, if there is none.

    >>> print(RoundDifference(4, ((1, 5), (3, 7)), ((1, 7), (3, 5))))
    round 4: the event pairs 1-5, 3-7; the engine pairs 1-7, 3-5
    """

    round: int
    event: tuple[tuple[int, int], ...]
    engine: tuple[tuple[int, int], ...]
    note: str = ""

    def __str__(self) -> str:
        def boards(pairs: tuple[tuple[int, int], ...]) -> str:
            return ", ".join(f"{w} bye" if b == 0 else f"{w}-{b}" for w, b in pairs) or "nothing"

        engine = self.note or f"the engine pairs {boards(self.engine)}"
        return f"round {self.round}: the event pairs {boards(self.event)}; {engine}"


def pair_round(tournament: Tournament, round: int | None = None, *,
               top_colour: str | None = None,
               absent: Mapping[int, str] | Iterable[int] = (),
               withdrawn: Iterable[int] = (),
               accelerated: bool | None = None,
               max_meets: int | None = None,
               rounds: int | None = None) -> Pairing:
    """Pair ``round`` (default: the round after the last one paired) by the Dutch system.

    * ``top_colour`` — ``"w"`` or ``"b"``, the colour of the top board in round 1 (drawn
      by lot); default: record ``152`` or ``XXC`` of the event, else what round 1 shows,
      else White.
    * ``absent`` — players not paired this round: a mapping to ``"H"``, ``"F"`` or ``"Z"``
      (half-, full- or zero-point bye), or numbers alone (``"Z"``). Requested byes the model
      already holds for the round (no opponent; ``H``, ``F``, ``Z`` or ``-``) count too.
    * ``withdrawn`` — players withdrawn from the event (name them for every later round).
    * ``accelerated`` — ``None``: as the event's ``250`` records say; ``True``: Baku
      acceleration (C.04.7) from round 1's field; ``False``: none.
    * ``max_meets`` — how often two players may meet (default 1); the allowance grows evenly
      over the rounds, as gacrux's ``-K`` does: round *r* of *R* allows
      ``1 + (r - 1) * max_meets // R`` meetings.
    * ``rounds`` — the number of rounds of the event (default ``tournament.rounds``); the
      Dutch rules treat the last rounds apart.

    A round already paired is paired again from the rounds before it. Raises
    :class:`RatingError` when a round before has a game without a result, when the two
    rows of a game disagree, or when no legal pairing exists.
    """
    event = Event(tournament, rounds)
    number = event.check_round(event.last_paired() + 1 if round is None else round)
    codes = event.requested_byes(number)
    codes.update(_absent_codes(event, absent))
    for player in _numbers(event, withdrawn, "withdrawn"):
        codes[player] = " "
    try:
        boards, bye, rules = event.pair(number, codes, event.top_colour(top_colour), accelerated, max_meets)
    except NoPairing as failure:
        raise RatingError(f"round {number}: {failure}") from None
    return Pairing(number, boards, bye, tuple(sorted(codes.items())), rules)


def apply_pairing(tournament: Tournament, pairing: Pairing) -> Tournament:
    """Write ``pairing`` into ``tournament`` in place (and return it): opponents and
    colours with empty results, ``U`` for the pairing-allocated bye, the absent players'
    codes. Refuses a round that already holds a result, and a pairing that does not place
    every player exactly once; a refused pairing leaves the tournament as it was.
    """
    if not isinstance(pairing, Pairing):
        raise RatingError(f"pairing: {type(pairing).__name__} is not a Pairing")
    r = pairing.round
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise RatingError(f"pairing: round {r!r} is not a round number")
    by_number = {p.number: p for p in tournament.players}
    entries: dict[int, RoundGame] = {}

    def place(number: int, game: RoundGame) -> None:
        if number not in by_number:
            raise RatingError(f"pairing: player {number} of round {r} is not in the event")
        if number in entries:
            raise RatingError(f"pairing: player {number} is placed twice in round {r}")
        entries[number] = game

    for white, black in pairing.boards:
        place(white, RoundGame(r, black, "w", " "))
        place(black, RoundGame(r, white, "b", " "))
    if pairing.bye is not None:
        place(pairing.bye, RoundGame(r, None, None, "U"))
    for number, code in pairing.absent:
        if code not in ABSENT_CODES | {" "}:
            raise RatingError(f"pairing: {code!r} for player {number} is not H, F, Z or blank")
        place(number, RoundGame(r, None, None, code))
    missing = sorted(set(by_number) - set(entries))
    if missing:
        raise RatingError(f"pairing: round {r} does not place players {names(missing)}")
    played = [p.number for p in tournament.players
              if p.game(r).opponent is not None and p.game(r).code != " "]
    if played:
        raise RatingError(f"round: {r} already has results for players {names(played)}")
    for player in tournament.players:
        while len(player.games) < r:
            player.games.append(RoundGame(len(player.games) + 1))
        player.games[r - 1] = entries[player.number]
    tournament.rounds = max(tournament.rounds, r)
    return tournament


def check_pairings(tournament: Tournament, *, top_colour: str | None = None,
                   accelerated: bool | None = None, max_meets: int | None = None,
                   rounds: int | None = None) -> list[RoundDifference]:
    """Re-pair every paired round from the rounds before it; the rounds that differ.

    The players the event did not pair in a round (byes, absences) are left out of its
    re-pairing. Boards are compared as ``(white, black)`` pairs, board order aside; a game
    neither row gives a colour is compared by its players alone. An empty list means
    the engine agrees with every round.
    """
    event = Event(tournament, rounds)
    colour = event.top_colour(top_colour)
    differences = []
    for r in range(1, event.last_paired() + 1):
        boards = event.boards(r)
        paired = {n for white, black, _ in boards for n in (white, black) if n}
        codes = {p.number: absence_code(p.game(r)) for p in event.players if p.number not in paired}
        try:
            ours, bye, _ = event.pair(r, codes, colour, accelerated, max_meets)
        except NoPairing as failure:
            differences.append(RoundDifference(r, tuple(sorted((w, b) for w, b, _ in boards)), (),
                                               str(failure)))
            continue
        extra, missing = _differ(boards, list(ours) + ([(bye, 0)] if bye is not None else []))
        if extra or missing:
            differences.append(RoundDifference(r, extra, missing))
    return differences


def _absent_codes(event: Event, absent: Mapping[int, str] | Iterable[int]) -> dict[int, str]:
    if isinstance(absent, Mapping):
        codes = {}
        for number, code in absent.items():
            if not isinstance(code, str) or code.upper() not in ABSENT_CODES:
                raise RatingError(f"absent: {code!r} for player {number} is not H, F or Z")
            codes[number] = code.upper()
        _numbers(event, codes, "absent")
        return codes
    return {n: "Z" for n in _numbers(event, absent, "absent")}


def _numbers(event: Event, numbers: Iterable[int], name: str) -> list[int]:
    if isinstance(numbers, (str, bytes)) or not isinstance(numbers, Iterable):
        raise RatingError(f"{name}: {numbers!r} is not a list of starting numbers")
    found = list(numbers)
    unknown = [n for n in found if n not in event.by_number]
    if unknown:
        raise RatingError(f"{name}: players {names(unknown)} are not in the event")
    return found


def _differ(event: list[Board], engine: list[tuple[int, int]]
            ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The event's boards the engine lacks, and the engine's boards the event lacks; a game
    whose colours the event does not give matches its two players in either order."""
    known = {(w, b) for w, b, coloured in event if coloured}
    uncoloured = {frozenset((w, b)) for w, b, coloured in event if not coloured}
    engine_boards = set(engine)
    engine_players = {frozenset(pair) for pair in engine}

    def in_engine(w: int, b: int, coloured: bool) -> bool:
        return (w, b) in engine_boards if coloured else frozenset((w, b)) in engine_players

    extra = tuple(sorted((w, b) for w, b, coloured in event if not in_engine(w, b, coloured)))
    missing = tuple((w, b) for w, b in engine if (w, b) not in known and frozenset((w, b)) not in uncoloured)
    return extra, missing
