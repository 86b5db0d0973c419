"""The Excel face: worksheet functions over the rating core, through xlwings.

Every function converts what Excel hands over (see :mod:`chessrating.results`), calls the
core and converts the answer back. The same module serves three runtimes:

* Windows Excel with the classic xlwings add-in (``UDF Modules`` = ``chessrating.udfs``);
* xlwings Lite / xlwings Server (Office.js), when ``XLWINGS_ON_SERVER=true``;
* no Excel: the decorators do nothing and these are plain Python functions
  (``chessrating recalc`` calls them this way).

Errors: a bad input raises :class:`~chessrating.errors.RatingError` in the core; one
place, :func:`_excel_function`, decides how it reaches the cell (see there).
Parameters carry no type hints on purpose: xlwings would take them as converters.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from . import cells, checks, elo, fide, goal, norms, performance, uscf
from .cells import (
    flatten, read_bool, read_label, read_number, read_optional, read_paired_labels,
    read_text, typed_zero,
)
from .errors import RatingError
from .results import NO_GAMES, NO_RATED_GAMES, Games, NoValue, check_excel_error, player_place

__all__ = [
    "ELO_EXPECTED", "ELO_CHANGE", "ELO_NEWRATING",
    "FIDE_EXPECTED", "FIDE_DP", "FIDE_K", "FIDE_CHANGE", "FIDE_NEWRATING", "FIDE_INITIAL",
    "FIDE_NORM", "PERF_RATING", "RATING_GOAL",
    "USCF_EFFECTIVE_GAMES", "USCF_K", "USCF_BONUS", "USCF_NEWRATING", "USCF_FLOOR",
    "USCF_EVENT", "TIEBREAK", "TIEBREAK_RANK",
]

CATEGORY = "Chess rating"

# _lazily: the tie-breaks and the US Chess event (event_cells, tiebreaks, tournament,
# uscf.event: about a third of the code a Lite copy carries) are imported by the functions
# that use them, at their first call, so opening a Lite copy and answering its first
# rating formula does not compile them.
_F = TypeVar("_F", bound=Callable[..., Any])

_ON_SERVER = os.environ.get("XLWINGS_ON_SERVER") == "true"
# xlwings' decorators register the functions under Windows (the classic add-in), in
# xlwings Lite (Pyodide) and on xlwings Server. On Linux and macOS without the server
# switch they hand each function back unchanged (xlwings/__init__.py), so xlwings is
# not loaded there at all: it took a tenth of a second of every command line run.
_XLWINGS_REGISTERS = _ON_SERVER or not sys.platform.startswith(("linux", "darwin"))
if _XLWINGS_REGISTERS:
    import xlwings as xw
_CLASSIC = _XLWINGS_REGISTERS and getattr(xw.func, "__module__", "") == "xlwings.udfs"


def _to_excel(value: Any) -> Any:
    """The core's answer as a cell value: NoValue as its reason, no games as an empty cell."""
    if isinstance(value, NoValue):
        return "" if value == NO_GAMES else value.reason
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return [_to_excel(v) for v in value]
    return value


def _games(opponent_ratings: Any, results: Any, opponent_ids: Any = None) -> Games:
    """Games paired by position; Office.js's empty cells (a 0 rating beside a 0 result)
    are no game under Office.js only."""
    return cells.read_games(opponent_ratings, results, opponent_ids, zeros_are_blank=_ON_SERVER)


def _quiet(value: Any, games: Games) -> Any:
    """An empty cell only while no game is entered; entered games none of which counts
    (forfeits, byes, unrated opponents) say "no rated games"."""
    return NO_RATED_GAMES if value == NO_GAMES and games.entries else value


def _excel_function(function: _F, *, check_ranges: bool = True) -> _F:
    """Turn a RatingError into what each runtime shows as a readable one-line error.

    Every range argument is checked first (:func:`.cells.check_range`), unless
    ``check_ranges`` is false: a function that does it itself, after its cache.

    * Office.js (Lite/Server): ``xlwings.XlwingsError`` -> ``#VALUE!``, message on hover
      (xlwings Server shows only XlwingsError messages in production).
    * Classic xlwings: a COM exception whose description is the message, which the
      generated VBA wrapper writes into the cell as text instead of a traceback.
    * Plain Python (and ``chessrating recalc``): the RatingError itself.
    """

    code = function.__code__
    names = code.co_varnames[:code.co_argcount] if check_ranges else ()

    @functools.wraps(function)
    def call(*args: Any) -> Any:
        try:
            for name, value in zip(names, args):
                if isinstance(value, (list, tuple)):
                    cells.check_range(value, name)
            return _to_excel(function(*args))
        except RatingError as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            if _ON_SERVER:
                raise xw.XlwingsError(message) from None
            if _CLASSIC:  # pragma: no cover - Windows only
                from win32com.server.exception import COMException

                raise COMException(description=message, scode=0x80070057) from None
            raise

    return call  # type: ignore[return-value]


