"""Fair shares against a running server and the chess-results double: one client's flood of
tournaments that do not exist holds nobody else back, the clients told apart by their
address (or a trusted proxy's X-Forwarded-For, never anyone's), and one client's uploads
forget that client's own reports, not other users'."""

from __future__ import annotations

import importlib.util
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from loopback import ChessResults
from requests.adapters import HTTPAdapter
from serving import CR, ROOT, TNR, Served, Trap, serve_fixtures

from reports.web.fair import BURST

pytestmark = pytest.mark.slow  # server processes

NEW_TNR = "999021"
FLOOD = [str(999500 + i) for i in range(30)]


class _From(HTTPAdapter):
    """Connects from one loopback address (127.0.0.2, …): another client of the server."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def client(address: str) -> requests.Session:
    session = requests.Session()
    session.trust_env = False
    session.mount("http://", _From(address))
    return session


def error_line(html: str) -> str:
    (line,) = re.findall(r'<p class="site-error" role="alert">(.*?)</p>', html, re.DOTALL)
    return line


@pytest.fixture(scope="module")
def trap():
    with Trap() as t:
        yield t


@pytest.fixture(scope="module")
def site():
    with ChessResults() as double:
        serve_fixtures(double)
        ranking = (CR / "art1_ranking_published_small.html").read_text(encoding="utf-8")
        crosstable = (CR / "art5_crosstable_published_small.html").read_text(encoding="utf-8")
        double.page(NEW_TNR, art=0, body=ranking)
        double.page(NEW_TNR, art=5, body=crosstable)
        yield double


def _asked(site: ChessResults, tnrs: list[str]) -> list[float]:
    paths = {f"/tnr{t}.aspx" for t in tnrs}
    return [r.at for r in site.requests if r.path in paths]


def test_a_flood_of_missing_tournaments_holds_no_other_client_back(tmp_path, site, trap):
    """30 requests at once for tournaments that do not exist, from one client, with the
    default second between requests to chess-results: another client's report answers at
    once and its new tournament (two pages) in a few seconds; the flood gets a few answers
    and 429 for the rest, and asking again costs chess-results nothing."""
    flooder, other = "127.0.0.2", "127.0.0.3"
    with Served(tmp_path, "--delay", "1", base_url=site.url) as server, \
            ThreadPoolExecutor(len(FLOOD)) as pool:
        kept = client(other).post(server.url + "report", data={"source": TNR}, timeout=30)
        assert kept.status_code == 200
        flood = [pool.submit(lambda n=n: client(flooder).post(
            server.url + "report", data={"source": n}, timeout=60)) for n in FLOOD]
        start = time.monotonic()
        while not _asked(site, FLOOD) and time.monotonic() - start < 10:
            time.sleep(0.01)
        assert _asked(site, FLOOD)  # the flood has reached chess-results
        start = time.monotonic()
        again = client(other).get(kept.url, timeout=30)
        cached_s = time.monotonic() - start
        start = time.monotonic()
        new = client(other).post(server.url + "report", data={"source": NEW_TNR}, timeout=30)
        new_s = time.monotonic() - start
        answers = [f.result() for f in flood]
        assert again.status_code == 200 and again.text == kept.text
        assert cached_s < 1.0, cached_s
        assert new.status_code == 200 and new.url == f"{server.url}report/{NEW_TNR}/"
        assert new_s < 5.0, new_s
        assert len(_asked(site, [NEW_TNR])) == 2
        assert Counter(a.status_code for a in answers) == {404: BURST, 429: len(FLOOD) - BURST}
        assert len(_asked(site, FLOOD)) == BURST  # the refused never reached chess-results
        refused = next(a for a in answers if a.status_code == 429)
        wait = int(refused.headers["retry-after"])
        assert 1 <= wait <= 60
        assert re.fullmatch(r"too many new tournaments asked for from your address: try again "
                            r"in \d+ seconds \(reports already made open at once\)",
                            error_line(refused.text))
        missing = [n for n, a in zip(FLOOD, answers, strict=True) if a.status_code == 404]
        for who in (flooder, "127.0.0.4"):  # remembered for everyone: nothing is asked again
            for n in missing:
                r = client(who).post(server.url + "report", data={"source": n}, timeout=10)
                assert r.status_code == 404 and "no such tournament" in error_line(r.text)
                r = client(who).get(f"{server.url}report/{n}-k30/", timeout=10)
                assert r.status_code == 404
        assert len(_asked(site, FLOOD)) == BURST
        assert "internal error" not in server.log() and "Traceback" not in server.log()
    assert trap.connections == 0


def test_behind_a_trusted_proxy_its_forwarded_for_tells_clients_apart(tmp_path, site):
    numbers = iter(str(999700 + i) for i in range(100))
    with Served(tmp_path, "--trusted-proxy", "127.0.0.1", base_url=site.url) as server:
        proxy = client("127.0.0.1")

        def ask(session: requests.Session, forwarded: str | None) -> int:
            headers = {"X-Forwarded-For": forwarded} if forwarded else {}
            return session.post(server.url + "report", data={"source": next(numbers)},
                                headers=headers, timeout=30).status_code

        assert [ask(proxy, "203.0.113.5") for _ in range(BURST + 2)] == [404] * BURST + [429] * 2
        api = proxy.get(server.url + "api/report", params={"source": "999799"},
                        headers={"X-Forwarded-For": "203.0.113.5"}, timeout=30)
        assert api.status_code == 429 and 1 <= int(api.headers["retry-after"]) <= 60
        assert api.json()["error"].startswith("too many new tournaments asked for")
        assert ask(proxy, "198.51.100.9") == 404  # another user behind the same proxy
        assert ask(proxy, "6.6.6.6, 198.51.100.10") == 404  # what the proxy saw counts
        assert ask(proxy, "6.6.6.6, 203.0.113.5") == 429  # not what the client wrote before it
        # a client not through the proxy is its own address, whatever it writes
        direct = client("127.0.0.2")
        assert [ask(direct, f"192.0.2.{i}") for i in range(BURST + 1)] == [404] * BURST + [429]


def _synthetic_trf(players: int) -> bytes:
    spec = importlib.util.spec_from_file_location("report_bench",
                                                  ROOT / "tests" / "bench" / "report_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from importer.formats.trf.writer import write_trf

    return write_trf(bench.synthetic(players, 9)).encode("utf-8")


def _weight(trf: bytes, tmp_path, monkeypatch) -> int:
    """What the server counts for a report of *trf* (uploaded as t.trf) as it crosses from
    the job."""
    import pickle

    import importer
    from reports.report import report_for
    from reports.settings import ReportSettings
    from reports.web.kept import Kept

    (tmp_path / "t.trf").write_bytes(trf)
    monkeypatch.chdir(tmp_path)  # the job reads an upload by its name, from its folder
    options = ReportSettings()
    kept = Kept(report_for(importer.load("t.trf"), options), options, link=False)
    kept.page(kept.landing())
    return pickle.loads(pickle.dumps(kept)).weight()


def test_one_client_s_uploads_forget_its_own_reports_not_other_users(tmp_path, site,
                                                                    monkeypatch):
    """A server keeping 4 MB (3 for reports, a third of that a client): one client uploading
    report after report forgets its own oldest; another's upload and a link report stay."""
    trf = _synthetic_trf(100)
    (tmp_path / "weigh").mkdir()
    share = 4 * 1024 * 1024 * 3 // 4 // 3
    fits = share // _weight(trf, tmp_path / "weigh", monkeypatch)
    assert 2 <= fits <= 6

    def upload(session: requests.Session) -> str:
        r = session.post(server.url + "report", files={"files": ("t.trf", trf)}, timeout=60)
        assert r.status_code == 200, r.text
        return r.url

    with Served(tmp_path, "--memory", "4", base_url=site.url) as server:
        mine = upload(client("127.0.0.2"))
        link = client("127.0.0.4").post(server.url + "report", data={"source": TNR}, timeout=30)
        assert link.status_code == 200
        flooder = client("127.0.0.3")
        theirs = [upload(flooder) for _ in range(fits + 3)]
        asked = len(site.requests)
        kept = [requests.get(url, timeout=30).status_code for url in theirs]
        assert kept == [404] * 3 + [200] * fits  # the flooder's own oldest went
        assert requests.get(mine, timeout=30).status_code == 200  # the other user's stays
        again = requests.get(link.url, timeout=30)
        assert again.status_code == 200 and again.text == link.text
        assert len(site.requests) == asked  # the link report was still kept, not made again
        gone = requests.get(theirs[0], timeout=30)
        assert error_line(gone.text).startswith("this report has expired (one of uploaded files "
                                                "is kept for an hour")
