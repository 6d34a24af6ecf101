"""The report's view: the :class:`Report` record and what every output shows of it.

:mod:`reports.report` builds a :class:`Report`; the renderers read it through this module
and :mod:`reports.render.columns`: the CSV files (:mod:`reports.render.csv_files`), the pages
(:mod:`reports.render.html`), the terminal (:mod:`reports.render.terminal`) and the JSON
(:mod:`reports.render.json_report`).  Here are the report's tables as exact values (the fixed
columns, then those of each system rated beside the main one), the cells and headers the
pages and the terminal show of those systems' columns, and the sentences every output
shares (how the tournament was rated, the comparison with the published figures, a first
rating's workings).

Pure: no I/O, no rating (the figures come rated in the report).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from importer.model import Player, Status, Tournament
from importer.parsing.names import name_key
from rating.needs import Crossing, NormProspect, PlayerNeeds
from rating.norms import EventClass, NormCheck, NormResult
from rating.notes import full_stop
from rating.published import Comparison, PublishedCheck
from rating.results import PlayerNote, PlayerRating, RoundLine, TournamentRating
from rating.systems.base import Cell, Column, Form, RatingSystem
from rating.systems.fide import InitialRating
from reports.errors import ReportError
from reports.render import fmt
from reports.render.columns import (
    NORMS,
    PLAYERS,
    ROUNDS,
    SCENARIOS,
    TOURNAMENT,
    PlayerRow,
    RoundRow,
    ScenarioRow,
    TournamentRow,
    norm_listed,
    page_text,
    values,
)
from reports.render.summary import live_round, rounds_with_results

__all__ = [
    "BesideRating",
    "Note",
    "PageCell",
    "PublishedFigure",
    "PublishedView",
    "Report",
    "State",
    "Table",
    "certified",
    "computed",
    "find_key",
    "finds",
    "initial_workings",
    "norm_page_name",
    "norm_table",
    "page_cells",
    "page_headers",
    "player_page_name",
    "player_table",
    "provisional",
    "published_view",
    "ranks",
    "rated_with",
    "round_table",
    "scenario_table",
    "state",
    "tournament_table",
]

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

    def __post_init__(self) -> None:
        """The text a sentence with its full stop (:func:`rating.notes.full_stop`), but for
        a note whose items follow it (its heading: 'K 20 assumed …:' then the players)."""
        if not self.items:
            object.__setattr__(self, "text", full_stop(self.text))


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """A rated tournament, ready to render: the tournament, its rating, and the ratings
    beside it."""

    tournament: Tournament
    rating: TournamentRating
    beside: tuple[BesideRating, ...] = ()
    """Systems rated beside the main one without being asked (see
    :func:`rating.systems.registry.beside`), each adding its columns."""
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
    norms: tuple[NormCheck, ...] = ()
    """The title-norm check of every shown player, each norm they can seek."""
    event_class: EventClass | None = None
    """The event class the norms were checked with (None: not given)."""
    needs: tuple[PlayerNeeds, ...] = ()
    """What each shown player needs from the rounds still to play (:func:`rating.needs.event_needs`;
    none for a ranking published alone, whose games the source does not show)."""
    crossings: tuple[Crossing, ...] = ()
    """The thresholds each shown player's live rating crossed, round by round."""
    prospects: tuple[NormProspect, ...] = ()
    """Before any result: whether each shown player can make each norm in this event at all."""
    target: int | None = None
    """The user's own rating target (None: none given)."""

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


def player_page_name(start_no: int) -> str:
    """The file name of a player's HTML page."""
    return f"player-{start_no}.html"


def certified(report: Report) -> list[NormCheck]:
    """The norms achieved: each gets a certificate page."""
    return [c for c in report.norms if c.result is NormResult.ACHIEVED]


def norm_page_name(check: NormCheck) -> str:
    """The file name of an achieved norm's certificate page: 'norm-12-im.html'."""
    return f"norm-{check.start_no}-{check.norm.value.lower()}.html"


# ------------------------------------------------------------------------------ the tables