def _doc(**docs: str) -> Callable[[_F], _F]:
    """Argument docs for the Function Wizard; every argument also reads error cells as text.
    Where xlwings registers nothing, the function is left as it is."""
    return _registered(docs, remember=False)


def _doc_remembered(**docs: str) -> Callable[[_F], _F]:
    """:func:`_doc` for a function a sheet asks once per row over the same ranges: under
    Office.js its arguments are registered raw and converted by
    :func:`.officejs.remembered`, which answers a repeated call before converting them."""
    return _registered(docs, remember=True)


def _registered(docs: dict[str, str], remember: bool) -> Callable[[_F], _F]:
    def decorate(function: _F) -> _F:
        if not _XLWINGS_REGISTERS:
            return function
        declared: dict[str, dict[str, Any]] = {}
        for name, text in docs.items():
            options: dict[str, Any] = {"doc": text, "err_to_str": True}
            if name.endswith("__2d"):
                name, options["ndim"] = name[:-4], 2
            declared[name] = options
        raw = remember and _ON_SERVER
        if raw:
            from . import officejs

            function = officejs.remembered(function, declared)
        else:
            # xlwings Lite and Server ask for the signature at every call (for the
            # arguments they provide themselves); following functools.wraps to the
            # function each time was about a fifth of a rating cell's call in Pyodide
            # (benchmarks/README.md). The same one, worked out once, as
            # officejs.remembered does for its own wrapper.
            import inspect

            function.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
        for name, options in reversed(list(declared.items())):
            function = xw.arg(name, "raw", doc=options["doc"])(function) if raw else xw.arg(name, **options)(function)
        return xw.func(category=CATEGORY)(function)

    return decorate


# ---------------------------------------------------------------------------- classic Elo

_RESULTS_DOC = "Results: 1, ½ (or 0.5, =), 0; + - H B U Z score but are not rated; a blank is not played."
_ELO_GAME_DOCS = dict(
    rating="Your rating before the games.",
    opponent_ratings="Opponents' ratings: a cell, row, column or block, paired by position with results.",
    results=_RESULTS_DOC,
    k="K-factor from 1 to 100 (default 20).",
)


@_doc(rating__2d="Your rating, or a range of ratings.",
      opponent_rating__2d="The opponent's rating, or a range of ratings (same shape, or one cell).")
@_excel_function
def ELO_EXPECTED(rating, opponent_rating):
    """Expected score on the classic logistic Elo curve; a range gives an array of the same shape."""
    return cells.elementwise(rating, opponent_rating, ("rating", "opponent_rating"), elo.logistic)


@_doc(**_ELO_GAME_DOCS)
@_excel_function
def ELO_CHANGE(rating, opponent_ratings, results, k=20):
    """Classic Elo rating change K × Σ(S − E) over the games, unrounded."""
    own = cells.required_rating(rating)
    games = _games(opponent_ratings, results)
    factor = cells.k_factor(k)
    if not games.rated:
        return _quiet(NO_GAMES, games)
    return elo.rating_change(own, games.rated, factor)


@_doc(**_ELO_GAME_DOCS)
@_excel_function
def ELO_NEWRATING(rating, opponent_ratings, results, k=20):
    """Classic Elo rating after the games: rating + K × Σ(S − E), unrounded."""
    own = cells.required_rating(rating)
    games = _games(opponent_ratings, results)
    factor = cells.k_factor(k)
    if not games.entries:
        return NO_GAMES
    return elo.new_rating(own, games.rated, factor)


# ---------------------------------------------------------------------------- FIDE

def _rules(value: Any) -> str:
    return read_text(cells.scalar(value, "rules"), "rules", fide.RULES, "2025")


@_doc(rating__2d="Your rating, or a range of ratings.",
      opponent_rating__2d="The opponent's rating, or a range of ratings (same shape, or one cell).",
      rules='"2025" (default: no 400-point cap from 2650) or "2024" (cap for everyone).')
