"""The fetch plan: a chess-results reference → the few pages a tournament import needs.

At most three page requests per tournament (one crosstable, never a page per player), plus the
gate postback for old tournaments:

1. the starting rank, ``art=0`` (FIDE ids, ratings, titles, federations; with ``turdet=YES`` the
   details block and the menu, from which the event type and end date are read).
   When the page is gated (an old tournament: a "Show tournament details" button, the
   ``cb_alleDetails`` postback, stands where the details would be) it is replaced by the
   postback's answer: the same page with its menu and details.  The postback is sent only
   to a chess-results (or ``base_url``) address, read as every URL is
   (:func:`importer.net.urls.is_allowed_host`), and never from https to http; otherwise the gated
   page is kept as it is.
2. the crosstable, ``art=5``; for a team event ``art=20`` instead (every board of every round and
   every player card on one page).
3. at most one more, by priority: the focus player's card ``art=9&snr=N`` for a player-card URL
   (published K and rtg+/-; it also shows that player's colours and live pairing); else, for a
   round robin, the all-rounds pairings ``art=2`` (colours); else, when the crosstable shows a
   live round (paired, unfinished: :attr:`importer.formats.chessresults.Page.live_round`), that round's
   pairings ``art=2&rd=N`` (boards, for next-round scenarios).  Team events take no third page:
   ``art=20`` already holds all of it.  A player card thus replaces the live round or the
   round-robin colours, which matter to no rating: the budget stays three.

After the first page, requests go straight to the node that answered it (``s2.…``), so only the
first page pays the bare domain's redirect.  Pages of a finished tournament (end date past, or
gated) are cached for a day, others (and every live round) for five minutes; a finished
tournament has no live round.

Each fetched page is loaded and parsed exactly once, by the chess-results reader itself
(:func:`~importer.formats.chessresults.document.load_document`,
:func:`~importer.formats.chessresults.parse.parse_document`): the plan reads the gate, the event's
system and its end date from the loaded document, and the crosstable's system and live round
from the parsed page; the parsed pages travel with the fetched ones
(:attr:`TournamentPage.page`) to :func:`~importer.formats.chessresults.build_tournament`.  The plan
learns all of it through one reader (:func:`read_page`, or the caller's: ``fiderate serve``
parses in its limited worker processes and keeps only the fetch).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from importer.errors import InputError, NoSuchTournament
from importer.formats.chessresults.document import Document, load_document, record_not_found
from importer.formats.chessresults.page import Page
from importer.formats.chessresults.parse import parse_document
from importer.formats.chessresults.table import El
from importer.model import System
from importer.net.http import FINISHED_EXPIRY, LIVE_EXPIRY, FetchedPage, get_text, keep_cached
from importer.net.urls import Ref, is_allowed_host, is_downgrade, page_url

if TYPE_CHECKING:
    import requests

__all__ = ["GateForm", "PageFacts", "PageRead", "Reader", "TournamentPage", "fetch_tournament",
           "gate_form", "page_facts", "read_page"]

GATE_BUTTON = "cb_alleDetails"
"""The name and id of the "Show tournament details" button that gates an old tournament."""


@dataclass(frozen=True, slots=True)
class GateForm:
    """The postback that opens an old tournament: where to POST and what to send."""

    action: str
    fields: dict[str, str]


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What the fetch plan needs to know about a page (and nothing more)."""

    has_gate: bool = False
    is_team_event: bool = False
    is_round_robin: bool = False
    end_date: date | None = None
    not_found: bool = False
    """The page is chess-results' 'Record not found' answer."""

    @classmethod
    def of(cls, doc: Document) -> PageFacts:
        """The facts of a loaded page: its gate, the system its details and menu state
        (:attr:`~importer.formats.chessresults.document.Document.system`) and the end date of its
        details block (no other date on a page says that the event is over)."""
        system = doc.system
        return cls(has_gate=doc.gate, is_team_event=system is System.TEAM,
                   is_round_robin=system is System.ROUND_ROBIN, end_date=doc.details.end_date)

    def finished(self, today: date) -> bool:
        """True when the tournament is over: gated (ended > 5 days ago) or its end date is past."""
        return self.has_gate or (self.end_date is not None and self.end_date < today)


