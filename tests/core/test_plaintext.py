"""chessrating.trf.plaintext: the characters it replaces are exactly those of its rule
(module doc) — every code point of categories Cc, Cf, Zl, Zp and Cs in the Basic
Multilingual Plane becomes a space, every one past U+FFFF ``?`` — whichever path a text
takes (ASCII, printable, not printable)."""

from __future__ import annotations

import unicodedata

import pytest

from chessrating.trf.plaintext import ASTRAL_MARK, one_line, one_line_noted, replaced

BREAKING = {"Cc", "Cf", "Zl", "Zp", "Cs"}
EVERY = [chr(cp) for cp in range(0x110000)]


def _table(ch: str, astral: bool) -> str:
    """What the rule makes of one character, from its category alone."""
    if ord(ch) > 0xFFFF:
        return ASTRAL_MARK if astral else ch
    return " " if unicodedata.category(ch) in BREAKING else ch


@pytest.mark.slow  # every code point, twice: with the slow tests
@pytest.mark.parametrize("astral", [True, False])
def test_every_code_point_alone_follows_the_table(astral: bool) -> None:
    # one character a text: each takes its own path (ASCII, printable, not printable)
    for ch in EVERY:
        assert one_line(ch, astral=astral) == _table(ch, astral), f"U+{ord(ch):04X}"


@pytest.mark.slow
@pytest.mark.parametrize("astral", [True, False])
def test_every_code_point_in_runs_follows_the_table(astral: bool) -> None:
    # all 1,114,112 code points, in runs of 64: printable runs and the others alike
    for start in range(0, len(EVERY), 64):
        run = "".join(EVERY[start:start + 64])
        want = "".join(_table(ch, astral) for ch in run)
        assert one_line(run, astral=astral) == want, f"run from U+{start:04X}"
        odd = [f"U+{ord(a):04X}" for a, b in zip(run, want) if a != b]
        assert replaced(run, astral=astral) == odd, f"run from U+{start:04X}"


def test_a_printable_text_holds_no_breaking_character() -> None:
    # the shortcut the module takes: str.isprintable refuses every breaking category
    assert not [f"U+{ord(ch):04X}" for ch in EVERY
                if ch.isprintable() and unicodedata.category(ch) in BREAKING]


def test_printable_non_ascii_text_keeps_its_letters_and_names_its_astral_characters() -> None:
    assert one_line("Müller, Ñandú 𝔄") == "Müller, Ñandú ?"
    assert replaced("Müller, Ñandú 𝔄") == ["U+1D504"]
    assert replaced("Müller, Ñandú 𝔄", astral=False) == []
    assert one_line_noted("Zoë") == ("Zoë", None)
    assert one_line_noted("Zoë\u00ad\u2028") == ("Zoë  ", "U+00AD, U+2028: a line break or control character, written as a space")