@_excel_function
def FIDE_EXPECTED(rating, opponent_rating, rules="2025"):
    """FIDE expected score from table 8.1.2 with the 400-point rule; a range gives an array."""
    chosen = _rules(rules)
    return cells.elementwise(rating, opponent_rating, ("rating", "opponent_rating"),
                           lambda a, b: fide.table_expected(a, b, chosen))


@_doc(p="Fractional score from 0 to 1, e.g. 0.65 (rounded to 2 decimals).")
@_excel_function
def FIDE_DP(p):
    """Rating difference dp for a fractional score p, from FIDE table 8.1.1."""
    value = cells.scalar(p, "p")
    return "" if read_number(value, "p") is None else fide.dp(value)


@_doc(rating="The player's current rating.",
      rated_games="Rated games the player has completed (K 40 under 30).",
      birth_year="Year of birth (juniors under 2300 keep K 40 to the end of the year they turn 18).",
      year="Year of the rating period (default: this year).",
      peak_rating="Highest published rating ever (2400 or more gives K 10 for good).",
      games_in_period="Games in the rating period: K is cut so that K × games ≤ 700.")
@_excel_function
def FIDE_K(rating, rated_games, birth_year=None, year=None, peak_rating=None, games_in_period=None):
    """FIDE development coefficient K by Rating Regulations 8.3.3, with the 700 rule."""
    return fide.k_factor(
        cells.required_rating(rating), cells.count(rated_games, "rated_games"),
        birth_year=read_optional(cells.scalar(birth_year, "birth_year"), "birth_year", checks.year),
        year=read_optional(cells.scalar(year, "year"), "year", checks.year),
        peak_rating=cells.rating(peak_rating, "peak_rating"),
        games_in_period=read_optional(cells.scalar(games_in_period, "games_in_period"),
                                      "games_in_period", checks.count))


_FIDE_GAME_DOCS = dict(
    rating="Your rating before the event (blank: unrated, use FIDE_INITIAL).",
    opponent_ratings="Opponents' ratings, paired by position with results; unrated opponents are skipped.",
    results=_RESULTS_DOC,
    k="Your K-factor, a whole number from 1 to 40 (see FIDE_K).",
    rules='"2025" (default: no 400-point cap from 2650) or "2024" (cap for everyone).',
)


def _fide_games(rating: Any, opponent_ratings: Any, results: Any, k: Any,
               rules: Any) -> tuple[float, Games, float, str] | NoValue:
    """The arguments of FIDE_CHANGE and FIDE_NEWRATING read; an unrated player gets a NoValue."""
    own = cells.rating(rating)
    games = _games(opponent_ratings, results)
    chosen, factor = _rules(rules), cells.k_factor(k, checks.fide_k)
    if own is None:
        return NoValue("unrated") if games.played else _quiet(NO_GAMES, games)
    return own, games, factor, chosen


@_doc(**_FIDE_GAME_DOCS)
@_excel_function
def FIDE_CHANGE(rating, opponent_ratings, results, k, rules="2025"):
    """FIDE rating change K × Σ(W − PD) for one game or many, unrounded."""
    read = _fide_games(rating, opponent_ratings, results, k, rules)
    if isinstance(read, NoValue):
        return read
    own, games, factor, chosen = read
    if not games.rated:
        return _quiet(NO_GAMES, games)
    return fide.rating_change(own, games.rated, factor, chosen)


@_doc(**_FIDE_GAME_DOCS)
@_excel_function
def FIDE_NEWRATING(rating, opponent_ratings, results, k, rules="2025"):
    """FIDE rating after the games: rating + change rounded half away from zero."""
    read = _fide_games(rating, opponent_ratings, results, k, rules)
    if isinstance(read, NoValue):
        return read
    own, games, factor, chosen = read
    return fide.new_rating(own, games.rated, factor, chosen)


@_doc(opponent_ratings="Opponents' ratings, paired by position with results; unrated opponents are skipped.",
      results=_RESULTS_DOC)
@_excel_function
def FIDE_INITIAL(opponent_ratings, results):
    """First FIDE rating of an unrated player (two 1800 draws added, at least 5 rated games, at most 2200)."""
    games = _games(opponent_ratings, results)
    if not games.rated:
        return _quiet(NO_GAMES, games)
    return fide.initial_rating(games.rated)


@_doc(opponent_ratings="Opponents' ratings, paired by position with results; unrated opponents count as 1400.",
      results="Results: 1, ½ (or 0.5, =), 0; forfeits and byes do not count for norms.",
      title='Title sought: "GM" (default), "IM", "WGM" or "WIM".',
      opponent_titles="Opponents' titles (GM, IM, FM, ...) paired with results; checks the title mix.",
      opponent_federations="Opponents' federations (3 letters) paired with results; checks the federation mix.",
      federation="Your federation, for the federation rules.")
