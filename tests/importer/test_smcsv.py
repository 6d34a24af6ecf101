"""Swiss-Manager ranking CSV export: the real San Sebastián file and small edge cases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.errors import InputError
from importer.formats.smcsv import looks_like_smcsv, parse_smcsv
from importer.model import Colour, Game, GameResult, Status, Tournament

NAME = "san_sebastian_open_33_final_ranking_export.csv"


@pytest.fixture(scope="module")
def san_sebastian(realdata: Path) -> Tournament:
    raw = (realdata / "chess-results" / NAME).read_bytes()
    assert b"\r\n" in raw and raw.isascii()
    text = raw.decode("ascii")
    assert looks_like_smcsv(text)
    return parse_smcsv(text, source=NAME)


def test_header_and_players(san_sebastian: Tournament) -> None:
    t = san_sebastian
    assert t.info.name == "33 Open Internacional Ciudad de San Sebastian"
    assert t.info.rounds == 9 and t.rounds_seen == 9
    assert len(t.players) == 150 and len(t.results) == 150 * 9
    alvarez = t.player(14)
    assert alvarez is not None
    assert (alvarez.name, alvarez.title, alvarez.federation, alvarez.rating, alvarez.rank,
            alvarez.points) == ("Alvarez Pedraza Aramis", "IM", "CUB", 2486, 1, 7.5)  # '7x'
    ramos = t.player(108)  # ';108;;Ramos Espinosa Didier' : tied rank left blank
    assert ramos is not None and (ramos.rank, ramos.points) == (148, 0.0)
    giovagnoni = t.player(131)
    assert giovagnoni is not None and giovagnoni.rating is None  # Rtg 0


def test_opponents_are_ranking_rows(san_sebastian: Tournament) -> None:
    t = san_sebastian
    assert any("ranking row" in w.message for w in t.warnings)
    # Alvarez '81;b;1': row 81 is SNo 89 (Fuente San Sebastian Ernesto, '1;w;0')
    r1 = t.results_of(14)[0]
    assert (r1.opponent_no, r1.colour, r1.points, r1.status) == (89, Colour.BLACK, 1.0,
                                                                  Status.PLAYED)
    assert Game(round=1, white_no=89, black_no=14, result=GameResult.BLACK_WIN) in t.games
    # round 5, Alvarez '5;b;x' against Spraggett (SNo 1, row 5, '1;w;x')
    assert Game(round=5, white_no=1, black_no=14, result=GameResult.DRAW) in t.games
    assert not any("asymmetric" in w.message for w in t.warnings)


def test_forfeits_byes_absences(san_sebastian: Tournament) -> None:
    t = san_sebastian
    counts = Counter(r.status for r in t.results)
    assert counts[Status.FORFEIT_WIN] == 19 and counts[Status.FORFEIT_LOSS] == 19
    assert counts[Status.HALF_BYE] == 62  # '-;-;x'
    assert counts[Status.BYE] == 3  # '-;-;1'
    assert counts[Status.ABSENT] == 33  # '-;-;0'
    # Trepat (SNo 32) '149;-;+' vs row 149 = Ramos (SNo 108) '24;-;-': no colours
    assert Game(round=1, white_no=32, black_no=108,
                result=GameResult.WHITE_FORFEIT_WIN) in t.games
    # Andonov (SNo 33) '107;-;-' vs row 107 = Cantabrana (SNo 109) '20;-;+'
    assert Game(round=1, white_no=33, black_no=109,
                result=GameResult.BLACK_FORFEIT_WIN) in t.games
    seret = t.results_of(22)
    assert seret[0].status is Status.FORFEIT_LOSS
    assert [r.status for r in seret[1:]] == [Status.ABSENT] * 8
    assert len(t.games) == 626


def test_printed_points_checked(san_sebastian: Tournament) -> None:
    # Three players print ½ more than their rounds give (each lost round 1 by forfeit).
    mismatched = [w for w in san_sebastian.warnings if w.code == "points-differ"]
    assert sorted(w.players for w in mismatched) == [(131,), (138,), (142,)]
    assert all(f"player {w.players[0]}: printed points" in w.message for w in mismatched)


SMALL = (
    "Small Open\r\n\r\nStarting rank\r\n\r\n"
    "Rank;SNo.;;Name;Rtg;FED;1.Rd.;;;2.Rd.;;;Pts\r\n"
    "1;1;FM;One, A;2200;ENG;3;w;1;2;b;;1\r\n"
    "2;2;;Two, B;2100;ENG;-;-;x;1;w;;x\r\n"
    ";3;;Three, C;0;IRL;1;b;0;-;-;0;0\r\n"
)


def test_starting_number_export_and_pending() -> None:
    t = parse_smcsv(SMALL, source="small.csv")
    assert t.info.name == "Small Open"
    assert [(p.start_no, p.rank, p.points) for p in t.players] == [(1, 1, 1.0), (2, 2, 0.5),
                                                                    (3, 2, 0.0)]
    assert Game(round=1, white_no=1, black_no=3, result=GameResult.WHITE_WIN) in t.games
    assert Game(round=2, white_no=2, black_no=1) in t.games  # pending
    assert t.results_of(2)[1].status is Status.PENDING
    assert not any("ranking row" in w.message or "asymmetric" in w.message for w in t.warnings)


@pytest.mark.parametrize(("text", "message"), [
    (SMALL.replace(";3;;Three", ";3x;;Three"), r"small.csv:8: expected a starting number"),
    (SMALL.replace("3;w;1;2;b", "9;w;1;2;b"), "not in the file"),
    (SMALL.replace("-;-;x;1", "-;-;q;1"), r"small.csv:7: round 1: result 'q'"),
    (SMALL.replace("2200", "22OO"), r"small.csv:6: bad number"),
    ("", "no 'SNo"),
    ("just some text\r\nwith lines\r\n", "no 'SNo"),
])
def test_bad_input(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_smcsv(text, source="small.csv")


def test_sniffing() -> None:
    assert looks_like_smcsv(SMALL)
    assert not looks_like_smcsv("012 A TRF\n001    1 m    Someone\n")
    assert not looks_like_smcsv("a;b;c;d;e;f\n1;2;3;4;5;6\n")


@given(pos=st.integers(0, len(SMALL)), junk=st.text(";0123456789wbx+- \r\nabc", max_size=5),
       cut=st.integers(0, 4))
def test_mutations_only_raise_input_error(pos: int, junk: str, cut: int) -> None:
    text = SMALL[:pos] + junk + SMALL[pos + cut:]
    try:
        t = parse_smcsv(text, source="fuzz")
    except InputError:
        return
    assert {r.start_no for r in t.results} <= {p.start_no for p in t.players}


def test_written_as_trf_reads_back_the_same(san_sebastian: Tournament) -> None:
    from importer.formats.trf import parse_trf, write_trf

    again = parse_trf(write_trf(san_sebastian), source=NAME)
    assert (again.info, again.players, again.results, again.games) == (
        san_sebastian.info, san_sebastian.players, san_sebastian.results, san_sebastian.games)
