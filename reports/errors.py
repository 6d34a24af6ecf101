"""The reports package's errors, the set of errors the CLI shows as bad input, and the line
it prints for everything else (a bug in fiderate, never the input's fault)."""

from __future__ import annotations

__all__ = ["ReportError", "internal_error_line", "user_facing_errors"]

_MAX_MESSAGE = 300
"""An internal error's message is cut to this many characters (the line stays readable)."""


class ReportError(Exception):
    """A report could not be produced (bad option combination, unknown player, …)."""


def user_facing_errors() -> tuple[type[BaseException], ...]:
    """Exception types that mean bad input, not a bug: shown as one line, exit code 2."""
    # the importer and rating packages: only once an error is raised (main() imports this
    # module before every command, fiderate --help included)
    from importer.errors import ImporterError
    from rating.errors import RatingError

    return (ImporterError, RatingError, ReportError, OSError)


def internal_error_line(exc: BaseException) -> str:
    """The one line shown for an unexpected exception: its type and message, on one line,
    and what to do about it.  It names no input file: the input is not known to be at fault."""
    message = " ".join(str(exc).split())
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return (f"fiderate: internal error: {what} "
            "(please report; run with --debug for the traceback)")
