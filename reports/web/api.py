"""The JSON API: reports, the rating period, the calculator and a health check, described at
/api/openapi.json.

Errors are ``{"error": "<one line in words>", "code": "<machine code>"}`` with a 4xx status
for bad input, 502 when chess-results cannot be read and 500 for a bug in fiderate
(:func:`reports.web.problems.error_code`: ``bad-input``, ``not-found``, ``busy``, …).
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from rating.systems import registry
from reports.calc.input import CalcError
from reports.settings import ReportSettings
from reports.web.calc import api_answer
from reports.web.pages import RatedPeriod, client_of, rate_period
from reports.web.problems import Problem, error_code, problem, refuse_unknown, retry_headers
from reports.web.security import CACHE_STATIC, bearer_token
from reports.web.uploads import read_form

if TYPE_CHECKING:
    from starlette.requests import Request

    from reports.web.kept import Kept
    from reports.web.service import Periods, Reports
    from reports.web.uploads import Form

__all__ = ["OPENAPI", "api_period", "json_response", "period_json"]

_REPORT_FIELDS = ("source", "system", "player", "k", "date", "event_class", "qc_approved",
                  "target")
_PERIOD_FIELDS = ("period", "list", "tournaments", "ratings_list")


def _exact(value: object) -> str:
    """An exact decimal as JSON: its figure as a string ('-3.80'), never a binary float."""
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON: {value!r}")


def json_response(data: Any, status: int = 200) -> Response:
    """Data as JSON (exact decimals as strings holding their figure: ``"-3.80"``)."""
    return Response(json.dumps(data, ensure_ascii=False, default=_exact),
                    status_code=status, media_type="application/json")


def error_response(exc: Exception, form: Form | None = None) -> Response:
    """An exception as the API's one-line error (re-raised when it is a bug)."""
    status, line = problem(exc)
    if status >= 500:
        raise exc
    body: dict[str, str] = {"error": form.clean(line) if form else line,
                            "code": error_code(status)}
    if isinstance(exc, CalcError):
        body.update(code=exc.code, field=exc.field)
    response = json_response(body, status)
    response.headers.update(retry_headers(exc))
    return response


def healthz(_request: Request) -> Response:
    """GET /healthz: 200 while the server answers; ``X-Fiderate-Worker`` names the process
    that answered (of ``serve --workers N``)."""
    answer = json_response({"status": "ok"})
    answer.headers["x-fiderate-worker"] = str(os.getpid())
    return answer


def api_calc(request: Request) -> Response:
    """GET /api/calc: the calculator (``fiderate calc --json``); a refusal's JSON adds the
    field it is about and a machine code (``bad-value``, ``missing``, ``conflict``,
    ``unknown-field``) to the error's words."""
    try:
        answer = json_response(api_answer(request.query_params.multi_items()))
        answer.headers["cache-control"] = CACHE_STATIC  # the numbers depend on the address alone
        return answer
    except Exception as exc:
        return error_response(exc)


def _reports(request: Request) -> Reports:
    reports: Reports = request.app.state.reports
    return reports


def _report(kept: Kept) -> Response:
    return json_response({"key": kept.key, "url": f"/report/{kept.key}/", **kept.json()})


def api_report_get(request: Request) -> Response:
    """GET /api/report?source=…: the report of a chess-results tournament as JSON."""
    try:
        query = request.query_params
        refuse_unknown(query.keys(), _REPORT_FIELDS)
        source = query.get("source", "").strip()
        if not source:
            raise Problem("give source: a chess-results link or tournament number")
        reports = _reports(request)
        return _report(reports.link(reports.fetcher.ref(source), ReportSettings.from_fields(query), "json",
                                    client=client_of(request)))
    except Exception as exc:
        return error_response(exc)


