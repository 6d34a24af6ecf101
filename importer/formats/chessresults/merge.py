"""Several pages of one tournament → one :class:`Tournament`, with checks.

The crosstable is the base for results; pairings pages add boards, colours and the rounds
the crosstable does not have (or has only as pending); the starting rank adds ids, ratings
and titles; a player card sets the focus and its published K and rtg+/- per game.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from operator import attrgetter, itemgetter

from importer.errors import InputError
from importer.formats.chessresults.page import Page, PageKind
from importer.formats.chessresults.records import mirror, mirrored_status
from importer.identity import same_player
from importer.model import (
    Colour,
    DateSource,
    Player,
    RoundResult,
    SourceWarning,
    Status,
    System,
    Tournament,
    TournamentInfo,
)
from importer.parsing.list_hints import with_list_hint
from importer.parsing.pairings import COLOUR_WORDS, games_from_results, told

__all__ = ["build_tournament"]

# Lower is more authoritative: the lists name players best, then the crosstables, the card, the
# pairings; for results the crosstable, then the pairings, the card, the not-paired grid.
_PLAYER_PRIORITY = {
    PageKind.STARTING_RANK: 0, PageKind.PLAYER_LIST: 0, PageKind.TEAM_ALL_DETAILS: 1,
    PageKind.CROSSTABLE_START: 2, PageKind.CROSSTABLE_RANK: 2, PageKind.CROSSTABLE_RR: 2,
    PageKind.RANKING: 2, PageKind.PLAYER_CARD: 3, PageKind.PAIRINGS: 4, PageKind.PAIRINGS_RR: 4,
    PageKind.TEAM_BOARD_PAIRINGS: 4, PageKind.NOTPAIRED: 5, PageKind.NO_DATA: 6,
    PageKind.TEAM_PAIRINGS: 6}
_RESULT_PRIORITY = {
    PageKind.CROSSTABLE_START: 0, PageKind.CROSSTABLE_RANK: 0, PageKind.CROSSTABLE_RR: 0,
    PageKind.PAIRINGS: 1, PageKind.PAIRINGS_RR: 1, PageKind.TEAM_BOARD_PAIRINGS: 1,
    PageKind.TEAM_ALL_DETAILS: 1, PageKind.PLAYER_CARD: 2, PageKind.NOTPAIRED: 3}
_STARTING_LISTS = frozenset({PageKind.STARTING_RANK, PageKind.PLAYER_LIST,
                             PageKind.CROSSTABLE_START})
"""Pages whose players carry their starting numbers: they map a ranking crosstable's ranks."""
_ROUND = attrgetter("round")
_NO_COLOUR, _PLAYED, _PENDING, _BYE = Colour.NONE, Status.PLAYED, Status.PENDING, Status.BYE
"""Bound once for the loops over every result: a member looked up on its enum class costs
~70 ns a time (Python 3.11), as much as the rest of a step of such a loop."""
_PLAYER_FIELDS = [f.name for f in dataclasses.fields(Player) if f.name != "start_no"]
_INFO_FIELDS = [f.name for f in dataclasses.fields(TournamentInfo)]


def _empty(value: object) -> bool:
    return value is None or value == ""


def _merge_players(pages: Sequence[Page]) -> tuple[dict[int, Player], dict[int, int]]:
    """Players field by field from the most authoritative page that fills the field, and the
    last round the printed points cover (:func:`_points_cover` of the page that printed them)."""
    rows: dict[int, list[Player]] = {}
    through: dict[int, int] = {}
    for page in sorted(pages, key=lambda p: _PLAYER_PRIORITY.get(p.kind, 6)):
        covers = _points_cover(page)
        for p in page.players:
            rows.setdefault(p.start_no, []).append(p)
            upto = covers.get(p.start_no)
            if p.points is not None and p.start_no not in through and upto is not None:
                through[p.start_no] = upto
    players = {}
    for no in sorted(rows):
        found = rows[no]
        if len(found) == 1:
            players[no] = found[0]
            continue
        fields: dict[str, object] = {"name": ""}
        for p in found:
            for name in _PLAYER_FIELDS:
                value = getattr(p, name)
                if not _empty(value) and _empty(fields.get(name)):
                    fields[name] = value
        players[no] = Player(start_no=no, **fields)  # type: ignore[arg-type]
    return players, through


