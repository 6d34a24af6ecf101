"""``fiderate list import|show`` and the FIDE lists in the register, end to end.

A month's list is stored once (idempotently, in one transaction); ``report`` and ``period``
then take the list in force from the register and give the same figures as with
``--ratings-list FILE``.
"""

from __future__ import annotations

import csv
import sqlite3
import sys
from datetime import date
from pathlib import Path

import pytest

from importer.formats.fidelist import read_fide_list
from rating.errors import RatingError
from rating.period.register import Register

CARLSEN = "1503014"


@pytest.fixture
def own(fixtures_dir: Path) -> Path:
    return fixtures_dir / "fide-list"


@pytest.fixture
def real(realdata: Path) -> Path:
    return realdata / "fide-list"


def dump(db: Path) -> dict[str, list[tuple[object, ...]]]:
    con = sqlite3.connect(db)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in ("list_months", "list_players", "lists", "periods")}
    finally:
        con.close()


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_import_then_show_across_months(run_cli, own: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    res = run_cli("list", "import", str(own / "foa_otit_overflow.txt"), "--store", str(db),
                  "--month", "2026-10")
    assert res.code == 0, res.stderr
    assert res.stdout.startswith("stored the 2026-10 FIDE list (standard, rapid, blitz): 3 players")
    # The month from the header's month token (NOV26) and the kind from the file name.
    res = run_cli("list", "import", str(own / "standard_rating_list_nov26.txt"), "--store", str(db))
    assert res.code == 0, res.stderr
    assert "stored the 2026-11 FIDE list (standard): 3 players" in res.stdout
    shown = run_cli("list", "show", "90000011", "90000044", "123", "--store", str(db))
    assert shown.code == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        "90000011 Testplayer, Alpha (NOR, GM, 1991)",
        "month    standard  games   K  rapid  games   K  blitz  games   K  flags",
        "2026-10      2701      9  10   2650      0  10   2688     14  10",
        "2026-11      2704      6  10      -      -   -      -      -   -",
        "",
        "90000044 Testplayer, Delta (UGA, 2003)",
        "month    standard  games  K  rapid  games  K  blitz  games  K  flags",
        "2026-11         -      -  -      -      -  -      -      -  -",
        "",
        "123: on no stored list"]


