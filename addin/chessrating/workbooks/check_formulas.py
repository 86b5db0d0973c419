"""The formulas that read an input cell the way the functions do, and say why not.

Every template's helper cells read the arbiter's entries with these builders (built-in
functions only, so every viewer computes them): the points of a result cell
(:func:`game_points`, every spelling of :mod:`chessrating.results`), an opponent number
(:func:`checked_opponent`) and a colour (:func:`checked_colour`) as checked, a rating that
means none (:func:`no_rating`) and an opponent's rating (:func:`opponent_rating`). An
input that cannot be read gives a message starting with :data:`CHECK`
(``check result of round 3: …``), which the totals show in place of a number
(:func:`first_check`); a player's own-input check cell is read by :func:`refused` and named
by :func:`check_player`, and a note on an assumption starts with :data:`ASSUMED`.

>>> no_rating("E5")
'OR(E5="",E5=0,E5="-")'
>>> check_player(6, "B10")
'"check rating of player "&6&IF(B10="",""," ("&B10&")")'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..cells import REASON
from ..results import HALF_AS_DATE, RESULTS_BY_NUMBER, RESULTS_BY_TEXT
from ..tournament import COLOUR_CELLS

__all__ = ["game_points", "CHECK", "first_check", "ASSUMED", "refused", "check_player", "no_rating",
           "checked_opponent", "checked_colour", "opponent_rating"]


@functools.lru_cache(maxsize=None)
def _texts_worth(points: float) -> tuple[str, ...]:
    """The upper-cased text spellings of the core's vocabulary worth ``points``, as
    formula strings (``"W"``), from :data:`chessrating.results.RESULTS_BY_TEXT` (the
    same for every result cell of every template, so read once)."""
    return tuple(f'"{text}"' for text, result in RESULTS_BY_TEXT.items() if result.points == points)


def game_points(result: str, where: str = "") -> str:
    """Formula (no ``=``) for the points of one result cell, read as
    :func:`chessrating.results.read_result` reads it: ``""`` while the cell is blank (or
    only spaces), a number 1, 0.5 or 0, or a text of the vocabulary in any case with
    spaces around it. Anything else (``2``, ``x2``, TRUE, a date) gives no points but the
    message ``check result WHERE: … is not a game result``, which the totals show; a
    date Excel made of a typed 1/2 (2 January or 1 February) says so, with the cell:
    ``check result WHERE: K7: 2-Jan was typed as 1/2 and became a date; pick ½ from the list``.

    Built-ins only, so that every viewer computes it.

    >>> game_points("J5", "against player 2")[:64]
    'IF(TRIM(J5)="","",IFERROR(IF(ISNUMBER(J5),IF(OR(J5={0,0.5,1}),J5'
    >>> game_points("J5", "against player 2")[-29:]
    'J5&" is not a game result")))'
    >>> game_points("J5", "against player 2").count("is not a game result")  # one home
    1
    """
    # the formula is the same for every result cell but for the cell's address: it is
    # spelled once per ``where`` with a mark in the address's place
    # the address as text: the column's letters and the cell's ROW(), so that the
    # formula copied down a column stays one formula (the evaluator compiles it once)
    letters = result.rsplit("!", 1)[-1].replace("$", "").rstrip("0123456789")
    shown = f'"{letters}"&ROW({result})'
    return _points_formula(where).replace(_RESULT_MARK, result).replace(_ADDRESS_MARK, shown)


_RESULT_MARK = "\x00"  # stands for the result cell's address; no formula holds it
_ADDRESS_MARK = "\x01"  # formula of the result cell's address as text (no sheet, no $)
# Serial numbers Excel's 1900 date system gives the days of 1901 to 9999: what a typed 1/2
# becomes (results.read_result names the same days the same way).
_DATE_SERIALS = (366, 2958466)


@functools.lru_cache(maxsize=None)
def _points_formula(where: str) -> str:
    """:func:`game_points` with :data:`_RESULT_MARK` in place of the result cell: the
    points of a result read as one (``#N/A`` for anything else), else the one message
    saying why not."""
    result = _RESULT_MARK
    numbers = sorted(RESULTS_BY_NUMBER)
    assert all(RESULTS_BY_NUMBER[n].points == n for n in numbers), "a number is its own points"
    # a comparison with an array constant compares with each of its texts, in any
    # formula (no array entry needed), in Excel and LibreOffice alike
    key = f"UPPER(TRIM({result}))"
    by_text = "NA()"
    for worth in (0.0, 0.5, 1.0):
        by_text = f"IF(OR({key}={{{','.join(_texts_worth(worth))}}}),{worth:g},{by_text})"
    points = (f"IF(ISNUMBER({result}),IF(OR({result}={{{','.join(f'{n:g}' for n in numbers)}}}),{result},NA()),"
              f"{by_text})")
    # 2 January or 1 February of any year is what Excel makes of a typed 1/2: said so,
    # with the cell (IFERROR: MONTH and DAY refuse what is no date)
    low, high = _DATE_SERIALS
    typed_half = (f"IFERROR(AND(ISNUMBER({result}),{result}>{low},{result}<{high},{result}=INT({result}),"
                  f"OR(AND(MONTH({result})=1,DAY({result})=2),AND(MONTH({result})=2,DAY({result})=1))),FALSE)")
    why = (f'IF({typed_half},{_ADDRESS_MARK}&": "&DAY({result})&IF(MONTH({result})=1,"-Jan","-Feb")'
           f'&" {HALF_AS_DATE}",{result}&" is not a game result")')
    head = f'check result{" " + where if where else ""}: '
    return f'IF(TRIM({result})="","",IFERROR({points},"{head}"&{why}))'


# Messages the templates' helper cells hold for an input to fix start with this word;
# the totals show the first one instead of calling a function on it (and TIEBREAK reads
# one as that input refused, chessrating.cells.REASON).
CHECK = REASON


def first_check(ranges: Sequence[str], otherwise: str, then: str = "") -> str:
    """Formula (no ``=``): the first ``check …`` message in ``ranges`` (a result that is
    not one, an opponent whose rating is refused), followed by the text formula ``then``
    if given, else ``otherwise``.

    >>> first_check(["A1:C1"], "SUM(A1:C1)")
    'IF(ISNA(MATCH("check *",A1:C1,0)),SUM(A1:C1),INDEX(A1:C1,MATCH("check *",A1:C1,0)))'
    """
    formula = otherwise
    for found in reversed(ranges):
        where = f'MATCH("{CHECK}*",{found},0)'
        shown = f"INDEX({found},{where})" + (f"&{then}" if then else "")
        formula = f"IF(ISNA({where}),{formula},{shown})"
    return formula


# A Check cell's note on an assumption starts with this word; anything else in it is a
# refusal.
ASSUMED = "assumed: "


def refused(check: str) -> str:
    """Formula (no ``=``): TRUE when a player's own-input check cell refuses the input:
    the function's message (as classic xlwings writes it) or an error value (as xlwings
    Lite and the evaluator hold it). A number (the input read), a blank, a note on an
    assumption or a ``check …`` pointer to another input is no refusal of this one.
    """
    return (f'IFERROR(AND(ISTEXT({check}),{check}<>"",LEFT({check},{len(ASSUMED)})<>"{ASSUMED}",'
            f'LEFT({check},{len(CHECK)})<>"{CHECK}"),TRUE)')


def check_player(number: str | int, name: str, what: str = "rating") -> str:
    """Formula (no ``=``): ``check rating of player 6 (Name)``, the name left out while blank."""
    return f'"{CHECK}{what} of player "&{number}&IF({name}="",""," ("&{name}&")")'


def no_rating(rating: str) -> str:
    """Formula (no ``=``): TRUE when a rating cell means "no rating": blank, 0 or ``-``.

    Text that is not a rating is not "no rating": it goes on to the function, which says
    what is wrong with it.
    """
    return f'OR({rating}="",{rating}=0,{rating}="-")'


def checked_opponent(opponent: str, own: str, players: int, rnd: int | None = None) -> str:
    """Formula (no ``=``): the opponent's number, or why it cannot be one.

    A number outside 1..``players`` (or not whole) and the player's own number ``own``
    give a ``check opponent in round N: …`` message instead, so that the lookups built on
    it and the totals say what is wrong rather than showing #REF!; ``""`` while the cell
    is blank. A number stored as text (typed ``'2``, or pasted) is named as text, to be
    typed as a number.
    """
    where = f"{CHECK}opponent{f' in round {rnd}' if rnd else ''}: "
    x = opponent
    why = (f'IF({x}={own}," is the player himself",IF(AND(ISTEXT({x}),ISNUMBER(-{x})),'
           f'" is text: type it as a number"," is not a player number (1 to {players})"))')
    # (a text is no number, and equals no number: the message's branch)
    good = f"IF(ISNUMBER({x}),AND({x}>=1,{x}<={players},{x}=INT({x}),{x}<>{own}))"
    return f'IF({x}="","",IF({good},{x},"{where}"&{x}&{why}))'


def checked_colour(colour: str, rnd: int) -> str:
    """Formula (no ``=``): a round's colour as the tie-breaks read it: the cell (without
    spaces around) while it holds W or B, White or Black in any case (docs/RULES.md §1.2),
    ``""`` while blank, else ``check colour of round N: … is not W or B``, which the row's
    Check cell shows and TIEBREAK reads as no colour.

    >>> checked_colour("K5", 1)
    'IF(OR(TRIM(K5)={"","W","B","WHITE","BLACK"}),TRIM(K5),"check colour of round 1: "&K5&" is not W or B")'
    """
    # (a comparison of texts ignores case)
    spellings = ",".join(['""', *(f'"{text}"' for text in COLOUR_CELLS)])
    return (f'IF(OR(TRIM({colour})={{{spellings}}}),TRIM({colour}),'
            f'"{CHECK}colour of round {rnd}: "&{colour}&" is not W or B")')


def opponent_rating(ratings: str, checked: str) -> str:
    """Formula (no ``=``): the rating in ``ratings`` of the opponent number ``checked`` (as
    :func:`checked_opponent` gives it), ``""`` for an unrated opponent, and the message
    itself where the number is bad, so that the functions reading it say what is wrong.

    >>> opponent_rating("$C$5:$C$9", "M5")
    'IF(ISNUMBER(M5),IF(OR(INDEX($C$5:$C$9,M5)="",INDEX($C$5:$C$9,M5)=0,INDEX($C$5:$C$9,M5)="-"),"",INDEX($C$5:$C$9,M5)),M5)'
    """
    found = f"INDEX({ratings},{checked})"
    return f'IF(ISNUMBER({checked}),IF({no_rating(found)},"",{found}),{checked})'
