"""``chessrating import-trf``: a FIDE Tournament Report File turned into a filled workbook.

:func:`import_trf` reads a TRF16/TRF26 file (:func:`chessrating.trf.read_trf`), picks the
workbook, fills it with the players and results and evaluates it before writing it
(:mod:`chessrating.workbooks.writer`), so every rating cell is a live formula that
also carries its value. It returns an :class:`ImportSummary` to print (the summary, the
games counted and the first ratings reached: :mod:`chessrating.import_summary`).

Which workbook (:func:`choose_layout`):

* ``system="fide"``: the round-robin workbook when every pair met exactly once
  (:attr:`Tournament.is_round_robin`), there are at most 20 players and no round
  without a game gives points, else the Swiss workbook; both sized to the event. The
  round-robin grid holds games only: a Swiss whose pairings happen to form a round
  robin, each player with a pairing-allocated bye worth a point (as lichess.org
  pairs 9 players in 9 rounds), goes into the Swiss workbook, which keeps the byes
  (:func:`points_without_games`), so every player's points are the file's.
* ``system="uscf"``: the US Chess event workbook. The file's ratings are taken as the
  ratings before the event; games so far, age, record, peak and life master are left
  blank for the arbiter to fill from the US Chess record. **Decision**: until then a
  rated player's unknown games so far are read as an established player's (the
  workbook's ``UnknownGames`` setting ``established``: 50 games, so N′ = N*, US Chess §2),
  never as 0 (which would rate every player by this event alone); with
  ``new_players=True`` they are read as 0. Either way the workbook marks every value
  that rests on it (the row's N′, K, bonus and new ratings in orange, and its Check cell
  says why).

Unrated players: the templates' ``First rating`` column calls ``FIDE_INITIAL`` for every
player without a rating; it gives a rating from 5 games against rated opponents and
otherwise shows why there is none.

K-factor (FIDE Rating Regulations 8.3.3, ``FIDE_K``). A TRF file gives each player's
rating and birth year, but not the number of rated games played before nor the highest
rating ever reached, which K also depends on. **Decision**: the ``Rated games``, ``Peak``
and ``K list`` cells are left empty for the arbiter to fill from the FIDE rating list;
until then

* by default (the workbook's ``UnknownGames`` setting ``established``) every rated
  player is read as established: 30 rated games, peak = the current rating, so K
  follows the rating and the birth year: 10 from 2400, 40 for a junior (18 or younger
  in the event's year) under 2300, else 20 — never above the rule book's K for the
  player's rating and age;
* with ``new_players=True`` (``UnknownGames`` ``new``) an empty rated-games cell is 0
  games: K 10 from 2400 and 40 below.

Either way K, the change and the new rating are marked as assumed (orange) and the
row's Check cell says so wherever the games change K (rating and peak under 2400), until
``K list`` (K as the FIDE list gives it, which overrides
the computed K) or ``Rated games`` is filled. K is followed by the 700 rule of
``FIDE_K`` (K × games in the period ≤ 700).

A result without an opponent (the reader warns of it, and drops the opponent of a player
paired with himself) is no game: **Decision**: such a round is written as the bye with
the same points (``F`` full-point, ``H`` half-point, ``Z`` zero-point bye; cells ``B``,
``H``, ``Z``), so it keeps its points and counts neither as a game nor for the norm
(:func:`lone_results_as_byes`).

>>> unknown_games(new_players=False), unknown_games(new_players=True)
('established', 'new')
>>> default_output(Path("events/open.trf")).as_posix()
'events/open.xlsx'
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import tiebreaks
from .errors import RatingError
from .import_summary import (  # the summary's parts, importable from here as before
    K_NOTE, K_NOTE_NEW, MAX_WARNINGS_SHOWN, USCF_NOTE, USCF_NOTE_NEW, GameCounts, ImportSummary,
    count_games, first_ratings,
)
from .pairing.book import last_paired
from .progress import Progress
from .tournament import Player, RoundGame, Tournament
from .trf.sizing import fit_to_workbook

__all__ = [
    "SYSTEMS", "ROUND_ROBIN_MAX", "MAX_WARNINGS_SHOWN",
    "ImportSummary", "GameCounts", "import_trf", "choose_layout",
    "count_games", "unknown_games", "default_output", "K_NOTE", "K_NOTE_NEW", "USCF_NOTE",
    "USCF_NOTE_NEW", "lone_results_as_byes", "points_without_games",
]

SYSTEMS = ("fide", "uscf")
# Largest event filled into the round-robin crosstable (its template size).
ROUND_ROBIN_MAX = 20
# From this many players the progress bar shows from the start.
LARGE_EVENT = 100

def unknown_games(*, new_players: bool) -> str:
    """The workbook's ``UnknownGames`` setting: how a rated player's unknown count of
    earlier games is read (see the module's **Decision**)."""
    return "new" if new_players else "established"


def default_output(source: Path) -> Path:
    """The workbook beside the TRF file: its stem with ``.xlsx``."""
    return Path(source).with_suffix(".xlsx")


def choose_layout(tournament: Tournament, system: str) -> str:
    """``"round robin"``, ``"swiss"`` or ``"uscf"`` for a tournament and a rating system.

    >>> from chessrating.tournament import Player, RoundGame
    >>> pair = Tournament(players=[Player(1, games=[RoundGame(1, 2, "w", "1")]),
    ...                            Player(2, games=[RoundGame(1, 1, "b", "0")])], rounds=1)
    >>> choose_layout(pair, "fide"), choose_layout(pair, "uscf")
    ('round robin', 'uscf')
    """
    if system not in SYSTEMS:
        raise RatingError(f"system: {system!r} is not one of {', '.join(SYSTEMS)}")
    if system == "uscf":
        return "uscf"
    if tournament.is_round_robin and len(tournament.players) <= ROUND_ROBIN_MAX \
            and not points_without_games(tournament):
        return "round robin"
    return "swiss"


def points_without_games(tournament: Tournament) -> list[Player]:
    """The players with points from a round without an opponent (a bye, a result with
    no opponent): points a round-robin grid, which holds games only, would lose.

    >>> from chessrating.tournament import Player, RoundGame
    >>> a = Player(1, games=[RoundGame(1, 2, "w", "1"), RoundGame(2, None, None, "U")])
    >>> b = Player(2, games=[RoundGame(1, 1, "b", "0"), RoundGame(2, None, None, "Z")])
    >>> [p.number for p in points_without_games(Tournament(players=[a, b], rounds=2))]
    [1]
    """
    return [p for p in tournament.players
            if any(g.opponent is None and g.points() > 0 for g in p.games)]


def layout_reason(tournament: Tournament, layout: str) -> str:
    """Why a tournament whose pairings form a round robin is not in the round-robin
    workbook, for the summary; ``""`` otherwise."""
    kept = points_without_games(tournament) if layout == "swiss" and tournament.is_round_robin else []
    if not kept or len(tournament.players) > ROUND_ROBIN_MAX:
        return ""
    return (f"every pair met once, but {len(kept)} player(s) have points from rounds without a game "
            "(byes), which only the Swiss workbook holds")


# Bye codes that give the points of a lone result: TRF F (full point), H (half), Z (none).
_BYE_BY_POINTS = {1.0: "F", 0.5: "H", 0.0: "Z"}
_BYE_CODES = frozenset("HFUZ ")


def lone_results_as_byes(tournament: Tournament) -> Tournament:
    """A copy of ``tournament`` in which every round with a result but no opponent is the
    bye with the same points (TRF default points: a win or forfeit win gives ``F``, a
    draw ``H``, a loss or forfeit loss ``Z``); byes and blank rounds stay as they are.

    >>> from chessrating.tournament import Player, RoundGame
    >>> p = Player(1, games=[RoundGame(1, None, None, "1"), RoundGame(2, None, None, "="),
    ...                      RoundGame(3, None, None, "-"), RoundGame(4, 2, "w", "1"),
    ...                      RoundGame(5, None, None, "U")])
    >>> [g.code for g in lone_results_as_byes(Tournament(players=[p], rounds=5)).players[0].games]
    ['F', 'H', 'Z', '1', 'U']
    """
    def fixed(g: RoundGame) -> RoundGame:
        if g.opponent is not None or g.code in _BYE_CODES:
            return g
        return replace(g, colour=None, code=_BYE_BY_POINTS[g.points()])

    players = [replace(p, games=[fixed(g) for g in p.games]) for p in tournament.players]
    return replace(tournament, players=players)


def played_rounds(tournament: Tournament) -> int:
    """The last round in which somebody has an opponent or a result (a bye included)."""
    return max((g.round for p in tournament.players for g in p.games if not g.is_blank), default=0)


def planned_rounds(tournament: Tournament, rounds: int) -> Tournament:
    """``tournament`` with ``rounds`` rounds planned (round dates past them dropped).

    >>> from chessrating.tournament import Player, RoundGame
    >>> t = Tournament(players=[Player(1, games=[RoundGame(1, None, None, "H")])], rounds=1)
    >>> planned_rounds(t, 9).rounds
    9
    >>> planned_rounds(t, 0)
    Traceback (most recent call last):
    ...
    chessrating.errors.RatingError: --rounds: 0 is not a number of rounds from 1 to 30
    """
    from .trf.sizing import WORKBOOK_MAX_ROUNDS

    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= WORKBOOK_MAX_ROUNDS:
        raise RatingError(f"--rounds: {rounds!r} is not a number of rounds from 1 to {WORKBOOK_MAX_ROUNDS}")
    played = played_rounds(tournament)
    if rounds < played:
        raise RatingError(f"--rounds: {rounds} rounds, but the file has round {played}")
    return replace(tournament, rounds=rounds, round_dates=tournament.round_dates[:rounds])


def file_tiebreaks(tournament: Tournament, layout: str) -> tuple[tuple[str, ...], str]:
    """The tie-breaks the workbook ranks by: those a TRF-2026 file names in its ``202``
    record when every one is a code the functions know (the first four), else the
    template's defaults; with a note saying which and why.

    >>> from chessrating.tournament import Tournament
    >>> t = Tournament(headers={"202": ["BH/C1,SB,DE"]})
    >>> file_tiebreaks(t, "swiss")
    (('BH/C1', 'SB', 'DE'), "the file's 202 record")
    >>> file_tiebreaks(Tournament(headers={"202": ["EDET/P,BH:MP/C1/P"]}), "swiss")[1]
    "the template's defaults; the file's 202 record names codes for team events: EDET/P, BH:MP/C1/P"
    """
    defaults = {"uscf": tiebreaks.USCF_DEFAULTS, "round robin": tiebreaks.FIDE_ROUND_ROBIN_DEFAULTS}.get(
        layout, tiebreaks.FIDE_SWISS_DEFAULTS)
    named = [code.strip() for line in tournament.headers.get("202", []) for code in line.split(",") if code.strip()]
    if not named:
        return tuple(defaults), "the template's defaults"
    unknown = []
    for code in named:
        try:
            tiebreaks.parse_code(code)
        except RatingError:
            unknown.append(code)
    if unknown:
        return tuple(defaults), ("the template's defaults; the file's 202 record names codes for "
                                 f"team events: {', '.join(unknown)}" if any(":" in c or c.startswith("E")
                                                                              for c in unknown)
                                 else f"the template's defaults; the file's 202 record names codes "
                                      f"not known here: {', '.join(unknown)}")
    return tuple(named[:4]), "the file's 202 record" + (f"; past the fourth left out: {', '.join(named[4:])}"
                                                        if len(named) > 4 else "")


_RANKS_SHOWN = 5


def ranks_note(tournament: Tournament, layout: str, codes: tuple[str, ...]) -> str:
    """What becomes of the file's ranks (the FIDE workbooks keep them for ``export-trf``:
    :mod:`chessrating.workbooks.file_ranks`) and which players the workbook's tie-breaks
    order otherwise; ``""`` for a file without ranks or the US Chess workbook."""
    from .workbooks.file_ranks import crosstable_ranks

    if layout == "uscf" or not any(p.rank for p in tournament.players):
        return ""
    note = "the file's, kept on sheet File ranks for export-trf"
    try:
        here = crosstable_ranks(lone_results_as_byes(tournament), codes, round_robin=layout == "round robin")
    except RatingError as error:
        return (f"the file's, on sheet File ranks; not written by export-trf, as the workbook ranks "
                f"the event otherwise ({error})")
    other = [p for p in tournament.players if p.rank and here.get(p.number) != p.rank]
    if not other:
        return note + f"; the tie-breaks here ({', '.join(codes)}) rank every player alike"
    shown = ", ".join(f"player {p.number} {p.name} (file {p.rank}, here {here.get(p.number, '-')})"
                      for p in other[:_RANKS_SHOWN])
    return (note + f"; the tie-breaks here ({', '.join(codes)}) rank {len(other)} of "
            f"{len(tournament.players)} players otherwise: {shown}"
            + (", …" if len(other) > _RANKS_SHOWN else ""))


def _build(tournament: Tournament, layout: str, output: Path, new_players: bool,
           codes: tuple[str, ...], recalculate: bool = True) -> None:
    """Write the filled workbook with its values (without, unless ``recalculate``); the K
    inputs and the games so far stay empty, read as :func:`unknown_games` says."""
    from . import workbooks

    tournament = lone_results_as_byes(tournament)
    reading = unknown_games(new_players=new_players)
    if layout == "uscf":
        workbooks.fill_uscf(tournament, output, unknown_games=reading, tiebreaks=codes,
                            recalculate=recalculate)
    elif layout == "round robin":  # the Report sheet filled from the tournament too
        workbooks.fill_round_robin(tournament, output, unknown_games=reading, tiebreaks=codes,
                                   recalculate=recalculate)
    else:
        workbooks.fill_swiss(tournament, output, unknown_games=reading, tiebreaks=codes,
                             recalculate=recalculate)


def import_trf(source: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
               system: str = "fide", new_players: bool = False, k_from_trf_data: bool = True,
               progress: Progress | None = None, fide_list: str | os.PathLike[str] | None = None,
               rating_type: str | None = None, rounds: int | None = None) -> ImportSummary:
    """Read the TRF file ``source`` and write the filled, recalculated workbook ``output``.

    ``output`` defaults to :func:`default_output`; it may not be the TRF file itself.
    ``system`` is ``"fide"`` or ``"uscf"`` (see :func:`choose_layout`);
    ``new_players`` reads unknown counts of earlier games as 0 rather than as an
    established player's (the module's **Decision**); ``k_from_trf_data``, the default
    reading, is kept for older callers and changes nothing.
    ``fide_list`` names a FIDE rating list download: the built workbook's players with a
    FIDE ID are filled from it (:func:`chessrating.trf.fill.fill_workbook`) before it is
    written, rated on ``rating_type`` (default: the list's own type, standard for the
    combined list). ``rounds`` is the number of rounds planned, where the file does
    not say it (records 142, ``XXR``) or says it otherwise: the Swiss and US Chess
    workbooks get a round's columns for each, so the rounds to come can be paired
    (``chessrating pair``); at least the rounds the file holds, at most
    :data:`~chessrating.trf.sizing.WORKBOOK_MAX_ROUNDS`.
    A file that cannot be read, or holds no player, raises :class:`RatingError`; then
    ``output`` is left as it was.
    """
    import contextlib

    from xlrecalc import RecalcError, draft_path, same_file
    from .workbooks import evaluation
    from .trf.codec import read_trf
    from .trf.fill import fill_workbook

    source = Path(source)
    if system not in SYSTEMS:
        raise RatingError(f"system: {system!r} is not one of {', '.join(SYSTEMS)}")
    target = default_output(source) if output is None else Path(output)
    if same_file(source, target):
        raise RatingError(f"output: {str(target)!r} is the TRF file itself; name another with -o")
    if target.suffix.lower() != ".xlsx":  # refused before any work: nothing half-built is left
        raise RatingError(f"output: {str(target)!r} must be named .xlsx")
    if not target.parent.is_dir():  # as every command: a folder is never made for the output
        raise RatingError(f"output: the folder {str(target.parent)!r} does not exist")
    if fide_list is not None and same_file(Path(fide_list), target):
        raise RatingError(f"output: {str(target)!r} is the FIDE list itself; name another with -o")
    if fide_list is not None and system != "fide":
        raise RatingError("--fide-list: the FIDE list fills the FIDE workbooks; not with --system uscf")
    bar = progress or Progress()
    bar.update("reading", source.name, 0.0)
    tournament = read_trf(source)
    if not tournament.players:
        raise RatingError(f"{source}: no player lines (001); is it a TRF file?")
    listed = None
    if fide_list is not None:
        from .trf.fidelist import read_fide_list
        bar.update("reading", Path(fide_list).name, 0.05)
        listed = read_fide_list(fide_list, {p.fide_id for p in tournament.players if p.fide_id})
        if rating_type is None:
            rating_type = "standard" if listed.kind == "combined" else listed.kind
    tournament, sizing = fit_to_workbook(tournament)  # rows for the players present
    tournament.warnings[:0] = sizing
    if rounds is not None:
        tournament = planned_rounds(tournament, rounds)
    if len(tournament.players) >= LARGE_EVENT:
        bar.show_now = True
    layout = choose_layout(tournament, system)
    # counted before anything is written: a failure here must leave the output as it was
    unrated, first, refused = first_ratings(tournament)
    tournament.warnings.extend(refused)
    games = count_games(tournament)
    columns = max(tournament.rounds, 1)
    codes, codes_note = file_tiebreaks(tournament, layout)
    ranks = ranks_note(tournament, layout, codes)
    bar.update("writing", f"{len(tournament.players)} players read; "
                          f"{len(tournament.players)} rows x {columns} rounds", 0.1)
    # built, evaluated in memory and written once; it appears finished or not at all
    filled = None
    with contextlib.ExitStack() as stack:
        built = target if listed is None else stack.enter_context(draft_path(target))
        with evaluation(progress=bar.follow(0.3, 1.0 if listed is None else 0.6),
                        label=target.name) as found:
            try:
                # filled from the list, the draft is recalculated whole: its values would
                # all be replaced (the file is the same either way)
                _build(tournament, layout, built, new_players, codes, recalculate=listed is None)
            except RecalcError as error:  # names the user's file
                raise RatingError(str(error)) from None
        if listed is not None:
            bar.update("filling", f"{target.name} from the FIDE list", 0.7)
            filled = fill_workbook(built, listed, target, shown=str(target), rating_type=rating_type)
    if filled is not None:
        cell_errors, standings = list(filled.cell_errors), filled.standings
    else:
        assert found.report is not None, "the workbook was evaluated"
        cell_errors, standings = list(found.report.root_errors), found.report.standings
    bar.update("done", str(target.name), 1.0)
    bar.close()
    return ImportSummary(
        source=source, output=target, layout=layout, players=len(tournament.players),
        rounds=tournament.rounds, played=last_paired(tournament), games=games, unrated=unrated,
        first_ratings=first, new_players=new_players,
        warnings=list(tournament.warnings),
        cell_errors=cell_errors, filled=filled,
        tiebreaks=codes, tiebreaks_note=codes_note, layout_reason=layout_reason(tournament, layout),
        ranks_note=ranks,
        standings=standings)


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Read a FIDE Tournament Report File (TRF16 or TRF26) and write a workbook filled with its
players and results, every rating cell a live formula with its value already computed.

FIDE (default): the round-robin workbook when every pair met once, there are at most
20 players and no bye gives points (the round-robin grid holds games only), else the
Swiss workbook, sized to the event: its players and the rounds planned (records 142 or
XXR, or --rounds), so the rounds to come can be paired with chessrating pair (the file's
top-board colour and acceleration go into the pairing settings on the Report sheet).
Unrated players get a first rating (FIDE_INITIAL) once they have 5 games against rated
opponents. The file's ranks are kept on the sheet 'File ranks' for export-trf; the
summary names the players the workbook's tie-breaks (a TRF-2026 file's 202 record, else
the template's defaults) rank otherwise.

K-factor: a TRF file gives rating and birth year, but not the rated games played before
nor the highest rating reached. The Rated games, Peak and K list cells are left empty for
the arbiter to fill from the FIDE rating list (K list, when filled, overrides the
computed K). Until then every rated player is read as established (30 rated games, peak
= rating): K is 10 from 2400, 40 for a junior under 2300, else 20. With --new-players
they are read as new (0 games): K 10 from 2400 and 40 below. Either way the workbook
marks the rows whose K rests on that assumption (Check column, K in orange).

--fide-list LIST fills each player with a FIDE ID from FIDE's rating list download
instead (rating, K list, birth year, sex, title; see chessrating fide-list), so those
rows start with the list's K and nothing assumed; players without an ID or not on the
list are named in the summary.

US Chess (--system uscf): the US Chess event workbook with the file's opponents, colours
and results; its Report sheet gets city, dates and time control, and each player's US
Chess ID and state from TRF-2026 USA records. The file's ratings are taken as the
ratings before the event, and games so far, age, record, peak and life master are left
blank for the arbiter to fill from the US Chess record. Until then a rated player's
games so far are read as an established player's (N' = N*, US Chess §2), or as 0 with
--new-players; the workbook marks every value resting on that (Check column, orange).
"""

EPILOG = ("Exit code 0: workbook written, every formula gave a value; 1: written, but some "
          "cells show an error (listed; the standings then open by saying they are "
          "provisional, and why); 2: the file could not be read or the workbook not written.")


def add_subcommand(sub: Any) -> None:
    """Register ``import-trf`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser(
        "import-trf", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trf", metavar="FILE", help="the TRF file to read")
    parser.add_argument("-o", "--output", metavar="BOOK.xlsx",
                        help="workbook to write (default: FILE's name with .xlsx, beside it)")
    parser.add_argument("--system", choices=SYSTEMS, default="fide",
                        help="rating system: fide (default) or uscf")
    parser.add_argument("--new-players", "--k-unknown", dest="new_players", action="store_true",
                        help="read unknown counts of earlier rated games as 0 (new players) "
                             "instead of as established players'")
    parser.add_argument("--k-from-trf-data", action="store_true",
                        help="read every rated player as established (the default; kept for "
                             "older scripts)")
    parser.add_argument("--fide-list", metavar="LIST",
                        help="FIDE rating list download (players_list.zip …): fill each player "
                             "with a FIDE ID from it (rating, K, birth year, sex, title)")
    parser.add_argument("--rounds", type=int, metavar="N",
                        help="the number of rounds planned, when the file does not say it (records "
                             "142, XXR): the workbook gets columns for the rounds to come, which "
                             "chessrating pair fills")
    parser.add_argument("--rating-list", choices=("standard", "rapid", "blitz"),
                        help="with --fide-list: the rating the event is rated on (default: the "
                             "list's type; standard for the combined list)")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``import-trf`` for parsed arguments; prints the summary, returns the exit code."""
    if args.new_players and args.k_from_trf_data:
        raise RatingError("--new-players and --k-from-trf-data: give one of them")
    if args.rating_list and not args.fide_list:
        raise RatingError("--rating-list: give --fide-list LIST too")
    summary = import_trf(args.trf, args.output, system=args.system, new_players=args.new_players,
                         fide_list=args.fide_list, rating_type=args.rating_list, rounds=args.rounds)
    for line in summary.lines():
        print(line)
    unfilled = summary.filled is not None and not summary.filled.complete
    if summary.standings:
        _print_standings(summary, unfilled)
    return 1 if summary.cell_errors or unfilled else 0


def _print_standings(summary: ImportSummary, unfilled: bool) -> None:
    """The standings, opened by what keeps them from being final (the exit code 1's
    reasons), the first causes named again right above the table."""
    from .recalc.standings import format_standings, not_final

    reasons = [e for e in summary.cell_errors if str(e.message).startswith("check ")]
    other = ""
    if unfilled:
        missing = len(summary.filled.no_id) + len(summary.filled.not_on_list)
        other = f"{missing} player(s) not filled from the FIDE list (K assumed)" if missing else ""
    heading, withheld = not_final(summary.standings, [str(e) for e in summary.cell_errors],
                                  len(reasons), len(summary.cell_errors) - len(reasons), other, "above")
    print()
    for line in heading:
        print(line)
    if not withheld:
        print(format_standings(summary.standings))
