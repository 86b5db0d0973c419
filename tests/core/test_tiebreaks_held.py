"""FIDE's own worked tie-break exercises, both editions of C.07.

IA Mario Held, *Exercises in Tie-Breaking*, Rev. 2403220900 (C.07-2023), FIDE TEC, March
2024: a 16-player 5-round Swiss with byes and forfeits, a 6-player round robin with a
forfeit, a 16-player 9-round Swiss for direct encounter. The crosstables and every
published value, as OttoMilvang/TieBreakServer encodes them (MIT © 2024 FIDE), are in
tests/data/tiebreak/ with their licence. The 2024 edition gives the published answers
(the 2023 text's Art. 16 is the 2024 one); the 2026 edition caps the dummies of Art. 16.4,
which changes the values listed under "2026" and leaves every other one as published.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chessrating import tiebreaks
from chessrating.tiebreaks.event import from_rounds

DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreak"
_RESULTS = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-", "H": "H", "U": "U", "Z": "Z",
            "F": "B", "W": "1", "D": "½", "L": "0"}


def read_trf(name: str) -> tuple[list[list[object]], list[list[object]], list[list[object]], list[float], list[float]]:
    """Opponents, results, colours, ratings and points of a TRF file's player lines, in
    start-number order, in the cell vocabulary of the worksheet functions."""
    players = {}
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        opponents, results, colours = [], [], []
        for start in range(91, len(line), 10):
            opponent = int(line[start:start + 4].strip() or 0)
            colour = line[start + 5].strip().upper()
            result = line[start + 7].strip()
            opponents.append(opponent or None)
            colours.append(colour if colour in ("W", "B") else None)
            results.append(_RESULTS[result] if result else None)
        players[number] = (opponents, results, colours, float(line[48:52]), float(line[80:84]))
    order = sorted(players)
    assert order == list(range(1, len(order) + 1))
    return ([players[n][0] for n in order], [players[n][1] for n in order],
            [players[n][2] for n in order], [players[n][3] for n in order],
            [players[n][4] for n in order])


def _cases(edition: str) -> list[dict]:
    data = json.loads((DATA / "held_expected.json").read_text(encoding="utf-8"))
    if edition == "2024":
        return data["2024"]
    changed = {(c["exercise"]): c for c in data["2026"]}
    return [dict(changed.get(c["exercise"], c), rules="2026") for c in data["2024"]]


def _shown(value: object, like: str) -> str:
    """A value written as the exercise writes it: the same number of decimals."""
    if not isinstance(value, (int, float)):
        return "None"
    decimals = len(like.split(".")[1]) if "." in like else 0
    return f"{value:.{decimals}f}"


@pytest.mark.parametrize("edition", ["2024", "2026"])
@pytest.mark.parametrize("number", range(1, 34))
def test_held_exercise(edition: str, number: int) -> None:
    case = next(c for c in _cases(edition) if c["exercise"] == number)
    opponents, results, colours, ratings, points = read_trf(case["file"])
    event = from_rounds(opponents, results, colours).with_ratings(ratings)
    assert event.round_robin == (case["file"] == "held_round_robin.trf")
    values = tiebreaks.tiebreak(case["code"], event, case["rules"])
    if case["kind"] == "ranks":
        got = tiebreaks.ranks(points, [values])
        assert {p: got[int(p) - 1] for p in case["expected"]} == case["expected"]
    else:
        assert {p: _shown(values[int(p) - 1], like) for p, like in case["expected"].items()} == case["expected"]


def test_points_read_agree_with_the_files() -> None:
    """The crosstables read as the functions read them give the files' own totals."""
    for name in ("held_swiss_5.trf", "held_swiss_9.trf", "held_round_robin.trf"):
        opponents, results, colours, _, points = read_trf(name)
        event = from_rounds(opponents, results, colours)
        assert [sum(r.points for r in rec if r) for rec in event.records] == points


def test_the_2026_caps_change_only_what_the_2026_list_says() -> None:
    """Player 4 (a half-point bye on 3.5 points): the dummy is capped at 2.5 from 2026."""
    opponents, results, colours, ratings, _ = read_trf("held_swiss_5.trf")
    event = from_rounds(opponents, results, colours)
    assert tiebreaks.tiebreak("BH", event, "2024")[3] == 15.0
    assert tiebreaks.tiebreak("BH", event, "2026")[3] == 14.0