@dataclass(frozen=True, slots=True)
class TournamentPage(FetchedPage):
    """A fetched page of the plan with the reader's one parse of it: ``page``, or ``error`` when
    the text is no usable chess-results page (raised by :meth:`parsed`, for the import to
    report)."""

    page: Page | None = None
    error: InputError | None = None

    def parsed(self) -> Page:
        """The parsed page; raises the page's InputError when it could not be read."""
        if self.page is not None:
            return self.page
        raise self.error or InputError("the page was not read", source=self.final_url or self.url)


def _load(fetched: FetchedPage) -> tuple[Document | None, InputError | None]:
    try:
        return load_document(fetched.text, source=fetched.final_url or fetched.url), None
    except InputError as e:
        return None, e


def _read(fetched: FetchedPage, doc: Document | None = None,
          error: InputError | None = None) -> TournamentPage:
    """The page parsed once (loading it first unless ``doc`` is its loaded document)."""
    if doc is None and error is None:
        doc, error = _load(fetched)
    page = None
    if doc is not None:
        try:
            page = parse_document(doc)
        except InputError as e:
            error = e
    return TournamentPage(**{f.name: getattr(fetched, f.name) for f in dataclass_fields(FetchedPage)},
                          page=page, error=error)


def _gate_form(root: El, page_url: str) -> GateForm | None:
    button = next((i for i in root.iter("input")
                   if GATE_BUTTON in (i.get("name"), i.get("id"))), None)
    if button is None:
        return None
    form = next(button.iterancestors("form"), None)
    if form is None:
        form = next((f for f in root.iter("form") if f.get("id") == "form1"), None)
    fields = {
        str(i.get("name")): str(i.get("value") or "")
        for i in (form if form is not None else root).iter("input")
        if i.get("name") is not None and (i.get("type") or "").lower() == "hidden"
    }
    fields[str(button.get("name") or GATE_BUTTON)] = str(
        button.get("value") or "Show tournament details")
    action = str(form.get("action") or "") if form is not None else ""
    return GateForm(action=urljoin(page_url, action), fields=fields)


def gate_form(html: str, page_url: str) -> GateForm | None:
    """The gate's postback for this page, or None when the page is not gated (or is no
    chess-results page).

    Sends back every hidden input of the button's form (``__VIEWSTATE``, ``__EVENTVALIDATION``,
    ``__EVENTTARGET``…) plus the button's own name and value, to the form's action resolved
    against the page's final URL.
    """
    try:
        doc = load_document(html, source=page_url)
    except InputError:
        return None
    return _gate_form(doc.root, page_url)


def page_facts(html: str) -> PageFacts:
    """The gate, event type and end date a page states (:meth:`PageFacts.of` of the page
    loaded by the chess-results reader); no facts for text that is no chess-results page."""
    if record_not_found(html):
        return PageFacts(not_found=True)
    try:
        return PageFacts.of(load_document(html))
    except InputError:
        return PageFacts()


@dataclass(frozen=True, slots=True)
class PageRead:
    """What the fetch plan learns from reading one fetched page (:func:`read_page`)."""

    page: TournamentPage | None
    """The page with its one parse, for the import (None: not read, see :attr:`gate`)."""
    facts: PageFacts = PageFacts()
    """What the loaded page states: its gate, event type and end date."""
    gate: GateForm | None = None
    """A gated starting rank's postback: the page is left unread, its answer replaces it."""
    system: System | None = None
    """The system the parsed page shows (a crosstable's round robin)."""
    live_round: int | None = None
    """The round the parsed page shows in progress."""


Reader = Callable[[FetchedPage, bool], PageRead]
"""Reads a fetched page for the plan; the flag says it is the starting rank (the first page,
which may be 'Record not found' or gated)."""


