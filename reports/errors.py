"""The reports package's error, the errors shown as bad input, and the line the command line
prints for everything else (a bug in fiderate, never the input's fault)."""

from __future__ import annotations

from importer.errors import ImporterError
from rating.errors import RatingError

__all__ = ["USER_FACING", "ReportError", "internal_error_line"]

_MAX_MESSAGE = 300
"""An internal error's message is cut to this many characters (the line stays readable)."""


class ReportError(Exception):
    """A report could not be produced (bad option combination, unknown player, …)."""


USER_FACING: tuple[type[BaseException], ...] = (ImporterError, RatingError, ReportError, OSError)
"""Exception types that mean bad input, not a bug: shown as one line (the command line: exit
code 2; the server: a page or answer in words)."""


def internal_error_line(exc: BaseException) -> str:
    """The one line shown for an unexpected exception: its type and message, on one line,
    and what to do about it.  It names no input file: the input is not known to be at fault."""
    message = " ".join(str(exc).split())
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return (f"fiderate: internal error: {what} "
            "(please report; run with --debug for the traceback)")
