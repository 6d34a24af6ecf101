"""FIDE's individual calculations (ratings.fide.com → profile → Calculations) as a source.

The page (its data come from ``a_indv_calculation.php?id_number=…&rating_period=…&t=…``)
shows one player's rating period on one list: a period header ("Standard Ratings December
2025", "Total change: 11.50"), then per event a header (a link to FIDE's event report, the
place, the start and end dates) and a table: a header row ``Rc Ro · · · w n chg K K*chg``
(``Rp`` for Rc when the player is unrated), a summary row under it and one row per game:
opponent (the colour as a ``white_note``/``black_note`` mark), title, women's title, the
rating FIDE used (``*`` when the 400-point rule capped it: then it is the player's rating
± 400, not the opponent's), federation, result, ``1``, chg = S − PD, K and K × chg.  Only
games against rated opponents are listed (N counts them).

Read by structure: a table is an event's when its header row holds Ro, K and K*chg; the
columns are found by their headings, the opponent's cells by what they hold.  Every
published figure is kept as printed (Decimal); what the page does not show is None.
:func:`to_tournaments` turns each event into a :class:`~importer.model.Tournament`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Final

import lxml.etree
import lxml.html

from importer.errors import InputError
from importer.model import (
    FIDE_CALCULATIONS,
    FULL_POINT,
    HALF_POINT,
    NO_POINT,
    Colour,
    DateSource,
    Game,
    GameResult,
    Player,
    Provenance,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    Tournament,
    TournamentInfo,
)
from importer.parsing.numbers import checked_rating

__all__ = ["FideCalculation", "FideEvent", "FideGame", "looks_like_fide_calculation",
           "parse_fide_calculation", "to_tournaments"]

PROVENANCE_KIND: Final = FIDE_CALCULATIONS
"""``Provenance.kind`` of a tournament read from FIDE's page."""

_K_TIMES = re.compile(r">\s*(?:<b>\s*)?k\s*\*\s*$")
"""What comes before 'chg' in the heading 'K*chg' (lower case)."""
_HEAD = {"rc": "rc", "rp": "rp", "ro": "ro", "w": "w", "n": "n", "chg": "chg", "change": "chg",
         "k": "k", "k*chg": "kchg", "kchg": "kchg", "k×chg": "kchg"}
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_RATING = re.compile(r"(\d{3,4})\s*(\*)?")
_FED = re.compile(r"[A-Z]{3}")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_TITLES: Final = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
                  "wf": "WFM", "wc": "WCM", "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM",
                  "wgm": "WGM", "wim": "WIM", "wfm": "WFM", "wcm": "WCM"}
_MONTHS: Final = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), 1)}
_PERIOD = re.compile(r"\b(standard|rapid|blitz)\b\D{0,40}?\b(" + "|".join(_MONTHS) +
                     r")\s+(\d{4})\b", re.IGNORECASE)
_TOTAL = re.compile(r"total\s+change\s*:?\s*([+-]?\d+(?:[.,]\d+)?)", re.IGNORECASE)
_PROFILE = re.compile(r"/profile/(\d+)|id_?number=(\d+)", re.IGNORECASE)
_RESULTS: Final = {Decimal(1): FULL_POINT, Decimal("0.5"): HALF_POINT, Decimal(0): NO_POINT}


