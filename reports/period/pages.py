"""The files of ``fiderate period``: period_players.csv, period_games.csv, each tournament's
report in a folder of its own, and the period's pages, which a rating officer reads as FIDE's
individual calculations: period.html (the month, its tournaments and a players table) and one
page per player and list in ``period-players/`` (the per-tournament lines Ro, Rc, W, N, chg,
K, K × chg and their games, and the workings of a first rating).

The pages are built in time linear in the month: the games, the pooled games and the
tournaments are grouped by player once (:func:`sections`), never scanned per player.  Numbers
come from :class:`rating.period.records.PeriodResult` (hundredths) and are printed through
:mod:`reports.render.fmt`; every file goes through :mod:`importer.writing.csvio` /
:mod:`importer.writing.atomic`.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

from importer.model import RatingList
from importer.writing.csvio import render_columns, render_csv
from rating.notes import plural
from rating.numbers import to_decimal
from rating.period.bulk import no_cycle_collection
from rating.period.fide_check import FideCheck
from rating.period.records import (
    PeriodGames,
    PeriodPlayer,
    PeriodResult,
    PeriodStatus,
    PoolGame,
)
from rating.systems.fide import average_rating, pooled_initial_rating
from rating.systems.fide_rules import FideRules, rules_for
from reports.render import fmt
from reports.render.html import environment
from reports.render.links import fide_profile
from reports.render.view import Note, player_page_name
from reports.report import build_report, render_report

if TYPE_CHECKING:
    from reports.report import RatingsList  # a type alias the module defines for type checkers only

__all__ = [
    "GAME_COLUMNS",
    "PLAYERS_FOLDER",
    "PLAYER_COLUMNS",
    "game_columns",
    "iter_period_files",
    "iter_period_pages",
    "page_names",
    "period_pages",
    "render_period_files",
    "sections",
    "write_period_files",
]

PLAYER_COLUMNS = ("fide_id", "name", "list", "old_rating", "k", "games", "change",
                  "rounded_change", "new_rating", "status", "score", "federation", "matched_by",
                  "rating_from")
FIDE_CHECK_COLUMNS = ("fide_id", "name", "tournament", "game", "figure", "fide", "ours")
"""``period_fide_check.csv``: each figure where FIDE's calculations page and ours differ."""
GAME_COLUMNS = ("tournament", "round", "fide_id", "name", "list", "opponent", "opponent_name",
                "own_rating", "opponent_rating", "capped", "score", "expected", "change", "k",
                "sources", "matched_by")
"""``period_games.csv``; ``sources``: the files the game's event was read from (the first,
then copies and older snapshots counted in it), ``matched_by``: how the player was found."""
_NUMERIC = ("old_rating", "k", "games", "change", "rounded_change", "new_rating", "score", "round",
            "own_rating", "opponent_rating", "score", "expected")
_RATINGS_FROM = {"source": "the tournament's own", "list": "the list in force at its start"}


def player_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_players.csv rows (numbers as numbers, exact): the change to the hundredth, then
    rounded once; for an unrated player the games pooled for a first rating and their score."""
    rows = []
    for p in result.players:
        rated = p.old_rating is not None
        rows.append({
            "fide_id": p.fide_id, "name": p.name, "list": str(p.list), "old_rating": p.old_rating,
            "k": p.ks[0] if len(p.ks) == 1 else p.k or None,
            "games": p.games if rated else p.pool_games,
            "change": to_decimal(p.change_h) if rated else None,
            "rounded_change": p.rounded_change if rated else None,
            "new_rating": p.new_rating, "status": p.status.value,
            "score": to_decimal(p.score_h if rated else p.pool_score_h),
            "federation": p.federation, "matched_by": p.matched_by.value,
            "rating_from": p.rating_from.value if rated else "",
        })
    return rows


def _games(result: PeriodResult) -> PeriodGames:
    """The period's games, column by column (records given otherwise are made columns)."""
    games = result.games
    return games if isinstance(games, PeriodGames) else PeriodGames.of_records(list(games))


