"""A period's players read once (rating.period.roster.Roster)."""

from __future__ import annotations

from datetime import date

from importer.model import Player, Tournament, TournamentInfo
from rating.period.roster import Roster


def _event(name: str, *players: tuple[int, str, str]) -> Tournament:
    return Tournament(info=TournamentInfo(name=name, start_date=date(2026, 3, 1)),
                      players=tuple(Player(start_no=no, name=n, fide_id=f) for no, n, f in players))


def test_the_roster_reads_each_player_once_in_order():
    a = _event("a", (1, "Adams, Michael", " 400041 "), (2, "Doe, Jo", ""))
    b = _event("b", (1, "Roe, Al", "0"), (3, "Poe, Ed", "12"))
    roster = Roster.of([a, b])
    assert roster.first == [0, 2, 4] and roster.tour == [0, 0, 1, 1]
    assert roster.start_nos == [1, 2, 1, 3] and roster.fids == ["400041", "", "", "12"]
    assert roster.players == [*a.players, *b.players]
    assert list(roster.spans()) == [(0, 2), (2, 4)]
    assert not roster.numbered  # b numbers 1, 3
    assert Roster.of([a]).numbered


def test_a_selection_is_the_roster_of_the_tournaments_selected():
    events = [_event("a", (1, "Adams, Michael", "400041")),
              _event("b", (1, "Roe, Al", ""), (2, "Poe, Ed", "12")),
              _event("c", (2, "Doe, Jo", ""))]
    roster = Roster.of(events)
    for chosen in ([2, 0], [1], [], [0, 1, 2]):
        assert roster.select(chosen) == Roster.of([events[i] for i in chosen])
