"""Every error as the one line a user sees and the HTTP status it answers with.

Bad input (the library's own errors, a refused form) is a 4xx with the message the command
line prints; a problem reaching chess-results is 502; anything else is a bug in fiderate: 500,
one line, and the traceback only in the server's log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from importer.errors import FetchError, NoSuchTournament, RefusedFetch
from reports.errors import USER_FACING

__all__ = ["Problem", "error_code", "for_people", "problem", "refuse_unknown", "retry_headers"]

_MAX_MESSAGE = 300
_ASIDE = re.compile(r" \((?:--[a-z][a-z0-9-]*)\)")
"""An option named aside, after what it does: '… move its rating here (--rerate)'."""


class Problem(Exception):
    """A request the server refuses, with its HTTP status and one line for the user."""

    def __init__(self, message: str, status: int = 400, *, retry_after: int | None = None
                 ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        """Seconds to wait before asking again (429), sent as ``Retry-After``."""


def refuse_unknown(names: Iterable[str], known: Iterable[str]) -> None:
    """A Problem naming the first of *names* that is not *known* (a misspelt parameter)."""
    extra = sorted(set(names) - set(known))
    if extra:
        raise Problem(f"unknown parameter {extra[0]!r}: use {', '.join(known)}")


def retry_headers(exc: BaseException) -> dict[str, str]:
    """The ``Retry-After`` header a refusal carries, if any."""
    after = exc.retry_after if isinstance(exc, Problem) else None
    return {"retry-after": str(after)} if after is not None else {}


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _MAX_MESSAGE else line[: _MAX_MESSAGE - 1] + "…"


def problem(exc: BaseException) -> tuple[int, str]:
    """(HTTP status, one-line message) for an exception raised while answering a request."""

    if isinstance(exc, Problem):
        return exc.status, _one_line(str(exc))
    if isinstance(exc, NoSuchTournament):
        return 404, _one_line(str(exc))
    if isinstance(exc, FetchError):
        return 502, _unread(exc)
    if isinstance(exc, USER_FACING):
        return 400, _one_line(for_people(str(exc)))
    if isinstance(exc, MemoryError):
        return 422, "reading this needs more memory than this server allows"
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return 500, _one_line(f"internal error in fiderate ({what}); please report it")


_AGAIN = "try again in a while, or save the page in your browser and upload it"


def _unread(exc: FetchError) -> str:
    """A page chess-results did not give, in words: no error numbers, no addresses (a page
    fiderate refused says why in its own words)."""
    if isinstance(exc, RefusedFetch):
        return _one_line(exc.message)
    if exc.status is None:
        return f"chess-results.com could not be reached: {_AGAIN}"
    return f"chess-results.com did not give the page (it answered {exc.status}): {_AGAIN}"


_CODES = {400: "bad-input", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
          408: "too-slow", 409: "conflict", 411: "length-required", 413: "too-large",
          415: "unsupported-type", 422: "too-much-to-read", 429: "busy",
          502: "chess-results-failed", 503: "unavailable", 504: "chess-results-too-slow"}
"""The machine code of the API's error for each status (the words say the rest)."""


def error_code(status: int) -> str:
    """The API's machine code for an error of HTTP *status*: 'not-found', 'busy', …"""
    return _CODES.get(status, "refused" if status < 500 else "server-error")


def for_people(message: str) -> str:
    """A message of the library in the words of the web: an option the command line names
    aside ('move its rating here (--rerate)') is left out, a page cannot take it."""
    return _ASIDE.sub("", message)