def game_columns(result: PeriodResult) -> dict[str, list[Any]]:
    """period_games.csv as columns: one row per rated game, from the rated player's side."""
    games = _games(result)
    cols = {name: games.column(_GAME_FIELDS.get(name, name)) for name in GAME_COLUMNS[:-2]}
    read_from = {key: "; ".join(found) for key, found in result.sources.items()}
    cols["sources"] = [read_from.get(key, "") for key in cols["tournament"]]
    how = {(p.key, p.list): p.matched_by.value for p in result.players}
    cols["matched_by"] = [how.get(who, "") for who in zip(games.column("key"), cols["list"],
                                                          strict=True)]
    cols["list"] = [str(rl) for rl in cols["list"]]
    for name in ("score", "expected", "change"):
        cols[name] = [fmt.hundredths(h) for h in cols[name]]
    return cols


_GAME_FIELDS = {"score": "score_h", "expected": "expected_h", "change": "change_h"}
"""The period_games.csv columns named otherwise than their PeriodGame field."""


# ------------------------------------------------------------------------------ the pages

PLAYERS_FOLDER = "period-players"
"""The folder beside period.html holding one calculation page per player and list."""
PART_ROWS = 3000
"""At most this many rows in one players table: a larger month splits it into parts (pages of
the players folder, in alphabetical order), so that no page nears 1 MB."""
_LIST_ORDER = {rl: i for i, rl in enumerate(RatingList)}
_RATINGS_USED = {**_RATINGS_FROM, "register": "the register's list in force at its start"}


@lru_cache(maxsize=1 << 14)
def _signed_h(h: int) -> str:
    """Hundredths as a signed change, '+3.20' (cached: a month prints a few thousand values a
    million times)."""
    return fmt.signed(to_decimal(h))


@lru_cache(maxsize=1 << 12)
def _w(score_h: int) -> str:
    return fmt.points(to_decimal(score_h))


def _tone(h: int) -> str:
    """The CSS class of a change: 'pos', 'neg' or ''."""
    return "pos" if h > 0 else "neg" if h < 0 else ""


class Line(NamedTuple):
    """One line of a player's calculation: a tournament's totals, one of its games, or the
    period's total; cells are text ('' for none), *href* relative to period.html's folder (a
    tuple: a federation's month has a million of them)."""

    label: str
    href: str = ""
    """Where the label leads: the player's page in the tournament's report (a tournament
    line), the opponent's calculation (a game line)."""
    kind: str = "event"
    """'event', 'game' or 'total'."""
    lead: str = ""
    """Text before the label ('Round 4: ')."""
    ro: str = ""
    rc: str = ""
    w: str = ""
    n: str = ""
    chg: str = ""
    k: str = ""
    kchg: str = ""
    tone: str = ""


@dataclass(frozen=True, slots=True)
class PoolLine:
    """One tournament's (or the earlier periods') games pooled for a first rating."""

    label: str
    href: str
    n: int
    w: str
    opponents_sum: int
    disregarded: bool


@dataclass(frozen=True, slots=True)
class Section:
    """One player on one list: how the new rating comes about (the player's own page)."""

    page: str
    """The page's path, relative to period.html's folder."""
    player: PeriodPlayer
    status: str
    outcome: str
    lines: tuple[Line, ...]
    pool: tuple[PoolLine, ...]
    workings: tuple[str, ...]
    capped: bool
    """A game of the player's counted a capped opponent rating (the page explains '*')."""


@dataclass(frozen=True, slots=True)
class Played:
    """A tournament a player took part in: its key, name and the player's page in its report
    ('' when the tournaments' reports are not written)."""

    key: str
    name: str
    href: str


_Who = tuple[str, RatingList]
"""A player on one list: (player key, list)."""


