"""The ``chessrating`` command line, driven through ``main([...])``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from chessrating.cli import main

HAS_WORKBOOKS = importlib.util.find_spec("chessrating.workbooks") is not None
needs_workbooks = pytest.mark.skipif(not HAS_WORKBOOKS, reason="chessrating.workbooks not built yet")


def _crosstable(path: Path, third_result=0) -> Path:
    """Two players, three games each, FIDE change by the real function."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Crosstable"
    ws.append(["Name", "Rating", "Opp 1", "Opp 2", "Opp 3", "Res 1", "Res 2", "Res 3",
               "Points", "Change", "New rating"])
    players = [("Ann", 2000, [1800, 1900, 2100], [1, 0.5, third_result]),
               ("Bob", 1850, [2000, 2100, 1900], [0, 0.5, 1])]
    for row, (name, rating, opps, results) in enumerate(players, start=2):
        ws.append([name, rating, *opps, *results, f"=SUM(F{row}:H{row})",
                   f"=FIDE_CHANGE(B{row},C{row}:E{row},F{row}:H{row},20)",
                   f"=B{row}+ROUND(J{row},0)"])
    for name, col in [("Names", "A"), ("Points", "I"), ("RatingChange", "J"), ("NewRating", "K")]:
        wb.defined_names[name] = DefinedName(name, attr_text=f"Crosstable!${col}$2:${col}$3")
    wb.save(path)
    return path


