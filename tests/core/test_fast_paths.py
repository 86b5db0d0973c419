"""The fast paths give what the plain paths give, on random inputs.

Each fast path (a table lookup, a direct dictionary hit for a cell, whole-number
arithmetic in place of fractions, Game tuples passed on unchecked) is compared with the
plain computation it replaces, written out here from the rule book's definitions or
taken from the readers it short-cuts. Speed itself is measured in benchmarks/, never here.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating import checks, elo, event_cells, fide, performance, udfs
from chessrating.errors import RatingError
from chessrating.cells import flatten, read_games, read_rating
from chessrating.results import Game, read_result

# ---------------------------------------------------------------------------- FIDE table 8.1.2


def plain_pd(difference: float) -> int:
    """Table 8.1.2 read row by row (docs/RULES.md §3.2): |D| rounded half-up exactly, the last
    row whose D_low it reaches, PD for D ≥ 0 and PL = 100 − PD below."""
    whole = math.floor(Fraction(abs(difference)) + Fraction(1, 2))
    pd = next(value for low, value in reversed(fide._PD_ROWS) if whole >= low)
    return pd if difference >= 0 else 100 - pd


differences = st.one_of(
    st.integers(-1500, 1500).map(float),
    st.integers(-3000, 3000).map(lambda n: n / 2),           # exact halves: the rounding edge
    st.floats(-1500, 1500, allow_nan=False),
    st.integers(-1500, 1500),                                  # plain ints from Python callers
)


@given(differences)
def test_pd_lookup_equals_the_table_read_row_by_row(difference: float) -> None:
    assert fide.pd_hundredths(difference) == plain_pd(difference)


@given(st.one_of(st.integers(-10**6, 10**6).map(float), st.floats(-1e6, 1e6, allow_nan=False),
                 st.fractions(min_value=-1000, max_value=1000)))
def test_half_up_equals_exact_rounding(value: Any) -> None:
    assert fide.half_up(value) == math.floor(Fraction(value) + Fraction(1, 2))


def test_pd_table_edges() -> None:
    # docs/RULES.md §3.2 row edges: D = 3 → 0.50, D = 4 → 0.51; 735 → 0.99, 736 → 1.00
    assert [fide.pd_hundredths(d) for d in (3, 4, 735, 736, 5000, -736)] == [50, 51, 99, 100, 100, 0]


# ---------------------------------------------------------------------------- reading cells

cell_values = st.one_of(
    st.none(), st.just(""), st.just("  "), st.just(0), st.just(0.0),
    st.sampled_from([1.0, 0.5, 0.0, 1, 2.0, -1.0, float("nan"), True, False]),
    st.sampled_from(["1", "½", "0", "=", "W", "D", "L", "+", "-", "X", "F", "H", "B", "U", "Z",
                     " ½ ", "w", "h", "1/2", "0,5", "x", "#N/A", "#VALUE!", "abc", "2000", " 1850 ",
                     "2,050", "2.050", "2 050", "2,05", "2.05", "0.5", "99", "-"]),
    st.sampled_from([99.0, 99.9, 100.0, 4000.0, 4000.1, 2.05, 0.5, float("inf")]),
    st.floats(-100, 4200, allow_nan=False).map(lambda x: round(x, 1)),
    st.integers(-10, 4100).map(float),
)


def plain_read_games(ratings: Any, results: Any, zeros_are_blank: bool) -> list[tuple[int, float | None, Any]]:
    """read_games done with the full readers only, cell by cell, in the same order."""
    entries = []
    for index, (r, x) in enumerate(zip(flatten(ratings), flatten(results)), start=1):
        result = read_result(x, "results", index)
        opponent = read_rating(r, "opponent_ratings", index)
        zero = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0  # noqa: E731
        if result is None or (zeros_are_blank and zero(r) and zero(x)):
            continue
        entries.append((index, opponent, result))
    return entries


def outcome(fn: Any, *args: Any) -> Any:
    try:
        return ("value", fn(*args))
    except RatingError as error:
        return ("error", str(error))


@given(st.lists(st.tuples(cell_values, cell_values), min_size=1, max_size=12), st.booleans())
def test_read_games_equals_the_full_readers(pairs: list[tuple[Any, Any]], office_js: bool) -> None:
    # The numeric fast path accepts exactly what the full reader accepts, in both runtimes.
    ratings = [r for r, _ in pairs]
    results = [x for _, x in pairs]
    fast = outcome(lambda: [(e.item, e.opponent, e.result)
                            for e in read_games(ratings, results, zeros_are_blank=office_js).entries])
    plain = outcome(plain_read_games, ratings, results, office_js)
    assert fast == plain


# ---------------------------------------------------------------------------- checked games

games_lists = st.lists(
    st.tuples(st.one_of(st.integers(100, 3500).map(float), st.floats(100, 3500), st.integers(100, 3500)),
              st.sampled_from([1.0, 0.5, 0.0, 1, 0])),
    max_size=12)


@given(games_lists)
def test_game_tuples_pass_as_plain_pairs_do(pairs: list[tuple[float, float]]) -> None:
    as_games = [Game(float(o), float(s)) for o, s in pairs]
    assert checks.games(as_games) == checks.games(pairs)
    assert all(type(g.opponent) is float and type(g.score) is float for g in checks.games(pairs))


@pytest.mark.parametrize("bad", [Game(float("nan"), 1.0), Game(float("inf"), 1.0), Game(-5.0, 1.0),
                                 Game(2000.0, 0.25), Game(0.0, 1.0), Game(99.5, 1.0), Game(4000.5, 0.0)])
def test_bad_game_tuples_still_fail(bad: Game) -> None:
    with pytest.raises(RatingError):
        checks.games([bad])


# ---------------------------------------------------------------------------- exact averages

@given(st.lists(st.tuples(st.one_of(st.integers(1000, 2900).map(float), st.floats(1000, 2900)),
                          st.sampled_from([1.0, 0.5, 0.0])), min_size=1, max_size=14))
def test_tpr_and_algorithm_of_400_equal_the_fraction_sums(pairs: list[tuple[float, float]]) -> None:
    games = [Game(o, s) for o, s in pairs]
    n = len(games)
    # docs/RULES.md §3.6: ARO rounded half-up, exactly; algorithm of 400 unrounded
    aro = math.floor(sum(Fraction(g.opponent) for g in games) / n + Fraction(1, 2))
    percent = math.floor(Fraction(sum(g.score for g in games)) * 100 / n + Fraction(1, 2))
    assert performance.tpr(games) == aro + fide.dp_hundredths(percent)
    wins = sum(g.score == 1 for g in games)
    losses = sum(g.score == 0 for g in games)
    assert performance.algorithm_of_400(games) == float(
        sum(Fraction(g.opponent) for g in games) / n + Fraction(400 * (wins - losses), n))


# ---------------------------------------------------------------------------- arrays

rating_cells = st.one_of(st.integers(1000, 3000).map(float), st.floats(100, 3900),
                         st.sampled_from([None, "", 0.0, "-", "2100"]))


@st.composite
def blocks(draw: Any) -> tuple[list[list[Any]], list[list[Any]]]:
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    block = [[draw(rating_cells) for _ in range(cols)] for _ in range(rows)]
    shape = draw(st.sampled_from(["cell", "column", "row", "block"]))
    height, width = {"cell": (1, 1), "column": (rows, 1), "row": (1, cols), "block": (rows, cols)}[shape]
    own = [[draw(rating_cells) for _ in range(width)] for _ in range(height)]
    return own, block


def per_cell(own: list[list[Any]], block: list[list[Any]], scalar: Any) -> list[list[Any]]:
    """The array answer built from one scalar call per cell, spreading a cell, row or column."""
    out = []
    for r, row in enumerate(block):
        out_row = []
        for c, opponent in enumerate(row):
            mine = own[r if len(own) > 1 else 0][c if len(own[0]) > 1 else 0]
            a, b = read_rating(mine), read_rating(opponent)
            out_row.append("" if a is None or b is None else scalar(a, b))
        out.append(out_row)
    return out


@given(blocks(), st.sampled_from(["2025", "2024"]))
def test_expected_arrays_equal_scalar_calls(pair: tuple[list[list[Any]], list[list[Any]]], rules: str) -> None:
    own, block = pair
    assert udfs.FIDE_EXPECTED(own, block, rules) == per_cell(
        own, block, lambda a, b: fide.expected_score(a, b, rules))
    assert udfs.ELO_EXPECTED(own, block) == per_cell(own, block, elo.expected_score)


def test_a_column_spreads_over_a_block_and_a_row_down_it() -> None:
    # docs/RULES.md §3.2: 2000 v 1600 → 0.92; 2000 v 2004 → 0.49; 1500 v 1500 → 0.50
    assert udfs.FIDE_EXPECTED([[2000.0], [1500.0]], [[1600.0, 2004.0], [1500.0, None]]) == [
        [0.92, 0.49], [0.5, ""]]
    assert udfs.FIDE_EXPECTED([[1600.0, 2004.0]], [[2000.0, 2000.0], [1600.0, 1600.0]]) == [
        [0.08, 0.51], [0.5, 0.92]]
    with pytest.raises(RatingError, match=r"^opponent_rating: a 2x3 range does not match rating's 3x1"):
        udfs.FIDE_EXPECTED([[2000.0], [1900.0], [1800.0]], [[1800.0] * 3] * 2)
    with pytest.raises(RatingError, match="rows of different lengths"):
        udfs.ELO_EXPECTED([[2000.0, 1.0], [1900.0]], 1800.0)


# ---------------------------------------------------------------------------- USCF_EVENT's memory

small_events = st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.none(), st.integers(800, 2400).map(float)), min_size=n, max_size=n),
    st.lists(st.sampled_from([None, 1.0, 0.5, 0.0]), min_size=n * (n - 1) // 2,
             max_size=n * (n - 1) // 2)))


def crosstable(n: int, upper: list[Any]) -> list[list[Any]]:
    """An n×n crosstable from results above the diagonal, mirrored below."""
    rows: list[list[Any]] = [[None] * n for _ in range(n)]
    cells = iter(upper)
    for i in range(n):
        for j in range(i + 1, n):
            value = next(cells)
            rows[i][j] = value
            rows[j][i] = None if value is None else 1.0 - value
    return rows


def fresh_event(*arguments: Any) -> Any:
    event_cells.rated_event.cache_clear()
    return udfs.USCF_EVENT(*arguments)


@given(small_events, small_events)
def test_uscf_event_memory_answers_only_the_same_event(first: Any, second: Any) -> None:
    """Events A, B, A again, then A with one cell changed: each answer from the memory
    equals the answer of a fresh call."""
    calls = []
    for ratings, upper in (first, second):
        n = len(ratings)
        games = [0.0 if r is None else 30.0 for r in ratings]
        calls.append((ratings, games, crosstable(n, upper)))
    a, b = calls
    changed = (a[0], a[1], [row[:] for row in a[2]])
    changed[2][0][1] = "H" if changed[2][0][1] != "H" else None  # a bye instead of the game
    for arguments in (a, b, a, changed, changed):
        try:
            expected = fresh_event(*arguments)
        except RatingError:
            continue
        event_cells.rated_event.cache_clear()
        for _ in range(2):  # the second call is answered from the memory
            assert udfs.USCF_EVENT(*arguments) == expected


def test_uscf_event_memory_never_hands_one_caller_another_callers_column() -> None:
    # Threads switching as often as the interpreter allows, each rating its own event
    # again and again: every answer is that thread's event (a look-up and a store in two
    # steps could hand one caller another's column).
    import sys
    import threading

    events = [([1500.0 + 10 * i, 1500.0], [30.0, 30.0], [[None, 1.0], [None, None]]) for i in range(6)]
    expected = [fresh_event(*event) for event in events]
    wrong: list[int] = []

    def work(i: int) -> None:
        for _ in range(200):
            if udfs.USCF_EVENT(*events[i]) != expected[i]:
                wrong.append(i)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(events))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []


def test_uscf_event_memory_tells_true_from_one() -> None:
    # TRUE equals 1 in Python, but a cell holding TRUE is no game result: not the same event.
    udfs.USCF_EVENT([1500.0, 1500.0], [30.0, 30.0], [[None, 1.0], [0.0, None]])
    with pytest.raises(RatingError, match="True is not a game result"):
        udfs.USCF_EVENT([1500.0, 1500.0], [30.0, 30.0], [[None, True], [0.0, None]])


# ---------------------------------------------------------------------------- logistic performance

def plain_performance(games: list[tuple[float, float]]) -> float:
    """docs/RULES.md §2 by plain bisection: the P with Σ 1/(1 + 10^((Ri − P)/400)) = S."""
    score = sum(s for _, s in games)
    low, high = min(r for r, _ in games) - 2000.0, max(r for r, _ in games) + 2000.0
    while high - low > 1e-9:
        middle = (low + high) / 2.0
        if sum(1.0 / (1.0 + 10.0 ** ((r - middle) / 400.0)) for r, _ in games) < score:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


@given(st.lists(st.tuples(st.integers(100, 3000).map(float), st.sampled_from([0.0, 0.5, 1.0])),
                min_size=1, max_size=15))
def test_logistic_performance_by_newton_equals_plain_bisection(games: list[tuple[float, float]]) -> None:
    score = sum(s for _, s in games)
    if score in (0, len(games)):
        return  # no performance exists; tested in test_elo
    assert elo.performance(games) == pytest.approx(plain_performance(games), abs=1e-6)


# ---------------------------------------------------------------------------- XML text

@given(st.lists(st.sampled_from([*"ab&<>;\"'", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;"])).map("".join))
def test_xml_escapes_equal_the_standard_librarys(text: str) -> None:
    # recalc.charts escapes and unescapes XML text itself (the standard library's module
    # for it loads the URL and HTTP clients at start-up); it must do exactly what
    # xml.sax.saxutils does, entities included
    from xml.sax import saxutils

    from xlrecalc.charts import escape, unescape

    entities = {"&apos;": "'", "&quot;": '"'}
    assert escape(text) == saxutils.escape(text)
    assert escape(text, {'"': "&quot;"}) == saxutils.escape(text, {'"': "&quot;"})
    assert unescape(text, entities) == saxutils.unescape(text, entities)
    assert unescape(text) == saxutils.unescape(text)
