"""The importer's exception types: one base, named after what went wrong."""

from __future__ import annotations

__all__ = [
    "FetchError",
    "ImporterError",
    "InputError",
    "NoSuchTournament",
    "OutputError",
    "RefusedFetch",
    "UnknownFormat",
    "one_line",
]


class ImporterError(Exception):
    """Base class for every error the importer raises on purpose."""


class InputError(ImporterError, ValueError):
    """Bad input: names the file (or page) and the line or row, and what was expected."""

    def __init__(self, message: str, *, source: str = "", line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = source
        if line is not None:
            where = f"{source}:{line}" if source else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class OutputError(ImporterError):
    """The output cannot be written where asked (names the folder and why)."""


class UnknownFormat(InputError):
    """The content is none of the formats the importer reads."""


class FetchError(ImporterError):
    """A page could not be fetched (after the retries the session allows).

    The message is one line: control characters of the URL are shown escaped (``\\n``)."""

    def __init__(self, url: str, message: str, *, status: int | None = None) -> None:
        self.url = url
        self.status = status
        self.message = message
        """What went wrong, without the address."""
        super().__init__(f"{one_line(url)}: {message}")


class RefusedFetch(FetchError):
    """A page fiderate would not take, said in words: an address or a redirect it does not
    read, too many redirects, a page too large or too slow to arrive (no fault of the
    network)."""


def one_line(text: str) -> str:
    """``text`` with its control characters (newlines, tabs…) escaped: ``a\\nb``."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class NoSuchTournament(FetchError):
    """chess-results answered that the tournament does not exist (HTTP 404 or its error page)."""
