"""``fiderate report``'s library: rate a tournament and write CSV and HTML reports.

:func:`build_report` rates a :class:`~importer.model.Tournament` (the tournament view of
:mod:`rating.tournament`) and :func:`write_report` writes, through one atomic folder:

* ``rating_players.csv``: one row per player (totals);
* ``rating_rounds.csv``: one row per player and round;
* ``scenarios.csv``: when a paired game is unfinished, what a win, draw or loss would bring;
* ``rating_tournament.csv``: one row: the rules applied, the date that chose them and where
  that date comes from, the rounds, how many have results, and whether a round is in progress;
* ``index.html`` and ``player-<start_no>.html``: the same, self-contained.

A system rated beside the main one (a national rating the source names, see
:func:`rating.registry.beside`) adds the columns it declares to the players and rounds
tables, on every output; nothing here names a system.

Numbers are formatted once, in :mod:`reports.fmt`; text cells go through
:mod:`importer.csvio` (spreadsheet formulas neutralised).

(Over 600 lines: the report's record, its notes and the rows of its four CSV files are kept
together so that the CSV, HTML and terminal views read one set of figures.)
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from importer.atomic import write_folder_atomic
from importer.csvio import render_csv
from importer.model import DateSource, Player, Tournament
from rating import registry
from rating.base import Cell, Column, Form, RatingSystem
from rating.fide import InitialRating
from rating.numbers import round_half_up
from rating.published import Comparison, PublishedCheck, compare_published
from rating.results import PlayerNote, PlayerRating, RoundLine, TournamentRating
from rating.tournament import rate_tournament
from reports import fmt
from reports.errors import ReportError
from reports.summary import live_round, rounds_with_results

if TYPE_CHECKING:
    from typing import TypeAlias

    from importer.fidelist import FideList

    RatingsList: TypeAlias = str | os.PathLike[str] | FideList
    """A FIDE rating list: a path to the download, or one already read."""

__all__ = [
    "FORMATS",
    "PLAYER_COLUMNS",
    "ROUND_COLUMNS",
    "SCENARIO_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "BesideRating",
    "Note",
    "PageCell",
    "PublishedFigure",
    "PublishedView",
    "Report",
    "build_report",
    "initial_workings",
    "live_round",
    "page_cells",
    "page_headers",
    "player_columns",
    "player_page_name",
    "provisional",
    "published_view",
    "rated_with",
    "render_report",
    "resolve_player",
    "round_columns",
    "rounded_change",
    "rounds_with_results",
    "save_report",
    "text_columns",
    "tournament_row",
    "write_report",
]

FORMATS = ("csv", "html")

PLAYER_COLUMNS = ("start_no", "name", "fide_id", "rating", "k", "rated_games", "score",
                  "expected", "change", "new_rating", "performance", "title", "federation",
                  "points", "k_source", "initial_rating", "published_change", "change_agrees",
                  "rounded_change")
ROUND_COLUMNS = ("start_no", "round", "opponent_no", "opponent_name", "opponent_rating",
                 "colour", "points", "rated", "reason", "expected", "change",
                 "cumulative_change", "k", "status", "capped", "published_change")
SCENARIO_COLUMNS = ("start_no", "name", "round", "opponent_no", "opponent_name",
                    "opponent_rating", "k", "expected", "win", "draw", "loss", "total_if_win",
                    "total_if_draw", "total_if_loss", "rating", "new_rating_if_win",
                    "new_rating_if_draw", "new_rating_if_loss", "rated", "reason")
TOURNAMENT_COLUMNS = ("id", "name", "system", "rules", "rules_date", "date_source", "rating_list",
                      "rounds", "rounds_with_results", "live")
_TEXT = frozenset({"name", "fide_id", "title", "federation", "opponent_name", "colour",
                   "reason", "k_source", "status", "id", "rules"})

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BesideRating:
    """The tournament rated with another system beside the main one (e.g. the national
    rating the source names); its system declares the columns it adds."""

    system: RatingSystem
    rating: TournamentRating


@dataclass(frozen=True, slots=True)
class Note:
    """A note as the pages and the terminal show it: a sentence, then one line per item."""

    text: str
    items: tuple[str, ...] = ()
    """The players it concerns, one per line, each with what it says about them."""
    players: frozenset[int] = frozenset()
    """Their start numbers (their own pages say it their way); empty: about the whole event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """A rated tournament, ready to render: the tournament, its rating, and the ratings
    beside it."""

    tournament: Tournament
    rating: TournamentRating
    beside: tuple[BesideRating, ...] = ()
    """Systems rated beside the main one without being asked (see
    :func:`rating.registry.beside`), each adding its columns."""
    focus: int | None = None
    """The start number of the one player the report is about (None: every player)."""
    notes: tuple[Note, ...] = ()
    """The notes of the whole report: about the event (rules chosen, the source's warnings),
    then those about players, each listing the players concerned (assumed K …)."""
    player_notes: tuple[PlayerNote, ...] = ()
    """The notes about single players, for their own pages."""
    k_note: str = ""
    """The text of the assumed-K note (the terminal adds the option that changes it)."""
    by_no: dict[int, Player] = field(default_factory=dict, compare=False)
    """The tournament's players by start number."""
    published: PublishedCheck | None = None
    """Our rating change and performance against the figures the source publishes."""

    def notes_for(self, start_no: int) -> list[Note]:
        """The notes for one player's page: those about the event, and the player's own."""
        return [*(n for n in self.notes if not n.players),
                *(Note(n.sentence) for n in self.player_notes if n.start_no == start_no)]

    @property
    def shown(self) -> list[PlayerRating]:
        """The players the report lists: the focus player, or everyone by start number."""
        if self.focus is not None:
            one = self.rating.player(self.focus)
            return [one] if one is not None else []
        return list(self.rating.players)

    def player(self, start_no: int) -> Player:
        """The tournament's record of a player (a placeholder when the source lacks them)."""
        return self.by_no.get(start_no) or Player(start_no=start_no, name=f"#{start_no}")


