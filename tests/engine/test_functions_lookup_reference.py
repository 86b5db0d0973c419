"""INDEX, ROW, COLUMN, ROWS, COLUMNS, TRANSPOSE and CHOOSE
(xlrecalc.functions.lookup_reference): Microsoft's documented examples, then properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_functions import check, evaluate, value

# INDEX function, array form: A2:B3 holds Apples, Lemons / Bananas, Pears
FRUIT = {"A2": "Apples", "B2": "Lemons", "A3": "Bananas", "B3": "Pears"}


def test_index_as_documented() -> None:
    check(value("=INDEX(A2:B3,2,2)", FRUIT), "Pears")
    check(value("=INDEX(A2:B3,2,1)", FRUIT), "Bananas")
    check(value("=INDEX({1,2;3,4},2,2)"), 4.0)


def test_choose_as_documented() -> None:
    # CHOOSE function: A2:A5 hold 1st, 2nd, 3rd, Finished; =CHOOSE(2,A2,A3,A4,A5) is 2nd
    cells = {"A2": "1st", "A3": "2nd", "A4": "3rd", "A5": "Finished"}
    check(value("=CHOOSE(2,A2,A3,A4,A5)", cells), "2nd")
    check(value("=CHOOSE(4,B2,B3,B4,B5)", {"B2": "Nails", "B3": "Screws", "B4": "Nuts",
                                              "B5": "Bolts"}), "Bolts")


def test_row_column_rows_columns() -> None:
    book = evaluate({"D7": "=ROW()", "E7": "=COLUMN()", "F1": "=ROWS(A1:C9)",
                     "F2": "=COLUMNS(A1:C9)", "F3": "=ROW(C10)", "F4": "=COLUMN(C10)"})
    assert [book.value("S", 7, 4), book.value("S", 7, 5)] == [7.0, 5.0]
    assert [book.value("S", r, 6) for r in range(1, 5)] == [9.0, 3.0, 10.0, 3.0]


@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_transpose_twice_is_the_array_and_index_reads_each_cell(rows: int, cols: int,
                                                                  data: st.DataObject) -> None:
    numbers = data.draw(st.lists(st.integers(-99, 99), min_size=rows * cols,
                                 max_size=rows * cols))
    array = "{" + ";".join(",".join(str(numbers[r * cols + c]) for c in range(cols))
                           for r in range(rows)) + "}"
    r, c = data.draw(st.integers(1, rows)), data.draw(st.integers(1, cols))
    assert value(f"=INDEX(TRANSPOSE(TRANSPOSE({array})),{r},{c})") == float(numbers[(r - 1) * cols + c - 1])
    assert value(f"=INDEX(TRANSPOSE({array}),{c},{r})") == float(numbers[(r - 1) * cols + c - 1])


@given(st.lists(st.integers(-9, 9), min_size=2, max_size=5), st.data())
def test_index_of_a_row_or_column_with_one_number_counts_along_it(numbers: list[int],
                                                                  data: st.DataObject) -> None:
    # INDEX({a,b,c},k) is INDEX({a,b,c},1,k), and INDEX({a;b;c},k) is INDEX({a;b;c},k,1)
    k = data.draw(st.sampled_from([-1, 0, 1.5, *range(1, len(numbers) + 2)]))
    row, column = ",".join(map(str, numbers)), ";".join(map(str, numbers))
    book = evaluate({"A1": f"=INDEX({{{row}}},{k})", "B1": f"=INDEX({{{row}}},1,{k})",
                     "A2": f"=INDEX({{{column}}},{k})", "B2": f"=INDEX({{{column}}},{k},1)"})
    for r in (1, 2):
        one, two = book.value("S", r, 1), book.value("S", r, 2)
        assert repr(one) == repr(two), (k, one, two)
    if 1 <= k <= len(numbers):
        assert book.value("S", 1, 1) == book.value("S", 2, 1) == float(numbers[int(k) - 1])
