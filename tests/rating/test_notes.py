"""Notes where they belong: each player's page shows the event's notes and its own, never
another player's; lists one per line; no command-line syntax outside the terminal."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from html import unescape

import pytest

from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    Tournament,
    TournamentInfo,
)
from reports.render.terminal import K_HINT, render_text, terminal_notes
from reports.render.view import Note
from reports.report import build_report, render_report

EVENT_WARNING = "exactly 150 rows: the list may be cut"
PAIR_WARNING = "round 1: players 2 and 3 disagree on the result (played 1.0 vs played 1.0)"
AGGREGATE = ("2 players have rounds not shown on these pages (e.g. player 3: round 1): unknown: "
             "not rated and not counted in the points")
REDUCED = "K reduced so that K × rated games stays within 700"
ASSUMED = "K 20 assumed (no K published, listed or given by the category)"


def marathon() -> Tournament:
    """Player 1, a junior (K 40), beats twenty players in twenty rounds: K 40 → 35.  Player 21
    has no birth year (K assumed); the source warns about players 2 and 3, and the event."""
    players = [Player(start_no=1, name="Marathon, Max", rating=1500, birth_year=2014)]
    players += [Player(start_no=i, name=f"Opp{i}, O", rating=1500,
                       birth_year=1990 if i < 21 else None) for i in range(2, 22)]
    results = []
    for i in range(2, 22):
        rd = i - 1
        results += [RoundResult(start_no=1, round=rd, status=Status.PLAYED, opponent_no=i,
                                colour=Colour.WHITE, points=1.0),
                    RoundResult(start_no=i, round=rd, status=Status.PLAYED, opponent_no=1,
                                colour=Colour.BLACK, points=0.0)]
    info = TournamentInfo(name="Marathon Open", start_date=date(2026, 3, 1),
                          rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=tuple(players), results=tuple(results),
                      warnings=(SourceWarning("cut-list", EVENT_WARNING),
                                SourceWarning("results-differ", PAIR_WARNING, (2, 3), 1),
                                SourceWarning("rounds-not-shown", AGGREGATE)))


def notes_of(html: str) -> str:
    """The text of a page's notes box ('' without one)."""
    box = re.search(r'<div class="notes">(.*?)</div>', html, re.S)
    return unescape(re.sub(r"<[^>]+>", " ", box.group(1))) if box else ""


def test_index_lists_each_note_once_with_the_players_one_per_line() -> None:
    report = build_report(marathon())
    assert report.notes == (
        Note(EVENT_WARNING), Note(AGGREGATE),
        Note(REDUCED, ("No. 1 Marathon, Max: K 40 → 35",), frozenset({1})),
        Note(PAIR_WARNING, ("No. 2 Opp2, O", "No. 3 Opp3, O"), frozenset({2, 3})),
        Note(ASSUMED, ("No. 21 Opp21, O",), frozenset({21})))
    index = render_report(report, ["html"])["index.html"]
    assert "<li>No. 2 Opp2, O</li>\n<li>No. 3 Opp3, O</li>" in index


def test_each_player_page_shows_only_its_own_notes_and_the_events() -> None:
    pages = render_report(build_report(marathon()), ["html"])
    own = {1: "K 40 → 35", 2: "players 2 and 3 disagree", 3: "players 2 and 3 disagree",
           21: ASSUMED}
    for no in (1, 2, 3, 4, 21):
        notes = notes_of(pages[f"player-{no}.html"])
        assert EVENT_WARNING in notes and "e.g. player 3" in notes  # the event's, everywhere
        assert "No. " not in notes  # no list of other players
        for other, text in own.items():
            assert (text in notes) == (other == no or text == own.get(no)), (no, text)


def test_focus_keeps_only_the_focus_players_notes() -> None:
    report = build_report(marathon(), focus=21)
    assert [n.text for n in report.notes] == [f"{EVENT_WARNING}.", f"{AGGREGATE}.", ASSUMED]
    assert "K 40" not in render_text(report)


def test_the_option_is_for_the_terminal_only() -> None:
    report = build_report(marathon())
    assert f"note: {ASSUMED}{K_HINT}" in terminal_notes(report)
    assert "  No. 21 Opp21, O" in terminal_notes(report)
    for name, text in render_report(report).items():
        assert not re.search(r"(?<![\w-])--[a-z]", text), name


@pytest.mark.parametrize(("warning", "players"), [
    (SourceWarning("points-differ", "player 12 (Doe, Jo): printed points 3, the rounds sum to 2.5",
                   (12,)), [12]),
    (SourceWarning("asymmetric-pairing", "round 3: player 5 has opponent 7, whose opponent is 9",
                   (5, 7), 3), [5, 7]),
    (SourceWarning("rounds-not-shown", AGGREGATE), []),  # names player 3, is about the event
    (SourceWarning("pages-disagree", "player 99, round 1: pages disagree", (99,), 1), []),
    (SourceWarning("pages-disagree", "the words say nothing of it", (3, 99)), [3]),
])
def test_the_players_a_source_warning_concerns_are_its_own(warning: SourceWarning,
                                                         players: list[int]) -> None:
    """The report reads a warning's players, never its words; a player the tournament does not
    have (99) is left out, and a warning about nobody in it is about the event."""
    people = tuple(Player(start_no=n, name=f"P{n}", rating=1500) for n in (3, 5, 7, 9, 12))
    t = Tournament(info=TournamentInfo(name="W", start_date=date(2026, 3, 1)), players=people,
                   results=(), warnings=(warning,))
    report = build_report(t)
    assert sorted(n.start_no for n in report.player_notes) == players
    assert (Note(warning.message) in report.notes) == (not players)


