"""The fetch plan: a chess-results reference → the few pages a tournament import needs.

At most three page requests per tournament (spec §19: one crosstable, never a page per player),
plus the gate postback for old tournaments:

1. the starting rank, ``art=0`` (FIDE ids, ratings, titles, federations; with ``turdet=YES`` the
   details block and the menu, from which the event type and end date are sniffed).
   When the page is gated (spec §3) it is replaced by the postback's answer: the same page with
   its menu and details.
2. the crosstable, ``art=5``; for a team event ``art=20`` instead (every board of every round and
   every player card on one page).
3. at most one more, by priority: the focus player's card ``art=9&snr=N`` for a player-card URL
   (published K and rtg+/-; it also shows that player's colours and live pairing); else, for a
   round robin, the all-rounds pairings ``art=2`` (colours); else, when the crosstable shows a
   live round (paired, unfinished: :attr:`importer.chessresults.Page.live_round`), that round's
   pairings ``art=2&rd=N`` (boards, for next-round scenarios).  Team events take no third page:
   ``art=20`` already holds all of it.  A player card thus replaces the live round or the
   round-robin colours, which matter to no rating: the budget stays three.

After the first page, requests go straight to the node that answered it (``s2.…``), so only the
first page pays the bare domain's redirect.  Pages of a finished tournament (end date past, or
gated) are cached for a day, others (and every live round) for five minutes; a finished
tournament has no live round.  The page sniffing here is deliberately small: the parsers in
:mod:`importer.chessresults` read the pages properly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urljoin, urlsplit

from importer.errors import InputError, NoSuchTournament
from importer.http import FINISHED_EXPIRY, LIVE_EXPIRY, FetchedPage, get_text, keep_cached
from importer.model import System
from importer.urls import Ref, is_allowed_host, page_url

if TYPE_CHECKING:
    import requests
    from lxml.html import HtmlElement

__all__ = ["GateForm", "PageFacts", "fetch_tournament", "gate_form", "page_facts"]

GATE_BUTTON = "cb_alleDetails"
"""The name and id of the "Show tournament details" button (spec §3)."""

_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})|(\d{1,2})\.(\d{1,2})\.(\d{4})")


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

    def finished(self, today: date) -> bool:
        """True when the tournament is over: gated (ended > 5 days ago) or its end date is past."""
        return self.has_gate or (self.end_date is not None and self.end_date < today)


def _document(html: str) -> HtmlElement | None:
    from lxml import etree
    from lxml.html import HTMLParser, document_fromstring

    try:
        return document_fromstring(html.encode("utf-8"), parser=HTMLParser(encoding="utf-8"))
    except (etree.ParserError, ValueError):
        return None


def gate_form(html: str, page_url: str) -> GateForm | None:
    """The gate's postback for this page, or None when the page is not gated.

    Sends back every hidden input of the button's form (``__VIEWSTATE``, ``__EVENTVALIDATION``,
    ``__EVENTTARGET``…) plus the button's own name and value, to the form's action resolved
    against the page's final URL.
    """
    doc = _document(html)
    if doc is None:
        return None
    buttons = doc.xpath(f'//input[@name="{GATE_BUTTON}" or @id="{GATE_BUTTON}"]')
    if not buttons:
        return None
    button = buttons[0]
    forms = list(button.iterancestors("form")) or doc.xpath('//form[@id="form1"]')
    form = forms[0] if forms else doc
    fields = {
        str(i.get("name")): str(i.get("value") or "")
        for i in form.xpath(".//input[@name]")
        if (i.get("type") or "").lower() == "hidden"
    }
    fields[str(button.get("name") or GATE_BUTTON)] = str(
        button.get("value") or "Show tournament details")
    action = str(form.get("action") or "") if form is not doc else ""
    return GateForm(action=urljoin(page_url, action), fields=fields)


def _details(doc: HtmlElement) -> dict[str, str]:
    out: dict[str, str] = {}
    for row in doc.xpath("//tr[count(td)=2]"):
        key, value = (" ".join(td.text_content().split()) for td in row.xpath("td"))
        out.setdefault(key, value)
    return out


def _date(match: tuple[str, ...]) -> date | None:
    """A date from a ``YYYY/MM/DD`` or ``DD.MM.YYYY`` match; None when it is not a real date."""
    year, month, day = match[:3] if match[0] else (match[5], match[4], match[3])
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def page_facts(html: str) -> PageFacts:
    """Sniff the gate, event type and end date from a page's menu and details."""
    doc = _document(html)
    if doc is None:
        return PageFacts()
    text = doc.text_content()
    has_table = bool(doc.xpath('//table[translate(@class, "crs", "CRS")="CRS1"]'))
    details = _details(doc)
    kind = details.get("Tournament type", "").lower()
    arts: list[dict[str, str]] = []
    for href in doc.xpath("//a/@href"):
        if "tnr" in href.lower():
            arts.append({k.lower(): v for k, v in parse_qsl(urlsplit(href).query)})
    pairings = [q for q in arts if q.get("art") == "2"]
    numbered = any(q.get("rd", "").isdigit() for q in pairings)
    dates = [d for m in _DATE.findall(details.get("Date", "")) if (d := _date(m))]
    team = ("team" in kind or "mannschaft" in kind or any(q.get("art") == "32" for q in arts)
            or "Team-Starting rank" in text)
    return PageFacts(
        has_gate=bool(doc.xpath(f'//input[@name="{GATE_BUTTON}" or @id="{GATE_BUTTON}"]')),
        is_team_event=team,
        is_round_robin=not team and ("round robin" in kind or (bool(pairings) and not numbered)),
        end_date=max(dates) if dates else None,
        not_found="Record not found" in text and not has_table,
    )


