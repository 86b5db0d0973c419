"""Chess ratings for Excel: classic Elo, FIDE, US Chess, performance ratings and title norms.

The rating core (``elo``, ``fide``, ``uscf``, ``performance``, ``norms``, ``goal``) is
plain Python; ``chessrating.udfs`` exposes it to Excel through xlwings.
"""

from .errors import RatingError

__version__ = "0.1.0"
__all__ = ["RatingError", "__version__"]