@dataclass(frozen=True, slots=True, kw_only=True)
class FideGame:
    """One game as FIDE's page shows it, from the player's side."""

    opponent: str
    title: str = ""
    """The opponent's titles in words ('GM', 'IM WGM'; '' for none)."""
    rating: int | None = None
    """The opponent rating FIDE used (capped: the player's rating ± 400)."""
    capped: bool = False
    """The ``*`` mark: the 400-point rule capped the difference."""
    federation: str = ""
    colour: Colour = Colour.NONE
    result: Decimal | None = None
    change: Decimal | None = None
    """chg = S − PD, as printed."""
    k: int | None = None
    k_change: Decimal | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FideEvent:
    """One event of the period: its header, summary row and games."""

    name: str
    event_id: str = ""
    """FIDE's event number (the link to its tournament report)."""
    place: str = ""
    start: date | None = None
    end: date | None = None
    rc: int | None = None
    """Rc, the rated opponents' average rating as used."""
    rp: int | None = None
    """Rp, printed instead of Rc when the player is unrated."""
    ro: int | None = None
    """Ro, the player's rating in the event."""
    w: Decimal | None = None
    n: int | None = None
    change: Decimal | None = None
    k: int | None = None
    k_change: Decimal | None = None
    games: tuple[FideGame, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class FideCalculation:
    """One player's period on one list, as FIDE's page shows it."""

    source: str
    name: str = ""
    fide_id: str = ""
    federation: str = ""
    """The player's federation ('' : the page does not show it)."""
    period: date | None = None
    """The list month (its first day)."""
    rating_list: RatingList | None = None
    total_change: Decimal | None = None
    """The header's "Total change" (Σ K × chg over the events), as printed."""
    events: tuple[FideEvent, ...] = ()


def looks_like_fide_calculation(text: str) -> bool:
    """True for FIDE's calculations page (its event tables), saved or fetched."""
    low = text[:400_000].lower()
    if "calc_table" in low:  # FIDE's own class
        return True
    at = low.find("chg")
    while at >= 0:  # a heading whose whole text is 'K*chg'
        if low[at + 3:at + 12].lstrip().startswith("<") and _K_TIMES.search(low, max(0, at - 40),
                                                                             at):
            return True
        at = low.find("chg", at + 3)
    return False


def _text(el: lxml.etree._Element) -> str:
    return " ".join("".join(map(str, el.itertext())).replace("\xa0", " ").split())


def _decimal(text: str) -> Decimal | None:
    cleaned = text.replace("−", "-").replace(",", ".").replace(" ", "")
    if not _NUMBER.fullmatch(cleaned):
        return None
    try:
        return Decimal(cleaned)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None


def _columns(row: lxml.etree._Element) -> dict[str, int] | None:
    """The header row's columns by name, when *row* is an event table's header."""
    cells = [_text(c).lower().replace(" ", "") for c in row.iterchildren("td", "th")]
    cols = {_HEAD[c]: i for i, c in enumerate(cells) if c in _HEAD}
    return cols if {"ro", "k", "kchg", "w"} <= cols.keys() else None


def _cell(cells: Sequence[str], cols: dict[str, int], name: str) -> str:
    i = cols.get(name)
    return cells[i] if i is not None and i < len(cells) else ""


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, what: str) -> InputError:
        return InputError(what, source=self.source)

    def number(self, text: str, what: str, *, whole: bool = False) -> Decimal | None:
        if not text:
            return None
        value = _decimal(text)
        if value is None or (whole and value != value.to_integral_value()):
            raise self.fail(f"FIDE's calculations page: {what} reads {text!r}, expected a number")
        return value

    def whole(self, text: str, what: str) -> int | None:
        value = self.number(text, what, whole=True)
        return None if value is None else int(value)

    def game(self, row: lxml.etree._Element, cols: dict[str, int], event: str) -> FideGame:
        tds = list(row.iterchildren("td", "th"))
        cells = [_text(c) for c in tds]
        name = cells[0]
        where = f"{event}, game against {name or 'an unnamed opponent'}"
        marks = " ".join(str(c) for span in tds[0].iter("span") for c in [span.get("class", "")])
        colour = (Colour.WHITE if "white" in marks else Colour.BLACK if "black" in marks
                  else Colour.NONE)
        rating: int | None = None
        capped = False
        titles: list[str] = []
        federation = ""
        for text in cells[1:cols["w"]]:
            found = _RATING.fullmatch(text)
            if found and rating is None:
                rating, capped = int(found.group(1)), found.group(2) is not None
            elif text.lower() in _TITLES:  # before the federation: 'WGM' is a title
                titles.append(_TITLES[text.lower()])
            elif _FED.fullmatch(text) and not federation:
                federation = text
        if rating is None:
            raise self.fail(f"FIDE's calculations page: {where}: no opponent rating, expected "
                            "the rating FIDE used (e.g. 2121 or 2000 *)")
        result = self.number(_cell(cells, cols, "w"), f"{where}: the result")
        if result not in _RESULTS:
            raise self.fail(f"FIDE's calculations page: {where}: result "
                            f"{_cell(cells, cols, 'w')!r}, expected 1.00, 0.50 or 0.00")
        return FideGame(opponent=name, title=" ".join(titles),
                        rating=checked_rating(rating, None, name), capped=capped,
                        federation=federation, colour=colour, result=_RESULTS[result],
                        change=self.number(_cell(cells, cols, "chg"), f"{where}: chg"),
                        k=self.whole(_cell(cells, cols, "k"), f"{where}: K"),
                        k_change=self.number(_cell(cells, cols, "kchg"), f"{where}: K*chg"))

    def event(self, table: lxml.etree._Element, header: _Header) -> FideEvent:
        rows = list(table.iter("tr"))
        at = next((i for i, r in enumerate(rows) if _columns(r) is not None), None)
        name = header.name or (f"event {header.event_id}" if header.event_id else "an event")
        if at is None:  # pragma: no cover - tables are chosen by their header row
            raise self.fail(f"FIDE's calculations page: {name}: no header row")
        cols = _columns(rows[at]) or {}
        summary: list[str] | None = None
        games: list[FideGame] = []
        for row in rows[at + 1:]:
            cells = [_text(c) for c in row.iterchildren("td", "th")]
            if len(cells) <= max(cols.values()):
                continue  # a spacer or the footnote
            if summary is None and not any(s.get("class", "").endswith("_note")
                                           for s in row.iter("span")):
                summary = cells
                continue
            games.append(self.game(row, cols, name))
        if summary is None:
            raise self.fail(f"FIDE's calculations page: {name}: no summary row (Rc, Ro, w, n, "
                            "chg, K, K*chg) under the table's header")
        what = f"{name}: "
        return FideEvent(
            name=header.name, event_id=header.event_id, place=header.place,
            start=header.start, end=header.end,
            rc=self.whole(_cell(summary, cols, "rc"), what + "Rc"),
            rp=self.whole(_cell(summary, cols, "rp"), what + "Rp"),
            ro=checked_rating(self.whole(_cell(summary, cols, "ro"), what + "Ro"), None),
            w=self.number(_cell(summary, cols, "w"), what + "w"),
            n=self.whole(_cell(summary, cols, "n"), what + "n"),
            change=self.number(_cell(summary, cols, "chg"), what + "chg"),
            k=self.whole(_cell(summary, cols, "k"), what + "K"),
            k_change=self.number(_cell(summary, cols, "kchg"), what + "K*chg"),
            games=tuple(games))


