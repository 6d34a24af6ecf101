"""``fiderate report``'s library: rate a tournament into a report, and write its files.

:func:`build_report` rates a :class:`~importer.model.Tournament` (the tournament view of
:mod:`rating.tournament`) into the :class:`~reports.render.view.Report` every output reads, and
:func:`write_report` writes its files through one atomic folder: the CSV files
(:mod:`reports.render.csv_files`: ``rating_players.csv``, ``rating_rounds.csv``, ``scenarios.csv``,
``rating_tournament.csv``) and the pages (:mod:`reports.render.html`: ``index.html`` and
``player-<start_no>.html``, self-contained).

A system rated beside the main one (a national rating the source names, see
:func:`rating.systems.registry.beside`) adds the columns it declares to the players and rounds
tables, on every output; nothing here names a system.  What the outputs show is the view's
(:mod:`reports.render.view`, :mod:`reports.render.columns`); this module builds and dispatches.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from importer.formats import fidelist
from importer.formats.nationallist import NationalList
from importer.model import FIDE_CALCULATIONS as FIDE_PAGE
from importer.model import DateSource, Player, RatingList, Tournament
from importer.parsing.names import name_key
from importer.sources import display_name
from importer.writing.atomic import write_folder_atomic
from rating import period as rating_period
from rating.national import named_beside, national_tournament
from rating.needs import event_needs, norm_prospects, thresholds_crossed
from rating.norms import EventClass, check_event_norms
from rating.notes import grouped
from rating.period.identity import MatchedBy, identify, list_candidates, wanted_names, wanted_on_list
from rating.published import compare_published
from rating.results import PlayerNote, TournamentRating
from rating.systems import registry
from rating.systems.base import RatingSystem
from rating.tournament import KLookup, rate_tournament, rules_date
from reports.errors import ReportError
from reports.render import csv_files, fmt, html
from reports.render.summary import live_round, rounds_with_results
from reports.render.view import BesideRating, Note, Report, find_key, finds
from reports.settings import DEFAULT_K, K_MAX, K_MIN, ReportSettings

if TYPE_CHECKING:
    from typing import TypeAlias

    from importer.formats.fidelist import FideList
    from rating.needs import Crossing, NormProspect, PlayerNeeds

    RatingsList: TypeAlias = str | os.PathLike[str] | FideList
    """A FIDE rating list: a path to the download, or one already read."""

__all__ = [
    "FORMATS",
    "PlayerNotFound",
    "build_report",
    "render_report",
    "resolve_player",
    "save_report",
    "write_report",
]

FORMATS = ("csv", "html")

# ------------------------------------------------------------------------------ inputs

class PlayerNotFound(ReportError):
    """No one player answers to the name asked for (none, or several)."""


def resolve_player(t: Tournament, text: str | int) -> int:
    """The player asked for (a start number, a name or a FIDE id) → a start number (a name's
    words in any order, accents and case aside); PlayerNotFound with close matches otherwise."""
    query = str(text).strip()
    if not query:
        raise ReportError("the player asked for is empty: give a start number, a name or a FIDE id")
    by_no = t.players_by_no()
    if query.isdigit():
        number = int(query)
        ids = [p.start_no for p in t.players if p.fide_id and p.fide_id == query]
        if ids:
            return ids[0]
        if number in by_no:
            return number
        raise ReportError(f"player {query}: no player has this start number "
                          f"(1–{max(by_no, default=0)}) or FIDE id")
    key, folded = name_key(query), query.casefold()
    exact = [p.start_no for p in t.players if name_key(p.name) == key]
    if len(exact) == 1:
        return exact[0]
    partial = [p for p in t.players if folded in p.name.casefold() or finds(find_key(p), query)]
    if len(partial) == 1 and not exact:
        return partial[0].start_no
    if len(exact) > 1 or len(partial) > 1:
        many = [by_no[n] for n in exact] if len(exact) > 1 else partial
        listed = "; ".join(f"{p.start_no} {p.name}" for p in many[:8])
        raise PlayerNotFound(f"player {query!r} matches several players: {listed} "
                             "(give the start number)")
    close = difflib.get_close_matches(query, [p.name for p in t.players], n=5, cutoff=0.5)
    hint = f"; close matches: {', '.join(close)}" if close else ""
    raise PlayerNotFound(f"player {query!r}: no such player{hint}")


def _k_lookup_from_list(t: Tournament, ratings_list: RatingsList, list_name: str,
                        notes: list[str]) -> Callable[[Player], int | None]:
    """K of each player on a FIDE rating list download (its K for the tournament's list).

    The K that counts is the one of the list in force, never a later list's; a note says so
    when the list is dated after the tournament's start.  The list's own warnings (broken
    lines skipped) become notes.
    """
    if isinstance(ratings_list, fidelist.FideList):
        loaded = ratings_list
        if loaded.format == "register" and loaded.list_date is not None:
            notes.append(f"K from the FIDE list of {loaded.list_date:%Y-%m} in the register")
    else:
        ids, federations = wanted_on_list([t])
        loaded = fidelist.read_fide_list(ratings_list, fide_ids=ids, federations=federations)
        notes += fmt.list_warnings(loaded.warnings)
    start = t.info.start_date
    if loaded.list_date is not None and start is not None and loaded.list_date > start:
        when = (f"the source's last update ({start.isoformat()}), so after the tournament's "
                "start" if t.info.date_source is DateSource.LAST_UPDATE
                else f"the tournament's start ({start.isoformat()})")
        notes.append(f"the rating list is dated {loaded.list_date.isoformat()}, after {when}: "
                     "its K may not be the K then")

    # People, not rows: a player without a FIDE id is found on the list by name and federation,
    # as the rating period finds them (rating.period.identity).
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


def as_published(t: Tournament) -> Tournament:
    """*t* as a report publishes it: its source named by its files' names alone
    (:func:`importer.sources.display_name`; the notes already name them so)."""
    names = [display_name(p.location) for p in t.provenance if p.location]
    return replace(t, info=replace(t.info, source=", ".join(names) if names
                                   else display_name(t.info.source)))


def build_report(t: Tournament, *, system: str | RatingSystem = "fide",
                 k_default: int = DEFAULT_K, ratings_list: RatingsList | None = None,
                 store: str | os.PathLike[str] | None = None, on: date | None = None,
                 focus: int | str | None = None, event_class: EventClass | None = None,
                 qc_approved: bool = False, also: Sequence[str] = (),
                 national_lists: Mapping[str, NationalList] | None = None,
                 target: int | None = None) -> Report:
    """Rate *t* for a report; *focus* (start number, name or FIDE id) narrows it to one player.
    The systems named in *also* are rated beside *system*, with those the source names.
    A national system reads its ratings, index and birth years from the source and from
    its national list: the one in *national_lists* (by system name), else the one in force
    stored in the register *store* (:mod:`rating.national`).
    Every shown player's title norms are checked, with *event_class* when given and
    *qc_approved* (FIDE's Qualification Commission approved the event's fast-standard time
    control for norms, as the user says).  What each shown player needs from the rounds still
    to play, the thresholds their live rating crossed (with the user's *target* among them)
    and, before any result, the norms they can make at all come from :mod:`rating.needs`.

    Players' K comes from *ratings_list* (a FIDE list download) or, without one, from the FIDE
    list in force stored in the register *store* (:func:`rating.period.register.list_for`), if any.

    The FIDE rules are those of the best date known: the event's own (details, round dates,
    a date in its name), else *on*, else the source's last update (the event started on or
    before it), else today; a note says so in plain words when it is not the event's own.
    ReportError on bad input.
    """
    if not t.players:
        raise ReportError("the source has no players")
    t = as_published(t)
    if not K_MIN <= k_default <= K_MAX:
        raise ReportError(f"K {k_default}: expected a whole number from {K_MIN} to {K_MAX}")
    if ratings_list is None and store is not None and Path(store).exists():
        ratings_list = rating_period.list_for(store, [t], t.info.start_date or on or date.today())  # noqa: DTZ011
    notes: list[str] = []
    focus_no = resolve_player(t, focus) if focus is not None else t.focus
    if focus_no is not None and t.player(focus_no) is None:
        focus_no = None
    today = date.today()  # noqa: DTZ011 - the local date is the user's "today"
    list_name = (t.info.rating_list.value if t.info.rating_list else "standard")
    k_lookup = (_k_lookup_from_list(t, ratings_list, list_name, notes) if ratings_list
                else None)
    lists = _NationalLists(t, national_lists or {}, store, t.info.start_date or on or today)
    chosen = _system(system)
    if isinstance(chosen, str):
        chosen = registry.build(chosen, _settings(t, on, today, k_default))
    rating, said = _rate(t, chosen, lists, k_default=k_default, k_lookup=k_lookup, on=on,
                         today=today)
    notes += said
    settings = registry.Settings(on=rating.on, rating_list=rating.rating_list,
                                k_default=k_default)
    asked = [registry.build(str(_system(name)), settings) for name in also]
    named = [s for s in named_beside(t, settings, lambda s: lists.of(s) is not None)
             if s.name not in also]
    beside: list[BesideRating] = []
    about_beside: list[PlayerNote] = []
    for s in (*asked, *named):
        if s.name != rating.system:
            other, said = _rate(t, s, lists, k_default=k_default, on=on, today=today)
            beside.append(BesideRating(s, other))
            notes += [f"{s.label}: {n}" for n in (*said, *other.notes) if n not in rating.notes]
            about_beside += [n if n.text.startswith(f"{s.label}: ")
                             else replace(n, text=f"{s.label}: {n.text}")
                             for n in other.player_notes]
    notes += rating.notes
    about: list[PlayerNote] = [*rating.player_notes, *about_beside]
    for w in t.warnings:  # about the players it names, if they are in the tournament
        concerned = [n for n in dict.fromkeys(w.players) if t.player(n) is not None]
        if not concerned:
            notes.append(w.message)
        about += [PlayerNote(start_no=n, text=w.message) for n in concerned]
    k_note = f"K {rating.default_k} assumed (no K published, listed or given by the category)"
    about += [PlayerNote(start_no=n, text=k_note) for n in rating.default_k_players]
    if focus_no is not None:
        about = [n for n in about if n.start_no == focus_no]
    fide = any(p.kind == FIDE_PAGE for p in t.provenance)  # the figures are FIDE's own
    published = compare_published(t, rating, source="FIDE" if fide else "chess-results",
                                  only=None if focus_no is None else {focus_no})
    shown = [p.start_no for p in t.players if focus_no is None or p.start_no == focus_no]
    norms = check_event_norms(t, shown, event_class=event_class, on=rating.on,
                              qc_approved=qc_approved)
    needs, crossings, prospects = _needs(t, shown, chosen, rating, k_default=k_default,
                                         k_lookup=k_lookup, target=target, today=today,
                                         event_class=event_class, qc_approved=qc_approved)
    return Report(tournament=t, rating=rating, beside=tuple(beside), focus=focus_no,
                  notes=(*map(Note, dict.fromkeys(notes)), *_listed(about, t)),
                  player_notes=tuple(about), k_note=k_note,
                  by_no=t.players_by_no(), published=published, norms=norms,
                  event_class=event_class, needs=needs, crossings=crossings,
                  prospects=prospects, target=target)


def _needs(t: Tournament, shown: Sequence[int], system: RatingSystem, rating: TournamentRating,
           *, k_default: int, k_lookup: KLookup | None, target: int | None, today: date,
           event_class: EventClass | None, qc_approved: bool
           ) -> tuple[tuple[PlayerNeeds, ...], tuple[Crossing, ...], tuple[NormProspect, ...]]:
    """What the shown players need (:mod:`rating.needs`), with the report's own system, rules
    date and K.  A ranking published alone shows no games, so nothing is said of rounds still
    to play; a national system rates ratings of its own list, so its report has none of this.
    The norms a player can make at all are told before any result, when the rounds are known."""
    if system.national:
        return (), (), ()
    ranking_alone = not t.results and any(p.points is not None or p.rank for p in t.players)
    rounds = t.info.rounds or 0  # finished: nothing left to need
    finished = rounds > 0 and live_round(t) is None and rounds_with_results(t) >= rounds
    needs = () if ranking_alone or finished else event_needs(
        t, shown, system=system, target=target, on=rating.on, today=today, k_default=k_default,
        k_lookup=k_lookup, event_class=event_class, qc_approved=qc_approved)
    crossings = thresholds_crossed(t, shown, system=system, target=target, on=rating.on,
                                   today=today, k_default=k_default, k_lookup=k_lookup,
                                   rated=rating)
    prospects = (norm_prospects(t, shown, event_class=event_class, on=rating.on,
                                qc_approved=qc_approved)
                 if not ranking_alone and t.info.rounds and rounds_with_results(t) == 0
                 else ())
    return needs, crossings, prospects


def _settings(t: Tournament, on: date | None, today: date, k_default: int) -> registry.Settings:
    """What a system named by the user is built with: the rules of the event's date."""
    rating_list = t.info.rating_list or RatingList.STANDARD
    basis = rules_date(t.info, rating_list, on=on, today=today)
    return registry.Settings(on=basis.on if basis is not None else today,
                             rating_list=rating_list, k_default=k_default)