@_excel_function
def FIDE_NORM(opponent_ratings, results, title="GM", opponent_titles=None,
              opponent_federations=None, federation=None):
    """Title norm check by FIDE Title Regulations 1.4: the verdict, e.g. "GM norm" or the reason it is not."""
    sought = read_text(cells.scalar(title, "title"), "title", norms.TITLES, "GM")
    games = _games(opponent_ratings, results)
    if not games.played:
        return _quiet(NO_GAMES, games)
    length = len(flatten(results))
    titles = read_paired_labels(opponent_titles, games, "opponent_titles", length, checks.title)
    federations = read_paired_labels(opponent_federations, games, "opponent_federations", length,
                                     checks.federation)
    verdict = norms.norm(
        [(e.opponent, e.result.points) for e in games.played], sought,
        opponent_titles=titles, opponent_federations=federations,
        federation=read_label(cells.scalar(federation, "federation"), "federation", None,
                              checks.federation))
    return verdict.text


# ---------------------------------------------------------------------------- performance and goals

@_doc(opponent_ratings="Opponents' ratings, paired by position with results; unrated opponents are skipped.",
      results="Results: 1, ½ (or 0.5, =), 0; + - H B U Z are not games; a blank is not played.",
      method='"FIDE" (default, TPR), "OWN" (your rating + dp), "400", "ELO" (logistic), "PTP" or "USCF".',
      rating='Your rating, needed by method "OWN".')
@_excel_function
def PERF_RATING(opponent_ratings, results, method="FIDE", rating=None):
    """Performance rating of the games by the chosen method."""
    chosen = read_text(cells.scalar(method, "method"), "method", performance.METHODS, "FIDE")
    own = cells.rating(rating)
    games = _games(opponent_ratings, results)
    return _quiet(performance.performance(games.rated, chosen, own), games)


@_doc(rating="Your rating now.",
      target="The rating you want to reach.",
      opponent_rating="Rating of the opponents you expect to meet.",
      k="Your K-factor.",
      score="Your score per game: 1 win (default), 0.5 draw, or an average such as 0.7. In xlwings Lite an empty cell arrives as 0, so type the score.",
      system='"ELO" (default, logistic curve) or "FIDE" (table 8.1.2 with the 400-point rule).')
@_excel_function
def RATING_GOAL(rating, target, opponent_rating, k, score=1, system="ELO"):
    """Number of games needed to reach a target rating, or why it can never be reached."""
    per_game = cells.scalar(score, "score")
    return goal.games_to_target(
        cells.required_rating(rating), cells.required_rating(target, "target"),
        cells.required_rating(opponent_rating, "opponent_rating"), cells.k_factor(k),
        1.0 if read_number(per_game, "score") is None else per_game,
        read_text(cells.scalar(system, "system"), "system", goal.SYSTEMS, "ELO"))


# ---------------------------------------------------------------------------- US Chess

@_doc(rating="The player's rating (blank: unrated).",
      games="Games rated so far.")
@_excel_function
def USCF_EFFECTIVE_GAMES(rating, games):
    """US Chess effective number of games N′ = min(N, N*)."""
    return uscf.effective_games(cells.rating(rating), cells.count(games))


@_doc(rating="The player's rating before the event.",
      games="Games rated so far.",
      event_games="Games in this event (m).",
      dual_rated="TRUE in a dual-rated event (30–65 minutes) updating a Regular rating.")
@_excel_function
def USCF_K(rating, games, event_games, dual_rated=False):
    """US Chess K-factor 800 / (N′ + m), with the dual-rated K above 2200."""
    m = cells.scalar(event_games, "event_games")
    if read_number(m, "event_games") is None:
        raise checks.needed("event_games", "the number of games in this event")
    return uscf.k_factor(cells.rating(rating), cells.count(games), m, cells.dual_rated(dual_rated))


_USCF_GAME_DOCS = dict(
    rating="Your rating before the event (blank: unrated).",
    games="Games rated so far.",
    opponent_ratings="Opponents' ratings before the event, paired by position with results.",
    results=_RESULTS_DOC,
)


@_doc(**_USCF_GAME_DOCS,
      dual_rated="TRUE in a dual-rated event (30–65 minutes) updating a Regular rating.",
      bonus_threshold="Bonus multiplier B (default 10; 14 and 12 for earlier events).",
      opponent_ids="Opponents' numbers or names, paired with results, to spot an opponent met twice.")
