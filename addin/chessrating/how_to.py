"""The How-to paragraphs a template and its xlwings Lite copy share: the classic texts the
templates write (:mod:`.workbooks`) and a Lite copy replaces (:mod:`.lite`), and the
height of a How-to row. A module of its own, so that a Lite copy is written without
loading the template builders.

>>> paragraph_height("short"), paragraph_height("word " * 30)
(18, 33)
"""

from __future__ import annotations

__all__ = ["CLASSIC_SETUP", "CLASSIC_PAIRING", "paragraph_height", "LINE_HEIGHT"]

# Characters of running text per line at the How-to column's width (proportional text is
# narrower than the digit the width is measured in, less so in substitute fonts), and the
# height of one line in points.
_CHARS_PER_LINE = 80
LINE_HEIGHT = 15

# The How-to paragraph on setting up the functions in Excel; a Lite copy
# (chessrating.lite) puts its own in its place.
CLASSIC_SETUP = (
    "The formulas call the chessrating Excel functions (ELO_*, FIDE_*, USCF_*, PERF_RATING, "
    "RATING_GOAL). In Windows Excel install the xlwings add-in and chessrating, save "
    "this file as .xlsm, click Import Functions, then press Ctrl+Alt+F9; the xlwings.conf "
    "sheet already names the module chessrating.udfs. For xlwings Lite (Excel on Windows, "
    "Mac and the web) open the Lite copy of this file (workbooks/lite/) and click Trust and "
    "Continue: it carries its own code.")

# The FIDE Swiss template's How-to paragraph on pairing; a Lite copy (chessrating.lite)
# puts its own in its place.
CLASSIC_PAIRING = (
    "Pairing the next round (FIDE Dutch system, computed by gacrux, FIDE's engine): once every "
    "game of a round has its result, the macro pair_next_round writes the next round's "
    "opponents and colours (U for the pairing-allocated bye), results left empty. After "
    "Import Functions press Alt+F8 and run pair_next_round, or assign it to a button (the "
    "button 'Pair next round' at the top serves the xlwings Lite copy). A player who asks for "
    "a bye gets H, B or Z in that round's result, with no opponent, before the pairing. A "
    "round with a game without a result is not paired: a message says which.")


def _wrapped_lines(text: str) -> int:
    """Lines a paragraph takes when wrapped at word boundaries in the How-to column.

    >>> _wrapped_lines("short"), _wrapped_lines("word " * 30)
    (1, 2)
    """
    lines, used = 1, 0
    for word in text.split():
        need = len(word) if used == 0 else used + 1 + len(word)
        if need > _CHARS_PER_LINE and used:
            lines, used = lines + 1, len(word)
        else:
            used = need
    return lines


def paragraph_height(text: str) -> float:
    """The height of a How-to row holding ``text``, in points."""
    return LINE_HEIGHT * _wrapped_lines(text) + 3
