"""HTML reports: one Jinja2 environment (package templates, autoescape, StrictUndefined).

The pages are self-contained (inline CSS, an inline SVG chart, and one small script that
only helps: sorting, the find-me box, a live page's refresh, the legend opened for printing:
``templates/sort.js``, allowed by its hash in the page's Content Security Policy, so a server
can send the same policy without ``'unsafe-inline'`` for scripts) and deterministic (no
timestamps), so golden files can pin them.  They read on a phone (tables scroll in their own
box with the names pinned, or become one card per row), print on A4 and follow a dark
screen.  Player names are untrusted text: they only ever reach the page escaped.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import re
from collections.abc import Container, Mapping
from decimal import Decimal
from functools import cache
from types import SimpleNamespace
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup, escape

from importer.model import DateSource, Status
from importer.parsing.names import name_key
from rating.norms import NormCheck, NormResult
from rating.results import PlayerRating, RoundLine, Scenario
from rating.systems.fide import InitialRating
from reports.render import fmt
from reports.render.columns import (
    PLAYERS,
    ROUNDS,
    PlayerRow,
    RoundRow,
    by_name,
    condition_words,
    games_shown,
    page_text,
    rounded_change,
)
from reports.render.links import event_page, fide_profile
from reports.render.needs_view import lists_view, needs_view
from reports.render.norm_view import (
    certificate,
    checks_of,
    event_class_words,
    floor_words,
    mark,
    needs_words,
    norm_badge,
    norm_count,
    norm_summary,
    regulations,
    unchecked_by_all,
    verdict,
)
from reports.render.summary import live_round
from reports.render.view import (
    Report,
    certified,
    computed,
    find_key,
    finds,
    initial_workings,
    norm_page_name,
    page_cells,
    page_headers,
    player_page_name,
    provisional,
    published_view,
    ranks,
    rated_with,
    state,
)

__all__ = ["SORT_SCRIPT", "chart", "environment", "render_pages"]

SORT_SCRIPT = "sort.js"
"""The one script of the pages, inlined and allowed by its hash."""

_FORFEIT = {"forfeit_win": "+", "forfeit_loss": "−"}
_COLOUR = {"w": "white", "b": "black", "": ""}


@cache
def environment() -> Environment:
    """The one environment (templates compiled once per process)."""
    env = Environment(loader=PackageLoader("reports", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, auto_reload=False)  # package data: no stat
    env.filters["blank"] = _blank  # numbers arrive formatted by reports.render.fmt
    env.filters["name"] = _name_breaks  # 'Surname,Given' breaks after its comma on a phone
    env.filters["sentence"] = fmt.sentence  # Jinja's capitalize would lower 'FIDE' to 'Fide'
    script = env.get_template(SORT_SCRIPT).render()  # as the pages include it
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    env.globals["script_src"] = f"'sha256-{digest}'"
    return env


@cache
def _template(name: str) -> Template:
    return environment().get_template(name)


def _blank(value: object) -> str:
    """None → '' (other values as text)."""
    return "" if value is None else str(value)


def _sort_key(value: object) -> str:
    return "" if value is None else str(value)


_NOT_PLOTTED = frozenset({Status.PENDING, Status.UNKNOWN, Status.ABSENT})


def chart(lines: tuple[RoundLine, ...], *, width: int = 640, height: int = 240
          ) -> dict[str, Any] | None:
    """The cumulative-change line as SVG coordinates (None when nothing is rated).

    Only rounds with an outcome are plotted: pending, unknown and absent rounds are left out.
    The drawing scales to the page's width (its viewBox); the margins leave room for labels
    that a narrow screen draws larger.
    """
    if not any(ln.rated for ln in lines):
        return None
    span_x = max(lines[-1].round, 1)  # the axis keeps every round, plotted or not
    lines = tuple(ln for ln in lines if ln.status not in _NOT_PLOTTED)
    values = [Decimal(0)] + [ln.cumulative for ln in lines]
    rounds = [0] + [ln.round for ln in lines]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi, lo = hi + 1, lo - 1
    left, right, top, bottom = 84, 16, 16, 40

    def x(r: int) -> str:
        return f"{left + (width - left - right) * r / span_x:.1f}"

    def y(v: Decimal) -> str:
        return f"{top + float((hi - v) / (hi - lo)) * (height - top - bottom):.1f}"

    points = [(x(r), y(v), r, v) for r, v in zip(rounds, values, strict=True)]
    return {
        "width": width, "height": height,
        "polyline": " ".join(f"{px},{py}" for px, py, _, _ in points),
        "dots": [{"x": px, "y": py, "round": r, "label": fmt.signed(v)}
                 for px, py, r, v in points[1:]],
        "zero": y(Decimal(0)), "left": left, "right": width - right,
        "bottom": height - 8,
        "hi": {"y": y(hi), "label": fmt.signed(hi)}, "lo": {"y": y(lo), "label": fmt.signed(lo)},
    }


_K_WORDS = {"card": "published per game by the source", "source": "published by the source",
            "list": "from the rating list", "category": "from the player's category",
            "default": "assumed: none published, listed or given by the category"}


def _k_words(pr: PlayerRating, cap: int | None) -> str:
    """Where a player's K comes from, in words (and the reduction K × games ≤ the rules'
    *cap*)."""
    words = _K_WORDS.get(pr.k_source.value, pr.k_source.value)
    if pr.k_before_cap is not None:
        words += (f"; {pr.k_before_cap} reduced so that K × rated games stays within {cap}"
                  if cap is not None else f"; {pr.k_before_cap} reduced by the system's cap")
    return words


_BARE_COMMA = re.compile(r",(?! )")


def _name_breaks(name: str) -> Markup:
    """A name, escaped, that may break after a comma with no space after it ('Mcshane,Luke J'
    on a narrow screen breaks at the comma, never inside a word)."""
    return Markup(_BARE_COMMA.sub(",<wbr>", str(escape(name))))  # escaped first


def _signed_class(text: str) -> str:
    return "pos" if text.startswith("+") else ("neg" if text.startswith("-") else "")


def _stake(report: Report, pr: PlayerRating, live: int | None) -> list[SimpleNamespace]:
    """The index's Win, Draw and Loss cells for the round in progress: what its game would
    bring (empty when no round is in progress)."""
    if live is None:
        return []
    s = next((s for s in pr.scenarios if s.round == live), None)
    blank = SimpleNamespace(text="", sort="", title="", cls="", then="")
    if pr.rating is None:
        return [SimpleNamespace(text="", sort="", title="a player without a rating: no change",
                                cls="", then=""), blank, blank]
    if s is None:
        line = next((ln for ln in pr.rounds if ln.round == live), None)
        if line is not None and line.status is Status.PLAYED and line.points is not None:
            return [_finished(line, pr), blank, blank]
        words = ("no game" if line is None else "not paired" if line.status is Status.ABSENT
                 else line.reason)
        return [SimpleNamespace(text=words, sort="", title="", cls="muted", then=""), blank,
                blank]
    if not s.rated:
        return [SimpleNamespace(text="not rated", sort="", title=s.reason, cls="muted",
                                then=""), blank, blank]
    out = []
    for word, change, new in (("win", s.win, s.new_if_win), ("draw", s.draw, s.new_if_draw),
                              ("loss", s.loss, s.new_if_loss)):
        text = fmt.signed(change)
        out.append(SimpleNamespace(text=text, sort=str(change), cls=_signed_class(text),
                                   title=f"a {word}: {_new_words(new)}",
                                   then=str(new) if new is not None else "no rating"))
    return out


_PLAYED = {Decimal(1): "won", Decimal("0.5"): "drew", Decimal(0): "lost"}


def _finished(line: RoundLine, pr: PlayerRating) -> SimpleNamespace:
    """The round in progress for a player whose game is over: how it went and what it did
    ('won +2.90 → 2598')."""
    how = _PLAYED.get(line.points or Decimal(0), "played")
    if not line.rated or line.change is None:
        return SimpleNamespace(text=f"{how}, not rated", sort="", title=line.reason, cls="muted",
                               then="")
    text = f"{how} {fmt.signed(line.change)}"
    return SimpleNamespace(text=text, sort=str(line.change), title="the game is over",
                           cls=_signed_class(fmt.signed(line.change)),
                           then=str(pr.new_rating) if pr.new_rating is not None else "")


def _new_words(new: int | None) -> str:
    """'new rating 1552', or that the result leaves no rating (a system's floor)."""
    return f"new rating {new}" if new is not None else "no rating after it"


def _progress(initial: InitialRating) -> str:
    """'3 of 5': a first rating's games so far, of those it needs (else why it is not given)."""
    if initial.min_games and initial.games < initial.min_games:
        return f"{initial.games} of {initial.min_games}"
    return initial.reason


_PLAYERS = by_name(PLAYERS)
_ROUNDS = by_name(ROUNDS)
"""The report's columns (:mod:`reports.render.columns`) by name: their headers, and their values as
the pages show them."""


def _text(columns: dict[str, Any], name: str, row: object) -> str:
    """One column's value for a row, as the pages show it."""
    c = columns[name]
    return page_text(c.form, c.page_value(row))


def _player_row(report: Report, pr: PlayerRating, linked: bool,
                live: int | None = None, rank: str = "",
                norms: tuple[NormCheck, ...] = ()) -> SimpleNamespace:
    """One player's figures for the templates (attributes: Jinja reads them fastest), with
    the columns of the systems rated beside the main one.  A change we did not compute (the
    source shows none of the player's games) is blank, with the source's figure beside it."""
    p = report.player(pr.start_no)
    row = PlayerRow(pr, p)
    initial = pr.initial
    ours = computed(pr)
    return SimpleNamespace(**{
        "start_no": pr.start_no, "name": p.name, "title": p.title, "federation": p.federation,
        "rank": rank, "find": find_key(p), "computed": ours,
        "published_change": fmt.signed(p.rating_change) if p.rating_change is not None else "",
        "published_change_sort": _sort_key(p.rating_change),
        "published_performance": p.published_performance,
        "href": _page(pr.start_no) if linked else "",
        "rating": pr.rating, "rating_known": p.rating_known, "k": pr.k,
        "k_source": pr.k_source.value,
        "k_words": _k_words(pr, report.rating.k_cap) if pr.k is not None else "",
        "points": _text(_PLAYERS, "points", row), "points_sort": str(pr.points),
        "rated_games": pr.rated_games if ours else "",
        "score": _text(_PLAYERS, "score", row) if ours else "",
        "score_sort": str(pr.score),
        "expected": _text(_PLAYERS, "expected", row) if pr.rated_games else "",
        "expected_sort": str(pr.expected),
        "change": _text(_PLAYERS, "change", row) if ours else "",
        "change_sort": _sort_key(_PLAYERS["change"].value(row)) if ours else "",
        "change_cls": _signed_class(fmt.signed(pr.change)),
        "rounded": _text(_PLAYERS, "rounded_change", row),
        "new_rating": pr.new_rating if ours else None, "performance": pr.performance,
        "initial": initial.value if initial is not None and initial.published else None,
        "progress": _progress(initial) if initial is not None and not initial.published else "",
        "stake": _stake(report, pr, live),
        "norms": [SimpleNamespace(text=norm_badge(c), cls=_norm_class(c)) for c in norms
                  if norm_badge(c)],
        "extra": [cell for b in report.beside
                  for cell in page_cells(b.system.player_columns, b.rating.player(pr.start_no))],
    })


def _norm_class(check: NormCheck) -> str:
    return check.result.value.replace(" ", "-")


def _norm(report: Report, check: NormCheck, said: Container[str] = ()) -> SimpleNamespace:
    """One norm check on the player's page: the verdict, the figures and each condition
    with its mark in words (a symbol is never alone), but those not checked that *said*
    holds (the page says them once for all the player's norms)."""
    return SimpleNamespace(
        title=check.norm.value, verdict=verdict(check),
        cls=_norm_class(check),
        rounds=check.rounds, games=check.games if games_shown(check) else "unknown",
        application_games=check.application_games,
        achieved=check.result is NormResult.ACHIEVED,
        score=fmt.points(check.score) if games_shown(check) else "unknown",
        ra=check.ra, raised=floor_words(report, check), rp=check.performance,
        needs=fmt.sentence(needs_words(report, check)), exemption=check.exemption,
        conditions=[SimpleNamespace(mark=mark(c), article=c.article, words=condition_words(c))
                    for c in check.conditions if c.checked or condition_words(c) not in said],
        ahead=[fmt.sentence(r) for r in check.reasons if r not in {c.words for c in check.conditions}],
        href=norm_page_name(check) if check.result is NormResult.ACHIEVED else "")


def _norms_header(report: Report) -> dict[str, Any]:
    """What the pages say of the norm check as a whole."""
    return {"regulations": regulations(report), "event_class": event_class_words(report)}


def _headers(report: Report, rounds: bool) -> list[SimpleNamespace]:
    """The headers of the columns the systems beside the main one add to the players table
    (or the rounds table)."""
    return [SimpleNamespace(text=text, numeric=numeric) for b in report.beside
            for text, numeric in (page_headers(b.system.round_columns) if rounds
                                  else page_headers(b.system.player_columns))]


def _beside(report: Report, start_no: int) -> list[SimpleNamespace]:
    """A player's figures under each system rated beside the main one (their page's facts)."""
    out = []
    for b in report.beside:
        pr = b.rating.player(start_no)
        if pr is not None:
            rounded = rounded_change(pr)
            out.append(SimpleNamespace(label=b.rating.label, rating=pr.rating, k=pr.k,
                                       change=fmt.signed(pr.change), new_rating=pr.new_rating,
                                       rounded="" if rounded is None else fmt.signed(rounded)))
    return out


def _page(start_no: int) -> str:
    return player_page_name(start_no)


def _round_rows(report: Report, pr: PlayerRating) -> list[SimpleNamespace]:
    beside = []
    for b in report.beside:
        own = b.rating.player(pr.start_no)
        beside.append((b.system.round_columns,
                       {ln.round: ln for ln in own.rounds} if own is not None else {}))
    rows = []
    for ln in pr.rounds:
        opp = report.player(ln.opponent_no) if ln.opponent_no is not None else None
        row = RoundRow(pr.start_no, ln, opp)
        rows.append(SimpleNamespace(**{
            "round": ln.round, "colour": _COLOUR[ln.colour.value],
            "opponent_no": ln.opponent_no, "opponent": opp.name if opp is not None else "",
            "opponent_title": opp.title if opp is not None else "",
            "opponent_href": (_page(ln.opponent_no) if ln.opponent_no is not None
                              and report.focus is None and ln.opponent_no in report.by_no
                              else ""),
            "opponent_rating": ln.opponent_rating,
            "result": _FORFEIT.get(ln.status.value) or (_text(_ROUNDS, "points", row)
                                                        if ln.points is not None else "…"),
            "rated": ln.rated, "reason": ln.reason,
            "expected": _text(_ROUNDS, "expected", row), "k": ln.k,
            "change": _text(_ROUNDS, "change", row),
            "cumulative": _text(_ROUNDS, "cumulative_change", row),
            "change_cls": _signed_class(fmt.signed(ln.change)), "capped": ln.capped,
            "published": _text(_ROUNDS, "published_change", row),
            "extra": [cell for columns, lines in beside
                      for cell in page_cells(columns, lines.get(ln.round))],
        }))
    return rows


def _scenario(report: Report, pr: PlayerRating, s: Scenario) -> SimpleNamespace:
    """A next-round box: this game's change, the tournament's and the new rating for each
    result (or why the game will not be rated)."""
    opp = report.player(s.opponent_no)
    results = []
    if s.rated and pr.rating is not None:
        for word, change, total, new in (("Win", s.win, s.total_if_win, s.new_if_win),
                                         ("Draw", s.draw, s.total_if_draw, s.new_if_draw),
                                         ("Loss", s.loss, s.total_if_loss, s.new_if_loss)):
            game, whole = fmt.signed(change), fmt.signed(total)
            results.append(SimpleNamespace(word=word, game=game, game_cls=_signed_class(game),
                                           total=whole, total_cls=_signed_class(whole),
                                           new_rating=new))
    return SimpleNamespace(
        round=s.round, opponent=opp.name, opponent_title=opp.title,
        opponent_href=(_page(s.opponent_no) if report.focus is None
                       and s.opponent_no in report.by_no else ""),
        opponent_rating=s.opponent_rating, k=s.k, expected=fmt.expected(s.expected),
        assumed=pr.k_source.value == "default", rated=s.rated, reason=s.reason,
        results=results, change=fmt.signed(pr.change), new_rating=pr.new_rating)


def _header(report: Report) -> dict[str, Any]:
    i = report.tournament.info
    dates = " – ".join(d.isoformat() for d in (i.start_date, i.end_date) if d is not None
                       and i.date_source is not DateSource.LAST_UPDATE)  # not an event date
    r = report.rating
    return {"name": i.name or "Tournament", "dates": dates, "federation": i.federation,
            "rounds": i.rounds, "players": len(report.tournament.players),
            "players_line": _players_line(report),
            "system": r.rules if r.rules.startswith(r.label) else f"{r.label}: {r.rules}",
            "list": r.rating_list.value,
            "on": r.on.isoformat(), "time_control": i.time_control,
            "rating_calculation": i.rating_calculation, "source": i.source,
            "rated": rated_with(report), "provisional": provisional(report),
            "state": state(report), "event_href": event_page(report.tournament)}


def _players_line(report: Report) -> str:
    """'108 players'; '1 of 9 players shown' when the index lists only some (a player's card,
    a report for one player)."""
    total, shown = len(report.tournament.players), len(report.shown)
    words = f"{total} player{'s' if total != 1 else ''}"
    return words if shown >= total else f"{shown} of {words} shown"


def _has_page(report: Report, pr: PlayerRating) -> bool:
    """A player gets a page of their own when they have a game, when the source publishes
    figures for them (a rating change, performance, games, score), or, before round 1, when
    "What do I need?" has something to tell them: else the index says all."""
    p = report.player(pr.start_no)
    return any(ln.opponent_no is not None for ln in pr.rounds) or any(
        v is not None for v in (pr.published_change, p.rating_change, p.published_performance,
                                p.published_games, p.published_score, p.published_expected)
    ) or (not report.tournament.games and needs_view(report, pr.start_no) is not None)


def _neighbours(shown: list[PlayerRating], index: int) -> tuple[int | None, int | None]:
    """The players before and after one in the report's order, for the page's navigation."""
    before = shown[index - 1].start_no if index > 0 else None
    after = shown[index + 1].start_no if index + 1 < len(shown) else None
    return before, after


def _close(report: Report, query: str, paged: Container[int]) -> list[SimpleNamespace]:
    """The players whose names come closest to what was typed, linked to their pages (those
    who have one)."""
    keys = {name_key(report.player(pr.start_no).name): pr.start_no for pr in report.shown}
    return [SimpleNamespace(name=report.player(keys[k]).name,
                            href=_page(keys[k]) if keys[k] in paged else "")
            for k in difflib.get_close_matches(name_key(query), list(keys), n=5, cutoff=0.5)]


def render_pages(report: Report, *, only: Container[str] | None = None,
                 site: Mapping[str, Any] | None = None, find: str = "") -> dict[str, str]:
    """index.html and a page per shown player with a game or published figures, keyed by
    file name.

    *only* limits the pages rendered to these file names; *site* is what ``fiderate serve``
    adds around the pages (links to its other pages, downloads, the refresh button), none in
    files; *find* is what the server's player search was asked: the index lists the players
    it finds (or the closest names, as links).
    """
    header = _header(report)
    live = live_round(report.tournament)
    paged = {pr.start_no for pr in report.shown if _has_page(report, pr)}
    place, published_rank = ranks(report)
    norms: dict[int, tuple[NormCheck, ...]] = {}
    for c in report.norms:
        norms[c.start_no] = (*norms.get(c.start_no, ()), c)
    players = [_player_row(report, pr, linked=pr.start_no in paged, live=live,
                           rank=place[pr.start_no], norms=norms.get(pr.start_no, ()))
               for pr in report.shown]
    shown = [pr for pr in report.shown if pr.start_no in paged]
    rows = {row.start_no: row for row in players}
    has_published = any(ln.published_change is not None for pr in shown for ln in pr.rounds)
    files: dict[str, str] = {}
    if only is None or "index.html" in only:
        listed = [p for p in players if finds(p.find, find)] if find.strip() else players
        files["index.html"] = _template("index.html").render(
            header=header, notes=report.notes, focus=report.focus, live=live,
            players=listed, find=SimpleNamespace(
                query=find.strip(), close=_close(report, find, paged) if find.strip() and not listed
                else []),
            published_rank=published_rank,
            shows_published=any(p.published_change and p.computed for p in players),
            unknown=any(not p.computed for p in players),
            extra_headers=_headers(report, rounds=False),
            published=published_view(report), norm_lines=norm_summary(report),
            norms_link=norm_count(report), norms_header=_norms_header(report),
            norm_pages={p.start_no: p.href for p in players if p.href},
            beside_legend=[SimpleNamespace(label=b.rating.label,
                                           headers=[t for t, _ in page_headers(b.system.player_columns)])
                           for b in report.beside if page_headers(b.system.player_columns)],
            marks={"assumed": any(p.k is not None and p.k_source == "default" for p in players),
                   "stakes_then": any(c.then for p in players for c in p.stake),
                   "first": any(p.initial is not None for p in players),
                   "progress": any(p.progress for p in players),
                   "norms": any(p.norms for p in players)},
            site=site)
    page = _template("player.html")
    round_headers = _headers(report, rounds=True)
    for index, pr in enumerate(shown):
        if only is not None and _page(pr.start_no) not in only:
            continue
        p = report.player(pr.start_no)
        rounds = _round_rows(report, pr)
        checks = checks_of(report, pr.start_no)
        unchecked = unchecked_by_all(checks)
        before, after = _neighbours(shown, index)
        files[_page(pr.start_no)] = page.render(
            header=header, player=rows[pr.start_no], fide_id=p.fide_id,
            fide_href=fide_profile(p.fide_id),
            rounds=rounds, chart=chart(pr.rounds),
            scenarios=[_scenario(report, pr, s) for s in pr.scenarios],
            initial=pr.initial,
            workings=initial_workings(pr.initial) if pr.initial is not None else [],
            published_total=fmt.signed(pr.published_change),
            has_published=has_published, beside=_beside(report, pr.start_no),
            published_rank=published_rank,
            extra_headers=round_headers,
            before=None if before is None else SimpleNamespace(
                href=_page(before), name=report.player(before).name, no=before),
            after=None if after is None else SimpleNamespace(
                href=_page(after), name=report.player(after).name, no=after),
            marks={"capped": any(r.capped for r in rounds),
                   "forfeit": any(r.result in ("+", "−") for r in rounds),
                   "pending": any(r.result == "…" for r in rounds),
                   "unrated": any(not r.rated for r in rounds)},
            norms=[_norm(report, c, unchecked) for c in checks],
            unchecked=unchecked,
            norms_header=_norms_header(report), needs=needs_view(report, pr.start_no),
            lists=lists_view(report, pr.start_no),
            notes=report.notes_for(pr.start_no), site=site)
    files.update(_certificates(report, header, only, site))
    return files


def _certificates(report: Report, header: dict[str, Any], only: Container[str] | None,
                  site: Mapping[str, Any] | None) -> dict[str, str]:
    """A certificate page per achieved norm, for the arbiter to check and sign."""
    i = report.tournament.info
    event = {"place": i.city, "federation": i.federation,
             "system": {"swiss": "Swiss", "round_robin": "round robin",
                        "team": "team event"}[i.system.value],
             "rounds": i.rounds or report.tournament.rounds_seen or None,
             "chief_arbiter": i.chief_arbiter, "deputies": ", ".join(i.deputy_arbiters),
             "time_control": i.time_control, **_norms_header(report)}
    out = {}
    for check in certified(report):
        name = norm_page_name(check)
        if only is not None and name not in only:
            continue
        out[name] = _template("norm.html").render(
            header=header, event=event, c=certificate(report, check),
            norm=_norm(report, check), player=report.player(check.start_no),
            player_href=_page(check.start_no), site=site)
    return out
