"""The HTML pages: the report form, the reports, the calculator and the rating period.

Every page is rendered with the report's own templates and Jinja2 environment (autoescaped:
names, links and file names are untrusted text).  A page works without JavaScript; the
little there is (sorting, dropping files) only helps.  An error is one line on the form it
came from, with the status that says why (4xx: the input; 502: chess-results; 500: a bug).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, RedirectResponse, Response

from rating.norms import EventClass
from rating.period.months import parse_month
from rating.systems import registry
from reports.render import fmt
from reports.render.html import environment
from reports.render.view import Note
from reports.report import PlayerNotFound, resolve_player
from reports.settings import ReportSettings
from reports.web.calc import CALC_FORM, form_context, page_view
from reports.web.compressed import answer
from reports.web.jobs import PeriodRequest
from reports.web.kept import kept_for, site_context
from reports.web.keys import issued
from reports.web.problems import Problem, problem, retry_headers
from reports.web.security import CACHE_LINK_REPORT, CACHE_STATIC, bearer_token, script_sources
from reports.web.uploads import MAX_FILE_BYTES, MAX_FILES, read_form

if TYPE_CHECKING:
    from starlette.requests import Request

    from reports.web.jobs import PeriodFiles
    from reports.web.kept import Kept
    from reports.web.service import Periods, Reports
    from reports.web.uploads import Form

__all__ = ["RatedPeriod", "calc_page", "calc_refused", "client_of", "form_page", "gone", "home",
           "period_form", "period_post", "period_view", "rate_period", "render", "report_file", "report_post",
           "report_redirect"]

_LIMITS = {"files": MAX_FILES, "file_mb": MAX_FILE_BYTES // (1024 * 1024), "kept_for": kept_for()}
_REPORT_FIELDS = ("source", "system", "player", "k", "date", "event_class", "qc_approved",
                  "target",
                  *(f"also_{name}" for name in registry.names()))


def render(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page of the report's templates."""
    context.setdefault("site", site_context())
    context.setdefault("script_src", script_sources())  # the form's own script too
    html = environment().get_template(template).render(**context)
    return HTMLResponse(html, status_code=status)


def _systems() -> list[dict[str, Any]]:
    national = registry.national(date.today())  # noqa: DTZ011 - the rules in force today
    return [{"name": r.name, "label": fmt.sentence(r.help), "also": f"also_{r.name}",
             "national": r.name in national} for r in registry.registrations()]


def form_page(fields: dict[str, str] | None = None, error: str = "", status: int = 200
              ) -> HTMLResponse:
    """The report form, filled with what was sent, and the error if any."""
    form = {"source": "", "system": "fide", "player": "", "k": "20", "date": "",
            "event_class": "", "qc_approved": "", "target": "",
            **{k: v for k, v in (fields or {}).items() if k in _REPORT_FIELDS}}
    return render("serve_form.html", status, form=form, systems=_systems(), limits=_LIMITS,
                  event_classes=[{"name": c.value, "label": fmt.sentence(c.words)}
                                 for c in EventClass],
                  site=site_context(error=error))


@cache
def _home() -> str:
    return bytes(form_page().body).decode("utf-8")


async def home(request: Request) -> Response:
    """GET /: the form (the same for everyone: made and compressed once, kept by browsers
    and proxies for a while)."""
    return answer(request, _home(), "text/html", {"cache-control": CACHE_STATIC})


def _reports(request: Request) -> Reports:
    reports: Reports = request.app.state.reports
    return reports


def client_of(request: Request) -> str:
    """Who sent *request*, as the server tells its clients apart
    (:class:`~reports.web.fair.Clients`)."""
    peer = request.client.host if request.client else None
    return _reports(request).clients.of(peer, request.headers.getlist("x-forwarded-for"))


def _landing(kept: Kept) -> RedirectResponse:
    page = kept.landing()
    return RedirectResponse(f"/report/{kept.key}/{'' if page == 'index.html' else page}",
                            status_code=303)


_UPSTREAM = (502, 503, 504)
"""Statuses that are chess-results' failures, not fiderate's: the form keeps what was typed."""


async def report_post(request: Request) -> Response:
    """POST /report: a link or files → the report (303 to its page), or the form with the
    error."""

    form: Form | None = None
    fields: dict[str, str] = {}
    try:
        form = await read_form(request)
        fields = {k: form.get(k) for k in _REPORT_FIELDS}
        options = ReportSettings.from_fields(fields)
        files = form.uploads("files") or form.pasted("source")
        if files and not form.uploads("files"):
            fields["source"] = ""  # a pasted page is read as a file, never echoed back
        reports = _reports(request)
        client = client_of(request)
        if not files and not fields["source"]:
            raise Problem("give a chess-results link or tournament number, or the "
                          "tournament's files")
        if files:
            kept = await run_in_threadpool(reports.upload, files, options, client=client)
            return _landing(kept)
        ref = reports.fetcher.ref(fields["source"])
        try:
            kept = await run_in_threadpool(reports.link, ref, options, client=client)
        except Problem as exc:  # no one player of that name: the index, searched for it
            if options.player is None or exc.status >= 500:
                raise
            whole = await run_in_threadpool(reports.link, ref, replace(options, player=None),
                                            client=client)
            if not await run_in_threadpool(_nobody, whole, options.player):
                raise
            return RedirectResponse(f"/report/{whole.key}/?{urlencode({'q': options.player})}",
                                    status_code=303)
        return _landing(kept)
    except Exception as exc:
        status, line = problem(exc)
        if status >= 500 and status not in _UPSTREAM:
            raise
        page = form_page(fields, form.clean(line) if form else line, status)
        page.headers.update(retry_headers(exc))
        return page
    finally:
        if form is not None:
            form.close()