class _Game(NamedTuple):
    """What a player's page shows of one rated game (a :class:`PeriodGame`'s fields, read
    column by column: a month has a million games)."""

    round: int
    list: RatingList
    own_rating: int
    opponent: str
    opponent_name: str
    opponent_rating: int
    capped: bool
    score_h: int
    expected_h: int
    k: int
    change_h: int


@dataclass(frozen=True, slots=True)
class _Groups:
    """The period's records grouped by player and list, each built in one pass."""

    games: dict[_Who, dict[str, list[_Game]]]
    """Rated games by tournament key, each tournament's by round."""
    pool: dict[_Who, dict[str, list[PoolGame]]]
    played: dict[_Who, list[Played]]
    """The tournaments of the player, in the period's order."""


def _groups(result: PeriodResult, reports: bool) -> _Groups:
    games: dict[_Who, dict[str, list[_Game]]] = {}
    rows = _games(result).rows("key", "tournament", *_Game._fields)
    for key, tournament, *fields in rows:
        g = _Game._make(fields)
        games.setdefault((key, g.list), {}).setdefault(tournament, []).append(g)
    for by_event in games.values():
        for rounds in by_event.values():
            rounds.sort(key=lambda g: g.round)
    pool: dict[_Who, dict[str, list[PoolGame]]] = {}
    for pg in result.pool:
        pool.setdefault((pg.key, pg.list), {}).setdefault(pg.tournament, []).append(pg)
    played: dict[_Who, list[Played]] = {}
    for spec in result.tournaments:
        name = spec.tournament.info.name or spec.key
        seen: set[str] = set()
        for p in spec.tournament.players:
            key = spec.keys[p.start_no]
            if key not in seen:  # a player entered twice is one line
                seen.add(key)
                played.setdefault((key, spec.rating_list), []).append(
                    Played(spec.key, name, f"{spec.key}/{player_page_name(p.start_no)}"
                           if reports else ""))
    return _Groups(games=games, pool=pool, played=played)


def _event_line(t: Played, games: Sequence[_Game]) -> Line:
    """FIDE's tournament line: Ro, Rc (the rated opponents' average as used), W, N, chg, K,
    K × chg."""
    if not games:
        return Line(t.name, t.href, n="0")
    kchg = sum(g.change_h for g in games)
    return Line(t.name, t.href,
                ro="/".join(str(r) for r in dict.fromkeys(g.own_rating for g in games)),
                rc=str(average_rating([g.opponent_rating for g in games])),
                w=_w(sum(g.score_h for g in games)), n=str(len(games)),
                chg=_signed_h(sum(g.score_h - g.expected_h for g in games)),
                k="/".join(str(k) for k in dict.fromkeys(g.k for g in games)),
                kchg=_signed_h(kchg), tone=_tone(kchg))


def _game_line(g: _Game, names: Mapping[_Who, str]) -> Line:
    """One game under its tournament: the opponent's rating as used (* capped), W, chg."""
    return Line(g.opponent_name, names.get((g.opponent, g.list), ""), kind="game",
                lead=f"Round {g.round}: ",
                rc=f"{g.opponent_rating}{'*' if g.capped else ''}", w=_w(g.score_h),
                chg=_signed_h(g.score_h - g.expected_h), k=str(g.k), kchg=_signed_h(g.change_h),
                tone=_tone(g.change_h))


