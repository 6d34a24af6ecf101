"""``fiderate period`` end to end on fixtures/period/ (the README's worked example)."""

from __future__ import annotations

import csv
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

EVENTS = ("elite_nov2025.trf", "halloween_weekender.trf", "newcomers_nov2025.trf",
          "late_november.trf")
LIST = "players_list_foa_nov25.txt"


@pytest.fixture
def period_dir(fixtures_dir: Path) -> Path:
    return fixtures_dir / "period"


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def run_period(run_cli, period_dir: Path, tmp_path: Path, *extra: str, out: str = "out"):
    return run_cli("period", *(str(period_dir / e) for e in EVENTS), "--period", "2025-12",
                   "--ratings-list", str(period_dir / LIST), "--store", str(tmp_path / "reg.sqlite"),
                   "--out", str(tmp_path / out), *extra)


# The README's table: fide_id → (old, k, games, change, rounded, new, status).
EXPECTED = {
    "99200001": ("2813", "10", "5", "-2.50", "-3", "2810", "rated"),  # 2650+: no cap (R24 8.3.1)
    "99200002": ("1787", "20", "1", "-1.60", "-2", "1785", "rated"),  # sees 2813 as 2187*
    "99200005": ("2400", "10", "1", "4.20", "4", "2404", "rated"),  # sees 2813 as 2800*
    "99200006": ("2505", "10", "1", "-1.40", "-1", "2504", "rated"),
    "99200007": ("2400", "10", "3", "2.70", "3", "2403", "rated"),  # October 2395 used, base 2400
    "99200008": ("2310", "20", "3", "-5.40", "-5", "2305", "rated"),
    "99200011": ("1850", "", "0", "0.00", "0", "1850", "rated"),  # played only unrated players
    "99200016": ("1800", "20", "2", "-3.20", "-3", "1797", "rated"),
    "99200017": ("2250", "20", "2", "3.20", "3", "2253", "rated"),  # per tournament: 2 + 2 = 4
    "99200020": ("", "", "5", "", "", "1922", "newly_rated"),  # 3/5 against 9507
    "99200021": ("", "", "0", "", "", "", "unrated"),  # 0/5 in the first event: disregarded
}


def test_worked_example(run_cli, period_dir, tmp_path):
    res = run_period(run_cli, period_dir, tmp_path, "--reports")
    assert res.code == 0, res.stderr
    assert "period 2025-12: 4 tournaments, 26 rated games; 1 newly rated, 17 rated, 1 unrated" in res.stdout
    assert "late_november: the source gives no time control; rated as standard" in res.stderr
    players = {r["fide_id"]: r for r in read_csv(tmp_path / "out" / "period_players.csv")}
    assert list(next(iter(players.values()))) == [
        "fide_id", "name", "list", "old_rating", "k", "games", "change", "rounded_change",
        "new_rating", "status", "score", "federation", "matched_by", "rating_from"]
    assert len(players) == 19
    # a first rating shows the games and score it is built from
    assert (players["99200020"]["games"], players["99200020"]["score"]) == ("5", "3.00")
    assert {(r["matched_by"], r["rating_from"]) for r in players.values()
            if r["old_rating"]} == {("fide_id", "list")}
    for fid, want in EXPECTED.items():
        r = players[fid]
        got = (r["old_rating"], r["k"], r["games"], r["change"], r["rounded_change"],
               r["new_rating"], r["status"])
        assert got == want, fid
    games = read_csv(tmp_path / "out" / "period_games.csv")
    assert len(games) == 26
    egan = next(g for g in games if g["fide_id"] == "99200005")
    assert (egan["opponent_rating"], egan["capped"], egan["expected"], egan["change"]) == (
        "2800", "true", "0.08", "4.20")
    garr = [g for g in games if g["fide_id"] == "99200007"]
    assert {g["own_rating"] for g in garr} == {"2395"}
    page = (tmp_path / "out" / "period.html").read_text(encoding="utf-8")
    calculations = sorted((tmp_path / "out" / "period-players").glob("*.html"))
    assert len(calculations) == 19  # one page per player and list: tests/reports/test_period_page
    assert all(f'href="period-players/{c.name}"' in page for c in calculations)
    manifest = (tmp_path / "out" / ".fiderate").read_text(encoding="utf-8").splitlines()
    assert "period-players/99200001-standard.html" in manifest
    assert (tmp_path / "out" / "elite_nov2025" / "index.html").is_file()  # with --reports
    alone = run_period(run_cli, period_dir, tmp_path, "--replace", out="alone")
    assert alone.code == 0, alone.stderr
    assert not (tmp_path / "alone" / "elite_nov2025").exists()  # the month's own files only
    assert "elite_nov2025/index.html" not in (tmp_path / "alone" / "period.html").read_text(
        encoding="utf-8")
    assert (tmp_path / "alone" / "period_players.csv").read_bytes() == (
        tmp_path / "out" / "period_players.csv").read_bytes()


