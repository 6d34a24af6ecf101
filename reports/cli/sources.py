"""Options shared by every command that reads tournaments, and the one place that loads them.

``@source_options`` adds the network and progress flags with the same spelling on
``import``, ``report`` and ``period``; :func:`load_events` turns SOURCE arguments
(files, folders, URLs, tournament numbers) into events, building the polite HTTP session
only when a source needs the network.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from importer import net
from importer.events import load_events as read_events
from importer.net.urls import parse_fide_calc_url, parse_ref
from reports.cli.progress import progress
from reports.errors import ReportError

if TYPE_CHECKING:
    import requests

    from importer.events import Events
    from importer.model import Tournament

__all__ = ["LoadOptions", "load_events", "load_one", "source_options"]

F = TypeVar("F", bound=Callable[..., Any])


def source_options(f: F) -> F:
    """Add --separate, --timeout, --delay, --base-url, --no-cache, --refresh and --quiet to a
    command."""
    decorators = [
        click.option("--separate", multiple=True, metavar="SOURCE",
                     help="Keep this source an event of its own, never counted as the same "
                          "event as another source (repeatable; read even when not among the "
                          "sources)."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary on stderr."),
        click.option("--refresh", is_flag=True, help="Fetch pages again even when cached."),
        click.option("--no-cache", is_flag=True, help="Do not use the on-disk HTTP cache."),
        click.option("--base-url", envvar="FIDERATE_BASE_URL", metavar="URL",
                     help="Fetch chess-results pages from this mirror or test double "
                          "(env FIDERATE_BASE_URL)."),
        click.option("--delay", type=click.FloatRange(min=0), default=1.0, show_default=True,
                     help="Minimum seconds between requests to chess-results."),
        click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                     help="Read timeout in seconds for each request."),
    ]
    for decorate in decorators:
        f = decorate(f)
    return f


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadOptions:
    """The values of :func:`source_options`."""

    timeout: float = 10.0
    delay: float = 1.0
    base_url: str | None = None
    no_cache: bool = False
    refresh: bool = False
    quiet: bool = False
    separate: tuple[str, ...] = ()

    @classmethod
    def pop_from(cls, opts: dict[str, Any]) -> LoadOptions:
        """Take this class's fields out of a click options dict."""
        return cls(**{name: opts.pop(name) for name in cls.__dataclass_fields__})


def _needs_network(source: str, base_url: str | None) -> bool:
    return not os.path.exists(source) and (parse_ref(source, base_url=base_url) is not None
                                           or parse_fide_calc_url(source) is not None)


def make_session(opts: LoadOptions) -> requests.Session:
    """The polite session for these options."""
    return net.make_session(timeout=opts.timeout, delay=opts.delay, cache=not opts.no_cache,
                 refresh=opts.refresh, base_url=opts.base_url)


def load_events(sources: Sequence[str], opts: LoadOptions) -> Events:
    """SOURCE arguments → the events they show, each once (:func:`importer.events.load_events`:
    pages of one tournament merge, snapshots keep the newer)."""

    session = (make_session(opts) if any(_needs_network(s, opts.base_url)
                                         for s in (*sources, *opts.separate)) else None)
    with progress("reading", quiet=opts.quiet) as bar:
        return read_events(sources, session=session, base_url=opts.base_url, progress=bar,
                           separate=opts.separate)


def load_one(sources: Sequence[str], opts: LoadOptions) -> Tournament:
    """SOURCE arguments of one tournament (``report``) → it, with the events' notes as
    warnings; ReportError when they show several tournaments."""
    found = load_events(sources, opts)
    if len(found) != 1:
        names = "; ".join(e.tournament.info.name or e.label for e in found.events[:3])
        raise ReportError(f"the sources show {len(found)} different tournaments ({names}): a "
                          "report is of one tournament (a month of several is a rating period)")
    return found.events[0].tournament.with_warnings(found.notes)
