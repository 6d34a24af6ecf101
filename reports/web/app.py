"""The application: routes, the security headers, and errors as one line, never a traceback.

Routes::

    GET  /                               the report form
    POST /report                         a link or files → 303 to the report
    GET  /report/{key}/                  the report (index); /report/{key} redirects here
    GET  /report/{key}/player-{n}.html   a player's page; /report/{key}/player/{n} redirects here
    GET  /report/{key}/{file}.csv        one CSV file of the report
    GET  /report/{key}/report.zip        the report folder, as ``fiderate report --out`` writes it
    GET  /calc                           the calculator
    GET  /period, POST /period           the rating period form → 303 to /period/{key}/
    GET  /period/{key}/, …/{file}        the period page, its players' pages, CSV files and reports
    GET  /api/report, POST /api/report   a report as JSON
    POST /api/period                     a rating period as JSON
    GET  /api/calc                       the calculator as JSON (``fiderate calc --json``)
    GET  /api/openapi.json               the API described
    GET  /healthz                        200 while the server answers

A POST from another web site is refused (403) before anything of it is read
(:class:`~reports.web.security.SameOrigin`).  HTML, JSON and CSV answers are compressed
(gzip) for clients that take it; every answer says how long it may be kept
(:class:`~reports.web.security.SecurityHeaders`).  A path with a slash too many or too few
redirects (307) to the route's own, by a relative address (never the ``Host`` sent).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from anyio.to_thread import current_default_thread_limiter
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.routing import Match, Route

from reports.errors import USER_FACING
from reports.web import api, pages
from reports.web.jobs import Runner
from reports.web.limits import Tracked
from reports.web.problems import Problem, error_code, problem
from reports.web.security import SameOrigin, SecurityHeaders, content_security_policy, parse_origin
from reports.web.service import Config, Fetcher, Periods, Reports

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.routing import Router
    from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["GZIP_LEVEL", "GZIP_MIN_BYTES", "THREADS", "create_app"]

THREADS = 200
"""Requests answered at once (the rest wait): most of them only wait for chess-results."""
GZIP_MIN_BYTES = 500
"""Answers shorter than this are sent as they are (compressing would not pay)."""
GZIP_LEVEL = 6
"""zlib's default: nearly level 9's size at a fraction of its time."""


def _error(request: Request, status: int, line: str) -> Response:
    """One line: JSON for the API, else the form of the page the request was for."""
    path = request.url.path
    if path.startswith("/api/") or path == "/healthz":
        return api.json_response({"error": line, "code": error_code(status)}, status)
    if path.startswith("/period"):
        return pages.period_form(request, error=line, status=status)
    if path.startswith("/calc"):
        return pages.calc_refused(status, line)
    return pages.form_page(error=line, status=status)


async def _on_problem(request: Request, exc: Exception) -> Response:
    status, line = problem(exc)
    return _error(request, status, line)


async def _on_http(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    words = {404: "no such page", 405: "this page does not take that request"}
    return _error(request, status, words.get(status, f"the request was refused ({status})"))


class _Bugs:
    """ASGI middleware: a bug is one line for the user (with the security headers, which the
    framework's own error page would lack) and the traceback in the server's log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tracking = Tracked(send)
        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if isinstance(exc, ClientDisconnect):  # gone (or cut off): nobody to answer
                return
            logging.getLogger("uvicorn.error").error("internal error", exc_info=exc)
            if tracking.started:
                raise
            status, line = problem(exc)
            try:
                response = _error(Request(scope), status, line)
            except Exception:  # the error page itself failed: the line alone
                response = PlainTextResponse(line, status)
            await response(scope, receive, send)


def _slash_redirects(router: Router) -> ASGIApp:
    """The router's fallback: a path that is a route's but for a slash at its end redirects
    there (307, by a path alone: Starlette's own would name the ``Host`` sent); else 404."""
    async def default(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "/")
        if scope["type"] == "http" and path != "/":
            other = path.rstrip("/") if path.endswith("/") else path + "/"
            if other.startswith("/") and not other.startswith("//"):
                trial = {**scope, "path": other}
                if any(route.matches(trial)[0] is not Match.NONE for route in router.routes):
                    query = scope.get("query_string", b"").decode("latin-1")
                    await RedirectResponse(other + (f"?{query}" if query else ""), 307)(
                        scope, receive, send)
                    return
        await router.not_found(scope, receive, send)

    return default


def _warm(reports: Reports) -> None:
    """Everything the first request would otherwise wait for, after the server has started."""
    content_security_policy()
    reports.fetcher.session()
    reports.runner.warm()


def create_app(config: Config | None = None) -> Starlette:
    """The ``fiderate serve`` application."""

    config = config or Config()
    runner = Runner(limit=config.time_limit)
    reports = Reports(Fetcher(config), runner)
    periods = Periods(runner, config.store, config.write_token, memory=config.memory // 4,
                      shared=reports.fetcher.shared)
    origins = []
    for text in config.origins:
        origin = parse_origin(text)
        if origin is None:
            raise ValueError(f"{text!r}: not an origin (scheme://host[:port])")
        origins.append(origin)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # users waiting for chess-results each hold a thread: many may wait at once
        current_default_thread_limiter().total_tokens = THREADS
        threading.Thread(target=_warm, args=(reports,), name="fiderate-warm", daemon=True).start()
        yield

    routes = [
        Route("/", pages.home, methods=["GET"]),
        Route("/report", pages.report_post, methods=["POST"]),
        Route("/report/{key}", pages.report_redirect, methods=["GET"]),
        Route("/report/{key}/player/{n:int}", pages.report_redirect, methods=["GET"]),
        Route("/report/{key}/", pages.report_file, methods=["GET"]),
        Route("/report/{key}/{name}", pages.report_file, methods=["GET"]),
        Route("/calc", pages.calc_page, methods=["GET"]),
        Route("/period", pages.period_form, methods=["GET"]),
        Route("/period", pages.period_post, methods=["POST"]),
        Route("/period/{key}/", pages.period_view, methods=["GET"]),
        Route("/period/{key}/{name:path}", pages.period_view, methods=["GET"]),
        Route("/api/report", api.api_report_get, methods=["GET"]),
        Route("/api/report", api.api_report_post, methods=["POST"]),
        Route("/api/period", api.api_period, methods=["POST"]),
        Route("/api/calc", api.api_calc, methods=["GET"]),
        Route("/api/openapi.json", api.openapi, methods=["GET"]),
        Route("/healthz", api.healthz, methods=["GET"]),
    ]
    refused = dict.fromkeys((Problem, *USER_FACING), _on_problem)
    middleware = [Middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL),
                  Middleware(SecurityHeaders), Middleware(_Bugs),
                  Middleware(SameOrigin, origins=origins, refuse=_error)]
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={**refused, HTTPException: _on_http}, lifespan=lifespan)
    app.router.redirect_slashes = False
    app.router.default = _slash_redirects(app.router)
    app.state.reports = reports
    app.state.periods = periods
    return app