# ------------------------------------------------------------------------------ inputs

def resolve_player(t: Tournament, text: str | int) -> int:
    """--player N|NAME|FIDEID → a start number; ReportError with close matches otherwise."""
    query = str(text).strip()
    if not query:
        raise ReportError("--player is empty: give a start number, a name or a FIDE id")
    by_no = t.players_by_no()
    if query.isdigit():
        number = int(query)
        ids = [p.start_no for p in t.players if p.fide_id and p.fide_id == query]
        if ids:
            return ids[0]
        if number in by_no:
            return number
        raise ReportError(f"--player {query}: no player has this start number "
                          f"(1–{max(by_no, default=0)}) or FIDE id")
    folded = query.casefold()
    exact = [p.start_no for p in t.players if p.name.casefold() == folded]
    if len(exact) == 1:
        return exact[0]
    partial = [p for p in t.players if folded in p.name.casefold()]
    if len(partial) == 1 and not exact:
        return partial[0].start_no
    if len(exact) > 1 or len(partial) > 1:
        many = [by_no[n] for n in exact] if len(exact) > 1 else partial
        listed = "; ".join(f"{p.start_no} {p.name}" for p in many[:8])
        raise ReportError(f"--player {query!r} matches several players: {listed} "
                          "(give the start number)")
    close = difflib.get_close_matches(query, [p.name for p in t.players], n=5, cutoff=0.5)
    hint = f"; close matches: {', '.join(close)}" if close else ""
    raise ReportError(f"--player {query!r}: no such player{hint}")


