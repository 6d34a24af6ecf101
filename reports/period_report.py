"""The files of ``fiderate period``: period_players.csv, period_games.csv, each tournament's
report in a folder of its own, and period.html, which a rating officer reads as FIDE's
individual calculations: per player the per-tournament lines (Ro, Rc, W, N, chg, K, K × chg)
and their games, and the workings of a first rating.

Numbers come from :class:`rating.period_records.PeriodResult` (hundredths) and are printed
through :mod:`reports.fmt`; every file goes through :mod:`importer.csvio` /
:mod:`importer.atomic`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from importer.atomic import write_text_atomic
from importer.csvio import render_csv, write_csv
from rating.fide import pooled_initial_rating
from rating.numbers import round_half_up, to_decimal
from rating.period_records import PeriodGame, PeriodPlayer, PeriodResult, PeriodStatus, PoolGame
from rating.rules import InitialRule, rules_for
from reports import fmt

if TYPE_CHECKING:
    from reports.report import RatingsList

__all__ = ["GAME_COLUMNS", "PLAYER_COLUMNS", "render_period_files", "write_period_files"]

PLAYER_COLUMNS = ("fide_id", "name", "list", "old_rating", "k", "games", "change",
                  "rounded_change", "new_rating", "status")
GAME_COLUMNS = ("tournament", "round", "fide_id", "name", "list", "opponent", "opponent_name",
                "own_rating", "opponent_rating", "capped", "score", "expected", "change", "k")
_NUMERIC = ("old_rating", "k", "games", "change", "rounded_change", "new_rating", "round",
            "own_rating", "opponent_rating", "score", "expected")
_RATINGS_FROM = {"source": "the tournament's own", "list": "the list in force at its start"}


def player_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_players.csv rows: the change exact to the hundredth, then rounded once."""
    return [{
        "fide_id": p.fide_id, "name": p.name, "list": str(p.list), "old_rating": p.old_rating,
        "k": p.k, "games": p.games,
        "change": fmt.hundredths(p.change_h) if p.old_rating is not None else None,
        "rounded_change": p.rounded_change if p.old_rating is not None else None,
        "new_rating": p.new_rating, "status": p.status.value,
    } for p in result.players]


def game_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_games.csv rows: one per rated game, from the rated player's side."""
    return [{
        "tournament": g.tournament, "round": g.round, "fide_id": g.fide_id, "name": g.name,
        "list": str(g.list), "opponent": g.opponent, "opponent_name": g.opponent_name,
        "own_rating": g.own_rating, "opponent_rating": g.opponent_rating, "capped": g.capped,
        "score": fmt.hundredths(g.score_h), "expected": fmt.hundredths(g.expected_h),
        "change": fmt.hundredths(g.change_h), "k": g.k,
    } for g in result.games]


# ------------------------------------------------------------------------------ period.html

def _signed_h(h: int) -> str:
    return fmt.signed(to_decimal(h))


def _w(score_h: int) -> str:
    return fmt.points(to_decimal(score_h))


def _tone(h: int) -> str:
    """The CSS class of a change: 'pos', 'neg' or ''."""
    return "pos" if h > 0 else "neg" if h < 0 else ""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a player's calculation: a tournament's totals, one of its games, or the
    period's total; cells are text ('' for none)."""

    label: str
    href: str = ""
    kind: str = "event"
    """'event', 'game' or 'total'."""
    ro: str = ""
    rc: str = ""
    w: str = ""
    n: str = ""
    chg: str = ""
    k: str = ""
    kchg: str = ""
    tone: str = ""


@dataclass(frozen=True, slots=True)
class PoolLine:
    """One tournament's (or the earlier periods') games pooled for a first rating."""

    label: str
    href: str
    n: int
    w: str
    opponents_sum: int
    disregarded: bool


@dataclass(frozen=True, slots=True)
class Section:
    """One player on one list: how the new rating comes about."""

    anchor: str
    player: PeriodPlayer
    status: str
    outcome: str
    lines: tuple[Line, ...]
    pool: tuple[PoolLine, ...]
    workings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Played:
    """A tournament a player took part in: its key, name and the player's page in its report."""

    key: str
    name: str
    href: str


def _played(result: PeriodResult) -> dict[tuple[str, str], list[Played]]:
    """Per (player key, list): the tournaments they took part in, in the period's order."""
    from reports.report import player_page_name

    out: dict[tuple[str, str], list[Played]] = {}
    for spec in result.tournaments:
        name = spec.tournament.info.name or spec.key
        for p in spec.tournament.players:
            out.setdefault((spec.keys[p.start_no], str(spec.rating_list)), []).append(
                Played(spec.key, name, f"{spec.key}/{player_page_name(p.start_no)}"))
    return out


