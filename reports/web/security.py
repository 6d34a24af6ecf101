"""The security headers of every answer, and the Content-Security-Policy they carry.

The pages' scripts and styles are inline (the static report must open from a folder with
nothing beside it), so the policy allows exactly those: the SHA-256 of each ``<script>`` and
``<style>`` element of the templates, computed from the templates themselves (never from a
page, which holds user text).  No other script runs: no ``unsafe-inline``, nothing fetched.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "content_security_policy", "inline_hashes"]

_ELEMENT = re.compile(r"<(script|style)>(.*?)</\1>", re.DOTALL)


def inline_hashes() -> dict[str, list[str]]:
    """The CSP hash sources of the templates' inline scripts and styles, by element name.

    An element holding template code (``{{``, ``{%``) has no fixed text and gets no hash:
    it would be blocked, and a test says so.
    """
    from reports.html import environment

    env = environment()
    found: dict[str, list[str]] = {"script": [], "style": []}
    for name in sorted(env.list_templates(extensions=["html"])):
        source = env.loader.get_source(env, name)[0] if env.loader else ""
        for kind, body in _ELEMENT.findall(source):
            if "{{" in body or "{%" in body:
                continue
            digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
            token = f"'sha256-{digest}'"
            if token not in found[kind]:
                found[kind].append(token)
    return found


@cache
def content_security_policy() -> str:
    """The policy: nothing loads but the templates' own scripts and styles and inline images."""
    hashes = inline_hashes()
    scripts, styles = (" ".join(hashes[kind]) or "'none'" for kind in ("script", "style"))
    return (f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src data:; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


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