def test_recalc_prints_standings_and_writes_beside_the_input(tmp_path: Path, capsys):
    book = _crosstable(tmp_path / "event.xlsx")
    assert main(["recalc", str(book)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    # FIDE table 8.1.2 (docs/RULES.md §3.2): Ann 2000 expects 0.76 + 0.64 + 0.36 = 1.76 against
    # 1800/1900/2100 and scores 1.5: 20 × (1.5 − 1.76) = −5.2 → 1995. Bob 1850 expects
    # 0.30 + 0.19 + 0.43 = 0.92 against 2000/2100/1900: 20 × (1.5 − 0.92) = +11.6 → 1862.
    # Equal points and no performance column: both share first place, in table order; the
    # printout says what ranked them.
    assert lines[0] == "Ranked by points, then performance (the workbook has no Rank column)"
    assert lines[1].split() == ["#", "Name", "Points", "Perf", "Change", "New", "rating"]
    assert lines[2].split() == ["1", "Ann", "1.5", "-5.2", "1995"]
    assert lines[3].split() == ["1", "Bob", "1.5", "+11.6", "1862"]
    assert (tmp_path / "event-recalc.xlsx").exists()
    assert f"written: {tmp_path / 'event-recalc.xlsx'}" in err


def test_recalc_output_option(tmp_path: Path, capsys):
    book = _crosstable(tmp_path / "event.xlsx")
    out = tmp_path / "sub" / "done.xlsx"
    out.parent.mkdir()
    assert main(["recalc", str(book), "-o", str(out)]) == 0
    assert openpyxl.load_workbook(out, data_only=True)["Crosstable"]["K3"].value == 1862
    assert not (tmp_path / "event-recalc.xlsx").exists()


def test_recalc_names_the_cell_of_a_bad_result_and_exits_1(tmp_path: Path, capsys):
    book = _crosstable(tmp_path / "event.xlsx", third_result=2)
    assert main(["recalc", str(book)]) == 1
    out, err = capsys.readouterr()
    # the third result H2 is 2; the new rating K2 uses the change J2: one cause
    assert "Crosstable!J2: results: 2 is not a game result (item 3) — input Crosstable!H2" in err
    assert "2 cell(s) show an error:" in err
    assert "and 1 more cell(s) with the same cause: K2" in err
    assert "Bob" in out  # the standings still print


def test_recalc_missing_file_and_not_a_workbook(tmp_path: Path, capsys):
    assert main(["recalc", str(tmp_path / "nope.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"chessrating recalc: error: {tmp_path / 'nope.xlsx'}: no such file"
    text = tmp_path / "notes.xlsx"
    text.write_text("hello")
    assert main(["recalc", str(text)]) == 2
    assert "not an .xlsx workbook" in capsys.readouterr().err


def test_help_texts(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for command in ("templates", "recalc", "demo"):
        assert command in out
    with pytest.raises(SystemExit):
        main(["recalc", "--help"])
    out = capsys.readouterr().out
    assert "BOOK-recalc.xlsx" in out and "Exit code 0" in out


def test_a_run_registers_the_command_it_names_as_the_whole_parser_does(capsys):
    from chessrating.cli import COMMANDS, build_parser

    def subparsers(parser):
        return parser._subparsers._group_actions[0].choices

    whole = subparsers(build_parser())
    assert list(whole) == list(COMMANDS)
    for name in COMMANDS:
        alone = subparsers(build_parser(name))
        assert list(alone) == [name]
        assert alone[name].format_help() == whole[name].format_help()
    assert list(subparsers(build_parser("no-such-command"))) == list(COMMANDS)
    with pytest.raises(SystemExit) as exit_:
        main(["no-such-command"])
    assert exit_.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2


@needs_workbooks
def test_templates_writes_workbooks(templates_command):
    folder = templates_command.path  # `chessrating templates FOLDER`, run once per session
    assert templates_command.code == 0
    written = [Path(line) for line in templates_command.out.splitlines()]
    assert written and all(p.exists() and p.suffix == ".xlsx" for p in written)
    assert {p.parent for p in written} == {folder}


@needs_workbooks
def test_demo_prints_standings(demo_command):
    out = demo_command.path  # `chessrating demo -o demo.xlsx`, run once per session
    assert demo_command.code == 0
    text = demo_command.out
    lines = text.splitlines()
    assert lines[0] == "Ranked by points, then DE, SB, WIN, KS (Rank column; tie-break rules 2024)"
    assert lines[1].startswith("#")
    assert lines[2].split()[0] == "1"
    assert out.exists()
    assert f"written: {out}" in demo_command.err.splitlines()  # the user's file, no draft
    assert not list(out.parent.glob(".*~tmp*"))


def _many_players(path: Path, players: int, bad_rating_row: int | None = None) -> Path:
    """A round robin of ``players`` with every game drawn, rated by FIDE_CHANGE per row;
    each row reads every other player's rating, so one bad rating reaches every row."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Crosstable"
    ws.append(["Name", "Rating", "Points", "Change", "New rating"])
    last = players + 1
    for row in range(2, last + 1):
        ws.cell(row, 1, f"Player {row - 1}")
        ws.cell(row, 2, "abc" if row == bad_rating_row else 2000 + row)
        for col in range(6, 6 + players):  # results block F:…, the diagonal left blank
            ws.cell(row, col, None if col - 4 == row else 0.5)
        results = f"F{row}:{openpyxl.utils.get_column_letter(5 + players)}{row}"
        ws.cell(row, 3, f"=SUM({results})")
        ws.cell(row, 4, f"=FIDE_CHANGE(B{row},TRANSPOSE($B$2:$B${last}),{results},20)")
        ws.cell(row, 5, f"=B{row}+D{row}")
    wb.save(path)
    return path


def test_recalc_groups_errors_by_the_input_to_fix_and_keeps_the_table_narrow(tmp_path: Path, capsys):
    book = _many_players(tmp_path / "event.xlsx", 12, bad_rating_row=4)
    assert main(["recalc", str(book)]) == 1
    out, err = capsys.readouterr()
    # B4 = 'abc' is player 3's rating: his own change fails on rating, every other
    # player's on opponent_ratings item 3; the new ratings fail with them. Cells where
    # an error starts come first (D3: his own rating; E4 = B4 + D4 adds to the text).
    lines = [line for line in err.splitlines() if line.startswith("  ")]
    assert lines[0] == "  Crosstable!D2: opponent_ratings: 'abc' is not a number (item 3) — input Crosstable!B4"
    assert lines[1].startswith("    and 23 more cell(s) with the same cause: D3, D4, E4, D5, D6,")
    assert lines[1].endswith(", …")
    assert len(lines) == 2
    assert "24 cell(s) show an error:" in err
    # the standings say first that they are provisional, naming the cause, then mark the
    # errored cells briefly instead of printing the message
    lines = out.splitlines()
    assert lines[0] == "Provisional standings, not final: 24 cells showing an error:"
    assert lines[1] == "  Crosstable!D2: opponent_ratings: 'abc' is not a number (item 3) — input Crosstable!B4"
    table = lines[2:]
    assert all(len(line) < 80 for line in table)
    assert table[2].split()[-2:] == ["error", "error"]


def test_progress_off_a_terminal_is_a_few_lines(tmp_path: Path):
    import io

    from chessrating.progress import Progress
    from chessrating.recalc import Step, recalculate
    book = _many_players(tmp_path / "big.xlsx", 60)   # 60 players × 3 formulas
    stream = io.StringIO()
    progress = Progress(stream, delay=0.0)
    for done in range(1000, 24000, 1000):               # the counts a 23,406-formula book sends
        progress(Step("evaluating", done, 23406, "big.xlsx"))
    progress(Step("writing", 23406, 23406, "big-recalc.xlsx"))
    assert stream.getvalue().splitlines() == ["writing big-recalc.xlsx"]
    stream = io.StringIO()
    recalculate(book, tmp_path / "o.xlsx", progress=Progress(stream, delay=0.0))
    assert stream.getvalue().splitlines() == ["evaluating 180 formulas in big.xlsx",
                                              "writing o.xlsx"]


def test_templates_name_the_file_that_cannot_be_written(tmp_path: Path, capsys):
    (tmp_path / "fide-round-robin.xlsx").mkdir()  # a folder where a template would go
    assert main(["templates", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'fide-round-robin.xlsx'}: cannot be written (Is a directory)" in err
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no draft left


def test_the_command_exits_with_mains_code_and_main_leaves_the_collector_alone(tmp_path, monkeypatch, capsys):
    # The installed `chessrating` command is cli.run: main's exit code, the objects the
    # work left handed to the system at exit (gc.freeze); main called from Python (as
    # here and by every test) leaves the collector as it found it.
    import gc
    from importlib.metadata import entry_points

    from chessrating.cli import run

    scripts = {e.name: e.value for e in entry_points(group="console_scripts")}
    assert scripts["chessrating"] == "chessrating.cli:run"
    missing = tmp_path / "nope.xlsx"
    frozen = gc.get_freeze_count()
    assert main(["recalc", str(missing)]) == 2
    assert gc.get_freeze_count() == frozen
    monkeypatch.setattr("sys.argv", ["chessrating", "recalc", str(missing)])
    try:
        with pytest.raises(SystemExit) as ended:
            run()
        assert ended.value.code == 2
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert capsys.readouterr().err.count("no such file") == 2