def read_page(fetched: FetchedPage, first: bool = False) -> PageRead:
    """Load and parse one fetched page, once: the plan's :data:`Reader` unless the caller
    reads pages elsewhere (``fiderate serve`` reads them in its worker processes)."""
    if first and record_not_found(fetched.text):
        return PageRead(None, PageFacts(not_found=True))
    doc, error = _load(fetched)
    facts = PageFacts.of(doc) if doc is not None else PageFacts()
    if first and doc is not None and facts.has_gate:
        gate = _gate_form(doc.root, fetched.final_url)
        if gate is not None:
            return PageRead(None, facts, gate)
    page = _read(fetched, doc, error)
    shows = page.page
    return PageRead(page, facts, system=shows.info.system if shows is not None else None,
                    live_round=shows.live_round if shows is not None else None)


def fetch_tournament(
    ref: Ref,
    session: requests.Session,
    *,
    base_url: str | None = None,
    progress: Callable[[str], None] | None = None,
    read: Reader = read_page,
) -> list[TournamentPage]:
    """Fetch the pages of one tournament, in plan order: starting rank, crosstable, extra.

    Each page comes with its one parse (:attr:`TournamentPage.page`, or the InputError that
    :meth:`TournamentPage.parsed` raises).  ``base_url`` (default: the one
    :func:`importer.net.http.make_session` was given) builds the URLs on a mirror or a local double.
    ``progress`` is called with each URL before it is fetched.  ``read`` loads and parses each
    page (default :func:`read_page`, here; the plan itself never parses).  Raises
    :class:`NoSuchTournament` (404 or 'Record not found') and :class:`FetchError`.
    """
    base_url = base_url or getattr(session, "fiderate_base_url", None)

    def get(url: str, expire: int, *, method: str = "GET",
            data: dict[str, str] | None = None) -> FetchedPage:
        if progress is not None:
            progress(url)
        return get_text(session, url, method=method, data=data, expire_after=expire,
                        base_url=base_url)

    first = get(page_url(ref, art=0, base_url=base_url), LIVE_EXPIRY)
    seen = read(first, True)
    if seen.facts.not_found:
        raise NoSuchTournament(first.url, f"no such tournament ({ref.tnr}): 'Record not found'")
    facts = seen.facts
    if seen.gate is not None:
        if (is_allowed_host(seen.gate.action, base_url)
                and not is_downgrade(first.final_url, seen.gate.action)):
            gated = first
            first = get(seen.gate.action, FINISHED_EXPIRY, method="POST", data=seen.gate.fields)
            keep_cached(session, gated, FINISHED_EXPIRY)
            seen = read(first, False)
            facts = replace(seen.facts, has_gate=True)  # gated means old
        else:  # a postback elsewhere is never sent: the gated page is all there is
            seen = read(first, False)
    finished = facts.finished(datetime.now(UTC).date())
    expire = FINISHED_EXPIRY if finished else LIVE_EXPIRY
    if finished:
        keep_cached(session, first, expire)

    node = urlsplit(first.final_url).hostname or ""
    here = ref if base_url or not is_allowed_host(first.final_url, None) else Ref(
        tnr=ref.tnr, host=node)

    def view(art: int, *, rd: int | None = None, snr: int | None = None,
             expire: int = expire) -> PageRead:
        return read(get(page_url(here, art=art, rd=rd, snr=snr, base_url=base_url), expire),
                    False)

    reads = [seen]
    if facts.is_team_event:
        reads.append(view(20))
    else:
        crosstable = view(5)
        reads.append(crosstable)
        if ref.snr is not None:
            reads.append(view(9, snr=ref.snr))
        elif facts.is_round_robin or crosstable.system is System.ROUND_ROBIN:
            reads.append(view(2))
        elif crosstable.live_round is not None and not finished:
            reads.append(view(2, rd=crosstable.live_round, expire=LIVE_EXPIRY))
    pages = [r.page for r in reads if r.page is not None]
    if len(pages) < len(reads):
        raise TypeError("the reader left a page of the plan unread")
    return pages