class _NationalLists:
    """Each national system's list for one report: given, else the register's in force."""

    def __init__(self, t: Tournament, given: Mapping[str, NationalList],
                 store: str | os.PathLike[str] | None, on: date) -> None:
        self.t, self.given, self.store, self.on = t, given, store, on

    def of(self, system: RatingSystem) -> NationalList | None:
        if system.name in self.given:
            return self.given[system.name]
        if self.store is None or not Path(self.store).exists():
            return None
        with rating_period.Register(Path(self.store)) as reg:
            return reg.national_in_force(system.name, self.on,
                                         self.t.info.rating_list or RatingList.STANDARD,
                                         self.t.players)


def _rate(t: Tournament, system: RatingSystem, lists: _NationalLists, *, k_default: int,
          on: date | None, today: date, k_lookup: KLookup | None = None
          ) -> tuple[TournamentRating, tuple[str, ...]]:
    """*t* rated by *system*: a national one on the ratings its source and list give
    (:func:`rating.national.national_tournament`), with the notes on what was read how."""
    said: tuple[str, ...] = ()
    if system.national:
        t, said = national_tournament(t, system, lists.of(system), on=lists.on)
    return rate_tournament(t, system, k_default=k_default, k_lookup=k_lookup, on=on,
                           today=today), said


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


