"""The tournament model the US Chess rating report reads, imported here and nowhere else.

Every module of :mod:`chessrating.uscf_report` takes :class:`Tournament`,
:class:`Player` and :class:`RoundGame` (and the reading of a colour cell,
:func:`colour_code`) from this module, so the model's home is named
on one line.
"""

from __future__ import annotations

from ..tournament import Player, RoundGame, Tournament, colour_code

__all__ = ["Player", "RoundGame", "Tournament", "colour_code"]
