"""The reports package's errors, and the set of errors the CLI shows as one line."""

from __future__ import annotations

__all__ = ["ReportError", "user_facing_errors"]


class ReportError(Exception):
    """A report could not be produced (bad option combination, unknown player, …)."""


def user_facing_errors() -> tuple[type[BaseException], ...]:
    """Exception types that mean bad input, not a bug: shown as one line, exit code 2."""
    from importer.errors import ImporterError
    from rating.errors import RatingError

    return (ImporterError, RatingError, ReportError, OSError)
