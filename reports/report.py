"""``fiderate report``'s library: rate a tournament and write CSV and HTML reports.

:func:`build_report` rates a :class:`~importer.model.Tournament` (the tournament view of
:mod:`rating.tournament`) and :func:`write_report` writes, through one atomic folder:

* ``rating_players.csv``: one row per player (totals);
* ``rating_rounds.csv``: one row per player and round;
* ``scenarios.csv``: when a paired game is unfinished, what a win, draw or loss would bring;
* ``index.html`` and ``player-<start_no>.html``: the same, self-contained.

Numbers are formatted once, in :mod:`reports.fmt`; text cells go through
:mod:`importer.csvio` (spreadsheet formulas neutralised).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from importer.atomic import atomic_dir
from importer.csvio import render_csv
from importer.model import Player, RatingList, Tournament
from rating.system import RatingSystem
from rating.tournament import PlayerRating, TournamentRating, rate_tournament
from reports import fmt
from reports.errors import ReportError

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
    "Report",
    "build_report",
    "player_page_name",
    "render_report",
    "resolve_player",
    "save_report",
    "write_report",
]

FORMATS = ("csv", "html")

PLAYER_COLUMNS = ("start_no", "name", "fide_id", "rating", "k", "rated_games", "score",
                  "expected", "change", "new_rating", "performance", "title", "federation",
                  "points", "k_source", "initial_rating", "published_change")
ROUND_COLUMNS = ("start_no", "round", "opponent_no", "opponent_name", "opponent_rating",
                 "colour", "points", "rated", "reason", "expected", "change",
                 "cumulative_change", "k", "status", "capped", "published_change")
SCENARIO_COLUMNS = ("start_no", "name", "round", "opponent_no", "opponent_name",
                    "opponent_rating", "k", "expected", "win", "draw", "loss", "total_if_win",
                    "total_if_draw", "total_if_loss", "rating", "new_rating_if_win",
                    "new_rating_if_draw", "new_rating_if_loss")
UKD_PLAYER_COLUMNS = ("national_rating", "ukd_k", "ukd_rated_games", "ukd_score",
                      "ukd_expected", "ukd_change", "ukd_new_rating")
UKD_ROUND_COLUMNS = ("opponent_national_rating", "ukd_rated", "ukd_reason", "ukd_expected",
                     "ukd_change", "ukd_cumulative_change", "ukd_k")
_TEXT = frozenset({"name", "fide_id", "title", "federation", "opponent_name", "colour",
                   "reason", "k_source", "status", "ukd_reason"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """A rated tournament, ready to render: the tournament, its rating, an optional UKD rating."""

    tournament: Tournament
    rating: TournamentRating
    ukd: TournamentRating | None = None
    """The national (UKD) rating beside FIDE, when the source names Turkey's national rating."""
    focus: int | None = None
    """The start number of the one player the report is about (None: every player)."""
    notes: tuple[str, ...] = ()
    """Notes on the whole report (rules chosen, assumed K, the source's warnings)."""
    k_default: int = 20
    k_note: str = ""
    """The assumed-K note naming the players concerned (also the last of ``notes``)."""
    by_no: dict[int, Player] = field(default_factory=dict, compare=False)
    """The tournament's players by start number."""

    def notes_for(self, start_no: int) -> list[str]:
        """The notes for one player's page: the general ones, and their own assumed K."""
        own = [f"K {self.k_default} assumed: no K published, listed or derivable (give --k "
               "or --ratings-list)"] if start_no in self.rating.default_k_players else []
        return [n for n in self.notes if n != self.k_note] + own

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

    fide-rules.md §3.2: the K of the list in force, never a later list's; a note says so
    when the list is dated after the tournament's start.  The list's own warnings (broken
    lines skipped) become notes.
    """
    from importer.fidelist import FideList, read_fide_list

    if isinstance(ratings_list, FideList):
        loaded = ratings_list
        if loaded.format == "register" and loaded.list_date is not None:
            notes.append(f"K from the FIDE list of {loaded.list_date:%Y-%m} in the register")
    else:
        loaded = read_fide_list(ratings_list, fide_ids={p.fide_id for p in t.players if p.fide_id})
        notes += list_warnings(loaded.warnings)
    start = t.info.start_date
    if loaded.list_date is not None and start is not None and loaded.list_date > start:
        notes.append(f"the rating list is dated {loaded.list_date.isoformat()}, after the "
                     f"tournament's start ({start.isoformat()}): its K may not be the K then")

    def lookup(p: Player) -> int | None:
        entry = loaded.get(p.fide_id) if p.fide_id else None
        return entry.k(list_name) if entry is not None else None

    return lookup


def _system(name: str | RatingSystem) -> str | RatingSystem:
    """'fide' and 'elo' are built by the tournament view; 'ukd' is the national system."""
    if not isinstance(name, str) or name in ("fide", "elo"):
        return name
    if name == "ukd":
        return _ukd_system()
    raise ReportError(f"unknown rating system {name!r}: use fide, elo or ukd")


def _ukd_system() -> RatingSystem:
    from rating.ukd import UkdSystem

    return UkdSystem()


def _ukd_applies(t: Tournament) -> bool:
    """Whether the source's rating calculation names Turkey's national rating (ukd.md §4.2),
    on a list UKD rates (standard time, §3.13)."""
    from rating.ukd import UkdSystem, names_turkish_national_rating

    info = t.info
    return (names_turkish_national_rating(info.rating_calculation, info.federation)
            and UkdSystem().rates(info.rating_list))


def list_warnings(warnings: Sequence[str], limit: int = 5) -> list[str]:
    """A rating list's warnings as notes: the first few, then how many more."""
    more = [f"… and {len(warnings) - limit} more rating-list warnings"] if len(warnings) > limit else []
    return [*warnings[:limit], *more]


