"""The security headers of every answer, and the Content-Security-Policy they carry.

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
import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "content_security_policy", "script_sources", "style_sources"]

_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def _source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@cache
def script_sources() -> str:
    """The hash sources of every script the pages inline (each ``*.js`` template, rendered as
    the pages include it)."""
    from reports.html import environment

    env = environment()
    return " ".join(_source(env.get_template(name).render())
                    for name in sorted(env.list_templates(extensions=["js"])))


@cache
def style_sources() -> str:
    """The hash sources of every ``<style>`` element of the templates.

    An element holding template code (``{{``, ``{%``) has no fixed text and gets no hash: it
    would be blocked, and a test says so.
    """
    from reports.html import environment

    env = environment()
    found: list[str] = []
    for name in sorted(env.list_templates(extensions=["html"])):
        source = env.loader.get_source(env, name)[0] if env.loader else ""
        found += [_source(body) for body in _STYLE.findall(source)
                  if "{{" not in body and "{%" not in body]
    return " ".join(dict.fromkeys(found))


@cache
def content_security_policy() -> str:
    """The policy: nothing loads but the templates' own scripts and styles and inline images."""
    return (f"default-src 'none'; script-src {script_sources()}; style-src {style_sources()}; "
            "img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware adding the security headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", content_security_policy().encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
