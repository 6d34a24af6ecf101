"""Each rating system owns its arithmetic: the new ratings of the scenarios come from the
system's own rule (UKD set to truncate gives 1528 where FIDE's rounding would say 1529), and
the K given to a system is the K it uses."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal

from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.systems.base import EloSystem
from rating.systems.ukd import Rounding, UkdSystem
from rating.tournament import KSource, rate_tournament
from reports.render.json_report import report_json
from reports.render.terminal import render_rounds
from reports.report import build_report, render_report

TRUNCATE = UkdSystem(rounding=Rounding.TRUNCATE)


def live_event() -> Tournament:
    """UKD 1500 (K 25) has beaten 1600 (E .36, +16.00); round 2 against 1504 (E .49) is
    paired: a win would make +28.75, a draw +16.25, a loss +3.75 (spec ukd.md 6.1).  The
    FIDE ratings are the same numbers, for Elo."""
    players = tuple(Player(start_no=no, name=name, rating=r, national_rating=r)
                    for no, name, r in ((1, "Truncated, Tia", 1500), (2, "Higher, Hal", 1600),
                                        (3, "Level, Lev", 1504)))
    rows = [(1, 1, 2, Status.PLAYED, Decimal(1)), (2, 1, 1, Status.PLAYED, Decimal(0)),
            (1, 2, 3, Status.PENDING, None), (3, 2, 1, Status.PENDING, None)]
    results = tuple(RoundResult(start_no=no, round=rnd, status=status, opponent_no=opp,
                                colour=Colour.WHITE if no < opp else Colour.BLACK, points=pts)
                    for no, rnd, opp, status, pts in rows)
    info = TournamentInfo(name="Live", start_date=date(2026, 10, 2), rounds=3,
                          rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=players, results=results)


def test_a_scenario_carries_the_new_ratings_of_its_system():
    pr = rate_tournament(live_event(), TRUNCATE).player(1)
    (s,) = pr.scenarios
    assert (s.total_if_win, s.total_if_draw, s.total_if_loss) == (
        Decimal("28.75"), Decimal("16.25"), Decimal("3.75"))
    assert (s.new_if_win, s.new_if_draw, s.new_if_loss) == (1528, 1516, 1503)  # truncated
    half_away = rate_tournament(live_event(), UkdSystem()).player(1).scenarios[0]
    assert (half_away.new_if_win, half_away.new_if_draw, half_away.new_if_loss) == (
        1529, 1516, 1504)


def test_the_reports_show_the_systems_new_ratings_not_fide_rounding():
    report = build_report(live_event(), system=TRUNCATE)
    files = render_report(report, ["csv", "html"])
    (row,) = [r for r in csv.DictReader(io.StringIO(files["scenarios.csv"]))
              if r["start_no"] == "1"]
    assert [row[f"new_rating_if_{x}"] for x in ("win", "draw", "loss")] == [
        "1528", "1516", "1503"]
    (scenario,) = next(p for p in report_json(report)["players"]
                       if p["start_no"] == 1)["scenarios"]
    assert [scenario[f"new_rating_if_{x}"] for x in ("win", "draw", "loss")] == [
        1528, 1516, 1503]
    page = files["player-1.html"]
    box = page[page.index('class="box scenario"'):]
    assert re.findall(r"<strong>(\d+)</strong>", box)[:3] == ["1528", "1516", "1503"]
    index = files["index.html"]  # the live round's Win, Draw and Loss cells
    assert ('title="a win: new rating 1528"' in index and 'title="a loss: new rating 1503"'
            in index and "1529" not in index)
    assert "win +12.75 → 1528" in render_rounds(report, 1)


def test_elo_uses_the_k_given_to_it():
    t = live_event()
    for k in (40, 10):
        pr = rate_tournament(t, EloSystem(default_k=k)).player(1)
        assert (pr.k, pr.k_source) == (k, KSource.DEFAULT)
        assert pr.scenarios[0].k == k
    # the caller's default K is for systems without one of their own
    assert rate_tournament(t, EloSystem(default_k=40), k_default=10).player(1).k == 40
    assert rate_tournament(t, "elo", k_default=32).player(1).k == 32


def test_the_note_names_the_k_the_system_assumed():
    report = build_report(live_event(), system=EloSystem(default_k=40), k_default=20)
    assert report.rating.default_k == 40
    assert report.k_note.startswith("K 40 assumed")
    assert build_report(live_event()).k_note.startswith("K 20 assumed")