def build_report(t: Tournament, *, system: str | RatingSystem = "fide", k_default: int = 20,
                 ratings_list: RatingsList | None = None, on: date | None = None,
                 focus: int | str | None = None) -> Report:
    """Rate *t* for a report; *focus* (start number, name or FIDE id) narrows it to one player.

    *on* stands in for a missing start date (default: today).  ReportError on bad input.
    """
    if not t.players:
        raise ReportError("the source has no players")
    if not 1 <= k_default <= 100:
        raise ReportError(f"--k must be from 1 to 100, got {k_default}")
    notes: list[str] = []
    focus_no = resolve_player(t, focus) if focus is not None else t.focus
    if focus_no is not None and t.player(focus_no) is None:
        focus_no = None
    if t.info.start_date is None and on is None:
        on = date.today()  # noqa: DTZ011 - the local date is the user's "today"
    list_name = (t.info.rating_list.value if t.info.rating_list else "standard")
    k_lookup = (_k_lookup_from_list(t, ratings_list, list_name, notes) if ratings_list
                else None)
    chosen = _system(system)
    rating = rate_tournament(t, chosen, k_default=k_default, k_lookup=k_lookup, on=on)
    ukd = None
    if rating.system != "ukd" and _ukd_applies(t):
        ukd = rate_tournament(t, _ukd_system(), k_default=k_default, on=on)
    notes += rating.notes
    if rating.system == "ukd" and rating.rating_list is not RatingList.STANDARD:
        notes.append("UKD is the standard-time rating: this event was rated as asked, but TSF "
                     "may not rate it (ukd.md §3.13)")
    notes += t.warnings
    concerned = set(rating.default_k_players) if focus_no is None else (
        {focus_no} & set(rating.default_k_players))
    k_note = ""
    if concerned:
        by_no = t.players_by_no()
        names = [f"{n} {by_no[n].name}" for n in sorted(concerned)]
        more = f" and {len(names) - 10} more" if len(names) > 10 else ""
        k_note = (f"K {k_default} assumed (no K published, listed or derivable; give --k or "
                  f"--ratings-list) for: {', '.join(names[:10])}{more}")
        notes.append(k_note)
    return Report(tournament=t, rating=rating, ukd=ukd, focus=focus_no, notes=tuple(notes),
                  k_default=k_default, k_note=k_note,
                  by_no=t.players_by_no())


