"""The one error type of the package."""

from __future__ import annotations

__all__ = ["RatingError"]


class RatingError(ValueError):
    """Bad input to a rating function.

    The message is one line that names the argument and the value, for example
    ``results: 'x' is not a game result (item 3)``. Excel shows it in the cell.
    """
