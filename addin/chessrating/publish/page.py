"""The event as one self-contained HTML5 page.

Built as text with every value escaped (:func:`html.escape`), so a name such as
``<script>alert(1)</script>`` shows as those characters and never runs. The page needs
nothing else: the style sheet is inline; there are no scripts, links, fonts or images.

On a phone the standings come first, right under the event's name; each table sits in
its own box that scrolls sideways (``overflow-x: auto``) when it is wider than the
screen, so the page itself never does. Then the crosstable (Swiss and US Chess: a row
per player in rank order, a column per round with opponent, colour and result; round
robin: the grid by starting number), then each round's pairings in board order.

A reason a row shows instead of its numbers (``check …``, listed in full under the
"Provisional" notice) reads "to fix" in the standings, the reason in its ``title``. A
standings cell holding a number carries it whole in ``data-value`` (the text shows it
rounded as the workbook does: points 0.0, change +0.0), so the page can be compared with
the workbook value for value.

>>> from .reading import EventData, StandingsTable
>>> data = EventData("<b>Open</b>", "swiss", standings=StandingsTable(
...     ("Rank", "No.", "Name", "Points"), [(1, 1, "<script>alert(1)</script>", 1.0)],
...     ("rank", "number", "name", "points")))
>>> page = event_page(data)
>>> "<script>" in page, "&lt;script&gt;alert(1)&lt;/script&gt;" in page, "<title>&lt;b&gt;Open" in page
(False, True, True)
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from html import escape
from typing import Any

from xlrecalc import XlErr, excel_text

from .reading import EventData, StandingsTable
from .rounds import paired_rounds, round_boards, round_cell

__all__ = ["event_page", "cell_text", "STYLE"]

STYLE = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0 auto;padding:0 12px 24px;max-width:72rem;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.4rem;margin:.8rem 0 .2rem}
h2{font-size:1.15rem;margin:1.4rem 0 .4rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
.dates{margin:0 0 .6rem;color:#444}
.provisional{margin:.8rem 0;padding:.6rem .8rem;border:2px solid #b45309;background:#fff7e0;color:#5c2d00}
.provisional strong{font-size:1.1rem;text-transform:uppercase;letter-spacing:.04em}
.provisional ul{margin:.3rem 0 0;padding-left:1.2rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table{border-collapse:collapse;margin:0 0 .4rem}
th,td{padding:.25rem .45rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;overflow-wrap:normal}
td.fix{color:#8a3b00;font-style:italic;white-space:nowrap}
th{background:#f2f2f2;font-weight:600;white-space:nowrap}
td.n,th.n{text-align:right;white-space:nowrap}
td.c{text-align:center;white-space:nowrap}
tbody tr:nth-child(even){background:#fafafa}
th.name{position:sticky;left:0;z-index:1;background:#fff;font-weight:500;white-space:normal;min-width:8rem;max-width:14rem;overflow-wrap:anywhere}
tbody tr:nth-child(even) th.name{background:#fafafa}
.off{color:#444;font-size:.9rem}
"""

_NUMERIC = {"rank", "number", "rating", "points", "tiebreak", "change"}
_NUMBER_CLASS = ' class="n"'
_REASON = "check "  # a reason the Check column lists (chessrating.recalc.problems)


def cell_text(value: Any, kind: str) -> str:
    """A standings value as the page shows it: points 0.0, change +0.0, a rating whole,
    a tie-break as Excel's General format shows it, text as it stands.

    >>> cell_text(5.5, "points"), cell_text(-12.34, "change"), cell_text(1962.4, "rating"), cell_text(6.25, "tiebreak")
    ('5.5', '−12.3', '1962', '6.25')
    >>> cell_text(None, "points"), cell_text("check result: 2 is not a result", "rank")
    ('', 'check result: 2 is not a result')
    """
    if value is None:
        return ""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return str(value)
    number = float(value)
    if kind == "points":
        return _rounded(number, 1)
    if kind == "change":
        text = _rounded(number, 1)
        return text.replace("-", "−") if text.startswith("-") else "+" + text
    if kind in ("rating", "rank", "number"):
        return _rounded(number, 0)
    return excel_text(number)


def _rounded(number: float, digits: int) -> str:
    """``number`` with ``digits`` decimals, halves away from zero as Excel shows them.

    >>> _rounded(12.25, 1), _rounded(-2.5, 0), _rounded(2.675, 2)
    ('12.3', '-3', '2.68')
    """
    step = Decimal(1).scaleb(-digits)
    return str(Decimal(repr(number)).quantize(step, rounding=ROUND_HALF_UP))


