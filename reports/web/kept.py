"""A report the server keeps: its pages rendered one at a time, on demand, by the same
templates and functions as ``fiderate report``; its files and zip exactly the report folder.

The pages get what the server adds around them (links to its other pages, the downloads,
and for a live tournament the line saying so with a button that fetches the new numbers in
place: never a reload that loses the reader's place); the files in
the zip and the CSV downloads are those of ``fiderate report --out``, byte for byte.
"""

from __future__ import annotations

import io
import pickle
import sys
import zipfile
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from importer.writing.atomic import MANIFEST, manifest_text
from reports.render.html import render_pages
from reports.render.json_report import report_json
from reports.render.summary import live_round
from reports.render.view import Report, certified, norm_page_name, player_page_name
from reports.report import render_report, report_for

if TYPE_CHECKING:
    from reports.settings import ReportSettings

__all__ = ["JSON_FACTOR", "RELOAD_SECONDS", "REPORT_FACTOR", "UPLOAD_TTL", "Kept", "Want", "kept_for",
           "site_context"]

Want = Literal["page", "json"]
"""What a request asks of a report first: its first page, or its JSON."""

RELOAD_SECONDS = 5 * 60
"""How long the report of a live tournament is kept before chess-results is fetched again
(at most this often): its refresh button brings new numbers after that."""

UPLOAD_TTL = 60 * 60
"""Seconds a report (or a rating period) of uploaded files is kept."""


