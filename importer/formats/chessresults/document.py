"""One chess-results page as a document: the lxml tree and the facts the whole page states.

Which tournament (``tnr…``) and view (``art=``, ``rd=``, ``snr=``) it is, from the form action,
or on a page saved as a fragment from a comment, ``<link rel=canonical>``, ``<base href>``,
``<meta property=og:url>`` or the links back to the same view; its name; the details block that
``turdet=YES`` adds (dates, rounds, type, time control); the menu ('Rd.7/9', 'Тур7/9'); the old-tournament
gate (the ``cb_alleDetails`` "Show tournament details" button); a cut list (the 'Show complete
list' link, ``zeilen=99999``); the round dates of its captions and headings; and the 'Last
update' line.  The page readers and the fetcher (:mod:`importer.net.fetch`) both read these facts
here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from html import unescape
from urllib.parse import parse_qs, parse_qsl, urlsplit

import lxml.etree

from importer.errors import InputError
from importer.formats.chessresults.details import (
    Details,
    last_update,
    parse_details,
    round_caption,
    rounds_in_heading,
    title_dates,
)
from importer.formats.chessresults.table import (
    FIRST_INT,
    El,
    Table,
    cell_text,
    content,
    data_tables,
    row_cells,
    table_rows,
)
from importer.model import DateSource, System
from importer.parsing.numbers import whole_number

__all__ = ["Document", "event_dates", "load_document", "looks_like_chess_results",
           "record_not_found", "round_of"]

_TNR = re.compile(r"tnr(\d+)\.aspx", re.IGNORECASE)
_MENU_ROUNDS = re.compile(r"(?<![\w/])[^\W\d_]++\.?\s*(\d{1,3})\s*/\s*(\d{1,3})(?![\d/])")
"""A menu link 'Rd.7/9' in any UI language ('Тур5/7', 'Runde 5/7'): a word, then published/total
rounds (read by structure, not by the word).  The word is taken whole (``++``): a shorter part
of it would leave a letter before the round, so trying one is wasted time on every word."""
_TB1_IS_POINTS = re.compile(r"(?:tie\s*break|wertung|доп)\S*\s*1\s*:\s*(?:points|punkte|очки)",
                            re.IGNORECASE)


def looks_like_chess_results(text: str) -> bool:
    """Cheap structural sniff: a page served by chess-results.com (its ``defaultDialog``
    blocks with its ``CR…`` classed tables and cells), a fragment of one saved by a browser
    (its first table a CRs1/CRs2 table, the others bare), or a page a browser saved from a
    chess-results URL ('saved from url=').  Words alone (a page that only mentions
    chess-results, or a URL in a comment) are not enough."""
    page = _dialog_class(text) and _cr_class(text)
    return page or _only_crs1_tables(text) or _saved_from(text[:30_000])


_DIALOG_CLASS = re.compile(r"""\bclass\s*=\s*["']?[^"'>]*?\bdefaultDialog\b""", re.IGNORECASE)
_CR_CLASS = re.compile(r"""\bclass\s*=\s*["']?(?:[^"'>]*\s)?CR""", re.IGNORECASE)
_SAVED_FROM = re.compile(r"<!--\s*saved from url=\(\d+\)\S*chess-results\.com/", re.IGNORECASE)
_DIALOG, _CLASS = "defaultDialog", "class"
_ANY_CASE = {word: re.compile(word, re.IGNORECASE) for word in (_DIALOG, _CLASS)}


def _occurrences(text: str, word: str) -> Iterator[int]:
    """Where *word* starts in *text*, in any case: as written first (a plain search, ten times
    faster than one in any case), then in every other case."""
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)
    for m in _ANY_CASE[word].finditer(text):
        if not text.startswith(word, m.start()):
            yield m.start()


def _dialog_class(text: str) -> bool:
    """A ``defaultDialog`` class attribute (:data:`_DIALOG_CLASS`), looked for only around
    each occurrence of the word: such a match holds no ``>``, so it starts after the last
    ``>`` before its word (the pattern tried at every ``class`` of a page costs 10× more)."""
    for at in _occurrences(text, _DIALOG):
        start = text.rfind(">", 0, at) + 1
        if _DIALOG_CLASS.search(text, start, at + len(_DIALOG) + 1):  # + 1: the \b after it
            return True
    return False