def _check_rows(pages: Sequence[Page], warnings: list[SourceWarning]) -> None:
    """A starting number on two rows of one page: the same name is read once, with a warning;
    another name is an InputError naming both (as a TRF file with a number twice is)."""
    for page in pages:
        seen: dict[int, Player] = {}
        for p in page.players:
            first = seen.setdefault(p.start_no, p)
            if first is p:
                continue
            if not (first.name == p.name or same_player("", first.name, "", p.name)):
                raise InputError(f"starting number {p.start_no} appears twice, as "
                                 f"{first.name!r} and {p.name!r} (broken page): expected one "
                                 "row per player", source=page.source)
            warnings.append(SourceWarning(
                "row-twice", f"starting number {p.start_no} ({p.name}) appears on two rows; "
                "read once", (p.start_no,)).at(page.source))


def _check_unlinked(pages: Sequence[Page], source: str) -> None:
    """Board pairings without player links number players as they appear: such numbers are
    no starting numbers, so the page is read alone (InputError beside other players' pages)."""
    unlinked = [p for p in pages if any(w.code == "numbered-by-appearance" for w in p.warnings)]
    if unlinked and len([p for p in pages if p.players]) > 1:
        raise InputError("board pairings without player links (players numbered as they "
                         "appear, not by starting number) cannot be merged with other pages: "
                         "import that page alone", source=unlinked[0].source or source)


def _points_cover(page: Page) -> dict[int, int]:
    """Per player, the last round a page's printed points cover: the page's last round (a
    ranking: its round), but the round before one the page shows undecided for the player (a
    game being played: a pairings page prints the points before it, a crosstable has no
    result for it yet)."""
    last = max(map(_ROUND, page.results), default=page.round or 0)
    if not last:
        return {}
    open_: dict[int, int] = {}
    for r in page.results:
        if r.points is None:
            open_[r.start_no] = min(r.round, open_.get(r.start_no, r.round))
    return {p.start_no: open_[p.start_no] - 1 if p.start_no in open_ else last
            for p in page.players}


def _map_ranks(page: Page, starts: dict[int, Player], warnings: list[SourceWarning]) -> Page:
    """A gated art=4 page: map rank numbers to starting numbers by name and rating."""
    def key(p: Player) -> tuple[str, int | None]:
        return " ".join(p.name.replace(",", " ").casefold().split()), p.rating

    index = {key(p): p.start_no for p in starts.values()}
    rank_to_no = {}
    for p in page.players:
        no = index.get(key(p))
        if no is None:
            raise InputError(f"ranking crosstable: player {p.name!r} (rank {p.start_no}) is not "
                             "in the starting list; cannot map ranks to starting numbers",
                             source=page.source)
        rank_to_no[p.start_no] = no
    warnings.append(SourceWarning("numbered-by-rank", "ranking crosstable without links: ranks "
                                  "mapped to starting numbers by name and rating"
                                  ).at(page.source or page.kind))
    players = tuple(dataclasses.replace(p, start_no=rank_to_no[p.start_no], rank=p.start_no)
                    for p in page.players)
    results = []
    for r in page.results:
        opp = r.opponent_no
        if opp is not None and opp not in rank_to_no:
            raise InputError(f"ranking crosstable: rank {opp} (opponent of rank {r.start_no}, "
                             f"round {r.round}) is not in the table: broken or truncated page",
                             source=page.source)
        results.append(dataclasses.replace(r, start_no=rank_to_no[r.start_no],
                                           opponent_no=rank_to_no.get(opp) if opp else None))
    return dataclasses.replace(page, players=players, results=tuple(results), by_rank=False)


_DATE_TRUST = (DateSource.DETAILS, DateSource.ROUND_DATES, DateSource.TITLE,
               DateSource.LAST_UPDATE, DateSource.NONE)
_DATE_FIELDS = frozenset({"start_date", "end_date", "date_source", "rounds", "system",
                          "last_update"})