def _k_lookup_from_list(t: Tournament, ratings_list: RatingsList, list_name: str,
                        notes: list[str]) -> Callable[[Player], int | None]:
    """K of each player on a FIDE rating list download (its K for the tournament's list).

    The K that counts is the one of the list in force, never a later list's; a note says so
    when the list is dated after the tournament's start.  The list's own warnings (broken
    lines skipped) become notes.
    """
    from importer.fidelist import FideList, read_fide_list
    from rating.identity import MatchedBy, identify, list_candidates, wanted_names, wanted_on_list
    from rating.notes import grouped

    if isinstance(ratings_list, FideList):
        loaded = ratings_list
        if loaded.format == "register" and loaded.list_date is not None:
            notes.append(f"K from the FIDE list of {loaded.list_date:%Y-%m} in the register")
    else:
        ids, federations = wanted_on_list([t])
        loaded = read_fide_list(ratings_list, fide_ids=ids, federations=federations)
        notes += list_warnings(loaded.warnings)
    start = t.info.start_date
    if loaded.list_date is not None and start is not None and loaded.list_date > start:
        when = (f"the source's last update ({start.isoformat()}), so after the tournament's "
                "start" if t.info.date_source is DateSource.LAST_UPDATE
                else f"the tournament's start ({start.isoformat()})")
        notes.append(f"the rating list is dated {loaded.list_date.isoformat()}, after {when}: "
                     "its K may not be the K then")

    # People, not rows: a player without a FIDE id is found on the list by name and federation,
    # as the rating period finds them (rating.identity).
    names = wanted_names([t])
    found = identify([(_EVENT, t)], known=[list_candidates(loaded, names)] if names else [])
    entries = loaded.entries(p.fide_id for p in found.people if p.fide_id)
    by_name = [p for p in found.people if p.matched_by is MatchedBy.NAME_FED and p.fide_id in entries]
    if by_name:
        notes.append(grouped(f"K from the list for {len(by_name)} player"
                             f"{'s' if len(by_name) != 1 else ''} without a FIDE id in the source, "
                             "found on it by name and federation",
                             [f"{p.name} (FIDE id {p.fide_id})" for p in by_name]))

    def lookup(p: Player) -> int | None:
        person = found.person(_EVENT, p.start_no)
        entry = entries.get(person.fide_id) if person is not None and person.fide_id else None
        return entry.k(list_name) if entry is not None else None

    return lookup


_EVENT = "this tournament"
"""The one event of a report, as identities name it."""


def _system(name: str | RatingSystem) -> str | RatingSystem:
    """A registered system's name (built by the tournament view) or a system as given."""
    if not isinstance(name, str) or name in registry.names():
        return name
    *most, last = registry.names()
    raise ReportError(f"unknown rating system {name!r}: use {', '.join(most)} or {last}")


def list_warnings(warnings: Sequence[str], limit: int = 5) -> list[str]:
    """A rating list's warnings as notes: the first few, then how many more."""
    return fmt.first_few(warnings, limit, what="rating-list warnings")