def _cr_class(text: str) -> bool:
    """A ``CR…`` class attribute (:data:`_CR_CLASS`), tried only where a ``class`` starts."""
    return any(_CR_CLASS.match(text, at) for at in _occurrences(text, _CLASS))


def _saved_from(head: str) -> bool:
    """A browser's 'saved from url=' comment naming a chess-results page."""
    return _SAVED_FROM.search(head) is not None


_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_CR_URL = re.compile(r"(?:https?://[^\s\"'<>]*chess-results\.com/)?tnr\d+\.aspx[^\s\"'<>]*",
                     re.IGNORECASE)
_TABLE_TAG = re.compile(r"<table\b([^>]*)>", re.IGNORECASE)
_CRS1_CLASS = re.compile(r"""\bclass\s*=\s*["']?crs[12]\b""", re.IGNORECASE)


def _comment_url(text: str) -> str | None:
    """A chess-results page URL written in an HTML comment (a browser's 'saved from url=' line
    or a note such as ``<!-- https://chess-results.com/tnr864425.aspx?lan=1&art=2&rd=7 -->``)."""
    for comment in _COMMENT.finditer(text):
        m = _CR_URL.search(comment[1])
        if m and ("chess-results" in m[0].casefold() or "saved from url" in comment[1]):
            return unescape(m[0])
    return None


def _only_crs1_tables(text: str) -> bool:
    """A fragment: its first table is a CRs1 table and every other one is a bare ``<table>``
    (the colour squares and seats chess-results nests in cells)."""
    tags = _TABLE_TAG.findall(text)
    return bool(tags) and _CRS1_CLASS.search(tags[0]) is not None and all(
        _CRS1_CLASS.search(attrs) or not attrs.strip() for attrs in tags)


def _page_url(root: El, text: str) -> str:
    """The page's own URL where no form action names it: a comment, ``<link rel=canonical>``,
    ``<base href>`` or ``<meta property=og:url>`` (pages saved as fragments)."""
    found = _comment_url(text)
    if found:
        return found
    for el in root.iter("link", "base", "meta"):
        rel = (el.get("rel") or el.get("property") or "").casefold()
        url = el.get("href") or (el.get("content") if rel == "og:url" else None) or ""
        if (el.tag == "base" or rel in ("canonical", "og:url")) and _TNR.search(url):
            return url
    return ""


def _round_from_links(root: El, tnr: str, art: str) -> str:
    """rd= of the links back to this page (same tournament, same art): the round of a
    fragment, when they all name one round."""
    rounds = set()
    for a in root.iter("a", "link"):
        href = a.get("href") or ""
        m = _TNR.search(href)
        if m is None or (tnr and m[1] != tnr):
            continue
        q = parse_qs(urlsplit(href).query)
        if q.get("art", [""])[0] == art and q.get("rd", [""])[0].isdigit():
            rounds.add(q["rd"][0])
    return rounds.pop() if len(rounds) == 1 else ""