def _merge_dates(pages: Sequence[Page], warnings: list[SourceWarning]) -> dict[str, object]:
    """Start, end and their source from the most trusted source any page gives: the details
    block, else the round dates of every page together (earliest to latest), else a date in
    the name, else the earliest 'last update' (the event started on or before it)."""
    best = min((p.info.date_source for p in pages), key=_DATE_TRUST.index,
               default=DateSource.NONE)
    if best is DateSource.NONE:
        return {}
    if best is DateSource.ROUND_DATES:
        days: dict[int, date] = {}
        for page in pages:
            for rd, day in page.round_dates:
                days.setdefault(rd, day)
        if days:
            first = min(days)
            if first != 1:
                warnings.append(SourceWarning(
                    "date", f"the earliest round date shown is round {first}'s "
                    f"({days[first].isoformat()}): the event started on or before it"))
            return {"start_date": min(days.values()), "end_date": max(days.values()),
                    "date_source": best}
    chosen = [p.info for p in pages if p.info.date_source is best and p.info.start_date]
    if best is DateSource.LAST_UPDATE:
        return {"start_date": min(i.start_date for i in chosen if i.start_date),
                "date_source": best}
    return {"start_date": chosen[0].start_date, "end_date": chosen[0].end_date,
            "date_source": best}


def _merge_info(pages: Sequence[Page], source: str,
                warnings: list[SourceWarning] | None = None) -> TournamentInfo:
    fields: dict[str, object] = {}
    for page in pages:
        for name in _INFO_FIELDS:
            value = getattr(page.info, name)
            if name not in _DATE_FIELDS and not _empty(value) and _empty(fields.get(name)):
                fields[name] = value
    fields.update(_merge_dates(pages, [] if warnings is None else warnings))
    # the latest of the pages' last updates: the newest snapshot among them
    fields["last_update"] = max((p.info.last_update for p in pages if p.info.last_update),
                                default=None)
    # every page's count is the total (details, menu 'Rd.7/9') or rounds it shows: the most
    rounds = [p.info.rounds for p in pages if p.info.rounds is not None]
    if rounds:
        fields["rounds"] = max(rounds)
    kinds = {p.kind for p in pages}
    if any(p.is_team_event for p in pages):
        fields["system"] = System.TEAM
    elif kinds & {PageKind.CROSSTABLE_RR, PageKind.PAIRINGS_RR}:
        fields["system"] = System.ROUND_ROBIN
    else:
        fields["system"] = next((p.info.system for p in pages if p.info.system is not
                                 System.SWISS), System.SWISS)
    if source:
        fields["source"] = source
    return TournamentInfo(**fields)  # type: ignore[arg-type]


def _choose_results(pages: Sequence[Page], warnings: list[SourceWarning]) -> dict[tuple[int, int],
                                                                        RoundResult]:
    """Per (player, round): a finished result beats a pending one; then page priority."""
    have_rr_pairings = any(p.kind is PageKind.PAIRINGS_RR for p in pages)
    results: dict[tuple[int, int], RoundResult] = {}
    prios: dict[tuple[int, int], int] = {}
    for page in pages:
        if page.kind is PageKind.CROSSTABLE_RR and have_rr_pairings:
            continue  # its rounds are only assumed (Berger); the matrix is checked below
        prio = _RESULT_PRIORITY.get(page.kind, 4)
        if not results:
            results = {(r.start_no, r.round): r for r in page.results}
            prios = dict.fromkeys(results, prio)
            continue
        for r in page.results:
            key = (r.start_no, r.round)
            if key not in results:
                results[key], prios[key] = r, prio
                continue
            old = results[key]
            rank = (r.status is Status.PENDING, prio)
            old_rank = (old.status is Status.PENDING, prios[key])
            if r.opponent_no is None and old.opponent_no is not None and (
                    r.status is Status.FORFEIT_LOSS):  # art=40 '0F' names no opponent
                r = dataclasses.replace(r, opponent_no=old.opponent_no, colour=old.colour)
            if not rank[0] and not old_rank[0] and max(prio, old_rank[1]) < 3 and (
                    (old.status, old.opponent_no, old.points)
                    != (r.status, r.opponent_no, r.points)) and None not in (old.points, r.points):
                warnings.append(SourceWarning(
                    "pages-disagree", f"player {r.start_no}, round {r.round}: pages disagree "
                    f"({old.status.value} {old.opponent_no} {old.points} vs "
                    f"{r.status.value} {r.opponent_no} {r.points} on {page.source or page.kind})",
                    (r.start_no,), r.round))
            better, worse = (r, old) if rank < old_rank else (old, r)
            if better.colour is Colour.NONE and better.opponent_no == worse.opponent_no:
                better = dataclasses.replace(better, colour=worse.colour)
            results[key], prios[key] = better, min(rank, old_rank)[1]
    if any(p.kind is PageKind.NOTPAIRED for p in pages):
        for (no, rd), r in list(results.items()):  # the winner of an art=40 forfeit
            other = results.get((r.opponent_no, rd)) if r.opponent_no is not None else None
            if r.status is Status.FORFEIT_LOSS and other is not None and (
                    other.status is Status.PENDING and other.opponent_no == no):
                results[(other.start_no, rd)] = dataclasses.replace(
                    other, status=Status.FORFEIT_WIN, points=Decimal(1))
    return results