def test_register_is_written_idempotently_and_older_periods_are_refused(run_cli, period_dir, tmp_path):
    assert run_period(run_cli, period_dir, tmp_path).code == 0
    db = tmp_path / "reg.sqlite"

    def dump() -> dict[str, list]:
        con = sqlite3.connect(db)
        try:
            return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                    for t in ("players", "lists", "games", "pool", "tournaments", "periods")}
        finally:
            con.close()

    first = dump()
    assert first["periods"] == [("2025-12",)]
    assert ("2025-12", "standard", "99200020", 1922) in {r[:4] for r in first["lists"]}
    assert run_period(run_cli, period_dir, tmp_path).code == 0
    assert dump() == first
    jan_args = ("period", str(period_dir / EVENTS[0]), "--period", "2026-01", "--store", str(db),
                "--out", str(tmp_path / "jan"), "--assign", f"{EVENTS[0]}=2026-01")
    twice = run_cli(*jan_args)  # December rated this event: not again without --rerate
    assert twice.code == 2 and twice.stderr.count("\n") == 1, twice.stderr
    assert "already rated in 2025-12" in twice.stderr and "--rerate" in twice.stderr
    assert dump() == first and not (tmp_path / "jan").exists()
    later = run_cli(*jan_args, "--rerate")
    assert later.code == 0, later.stderr
    assert "2025-12 counted it and are now stale" in later.stderr
    moved = dump()
    assert [r[:2] for r in moved["tournaments"] if r[1] == "elite_nov2025"] == [
        ("2026-01", "elite_nov2025")]
    # January's base is December's new rating (from the register, no list given).
    jan = {r["fide_id"]: r for r in read_csv(tmp_path / "jan" / "period_players.csv")}
    assert jan["99200001"]["old_rating"] == "2810"
    refused = run_period(run_cli, period_dir, tmp_path, out="again")
    assert refused.code == 2
    assert refused.stderr.startswith("fiderate: error:") and "--replace" in refused.stderr
    assert refused.stderr.count("\n") == 1
    assert not (tmp_path / "again").exists()
    assert run_period(run_cli, period_dir, tmp_path, "--replace", "--rerate", out="again").code == 0


def test_assign_list_and_correction_options(run_cli, period_dir, tmp_path):
    res = run_period(run_cli, period_dir, tmp_path, "--assign", "late_november.trf=2026-01",
                     "--correction", "99200001=2812", "--list", "standard", "--no-html")
    assert res.code == 0, res.stderr
    assert "late_november.trf: assigned to 2026-01; not rated in 2025-12" in res.stderr
    players = {r["fide_id"]: r for r in read_csv(tmp_path / "out" / "period_players.csv")}
    assert players["99200017"]["games"] == "1"
    assert (players["99200001"]["old_rating"], players["99200001"]["new_rating"]) == ("2812", "2809")
    assert not (tmp_path / "out" / "period.html").exists()
    rapid = run_period(run_cli, period_dir, tmp_path, "--list", "rapid", "-q", out="rapid")
    # a run that rates nothing writes and stores nothing
    assert rapid.code == 2 and "nothing to rate in 2025-12" in rapid.stderr
    assert not (tmp_path / "rapid").exists()


def test_corrections_from_a_csv(run_cli, period_dir, tmp_path):
    corr = tmp_path / "corr.csv"
    corr.write_text("fide_id,rating\n99200007,2401\n", encoding="utf-8")
    assert run_period(run_cli, period_dir, tmp_path, "--correction", str(corr)).code == 0
    players = {r["fide_id"]: r for r in read_csv(tmp_path / "out" / "period_players.csv")}
    assert players["99200007"]["new_rating"] == "2404"
    corr.write_text("99200007,high\n", encoding="utf-8")
    bad = run_period(run_cli, period_dir, tmp_path, "--correction", str(corr), out="bad")
    assert bad.code == 2 and "corr.csv:1" in bad.stderr


@pytest.mark.parametrize("args", [("--period", "2025-13"), ("--period", "Dec 2025"),
                                  ("--period", "2025-12", "--assign", "x.trf")])
def test_bad_options_are_one_line_errors(run_cli, period_dir, tmp_path, args):
    res = run_cli("period", str(period_dir / EVENTS[0]), *args, "--store", str(tmp_path / "r.sqlite"),
                  "--out", str(tmp_path / "o"))
    assert res.code == 2
    assert not (tmp_path / "o").exists()


