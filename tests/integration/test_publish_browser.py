"""The event page in a real browser: headless Chromium (Debian's ``chromium``, installed
by .ci/run) on a phone's screen, 390 CSS pixels wide and 844 high.

Two readings. (1) The page is shown in a 390 × 844 frame of a test-only harness page
(``iframe srcdoc``: the page itself carries no script) whose script measures it and
writes the figures into the harness, read back with ``--dump-dom``: the page's own width
(``scrollWidth``) is the screen's, so the body never scrolls sideways; the standings are
the first section and start within the first screen; a table wider than the screen
scrolls inside its own box (``overflow-x: auto``). (2) A screenshot at 390 × 844 of a
copy of the page whose standings headers are painted a marker colour, read with the
PNG reader of tests/html_page.py: the marker is in the first screen.

Skipped when Chromium is not installed, except under CI (.ci/run sets CI and installs it),
where its absence fails.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest

from chessrating.cli import main
from chessrating.publish.page import event_page
from chessrating.publish.reading import EventData, StandingsTable
from chessrating.tournament import Player, RoundGame, Tournament

from html_page import chromium, png_pixels, run_chromium

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                reason="chromium is not installed (apt-get install chromium)")

WIDTH, HEIGHT = 390, 844
MARKER = (0, 192, 0)

HARNESS = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>measure</title></head>
<body style="margin:0"><iframe id="page" style="width:{width}px;height:{height}px;border:0" srcdoc="{page}"></iframe>
<pre id="figures">pending</pre>
<script>
function measure() {{
  var frame = document.getElementById("page"), d = frame.contentDocument, w = frame.contentWindow;
  var standings = d.querySelector("table.standings").getBoundingClientRect();
  var boxes = Array.prototype.map.call(d.querySelectorAll(".scroll"), function (box) {{
    return {{table: box.firstElementChild.className, scroll: box.scrollWidth, client: box.clientWidth,
             overflow: getComputedStyle(box).overflowX}};
  }});
  document.getElementById("figures").textContent = JSON.stringify({{
    inner: w.innerWidth, page: d.documentElement.scrollWidth, body: d.body.scrollWidth,
    first: d.querySelector("main > section").id, standingsTop: standings.top,
    scripts: d.querySelectorAll("script").length, boxes: boxes}});
}}
var frame = document.getElementById("page");
if (frame.contentDocument && frame.contentDocument.querySelector("main")) measure();
else frame.addEventListener("load", measure);
</script></body></html>"""


def measure(page: str, tmp_path: Path) -> dict:
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.format(width=WIDTH, height=HEIGHT, page=html.escape(page)), encoding="utf-8")
    dom = run_chromium("--virtual-time-budget=10000", "--window-size=800,1000", "--dump-dom", harness.as_uri())
    found = re.search(r'<pre id="figures">(.*?)</pre>', dom, re.S)
    assert found is not None and found[1] != "pending", dom[-1000:]
    return json.loads(html.unescape(found[1]))


def screenshot(page: str, tmp_path: Path) -> tuple[int, int, list[bytes]]:
    marked = page.replace("</style>", "table.standings thead th{background:rgb%s !important;color:rgb%s !important}</style>"
                          % (MARKER, MARKER), 1)
    copy, shot = tmp_path / "marked.html", tmp_path / "shot.png"
    copy.write_text(marked, encoding="utf-8")
    run_chromium(f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", copy.as_uri())
    return png_pixels(shot)


def assert_reads_on_a_phone(page: str, tmp_path: Path, wide: bool) -> None:
    figures = measure(page, tmp_path)
    assert figures["inner"] == WIDTH
    assert figures["page"] == WIDTH and figures["body"] <= WIDTH, figures  # no sideways scroll
    assert figures["first"] == "standings"
    assert 0 <= figures["standingsTop"] < HEIGHT / 2
    assert figures["scripts"] == 0
    assert all(box["overflow"] == "auto" and box["client"] <= WIDTH for box in figures["boxes"])
    crosstable = next(box for box in figures["boxes"] if box["table"] == "crosstable")
    if wide:  # the crosstable is wider than the screen: its own box scrolls
        assert crosstable["scroll"] > crosstable["client"]
    width, height, rows = screenshot(page, tmp_path)
    assert (width, height) == (WIDTH, HEIGHT)
    marker = bytes(MARKER)
    marked_rows = [y for y, row in enumerate(rows) if marker in [row[x:x + 3] for x in range(0, len(row), 3)]]
    assert marked_rows and marked_rows[0] < HEIGHT / 2


def test_an_imported_swiss_reads_on_a_phone(trf_import, tmp_path: Path) -> None:
    code, book = trf_import("issue_7.trf")  # 60 players, 14 rounds: a wide crosstable
    out_file = tmp_path / "event.html"
    assert main(["publish", str(book), "-o", str(out_file)]) == 0
    assert_reads_on_a_phone(out_file.read_text(encoding="utf-8"), tmp_path, wide=True)


def test_the_demo_round_robin_reads_on_a_phone(demo_book: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "demo.html"
    assert main(["publish", str(demo_book), "-o", str(out_file)]) == 0
    assert_reads_on_a_phone(out_file.read_text(encoding="utf-8"), tmp_path, wide=True)


def test_long_unbroken_names_and_a_hostile_one_stay_on_the_screen(tmp_path: Path) -> None:
    long_name = "Grandmaster" * 12
    hostile = "<script>alert(1)</script>"
    players = [Player(1, long_name, games=[RoundGame(1, 2, "w", "1")]),
               Player(2, hostile, games=[RoundGame(1, 1, "b", "0")])]
    table = StandingsTable(("Rank", "No.", "Name", "Points"), [(1, 1, long_name, 1.0), (2, 2, hostile, 0.0)],
                           ("rank", "number", "name", "points"))
    data = EventData("Memorial" * 15, "swiss", "2026-05-01", "2026-05-03", table,
                     Tournament(players=players, rounds=1))
    page = event_page(data)
    assert_reads_on_a_phone(page, tmp_path, wide=False)
    # the browser's own reading of the page: the hostile name is text, no script element
    copy = tmp_path / "page.html"
    copy.write_text(page, encoding="utf-8")
    dom = run_chromium("--dump-dom", copy.as_uri())
    assert "<script" not in dom and "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