@dataclass
class Document:
    """A loaded chess-results page and the facts the whole page states."""

    root: El
    tables: list[El]
    """The data tables (``CRs1``), in page order."""
    source: str
    tnr: str
    art: str
    rd: int | None
    snr: int | None
    gate: bool
    """The old-tournament gate: a "Show tournament details" button (``cb_alleDetails``)
    stands where the details and the menu would be."""
    name: str
    details: Details
    menu_text: str
    cut: bool
    round_dates: dict[int, date]
    """Round → date from the round captions and headings ('Round 2 on 2026/08/02 at 14:30')."""
    last_update: datetime | None
    """The 'Last update 06.08.2026 20:41:16' line: when the page was last updated (the event
    started on or before it)."""

    # The facts below are read when first asked for: most pages never need them.

    @cached_property
    def menu_rounds(self) -> tuple[int, int] | None:
        """(published, total) rounds of the menu link 'Rd.7/9'."""
        mr = next((m for m in _MENU_ROUNDS.finditer(self.menu_text)
                   if 0 < int(m[1]) <= int(m[2])), None)
        return (int(mr[1]), int(mr[2])) if mr else None

    @cached_property
    def heading_rounds(self) -> int | None:
        """N of a heading 'Final Ranking after N Rounds'."""
        return next((n for h in self.root.iter("h2", "h3")
                     if (n := rounds_in_heading(content(h))) is not None), None)

    @cached_property
    def tb1_is_points(self) -> bool:
        """The legend says 'Tie Break1: points' (a crosstable without a Pts. column)."""
        paragraphs = " ".join(content(p) for p in self.root.iter("p"))  # the page's legends
        return _TB1_IS_POINTS.search(paragraphs) is not None

    @property
    def team(self) -> bool:
        """A team event, as the details ('Tournament type') or the menu's team pages say."""
        menu = self.menu_text.casefold()
        return (self.details.system is System.TEAM or "team pairings" in menu
                or "team-starting rank" in menu)

    @property
    def rounds(self) -> int | None:
        """The number of rounds the page states: the details, else the menu 'Rd.7/9', else a
        heading 'after 9 Rounds'."""
        if self.details.rounds is not None:
            return self.details.rounds
        return self.menu_rounds[1] if self.menu_rounds else self.heading_rounds

    @cached_property
    def links(self) -> tuple[dict[str, str], ...]:
        """The query (lower-case names) of every link to a page of a tournament."""
        out = []
        for a in self.root.iter("a"):
            href = a.get("href") or ""
            if "tnr" in href.casefold():
                out.append({k.casefold(): v for k, v in parse_qsl(urlsplit(href).query)})
        return tuple(out)

    @property
    def system(self) -> System | None:
        """The event's system as the page states it, for the fetcher's plan: team (the details,
        the menu's team pages, or a link to the team views ``art=32``), round robin (the
        details, or a menu link to the all-rounds pairings: ``art=2`` without ``rd=``), else
        what the details say (None when they say nothing)."""
        if self.team or any(q.get("art") == "32" for q in self.links):
            return System.TEAM
        pairings = [q for q in self.links if q.get("art") == "2"]
        if self.details.system is System.ROUND_ROBIN or (pairings and not any(
                q.get("rd", "").isdigit() for q in pairings)):
            return System.ROUND_ROBIN
        return self.details.system


def record_not_found(text: str) -> bool:
    """chess-results' answer for an unknown tournament: 'Record not found', no data table."""
    return "Record not found" in text and not any(
        _CRS1_CLASS.search(attrs) for attrs in _TABLE_TAG.findall(text))


