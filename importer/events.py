"""Sources → events: the one path every front end (report, period, the web, the API) takes.

A user hands over files and links; what they mean is tournaments.  :func:`load_events`
reads every source and returns each event once:

* saved chess-results pages of one tournament (the same tournament number) merge into one,
  exactly as :func:`importer.formats.chessresults.build_tournament` merges them; two pages of the
  same view (two crosstables, two pairings of one round) taken at different moments are two
  snapshots: the newer is kept, with a note;
* other sources showing one event (:mod:`importer.identity` decides: the same tournament
  number or FIDE event id, or the same players playing the same games) are copies or
  snapshots of it: the newer is kept (more rounds with results, then the later update),
  and each decision is a :class:`Merge`, noted with its reason.

Sources the user names as *separate* are never merged with another.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from importer import formats
from importer.errors import InputError
from importer.identity import EventIdentity, SameBy, Sameness, group_events
from importer.model import RoundResult, SourceWarning, Status, Tournament, TournamentInfo
from importer.net.urls import parse_fide_calc_url
from importer.parsing.names import name_key
from importer.sources import (
    FidePage,
    Progress,
    SavedPage,
    display_name,
    load,
    load_fide_url,
    read_file,
    something_read,
)

if TYPE_CHECKING:
    import requests

    from importer.formats.chessresults import Page

__all__ = ["Event", "Events", "Merge", "distinct_events", "load_events", "load_many"]



@dataclass(frozen=True, kw_only=True)
class Event:
    """One tournament and the sources that showed it."""

    tournament: Tournament
    sources: tuple[str, ...] = ()
    """The files and links it was read from, as the user gave them."""
    known: EventIdentity | None = field(default=None, repr=False)
    """Its identity, when already computed."""
    apart: bool = False
    """The user said it is an event of its own: it is merged with no other."""
    counted: tuple[str, ...] = ()
    """Other sources of the same event, counted in this one (copies, older snapshots)."""

    @classmethod
    def of(cls, t: Tournament, sources: Sequence[str] = ()) -> Event:
        """An event of a tournament read from *sources*."""
        return cls(tournament=t, sources=tuple(sources) or (t.info.source or t.info.name,))

    @cached_property
    def identity(self) -> EventIdentity:
        """What identifies the event (computed when first asked for)."""
        return self.known or EventIdentity.of(self.tournament)

    @property
    def label(self) -> str:
        """The sources as one text, each by its name: 'a.html, b.html'."""
        return ", ".join(map(display_name, self.sources))


@dataclass(frozen=True, slots=True)
class Merge:
    """One source counted in another's event: which rule, which sources."""

    left: str
    """The source (or sources) counted in the other."""
    kept: str
    """The source the event is read from."""
    why: Sameness
    title: str
    """The event's name."""
    moments: tuple[str, str] | None = None
    """The two moments (left's, kept's) when *left* is an earlier snapshot."""

    @property
    def note(self) -> SourceWarning:
        """The merge in words."""
        if self.moments is None:
            return SourceWarning("same-event", f"{self.left} and {self.kept} show the same event "
                                 f"({self.title}), {self.why.words}: it is counted once")
        old, new = self.moments
        return SourceWarning(
            "older-snapshot", f"{self.left} and {self.kept} show one event ({self.title}) at "
            f"two moments, {self.why.words}: the newer, {self.kept} ({new}), is used; "
            f"{self.left} ({old}) is left out")


@dataclass(frozen=True, slots=True)
class Events:
    """The events of some sources, each once, and what was noticed putting them together."""

    events: tuple[Event, ...]
    notes: tuple[SourceWarning, ...] = ()
    fide_pages: tuple[FidePage, ...] = ()
    """FIDE's calculations pages given; their events are among ``events`` (last)."""
    merges: tuple[Merge, ...] = ()
    """Each source counted in another's event, and why."""

    def __len__(self) -> int:
        return len(self.events)


def _updated(info: TournamentInfo) -> str:
    """The last update as sortable text ('' when the source does not show it)."""
    return info.last_update.isoformat() if info.last_update is not None else ""


def _progress(t: Tournament) -> tuple[int, int, str]:
    """How far a snapshot has got: rounds with results, results, the last update."""
    decided = [r.round for r in t.results
               if r.points is not None and r.status not in (Status.PENDING, Status.UNKNOWN)]
    return len(set(decided)), len(decided), _updated(t.info)