def _nobody(kept: Kept, player: str) -> bool:
    """Whether no one player of the report answers to *player* (none, or several)."""
    try:
        resolve_player(kept.report.tournament, player)
    except PlayerNotFound:
        return True
    return False


async def report_redirect(request: Request) -> Response:
    """GET /report/{key} → its index; /report/{key}/player/{n} → that player's page."""
    key = request.path_params["key"]
    n = request.path_params.get("n")
    return RedirectResponse(f"/report/{key}/" + (f"player-{n}.html" if n is not None else ""),
                            status_code=308)


def _kept(request: Request) -> Kept:
    key = request.path_params["key"]
    kept = _reports(request).get(key, client_of(request))
    if kept is None:
        raise gone(key, "report")
    return kept


def gone(key: str, what: str) -> Problem:
    """The 404 for a report or rating period (*what*) kept under *key* no more, or never:
    an upload key this server signed has expired; one of no key's form is unknown; of the
    rest (another worker's, an earlier run's) it cannot be told."""
    state = issued(key)
    if state is False:
        return Problem(f"unknown {what}: no {what} has this address", 404)
    again = (f"one of uploaded files is kept for {kept_for()}, less when the server is busy: "
             "give the files again")
    if state:
        return Problem(f"this {what} has expired ({again})", 404)
    return Problem(f"this {what} is unknown or has expired ({again})", 404)


async def report_file(request: Request) -> Response:
    """GET /report/{key}/ and /report/{key}/{name}: a page, a CSV file or the zip.

    A page or file the report has made before comes from memory at once (the report keeps
    it, within the server's memory: :class:`~reports.web.service.Store`); anything else (a
    report to rebuild, a page to render, the zip) is made in a thread.
    """
    name = request.path_params.get("name") or "index.html"
    if name == "index.html" and request.query_params.get("q", "").strip():
        return await run_in_threadpool(_search, request)
    kept = _reports(request).kept.get(request.path_params["key"])
    if kept is not None:
        text = kept.made(name)
        if text is not None:
            return _report_answer(request, kept, name, text)
    return await run_in_threadpool(_report_file, request, name)


def _search(request: Request) -> Response:
    """The index with the players the find-me box's words find (the server's player search:
    any word order, accents and case aside; the closest names as links when none)."""
    kept = _kept(request)
    return Response(kept.search(request.query_params["q"][:200]), media_type="text/html",
                    headers=_report_cache(kept))


def _report_file(request: Request, name: str) -> Response:
    try:
        kept = _kept(request)
    except Problem as exc:
        if exc.retry_after is None:
            raise
        refused = form_page(error=str(exc), status=exc.status)  # a rebuild over the budget
        refused.headers.update(retry_headers(exc))
        return refused
    if name == "report.zip":
        return Response(kept.zip(), media_type="application/zip", headers={
            "content-disposition": f'attachment; filename="fiderate-report-{kept.key}.zip"',
            **_report_cache(kept)})
    text = kept.files().get(name) if name.endswith(".csv") else kept.page(name)
    if text is None:
        raise Problem("no such page in this report", 404)
    return _report_answer(request, kept, name, text)


def _report_cache(kept: Kept) -> dict[str, str]:
    """A link's report is chess-results' public data, kept a minute; one of uploaded files
    is kept nowhere (no Cache-Control here: the server's own is no-store)."""
    return {"cache-control": CACHE_LINK_REPORT} if kept.link else {}


def _report_answer(request: Request, kept: Kept, name: str, text: str) -> Response:
    """A report's page or CSV file; a link's compressed once (:mod:`compressed`), one of
    uploaded files as it goes out (never kept compressed)."""
    headers = _report_cache(kept)
    media = "text/html"
    if name.endswith(".csv"):
        media = "text/csv"
        headers["content-disposition"] = f'attachment; filename="{name}"'
    if kept.link:
        return answer(request, text, media, headers)
    return Response(text, media_type=media, headers=headers)


def calc_page(request: Request) -> Response:
    """GET /calc: the calculator; with a rating given, the calculation (same numbers as
    ``fiderate calc``)."""
    query = dict(request.query_params)
    form = {**CALC_FORM, **{k: v for k, v in query.items() if k in CALC_FORM}}
    cached = {"cache-control": CACHE_STATIC}  # the numbers depend on the address alone
    if not query:
        return answer(request, _calc_form(), "text/html", cached)
    try:
        calc = page_view(form)
    except Exception as exc:
        status, line = problem(exc)
        if status >= 500:
            raise
        return calc_refused(status, line, form)
    page = render("calc.html", form=form, calc=calc, notes=[Note(n) for n in calc["notes"]],
                  **form_context(calc["rules"]))
    page.headers.update(cached)
    return page


