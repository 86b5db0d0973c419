"""Formulas that refuse a crosstable whose two sides of a game contradict each other.

A game is entered twice: in the round robin in a cell and its mirror, in the Swiss and
the US Chess crosstable in the rows of both players. Where the two sides do not agree,
the game's points cell (the grid or block the totals add up) holds a one-line reason
starting ``check `` instead of the points, so the affected players' points, expected
score, change, new rating, performance and Check show the reason
(:func:`.check_formulas.first_check`), and no total counts the game. Every message names both
players (and the round in the Swiss), the same text in both rows, so ``chessrating
recalc`` lists it once with the cells that show it. What the ratings and tie-breaks read
leaves such a game out (the templates blank its opponent and result there), so the
other players keep their numbers. A Swiss round whose opponent number is refused (not a
player's number, the player's own, a number stored as text) is left out the same way and
shows that reason in its points cell.

Contradictions (a double forfeit, ``-`` against ``-``, is a game of no points, not one;
so is, in the FIDE crosstables, a game lost by both, a played loss on both sides, FIDE
Laws 11.8: docs/RULES.md §1.3):

* the two results do not add up to one game's point (1 and 1, ½ and 1; 0 and 0 in the US
  Chess crosstable), or are not of one kind: a played result against a forfeit (1 and -),
  or a bye (H, B, U, Z) beside an opponent (H and ½);
* one side holds a result and the other is blank;
* Swiss and US Chess (both "Swiss" below): a played result (1, ½, 0) without an
  opponent; a player named as opponent by two rows in one round; a row naming an
  opponent whose row names someone else (or no one, where either row holds a result).

Built-ins only, so that every viewer computes them.

>>> player("3", "$B$7")
'"player "&3&IF($B$7="",""," ("&$B$7&")")'
"""

from __future__ import annotations

from ..results import RESULTS_BY_TEXT
from .check_formulas import CHECK

__all__ = ["player", "round_robin_points", "swiss_points",
           "swiss_label", "swiss_paired_twice", "swiss_unanswered"]


def player(number: str, name: str) -> str:
    """Formula (no ``=``): ``player 3 (Name)``, the name left out while blank."""
    return f'"player "&{number}&IF({name}="",""," ("&{name}&")")'


def _kind(result: str) -> str:
    """Formula (no ``=``) of a result already read as one: 0 for a game played over the
    board (1, ½, 0 in any spelling), 1 for a forfeit (+, -), 2 for a bye (H, B, U, Z).

    >>> _kind("K5")
    'IFERROR(INDEX({1,1,1,1,2,2,2,2},MATCH(TRIM(K5),{"+","X","-","F","H","B","U","Z"},0)),0)'

    (MATCH compares texts in any case.)
    """
    unplayed = [(text, 2 if r.code in _BYES else 1) for text, r in RESULTS_BY_TEXT.items() if not r.rated]
    unplayed.sort(key=lambda pair: pair[1])
    kinds = ",".join(str(kind) for _, kind in unplayed)
    texts = ",".join(f'"{text}"' for text, _ in unplayed)
    return f"IFERROR(INDEX({{{kinds}}},MATCH(TRIM({result}),{{{texts}}},0)),0)"


_BYES = frozenset("HBUZ")


def _not_one_game(points: str, other: str, result: str, other_result: str, double_loss: bool = True) -> str:
    """TRUE when two read results do not make one game: a game played on both sides with
    points adding up to 1 (or, with ``double_loss``, to 0: a game lost by both), or a
    forfeit on both sides worth at most 1 (+ against -, or a double forfeit, - against -);
    never a bye (a bye has no opponent) nor a played result against a forfeit. The two
    kinds (:func:`_kind`) and the points make one key, compared with the keys of one game
    at once.

    >>> _not_one_game("P", "Q", "R", "S").replace(_kind("R"), "k(R)").replace(_kind("S"), "k(S)")
    'NOT(OR((3*k(R)+k(S))&"|"&(P+Q)={"0|1","0|0","4|1","4|0"}))'
    >>> _not_one_game("P", "Q", "R", "S", double_loss=False).endswith('={"0|1","4|1","4|0"}))')
    True
    """
    keys = ",".join(f'"{key}"' for key in ("0|1", *(("0|0",) if double_loss else ()), "4|1", "4|0"))
    return f'NOT(OR((3*{_kind(result)}+{_kind(other_result)})&"|"&({points}+{other})={{{keys}}}))'