async def api_report_post(request: Request) -> Response:
    """POST /api/report: the report of uploaded files (field ``files``) as JSON."""

    form: Form | None = None
    try:
        form = await read_form(request)
        refuse_unknown([*form.fields, *form.files], (*_REPORT_FIELDS, "files"))
        options = ReportSettings.from_fields(form.fields)
        reports = _reports(request)
        client = client_of(request)
        if form.uploads("files"):
            kept = await run_in_threadpool(reports.upload, form.uploads("files"), options,
                                           "json", client=client)
        elif form.get("source"):
            kept = await run_in_threadpool(reports.link, reports.fetcher.ref(form.get("source")),
                                           options, "json", client=client)
        else:
            raise Problem("give files: the tournament's files, or source: a chess-results link")
        return _report(kept)
    except Exception as exc:
        return error_response(exc, form)
    finally:
        if form is not None:
            form.close()


def period_json(rated: RatedPeriod) -> dict[str, Any]:
    """The period as the API returns it: key, url, period, stored, the rows of
    period_players.csv (whole numbers as numbers, exact decimals as the CSV's strings) and
    the notes (each its text and the keys of the players it is about)."""
    players = list(rated.out.players)
    notes = [{"text": str(n), "players": sorted(n.players)} for n in rated.out.notes]
    if rated.saying and not rated.stored:
        notes.append({"text": rated.saying, "players": []})
    return {"key": rated.key, "url": f"/period/{rated.key}/", "period": f"{rated.period:%Y-%m}",
            "stored": rated.stored, "players": players, "notes": notes}


async def api_period(request: Request) -> Response:
    """POST /api/period: a rating period from uploaded files (as the period page) as JSON.

    The register is written only with ``Authorization: Bearer TOKEN``; a request that sends
    the header to a server that does not save periods, or with a token that is not its
    write token, is refused (403) before its files are read: a client asking to write is told
    at once that it cannot.  Without the header the period is rated and not saved.
    """
    form: Form | None = None
    try:
        token = bearer_token(request.headers.get("authorization"))
        if token is not None:
            periods: Periods = request.app.state.periods
            if not periods.saves:
                raise Problem("this server does not save periods to its rating register", 403)
            if not periods.may_write(token):
                raise Problem("the write token is wrong (Authorization: Bearer TOKEN)", 403)
        form = await read_form(request)
        refuse_unknown([*form.fields, *form.files], _PERIOD_FIELDS)
        return json_response(period_json(await rate_period(request, form, [token])))
    except Exception as exc:
        return error_response(exc, form)
    finally:
        if form is not None:
            form.close()


def openapi(_request: Request) -> Response:
    """GET /api/openapi.json: this API, described."""
    answer = json_response(OPENAPI)
    answer.headers["cache-control"] = CACHE_STATIC
    return answer


def _param(name: str, description: str, kind: str = "string", *, required: bool = False,
           repeat: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind}
    if repeat:
        schema = {"type": "array", "items": schema}
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema}


_OPTIONS = [
    _param("system", "Rating system, or several comma-separated (the first the report's own, "
           "the others shown beside it): " + "; ".join(
               f"{r.name}, {r.help}" for r in registry.registrations()) + ". Default: fide."),
    _param("player", "One player: start number, name or FIDE id."),
    _param("k", "K for a player whose K is not known (default 20).", "integer"),
    _param("date", "YYYY-MM-DD: the date whose rules apply when the source gives none."),
    _param("event_class", "What kind of event it is, for the title norms (no source shows "
           "it): national-final, national-team or zonal (each exempt from the federation "
           "conditions), or team-championship (a World or Continental team or club "
           "championship: 7 games suffice). Default: not given, and listed as not checked."),
    _param("qc_approved", "true when FIDE's Qualification Commission approved the event's "
           "fast-standard time control (45 min + 30 s or longer, from 2026) for title norms "
           "(no source shows it). Default: false, and such an event makes no norm.", "boolean"),
    _param("target", "Your own rating target, 1000 to 3000: each player's needs say what the "
           "rounds still to play need to reach or keep it, and when the live rating crossed "
           "it.", "integer"),
]
_ERROR = {"description": "Bad input (4xx), chess-results unreachable (502): {\"error\": the "
                         "reason in words, \"code\": bad-input, not-found, too-large, busy, "
                         "chess-results-failed, …}"}