def _event_line(t: Played, games: Sequence[PeriodGame]) -> Line:
    """FIDE's tournament line: Ro, Rc (the rated opponents' average as used), W, N, chg, K,
    K × chg."""
    if not games:
        return Line(t.name, t.href, n="0")
    kchg = sum(g.change_h for g in games)
    return Line(t.name, t.href,
                ro="/".join(str(r) for r in dict.fromkeys(g.own_rating for g in games)),
                rc=str(round_half_up(Fraction(sum(g.opponent_rating for g in games), len(games)))),
                w=_w(sum(g.score_h for g in games)), n=str(len(games)),
                chg=_signed_h(sum(g.score_h - g.expected_h for g in games)),
                k="/".join(str(k) for k in dict.fromkeys(g.k for g in games)),
                kchg=_signed_h(kchg), tone=_tone(kchg))


def _game_line(g: PeriodGame) -> Line:
    """One game under its tournament: the opponent's rating as used (* capped), W, chg."""
    return Line(f"Round {g.round}: {g.opponent_name}", kind="game",
                rc=f"{g.opponent_rating}{'*' if g.capped else ''}", w=_w(g.score_h),
                chg=_signed_h(g.score_h - g.expected_h), k=str(g.k), kchg=_signed_h(g.change_h),
                tone=_tone(g.change_h))


def _pool(p: PeriodPlayer, games: Sequence[PoolGame], played: Sequence[Played]
          ) -> tuple[PoolLine, ...]:
    """The games pooled for a first rating, per tournament of the period, then the earlier
    periods' totals (what the register kept)."""
    lines = []
    for t in played:
        mine = [g for g in games if g.tournament == t.key]
        if mine:
            counted = [g for g in mine if not g.disregarded]
            lines.append(PoolLine(t.name, t.href, len(mine), _w(sum(g.score_h for g in mine)),
                                  sum(g.opponent_rating for g in mine), not counted))
    now = [g for g in games if not g.disregarded]
    earlier = p.pool_games - len(now)
    if earlier:
        lines.append(PoolLine(
            "Earlier periods", "", earlier,
            _w(p.pool_score_h - sum(g.score_h for g in now)),
            p.pool_opponents_sum - sum(g.opponent_rating for g in now), False))
    return tuple(lines)


def _workings(p: PeriodPlayer, result: PeriodResult) -> tuple[str, ...]:
    """Ra, p, dp and the first rating from the pooled games, as the rules of the new list say."""
    rules = rules_for(result.period)
    n, total, w = p.pool_games, p.pool_opponents_sum, p.pool_score_h
    first = pooled_initial_rating(n, total, w, rules)
    if first.value is None:
        return ()
    games = f"{n} game{'s' if n != 1 else ''} against rated opponents"
    if rules.initial_rule is InitialRule.R24:
        h = rules.hypothetical_opponent
        lines = [f"{games} and two hypothetical draws against {h}",
                 f"Ra = ({total} + 2 × {h}) / ({n} + 2) = {fmt.average(first.average)}",
                 f"p = ({_w(w)} + 1) / ({n} + 2) = {fmt.hundredths(first.p_h)}, "
                 f"so dp = {fmt.signed(first.dp)}"]
    else:
        lines = [games, f"Ra = {total} / {n} = {fmt.average(first.average)}",
                 f"p = {_w(w)} / {n} = {fmt.hundredths(first.p_h)}, so dp = {fmt.signed(first.dp)}"]
    raw = round_half_up(first.average + first.dp)
    lines.append(f"Ra + dp = {fmt.average(first.average + first.dp)}, rounded {raw}"
                 + (f", at most {first.value}" if raw != first.value else ""))
    lines.append(f"first rating {first.value}" if first.published
                 else f"no first rating yet: {first.reason}")
    return tuple(lines)


def _outcome(p: PeriodPlayer, result: PeriodResult, pool: Sequence[PoolLine]) -> str:
    """The player's result in one sentence: old → change → rounded → new, or why not."""
    if p.old_rating is None:
        if p.status is PeriodStatus.NEWLY_RATED:
            return f"Unrated; first rating {p.new_rating} from {p.pool_games} games against " \
                   "rated opponents (workings below)"
        if any(line.disregarded for line in pool) and not p.pool_games:
            return ("Unrated; a zero score in a player's first event is not counted, so no game "
                    "is pooled for a first rating")
        return f"Unrated; {p.pool_games} of {rules_for(result.period).initial_min_games} games " \
               "against rated opponents pooled for a first rating"
    old = f"Rating {p.old_rating}"
    if p.status is PeriodStatus.INACTIVE:
        return f"{old}; no rated game for a year: inactive on the new list"
    if not p.games:
        return f"{old}; no rated game in the period, so the rating stays {p.new_rating}"
    steps = (f"{old}, K {p.k}, {p.games} rated game{'s' if p.games != 1 else ''}: change "
             f"{_signed_h(p.change_h)} → {fmt.signed(p.rounded_change)}")
    after = p.old_rating + p.rounded_change
    if p.status is PeriodStatus.DROPPED_BELOW_FLOOR:
        return (f"{steps} → {after}, below the floor of {rules_for(result.period).floor}: "
                "unrated on the new list")
    adjusted = f" → {after}, adjusted to" if p.new_rating != after else " →"
    return f"{steps}{adjusted} new rating {p.new_rating}"


