"""The tournament model and the normalized CSV folder."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from importer.errors import InputError
from importer.formats.normalized import read_folder, write_folder
from importer.formats.trf.reader import parse_trf
from importer.frames import to_frames
from importer.model import (
    Colour,
    Game,
    GameResult,
    Player,
    RatingList,
    RoundResult,
    Status,
    System,
    Tournament,
    TournamentInfo,
)
from importer.writing.csvio import neutralise, restore


def sample() -> Tournament:
    info = TournamentInfo(id="1452107", name="=Open, ""quoted""", source="x.html",
                          start_date=date(2026, 7, 25), end_date=date(2026, 8, 2), rounds=2,
                          system=System.SWISS, rating_list=RatingList.STANDARD, federation="ENG")
    players = (
        Player(start_no=1, name="Adams, Michael", title="GM", federation="ENG", fide_id="400041",
               rating=2680, birth_year=1971, sex="m", points=1.5, rank=1, k=10),
        Player(start_no=2, name="+cmd|' /C calc'!A0", rating=None, fide_id="0012",
               points=0.5, rank=2, rating_change=Decimal("-3.20")),
    )
    results = (
        RoundResult(start_no=1, round=1, opponent_no=2, colour=Colour.WHITE, points=1.0,
                    status=Status.PLAYED, k=10, rating_change=Decimal("0.00")),
        RoundResult(start_no=2, round=1, opponent_no=1, colour=Colour.BLACK, points=0.0,
                    status=Status.PLAYED),
        RoundResult(start_no=1, round=2, status=Status.HALF_BYE, points=0.5),
        RoundResult(start_no=2, round=2, status=Status.BYE, points=0.5),
    )
    games = (Game(round=1, board=1, white_no=1, black_no=2, result=GameResult.WHITE_WIN),)
    return Tournament(info=info, players=players, results=results, games=games, focus=2)


def test_folder_round_trips_exactly(tmp_path):
    t = sample()
    write_folder(t, tmp_path / "out")
    assert read_folder(tmp_path / "out") == t
    text = (tmp_path / "out" / "players.csv").read_text()
    assert "'+cmd" in text and ",-3.20" in text
    assert "0012" in text


def test_a_requested_bye_survives_the_folder(tmp_path):
    """TRF ``F`` (a full-point bye the player asked for) against ``U`` (allocated by the
    pairing), beside ``H`` and ``Z``: the difference the title norms' 8-game case needs."""
    def line(no: int, points: str, *blocks: str) -> str:  # the TRF16 columns
        return (f"001 {no:4d} m    {'Player ' + str(no):<33} 2000 ENG {'':>11} {'':<10} "
                f"{points:>4} {'':>4}" + "".join(f"  {b}" for b in blocks))
    trf = "\n".join(["012 Bye kinds", line(1, "2.5", "0000 - U", "0000 - F", "0000 - H"),
                     line(2, "0.0", "0000 - Z", "0000 - Z", "0000 - Z")]) + "\n"
    t = parse_trf(trf)
    write_folder(t, tmp_path / "out")
    back = read_folder(tmp_path / "out")
    assert [(r.status, r.requested) for r in back.results_of(1)] == [
        (Status.BYE, False), (Status.BYE, True), (Status.HALF_BYE, False)]
    assert back == t
    # a folder of an older fiderate has no such column: no bye counts as requested
    p = tmp_path / "out" / "results.csv"
    rows = p.read_text().splitlines()
    p.write_text("\n".join(r.rsplit(",", 1)[0] for r in rows) + "\n")
    assert rows[0].endswith(",requested")
    assert not any(r.requested for r in read_folder(tmp_path / "out").results)


def test_frames_have_nullable_dtypes():
    frames = to_frames(sample())
    players = frames["players"]
    assert str(players["rating"].dtype) == "Int64"
    assert players["rating"].isna().tolist() == [False, True]
    assert players["fide_id"].tolist() == ["400041", "0012"]
    assert str(frames["results"]["points"].dtype) == "Float64"


