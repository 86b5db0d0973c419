"""Tie-breaks of a tournament (FIDE Handbook C.07; US Chess rule 34E; docs/RULES.md §6).

- :mod:`.event`: the tournament as the tie-breaks read it, from a rounds block or a
  round-robin grid.
- :mod:`.fide`: FIDE's tie-breaks (C.07, 2024 and 2026 editions) on the event read once.
- :mod:`.uscf`: US Chess's tie-breaks (rule 34E).
- :mod:`.dispatch`: the codes and their modifiers, one tie-break by code, the ranks they
  give and the default lists.

The names of :mod:`.dispatch` are this package's public face (``tiebreaks.tiebreak``,
``tiebreaks.ranks``, ``tiebreaks.FIDE_SWISS_DEFAULTS``).
"""

from __future__ import annotations

from .dispatch import (
    CODES, FIDE_ROUND_ROBIN_DEFAULTS, FIDE_SWISS_DEFAULTS, RULES, USCF_DEFAULTS, Code, parse_code, ranks,
    reads_colours, reads_ratings, standings, tiebreak,
)

__all__ = [
    "RULES", "CODES", "FIDE_SWISS_DEFAULTS", "FIDE_ROUND_ROBIN_DEFAULTS", "USCF_DEFAULTS",
    "Code", "parse_code", "tiebreak", "ranks", "standings", "reads_ratings", "reads_colours",
]
