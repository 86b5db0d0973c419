"""Chess ratings for Excel: classic Elo, FIDE, US Chess, performance ratings and title norms.

The package by concern, dependencies pointing one way (a test pins them):

- the rating core, pure functions on the standard library only: :mod:`.errors`, :mod:`.checks`
  (one domain and one message per kind of input),
  :mod:`.results` (results and value types), :mod:`.elo`, :mod:`.fide`, :mod:`.uscf`
  (one player, the special-formula solver, the whole event), :mod:`.performance`,
  :mod:`.norms`, :mod:`.goal`;
- the Excel face: :mod:`.udfs` (the worksheet functions) and :mod:`.cells` (what Excel
  hands over, read into core values); it imports the core;
- the tools, which import the core, the face and each other: :mod:`.recalc` (formulas
  evaluated without Excel), :mod:`.workbooks` (the templates), :mod:`.trf` (tournament
  report files), :mod:`.uscf_report` (the US Chess rating report's dBASE tables),
  :mod:`.cli` (the ``chessrating`` command) and :mod:`.progress` (its progress display).
"""

from .errors import RatingError

__version__ = "0.1.0"
__all__ = ["RatingError", "__version__"]