def _apply_card(pages: Sequence[Page], results: dict[tuple[int, int], RoundResult],
                warnings: list[SourceWarning]) -> None:
    """Keep the card's published K and rtg+/- on the chosen results (the figures chess-results
    printed for each game, to compare with the calculated ones)."""
    for page in pages:
        if page.kind is not PageKind.PLAYER_CARD:
            continue
        for r in page.results:
            if r.k is None and r.rating_change is None:
                continue
            cur = results.get((r.start_no, r.round))
            if cur is None or cur.opponent_no != r.opponent_no:
                warnings.append(SourceWarning(
                    "pages-disagree", f"player card {r.start_no}, round {r.round}: opponent "
                    f"{r.opponent_no} differs from the other pages; K and rtg+/- not attached",
                    (r.start_no,), r.round))
                continue
            results[(r.start_no, r.round)] = dataclasses.replace(
                cur, k=r.k, rating_change=r.rating_change)


def _check_pairs(results: dict[tuple[int, int], RoundResult], numbers: set[int],
                 warnings: list[SourceWarning], source: str = "") -> list[RoundResult]:
    """Both sides of every pairing agree; an unknown opponent is an error.
    Returns the results whose other side no page shows."""
    one_sided = []
    for (no, rd), r in results.items():
        opp = r.opponent_no
        if opp is None:
            continue
        if opp not in numbers:
            raise InputError(f"player {no}, round {rd}: opponent {opp} is not in the "
                             "tournament: broken or truncated page", source=source)
        other = results.get((opp, rd))
        if other is None:
            one_sided.append(r)
            continue
        if other.opponent_no == no and opp < no:
            continue  # already compared from the other side
        if other.opponent_no != no:
            warnings.append(SourceWarning(
                "asymmetric-pairing", f"round {rd}: player {no} has opponent {opp}, whose "
                f"opponent is {other.opponent_no or 'nobody'}", (no, opp), rd))
        elif r.colour is not _NO_COLOUR and other.colour is r.colour:
            warnings.append(SourceWarning(
                "same-colour", f"round {rd}: players {no} and {opp} both have "
                f"{COLOUR_WORDS[r.colour]}", (no, opp), rd))
        elif (r.points is not None and other.points is not None and r.status is _PLAYED
              and r.points + other.points != 1) or (
                _PENDING not in (r.status, other.status)
                and other.status is not mirrored_status(r.status)
                and not _double_forfeit(r, other)):
            warnings.append(SourceWarning(
                "results-differ", f"round {rd}: players {no} and {opp} disagree on the result"
                f" ({no}: {told(r)}; {opp}: {told(other)})",
                (no, opp), rd))
    return one_sided


def _double_forfeit(a: RoundResult, b: RoundResult) -> bool:
    """Both sides lost by forfeit (neither turned up): consistent, not a disagreement."""
    return a.status is b.status is Status.FORFEIT_LOSS and not a.points and not b.points


