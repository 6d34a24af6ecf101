"""chess-results.com pages → :class:`Page` records: kind detection and one parser per kind.

Pure functions of the decoded page text.  One lxml parse per page; the big ``CRs1`` tables
are walked row by row with plain element iteration (spec §6.2).  Columns are mapped by
header text (:mod:`importer.chessresults.lang`), with structural fallbacks and a warning
when the header words are unknown.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import cached_property
from html import unescape
from itertools import islice, pairwise
from typing import cast
from urllib.parse import parse_qs, urlsplit

import lxml.etree

from importer.chessresults.cells import (
    Cell,
    clean,
    parse_int,
    parse_points,
    parse_rating,
    parse_round_cell,
)
from importer.chessresults.details import (
    Details,
    last_update_date,
    parse_details,
    round_caption,
    rounds_in_heading,
    title_dates,
)
from importer.chessresults.lang import (
    BYE_WORDS,
    NOT_PAIRED_WORDS,
    card_key,
    header_key,
    norm,
    numbered_column,
    round_column,
    tiebreak_column,
)
from importer.chessresults.records import (
    parse_decimal,
    parse_game_result,
    sides,
)
from importer.errors import InputError
from importer.model import (
    Colour,
    DateSource,
    Game,
    Player,
    RoundResult,
    Status,
    System,
    TournamentInfo,
)
from importer.pairings import games_from_results

__all__ = ["KINDS", "Page", "looks_like_chess_results", "parse_page"]

_El = lxml.etree._Element

KINDS = ("starting_rank", "crosstable_start", "crosstable_rank", "crosstable_rr", "pairings",
         "pairings_rr", "notpaired", "player_card", "team_pairings", "team_board_pairings",
         "team_all_details", "player_list", "ranking", "no_data")

_TNR = re.compile(r"tnr(\d+)\.aspx", re.IGNORECASE)
_SNR = re.compile(r"[?&]snr=(\d+)", re.IGNORECASE)
_FIRST_INT = re.compile(r"\d+")
_MENU_ROUNDS = re.compile(r"Rd\.\s*(\d+)\s*/\s*(\d+)")
_TB1_IS_POINTS = re.compile(r"(?:tie\s*break|wertung|доп)\S*\s*1\s*:\s*(?:points|punkte|очки)",
                            re.IGNORECASE)
_FED = re.compile(r"[A-Z]{3}")
_BOARD = re.compile(r"(\d+)\.(\d+)")


@dataclass(frozen=True)
class Page:
    """What one chess-results page says.

    ``kind`` is one of :data:`KINDS`.  ``results`` number players by starting number, except
    on a gated ``crosstable_rank`` page without player links (``by_rank``), where start
    numbers and opponents are final ranks until :func:`build_tournament` maps them.
    ``round`` is the round of a pairings page (of a ``ranking``: the round it ranks after);
    ``live_round`` the first round paired but not finished; ``has_gate`` the old-tournament
    gate (spec §3); ``snr`` the player-card player.
    ``rr_scores`` holds a round-robin matrix as (player, opponent, cell).  ``boards`` holds
    (round, white, black, board) as printed on a pairings page.  ``round_dates`` holds
    (round, date) from the page's round captions and headings ('Round 2 on 2026/08/02').
    ``games`` (one Game per pairing) is computed from the results on first use.
    """

    kind: str
    info: TournamentInfo
    players: tuple[Player, ...] = ()
    results: tuple[RoundResult, ...] = ()
    round: int | None = None
    warnings: tuple[str, ...] = ()
    is_team_event: bool = False
    has_gate: bool = False
    live_round: int | None = None
    tnr: str = ""
    snr: int | None = None
    source: str = ""
    language: str = ""
    art: str = ""
    by_rank: bool = False
    rr_scores: tuple[tuple[int, int, Cell], ...] = ()
    boards: tuple[tuple[int, int, int, int], ...] = ()
    shows_ratings: bool = False
    """The page has a rating column: a player on it without a rating is unrated."""
    cut: bool = False
    """The page's list is cut (a 'Show complete list' link, or exactly 150 rows)."""
    round_dates: tuple[tuple[int, date], ...] = ()

    @cached_property
    def games(self) -> tuple[Game, ...]:
        """One Game per pairing on the page, with the printed boards."""
        if self.by_rank:
            return ()
        boards = {(rd, w, b): x for rd, w, b, x in self.boards}
        return tuple(games_from_results(self.results, boards=boards))


def looks_like_chess_results(text: str) -> bool:
    """Cheap content sniff: an HTML page served by chess-results.com, or a fragment of one
    saved by a browser (its only tables are CRs1 tables, or a comment holds its URL)."""
    head = text[:30_000]
    if any(m in head for m in ("chess-results", "Chess-Results", "Chess-results",
                               "CHESS-RESULTS")) and (
            "defaultDialog" in text or "CRs1" in text or "crs1" in text or "defaultdialog" in text):
        return True
    return _comment_url(head) is not None or _only_crs1_tables(text)


# ---------------------------------------------------------------- fragments

_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_CR_URL = re.compile(r"(?:https?://[^\s\"'<>]*chess-results\.com/)?tnr\d+\.aspx[^\s\"'<>]*",
                     re.IGNORECASE)
_TABLE_TAG = re.compile(r"<table\b([^>]*)>", re.IGNORECASE)
_CRS1_CLASS = re.compile(r"""\bclass\s*=\s*["']?crs1\b""", re.IGNORECASE)


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


def _page_url(root: _El, text: str) -> str:
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


def _round_from_links(root: _El, tnr: str, art: str) -> str:
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


# ---------------------------------------------------------------- low-level helpers


def _cells(tr: _El) -> list[_El]:
    return list(tr.iterchildren("td", "th"))


def _content(el: _El) -> str:
    """All the text inside an element (like lxml.html's text_content)."""
    return "".join(cast("Iterator[str]", el.itertext()))


def _text(cell: _El) -> str:
    """A cell's normalised text; plain cells skip the subtree walk (the hot path)."""
    return clean(_content(cell) if len(cell) else cell.text or "")


def _rows(table: _El) -> Iterator[_El]:
    for child in table:
        if child.tag == "tr":
            yield child
        elif child.tag in ("tbody", "thead"):
            yield from (tr for tr in child if tr.tag == "tr")


def _is_header(tr: _El, cells: list[_El]) -> bool:
    """Header rows are classed CRg1b/CRng1b, or (older pages) made of <th> cells (§6.2)."""
    cls = tr.get("class")
    if cls and cls.split(None, 1)[0].endswith("b"):
        return True
    return cells[0].tag == "th" and all(c.tag == "th" for c in cells)


def _link_snr(cell: _El) -> int | None:
    for a in cell.iter("a"):
        m = _SNR.search(a.get("href") or "")
        if m:
            return int(m[1])
    return None


def _row_fed(tr: _El) -> str:
    for token in (tr.get("class") or "").split()[1:]:
        if _FED.fullmatch(token):
            return token
    return ""


def _flag_fed(cell: _El) -> str:
    for div in cell.iter("div"):
        cls = div.get("class") or ""
        if cls.startswith("tn_"):
            return cls[3:]
    return ""


def _name(text: str) -> str:
    """Player name without the fixed-board marker ' *)' (spec §7), spaces collapsed."""
    text = text.removesuffix("*)").strip()
    return " ".join(text.split())


def _sex(text: str) -> str:
    t = text.casefold()
    return "f" if t in ("w", "f", "ж") else "m" if t in ("m", "м") else ""


def _fide_id(text: str) -> str:
    return "" if text in ("", "0") else text


