"""HTML reports: one Jinja2 environment (package templates, autoescape, StrictUndefined).

The pages are self-contained (inline CSS, an inline sorting script, an inline SVG
chart; nothing fetched) and deterministic (no timestamps), so golden files can pin
them.  Player names are untrusted text: they only ever reach the page escaped.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from decimal import Decimal
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template

from importer.model import DateSource, Status
from reports import fmt

if TYPE_CHECKING:
    from rating.tournament import PlayerRating, RoundLine
    from reports.report import Report

__all__ = ["chart", "environment", "render_pages"]

_FORFEIT = {"forfeit_win": "+", "forfeit_loss": "−"}
_COLOUR = {"w": "white", "b": "black", "": ""}


@cache
def environment() -> Environment:
    """The one environment (templates compiled once per process)."""
    env = Environment(loader=PackageLoader("reports", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["blank"] = _blank  # numbers arrive formatted by reports.fmt
    return env


@cache
def _template(name: str) -> Template:
    return environment().get_template(name)


def _blank(value: object) -> str:
    """None → '' (other values as text)."""
    return "" if value is None else str(value)


def _sort_key(value: Decimal | int | None) -> str:
    return "" if value is None else str(value)


_NOT_PLOTTED = frozenset({Status.PENDING, Status.UNKNOWN, Status.ABSENT})


def chart(lines: tuple[RoundLine, ...], *, width: int = 640, height: int = 220
          ) -> dict[str, Any] | None:
    """The cumulative-change line as SVG coordinates (None when nothing is rated).

    Only rounds with an outcome are plotted: pending, unknown and absent rounds are left out.
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
    left, right, top, bottom = 56, 16, 16, 32

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
        "bottom": height - bottom + 18,
        "hi": {"y": y(hi), "label": fmt.signed(hi)}, "lo": {"y": y(lo), "label": fmt.signed(lo)},
    }


def _player_row(report: Report, pr: PlayerRating, linked: bool) -> SimpleNamespace:
    """One player's figures for the templates (attributes: Jinja reads them fastest), with
    the columns of the systems rated beside the main one."""
    from reports.report import page_cells

    p = report.player(pr.start_no)
    return SimpleNamespace(**{
        "start_no": pr.start_no, "name": p.name, "title": p.title, "federation": p.federation,
        "href": _page(pr.start_no) if linked else "",
        "rating": pr.rating, "k": pr.k, "k_source": pr.k_source.value,
        "points": fmt.points(pr.points), "points_sort": str(pr.points),
        "rated_games": pr.rated_games, "score": fmt.points(pr.score),
        "score_sort": str(pr.score),
        "expected": fmt.change(pr.expected) if pr.rated_games else "",
        "expected_sort": str(pr.expected),
        "change": fmt.signed(pr.change) if pr.rating is not None else "",
        "change_sort": _sort_key(pr.change if pr.rating is not None else None),
        "new_rating": pr.new_rating, "performance": pr.performance,
        "initial": pr.initial.value if pr.initial is not None and pr.initial.published else None,
        "extra": [cell for b in report.beside
                  for cell in page_cells(b.system.player_columns, b.rating.player(pr.start_no))],
    })


def _headers(report: Report, rounds: bool) -> list[SimpleNamespace]:
    """The headers of the columns the systems beside the main one add to the players table
    (or the rounds table)."""
    from reports.report import page_headers

    return [SimpleNamespace(text=text, numeric=numeric) for b in report.beside
            for text, numeric in (page_headers(b.system.round_columns) if rounds
                                  else page_headers(b.system.player_columns))]


def _beside(report: Report, start_no: int) -> list[SimpleNamespace]:
    """A player's figures under each system rated beside the main one (their page's facts)."""
    out = []
    for b in report.beside:
        pr = b.rating.player(start_no)
        if pr is not None:
            out.append(SimpleNamespace(label=b.rating.label, rating=pr.rating, k=pr.k,
                                       change=fmt.signed(pr.change), new_rating=pr.new_rating))
    return out


def _page(start_no: int) -> str:
    from reports.report import player_page_name

    return player_page_name(start_no)