def calc_refused(status: int, line: str, form: dict[str, str] | None = None) -> HTMLResponse:
    """The calculator's page with the error line, filled with what was sent."""
    return render("calc.html", status, form=form or dict(CALC_FORM), calc=None, notes=[],
                  **form_context(), site=site_context(error=line))


@cache
def _calc_form() -> str:
    return bytes(render("calc.html", form=dict(CALC_FORM), calc=None, notes=[],
                        **form_context()).body).decode()


def _periods(request: Request) -> Periods:
    periods: Periods = request.app.state.periods
    return periods


def period_form(request: Request, fields: dict[str, str] | None = None, error: str = "",
                status: int = 200) -> HTMLResponse:
    """GET /period: the form (with the write token's field when the server saves periods)."""
    form = {"period": "", "list": "", **(fields or {})}
    periods = _periods(request)
    return render("period_form.html", status, form=form, limits=_LIMITS,
                  stored=periods.store is not None, saves=periods.saves,
                  site=site_context(error=error))


@dataclass(frozen=True, slots=True)
class RatedPeriod:
    """A period rated from a submitted form, and kept under its key."""

    key: str
    period: date
    stored: bool
    """Written to the register."""
    saying: str
    """What the page says about the register ('' for a server without one)."""
    out: PeriodFiles


def _saving(periods: Periods, tokens: Sequence[str | None]) -> tuple[bool, str]:
    """Whether to write the register, given the tokens the request carried (None: not given;
    '' from an ``Authorization`` header of another kind: given, and wrong), and the line the
    period page says about it."""
    if periods.store is None:
        return False, ""
    if not periods.saves:
        return False, "Not saved: this server does not save periods to its rating register."
    given = [t for t in tokens if t is not None]
    if any(periods.may_write(t) for t in given):
        return True, "Saved to this server's rating register."
    if given:
        return False, "Not saved to the rating register: the write token was wrong."
    return False, "Not saved to the rating register: no write token was given."


async def rate_period(request: Request, form: Form, tokens: Sequence[str | None]) -> RatedPeriod:
    """The period of a submitted form (fields ``period``, ``list``; files ``tournaments``,
    ``ratings_list``) rated and kept, and written to the register when one of *tokens* is the
    write token: the period page's and the API's."""


    month = _month(form.get("period"))
    only = form.get("list") or None
    if only not in (None, "standard", "rapid", "blitz"):
        raise Problem(f"{only!r}: expected standard, rapid or blitz")
    files = form.uploads("tournaments")
    if not files:
        raise Problem("give the files of the month's tournaments")
    lists = form.uploads("ratings_list")
    periods = _periods(request)
    write, saying = _saving(periods, tokens)
    key, out = await run_in_threadpool(
        periods.run, files, lists[0] if lists else None,
        PeriodRequest(period=month, only_list=only, store=periods.store, write=write),
        site_context(status=saying,
                     downloads=[{"href": "period_players.csv", "label": "Players (CSV)"},
                                {"href": "period_games.csv", "label": "Games (CSV)"}]),
        client=client_of(request))
    return RatedPeriod(key=key, period=month, stored=write, saying=saying, out=out)


async def period_post(request: Request) -> Response:
    """POST /period: the month's files → the period page (303), or the form with the error.

    The register is written only with the write token, typed in the form's ``token`` field
    or sent as ``Authorization: Bearer TOKEN``; without it (or with a wrong one) the month is
    rated and shown all the same, its page saying it was not saved.
    """
    form: Form | None = None
    fields: dict[str, str] = {}
    try:
        form = await read_form(request)
        fields = {"period": form.get("period"), "list": form.get("list")}
        rated = await rate_period(request, form, [
            form.get("token") or None, bearer_token(request.headers.get("authorization"))])
        return RedirectResponse(f"/period/{rated.key}/", status_code=303)
    except Exception as exc:
        status, line = problem(exc)
        if status >= 500:
            raise
        return period_form(request, fields, form.clean(line) if form else line, status)
    finally:
        if form is not None:
            form.close()


def _month(text: str) -> date:
    month = parse_month(text)
    if month is None:
        raise Problem(f"{text!r}: expected a list month YYYY-MM" if text
                      else "give the list month")
    return month


def period_view(request: Request) -> Response:
    """GET /period/{key}/ and /period/{key}/{name}: the period page, one of its CSV files, a
    player's calculation (``period-players/<page>.html``) or a page of a tournament's report
    (``<tournament>/index.html``): the files of ``fiderate period --out``, by relative path."""
    texts = _periods(request).get(request.path_params["key"])
    if texts is None:
        raise gone(request.path_params["key"], "rating period")
    name = request.path_params.get("name") or "period.html"
    if name not in texts:
        raise Problem("no such page", 404)
    if name.endswith(".csv"):
        return Response(texts[name], media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{name}"'})
    return HTMLResponse(texts[name])