class _Ctx:
    """Per-page parse state: source, warnings, the language guessed from header words."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.languages: Counter[str] = Counter()
        self.unknown: list[str] = []
        self.rating_column = False

    def error(self, message: str) -> InputError:
        return InputError(message, source=self.source)

    def columns(self, texts: Sequence[str]) -> list[str]:
        """Canonical keys of a header row ('' for an unknown or ignorable column)."""
        keys: list[str] = []
        for text in texts:
            hit = header_key(text)
            if hit:
                keys.append(hit[0])
                self.languages[hit[1]] += 1
                self.rating_column |= hit[0] in ("rating", "rating_intl")
                continue
            n = round_column(text)
            if n is not None:
                keys.append(f"rd:{n}")
                continue
            n = tiebreak_column(text)
            if n is not None:
                keys.append(f"tb:{n}")
                continue
            n = numbered_column(text)
            if n is not None:
                keys.append(f"n:{n}")
                continue
            if text and text not in ("-", ":"):
                self.unknown.append(text)
            keys.append("")
        # the unlabelled column right before a name column is the title (spec §6.2)
        for i in range(1, len(keys)):
            if keys[i] in ("name", "white", "black") and keys[i - 1] == "":
                keys[i - 1] = "title"
        return keys

    @property
    def language(self) -> str:
        others = [lang for lang, _ in self.languages.most_common() if lang != "en"]
        return others[0] if others else ("en" if self.languages else "")


@dataclass
class _Table:
    header: list[str]
    keys: list[str]
    rows: list[tuple[_El, list[_El]]]
    captions: list[tuple[int, str]]
    """(index into rows where the caption starts, caption text)."""


def _split(table: _El, ctx: _Ctx) -> _Table:
    """The first header row, the data rows after it and the caption rows (spec §6.2)."""
    header: list[str] = []
    rows: list[tuple[_El, list[_El]]] = []
    captions: list[tuple[int, str]] = []
    for tr in _rows(table):
        cells = _cells(tr)
        if not cells:
            continue
        if len(cells) == 1:
            captions.append((len(rows), _text(cells[0])))
        elif _is_header(tr, cells):
            if not header:
                header = [_text(c) for c in cells]
        elif header:
            rows.append((tr, cells))
    return _Table(header, ctx.columns(header) if header else [], rows, captions)


def _col(keys: list[str], key: str, start: int = 0, stop: int | None = None) -> int | None:
    stop = len(keys) if stop is None else stop
    for i in range(start, stop):
        if keys[i] == key:
            return i
    return None


def _get(cells: list[_El], i: int | None) -> str:
    return _text(cells[i]) if i is not None and i < len(cells) else ""


def _num(ctx: _Ctx, text: str, what: str, row: int) -> int | None:
    try:
        return parse_int(text)
    except InputError:
        raise ctx.error(f"row {row}: {what} {text!r} is not a number") from None


def _index(keys: list[str]) -> dict[str, int]:
    """Column index of each key (its first occurrence)."""
    idx: dict[str, int] = {}
    for i, k in enumerate(keys):
        idx.setdefault(k, i)
    return idx


def _ratings(idx: dict[str, int], cells: list[_El],
             ) -> tuple[int | None, int | None]:
    """(FIDE rating, national rating): RtgI wins over Rtg; RtgN is national (spec §7)."""
    rating = parse_rating(_get(cells, idx.get("rating_intl", idx.get("rating"))))
    return rating, parse_rating(_get(cells, idx.get("rating_nat")))


_PLAYER_KEYS = ("no", "name", "title", "fed", "fide_id", "rating", "rating_intl", "rating_nat",
                "national_id", "sex", "club", "team", "typ", "points", "rank")


def _int(ctx: _Ctx, text: str, what: str, row: int) -> int | None:
    if text.isdigit() and text.isascii():  # the hot path of _num
        return int(text)
    return _num(ctx, text, what, row)


def _player_from_row(ctx: _Ctx, idx: dict[str, int], tr: _El,
                     cells: list[_El], row: int) -> Player:
    """A player from a list or crosstable row (start number from the snr= link, else No.);
    ``idx`` maps player keys to columns (:func:`_player_index`)."""
    n = len(cells)
    v = {k: _text(cells[i]) for k, i in idx.items() if i < n}
    name_i = idx.get("name", n)
    snr = _link_snr(cells[name_i]) if name_i < n and len(cells[name_i]) else None
    no = snr if snr is not None else _int(ctx, v.get("no", ""), "No.", row)
    if no is None:
        raise ctx.error(f"row {row}: no starting number (no No. cell and no player link)")
    fed = v.get("fed") or _row_fed(tr)
    if not fed:
        fed = next((f for c in cells if (f := _flag_fed(c))), "")
    get = v.get
    try:
        points = parse_points(get("points", ""))
        rating = parse_rating(get("rating_intl") or get("rating", ""))
        national = parse_rating(get("rating_nat", ""))
    except InputError as e:
        raise ctx.error(f"row {row} (player {no}): {e}") from None
    return Player(
        start_no=no, name=_name(get("name", "")), title=get("title", ""), federation=fed,
        fide_id=_fide_id(get("fide_id", "")), rating=rating, national_rating=national,
        national_id=_fide_id(get("national_id", "")), sex=_sex(get("sex", "")),
        club=get("club", ""), team=get("team", ""), category=get("typ", ""), points=points,
        rank=_int(ctx, v["rank"], "Rk.", row) if "rank" in v else None,
    )


_PLAYER_KEY_SET = frozenset(_PLAYER_KEYS)


def _player_index(keys: list[str]) -> dict[str, int]:
    """The columns of the player fields (first occurrences)."""
    return {k: i for k, i in _index(keys).items() if k in _PLAYER_KEY_SET}


# ---------------------------------------------------------------- page-level facts


@dataclass
class _Doc:
    root: _El
    tnr: str
    art: str
    rd: int | None
    snr: int | None
    gate: bool
    name: str
    details: Details
    menu_rounds: tuple[int, int] | None
    menu_text: str
    tb1_is_points: bool
    cut: bool
    round_dates: dict[int, date]
    """Round → date from the round captions and headings ('Round 2 on 2026/08/02 at 14:30')."""
    last_update: date | None
    """The 'Last update 06.08.2026 20:41:16' line: the event started on or before it."""
    heading_rounds: int | None
    """N of a heading 'Final Ranking after N Rounds'."""


def _load(text: str, ctx: _Ctx) -> _Doc:
    if not text or not text.strip():
        raise ctx.error("empty page: expected a chess-results.com HTML page")
    if "\x00" in text[:4096] or text[:4096].count("\ufffd") > 8:
        raise ctx.error("binary data: expected a chess-results.com HTML page (decoded text)")
    start = text.find("<")
    if start < 0:
        raise ctx.error("no HTML markup: expected a chess-results.com HTML page")
    text = text[start:]  # saved pages may start with HTTP response headers (spec §17)
    if not looks_like_chess_results(text):
        raise ctx.error("not a chess-results.com page (no 'chess-results' marker, no CRs1 table)")
    try:  # plain etree elements: no per-element Python class lookup (the speed target)
        root = lxml.etree.fromstring(text, lxml.etree.HTMLParser())
    except (lxml.etree.LxmlError, ValueError) as e:
        raise ctx.error(f"unreadable HTML ({e}): expected a chess-results.com page") from None
    if root is None:
        raise ctx.error("unreadable HTML: expected a chess-results.com page")
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
    name = " ".join(_content(h2).split()) if h2 is not None else ""
    detail_rows: list[tuple[str, str]] = []
    menu: list[str] = []
    for div in root.iter("div"):
        if "defaultDialog" not in (div.get("class") or "").split() or any(
                (t.get("class") or "").casefold() == "crs1" for t in div.iter("table")):
            continue
        for tr in div.iter("tr"):
            cells = _cells(tr)
            if len(cells) != 2:
                continue
            label, value = _text(cells[0]), _content(cells[1])
            if "CRnowrap" in (cells[0].get("class") or ""):
                menu.append(f"{label}: {' '.join(value.split())}")
            else:
                detail_rows.append((label, value))
    menu_text = "\n".join(menu)
    mr = _MENU_ROUNDS.search(menu_text)
    notes = " ".join(_content(p) for p in root.iter("p"))
    cut = any("zeilen=99999" in (a.get("href") or "") for a in root.iter("a")
              if a.get("class") == "fett")  # the 'Show complete list' link
    round_dates, heading_rounds = _round_facts(root)
    last_update = next((day for p in root.iter("p") if "CRsmall" in (p.get("class") or "")
                        if (day := last_update_date(_content(p))) is not None), None)
    return _Doc(
        root=root, tnr=m[1] if m else "", art=_q("art"),
        rd=int(rd) if rd.isdigit() and rd.isascii() else None,
        snr=int(snr) if snr.isdigit() and snr.isascii() else None, gate=gate, name=name,
        details=parse_details(detail_rows), menu_rounds=(int(mr[1]), int(mr[2])) if mr else None,
        menu_text=menu_text, tb1_is_points=bool(_TB1_IS_POINTS.search(notes)), cut=cut,
        round_dates=round_dates, last_update=last_update, heading_rounds=heading_rounds,
    )


def _round_facts(root: _El) -> tuple[dict[int, date], int | None]:
    """Round dates from the h3 headings and the one-cell caption rows of the data tables
    ('Round 2 on 2026/08/02 at 14:30', '1. Runde am 26.09.2026 um 14:00'), and N of a
    heading 'Final Ranking after N Rounds'."""
    dates: dict[int, date] = {}
    texts = [_content(h) for h in root.iter("h3")]
    for table in _data_tables(root):
        texts += [_content(cells[0]) for tr in _rows(table)
                  if len(tr) <= 2 and len(cells := _cells(tr)) == 1]
    for text in texts:
        hit = round_caption(text)
        if hit is not None:
            dates.setdefault(*hit)
    heading = next((n for h in root.iter("h2", "h3")
                    if (n := rounds_in_heading(_content(h))) is not None), None)
    return dates, heading


def _event_dates(doc: _Doc) -> tuple[date | None, date | None, DateSource]:
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
        return doc.last_update, None, DateSource.LAST_UPDATE
    return None, None, DateSource.NONE


_ALL_ROUNDS = frozenset({"crosstable_start", "crosstable_rank", "crosstable_rr", "pairings_rr",
                         "notpaired"})
"""Pages that show every round so far: their last round is the number of rounds when nothing
better says it (the details block, the menu 'Rd.7/9', a heading 'after 9 Rounds')."""


def _data_tables(root: _El) -> list[_El]:
    return [t for t in root.iter("table") if (t.get("class") or "").casefold() == "crs1"]


# ---------------------------------------------------------------- parsers per kind


def _starting_rank(ctx: _Ctx, t: _Table) -> list[Player]:
    idx = _player_index(t.keys)
    return [_player_from_row(ctx, idx, tr, cells, i + 1) for i, (tr, cells) in enumerate(t.rows)]


# ---------------------------------------------------------------- ranking lists (art=1)

_K_VALUES = frozenset({10, 15, 20, 25, 30, 40})
"""The K factors FIDE has used (R24 §8.3.3 and earlier): a published K column holds only these."""
_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM",
                     "ACM", "NM", "WNM", "HGM"})
_SEXES = frozenset({"w", "m", "f", "ж", "м", "k", "d", "h"})
_MAX_ROUNDS = 50
"""The bound on points and games when the page does not say how many rounds were played."""
_CHANGE_SLACK = Decimal("0.05")
"""K × (w − we) against a printed rtg+/-: the printed figure drops trailing zeros only."""
_PUBLISHED = ("performance", "games", "score", "expected", "score_diff", "k", "rating_change")

Numbers = list[Decimal | None]


def _numbers(texts: Sequence[str]) -> Numbers | None:
    """A column's cells as numbers ('' → None); None when a cell is not a number."""
    out: Numbers = []
    for x in texts:
        try:
            out.append(parse_decimal(x))
        except InputError:
            return None
    return out