_CALC_ERROR = {"description": "Bad input: {\"error\": \"…\", \"field\": the parameter it is "
                             "about, \"code\": bad-value, missing, conflict or unknown-field}"}
_EXACT = ("Figures are exact, as in the CSV files character for character: every decimal "
          "(a change, an expected score, a score, points) is a string holding the CSV's "
          "figure, e.g. \"-3.80\", \"0.36\", \"4.5\" (never a binary float); whole "
          "numbers are integers, yes/no booleans, an empty CSV cell null.")
"""How the JSON carries numbers (:mod:`reports.render.columns`)."""
_REPORT = {"description": "The report: key, url (its HTML pages), tournament, rules, players "
                          "(each with rounds and scenarios: the rows of rating_players.csv, "
                          "rating_rounds.csv and scenarios.csv under their column names), "
                          "published, notes (text, items: one line per player concerned, "
                          "players: their start numbers), warnings (each an object: code, a "
                          "short stable name such as points-differ; message; players, the "
                          "start numbers it is about, none for the event; round, or null), "
                          "norms (event_class as given, or null; rows: one per player and "
                          "title norm achieved, possible in a live event, or not decidable "
                          "from the source, the rows of norms.csv under its column names: "
                          "start_no, name, norm (GM, IM, WGM or WIM), result (achieved, "
                          "possible or not decidable), rounds (the rounds counted, e.g. "
                          "1-9), games, application_games, score, ra, ra_floor_raised, "
                          "performance, titled_opponents, title_opponents, federations, "
                          "own_federation, exemption, needs (win, draw, any or empty), "
                          "reasons and not_checked (each a text of '; '-separated words); "
                          "a count the source cannot show is null, never 0), target (the "
                          "rating target given, or null); each player's needs, or null when "
                          "there is nothing to say: rounds_left, to_play (round, opponent_no, "
                          "null for a round not paired yet, rating, assumed), goals (kind: "
                          "rating, gain, no loss or norm; verdict: certain, in reach, out of "
                          "reach or not decidable; threshold; norm; guaranteed, the score "
                          "that reaches it whatever the single results, and possible, the "
                          "least that can; estimate; words), crossings (round, threshold, "
                          "direction up or down, before, after, words), norms_counted (norm, "
                          "rounds, left_out: the rounds of won games left out, "
                          "secured_after, played_after, performance as the Title "
                          "Regulations count it, true_performance with the opponents' own "
                          "ratings, words), prospects before round 1 (norm, possible: true, "
                          "false or null, words) and notes; each player's lists, or null "
                          "for an event of one list: an event of more than 30 days' games by "
                          "the monthly list in force when they were played (month, rounds). "
                          + _EXACT}
_FILES = {"type": "array", "items": {"type": "string", "format": "binary"}}
_PERIOD = {"description": "The period: key, url (its HTML page and CSV files), period "
                          "(YYYY-MM), stored (written to the server's rating register), "
                          "players (the rows of period_players.csv), notes. " + _EXACT}