def report_for(t: Tournament, settings: ReportSettings) -> Report:
    """:func:`build_report` with a form's or query's settings."""
    return build_report(t, system=settings.system, k_default=settings.k, store=settings.store,
                        on=settings.on, focus=settings.player,
                        event_class=settings.event_class, qc_approved=settings.qc_approved,
                        also=settings.also, target=settings.target)


def render_report(report: Report, formats: Sequence[str] = FORMATS) -> dict[str, str]:
    """Every file of the report as text, keyed by file name (nothing written)."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ReportError(f"unknown format {', '.join(unknown) or '(none)'}: use csv, html "
                          "or both")
    files: dict[str, str] = {}
    if "csv" in formats:
        files.update(csv_files.csv_files(report))
    if "html" in formats:
        files.update(html.render_pages(report))
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
                 event_class: EventClass | None = None, qc_approved: bool = False,
                 force: bool = False, target: int | None = None) -> list[Path]:
    """Rate *t* and write the report files as the folder *out*, atomically and whole.

    Returns the paths written, in a stable order.  Raises ReportError on bad input and
    OutputError when *out* holds files fiderate did not write (unless *force*).
    """
    report = build_report(t, system=system, k_default=k_default, ratings_list=ratings_list,
                          on=on, focus=focus, event_class=event_class,
                          qc_approved=qc_approved, target=target)
    return save_report(report, out, formats, force=force)
