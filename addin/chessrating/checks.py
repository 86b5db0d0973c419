"""The input checks of the rating core: one message and one domain for each fault.

Every public function of the core and every worksheet function reads its arguments with
these checks, so a value is refused with the same one-line message wherever it enters:
``argument: value is not <what the argument is> (where)`` with the value as written,
e.g. ``k: -10 is not a K-factor from 1 to 100`` or ``opponent_ratings: '2,05' is not a
rating from 100 to 4000 (item 3)``; ``where`` is an item number or a text such as
``player 2``. Blanks (``None`` here; the empty cells of each Excel runtime are read by
:mod:`chessrating.cells` first) are for each function to decide; an Excel error value
(``#N/A``) is refused as what it is.

The domains (a **Decision** each, where the rule books give no bound):

* a rating: 100 to 4000. US Chess floors at 100 and no list reaches 4000 (engines are in
  the 3600s), so a rating outside is a typing or pasting error;
* an Elo K-factor: 1 to 100 (the classic values are 10 to 40; the FIDE 700 rule goes down
  to 1); a FIDE K-factor: a whole number from 1 to 40 (10, 20, 40 today, 15/25/30 before
  2014, and the 700 rule's ``floor(700 / n)`` below them);
* games (rated so far, in an event, in a period): a whole number from 0 to 100000;
* an age: 1 to 120 (the rule book's first rating has a step "under age 2"); a year: 1900
  to 2100;
* the US Chess bonus threshold B: 1 to 50 (10 today, 14 and 12 before);
* a score per game and a fractional score: 0 to 1; a game's score: 1, 0.5 or 0;
* a title: one of FIDE's (GM, IM, WGM, WIM, FM, WFM, CM, WCM); a federation: three letters.

A number is a finite ``int`` or ``float`` (never a ``bool``), or text that reads as one:
spaces around it are ignored, a decimal point or a decimal comma, and thousands
separators (comma, point, space, apostrophe) between groups of three digits. Where text
reads two ways (``"2,050"``: 2050, or 2.05 with a decimal comma) the one inside the
argument's domain is taken; if both are inside, or neither, the text is refused.

>>> rating(" 2,050 "), rating("2.050"), rating("2 050"), k("32")
(2050.0, 2050.0, 2050.0, 32.0)
>>> rating("2,05")
Traceback (most recent call last):
...
chessrating.errors.RatingError: rating: '2,05' is not a rating from 100 to 4000
>>> count("1.000", "games")
Traceback (most recent call last):
...
chessrating.errors.RatingError: games: '1.000' reads as 1 or as 1000; type the number without separators
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RatingError
from .results import EXCEL_ERRORS, Game, check_excel_error, describe, item_suffix, refusal

# Where a value stands, for the message: an item number, a text such as "player 2", or none.
Item = int | str | None

__all__ = [
    "Domain", "RATING", "WHOLE_RATING", "K", "FIDE_K", "GAMES", "AGE", "YEAR", "BONUS_THRESHOLD",
    "SCORE_PER_GAME", "FRACTIONAL_SCORE", "EFFECTIVE_GAMES", "GAME_SCORES",
    "TITLES", "readings", "number", "in_domain", "whole", "rating", "optional_rating",
    "needed", "k", "fide_k", "count", "age", "year", "bonus_threshold", "score_per_game",
    "game_score", "choice", "record", "flag", "label", "title", "federation", "per_player",
    "games_need_a_rating", "record_needs_games", "games",
]


@dataclass(frozen=True)
class Domain:
    """The values an argument may take: from ``low`` to ``high``, whole numbers only if ``whole``."""

    noun: str
    low: float
    high: float
    whole: bool = False

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high and (not self.whole or float(value).is_integer())

    def __str__(self) -> str:
        return f"{self.noun} from {describe(float(self.low))} to {describe(float(self.high))}"


RATING = Domain("a rating", 100, 4000)
WHOLE_RATING = Domain("a rating, a whole number", 100, 4000, whole=True)
K = Domain("a K-factor", 1, 100)
FIDE_K = Domain("a FIDE K-factor, a whole number", 1, 40, whole=True)
GAMES = Domain("a whole number of games", 0, 100_000, whole=True)
EFFECTIVE_GAMES = Domain("a number of effective games", 0, 100_000)
AGE = Domain("an age", 1, 120)
YEAR = Domain("a year", 1900, 2100, whole=True)
BONUS_THRESHOLD = Domain("a bonus threshold", 1, 50)
SCORE_PER_GAME = Domain("a score per game", 0, 1)
FRACTIONAL_SCORE = Domain("a fractional score", 0, 1)
GAME_SCORES = frozenset((0.0, 0.5, 1.0))
TITLES = ("GM", "IM", "WGM", "WIM", "FM", "WFM", "CM", "WCM")  # FIDE's titles


# ---------------------------------------------------------------- numbers, from text too

_GROUPS = {  # (decimal mark, thousands separators) of the two conventions
    ".": ",' \u00a0\u202f\u2009\u2019",
    ",": ".' \u00a0\u202f\u2009\u2019",
}
_PATTERNS = {
    mark: re.compile(
        r"[+-]?(?:\d{1,3}(?P<sep>[" + re.escape(separators) + r"])\d{3}(?:(?P=sep)\d{3})*"
        r"|\d+)?(?:" + re.escape(mark) + r"\d+)?", re.ASCII)  # 0-9 only, as Excel reads
    for mark, separators in _GROUPS.items()
}


def readings(text: str) -> list[float]:
    """The numbers a text may mean, in the decimal-point and the decimal-comma convention.

    >>> readings("2,050"), readings("2 050"), readings("0,5"), readings("1,234.5"), readings("x")
    ([2050.0, 2.05], [2050.0], [0.5], [1234.5], [])
    """
    text = text.strip()
    found: list[float] = []
    if not any("0" <= ch <= "9" for ch in text):
        return found
    for mark, pattern in _PATTERNS.items():
        if pattern.fullmatch(text):
            plain = re.sub(r"[^0-9" + re.escape(mark) + r"+-]", "", text).replace(mark, ".")
            value = float(plain)
            if value not in found:
                found.append(value)
    return found


def _real(value: Any, argument: str, item: Item) -> float | list[float]:
    """A finite float, or the readings of a numeric text (checked by the caller)."""
    if isinstance(value, str):
        check_excel_error(value, argument, item)
        options = readings(value)
        if not options:
            raise refusal(argument, value, "is not a number", item)
        return options[0] if len(options) == 1 else options
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise refusal(argument, value, "is not a number", item)
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int past float's range, e.g. 10**400 from Python or JSON
        raise RatingError(f"{argument}: {describe(value)} is too large{item_suffix(item)}",
                          argument=argument, item=item) from None
    if not finite:
        raise refusal(argument, value, "is not a finite number", item)
    return float(value)


def _ambiguous(value: str, options: Sequence[float], argument: str, item: Item) -> RatingError:
    shown = " or as ".join(describe(o) for o in sorted(options))
    return RatingError(f"{argument}: {describe(value)} reads as {shown}; type the number "
                       f"without separators{item_suffix(item)}", argument=argument, item=item)


def number(value: Any, argument: str, item: Item = None) -> float:
    """A finite number (numeric text accepted, see the module's note).

    >>> number("0,5", "score"), number(3, "games")
    (0.5, 3.0)
    """
    read = _real(value, argument, item)
    if isinstance(read, list):
        raise _ambiguous(value, read, argument, item)
    return read


def in_domain(value: Any, domain: Domain, argument: str, item: Item = None) -> float:
    """A number inside ``domain``; text read two ways takes the reading inside it."""
    kind = type(value)
    if (kind is float or kind is int) and value in domain:  # the common case; NaN fails here
        return float(value)
    read = _real(value, argument, item)
    options = read if isinstance(read, list) else [read]
    inside = [option for option in options if option in domain]
    if len(inside) == 1:
        return inside[0]
    if len(inside) > 1:
        raise _ambiguous(value, inside, argument, item)
    raise refusal(argument, value, f"is not {domain}", item)


def whole(value: Any, domain: Domain, argument: str, item: Item = None) -> int:
    """A whole number inside ``domain``."""
    return int(in_domain(value, domain, argument, item))


_WHOLE = re.compile(r"[+-]?[0-9]+(?:\.0*)?")  # ASCII digits only: "1_0" and "１" are not numbers


def opponent_number(value: Any, count: int, player: int, where: object = "") -> int | None:
    """An opponent in a players × rounds block of opponent numbers, as a 0-based index:
    ``None`` for no opponent (a blank or 0, which Office.js sends for an empty cell).
    ``player`` is the row's own 0-based index; ``where`` ends a message (its ``str``, e.g.
    `` (player 2, round 3)``, is made only when one is needed).

    >>> opponent_number(3.0, 5, 0), opponent_number(None, 5, 0), opponent_number(" 2 ", 5, 0)
    (2, None, 1)
    >>> opponent_number(1.0, 5, 0, " (player 1, round 1)")
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: opponents: player 1 is paired against himself (player 1, round 1)
    """
    if type(value) is float and value.is_integer() and 1 <= value <= count and value != player + 1:
        return int(value) - 1
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and value.strip().upper() in EXCEL_ERRORS:
        raise RatingError(f"opponents: the cell holds the Excel error {value.strip()}{where}",
                          argument="opponents", item=where, value=value.strip())
    number: Any = value
    if isinstance(value, str):
        if not _WHOLE.fullmatch(value.strip()):
            raise _not_a_player(value, "is not a player number", where)
        number = float(value.strip())
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number) \
            or not float(number).is_integer():
        raise _not_a_player(value, "is not a player number", where)
    if number == 0:
        return None
    if not 1 <= number <= count:
        raise _not_a_player(value, f"is not a player number 1 to {count}", where)
    if int(number) == player + 1:
        raise RatingError(f"opponents: player {player + 1} is paired against himself{where}",
                          argument="opponents", item=where)
    return int(number) - 1


def _not_a_player(value: Any, what: str, where: object) -> RatingError:
    """``opponents: <value> <what><where>``, ``where`` as :func:`opponent_number` has it."""
    return RatingError(f"opponents: {describe(value)} {what}{where}", argument="opponents",
                       item=where, value=value)


def needed(argument: str, noun: str, item: Item = None) -> RatingError:
    """The error for a value that must be given and is blank."""
    return RatingError(f"{argument}: {noun} is needed; it is blank{item_suffix(item)}",
                       argument=argument, item=item)


def rating(value: Any, argument: str = "rating", item: Item = None) -> float:
    """A rating from 100 to 4000.

    >>> rating(5000)
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: rating: 5000 is not a rating from 100 to 4000
    """
    if value is None:
        raise needed(argument, "a rating", item)
    return in_domain(value, RATING, argument, item)


def optional_rating(value: Any, argument: str = "rating", item: Item = None) -> float | None:
    """A rating, or ``None`` for a player or an opponent with no rating."""
    return None if value is None else in_domain(value, RATING, argument, item)


def k(value: Any, argument: str = "k", item: Item = None) -> float:
    """An Elo K-factor from 1 to 100 (fractions allowed).

    >>> k(-10)
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: k: -10 is not a K-factor from 1 to 100
    """
    if value is None:
        raise needed(argument, "a K-factor", item)
    return in_domain(value, K, argument, item)


def fide_k(value: Any, argument: str = "k", item: Item = None) -> float:
    """A FIDE K-factor: a whole number from 1 to 40."""
    if value is None:
        raise needed(argument, "a K-factor", item)
    return in_domain(value, FIDE_K, argument, item)


def count(value: Any, argument: str = "games", item: Item = None) -> int:
    """A number of games: whole, from 0 to 100000.

    >>> count(-3)
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: games: -3 is not a whole number of games from 0 to 100000
    """
    return whole(value, GAMES, argument, item)


def age(value: Any, argument: str = "age", item: Item = None) -> float:
    """An age in years, from 1 to 120."""
    return in_domain(value, AGE, argument, item)


def year(value: Any, argument: str = "year", item: Item = None) -> int:
    """A year from 1900 to 2100."""
    return whole(value, YEAR, argument, item)


def bonus_threshold(value: Any, argument: str = "bonus_threshold", item: Item = None) -> float:
    """The US Chess bonus threshold B, from 1 to 50."""
    return in_domain(value, BONUS_THRESHOLD, argument, item)


def score_per_game(value: Any, argument: str = "score", item: Item = None) -> float:
    """An average score per game, from 0 to 1."""
    return in_domain(value, SCORE_PER_GAME, argument, item)


def game_score(value: Any, argument: str = "score", item: Item = None) -> float:
    """One game's score: 1, 0.5 or 0."""
    points = number(value, argument, item)
    if points not in GAME_SCORES:
        raise refusal(argument, value, "is not 1, 0.5 or 0", item)
    return points


