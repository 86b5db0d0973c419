"""A whole event read from worksheet ranges: the US Chess event (``USCF_EVENT``) and the
tournament the tie-breaks read (``TIEBREAK``), each computed once for a table.

A crosstable asks once per player row, ``INDEX(USCF_EVENT(table…), k)`` or
``INDEX(TIEBREAK(code, block…), k)``, so the same ranges arrive n times. The arguments,
pickled, are the key of a small cache (:func:`arguments_key`): the event is read and
rated once and the other rows are answered from it. USCF_EVENT looks its cache up before
checking its ranges (:func:`rated_event` checks them, on a miss): the check reads every
cell, two thirds of a repeat call. The cache holds only events whose arguments passed it,
and its key is the whole of what the check reads, so an argument it refuses is never
answered from the cache.

``zeros_are_blank`` is true under Office.js (xlwings Lite and Server), which hands an
empty cell over as 0: a 0 result is read as a blank there, so a loss counts from the
winner's side.

>>> arguments_key(([[1.0, "½"]],)) == arguments_key(([[1.0, "½"]],))
True
>>> arguments_key(([[1.0]],)) == arguments_key(([[1]],))  # the type is part of the key
False
"""

from __future__ import annotations

import functools
import io
import pickle
from typing import Any

from . import cells, checks
from .cells import flatten, read_bool, read_number, read_rating, typed_zero
from .errors import RatingError
from .results import NoValue, check_excel_error, player_place, read_result
from .tiebreaks import event as tiebreaks_event
from .tiebreaks import fide as tiebreaks_fide

__all__ = ["arguments_key", "check_event_ranges", "rated_event", "rate_event", "tiebreak_scores", "tiebreak_event",
           "blank_block", "standing"]


def arguments_key(arguments: tuple[Any, ...]) -> bytes | None:
    """Excel arguments as bytes to look a computed event up by (USCF_EVENT, TIEBREAK), or
    ``None`` if they cannot be.

    Pickle writes each cell with its type (``1``, ``1.0``, ``TRUE`` and ``"1"`` give
    different bytes) and the bytes give back the arguments, so equal keys mean equal
    arguments: a key can miss (the same value spelled twice), never falsely hit. The
    memo is off so that the bytes do not depend on which cells share one object.
    Building it is one C pass over the table, a small share of rating the event, which
    matters because a sheet may ask once per player row. A range larger than any argument
    may be (:data:`.cells.MAX_CELLS`) is given no key: it is refused without being
    pickled first."""
    if any(_larger_than_allowed(value) for value in arguments):
        return None
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: equal arguments, equal bytes
    try:
        pickler.dump(arguments)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return buffer.getvalue()


def _larger_than_allowed(value: Any) -> bool:
    """A range with more rows, or rows × first row's cells, than an argument may hold (a
    bound read in constant time; :func:`.cells.check_range` reads the whole range)."""
    if not isinstance(value, (list, tuple)):
        return False
    first = value[0] if value else None
    width = len(first) if isinstance(first, (list, tuple)) else 1
    return len(value) * max(width, 1) > cells.MAX_CELLS


def check_event_ranges(arguments: tuple[Any, ...]) -> None:
    """USCF_EVENT's range arguments checked (:func:`.cells.check_range`), each named as
    the function names it (its parameters are :func:`rate_event`'s)."""
    code = rate_event.__code__
    for name, value in zip(code.co_varnames[:code.co_argcount], arguments):
        if isinstance(value, (list, tuple)):
            cells.check_range(value, name)


@functools.lru_cache(maxsize=1)
def rated_event(key: bytes, zeros_are_blank: bool = False) -> tuple[tuple[Any, ...], ...]:
    """The latest event rated, ``key`` the arguments of :func:`rate_event` as
    :func:`arguments_key` gives them. ``functools.lru_cache`` keeps the column with its key
    and looks both up in one step (safe under threads, free-threaded Python included), so
    a caller never receives another call's column; at worst two threads rate one event twice.
    The ranges are checked here, on a miss: the cache keeps only events whose ranges passed."""
    arguments = pickle.loads(key)
    check_event_ranges(arguments)
    return tuple(tuple(row) for row in rate_event(*arguments, zeros_are_blank=zeros_are_blank))