def test_importing_again_changes_nothing_and_a_kind_keeps_the_others(run_cli, own: Path,
                                                                    tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    args = ("--store", str(db), "--month", "2026-10")
    assert run_cli("list", "import", str(own / "foa_otit_overflow.txt"), *args).code == 0
    first = dump(db)
    assert run_cli("list", "import", str(own / "foa_otit_overflow.txt"), *args).code == 0
    assert dump(db) == first
    assert len(first["list_players"]) == 3 and len(first["list_months"]) == 3
    # The October rapid list replaces only October's rapid ratings.
    res = run_cli("list", "import", str(own / "rapid_rating_list_oct26.txt"), "--store", str(db),
                  "-q")
    assert res.code == 0, res.stderr
    with Register(db) as reg:
        assert [s.lists for s in reg.stored_lists()] == [("standard", "rapid", "blitz")]
        alpha = reg.list_entries(date(2026, 10, 1), ["90000011"])["90000011"]
        assert (alpha.std_rating, alpha.rpd_rating, alpha.rpd_games, alpha.blz_rating) == (
            2701, 2650, 7, 2688)
        beta = reg.list_entries(date(2026, 10, 1), ["90000022"])["90000022"]
        assert (beta.std_rating, beta.rpd_rating) == (2391, None)  # not on the rapid list
        assert set(reg.list_entries(date(2026, 10, 1), ["90000088", "90000099"])) == {
            "90000088", "90000099"}


def test_a_failed_import_leaves_the_register_as_it_was(run_cli, own: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    no_month = run_cli("list", "import", str(own / "foa_otit_overflow.txt"), "--store", str(db))
    assert no_month.code == 2
    assert no_month.stderr == (f"fiderate: error: {own / 'foa_otit_overflow.txt'}: neither its "
                               "name nor its header tells the list's month; give --month YYYY-MM\n")
    assert not db.exists()
    assert run_cli("list", "import", str(own / "foa_otit_overflow.txt"), "--store", str(db),
                   "--month", "2026-10").code == 0
    before = dump(db)
    bad = run_cli("list", "import", str(own / "xml_wrong_root.xml"), "--store", str(db),
                  "--month", "2026-11")
    assert bad.code == 2 and "XML root is <tournament>" in bad.stderr
    assert bad.stderr.count("\n") == 1
    assert dump(db) == before
    # A failure inside the transaction (here: after the rows went in) rolls everything back.
    fl = read_fide_list(own / "standard_rating_list_nov26.txt")

    def boom(done: int, total: int) -> None:
        raise RuntimeError("disk full")

    with Register(db) as reg, pytest.raises(RuntimeError):
        reg.import_list(fl, date(2026, 10, 1), on_progress=boom)
    assert dump(db) == before
    for bad in ("2026-13", "0000-05", "26-10"):
        month = run_cli("list", "import", str(own / "foa_otit_overflow.txt"), "--store", str(db),
                        "--month", bad)
        assert month.code == 2 and "expected a list month YYYY-MM" in month.stderr, bad
    year_zero = tmp_path / "players_list_0000-05.txt"  # not a month in the name: not taken
    year_zero.write_bytes((own / "foa_otit_overflow.txt").read_bytes())
    named = run_cli("list", "import", str(year_zero), "--store", str(db))
    assert named.code == 2 and "--month" in named.stderr and "Traceback" not in named.stderr


def test_show_needs_ids_and_a_register(run_cli, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    res = run_cli("list", "show", "12a", "--store", str(db))
    assert (res.code, res.stderr) == (2, "fiderate: error: '12a': expected a FIDE id (digits only)\n")
    res = run_cli("list", "show", "1", "--store", str(db))
    assert res.code == 2 and "no register yet" in res.stderr and not db.exists()
    Register(db).close()
    res = run_cli("list", "show", "1", "--store", str(db))
    assert res.code == 2 and "no FIDE list stored" in res.stderr


def test_real_excerpts_round_trip(run_cli, real: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    notes = []
    for name, month in (("players_list_foa_excerpt.txt", "2026-10"),
                        ("players_list_legacy_excerpt.txt", "2026-08"),
                        ("players_list_xml_excerpt.xml", "2026-09"),
                        ("players_list_old_2011_excerpt.txt", None)):
        extra = ("--month", month) if month else ()
        res = run_cli("list", "import", str(real / name), "--store", str(db), *extra)
        assert res.code == 0, res.stderr
        notes.append(res.stderr)
    assert notes[0].count("repeats line 7; the first line is used") == 2
    assert notes[1:] == ["", "", ""]
    with Register(db) as reg:
        months = [(f"{s.month:%Y-%m}", s.lists, s.players) for s in reg.stored_lists()]
        assert months == [("2011-03", ("standard",), 3),
                          ("2026-08", ("standard", "rapid", "blitz"), 4),
                          ("2026-09", ("standard", "rapid", "blitz"), 3),
                          ("2026-10", ("standard", "rapid", "blitz"), 8)]
        foa = read_fide_list(real / "players_list_foa_excerpt.txt")
        ids = {e.fide_id for e in foa}
        stored = reg.list_entries(date(2026, 10, 1), ids)
        assert len(ids) == 8 and stored == {i: foa.get(i) for i in ids}
        carlsen = reg.list_in_force(date(2026, 12, 1), [CARLSEN, "4158814"])
        assert carlsen is not None and carlsen.list_date == date(2026, 10, 1)
        assert carlsen.get(CARLSEN) == foa.get(CARLSEN)
        assert carlsen.get("4158814") is None  # only on the 2011 list
        old = reg.list_in_force(date(2012, 1, 1), ["4158814"])
        assert old is not None and old.get("4158814").std_rating == 2686  # type: ignore[union-attr]
        assert reg.list_in_force(date(2011, 2, 1), [CARLSEN]) is None
    shown = run_cli("list", "show", CARLSEN, "--store", str(db))
    assert shown.stdout.splitlines()[2:4] == [
        "2026-10      2823      0  10   2801     12  10   2860      0  10"]
    assert len(shown.stdout.splitlines()) == 3


def test_the_register_migrates_an_older_schema(tmp_path: Path) -> None:
    from rating.period.register import _MIGRATIONS, SCHEMA_VERSION

    db = tmp_path / "r.sqlite"
    con = sqlite3.connect(db)  # a register of schema 1, with a player without a FIDE id
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    con.execute("INSERT INTO schema_version VALUES (1)")
    for stmt in _MIGRATIONS[1]:
        con.execute(stmt)
    con.execute("INSERT INTO players VALUES ('mcshane luke j|ENG|', '', 'Mcshane Luke J', 'ENG', NULL)")
    con.execute("INSERT INTO periods VALUES ('2026-09')")
    con.execute("INSERT INTO lists VALUES ('2026-09', 'standard', 'mcshane luke j|ENG|', 2597, 10, "
                "9, NULL, 1, 'rated', 'computed')")
    con.commit()
    con.close()
    with Register(db) as reg:
        assert reg.table("schema_version") == [(SCHEMA_VERSION,)] and reg.stored_lists() == []
        # names are now compared by their sorted words: the key follows
        assert [r[0] for r in reg.table("players")] == ["j luke mcshane|ENG|"]
        assert [r[2] for r in reg.table("lists")] == ["j luke mcshane|ENG|"]
        assert reg.table("tournaments") == [] and reg.periods() == [date(2026, 9, 1)]
    with pytest.raises(RatingError, match="no register table"):
        Register(db).table("nope")


def test_period_with_the_stored_list_equals_period_with_the_file(run_cli, fixtures_dir: Path,
                                                                 tmp_path: Path) -> None:
    period = fixtures_dir / "period"
    events = [str(period / e) for e in ("elite_nov2025.trf", "halloween_weekender.trf",
                                        "newcomers_nov2025.trf", "late_november.trf")]
    listed = run_cli("period", *events, "--period", "2025-12", "--ratings-list",
                     str(period / "players_list_foa_nov25.txt"), "--store", str(tmp_path / "a.sqlite"),
                     "--out", str(tmp_path / "with_file"), "--no-html")
    assert listed.code == 0, listed.stderr
    db = tmp_path / "b.sqlite"
    assert run_cli("list", "import", str(period / "players_list_foa_nov25.txt"), "--store", str(db),
                   "--month", "2025-11").code == 0
    stored = run_cli("period", *events, "--period", "2025-12", "--store", str(db),
                     "--out", str(tmp_path / "with_register"), "--no-html")
    assert stored.code == 0, stored.stderr
    assert "ratings and K from the FIDE list of 2025-11 in the register" in stored.stderr
    for name in ("period_players.csv", "period_games.csv"):
        assert rows(tmp_path / "with_register" / name) == rows(tmp_path / "with_file" / name)
    assert len(rows(tmp_path / "with_file" / "period_players.csv")) == 19
    # Once the register computed December itself, January uses that, not November's list.
    jan = run_cli("period", events[0], "--period", "2026-01", "--store", str(db),
                  "--assign", "elite_nov2025.trf=2026-01", "--rerate", "--out", str(tmp_path / "jan"))
    assert jan.code == 0, jan.stderr
    assert "in the register" not in jan.stderr
    players = {r["fide_id"]: r for r in rows(tmp_path / "jan" / "period_players.csv")}
    assert players["99200001"]["old_rating"] == "2810"  # December's computed rating


def test_report_with_the_stored_list_equals_report_with_the_file(run_cli, real: Path,
                                                                 tmp_path: Path) -> None:
    from importer.formats.normalized import write_folder
    from importer.model import Player, RoundResult, Status, Tournament, TournamentInfo

    people = (Player(start_no=1, name="A La, Teng Hua", fide_id="8605360", rating=1949),
              Player(start_no=2, name="Ojok, Patrick", fide_id="10001492", rating=1638))
    results = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, points=1),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, points=0))
    folder = write_folder(Tournament(info=TournamentInfo(name="x", start_date=date(2026, 10, 3)),
                                     players=people, results=results), tmp_path / "n")
    fide_list = real / "players_list_foa_excerpt.txt"
    assert run_cli("report", str(folder), "--ratings-list", str(fide_list), "--out",
                   str(tmp_path / "file"), "--format", "csv", "-q").code == 0
    db = tmp_path / "r.sqlite"
    bare = run_cli("report", str(folder), "--store", str(db), "--out", str(tmp_path / "none"),
                   "--format", "csv", "-q")
    assert bare.code == 0 and not db.exists()  # no register: nothing created, K assumed
    assert {r["k_source"] for r in rows(tmp_path / "none" / "rating_players.csv")} != {"list"}
    assert run_cli("list", "import", str(fide_list), "--store", str(db), "--month", "2026-10",
                   "-q").code == 0
    res = run_cli("report", str(folder), "--store", str(db), "--out", str(tmp_path / "stored"),
                  "--format", "csv")
    assert res.code == 0, res.stderr
    assert "K from the FIDE list of 2026-10 in the register" in res.stderr
    for name in ("rating_players.csv", "rating_rounds.csv"):
        assert rows(tmp_path / "stored" / name) == rows(tmp_path / "file" / name)
    got = {r["start_no"]: (r["k"], r["k_source"]) for r in rows(tmp_path / "stored"
                                                                  / "rating_players.csv")}
    assert got == {"1": ("40", "list"), "2": ("20", "list")}
    # A tournament before the stored month finds no list in force.
    res = run_cli("report", str(folder), "--store", str(db), "--date", "2026-01-01", "-q")
    assert res.code == 0


def test_progress_bars_on_a_terminal_only(run_cli, own: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import reports.cli.progress

    args = ("list", "import", str(own / "foa_otit_overflow.txt"), "--store",
            str(tmp_path / "r.sqlite"), "--month", "2026-10")
    plain = run_cli(*args)
    assert plain.code == 0 and "reading" not in plain.stderr and "\r" not in plain.stderr
    monkeypatch.setattr(reports.cli.progress, "PROGRESS_DELAY", 0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    shown = run_cli(*args)
    assert shown.code == 0 and "reading" in shown.stderr and "storing" in shown.stderr
    quiet = run_cli(*args, "--quiet")
    assert quiet.code == 0 and quiet.stderr == ""
    bar = reports.cli.progress.Progress("reading", enabled=True)
    bar("a.trf")
    bar("b.trf")
    bar.close()
    assert bar.count == 2