def round_robin_points(points: str, mirror_points: str, lower: tuple[int, str, str],
                       upper: tuple[int, str, str]) -> str:
    """Formula (no ``=``) of one game's points cell in the round robin: the points read
    from the cell (``points``, ``""`` or a ``check result`` message), unless the cell
    and its mirror contradict each other.

    ``lower`` and ``upper`` are the two players, the lower number first, as (number,
    name cell, result cell); ``mirror_points`` the mirror's points as read. Both cells
    of a game get the same message.
    """
    (low, low_name, low_cell), (high, high_name, high_cell) = lower, upper
    head = (f'"{CHECK}game of "&{player(str(low), low_name)}&" and "&'
            f'{player(str(high), high_name)}&": "')
    low_at, high_at = (c.replace("$", "").rsplit("!", 1)[-1] for c in (low_cell, high_cell))
    one_side = (f'{head}&IF(TRIM({low_cell})="","{high_at} holds "&{high_cell}&" but {low_at} is blank",'
                f'"{low_at} holds "&{low_cell}&" but {high_at} is blank")')
    not_adding = (f'{head}&"{low_at} holds "&{low_cell}&" and {high_at} holds "&{high_cell}&'
                  f'", which do not add up to one game"')
    read = f"AND({points}<>\"\",NOT(ISNUMBER({points})))"
    # the cell's own result refused: its message; both blank: not played yet; one side
    # only; the mirror refused (its row says why); else the points must make one game
    return (f'IF({read},{points},IF(AND({points}="",{mirror_points}=""),"",'
            f'IF(OR({points}="",{mirror_points}=""),{one_side},'
            f'IF(NOT(ISNUMBER({mirror_points})),{points},'
            f'IF({_not_one_game(points, mirror_points, low_cell, high_cell)},{not_adding},{points})))))')


def swiss_label(name: str) -> str:
    """Formula (no ``=``) of a player's label cell: `` (Name)``, blank while the name is
    (so an empty template shows nothing). The Swiss messages look it up by number after
    ``player N`` (:func:`_labelled`) rather than spell it again: shorter formulas read,
    compile and evaluate faster.

    >>> swiss_label("B5")
    'IF(B5="",""," ("&B5&")")'
    """
    return f'IF({name}="",""," ("&{name}&")")'


def _labelled(labels: str, number: str) -> str:
    """Formula (no ``=``): ``player 3 (Name)`` with the name from the label column."""
    return f'"player "&{number}&INDEX({labels},{number})'


def _two(own: str, opponent: str, mine: str, theirs: str) -> str:
    """Formula (no ``=``): ``mine&" and "&theirs`` with the lower player number first, so
    that both rows of a game spell the same message."""
    return f'IF({own}<{opponent},{mine}&" and "&{theirs},{theirs}&" and "&{mine})'


def swiss_unanswered(*, opponents: str, bins: str, players: int) -> str:
    """Formula (no ``=``) of one cell per round: how many players the round's
    ``opponents`` (the checked opponent numbers: whole numbers 1..``players`` or a text)
    name more often than they name someone themselves, that is players named by two rows
    and players named by a row while naming no one. 0 means neither, so the formulas
    that would search the round's column for them skip the search
    (:func:`swiss_paired_twice`, :func:`swiss_points`). An error among the opponents
    counts as 1: search.

    ``bins`` holds the numbers 1 to ``players`` - 1: FREQUENCY (which skips texts) then
    counts how often each number 1..``players`` is named, the last count being those
    above ``players`` - 1, one value per player, to compare with whether the player's
    own row names a number.

    >>> swiss_unanswered(opponents="$X$5:$X$8", bins="$A$5:$A$7", players=4)
    'IFERROR(SUMPRODUCT(--(FREQUENCY($X$5:$X$8,$A$5:$A$7)-ISNUMBER($X$5:$X$8)>0)),1)'
    >>> swiss_unanswered(opponents="$X$5:$X$5", bins="", players=1)
    '0'

    (With one player no number is an opponent's.)
    """
    if players < 2:
        return "0"
    return f"IFERROR(SUMPRODUCT(--(FREQUENCY({opponents},{bins})-ISNUMBER({opponents})>0)),1)"