_REFUSED = {"description": "Refused: a post from another web site, or an Authorization header "
                           "the server cannot write the register with: {\"error\": \"…\"}"}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "fiderate", "version": "1",
             "description": "FIDE (and national) rating changes from chess-results links or "
                            "tournament files. " + _EXACT},
    "paths": {
        "/healthz": {"get": {"summary": "Health check", "responses": {"200": {
            "description": "{\"status\": \"ok\"}"}}}},
        "/api/report": {
            "get": {"summary": "The report of a chess-results tournament",
                    "parameters": [_param("source", "A chess-results link (any page of the "
                                          "tournament, or a player's) or tournament number.",
                                          required=True), *_OPTIONS],
                    "responses": {"200": _REPORT, "4XX": _ERROR, "502": _ERROR}},
            "post": {"summary": "The report of uploaded files",
                     "requestBody": {"required": True, "content": {"multipart/form-data": {
                         "schema": {"type": "object", "properties": {
                             "files": {**_FILES, "description": "Saved chess-results pages, Excel "
                                       "exports, Swiss-Manager CSV or TRF files of one "
                                       "tournament: at most 20 files of 10 MB, 50 MB in all."},
                             **{p["name"]: {"type": p["schema"]["type"],
                                            "description": p["description"]}
                                for p in _OPTIONS}}}}}},
                     "responses": {"200": _REPORT, "4XX": _ERROR}}},
        "/api/period": {"post": {
            "summary": "A rating period: several tournaments of one list month rated together",
            "description": "As the period page. The server's rating register (if it has one) "
                           "gives the previous month's ratings, K and history; the period is "
                           "written to it only with the server's write token as "
                           "Authorization: Bearer TOKEN.",
            "security": [{}, {"writeToken": []}],
            "requestBody": {"required": True, "content": {"multipart/form-data": {
                "schema": {"type": "object", "required": ["period", "tournaments"],
                           "properties": {
                    "period": {"type": "string", "description": "The list month, YYYY-MM."},
                    "tournaments": {**_FILES, "description": "One file a tournament of the "
                                    "month: a saved chess-results page, an Excel export, a "
                                    "Swiss-Manager CSV or a TRF file."},
                    "ratings_list": {"type": "string", "format": "binary",
                                     "description": "The previous FIDE rating list (TXT or "
                                     "XML, zipped or not): base ratings, K and birth years."},
                    "list": {"type": "string", "enum": ["standard", "rapid", "blitz"],
                             "description": "Rate only this list's tournaments (default: "
                                            "every list, kept apart)."}}}}}},
            "responses": {"200": _PERIOD, "403": _REFUSED, "4XX": _ERROR}}},
        "/api/calc": {"get": {
            "summary": "The rating calculator (the same figures as the command line's)",
            "parameters": [
                _param("rating", "The player's rating.", "integer"),
                _param("opponent", "The opponent's rating, for one game.", "integer"),
                _param("result", "One game's result: win, draw or loss (or 1, ½, 0)."),
                _param("game", "A game as OPPONENT:RESULT, e.g. 1900:1 or unrated:0.5.",
                       repeat=True),
                _param("k", "The player's K (default 20, with a note).", "integer"),
                _param("category", "new, junior, established or master, instead of k."),
                _param("games_played", "Rated games played (K 40 below 30).", "integer"),
                _param("birth_year", "Birth year (K 40 up to the year of 18).", "integer"),
                _param("reached_2400", "true when the rating has reached 2400 (K 10).",
                       "boolean"),
                _param("opponent_k", "The opponent's K.", "integer"),
                _param("system", "fide (default) or elo."),
                _param("elo_cap", "With system=elo: the largest difference counted.", "integer"),
                _param("date", "YYYY-MM-DD: the FIDE rules of this date (default today)."),
                _param("list", "standard (default), rapid or blitz."),
                _param("table", "true: worked examples instead of a calculation.", "boolean"),
            ],
            "responses": {"200": {"description": "The calculation: system, rating, k, date, "
                                  "list, games, score, expected_total, change, rounded_change, "
                                  "new_rating, performance, notes; for one game also outcomes "
                                  "and opponent (with table: the worked examples)."},
                          "400": _CALC_ERROR}}},
    },
    "components": {"securitySchemes": {"writeToken": {
        "type": "http", "scheme": "bearer",
        "description": "The server's write token (given when the server is started): only with it "
                       "is a period written to the rating register."}}},
}
