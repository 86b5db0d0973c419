"""The one error type of the package, and where the value it refuses stands.

>>> error = RatingError("opponent_ratings: 'abc' is not a number (item 2)",
...                     argument="opponent_ratings", item=2, value="abc")
>>> error.argument, error.position, error.value
('opponent_ratings', 2, 'abc')
>>> where = Place("player 1, round 3", (1, 3))
>>> f"results: 2 is not a game result ({where})", RatingError("…", item=where).position
('results: 2 is not a game result (player 1, round 3)', (1, 3))
>>> cell = BlockCell(0, 2)
>>> f"results: 2 is not a game result{cell}", cell.position, BlockCell(1, 0, grid=True).text
('results: 2 is not a game result (player 1, round 3)', (1, 3), 'row 2, column 1')
"""

from __future__ import annotations

from typing import Any

__all__ = ["RatingError", "Place", "BlockCell", "Position", "position_of"]

# Where a value stands inside its argument: an item's number (from 1, the cells of a row
# or a column read in order), or (row, column) of a block, from 1.
Position = int | tuple[int, int]


class Place(str):
    """Where a value stands, in the words a message ends with (``player 2``), that also
    knows the :data:`Position` those words mean (the item 2)."""

    position: Position

    def __new__(cls, text: str, position: Position) -> Place:
        place = super().__new__(cls, text)
        place.position = position
        return place

    def __getnewargs__(self) -> tuple[str, Position]:  # type: ignore[override]
        return str(self), self.position


class BlockCell:
    """A cell of a players × rounds block (``player 2, round 3``) or of a grid (``row 2,
    column 3``), from its 0-based row and column: as a message ends with it, `` (player 2,
    round 3)`` (its ``str``), written only when a message needs it; :attr:`text` is the
    :class:`Place` inside the brackets."""

    __slots__ = ("row", "column", "grid")

    def __init__(self, row: int, column: int, *, grid: bool = False) -> None:
        self.row, self.column, self.grid = row, column, grid

    @property
    def position(self) -> tuple[int, int]:
        return (self.row + 1, self.column + 1)

    @property
    def text(self) -> Place:
        row, column = self.position
        words = f"row {row}, column {column}" if self.grid else f"player {row}, round {column}"
        return Place(words, (row, column))

    def __str__(self) -> str:
        return f" ({self.text})"


def position_of(item: object) -> Position | None:
    """The position an item names: its number, a :class:`Place`'s (or any object's with a
    ``position``), or ``None`` for a text alone (``pairing 3``) or no item."""
    if type(item) is int:
        return item
    return getattr(item, "position", None)


class RatingError(ValueError):
    """Bad input to a rating function.

    The message is one line that names the argument and the value, for example
    ``results: 'x' is not a game result (item 3)``. Excel shows it in the cell.

    What the message names stands in attributes too, for programs, which read them and
    never the words (the recalculation traces an error to the cell to fix by them):
    ``argument``, the argument's name; ``position``, where inside the argument the value
    stands (:data:`Position`, ``None`` for the argument as a whole); ``value``, the value
    refused as the function received it (``None`` where the message names none).
    ``item`` is where the message says the value stands: an item's number or a
    :class:`Place`, which give ``position``.
    """

    def __init__(self, message: str, *, argument: str | None = None, item: object = None,
                 value: Any = None) -> None:
        super().__init__(message)
        self.argument = argument
        self.position = position_of(item)
        self.value = value