def test_bad_folder_names_file_and_line(tmp_path):
    write_folder(sample(), tmp_path / "out")
    p = tmp_path / "out" / "results.csv"
    p.write_text(p.read_text().replace("played", "won", 1))
    with pytest.raises(InputError, match=r"results.csv:2: column 'status'"):
        read_folder(tmp_path / "out")


@given(st.text())
def test_neutralise_is_reversible_and_safe(text):
    safe = neutralise(text)
    assert restore(safe) == text
    assert not safe.startswith(("=", "+", "-", "@", "\t", "\r"))


@given(st.lists(st.text(), min_size=1, max_size=4))
def test_csv_cells_round_trip_through_a_csv_reader(cells):
    import csv
    import io

    from importer.writing.csvio import render_csv

    columns = [f"c{i}" for i in range(len(cells))]
    text = render_csv(columns, [dict(zip(columns, cells, strict=True))])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == columns
    assert [restore(c) for c in rows[1]] == cells


def test_names_with_line_breaks_round_trip(tmp_path):
    from dataclasses import replace

    t = sample()
    odd = replace(t.players[0], name="Line\rbreak\nand, comma \"quoted\"")
    t = replace(t, players=(odd, *t.players[1:]))
    write_folder(t, tmp_path / "out")
    assert read_folder(tmp_path / "out") == t


def test_quick_init_keeps_signature_defaults_and_frozenness():
    import dataclasses

    r = RoundResult(start_no=1, round=2, status=Status.PLAYED)
    assert (r.opponent_no, r.colour, r.points, r.k) == (None, Colour.NONE, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.round = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        RoundResult(1, 2, Status.PLAYED)  # type: ignore[misc]  # keyword-only
    with pytest.raises(TypeError):
        Game(round=1, white_no=2)  # type: ignore[call-arg]  # black_no is required
    assert dataclasses.replace(r, points=1.0).points == 1.0
    assert Player(start_no=3, name="X") == Player(start_no=3, name="X")


CELLS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=6),
                  st.sampled_from(["=1+2", "a,b", 'say "hi"', "x\ry", "", "20/15"]),
                  st.sampled_from([Decimal("1.0"), Decimal("1.00"), 0.0, -0.0]))  # equal, printed apart


@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), max_size=5), st.sets(st.sampled_from(
    ["a", "b", "c"])))
@example([[None, None, False], [None, None, 0]], set())  # False == 0, but not in a CSV
@example([[Decimal("1.0"), 0.0, None], [Decimal("1.00"), -0.0, None]], {"a"})
def test_a_table_as_columns_is_written_as_rows_are(rows, numeric):
    """render_columns (a month's million game rows) writes exactly what render_csv writes."""
    from importer.writing.csvio import render_columns, render_csv

    names = ["a", "b", "c"]
    as_rows = [dict(zip(names, row, strict=True)) for row in rows]
    as_columns = {n: [row[i] for row in rows] for i, n in enumerate(names)}
    assert render_columns(as_columns, numeric) == render_csv(names, as_rows, numeric)


@pytest.mark.parametrize(("written", "kept"), [
    ("Goel, Yash,", "Goel, Yash"), ("Goel, Yash , ", "Goel, Yash"), ("Goel, Yash", "Goel, Yash"),
    ("Goel,Yash", "Goel,Yash")])
def test_a_name_keeps_no_trailing_comma(written: str, kept: str) -> None:
    assert Player(start_no=1, name=written).name == kept


def test_a_trailing_comma_is_stripped_from_every_source(tmp_path, fixtures_dir) -> None:
    """The one place: a chess-results page and a TRF file both read 'Goel, Yash,' as
    'Goel, Yash'."""
    from importer.sources import load

    page = (fixtures_dir / "chess-results" / "art0_startingrank_small.html").read_text()
    (tmp_path / "start.html").write_text(page.replace("Alder, Ann<", "Goel, Yash,<"))
    trf = (fixtures_dir / "trf" / "pending_last_round.trf").read_text()
    (tmp_path / "event.trf").write_text(trf.replace("Alpha, Ann ", "Goel, Yash,"))
    for name in ("start.html", "event.trf"):
        names = {p.name for p in load(tmp_path / name).players}
        assert "Goel, Yash" in names, (name, names)