def load_document(text: str, *, source: str = "") -> Document:
    """Read a saved or fetched chess-results page (decoded text) into a :class:`Document`.

    Raises InputError naming ``source`` for text that is not a chess-results page.
    """
    def error(message: str) -> InputError:
        return InputError(message, source=source)

    if not text or text.isspace():
        raise error("empty page: expected a chess-results.com HTML page")
    if "\x00" in text[:4096] or text[:4096].count("\ufffd") > 8:
        raise error("binary data: expected a chess-results.com HTML page (decoded text)")
    start = text.find("<")
    if start < 0:
        raise error("no HTML markup: expected a chess-results.com HTML page")
    text = text[start:]  # a saved page may start with the HTTP response headers
    if not looks_like_chess_results(text):
        raise error("not a chess-results page (none of its tables, links or footer)")
    try:  # plain etree elements: no per-element Python class lookup (the speed target); no
        # table of id= attributes, which nothing here looks elements up by (3% of the parse)
        root = lxml.etree.fromstring(text, lxml.etree.HTMLParser(collect_ids=False))
    except (lxml.etree.LxmlError, ValueError) as e:
        raise error(f"unreadable HTML ({e}): expected a chess-results.com page") from None
    if root is None:
        raise error("unreadable HTML: expected a chess-results.com page")
    form = next(root.iter("form"), None)
    action = (form.get("action") or "") if form is not None else ""
    fragment = _TNR.search(action) is None
    if fragment:  # saved as a fragment: the URL from a comment or a link element
        action = _page_url(root, text) or action
    m = _TNR.search(action)
    if m is None:
        hrefs = (a.get("href") or "" for a in root.iter("a"))
        m = next((mm for h in hrefs if (mm := _TNR.search(h))), None)
    query = parse_qs(urlsplit(action).query)

    def _q(name: str) -> str:
        return next(iter(query.get(name, [])), "")

    rd, snr = _q("rd"), _q("snr")
    if not rd and fragment:
        rd = _round_from_links(root, m[1] if m else "", _q("art") or "2")
    gate = any("cb_alleDetails" in (i.get("id"), i.get("name")) for i in root.iter("input"))
    h2 = next((h for div in root.iter("div") if "defaultDialog" in (div.get("class") or "")
               for h in div.iter("h2")), None)
    if h2 is None:
        h2 = next(root.iter("h2"), None)
    name = " ".join(content(h2).split()) if h2 is not None else ""
    detail_rows: list[tuple[str, str]] = []
    menu: list[str] = []
    for div in root.iter("div"):
        cls = div.get("class") or ""
        if "defaultDialog" not in cls or "defaultDialog" not in cls.split() or any(
                (t.get("class") or "").casefold() == "crs1" for t in div.iter("table")):
            continue  # (the substring test first: most divs have another class)
        for tr in div.iter("tr"):
            cells = row_cells(tr)
            if len(cells) != 2:
                continue
            label, value = cell_text(cells[0]), content(cells[1])
            if "CRnowrap" in (cells[0].get("class") or ""):
                menu.append(f"{label}: {' '.join(value.split())}")
            else:
                detail_rows.append((label, value))
    cut = any("zeilen=99999" in (a.get("href") or "") for a in root.iter("a")
              if a.get("class") == "fett")  # the 'Show complete list' link
    tables = data_tables(root)
    updated = next((moment for p in root.iter("p") if "CRsmall" in (p.get("class") or "")
                    if (moment := last_update(content(p))) is not None), None)
    return Document(
        root=root, tables=tables, source=source, tnr=m[1] if m else "", art=_q("art"),
        rd=whole_number(rd), snr=whole_number(snr), gate=gate, name=name,
        details=parse_details(detail_rows), menu_text="\n".join(menu), cut=cut,
        round_dates=_round_dates(root, tables), last_update=updated,
    )


def _round_dates(root: El, tables: list[El]) -> dict[int, date]:
    """Round dates from the h3 headings and the one-cell caption rows of the data tables
    ('Round 2 on 2026/08/02 at 14:30', '1. Runde am 26.09.2026 um 14:00')."""
    dates: dict[int, date] = {}
    texts = [content(h) for h in root.iter("h3")]
    for table in tables:
        texts += [content(cells[0]) for tr in table_rows(table)
                  if len(tr) <= 2 and len(cells := row_cells(tr)) == 1]
    for text in texts:
        hit = round_caption(text)
        if hit is not None:
            dates.setdefault(*hit)
    return dates


def event_dates(doc: Document) -> tuple[date | None, date | None, DateSource]:
    """(start, end, where from): the details block, else the round dates (earliest, latest),
    else a date in the tournament name, else the last update (only an upper bound)."""
    d = doc.details
    if d.start_date is not None:
        return d.start_date, d.end_date, DateSource.DETAILS
    if doc.round_dates:
        days = doc.round_dates.values()
        return min(days), max(days), DateSource.ROUND_DATES
    named = title_dates(doc.name)
    if named:
        return min(named), max(named) if len(set(named)) > 1 else None, DateSource.TITLE
    if doc.last_update is not None:
        return doc.last_update.date(), None, DateSource.LAST_UPDATE
    return None, None, DateSource.NONE


def round_of(t: Table, doc: Document) -> int | None:
    """The round of a pairings page: its 'Round N on …' heading or caption, else rd=."""
    for h3 in doc.root.iter("h3"):
        text = " ".join(content(h3).split())
        m = FIRST_INT.search(text)
        if m and not text.casefold().startswith("note"):
            return whole_number(m[0])
    for _, caption in t.captions:
        m = FIRST_INT.search(caption)
        if m:
            return whole_number(m[0])
    return doc.rd
