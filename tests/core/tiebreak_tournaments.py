"""Random Swiss tournaments with byes, forfeits and withdrawals, for the tie-break tests.

A tournament is written three ways: in the worksheet's cell vocabulary (opponent numbers,
results, colours), as a FIDE TRF text (for gacrux) and as tiebreak-core's records.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass
class Tournament:
    opponents: list[list[int | None]]
    results: list[list[str | None]]
    colours: list[list[str | None]]
    ratings: list[float]
    rounds: int

    @property
    def size(self) -> int:
        return len(self.results)


def swiss(seed: int, players: tuple[int, int] = (5, 16), rounds: tuple[int, int] = (3, 8),
          forfeits: float = 0.06, byes: float = 0.07, withdrawals: float = 0.04) -> Tournament:
    """A Swiss-like event: random pairings avoiding rematches where they can, half- and
    zero-point byes on request, a pairing-allocated bye for the odd player, forfeits, and
    players who withdraw (blank rounds afterwards)."""
    rng = random.Random(seed)
    n, r_count = rng.randint(*players), rng.randint(*rounds)
    ratings = [float(rng.randint(1400, 2500)) for _ in range(n)]
    opponents = [[None] * r_count for _ in range(n)]
    results: list[list[str | None]] = [[None] * r_count for _ in range(n)]
    colours: list[list[str | None]] = [[None] * r_count for _ in range(n)]
    met: set[tuple[int, int]] = set()
    gone: set[int] = set()
    for r in range(r_count):
        pool = []
        for p in range(n):
            if p in gone:
                continue
            if r and rng.random() < withdrawals:
                gone.add(p)
                continue
            if rng.random() < byes:
                results[p][r] = rng.choice(["H", "H", "Z"])
            else:
                pool.append(p)
        rng.shuffle(pool)
        while len(pool) > 1:
            a = pool.pop(0)
            b = next((q for q in pool if (min(a, q), max(a, q)) not in met), pool[0])
            pool.remove(b)
            met.add((min(a, b), max(a, b)))
            opponents[a][r], opponents[b][r] = b + 1, a + 1
            colours[a][r], colours[b][r] = ("W", "B") if rng.random() < 0.5 else ("B", "W")
            if rng.random() < forfeits:
                results[a][r], results[b][r] = ("+", "-") if rng.random() < 0.5 else ("-", "+")
            else:
                outcome = rng.choice(["1", "½", "0"])
                results[a][r] = outcome
                results[b][r] = {"1": "0", "½": "½", "0": "1"}[outcome]
        if pool:
            results[pool[0]][r] = "U"
    return Tournament(opponents, results, colours, ratings, r_count)


_TRF_RESULT = {"1": "1", "½": "=", "0": "0", "+": "+", "-": "-", "H": "H", "Z": "Z", "U": "U", None: "Z"}


def trf(tournament: Tournament, start: str) -> str:
    """The tournament as a TRF text starting on ``start`` (gacrux picks its rules by date)."""
    lines = ["012 Generated", f"042 {start}", f"062 {tournament.size}", f"XXR {tournament.rounds}"]
    for i in range(tournament.size):
        points = sum({"1": 1, "½": 0.5, "+": 1, "H": 0.5, "U": 1}.get(v or "", 0) for v in tournament.results[i])
        line = f"001 {i + 1:4d} m    {'Player ' + str(i + 1):<33s} {int(tournament.ratings[i]):4d} NOR "
        line += f"{0:11d} 1990/01/01 {points:4.1f} {i + 1:4d}"
        for r in range(tournament.rounds):
            opponent = tournament.opponents[i][r] or 0
            colour = (tournament.colours[i][r] or "-").lower()
            line += f"  {opponent:4d} {colour} {_TRF_RESULT[tournament.results[i][r]]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def tiebreak_core_players(tournament: Tournament) -> dict:
    """The tournament as tiebreak-core's ``PlayerTiebreakData`` by player number."""
    from tiebreak_core import GameRecord, PlayerTiebreakData

    kinds = {"+": "forfeit_win", "-": "forfeit_loss", "H": "requested_bye", "Z": "requested_bye",
             None: "requested_bye", "U": "pairing_bye"}
    scores = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "H": 0.5, "Z": 0.0, None: 0.0, "U": 1.0}
    players = {}
    for i in range(tournament.size):
        games = []
        for r in range(tournament.rounds):
            value, opponent = tournament.results[i][r], tournament.opponents[i][r]
            colour = {"W": "white", "B": "black", None: "white"}[tournament.colours[i][r]]
            if opponent is not None:
                kind = kinds.get(value, "played")
                games.append(GameRecord(opponent, int(tournament.ratings[opponent - 1]), scores[value],
                                        colour, r + 1, kind=kind))
            else:
                games.append(GameRecord(-1, 0, scores[value], colour, r + 1, kind=kinds[value]))
        points = sum(g.score for g in games)
        players[i + 1] = PlayerTiebreakData(i + 1, int(tournament.ratings[i]), points, games)
    return players


def round_robin(seed: int, players: tuple[int, int] = (4, 10), forfeits: float = 0.08) -> Tournament:
    """An all-play-all by the circle method (an odd field gets a bye a round: U without
    points is not a FIDE bye, so the bye rounds stay blank), with forfeits."""
    rng = random.Random(seed)
    n = rng.randint(*players)
    ratings = [float(rng.randint(1400, 2500)) for _ in range(n)]
    seats = list(range(n)) + ([None] if n % 2 else [])
    size = len(seats)
    rounds = size - 1
    opponents: list[list[int | None]] = [[None] * rounds for _ in range(n)]
    results: list[list[str | None]] = [[None] * rounds for _ in range(n)]
    colours: list[list[str | None]] = [[None] * rounds for _ in range(n)]
    for r in range(rounds):
        for k in range(size // 2):
            a, b = seats[k], seats[size - 1 - k]
            if a is None or b is None:
                continue
            opponents[a][r], opponents[b][r] = b + 1, a + 1
            colours[a][r], colours[b][r] = ("W", "B") if (r + k) % 2 else ("B", "W")
            if rng.random() < forfeits:
                results[a][r], results[b][r] = ("+", "-") if rng.random() < 0.5 else ("-", "+")
            else:
                outcome = rng.choice(["1", "½", "0"])
                results[a][r], results[b][r] = outcome, {"1": "0", "½": "½", "0": "1"}[outcome]
        seats = [seats[0]] + [seats[-1]] + seats[1:-1]
    return Tournament(opponents, results, colours, ratings, rounds)