def _pool(p: PeriodPlayer, games: Mapping[str, Sequence[PoolGame]], played: Sequence[Played]
          ) -> tuple[PoolLine, ...]:
    """The games pooled for a first rating, per tournament of the period, then the earlier
    periods' totals (what the register kept)."""
    lines = []
    for t in played:
        mine = games.get(t.key, ())
        if mine:
            counted = [g for g in mine if not g.disregarded]
            lines.append(PoolLine(t.name, t.href, len(mine), _w(sum(g.score_h for g in mine)),
                                  sum(g.opponent_rating for g in mine), not counted))
    now = [g for mine in games.values() for g in mine if not g.disregarded]
    earlier = p.pool_games - len(now)
    if earlier:
        lines.append(PoolLine(
            "Earlier periods", "", earlier, _w(p.pool_score_h - sum(g.score_h for g in now)),
            p.pool_opponents_sum - sum(g.opponent_rating for g in now), False))
    return tuple(lines)


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _workings(p: PeriodPlayer, rules: FideRules) -> tuple[str, ...]:
    """Ra, p, dp and the first rating from the pooled games, as the rules of the new list say."""
    n, total, w = p.pool_games, p.pool_opponents_sum, p.pool_score_h
    first = pooled_initial_rating(n, total, w, rules)
    if first.value is None:
        return ()
    games = f"{n} game{'s' if n != 1 else ''} against rated opponents"
    if first.hypothetical:
        h, m = first.hypothetical_rating, first.hypothetical
        draws = f"{_NUMBER_WORDS.get(m, str(m))} hypothetical draw{'s' if m != 1 else ''}"
        lines = [f"{games} and {draws} against {h}",
                 f"Ra = ({total} + {m} × {h}) / ({n} + {m}) = {fmt.average(first.average)}",
                 f"p = ({_w(w)} + {_w(50 * m)}) / ({n} + {m}) = {fmt.hundredths(first.p_h)}, "
                 f"so dp = {fmt.signed(first.dp)}"]
    else:
        lines = [games, f"Ra = {total} / {n} = {fmt.average(first.average)}",
                 f"p = {_w(w)} / {n} = {fmt.hundredths(first.p_h)}, so dp = {fmt.signed(first.dp)}"]
    lines.append(f"Ra + dp = {fmt.average(first.exact)}, rounded {first.rounded}"
                 + (f", at most {first.value}" if first.at_maximum else ""))
    lines.append(f"first rating {first.value}" if first.published
                 else f"no first rating yet: {first.reason}")
    return tuple(lines)


def _outcome(p: PeriodPlayer, rules: FideRules, pool: Sequence[PoolLine]) -> str:
    """The player's result in one sentence: old → change → rounded → new, or why not."""
    if p.old_rating is None:
        if p.status is PeriodStatus.NEWLY_RATED:
            return f"Unrated; first rating {p.new_rating} from {p.pool_games} games against " \
                   "rated opponents (workings below)"
        if any(line.disregarded for line in pool) and not p.pool_games:
            return ("Unrated; a zero score in a player's first event is not counted, so no game "
                    "is pooled for a first rating")
        return f"Unrated; {p.pool_games} of {rules.initial_min_games} games " \
               "against rated opponents pooled for a first rating"
    old = f"Rating {p.old_rating}"
    if p.status is PeriodStatus.INACTIVE:
        return f"{old}; no rated game for a year: inactive on the new list"
    if not p.games:
        return f"{old}; no rated game in the period, so the rating stays {p.new_rating}"
    steps = (f"{old}, K {p.k}, {p.games} rated game{'s' if p.games != 1 else ''}: change "
             f"{_signed_h(p.change_h)} → {fmt.signed(p.rounded_change)}")
    after = p.changed_rating
    if p.status is PeriodStatus.DROPPED_BELOW_FLOOR:
        return (f"{steps} → {after}, below the floor of {rules.floor}: "
                "unrated on the new list")
    adjusted = f" → {after}, adjusted to" if p.new_rating != after else " →"
    return f"{steps}{adjusted} new rating {p.new_rating}"