@dataclass(slots=True)
class _Header:
    """An event's header as it is read, element by element."""

    name: str = ""
    event_id: str = ""
    place: str = ""
    start: date | None = None
    end: date | None = None

    def day(self, text: str) -> None:
        for found in _DAY.findall(text):
            try:
                day = date.fromisoformat(found)
            except ValueError:
                continue
            if self.start is None:
                self.start = day
            elif self.end is None:
                self.end = day


def _is_event_link(el: lxml.etree._Element) -> str | None:
    href = str(el.get("href", "")) if el.tag == "a" else ""
    found = re.search(r"event=(\d+)", href)
    return found.group(1) if found else None


def parse_fide_calculation(text: str, *, source: str = "") -> FideCalculation:
    """FIDE's calculations page → :class:`FideCalculation`; InputError naming the page and
    what was expected when it holds no event or a figure cannot be read."""
    try:
        return _parse(text, _Reader(source))
    except InputError as exc:
        if exc.source:
            raise
        raise InputError(f"FIDE's calculations page: {exc}", source=source) from None


def _parse(text: str, reader: _Reader) -> FideCalculation:
    source = reader.source
    try:
        doc = lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError):
        raise reader.fail("FIDE's calculations page holds no HTML to read") from None
    candidates = [t for t in doc.iter("table")
                  if any(_columns(r) is not None for r in t.iter("tr"))]
    outer = [a for t in candidates for a in t.iterancestors("table")]
    innermost = [t for t in candidates if t not in outer]  # a layout table around them is none
    within = [d for t in innermost for d in t.iterdescendants()]
    # lxml makes a new proxy per access: the lists keep these alive, so their ids are stable
    tables, inside = {id(t) for t in innermost}, {id(d) for d in within}
    header = _Header()
    events: list[FideEvent] = []
    name = fide_id = ""
    before_events: list[str] = []
    for el in doc.iter():
        if id(el) in inside or not isinstance(el.tag, str):
            continue
        if id(el) in tables:
            events.append(reader.event(el, header))
            header = _Header()
            continue
        event_id = _is_event_link(el)
        if event_id is not None:
            header = _Header(name=_text(el), event_id=event_id)
            continue
        if el.tag == "a" and not fide_id and not events:
            found = _PROFILE.search(str(el.get("href", "")))
            if found:
                fide_id, name = found.group(1) or found.group(2), _text(el)
        if header.name or header.event_id:
            if el.tag == "strong" and not header.place:
                header.place = _text(el)
            elif el.tag == "span":
                header.day(_text(el))
        elif not events and el.text:
            before_events.append(el.text)
    if not events:
        raise reader.fail("FIDE's calculations page shows no event: expected the tables of "
                          "ratings.fide.com's Calculations (Rc, Ro, w, n, chg, K, K*chg)")
    top = " ".join(" ".join(before_events).replace("\xa0", " ").split())
    whole = _text(doc)
    period = _PERIOD.search(top) or _PERIOD.search(whole)
    total = _TOTAL.search(whole)
    month = None
    if period is not None and int(period.group(3)) > 0:
        month = date(int(period.group(3)), _MONTHS[period.group(2).lower()], 1)
    return FideCalculation(
        source=source, name=name, fide_id=fide_id, period=month,
        rating_list=RatingList(period.group(1).lower()) if period is not None else None,
        total_change=reader.number(total.group(1), "Total change") if total else None,
        events=tuple(events))


