"""The tournament report's pages and CSVs show their workings: the rounded change, the live
status, the legend only for marks in use, first-rating workings, a reason for a next game
that will not be rated, and a script the page's policy allows by its hash."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import re
from dataclasses import replace
from datetime import date
from pathlib import Path

from importer.model import Status, Tournament
from rating.systems.fide import initial_rating
from rating.systems.fide_rules import rules_for
from reports.render.html import environment
from reports.render.terminal import render_rounds, render_text
from reports.render.view import initial_workings
from reports.report import build_report, render_report

R24 = rules_for(date(2026, 3, 1))


def _small() -> Tournament:
    spec = importlib.util.spec_from_file_location("_report_tests_html",
                                                  Path(__file__).with_name("test_report.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.small()


def _finished(t: Tournament) -> Tournament:
    return replace(t, results=tuple(r for r in t.results if r.status is not Status.PENDING))


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_rounded_change_column_is_new_minus_old():
    rows = _rows(render_report(build_report(_small()), ["csv"])["rating_players.csv"])
    for r in rows:
        if r["rating"]:
            assert int(r["rounded_change"]) == int(r["new_rating"]) - int(r["rating"])
        else:
            assert r["rounded_change"] == ""
    one = next(r for r in rows if r["start_no"] == "1")
    assert (one["change"], one["rounded_change"], one["new_rating"]) == ("-1.70", "-2", "2403")


def test_every_page_says_provisional_while_a_round_is_in_progress():
    live = render_report(build_report(_small()), ["html"])
    assert all("Provisional — round 4 in progress" in text for text in live.values())
    done = render_report(build_report(_finished(_small())), ["html"])
    assert not any("Provisional" in text or 'class="live"' in text for text in done.values())
    index = live["index.html"]
    assert ">Win</th>" in index and ">Loss</th>" in index
    assert ">Win</th>" not in done["index.html"]
    assert "Provisional — round 4 in progress: the changes count the finished games only" in (
        render_text(build_report(_small())))


def test_marks_are_explained_only_when_used():
    files = render_report(build_report(_small()), ["html"])
    # Default, Dan has no K known: starred and explained; player 1's round 2 is capped
    assert "* K assumed" in files["index.html"] and ">20*<" in files["index.html"]
    assert "* The rating difference counted only up to the cap" in files["player-1.html"]
    assert "… in Result: no result yet" in files["player-1.html"]
    assert "+ and − in Result" in files["player-1.html"]  # round 3 won by forfeit
    # player 2 has no capped game: no star, no footnote
    assert "* The rating difference" not in files["player-2.html"]
    known = replace(_small(), players=tuple(replace(p, birth_year=1980) if p.start_no == 6
                                            else p for p in _small().players))
    index = render_report(build_report(known), ["html"])["index.html"]
    assert "* K assumed" not in index and "or assumed (*)" not in index


def test_headers_have_tooltips_and_a_legend():
    index = render_report(build_report(_small()), ["html"])["index.html"]
    for word in ("No.", "K", "Pts.", "Perf."):
        assert re.search(rf'<abbr title="[^"]+">{re.escape(word)}</abbr>', index), word
    legend = index[index.index('id="legend"'):]
    for term in ("Change", "New", "Win, Draw, Loss", "K", "Pts.", "Score", "Expected", "Perf."):
        assert f"<dt>{term}</dt>" in legend, term


def test_the_script_is_allowed_by_its_hash_and_pages_have_landmarks():
    files = render_report(build_report(_small()), ["html"])
    index = files["index.html"]
    script = re.search(r"<script>(.*?)</script>", index, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in index
    assert "unsafe-inline'; img-src" not in index.split("script-src")[1][:80]
    assert environment().globals["script_src"] == f"'sha256-{digest}'"
    for text in files.values():
        assert '<main id="main"' in text and "<nav" in text and '<a class="skip"' in text
        assert "<caption" in text
        assert "--" not in text


def test_first_rating_workings_add_up():
    # R24: 5 opponents summing to 9507, 3 points: Ra (9507 + 3600) / 7, p (3 + 1) / 7 = .57
    i = initial_rating([1900, 1901, 1902, 1902, 1902], 300, R24)
    lines = dict(initial_workings(i))
    assert lines["Games counted"] == "5 games against rated opponents (5 needed)"
    assert lines["Average rating (Ra)"].startswith("(9507 + 2 × 1800) ÷ 7 = 1872.43")
    assert lines["Score (p)"] == "(3 + 1 for the 2 hypothetical draws) ÷ 7 = 0.57"
    assert lines["Ra + dp"] == "1922.43 → 1922"
    short = initial_rating([1800] * 3, 150, R24)
    assert not short.published and dict(initial_workings(short))["Games counted"] == (
        "3 of 5 games against rated opponents")
    # 5 wins against 2400: Ra (12000 + 3600) / 7 = 2228.57, p 6 / 7 = .86, dp +309
    capped = initial_rating([2400] * 5, 500, R24)
    assert (capped.rounded, capped.value, capped.at_maximum) == (2538, 2200, True)
    assert dict(initial_workings(capped))["Ra + dp"] == (
        "2537.57 → 2200 (the most a first rating can be)")


def test_first_rating_progress_on_the_pages():
    t = _small()
    files = render_report(build_report(t), ["html"])
    page = files["player-5.html"]  # Newcomer, Nia: unrated, two games against rated players
    assert "First rating: not yet" in page and "2 of 5 games against rated opponents" in page
    assert ">2 of 5<" in files["index.html"]
    assert "Rated games</dt><dd>none" in page


def test_a_next_game_against_an_unrated_opponent_has_its_reason():
    report = build_report(_small())
    page = render_report(report, ["html"])["player-3.html"]
    assert "opponent unrated: whatever the result, the change stays" in page
    text = render_rounds(report, 3)
    assert "Round 4 v Newcomer, Nia: not rated (opponent unrated)" in text
    one = render_rounds(report, 1)
    assert "Change -1.70 → -2 → new rating 2403" in one
    assert "win +0.80 → 2404, draw -4.20 → 2399, loss -9.20 → 2394" in one


def test_a_player_card_index_says_how_many_of_the_players_it_lists(realdata):
    """A player's card shows one player of nine: the index says so, not '9 players'."""
    import importer

    report = build_report(importer.load(realdata / "chess-results" / "ru_player_details_art9_2020.html"),
                          on=date(2020, 1, 5))
    index = render_report(report, ["html"])["index.html"]
    meta = re.search(r'<p class="meta">(.*?)</p>', index, re.DOTALL)
    assert meta is not None
    assert "1 of 9 players shown" in meta.group(1)
    assert len(report.shown) == 1 and len(report.tournament.players) == 9