# ---------------------------------------------------------------- words

def choice(value: Any, argument: str, options: Iterable[str], item: Item = None) -> str:
    """One of ``options``, case and surrounding spaces ignored; a whole number is read as
    its text (Excel hands a typed 2025 over as 2025.0).

    >>> choice(" elo ", "system", ("ELO", "FIDE")), choice(2024.0, "rules", ("2025", "2024"))
    ('ELO', '2024')
    >>> choice("BEST", "method", ("FIDE", "ELO"))
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: method: 'BEST' is not one of FIDE, ELO
    """
    listed = options if isinstance(options, (tuple, list)) else list(options)
    if type(value) is str and value in listed:  # the common case: the option as written
        return value
    text: str | None = None
    if isinstance(value, str):
        text = value.strip().upper()
    elif isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and float(value).is_integer():
        text = str(int(value))
    for option in listed:
        if text == option.upper():
            return option
    raise refusal(argument, value, f"is not one of {', '.join(listed)}", item)


def record(value: Any, argument: str = "record", item: Item = None) -> str | None:
    """``"W"`` (every earlier game won), ``"L"`` (every one lost) or ``None`` for a blank."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and value.strip().upper() in ("W", "L"):
        return value.strip().upper()
    raise refusal(argument, value, "is not W, L or blank", item)


def flag(value: Any, argument: str, item: Item = None) -> bool:
    """``True`` or ``False`` (also 1/0 and TRUE/FALSE, YES/NO text); ``None`` is ``False``."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ("TRUE", "YES", "Y", "1"):
            return True
        if text in ("FALSE", "NO", "N", "0"):
            return False
    raise refusal(argument, value, "is not TRUE or FALSE", item)