def _check_rr(pages: Sequence[Page], results: dict[tuple[int, int], RoundResult],
              warnings: list[SourceWarning]) -> None:
    """The round-robin matrix against the rounds of the all-rounds pairings page."""
    if not any(p.kind is PageKind.PAIRINGS_RR for p in pages):
        return
    by_pair = {(r.start_no, r.opponent_no): r for r in results.values() if r.opponent_no}
    for page in pages:
        for me, opp, cell in page.rr_scores:
            r = by_pair.get((me, opp))
            if r is None or (r.status, r.points) != (cell.status, cell.points):
                warnings.append(SourceWarning(
                    "matrix-differs", f"round-robin matrix: {me} vs {opp} is "
                    f"{cell.status.value} {cell.points}, pairings say "
                    f"{(r.status.value, r.points) if r else 'nothing'}", (me, opp),
                    r.round if r else None))


def _unknown_rounds(unknown: dict[int, list[int]], n_players: int, last: int) -> SourceWarning:
    """One sentence saying which rounds the pages do not show (unknown: no points, not rated)."""
    everyone = set.intersection(*(set(v) for v in unknown.values())) if (
        len(unknown) == n_players) else set()
    tail = "unknown: not rated and not counted in the points"
    if everyone:
        partly = sum(1 for v in unknown.values() if set(v) - everyone)
        text = (f"{_round_words(sorted(everyone))} of {last} not shown on these pages: {tail}")
        return SourceWarning("rounds-not-shown", text + (
            f"; {partly} players also miss other rounds" if partly else ""))
    n = len(unknown)
    return SourceWarning("rounds-not-shown", f"{n} player{'s' if n != 1 else ''} "
                         f"ha{'ve' if n != 1 else 's'} rounds not shown on these pages (e.g. "
                         f"player {min(unknown)}: {_round_words(unknown[min(unknown)])}): {tail}")


def _round_words(rounds: list[int]) -> str:
    """[1, 2, 3, 5] → 'rounds 1–3, 5'; [4] → 'round 4'."""
    spans: list[str] = []
    start = prev = rounds[0]
    for rd in [*rounds[1:], None]:
        if rd is not None and rd == prev + 1:
            prev = rd
            continue
        spans.append(str(start) if start == prev else f"{start}–{prev}")
        if rd is not None:
            start = prev = rd
    return ("round " if len(rounds) == 1 else "rounds ") + ", ".join(spans)


def _mark_unknown_ratings(pages: Sequence[Page], players: dict[int, Player],
                          warnings: list[SourceWarning]) -> None:
    """A player whom no page shows with a rating column has an unknown rating (a cut list, or
    a crosstable published without its rating columns), which is not the same as unrated."""
    shown = {pl.start_no for p in pages if p.shows_ratings for pl in p.players}
    hidden = [no for no in players if no not in shown]
    if not hidden:
        return
    for no in hidden:
        players[no] = dataclasses.replace(players[no], rating=None, rating_known=False)
    if not shown:  # one sentence for everyone, never one per player
        warnings.append(SourceWarning(
            "ratings-unknown", "these pages show no ratings (the rating columns are hidden): "
            "every player's rating is unknown, so no game is rated. Add the event's starting "
            "rank from chess-results, or rate the event in a month with a FIDE rating list.",
            ()))
        return
    cut = any(p.cut for p in pages)
    n = len(hidden)
    warnings.append(SourceWarning(
        "ratings-unknown", f"{n} player{'s' if n != 1 else ''} ({_numbers(hidden)}) "
        f"{'are' if n != 1 else 'is'} on no page that shows ratings"
        + (" because the starting list is cut" if cut else "")
        + ": their ratings are unknown and games against them are not rated. "
        "Import the tournament from its chess-results link, which fetches the complete list, "
        "or save the page after 'Show complete list'.", tuple(hidden)))


def _numbers(nos: list[int]) -> str:
    """Start numbers as ranges: [151, 152, 153, 160] → 'Nos. 151–153, 160'."""
    return "No" + _round_words(nos).replace("rounds ", "s. ").replace("round ", ". ")


