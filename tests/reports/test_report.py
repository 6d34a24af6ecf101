"""reports/report.py and reports/render/html.py: the CSV contract, the HTML pages, the golden CSVs
(the pages' figures are read from their tables in test_report_tables.py).

Regenerate the golden files deliberately with ``FIDERATE_UPDATE_GOLDEN=1 pytest
tests/reports/test_report.py tests/reports/test_report_tables.py`` and read the diff.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

import importer
from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from reports.errors import ReportError
from reports.render.columns import PLAYER_COLUMNS, ROUND_COLUMNS, SCENARIO_COLUMNS
from reports.render.view import Note, ranks, state
from reports.report import build_report, render_report, resolve_player, write_report

GOLDEN = Path(__file__).parents[1] / "golden" / "report_small"
GOLDEN_UKD = Path(__file__).parents[1] / "golden" / "report_ukd"
UPDATE = os.environ.get("FIDERATE_UPDATE_GOLDEN") == "1"
CSV_FILES = ("rating_players.csv", "rating_rounds.csv", "scenarios.csv", "rating_tournament.csv",
             "norms.csv")
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(1)</script>"


def small() -> Tournament:
    """Six players, three rounds played and round 4 paired; hostile names; every status."""
    players = (
        Player(start_no=1, name="Alpha, Anna", title="IM", federation="ENG", fide_id="1001",
               rating=2405, birth_year=1990),
        Player(start_no=2, name=IMG, federation="SCO", rating=2210, birth_year=1985),
        Player(start_no=3, name=SCRIPT, rating=1990, birth_year=2011),
        Player(start_no=4, name="=HYPERLINK(\"http://x\")", rating=1850, birth_year=1970),
        Player(start_no=5, name="Newcomer, Nia", birth_year=1999),
        Player(start_no=6, name="Default, Dan", rating=2000),
    )
    rows = {
        1: [(2, 1, Status.PLAYED), (3, 0.5, Status.PLAYED), (6, 1, Status.FORFEIT_WIN),
            (4, None, Status.PENDING)],
        2: [(1, 0, Status.PLAYED), (5, 1, Status.PLAYED), (None, 1, Status.BYE),
            (6, None, Status.PENDING)],
        3: [(4, 1, Status.PLAYED), (1, 0.5, Status.PLAYED), (5, 0, Status.UNPLAYED),
            (5, None, Status.PENDING)],
        4: [(3, 0, Status.PLAYED), (6, 0.5, Status.PLAYED), (None, 0.5, Status.HALF_BYE),
            (1, None, Status.PENDING)],
        5: [(6, 1, Status.PLAYED), (2, 0, Status.PLAYED), (3, 1, Status.UNPLAYED),
            (3, None, Status.PENDING)],
        6: [(5, 0, Status.PLAYED), (4, 0.5, Status.PLAYED), (1, 0, Status.FORFEIT_LOSS),
            (2, None, Status.PENDING)],
    }
    results = tuple(RoundResult(start_no=no, round=rnd, status=st, opponent_no=opp,
                                colour=Colour.WHITE if (no + rnd) % 2 else Colour.BLACK,
                                points=pts)
                    for no, games in rows.items() for rnd, (opp, pts, st) in enumerate(games, 1))
    info = TournamentInfo(name="Test <Open> & Co", start_date=date(2026, 10, 2),
                          end_date=date(2026, 10, 4), rounds=5, rating_list=RatingList.STANDARD,
                          federation="ENG")
    return Tournament(info=info, players=players, results=results)


TUR_INFO = TournamentInfo(name="TUR open", start_date=date(2026, 10, 2), federation="TUR",
                          rating_calculation="Uluslararası ELO ve Ulusal rating",
                          rating_list=RatingList.STANDARD)


def tur_small() -> Tournament:
    """small() as a Turkish event whose source names the national rating: UKD beside FIDE.
    National ratings: a valid one, none, one below 1000 and one above 3000 (not valid UKDs)."""
    t = small()
    national = {1: 1510, 2: None, 3: 900, 4: 1850, 5: 1400, 6: 3100}
    players = tuple(Player(start_no=p.start_no, name=p.name, title=p.title, rating=p.rating,
                           birth_year=p.birth_year, national_rating=national[p.start_no])
                    for p in t.players)
    return Tournament(info=TUR_INFO, players=players, results=t.results)


def read(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_contract_columns_and_values():
    files = render_report(build_report(small()), ["csv"])
    assert set(files) == set(CSV_FILES)
    players = read(files["rating_players.csv"])
    assert tuple(players[0]) == PLAYER_COLUMNS
    assert PLAYER_COLUMNS[:11] == ("start_no", "name", "fide_id", "rating", "k", "rated_games",
                                   "score", "expected", "change", "new_rating", "performance")
    by_no = {r["start_no"]: r for r in players}
    # 1: IM 2405 (K 10) beats 2210 (E .75) and draws 1990 (capped? no: D 415 → .92 cap 400).
    assert by_no["1"]["k"] == "10" and by_no["1"]["k_source"] == "category"
    assert by_no["1"]["change"] == "-1.70" and by_no["1"]["new_rating"] == "2403"
    assert by_no["1"]["points"] == "2.5" and by_no["1"]["score"] == "1.5"
    # 4: a formula-like name is neutralised; its change stays a plain number.
    assert by_no["4"]["name"] == "'=HYPERLINK(\"http://x\")"
    assert by_no["4"]["change"].startswith("-") and not by_no["4"]["change"].startswith("'")
    # 5: unrated, no change, no K.
    assert by_no["5"]["rating"] == "" and by_no["5"]["change"] == "" and by_no["5"]["k_source"] == ""
    assert by_no["5"]["new_rating"] == "" and by_no["5"]["k"] == ""
    rounds = read(files["rating_rounds.csv"])
    assert tuple(rounds[0]) == ROUND_COLUMNS
    r1 = [r for r in rounds if r["start_no"] == "1"]
    assert [r["rated"] for r in r1] == ["true", "true", "false", "false"]
    assert [r["reason"] for r in r1[2:]] == ["forfeit", "pending"]
    assert [r["cumulative_change"] for r in r1] == ["2.50", "-1.70", "-1.70", "-1.70"]
    assert r1[0]["opponent_name"] == IMG


def test_scenarios_csv_consistency():
    report = build_report(small())
    files = render_report(report, ["csv"])
    rows = read(files["scenarios.csv"])
    assert tuple(rows[0]) == SCENARIO_COLUMNS
    players = {r["start_no"]: r for r in read(files["rating_players.csv"])}
    assert {r["start_no"] for r in rows} == {"1", "2", "3", "4", "6"}  # 5 is unrated
    players = {r["start_no"]: r for r in read(files["rating_players.csv"])}
    # 3 plays the unrated 5: a row with its reason, no change, the totals as they stand
    (three,) = [r for r in rows if r["start_no"] == "3"]
    assert (three["rated"], three["reason"], three["opponent_rating"], three["k"]) == (
        "false", "opponent unrated", "", "")
    assert (three["win"], three["draw"], three["loss"], three["expected"]) == ("", "", "", "")
    assert {three[f"total_if_{x}"] for x in ("win", "draw", "loss")} == {players["3"]["change"]}
    assert {three[f"new_rating_if_{x}"] for x in ("win", "draw", "loss")} == {
        players["3"]["new_rating"]}
    rows = [r for r in rows if r["rated"] == "true"]
    assert {r["start_no"] for r in rows} == {"1", "2", "4", "6"} and all(
        r["reason"] == "" for r in rows)
    for r in rows:
        win, draw, loss = (Decimal(r[c]) for c in ("win", "draw", "loss"))
        assert win - loss == int(r["k"])
        assert draw - loss == win - draw
        total = Decimal(players[r["start_no"]]["change"])
        assert Decimal(r["total_if_win"]) == total + win
        assert Decimal(r["total_if_loss"]) == total + loss
        # the new ratings are the system's own figures, read, not recomputed here
        pr = report.rating.player(int(r["start_no"]))
        (s,) = [s for s in pr.scenarios if s.round == int(r["round"])]
        assert [int(r[f"new_rating_if_{x}"]) for x in ("win", "draw", "loss")] == [
            s.new_if_win, s.new_if_draw, s.new_if_loss]


def test_no_scenarios_file_when_nothing_is_pending():
    t = small()
    done = Tournament(info=t.info, players=t.players,
                      results=tuple(r for r in t.results if r.status is not Status.PENDING))
    assert "scenarios.csv" not in render_report(build_report(done), ["csv"])


@pytest.mark.parametrize(("tournament", "golden"), [(small, GOLDEN), (tur_small, GOLDEN_UKD)],
                         ids=["fide", "fide-and-ukd"])
def test_golden_csv_files(tmp_path, tournament, golden):
    """The CSVs byte for byte (quoting, neutralised formulas, column order, line ends), FIDE
    alone and with UKD beside it; the pages are read as tables in test_report_tables.py."""
    paths = write_report(tournament(), tmp_path / "out", focus=None, formats=("csv",))
    assert sorted(p.name for p in paths) == sorted(CSV_FILES)
    if UPDATE:
        golden.mkdir(parents=True, exist_ok=True)
        for p in paths:
            (golden / p.name).write_bytes(p.read_bytes())
    for p in paths:
        want = golden / p.name
        assert want.is_file(), f"missing golden {want.name}: run with FIDERATE_UPDATE_GOLDEN=1"
        assert p.read_bytes() == want.read_bytes(), f"{p.name} differs from its golden file"


def test_every_file_is_written(tmp_path):
    names = {p.name for p in write_report(small(), tmp_path / "out", focus=None)}
    assert names == {*CSV_FILES, "index.html", *(f"player-{i}.html" for i in range(1, 7))}


def test_html_escapes_untrusted_names_and_is_self_contained():
    files = render_report(build_report(small()), ["html"])
    index = files["index.html"]
    assert IMG not in index and SCRIPT not in index
    assert "&lt;img src=x onerror=alert(1)&gt;" in index
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "Test &lt;Open&gt; &amp; Co" in index
    for text in files.values():
        assert "http://" not in text.replace('HYPERLINK(&#34;http://x&#34;)', "")
        linked_out = re.sub(r'<a href="https://ratings\.fide\.com/profile/[0-9]+" rel="noopener">',
                            "", text)  # a link to follow, nothing the page loads
        assert "https://" not in linked_out and "<link" not in text and "src=" not in text.replace(
            "&lt;img src=x", "")
        assert text.count("<script>") <= 1
    page = files["player-1.html"]
    assert "<svg" in page and "polyline" in page and "Next round" in page


def test_html_is_deterministic():
    a = render_report(build_report(small()), ["html"])
    b = render_report(build_report(small()), ["html"])
    assert a == b


def test_focus_narrows_the_report():
    report = build_report(small(), focus="Alpha")
    files = render_report(report)
    assert set(files) == {*CSV_FILES, "index.html", "player-1.html"}
    assert [r["start_no"] for r in read(files["rating_players.csv"])] == ["1"]


@pytest.mark.parametrize(("query", "start_no"), [("3", 3), ("1001", 1), ("alpha, anna", 1),
                                                 ("newcomer", 5), (4, 4)])
def test_resolve_player(query, start_no):
    assert resolve_player(small(), query) == start_no


@pytest.mark.parametrize(("query", "message"), [
    ("99", "no player has this start number"),
    ("Newcommer, Nia", "close matches: Newcomer, Nia"),
    ("a", "matches several players"),
    ("", "empty"),
])
def test_resolve_player_errors(query, message):
    with pytest.raises(ReportError, match=message):
        resolve_player(small(), query)


def test_bad_input_is_a_report_error_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ReportError, match="unknown format"):
        write_report(small(), out, formats=("pdf",))
    with pytest.raises(ReportError, match="unknown rating system"):
        write_report(small(), out, system="glicko")
    with pytest.raises(ReportError, match="no players"):
        write_report(Tournament(info=TournamentInfo(name="x")), out)
    assert not out.exists()


def test_no_half_written_output(tmp_path, monkeypatch):
    import reports.render.html

    out = tmp_path / "out"
    write_report(small(), out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def boom(report):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(reports.render.html, "render_pages", boom)
    with pytest.raises(RuntimeError):
        write_report(small(), out, k_default=40)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_ratings_list_gives_k(realdata):
    fide_list = realdata / "fide-list" / "players_list_foa_excerpt.txt"
    t = small()
    listed = Player(start_no=6, name="A La, Teng Hua", fide_id="8605360", rating=2000,
                    birth_year=1993)
    t = Tournament(info=t.info, players=(*t.players[:5], listed), results=t.results)
    report = build_report(t, ratings_list=fide_list)
    pr = report.rating.player(6)
    assert (pr.k, pr.k_source.value) == (40, "list")  # the category alone would say 20


def test_start_date_missing_uses_on():
    t = small()
    t = Tournament(info=TournamentInfo(name="No date"), players=t.players, results=t.results)
    report = build_report(t, on=date(2024, 6, 1))
    assert report.rating.rules.startswith("FIDE 2024-03")
    assert any("gives no event date" in n.text for n in report.notes)
    assert any("rated as standard" in n.text for n in report.notes)


UKD_PLAYER_COLUMNS = ("national_rating", "ukd_k", "ukd_rated_games", "ukd_score",
                      "ukd_expected", "ukd_change", "ukd_new_rating")
UKD_ROUND_COLUMNS = ("opponent_national_rating", "ukd_rated", "ukd_reason", "ukd_expected",
                     "ukd_change", "ukd_cumulative_change", "ukd_k")


def test_ukd_columns_appear_for_turkish_national_rating():
    t = small()
    players = tuple(Player(start_no=p.start_no, name=f"P{p.start_no}", rating=p.rating,
                           national_rating=1500 + 10 * p.start_no) for p in t.players)
    report = build_report(Tournament(info=TUR_INFO, players=players, results=t.results))
    assert [(b.system.name, b.rating.system) for b in report.beside] == [("ukd", "ukd")]
    files = render_report(report, ["csv"])
    players_csv = read(files["rating_players.csv"])
    assert tuple(players_csv[0]) == PLAYER_COLUMNS + UKD_PLAYER_COLUMNS
    row = players_csv[0]
    assert row["national_rating"] == "1510" and row["ukd_k"] == "25"
    assert (row["ukd_score"], row["ukd_expected"], row["ukd_change"], row["ukd_new_rating"]) == (
        "1.5", "0.96", "13.50", "1524")
    rounds = read(files["rating_rounds.csv"])
    assert tuple(rounds[0]) == ROUND_COLUMNS + UKD_ROUND_COLUMNS
    assert [(r["ukd_rated"], r["ukd_change"], r["ukd_cumulative_change"], r["ukd_k"])
            for r in rounds[:2]] == [("true", "12.75", "12.75", "25"), ("true", "0.75", "13.50", "25")]
    index = render_report(report, ["html"])["index.html"]
    assert ">UKD change<" in index and ">1510<" in index
    assert "ukd_change" not in read(render_report(build_report(small()), ["csv"])
                                    ["rating_players.csv"])[0]


def test_no_ukd_beside_ukd_or_off_the_standard_list():
    report = build_report(tur_small(), system="ukd")
    assert report.rating.system == "ukd" and report.beside == ()
    rapid = Tournament(info=replace(TUR_INFO, rating_list=RatingList.RAPID),
                       players=tur_small().players, results=tur_small().results)
    assert build_report(rapid).beside == ()
    asked = build_report(rapid, system="ukd")
    assert Note("UKD is the standard-time rating: this event was rated as asked, but TSF may "
                "not rate it") in asked.notes


def test_default_k_warning_lists_the_players_one_per_line():
    notes = build_report(small(), k_default=15).notes
    assert [n for n in notes if "assumed" in n.text] == [
        Note("K 15 assumed (no K published, listed or given by the category)",
             ("No. 6 Default, Dan",), frozenset({6}))]
    assert not [n for n in build_report(small(), focus=1).notes if "assumed" in n.text]


_STATUSES = list(Status)


@st.composite
def tournaments(draw):
    n = draw(st.integers(1, 8))
    names = draw(st.lists(st.text(min_size=1, max_size=12), min_size=n, max_size=n))
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(1000, 2900)), min_size=n,
                            max_size=n))
    players = tuple(Player(start_no=i + 1, name=name, rating=r,
                           k=draw(st.one_of(st.none(), st.sampled_from([10, 20, 40]))))
                    for i, (name, r) in enumerate(zip(names, ratings, strict=True)))
    results = []
    for p in players:
        for rnd in range(1, draw(st.integers(0, 5)) + 1):
            status = draw(st.sampled_from(_STATUSES))
            opp = draw(st.one_of(st.none(), st.integers(1, n + 1)))
            pts = None if status is Status.PENDING else draw(st.sampled_from([0.0, 0.5, 1.0]))
            results.append(RoundResult(start_no=p.start_no, round=rnd, status=status,
                                       opponent_no=opp, points=pts,
                                       k=draw(st.one_of(st.none(), st.just(20)))))
    start = draw(st.sampled_from([date(2010, 5, 1), date(2023, 1, 1), date(2026, 1, 1)]))
    return Tournament(info=TournamentInfo(name=draw(st.text(max_size=20)), start_date=start),
                      players=players, results=tuple(results))


@settings(max_examples=25, deadline=None)
@given(t=tournaments())
def test_any_tournament_renders(t):
    files = render_report(build_report(t))
    assert len(read(files["rating_players.csv"])) == len(t.players)
    assert len(read(files["rating_rounds.csv"])) == len(t.results)
    for p in t.players:
        assert str(escape(p.name)) in files["index.html"]


def test_a_later_rating_list_is_flagged(realdata, tmp_path):
    later = tmp_path / "standard_nov26frl.txt"  # the November 2026 list, after the start
    later.write_bytes((realdata / "fide-list" / "players_list_foa_excerpt.txt").read_bytes())
    notes = build_report(small(), ratings_list=later).notes
    assert any("dated 2026-11-01, after the tournament's start (2026-10-02)" in n.text
               for n in notes)


def test_a_starting_list_is_called_so_and_ranks_no_one(fixtures_dir):
    """A starting list (no results, no points): the pages say so, and give no places, never
    everyone '1='."""
    t = importer.load(fixtures_dir / "chess-results" / "art0_startingrank_small.html")
    report = build_report(t)
    assert state(report).stage == "Starting list: no results yet"
    places, published = ranks(report)
    assert set(places.values()) == {""} and not published