def label(value: Any, argument: str, item: Item = None) -> str | None:
    """Text such as a title or a federation, upper-cased; ``None`` for a blank."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    check_excel_error(value, argument, item)
    if not isinstance(value, str):
        raise refusal(argument, value, "is not text", item)
    return value.strip().upper()


def title(value: Any, argument: str = "opponent_titles", item: Item = None) -> str | None:
    """One of FIDE's titles (GM, IM, WGM, WIM, FM, WFM, CM, WCM), or ``None`` for a blank."""
    text = label(value, argument, item)
    if text is not None and text not in TITLES:
        raise refusal(argument, value, "is not a FIDE title", item)
    return text


def federation(value: Any, argument: str = "federation", item: Item = None) -> str | None:
    """A federation's three-letter code (``GER``, ``usa``), or ``None`` for a blank."""
    text = label(value, argument, item)
    if text is not None and not (len(text) == 3 and text.isascii() and text.isalpha()):
        raise refusal(argument, value, "is not a federation (three letters)", item)
    return text


# ---------------------------------------------------------------- lists and their agreement

def per_player(values: Any, argument: str, count: int) -> list[Any]:
    """One value per player (``count`` of them); ``None`` (not given) is a blank for everyone."""
    if values is None:
        return [None] * count
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise refusal(argument, values, "is not a list")
    if len(values) != count:
        raise RatingError(f"{argument}: {len(values)} values but ratings has {count}; one per player",
                          argument=argument)
    return list(values)