def _whole(values: Numbers | None) -> bool:
    return values is not None and all(v is None or v == v.to_integral_value() for v in values)


def _is_crosstable_cell(text: str) -> bool:
    try:
        return parse_round_cell(text).opponent_no is not None
    except InputError:
        return False


@dataclass
class _RankingColumns:
    """Where a ranking list keeps each figure: canonical key → column, and what was found by
    the values rather than the header words."""

    columns: dict[str, int]
    by_structure: list[str]
    national_change: list[int]
    """Columns that print a second (national) rating change: read, never kept."""


def _ranking_columns(t: _Table, rounds: int | None, *, cut: bool = False,
                     ) -> _RankingColumns | None:
    """The columns of a ranking list (art=1): from the header words and, where they are
    unknown, from the values; None when the table is not a ranking list.

    By the values: the rank is the first column of whole numbers that starts at 1 and rises
    down the rows, a blank for a tied or unranked row; the starting numbers are a column
    holding 1 … N once each on the N rows (a cut list: distinct numbers), unless player links
    carry them; the name is the text column with the most commas; the points are the first
    column of halves right of the name that never rises down the rows and stays within the
    rounds; in the published block w − we equals the w-we column, n ≥ w and we, K is one of
    10, 15, 20, 25, 30, 40 (blank when unrated), rtg+/- is K × (w − we) and Rp is the
    rating-like column just left of n.  Between the name and the points: a rating column
    (0 or 100–3500), FED (three capitals), sex (one letter), Typ (short codes), the club.
    """
    rows = t.rows
    if not rows:
        return None
    n = len(rows)
    width = len(t.keys)
    texts = [[_get(cells, i) for _, cells in rows] for i in range(width)]
    if any(sum(map(_is_crosstable_cell, col)) * 2 > n for col in texts):
        return None  # round cells such as ' 54b1': a crosstable in an unknown language
    nums = [_numbers(col) for col in texts]
    found: dict[str, int] = {}
    for i, key in enumerate(t.keys):
        if key and not key.startswith(("rd:", "n:")):
            found.setdefault(key, i)
    free = [i for i, key in enumerate(t.keys) if not key]
    taken: set[int] = set()
    structural: list[str] = []
    limit = Decimal(rounds or _MAX_ROUNDS)

    def take(key: str, i: int) -> None:
        found[key] = i
        taken.add(i)
        structural.append(key)

    def open_(lo: int = -1, hi: int = width) -> list[int]:
        return [i for i in free if lo < i < hi and i not in taken]

    numbered = [i for i, key in enumerate(t.keys) if key == "no"]
    if "rank" not in found and len(numbered) > 1:  # ru art=1 heads the rank 'Ст.ном' too
        found["no"] = numbered[1]
        free = sorted([*free, numbered[0]])
    if "rank" not in found:
        for i in open_():
            v = nums[i]
            if not _whole(v) or v is None or v[0] != 1:
                continue
            ranks = [(r, x) for r, x in enumerate(v, start=1) if x is not None]
            if len(ranks) * 2 < n:
                continue
            if all(x <= r for r, x in ranks) and all(
                    a[1] < b[1] for a, b in pairwise(ranks)):
                take("rank", i)
                break
    if "rank" not in found:
        return None
    links = any(_link_snr(c) is not None for c in rows[0][1])
    if "no" not in found and not links:
        for i in open_():
            v = nums[i]
            if not _whole(v) or v is None or None in v:
                continue
            whole = [int(x) for x in v if x is not None]
            if set(whole) == set(range(1, n + 1)) or (cut and len(set(whole)) == n and min(
                    whole) >= 1 and max(whole) <= 9999):
                take("no", i)
                break
        else:
            return None
    if "name" not in found:
        words = [i for i in open_() if nums[i] is None and any(texts[i])]
        if not words:
            return None

        def looks_like_names(i: int) -> tuple[float, float]:
            col = [x for x in texts[i] if x]
            return (sum("," in x for x in col) / len(col), sum(map(len, col)) / len(col))
        take("name", max(words, key=looks_like_names))
    name = found["name"]
    if name > 0 and (name - 1) in free and (name - 1) not in taken and all(
            x in _TITLES or not x for x in texts[name - 1]):
        take("title", name - 1)
    if "points" not in found:
        for i in open_(name):
            v = nums[i]
            if v is None or None in v:
                continue
            values = [x for x in v if x is not None]
            if any(x < 0 or x > limit or (2 * x) != (2 * x).to_integral_value()
                   for x in values) or len(set(values)) == 1:
                continue
            if all(a >= b for a, b in pairwise(values)):
                take("points", i)
                break
    if "points" not in found:
        return None
    points = found["points"]
    _published_columns(found, take, open_(points), nums, limit)
    for i in open_(name, points):  # the player columns between the name and the points
        col = [x for x in texts[i] if x]
        if not col:
            continue
        v = nums[i]
        if _whole(v) and v is not None:
            values = [x for x in v if x is not None]
            if all(x == 0 or 100 <= x <= 3500 for x in values) and max(values) >= 1000:
                take("rating" if "rating" not in found and "rating_intl" not in found
                     else "rating_nat", i)
            continue
        if all(_FED.fullmatch(x) for x in col):
            if "fed" not in found:
                take("fed", i)
        elif all(len(x) == 1 and x.casefold() in _SEXES for x in col):
            if "sex" not in found:
                take("sex", i)
        elif all(len(x) <= 5 for x in col) and "typ" not in found:
            take("typ", i)
        elif "club" not in found:
            take("club", i)
    national = [i for i, key in enumerate(t.keys) if key == "rating_change_nat"]
    changes = [i for i, key in enumerate(t.keys) if key == "rating_change"]
    if len(changes) > 1:  # two rtg+/- columns: the one that is K × (w − we) is FIDE's
        fide = [i for i in changes if _is_k_times(nums, found, i)]
        first = fide[0] if fide else changes[0]
        found["rating_change"] = first
        national += [i for i in changes if i != first]
    return _RankingColumns(found, structural, sorted(national))


