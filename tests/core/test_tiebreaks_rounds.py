"""APRO and APPO (C.07 Art. 10.4, 10.5) and the Art. 16.2 categories, in time linear in
the games: each player's TPR and PTP computed once per event, the categories in one pass
per record. Property tests against the definitions as written (an opponent's TPR
computed afresh for every game; a bye's category from all the rounds after it), on
random Swiss events and on many-round events of few players (tests/hostile)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chessrating import fide
from chessrating.results import NO_GAMES
from chessrating.tiebreaks import fide as fide_tb
from chessrating.tiebreaks.event import FORFEIT_LOSS, FORFEIT_WIN, FULL_BYE, PLAYED, VOLUNTARY, from_rounds
from chessrating.tiebreaks.event import RefusedRating
from tiebreak_tournaments import swiss

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
from tiebreak_corpus import many_rounds  # noqa: E402


def _average_as_defined(scores, i, measure):
    """Art. 10.4/10.5 as written: for every game, the opponent's measure computed afresh."""
    values = []
    for r in scores.games_against(i, False):
        value = measure(fide_tb.Scores(scores.event, scores.rules), r.opponent)
        if isinstance(value, RefusedRating):
            return value
        if isinstance(value, int):
            values.append(value)
    return fide.half_up(Fraction(sum(values), len(values))) if values else NO_GAMES


def _category_as_defined(record, index):
    entry = record[index]
    if entry is None or entry.kind == PLAYED:
        return None
    kinds = {FULL_BYE: fide_tb.CAT_BYE, FORFEIT_WIN: fide_tb.CAT_FORFEIT_WIN,
             FORFEIT_LOSS: fide_tb.CAT_FORFEIT_LOSS}
    if entry.kind in kinds:
        return kinds[entry.kind]
    later = [r for r in record[index + 1:] if r is not None]
    return fide_tb.CAT_RETURNED if any(r.kind not in VOLUNTARY for r in later) else fide_tb.CAT_LATE


def _check(event, rules):
    scores = fide_tb.Scores(event, rules)
    for i, record in enumerate(event.records):
        assert scores.categories[i] == [_category_as_defined(record, t) for t in range(len(record))]
        assert fide_tb.average_tpr(scores, i) == _average_as_defined(scores, i, fide_tb.tpr)
        assert fide_tb.average_ptp(scores, i) == _average_as_defined(scores, i, fide_tb.ptp)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["2024", "2026"]))
def test_apro_appo_and_categories_equal_their_definitions_on_random_swiss_events(seed, rules):
    tournament = swiss(seed)
    event = from_rounds(tournament.opponents, tournament.results, tournament.colours)
    _check(event.with_ratings(tournament.ratings), rules)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 7), st.integers(1, 60), st.sampled_from([0.0, 0.1, 0.5]))
def test_apro_appo_and_categories_equal_their_definitions_over_many_rounds(seed, players, rounds, byes):
    opponents, results, colours, ratings = many_rounds(players, rounds, seed, byes)
    _check(from_rounds(opponents, results, colours).with_ratings(ratings), "2026")


def test_an_opponents_tpr_is_computed_once_per_event(monkeypatch):
    # two players meeting in all of 200 rounds: APRO of both reads each one's TPR once
    opponents, results, colours, ratings = many_rounds(2, 200, byes=0.0)
    scores = fide_tb.Scores(from_rounds(opponents, results, colours).with_ratings(ratings))
    calls = []
    real = fide_tb.tpr
    monkeypatch.setattr(fide_tb, "tpr", lambda s, j: calls.append(j) or real(s, j))
    expected = [_average_as_defined(scores, i, real) for i in (0, 1)]
    assert [fide_tb.average_tpr(scores, i) for i in (0, 1)] == expected
    assert sorted(calls) == [0, 1]