def build_report(t: Tournament, *, system: str | RatingSystem = "fide", k_default: int = 20,
                 ratings_list: RatingsList | None = None, on: date | None = None,
                 focus: int | str | None = None) -> Report:
    """Rate *t* for a report; *focus* (start number, name or FIDE id) narrows it to one player.

    The FIDE rules are those of the best date known: the event's own (details, round dates,
    a date in its name), else *on*, else the source's last update (the event started on or
    before it), else today; a note says so in plain words when it is not the event's own.
    ReportError on bad input.
    """
    if not t.players:
        raise ReportError("the source has no players")
    if not 1 <= k_default <= 100:
        raise ReportError(f"--k must be from 1 to 100, got {k_default}")
    notes: list[str] = []
    focus_no = resolve_player(t, focus) if focus is not None else t.focus
    if focus_no is not None and t.player(focus_no) is None:
        focus_no = None
    today = date.today()  # noqa: DTZ011 - the local date is the user's "today"
    list_name = (t.info.rating_list.value if t.info.rating_list else "standard")
    k_lookup = (_k_lookup_from_list(t, ratings_list, list_name, notes) if ratings_list
                else None)
    chosen = _system(system)
    rating = rate_tournament(t, chosen, k_default=k_default, k_lookup=k_lookup, on=on,
                             today=today)
    settings = registry.Settings(on=rating.on, rating_list=rating.rating_list,
                                k_default=k_default)
    beside = tuple(BesideRating(s, rate_tournament(t, s, k_default=k_default, on=on, today=today))
                   for s in registry.beside(t.info, settings) if s.name != rating.system)
    notes += rating.notes
    about: list[PlayerNote] = list(rating.player_notes)
    for w in t.warnings:
        concerned = _concerns(w, t)
        if not concerned:
            notes.append(w)
        about += [PlayerNote(start_no=n, text=w) for n in concerned]
    k_note = f"K {k_default} assumed (no K published, listed or given by the category)"
    about += [PlayerNote(start_no=n, text=k_note) for n in rating.default_k_players]
    if focus_no is not None:
        about = [n for n in about if n.start_no == focus_no]
    published = compare_published(t, rating, only=None if focus_no is None else {focus_no})
    return Report(tournament=t, rating=rating, beside=beside, focus=focus_no,
                  notes=(*map(Note, dict.fromkeys(notes)), *_listed(about, t)),
                  player_notes=tuple(about), k_note=k_note,
                  by_no=t.players_by_no(), published=published)


_CONCERNS = re.compile(r"(?:^|: )(?:round \d+: )?(?:asymmetric pairing: )?players? (?:card )?(\d+)"
                       r"(?:(?: and|,? has opponent| \([^)]*\) vs) (\d+))?")
"""How the importers' warnings name the players they are about ('round 3: players 5 and 7 …',
'player 12 (Doe, Jo): printed points …'); an aggregate ('e.g. player 3') concerns the event."""


def _concerns(warning: str, t: Tournament) -> list[int]:
    """The start numbers of the players a source warning is about (none: the event)."""
    m = _CONCERNS.search(warning)
    found = [int(g) for g in m.groups() if g] if m else []
    return [n for n in dict.fromkeys(found) if t.player(n) is not None]


def _listed(about: Sequence[PlayerNote], t: Tournament) -> list[Note]:
    """Notes about players gathered by text, each player concerned on a line of its own."""
    by_text: dict[str, list[PlayerNote]] = {}
    for n in about:
        by_text.setdefault(n.text, []).append(n)
    by_no = t.players_by_no()
    return [Note(text, tuple(f"No. {n.start_no} {by_no[n.start_no].name}"
                             + (f": {n.detail}" if n.detail else "") for n in group),
                 frozenset(n.start_no for n in group))
            for text, group in by_text.items()]


# ------------------------------------------------------------------------------ rows

def tournament_row(report: Report) -> dict[str, object]:
    """rating_tournament.csv: how the tournament was rated, and how far it has got."""
    t, r = report.tournament, report.rating
    return {"id": t.info.id, "name": t.info.name, "system": r.system, "rules": r.rules_label,
            "rules_date": r.on.isoformat(), "date_source": r.date_source,
            "rating_list": r.rating_list.value, "rounds": t.info.rounds or t.rounds_seen or None,
            "rounds_with_results": rounds_with_results(t),
            "live": live_round(t) is not None}


_DATE_WORDS = {
    "details": "event date {d}, from the tournament details",
    "round dates": "event date {d}, from the round dates",
    "title": "event date {d}, from the tournament name",
    "last update": "no event date: the source's last update {d}, on or before which it started",
    "given": "no event date: the date given, {d}",
    "none": "no date in the source: today's rules",
}


