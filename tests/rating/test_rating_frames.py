"""rating.frames.to_frames: a tournament's rating and a period as DataFrames whose every value
is the record's own, exactly (Decimals as Decimals, hundredths as integers, missing as <NA>)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from enum import Enum
from pathlib import Path

import pandas as pd
import pytest

import importer
from importer.model import Colour, Player, RoundResult, Status, Tournament, TournamentInfo
from rating.frames import (
    DECIMAL,
    PERIOD_GAME_DTYPES,
    PERIOD_PLAYER_DTYPES,
    PLAYER_DTYPES,
    ROUND_DTYPES,
    SCENARIO_DTYPES,
    to_frames,
)
from rating.period.records import PeriodGames
from rating.period.run import run_period
from rating.tournament import TournamentRating, rate_tournament

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
D = Decimal


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def _same(cell: object, value: object) -> bool:
    """A frame cell holds the record's value: <NA> for None, the enum's value, and a Decimal
    as that very Decimal (same digits, not a float that prints alike)."""
    value = _plain(value)
    if value is None:
        return cell is pd.NA
    if isinstance(value, Decimal):
        return isinstance(cell, Decimal) and cell == value and str(cell) == str(value)
    return type(cell) is not float and cell == value


def _check_dtypes(frame: pd.DataFrame, dtypes: dict[str, str]) -> None:
    assert list(frame.columns) == list(dtypes)
    assert {c: str(frame[c].dtype) for c in frame.columns} == \
        {c: ("object" if d == DECIMAL else d) for c, d in dtypes.items()}


def _check_rows(frame: pd.DataFrame, records: list[object], fields: dict[str, object]) -> None:
    """Each row is its record: ``fields`` maps a column to how to read it from the record."""
    assert len(frame) == len(records)
    for column, read in fields.items():
        for cell, record in zip(frame[column].tolist(), records, strict=True):
            value = read(record) if callable(read) else getattr(record, column)
            assert _same(cell, value), (column, cell, value)


def _pending() -> TournamentRating:
    return rate_tournament(importer.load(FIXTURES / "trf" / "pending_last_round.trf"))


def test_tournament_frames_have_the_declared_dtypes_and_the_records_values():
    rated = rate_tournament(importer.load(FIXTURES / "sample_open.trf"), "fide")
    frames = to_frames(rated)
    assert set(frames) == {"players", "rounds", "scenarios"}
    for name, dtypes in (("players", PLAYER_DTYPES), ("rounds", ROUND_DTYPES),
                         ("scenarios", SCENARIO_DTYPES)):
        _check_dtypes(frames[name], dtypes)
    _check_rows(frames["players"], list(rated.players), {
        **dict.fromkeys(c for c in PLAYER_DTYPES if not c.startswith("initial_")),
        "initial_rating": lambda p: p.initial.value if p.initial else None,
        "initial_published": lambda p: p.initial.published if p.initial else None})
    lines = [(p.start_no, line) for p in rated.players for line in p.rounds]
    _check_rows(frames["rounds"], lines, {
        "start_no": lambda pair: pair[0],
        **{c: (lambda pair, c=c: getattr(pair[1], c)) for c in ROUND_DTYPES if c != "start_no"}})
    assert frames["players"]["change"].sum() == sum(p.change for p in rated.players)
    assert frames["rounds"]["change"].dropna().sum() == \
        sum(line.change for _, line in lines if line.change is not None)


def test_decimals_stay_exact_for_every_system():
    t = importer.load(FIXTURES / "sample_open.trf")
    rated = rate_tournament(t, "elo")
    rounds = to_frames(rated)["rounds"]
    played = rounds[rounds["rated"]]
    assert [str(v) for v in played["expected"].head(2)] == ["0.952", "0.847"]  # three decimals
    assert sum(played["change"], D(0)) == \
        sum(line.change for p in rated.players for line in p.rounds if line.change is not None)
    assert not any(isinstance(v, float) for column, dtype in ROUND_DTYPES.items()
                   if dtype == DECIMAL for v in rounds[column])


def test_scenarios_and_missing_values_are_na():
    rated = _pending()
    frames = to_frames(rated)
    scenarios = [(p.start_no, s) for p in rated.players for s in p.scenarios]
    assert len(scenarios) == 2
    _check_rows(frames["scenarios"], scenarios, {
        "start_no": lambda pair: pair[0],
        **{c: (lambda pair, c=c: getattr(pair[1], c)) for c in SCENARIO_DTYPES if c != "start_no"}})
    rounds = frames["rounds"]
    pending = rounds[rounds["status"] == "pending"]
    assert pending["points"].isna().all() and pending["change"].isna().all()
    assert pending["k"].isna().all() and not pending["rated"].any()
    assert rounds.loc[rounds["status"] == "bye", "opponent_no"].isna().all()


def test_an_unrated_player_is_na_not_zero():
    players = [Player(start_no=1, name="A", rating=1500, birth_year=1990),
               Player(start_no=2, name="B")]
    results = [RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2,
                           colour=Colour.WHITE, points=D(1)),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1,
                           colour=Colour.BLACK, points=D(0))]
    t = Tournament(info=TournamentInfo(name="x", start_date=date(2026, 3, 1), rounds=1),
                   players=tuple(players), results=tuple(results))
    players_frame = to_frames(rate_tournament(t))["players"].set_index("start_no")
    assert players_frame.loc[2, "rating"] is pd.NA and players_frame.loc[2, "new_rating"] is pd.NA
    assert players_frame.loc[1, "rating"] == 1500
    rounds = to_frames(rate_tournament(t))["rounds"].set_index("start_no")
    assert rounds.loc[1, "opponent_rating"] is pd.NA and not rounds.loc[1, "rated"]


def test_an_empty_tournament_gives_empty_frames_with_their_dtypes():
    t = Tournament(info=TournamentInfo(name="empty", start_date=date(2026, 3, 1), rounds=0))
    frames = to_frames(rate_tournament(t))
    for name, dtypes in (("players", PLAYER_DTYPES), ("rounds", ROUND_DTYPES),
                         ("scenarios", SCENARIO_DTYPES)):
        assert frames[name].empty
        _check_dtypes(frames[name], dtypes)


@pytest.fixture(scope="module")
def month():
    sources = sorted((FIXTURES / "period").glob("*.trf"))
    return run_period([importer.load(p) for p in sources], period=date(2025, 12, 1),
                      today=date(2025, 12, 5))


def test_period_frames_have_the_declared_dtypes_and_the_records_values(month):
    frames = to_frames(month)
    assert set(frames) == {"players", "games"}
    _check_dtypes(frames["players"], PERIOD_PLAYER_DTYPES)
    _check_dtypes(frames["games"], PERIOD_GAME_DTYPES)
    _check_rows(frames["players"], list(month.players), dict.fromkeys(PERIOD_PLAYER_DTYPES))
    _check_rows(frames["games"], list(month.games), dict.fromkeys(PERIOD_GAME_DTYPES))
    assert list(PERIOD_GAME_DTYPES) == list(PeriodGames.FIELDS)
    assert len(frames["games"]) == 26
    games = frames["games"]
    assert int(games["change_h"].sum()) == sum(g.change_h for g in month.games)
    debut = frames["players"].set_index("key").loc["99200020"]
    assert (debut["status"], debut["new_rating"], debut["old_rating"]) == \
        ("newly_rated", 1922, pd.NA)


def test_period_hundredths_are_exact_integers(month):
    players = to_frames(month)["players"]
    for column in ("score_h", "change_h", "pool_score_h"):
        assert str(players[column].dtype) == "Int64"
    rated = players[players["status"] == "rated"]
    # the rounded change is the exact change in hundredths, rounded once, half away from 0
    for change_h, rounded in zip(rated["change_h"], rated["rounded_change"], strict=True):
        assert rounded == int((D(int(change_h)) / 100).to_integral_value("ROUND_HALF_UP"))


def test_anything_else_is_refused():
    with pytest.raises(TypeError, match="TournamentRating or a PeriodResult"):
        to_frames(importer.load(FIXTURES / "sample_open.trf"))  # type: ignore[arg-type]