def _is_k_times(nums: list[Numbers | None], found: dict[str, int], c: int) -> bool:
    """Whether column *c* is K × (w − we) on every row that prints K, w and we."""
    k, w, we = (nums[found[key]] if key in found else None for key in ("k", "score", "expected"))
    v = nums[c]
    if k is None or w is None or we is None or v is None:
        return False
    seen = 0
    for kk, ww, ee, x in zip(k, w, we, v, strict=True):
        if kk is None or ww is None or ee is None:
            continue  # an unrated row: a national change may stand there
        if x is None or abs(x - kk * (ww - ee)) > _CHANGE_SLACK:
            return False
        seen += 1
    return seen > 0


def _published_columns(found: dict[str, int], take: Callable[[str, int], None],
                       right: list[int], nums: list[Numbers | None], limit: Decimal) -> None:
    """Rp, n, w, we, w-we, K and rtg+/- right of the points, where no header word named them."""
    decimals = [i for i in right if nums[i] is not None]
    if not all(key in found for key in ("score", "expected", "score_diff")):
        triples = sorted(((a, b, c) for a in decimals for b in decimals for c in decimals
                          if a < b < c), key=lambda x: (x[2] - x[0], x[0]))
        for a, b, c in triples:
            if any(key in found and found[key] != col for key, col in (
                    ("score", a), ("expected", b), ("score_diff", c))):
                continue
            if _is_difference(nums[a], nums[b], nums[c]):
                for key, col in (("score", a), ("expected", b), ("score_diff", c)):
                    if key not in found:
                        take(key, col)
                break
    if "score" not in found or "expected" not in found:
        return
    w, we = nums[found["score"]], nums[found["expected"]]
    left = [i for i in decimals if i < found["score"] and i not in found.values()]
    if "games" not in found:
        for i in reversed(left):
            if _whole(nums[i]) and _bounds_games(nums[i], w, we, limit):
                take("games", i)
                break
    if "performance" not in found and "games" in found:
        for i in reversed([i for i in left if i < found["games"]]):
            v = nums[i]
            values = [x for x in v or [] if x is not None]
            if _whole(v) and values and all(x >= 0 for x in values) and max(values) >= 400:
                take("performance", i)
                break
    tail = [i for i in decimals if i > found["score"] and i not in found.values()]
    if "k" not in found:
        for i in tail:
            values = [x for x in nums[i] or [] if x is not None]
            if values and _whole(nums[i]) and all(x in _K_VALUES for x in values):
                take("k", i)
                break
    if "rating_change" not in found and "k" in found:
        for i in tail:
            if i not in found.values() and _is_k_times(nums, found, i):
                take("rating_change", i)
                break


def _is_difference(a: Numbers | None, b: Numbers | None, c: Numbers | None) -> bool:
    """c = a − b on every row that prints b (and all three blank otherwise): w, we, w-we."""
    if a is None or b is None or c is None:
        return False
    seen = fraction = 0
    for x, y, z in zip(a, b, c, strict=True):
        if y is None:
            if z is not None:
                return False
            continue
        if x is None or z is None or x - y != z:
            return False
        seen += 1
        fraction += y != y.to_integral_value()
    return seen > 0 and fraction > 0


def _bounds_games(n: Numbers | None, w: Numbers | None, we: Numbers | None,
                  limit: Decimal) -> bool:
    """n holds every row's w and we and is at most the rounds played."""
    if n is None or w is None or we is None:
        return False
    for g, s, e in zip(n, w, we, strict=True):
        if s is None and e is None:
            continue
        if g is None or g > limit or (s is not None and s > g) or (e is not None and e > g):
            return False
    return True


def _ranking(ctx: _Ctx, t: _Table, cols: _RankingColumns) -> list[Player]:
    """art=1: rank, points and the published rating figures per player (spec §12)."""
    for key, i in cols.columns.items():
        t.keys[i] = key
    idx = _player_index(t.keys)
    where = {key: cols.columns[key] for key in _PUBLISHED if key in cols.columns}
    players = []
    mismatched: list[str] = []
    for n, (tr, cells) in enumerate(t.rows, start=1):
        p = _player_from_row(ctx, idx, tr, cells, n)
        v = {key: _get(cells, i) for key, i in where.items()}
        try:
            games = parse_int(v.get("games", ""))
            performance = parse_int(v.get("performance", ""))
            k = parse_int(v.get("k", ""))
            score, expected, diff, change = (parse_decimal(v.get(key, "")) for key in (
                "score", "expected", "score_diff", "rating_change"))
        except InputError as e:
            raise ctx.error(f"ranking row {n} (player {p.start_no}): {e}") from None
        if games == 0 and not performance:
            performance = None  # no games: the printed 0 is no performance
        if score is not None and expected is not None and (
                (diff is not None and diff != score - expected) or (
                k is not None and change is not None
                and abs(change - k * (score - expected)) > _CHANGE_SLACK)):
            mismatched.append(f"{p.start_no} {p.name}")
        players.append(replace(p, k=k, rating_change=change, published_performance=performance,
                               published_games=games, published_score=score,
                               published_expected=expected))
    if cols.by_structure and ctx.unknown:
        read = ", ".join(dict.fromkeys(cols.by_structure))
        ctx.warnings.append(f"unknown language: columns {', '.join(map(repr, ctx.unknown[:8]))} "
                            f"not recognised; read the ranking list by its values ({read})")
    if mismatched:
        ctx.warnings.append(f"ranking list: the printed rtg+/- is not K × (w − we) (or w-we "
                            f"not w − we) for {len(mismatched)} player"
                            f"{'s' if len(mismatched) > 1 else ''}: {'; '.join(mismatched[:5])}")
    if cols.national_change:
        heads = ", ".join(repr(t.header[i]) for i in cols.national_change if i < len(t.header))
        ctx.warnings.append(f"ranking list: a second rating change column ({heads}), the "
                            "national one, is not kept: only the FIDE rtg+/- is")
    return players


def _guess_crosstable(ctx: _Ctx, t: _Table) -> None:
    """Unknown header words: find No., name and round columns by content (spec §5.2)."""
    if not t.rows:
        return
    width = min(len(c) for _, c in t.rows)
    rd = 0
    for i in range(width):
        texts = [_text(cells[i]) for _, cells in t.rows]
        if t.keys[i] == "" and i == 0 and all(x.isdigit() for x in texts):
            t.keys[i] = "no"
            continue
        if t.keys[i] or not any(texts):
            continue
        try:
            parsed = [parse_round_cell(x) for x in texts]
        except InputError:
            continue
        if any(c.opponent_no is not None for c in parsed):
            rd += 1
            t.keys[i] = f"rd:{rd}"
    if "name" not in t.keys:
        lengths = [(sum(len(_text(c[i])) for _, c in t.rows), i) for i in range(width)
                   if t.keys[i] in ("", "title")]
        if lengths:
            t.keys[max(lengths)[1]] = "name"
    ctx.warnings.append("unknown language: columns " + ", ".join(repr(u) for u in ctx.unknown[:8])
                        + " not recognised; read the crosstable by structure")


def _guess_pairings(ctx: _Ctx, t: _Table) -> bool:
    """Unknown header words: find the result, board, No. and name columns of a pairings
    table by content (spec §5.2); True when a result column was found."""
    if not t.rows:
        return False
    width = min(len(c) for _, c in t.rows)
    columns = [[_text(cells[i]) for _, cells in t.rows] for i in range(width)]
    res_i = None
    for i, texts in enumerate(columns):
        if any("-" in x for x in texts) and all(_is_game_result(x) for x in texts if "-" in x):
            res_i = i
            break
    if res_i is None or res_i == 0:
        return False
    digits = [i for i, texts in enumerate(columns)
              if any(texts) and all(x.isdigit() for x in texts if x)]
    for lo, hi, side in ((0, res_i, "white"), (res_i + 1, width, "black")):
        lengths = [(sum(map(len, columns[i])), i) for i in range(lo, hi) if i not in digits]
        if lengths:
            t.keys[max(lengths)[1]] = side
        numbers = [i for i in digits if lo < i < hi]
        if numbers:
            t.keys[numbers[0] if side == "white" else numbers[-1]] = "no"
    if 0 in digits:
        t.keys[0] = "board"
    t.keys[res_i] = "result"
    ctx.warnings.append("unknown language: columns " + ", ".join(repr(u) for u in ctx.unknown[:8])
                        + " not recognised; read the pairings by structure")
    return True


def _is_game_result(text: str) -> bool:
    try:
        parse_game_result(text)
    except InputError:
        return False
    return True


