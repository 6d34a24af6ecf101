"""The security headers of every answer and the Content-Security-Policy they carry; POSTs
from other web sites refused (:class:`SameOrigin`); the write token compared.

The pages' scripts and styles are inline (the static report must open from a folder with
nothing beside it): each script is a template of its own (``sort.js``, ``drop.js``) included
inside a ``<script>`` element, each style a ``<style>`` element of a template.  The policy
allows exactly those, by the SHA-256 of their text, computed from the templates themselves
(never from a page, which holds user text): no ``unsafe-inline``, nothing loaded from
elsewhere.  The report's own pages carry the same script hashes in their ``<meta>`` policy.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse

from reports.render.html import environment

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CACHE_LINK_REPORT", "CACHE_STATIC", "CROSS_SITE", "NO_STORE", "Origin", "SameOrigin",
           "SecurityHeaders", "bearer_token", "content_security_policy", "cross_site",
           "parse_origin", "script_sources", "style_sources", "token_matches"]

_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def _source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@cache
def script_sources() -> str:
    """The hash sources of every script the pages inline (each ``*.js`` template, rendered as
    the pages include it)."""
    env = environment()
    return " ".join(_source(env.get_template(name).render())
                    for name in sorted(env.list_templates(extensions=["js"])))


@cache
def style_sources() -> str:
    """The hash sources of every ``<style>`` element of the templates.

    An element holding template code (``{{``, ``{%``) has no fixed text and gets no hash: it
    would be blocked, and a test says so.
    """
    env = environment()
    found: list[str] = []
    for name in sorted(env.list_templates(extensions=["html"])):
        source = env.loader.get_source(env, name)[0] if env.loader else ""
        found += [_source(body) for body in _STYLE.findall(source)
                  if "{{" not in body and "{%" not in body]
    return " ".join(dict.fromkeys(found))


@cache
def content_security_policy() -> str:
    """The policy: nothing loads but the templates' own scripts and styles and inline images;
    a live page's refresh button fetches the page again from the server (connect-src)."""
    return (f"default-src 'none'; script-src {script_sources()}; style-src {style_sources()}; "
            "connect-src 'self'; img-src data:; form-action 'self'; base-uri 'none'; "
            "frame-ancestors 'none'")


@cache
def _security_headers() -> list[tuple[bytes, bytes]]:
    return [(b"content-security-policy", content_security_policy().encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin")]


CACHE_STATIC = "public, max-age=300"
"""``Cache-Control`` of a page the same for everyone (the form, the calculator, its JSON, the
API's description): kept five minutes by browsers and proxies."""
CACHE_LINK_REPORT = "public, max-age=60"
"""``Cache-Control`` of a report built from a chess-results link (public data, under a key
saying what it was built from): kept a minute."""
NO_STORE = "no-store"
"""``Cache-Control`` of everything else: never kept, by a browser or a proxy (uploaded data,
periods, forms answered with what was sent, errors, redirects)."""
_NO_STORE = NO_STORE.encode()
_CACHEABLE_METHODS = frozenset({"GET", "HEAD"})


class SecurityHeaders:
    """ASGI middleware adding the security headers to every response, and its
    ``Cache-Control``: the route's own on a 200 to a GET (:data:`CACHE_STATIC`,
    :data:`CACHE_LINK_REPORT`), else :data:`NO_STORE` (an answer to a POST, an error, a
    redirect, and whatever a route did not mark: uploaded data and periods never set one).

    ``Referrer-Policy: same-origin``: no address of this server (a report's key) is ever sent
    to another site, and the server's own forms post with their ``Origin`` (under
    ``no-referrer`` a browser sends ``Origin: null`` with every post, which :class:`SameOrigin`
    could not tell from another site's).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        cacheable = scope.get("method") in _CACHEABLE_METHODS

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                marked = any(name == b"cache-control" for name, _ in headers)
                if marked and not (cacheable and message["status"] == 200):
                    headers = [(n, v) for n, v in headers if n != b"cache-control"]
                    marked = False
                if not marked:
                    headers.append((b"cache-control", _NO_STORE))
                headers += _security_headers()
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


Origin = tuple[str, str, int]
"""An origin as compared: scheme, host (lower case, IPv6 without brackets) and port."""

CROSS_SITE = ("refused: this was sent from another web site; open this server's own page and "
              "send it from there")
"""The one line a cross-site request is answered with (403)."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PORTS = {"http": 80, "https": 443}
_SAME = frozenset({"same-origin", "none"})
"""The ``Sec-Fetch-Site`` values of a request this server's own page (or the user) made."""


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as an :data:`Origin` (the default port filled in); None for
    anything else (``null``, a path, a user name, another scheme)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (scheme not in _PORTS or not parts.hostname or parts.path not in ("", "/")
            or parts.query or parts.fragment or "@" in parts.netloc):
        return None
    return scheme, parts.hostname.lower(), port or _PORTS[scheme]


def _own_origin(scope: Scope, host: str | None) -> Origin | None:
    """The request's own origin: its scheme and the ``Host`` it was sent to."""
    if host is None:
        server = scope.get("server")
        if not server:
            return None
        name, port = server
        host = f"[{name}]:{port}" if ":" in str(name) else f"{name}:{port}"
    return parse_origin(f"{scope.get('scheme', 'http')}://{host}")


def cross_site(scope: Scope, origins: Iterable[Origin] = ()) -> str | None:
    """Why a request must be refused as sent from another site (None: it may go on).

    A GET, HEAD or OPTIONS request changes nothing and always goes on.  Any other is refused
    when its ``Sec-Fetch-Site`` says another site (``cross-site``, ``same-site``: a browser
    sends it and a page cannot forge it), or when its ``Origin`` is not this server's: one of
    *origins* when the server was given them, else the request's own scheme and ``Host``.
    ``Origin: null`` (a sandboxed page, a page whose referrer policy hides its origin) is
    refused unless ``Sec-Fetch-Site`` says ``same-origin``.  A request with neither header
    (curl, a script: no browser, so no visitor's browser to abuse) goes on.

    Why the request's own ``Host`` by default: a browser always sends the ``Host`` of the
    server it connects to, and no page can change it, so another site's form or ``fetch``
    arrives with that site's ``Origin`` and this server's ``Host``, and is refused.  Only a
    client that is not a browser can send any ``Host`` it likes, and such a client can send
    any ``Origin`` too: the check is not meant to stop it (the write token is).  The one
    way a page could make the two agree is DNS rebinding (its own name pointed at this
    server); such a page still cannot write the register, whose token it does not know, and
    a server given its origins (``--origin``) compares with those and refuses it as well.
    Those are also what a server behind a TLS proxy needs: it sees ``http`` (and perhaps the
    proxy's own ``Host``) where the browser sent ``https://`` and the public name.
    """
    if scope.get("method", "GET") in _SAFE_METHODS:
        return None
    sites: list[str] = []
    sent: list[str] = []
    host: str | None = None
    for name, value in scope.get("headers", []):
        if name == b"sec-fetch-site":
            sites.append(value.decode("latin-1").strip().lower())
        elif name == b"origin":
            sent.append(value.decode("latin-1"))
        elif name == b"host" and host is None:
            host = value.decode("latin-1")
    if any(site not in _SAME for site in sites):
        return f"Sec-Fetch-Site {', '.join(sites)!r}"
    if not sent:
        return None
    if sent == ["null"] and sites == ["same-origin"]:
        return None  # this server's own page, hiding its origin: the browser vouches for it
    origin = parse_origin(sent[0]) if len(sent) == 1 else None
    allowed: set[Origin | None] = set(origins) or {_own_origin(scope, host)}
    if origin is None or origin not in allowed:
        return f"Origin {sent[0][:100]!r}" + (f" and {len(sent) - 1} more" if len(sent) > 1 else "")
    return None


class SameOrigin:
    """ASGI middleware: a POST (any request but GET, HEAD, OPTIONS) sent from another web
    site is answered 403 with :data:`CROSS_SITE` by *refuse* before anything of it is read
    (:func:`cross_site` says which are; *origins*: the server's own, when given)."""

    def __init__(self, app: ASGIApp, *, origins: Iterable[Origin] = (),
                 refuse: Callable[[Request, int, str], Response] | None = None) -> None:
        self.app = app
        self.origins = frozenset(origins)
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        why = cross_site(scope, self.origins)
        if why is None:
            await self.app(scope, receive, send)
            return
        logging.getLogger("uvicorn.error").warning(
            "refused a cross-site %s %s: %s (behind a proxy? give the server its --origin)",
            scope.get("method"), scope.get("path"), why)
        response = (self.refuse(Request(scope), 403, CROSS_SITE) if self.refuse is not None
                    else PlainTextResponse(CROSS_SITE, 403))
        await response(scope, receive, send)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' for another scheme, None
    when there is no header)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def token_matches(expected: str | None, given: str | None) -> bool:
    """*given* is the write token *expected* (compared in constant time; nothing matches when
    the server has no token)."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8", "replace"))