def rated_with(report: Report) -> str:
    """'Rated with FIDE rules of 2024-03 (event date 2026-08-01, from the round dates) ·
    9 rounds, 7 with results · round 8 in progress'."""
    r, t = report.rating, report.tournament
    label = r.rules_label or r.rules
    if label.startswith("FIDE before "):
        rules = f"FIDE rules from {label[5:]}"
    elif label.startswith("FIDE "):
        rules = f"FIDE rules of {label[5:]}"
    else:
        rules = label
    words = _DATE_WORDS.get(r.date_source, "date {d}").format(d=r.on.isoformat())
    parts = [f"Rated with {rules} ({words})"]
    rounds, done = t.info.rounds or t.rounds_seen, rounds_with_results(t)
    if rounds:
        parts.append(f"{rounds} round{'s' if rounds != 1 else ''}, {done} with results")
    live = live_round(t)
    if live is not None:
        parts.append(f"round {live} in progress")
    return " · ".join(parts)


def _num(value: Decimal | None) -> str:
    """An exact decimal as plain text without exponent or spurious zeros: 0.5, 4, 12.25."""
    if value is None:
        return ""
    return format(value.normalize(), "f") if value != 0 else "0"


def player_page_name(start_no: int) -> str:
    """The file name of a player's HTML page."""
    return f"player-{start_no}.html"


def player_rows(report: Report) -> list[dict[str, object]]:
    """rating_players.csv: one row per shown player."""
    out: list[dict[str, object]] = []
    for pr in report.shown:
        p = report.player(pr.start_no)
        row: dict[str, object] = {
            "start_no": pr.start_no, "name": p.name, "fide_id": p.fide_id,
            "rating": pr.rating, "k": pr.k, "rated_games": pr.rated_games,
            "score": _num(pr.score), "expected": fmt.change(pr.expected),
            "change": fmt.change(pr.change) if pr.rating is not None else "",
            "new_rating": pr.new_rating,
            "performance": pr.performance, "title": p.title, "federation": p.federation,
            "points": _num(pr.points), "k_source": pr.k_source.value if pr.k is not None else "",
            "initial_rating": (pr.initial.value if pr.initial is not None and pr.initial.published
                               else None),
            "published_change": _num(pr.published_change),
            "change_agrees": _agrees(report, pr.start_no),
            "rounded_change": rounded_change(pr),
        }
        for b in report.beside:
            row.update(_csv_cells(b.system.player_columns, b.rating.player(pr.start_no)))
        out.append(row)
    return out


def _agrees(report: Report, start_no: int) -> bool | None:
    """Whether our change equals the published one at the hundredth (None: not compared)."""
    check = report.published
    if check is None or start_no not in check.change.players:
        return None
    return all(d.start_no != start_no for d in check.change.disagreements)


@dataclass(frozen=True, slots=True)
class PublishedFigure:
    """One published figure compared, as text."""

    summary: str
    """'108 of 108 players agree with chess-results' published rating change'."""
    disagreements: tuple[str, ...]
    """'12 Doe, John: ours +8.80, chess-results +8.90 (K 20 here, 40 published)'."""
    method: str
    """How ours and the source's figure are computed."""


@dataclass(frozen=True, slots=True)
class PublishedView:
    """The comparison with the source's published figures, as text for every output."""

    source: str
    figures: tuple[PublishedFigure, ...]
    notes: tuple[str, ...]


def published_view(report: Report) -> PublishedView | None:
    """The comparison with the source's published figures as text (None: nothing to say)."""
    check = report.published
    if check is None or not (check.compared or check.notes):
        return None

    def shown(c: Comparison, value: Decimal | None) -> str:
        if value is None:
            return "none"
        return fmt.signed(value) if c is check.change else str(int(value))

    figures = []
    for c in (check.change, check.performance):
        if not c.compared:
            continue
        rows = tuple(f"{d.start_no} {d.name}: ours {shown(c, d.ours)}, {c.source} "
                     f"{shown(c, d.theirs)}" + (f" ({'; '.join(d.notes)})" if d.notes else "")
                     for d in c.disagreements)
        figures.append(PublishedFigure(c.summary, rows, c.method))
    return PublishedView(check.source, tuple(figures), check.notes)