def _crosstable(ctx: _Ctx, doc: _Doc, t: _Table, *, by_rank_cells: bool,
                ) -> tuple[list[Player], list[RoundResult], bool]:
    """A Swiss crosstable (art=5, or art=4 when ``by_rank_cells``) → players, results."""
    round_cols = [(int(k[3:]), i) for i, k in enumerate(t.keys) if k.startswith("rd:")]
    tb1 = _index(t.keys).get("tb:1")
    idx = _player_index(t.keys)
    use_tb1 = "points" not in idx and tb1 is not None and doc.tb1_is_points
    if use_tb1 and tb1 is not None:
        idx["points"] = tb1
    elif "points" not in idx:
        ctx.warnings.append("no Pts. column and no 'Tie Break1: points' legend: "
                            "points computed from the round cells")
    first = t.rows[0][1] if t.rows else []
    name_i = idx.get("name", 0)
    by_rank = by_rank_cells and "no" not in idx and (
        name_i >= len(first) or _link_snr(first[name_i]) is None)
    if by_rank:  # gated art=4: no links, the ranks stand in for starting numbers (§8.1)
        idx = _player_index([("no" if k == "rank" else k) for k in t.keys])
        if use_tb1 and tb1 is not None:
            idx["points"] = tb1
    players: list[Player] = []
    results: list[RoundResult] = []
    rank_to_no: dict[int, int] = {}
    width = len(t.header)
    for n, (tr, cells) in enumerate(t.rows, start=1):
        if len(cells) < width:
            raise ctx.error(f"crosstable row {n} has {len(cells)} cells, the header "
                            f"{width}: broken or truncated page")
        p = _player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        no = p.start_no
        rank_to_no[p.rank if p.rank is not None and not by_rank else n] = no
        for rd, i in round_cols:
            cell = cells[i]
            text = _content(cell) if len(cell) else cell.text
            if not text:
                continue
            try:  # the hot path: parse_round_cell is cached on the raw text
                c = parse_round_cell(text)
            except InputError:
                if not clean(text):
                    continue
                raise ctx.error(f"crosstable row {n} (player {no} {p.name}), round {rd}: "
                                f"unknown round cell {clean(text)!r}; expected e.g. ' 54b1', "
                                "' 9w+', '-1', '-½' or '-0'") from None
            results.append(RoundResult(start_no=no, round=rd, status=c.status,
                                       opponent_no=c.opponent_no, colour=c.colour,
                                       points=c.points))
    known = rank_to_no if by_rank_cells and not by_rank else {p.start_no: p.start_no
                                                               for p in players}
    for k, r in enumerate(results):
        opp = r.opponent_no
        if opp is None:
            continue
        if known.get(opp, r.start_no) == r.start_no:
            name = next(p.name for p in players if p.start_no == r.start_no)
            raise ctx.error(f"player {r.start_no} ({name}), round {r.round}: opponent "
                            f"{opp} is not in the table: broken or truncated page")
        if known is rank_to_no:  # art=4: the cell numbers the opponent's rank (§8.1)
            results[k] = replace(r, opponent_no=known[opp])
    if use_tb1:
        rounds = max((rd for rd, _ in round_cols), default=0)
        if any(p.points is not None and p.points > rounds for p in players):
            ctx.warnings.append("TB1 exceeds the number of rounds: it is not the score")
            players = [replace(p, points=None) for p in players]
    return players, results, by_rank


def _berger(n: int) -> dict[tuple[int, int], int]:
    """FIDE Berger tables: (white, black) → round, for n players (a dummy when odd)."""
    m = n + n % 2
    half = m // 2
    out: dict[tuple[int, int], int] = {}
    for rd in range(1, m):
        shift = (rd - 1) * half

        def label(x: int, shift: int = shift) -> int:
            return m if x == m else (x - 1 + shift) % (m - 1) + 1
        for i in range(1, half + 1):
            a, b = label(i), label(m + 1 - i)
            if i == 1 and rd % 2 == 0:
                a, b = b, a
            out[(a, b)] = rd
    return out


def _crosstable_rr(ctx: _Ctx, t: _Table) -> tuple[list[Player], list[RoundResult],
                                                  list[tuple[int, int, Cell]]]:
    """Round-robin matrix (spec §8.4); rounds and colours assumed from Berger tables."""
    opp_cols = [(int(k[2:]), i) for i, k in enumerate(t.keys) if k.startswith("n:")]
    idx = _player_index(t.keys)
    players = []
    matrix = []
    for n, (tr, cells) in enumerate(t.rows, start=1):
        if len(cells) < len(t.header):
            raise ctx.error(f"crosstable row {n} has {len(cells)} cells, the header "
                            f"{len(t.header)}: broken or truncated page")
        p = _player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        for opp, i in opp_cols:
            text = _text(cells[i])
            if opp == p.start_no or text in ("*", ""):
                continue
            try:
                c = parse_round_cell(text)
            except InputError:
                raise ctx.error(f"crosstable row {n} (player {p.start_no}), column {opp}: "
                                f"unknown cell {text!r}; expected 1, 0, ½, +, - or *") from None
            if c.opponent_no is not None or c.status in (Status.BYE, Status.HALF_BYE):
                raise ctx.error(f"crosstable row {n}, column {opp}: {text!r} is not a "
                                "round-robin result")
            matrix.append((p.start_no, opp, c))
    numbers = {p.start_no for p in players}
    if any(opp not in numbers for _, opp, _ in matrix):
        raise ctx.error("round-robin column numbers do not match the players: broken page")
    berger = _berger(len(players))
    played = {(a, b): c for a, b, c in matrix}
    results = []
    for (w, b), rd in berger.items():
        for me, opp, colour in ((w, b, Colour.WHITE), (b, w, Colour.BLACK)):
            if me not in numbers:
                continue
            if opp not in numbers:
                results.append(RoundResult(start_no=me, round=rd, status=Status.ABSENT,
                                           points=0.0))
                continue
            cell = played.get((me, opp))
            status, points = (cell.status, cell.points) if cell else (Status.PENDING, None)
            results.append(RoundResult(start_no=me, round=rd, status=status, opponent_no=opp,
                                       colour=colour, points=points))
    ctx.warnings.append("round-robin crosstable: rounds and colours assumed from the Berger "
                        "tables (add the all-rounds pairings page for the real ones)")
    return players, results, matrix


@dataclass
class _Side:
    no: int | None
    name: str
    title: str
    rating: int | None
    fed: str
    word: str


def _pairing_side(ctx: _Ctx, keys: list[str], cells: list[_El],
                  lo: int, hi: int, row: int) -> _Side:
    name_i = next((i for i in range(lo, min(hi, len(keys)))
                   if keys[i] in ("white", "black", "name")), None)
    if name_i is None or name_i >= len(cells):
        raise ctx.error(f"pairings row {row}: no player cell")
    text = _text(cells[name_i])
    word = norm(text)
    no = _link_snr(cells[name_i])
    if no is None:
        no_text = _get(cells, _col(keys, "no", lo, hi))
        no = None if no_text in ("", "-1", "-2", "-") else _num(ctx, no_text, "No.", row)
    fed = (cells[name_i].get("class") or "").strip()
    intl = _col(keys, "rating_intl", lo, hi)
    return _Side(no=no, name=_name(text), title=_get(cells, _col(keys, "title", lo, hi)),
                 rating=parse_rating(_get(cells, intl if intl is not None
                                          else _col(keys, "rating", lo, hi))),
                 fed=fed if _FED.fullmatch(fed) else "", word=word)


