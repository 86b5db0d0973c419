"""What the director of a FIDE Swiss says before a round is paired, on the Report sheet.

``chessrating pair`` (:mod:`chessrating.pairing.book`) reads these inputs through their
workbook names; each has a data validation and says what it means when selected.

The event's settings, beside the report fields (labels in D4:F7, values in G4:G7):

* ``PairRounds`` — the rounds planned (blank: every round column of the crosstable); the
  Dutch rules treat the last rounds apart, so a shorter event says so here.
* ``PairTopColour`` — the top board's colour in round 1, ``W`` or ``B`` (drawn by lot;
  blank: what round 1 shows, else White).
* ``PairAcceleration`` — ``Baku`` for accelerated pairings (FIDE C.04.7), or ``none``.
* ``PairMaxMeets`` — how often two players may meet (blank: once).

Per player, in the Report sheet's player rows (columns F and G): ``JoinsInRound`` (a late
entry: not paired before that round, the rounds missed count as absences) and
``WithdrawnAfter`` (not paired after that round). A bye asked for in one round is typed in
the crosstable: ``H``, ``B`` or ``Z`` in that round's result cell, no opponent.

``import-trf`` fills the settings from the file: the rounds planned (records 142, ``XXR``),
the top board's colour (152, ``XXC``) and Baku acceleration where the file has
acceleration records (250).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook

from .layout import Styles, column, write_input
from .report import PLAYER_HEADER_ROW, REPORT

if TYPE_CHECKING:
    from ..tournament import Tournament

__all__ = ["write_pairing_settings", "PAIRING_SETTINGS", "PAIRING_PLAYER_COLUMNS", "settings_of"]

_LABEL_COL, _VALUE_COL = 3, 6   # D (merged D:F) and G
_FIRST_ROW = 3                  # zero-based: Excel row 4, beside the first report field
# (label, workbook name, input message) of the event's settings, one row each.
PAIRING_SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("Rounds planned", "PairRounds",
     "The number of rounds of the event; blank: every round column. The Dutch rules treat the "
     "last rounds apart, so a shorter event says so here."),
    ("Top board's colour in round 1", "PairTopColour",
     "W or B, drawn by lot before round 1 (it also decides colours later on); blank: what "
     "round 1 shows, else W."),
    ("Accelerated pairings", "PairAcceleration",
     "Baku: FIDE's Baku acceleration (C.04.7), the top half of the field given virtual points "
     "in the first rounds; none or blank: none."),
    ("Most meetings of two players", "PairMaxMeets",
     "How often two players may meet in the event; blank: once. More is for a small field "
     "with more rounds than a single round robin."),
)
# (header, workbook name, input message) of the player columns, from column F.
PAIRING_PLAYER_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("Joins in round", "JoinsInRound",
     "A late entry: the first round the player is paired in. Earlier rounds stay empty "
     "(absent, 0 points) unless H, B or Z is typed there. Blank: from round 1."),
    ("Withdrawn after round", "WithdrawnAfter",
     "The last round the player took part in: not paired after it (0 for a player who never "
     "came). Blank: in the event. A single round missed is H, B or Z in its result cell."),
)


def settings_of(tournament: "Tournament | None") -> dict[str, object]:
    """The settings' values for a tournament read from a file (blank for a template).

    >>> from chessrating.tournament import Tournament
    >>> settings_of(Tournament(rounds=9, headers={"152": ["B"]}))
    {'PairRounds': 9, 'PairTopColour': 'B', 'PairAcceleration': None, 'PairMaxMeets': None}
    >>> settings_of(None)["PairRounds"] is None
    True
    """
    if tournament is None:
        return {name: None for _, name, _ in PAIRING_SETTINGS}
    from ..pairing.engine import recorded_top_colour

    colour = recorded_top_colour(tournament)
    accelerated = any(line.startswith("250") for line in tournament.extra_lines)
    return {"PairRounds": tournament.rounds or None,
            "PairTopColour": colour.upper() if colour else None,
            "PairAcceleration": "Baku" if accelerated else None,
            "PairMaxMeets": None}


def write_pairing_settings(book: Workbook, st: Styles, players: int, rounds: int,
                           tournament: "Tournament | None" = None) -> None:
    """The settings block and the two player columns on the Report sheet (already
    written) of a Swiss of ``players`` rows and ``rounds`` round columns."""
    sheet = book.get_worksheet_by_name(REPORT)
    assert sheet is not None, "the Report sheet is written first"
    sheet.merge_range(_FIRST_ROW - 1, _LABEL_COL, _FIRST_ROW - 1, _VALUE_COL,
                      "Pairing (chessrating pair)", st.header)
    values = settings_of(tournament)
    for i, (label, name, message) in enumerate(PAIRING_SETTINGS):
        r = _FIRST_ROW + i
        sheet.merge_range(r, _LABEL_COL, r, _VALUE_COL - 1, label, st.label)
        write_input(sheet, r, _VALUE_COL, values[name], st.input_result)
        book.define_name(name, f"={REPORT}!${column(_VALUE_COL)}${r + 1}")
        sheet.data_validation(r, _VALUE_COL, r, _VALUE_COL, {
            **_rule(name, rounds), "input_title": label[:32], "input_message": message,
            "error_title": label[:32], "error_message": _ERRORS[name].format(rounds=rounds)})
    top = PLAYER_HEADER_ROW + 1
    last = top + max(players, 1) - 1
    for offset, (header, name, message) in enumerate(PAIRING_PLAYER_COLUMNS):
        col = 5 + offset
        sheet.write_string(PLAYER_HEADER_ROW, col, header, st.header)
        for r in range(top, last + 1):  # the Report sheet's player rows, row for row
            write_input(sheet, r, col, None, st.input_int)
        low = 1 if name == "JoinsInRound" else 0
        sheet.data_validation(top, col, last, col, {
            "validate": "integer", "criteria": "between", "minimum": low, "maximum": rounds,
            "input_title": header, "input_message": message, "error_title": header,
            "error_message": f"{header}: a round from {low} to {rounds}, or blank."})
        book.define_name(name, f"={REPORT}!${column(col)}${top + 1}:${column(col)}${last + 1}")


_ERRORS = {
    "PairRounds": "Rounds planned: a whole number from 1 to {rounds} (the round columns), or blank.",
    "PairTopColour": "Pick W or B, or leave it blank.",
    "PairAcceleration": "Pick Baku or none.",
    "PairMaxMeets": "Most meetings: a whole number from 1 to 9, or blank.",
}


def _rule(name: str, rounds: int) -> dict[str, object]:
    if name == "PairRounds":
        return {"validate": "integer", "criteria": "between", "minimum": 1, "maximum": rounds}
    if name == "PairTopColour":
        return {"validate": "list", "source": ["W", "B"]}
    if name == "PairAcceleration":
        return {"validate": "list", "source": ["none", "Baku"]}
    return {"validate": "integer", "criteria": "between", "minimum": 1, "maximum": 9}
