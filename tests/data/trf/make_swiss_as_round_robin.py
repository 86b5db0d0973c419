"""Writes swiss_as_round_robin.trf: a made-up 9-player, 9-round Swiss whose pairings
happen to form a round robin, each player with one pairing-allocated bye (``U``), in
the shape lichess.org exports its Swiss events (no FIDE IDs, a bye with a blank
opponent and colour). The file is this project's own (see README.md); run this script
to write it again, byte for byte.

The pairings are FIDE's Berger table for 10 players (C.05 Annex 1) with player 10 as
the bye. The results follow the ratings, with a draw where the two numbers add up to a
multiple of 4 and an upset where their product leaves 3 when divided by 7. The ranks
are by points, then the games won, then the starting number: not the FIDE Swiss
template's default tie-breaks (an online event's seldom are), so the two order some
players differently.
"""

from __future__ import annotations

from pathlib import Path

PLAYERS = 9
NAMES = ["knightowl", "pawnstorm", "rookie_lift", "bishop_pair", "zugzwanged", "fianchetto_fan",
         "endgame_eel", "tempo_tim", "gambit_gus"]
RATINGS = [2211, 2140, 2093, 2012, 1968, 1890, 1847, 1775, 1702]


def berger(players: int) -> dict[tuple[int, int], tuple[int, bool]]:
    """(i, j), i < j -> (round, i has White): C.05 Annex 1 for an even number."""
    out = {}
    for i in range(1, players + 1):
        for j in range(i + 1, players + 1):
            if j < players:
                out[(i, j)] = ((i + j - 2) % (players - 1) + 1, (i + j) % 2 == 1)
            else:
                out[(i, j)] = ((2 * i - 2) % (players - 1) + 1, i <= players // 2)
    return out


def result(i: int, j: int) -> str:
    """The result of player i (lower number, higher rating) against j."""
    if (i + j) % 4 == 0:
        return "="
    return "0" if (i * j) % 7 == 3 else "1"


def main() -> None:
    table = berger(PLAYERS + 1)
    rounds: dict[int, list[tuple[int, str, str] | None]] = {n: [None] * PLAYERS for n in range(1, PLAYERS + 1)}
    for (i, j), (rnd, i_white) in table.items():
        if j == PLAYERS + 1:
            rounds[i][rnd - 1] = (0, " ", "U")
            continue
        mine = result(i, j)
        theirs = {"1": "0", "0": "1", "=": "="}[mine]
        rounds[i][rnd - 1] = (j, "w" if i_white else "b", mine)
        rounds[j][rnd - 1] = (i, "b" if i_white else "w", theirs)
    score = {"1": 1.0, "=": 0.5, "0": 0.0, "U": 1.0}
    points = {n: sum(score[g[2]] for g in games if g) for n, games in rounds.items()}
    won = {n: sum(1 for g in games if g and g[0] and g[2] == "1") for n, games in rounds.items()}
    order = sorted(points, key=lambda n: (-points[n], -won[n], n))
    rank = {n: position for position, n in enumerate(order, start=1)}
    lines = ["012 Sunday Swiss", "022 https://lichess.org/swiss/sUNd4y9r", "032 Lichess",
             "042 Mar 2, 2025", "052 Mar 2, 2025", f"062 {PLAYERS}", "092 Individual: Swiss-System",
             "102 https://lichess.org/swiss", f"XXR {PLAYERS}", "XXC white1"]
    for n in range(1, PLAYERS + 1):
        line = f"001 {n:>4}      {NAMES[n - 1]:<33} {RATINGS[n - 1]:>4}" + " " * 28 + \
            f"{points[n]:>4.1f} {rank[n]:>4}"
        for opponent, colour, code in rounds[n]:
            line += f"  {opponent or '':>4} {colour} {code}"
        lines.append(line)
    Path(__file__).with_name("swiss_as_round_robin.trf").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