def games_need_a_rating(rating: float | None, games: int, rating_argument: str = "rating",
                        item: Item = None) -> None:
    """Earlier games belong to a rated player: an unrated one (blank rating) has none."""
    if rating is None and games:
        raise RatingError(f"games: {games} earlier games but {rating_argument} is blank (unrated)"
                          f"{item_suffix(item)}", argument="games", item=item)


def record_needs_games(record: str | None, games: int, record_argument: str = "record",
                       item: Item = None) -> None:
    """A record of all wins or all losses describes earlier games: there must be some."""
    if record is not None and games == 0:
        raise RatingError(f"{record_argument}: {record!r} describes earlier games but games is 0"
                          f"{item_suffix(item)}", argument=record_argument, item=item)


# ---------------------------------------------------------------- games

def games(values: Any, argument: str = "games", *, unrated_ok: bool = False) -> tuple[Game, ...]:
    """Rated games as :class:`Game` tuples: each an opponent's rating and 1, 0.5 or 0.

    Plain ``(opponent, score)`` pairs are accepted too, and ``(opponent, score, id)`` where
    the id tells apart opponents met twice. With ``unrated_ok`` an opponent may be ``None``
    (no rating), as title norms count such games.
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise refusal(argument, values, "is not a list of games")
    low, high = RATING.low, RATING.high
    checked = []
    for item, game in enumerate(values, start=1):
        # Games read from cells are Game tuples of floats already: pass them straight on.
        if (type(game) is Game and type(game.opponent) is float and low <= game.opponent <= high
                and type(game.score) is float and game.score in GAME_SCORES):
            checked.append(game)
            continue
        if not isinstance(game, tuple) or len(game) not in (2, 3):
            raise refusal(argument, game, "is not a game", item)
        read = optional_rating if unrated_ok else rating
        opponent = read(game[0], f"{argument} opponent", item)
        points = game_score(game[1], f"{argument} score", item)
        opponent_id = game[2] if len(game) == 3 else None
        try:
            hash(opponent_id)
        except TypeError:
            raise RatingError(f"{argument} opponent id: {describe(opponent_id)} cannot tell "
                              f"opponents apart{item_suffix(item)}") from None
        checked.append(Game(opponent, points, opponent_id))  # type: ignore[arg-type]
    return tuple(checked)