def fetch_tournament(
    ref: Ref,
    session: requests.Session,
    *,
    base_url: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[FetchedPage]:
    """Fetch the pages of one tournament, in plan order: starting rank, crosstable, extra.

    ``base_url`` (default: the one :func:`importer.http.make_session` was given) builds the URLs
    on a mirror or a local double.  ``progress`` is called with each URL before it is fetched.
    Raises :class:`NoSuchTournament` (404 or 'Record not found') and :class:`FetchError`.
    """
    base_url = base_url or getattr(session, "fiderate_base_url", None)

    def get(url: str, expire: int, *, method: str = "GET",
            data: dict[str, str] | None = None) -> FetchedPage:
        if progress is not None:
            progress(url)
        return get_text(session, url, method=method, data=data, expire_after=expire)

    first = get(page_url(ref, art=0, base_url=base_url), LIVE_EXPIRY)
    facts = page_facts(first.text)
    if facts.not_found:
        raise NoSuchTournament(first.url, f"no such tournament ({ref.tnr}): 'Record not found'")
    if facts.has_gate:
        form = gate_form(first.text, first.final_url)
        if form is not None and is_allowed_host(form.action, base_url):
            gated = first
            first = get(form.action, FINISHED_EXPIRY, method="POST", data=form.fields)
            keep_cached(session, gated, FINISHED_EXPIRY)
            facts = replace(page_facts(first.text), has_gate=True)  # gated means old
    finished = facts.finished(datetime.now(UTC).date())
    expire = FINISHED_EXPIRY if finished else LIVE_EXPIRY
    if finished:
        keep_cached(session, first, expire)

    node = urlsplit(first.final_url).hostname or ""
    here = ref if base_url or not is_allowed_host(first.final_url, None) else Ref(
        tnr=ref.tnr, host=node)

    def view(art: int, *, rd: int | None = None, snr: int | None = None) -> FetchedPage:
        return get(page_url(here, art=art, rd=rd, snr=snr, base_url=base_url), expire)

    pages = [first]
    if facts.is_team_event:
        pages.append(view(20))
        return pages
    pages.append(view(5))
    if ref.snr is not None:
        pages.append(view(9, snr=ref.snr))
        return pages
    system, live_round = _crosstable_says(pages[1])
    if facts.is_round_robin or system is System.ROUND_ROBIN:
        pages.append(view(2))
    elif live_round is not None and not finished:
        url = page_url(here, art=2, rd=live_round, base_url=base_url)
        pages.append(get(url, LIVE_EXPIRY))
    return pages


def _crosstable_says(page: FetchedPage) -> tuple[System | None, int | None]:
    """The system and live round (first round paired but unfinished) the crosstable shows."""
    from importer.chessresults import parse_page

    try:
        parsed = parse_page(page.text, source=page.final_url)
    except InputError:
        return None, None
    return parsed.info.system, parsed.live_round
