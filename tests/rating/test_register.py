"""The SQLite rating register (rating/period/register.py): schema, months in sequence, idempotence."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.errors import RatingError
from rating.period.records import PeriodGames, Standing
from rating.period.register import SCHEMA_VERSION, Register
from rating.period.run import run_period

STD = RatingList.STANDARD
OPPS = {str(100 + i): 1800 for i in range(12)}


def event(start: date, players: dict[str, int | None], games: list[tuple[str, str, float]],
          name: str = "t") -> Tournament:
    """Games (white id, black id, white's score), one per round."""
    no = {f: i for i, f in enumerate(players, 1)}
    res = []
    for rnd, (a, b, s) in enumerate(games, 1):
        res += [RoundResult(start_no=no[a], round=rnd, status=Status.PLAYED, opponent_no=no[b],
                            colour=Colour.WHITE, points=s),
                RoundResult(start_no=no[b], round=rnd, status=Status.PLAYED, opponent_no=no[a],
                            colour=Colour.BLACK, points=1 - s)]
    people = tuple(Player(start_no=no[f], name=f"P {f}", fide_id=f, rating=r, birth_year=1980)
                   for f, r in players.items())
    return Tournament(info=TournamentInfo(name=name, start_date=start, end_date=start,
                                          rating_list=STD), players=people, results=tuple(res))


def run(reg: Register, period: date, tournaments: list[Tournament], *, replace_: bool = False,
        imported: dict | None = None):
    """The library call a rating officer's tools make, then the register written."""
    result = run_period(tournaments, period=period, ratings_list=imported or {}, register=reg,
                        replace_older=replace_)
    reg.write_period(result, replace=replace_)
    return result


def opp_list() -> dict:
    return {(o, STD): Standing(rating=r, k=20) for o, r in OPPS.items()}


def player(result, key: str) -> dict:
    found = result.player(key)
    assert found is not None, key
    return {f: getattr(found, f) for f in (*found.__slots__, "k")}


def test_schema_is_created_with_a_version_and_foreign_keys(tmp_path):
    path = tmp_path / "r.sqlite"
    with Register(path) as reg:
        assert reg.table("schema_version") == [(SCHEMA_VERSION,)]
        assert reg.newest_period() is None
    with Register(path) as reg:  # reopening migrates nothing
        assert reg.table("schema_version") == [(SCHEMA_VERSION,)]
    db = sqlite3.connect(path)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "lists", "periods", "tournaments", "games", "pool"} <= tables
    with Register(path) as reg, pytest.raises(sqlite3.IntegrityError):
        reg._db.execute("INSERT INTO lists VALUES ('2026-01','standard','nobody',1,1,0,0,0,'rated',"
                        "'computed')")


