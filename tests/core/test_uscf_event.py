"""A whole US Chess event in five steps (docs/RULES.md §4.6) and reading its pairings.

The small events are worked by hand in the comments, with the arithmetic written out
again in the test independently of the module.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrating.errors import RatingError
from chessrating.results import NO_GAMES, Game
from chessrating.uscf import new_rating
from chessrating.uscf.event import pairings_from_crosstable, pairings_from_rounds, rate_event
from chessrating.uscf.player import effective_for, rate_standard


def n_star(rating: float) -> float:
    return 50 / math.sqrt(0.662 + 0.00000739 * (2569 - rating) ** 2)


def logistic(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


# ---------------------------------------------------------------- the five steps

def test_small_event_with_unrated_players():
    # A 1600 (40 games), B unrated (no age: 1300), C unrated (age 20: 1000).
    # A beats B, B beats C, A draws C.
    # Step 1: B0 = 1300, C0 = 1000. Step 2: N'(A) = N*(1600) = 18.1358, B and C 0.
    # Step 3 (N' = 1, unrated opponents at step 1):
    #   B: PWe(M,1300) + PWe(M,1600) + PWe(M,1000) = 1 + 0.5 -> 1.5 + (3M - 3900)/800 = 1.5
    #      -> B3 = 1300 (all within 400).
    #   C: PWe(M,1000) + PWe(M,1300) + PWe(M,1600) = 0.5 + 0.5; below 1200 the last is 0:
    #      (2M - 2300)/800 = 0 -> C3 = 1150.
    # Step 4 (pre-event ratings, unrated at step 3):
    #   A: K = 800/20.1358 = 39.7303, E = 0.849020 + 0.930242 -> A4 = 1600 - 11.0951 = 1588.9049
    #   B: N' 0: PWe(M,1600) + PWe(M,1150) = 1 -> M = (1600 + 1150)/2 = 1375
    #   C: PWe(M,1300) + PWe(M,1600) = 0.5 -> 2M = 2900 - 400 -> 1250
    # Step 5 (step-4 ratings, own prior unchanged):
    #   A: E = E(1600,1375) + E(1600,1250) = 0.785027 + 0.882339 -> 1593.3506
    #   B: (A4 + 1250)/2 = 1419.4524;  C: (1375 + A4 - 400)/2 = 1281.9524
    pairings = [(0, 1, 1), (1, 2, 1), (0, 2, 0.5)]
    result = rate_event([1600, None, None], [40, 0, 0], pairings, ages=[None, None, 20])
    k = 800 / (n_star(1600) + 2)
    a4 = 1600 + k * (1.5 - logistic(1600, 1300) - logistic(1600, 1150))
    assert a4 == pytest.approx(1588.904853, abs=1e-6)
    assert result[0] == pytest.approx(1600 + k * (1.5 - logistic(1600, 1375) - logistic(1600, 1250)))
    assert result[1] == pytest.approx((a4 + 1250) / 2)
    assert result[2] == pytest.approx((1375 + a4 - 400) / 2)
    assert [round(r, 4) for r in result] == [1593.3506, 1419.4524, 1281.9524]


def test_two_established_players_two_passes():
    # 1500 and 1500 on 30 games each (N' = N*(1500) = 16.5685), one game, the first wins.
    # Step 4: K = 800/17.5685 = 45.5361, +-22.768 -> 1522.768 and 1477.232.
    # Step 5: against those: 1500 + 45.5361 (1 - 0.532662) = 1521.281... and the mirror,
    # 1500 - 45.5361 * 0.467338 = 1478.72.
    result = rate_event([1500, 1500], [30, 30], [(0, 1, 1)])
    k = 800 / (n_star(1500) + 1)
    first4, second4 = 1500 + k / 2, 1500 - k / 2
    assert result[0] == pytest.approx(1500 + k * (1 - logistic(1500, second4)))
    assert result[1] == pytest.approx(1500 + k * (0 - logistic(1500, first4)))
    assert [round(r, 3) for r in result] == [1521.278, 1478.722]


def two_passes(ratings, games, pairings, records=None, **options):
    """Steps 4 and 5 for rated players written with new_rating: pre-event opponents, then
    step-4 opponents, opponents told apart by player number."""
    records = records or [None] * len(ratings)

    def played(i, opponent_ratings):
        out = []
        for a, b, s in pairings:
            if a == i:
                out.append(Game(opponent_ratings[b], s, b))
            elif b == i:
                out.append(Game(opponent_ratings[a], 1 - s, a))
        return out

    def step(opponent_ratings):
        return [new_rating(ratings[i], games[i], played(i, opponent_ratings), record=records[i], **options)
                for i in range(len(ratings))]

    step4 = step(ratings)
    return step4, step(step4)


def test_event_composes_one_player_ratings():
    # Player 0 meets player 1 twice in 4 games: bonus allowed; player 2 meets player 3
    # three times: no bonus. Games 12 to 100, so no peak floor of new_rating binds.
    ratings = [1800.0, 1750.0, 1500.0, 1650.0]
    games = [25, 12, 20, 9]
    pairings = [(0, 1, 1), (0, 1, 1), (0, 2, 1), (0, 3, 1),
                (2, 3, 1), (2, 3, 1), (3, 2, 0.5), (1, 2, 0)]
    step4, step5 = two_passes(ratings, games, pairings)
    assert rate_event(ratings, games, pairings) == pytest.approx(step5)
    # The bonus lifts player 0 above the plain K(S - E): 4 wins, K = 800/(N'(1800) 22.2891 + 4).
    plain = 1800 + 800 / (n_star(1800) + 4) * sum(1 - logistic(1800, step4[j]) for j in (1, 1, 2, 3))
    assert step5[0] > plain + 1


def test_event_options_reach_the_players():
    # Dual rating changes K above 2200; a record W sends an established player to the
    # special formula; a bonus threshold of 14 instead of 10.
    pairings = [(0, 1, 1), (0, 2, 1), (0, 3, 1), (1, 2, 0.5)]
    ratings, games = [2300.0, 2250.0, 2200.0, 2150.0], [20, 20, 20, 20]
    plain = rate_event(ratings, games, pairings)
    assert plain == pytest.approx(two_passes(ratings, games, pairings)[1])
    dual = rate_event(ratings, games, pairings, dual_rated=True)
    assert dual == pytest.approx(two_passes(ratings, games, pairings, dual_rated=True)[1])
    assert dual[0] - 2300 < plain[0] - 2300
    high = rate_event(ratings, games, pairings, bonus_threshold=14)
    assert high == pytest.approx(two_passes(ratings, games, pairings, bonus_threshold=14)[1])
    assert high[0] < plain[0]
    records = ["W", None, None, "L"]
    recorded = rate_event(ratings, games, pairings, records=records)
    assert recorded == pytest.approx(two_passes(ratings, games, pairings, records=records)[1])
    assert recorded[0] != pytest.approx(plain[0])


def test_players_without_games():
    # A rated player without a game keeps his rating; an unrated one has none.
    result = rate_event([1500, None, 1600, 1400], [30, 0, 30, 30], [(2, 3, 0.5)])
    assert result[0] == 1500
    assert result[1] is NO_GAMES
    assert result[2] < 1600 and result[3] > 1400


def test_each_step_raised_to_100():
    # An unrated 5-year-old (250) loses to a 200: N' 0 -> PWe(M, 200) = 0 -> the zero set ends
    # at 200 - 400 = -200 (below R0 = 250 -> the loss cannot raise: -200), raised to 100.
    assert rate_event([None, 200], [0, 30], [(0, 1, 0)], ages=[5, None])[0] == 100.0


def test_floors_apply_to_the_final_ratings_only():
    # Two established players, 1705 on 40 games each; the first loses (docs/RULES.md §4.5, §4.6).
    # N*(1705) = 50 / sqrt(0.662 + 0.00000739 * 864^2) = 50 / 2.48568 = 20.1152,
    # K = 800 / (20.1152 + 1) = 37.8874.
    # Step 4: 1705 -+ K/2 -> A4 = 1686.0563, B4 = 1723.9437.
    # Step 5: A = 1705 - K * E(1705, 1723.9437) = 1705 - 37.8874 * 0.472752 = 1687.0882;
    #         B = 1705 + K * (1 - E(1705, 1686.0563)) = 1722.9118.
    # A's peak 1941: round(1941) - 200 = 1741 -> 1700 floor, above 1687.09 -> 1700.
    # B sees A's unfloored step-4 rating 1686.06: against a floored 1700 B would get
    # 1705 + K * (1 - E(1705, 1700)) = 1723.6711 instead.
    k = 800 / (n_star(1705) + 1)
    a4, b4 = 1705 - k / 2, 1705 + k / 2
    unfloored_a = 1705 + k * (0 - logistic(1705, b4))
    b5 = 1705 + k * (1 - logistic(1705, a4))
    assert unfloored_a == pytest.approx(1687.0882, abs=1e-4) and b5 == pytest.approx(1722.9118, abs=1e-4)
    floored = rate_event([1705, 1705], [40, 40], [(0, 1, 0)], peak_ratings=[1941, None])
    assert floored == [1700.0, pytest.approx(b5)]
    assert floored[1] != pytest.approx(1705 + k * (1 - logistic(1705, 1700)))
    # A blank peak is no peak floor (100 still applies).
    assert rate_event([1705, 1705], [40, 40], [(0, 1, 0)], peak_ratings=[None, None]) == [
        pytest.approx(unfloored_a), pytest.approx(b5)]
    # 20 earlier games: not established (more than 25 needed), no peak floor; N*(1705) > 20 so
    # N' = 20, K = 800/21, A4 = 1705 - 19.0476 and A5 = 1705 - K E(1705, 1705 + K/2).
    k20 = 800 / 21
    assert rate_event([1705, 1705], [20, 40], [(0, 1, 0)], peak_ratings=[1941, None])[0] == pytest.approx(
        1705 - k20 * logistic(1705, 1705 + k / 2))


def test_life_master_floor_in_an_event():
    # 2205 against 2205, 40 games each, the first loses: N*(2205) = 39.0298, K = 800/40.0298
    # = 19.9851; A4 = 2195.0074, B4 = 2214.9926; A5 = 2205 - K * E(2205, 2214.9926)
    # = 2205 - 19.9851 * 0.485623 = 2195.2948 -> an Original Life Master stays at 2200.
    k = 800 / (n_star(2205) + 1)
    a5 = 2205 - k * logistic(2205, 2205 + k / 2)
    assert a5 == pytest.approx(2195.2948, abs=1e-4)
    assert rate_event([2205, 2205], [40, 40], [(0, 1, 0)], life_masters=[False, None])[0] == pytest.approx(a5)
    assert rate_event([2205, 2205], [40, 40], [(0, 1, 0)], life_masters=[True, False]) == [
        2200.0, pytest.approx(2205 + k * (1 - logistic(2205, 2205 - k / 2)))]


@given(st.lists(st.floats(1000, 2400), min_size=4, max_size=4), st.lists(st.one_of(st.none(), st.floats(1000, 2700)), min_size=4, max_size=4))
def test_floors_raise_the_final_ratings_to_the_floor_only(ratings, peaks):
    # Each final rating is the unfloored one raised to that player's floor, nothing else.
    from chessrating.uscf import floor
    games = [40, 40, 10, 40]
    pairings = [(0, 1, 0), (0, 2, 0), (0, 3, 0), (1, 2, 0.5), (2, 3, 1), (1, 3, 0)]
    plain = rate_event(ratings, games, pairings)
    floored = rate_event(ratings, games, pairings, peak_ratings=peaks)
    for i in range(4):
        peak = None if peaks[i] is None else (max(peaks[i], ratings[i]) if games[i] > 25 else peaks[i])
        assert floored[i] == pytest.approx(max(plain[i], floor(peak, False, games[i])))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 0, 1)]),
     "pairings: player 0 is paired against himself (pairing 1)"),
    (lambda: rate_event([1500, 1500], [10, -1], [(0, 1, 1)]), "games: -1 is not a whole number of games from 0 to 100000 (player 2)"),
    (lambda: rate_event([1500, 50], [10, 1], [(0, 1, 1)]), "ratings: 50 is not a rating from 100 to 4000 (player 2)"),
    (lambda: rate_event([1500, None], [10, 0], [(0, 1, 1)], ages=[None, 0.5]),
     "ages: 0.5 is not an age from 1 to 120 (player 2)"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 1, 1)], peak_ratings=[None, 9000]),
     "peak_ratings: 9000 is not a rating from 100 to 4000 (player 2)"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 1, 1)], records=["W", "Q"]),
     "records: 'Q' is not W, L or blank (player 2)"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 2, 1)]), "pairings: player 2 is not 0 to 1 (pairing 1)"),
    (lambda: rate_event([1500, None], [10, 3], [(0, 1, 1)]),
     "games: 3 earlier games but ratings is blank (unrated) (player 2)"),
    (lambda: rate_event([1500], [10, 10], []), "games: 2 values but ratings has 1; one per player"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 1, 1)], bonus_threshold=-1),
     "bonus_threshold: -1 is not a bonus threshold from 1 to 50"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 1, 1)], peak_ratings=[1900]),
     "peak_ratings: 1 values but ratings has 2; one per player"),
    (lambda: rate_event([1500, 1500], [10, 10], [(0, 1, 1)], life_masters=[True, "maybe"]),
     "life_masters: 'maybe' is not TRUE or FALSE (player 2)"),
])
def test_bad_event_input(call, message):
    with pytest.raises(RatingError) as caught:
        call()
    assert str(caught.value) == message


# ---------------------------------------------------------------- reading a crosstable

def test_crosstable_both_sides_and_one_side():
    table = [
        [None, "1", "½", None],
        [0, None, None, "="],
        ["½", None, None, "+"],     # 3 v 4 a forfeit: points only
        [None, None, "-", None],
    ]
    assert pairings_from_crosstable(table) == [(0, 1, 1.0), (0, 2, 0.5), (1, 3, 0.5)]


def test_crosstable_disagreement_names_both_cells():
    with pytest.raises(RatingError, match=r"^results: row 1, column 3 holds 'W' but row 3, column 1 "
                                          r"holds '½'; the two sides disagree$"):
        pairings_from_crosstable([[None, None, "W"], [None, None, None], ["½", None, None]])
    # A rated result against a forfeit disagrees too.
    with pytest.raises(RatingError, match="row 1, column 2 holds 1 but row 2, column 1 holds '-'"):
        pairings_from_crosstable([[None, 1], ["-", None]])


def test_crosstable_shape_and_diagonal():
    with pytest.raises(RatingError, match=r"^results: the diagonal cell row 2, column 2 holds '0'; it must be blank$"):
        pairings_from_crosstable([[None, 1], [0, "0"]])
    with pytest.raises(RatingError, match=r"^results: the diagonal cell row 1, column 1 holds 'L'; it must be blank$"):
        pairings_from_crosstable([["L", 1], [0, None]])
    with pytest.raises(RatingError, match="as many columns as rows"):
        pairings_from_crosstable([[None, 1, 0], [0, None, 1]])
    with pytest.raises(RatingError, match=r"^results: 'y' is not a game result \(row 1, column 2\)$"):
        pairings_from_crosstable([[None, "y"], [None, None]])
    assert pairings_from_crosstable(None) == []


def test_zeros_are_results_here_office_js_blanks_are_read_by_the_excel_function():
    # The reader takes a 0 as a loss; turning Office.js's empty-cell zeros into blanks is
    # USCF_EVENT's job (tests/test_udfs.py drives it through the Office.js path).
    with pytest.raises(RatingError, match="the diagonal cell row 1, column 1 holds 0"):
        pairings_from_crosstable([[0, 1], [0, None]])
    with pytest.raises(RatingError, match="the two sides disagree"):
        pairings_from_crosstable([[None, 0], [0, None]])
    with pytest.raises(RatingError, match="the two sides disagree"):
        pairings_from_rounds([[0], [0]], [[2], [1]])


# ---------------------------------------------------------------- reading rounds

def test_rounds_counted_once():
    results = [["1", "0", "H"],
               ["0", None, "1"],
               [None, "1", None],
               ["-", None, "0"]]
    opponents = [[2, 3, 0],
                 [1, 0, 4],
                 [0, 1, None],
                 [0, 0, 2]]
    # Each game entered by both players, counted once: round 1, 1 v 2 (1-0); round 2, 1 v 3
    # (0-1); round 3, 2 v 4 (1-0). "H" and "-" stand without an opponent: byes, not rated.
    assert pairings_from_rounds(results, opponents) == [(0, 1, 1.0), (0, 2, 0.0), (1, 3, 1.0)]


def test_rounds_one_side_only_and_repeat_meetings():
    # Player 2 left his cells empty; players 1 and 2 meet twice.
    assert pairings_from_rounds([["1", "½"], [None, None]], [[2, 2], [None, None]]) == [
        (0, 1, 1.0), (0, 1, 0.5)]


@pytest.mark.parametrize(("results", "opponents", "message"), [
    ([["1"], ["1"]], [[2], [1]],
     "results: player 1 has '1' against 2 in round 1 but player 2 has '1'; the two sides disagree"),
    ([["1"], [None], ["0"]], [[2], [3], [1]],
     "opponents: player 1 meets 2 in round 1 but player 2 meets 3"),
    ([["1"], ["0"]], [[3], [1]], "opponents: 3 is not a player number 1 to 2 (player 1, round 1)"),
    ([["1"], ["0"]], [[1], [None]], "opponents: player 1 is paired against himself (player 1, round 1)"),
    ([["1"], ["0"]], [[1.5], [1]], "opponents: 1.5 is not a player number (player 1, round 1)"),
    ([["1"], ["0"]], [[2, 1], [1, 0]], "opponents: 2×2 cells but results is 2×1; they are paired cell by cell"),
])
def test_rounds_bad_input(results, opponents, message):
    with pytest.raises(RatingError) as caught:
        pairings_from_rounds(results, opponents)
    assert str(caught.value) == message


def test_rounds_column_of_one_round():
    # A flat list is a column: three players, one round, 1 v 3 drawn.
    assert pairings_from_rounds(["½", None, "½"], [3, 0, 1]) == [(0, 2, 0.5)]


# ---------------------------------------------------------------- properties

@st.composite
def events(draw):
    count = draw(st.integers(2, 8))
    ratings = draw(st.lists(st.one_of(st.none(), st.floats(100, 2700)), min_size=count, max_size=count))
    games = [0 if r is None else draw(st.integers(0, 60)) for r in ratings]
    pairs = draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1),
                                    st.sampled_from([0.0, 0.5, 1.0])), max_size=20))
    pairings = [(a, b, s) for a, b, s in pairs if a != b]
    ages = draw(st.lists(st.one_of(st.none(), st.floats(3, 80)), min_size=count, max_size=count))
    return ratings, games, pairings, ages


@given(event=events(), seed=st.randoms())
def test_renumbering_players_renumbers_results(event, seed):
    ratings, games, pairings, ages = event
    result = rate_event(ratings, games, pairings, ages=ages)
    order = list(range(len(ratings)))
    seed.shuffle(order)                   # new number of old player i is order[i]
    moved = [None] * len(order)
    for i, j in enumerate(order):
        moved[j] = i
    renumbered = rate_event([ratings[moved[j]] for j in range(len(order))],
                            [games[moved[j]] for j in range(len(order))],
                            [(order[a], order[b], s) for a, b, s in pairings],
                            ages=[ages[moved[j]] for j in range(len(order))])
    for i, j in enumerate(order):
        if result[i] is NO_GAMES:
            assert renumbered[j] is NO_GAMES
        else:
            assert renumbered[j] == pytest.approx(result[i], abs=1e-6)


@given(event=events())
def test_event_ratings_at_least_100(event):
    ratings, games, pairings, ages = event
    for value in rate_event(ratings, games, pairings, ages=ages):
        assert value is NO_GAMES or value >= 100.0


# ---------------------------------------------------------------- one event, many rows

def test_a_call_over_the_same_table_in_every_row_is_computed_once():
    # The US Chess template asks INDEX(USCF_EVENT(table…), k) in each row k: the
    # evaluator answers the later rows from the first call (same ranges, values read),
    # and a call over another range is made anew.
    from xlrecalc.engine import Book, evaluate_book

    calls: list[list[float]] = []

    def column(values):
        calls.append(list(values))
        return [[2.0 * v] for v in values]
    book = Book({"TWICE": column})
    book.add_sheet("S")
    for row, value in enumerate((1.0, 2.0, 3.0), start=1):
        book.set_value("S", row, 1, value)
        book.add_formula("S", row, 2, f"=INDEX(TWICE($A$1:$A$3),{row})")
        book.add_formula("S", row, 3, "=INDEX(TWICE($A$1:$A$2),1)")
    evaluate_book(book)
    assert [book.cells["S"][(row, 2)] for row in (1, 2, 3)] == [2.0, 4.0, 6.0]
    assert [book.cells["S"][(row, 3)] for row in (1, 2, 3)] == [2.0, 2.0, 2.0]
    assert sorted(calls) == [[1.0, 2.0], [1.0, 2.0, 3.0]]


def test_a_remembered_call_sees_formula_cells_evaluated_first():
    # The table holds formulas: the first call demands them, so the answer every row
    # is given is the one over their values.
    from xlrecalc.engine import Book, evaluate_book

    calls = []

    def total(values):
        calls.append(1)
        return sum(values)
    book = Book({"TOTAL": total})
    book.add_sheet("S")
    for row in (1, 2, 3):
        book.add_formula("S", row, 2, f"=TOTAL($A$1:$A$3)+{row}")
        book.add_formula("S", row, 1, f"={row}*10")
    evaluate_book(book)
    assert [book.cells["S"][(row, 2)] for row in (1, 2, 3)] == [61.0, 62.0, 63.0]
    assert len(calls) == 1


# ---------------------------------------------------------------- personal absolute floor

def test_unrated_player_losing_three_games_is_rated_101():
    # US Chess published 101 for an unrated scholastic player who lost all three games of
    # his first event (issue 22): the personal absolute floor min(100 + 4 NW + 2 ND + NR,
    # 150) of the rating system document's floor section, NW = ND = 0 and NR = 1, this
    # event being one in which he completed three rated games.
    ratings = [None, 400, 450, 500]
    games = [0, 30, 30, 30]
    pairings = [(0, 1, 0.0), (0, 2, 0.0), (0, 3, 0.0)]
    assert rate_event(ratings, games, pairings, ages=[6, None, None, None])[0] == 101.0
    # Two games only: no event with three completed, the flat 100.
    assert rate_event(ratings, games, pairings[:2], ages=[6, None, None, None])[0] == 100.0
    # The one-pass function agrees.
    assert new_rating(None, 0, [Game(400, 0), Game(450, 0), Game(500, 0)], age=6) == 101.0


def test_the_floor_counts_wins_and_draws_and_stops_at_150():
    # A rated player at the bottom who loses: his floor before the event plus this
    # event's 4 per win, 2 per draw and 1 for completing three games, at most 150.
    ratings = [110, 110, 110, 110, 110]
    games = [40, 40, 40, 40, 40]
    pairings = [(0, 1, 0.0), (0, 2, 0.0), (0, 3, 0.5), (0, 4, 0.0)]   # 3 losses and a draw
    # Without a floor he would fall far below 100 (K about 70, 1.5 points under par).
    assert rate_standard(110, effective_for(110, 40), [110] * 4, 0.5, True, False, 10) < 50
    assert rate_event(ratings, games, pairings)[0] == 103.0       # blank: 100 before
    assert rate_event(ratings, games, pairings, absolute_floors=[130, None, None, None, None])[0] == 133.0
    assert rate_event(ratings, games, pairings, absolute_floors=[149, None, None, None, None])[0] == 150.0
    assert rate_event(ratings, games, pairings, absolute_floors=[150, None, None, None, None])[0] == 150.0


@pytest.mark.parametrize(("floors", "message"), [
    ([99, None], "absolute_floors: 99 is not a personal absolute floor from 100 to 150 (player 1)"),
    ([None, 151], "absolute_floors: 151 is not a personal absolute floor from 100 to 150 (player 2)"),
    ([None], "absolute_floors: 1 values but ratings has 2; one per player"),
    ([None, None, "x"], "absolute_floors: 3 values but ratings has 2; one per player"),
])
def test_bad_absolute_floors(floors, message):
    with pytest.raises(RatingError) as error:
        rate_event([1500, 1500], [30, 30], [(0, 1, 1.0)], absolute_floors=floors)
    assert str(error.value) == message


@given(st.lists(st.floats(100, 900), min_size=4, max_size=4),
       st.lists(st.one_of(st.none(), st.floats(100, 150)), min_size=4, max_size=4),
       st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=6, max_size=6))
def test_the_final_rating_is_never_below_the_personal_floor(ratings, floors, scores):
    pairings = [(i, j, s) for (i, j), s in zip([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], scores)]
    plain = rate_event(ratings, [30] * 4, pairings)
    floored = rate_event(ratings, [30] * 4, pairings, absolute_floors=floors)
    for i in range(4):
        mine = [s if a == i else 1 - s for a, b, s in pairings if i in (a, b)]
        expected = min((100 if floors[i] is None else floors[i]) + 4 * mine.count(1.0)
                       + 2 * mine.count(0.5) + 1, 150)
        assert floored[i] == max(plain[i], expected)


def test_uscf_event_takes_the_floors_in_a_column_after_the_others():
    from chessrating import udfs

    # The 101 of issue 22 through the Excel function: player 1 unrated, three losses.
    table = [[None, "0", "0", "0"], ["1", None, None, None], ["1", None, None, None],
             ["1", None, None, None]]
    ratings, games, ages = [None, 400.0, 450.0, 500.0], [0.0, 30.0, 30.0, 30.0], [6.0, None, None, None]
    assert udfs.USCF_EVENT(ratings, games, table, None, ages)[0] == [101.0]
    # A floor before the event for player 1 (0 is a blank, as Office.js sends one).
    floors = [[120.0], [0.0], [None], [""]]
    assert udfs.USCF_EVENT(ratings, games, table, None, ages, None, False, 10, None, None,
                           floors)[0] == [121.0]
    with pytest.raises(RatingError, match=r"absolute_floors: 'x' is not a number \(player 2\)"):
        udfs.USCF_EVENT(ratings, games, table, None, ages, None, False, 10, None, None,
                        [None, "x", None, None])


def test_the_event_key_tells_cell_types_apart_and_never_fails():
    from chessrating import event_cells

    keys = {event_cells.arguments_key(([[value]],)) for value in (1, 1.0, True, "1", None, "")}
    assert len(keys) == 6
    # Equal arguments built apart give equal keys, however their cells share objects.
    text = "½"
    assert event_cells.arguments_key(([[text, text]],)) == event_cells.arguments_key(([["½", "".join(["½"])]],))
    # A value pickle cannot write gives no key: the event is rated without the memory.
    assert event_cells.arguments_key(([[lambda: 0]],)) is None


def test_a_refused_range_is_refused_again_and_never_answered_from_the_memory():
    # A repeat call is looked up before its ranges are checked; the memory keeps only
    # events whose ranges passed, so a refused range is refused every time.
    from chessrating import event_cells, udfs

    ratings, games, table = [1500.0, 1600.0], [30.0, 30.0], [[None, 1.0], [0.0, None]]
    event_cells.rated_event.cache_clear()
    first = udfs.USCF_EVENT(ratings, games, table)
    assert udfs.USCF_EVENT(ratings, games, table) == first
    for _ in range(2):
        with pytest.raises(RatingError) as error:
            udfs.USCF_EVENT(ratings, games, [[None, 1.0], [0.0]])
        assert str(error.value) == "results: rows of different lengths; give a rectangular range"
    with pytest.raises(RatingError) as error:  # refused by its length, without being read whole
        udfs.USCF_EVENT([1500.0] * 1_000_000, games, table)
    assert str(error.value) == "ratings: 1000000 rows or cells; one argument takes at most 100000 cells"
    assert udfs.USCF_EVENT(ratings, games, table) == first


@pytest.mark.parametrize("position", range(11))
def test_the_range_check_names_each_argument_as_uscf_event_names_it(position):
    import inspect

    from chessrating import udfs

    names = list(inspect.signature(udfs.USCF_EVENT).parameters)
    arguments: list = [[1500.0, 1600.0], [30.0, 30.0], [[None, 1.0], [0.0, None]], *[None] * 8]
    arguments[position] = [[[1.0]]]
    for _ in range(2):  # the second call too: a refusal is never remembered
        with pytest.raises(RatingError) as error:
            udfs.USCF_EVENT(*arguments)
        assert str(error.value) == f"{names[position]}: a range nested deeper than rows and columns"