def _pairings(ctx: _Ctx, t: _Table, default_round: int | None,
              ) -> tuple[list[Player], list[RoundResult], list[tuple[int, int, int, int]], int]:
    """Swiss (one round) or round-robin (all rounds, caption rows) pairings (spec §10)."""
    res_i = _col(t.keys, "result")
    if res_i is None:
        raise ctx.error("pairings table without a Result column")
    players: dict[int, Player] = {}
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    caption_at = dict(t.captions)
    rd = default_round
    game_rows = 0
    for n, (_tr, cells) in enumerate(t.rows):
        if n in caption_at:
            m = _FIRST_INT.search(caption_at[n])
            rd = int(m[0]) if m else rd
        if rd is None:
            raise ctx.error("pairings page without a round number (no 'Round N' caption and "
                            "no rd= in the page's URL): save the whole page, or add its URL "
                            "in a comment, e.g. <!-- https://chess-results.com/"
                            "tnr123456.aspx?lan=1&art=2&rd=7 -->")
        row = n + 1
        white = _pairing_side(ctx, t.keys, cells, 0, res_i, row)
        black = _pairing_side(ctx, t.keys, cells, res_i + 1, len(t.keys), row)
        text = _get(cells, res_i)
        board = _num(ctx, _get(cells, _col(t.keys, "board", 0, res_i)), "Bo.", row)
        for s in (white, black):
            if s.no is not None and s.no not in players:
                players[s.no] = Player(start_no=s.no, name=s.name, title=s.title,
                                       rating=s.rating, federation=s.fed)
        if white.no is None:
            raise ctx.error(f"pairings row {row}: no starting number for {white.name!r} "
                            "(no player link and no No. column)")
        if black.no is None and black.word not in BYE_WORDS | NOT_PAIRED_WORDS and black.word:
            raise ctx.error(f"pairings row {row}: no starting number for {black.name!r} "
                            "(no player link and no No. column)")
        if black.no is None:  # a 'bye' or 'not paired' row (spec §10.1)
            try:
                pts = parse_points(text)
            except InputError:
                raise ctx.error(f"pairings row {row} ({white.name}): unknown bye result "
                                f"{text!r}; expected 1, ½, 0 or empty") from None
            if black.word in BYE_WORDS:
                status = Status.BYE if pts is None or pts > 0 else Status.ABSENT
            else:
                status = {1.0: Status.BYE, 0.5: Status.HALF_BYE}.get(pts or 0.0, Status.ABSENT)
            results.append(RoundResult(start_no=white.no, round=rd, status=status, points=pts))
            continue
        try:
            gr = parse_game_result(text)
        except InputError as e:
            raise ctx.error(f"pairings row {row} ({white.name} - {black.name}): {e}") from None
        game_rows += 1
        (ws, wp), (bs, bp) = sides(gr)
        results.append(RoundResult(start_no=white.no, round=rd, status=ws, opponent_no=black.no,
                                   colour=Colour.WHITE, points=wp))
        results.append(RoundResult(start_no=black.no, round=rd, status=bs, opponent_no=white.no,
                                   colour=Colour.BLACK, points=bp))
        if board is not None:
            boards.append((rd, white.no, black.no, board))
    return list(players.values()), results, boards, game_rows


_NOT_PAIRED_MARKS = frozenset({"", "*", "0f"}) | BYE_WORDS


def _notpaired(ctx: _Ctx, t: _Table) -> tuple[list[Player], list[RoundResult]]:
    """art=40: '*' not paired (absent or requested ½ bye), 'bye', '0F' forfeit loss (§11)."""
    round_cols = [(int(k[3:]), i) for i, k in enumerate(t.keys) if k.startswith("rd:")]
    idx = _player_index(t.keys)
    players, results = [], []
    for n, (tr, cells) in enumerate(t.rows, start=1):
        p = _player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        for rd, i in round_cols:
            mark = norm(_get(cells, i))
            if not mark:
                continue
            if mark == "*":
                status, points = Status.ABSENT, 0.0
            elif mark in BYE_WORDS:
                status, points = Status.BYE, 1.0
            elif mark == "0f":
                status, points = Status.FORFEIT_LOSS, 0.0
            else:
                raise ctx.error(f"not-paired row {n} (player {p.start_no}), round {rd}: "
                                f"unknown mark {mark!r}; expected '*', 'bye' or '0F'")
            results.append(RoundResult(start_no=p.start_no, round=rd, status=status,
                                       points=points))
    return players, results


_CARD_RESULTS: dict[str, tuple[Status, float | None]] = {
    "1": (Status.PLAYED, 1.0), "0": (Status.PLAYED, 0.0), "½": (Status.PLAYED, 0.5),
    "0,5": (Status.PLAYED, 0.5), "1/2": (Status.PLAYED, 0.5),
    "+": (Status.FORFEIT_WIN, 1.0), "-": (Status.FORFEIT_LOSS, 0.0),
    "1k": (Status.FORFEIT_WIN, 1.0), "0k": (Status.FORFEIT_LOSS, 0.0),  # Turkish hükmen (§5.2)
    "": (Status.PENDING, None),
}


def _card_colour(letter: str, language: str) -> Colour:
    """w/s on player cards in every UI; Turkish b = beyaz = white (spec §5.2)."""
    if letter == "w" or (letter == "b" and language == "tr"):
        return Colour.WHITE
    if letter == "s" or (letter == "b" and language in ("en", "fi")):
        return Colour.BLACK
    return Colour.NONE


def _card_result(ctx: _Ctx, cell: _El, row: int) -> tuple[Colour, str]:
    """(colour, result token) from 'w 1' text or a colour square + result (spec §13.4)."""
    square = next((d.get("class") for d in cell.iter("div")
                   if (d.get("class") or "").startswith("Farbe")), None)
    tokens = _text(cell).replace("&frac12;", "½").split()
    if square:
        colour = Colour.WHITE if square == "FarbewT" else Colour.BLACK
        return colour, "".join(tokens)
    if len(tokens) == 2:
        letter, res = tokens[0].casefold(), tokens[1]
        if letter == "-":
            return Colour.NONE, res
        colour = _card_colour(letter, ctx.language)
        if colour is Colour.NONE:
            ctx.warnings.append(f"player card row {row}: colour letter {letter!r} is ambiguous "
                                f"on a page in language {ctx.language or 'unknown'}; colour "
                                "recorded as unknown")
        return colour, res
    return Colour.NONE, "".join(tokens)


def _player_card(ctx: _Ctx, doc: _Doc, tables: list[_El],
                 ) -> tuple[list[Player], list[RoundResult], int, list[tuple[int, int, int, int]]]:
    """art=9: the key/value block and the games table with K and rtg+/- (spec §13)."""
    info: dict[str, str] = {}
    games_table: _Table | None = None
    for table in tables:
        t = _split(table, ctx)
        if "round" in t.keys and "result" in t.keys:
            games_table = t
            continue
        for tr in _rows(table):
            cells = _cells(tr)
            if len(cells) == 2:
                key = card_key(_text(cells[0]))
                if key and key not in info:
                    info[key] = _text(cells[1])
    snr = parse_int(info.get("start_no", "")) if info.get("start_no", "").isdigit() else doc.snr
    if snr is None:
        raise ctx.error("player card without a starting number ('Starting rank' row or snr=)")
    try:
        intl, display = parse_rating(info.get("rating_intl", "")), parse_rating(
            info.get("rating", ""))
        national = parse_rating(info.get("rating_nat", ""))
        # 'Rating' repeats the national rating and not the international one: the card (and
        # its games table's single rating column) shows national ratings, e.g. Нац.рейтинг
        display_national = display is not None and display == national and display != intl
        me = Player(
            start_no=snr, name=_name(info.get("name", "")), title=info.get("title", ""),
            federation=info.get("federation", ""), fide_id=_fide_id(info.get("fide_id", "")),
            rating=intl if "rating_intl" in info else display,
            national_rating=national,
            national_id=_fide_id(info.get("national_id", "")),
            birth_year=parse_int(info.get("birth_year", "")), club=info.get("club", ""),
            points=parse_points(info.get("points", "")),
            rank=parse_int(info.get("rank", "")),
            rating_change=parse_decimal(info.get("rating_change", "")),
            k=parse_int(info.get("k", "")),
            published_performance=parse_int(info.get("performance", "")) or None,
            published_games=parse_int(info.get("games", "")),
            published_score=parse_decimal(info.get("score", "")),
            published_expected=parse_decimal(info.get("expected", "")),
        )
    except InputError as e:
        raise ctx.error(f"player card {snr}: {e}") from None
    players = [me]
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    if games_table is None:
        return players, results, snr, boards
    t = games_table
    k_i, rc_i = _col(t.keys, "k"), _col(t.keys, "rating_change")
    res_i = t.keys.index("result")  # the games table was chosen for its Result column
    for n, (tr, cells) in enumerate(t.rows, start=1):
        rd = _num(ctx, _get(cells, _col(t.keys, "round")), "round", n)
        if rd is None:
            raise ctx.error(f"player card row {n}: no round number")
        opp_cell = _col(t.keys, "name")
        opp = _link_snr(cells[opp_cell]) if opp_cell is not None and opp_cell < len(cells) else None
        opp_text = _get(cells, _col(t.keys, "no"))
        if opp is None and opp_text not in ("", "-", "-1", "-2"):
            opp = _num(ctx, opp_text, "SNo", n)
        colour, token = _card_result(ctx, cells[res_i], n) if res_i < len(cells) else (
            Colour.NONE, "")
        if token.casefold() not in _CARD_RESULTS:
            raise ctx.error(f"player card row {n} (round {rd}): unknown result {token!r}; "
                            "expected 1, 0, ½, +, - (after a colour letter) or empty")
        status, points = _CARD_RESULTS[token.casefold()]
        try:
            k = parse_int(_get(cells, k_i))
            change = parse_decimal(_get(cells, rc_i))
        except InputError as e:
            raise ctx.error(f"player card row {n} (round {rd}): {e}") from None
        if opp is None:
            status = {1.0: Status.BYE, 0.5: Status.HALF_BYE}.get(points or 0.0, Status.ABSENT)
            colour = Colour.NONE
            points = 0.0 if points is None else points
        else:
            players.append(_card_opponent(ctx, t, tr, cells, opp, n, display_national))
            board = _num(ctx, _get(cells, _col(t.keys, "board")), "Bo.", n)
            if board is not None and colour is not Colour.NONE:
                white, black = (snr, opp) if colour is Colour.WHITE else (opp, snr)
                boards.append((rd, white, black, board))
        results.append(RoundResult(start_no=snr, round=rd, status=status, opponent_no=opp,
                                   colour=colour, points=points, k=k, rating_change=change))
    ks = {r.k for r in results if r.k is not None}
    if len(ks) == 1 and me.k is None:  # one published K for every rated game: the player's K
        players[0] = replace(me, k=ks.pop())
    return players, results, snr, boards