def _round_rows(report: Report, pr: PlayerRating) -> list[SimpleNamespace]:
    from reports.report import page_cells

    beside = []
    for b in report.beside:
        own = b.rating.player(pr.start_no)
        beside.append((b.system.round_columns,
                       {ln.round: ln for ln in own.rounds} if own is not None else {}))
    rows = []
    for ln in pr.rounds:
        opp = report.player(ln.opponent_no) if ln.opponent_no is not None else None
        rows.append(SimpleNamespace(**{
            "round": ln.round, "colour": _COLOUR[ln.colour.value],
            "opponent_no": ln.opponent_no, "opponent": opp.name if opp is not None else "",
            "opponent_title": opp.title if opp is not None else "",
            "opponent_href": (_page(ln.opponent_no) if ln.opponent_no is not None
                              and report.focus is None and ln.opponent_no in report.by_no
                              else ""),
            "opponent_rating": ln.opponent_rating,
            "result": _FORFEIT.get(ln.status.value) or (fmt.points(ln.points)
                                                        if ln.points is not None else "…"),
            "rated": ln.rated, "reason": ln.reason,
            "expected": fmt.expected(ln.expected), "k": ln.k,
            "change": fmt.signed(ln.change), "cumulative": fmt.signed(ln.cumulative),
            "capped": ln.capped,
            "published": fmt.signed(ln.published_change),
            "extra": [cell for columns, lines in beside
                      for cell in page_cells(columns, lines.get(ln.round))],
        }))
    return rows


def _header(report: Report) -> dict[str, Any]:
    from reports.report import rated_with

    i = report.tournament.info
    dates = " – ".join(d.isoformat() for d in (i.start_date, i.end_date) if d is not None
                       and i.date_source is not DateSource.LAST_UPDATE)  # not an event date
    r = report.rating
    return {"name": i.name or "Tournament", "dates": dates, "federation": i.federation,
            "rounds": i.rounds, "players": len(report.tournament.players),
            "system": r.rules if r.rules.startswith(r.label) else f"{r.label}: {r.rules}",
            "list": r.rating_list.value,
            "on": r.on.isoformat(), "time_control": i.time_control,
            "rating_calculation": i.rating_calculation, "source": i.source,
            "rated": rated_with(report)}


def render_pages(report: Report, *, only: Container[str] | None = None,
                 site: Mapping[str, Any] | None = None) -> dict[str, str]:
    """index.html and one page per shown player, keyed by file name.

    *only* limits the pages rendered to these file names; *site* is what ``fiderate serve``
    adds around the pages (links to its other pages, downloads, a polite reload), none in files.
    """
    from reports.report import published_view

    header = _header(report)
    shown = report.shown
    has_published = any(ln.published_change is not None for pr in shown for ln in pr.rounds)
    files: dict[str, str] = {}
    if only is None or "index.html" in only:
        files["index.html"] = _template("index.html").render(
            header=header, notes=report.notes, focus=report.focus,
            players=[_player_row(report, pr, linked=True) for pr in shown],
            extra_headers=_headers(report, rounds=False), published=published_view(report),
            site=site)
    page = _template("player.html")
    round_headers = _headers(report, rounds=True)
    for pr in shown:
        if only is not None and _page(pr.start_no) not in only:
            continue
        p = report.player(pr.start_no)
        files[_page(pr.start_no)] = page.render(
            header=header, player=_player_row(report, pr, linked=False), fide_id=p.fide_id,
            rounds=_round_rows(report, pr), chart=chart(pr.rounds),
            scenarios=[{"round": s.round, "opponent": report.player(s.opponent_no).name,
                        "opponent_rating": s.opponent_rating, "k": s.k,
                        "expected": fmt.expected(s.expected), "win": fmt.signed(s.win),
                        "draw": fmt.signed(s.draw), "loss": fmt.signed(s.loss),
                        "total_if_win": fmt.signed(s.total_if_win),
                        "total_if_draw": fmt.signed(s.total_if_draw),
                        "total_if_loss": fmt.signed(s.total_if_loss)}
                       for s in pr.scenarios],
            initial=pr.initial, published_total=fmt.signed(pr.published_change),
            has_published=has_published, beside=_beside(report, pr.start_no),
            extra_headers=round_headers,
            notes=report.notes_for(pr.start_no), site=site)
    return files
