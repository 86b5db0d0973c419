"""The Excel functions called the way Excel calls them.

Classic xlwings (and ``chessrating recalc``) passes floats, ``None`` for blanks, flat lists
for rows and columns, lists of lists for blocks and a one-cell range as a scalar; those are
plain calls here. Office.js (xlwings Lite/Server) is driven through xlwings' own
``custom_functions_call`` in a subprocess, with 2-D payloads and blanks sent as ``0`` and
as ``null``.
"""

import inspect
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chessrating import RatingError, udfs
from chessrating.uscf.event import rate_event
from chessrating.udfs import (
    ELO_CHANGE, ELO_EXPECTED, ELO_NEWRATING, FIDE_CHANGE, FIDE_DP, FIDE_EXPECTED, FIDE_INITIAL,
    FIDE_K, FIDE_NEWRATING, FIDE_NORM, PERF_RATING, RATING_GOAL, USCF_BONUS,
    USCF_EFFECTIVE_GAMES, USCF_EVENT, USCF_FLOOR, USCF_K, USCF_NEWRATING,
)

# FIDE's published first rating (docs/RULES.md §3.5): opponents 1902, 1877, 1884, 2012, 1832, score 3 -> 1922.
FIRST_RATING_OPPONENTS = [1902.0, 1877.0, 1884.0, 2012.0, 1832.0]
FIRST_RATING_RESULTS = ["1", "1", "½", "½", "0"]


# ---------------------------------------------------------------- the contract itself

def test_names_and_argument_order_are_those_of_design_md():
    # README, "The Excel functions".
    contract = {
        "ELO_EXPECTED": "rating, opponent_rating",
        "ELO_CHANGE": "rating, opponent_ratings, results, k=20",
        "ELO_NEWRATING": "rating, opponent_ratings, results, k=20",
        "FIDE_EXPECTED": "rating, opponent_rating, rules='2025'",
        "FIDE_DP": "p",
        "FIDE_K": "rating, rated_games, birth_year=None, year=None, peak_rating=None, games_in_period=None",
        "FIDE_CHANGE": "rating, opponent_ratings, results, k, rules='2025'",
        "FIDE_NEWRATING": "rating, opponent_ratings, results, k, rules='2025'",
        "FIDE_INITIAL": "opponent_ratings, results",
        "FIDE_NORM": "opponent_ratings, results, title='GM', opponent_titles=None, opponent_federations=None, federation=None",
        "PERF_RATING": "opponent_ratings, results, method='FIDE', rating=None",
        "USCF_EFFECTIVE_GAMES": "rating, games",
        "USCF_K": "rating, games, event_games, dual_rated=False",
        "USCF_BONUS": "rating, games, opponent_ratings, results, dual_rated=False, bonus_threshold=10, opponent_ids=None",
        "USCF_NEWRATING": "rating, games, opponent_ratings, results, age=None, record=None, peak_rating=None, dual_rated=False, bonus_threshold=10, opponent_ids=None",
        "USCF_FLOOR": "peak_rating, life_master=False",
        "USCF_EVENT": "ratings, games, results, opponents=None, ages=None, records=None, dual_rated=False, bonus_threshold=10, peak_ratings=None, life_masters=None, absolute_floors=None",
        "RATING_GOAL": "rating, target, opponent_rating, k, score=1, system='ELO'",
        "TIEBREAK": "code, opponents, results, colours=None, rules='2026', ratings=None",
        "TIEBREAK_RANK": "points, tiebreaks",
    }
    assert sorted(udfs.__all__) == sorted(contract)
    for name, arguments in contract.items():
        assert str(inspect.signature(getattr(udfs, name)))[1:-1] == arguments, name