def _per_player(values: Any, argument: str, count: int) -> list[Any] | None:
    """One cell per player, or ``None`` when the argument is not given."""
    return None if values is None else checks.per_player(flatten(values), argument, count)


def _absolute_floor(value: Any, item: str) -> float | None:
    """A personal absolute floor, or ``None`` for a blank (or the 0 Office.js sends for one)."""
    return None if typed_zero(value) else read_number(value, "absolute_floors", item)


def rate_event(ratings: Any, games: Any, results: Any, opponents: Any, ages: Any,
               records: Any, dual_rated: Any, bonus_threshold: Any, peak_ratings: Any,
               life_masters: Any, absolute_floors: Any = None, *,
               zeros_are_blank: bool = False) -> list[list[Any]]:
    """USCF_EVENT's arguments read and the event rated (:func:`.uscf.event.rate_event`):
    one post-event rating per player, as a column."""
    from .uscf import event as uscf_event  # loaded by the first US Chess event, not by a tie-break
    own = [read_rating(v, "ratings", player_place(i)) for i, v in enumerate(flatten(ratings), start=1)]
    counts = [cells.count(v, "games", player_place(i))
              for i, v in enumerate(checks.per_player(flatten(games), "games", len(own)), start=1)]
    rows = cells.grid(results, "results")  # a flat list is a column: one round
    if len(rows) != len(own):
        raise RatingError(f"results: {len(rows)} rows but ratings has {len(own)}; one row per player",
                          argument="results")
    if zeros_are_blank:
        # Office.js hands empty cells over as 0: a game entered from one side only would
        # read as contradicted by a loss. A loss counts from the winner's side.
        rows = [[None if typed_zero(v) else v for v in row] for row in rows]
    if opponents is None:
        pairings = uscf_event.pairings_from_crosstable(rows)
    else:
        pairings = uscf_event.pairings_from_rounds(rows, opponents)
    player_ages = _per_player(ages, "ages", len(own))
    player_records = _per_player(records, "records", len(own))
    peaks = _per_player(peak_ratings, "peak_ratings", len(own))
    masters = _per_player(life_masters, "life_masters", len(own))
    personal = _per_player(absolute_floors, "absolute_floors", len(own))
    new = uscf_event.rate_event(
        own, counts, pairings,
        ages=None if player_ages is None else [cells.age(v, "ages", player_place(i)) for i, v in enumerate(player_ages, 1)],
        records=None if player_records is None else [
            cells.record(v, "records", player_place(i)) for i, v in enumerate(player_records, 1)],
        dual_rated=cells.dual_rated(dual_rated),
        bonus_threshold=cells.bonus_threshold(bonus_threshold),
        peak_ratings=None if peaks is None else [read_rating(v, "peak_ratings", player_place(i)) for i, v in enumerate(peaks, 1)],
        life_masters=None if masters is None else [
            read_bool(v, "life_masters", item=player_place(i)) for i, v in enumerate(masters, 1)],
        absolute_floors=None if personal is None else [
            _absolute_floor(v, player_place(i)) for i, v in enumerate(personal, 1)])
    return [[value] for value in new]


def blank_block(value: Any) -> bool:
    """An argument left out, or a range of empty cells (Office.js sends them as 0)."""
    return all(cell is None or typed_zero(cell) or (isinstance(cell, str) and not cell.strip())
               for cell in flatten(value))


@functools.lru_cache(maxsize=4)
def tiebreak_scores(key: bytes, rules: str, zeros_are_blank: bool = False) -> tiebreaks_fide.Scores:
    """The event of a block read once for every TIEBREAK call on it (a standings sheet asks
    for several codes of the same block, each row for its item): the key is the arguments
    of :func:`tiebreak_event` as :func:`arguments_key` gives them."""
    return tiebreaks_fide.Scores(tiebreak_event(*pickle.loads(key), zeros_are_blank=zeros_are_blank), rules)


