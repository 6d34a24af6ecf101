"""What the job processes run: read the input, rate it, and send back typed records.

The fork server imports this module once, with the library it needs and the report templates
compiled, so every job starts warm.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import importer
from importer.events import load_events
from importer.formats import chessresults, excel, jsonfile, smcsv, trf
from importer.model import RatingList
from importer.net import fetch
from importer.net.fetch import PageRead, TournamentPage
from importer.net.http import FetchedPage
from importer.sources import from_pages
from rating.period.register import Register
from reports.errors import ReportError
from reports.period.month import rate_month
from reports.period.pages import player_rows, render_period_files
from reports.render.html import environment
from reports.report import report_for
from reports.settings import ReportSettings
from reports.web.jobs import PeriodFiles, PeriodRequest
from reports.web.kept import Kept, Want
from reports.web.uploads import Upload

if TYPE_CHECKING:
    from importer.formats.chessresults import Page
    from importer.model import Tournament

__all__ = ["MAX_PLAYERS", "READERS", "SealedPage", "period_files", "read_page", "report_from_files",
           "report_from_pages"]

MAX_PLAYERS = 5000
"""More players than any real tournament has: a larger file is refused."""

READERS = (chessresults, excel, jsonfile, smcsv, trf)
"""Every reader, imported once by the fork server: no job imports one itself."""

for _name in ("index.html", "player.html", "period.html", "period_part.html",
              "period_player.html"):
    environment().get_template(_name)  # compiled once, in the fork server


def _kept(t: Tournament, options: ReportSettings, *, link: bool, want: Want) -> Kept:
    """The report to keep, with what the request asked for already made: its first page
    (``want='page'``) or its JSON (``'json'``)."""
    if len(t.players) > MAX_PLAYERS:
        raise ReportError(f"{len(t.players)} players: more than this server rates at once "
                          f"({MAX_PLAYERS})")
    kept = Kept(report_for(t, options), options, link=link)
    if want == "json":
        kept.json()
    else:
        kept.page(kept.landing())
    return kept


@contextmanager
def _inside(files: Sequence[Upload]) -> Iterator[list[str]]:
    """The files' names, read from within their folder, so that every message and note names
    the files as the user does (the worker's own folder is back afterwards)."""
    home = os.getcwd()
    os.chdir(files[0].path.parent)
    try:
        yield [f.path.name for f in files]
    finally:
        os.chdir(home)


def report_from_files(files: Sequence[Upload], options: ReportSettings, want: Want) -> Kept:
    """The report of uploaded files of one tournament (several: saved pages, merged)."""
    with _inside(files) as names:
        t = importer.load_many(names)
    return _kept(t, options, link=False, want=want)


@dataclass(frozen=True, slots=True)
class SealedPage(TournamentPage):
    """A fetched page read in a job process, its parse pickled: the server holds (and hands
    back to the job that builds the tournament) bytes, never what a page made the reader
    build; the body itself stays behind, read."""

    sealed: bytes = b""

    def parsed(self) -> Page:
        """The parsed page (raises the page's InputError when it could not be read)."""
        if self.sealed:
            page: Page = pickle.loads(self.sealed)
            return page
        return TournamentPage.parsed(self)


def read_page(fetched: FetchedPage, first: bool) -> PageRead:
    """:func:`importer.net.fetch.read_page` in a job process: the plan's facts, and the page
    sealed (:class:`SealedPage`)."""
    seen = fetch.read_page(fetched, first)
    if seen.page is None:
        return seen
    page = seen.page
    sealed = pickle.dumps(page.page, protocol=pickle.HIGHEST_PROTOCOL) if page.page else b""
    held = {f.name: getattr(page, f.name) for f in fields(FetchedPage)}
    return replace(seen, page=SealedPage(**{**held, "text": ""}, error=page.error,
                                         sealed=sealed))


def report_from_pages(pages: Sequence[TournamentPage], source: str, card: int | None,
                      options: ReportSettings, want: Want) -> Kept:
    """The report of the pages fetched for a chess-results link (*card*: the player of a
    player-card link)."""
    return _kept(from_pages(pages, source=source, focus=card), options, link=True, want=want)


def period_files(files: Sequence[Upload], ratings_list: Upload | None, request: PeriodRequest,
                 site: Mapping[str, Any]) -> PeriodFiles:
    """``fiderate period`` for uploaded files: its files by relative path (period_players.csv,
    period_games.csv, period.html, each player's page in period-players/ and each tournament's
    report) and its notes; the register is written only when the request says so."""
    # numpy and the register's sqlite code: loaded in a job process by a period's first job

    store = request.store if request.write or os.path.exists(request.store or "") else None
    store = os.path.abspath(store) if store else None  # read from within the uploads' folder
    with (_inside([*files, *([ratings_list] if ratings_list else [])]) as names,
          Register(store) if store else nullcontext(None) as reg):
        rated = rate_month(load_events(names[:len(files)]), period=request.period,
                           ratings_list=names[-1] if ratings_list is not None else None,
                           register=reg,
                           only_list=RatingList(request.only_list) if request.only_list else None)
        result, fide_list = rated.result, rated.fide_list
        if reg is not None and request.write:
            reg.write_period(result)
    return PeriodFiles(render_period_files(result, ratings_list=fide_list, site=site,
                                           fide_checks=rated.fide_checks, reports=True),
                       result.notes, tuple(player_rows(result)))