def kept_for(seconds: int = UPLOAD_TTL) -> str:
    """A time a report is kept, in words: 'an hour', '2 hours', '30 minutes'."""
    hours, rest = divmod(seconds, 60 * 60)
    if rest == 0:
        return "an hour" if hours == 1 else f"{hours} hours"
    minutes = -(-seconds // 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


_DOWNLOADS = (("report.zip", "Whole report (zip)"), ("rating_players.csv", "Players (CSV)"),
              ("rating_rounds.csv", "Rounds (CSV)"), ("rating_tournament.csv", "Tournament (CSV)"),
              ("scenarios.csv", "Next-round scenarios (CSV)"), ("norms.csv", "Title norms (CSV)"))
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every file in the zip gets this time: the same report gives the same zip."""


def site_context(**given: Any) -> dict[str, Any]:
    """What the server shows around a page (``_site.html``): its links, and any of a live
    line (with its refresh button), a status line (what became of the page's input),
    downloads and an error line."""
    return {"live": "", "status": "", "downloads": [], "error": "", **given}


REPORT_FACTOR = 16
"""Bytes in memory per byte of the pickled tournament, for the tournament and its rated
report made again in the server (measured on generated Swiss events: 100 to 5,000 players,
9 to 14 times; a 5,000-player one is 2.8 MB pickled and 38 MB rated in memory)."""
JSON_FACTOR = 12
"""The same for the report's JSON (10 to 14 times: 29 MB for 5,000 players)."""


class Kept:
    """A report kept in memory under its key.

    Built in a job process with its first page already rendered; what crosses back to the
    server is the tournament (pickled) and the options, rated again only when another page, a
    file or the JSON is asked for (most reports are only ever seen through their first page,
    and a tournament crosses a process boundary far faster than its rating).  All it makes
    after that is kept with it; :meth:`lighten` forgets it again, and :meth:`weight` says
    how many bytes it holds.
    """

    def __init__(self, report: Report, options: ReportSettings, *, link: bool, key: str = ""
                 ) -> None:
        self.key = key
        self.link = link
        """Built from a chess-results link (a live one reloads itself), not from files."""
        self.live = live_round(report.tournament)
        """The round in progress, if any."""
        self.focus = report.focus
        end = report.tournament.info.end_date
        self.finished = self.live is None and end is not None and end < date.today()  # noqa: DTZ011
        self._scenarios = any(pr.scenarios and pr.rating is not None for pr in report.shown)
        self._pickled: bytes | None = None
        """The tournament, pickled (once it has crossed over)."""
        self._options = options
        self._report: Report | None = report
        self._pages: dict[str, str] = {}
        self._files: dict[str, str] | None = None
        self._json: dict[str, Any] | None = None
        self._grew: Callable[[str, Kept], None] | None = None

    def __getstate__(self) -> dict[str, Any]:
        pickled = self._pickled
        if pickled is None:
            pickled = pickle.dumps(self.report.tournament, protocol=pickle.HIGHEST_PROTOCOL)
        return {**self.__dict__, "_report": None, "_pickled": pickled, "_grew": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def watch(self, grew: Callable[[str, Kept], None]) -> None:
        """Call ``grew(key, self)`` whenever this report keeps something more."""
        self._grew = grew

    def _kept_more(self) -> None:
        if self._grew is not None:
            self._grew(self.key, self)

    @property
    def report(self) -> Report:
        """The report (rated again the first time it is needed after crossing over)."""
        report = self._report
        if report is None:
            if self._pickled is None:
                raise RuntimeError("a kept report without its tournament")
            report = self._report = report_for(pickle.loads(self._pickled), self._options)
            self._kept_more()
        return report

    def weight(self) -> int:
        """Bytes this report holds in memory: its texts (pages, files) as they are, the
        pickled tournament, and estimates for the rated report and the JSON."""
        core = len(self._pickled) if self._pickled is not None else 0
        size = sys.getsizeof(self._pickled) if self._pickled is not None else 0
        size += sum(sys.getsizeof(page) for page in list(self._pages.values()))
        files = self._files
        if files is not None:
            size += sum(sys.getsizeof(text) for text in files.values())
        if self._report is not None:
            size += REPORT_FACTOR * core
        if self._json is not None:
            size += JSON_FACTOR * core
        return size

    def lighten(self) -> None:
        """Forget what can be made again from the tournament: the rated report, the files, the
        JSON and every page but the first (nothing, before it has crossed over)."""
        if self._pickled is None:
            return
        first = self._pages.get(self.landing())
        self._report = None
        self._files = self._json = None
        self._pages = {self.landing(): first} if first is not None else {}

    def made(self, name: str) -> str | None:
        """A page or CSV file by name, if it has been made already (None: it has not, or
        there is none); never makes anything."""
        if name.endswith(".csv"):
            files = self._files
            return files.get(name) if files is not None else None
        return self._pages.get(name)

    def landing(self) -> str:
        """The page to open first: the player asked for, else the index."""
        return player_page_name(self.focus) if self.focus is not None else "index.html"

    def page(self, name: str) -> str | None:
        """One HTML page by file name ('index.html', 'player-12.html'); None when there is none."""
        made = self._pages.get(name)
        if made is not None:
            return made
        report = self.report
        names = {"index.html", *(player_page_name(pr.start_no) for pr in report.shown),
                 *map(norm_page_name, certified(report))}
        if name not in names:
            return None
        html = render_pages(report, only={name}, site=self.site(index=name == "index.html"))
        self._pages[name] = html[name]
        self._kept_more()
        return html[name]

    def search(self, query: str) -> str:
        """The index listing the players the player search finds for *query* (not kept: each
        query is its own page)."""
        return render_pages(self.report, only={"index.html"}, site=self.site(index=True),
                            find=query)["index.html"]

    def site(self, *, index: bool) -> dict[str, Any]:
        """What the server adds around a page: the downloads (index only) and, for a live
        tournament from a link, the line saying so and its refresh button."""
        downloads = [{"href": href, "label": label} for href, label in _DOWNLOADS
                     if href != "scenarios.csv" or self._scenarios] if index else []
        if not self.link:
            return site_context(downloads=downloads, status=(
                f"This report of uploaded files is kept here for {kept_for()} (less when the "
                "server is busy): download the zip to keep it.") if index else "")
        if self.live is None:
            return site_context(downloads=downloads)
        return site_context(downloads=downloads,
                            live=f"Round {self.live} is in progress: chess-results is read "
                                 f"again at most every {RELOAD_SECONDS // 60} minutes.")

    def files(self) -> dict[str, str]:
        """Every file of ``fiderate report --out``, as text, by name."""
        files = self._files
        if files is None:
            files = self._files = render_report(self.report)
            self._kept_more()
        return files

    def zip(self) -> bytes:
        """The report folder as a zip: the files and the manifest ``fiderate report --out``
        writes, in a folder named ``report``."""
        made = self.files()
        files = {**made, MANIFEST: manifest_text(list(made))}
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for name in sorted(files):
                info = zipfile.ZipInfo(f"report/{name}", date_time=_ZIP_TIME)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, files[name].encode("utf-8"))
        return buffer.getvalue()

    def json(self) -> dict[str, Any]:
        """The report as the JSON API returns it (without its key)."""
        made = self._json
        if made is None:
            made = self._json = report_json(self.report)
            self._kept_more()
        return made