@dataclass(frozen=True, slots=True)
class Table:
    """One table of the report: its columns (the fixed ones, then each system's rated beside
    the main one) and its rows, each the columns' exact values in order."""

    columns: tuple[Column[Any], ...]
    rows: tuple[tuple[Cell, ...], ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The columns' names: the CSV's header, the JSON's keys."""
        return tuple(c.name for c in self.columns)


def _checked(columns: Sequence[Column[Any]]) -> tuple[Column[Any], ...]:
    """The columns, refused when a system rated beside the main one names one like another."""
    names = [c.name for c in columns]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ReportError(f"a rating system rated beside the main one adds a column named "
                          f"like another: {', '.join(clash)}")
    return tuple(columns)


def agrees(report: Report, start_no: int) -> bool | None:
    """Whether our change equals the published one at the hundredth (None: not compared)."""
    check = report.published
    if check is None or start_no not in check.change.players:
        return None
    return all(d.start_no != start_no for d in check.change.disagreements)


def _rounds(pr: PlayerRating | None) -> dict[int, RoundLine]:
    return {ln.round: ln for ln in pr.rounds} if pr is not None else {}


def player_table(report: Report) -> Table:
    """rating_players.csv: one row per shown player."""
    columns = _checked([*PLAYERS, *(c for b in report.beside for c in b.system.player_columns)])
    rows = []
    for pr in report.shown:
        row = values(PLAYERS, PlayerRow(pr, report.player(pr.start_no),
                                        agrees(report, pr.start_no)))
        for b in report.beside:
            row += values(b.system.player_columns, b.rating.player(pr.start_no))
        rows.append(tuple(row))
    return Table(columns, tuple(rows))


def round_table(report: Report) -> Table:
    """rating_rounds.csv: one row per shown player and round."""
    columns = _checked([*ROUNDS, *(c for b in report.beside for c in b.system.round_columns)])
    rows = []
    for pr in report.shown:
        beside = [(b.system.round_columns, _rounds(b.rating.player(pr.start_no)))
                  for b in report.beside]
        for ln in pr.rounds:
            opp = report.player(ln.opponent_no) if ln.opponent_no is not None else None
            row = values(ROUNDS, RoundRow(pr.start_no, ln, opp))
            for own, lines in beside:
                row += values(own, lines.get(ln.round))
            rows.append(tuple(row))
    return Table(columns, tuple(rows))


def scenario_table(report: Report) -> Table:
    """scenarios.csv: one row per paired, unfinished game of a shown rated player; a game that
    will not be rated whatever its result has ``rated`` false, its reason and no change."""
    rows = []
    for pr in report.shown:
        if pr.rating is None:  # only rated players have scenarios
            continue
        p = report.player(pr.start_no)
        rows += [tuple(values(SCENARIOS, ScenarioRow(p, pr.rating, s,
                                                     report.player(s.opponent_no))))
                 for s in pr.scenarios]
    return Table(SCENARIOS, tuple(rows))


def norm_table(report: Report) -> Table:
    """norms.csv: one row per shown player and norm achieved, possible or not decidable."""
    return Table(NORMS, tuple(tuple(values(NORMS, c)) for c in report.norms if norm_listed(c)))


def tournament_table(report: Report) -> Table:
    """rating_tournament.csv: how the tournament was rated, and how far it has got."""
    row = values(TOURNAMENT, TournamentRow(report.tournament, report.rating))
    return Table(TOURNAMENT, (tuple(row),))


# ------------------------------------------------------------------------------ page cells

@dataclass(frozen=True, slots=True)
class PageCell:
    """One value of a system's column as the pages and the terminal show it."""

    text: str
    sort: str
    """The HTML table's sort key: the exact value ('' when none)."""
    numeric: bool


def page_headers(columns: Iterable[Column[T]], *, short: bool = False
                 ) -> list[tuple[str, bool]]:
    """(header, numeric) for the columns shown on the pages and in the terminal (*short*: the
    terminal's header where it has its own)."""
    return [((short and c.short) or c.header, c.form is not Form.TEXT)
            for c in columns if c.header]


def page_cells(columns: Iterable[Column[T]], row: T | None) -> list[PageCell]:
    """The values of the columns shown on the pages and in the terminal (those with a
    header), for one row; blank when the system has no such row."""
    out = []
    for c in columns:
        if not c.header:
            continue
        value = None if row is None else c.page_value(row)
        sort = "" if value is None else str(int(value) if isinstance(value, bool) else value)
        out.append(PageCell(page_text(c.form, value), sort, c.form is not Form.TEXT))
    return out


# ------------------------------------------------------------------------------ sentences

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


def provisional(report: Report) -> str:
    """'Provisional — round 9 in progress' while a paired round has games without results
    ('' otherwise)."""
    live = live_round(report.tournament)
    return "" if live is None else f"Provisional — round {live} in progress"


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


def initial_workings(initial: InitialRating) -> list[tuple[str, str]]:
    """A first rating's workings as (what, how) lines for people: the average of the
    opponents (with the hypothetical draws the rules add), the score, dp, the result and the
    games counted, each figure as the record holds it (nothing computed here)."""
    n, h, hr = initial.games, initial.hypothetical, initial.hypothetical_rating
    counted = (f"{n} of {initial.min_games} games against rated opponents"
               if n < initial.min_games else f"{n} games against rated opponents"
               + (f" ({initial.min_games} needed)" if initial.min_games else ""))
    if n == 0:
        return [("Games counted", counted)]
    total = initial.opponents_sum
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
        value = f"{fmt.average(initial.exact)} → {initial.value}"
        if initial.at_maximum:
            value += " (the most a first rating can be)"
        lines.append(("Ra + dp", value))
    return lines


# ------------------------------------------------------------------------------ finding a player

def find_key(player: Player) -> str:
    """What the find-me box searches: the name's words without accents or case, the start
    number and the FIDE id."""
    return " ".join(w for w in (name_key(player.name), str(player.start_no), player.fide_id) if w)


def finds(key: str, query: str) -> bool:
    """Whether a :func:`find_key` matches what was typed: each word typed begins one of its
    words, in any order ("Michael Adams", "adams", "108").  The pages' script applies the same
    rule to the same key."""
    words = key.split()
    return all(any(w.startswith(typed) for w in words) for typed in name_key(query).split())


# ------------------------------------------------------------------------------ what is shown

_NOT_KNOWN = frozenset({Status.UNKNOWN})


def computed(pr: PlayerRating) -> bool:
    """Whether we computed the player's change: the source shows at least one of their
    rounds (a ranking page alone shows none: the change is unknown, never 0)."""
    return any(ln.status not in _NOT_KNOWN for ln in pr.rounds)


def ranks(report: Report) -> tuple[dict[int, str], bool]:
    """Each shown player's place, and whether it is the source's: the published rank where
    the source gives one, else by points, players on equal points sharing the place ("3=")."""
    players = report.shown
    published = {pr.start_no: report.player(pr.start_no).rank for pr in players}
    if any(r is not None for r in published.values()):
        return {no: "" if r is None else str(r) for no, r in published.items()}, True
    t = report.tournament
    if not t.results and all(report.player(pr.start_no).points is None for pr in players):
        # a starting list: no places yet
        return {pr.start_no: "" for pr in players}, False
    points = [pr.points or Decimal(0) for pr in players]
    out: dict[int, str] = {}
    for pr, own in zip(players, points, strict=True):
        place = 1 + sum(1 for p in points if p > own)
        out[pr.start_no] = f"{place}=" if points.count(own) > 1 else str(place)
    return out, False


@dataclass(frozen=True, slots=True)
class State:
    """The one line every page opens with: how far the event has got, as of when, and that
    the figures are unofficial."""

    stage: str
    """'Final: 9 rounds', 'After round 7 of 9', 'Provisional — round 9 in progress'."""
    as_of: str
    """'as of 2024-02-23 02:43 (the source's last update)' ('' when not known)."""
    live: bool


def state(report: Report) -> State:
    """The state line of the report's pages."""
    t = report.tournament
    live, done = live_round(t), rounds_with_results(t)
    rounds = t.info.rounds or t.rounds_seen
    if live is not None:
        stage = provisional(report)
    elif not t.results and not any(p.points is not None or p.rank for p in t.players):
        stage = "Starting list: no results yet"
    elif not t.results:
        stage = (f"Ranking after {rounds} round{'s' if rounds != 1 else ''}, as published"
                 if rounds else "Ranking as published")
    elif rounds and done < rounds:
        stage = f"After round {done} of {rounds}"
    else:
        stage = f"Final: {rounds} round{'s' if rounds != 1 else ''}" if rounds else "Final"
    fetched = max((p.fetched_at for p in t.provenance if p.fetched_at), default="")
    if t.info.last_update is not None:
        as_of = f"as of {t.info.last_update:%Y-%m-%d %H:%M} (the source's last update)"
    elif fetched:
        as_of = f"as of {datetime.fromisoformat(fetched):%Y-%m-%d %H:%M} UTC (fetched)"
    else:
        as_of = ""
    return State(stage, as_of, live is not None)