def test_a_foreign_file_or_newer_schema_is_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (a)").connection.commit()
    with pytest.raises(RatingError, match="not a fiderate register"):
        Register(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(RatingError):
        Register(junk)
    newer = tmp_path / "newer.sqlite"
    Register(newer).close()
    db = sqlite3.connect(newer)
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    with pytest.raises(RatingError, match="newer"):
        Register(newer)


def test_consecutive_months_use_the_new_ratings_and_game_count(tmp_path):
    """K 40 → 20 after 30 games: first rating from 20 pooled games, 10 more at K 40, then K 20."""
    x = "900"
    with Register(tmp_path / "r.sqlite") as reg:
        # 2026-09: unrated X scores 10/20 against 1800s → Ru = 1800 (p = .50), 20 games.
        sep = [event(date(2026, 8, 3 + i), {x: None, **OPPS},
                     [(x, o, 1 if j % 2 == 0 else 0) for j, o in enumerate(list(OPPS)[:10])],
                     name=f"aug{i}") for i in range(2)]
        r = run(reg, date(2026, 9, 1), sep, imported=opp_list())
        assert (player(r, x)["status"], player(r, x)["new_rating"]) == ("newly_rated", 1800)
        # 2026-10: 10 wins against 1800s at K 40 (20 games < 30): D = 0 → +0.50 × 40 × 10 = +200.
        octo = [event(date(2026, 9, 10), {x: None, **OPPS}, [(x, o, 1) for o in list(OPPS)[:10]])]
        r = run(reg, date(2026, 10, 1), octo)
        me = player(r, x)
        assert (me["old_rating"], me["k"], me["change_h"], me["new_rating"]) == (1800, "40", 20000, 2000)
        # 2026-11: 30 games now → K 20; the base is October's new rating 2000.
        nov = [event(date(2026, 10, 10), {x: None, **OPPS}, [(x, "100", 0.5)])]
        r = run(reg, date(2026, 11, 1), nov)
        me = player(r, x)
        # X (2000) vs 1800: D = 200 → .76; a draw: −.26 × K 20 = −5.20 → −5.
        assert (me["old_rating"], me["k"], me["change_h"], me["new_rating"]) == (2000, "20", -520, 1995)
        lists = [row for row in reg.table("lists") if row[2] == x]
        assert [(p, rating, games, total) for p, _, _, rating, _, games, total, *_ in lists] == [
            ("2026-09", 1800, 0, 20), ("2026-10", 2000, 10, 30), ("2026-11", 1995, 1, 31)]


def test_running_a_period_twice_gives_the_same_register_and_older_ones_need_replace(tmp_path):
    x = "900"
    t = [event(date(2026, 9, 10), {x: 1900, **OPPS}, [(x, "100", 1), ("101", x, 0.5)])]
    imported = {(x, STD): Standing(rating=1900, k=20), **opp_list()}
    with Register(tmp_path / "r.sqlite") as reg:
        run(reg, date(2026, 10, 1), t, imported=imported)
        snapshot = {name: reg.table(name) for name in ("players", "lists", "games", "pool",
                                                       "tournaments", "periods")}
        run(reg, date(2026, 10, 1), t, imported=imported)
        assert {name: reg.table(name) for name in snapshot} == snapshot
        run(reg, date(2026, 11, 1), [event(date(2026, 10, 10), {x: 1900, **OPPS}, [(x, "100", 0)])])
        assert reg.newest_period() == date(2026, 11, 1)
        with pytest.raises(RatingError, match="older than the newest"):
            run(reg, date(2026, 10, 1), t, imported=imported)
        run(reg, date(2026, 10, 1), t, imported=imported, replace_=True)
        assert reg.table("periods") == [("2026-10",), ("2026-11",)]


def test_a_failed_write_leaves_the_register_as_it_was(tmp_path):
    x = "900"
    t = [event(date(2026, 9, 10), {x: 1900, **OPPS}, [(x, "100", 1)])]
    with Register(tmp_path / "r.sqlite") as reg:
        result = run(reg, date(2026, 10, 1), t, imported={(x, STD): Standing(rating=1900), **opp_list()})
        before = {name: reg.table(name) for name in ("players", "lists", "games", "periods")}
        broken = replace(result, games=PeriodGames.of_records(
            [replace(g, tournament="no-such-tournament") for g in result.games]))
        with pytest.raises(sqlite3.IntegrityError):
            reg.write_period(broken)
        assert {name: reg.table(name) for name in before} == before


def test_pools_accumulate_over_periods_and_a_first_zero_is_remembered(tmp_path):
    u, z = "901", "902"
    opps = list(OPPS)
    with Register(tmp_path / "r.sqlite") as reg:
        first = [event(date(2026, 9, 3), {u: None, z: None, **OPPS},
                       [(u, opps[0], 1), (opps[1], u, 0), (u, opps[2], 0.5),
                        (z, opps[3], 0), (opps[4], z, 1)])]
        r = run(reg, date(2026, 10, 1), first, imported=opp_list())
        assert player(r, u)["status"] == "unrated" and player(r, u)["pool_games"] == 3
        assert player(r, z)["pool_games"] == 0  # zero in the first event: disregarded
        pools = reg.pools([u, z], date(2026, 11, 1))
        assert (pools[(u, STD)].games, pools[(u, STD)].score_h) == (3, 250)
        assert (pools[(z, STD)].games, pools[(z, STD)].events) == (0, 1)
        second = [event(date(2026, 10, 5), {u: None, z: None, **OPPS},
                        [(u, opps[5], 0.5), (opps[6], u, 0.5), (z, opps[7], 0), (z, opps[8], 0),
                         (z, opps[9], 0), (z, opps[10], 0), (z, opps[11], 0)])]
        r = run(reg, date(2026, 11, 1), second)
        # U: 3.5/5 against 1800s: Ra 1800, p = 4.5/7 → .64 → +102 → 1902.
        assert (player(r, u)["status"], player(r, u)["new_rating"]) == ("newly_rated", 1902)
        # Z: a later zero counts: 0/5, p = 1/7 → .14 → −309 → 1491.
        assert (player(r, z)["status"], player(r, z)["new_rating"]) == ("newly_rated", 1491)
        # No pool survives for a rated player; the pool window is 26 months.
        assert reg.pools([u], date(2026, 12, 1)) == {}
        assert reg.pools([z], date(2029, 1, 1)) == {}


def test_ratings_on_a_month_and_the_previous_standing(tmp_path):
    x = "900"
    with Register(tmp_path / "r.sqlite") as reg:
        run(reg, date(2026, 10, 1), [event(date(2026, 9, 10), {x: 2390, **OPPS}, [(x, "100", 1)])],
            imported={(x, STD): Standing(rating=2390, k=20), **opp_list()})
        assert reg.ratings_on(date(2026, 9, 1), [x]) == {(x, STD): 2390}
        assert reg.ratings_on(date(2026, 10, 1), [x]) == {(x, STD): 2392}  # +.08 × 20 → +2 (capped)
        st = reg.previous([x], date(2026, 12, 1))[(x, STD)]
        assert (st.rating, st.k, st.games_total, st.last_played) == (2392, 20, None, date(2026, 10, 1))


def test_default_store_is_in_the_user_data_directory():
    import platformdirs

    from rating.period.paths import default_store

    path = default_store()
    assert path.name == "register.sqlite"
    assert path.parent == Path(platformdirs.user_data_dir("fiderate", appauthor=False))


_LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def _locked_by_another_process(path: Path, seconds: float):
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", _LOCKER, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_register_another_process_is_writing_is_waited_for(tmp_path):
    """A register locked by another process (``fiderate period --store``, a server saving a
    month) is waited for, up to BUSY_TIMEOUT seconds, not called unusable."""
    from rating.period.register import BUSY_TIMEOUT

    assert BUSY_TIMEOUT >= 5
    path = tmp_path / "r.sqlite"
    Register(path).close()
    locker = _locked_by_another_process(path, 1.0)
    with Register(path) as reg:  # waits for the other process, then opens
        assert reg.newest_period() is None
    locker.communicate(timeout=10)  # waits, and closes its pipe
    assert locker.returncode == 0


def test_a_register_locked_for_too_long_says_so(tmp_path):
    path = tmp_path / "r.sqlite"
    Register(path).close()
    locker = _locked_by_another_process(path, 3.0)
    try:
        with pytest.raises(RatingError) as err:
            Register(path, busy_timeout=0.3)
        message = str(err.value)
        assert "in use by another program (still locked after 0.3 seconds)" in message
        assert "not a usable register" not in message
    finally:
        locker.kill()
        locker.communicate()