@_excel_function
def USCF_BONUS(rating, games, opponent_ratings, results, dual_rated=False, bonus_threshold=10,
               opponent_ids=None):
    """US Chess bonus points for the event (0 when not eligible)."""
    own = cells.required_rating(rating)
    played = _games(opponent_ratings, results, opponent_ids)
    return uscf.bonus(own, cells.count(games), played.rated, cells.dual_rated(dual_rated),
                      cells.bonus_threshold(bonus_threshold))


@_doc(**_USCF_GAME_DOCS,
      age="Age, for an unrated player's starting estimate (blank: 1300).",
      record='"W" if all earlier games were wins, "L" if all were losses, else blank.',
      peak_rating="Highest established rating, for the rating floor.",
      dual_rated="TRUE in a dual-rated event (30–65 minutes) updating a Regular rating.",
      bonus_threshold="Bonus multiplier B (default 10; 14 and 12 for earlier events).",
      opponent_ids="Opponents' numbers or names, paired with results, to spot an opponent met twice.")
@_excel_function
def USCF_NEWRATING(rating, games, opponent_ratings, results, age=None, record=None,
                   peak_rating=None, dual_rated=False, bonus_threshold=10, opponent_ids=None):
    """US Chess rating after the event against pre-event opponent ratings, unrounded."""
    played = _games(opponent_ratings, results, opponent_ids)
    own = cells.rating(rating)
    return _quiet(uscf.new_rating(
        own, cells.count(games), played.rated,
        age=cells.age(age), record=cells.record(record), peak_rating=cells.rating(peak_rating, "peak_rating"),
        dual_rated=cells.dual_rated(dual_rated), bonus_threshold=cells.bonus_threshold(bonus_threshold)), played)


@_doc(peak_rating="Highest established rating the player has had.",
      life_master="TRUE for an Original Life Master (floor 2200).")
@_excel_function
def USCF_FLOOR(peak_rating, life_master=False):
    """US Chess rating floor from the peak rating (100 at the least)."""
    return uscf.floor(cells.rating(peak_rating, "peak_rating"),
                      read_bool(cells.scalar(life_master, "life_master"), "life_master"))


@_doc_remembered(ratings="Each player's rating before the event, one per row (blank: unrated).",
                 games="Each player's games rated so far.",
                 results__2d="An n×n crosstable (row player's result against column player), or n×rounds results.",
                 opponents__2d="With n×rounds results: the opponent's player number for each round (blank or 0: no game).",
                 ages="Each player's age, for an unrated player's starting estimate, which moves his opponents' "
                      "ratings too (US Chess takes 15 for a junior without a birth date; blank: 1300).",
                 records='Each player\'s record: "W" all earlier games won, "L" all lost, else blank.',
                 dual_rated="TRUE in a dual-rated event (30–65 minutes) updating Regular ratings.",
                 bonus_threshold="Bonus multiplier B (default 10; 14 and 12 for earlier events).",
                 peak_ratings="Each player's highest established rating, for the rating floor (blank: no peak floor).",
                 life_masters="Each player's TRUE for an Original Life Master (floor 2200); blank is FALSE.",
                 absolute_floors="Each player's personal absolute floor before the event, 100 to 150 (blank: 100); "
                                 "this event's wins (4), draws (2) and 3 games completed (1) are added, up to 150.")
@functools.partial(_excel_function, check_ranges=False)  # checked after the cache, on a miss
def USCF_EVENT(ratings, games, results, opponents=None, ages=None, records=None,
               dual_rated=False, bonus_threshold=10, peak_ratings=None, life_masters=None,
               absolute_floors=None):
    """Post-event US Chess ratings by the full two-pass procedure, floors applied to the final ratings; one per player in a column."""
    # A sheet may ask once per player row, INDEX(USCF_EVENT(...), k): the same event is
    # rated once and the rows after the first are answered from the cache, before any
    # range is checked; the ranges are checked where the event is rated, on a miss
    # (event_cells.rated_event), so the cache keeps only events whose ranges passed.
    from . import event_cells  # the event's modules load at the first call (_lazily)

    arguments = (ratings, games, results, opponents, ages, records, dual_rated,
                 bonus_threshold, peak_ratings, life_masters, absolute_floors)
    key = event_cells.arguments_key(arguments)
    if key is None:  # a cell value that cannot be a key: checked and rated without the cache
        event_cells.check_event_ranges(arguments)
        return event_cells.rate_event(*arguments, zeros_are_blank=_ON_SERVER)
    return [list(row) for row in event_cells.rated_event(key, _ON_SERVER)]


