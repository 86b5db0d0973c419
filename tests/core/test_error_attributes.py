"""A refused worksheet input says by attributes what its message says in words: the
argument, where inside it, and the value (chessrating.errors.RatingError), so a program
(the recalculation's trace to the cell to fix) never reads the words."""

from __future__ import annotations

import pickle

import pytest

from chessrating import cells, checks, event_cells
from chessrating.tiebreaks import event as tiebreaks_event
from chessrating.errors import Place, RatingError
from chessrating.uscf import event as uscf_event


def _refused(call, *args, **kwargs) -> RatingError:
    with pytest.raises(RatingError) as caught:
        call(*args, **kwargs)
    return caught.value


@pytest.mark.parametrize("call, args, message, attributes", [
    # a list read row by row: the item's number
    (cells.read_games, ([2000.0, "abc", 1900.0], [1.0, 0.5, 0.0]),
     "opponent_ratings: 'abc' is not a number (item 2)", ("opponent_ratings", 2, "abc")),
    (cells.read_games, ([2000.0, 1800.0, 1900.0], [1.0, 0.5, 2.0]),
     "results: 2 is not a game result (item 3)", ("results", 3, 2.0)),
    (cells.read_games, ([2000.0], ["#N/A"]),
     "results: the cell holds the Excel error #N/A (item 1)", ("results", 1, "#N/A")),
    # one cell: the argument as a whole
    (cells.rating, ("abc",), "rating: 'abc' is not a number", ("rating", None, "abc")),
    (cells.k_factor, (None,), "k: a K-factor is needed; it is blank", ("k", None, None)),
    (checks.k, (-10,), "k: -10 is not a K-factor from 1 to 100", ("k", None, -10)),
    # one value per player: the player's item
    (event_cells.rate_event, ([1500.0, "x"], 0, [[None, None], [None, None]], None, None, None,
                              None, None, None, None),
     "ratings: 'x' is not a number (player 2)", ("ratings", 2, "x")),
    # a players x rounds block: (player, round)
    (tiebreaks_event.from_rounds, ([[2.0, None], [1.0, None]], [[1.0, "?"], [0.0, None]]),
     "results: '?' is not a game result (player 1, round 2)", ("results", (1, 2), "?")),
    (tiebreaks_event.from_rounds, ([[2.0, 2.0], [1.0, 2.0]], [[None, None], [None, None]]),
     "opponents: player 2 is paired against himself (player 2, round 2)", ("opponents", (2, 2), None)),
    # a crosstable: (row, column)
    (uscf_event.pairings_from_crosstable, ([[None, "?"], [None, None]],),
     "results: '?' is not a game result (row 1, column 2)", ("results", (1, 2), "?")),
    # a fault of the whole argument: no position, no value
    (uscf_event.pairings_from_crosstable, ([[None, "1"], ["1", None]],),
     "results: row 1, column 2 holds '1' but row 2, column 1 holds '1'; the two sides disagree",
     ("results", None, None)),
])
def test_the_attributes_say_what_the_message_says(call, args, message, attributes):
    error = _refused(call, *args)
    assert str(error) == message
    assert (error.argument, error.position, error.value) == attributes


def test_a_place_is_the_words_of_the_message_and_a_position():
    place = Place("player 1, round 3", (1, 3))
    assert f"({place})" == "(player 1, round 3)" and place.position == (1, 3)
    assert pickle.loads(pickle.dumps(place)).position == (1, 3)


def test_an_error_pickles_with_its_attributes():
    error = pickle.loads(pickle.dumps(_refused(cells.read_games, [2000.0, "abc"], [1.0, 0.5])))
    assert (str(error), error.argument, error.position, error.value) == (
        "opponent_ratings: 'abc' is not a number (item 2)", "opponent_ratings", 2, "abc")