def _slug(name: str) -> str:
    """A name as ASCII letters, digits and hyphens (at most 40), for a file name."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:40].strip("-") or "player"


def page_names(result: PeriodResult) -> dict[tuple[str, RatingList], str]:
    """Each player's calculation page, by (player key, list), relative to period.html's folder.

    ``period-players/<FIDE id>-<list>.html`` (``period-players/99200005-standard.html``); a
    player without a FIDE id is matched by name, federation and birth year, and their page is
    ``<name>-<8 hex digits of that identity's SHA-256>-<list>.html``: the same in every run
    of the same player, letters, digits and hyphens only.  The folder is ``period-players``
    unless a tournament's folder has that name (then ``period-players-2``).
    """
    folder = _players_folder(result)
    out: dict[tuple[str, RatingList], str] = {}
    taken: set[str] = set()
    for p in result.players:
        if re.fullmatch(r"[0-9]{1,15}", p.key):
            stem = p.key
        else:
            digest = hashlib.sha256(p.key.encode("utf-8")).hexdigest()
            size = 8
            stem = f"{_slug(p.name)}-{digest[:size]}"
            while f"{stem}-{p.list}" in taken:  # never in practice: a longer digest
                size += 8
                stem = f"{_slug(p.name)}-{digest[:size]}"
        name = f"{stem}-{p.list}"
        taken.add(name)
        out[(p.key, p.list)] = f"{folder}/{name}.html"
    return out


def _players_folder(result: PeriodResult) -> str:
    taken = {t.key.casefold() for t in result.tournaments}
    folder, n = PLAYERS_FOLDER, 2
    while folder.casefold() in taken:
        folder, n = f"{PLAYERS_FOLDER}-{n}", n + 1
    return folder


def _order(result: PeriodResult) -> list[PeriodPlayer]:
    """The players as the pages list them: by name, then list (standard, rapid, blitz)."""
    return sorted(result.players, key=lambda p: (p.name.casefold(), p.name, _LIST_ORDER[p.list],
                                                 p.key))


def sections(result: PeriodResult, *, reports: bool = True) -> list[Section]:
    """Every player's calculation, in the order of the players table (by name, then list):
    one pass over the games, the pool and the tournaments, whatever the number of players;
    with *reports*, each tournament links to the player's page in its report."""
    groups = _groups(result, reports)
    names = page_names(result)
    rules = rules_for(result.period)
    no_games: dict[str, list[_Game]] = {}
    out = []
    for p in _order(result):
        who = (p.key, p.list)
        where = groups.played.get(who, [])
        mine = groups.games.get(who, no_games)
        lines: list[Line] = []
        pool: tuple[PoolLine, ...] = ()
        capped = False
        if p.old_rating is not None:
            score = 0
            for t in where:
                games = mine.get(t.key, [])
                lines += [_event_line(t, games), *(_game_line(g, names) for g in games)]
                score += sum(g.score_h for g in games)
                capped = capped or any(g.capped for g in games)
            if p.games:
                lines.append(Line("Period", kind="total", w=_w(score), n=str(p.games), k=p.k,
                                  kchg=_signed_h(p.change_h), tone=_tone(p.change_h)))
        else:
            pool = _pool(p, groups.pool.get(who, {}), where)
        out.append(Section(page=names[who], player=p, status=p.status.words,
                           outcome=_outcome(p, rules, pool), lines=tuple(lines), pool=pool,
                           workings=_workings(p, rules) if p.old_rating is None else (),
                           capped=capped))
    return out


def _player_row(s: Section) -> SimpleNamespace:
    """A row of the players table: short (a month may have thousands), text that sorts as it
    reads, with a sort key only where it does not."""
    p = s.player
    rated = p.old_rating is not None
    return SimpleNamespace(
        href=s.page, file=s.page.rpartition("/")[2], name=p.name, fide_id=p.fide_id,
        list=str(p.list),
        old=p.old_rating if rated else "unrated", k=p.k,
        k_sort=str(max(p.ks)) if len(p.ks) > 1 else None,
        games=str(p.games) if rated else f"{p.pool_games} pooled",
        games_sort=None if rated else str(p.pool_games), pooled=not rated,
        change=_signed_h(p.change_h) if rated else "",
        rounded=fmt.signed(p.rounded_change) if rated else "",
        tone=_tone(p.change_h) if rated else "", new=p.new_rating, status=p.status.words)


