"""rating/long_events.py (issue 32, item 4): a long event's games by the rating list in force
when they were played (Title Regulations 1.1.4; Rating Regulations 7.1–7.1.1), on
fixtures/needs/pennine_league.trf (round dates 2026-03-01 to 2026-04-26, one a week) and
events made from it."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest

import importer
from importer.model import Tournament
from rating.long_events import ListSlice, is_long_event, list_month, list_slices

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = ROOT / "fixtures" / "needs" / "pennine_league.trf"
SHORT = ROOT / "fixtures" / "norms" / "pennine_im_norm.trf"


def _dated(t: Tournament, days: list[date | None]) -> Tournament:
    shown = [d for d in days if d is not None]
    return replace(t, info=replace(t.info, round_dates=tuple(days), start_date=min(shown),
                                   end_date=max(shown)))


def test_each_game_is_on_the_list_of_its_round_date():
    t = importer.load(LEAGUE)
    assert is_long_event(t)
    assert [list_month(t, rd) for rd in range(1, 10)] == [date(2026, 3, 1)] * 5 + [
        date(2026, 4, 1)] * 4
    assert list_slices(t, 1) == (ListSlice(date(2026, 3, 1), (1, 2, 3, 4, 5)),
                                 ListSlice(date(2026, 4, 1), (6, 7, 8, 9)))
    assert [s.words for s in list_slices(t, 1)] == ["the March 2026 list: rounds 1–5",
                                                    "the April 2026 list: rounds 6–9"]


def test_an_event_of_30_days_or_less_is_on_one_list():
    short = importer.load(SHORT)
    assert not is_long_event(short) and list_slices(short, 1) == ()
    # 30 days exactly, across a month's end: still one list counts (more than 30 days: 1.1.4)
    t = _dated(short, [date(2026, 3, 10) + timedelta(days=30 * i // 8) for i in range(9)])
    assert (t.info.end_date - t.info.start_date).days == 30
    assert not is_long_event(t) and list_slices(t) == ()
    # 31 days: two lists
    t = _dated(short, [date(2026, 3, 10) + timedelta(days=31 * i // 8) for i in range(9)])
    assert is_long_event(t) and [s.month for s in list_slices(t)] == [date(2026, 3, 1),
                                                                      date(2026, 4, 1)]


def test_a_long_event_within_one_month_has_no_slices_and_undated_rounds_come_last():
    league = importer.load(LEAGUE)
    t = _dated(league, [date(2026, 1, 1) + timedelta(days=3 * i) for i in range(9)])
    assert not is_long_event(t)  # 24 days
    t = replace(t, info=replace(t.info, start_date=date(2025, 12, 1)))  # the details: 31 days
    assert is_long_event(t) and list_slices(t, 1) == ()  # every game in January's list
    days: list[date | None] = [*league.info.round_dates[:8], None]
    t = _dated(league, days)
    assert list_slices(t, 1)[-1] == ListSlice(None, (9,))
    assert list_slices(t, 1)[-1].words == "no date shown: round 9"


@pytest.mark.parametrize("player", range(1, 11))
def test_every_players_games_are_each_in_exactly_one_slice(player):
    t = importer.load(LEAGUE)
    rounds = [rd for s in list_slices(t, player) for rd in s.rounds]
    games = [r.round for r in t.results_of(player) if r.status.is_game]
    assert sorted(rounds) == sorted(games) and len(set(rounds)) == len(rounds)
    for s in list_slices(t, player):
        assert all(list_month(t, rd) == s.month for rd in s.rounds)