def sections(result: PeriodResult) -> list[Section]:
    """Every player's calculation, in the order of the players table."""
    played = _played(result)
    out = []
    for i, p in enumerate(result.players, 1):
        where = played.get((p.key, str(p.list)), [])
        mine = [g for g in result.games_of(p.key) if g.list is p.list]
        lines: list[Line] = []
        pool: tuple[PoolLine, ...] = ()
        if p.old_rating is not None:
            for t in where:
                games = [g for g in mine if g.tournament == t.key]
                lines += [_event_line(t, games), *map(_game_line, games)]
            if p.games:
                lines.append(Line("Period", kind="total", w=_w(sum(g.score_h for g in mine)),
                                  n=str(p.games), k=p.k, kchg=_signed_h(p.change_h),
                                  tone=_tone(p.change_h)))
        else:
            pool = _pool(p, [g for g in result.pool if g.key == p.key and g.list is p.list], where)
        out.append(Section(anchor=f"p{i}", player=p, status=p.status.words,
                           outcome=_outcome(p, result, pool), lines=tuple(lines), pool=pool,
                           workings=_workings(p, result) if p.old_rating is None else ()))
    return out


def _player_row(p: PeriodPlayer, anchor: str) -> dict[str, Any]:
    """A row of the players table: text and sort keys."""
    rated = p.old_rating is not None
    return {
        "anchor": anchor, "name": p.name, "fide_id": p.fide_id, "list": str(p.list),
        "old": p.old_rating if rated else "unrated", "old_sort": p.old_rating or "",
        "k": p.k, "k_sort": max(p.ks, default=""),
        "games": str(p.games) if rated else f"{p.pool_games} pooled",
        "games_sort": p.games if rated else p.pool_games, "pooled": not rated,
        "change": _signed_h(p.change_h) if rated else "", "change_sort": p.change_h if rated else "",
        "rounded": fmt.signed(p.rounded_change) if rated else "",
        "tone": _tone(p.change_h) if rated else "",
        "new": p.new_rating, "status": p.status.words,
    }


def _html(result: PeriodResult, site: Mapping[str, Any] | None = None) -> str:
    """period.html through the reports' Jinja2 environment (autoescaped: names are untrusted);
    *site* is what ``fiderate serve`` adds around the page."""
    from reports.html import environment
    from reports.report import Note

    counts = Counter(p.status for p in result.players)
    calc = sections(result)
    tournaments = [{
        "key": t.key, "name": t.tournament.info.name or t.key,
        "href": f"{t.key}/index.html", "list": str(t.rating_list),
        "dates": " – ".join(d.isoformat() for d in dict.fromkeys(
            (t.start, t.tournament.info.end_date or t.start))),
        "rules": t.rules.name, "ratings": _RATINGS_FROM.get(t.ratings_from, t.ratings_from),
        "players": len(t.tournament.players),
    } for t in result.tournaments]
    n_t, n_g = len(result.tournaments), len(result.games)
    return environment().get_template("period.html").render(
        period=f"{result.period:%Y-%m}", list_date=result.period.isoformat(),
        players=[_player_row(s.player, s.anchor) for s in calc], sections=calc,
        tournaments=tournaments, notes=[Note(n) for n in result.notes],
        capped=any(g.capped for g in result.games),
        pooled=any(p.old_rating is None for p in result.players),
        summary=[f"{n_t} tournament{'s' if n_t != 1 else ''}",
                 f"{n_g} rated game result{'s' if n_g != 1 else ''}",
                 ", ".join(f"{counts[s]} {s.words}" for s in PeriodStatus if counts[s])],
        site=site)


def write_period_files(result: PeriodResult, folder: str | Path, *, html_summary: bool = True,
                       ratings_list: RatingsList | None = None) -> list[Path]:
    """Write period_players.csv, period_games.csv, each tournament's report into
    ``<folder>/<tournament key>/`` and (optionally) period.html, which links them."""
    from reports.report import write_report

    folder = Path(folder)
    paths = [folder / "period_players.csv", folder / "period_games.csv"]
    write_csv(paths[0], PLAYER_COLUMNS, player_rows(result), numeric=_NUMERIC)
    write_csv(paths[1], GAME_COLUMNS, game_rows(result), numeric=_NUMERIC)
    for spec in result.tournaments:
        paths += write_report(spec.tournament, folder / spec.key, ratings_list=ratings_list,
                              on=spec.start)
    if html_summary:
        paths.append(folder / "period.html")
        write_text_atomic(paths[-1], _html(result))
    return paths


def render_period_files(result: PeriodResult, *, ratings_list: RatingsList | None = None,
                        site: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The texts of :func:`write_period_files`' files by relative path (nothing written)."""
    from reports.report import build_report, render_report

    files = {"period_players.csv": render_csv(PLAYER_COLUMNS, player_rows(result),
                                              numeric=_NUMERIC),
             "period_games.csv": render_csv(GAME_COLUMNS, game_rows(result), numeric=_NUMERIC)}
    for spec in result.tournaments:
        report = build_report(spec.tournament, ratings_list=ratings_list, on=spec.start)
        files.update({f"{spec.key}/{name}": text for name, text in render_report(report).items()})
    files["period.html"] = _html(result, site)
    return files
