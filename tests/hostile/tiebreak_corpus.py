"""Hostile events for the rating-based tie-breaks: many rounds among few players, as a
worksheet block (opponent numbers, results, colours; players × rounds) or a TRF-like
table no real event has — every player meets every other again and again, with
requested byes (``H``, ``Z``) scattered through, so each player's record is long and so
is each opponent's.
"""

from __future__ import annotations

import random


def many_rounds(players: int, rounds: int, seed: int = 1,
                byes: float = 0.05) -> tuple[list[list[float | None]], list[list[str | None]], list[list[str | None]], list[float]]:
    """Opponents (1-based, as floats), results ("1", "½", "0", "H", "Z"), colours and
    ratings of ``players`` meeting at random for ``rounds`` rounds."""
    rng = random.Random(seed)
    opponents: list[list[float | None]] = [[None] * rounds for _ in range(players)]
    results: list[list[str | None]] = [[None] * rounds for _ in range(players)]
    colours: list[list[str | None]] = [[None] * rounds for _ in range(players)]
    ratings = [float(rng.randint(1400, 2600)) for _ in range(players)]
    for r in range(rounds):
        present = []
        for p in range(players):
            if rng.random() < byes:
                results[p][r] = rng.choice("HZ")
            else:
                present.append(p)
        rng.shuffle(present)
        if len(present) % 2:
            results[present.pop()][r] = "Z"
        for a, b in zip(present[::2], present[1::2]):
            score = rng.choice([1.0, 0.5, 0.0])
            opponents[a][r], opponents[b][r] = float(b + 1), float(a + 1)
            results[a][r] = {1.0: "1", 0.5: "½", 0.0: "0"}[score]
            results[b][r] = {1.0: "0", 0.5: "½", 0.0: "1"}[score]
            colours[a][r], colours[b][r] = "W", "B"
    return opponents, results, colours, ratings
