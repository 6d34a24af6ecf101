"""The rating register: an SQLite file of lists per month, games rated and pooled games.

The only I/O in :mod:`rating`.  The schema is created and migrated here (``schema_version``),
foreign keys are on, and a period is written in one transaction, so a failure leaves the
register as it was.  Writing a period again replaces it (idempotent); writing a period older
than the newest stored one needs ``replace=True``.

FIDE's own monthly lists are stored too (``list_months``, ``list_players``: one row per
player and month, keyed and ordered by month and id), so that a month is imported once and
later commands look players up by id instead of reading the download again.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from itertools import repeat
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar

from importer.formats import fidelist
from importer.formats.fidelist.entry import ListEntry
from importer.formats.nationallist.model import NationalEntry, NationalList
from importer.identity import EventIdentity, Keyed
from importer.model import Player, RatingList, Tournament
from importer.parsing.names import name_key
from rating.errors import RatingError
from rating.period.identity import Candidate, wanted_on_list
from rating.period.months import month_add
from rating.period.records import PeriodPlayer, PeriodResult, PeriodStatus, Pool, Standing
from rating.systems.fide_rules import rules_for

__all__ = ["BUSY_TIMEOUT", "SCHEMA_VERSION", "Register", "StoredList", "StoredNationalList",
           "list_for"]

SCHEMA_VERSION: Final = 6
BUSY_TIMEOUT: Final = 10.0
"""Seconds to wait for a register another process is writing (``fiderate period --store``,
a server saving a month) before giving up with a clear message."""
T = TypeVar("T")

_SCHEMA: Final = (
    """CREATE TABLE players (
        key TEXT PRIMARY KEY, fide_id TEXT NOT NULL, name TEXT NOT NULL,
        federation TEXT NOT NULL, birth_year INTEGER)""",
    "CREATE TABLE periods (period TEXT PRIMARY KEY)",
    """CREATE TABLE lists (
        period TEXT NOT NULL, list TEXT NOT NULL,
        key TEXT NOT NULL REFERENCES players(key),
        rating INTEGER, k INTEGER, games INTEGER NOT NULL, games_total INTEGER,
        reached_2400 INTEGER NOT NULL, status TEXT NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('computed', 'imported')),
        PRIMARY KEY (period, list, key))""",
    """CREATE TABLE tournaments (
        period TEXT NOT NULL REFERENCES periods(period) ON DELETE CASCADE,
        key TEXT NOT NULL, name TEXT NOT NULL, list TEXT NOT NULL, start TEXT NOT NULL,
        PRIMARY KEY (period, key))""",
    """CREATE TABLE games (
        period TEXT NOT NULL, tournament TEXT NOT NULL, round INTEGER NOT NULL,
        list TEXT NOT NULL, key TEXT NOT NULL REFERENCES players(key), opponent TEXT NOT NULL,
        own_rating INTEGER NOT NULL, opponent_rating INTEGER NOT NULL, capped INTEGER NOT NULL,
        score_h INTEGER NOT NULL, expected_h INTEGER NOT NULL, k INTEGER NOT NULL,
        change_h INTEGER NOT NULL,
        FOREIGN KEY (period, tournament) REFERENCES tournaments(period, key) ON DELETE CASCADE)""",
    """CREATE TABLE pool (
        period TEXT NOT NULL, list TEXT NOT NULL, key TEXT NOT NULL REFERENCES players(key),
        tournament TEXT NOT NULL, start TEXT NOT NULL, opponent_rating INTEGER NOT NULL,
        score_h INTEGER NOT NULL, disregarded INTEGER NOT NULL,
        FOREIGN KEY (period, tournament) REFERENCES tournaments(period, key) ON DELETE CASCADE)""",
    "CREATE INDEX lists_key ON lists(key, list, period)",
    "CREATE INDEX pool_key ON pool(key, list, period)",
)
_LIST_KINDS: Final = ("standard", "rapid", "blitz")
_RATED: Final = {kind: tuple(f"{p}_{what}" for what in ("rating", "games", "k"))
                 for kind, p in zip(_LIST_KINDS, ("std", "rpd", "blz"), strict=True)}
_PERSON: Final = ("name", "federation", "sex", "title", "w_title", "o_title", "foa_title",
                  "flags", "birth_year")
_LIST_COLUMNS: Final = ("fide_id", *_PERSON, *(c for kind in _LIST_KINDS for c in _RATED[kind]))
"""The columns of ``list_players`` after ``month``, in order (ListEntry's field names)."""
_FIDE_LISTS: Final = (
    """CREATE TABLE list_months (
        month TEXT NOT NULL, list TEXT NOT NULL CHECK (list IN ('standard', 'rapid', 'blitz')),
        source TEXT NOT NULL, players INTEGER NOT NULL, PRIMARY KEY (month, list))""",
    f"""CREATE TABLE list_players (
        month TEXT NOT NULL, fide_id INTEGER NOT NULL,
        {", ".join(f"{c} TEXT NOT NULL" for c in _PERSON if c != "birth_year")},
        birth_year INTEGER, {", ".join(f"{c} INTEGER" for k in _LIST_KINDS for c in _RATED[k])},
        PRIMARY KEY (month, fide_id)) WITHOUT ROWID""",
)
_EVENTS: Final = (
    *(f"ALTER TABLE tournaments ADD COLUMN {c} TEXT NOT NULL DEFAULT ''"
      for c in ("chess_results", "fide_event", "name_key", "start_known", "players", "games")),
    "CREATE INDEX tournaments_cr ON tournaments(chess_results) WHERE chess_results != ''",
    "CREATE INDEX tournaments_fide ON tournaments(fide_event) WHERE fide_event != ''",
    "CREATE INDEX tournaments_name ON tournaments(name_key)",
    "CREATE INDEX players_federation ON players(federation)",
    """CREATE TABLE outputs (
        folder TEXT PRIMARY KEY, staged TEXT NOT NULL, period TEXT NOT NULL)""",
)
"""Version 3: each tournament's identity (so that an event is rated once), players found by
federation and name, and the output folders a committed period has yet to swap in."""
_SAME_GAMES: Final = (
    *(f"ALTER TABLE tournaments ADD COLUMN {c} TEXT NOT NULL DEFAULT ''"
      for c in ("named_players", "named_games")),
    "ALTER TABLE tournaments ADD COLUMN all_ids INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX tournaments_players ON tournaments(players)",
    "CREATE INDEX tournaments_named ON tournaments(named_players)",
)
"""Version 4: an event's games by round and player (importer.identity), under FIDE ids and
under names; an older row's ``games`` (a pattern without the players) matches no event."""
_NATIONAL_FIELDS: Final = ("national_id", "name", "fide_id", "federation", "club", "sex",
                            "birth_year", "rating", "evaluations", "category", "last_evaluated")
"""The columns of ``national_players`` after its key's system, month and list (NationalEntry's
field names)."""
_NATIONAL_LISTS: Final = (
    """CREATE TABLE national_months (
        system TEXT NOT NULL, month TEXT NOT NULL, list TEXT NOT NULL, source TEXT NOT NULL,
        players INTEGER NOT NULL, PRIMARY KEY (system, month, list))""",
    """CREATE TABLE national_players (
        system TEXT NOT NULL, month TEXT NOT NULL, list TEXT NOT NULL,
        national_id TEXT NOT NULL, name TEXT NOT NULL, fide_id TEXT NOT NULL,
        federation TEXT NOT NULL, club TEXT NOT NULL, sex TEXT NOT NULL, birth_year INTEGER,
        rating INTEGER, evaluations INTEGER, category TEXT NOT NULL,
        last_evaluated TEXT NOT NULL, name_key TEXT NOT NULL,
        PRIMARY KEY (system, month, list, national_id)) WITHOUT ROWID""",
    "CREATE INDEX national_fide ON national_players(system, fide_id) WHERE fide_id != ''",
    "CREATE INDEX national_name ON national_players(system, name_key)",
)
"""Version 5: national rating lists (the DSB's DWZ, the ECF's), one row per player, month
and list, found by national id, FIDE id or name."""
_INCOMPLETE: Final = ("ALTER TABLE tournaments ADD COLUMN pending INTEGER NOT NULL DEFAULT 0",)
"""Version 6: the games an event had without a result when it was rated (0: complete); an
incomplete event's complete results replace its rating in a later month."""
_MIGRATIONS: Final[dict[int, tuple[str, ...]]] = {1: _SCHEMA, 2: _FIDE_LISTS, 3: _EVENTS,
                                                  4: _SAME_GAMES, 5: _NATIONAL_LISTS,
                                                  6: _INCOMPLETE}
"""Statements that bring the schema from version v − 1 to v."""


def _month(d: date) -> str:
    return f"{d:%Y-%m}"


def _first(month: str) -> date:
    return date.fromisoformat(month + "-01")


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredNationalList:
    """A month's national list of one system in the register."""

    system: str
    month: date
    lists: tuple[str, ...]
    players: int
    source: str


@dataclass(frozen=True, slots=True)
class StoredList:
    """A month's FIDE list in the register: the rating lists it holds and where it came from."""

    month: date
    lists: tuple[str, ...]
    players: int
    source: str


class Register:
    """An open register file; use as a context manager (closed on exit)."""

    def __init__(self, path: str | Path, *, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout)
        except (OSError, sqlite3.Error) as exc:
            raise RatingError(f"{self.path}: cannot open the register ({exc})") from None
        self._db.execute("PRAGMA foreign_keys = ON")
        self._migrate()

    def __enter__(self) -> Register:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise RatingError(
                    f"{self.path}: the register is in use by another program (still locked "
                    f"after {self.busy_timeout:g} seconds); try again when it has finished"
                ) from None
            raise
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        try:
            with self._transaction() as db:
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                version = 0
                if "schema_version" in tables:
                    version = db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
                elif tables:
                    raise RatingError(f"{self.path}: not a fiderate register")
                else:
                    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                if version > SCHEMA_VERSION:
                    raise RatingError(f"{self.path}: register schema {version} is newer than this "
                                      f"fiderate ({SCHEMA_VERSION}); upgrade fiderate")
                for v in range(version + 1, SCHEMA_VERSION + 1):
                    for stmt in _MIGRATIONS[v]:
                        db.execute(stmt)
                    if v == 3 and version:
                        _rekey_fallbacks(db)
                    db.execute("DELETE FROM schema_version")
                    db.execute("INSERT INTO schema_version VALUES (?)", (v,))
        except sqlite3.DatabaseError as exc:
            raise RatingError(f"{self.path}: not a usable register ({exc})") from None

    # ---------------------------------------------------------------- reading

    def newest_period(self, before: date | None = None) -> date | None:
        """The newest period computed into the register (before *before*, when given)."""
        row = self._db.execute("SELECT MAX(period) FROM periods WHERE period < ?",
                               (_month(before) if before else "9999-99",)).fetchone()
        return None if row[0] is None else date.fromisoformat(row[0] + "-01")

    def check_period(self, period: date, *, replace: bool = False) -> None:
        """Refuse a period older than the newest stored one unless *replace* (RatingError)."""
        newest = self.newest_period()
        if newest is not None and period < newest and not replace:
            raise RatingError(f"period {_month(period)} is older than the newest period in "
                              f"the rating register, {_month(newest)}: it is computed again "
                              "only when asked to (--replace)")

    def _latest(self, keys: Iterable[str], before: date,
                inclusive: bool) -> dict[tuple[str, str], sqlite3.Row]:
        op = "<=" if inclusive else "<"
        self._db.row_factory = sqlite3.Row
        out: dict[tuple[str, str], sqlite3.Row] = {}
        try:
            for chunk in _chunks(sorted(set(keys))):
                marks = ",".join("?" * len(chunk))
                for r in self._db.execute(
                        f"SELECT l.*, p.birth_year AS birth_year "
                        f"FROM lists l JOIN players p USING (key) "
                        f"WHERE l.key IN ({marks}) AND l.period {op} ? "
                        f"ORDER BY l.key, l.list, l.period", (*chunk, _month(before))):
                    out[(r["key"], r["list"])] = r
        finally:
            self._db.row_factory = None
        return out

    def previous(self, keys: Iterable[str], period: date) -> dict[tuple[str, RatingList], Standing]:
        """Each player's latest list entry before *period* (T − 1 or older), with their history."""
        keys = list(keys)
        history = self._history(keys, period)
        out: dict[tuple[str, RatingList], Standing] = {}
        for (key, rl), r in self._latest(keys, month_add(period, -1), inclusive=True).items():
            reached, played = history.get((key, rl), (False, None))
            out[(key, RatingList(rl))] = Standing(
                rating=r["rating"], k=r["k"], games_total=r["games_total"], reached_2400=reached,
                birth_year=r["birth_year"],
                last_played=None if played is None else date.fromisoformat(played + "-01"))
        return out

    def _history(self, keys: list[str], period: date) -> dict[tuple[str, str], tuple[bool, str | None]]:
        """Per (key, list): ever published 2400+ (R24 8.3.3), and the last period with a rated
        game."""
        out: dict[tuple[str, str], tuple[bool, str | None]] = {}
        top = rules_for(period).top_threshold
        for chunk in _chunks(sorted(set(keys))):
            marks = ",".join("?" * len(chunk))
            for key, rl, flag, played in self._db.execute(
                    f"SELECT key, list, MAX(reached_2400 OR rating >= ?), "
                    f"MAX(CASE WHEN games > 0 THEN period END) FROM lists "
                    f"WHERE key IN ({marks}) AND period < ? GROUP BY key, list",
                    (top, *chunk, _month(period))):
                out[(key, rl)] = (bool(flag), played)
        return out

    def periods(self) -> list[date]:
        """The periods computed into the register, oldest first."""
        return [_first(m) for (m,) in self._db.execute("SELECT period FROM periods ORDER BY period")]

    def rated_events(self, identity: EventIdentity) -> list[tuple[date, str, str, int]]:
        """The periods that rated this event: (period, the tournament's key, its name, the
        games it had without a result then: 0 when it was complete)."""
        conds, args = ["players = ?", "named_players = ?"], [
            " ".join(sorted(identity.keyed.players)), " ".join(sorted(identity.named.players))]
        if identity.chess_results:
            conds.append("chess_results = ?")
            args.append(identity.chess_results)
        if identity.fide_event:
            conds.append("fide_event = ?")
            args.append(identity.fide_event)
        out = []
        for (period, key, name, cr, fide, nkey, start, players, games, named, named_games,
             all_ids, pending) in self._db.execute(
                "SELECT period, key, name, chess_results, fide_event, name_key, start_known, "
                "players, games, named_players, named_games, all_ids, pending FROM tournaments "
                f"WHERE {' OR '.join(conds)} ORDER BY period, key", args):
            stored = EventIdentity(chess_results=cr, fide_event=fide, name=nkey,
                                   start=date.fromisoformat(start) if start else None,
                                   keyed=Keyed.stored(players, games),
                                   named=Keyed.stored(named, named_games), all_ids=bool(all_ids))
            if identity.same_as(stored):
                out.append((_first(period), key, name, pending))
        return out

    def candidates(self, wanted: Collection[tuple[str, str]]
                   ) -> dict[tuple[str, str], list[Candidate]]:
        """The players the register knows with these (federation, name key)s."""
        out: dict[tuple[str, str], list[Candidate]] = {}
        feds = sorted({f for f, _ in wanted})
        for chunk in _chunks(feds):
            for key, fide_id, name, fed, year in self._db.execute(
                    "SELECT key, fide_id, name, federation, birth_year FROM players "
                    f"WHERE federation IN ({','.join('?' * len(chunk))}) ORDER BY key", chunk):
                found = (fed.upper(), name_key(name))
                if found in wanted:
                    out.setdefault(found, []).append(Candidate(
                        key=key, fide_id=fide_id, name=name, federation=fed, birth_year=year))
        return out

    def ratings_on(self, month: date, keys: Iterable[str]) -> dict[tuple[str, RatingList], int]:
        """The ratings of the list of *month* (each player's latest entry up to it)."""
        return {(key, RatingList(rl)): r["rating"]
                for (key, rl), r in self._latest(keys, month, inclusive=True).items()
                if r["rating"] is not None}

    def pools(self, keys: Iterable[str], period: date) -> dict[tuple[str, RatingList], Pool]:
        """Unrated players' pooled results of the 26 months before *period* (R24 7.1.4).

        Only results after the player's last rated list count; disregarded ones count as events.
        """
        since = _month(month_add(period, -(rules_for(period).pool_months - 1)))
        out: dict[tuple[str, RatingList], Pool] = {}
        for chunk in _chunks(sorted(set(keys))):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"""SELECT p.key, p.list,
                        SUM(CASE WHEN NOT p.disregarded AND p.period >= ? THEN 1 ELSE 0 END),
                        SUM(CASE WHEN NOT p.disregarded AND p.period >= ? THEN p.opponent_rating
                            ELSE 0 END),
                        SUM(CASE WHEN NOT p.disregarded AND p.period >= ? THEN p.score_h ELSE 0 END),
                        COUNT(DISTINCT p.period || '/' || p.tournament)
                    FROM pool p
                    WHERE p.key IN ({marks}) AND p.period < ?
                      AND p.period > COALESCE((SELECT MAX(l.period) FROM lists l WHERE l.key = p.key
                          AND l.list = p.list AND l.rating IS NOT NULL AND l.period < ?), '')
                    GROUP BY p.key, p.list""",
                (since, since, since, *chunk, _month(period), _month(period)))
            for key, rl, n, s, w, events in rows:
                out[(key, RatingList(rl))] = Pool(games=n, opponents_sum=s, score_h=w, events=events)
        return out

    def table(self, name: str) -> list[tuple[Any, ...]]:
        """All rows of one table, sorted (for tests and inspection)."""
        if name not in {"players", "periods", "lists", "tournaments", "games", "pool",
                        "schema_version", "list_months", "list_players", "outputs",
                        "national_months", "national_players"}:
            raise RatingError(f"no register table {name!r}")
        return sorted(self._db.execute(f"SELECT * FROM {name}").fetchall(),
                      key=lambda r: tuple("" if v is None else str(v) for v in r))

    # ---------------------------------------------------------------- FIDE lists

    def import_list(self, fide_list: fidelist.FideList, month: date, *,
                    on_progress: Callable[[int, int], None] | None = None) -> StoredList:
        """Store a FIDE list as the list of *month*, in one transaction: each id once (its
        first line).  Its rating lists replace the month's lists of the same kind; a
        single-type list keeps the month's other kinds.  Importing again changes nothing."""
        rows = fide_list.first_rows()
        m, n, kinds = _month(month), len(rows), fide_list.lists
        insert = (f"INSERT INTO list_players (month, {', '.join(_LIST_COLUMNS)}) "
                  f"VALUES ({', '.join('?' * (len(_LIST_COLUMNS) + 1))})")
        with self._transaction() as db:
            held = {r[0] for r in db.execute("SELECT list FROM list_months WHERE month = ?", (m,))}
            if held <= set(kinds):
                db.execute("DELETE FROM list_players WHERE month = ?", (m,))
            else:  # another kind of this month stays: update this kind's columns in place
                own = [c for kind in kinds for c in _RATED[kind]]
                db.execute(f"UPDATE list_players SET {', '.join(f'{c} = NULL' for c in own)} "
                           "WHERE month = ?", (m,))
                insert += (" ON CONFLICT (month, fide_id) DO UPDATE SET "
                           + ", ".join(f"{c} = excluded.{c}" for c in (*_PERSON, *own)))
            db.execute("PRAGMA cache_size = -65536")
            step = 50_000
            for a in range(0, n, step):  # a batch of plain values at a time
                part = rows[a:a + step]
                values = fide_list.columns(part)
                columns = [fide_list.id_numbers(part), *(values[c] for c in _LIST_COLUMNS[1:])]
                db.executemany(insert, zip(repeat(m), *columns, strict=False))
                if on_progress is not None:
                    on_progress(min(a + step, n), n)
            db.execute(f"DELETE FROM list_months WHERE month = ? AND list IN "
                       f"({', '.join('?' * len(kinds))})", (m, *kinds))
            db.executemany("INSERT INTO list_months VALUES (?, ?, ?, ?)",
                           [(m, kind, fide_list.source, n) for kind in kinds])
        return StoredList(month=month, lists=kinds, players=n, source=fide_list.source)

    def stored_lists(self) -> list[StoredList]:
        """The FIDE lists stored, oldest month first."""
        out: dict[str, StoredList] = {}
        for m, kind, source, n in self._db.execute(
                "SELECT month, list, source, players FROM list_months ORDER BY month, "
                "CASE list WHEN 'standard' THEN 0 WHEN 'rapid' THEN 1 ELSE 2 END"):
            old = out.get(m)
            out[m] = StoredList(month=_first(m), lists=(*old.lists, kind) if old else (kind,),
                                players=max(n, old.players if old else 0), source=source)
        return list(out.values())

    def list_entries(self, month: date, fide_ids: Iterable[str]) -> dict[str, ListEntry]:
        """The entries of these players on the stored list of *month* (absent ids left out)."""
        keys = sorted({int(i) for i in map(str.strip, fide_ids)
                       if i.isascii() and i.isdigit() and len(i) <= 18 and str(int(i)) == i})
        out: dict[str, ListEntry] = {}
        names = ("fide_id", *_LIST_COLUMNS[1:])
        for chunk in _chunks(keys):
            for row in self._db.execute(
                    f"SELECT {', '.join(names)} FROM list_players WHERE month = ? AND fide_id IN "
                    f"({', '.join('?' * len(chunk))})", (_month(month), *chunk)):
                entry = ListEntry(**dict(zip(names, (str(row[0]), *row[1:]), strict=True)))
                out[entry.fide_id] = entry
        return out

    def list_history(self, fide_ids: Iterable[str]) -> dict[str, list[tuple[date, ListEntry]]]:
        """Each player's entries on every stored list, oldest month first."""
        ids = list(fide_ids)
        out: dict[str, list[tuple[date, ListEntry]]] = {i: [] for i in ids}
        for stored in self.stored_lists():
            for fid, entry in self.list_entries(stored.month, ids).items():
                out[fid].append((stored.month, entry))
        return out

    def list_in_force(self, on: date, fide_ids: Iterable[str], *,
                      federations: Iterable[str] = ()) -> fidelist.FideList | None:
        """These players (and every player of these *federations*) on the FIDE lists in force
        on *on*: per rating list, the newest stored month up to *on*'s; None when no list is
        stored by then."""
        months: dict[str, str] = {}
        for kind, m in self._db.execute(
                "SELECT list, MAX(month) FROM list_months WHERE month <= ? GROUP BY list",
                (_month(on),)):
            months[kind] = m
        if not months:
            return None
        ids = list(fide_ids)
        feds = sorted({f.strip().upper() for f in federations if f.strip()})
        for m in set(months.values()):
            for chunk in _chunks(feds):
                ids += [str(i) for (i,) in self._db.execute(
                    "SELECT fide_id FROM list_players WHERE month = ? AND federation IN "
                    f"({','.join('?' * len(chunk))})", (m, *chunk))]
        ids = list(dict.fromkeys(ids))
        newest = max(months.values())
        by_month = {m: self.list_entries(_first(m), ids) for m in set(months.values())}
        merged: dict[str, ListEntry] = {}
        for fid in ids:
            base = next((by_month[m][fid] for m in sorted(by_month, reverse=True)
                         if fid in by_month[m]), None)
            if base is None:
                continue
            fields: dict[str, Any] = {}
            for kind in _LIST_KINDS:
                own = by_month[months[kind]].get(fid) if kind in months else None
                for c in _RATED[kind]:
                    fields[c] = getattr(own, c) if own is not None else None
            merged[fid] = replace(base, **fields)
        kinds = tuple(k for k in _LIST_KINDS if k in months)
        return fidelist.FideList.of(merged.values(), lists=kinds, list_date=_first(newest),
                           source=f"{self.path} (FIDE list {newest})")

    # ---------------------------------------------------------------- national lists

    def import_national_list(self, national: NationalList, month: date, *,
                             source: str) -> StoredNationalList:
        """Store a national list as *month*'s list of its system, in one transaction: each
        national id once per rating list (its first line); it replaces the month's lists of
        the same system and kind.  Importing again changes nothing."""
        first: dict[tuple[str, str], NationalEntry] = {}
        for e in national.entries:
            first.setdefault((e.rating_list.value, e.national_id), e)
        kinds = tuple(k for k in _LIST_KINDS if any(kind == k for kind, _ in first))
        m, system = _month(month), national.system
        rows = [(system, m, kind, *(getattr(e, c) for c in _NATIONAL_FIELDS), name_key(e.name))
                for (kind, _), e in first.items()]
        with self._transaction() as db:
            db.execute("DELETE FROM national_players WHERE system = ? AND month = ?",
                       (system, m))
            db.execute("DELETE FROM national_months WHERE system = ? AND month = ?", (system, m))
            if rows:
                db.executemany("INSERT INTO national_players VALUES "
                               f"({', '.join('?' * len(rows[0]))})", rows)
            db.executemany("INSERT INTO national_months VALUES (?, ?, ?, ?, ?)",
                           [(system, m, kind, source, sum(k == kind for k, _ in first))
                            for kind in kinds])
        return StoredNationalList(system=system, month=month, lists=kinds, players=len(
            {nid for _, nid in first}), source=source)

    def stored_national_lists(self, system: str | None = None) -> list[StoredNationalList]:
        """The national lists stored (of *system*, or all), oldest month first."""
        out: dict[tuple[str, str], StoredNationalList] = {}
        for s, m, kind, source, n in self._db.execute(
                "SELECT system, month, list, source, players FROM national_months "
                "WHERE ? IS NULL OR system = ? ORDER BY system, month", (system, system)):
            old = out.get((s, m))
            out[(s, m)] = StoredNationalList(
                system=s, month=_first(m), lists=(*old.lists, kind) if old else (kind,),
                players=max(n, old.players if old else 0), source=source)
        return sorted(out.values(), key=lambda x: (x.month, x.system))

    def national_in_force(self, system: str, on: date, rating_list: RatingList,
                          players: Iterable[Player]) -> NationalList | None:
        """These players' entries on *system*'s newest stored list of *rating_list* up to
        *on*'s month: found by national id, FIDE id, or name; None when no list is stored
        by then."""
        row = self._db.execute(
            "SELECT MAX(month), MAX(source) FROM national_months WHERE system = ? AND list = ? "
            "AND month <= ?", (system, rating_list.value, _month(on))).fetchone()
        if row is None or row[0] is None:
            return None
        m, source = row
        wanted = list(players)
        found: dict[str, tuple[Any, ...]] = {}
        select = (f"SELECT {', '.join(_NATIONAL_FIELDS)} FROM national_players WHERE "
                  "system = ? AND month = ? AND list = ? AND ")
        for column, values in (("national_id", {p.national_id.strip() for p in wanted}),
                               ("fide_id", {p.fide_id.strip() for p in wanted}),
                               ("name_key", {name_key(p.name) for p in wanted})):
            keys = sorted(v for v in values if v)
            for chunk in _chunks(keys):
                for r in self._db.execute(
                        select + f"{column} IN ({', '.join('?' * len(chunk))})",
                        (system, m, rating_list.value, *chunk)):
                    found.setdefault(r[0], r)
        entries = tuple(NationalEntry(system=system, rating_list=rating_list,
                                      **dict(zip(_NATIONAL_FIELDS, r, strict=True)))
                        for r in found.values())
        return NationalList(system, entries, _first(m), source=source)

    # ---------------------------------------------------------------- writing

    def pending_outputs(self) -> list[tuple[Path, Path]]:
        """The output folders of committed periods not yet swapped in: (folder, staged)."""
        return [(Path(f), Path(s)) for f, s in self._db.execute(
            "SELECT folder, staged FROM outputs ORDER BY folder")]

    def output_done(self, folder: str | Path) -> None:
        """The output folder is in place: forget it."""
        with self._transaction() as db:
            db.execute("DELETE FROM outputs WHERE folder = ?", (str(folder),))

    def write_period(self, result: PeriodResult, *, replace: bool = False,
                     output: tuple[Path, Path] | None = None) -> None:
        """Store a computed period in one transaction (replacing an earlier run of it).

        The given FIDE list's entries (``result.imported``) are kept as the list of T − 1 where
        the register has no computed entry.  ``output`` is the period's output folder and the
        complete staged folder that is to replace it: it is recorded in the same transaction,
        so that a kill after the commit still brings the folder in (:meth:`pending_outputs`).
        """
        previous, imported = result.previous, result.imported
        period = _month(result.period)
        rules = {rl: rules_for(result.period, rl) for rl in RatingList}
        prev_month = _month(month_add(result.period, -1))
        with self._transaction() as db:
            self.check_period(result.period, replace=replace)
            for spec in result.tournaments:  # an event is rated once, in one period
                for month, key, _, _ in self.rated_events(spec.identity):
                    if month == result.period:
                        continue
                    if spec.key not in result.replaces:
                        raise RatingError(f"{spec.key} was already rated in {_month(month)}; "
                                          "an event is rated once: move its rating here "
                                          "(--rerate)")
                    db.execute("DELETE FROM tournaments WHERE period = ? AND key = ?",
                               (_month(month), key))
            db.execute("DELETE FROM periods WHERE period = ?", (period,))
            db.execute("DELETE FROM lists WHERE period = ? AND origin = 'computed'", (period,))
            people = {p.key: p for p in result.players}
            db.executemany(
                "INSERT INTO players VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                "fide_id = excluded.fide_id, name = excluded.name, federation = excluded.federation, "
                "birth_year = COALESCE(excluded.birth_year, players.birth_year)",
                [(key, p.fide_id, p.name, p.federation, p.birth_year)
                 for key, p in sorted(people.items())])
            for (key, rl), st in sorted((imported or {}).items()):
                if key in people:
                    db.execute("INSERT OR IGNORE INTO lists VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, "
                               "'imported')",
                               (prev_month, str(rl), key, st.rating, st.k, st.games_total,
                                int(st.reached_2400 or rules[rl].reaches_top(st.rating)),
                                "rated" if st.rating is not None else "unrated"))
            db.execute("INSERT INTO periods VALUES (?)", (period,))
            if output is not None:
                db.execute("INSERT OR REPLACE INTO outputs VALUES (?, ?, ?)",
                           (str(output[0]), str(output[1]), period))
            db.executemany("INSERT INTO tournaments VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(period, s.key, s.tournament.info.name, str(s.rating_list),
                             s.start.isoformat(), *_identity_row(s.identity),
                             len(s.tournament.pending_games))
                            for s in result.tournaments])
            db.executemany(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((period, t, rd, str(rl), key, opp, own, orat, int(cap), sc, ex, k, ch)
                 for t, rd, key, rl, opp, own, orat, cap, sc, ex, k, ch in result.games.rows(
                     "tournament", "round", "key", "list", "opponent", "own_rating",
                     "opponent_rating", "capped", "score_h", "expected_h", "k", "change_h")))
            db.executemany(
                "INSERT INTO pool VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(period, str(p.list), p.key, p.tournament, p.start.isoformat(), p.opponent_rating,
                  p.score_h, int(p.disregarded)) for p in result.pool])
            db.executemany("INSERT INTO lists VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'computed')",
                           [_list_row(period, p, previous, rules[p.list].reaches_top)
                            for p in result.players])