# ---------------------------------------------------------------------------- tie-breaks

@_doc_remembered(code='Tie-break code: FIDE C.07 (DE, WIN, BH, SB, KS, ARO, TPR, ...; BH/C1 or BH-C1) or US Chess (MODMED, SOLKOFF, CUMULATIVE, ...). A range of codes: the last one, DE among players tied on the ones before.',
                 opponents__2d="Players × rounds: each round's opponent number (the opponent's row, 1-based; blank or 0: none). Blank with a square results grid: a round robin (beside byes only: rounds not paired yet).",
                 results__2d="Players × rounds results: 1, ½, 0, + - (forfeits), H B U Z (byes), W/D/L; blank = not played. Or a round-robin grid.",
                 colours__2d="Players × rounds colours, W or B (White, Black); read only by BPG, BWG, BLACKS.",
                 rules='FIDE C.07 edition: "2026" (default, from 1 March 2026) or "2024".',
                 ratings="Each player's rating, one per row; read only by ARO, TPR, PTP, APRO, APPO (a bad one stops only the values resting on it).")
@_excel_function
def TIEBREAK(code, opponents, results, colours=None, rules="2026", ratings=None):
    """One tie-break for every player of the block, as a column (FIDE C.07 or US Chess)."""
    from . import event_cells, tiebreaks as tiebreaks_core  # loaded at the first call (_lazily)
    from .tiebreaks import fide as tiebreaks_fide

    chosen = read_text(cells.scalar(rules, "rules"), "rules", tiebreaks_core.RULES, "2026")
    wanted = tiebreak_codes(code)
    # A code that reads no colour or rating never looks at them: a typo there stops only
    # the codes that read it (and the rows they rest on, tiebreaks.event.RefusedRating).
    arguments = (opponents, results, colours if tiebreaks_core.reads_colours(wanted) else None,
                 ratings if tiebreaks_core.reads_ratings(wanted) else None)
    key = event_cells.arguments_key(arguments)
    if key is None:  # a cell value that cannot be a key: read without the cache
        scores = tiebreaks_fide.Scores(event_cells.tiebreak_event(*arguments, zeros_are_blank=_ON_SERVER), chosen)
    else:
        scores = event_cells.tiebreak_scores(key, chosen, _ON_SERVER)
    return [[value] for value in tiebreaks_core.tiebreak(wanted, scores.event, chosen, scores)]


def tiebreak_codes(code: Any) -> Any:
    """TIEBREAK's ``code`` as its cell gives it: one code's text, or for a range of codes
    (the list up to this one, for DE) the list of their texts without the blank cells.
    Read once here for the function and for what Lite's memo leaves out of its key
    (:func:`.officejs.tiebreak_unread`)."""
    from . import tiebreaks as tiebreaks_core

    if isinstance(code, (list, tuple)):
        listed = [c for c in flatten(code) if not (c is None or typed_zero(c) or (isinstance(c, str) and not c.strip()))]
        for number, c in enumerate(listed, start=1):
            check_excel_error(c, "code", number)
        return [tiebreaks_core.parse_code(c).text for c in listed]
    check_excel_error(code, "code", None)
    return tiebreaks_core.parse_code(code).text


@_doc_remembered(points="Each player's points, one per row.",
                 tiebreaks__2d="The tie-break columns in order of use, one row per player (higher is better).")
@_excel_function
def TIEBREAK_RANK(points, tiebreaks):
    """The rank of each player: by points, then each tie-break column in order; equal on all share a rank."""
    from . import event_cells, tiebreaks as tiebreaks_core  # loaded at the first call (_lazily)

    scores = [event_cells.standing(v, "points", player_place(i)) for i, v in enumerate(flatten(points), start=1)]
    columns: list[list[float | None]] = []
    if tiebreaks is not None:
        rows = cells.grid(tiebreaks, "tiebreaks")
        if len(rows) != len(scores):
            raise RatingError(f"tiebreaks: {len(rows)} rows but points has {len(scores)}; one row per player",
                              argument="tiebreaks")
        columns = [[event_cells.standing(row[c], "tiebreaks", player_place(i)) for i, row in enumerate(rows, start=1)]
                   for c in range(len(rows[0]))]
    return [[rank] for rank in tiebreaks_core.ranks(scores, columns)]