def tur(national: dict[int, int | None]) -> Tournament:
    """Three players, two rounds of player 1's games (a win and a draw)."""
    players = tuple(Player(start_no=n, name=f"Oyuncu{n}", rating=1700, national_rating=r)
                    for n, r in national.items())
    results = []
    for rd, (opp, pts) in enumerate([(2, 1.0), (3, 0.5)], start=1):
        results += [RoundResult(start_no=1, round=rd, status=Status.PLAYED, opponent_no=opp,
                                colour=Colour.WHITE, points=pts),
                    RoundResult(start_no=opp, round=rd, status=Status.PLAYED, opponent_no=1,
                                colour=Colour.BLACK, points=1.0 - pts)]
    info = TournamentInfo(name="Açık", start_date=date(2026, 3, 1), federation="TUR",
                          rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=players, results=tuple(results))


NO_UKD = ("no player has a national rating (UKD) in the source: every player is without UKD "
          "and no game is rated")


def test_ukd_without_national_ratings_warns_on_every_page() -> None:
    report = build_report(tur({1: None, 2: None, 3: None}), system="ukd")
    assert Note(NO_UKD) in report.notes
    for name, text in render_report(report, ["html"]).items():
        assert NO_UKD in notes_of(text), name
    assert f"note: {NO_UKD}" in render_text(report)
    assert NO_UKD not in str(build_report(tur({1: 1680, 2: None, 3: None}), system="ukd").notes)


def test_ukd_without_national_ratings_warns_in_the_terminal(run_cli, fixtures_dir) -> None:
    res = run_cli("report", str(fixtures_dir / "sample_open.trf"), "--system", "ukd")
    assert res.code == 0 and f"note: {NO_UKD}" in res.stdout


def test_ukd_k_of_games_against_opponents_without_ukd_is_explained() -> None:
    # The header's K is the player's (20 for a UKD of 1680); games against opponents without
    # UKD are rated at K 6: the player's own note says which rounds and why.
    report = build_report(tur({1: 1680, 2: None, 3: None}), system="ukd")
    pr = report.rating.player(1)
    assert pr is not None and pr.k == 20 and {ln.k for ln in pr.rounds} == {6}
    (note,) = report.player_notes
    assert note.sentence == ("opponent without UKD: estimate (mode fixed: E 0.50, K 6): "
                             "rounds 1, 2 at K 6 (the player's K is 20)")
    pages = render_report(report, ["html"])
    assert "rounds 1, 2 at K 6 (the player&#39;s K is 20)" in pages["player-1.html"]
    assert "at K 6" not in pages["player-2.html"]
    # With every opponent's UKD known, the rows use the player's K and nothing is said.
    agreed = build_report(tur({1: 1680, 2: 1650, 3: 1720}), system="ukd")
    assert {ln.k for ln in agreed.rating.player(1).rounds} == {20} and agreed.player_notes == ()


def test_a_card_k_per_game_is_explained() -> None:
    t = tur({1: 1680, 2: None, 3: None})
    results = tuple(replace(r, k=40 if r.round == 2 else 20) if r.start_no == 1 else r
                    for r in t.results)
    report = build_report(replace(t, results=results))
    pr = report.rating.player(1)
    assert pr is not None and pr.k in (20, 40)  # the card's K: the one most games use
    other = next(ln for ln in pr.rounds if ln.k != pr.k)
    assert [n.sentence for n in report.player_notes if n.start_no == 1] == [
        f"the source gives another K for some games: round {other.round} at K {other.k} "
        f"(the player's K is {pr.k})"]


def test_turkish_card_k_agrees_in_header_and_rows(fixtures_dir) -> None:
    # The card gives each opponent's UKD, so no game falls back on UKD's K 6 for opponents
    # without one: the header's K is the K of every row.
    from importer.sources import load

    report = build_report(load(fixtures_dir / "chess-results" / "art9_player_card_tr.html"),
                          system="ukd")
    pr = report.rating.player(6)
    assert pr is not None and pr.k == 20 and {ln.k for ln in pr.rounds if ln.rated} == {20}
    assert [n for n in report.player_notes if n.start_no == 6] == []


def test_every_note_of_a_report_and_of_a_month_ends_with_a_full_stop(fixtures_dir):
    """One place (rating.notes.full_stop) makes each note a sentence: the report's notes of
    every own chess-results page (but a note heading the players it lists), in the terminal
    too, and a month's notes."""
    import importer
    from rating.notes import Note as MonthNote

    seen = 0
    for page in sorted((fixtures_dir / "chess-results").glob("*.html")):
        try:
            report = build_report(importer.load(page))
        except Exception:  # pages that are refused have no notes to check
            continue
        for n in report.notes:  # a note with items is their heading ('…:' on a page)
            seen += 1
            assert n.text.endswith(".") or n.items, (page.name, n.text)
        assert all(line.endswith(".") for n, line in zip(report.notes, (
            ln for ln in terminal_notes(report) if ln.startswith("note: ")), strict=False)
                   if not n.items), page.name
    assert seen > 20
    assert MonthNote("rated as standard") == "rated as standard."
