"""Where a result goes (xlrecalc.output): one check of the output path before any work,
in the recalculation's words or a caller's (the Lite copy's), and the same-file test of
the commands that must not write over their input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from xlrecalc import RecalcError, output_path, same_file


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "open.xlsx"
    path.write_bytes(b"PK")
    (tmp_path / "out").mkdir()
    return path


def test_the_result_goes_to_the_name_given_or_beside_the_input(book: Path):
    folder = book.parent / "out"
    assert output_path(book, None) == book.with_name("open-recalc.xlsx")
    assert output_path(book, folder) == folder / "open-recalc.xlsx"
    assert output_path(book, book) == book  # in place
    assert output_path(book, None, ".xlsm") == book.with_name("open-recalc.xlsm")  # a macro workbook
    lite = book.with_name("open-lite.xlsx")
    assert output_path(book, None, default=lite) == lite
    assert output_path(book, folder, default=lite) == folder / "open-lite.xlsx"


@pytest.mark.parametrize("given, kind, words", [
    ("open.txt", None, "{dst}: {noun} must be named .xlsx (or .xlsm for a macro workbook); nothing written"),
    ("open.xlsm", None, "{dst}: {noun} must keep the input's extension .xlsx; nothing written"),
    ("copy.xlsx", ".xlsm", "{dst}: open.xlsx is a macro workbook whatever its name says; {noun} must "
                           "be named .xlsm; nothing written"),
    ("missing/open.xlsx", None, "{dst}: the folder {parent} does not exist; nothing written"),
])
@pytest.mark.parametrize("noun", ["the output", "the copy"])
def test_a_refusal_names_the_path_and_the_result(book: Path, given: str, kind: str | None,
                                                 words: str, noun: str):
    dst = book.parent / given
    with pytest.raises(RecalcError) as refused:
        output_path(book, dst, kind, noun=noun)
    assert str(refused.value) == words.format(dst=dst, noun=noun, parent=dst.parent)


def test_a_folder_named_as_a_workbook_is_not_a_file(book: Path):
    inside = book.parent / "out" / "open-recalc.xlsx"
    inside.mkdir()
    with pytest.raises(RecalcError, match="not a file; nothing written"):
        output_path(book, book.parent / "out")


def test_the_lite_copy_is_refused_in_its_own_words(book: Path):
    from chessrating.errors import RatingError
    from chessrating.lite.convert import lite_output
    assert lite_output(book, None) == book.with_name("open-lite.xlsx")
    with pytest.raises(RatingError) as refused:
        lite_output(book, book.with_name("open.xlsm"))
    assert str(refused.value) == (f"{book.with_name('open.xlsm')}: the copy must keep the "
                                  "input's extension .xlsx; nothing written")


def test_same_file_sees_through_spellings_and_links(book: Path):
    assert same_file(book, book.parent / "out" / ".." / book.name)
    assert not same_file(book, book.with_name("other.xlsx"))
    link = book.parent / "link.xlsx"
    os.symlink(book, link)
    assert same_file(link, book) and same_file(book, link)