def swiss_paired_twice(*, rnd: int, own: str, own_label: str, opponents: str, labels: str,
                       numbers: str, unanswered: str) -> str:
    """Formula (no ``=``): the reason when the player of number ``own`` (label cell
    ``own_label``, `` (Name)``) is named as opponent by more than one row in round ``rnd``
    (``opponents``: the round's checked opponent numbers, ``labels`` and ``numbers`` the
    players' labels and numbers), else ``""``; ``unanswered`` is the round's
    :func:`swiss_unanswered` cell (0: no search). Every row concerned shows it
    (:func:`swiss_points`)."""
    count = f"COUNTIF({opponents},{own})"
    first = f"MATCH({own},{opponents},0)"
    second = f"(SUMPRODUCT(--({opponents}={own}),{numbers})-{first})"
    return (f'IF({unanswered}=0,"",IF({count}<2,"","{CHECK}round {rnd}: player "&{own}&{own_label}&'
            f'" is paired with "&{_labelled(labels, first)}&" and "&IF({count}=2,{_labelled(labels, second)},'
            f'({count}-1)&" more players")))')


def swiss_points(*, rnd: int, own: str, own_label: str, points: str, opponent: str, result: str,
                 opponents: str, results: str, all_points: str, labels: str,
                 twice: str, all_twice: str, unanswered: str, double_loss: bool = True) -> str:
    """Formula (no ``=``) of one round's points cell in the Swiss: the points read from
    the result (``points``: ``""``, a number or a ``check result`` message), unless the
    round contradicts another row.

    ``own`` is the player's number cell and ``own_label`` its label cell
    (:func:`swiss_label`, `` (Name)``), ``opponent`` the opponent's number as
    checked (a number, ``""`` or a ``check opponent`` message, which the cell shows),
    ``result`` the result cell as entered, ``twice`` the row's :func:`swiss_paired_twice`
    cell; ``opponents``, ``results``, ``all_points`` and ``all_twice`` are the round's
    columns of every player (checked numbers, results as entered, points as read,
    paired-twice reasons), ``labels`` the players' labels, ``unanswered`` the round's
    :func:`swiss_unanswered` cell (0: no row names a player whose row names no one);
    ``double_loss`` accepts a game lost by both (the FIDE Swiss; not the US Chess one).
    """
    head = f'"{CHECK}round {rnd}: "'
    own_label = f'"player "&{own}&{own_label}'
    theirs = f"INDEX({opponents},{opponent})"  # whom the opponent's row names
    their_label = _labelled(labels, opponent)
    their_points = f"INDEX({all_points},{opponent})"
    their_result = f"INDEX({results},{opponent})"
    pair = _two(own, opponent, own_label, their_label)
    disagree = (f'{head}&{own_label}&" names "&{their_label}&" as opponent, whose row names "&'
                f'IF({theirs}="","no opponent",IF(ISNUMBER({theirs}),{_labelled(labels, theirs)},"no valid opponent"))')
    one_side = (f'{head}&{pair}&": only the row of "&IF({points}="",{their_label},{own_label})&'
                f'" holds a result"')
    not_adding = (f'{head}&{pair}&" have "&{_two(own, opponent, result, their_result)}&'
                  f'", which do not add up to one game"')
    mutual = (f'IF(AND({points}="",{their_points}=""),{points},'
              f'IF(OR({points}="",{their_points}=""),{one_side},'
              f'IF(NOT(ISNUMBER({their_points})),{points},'
              f'IF({_not_one_game(points, their_points, result, their_result, double_loss)},'
              f'{not_adding},{points}))))')
    with_opponent = (f'IF(INDEX({all_twice},{opponent})<>"",INDEX({all_twice},{opponent}),'
                     f'IF({theirs}<>{own},IF(AND({points}="",{their_points}="",{theirs}=""),{points},{disagree}),'
                     f'{mutual}))')
    namer = f"MATCH({own},{opponents},0)"
    named_alone = (f'IF(AND({points}="",INDEX({all_points},{namer})=""),{points},'
                   f'{head}&{_labelled(labels, namer)}&" names "&{own_label}&" as opponent, whose row names no opponent")')
    # (a result read as points is a played one unless it is a forfeit or a bye)
    no_opponent = (f'IF(IF({unanswered}=0,FALSE,NOT(ISNA({namer}))),{named_alone},'
                   f'IF(AND(ISNUMBER({points}),{_kind(result)}=0),'
                   f'{head}&{own_label}&" has the result "&{result}&" but no opponent",{points}))')
    # a refused result or opponent number: its own message (the round is no game for
    # the ratings and tie-breaks, as a contradicted one)
    refused = 'AND({x}<>"",NOT(ISNUMBER({x})))'
    return (f'IF({refused.format(x=points)},{points},IF({refused.format(x=opponent)},{opponent},'
            f'IF({twice}<>"",{twice},'
            f'IF(ISNUMBER({opponent}),{with_opponent},{no_opponent}))))')
