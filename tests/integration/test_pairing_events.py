"""Larger Swiss events from gacrux's own generator: every round paired as gacrux paired it.

Each event (10 to 200 players; half- and zero-point byes, forfeits, absences, pairing-
allocated byes; Baku acceleration) is made in the test from a fixed seed by gacrux's random
tournament generator (tests/gacrux_events.py). Round by round, the event as it stood before
the round is paired by :func:`chessrating.pairing.pair_round` and must equal the file;
:func:`~chessrating.pairing.check_pairings` must accept the whole event.
"""

from __future__ import annotations

import pytest
from gacrux_events import before_round, file_round, generated_trf

from chessrating.pairing import apply_pairing, check_pairings, pair_round
from chessrating.trf import parse_trf

# (players, rounds, event number, rates of zero-point byes, half-point byes and forfeits)
EVENTS = [
    (10, 5, 13, ("0.02", "0.08", "0.05")),
    (25, 7, 12, ("0.05", "0.10", "0.05")),
    (51, 9, 13, ("0.02", "0.05", "0.04")),
    (100, 9, 14, ("0.03", "0.08", "0.05")),
    (149, 11, 15, ("0.01", "0.05", "0.02")),
    (200, 9, 16, ("0.03", "0.08", "0.05")),
]


@pytest.mark.parametrize("players, rounds, number, rates", EVENTS,
                         ids=[f"{p}x{r}" for p, r, _, _ in EVENTS])
def test_every_round_of_a_generated_event_is_gacruxs(players, rounds, number, rates):
    event = parse_trf(generated_trf(players, rounds, number, rates=rates))
    assert len(event.players) == players and event.rounds == rounds
    byes = sum(g.code in "HZ" and g.opponent is None for p in event.players for g in p.games)
    forfeits = sum(g.code in "+-" and g.opponent is not None for p in event.players for g in p.games)
    assert byes and forfeits
    for r in range(1, rounds + 1):
        before = before_round(event, r)
        pairing = pair_round(before)
        boards, bye, absent = file_round(event, r)
        assert (set(pairing.boards), pairing.bye, dict(pairing.absent)) == (boards, bye, absent), r
        assert len(pairing.boards) == len(boards)
        apply_pairing(before, pairing)
        assert file_round(before, r) == (boards, bye, absent)
    assert check_pairings(event) == []


def test_a_baku_accelerated_event_is_gacruxs():
    event = parse_trf(generated_trf(120, 9, 17, accelerated=True))
    assert sum(line.startswith("250") for line in event.extra_lines) == 2
    assert check_pairings(event) == []
    assert check_pairings(event, accelerated=True) == []
    assert [d.round for d in check_pairings(event, accelerated=False)][:1] == [1]
