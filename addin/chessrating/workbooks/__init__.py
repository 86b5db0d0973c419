"""Building the template workbooks, and filling them with an event.

* :func:`write_templates` writes the four shipped templates (``chessrating templates
  workbooks``): ``fide-round-robin.xlsx``, ``fide-swiss.xlsx``, ``uscf-event.xlsx`` and
  ``calculators.xlsx``.
* :func:`fill_round_robin` writes the round-robin workbook sized to an event and filled
  with its players and results (the bundled example from :func:`load_demo_event`, or a
  tournament read from a TRF file); :func:`fill_swiss` does the same with the Swiss
  workbook, :func:`fill_uscf` with the US Chess event workbook.

Every workbook is built with XlsxWriter and evaluated in its memory by the evaluator
behind ``chessrating recalc`` before it is written (:mod:`.writer`), so each formula
cell carries the value our functions compute and viewers that never calculate show
numbers. Builds are deterministic: the same inputs give the same bytes.

The layouts live in :mod:`.roundrobin`, :mod:`.swiss`, :mod:`.uscf` (its grid and Games
sheet in :mod:`.uscf_games`) and :mod:`.calculators`; shared styles and sheets in
:mod:`.layout`; the formulas that read an entry as the functions do and say why it cannot be
read (result points, checked opponents and colours, ``check …`` messages) in
:mod:`.check_formulas`; the FIDE player columns of the round robin and the Swiss in
:mod:`.fide`; the round columns and Games sheet of the Swiss and the US Chess templates in
:mod:`.rounds`; the FIDE templates' Report sheet (what the FIDE rating report needs beyond
the crosstable) in :mod:`.report`, and the Swiss's pairing inputs on it in
:mod:`.pairing_settings`; the Swiss's Pairings sheet (one round in board order) in
:mod:`.pairings_sheet`; the round robin's Berger formulas and Schedule sheet in
:mod:`.schedule`; the ranks of the TRF file a FIDE workbook was made from in
:mod:`.file_ranks`; the US Chess template's Report sheet (what the US Chess report needs) in
:mod:`.uscf_report_sheet`; the round robin as the crosstable shows it and the example event
in :mod:`.event`; the Standings sheet (the players in rank order, every crosstable workbook)
in :mod:`.standings`; print areas that follow the entries in :mod:`.print_areas`. Every one
is filled from the package's one tournament model,
:class:`chessrating.tournament.Tournament`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import RatingError
from ..tiebreaks import USCF_DEFAULTS
from .calculators import build_calculators
from ..tournament import Tournament
from .event import RoundRobinEvent, load_demo_event
from .roundrobin import ROUND_ROBIN_SIZE, build_round_robin
from .swiss import SWISS_PLAYERS, SWISS_ROUNDS, KInputs, build_swiss
from .uscf import USCF_PLAYERS, USCF_ROUNDS, build_uscf
from ..uscf_report.layout import ReportInfo
from .writer import current_evaluation, evaluation
from xlrecalc import collector_paused

__all__ = [
    "TEMPLATES", "write_templates", "fill_round_robin", "fill_swiss", "fill_uscf", "load_demo_event",
    "RoundRobinEvent",
    "evaluation", "ROUND_ROBIN_SIZE", "SWISS_PLAYERS", "SWISS_ROUNDS", "USCF_PLAYERS", "USCF_ROUNDS",
]

# File name -> builder of the empty template.
TEMPLATES: dict[str, Callable[[Path], Path]] = {
    "fide-round-robin.xlsx": build_round_robin,
    "fide-swiss.xlsx": build_swiss,
    "uscf-event.xlsx": build_uscf,
    "calculators.xlsx": build_calculators,
}


def _finish(build: Callable[[Path], Path], dst: Path, recalculate: bool = True) -> Path:
    """Build into a temporary file beside ``dst``, each formula written with its value
    (unless ``recalculate`` is false), and move it in place with a new file's mode. The
    settings of an enclosing :func:`.writer.evaluation` (progress, report) apply. A file
    that cannot be written is a :class:`RecalcError` naming ``dst``, never the draft."""
    from xlsxwriter.exceptions import FileCreateError

    from xlrecalc import RecalcError, draft_path, publish
    dst = Path(dst)
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecalcError(f"{dst}: cannot be written ({_failure_reason(error)})") from None
    outer = current_evaluation()
    with draft_path(dst) as built:
        try:
            with evaluation(recalculate, outer.progress, outer.label or dst.name) as found, \
                    collector_paused():
                build(built)
        except (OSError, FileCreateError) as error:  # name the user's file, not the draft
            raise RecalcError(f"{dst}: cannot be written ({_failure_reason(error)})") from None
        if found.report is not None:
            found.report.source = found.report.output = dst
        outer.report = found.report
        publish(built, dst)
    return dst


def _failure_reason(error: BaseException) -> str:
    """The system's words for a failure to write, without the path of the file it was
    writing (a draft the user never named): XlsxWriter wraps the OSError it met."""
    cause = error.args[0] if error.args and isinstance(error.args[0], OSError) else error
    return getattr(cause, "strerror", None) or str(cause).splitlines()[0]


def write_templates(folder: Path, *, recalculate: bool = True) -> list[Path]:
    """Write the shipped templates into ``folder``; returns their paths.

    ``recalculate=False`` leaves the cached values empty (for a quick structural build).
    """
    folder = Path(folder)
    return [_finish(build, folder / name, recalculate) for name, build in TEMPLATES.items()]


def fill_round_robin(event: RoundRobinEvent | Tournament, dst: Path, *, recalculate: bool = True,
                     unknown_games: str = "established", report: Tournament | None = None,
                     tiebreaks: "Sequence[str] | None" = None) -> Path:
    """The round-robin workbook sized to ``event`` and filled with it; returns ``dst``.

    ``event`` is a :class:`RoundRobinEvent` (e.g. :func:`load_demo_event`) or a
    :class:`chessrating.tournament.Tournament` in which each pair met at most once.
    Names and other text are written as text: a name such as ``=1+1`` stays a name.
    ``unknown_games`` (``established`` or ``new``) is how a blank Rated games cell is read;
    the header fields and players of ``report`` fill the Report sheet (a tournament's own
    when ``event`` is one).
    """
    if not isinstance(event, RoundRobinEvent):
        report = report or event
        event = RoundRobinEvent(event)
    if len(event.players) < 2:
        raise RatingError(f"event: {len(event.players)} players; a round robin needs at least 2")
    return _finish(lambda path: build_round_robin(path, event=event, unknown_games=unknown_games,
                                                  report=report, tiebreaks=tiebreaks), dst, recalculate)


def fill_swiss(tournament: Tournament, dst: Path, *, recalculate: bool = True,
               k_inputs: "KInputs | None" = None, unknown_games: str = "established",
               tiebreaks: "Sequence[str] | None" = None) -> Path:
    """The Swiss workbook sized to ``tournament`` (players × rounds) and filled with it.

    The player with starting number k fills row k; opponent numbers, colours (W/B) and
    results (:func:`chessrating.tournament.cell_result`) fill the round columns.
    ``k_inputs`` maps starting numbers to (rated games, peak rating) for the K column;
    ``unknown_games`` (``established`` or ``new``) is how a blank Rated games cell is read.
    """
    if not tournament.players:
        raise RatingError("tournament: it has no players")
    return _finish(lambda path: build_swiss(path, tournament=tournament, k_inputs=k_inputs,
                                            unknown_games=unknown_games, tiebreaks=tiebreaks),
                   dst, recalculate)


def fill_uscf(tournament: Tournament, dst: Path, *, recalculate: bool = True,
              unknown_games: str = "established", tiebreaks: "Sequence[str] | None" = None,
              report: "ReportInfo | None" = None) -> Path:
    """The US Chess event workbook sized to ``tournament`` (players × rounds) and filled with it.

    The player with starting number k fills row k: name, rating (taken as the rating
    before the event), and per round the opponent's number, the colour and the result
    (:func:`chessrating.tournament.cell_result`). Games so far, age, record, peak and life
    master stay blank for the arbiter; a rated player's blank games so far is read as
    ``unknown_games`` says (``established``: N′ = N*; ``new``: 0 games) and marked.
    ``report`` fills the Report sheet; by default what the tournament holds of it (city,
    dates, time control, and US Chess IDs and states from TRF-2026 ``USA`` records).
    """
    if not tournament.players:
        raise RatingError("tournament: it has no players")
    return _finish(lambda path: build_uscf(path, tournament=tournament, unknown_games=unknown_games,
                                           tiebreaks=USCF_DEFAULTS if tiebreaks is None else tiebreaks,
                                           report=report),
                   dst, recalculate)