# ------------------------------------------------------------------------------ rows

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
        }
        if report.ukd is not None:
            u = report.ukd.player(pr.start_no)
            row.update({"national_rating": p.national_rating,
                        "ukd_k": u.k if u else None,
                        "ukd_rated_games": u.rated_games if u else None,
                        "ukd_score": _num(u.score) if u else "",
                        "ukd_expected": fmt.change(u.expected) if u else "",
                        "ukd_change": fmt.change(u.change) if u else "",
                        "ukd_new_rating": u.new_rating if u else None})
        out.append(row)
    return out


def round_rows(report: Report) -> list[dict[str, object]]:
    """rating_rounds.csv: one row per shown player and round."""
    out: list[dict[str, object]] = []
    for pr in report.shown:
        ukd = report.ukd.player(pr.start_no) if report.ukd is not None else None
        ukd_rounds = {ln.round: ln for ln in ukd.rounds} if ukd is not None else {}
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
            if report.ukd is not None:
                u = ukd_rounds.get(ln.round)
                row.update({
                    "opponent_national_rating": opp.national_rating if opp is not None else None,
                    "ukd_rated": u.rated if u else False, "ukd_reason": u.reason if u else "",
                    "ukd_expected": fmt.expected(u.expected) if u else "",
                    "ukd_change": fmt.change(u.change) if u else "",
                    "ukd_cumulative_change": fmt.change(u.cumulative) if u else "",
                    "ukd_k": u.k if u else None})
            out.append(row)
    return out


def scenario_rows(report: Report) -> list[dict[str, object]]:
    """scenarios.csv: one row per paired, unfinished rated game of a shown player."""
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
            })
    return out


def _round(change: Decimal) -> int:
    from rating.fide import round_change

    return round_change(change)


def _one_line(value: object) -> object:
    """Text on one line: a bare CR inside a cell is not quoted by the csv module (its line
    end is LF) and would split the row in a spreadsheet."""
    if isinstance(value, str) and ("\r" in value or "\n" in value):
        return " ".join(value.splitlines())
    return value


def _csv(columns: Sequence[str], rows: Iterable[dict[str, object]]) -> str:
    clean = ({c: _one_line(v) for c, v in row.items()} for row in rows)
    return render_csv(columns, clean, numeric=[c for c in columns if c not in _TEXT])


def render_report(report: Report, formats: Sequence[str] = FORMATS) -> dict[str, str]:
    """Every file of the report as text, keyed by file name (nothing written)."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ReportError(f"unknown format {', '.join(unknown) or '(none)'}: use csv, html "
                          "or both")
    files: dict[str, str] = {}
    if "csv" in formats:
        pcols = PLAYER_COLUMNS + (UKD_PLAYER_COLUMNS if report.ukd is not None else ())
        rcols = ROUND_COLUMNS + (UKD_ROUND_COLUMNS if report.ukd is not None else ())
        files["rating_players.csv"] = _csv(pcols, player_rows(report))
        files["rating_rounds.csv"] = _csv(rcols, round_rows(report))
        scenarios = scenario_rows(report)
        if scenarios:
            files["scenarios.csv"] = _csv(SCENARIO_COLUMNS, scenarios)
    if "html" in formats:
        from reports.html import render_pages

        files.update(render_pages(report))
    return files


def save_report(report: Report, out: str | os.PathLike[str],
                formats: Sequence[str] = FORMATS) -> list[Path]:
    """Render *report* and write its files into the folder *out* through one atomic folder."""
    files = render_report(report, formats)
    target = Path(out)
    with atomic_dir(target) as tmp:
        for name, text in files.items():
            (tmp / name).write_text(text, encoding="utf-8", newline="")
    return [target / name for name in files]


def write_report(t: Tournament, out: str | os.PathLike[str], *,
                 formats: Sequence[str] = FORMATS, system: str | RatingSystem = "fide",
                 k_default: int = 20, ratings_list: RatingsList | None = None,
                 on: date | None = None, focus: int | str | None = None) -> list[Path]:
    """Rate *t* and write the report files into the folder *out*, atomically.

    Returns the paths written, in a stable order.  Files already in *out* that this report
    does not produce are left alone.  Raises ReportError on bad input.
    """
    report = build_report(t, system=system, k_default=k_default, ratings_list=ratings_list,
                          on=on, focus=focus)
    return save_report(report, out, formats)