def build_tournament(pages: Sequence[Page], *, source: str = "",
                     focus: int | None = None) -> Tournament:
    """Merge pages of one tournament into a Tournament.

    InputError for no pages, for pages of different tournaments (tnr), for an opponent
    number that is in no page (a broken or truncated page) and for a ranking crosstable
    without player links that no starting list maps; the recoverable disagreements become
    ``Tournament.warnings``.  Any other exception is a bug, raised as itself.
    """
    if not pages:
        raise InputError("no chess-results pages to build a tournament from", source=source)
    tnrs = sorted({p.tnr for p in pages if p.tnr})
    if len(tnrs) > 1:
        raise InputError(f"pages of different tournaments (tnr {', '.join(tnrs)}): expected "
                         "pages of one tournament", source=source)
    warnings = list(dict.fromkeys(w.at(p.source or p.kind) for p in pages for w in p.warnings))
    fixed = []
    for page in pages:
        if page.by_rank:
            starts = {pl.start_no: pl for p in pages if p.kind in _STARTING_LISTS
                      for pl in p.players}
            if not starts:
                raise InputError("ranking crosstable without player links: add the starting "
                                 "rank or the art=5 crosstable to map ranks to starting numbers",
                                 source=page.source or source)
            page = _map_ranks(page, starts, warnings)
        fixed.append(page)
    pages = fixed
    _check_rows(pages, warnings)
    _check_unlinked(pages, source)
    players, through = _merge_players(pages)
    if not players:
        warnings.append(SourceWarning(
            "no-players", "no players on these pages: add the starting rank, a crosstable, or "
            "for a team event the board pairings (art=3) or the all-details page (art=20)"))
    results = _choose_results(pages, warnings)
    _apply_card(pages, results, warnings)
    numbers = set(players)
    one_sided = _check_pairs(results, numbers, warnings, source)
    _check_rr(pages, results, warnings)
    for r in one_sided:  # the other side of a game only one page shows
        m = mirror(r)
        if m is not None:
            results[(m.start_no, m.round)] = m
    byes = [r.points for p in pages if p.kind in (PageKind.PAIRINGS, PageKind.PAIRINGS_RR)
            for r in p.results if r.status is Status.BYE and r.points is not None]
    bye_value = Counter(byes).most_common(1)[0][0] if byes else Decimal(1)
    last = max(map(itemgetter(1), results), default=0)
    unknown: dict[int, list[int]] = {}
    for no, p in list(players.items()):
        upto = through.get(no, last)
        total = Decimal(0)
        for rd in range(1, last + 1):
            have = results.get((no, rd))
            if have is None:  # no page shows this round for this player
                unknown.setdefault(no, []).append(rd)
                have = results[(no, rd)] = RoundResult(start_no=no, round=rd,
                                                       status=Status.UNKNOWN)
            elif have.status is _BYE and have.points in (None, 1) and (
                    have.points != bye_value):  # -1 is printed whatever the event awards
                have = results[(no, rd)] = dataclasses.replace(have, points=bye_value)
            if rd <= upto and have.points:
                total += have.points
        if upto == 0 or (no in unknown and min(unknown[no]) <= upto):
            continue  # printed points (or none) stay as printed: the rounds are incomplete
        if p.points is None:
            players[no] = dataclasses.replace(p, points=total)
        elif last and p.points != total:  # no results (a ranking alone): no check
            warnings.append(SourceWarning(
                "points-differ", f"player {no} ({p.name}): printed points {p.points:g}, the "
                f"rounds sum to {total:g}", (no,)))
    if unknown:
        warnings.append(_unknown_rounds(unknown, len(players), last))
    elif players and not last:
        warnings.append(SourceWarning(
            "no-results", "these pages show no round results: only what they print per "
            "player (points, rank, published figures) is known"))
    _mark_unknown_ratings(pages, players, warnings)
    boards = {(rd, w, b): x for p in pages for rd, w, b, x in p.boards}
    ordered = tuple(sorted(results.values(), key=attrgetter("start_no", "round")))
    info, notes = with_list_hint(_merge_info(pages, source, warnings))
    warnings.extend(notes)
    if info.rounds is not None and info.rounds < last:
        warnings.append(SourceWarning("rounds", f"the pages say {info.rounds} rounds but show "
                                      f"{last}"))
        info = dataclasses.replace(info, rounds=last)
    card = next((p.snr for p in pages if p.kind is PageKind.PLAYER_CARD), None)
    return Tournament(info=info, players=tuple(players.values()), results=ordered,
                      games=tuple(games_from_results(ordered, boards=boards)),
                      focus=focus if focus is not None else card,
                      warnings=tuple(dict.fromkeys(warnings)))
