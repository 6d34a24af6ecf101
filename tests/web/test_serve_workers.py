"""``fiderate serve --workers 2``: several processes, one polite server.  Twenty users asking
for one tournament at once, whichever worker answers them, cost chess-results at most the
three pages of one fetch; an upload made by one worker is shown by the other; a worker that
dies is replaced."""

from __future__ import annotations

import os
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from loopback import ChessResults
from serving import ROOT, TNR, Served, serve_fixtures

pytestmark = pytest.mark.slow  # server processes


@pytest.fixture(scope="module")
def site():
    with ChessResults() as double:
        serve_fixtures(double)
        yield double


def fresh() -> requests.Session:
    """A client with a connection of its own (the kernel hands it to either worker)."""
    session = requests.Session()
    session.trust_env = False
    return session


def workers(server: Served) -> set[int]:
    """The process ids of the workers answering (from /healthz's answers)."""
    seen = set()
    for _ in range(40):
        r = fresh().get(server.url + "healthz", timeout=10, headers={"Connection": "close"})
        seen.add(int(r.headers["x-fiderate-worker"]))
    return seen


def test_twenty_users_of_one_tournament_cost_one_fetch(tmp_path, site):
    with Served(tmp_path, "--workers", "2", "--delay", "0.5", base_url=site.url) as server:
        assert len(workers(server)) == 2
        before = len(site.requests)
        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(lambda _: fresh().post(
                server.url + "report", data={"source": TNR}, timeout=60), range(20)))
        assert [a.status_code for a in answers] == [200] * 20
        assert len({a.url for a in answers}) == 1
        asked = [r.path for r in site.requests[before:]]
        assert len(asked) <= 2, asked  # the two pages of one fetch, for everyone (≤ 3)


def test_an_upload_made_by_one_worker_is_shown_by_the_other(tmp_path, site):
    trf = (ROOT / "fixtures" / "sample_open.trf").read_bytes()
    with Served(tmp_path, "--workers", "2", base_url=site.url) as server:
        made = fresh().post(server.url + "report", files={"files": ("t.trf", trf)}, timeout=60)
        assert made.status_code == 200, made.text
        for _ in range(12):  # whichever worker each connection reaches
            again = fresh().get(made.url, timeout=30, headers={"Connection": "close"})
            assert again.status_code == 200 and "Harbourside Autumn Open" in again.text


def test_a_worker_that_dies_is_replaced(tmp_path, site):
    with Served(tmp_path, "--workers", "2", base_url=site.url) as server:
        first = workers(server)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            now = workers(server)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.2)
        assert len(now) == 2 and victim not in now
        assert re.search(r"a worker \(process \d+\) ended; starting another", server.log())


def _peak_mb(pid: int) -> float:
    """A process's peak resident memory (Linux: VmHWM)."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_hostile_upstream_costs_one_line_each_and_the_server_stays_small(tmp_path):
    """chess-results (here a double) answers a gzip bomb, a 1.5 GB body and a body trickled a
    byte at a time: each report ends in one line within the page deadline, the server stays
    far under 500 MB, and the next link report works."""
    from loopback import Reply

    with ChessResults() as hostile:
        serve_fixtures(hostile)
        hostile.page("999101", art=0, body=Reply.gzip_bomb(1 << 30))
        hostile.page("999102", art=0, body=Reply.huge(1_500_000_000))
        hostile.page("999103", art=0, body=Reply.trickle("<html>" + "x" * 200, every=0.2))
        with Served(tmp_path, "--page-deadline", "2", base_url=hostile.url) as server:
            for tnr, words in (("999101", "more than 20 MB"), ("999102", "more than 20 MB"),
                               ("999103", "within 2 s")):
                start = time.monotonic()
                r = fresh().post(server.url + "report", data={"source": tnr}, timeout=60)
                assert r.status_code == 502, r.text
                assert words in r.text and time.monotonic() - start < 10
            assert _peak_mb(server.proc.pid) < 500  # type: ignore[union-attr]
            ok = fresh().post(server.url + "report", data={"source": TNR}, timeout=60)
            assert ok.status_code == 200


def test_sigterm_stops_every_worker(tmp_path, site):
    with Served(tmp_path, "--workers", "2", base_url=site.url) as server:
        pids = workers(server)
        assert server.proc is not None
        start = time.monotonic()
        server.proc.terminate()
        server.proc.wait(timeout=15)
        assert time.monotonic() - start < 6
        for pid in pids:  # none left behind
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