def _card_opponent(ctx: _Ctx, t: _Table, tr: _El, cells: list[_El], opp: int, row: int,
                   display_national: bool) -> Player:
    """An opponent row of a player card: name, ratings, and the opponent's own points as
    printed (Pts.), not the one game against the card's player.

    RtgI (else Rtg) is the rating as before and RtgN the national one; when the card shows
    national ratings (its 'Rating' is its national rating), the single Rtg column is the
    national rating too.
    """
    idx = _index(t.keys)

    def get(key: str) -> str:
        return _get(cells, idx.get(key))

    try:
        points = parse_points(get("points"))
        rating = parse_rating(get("rating_intl") or get("rating"))
        national = parse_rating(get("rating_nat"))
        if national is None and display_national and "rating_intl" not in idx:
            national = parse_rating(get("rating"))
    except InputError as e:
        raise ctx.error(f"player card row {row} (opponent {opp}): {e}") from None
    return Player(start_no=opp, name=_name(get("name")), title=get("title"), rating=rating,
                  national_rating=national, points=points,
                  federation=get("fed") or _row_fed(tr), club=get("club"))


def _board_pairings(ctx: _Ctx, table: _El, default_round: int | None,
                    ) -> tuple[list[Player], list[RoundResult], list[tuple[int, int, int, int]]]:
    """Team board pairings (art=3, art=20 'Spielerpaarungen'): squares give colours (§14)."""
    players: dict[int, Player] = {}
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    rd = default_round
    teams: list[str] = []
    boards_seen: dict[int | None, int] = {}
    for tr in _rows(table):
        cells = _cells(tr)
        if len(cells) == 1:
            m = _FIRST_INT.search(_text(cells[0]))
            rd = int(m[0]) if m else rd
            continue
        if not cells:
            continue
        if _is_header(tr, cells):
            texts = [_text(c) for c in cells]
            teams = [x for x in texts[1:] if x and not x.replace(" ", "").replace(":", "")
                     .replace("½", "").replace(",", "").isdigit() and header_key(x) is None
                     and x != "-"]
            continue
        m = _BOARD.fullmatch(_text(cells[0]))
        if m is None:
            continue
        board_no = boards_seen[rd] = boards_seen.get(rd, 0) + 1  # 1.1, 1.2, 2.1 … → 1, 2, 3 …
        side_cells = [i for i, c in enumerate(cells) if _link_snr(c) is not None
                      or any((d.get("class") or "").startswith("Farbe") for d in c.iter("div"))]
        if len(side_cells) not in (1, 2) or rd is None:
            continue
        sides_: list[tuple[int, Colour, bool]] = []
        for i in side_cells:
            snr = _link_snr(cells[i])
            if snr is None:
                continue
            home = i < len(cells) // 2  # home player left of the '-' cell
            square = next((d.get("class") for d in cells[i].iter("div")
                           if (d.get("class") or "").startswith("Farbe")), "")
            colour = Colour.WHITE if square == "FarbewT" else Colour.BLACK
            if snr not in players:
                players[snr] = Player(start_no=snr, name=_name(_text(cells[i])),
                                      title=_text(cells[i - 1]) if i else "",
                                      rating=parse_rating(_get(cells, i + 1)),
                                      team=teams[0 if home else 1] if len(teams) == 2 else "")
            sides_.append((snr, colour, home))
        text = _board_result(cells, max(side_cells))
        try:
            gr = parse_game_result(text)
        except InputError as e:
            raise ctx.error(f"board {m[0]} round {rd}: {e}") from None
        (ws, wp), (bs, bp) = sides(gr)  # the result reads home (left) first, not White (§14)
        if len(sides_) == 1 and text:  # the other board is empty: a forfeit (spec §14)
            snr, _, home = sides_[0]
            status, points = (ws, wp) if home else (bs, bp)
            if status in (Status.FORFEIT_WIN, Status.FORFEIT_LOSS):
                results.append(RoundResult(start_no=snr, round=rd, status=status, points=points))
            else:
                ctx.warnings.append(f"board {m[0]} round {rd}: result {text!r} with one "
                                    "player; skipped")
        if len(sides_) != 2:
            continue
        (a, ca, _), (b, _, _) = sides_
        white, black = a, b
        if ca is not Colour.WHITE:
            white, black, (ws, wp), (bs, bp) = b, a, (bs, bp), (ws, wp)
        results.append(RoundResult(start_no=white, round=rd, status=ws, opponent_no=black,
                                   colour=Colour.WHITE, points=wp))
        results.append(RoundResult(start_no=black, round=rd, status=bs, opponent_no=white,
                                   colour=Colour.BLACK, points=bp))
        boards.append((rd, white, black, board_no))
    return list(players.values()), results, boards


def _board_result(cells: list[_El], last_side: int) -> str:
    """The result cell of a board row: the last cell after the players that reads as a game
    result, so trailing columns such as PGN are skipped; '' while pending."""
    found = ""
    for cell in cells[last_side + 1:]:
        text = _text(cell)
        if text and _is_game_result(text):
            found = text
    return found


def _team_composition(ctx: _Ctx, table: _El) -> list[Player]:
    """art=20 'Teamaufstellung': caption per team, then its players with snr= links."""
    players = []
    team = ""
    keys: list[str] = []
    for n, tr in enumerate(_rows(table), start=1):
        cells = _cells(tr)
        if len(cells) == 1:
            caption = _text(cells[0])
            team = re.sub(r"^\d+\.\s*", "", caption).split(" (")[0].strip()
        elif cells and _is_header(tr, cells):
            keys = ctx.columns([_text(c) for c in cells])
        elif cells and keys:
            p = _player_from_row(ctx, _player_index([("" if k == "board" else k) for k in keys]),
                                 tr, cells, n)
            players.append(replace(p, team=team))
    return players


# ---------------------------------------------------------------- dispatch


def _first_pending(results: Sequence[RoundResult]) -> int | None:
    return min((r.round for r in results if r.status is Status.PENDING), default=None)


def parse_page(html: str, *, source: str = "") -> Page:
    """Parse one saved or fetched chess-results page (decoded text).

    Raises InputError (naming ``source`` and the row or player) for a page that is not a
    chess-results page or cannot be used; recoverable oddities become ``Page.warnings``.
    """
    ctx = _Ctx(source)
    try:
        return _parse(html, ctx)
    except InputError:
        raise
    except (ValueError, IndexError, KeyError, TypeError, AttributeError,
            lxml.etree.LxmlError) as e:  # a malformed page the parsers did not foresee
        raise ctx.error(f"unusable page ({type(e).__name__}: {e})") from None