def _moment(results: Iterable[RoundResult], info: TournamentInfo) -> str:
    """A snapshot's moment in words: 'after round 7, updated 2026-08-07 21:04'."""
    last = max((r.round for r in results if r.points is not None
                and r.status not in (Status.PENDING, Status.UNKNOWN)), default=0)
    updated = _updated(info)
    words = f"after round {last}" if last else "before any result"
    return words + (f", updated {updated[:16].replace('T', ' ')}" if updated else "")


def _state(shown: Tournament | Page) -> str:
    """A tournament's or a page's moment in words."""
    return _moment(shown.results, shown.info)


def _title(t: Tournament) -> str:
    return t.info.name or (f"tournament {t.info.id}" if t.info.id else "one event")


def distinct_events(items: Sequence[Event]) -> Events:
    """Each event once: snapshots of one event keep the newer, copies the first given.  An
    event marked ``apart`` is merged with none."""
    if len(items) < 2:
        return Events(tuple(items))
    identities = [ev.identity for ev in items]
    found = group_events(identities, apart={i for i, ev in enumerate(items) if ev.apart})
    notes = [SourceWarning(
        "ambiguous-event", f"{items[i].label} shows the same games as {items[a].label} and as "
        f"{items[b].label}, which are two events (the players are told apart by FIDE ids "
        f"{items[i].label} does not give): it is rated as an event of its own; if it is one "
        "of them, leave it out") for i, (a, b) in found.ambiguous.items()]
    kept: list[Event] = []
    merges: list[Merge] = []
    for members in found.groups:
        if len(members) == 1:  # an event alone: kept as it is
            kept.append(items[members[0]])
            continue
        best = max(members, key=lambda i: (_progress(items[i].tournament), -i))
        chosen = items[best]
        kept.append(replace(chosen, known=identities[best], counted=(*chosen.counted, *(
            src for i in members if i != best for src in (*items[i].sources, *items[i].counted)))))
        for i in members:
            if i == best:
                continue
            other = items[i]
            same = found.reason(i, best, identities)
            moments = (None if _progress(other.tournament) == _progress(chosen.tournament)
                       else (_state(other.tournament), _state(chosen.tournament)))
            if same.by is SameBy.SNAPSHOT and moments is None:
                moments = (_state(other.tournament), _state(chosen.tournament))
            merges.append(Merge(other.label, chosen.label, same, _title(chosen.tournament),
                                moments))
    return Events(tuple(kept), (*notes, *(m.note for m in merges)), merges=tuple(merges))


# ------------------------------------------------------------------------ saved pages


def _slot(page: Page) -> tuple[object, ...]:
    """The view a page shows: two pages of one view are two snapshots of it."""
    kind = formats.chessresults.PageKind  # imported: the page was read by that reader
    if page.kind in (kind.CROSSTABLE_START, kind.CROSSTABLE_RANK, kind.CROSSTABLE_RR):
        return ("crosstable",)
    if page.kind is kind.PLAYER_CARD:
        return (page.kind, page.snr)
    if page.kind in (kind.PAIRINGS, kind.TEAM_PAIRINGS, kind.TEAM_BOARD_PAIRINGS):
        return (page.kind, page.round)
    return (page.kind,)


def _page_progress(page: Page) -> tuple[int, str]:
    decided = sum(1 for r in page.results
                  if r.points is not None and r.status not in (Status.PENDING, Status.UNKNOWN))
    return decided, _updated(page.info)


def _page_groups(saved: Sequence[SavedPage], separate: Collection[str]) -> list[list[SavedPage]]:
    """Pages by tournament: the same number; a page without one joins the tournament of its
    name, or the only tournament there is.  A page in *separate* is a tournament alone."""
    groups: dict[tuple[str, str], list[SavedPage]] = {}
    names: dict[str, tuple[str, str]] = {}
    loose: list[SavedPage] = []
    for s in saved:
        if s.source in separate:
            groups[("apart", s.source)] = [s]
        elif s.page.tnr:
            groups.setdefault(("tnr", s.page.tnr), []).append(s)
            names.setdefault(name_key(s.page.info.name), ("tnr", s.page.tnr))
        else:
            loose.append(s)
    for s in loose:
        key = names.get(name_key(s.page.info.name)) if s.page.info.name else None
        if key is None and len(groups) == 1:
            key = next(iter(groups))
        groups.setdefault(key or ("name", name_key(s.page.info.name)), []).append(s)
    return list(groups.values())