def _attr(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f' data-value="{escape(repr(float(value)))}"'
    return ""


def _value_cell(value: Any, kind: str) -> str:
    """A ``<td>`` of a standings value; a reason the row shows instead of its numbers
    reads "to fix" (listed in full at the top), the reason in its title; an Excel error
    its code (``#VALUE!``), the message in its title."""
    if kind in _NUMERIC and isinstance(value, str) and value.startswith(_REASON):
        return f'<td class="fix" title="{escape(value)}">to fix</td>'
    if isinstance(value, XlErr):  # the code the sheet shows, its message in the title
        return f'<td class="fix" title="{escape(value.message or value.code)}">{escape(value.code)}</td>'
    css = ' class="n"' if kind in _NUMERIC and isinstance(value, (int, float)) else ""
    return f"<td{css}{_attr(value)}>{escape(cell_text(value, kind))}</td>"


def _standings(table: StandingsTable) -> list[str]:
    out = ['<section id="standings" aria-labelledby="standings-h">',
           '<h2 id="standings-h">Standings</h2>', '<div class="scroll">', '<table class="standings">']
    out.append("<thead><tr>" + "".join(
        f'<th scope="col"{_NUMBER_CLASS if kind in _NUMERIC else ""}>{escape(header)}</th>'
        for header, kind in zip(table.headers, table.kinds)) + "</tr></thead>")
    out.append("<tbody>")
    for row in table.rows:
        cells = []
        for value, kind in zip(row, table.kinds):
            text = escape(cell_text(value, kind))
            if kind == "name":
                cells.append(f'<th scope="row" class="name">{text}</th>')
            else:
                cells.append(_value_cell(value, kind))
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>", "</div>", "</section>"]
    return out


def _crosstable(data: EventData) -> list[str]:
    t = data.tournament
    if not t.players:
        return []
    out = ['<section id="crosstable" aria-labelledby="crosstable-h">',
           '<h2 id="crosstable-h">Crosstable</h2>', '<div class="scroll">', '<table class="crosstable">']
    points = dict(zip(data.standings.column("No."), data.standings.column("Points"))) \
        if "Points" in data.standings.headers else {}
    ranks = dict(zip(data.standings.column("No."), data.standings.column("Rank")))
    if data.kind == "round robin":
        players = sorted(t.players, key=lambda p: p.number)
        heads = ["No.", "Name"] + [str(p.number) for p in players] + ["Points", "Rank"]
        out.append("<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads) + "</tr></thead><tbody>")
        for p in players:
            cells = [f'<td class="n">{p.number}</td>', f'<th scope="row" class="name">{escape(p.name)}</th>']
            for q in players:
                shown = "×" if q.number == p.number else data.results_grid.get((p.number, q.number), "")
                cells.append(f'<td class="c">{escape(shown)}</td>')
            cells += [_value_cell(points.get(p.number), "points"), _value_cell(ranks.get(p.number), "rank")]
            out.append("<tr>" + "".join(cells) + "</tr>")
    else:
        by_number = {p.number: p for p in t.players}
        order = [by_number[n] for n in data.standings.column("No.") if n in by_number]
        rounds = range(1, t.rounds + 1)
        heads = ["Rank", "No.", "Name"] + [f"R{r}" for r in rounds] + ["Points"]
        out.append("<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads) + "</tr></thead><tbody>")
        for p in order:
            cells = [_value_cell(ranks.get(p.number), "rank"),
                     f'<td class="n">{p.number}</td>', f'<th scope="row" class="name">{escape(p.name)}</th>']
            cells += [f'<td class="c">{escape(round_cell(p.game(r)))}</td>' for r in rounds]
            cells.append(_value_cell(points.get(p.number), "points"))
            out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>", "</div>", "</section>"]
    return out


def _pairings(data: EventData) -> list[str]:
    t = data.tournament
    rounds = paired_rounds(t)
    if not rounds:
        return []
    out = ['<section id="pairings" aria-labelledby="pairings-h">', '<h2 id="pairings-h">Pairings and results</h2>']
    for r in rounds:
        boards, off = round_boards(t, r, round_robin=data.kind == "round robin")
        when = data.round_dates[r - 1] if r - 1 < len(data.round_dates) else ""
        title = f"Round {r}" + (f" ({when})" if when else "")
        out += [f'<h3 id="round-{r}">{escape(title)}</h3>', '<div class="scroll">', f'<table class="pairings" id="pairings-{r}">',
                '<thead><tr><th scope="col" class="n">Board</th><th scope="col">White</th>'
                '<th scope="col" class="n">Result</th><th scope="col">Black</th></tr></thead>', "<tbody>"]
        for board in boards:
            black = "" if board.black is None else f"{board.black.name} ({board.black.number})"
            out.append(f'<tr><td class="n">{board.number}</td>'
                       f'<td>{escape(board.white.name)} ({board.white.number})</td>'
                       f'<td class="c">{escape(board.result)}</td><td>{escape(black)}</td></tr>')
        out += ["</tbody>", "</table>", "</div>"]
        if off:
            out.append('<p class="off">' + escape("; ".join(f"{p.name} ({p.number}): {what}" for p, what in off))
                       + "</p>")
    out.append("</section>")
    return out


def _provisional(problems: list[str]) -> list[str]:
    out = ['<div class="provisional" role="note">',
           "<p><strong>Provisional</strong> — not final: the workbook's Check column names "
           f"{len(problems)} input{'s' if len(problems) != 1 else ''} to fix; the rows it names "
           "show the reason instead of their numbers.</p>", "<ul>"]
    out += [f"<li>{escape(p)}</li>" for p in problems]
    out += ["</ul>", "</div>"]
    return out


def event_page(data: EventData, provisional: bool = False, lang: str = "en") -> str:
    """The page for ``data``; ``provisional`` opens it with the notice and the reasons."""
    title = ("Provisional: " if provisional else "") + data.name
    dates = " – ".join(d for d in (data.start, data.end) if d)
    if data.start and data.end and data.start == data.end:
        dates = data.start
    body: list[str] = ["<header>"]
    if provisional:
        body += _provisional(data.problems)
    body.append(f"<h1>{escape(data.name)}</h1>")
    if dates:
        body.append(f'<p class="dates">{escape(dates)}</p>')
    body.append("</header>")
    body += ["<main>", *_standings(data.standings), *_crosstable(data), *_pairings(data), "</main>"]
    head = ["<!DOCTYPE html>", f'<html lang="{escape(lang)}">', "<head>", '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>"]
    return "\n".join(head + body + ["</body>", "</html>", ""])
