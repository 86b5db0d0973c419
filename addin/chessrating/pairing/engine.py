"""The tournament model as gacrux's tournament, one round paired by gacrux, and back.

:class:`Event` reads the model once: players by starting number, both rows of every game
checked against each other, the byes a round already holds. :meth:`Event.pair` builds the
dictionary gacrux's own TRF reader would build (its ``chessjson`` model: competitors, a game
list, the score system, acceleration and prohibited pairings), hands it to
``gacrux.pairingdutch.pairing_dutch`` in-process and returns the boards by starting number.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from ..errors import RatingError
# The tournament model: the one place the pairing package names where it lives.
from ..tournament import Player, RoundGame, Scoring, Tournament

__all__ = ["Event", "NoPairing", "Board", "engine_version", "absence_code", "names", "recorded_top_colour",
           "Player", "RoundGame", "Tournament", "ABSENT_CODES"]

# (white, black, colours known); black 0 is the pairing-allocated bye.
Board = tuple[int, int, bool]

# TRF result code -> (gacrux score-system letter, played over the board), as gacrux's own
# TRF reader (trf2json.results) translates them.
_RESULT = {
    "1": ("W", True), "=": ("D", True), "0": ("L", True),
    "W": ("W", True), "D": ("D", True), "L": ("L", True), "U": ("P", True),
    "+": ("W", False), "F": ("W", False), "H": ("D", False),
    "-": ("Z", False), "Z": ("Z", False), " ": ("Z", False),
}
# The results the other row of a game may hold (a double forfeit is "-" on both rows, a
# game lost by both "0": docs/RULES.md §1.3).
_COMPLEMENTS = {"1": "0", "0": "10", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "WL", "D": "D"}
# Results of a game played against an opponent, never of a bye.
_GAME_CODES = frozenset("1=0WDL")
# Codes of a round a player sits out by request, when written with no opponent.
_BYE_CODES = frozenset("HFZ-")
# The byes a round may give a player who asks: half-point, full-point, zero-point.
ABSENT_CODES = frozenset("HFZ")
_OTHER = {"w": "b", "b": "w"}
_SHOWN = 12  # players named in a message before the rest are counted


class NoPairing(Exception):
    """gacrux finds no legal pairing for a round (C.04.3 art. 1.9.3)."""


def engine_version() -> str:
    """The installed gacrux's version, e.g. ``'1.11.65'``."""
    from gacrux import version

    return str(version.version()["version"])


