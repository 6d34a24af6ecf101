"""One chess-results page → :class:`Page`: load the document, classify it, run its kind's reader.

Pure functions of the decoded page text.  :func:`parse_page` is the entry; the fetcher
(:mod:`importer.net.fetch`) loads each fetched page once with
:func:`~importer.formats.chessresults.document.load_document`, reads its facts, and hands the same
document to :func:`parse_document`.
"""

from __future__ import annotations

from collections.abc import Callable

from importer.formats.chessresults.classify import Route, classify
from importer.formats.chessresults.crosstable import read_crosstable, read_crosstable_rr
from importer.formats.chessresults.document import Document, event_dates, load_document, round_of
from importer.formats.chessresults.notpaired import read_notpaired
from importer.formats.chessresults.page import ALL_ROUNDS, TEAM_KINDS, Page, PageKind, Reading
from importer.formats.chessresults.pairings import read_pairings
from importer.formats.chessresults.player_card import read_player_card
from importer.formats.chessresults.ranking import read_ranking
from importer.formats.chessresults.starting_rank import read_starting_rank
from importer.formats.chessresults.table import Ctx, El, Table, dedupe, first_pending
from importer.formats.chessresults.team import read_all_details, read_board_pairings
from importer.model import ListSource, System, TournamentInfo

__all__ = ["parse_document", "parse_page"]


def parse_page(html: str, *, source: str = "") -> Page:
    """Parse one saved or fetched chess-results page (decoded text).

    Raises InputError (naming ``source`` and the row or player) for a page that is not a
    chess-results page or cannot be used; recoverable oddities become ``Page.warnings``.
    """
    return parse_document(load_document(html, source=source))


def parse_document(doc: Document) -> Page:
    """The :class:`Page` of a loaded document (see :func:`parse_page`)."""
    ctx = Ctx(doc.source)
    ctx.warnings.extend(doc.details.warnings)
    tables = doc.tables
    if doc.cut:
        ctx.warn("cut-list", "the list on this page is cut ('Show complete list'): players "
                 "beyond it are missing")
    route = classify(ctx, doc, tables)
    return _page(ctx, doc, _READERS[route.kind](ctx, doc, tables, route))


def _page(ctx: Ctx, doc: Document, reading: Reading) -> Page:
    """The Page: what the reader found, with the document's facts around it."""
    kind = reading.kind
    if ctx.unknown and kind not in (PageKind.TEAM_BOARD_PAIRINGS, PageKind.TEAM_ALL_DETAILS) \
            and not any(w.code == "unknown-language" for w in ctx.warnings):
        ctx.warn("unknown-words", "unknown header words: " + ", ".join(
            repr(u) for u in ctx.unknown[:8]))
    players = reading.players
    rounds = doc.rounds
    if rounds is None and kind in ALL_ROUNDS:  # the last round shown
        rounds = max((r.round for r in reading.results), default=None)
    start, end, date_source = event_dates(doc)
    d = doc.details
    info = TournamentInfo(
        id=doc.tnr, name=doc.name, source=ctx.source, start_date=start, end_date=end,
        rounds=rounds,
        system=reading.system or d.system or (System.TEAM if doc.team else System.SWISS),
        rating_list=d.rating_list,
        list_source=ListSource.TIME_CONTROL if d.rating_list else ListSource.NONE,
        federation=d.federation, time_control=d.time_control,
        rating_calculation=d.rating_calculation, fide_event_id=d.fide_event_id,
        date_source=date_source, last_update=doc.last_update)
    return Page(
        kind=kind, info=info, players=players, results=reading.results, round=reading.round,
        warnings=tuple(dict.fromkeys(ctx.warnings)),
        is_team_event=doc.team or kind in TEAM_KINDS, has_gate=doc.gate,
        live_round=reading.live_round, tnr=doc.tnr, snr=reading.snr, source=ctx.source,
        language=ctx.language, art=doc.art, by_rank=reading.by_rank,
        rr_scores=reading.rr_scores, boards=reading.boards,
        shows_ratings=ctx.rating_column or any(p.rating is not None for p in players),
        cut=doc.cut or len(players) == 150,
        round_dates=tuple(sorted(doc.round_dates.items())))


# ---------------------------------------------------------------- one reader per kind

Reader = Callable[[Ctx, Document, list[El], Route], Reading]


def _table(route: Route) -> Table:
    """The split first table every reader but the no-data and all-details ones gets."""
    if route.table is None:  # classify() sets it for every such kind
        raise AssertionError(f"{route.kind}: classified without its table")
    return route.table


def _warn_150(ctx: Ctx, doc: Document, n: int, what: str = "list") -> None:
    if n == 150 and not doc.cut:
        ctx.warn("cut-list", f"exactly 150 rows: the {what} may be cut")