def _parts(rows: Sequence[SimpleNamespace], folder: str) -> list[SimpleNamespace]:
    """The players table in parts of at most PART_ROWS rows, of even size, each a page of the
    players folder named by its first and last player (none when one table holds them all)."""
    if len(rows) <= PART_ROWS:
        return []
    count = -(-len(rows) // PART_ROWS)
    size = -(-len(rows) // count)
    out = []
    for i in range(count):
        chunk = rows[i * size:(i + 1) * size]
        out.append(SimpleNamespace(href=f"{folder}/players-{i + 1}.html", rows=chunk,
                                   number=i + 1, first=chunk[0].name, last=chunk[-1].name))
    return out


INDEX_PLAYER_NOTES = 50
"""period.html lists at most this many notes about single players (every one is on the
player's page): a month without a FIDE list has one for nearly every player."""


def _notes(result: PeriodResult) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """The period's notes in their order, each with the key of the one player it is about ('' for
    the month, its tournaments or several players); and by player key, the notes that concern
    that player (a note about several players is on each one's page)."""
    out: list[tuple[str, str]] = []
    mine: dict[str, list[str]] = {}
    for note in result.notes:
        about = sorted(note.players)
        out.append((str(note), about[0] if len(about) == 1 else ""))
        for key in about:
            mine.setdefault(key, []).append(str(note))
    return out, mine


def _index_notes(notes: Sequence[tuple[str, str]]) -> list[str]:
    """period.html's notes: all about the month, the first INDEX_PLAYER_NOTES about single
    players, then how many more there are."""
    shown: list[str] = []
    about_one = 0
    for text, about in notes:
        about_one += bool(about)
        if not about or about_one <= INDEX_PLAYER_NOTES:
            shown.append(text)
    more = about_one - INDEX_PLAYER_NOTES
    if more > 0:
        shown.append(f"… and {more} more note{'s' if more != 1 else ''} about single players, "
                     "each on the player's page")
    return shown


def _site_at(site: Mapping[str, Any] | None, root: str) -> Mapping[str, Any] | None:
    """*site* for a page in a folder of its own: its relative download links lead up."""
    if not site or not root or not site.get("downloads"):
        return site
    return {**site, "downloads": [{**d, "href": d["href"] if d["href"].startswith("/") or ":" in
                                   d["href"] else root + d["href"]} for d in site["downloads"]]}


def period_pages(result: PeriodResult, site: Mapping[str, Any] | None = None, *,
                 reports: bool = True) -> dict[str, str]:
    """:func:`iter_period_pages` as one mapping."""
    return dict(iter_period_pages(result, site, reports=reports))


def iter_period_pages(result: PeriodResult, site: Mapping[str, Any] | None = None, *,
                      reports: bool = True) -> Iterator[tuple[str, str]]:
    """period.html and the pages of the players folder, each as it is made (a federation's
    month has tens of thousands), by path relative to period.html's folder, through the
    reports' Jinja2 environment (autoescaped: names are untrusted); *site* is what
    ``fiderate serve`` adds around the pages.

    period.html: the summary, the tournaments, the notes and the players table (short rows,
    each name leading to the player's page; past PART_ROWS players, the table's parts);
    ``<folder>/<player>.html``: one player's calculation on one list (see :func:`page_names`).
    """
    return _PeriodPages(result, site, reports).render()


class _PeriodPages:
    """The period's pages, prepared once (every player's calculation), then rendered in one
    share or several (worker processes each rendering theirs)."""

    def __init__(self, result: PeriodResult, site: Mapping[str, Any] | None, reports: bool
                 ) -> None:
        self.result, self.site = result, site
        self.calc = sections(result, reports=reports)
        self.notes, self.player_notes = _notes(result)
        self.folder = _players_folder(result)
        self.rows = [_player_row(s) for s in self.calc]
        self.parts = _parts(self.rows, self.folder)
        n_t = len(result.tournaments)
        self.common = {
            "period": f"{result.period:%Y-%m}", "list_date": result.period.isoformat(),
            "period_cap": rules_for(result.period).period_cap_words,
            "state": SimpleNamespace(
                stage=f"Rating period {result.period:%Y-%m}: {plural(n_t, 'tournament')}",
                as_of=f"computed for the FIDE list of {result.period.isoformat()}", live=False)}
        self.tournaments = [{
            "key": t.key, "name": t.tournament.info.name or t.key,
            "href": f"{t.key}/index.html" if reports else "", "list": str(t.rating_list),
            "dates": " – ".join(d.isoformat() for d in dict.fromkeys(
                (t.start, t.tournament.info.end_date or t.start))),
            "rules": t.rules.name, "ratings": _RATINGS_USED.get(t.ratings_from, t.ratings_from),
            "players": len(t.tournament.players),
        } for t in result.tournaments]

    @property
    def player_pages(self) -> list[str]:
        """The players' pages, in the order :meth:`render` makes them."""
        return [s.page for s in self.calc]

    def render(self, share: int = 0, shares: int = 1) -> Iterator[tuple[str, str]]:
        """The pages by path: share 0 of *shares* makes period.html and the table's parts,
        and each share every *shares*-th player's page from its own."""
        result, rows, parts, common, calc = (self.result, self.rows, self.parts, self.common,
                                             self.calc)
        env = environment()
        inner = _site_at(self.site, "../")
        if share == 0:
            counts = Counter(p.status for p in result.players)
            n_t, n_g = len(result.tournaments), len(result.games)
            yield "period.html", env.get_template("period.html").render(
                **common, root="", here=self.folder + "/", players=[] if parts else rows,
                parts=parts, total=len(rows), tournaments=self.tournaments,
                notes=[Note(n) for n in _index_notes(self.notes)],
                pooled=any(p.old_rating is None for p in result.players),
                summary=[plural(n_t, "tournament"), plural(n_g, "rated game result"),
                         ", ".join(f"{counts[s]} {s.words}" for s in PeriodStatus if counts[s])],
                site=self.site)
            part_page = env.get_template("period_part.html")
            for i, part in enumerate(parts):
                yield part.href, part_page.render(
                    **common, root="../", here="", part=part, players=part.rows,
                    total=len(rows), before=parts[i - 1] if i else None,
                    after=parts[i + 1] if i + 1 < len(parts) else None,
                    pooled=any(r.pooled for r in part.rows), site=inner)
        part_of = {r.href: part for part in parts for r in part.rows}
        lists: dict[str, list[Section]] = {}
        for s in calc:
            lists.setdefault(s.player.key, []).append(s)
        several = len({s.player.list for s in calc}) > 1
        page = env.get_template("period_player.html")
        for i in range(share, len(calc), shares):
            s = calc[i]
            before, after = calc[i - 1] if i else None, calc[i + 1] if i + 1 < len(calc) else None
            yield s.page, page.render(
                **common, root="../", s=s, part=part_of.get(s.page),
                fide_href=fide_profile(s.player.fide_id),
                before=before, after=after, several_lists=several,
                others=[o for o in lists[s.player.key] if o is not s],
                notes=[Note(n) for n in self.player_notes.get(s.player.key, ())], site=inner,
                pool_score=fmt.points(to_decimal(s.player.pool_score_h)))


PARALLEL_PAGES = 2000
"""From this many players' pages on, worker processes write them too (one per processor, each
its share; the pages are the same whoever writes them)."""


def write_period_files(result: PeriodResult, folder: str | Path, *, html_summary: bool = True,
                       ratings_list: RatingsList | None = None,
                       fide_checks: Sequence[FideCheck] = (), reports: bool = False
                       ) -> list[Path]:
    """Write :func:`iter_period_files` into *folder* — the folder being prepared, which the
    caller swaps in whole (:class:`importer.writing.atomic.StagedDir`) — each file as it is
    made (a month's pages are never all held at once); the paths, in a stable order."""
    folder = Path(folder)
    paths = []
    made: set[Path] = set()
    with no_cycle_collection():
        for name, text in iter_period_files(result, ratings_list=ratings_list, pages=False,
                                            fide_checks=fide_checks, reports=reports):
            path = folder / name
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            path.write_text(text, encoding="utf-8", newline="")
            paths.append(path)
        if html_summary:
            paths += _write_pages(_PeriodPages(result, None, reports), folder)
    return paths


def _write_pages(pages: _PeriodPages, folder: Path) -> list[Path]:
    """Write the period's pages into *folder*: past PARALLEL_PAGES players, forked worker
    processes write their shares beside this one (Linux: they start with the prepared pages,
    nothing copied); the paths, in :func:`iter_period_pages`' order."""
    (folder / pages.folder).mkdir(parents=True, exist_ok=True)
    shares = 1
    if len(pages.calc) >= PARALLEL_PAGES and sys.platform == "linux":
        shares = max(1, min(len(os.sched_getaffinity(0)), 8))
    fork = multiprocessing.get_context("fork") if shares > 1 else None
    workers = [fork.Process(target=_write_share, args=(pages, folder, w, shares), daemon=True)
               for w in range(1, shares)] if fork else []
    for w in workers:
        w.start()
    try:
        _write_share(pages, folder, 0, shares)
    finally:
        for w in workers:
            w.join()
    failed = [w.exitcode for w in workers if w.exitcode != 0]
    if failed:
        raise OSError(f"the players' pages could not all be written (a worker process stopped "
                      f"with exit code {failed[0]})")
    return [folder / "period.html", *(folder / p.href for p in pages.parts),
            *(folder / name for name in pages.player_pages)]


def _write_share(pages: _PeriodPages, folder: Path, share: int, shares: int) -> None:
    for name, text in pages.render(share, shares):
        (folder / name).write_text(text, encoding="utf-8", newline="")


def render_period_files(result: PeriodResult, *, ratings_list: RatingsList | None = None,
                        site: Mapping[str, Any] | None = None, pages: bool = True,
                        fide_checks: Sequence[FideCheck] = (), reports: bool = False
                        ) -> dict[str, str]:
    """:func:`iter_period_files` as one mapping (nothing written)."""
    return dict(iter_period_files(result, ratings_list=ratings_list, site=site, pages=pages,
                                  fide_checks=fide_checks, reports=reports))


def iter_period_files(result: PeriodResult, *, ratings_list: RatingsList | None = None,
                      site: Mapping[str, Any] | None = None, pages: bool = True,
                      fide_checks: Sequence[FideCheck] = (), reports: bool = False
                      ) -> Iterator[tuple[str, str]]:
    """Every file of the period by relative path, each as it is made: period_players.csv,
    period_games.csv and, with *pages*, period.html and each player's page (see
    :func:`iter_period_pages`; *site* is what ``fiderate serve`` adds around them); with
    *fide_checks*, period_fide_check.csv; with *reports*, each tournament's own report in
    ``<tournament key>/`` (the month's files cost what they show: a federation's 2,000
    tournaments' reports take longer than the month itself)."""
    yield "period_players.csv", render_csv(PLAYER_COLUMNS, player_rows(result), numeric=_NUMERIC)
    yield "period_games.csv", render_columns(game_columns(result), numeric=_NUMERIC)
    if fide_checks:  # FIDE's calculations pages were given: what differs from them
        yield "period_fide_check.csv", render_csv(FIDE_CHECK_COLUMNS, (
            {"name": c.name, **{f: getattr(d, f) for f in FIDE_CHECK_COLUMNS if f != "name"}}
            for c in fide_checks for d in c.differences))
    for spec in result.tournaments if reports else ():
        report = build_report(spec.tournament, ratings_list=ratings_list, on=spec.start)
        yield from ((f"{spec.key}/{name}", text) for name, text in render_report(report).items())
    if pages:
        yield from iter_period_pages(result, site, reports=reports)