def _list_row(period: str, p: PeriodPlayer, previous: Mapping[tuple[str, RatingList], Standing],
              reaches_top: Callable[[int | None], bool]) -> tuple[Any, ...]:
    """A computed list entry: the new rating and the history the next period's K needs
    (*reaches_top*: whether a rating reaches the K-10 threshold, R24 8.3.3)."""
    st = previous.get((p.key, p.list), Standing())
    total: int | None
    if p.status is PeriodStatus.NEWLY_RATED:
        total = p.pool_games  # the pooled games count towards the 30 games of a new player
    elif p.status is PeriodStatus.UNRATED:
        total = None
    else:
        total = None if st.games_total is None else st.games_total + p.games
    # With an unknown game count the list's K is carried forward as the best estimate.
    k = st.k if total is None and p.status in (PeriodStatus.RATED, PeriodStatus.INACTIVE,
                                               PeriodStatus.DROPPED_BELOW_FLOOR) else None
    reached = st.reached_2400 or reaches_top(p.new_rating) or reaches_top(p.old_rating)
    return (period, str(p.list), p.key, p.new_rating, k, p.games, total, int(reached),
            p.status.value)


def list_for(path: str | os.PathLike[str], tournaments: Sequence[Tournament], on: date
             ) -> fidelist.FideList | None:
    """The register's FIDE lists in force on *on*, with the tournaments' players (by FIDE id,
    and every player of the federations of those without one, to find them by name); None
    when there is no register at *path*, or it holds no list by then, or none of them."""
    if not Path(path).exists():  # a report without a register opens none (nor makes one)
        return None
    with Register(Path(path)) as reg:
        ids, federations = wanted_on_list(tournaments)
        found = reg.list_in_force(on, ids, federations=federations)
    return found if found is not None and len(found) else None