def _no_data(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ctx.warn("no-data", "no data table on the page: not started or not paired yet")
    return Reading(PageKind.NO_DATA, round=doc.rd)


def _all_details(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ps, rs, bs = read_all_details(ctx, tables, doc.rd)
    return Reading(PageKind.TEAM_ALL_DETAILS, System.TEAM, players=tuple(ps), results=tuple(rs),
                   boards=tuple(bs), live_round=first_pending(rs))


def _board_pairings(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    t = _table(route)
    ps, rs, bs = read_board_pairings(ctx, tables[0], doc.rd)
    return Reading(PageKind.TEAM_BOARD_PAIRINGS, System.TEAM, players=tuple(ps),
                   results=tuple(rs), boards=tuple(bs), round=round_of(t, doc),
                   live_round=first_pending(rs))


def _team_pairings(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    return Reading(PageKind.TEAM_PAIRINGS, System.TEAM, round=round_of(_table(route), doc))


def _player_card(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ps, rs, snr, bs = read_player_card(ctx, doc, tables)
    return Reading(PageKind.PLAYER_CARD, players=tuple(dedupe(ps)), results=tuple(rs), snr=snr,
                   boards=tuple(bs), live_round=first_pending(rs))


def _ranking(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    if route.ranking is None:  # classify() sets it for a ranking
        raise AssertionError("ranking classified without its columns")
    ps = read_ranking(ctx, _table(route), route.ranking)
    _warn_150(ctx, doc, len(ps))
    return Reading(PageKind.RANKING, players=tuple(ps), round=route.round)


def _pairings(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    t = _table(route)
    rd = round_of(t, doc)
    ps, rs, bs, game_rows = read_pairings(ctx, t, rd)
    if game_rows == 0:
        ctx.warn("not-paired", f"round {rd}: only not-paired rows, the round is not paired yet",
                 round=rd)
        return Reading(PageKind.NO_DATA, round=rd, players=tuple(ps))
    rr = route.kind is PageKind.PAIRINGS_RR
    return Reading(route.kind, System.ROUND_ROBIN if rr else None, players=tuple(ps),
                   results=tuple(rs), boards=tuple(bs), round=None if rr else rd,
                   live_round=first_pending(rs))


def _crosstable_rr(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ps, rs, matrix = read_crosstable_rr(ctx, _table(route))
    return Reading(PageKind.CROSSTABLE_RR, System.ROUND_ROBIN, players=tuple(ps),
                   results=tuple(rs), rr_scores=tuple(matrix))


def _notpaired(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ps, rs = read_notpaired(ctx, _table(route))
    ctx.warn("not-paired-grid",
             "not-paired grid: '*' may be an absence or a requested half-point bye")
    return Reading(PageKind.NOTPAIRED, players=tuple(ps), results=tuple(rs))


def _starting_rank(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    ps = read_starting_rank(ctx, _table(route))
    if not ps:
        return Reading(PageKind.NO_DATA)
    _warn_150(ctx, doc, len(ps))
    return Reading(route.kind, players=tuple(ps))


def _crosstable(ctx: Ctx, doc: Document, tables: list[El], route: Route) -> Reading:
    by_rank_cells = route.kind is PageKind.CROSSTABLE_RANK
    ps, rs, by_rank = read_crosstable(ctx, doc, _table(route), by_rank_cells=by_rank_cells)
    if by_rank:
        ctx.warn("numbered-by-rank", "ranking crosstable without player links: numbers are "
                 "ranks until a starting list maps them")
    _warn_150(ctx, doc, len(ps), "table")
    return Reading(route.kind, players=tuple(ps), results=tuple(rs), by_rank=by_rank,
                   live_round=first_pending(rs))


_READERS: dict[PageKind, Reader] = {
    PageKind.NO_DATA: _no_data,
    PageKind.TEAM_ALL_DETAILS: _all_details,
    PageKind.TEAM_BOARD_PAIRINGS: _board_pairings,
    PageKind.TEAM_PAIRINGS: _team_pairings,
    PageKind.PLAYER_CARD: _player_card,
    PageKind.RANKING: _ranking,
    PageKind.PAIRINGS: _pairings,
    PageKind.PAIRINGS_RR: _pairings,
    PageKind.CROSSTABLE_RR: _crosstable_rr,
    PageKind.NOTPAIRED: _notpaired,
    PageKind.STARTING_RANK: _starting_rank,
    PageKind.PLAYER_LIST: _starting_rank,
    PageKind.CROSSTABLE_START: _crosstable,
    PageKind.CROSSTABLE_RANK: _crosstable,
}
"""The reader of each kind :func:`~importer.formats.chessresults.classify.classify` routes a page to."""
