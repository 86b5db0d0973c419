"""The pairing tests' oracles, both from gacrux (MIT, © FIDE, Otto Milvang) itself.

- :func:`generated_trf`: a Swiss event made by gacrux's random tournament generator
  (``gacrux.tournamentgenerator``, its ``-p -N -S -a`` options), every round paired by
  gacrux's Dutch engine from gacrux's own model of the event, written as TRF text. Event
  ``fileno`` is seeded as the generator's command line seeds its file ``fileno``.
- :func:`gacrux_reads`: a TRF text read by gacrux's own TRF reader and its next round
  paired by gacrux, as ``pairingchecker -p`` does: an independent path from a file to the
  engine, against which the package's own reading of the model is compared.
- :func:`file_round`: a round as the model of such a file holds it, and
  :func:`before_round`: the model as it stood before a round was paired.
"""

from __future__ import annotations

import copy
import sys
from unittest import mock

from gacrux.pairingdutch import pairing_dutch
from gacrux.tournamentgenerator import tournamentgenerator
from gacrux.trf2json import trf2json

# The generator's default rates of zero-point byes, half-point byes and forfeits (-S).
DEFAULT_RATES = ("0.01", "0.05", "0.02")


def generated_trf(players: int, rounds: int, fileno: int, *, rates: tuple[str, str, str] = DEFAULT_RATES,
                  accelerated: bool = False) -> str:
    argv = ["tournamentgenerator", "-p", str(players), "-N", str(rounds), "-S", *rates]
    with mock.patch.object(sys, "argv", argv + (["-a"] if accelerated else [])):
        generator = tournamentgenerator()
        generator.read_command_line()
    generator.statistics.set_seed(fileno * 10000 + 4711)  # tournamentgenerator.process_tournaments
    event = generator.gen_tournament(fileno)
    return str(trf2json().output_file(event, 1, 0))


def gacrux_reads(trf: str, round: int, *, top_colour: str | None = None, absent: tuple[int, ...] = (),
                 max_meets: int = 1) -> tuple[set[tuple[int, int]], int | None]:
    """gacrux's pairing of ``round`` of the event in ``trf``: the boards, and the bye.
    Rounds the file holds from ``round`` on are read as ``pairingchecker -c`` reads them;
    without ``top_colour`` the file's (or gacrux's reading of round 1) stands."""
    reader = trf2json()
    reader.parse_file(trf, 0)
    assert reader.chessjson["status"]["code"] == 0, reader.chessjson["status"]
    tournament = reader.get_tournament(1)
    tournament.update(pairingSystem=["dutch"], maxMeets=max_meets)
    if top_colour is not None:
        tournament["topColor"] = top_colour
    for competitor in tournament["competitors"]:  # pairingchecker -u
        competitor["present"] = competitor["present"] and competitor["cid"] not in absent
    engine = pairing_dutch(tournament, round, {"experimental": [], "verbose": 0})
    pairs = [pair for bracket in engine.compute_pairing(False, 0) for pair in bracket["pairs"]]
    byes = [pair["w"] for pair in pairs if not pair["b"]]
    return {(pair["w"], pair["b"]) for pair in pairs if pair["b"]}, (byes[0] if byes else None)


def file_round(tournament, r: int) -> tuple[set[tuple[int, int]], int | None, dict[int, str]]:
    """Round ``r`` of the model, read off the rows: boards (white, black), the player with
    the pairing-allocated bye, and the other players not paired with their codes."""
    boards = {(p.number, p.game(r).opponent) for p in tournament.players
              if p.game(r).opponent is not None and p.game(r).colour == "w"}
    byes = [p.number for p in tournament.players if p.game(r).code == "U"]
    absent = {p.number: p.game(r).code for p in tournament.players
              if p.game(r).opponent is None and p.game(r).code != "U"}
    return boards, (byes[0] if byes else None), absent


def before_round(tournament, r: int):
    """A copy of the event as it stood before round ``r`` was paired: the rounds before it,
    and the requested byes round ``r`` holds."""
    before = copy.deepcopy(tournament)
    for p in before.players:
        byes = [g for g in p.games[r - 1:r] if g.opponent is None and g.code in ("H", "Z")]
        p.games = p.games[:r - 1] + byes
    return before