def round_rows(report: Report) -> list[dict[str, object]]:
    """rating_rounds.csv: one row per shown player and round."""
    out: list[dict[str, object]] = []
    for pr in report.shown:
        beside = [(b.system.round_columns, _rounds(b.rating.player(pr.start_no)))
                  for b in report.beside]
        for ln in pr.rounds:
            opp = report.player(ln.opponent_no) if ln.opponent_no is not None else None
            row: dict[str, object] = {
                "start_no": pr.start_no, "round": ln.round, "opponent_no": ln.opponent_no,
                "opponent_name": opp.name if opp is not None else "",
                "opponent_rating": ln.opponent_rating, "colour": ln.colour.value,
                "points": _num(ln.points), "rated": ln.rated, "reason": ln.reason,
                "expected": fmt.expected(ln.expected), "change": fmt.change(ln.change),
                "cumulative_change": fmt.change(ln.cumulative), "k": ln.k,
                "status": ln.status.value, "capped": ln.capped,
                "published_change": _num(ln.published_change),
            }
            for columns, lines in beside:
                row.update(_csv_cells(columns, lines.get(ln.round)))
            out.append(row)
    return out


def _rounds(pr: PlayerRating | None) -> dict[int, RoundLine]:
    return {ln.round: ln for ln in pr.rounds} if pr is not None else {}


def _columns(base: Sequence[str], extra: Iterable[str]) -> tuple[str, ...]:
    names = (*base, *extra)
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ReportError(f"a rating system rated beside the main one adds a column named "
                          f"like another: {', '.join(clash)}")
    return names


def player_columns(report: Report) -> tuple[str, ...]:
    """rating_players.csv's header: the fixed columns, then each system's beside the main one."""
    return _columns(PLAYER_COLUMNS,
                    (c.name for b in report.beside for c in b.system.player_columns))


def round_columns(report: Report) -> tuple[str, ...]:
    """rating_rounds.csv's header: the fixed columns, then each system's beside the main one."""
    return _columns(ROUND_COLUMNS,
                    (c.name for b in report.beside for c in b.system.round_columns))


def _decimal(value: Cell) -> Decimal | None:
    """A numeric cell as a Decimal (a whole number too); None stays None."""
    if value is None or isinstance(value, Decimal):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    raise ReportError(f"a rating system's column gave {value!r} where a number is expected")


def _csv_value(form: Form, value: Cell) -> object:
    """A column's value as the CSV writes it (numbers as :mod:`reports.fmt` formats them)."""
    if form is Form.POINTS:
        return _num(_decimal(value))
    if form in (Form.TOTAL, Form.CHANGE):
        return fmt.change(_decimal(value))
    if form is Form.EXPECTED:
        return fmt.expected(_decimal(value))
    return value


def _csv_cells(columns: Sequence[Column[T]], row: T | None) -> dict[str, object]:
    """A system's columns for one row of a CSV (empty when the system has no such row)."""
    return {c.name: None if row is None else _csv_value(c.form, c.value(row)) for c in columns}


@dataclass(frozen=True, slots=True)
class PageCell:
    """One value of a system's column as the pages and the terminal show it."""

    text: str
    sort: str
    """The HTML table's sort key: the exact value ('' when none)."""
    numeric: bool


