"""Pairing with gacrux, FIDE's own engine: a Swiss round, a check of an event, Berger tables.

The package pairs no round itself. gacrux (PyPI ``gacrux``, MIT, © FIDE, Otto Milvang)
implements the Dutch system, FIDE Handbook C.04.3 (its rule set dated 2026-02-01), and is
the engine FIDE checks other programs against (C.04.A); pairing with it does not make this
package an endorsed program. The package turns the tournament model into gacrux's
tournament, calls the engine in-process, and turns its pairing back into starting numbers;
where gacrux cannot pair a round, a one-line :class:`~chessrating.errors.RatingError`
names the round and the players.

- :mod:`.swiss`: :func:`pair_round` (the next round, or round *n*: boards in board order,
  the pairing-allocated bye, the players not paired), :func:`apply_pairing` (a
  :class:`Pairing` into the model, results empty) and :func:`check_pairings` (every
  paired round re-paired from the rounds before it; the :class:`RoundDifference` list).
- :mod:`.engine`: the model read once and checked (both rows of every game), gacrux's
  tournament built from it, the engine called; the one import of the tournament model
  besides the Berger tables.
- :mod:`.roundrobin`: :func:`berger_schedule`, FIDE's Berger tables (C.05 Annex 1), those of
  the tournament model (:func:`chessrating.tournament.berger_rounds`).
- :mod:`.book`: a FIDE Swiss workbook's round from the values of its named ranges to the
  cells to write (``read_event``, ``pair_event``, ``round_cells``), with no file in it: the
  one reader of the workbook for the command line and for the script "Pair next round"
  inside Excel (:mod:`chessrating.scripts`) alike.
- :mod:`.command`: ``chessrating pair`` and ``chessrating check-pairings`` (the workbook
  read, the round's cells written, the workbook recalculated).

Pairing numbers are the starting numbers, in order. The rounds before give scores,
colours, floats and who has met whom; a player sits out a round with a requested bye the
model holds for it, or when the call names them ``absent`` or ``withdrawn``.

>>> from chessrating.tournament import Player, Tournament
>>> t = Tournament(players=[Player(n, f"Player {n}") for n in range(1, 6)], rounds=3)
>>> first = pair_round(t, top_colour="w")
>>> first.round, first.boards, first.bye
(1, ((1, 3), (4, 2)), 5)
>>> t = apply_pairing(t, first)
>>> [(g.opponent, g.colour, g.code) for g in t.player(4).games]
[(2, 'w', ' ')]
>>> berger_schedule(4)[0]
[(1, 4), (2, 3)]
"""

from __future__ import annotations

from .engine import engine_version
from .roundrobin import berger_schedule
from .swiss import Pairing, RoundDifference, apply_pairing, check_pairings, pair_round

__all__ = ["Pairing", "RoundDifference", "pair_round", "apply_pairing", "check_pairings",
           "berger_schedule", "engine_version"]