def test_every_function_is_registered_in_the_chess_rating_category(monkeypatch):
    # Classic xlwings reads the category from @xw.func; load the module once more with a
    # decorator that records what each function is registered with.
    import importlib.util

    import xlwings

    registered: dict[str, dict] = {}

    def func(f=None, **options):
        def record(function):
            registered[function.__name__] = options
            return function
        return record if f is None else record(f)

    monkeypatch.setattr(xlwings, "func", func)
    monkeypatch.setattr(sys, "platform", "win32")  # where xlwings registers functions
    spec = importlib.util.spec_from_file_location("chessrating._udfs_registration", udfs.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sorted(registered) == sorted(udfs.__all__)
    assert all(options == {"category": "Chess rating"} for options in registered.values())


def test_xlwings_is_loaded_only_where_it_registers_the_functions():
    # On Linux without XLWINGS_ON_SERVER xlwings' decorators return each function as it
    # is (xlwings/__init__.py), so the command line does not pay for loading it; on
    # xlwings Server (and Lite) they register, and the functions are xlwings' own.
    probe = ("import sys, chessrating.udfs as u; "
             "print('xlwings' in sys.modules, u._XLWINGS_REGISTERS, u.FIDE_K.__module__)")
    env = {k: v for k, v in os.environ.items() if k != "XLWINGS_ON_SERVER"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(udfs.__file__).parents[1]), env.get("PYTHONPATH", "")])
    plain = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    assert plain == ["False", "False", "chessrating.udfs"]
    served = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env=dict(env, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial"))
    assert served.stdout.split()[:2] == ["True", "True"]


def test_each_registered_function_carries_its_own_signature_under_office_js():
    # xlwings Lite and Server read a function's signature at every call; each carries
    # the function's own (not the error wrapper's *args), worked out once
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    driver = Path(__file__).with_name("officejs_driver.py")
    done = subprocess.run([sys.executable, str(driver)], input=json.dumps("signatures"), env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert sorted(seen) == sorted(udfs.__all__)
    # kept on the function xlwings calls, so that reading it follows no wrapper
    assert [name for name, (_, kept) in seen.items() if not kept] == []
    assert seen["FIDE_CHANGE"][0] == "(rating, opponent_ratings, results, k, rules='2025')"


# ---------------------------------------------------------------- classic shapes, published values

def test_elo_functions():
    # Classic Elo (docs/RULES.md §2): E = 1/(1+10^((1800-2000)/400)) = 0.759746...
    assert ELO_EXPECTED(2000.0, 1800.0) == pytest.approx(0.7597469266479578, abs=1e-15)
    # K 20, a win against 1800: 20 × (1 − 0.759747) = 4.80506
    assert ELO_CHANGE(2000.0, 1800.0, 1.0) == pytest.approx(4.805061467, abs=1e-8)
    assert ELO_NEWRATING(2000.0, [1800.0, 2000.0], ["1", "½"], 10.0) == pytest.approx(2002.402530733, abs=1e-8)


def test_expected_scores_keep_the_shape_of_the_range():
    column = ELO_EXPECTED([[2000.0], [1600.0], [None]], 1800.0)
    assert [len(row) for row in column] == [1, 1, 1]
    assert column[0][0] == pytest.approx(0.7597469, abs=1e-7)
    assert column[1][0] == pytest.approx(0.2402531, abs=1e-7)
    assert column[2][0] == ""  # a blank cell stays quiet
    # FIDE table 8.1.2 (docs/RULES.md §3.1): a 400-point gap gives 0.92, row edges D=3 -> .50, D=4 -> .51.
    assert FIDE_EXPECTED(2000.0, [[1600.0, 1997.0, 1996.0]]) == [[0.92, 0.50, 0.51]]
    with pytest.raises(RatingError, match=r"^opponent_rating: a 1x2 range does not match rating's 2x1"):
        ELO_EXPECTED([[2000.0], [1900.0]], [[1800.0, 1700.0]])


def test_fide_online_calculator_behaviours():
    # FIDE calculator: a 1500 player drawing a 2000 player at K 20 gets +8.4 (cap at 400: PL 0.08).
    assert FIDE_CHANGE(1500.0, 2000.0, 0.5, 20.0) == pytest.approx(8.4)
    # 2649 vs 2650 at a 500-point gap, a win at K 10: +0.8 (capped, PD .92) vs +0.4 (real gap, PD .96).
    assert FIDE_CHANGE(2649.0, 2149.0, 1.0, 10.0) == pytest.approx(0.8)
    assert FIDE_CHANGE(2650.0, 2150.0, 1.0, 10.0) == pytest.approx(0.4)
    assert FIDE_CHANGE(2650.0, 2150.0, 1.0, 10.0, "2024") == pytest.approx(0.8)
    # 39 games at K 20 -> K 17 (700 rule).
    assert FIDE_K(2000.0, 100.0, None, 2026.0, None, 39.0) == 17
    assert FIDE_DP(0.57) == 50 and FIDE_DP(1.0) == 800


def test_fide_new_rating_rounds_half_away_from_zero():
    # 2000 loses to 1800 at K 10: PD(200) = .76, change −7.6 -> 1992.
    assert FIDE_NEWRATING(2000.0, 1800.0, 0.0, 10.0) == 1992


def test_first_rating_published_example():
    assert FIDE_INITIAL(FIRST_RATING_OPPONENTS, FIRST_RATING_RESULTS) == 1922


def test_performance_methods():
    # docs/RULES.md §3.6: 6.5/12 against an average of 2789.08 -> TPR 2789 + dp(.54) 29 = 2818.
    opponents = [2789.0] * 11 + [2790.0]  # average 2789.08
    results = [1, 1, 1, 1, 1, 1, 0.5, 0, 0, 0, 0, 0]
    assert PERF_RATING(opponents, results) == 2818
    assert PERF_RATING(opponents, results, "FIDE") == 2818
    # Own-rating anchor: 2700 + dp(.54) = 2729.
    assert PERF_RATING(opponents, results, "OWN", 2700.0) == 2729
    # Algorithm of 400: 2789.08 + 400 × (6 − 5) / 12 = 2822.42 (average unrounded).
    assert PERF_RATING(opponents, results, "400") == pytest.approx(2789.0833333 + 400 / 12, abs=1e-6)
    with pytest.raises(RatingError, match="^rating: "):
        PERF_RATING(opponents, results, "OWN")
    assert PERF_RATING([2000.0, 2000.0], [1, 1], "ELO") == "no performance: 100 % score"


def test_goal_example():
    # docs/RULES.md §5: 1600, K 20, winning every game against 1600 opponents reaches 1700 after 12 games.
    assert RATING_GOAL(1600.0, 1700.0, 1600.0, 20.0) == 12


def test_norm_verdict_is_text():
    # Title Regulations 1.4: Ra 2500, 7/9 = 77.8 % -> 78 % -> dp 220, Rp 2720 >= 2600, 9 games.
    # Without the opponents' titles and federations the verdict says those were not checked.
    assert FIDE_NORM([2500.0] * 9, [1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5]) == (
        "GM norm (titles and federations not checked)")
    titles, feds = ["GM"] * 3 + ["IM"] * 6, ["GER"] * 3 + ["FRA"] * 3 + ["ESP"] * 3
    assert FIDE_NORM([2500.0] * 9, [1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5], "GM", titles, feds, "NED") == "GM norm"
    # 4.5/9 against 2500: Rp 2500 < 2600.
    assert FIDE_NORM([2500.0] * 9, [0.5] * 9).startswith("no GM norm: performance 2500 < 2600")


def test_uscf_functions():
    # Glickman & Doan: a 1700 player with 30 games has N′ = 20.01.
    assert USCF_EFFECTIVE_GAMES(1700.0, 30.0) == pytest.approx(20.01, abs=0.005)
    # K table: N′ 20, m 4 -> 800/24 = 33.33 (the N* of 2355+ is 50, so 2400 with 20 games has N′ 20).
    assert USCF_K(2400.0, 20.0, 4.0) == pytest.approx(33.333, abs=0.001)
    # The approximation paper's case: 1500 on 6 games; 1400 W, 1550 L, 1650 D -> 1511.11.
    assert USCF_NEWRATING(1500.0, 6.0, [1400.0, 1550.0, 1650.0], ["W", "L", "D"]) == pytest.approx(1511.11, abs=0.005)
    assert USCF_FLOOR(1941.0) == 1700
    assert USCF_BONUS(1500.0, 30.0, [1500.0] * 2, [1, 1]) == 0  # m < 3: no bonus


def test_uscf_event_returns_one_rating_per_player_in_a_column():
    crosstable = [[None, 1.0, 1.0], [0.0, None, 0.5], [0.0, 0.5, None]]
    new = USCF_EVENT([1500.0, 1500.0, None], [30.0, 30.0, 0.0], crosstable)
    # The same event given to the core as games: 1 beat 2 and 3, 2 drew 3.
    expected = rate_event([1500.0, 1500.0, None], [30, 30, 0], [(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)])
    assert new == [[value] for value in expected]
    # Rounds layout of the same event gives the same ratings.
    # Round 1: 1–2, round 2: 1–3, round 3: 2–3; the third player sits out each round.
    rounds = USCF_EVENT([1500.0, 1500.0, None], [30.0, 30.0, 0.0],
                        [[1.0, 1.0, None], [0.0, None, 0.5], [None, 0.0, 0.5]],
                        [[2.0, 3.0, 0.0], [1.0, 0.0, 3.0], [0.0, 1.0, 2.0]])
    assert rounds == new


# ---------------------------------------------------------------- quiet and blank cells

def test_a_row_with_no_games_stays_quiet():
    blanks = [None] * 5
    assert FIDE_CHANGE(2000.0, FIRST_RATING_OPPONENTS, blanks, 20.0) == ""
    assert FIDE_INITIAL(FIRST_RATING_OPPONENTS, blanks) == ""
    assert PERF_RATING(FIRST_RATING_OPPONENTS, blanks) == ""
    assert FIDE_NORM(FIRST_RATING_OPPONENTS, blanks) == ""


def test_games_entered_none_of_them_rated_say_so():
    # A forfeit, and a game against an unrated opponent: entered, but nothing to rate.
    assert FIDE_CHANGE(2000.0, [1800.0, None], ["+", 1.0], 20.0) == "no rated games"
    assert PERF_RATING([1800.0, None], ["+", 1.0]) == "no rated games"
    assert FIDE_INITIAL([1800.0], ["-"]) == "no rated games"
    assert FIDE_NORM([2500.0], ["H"]) == "no rated games"
    # The rating itself stands unchanged.
    assert FIDE_NEWRATING(2000.0, [1800.0], ["+"], 20.0) == 2000


def test_office_js_blanks_sent_as_zero_never_count_as_losses_when_the_opponent_is_masked():
    # Office.js sends an empty result cell as 0. The templates mask the opponent's rating
    # (blank unless a result is entered), and a game counts only with both present.
    assert FIDE_CHANGE(2000.0, [1800.0, 0, 0], [1.0, 0, 0], 10.0) == pytest.approx(2.4)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("call, message", [
    (lambda: FIDE_CHANGE("abc", 1800.0, 1, 20.0), "rating: 'abc' is not a number"),
    (lambda: FIDE_CHANGE(2000.0, "abc", 1, 20.0), "opponent_ratings: 'abc' is not a number (item 1)"),
    (lambda: FIDE_CHANGE(2000.0, [1800.0, 1900.0], [1, 2], 20.0), "results: 2 is not a game result (item 2)"),
    (lambda: FIDE_CHANGE(2000.0, [1800.0, 1900.0], [1], 20.0), "opponent_ratings: 2 cells but results has 1; they are paired by position"),
    (lambda: FIDE_CHANGE(2000.0, 1800.0, 1, -10.0), "k: -10 is not a FIDE K-factor, a whole number from 1 to 40"),
    (lambda: ELO_CHANGE(2000.0, 1800.0, 1, -10.0), "k: -10 is not a K-factor from 1 to 100"),
    (lambda: FIDE_CHANGE(2000.0, ["2,100"], [1], 20.0), None),
    (lambda: FIDE_CHANGE(2000.0, ["2,10"], [1], 20.0), "opponent_ratings: '2,10' is not a rating from 100 to 4000 (item 1)"),
    (lambda: FIDE_CHANGE(2000.0, [99.0], [1], 20.0), "opponent_ratings: 99 is not a rating from 100 to 4000 (item 1)"),
    (lambda: ELO_EXPECTED(5000.0, 2000.0), "rating: 5000 is not a rating from 100 to 4000"),
    (lambda: ELO_CHANGE(2000.0, 1800.0, 1, math.nan), "k: nan is not a finite number"),
    (lambda: FIDE_CHANGE(2000.0, "#N/A", 1, 20.0), "opponent_ratings: the cell holds the Excel error #N/A (item 1)"),
    (lambda: FIDE_CHANGE(2000.0, 1800.0, 1, 20.0, "2023"), "rules: '2023' is not one of 2025, 2024"),
    (lambda: PERF_RATING(1800.0, 1, "BEST"), "method: 'BEST' is not one of FIDE, OWN, 400, ELO, PTP, USCF"),
    (lambda: USCF_NEWRATING(1500.0, -3.0, 1800.0, 1), "games: -3 is not a whole number of games from 0 to 100000"),
    (lambda: USCF_NEWRATING(1500.0, 10.0, 1800.0, 1, None, "X"), "record: 'X' is not W, L or blank"),
])
def test_bad_input_gives_one_line_errors(call, message):
    if message is None:  # a thousands separator read as such: 2,100 is 2100
        assert call() == FIDE_CHANGE(2000.0, [2100.0], [1], 20.0) == pytest.approx(20 * (1 - 0.36))
        return
    with pytest.raises(RatingError) as error:
        call()
    assert str(error.value) == message


def test_empty_ranges_are_not_errors():
    assert ELO_CHANGE(2000.0, [None, None], [None, None]) == ""
    assert ELO_NEWRATING(2000.0, [None, None], [None, None]) == ""
    # Forfeits only: nothing rated, the rating stands.
    assert ELO_CHANGE(2000.0, [1800.0], ["+"]) == "no rated games"
    assert ELO_NEWRATING(2000.0, [1800.0], ["+"]) == 2000.0


def test_uscf_arguments_blank_and_inconsistent():
    # K = 800 / (N′ + m): an unrated player (N′ = 0) in a 4-game event has K 200.
    assert USCF_K(None, 0.0, 4.0) == 200
    with pytest.raises(RatingError, match="^event_games: the number of games in this event is needed"):
        USCF_K(1500.0, 30.0, None)
    with pytest.raises(RatingError, match=r"^games: 10 earlier games but rating is blank \(unrated\)$"):
        USCF_EFFECTIVE_GAMES(None, 10.0)
    with pytest.raises(RatingError, match=r"^results: 2 rows but ratings has 3; one row per player$"):
        USCF_EVENT([1500.0] * 3, [30.0] * 3, [[None, 1.0], [0.0, None]])
    with pytest.raises(RatingError, match=r"^opponents: player 2 is paired against himself"):
        USCF_EVENT([1500.0] * 2, [30.0] * 2, [[1.0], [0.0]], [[2.0], [2.0]])
    # Rounds laid out before any pairing is entered: no games yet, no error.
    assert USCF_EVENT([1500.0] * 3, [30.0] * 3, [[None] * 9] * 3, [[None] * 9] * 3) == [[1500.0]] * 3


def test_opponent_ids_blank_or_zero_are_not_one_opponent():
    # 1800 with 50 games beats four 2000 players: bonus eligible only if they are four
    # different opponents. Blank ids (sent as 0 by Office.js) tell nothing: each game its own.
    base = USCF_BONUS(1800.0, 50.0, [2000.0] * 4, [1, 1, 1, 1])
    assert base > 0
    assert USCF_BONUS(1800.0, 50.0, [2000.0] * 4, [1, 1, 1, 1], None, None, [0, 0, 0, 0]) == base
    # One opponent met four times: no bonus; "7", 7 and 7.0 are one player.
    assert USCF_BONUS(1800.0, 50.0, [2000.0] * 4, [1, 1, 1, 1], None, None, ["7", 7.0, 7, " 7 "]) == 0


def test_norm_labels_refuse_excel_errors_and_non_text():
    opponents, results = [2600.0] * 9, [0.5] * 9
    feds = ["GER"] * 3 + ["FRA"] * 3 + ["#N/A"] * 3
    with pytest.raises(RatingError, match=r"^opponent_federations: the cell holds the Excel error #N/A \(item 7\)$"):
        FIDE_NORM(opponents, results, "GM", None, feds, "ESP")
    with pytest.raises(RatingError, match=r"^federation: the cell holds the Excel error #N/A$"):
        FIDE_NORM(opponents, results, "GM", None, None, "#N/A")
    with pytest.raises(RatingError, match=r"^federation: True is not text$"):
        FIDE_NORM(opponents, results, "GM", None, None, True)


def test_goal_refuses_a_k_no_rule_book_allows():
    with pytest.raises(RatingError, match=r"^k: 1000000 is not a K-factor from 1 to 100$"):
        RATING_GOAL(1600.0, 1800.0, 1600.0, 1e6)
    # The highest K allowed: 100 x (1 - 0.5) = 50 per win against an equal opponent, then
    # 100 x (1 - E(1650, 1600)) = 42.85 -> 1692.85; a third win passes 1700.
    assert RATING_GOAL(1600.0, 1700.0, 1600.0, 100.0) == 3


# ---------------------------------------------------------------- Office.js, through xlwings itself

def _office_js(request):
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    driver = Path(__file__).with_name("officejs_driver.py")
    done = subprocess.run([sys.executable, str(driver)], input=json.dumps(request), env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def office_js():
    """Runs all Office.js calls of this module in one subprocess."""
    calls = {
        "elo_scalar": ("ELO_EXPECTED", [[[2000]], [[1800]]]),
        "fide_2d": ("FIDE_EXPECTED", [[[2000, 1600], [1997, 2400]], [[1600]], None]),
        "fide_column": ("FIDE_EXPECTED", [[[2000], [1997], [0]], [[1600]], None]),
        "change_zero_blanks": ("FIDE_CHANGE", [[[2000]], [[1800, 0, 0]], [[1, 0, 0]], [[10]], None]),
        "change_null_blanks": ("FIDE_CHANGE", [[[2000]], [[1800, None, None]], [[1, None, None]], [[10]], [[None]]]),
        "change_rules_blank_0": ("FIDE_CHANGE", [[[2650]], [[2150]], [[1]], [[10]], [[0]]]),
        "initial": ("FIDE_INITIAL", [[[1902], [1877], [1884], [2012], [1832]], [["1", "1", "½", "½", "0"]]]),
        "initial_quiet": ("FIDE_INITIAL", [[[1902], [1877]], [[None, None]]]),
        "perf_text": ("PERF_RATING", [[[2000, 2000]], [[1, 1]], [["ELO"]], None]),
        "bad_result": ("FIDE_CHANGE", [[[2000]], [[1800, 1900]], [[1, 2]], [[20]], None]),
        "na_cell": ("FIDE_CHANGE", [[[2000]], [[{"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}]], [[1]], [[20]], None]),
        "uscf_event": ("USCF_EVENT", [[[1500], [1500], [1500]], [[30], [30], [30]],
                                      [[None, 1, 1], [0, None, 0.5], [0, 0.5, None]], None, None, None, None, None]),
        "uscf_event_zero": ("USCF_EVENT", [[[1500], [1500], [1500]], [[30], [30], [30]],
                                           [[0, 1, 1], [0, 0, 0.5], [0, 0.5, 0]], None, None, None, None, None]),
        "uscf_one_sided": ("USCF_EVENT", [[[1500], [1500], [1500]], [[30], [30], [30]],
                                          [[0, 0.5, 1], [0, 0, 0], [0, 0, 0]], None, None, None, None, None]),
        "uscf_one_sided_null": ("USCF_EVENT", [[[1500], [1500], [1500]], [[30], [30], [30]],
                                               [[None, 0.5, 1], [None, None, None], [None, None, None]],
                                               None, None, None, None, None]),
        "bonus_ids_zero": ("USCF_BONUS", [[[1800]], [[50]], [[2000, 2000, 2000, 2000]], [[1, 1, 1, 1]],
                                          None, None, [[0, 0, 0, 0]]]),
        "bonus_ids_null": ("USCF_BONUS", [[[1800]], [[50]], [[2000, 2000, 2000, 2000]], [[1, 1, 1, 1]],
                                          None, None, None]),
        "uscf_negative_games": ("USCF_NEWRATING", [[[1500]], [[-3]], [[1800]], [[1]], None, None, None,
                                                   None, None, None]),
        "uscf_bad_record": ("USCF_NEWRATING", [[[1500]], [[10]], [[1800]], [[1]], None, [["X"]], None,
                                               None, None, None]),
        "uscf_self_paired": ("USCF_EVENT", [[[1500], [1500]], [[30], [30]], [[1], [0]], [[2], [2]],
                                            None, None, None, None]),
        # 1705 (40 games, peak 1941: floor 1700) loses to 1705; blanks as 0 and as null.
        "uscf_floor_zero": ("USCF_EVENT", [[[1705], [1705]], [[40], [40]], [[0, 0], [1, 0]], None, None, None,
                                           None, None, [[1941], [0]], [[0], [0]]]),
        "uscf_floor_null": ("USCF_EVENT", [[[1705], [1705]], [[40], [40]], [[None, None], [1, None]], None, None,
                                           None, None, None, [[1941], [None]], [[False], [None]]]),
        "uscf_floor_master": ("USCF_EVENT", [[[2205], [2205]], [[40], [40]], [[None, 0], [1, None]], None, None,
                                             None, None, None, None, [[True], [False]]]),
        # Nine draws against 2600 and, in the tenth column, a rating and a result both 0.
        "norm_zero": ("FIDE_NORM", [[[2600] * 9 + [0]], [[0.5] * 9 + [0]], None, None, None, None]),
        "norm_null": ("FIDE_NORM", [[[2600] * 9 + [None]], [[0.5] * 9 + [None]], None, None, None, None]),
        "expected_scalar": ("FIDE_EXPECTED", [[[2000]], [[2200]], None]),
        "separator_ok": ("FIDE_CHANGE", [[["2,000"]], [["2 100"]], [[1]], [[20]], None]),
        "separator_bad": ("FIDE_CHANGE", [[[2000]], [["2,10"]], [[1]], [[20]], None]),
        "k_implausible": ("ELO_CHANGE", [[[2000]], [[2100]], [[1]], [[500]]]),
        "goal": ("RATING_GOAL", [[[1600]], [[1700]], [[1600]], [[20]], None, None]),
        "k_blank_zero": ("FIDE_K", [[[2000]], [[100]], [[0]], [[2026]], [[0]], [[39]]]),
    }
    outcomes = _office_js([{"func": f, "args": a} for f, a in calls.values()])
    return dict(zip(calls, outcomes))


def test_office_js_values(office_js):
    assert office_js["elo_scalar"] == {"value": [[pytest.approx(0.7597469266479578)]]}
    # Table 8.1.2: gaps 400, 0, 397 and 800 (capped at 400) -> .92, .50, .92, .92.
    assert office_js["fide_2d"] == {"value": [[0.92, 0.5], [0.92, 0.92]]}
    assert office_js["fide_column"]["value"] == [[0.92], [0.92], [""]]  # 397 lies in 392–411
    assert office_js["initial"] == {"value": [[1922]]}
    assert office_js["initial_quiet"] == {"value": [[""]]}
    assert office_js["perf_text"] == {"value": [["no performance: 100 % score"]]}
    assert office_js["goal"] == {"value": [[12]]}
    assert office_js["k_blank_zero"] == {"value": [[17]]}
    column = office_js["uscf_event"]["value"]
    assert [len(r) for r in column] == [1, 1, 1] and column[0][0] > 1500


def test_office_js_blanks_as_zero_and_as_null_agree(office_js):
    # The same game entered with the other cells blank, sent as 0 (Excel desktop) and null (web).
    assert office_js["change_zero_blanks"]["value"][0][0] == pytest.approx(2.4)
    assert office_js["change_null_blanks"]["value"][0][0] == pytest.approx(2.4)
    # A crosstable whose empty cells (the diagonal) arrive as 0 rates as with nulls.
    assert office_js["uscf_event_zero"] == office_js["uscf_event"]
    # An empty rules cell sent as 0 means the default rules ("2025": no cap from 2650).
    assert office_js["change_rules_blank_0"]["value"][0][0] == pytest.approx(0.4)


def test_office_js_us_chess(office_js):
    # A game entered from one side only: the empty cells arrive as 0 (desktop) or null (web).
    assert office_js["uscf_one_sided"] == office_js["uscf_one_sided_null"]
    # ... and both rate the event as classic xlwings does with the cells blank: 1 drew 2, beat 3.
    classic = USCF_EVENT([1500.0] * 3, [30.0] * 3, [[None, 0.5, 1.0], [None, None, None], [None, None, None]])
    assert office_js["uscf_one_sided"]["value"] == [[pytest.approx(row[0], abs=1e-9)] for row in classic]
    # Empty opponent ids sent as 0 are no ids: the bonus is the same as with null.
    assert office_js["bonus_ids_zero"] == office_js["bonus_ids_null"]
    assert office_js["bonus_ids_null"]["value"][0][0] > 0
    assert office_js["uscf_negative_games"] == {
        "error": "XlwingsError", "message": "games: -3 is not a whole number of games from 0 to 100000"}
    assert office_js["uscf_bad_record"] == {"error": "XlwingsError", "message": "record: 'X' is not W, L or blank"}
    assert office_js["uscf_self_paired"]["error"] == "XlwingsError"
    assert office_js["uscf_self_paired"]["message"].startswith("opponents: player 2 is paired against himself")


def test_office_js_us_chess_event_floors(office_js):
    # tests/test_uscf_event.py works these by hand: the loser's 1687.09 is raised to his
    # peak floor 1700; the winner's 1722.91 is rated against the loser's unfloored 1686.06.
    # An Original Life Master's 2195.29 is raised to 2200.
    assert office_js["uscf_floor_zero"] == office_js["uscf_floor_null"]
    assert office_js["uscf_floor_zero"]["value"] == [[1700.0], [pytest.approx(1722.9118, abs=1e-4)]]
    assert office_js["uscf_floor_master"]["value"] == [[2200.0], [pytest.approx(2214.7052, abs=1e-4)]]
    # The classic runtime and plain Python give the same.
    assert USCF_EVENT([1705.0, 1705.0], [40.0, 40.0], [[None, None], [1.0, None]], None, None, None, None,
                      None, [1941.0, None], [False, None]) == office_js["uscf_floor_null"]["value"]
    with pytest.raises(RatingError, match=r"^peak_ratings: 1 values but ratings has 2; one per player$"):
        USCF_EVENT([1705.0, 1705.0], [40.0, 40.0], [[None, None], [1.0, None]], None, None, None, None,
                   None, 1941.0)


def test_a_zero_rating_beside_a_zero_result_is_no_game_under_office_js_only(office_js):
    # Office.js hands empty cells over as 0: there the tenth position is empty, and nine
    # draws against 2600 are Ra 2600, p 50 %, Rp 2600: a GM norm.
    made = "GM norm (titles and federations not checked)"
    assert office_js["norm_zero"] == office_js["norm_null"] == {"value": [[made]]}
    # Classic xlwings and plain Python hand an empty cell over as None; a 0 there is typed:
    # a loss to an unrated opponent, counted as 1400 and raised to the GM floor 2200.
    # Ra (9 x 2600 + 2200) / 10 = 2560, p 4.5/10 = 45 % -> dp -36, Rp 2524 < 2600.
    assert FIDE_NORM([2600.0] * 9 + [0.0], [0.5] * 9 + [0.0]) == "no GM norm: performance 2524 < 2600"
    assert FIDE_NORM([2600.0] * 9 + [None], [0.5] * 9 + [None]) == made


def test_a_scalar_call_gives_a_scalar_and_a_range_an_array(office_js):
    # Table 8.1.2: D = -200 lies in 198-206 -> PL 0.24.
    assert FIDE_EXPECTED(2000.0, 2200.0) == 0.24
    assert FIDE_EXPECTED(2000, 2200) == 0.24
    assert FIDE_EXPECTED([2000.0], 2200.0) == [[0.24]]
    assert FIDE_EXPECTED([[2000.0]], [[2200.0]]) == [[0.24]]
    assert ELO_EXPECTED(2000.0, None) == ""
    assert ELO_EXPECTED([[2000.0], [1800.0]], 1800.0)[1] == [0.5]
    # Office.js sends every argument as a 2-D range and gets a 2-D answer.
    assert office_js["expected_scalar"] == {"value": [[0.24]]}


def test_office_js_reads_thousands_separators_and_refuses_implausible_values(office_js):
    # FIDE: 2000 beats 2100, D = -100 -> PL 0.36, 20 x 0.64 = 12.8.
    assert office_js["separator_ok"]["value"][0][0] == pytest.approx(12.8)
    assert office_js["separator_bad"] == {
        "error": "XlwingsError", "message": "opponent_ratings: '2,10' is not a rating from 100 to 4000 (item 1)"}
    assert office_js["k_implausible"] == {"error": "XlwingsError", "message": "k: 500 is not a K-factor from 1 to 100"}


def test_office_js_errors_are_one_line_xlwings_errors(office_js):
    # The host shows #VALUE! with this message on hover.
    assert office_js["bad_result"] == {"error": "XlwingsError", "message": "results: 2 is not a game result (item 2)"}
    assert office_js["na_cell"] == {"error": "XlwingsError",
                                    "message": "opponent_ratings: the cell holds the Excel error #N/A (item 1)"}


def test_office_js_metadata_lists_every_function_with_its_docs():
    meta = _office_js("meta")
    functions = {f["name"]: f for f in meta["functions"]}
    assert sorted(functions) == sorted(udfs.__all__)
    for name, entry in functions.items():
        assert entry["description"] and len(entry["description"]) <= 255, name
        assert "\n" not in entry["description"].strip(), name
        for parameter in entry["parameters"]:
            assert not parameter["description"].startswith("Positional argument"), (name, parameter["name"])
            assert len(parameter["description"]) <= 255, (name, parameter["name"])
    assert [p["name"] for p in functions["FIDE_CHANGE"]["parameters"]] == ["rating", "opponent_ratings", "results", "k", "rules"]
    assert functions["FIDE_CHANGE"]["parameters"][4]["optional"] is True
