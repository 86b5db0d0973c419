"""The progress display of the long commands: a bar on a terminal, stage lines elsewhere."""

from __future__ import annotations

import io

from chessrating.progress import Progress
from chessrating.recalc import Step


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_one_bar_is_redrawn_in_place_and_its_line_ended():
    screen = Terminal()
    progress = Progress(screen, show_now=True)
    progress.update("writing", "52 rows", 0.1)
    follow = progress.follow(0.3, 1.0)
    follow(Step("evaluating", 0, 3000, "book.xlsx"))
    follow(Step("evaluating", 1500, 3000, "book.xlsx"))   # halfway from 0.3 to 1.0: 65 %
    follow(Step("writing", 3000, 3000, "book.xlsx"))
    progress.update("done", "book.xlsx", 1.0)
    progress.close()
    text = screen.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n")    # one line, redrawn with \r
    frames = [frame.rstrip() for frame in text.rstrip("\n").split("\r") if frame]
    assert frames[0].startswith(" 10%|") and frames[0].endswith("| writing: 52 rows")
    assert any(f.startswith(" 65%|") and f.endswith("| evaluating 3000 formulas in book.xlsx: "
                                                     "1500/3000 formulas") for f in frames)
    assert frames[-1].startswith("100%|") and frames[-1].endswith("| done: book.xlsx")


def test_nothing_shows_before_the_delay_then_the_stage_held_back_comes_first():
    log = io.StringIO()
    progress = Progress(log, delay=3600)
    progress.update("evaluating 180 formulas in big.xlsx")
    progress.advance(0.5, "90/180 formulas")
    assert log.getvalue() == ""
    progress.delay = 0.0                                    # the moment has passed
    progress.update("writing big.xlsx")
    assert log.getvalue().splitlines() == ["evaluating 180 formulas in big.xlsx", "writing big.xlsx"]
    screen = Terminal()
    progress = Progress(screen, delay=3600)
    progress.update("reading", "x.trf", 0.0)
    progress.close()
    assert screen.getvalue() == ""
