"""The access log: one line per request in the combined log format of Apache and nginx.

    127.0.0.1 - - [02/May/2026:14:03:21 +0200] "GET /report/999005/ HTTP/1.1" 200 5123 "-" "Mozilla/5.0 …"

The client's address, the time the request came, the request line, the status, the bytes of
the body sent (compressed, as they went; ``-`` for none), the ``Referer`` and the
``User-Agent``.  Nothing of a request's body (forms, uploaded files, the write token typed in
the period form) and no other header (``Authorization``, cookies) is ever written; in the
request line and the referrer, a query parameter whose name says it holds a secret
(``token=…``, ``password=…``, ``key=…``) is replaced with ``[redacted]``, and so is any
occurrence of the server's write token, there and in the user agent.  Every character
outside printable ASCII, and ``"`` and ``\\``, is written as an escape (``\\xHH``, ``\\"``,
``\\\\``), so a line is always one line.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO
from urllib.parse import quote, quote_plus, unquote_plus

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["REDACTED", "AccessLog", "Sink", "combined_line"]

REDACTED = "[redacted]"
_SECRET_NAME = re.compile(r"token|secret|passw|auth|key|session|signature|credential", re.I)
_UNSAFE = re.compile(r'[^\x20-\x7e]|["\\]')
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MAX_FIELD = 2000
"""Characters of a request line, referrer or user agent kept (the rest: ``…``)."""


def _escape(text: str) -> str:
    if len(text) > _MAX_FIELD:
        text = text[:_MAX_FIELD] + "\u2026"
    if not _UNSAFE.search(text):
        return text

    def one(m: re.Match[str]) -> str:
        ch = m.group()
        if ch in '"\\':
            return "\\" + ch
        code = ord(ch)  # a byte, as the text was decoded from Latin-1
        return f"\\x{code:02x}" if code < 256 else "".join(f"\\x{b:02x}" for b in ch.encode())

    return _UNSAFE.sub(one, text)


def _query(query: str) -> str:
    """A query string with the values of secret-named parameters replaced."""
    parts = []
    for part in query.split("&"):
        name, eq, _value = part.partition("=")
        if eq and _SECRET_NAME.search(unquote_plus(name)):
            part = f"{name}={REDACTED}"
        parts.append(part)
    return "&".join(parts)


def _scrub(text: str, secrets: Iterable[str]) -> str:
    """*text* with each secret replaced, as it is and as a URL would encode it."""
    for secret in secrets:
        for form in sorted({secret, quote(secret, safe=""), quote_plus(secret), quote(secret)},
                           key=len, reverse=True):
            text = text.replace(form, REDACTED)
    return text


def _redact(text: str, secrets: Iterable[str]) -> str:
    """*text* (a target or an address) with secret query values and the secrets replaced."""
    path, q, query = text.partition("?")
    if q:
        text = f"{path}?{_query(query)}"
    return _scrub(text, secrets)


class _Clock:
    """The log's time of the current second, formatted once a second."""

    def __init__(self) -> None:
        self.second = -1
        self.text = ""

    def now(self) -> str:
        second = int(time.time())
        if second != self.second:
            t = time.localtime(second)
            offset = t.tm_gmtoff // 60
            sign = "-" if offset < 0 else "+"
            self.text = (f"{t.tm_mday:02d}/{_MONTHS[t.tm_mon - 1]}/{t.tm_year}:"
                         f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d} "
                         f"{sign}{abs(offset) // 60:02d}{abs(offset) % 60:02d}")
            self.second = second
        return self.text


def combined_line(scope: Scope, when: str, status: int, sent: int,
                  secrets: Iterable[str] = ()) -> str:
    """The combined-format line of a request (*when*: its time, already formatted)."""
    client = scope.get("client")
    host = client[0] if client else "-"
    query = scope.get("query_string", b"")
    target = scope.get("raw_path") or scope.get("path", "").encode("utf-8")
    text = target.decode("latin-1") + ("?" + query.decode("latin-1") if query else "")
    referer = agent = "-"
    for name, value in scope.get("headers", []):
        if name == b"referer":
            referer = _escape(_redact(value.decode("latin-1"), secrets))
        elif name == b"user-agent":
            agent = _escape(_scrub(value.decode("latin-1"), secrets))
    request = (f"{scope.get('method', '-')} {_escape(_redact(text, secrets))} "
               f"HTTP/{scope.get('http_version', '1.1')}")
    return (f'{host} - - [{when}] "{request}" {status} {sent or "-"} "{referer}" "{agent}"')


class AccessLog:
    """ASGI middleware writing each request's :func:`combined_line` to *sink* once it is
    answered (499: the client left before an answer; 500: the answer failed)."""

    def __init__(self, app: ASGIApp, sink: Sink, *, secrets: Iterable[str] = ()) -> None:
        self.app = app
        self.sink = sink
        self.secrets = tuple(s for s in secrets if s)
        self.clock = _Clock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        when = self.clock.now()
        status = 0
        sent = 0

        async def counting(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        failed = True
        try:
            await self.app(scope, receive, counting)
            failed = False
        finally:
            if scope.get("method") == "HEAD":
                sent = 0
            self.sink.write(combined_line(scope, when, status or (500 if failed else 499),
                                          sent, self.secrets))


class Sink:
    """Where the lines go: ``-`` for stderr, else a file appended to, a line at a time (no
    logging machinery: a line costs one write).  A file moved away (by logrotate) is
    noticed within a second and opened again under its name.  OSError when it cannot be
    opened."""

    def __init__(self, target: str) -> None:
        self.path = None if target == "-" else target
        self.stream: TextIO = sys.stderr if self.path is None else self._open()
        self.checked = time.monotonic()

    def _open(self) -> TextIO:
        assert self.path is not None
        return open(self.path, "a", buffering=1, encoding="ascii")  # the lines are ASCII

    def write(self, line: str) -> None:
        if self.path is not None and time.monotonic() - self.checked >= 1.0:
            self._reopen_if_moved()
        with contextlib.suppress(OSError, ValueError):  # a full disk: never the request's fault
            self.stream.write(line + "\n")

    def _reopen_if_moved(self) -> None:
        assert self.path is not None
        self.checked = time.monotonic()
        try:
            moved = os.stat(self.path).st_ino != os.fstat(self.stream.fileno()).st_ino
        except OSError:
            moved = True
        if moved:
            try:
                fresh = self._open()
            except OSError:
                return
            self.stream.close()
            self.stream = fresh

    def close(self) -> None:
        if self.path is not None:
            self.stream.close()