def _parse(html: str, ctx: _Ctx) -> Page:
    doc = _load(html, ctx)
    d = doc.details
    ctx.warnings.extend(d.warnings)
    tables = _data_tables(doc.root)
    menu = doc.menu_text.casefold()
    team = d.system is System.TEAM or "team pairings" in menu or "team-starting rank" in menu
    rounds = d.rounds if d.rounds is not None else (
        doc.menu_rounds[1] if doc.menu_rounds else doc.heading_rounds)
    start, end, date_source = _event_dates(doc)
    base = {"tnr": doc.tnr, "has_gate": doc.gate, "source": ctx.source, "art": doc.art,
            "round_dates": tuple(sorted(doc.round_dates.items()))}
    if doc.cut:
        ctx.warnings.append("the list on this page is cut ('Show complete list'): players "
                            "beyond it are missing")

    def info(system: System | None = None, shown: int | None = None) -> TournamentInfo:
        return TournamentInfo(
            id=doc.tnr, name=doc.name, source=ctx.source, start_date=start,
            end_date=end, rounds=rounds if rounds is not None else shown,
            system=system or d.system or (System.TEAM if team else System.SWISS),
            rating_list=d.rating_list, federation=d.federation, time_control=d.time_control,
            rating_calculation=d.rating_calculation, fide_event_id=d.fide_event_id,
            date_source=date_source)

    def page(kind: str, system: System | None = None, **kw: object) -> Page:
        if ctx.unknown and kind not in ("team_board_pairings", "team_all_details") and not any(
                w.startswith("unknown language") for w in ctx.warnings):
            ctx.warnings.append("unknown header words: " + ", ".join(
                repr(u) for u in ctx.unknown[:8]))
        fields = {**base, **kw}
        players = cast("Sequence[Player]", fields.get("players", ()))
        fields["shows_ratings"] = ctx.rating_column or any(p.rating is not None for p in players)
        fields["cut"] = doc.cut or len(players) == 150
        results = cast("Sequence[RoundResult]", kw.get("results", ()))
        shown = max((r.round for r in results), default=None) if kind in _ALL_ROUNDS else None
        return Page(kind=kind, info=info(system, shown), warnings=tuple(dict.fromkeys(ctx.warnings)),
                    is_team_event=team or kind.startswith("team") or kind == "player_list",
                    language=ctx.language, **fields)  # type: ignore[arg-type]

    if not tables:
        if doc.name or doc.tnr:
            ctx.warnings.append("no data table on the page: not started or not paired yet")
            return page("no_data", round=doc.rd)
        raise ctx.error("no CRs1 table and no tournament name: not a usable chess-results page")

    if doc.art == "20" or (len(tables) >= 3 and any(
            _BOARD.fullmatch(_text(c[0])) for tr in _rows(tables[-1]) if (c := _cells(tr)))):
        players: list[Player] = []
        results: list[RoundResult] = []
        boards: list[tuple[int, int, int, int]] = []
        for table in tables:
            rows = list(_rows(table))
            first = _cells(rows[0]) if rows else []
            second = _cells(rows[1]) if len(rows) > 1 else []
            if any(_BOARD.fullmatch(_text(c[0])) for tr in rows[:4] if (c := _cells(tr))):
                ps, rs, bs = _board_pairings(ctx, table, doc.rd)
                known = {p.start_no for p in players}
                players += [p for p in ps if p.start_no not in known]
                results += rs
                boards += bs
            elif len(first) == 1 and second and (header_key(_text(second[0])) or ("",))[0] == (
                    "board"):  # team composition: a team caption, then 'Br. | … | Name
                players = _team_composition(ctx, table) + players
        return page("team_all_details", System.TEAM, players=tuple(_dedupe(players)),
                    results=tuple(results), boards=tuple(boards),
                    live_round=_first_pending(results))

    t = _split(tables[0], ctx)
    keys = set(t.keys)
    if any(_BOARD.fullmatch(_text(c[0])) for _, c in t.rows[:3] if c) or (
            doc.art == "3" and team):
        ps, rs, bs = _board_pairings(ctx, tables[0], doc.rd)
        return page("team_board_pairings", System.TEAM, players=tuple(ps), results=tuple(rs),
                    boards=tuple(bs), round=_round_of(t, doc),
                    live_round=_first_pending(rs))
    if "team" in keys and "mp" in keys:
        return page("team_pairings", System.TEAM, round=_round_of(t, doc))
    if ("round" in keys and "result" in keys) or doc.art == "9" or any(
            card_key(_text(c[0])) == "start_no" for tr in islice(_rows(tables[0]), 20)
            if len(c := _cells(tr)) == 2):
        ps, rs, snr, bs = _player_card(ctx, doc, tables)
        return page("player_card", players=tuple(_dedupe(ps)), results=tuple(rs), snr=snr,
                    boards=tuple(bs), live_round=_first_pending(rs))
    if "result" not in keys and ctx.unknown and not any(k.startswith("rd:") for k in keys) \
            and _guess_pairings(ctx, t):
        keys = set(t.keys)
    no_rounds = not any(k.startswith(("rd:", "n:")) for k in keys)
    if no_rounds and "result" not in keys and (
            "rank" in keys or ctx.unknown or t.keys.count("no") > 1):
        after = _heading_round(tables[0])
        cols = _ranking_columns(t, rounds or after, cut=doc.cut or len(t.rows) == 150)
        if cols is not None:
            ps = _ranking(ctx, t, cols)
            if len(ps) == 150 and not doc.cut:
                ctx.warnings.append("exactly 150 rows: the list may be cut")
            return page("ranking", players=tuple(ps), round=after)
    if "result" in keys:
        rr = sum(1 for _, c in t.captions if _FIRST_INT.search(c)) > 1 or d.system is (
            System.ROUND_ROBIN)
        ps, rs, bs, game_rows = _pairings(ctx, t, _round_of(t, doc))
        rd = _round_of(t, doc)
        if game_rows == 0:
            ctx.warnings.append(f"round {rd}: only not-paired rows, the round is not paired yet")
            return page("no_data", round=rd, players=tuple(ps))
        kind = "pairings_rr" if rr else "pairings"
        return page(kind, System.ROUND_ROBIN if rr else None, players=tuple(ps),
                    results=tuple(rs), boards=tuple(bs),
                    round=None if rr else rd, live_round=_first_pending(rs))
    if any(k.startswith("n:") for k in keys) and "name" in keys and not any(
            k.startswith("rd:") for k in keys):
        ps, rs, matrix = _crosstable_rr(ctx, t)
        return page("crosstable_rr", System.ROUND_ROBIN, players=tuple(ps), results=tuple(rs),
                    rr_scores=tuple(matrix),
                    live_round=None)
    round_cols = [i for i, k in enumerate(t.keys) if k.startswith("rd:")]
    is_notpaired = doc.art == "40" or (bool(round_cols) and all(  # '*', 'bye', '0F' marks (§11)
        norm(_get(c, i)) in _NOT_PAIRED_MARKS for _, c in t.rows[:20] for i in round_cols))
    if is_notpaired:
        ps, rs = _notpaired(ctx, t)
        ctx.warnings.append("not-paired grid: '*' may be an absence or a requested half-point "
                            "bye")
        return page("notpaired", players=tuple(ps), results=tuple(rs))
    if not any(k.startswith("rd:") for k in keys) and ("name" in keys and "no" in keys):
        ps = _starting_rank(ctx, t)
        kind = "player_list" if "team" in keys else "starting_rank"
        if not ps:
            return page("no_data")
        if len(ps) == 150 and not doc.cut:
            ctx.warnings.append("exactly 150 rows: the list may be cut")
        return page(kind, players=tuple(ps))
    if not any(k.startswith("rd:") for k in keys):
        _guess_crosstable(ctx, t)
        if not any(k.startswith("rd:") for k in t.keys):
            raise ctx.error("no table fiderate reads: expected a crosstable, pairings, starting "
                            "rank, not-paired, player-card or team page")
    by_rank_cells = doc.art == "4" or (t.keys[:1] == ["rank"])
    ps, rs, by_rank = _crosstable(ctx, doc, t, by_rank_cells=by_rank_cells)
    if by_rank:
        ctx.warnings.append("ranking crosstable without player links: numbers are ranks until "
                            "a starting list maps them")
    if len(ps) == 150 and not doc.cut:
        ctx.warnings.append("exactly 150 rows: the table may be cut")
    return page("crosstable_rank" if by_rank_cells else "crosstable_start", players=tuple(ps),
                results=tuple(rs),
                by_rank=by_rank, live_round=_first_pending(rs))


def _heading_round(table: _El) -> int | None:
    """The round a ranking list is after: the number in its heading ('Final Ranking after 9
    Rounds', 'Classificação após a 5ª ronda'), when there is one below 100."""
    parent = table.getparent()
    heads = [] if parent is None else [h for h in parent if h.tag in ("h2", "h3")]
    for h in heads:
        m = _FIRST_INT.search(_content(h))
        if m and int(m[0]) < 100:
            return int(m[0])
    return None


def _round_of(t: _Table, doc: _Doc) -> int | None:
    """The round of a pairings page: its 'Round N on …' heading or caption, else rd=."""
    for h3 in doc.root.iter("h3"):
        text = " ".join(_content(h3).split())
        m = _FIRST_INT.search(text)
        if m and not text.casefold().startswith("note"):
            return int(m[0])
    for _, caption in t.captions:
        m = _FIRST_INT.search(caption)
        if m:
            return int(m[0])
    return doc.rd


def _dedupe(players: Sequence[Player]) -> list[Player]:
    seen: dict[int, Player] = {}
    for p in players:
        seen.setdefault(p.start_no, p)
    return list(seen.values())
