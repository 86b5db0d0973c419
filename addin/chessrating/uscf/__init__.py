"""US Chess ratings (Glickman & Doan, *The US Chess Rating System*; docs/RULES.md §4).

- :mod:`.player`: one player's new rating: effective games, K, bonus, the standard and
  special formulas, first ratings and floors.
- :mod:`.special`: the special formula solved by the document's own procedure.
- :mod:`.event`: a whole event rated by the two-pass procedure.

The names of :mod:`.player` are this package's public face (``uscf.new_rating``).
"""

from __future__ import annotations

from .player import (
    ABSOLUTE_FLOOR, ABSOLUTE_FLOOR_CAP, EPSILON, LIFE_MASTER_FLOOR, SPECIAL_CAP, UNRATED_START,
    absolute_floor, bonus, effective_games, first_rating, floor, k_factor, linear_performance, new_rating,
    special_objective, special_rating, uses_special_formula,
)

__all__ = [
    "EPSILON", "SPECIAL_CAP", "ABSOLUTE_FLOOR", "ABSOLUTE_FLOOR_CAP", "LIFE_MASTER_FLOOR", "UNRATED_START",
    "effective_games", "uses_special_formula", "k_factor", "bonus", "special_objective",
    "special_rating", "linear_performance", "first_rating", "floor", "absolute_floor", "new_rating",
]