class Event:
    """The model as the adapter reads it: players by number, their engine ids, the rounds."""

    def __init__(self, tournament: Tournament, rounds: int | None) -> None:
        if not isinstance(tournament, Tournament):
            raise RatingError(f"tournament: {type(tournament).__name__} is not a Tournament")
        if any(line.startswith(("013", "310")) for line in tournament.extra_lines):
            raise RatingError("tournament: a team event (records 013 or 310); only individual "
                              "Swiss events are paired")
        self.tournament = tournament
        self.players = sorted(tournament.players, key=lambda p: p.number)
        numbers = [p.number for p in self.players]
        if len(numbers) < 2:
            raise RatingError(f"tournament: {len(numbers)} players; pairing needs two or more")
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        if repeated:
            raise RatingError(f"tournament: starting numbers {names(repeated)} are used twice")
        self.by_number = {p.number: p for p in self.players}
        # gacrux numbers its competitors 1..N; the starting numbers' order is the pairing order.
        self.cid = {n: i for i, n in enumerate(numbers, start=1)}
        self.number = {i: n for n, i in self.cid.items()}
        total = tournament.rounds if rounds is None else rounds
        if isinstance(total, bool) or not isinstance(total, int) or total < 1:
            raise RatingError(f"rounds: {total!r} is not a number of rounds")
        self.rounds = total

    # -- which round

    def last_paired(self) -> int:
        """The last round in which somebody has an opponent or the pairing-allocated bye."""
        return max((g.round for p in self.players for g in p.games
                    if g.opponent is not None or g.code == "U"), default=0)

    def check_round(self, r: object) -> int:
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise RatingError(f"round: {r!r} is not a round number")
        if r > self.rounds:
            raise RatingError(f"round: {r} is past the last round ({self.rounds}) of the event")
        return r

    # -- what the model says about a round

    def requested_byes(self, r: int) -> dict[int, str]:
        """Byes the model already holds for round ``r`` (no opponent, a bye code)."""
        return {p.number: absence_code(p.game(r)) for p in self.players
                if p.game(r).opponent is None and p.game(r).code in _BYE_CODES}

    def boards(self, r: int) -> list[Board]:
        """Round ``r`` as the event paired it, the pairing-allocated bye first."""
        byes = [(p.number, 0, True) for p in self.players
                if p.game(r).code == "U" and p.game(r).opponent is None]
        return byes + self.games(r)

    def games(self, r: int) -> list[Board]:
        """Every game of round ``r`` once, both rows checked: each names the other, and
        their colours differ (a game neither row colours keeps the lower number first)."""
        games = []
        for p in self.players:
            game = p.game(r)
            if game.opponent is None:
                continue
            other = self.by_number.get(game.opponent)
            if other is None:
                raise RatingError(f"round {r}: player {p.number}'s opponent {game.opponent} is not in the event")
            back = other.game(r)
            if back.opponent != p.number:
                says = "no opponent" if back.opponent is None else f"opponent {back.opponent}"
                raise RatingError(f"round {r}: player {p.number} is paired with {other.number}, "
                                  f"whose row gives {says}")
            if p.number > other.number:
                continue
            if game.colour is not None and game.colour == back.colour:
                raise RatingError(f"round {r}: players {p.number} and {other.number} both have colour {game.colour!r}")
            if game.colour is None and back.colour is None:
                games.append((p.number, other.number, False))
            elif "w" in (game.colour, _OTHER.get(back.colour or "")):
                games.append((p.number, other.number, True))
            else:
                games.append((other.number, p.number, True))
        return games

    def top_colour(self, given: str | None) -> str:
        """The top board's colour in round 1: given, recorded (152, XXC), shown by round 1
        (as gacrux reads a file without the record), else White."""
        if given is not None:
            if not isinstance(given, str) or given.strip().lower() not in ("w", "b", "white", "black"):
                raise RatingError(f"top_colour: {given!r} is not 'w' or 'b'")
            return given.strip().lower()[0]
        recorded = recorded_top_colour(self.tournament)
        if recorded is not None:
            return recorded
        games = [(min(w, b), w < b) for w, b, coloured in self.games(1) if coloured]
        return ("w" if min(games)[1] else "b") if games else "w"

    # -- gacrux

    def pair(self, r: int, absent: dict[int, str], colour: str, accelerated: bool | None,
             max_meets: int | None) -> tuple[tuple[tuple[int, int], ...], int | None, str]:
        """Round ``r`` paired by gacrux from the rounds before it, ``absent`` left out:
        the boards ``(white, black)`` in board order, the bye, and the rules applied."""
        from gacrux.gacruxexeptions import GacruxNoLegalPairing
        from gacrux.pairingdutch import pairing_dutch

        self.require_results(r)
        data = self.gacrux_tournament(r, set(absent), colour, accelerated, _max_meets(max_meets))
        present = [p.number for p in self.players if p.number not in absent]
        params = {"experimental": [], "verbose": 0, "top_color": colour, "rank": False}
        try:
            engine = pairing_dutch(data, r, params)
            brackets = engine.compute_pairing(False, 0)
        except GacruxNoLegalPairing:
            raise NoPairing(f"no legal pairing exists for players {names(present)} "
                            "(C.04.3 art. 1.9.3: the chief arbiter decides)") from None
        except Exception as failure:  # an engine fault: said in one line, never a traceback
            raise RatingError(f"round {r}: gacrux could not pair players {names(present)}: "
                              f"{type(failure).__name__}: {failure}") from failure
        pairs = sorted((pair for bracket in brackets if bracket for pair in bracket.get("pairs", [])),
                       key=lambda pair: pair["board"])
        boards = tuple((self.number[pair["w"]], self.number[pair["b"]]) for pair in pairs
                       if pair["w"] and pair["b"])
        byes = [self.number[pair["w"] or pair["b"]] for pair in pairs if not (pair["w"] and pair["b"])]
        rules = f"FIDE Dutch system C.04.3 ({engine.rules}), gacrux {engine_version()}"
        return boards, (byes[0] if byes else None), rules

    def require_results(self, r: int) -> None:
        """Every game of the rounds before ``r`` has a result on both rows."""
        for earlier in range(1, r):
            open_games = [(w, b) for w, b, _ in self.games(earlier)
                          if " " in (self.by_number[w].game(earlier).code, self.by_number[b].game(earlier).code)]
            if open_games:
                games = ", ".join(f"{w}-{b}" for w, b in open_games[:_SHOWN])
                more = f" and {len(open_games) - _SHOWN} more" if len(open_games) > _SHOWN else ""
                raise RatingError(f"round: {r} cannot be paired, round {earlier} has no result "
                                  f"for {games}{more}")

    def gacrux_tournament(self, r: int, absent: set[int], colour: str,
                          accelerated: bool | None, meets: int) -> dict[str, Any]:
        """gacrux's tournament dictionary for pairing round ``r``."""
        return {
            "tournamentNo": 1, "tournamentType": "Tournament", "ratingList": "TRF",
            "numRounds": self.rounds, "currentRound": r - 1, "teamTournament": False,
            "teamSize": 0, "rankOrder": ["PTS"], "pairingSystem": ["dutch"],
            "maxMeets": meets, "topColor": colour,
            "scoreSystem": _score_system(self.tournament.scoring),
            "competitors": [self.competitor(p, p.number not in absent) for p in self.players],
            "gameList": self.games_before(r), "matchList": [],
            "accelerated": {"name": "Acc", "values": self.acceleration(r, absent, accelerated)},
            "prohibited": self.prohibited(),
        }

    def competitor(self, p: Player, present: bool) -> dict[str, Any]:
        # "random" is set so that gacrux's tie-break set-up does not draw one from the
        # random module; "rank" is not read when pairing by pairing number.
        cid = self.cid[p.number]
        return {"cid": cid, "present": present, "rank": cid, "random": cid,
                "gamePoints": Decimal(0),
                "rating": {"list": "TRF", "rating": p.rating} if p.rating else None}

    def games_before(self, r: int) -> list[dict[str, Any]]:
        """Every game and bye of the rounds before ``r``, one entry per game."""
        games = []
        for earlier in range(1, r):
            for p in self.players:
                game = p.game(earlier)
                if game.opponent is None and not game.is_blank:
                    if game.code in _GAME_CODES:
                        raise RatingError(f"round {earlier}: player {p.number} has result "
                                          f"{game.code!r} but no opponent")
                    result, played = _RESULT[game.code]
                    games.append(_game(earlier, (self.cid[p.number], result), None, played))
            for white, black, _ in self.games(earlier):
                w_code = self.by_number[white].game(earlier).code
                b_code = self.by_number[black].game(earlier).code
                if b_code not in _COMPLEMENTS.get(w_code, ""):
                    raise RatingError(f"round {earlier}: results {w_code!r} of player {white} and "
                                      f"{b_code!r} of player {black} do not match")
                (w_result, played), (b_result, _) = _RESULT[w_code], _RESULT[b_code]
                games.append(_game(earlier, (self.cid[white], w_result),
                                   (self.cid[black], b_result), played))
        return games

    def acceleration(self, r: int, absent: set[int], accelerated: bool | None) -> list[dict[str, Any]]:
        """Virtual points by round and pairing numbers: records 250, or Baku (C.04.7)."""
        if accelerated is None:
            return [self.to_cids(v) for v in _records_250(self.tournament.extra_lines)]
        if accelerated is False:
            return []
        if accelerated is not True:
            raise RatingError(f"accelerated: {accelerated!r} is not True, False or None")
        scoring = self.tournament.scoring
        if (scoring.win, scoring.draw) != (1.0, 0.5):
            raise RatingError("accelerated: Baku acceleration (C.04.7) needs 1 point a win and ½ a draw")
        # C.04.7: group A is the first half of round 1's players, rounded up to an even
        # number (2 * ceil(N / 4)), and stays so for late entries; the accelerated rounds
        # are the first half of the event, rounded up, with 1 virtual point in the first
        # half of them (rounded up) and ½ in the rest.
        if r == 1:
            first = [p.number for p in self.players if p.number not in absent]
        else:
            first = sorted({n for white, black, _ in self.boards(1) for n in (white, black) if n})
        if not first:
            return []
        last = first[min(len(first), 2 * ((len(first) + 3) // 4)) - 1]
        full, half = (self.rounds + 3) // 4, (self.rounds + 1) // 2
        values = [(Decimal("1.0"), 1, full), (Decimal("0.5"), full + 1, half)]
        return [{"matchPoints": 2 * vp, "gamePoints": vp, "firstRound": a, "lastRound": b,
                 "firstCompetitor": 1, "lastCompetitor": self.cid[last]}
                for vp, a, b in values if a <= b]

    def to_cids(self, value: dict[str, Any]) -> dict[str, Any]:
        """A record's range of starting numbers as gacrux's range of competitor ids."""
        inside = [self.cid[n] for n in self.cid if value["firstCompetitor"] <= n <= value["lastCompetitor"]]
        first, last = (min(inside), max(inside)) if inside else (0, -1)
        return {**value, "firstCompetitor": first, "lastCompetitor": last}

    def prohibited(self) -> list[dict[str, Any]]:
        """TRF26 record 260: players who must not meet in a range of rounds."""
        out = []
        for value in _records_260(self.tournament.extra_lines):
            unknown = [n for n in value["competitors"] if n not in self.cid]
            if unknown:
                raise RatingError(f"tournament: record 260 names players {names(unknown)} not in the event")
            out.append({**value, "competitors": [self.cid[n] for n in value["competitors"]]})
        return out


def recorded_top_colour(tournament: Tournament) -> str | None:
    """The top board's colour in round 1 as the event records it (TRF26 record 152,
    JaVaFo's ``XXC white1``/``black1``): ``"w"``, ``"b"`` or ``None``.

    >>> recorded_top_colour(Tournament(headers={"152": ["B"]})), recorded_top_colour(Tournament())
    ('b', None)
    """
    recorded = [v.strip().lower() for v in tournament.headers.get("152", [])]
    recorded += [line[3:].strip().lower() for line in tournament.extra_lines if line.startswith("XXC")]
    for word in " ".join(recorded).split():
        if word in ("w", "b", "white", "black", "white1", "black1"):
            return word[0]
    return None


def absence_code(game: RoundGame) -> str:
    """The code of a round a player was not paired in: ``H``, ``F``, ``Z``, or blank."""
    return "Z" if game.code == "-" else game.code if game.code in ABSENT_CODES else " "


def names(numbers: list[int]) -> str:
    """Starting numbers for a message: the first dozen, then a count."""
    shown = ", ".join(str(n) for n in numbers[:_SHOWN])
    return shown + (f" … ({len(numbers)} players)" if len(numbers) > _SHOWN else "")


def _game(r: int, white: tuple[int, str], black: tuple[int, str] | None, played: bool) -> dict[str, Any]:
    return {"id": 0, "round": r, "played": played, "rated": played and black is not None,
            "white": {"cid": white[0], "result": white[1]},
            "black": None if black is None else {"cid": black[0], "result": black[1]}}


def _score_system(scoring: Scoring) -> dict[str, Any]:
    """gacrux's score system for the event's scoring (TRF26 record 162)."""
    def points(x: float) -> Decimal:
        return Decimal(str(x))

    bye: Decimal | str = "W" if scoring.pairing_bye is None else points(scoring.pairing_bye)
    game = {"W": points(scoring.win), "D": points(scoring.draw), "L": points(scoring.loss),
            "F": "W", "H": "D", "Z": points(scoring.absence), "P": bye, "A": "D", "U": "Z"}
    match = {"W": Decimal(2), "D": Decimal(1), "L": Decimal(0), "F": "W", "H": "D",
             "Z": Decimal(0), "P": "D", "A": "D", "U": "Z"}
    return {"game": game, "match": match}


def _max_meets(max_meets: int | None) -> int:
    if max_meets is None:
        return 1
    if isinstance(max_meets, bool) or not isinstance(max_meets, int) or max_meets < 1:
        raise RatingError(f"max_meets: {max_meets!r} is not a number of meetings (1 or more)")
    return max_meets


def _records_250(lines: list[str]) -> list[dict[str, Any]]:
    """TRF26 record 250 (accelerated rounds), columns as gacrux reads them."""
    out = []
    for line in lines:
        if line.startswith("250"):
            first, last = _int(line[22:26]), _int(line[27:31])
            first_round, last_round = _int(line[14:17]), _int(line[18:21])
            out.append({"matchPoints": _decimal(line[4:8]), "gamePoints": _decimal(line[9:13]),
                        "firstRound": first_round, "lastRound": last_round or first_round,
                        "firstCompetitor": first, "lastCompetitor": last or first})
    return out


def _records_260(lines: list[str]) -> list[dict[str, Any]]:
    """TRF26 record 260 (prohibited pairings): rounds, then the players, 4 columns each."""
    out = []
    for line in lines:
        if line.startswith("260"):
            first_round, last_round = _int(line[4:7]), _int(line[8:11])
            players = [_int(line[i - 4:i]) for i in range(16, len(line) + 1, 5)]
            out.append({"firstRound": first_round, "lastRound": last_round or first_round,
                        "competitors": [n for n in players if n]})
    return out


def _int(text: str) -> int:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else 0


def _decimal(text: str) -> Decimal:
    try:
        return Decimal(text.strip().replace(",", "."))
    except InvalidOperation:
        return Decimal(0)