def test_help_does_not_import_the_engine():
    code = ("import sys, reports.cli; "
            "print(sorted(m for m in ('pandas', 'numpy', 'rating.period.engine', 'sqlite3') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("args", [("--period", "0000-01"), ("--period", "9999-12"),
                                  ("--period", "2025-12", "--assign", "x.trf=0000-01"),
                                  ("--period", "2025-13")])
def test_a_month_must_be_a_real_month_not_after_next_month(run_cli, period_dir, tmp_path, args):
    res = run_cli("period", str(period_dir / "elite_nov2025.trf"), *args, "--store",
                  str(tmp_path / "r.sqlite"), "--out", str(tmp_path / "out"))
    assert res.code == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "r.sqlite").exists()


def test_run_period_is_the_library_call(period_dir):
    from datetime import date

    from importer.sources import load
    from rating.errors import RatingError
    from rating.period.run import PeriodSource, run_period

    sources = [PeriodSource(tournament=load(p), source=p.name) for p in sorted(period_dir.glob("*.trf"))]
    result = run_period(sources, period=date(2025, 12, 1), today=date(2025, 12, 5))
    assert len(result.tournaments) == 4 and len(result.games) == 26
    with pytest.raises(RatingError, match="after next month"):
        run_period(sources, period=date(2026, 2, 1), today=date(2025, 12, 5))


def test_an_unfinished_event_is_rated_with_a_note_and_replaced_by_its_final_results(
        run_cli, period_dir, tmp_path):
    """An event whose last round still has a game without a result: rated with a note (the
    command line and period.html name the event and count the games), stored as incomplete,
    and its final file given next month replaces that rating without --rerate; a complete
    event still needs --rerate."""
    db, unfinished = tmp_path / "reg.sqlite", period_dir / "unfinished"
    live = run_cli("period", str(period_dir / EVENTS[0]), str(unfinished / "late_november_live.trf"),
                   "--period", "2025-12", "--ratings-list", str(period_dir / LIST),
                   "--store", str(db), "--out", str(tmp_path / "dec"))
    assert live.code == 0, live.stderr
    said = ("Late November Rapidplay Open (late_november_live) is not finished: 1 game of round 2 "
            "has no result yet")
    assert (live.stdout + live.stderr).count(said) == 1
    page = (tmp_path / "dec" / "period.html").read_text("utf-8")
    assert page.count(said) == 1 and "--" not in page.split(said)[1][:200]
    con = sqlite3.connect(db)
    try:
        stored = dict(con.execute("SELECT key, pending FROM tournaments").fetchall())
    finally:
        con.close()
    assert stored == {"elite_nov2025": 0, "late_november_live": 1}
    final = run_cli("period", str(unfinished / "late_november_final.trf"), "--period", "2026-01",
                    "--store", str(db), "--out", str(tmp_path / "jan"))
    assert final.code == 0, final.stderr
    assert "rated in 2025-12 while 1 game had no result; these results replace that rating" in (
        final.stdout + final.stderr)
    jan = {r["fide_id"]: r for r in read_csv(tmp_path / "jan" / "period_players.csv")}
    assert jan["99200017"]["games"] == "2"  # both rounds now
    again = run_cli("period", str(unfinished / "late_november_final.trf"), "--period", "2026-02",
                    "--store", str(db), "--out", str(tmp_path / "feb"))
    assert again.code == 2 and "already rated in 2026-01" in again.stderr and "--rerate" in again.stderr


def test_worker_processes_write_the_same_pages(period_dir, tmp_path, monkeypatch):
    """A federation's month has its players' pages written by worker processes too: the same
    files, byte for byte, as one process writes, listed in the same order."""
    import importer
    from importer.formats.fidelist import read_fide_list
    from rating import PeriodSource, run_period
    from reports.period import pages

    fide_list = read_fide_list(period_dir / LIST)
    result = run_period([PeriodSource(tournament=importer.load(period_dir / e), source=e)
                         for e in EVENTS], period=date(2025, 12, 1), ratings_list=fide_list,
                        today=date(2025, 12, 5))
    alone = pages.write_period_files(result, tmp_path / "alone", ratings_list=fide_list)
    monkeypatch.setattr(pages, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(pages.os, "sched_getaffinity", lambda _pid: {0, 1, 2}, raising=False)
    shared = pages.write_period_files(result, tmp_path / "shared", ratings_list=fide_list)
    assert [p.relative_to(tmp_path / "alone") for p in alone] == [
        p.relative_to(tmp_path / "shared") for p in shared]
    assert len(alone) > 10
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(alone, shared, strict=True))
    assert sorted(p.relative_to(tmp_path / "shared") for p in (tmp_path / "shared").rglob("*")
                  if p.is_file()) == sorted(p.relative_to(tmp_path / "shared") for p in shared)