def _page_text(form: Form, value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if form is Form.POINTS:
        return fmt.points(_decimal(value))
    if form is Form.TOTAL:
        return fmt.change(_decimal(value))
    if form is Form.EXPECTED:
        return fmt.expected(_decimal(value))
    if form is Form.CHANGE:
        return fmt.signed(_decimal(value))
    return str(value)


def page_headers(columns: Iterable[Column[T]]) -> list[tuple[str, bool]]:
    """(header, numeric) for the columns shown on the pages and in the terminal."""
    return [(c.header, c.form is not Form.TEXT) for c in columns if c.header]


def page_cells(columns: Iterable[Column[T]], row: T | None) -> list[PageCell]:
    """The values of the columns shown on the pages and in the terminal (those with a
    header), for one row; blank when the system has no such row."""
    out = []
    for c in columns:
        if not c.header:
            continue
        value = None if row is None else c.page_value(row)
        sort = "" if value is None else str(int(value) if isinstance(value, bool) else value)
        out.append(PageCell(_page_text(c.form, value), sort, c.form is not Form.TEXT))
    return out


def scenario_rows(report: Report) -> list[dict[str, object]]:
    """scenarios.csv: one row per paired, unfinished game of a shown rated player; a game that
    will not be rated whatever its result has ``rated`` false, its reason and no change."""
    out: list[dict[str, object]] = []
    for pr in report.shown:
        p = report.player(pr.start_no)
        rating = pr.rating
        if rating is None:  # only rated players have scenarios
            continue
        for s in pr.scenarios:
            out.append({
                "start_no": pr.start_no, "name": p.name, "round": s.round,
                "opponent_no": s.opponent_no, "opponent_name": report.player(s.opponent_no).name,
                "opponent_rating": s.opponent_rating, "k": s.k,
                "expected": fmt.expected(s.expected), "win": fmt.change(s.win),
                "draw": fmt.change(s.draw), "loss": fmt.change(s.loss),
                "total_if_win": fmt.change(s.total_if_win),
                "total_if_draw": fmt.change(s.total_if_draw),
                "total_if_loss": fmt.change(s.total_if_loss), "rating": pr.rating,
                "new_rating_if_win": rating + _round(s.total_if_win),
                "new_rating_if_draw": rating + _round(s.total_if_draw),
                "new_rating_if_loss": rating + _round(s.total_if_loss),
                "rated": s.rated, "reason": s.reason,
            })
    return out


def rounded_change(pr: PlayerRating) -> int | None:
    """The change as the new rating takes it: new rating − rating (FIDE: the exact total
    rounded once, half away from zero); None when the player has no rating or new rating."""
    if pr.rating is None or pr.new_rating is None:
        return None
    return pr.new_rating - pr.rating


def provisional(report: Report) -> str:
    """'Provisional — round 9 in progress' while a paired round has games without results
    ('' otherwise)."""
    live = live_round(report.tournament)
    return "" if live is None else f"Provisional — round {live} in progress"


def initial_workings(initial: InitialRating) -> list[tuple[str, str]]:
    """A first rating's workings as (what, how) lines for people: the average of the
    opponents (with the hypothetical draws the rules add), the score, dp, the result and the
    games counted."""
    n, h, hr = initial.games, initial.hypothetical, initial.hypothetical_rating
    counted = (f"{n} of {initial.min_games} games against rated opponents"
               if n < initial.min_games else f"{n} games against rated opponents"
               + (f" ({initial.min_games} needed)" if initial.min_games else ""))
    if n == 0:
        return [("Games counted", counted)]
    total = int(initial.average * (n + h)) - h * hr
    score = fmt.points(Decimal(initial.score_h) / 100)
    if h:
        draws = "one hypothetical draw" if h == 1 else f"{h} hypothetical draws"
        ra = (f"({total} + {h} × {hr}) ÷ {n + h} = {fmt.average(initial.average)}: "
              f"{n} opponents and {draws} against {hr}")
        p = (f"({score} + {fmt.points(Decimal(h) / 2)} for the {draws}) ÷ {n + h} = "
             f"{fmt.hundredths(initial.p_h)}")
    else:
        ra = f"{total} ÷ {n} = {fmt.average(initial.average)}: the opponents' average"
        p = f"{score} ÷ {n} = {fmt.hundredths(initial.p_h)}"
    lines = [("Games counted", counted), ("Average rating (Ra)", ra), ("Score (p)", p),
             ("Rating difference (dp)", fmt.signed(initial.dp)
              + (": 20 for each half point above 50 %" if not h and initial.p_h > 50 else
                 ": from p, by the conversion table"))]
    if initial.value is not None:
        exact = initial.average + initial.dp
        value = f"{fmt.average(exact)} → {initial.value}"
        if round_half_up(exact) > initial.value:
            value += " (the most a first rating can be)"
        lines.append(("Ra + dp", value))
    return lines


def _round(change: Decimal) -> int:
    from rating.numbers import round_whole

    return round_whole(change)


def _one_line(value: object) -> object:
    """Text on one line: a bare CR inside a cell is not quoted by the csv module (its line
    end is LF) and would split the row in a spreadsheet."""
    if isinstance(value, str) and ("\r" in value or "\n" in value):
        return " ".join(value.splitlines())
    return value


def text_columns(report: Report) -> frozenset[str]:
    """The CSV columns that hold text (the others hold numbers, yes/no or nothing)."""
    names = {c.name for b in report.beside for c in b.system.player_columns if c.form is Form.TEXT}
    names |= {c.name for b in report.beside for c in b.system.round_columns if c.form is Form.TEXT}
    return _TEXT | names


def _csv(columns: Sequence[str], rows: Iterable[dict[str, object]],
         text: Iterable[str] = ()) -> str:
    clean = ({c: _one_line(v) for c, v in row.items()} for row in rows)
    words = _TEXT | set(text)
    return render_csv(columns, clean, numeric=[c for c in columns if c not in words])


def render_report(report: Report, formats: Sequence[str] = FORMATS) -> dict[str, str]:
    """Every file of the report as text, keyed by file name (nothing written)."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ReportError(f"unknown format {', '.join(unknown) or '(none)'}: use csv, html "
                          "or both")
    files: dict[str, str] = {}
    if "csv" in formats:
        extra_p = [c for b in report.beside for c in b.system.player_columns]
        extra_r = [c for b in report.beside for c in b.system.round_columns]
        files["rating_tournament.csv"] = _csv(TOURNAMENT_COLUMNS, [tournament_row(report)])
        files["rating_players.csv"] = _csv(
            player_columns(report), player_rows(report),
            text=[c.name for c in extra_p if c.form is Form.TEXT])
        files["rating_rounds.csv"] = _csv(
            round_columns(report), round_rows(report),
            text=[c.name for c in extra_r if c.form is Form.TEXT])
        scenarios = scenario_rows(report)
        if scenarios:
            files["scenarios.csv"] = _csv(SCENARIO_COLUMNS, scenarios)
    if "html" in formats:
        from reports.html import render_pages

        files.update(render_pages(report))
    return files


def save_report(report: Report, out: str | os.PathLike[str],
                formats: Sequence[str] = FORMATS, *, force: bool = False) -> list[Path]:
    """Render *report* and write its files as the folder *out*, swapped in whole (an existing
    folder must hold only an earlier fiderate output, unless *force*)."""
    files = render_report(report, formats)
    target = write_folder_atomic(out, files, force=force)
    return [target / name for name in files]


def write_report(t: Tournament, out: str | os.PathLike[str], *,
                 formats: Sequence[str] = FORMATS, system: str | RatingSystem = "fide",
                 k_default: int = 20, ratings_list: RatingsList | None = None,
                 on: date | None = None, focus: int | str | None = None,
                 force: bool = False) -> list[Path]:
    """Rate *t* and write the report files as the folder *out*, atomically and whole.

    Returns the paths written, in a stable order.  Raises ReportError on bad input and
    OutputError when *out* holds files fiderate did not write (unless *force*).
    """
    report = build_report(t, system=system, k_default=k_default, ratings_list=ratings_list,
                          on=on, focus=focus)
    return save_report(report, out, formats, force=force)