def _identity_row(identity: EventIdentity) -> tuple[str | int, ...]:
    """The columns of the tournaments table that identify its event."""
    return (identity.chess_results, identity.fide_event, identity.name,
            identity.start.isoformat() if identity.start else "",
            " ".join(sorted(identity.keyed.players)), identity.keyed.text,
            " ".join(sorted(identity.named.players)), identity.named.text, int(identity.all_ids))


def _rekey_fallbacks(db: sqlite3.Connection) -> None:
    """Schema 3 compares names by their sorted words (importer.parsing.names): the keys of players
    without a FIDE id ('name|FED|year') are rewritten so, in every table."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    for (old,) in db.execute("SELECT key FROM players WHERE key LIKE '%|%'").fetchall():
        words, sep, rest = old.partition("|")
        new = f"{name_key(words)}{sep}{rest}"
        if new == old:
            continue
        for table in ("players", "lists"):
            db.execute(f"UPDATE OR IGNORE {table} SET key = ? WHERE key = ?", (new, old))
            db.execute(f"DELETE FROM {table} WHERE key = ?", (old,))
        db.execute("UPDATE games SET key = ? WHERE key = ?", (new, old))
        db.execute("UPDATE games SET opponent = ? WHERE opponent = ?", (new, old))
        db.execute("UPDATE pool SET key = ? WHERE key = ?", (new, old))


def _chunks(keys: list[T], size: int = 500) -> Iterator[list[T]]:
    for i in range(0, len(keys), size):
        yield keys[i:i + size]