def _newest_pages(group: Sequence[SavedPage], notes: list[SourceWarning]) -> list[SavedPage]:
    """One snapshot per view: of two pages of one view, the one further on (an identical
    copy is dropped)."""
    by_slot: dict[tuple[object, ...], list[SavedPage]] = {}
    copies: set[str] = set()
    for s in group:
        if s.provenance.sha256 and s.provenance.sha256 in copies:
            notes.append(SourceWarning("same-page", f"{display_name(s.source)} is a copy of another page "
                                       "given; it is read once"))
            continue
        copies.add(s.provenance.sha256)
        by_slot.setdefault(_slot(s.page), []).append(s)
    kept: list[SavedPage] = []
    for pages in by_slot.values():
        newest = max(_page_progress(s.page) for s in pages)
        for s in pages:
            if _page_progress(s.page) == newest:
                kept.append(s)
        left = [s for s in pages if _page_progress(s.page) != newest]
        if left:
            used = next(s for s in pages if _page_progress(s.page) == newest)
            notes.append(SourceWarning(
                "older-snapshot", f"{', '.join(display_name(s.source) for s in left)} and "
                f"{display_name(used.source)} show "
                f"the same view of {used.page.info.name or 'the tournament'} at two moments: "
                f"the newer, {display_name(used.source)} ({_state(used.page)}), is used; "
                f"{', '.join(f'{display_name(s.source)} ({_state(s.page)})' for s in left)} "
                f"{'is' if len(left) == 1 else 'are'} left out"))
    order = {id(s): i for i, s in enumerate(group)}
    return sorted(kept, key=lambda s: order[id(s)])


def _read(source: str, session: requests.Session | None, base_url: str | None,
          progress: Progress | None) -> SavedPage | Tournament | FidePage:
    path = Path(source)
    if path.is_file():
        if progress is not None:
            progress(source)
        return read_file(path, pages=True)
    if parse_fide_calc_url(source) is not None:
        return load_fide_url(source, session=session, progress=progress)
    return load(source, session=session, base_url=base_url, progress=progress)


def load_events(sources: Sequence[str | os.PathLike[str]], *,
                session: requests.Session | None = None, base_url: str | None = None,
                progress: Progress | None = None,
                separate: Collection[str | os.PathLike[str]] = ()) -> Events:
    """The events the sources show, each once (see the module's docstring).

    Sources are anything :func:`importer.load` reads; those in *separate* (also read when
    not among *sources*) are each their own event, merged with no other.  InputError for a
    source that cannot be read, or for pages of one tournament that do not fit together.
    """
    if not sources:
        raise InputError("no sources given")
    saved: list[SavedPage] = []
    read: list[tuple[int, Event]] = []
    notes: list[SourceWarning] = []
    order: dict[int, int] = {}
    fide: list[FidePage] = []
    given = [os.fspath(s) for s in sources]
    named = [os.fspath(s) for s in separate]
    apart = set(named)
    for i, source in enumerate(dict.fromkeys([*given, *named])):
        got = _read(source, session, base_url, progress)
        if isinstance(got, FidePage):
            fide.append(got)
        elif isinstance(got, Tournament):
            read.append((i, Event.of(got, [source])))
        else:
            order[id(got)] = i
            saved.append(got)
    for group in _page_groups(saved, apart):
        pages = _newest_pages(group, notes)
        label = ", ".join(s.source for s in pages)
        t = formats.chessresults.build_tournament([s.page for s in pages], source=label)
        t = something_read(replace(t, provenance=tuple(s.provenance for s in pages)),
                           [s.page for s in pages], source=label)
        read.append((order[id(group[0])], Event.of(t, [s.source for s in group])))
    read.sort(key=lambda pair: pair[0])
    found = distinct_events([replace(ev, apart=not apart.isdisjoint(ev.sources))
                             for _, ev in read])
    # FIDE's events stay apart: the tournaments they show are rated from their own files
    shown = tuple(Event.of(t, [page.source]) for page in fide for t in page.tournaments)
    return Events(found.events + shown, (*notes, *found.notes), tuple(fide), found.merges)


def load_many(sources: Sequence[str | os.PathLike[str]], *,
              session: requests.Session | None = None, base_url: str | None = None,
              progress: Progress | None = None) -> Tournament:
    """Several sources of one tournament (saved pages, snapshots) as one, through
    :func:`load_events`; InputError when they show several tournaments."""
    found = load_events(sources, session=session, base_url=base_url, progress=progress)
    if len(found) != 1:
        names = "; ".join(e.tournament.info.name or e.label for e in found.events[:3])
        raise InputError(f"the sources show {len(found)} different tournaments ({names}); "
                         "expected the files or pages of one tournament",
                         source=", ".join(os.fspath(s) for s in sources))
    return found.events[0].tournament.with_warnings(found.notes)