def _other(colour: Colour) -> Colour:
    return {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE}.get(colour, Colour.NONE)


def _game_result(player: Colour, points: Decimal) -> GameResult:
    if points == HALF_POINT:
        return GameResult.DRAW
    white_won = (points == FULL_POINT) == (player is not Colour.BLACK)
    return GameResult.WHITE_WIN if white_won else GameResult.BLACK_WIN


def _event_tournament(calc: FideCalculation, ev: FideEvent, source: str,
                      provenance: Provenance) -> Tournament:
    fed = ev.place.rsplit(" ", 1)[-1] if ev.place else ""
    info = TournamentInfo(
        name=ev.name or f"FIDE event {ev.event_id}", source=source, start_date=ev.start,
        end_date=ev.end, rounds=len(ev.games), rating_list=calc.rating_list,
        federation=fed if _FED.fullmatch(fed) else "", fide_event_id=ev.event_id,
        date_source=DateSource.DETAILS if ev.start is not None else DateSource.NONE,
        city=ev.place)
    name = calc.name or (f"FIDE id {calc.fide_id}" if calc.fide_id else "the player")
    me = Player(start_no=1, name=name, fide_id=calc.fide_id, federation=calc.federation,
                rating=ev.ro, k=ev.k, rating_change=ev.k_change,
                points=ev.w, published_performance=ev.rp, published_games=ev.n,
                published_score=ev.w)
    players = [me]
    results: list[RoundResult] = []
    games: list[Game] = []
    for rnd, g in enumerate(ev.games, 1):
        no = rnd + 1
        points = g.result if g.result is not None else NO_POINT
        players.append(Player(start_no=no, name=g.opponent, title=g.title,
                              federation=g.federation, rating=g.rating,
                              points=FULL_POINT - points))
        results.append(RoundResult(start_no=1, round=rnd, status=Status.PLAYED, opponent_no=no,
                                   colour=g.colour, points=points, k=g.k,
                                   rating_change=g.k_change))
        results.append(RoundResult(start_no=no, round=rnd, status=Status.PLAYED, opponent_no=1,
                                   colour=_other(g.colour), points=FULL_POINT - points))
        white, black = (no, 1) if g.colour is Colour.BLACK else (1, no)
        games.append(Game(round=rnd, white_no=white, black_no=black,
                          result=_game_result(g.colour, points)))
    warnings = [SourceWarning(
        "fide-page-numbers", f"{source}: FIDE's page gives no start numbers or rounds: "
        f"{me.name} is No. 1, the opponents No. 2–{len(ev.games) + 1} and the rounds 1–"
        f"{len(ev.games)} in the page's order (only the games against rated opponents)")]
    capped = [g.opponent for g in ev.games if g.capped]
    if capped:
        warnings.append(SourceWarning(
            "fide-page-capped", f"{source}: FIDE's page prints the rating it used: "
            f"{', '.join(capped)} (marked *) show {me.name}'s rating ± 400, not their own"))
    return Tournament(info=info, players=tuple(players), results=tuple(results),
                      games=tuple(games), focus=1, warnings=tuple(warnings),
                      provenance=(provenance,))


def to_tournaments(calc: FideCalculation, *, provenance: Provenance | None = None
                   ) -> tuple[Tournament, ...]:
    """One :class:`Tournament` per event of the page: the player (No. 1, with the published
    Ro, K, K × chg, n and w) and their opponents as FIDE lists them (synthetic start numbers
    2, 3, …; rounds in the page's order; the player is the focus); each game keeps FIDE's K
    and K × chg."""
    prov = provenance or Provenance(location=calc.source, kind=PROVENANCE_KIND)
    return tuple(_event_tournament(calc, ev, calc.source, prov) for ev in calc.events)


def event_names(events: Iterable[FideEvent]) -> str:
    """The events' names for a message: 'A; B'."""
    return "; ".join(ev.name or f"event {ev.event_id}" for ev in events)