def tiebreak_event(opponents: Any, results: Any, colours: Any, ratings: Any, *,
                   zeros_are_blank: bool = False) -> tiebreaks_event.Event:
    """TIEBREAK's block read as a tournament: players × rounds of opponent numbers and
    results (and colours), or a round-robin grid of results when ``opponents`` is blank;
    the players' ratings if given.

    Blank opponents beside results that are not a square, or that hold a bye, are rounds
    nobody is paired in yet (a bye entered before the pairings), not a grid
    (**Decision**); left out, ``opponents`` still asks for a grid. A rating that cannot be
    read is refused for its player only (:func:`_rating`), and a colour that is a reason
    another cell gave (``check colour of round 2: …``) is no colour."""
    rows = cells.grid(results, "results")
    if zeros_are_blank:
        # Office.js hands empty cells over as 0: a 0 is read as a blank, so a loss counts
        # from the winner's side (or type L).
        rows = [[None if typed_zero(v) else v for v in row] for row in rows]
    colour_rows = None
    if colours is not None and not blank_block(colours):
        colour_rows = [[None if cells.is_reason(v) else v for v in row] for row in cells.grid(colours, "colours")]
    if blank_block(opponents):
        if opponents is not None and _pairings_pending(rows):
            event = tiebreaks_event.from_rounds([[None] * len(row) for row in rows], rows, colour_rows)
        elif len(rows) != len(rows[0]):
            raise RatingError(f"opponents: blank, so results must be a square round-robin grid; "
                              f"it is {len(rows)}×{len(rows[0])}", argument="opponents")
        else:
            event = tiebreaks_event.from_grid(rows, colour_rows)
    else:
        event = tiebreaks_event.from_rounds(cells.grid(opponents, "opponents"), rows, colour_rows)
    if ratings is not None and not blank_block(ratings):
        event = event.with_ratings([_rating(v, i) for i, v in enumerate(flatten(ratings), start=1)])
    return event


def _pairings_pending(rows: list[list[Any]]) -> bool:
    """Results beside blank opponents that are rounds nobody is paired in yet rather than
    a round-robin grid: no game played over the board, and a bye among them (a grid has
    none) or a block that is not square.

    >>> _pairings_pending([["H", None], [None, None], [None, None]]), _pairings_pending([[None, "1"], ["0", None]])
    (True, False)
    """
    square, bye = len(rows) == len(rows[0]), False
    for row in rows:
        for value in row:
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            try:
                result = read_result(value, "results")
            except RatingError:
                continue  # refused where the block is read, with its cell
            if result is None:
                continue
            if result.rated:
                return False
            bye = bye or result.code in _BYE_CODES
    return bye or not square


_BYE_CODES = frozenset("HZUB")


def _rating(value: Any, number: int) -> float | None | NoValue:
    """A player's rating as the tie-breaks read it, or the reason it is refused, for that
    player only (:class:`.tiebreaks.event.RefusedRating`): a reason another cell gave
    (``check rating of player 2 (Beta)``) as it stands, else why it is not a rating."""
    if cells.is_reason(value):
        return tiebreaks_event.RefusedRating(value)
    try:
        return read_rating(value, "ratings", player_place(number))
    except RatingError as error:
        return tiebreaks_event.RefusedRating(str(error))


def standing(value: Any, argument: str, item: str) -> float | None:
    """A points or tie-break cell: a number, or ``None`` (ranked last) for a blank or a text
    that is no number: the reason a crosstable shows instead of a contradicted player's
    points must not stop the other players' ranks. An Excel error is refused."""
    if type(value) is float and -_HUGE < value < _HUGE:  # the common case; NaN and infinities fail it
        return value
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        check_excel_error(value, argument, item)
        if not checks.readings(value):
            return None
    return read_number(value, argument, item)


_HUGE = float("inf")


