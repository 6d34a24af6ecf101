"""Benchmark: ``fiderate serve`` under load, all on 127.0.0.1.

Starts the server (the default one-second delay between chess-results requests, the access
log on as by default) against the loopback chess-results double and opens each tournament
once.  Then:

1. **Throughput** of answers the server holds: the home page, a cached report (``GET
   /report/999005/``), ``/api/calc`` and ``/api/report?source=999005``, each over CONNECTIONS
   kept-alive connections for SECONDS, by a small asyncio client sending the next request as
   soon as an answer is in; without and with ``Accept-Encoding: gzip``.  The home page and
   the report are also asked of a bare Starlette app serving the same bytes (no middleware,
   no compression) under the same uvicorn settings (:func:`reports.web.server.run`), with
   the same client, in turns with the server (A, B, A, B: the best of each), so the machine's
   phases hit both alike.  Target: ≥ 0.5× the bare app's requests a second.
2. **Load**: REQUESTS requests, CONCURRENCY at a time, alternating an upload of a generated
   100-player, 9-round TRF and a link report (a tournament number typed into the form) that
   the server already holds, each the form's POST and the redirected page, timed end to end;
   then API_UPLOADS ``POST /api/report`` uploads of the TRF, CONCURRENCY / 5 at a time.
   Targets on a 2-core machine: no errors; link reports p95 ≤ 300 ms; uploads p95 ≤ 1.5 s;
   chess-results (the double) asked at most 3 times per tournament for the whole run.

Prints ``key=value`` figures, a line each, then ``targets: met`` or what was missed; exits 1
when a target is missed.  Not part of the default pytest run.

    PYTHONPATH=. python tests/bench/serve_bench.py [--requests 200] [--concurrency 20]
        [--seconds 3] [--connections 8] [--api-uploads 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(HERE), str(HERE.parent / "support")]

from loopback import ChessResults  # noqa: E402
from report_bench import synthetic  # noqa: E402
from serving import LIVE_TNR, TNR, Served, serve_fixtures  # noqa: E402

from importer.formats.trf.writer import write_trf  # noqa: E402

LINKS = (TNR, LIVE_TNR)
LINK_P95_MS = 300
UPLOAD_P95_MS = 1500
MAX_PER_TOURNAMENT = 3
MIN_VS_BARE = 0.5
ROUNDS = 2
"""Turns of (bare app, server) for each page: the best of each is kept."""
PAGES = {"home": "/", "report": f"/report/{TNR}/"}
API = {"api_calc": "/api/calc?rating=1500&opponent=1600&result=win&date=2026-08-01",
       "api_report": f"/api/report?source={TNR}"}


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by a process and every process under it (Linux /proc)."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(used.get(pid, 0.0) for pid in tree)


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))]


# ---------------------------------------------------------------- throughput

class _Client(asyncio.Protocol):
    """One kept-alive connection sending the same GET again as soon as each answer is in."""

    def __init__(self, request: bytes, until: float, done: asyncio.Future[None]) -> None:
        self.request, self.until, self.done = request, until, done
        self.buffer = b""
        self.answers = 0
        self.errors = 0
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport):
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            head = self.buffer[:end].decode("latin-1").lower()
            length = re.search(r"\r\ncontent-length: *(\d+)", head)
            if length is None:
                raise RuntimeError(f"an answer without a length: {head[:200]}")
            size = end + 4 + int(length.group(1))
            if len(self.buffer) < size:
                return
            self.buffer = self.buffer[size:]
            if head.startswith("http/1.1 200"):
                self.answers += 1
            else:
                self.errors += 1
            if time.perf_counter() < self.until:
                self.transport.write(self.request)
            else:
                self.transport.close()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def _hammer(port: int, path: str, connections: int, seconds: float, gzip: bool
                  ) -> tuple[float, int]:
    loop = asyncio.get_running_loop()
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: serve_bench\r\n"
               + ("Accept-Encoding: gzip\r\n" if gzip else "") + "\r\n").encode()
    until = time.perf_counter() + seconds
    clients = []
    for _ in range(connections):
        done = loop.create_future()
        _, client = await loop.create_connection(lambda d=done: _Client(request, until, d),
                                                 "127.0.0.1", port)
        clients.append(client)
    start = time.perf_counter()
    await asyncio.gather(*(c.done for c in clients))
    wall = time.perf_counter() - start
    return sum(c.answers for c in clients) / wall, sum(c.errors for c in clients)


def rate(url: str, path: str, connections: int, seconds: float, *, gzip: bool) -> tuple[float, int]:
    """Answers a second (and answers not 200) for *path*."""
    port = int(url.rsplit(":", 1)[1].strip("/"))
    return asyncio.run(_hammer(port, path, connections, seconds, gzip))


BARE = """
import sys
from pathlib import Path
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from reports.web.server import Settings, listen, run

bodies = {path: Path(file).read_bytes() for path, file in zip(sys.argv[1::2], sys.argv[2::2])}
async def page(request):
    return HTMLResponse(bodies[request.url.path])
app = Starlette(routes=[Route(path, page) for path in bodies])
sock = listen("127.0.0.1", 0)
print(f"serving on http://127.0.0.1:{sock.getsockname()[1]}/", file=sys.stderr, flush=True)
run(app, sock, Settings())
"""


class Bare:
    """A bare Starlette app serving fixed bytes under the server's uvicorn settings."""

    def __init__(self, tmp: Path, bodies: dict[str, bytes]) -> None:
        args = []
        for i, (path, body) in enumerate(bodies.items()):
            file = tmp / f"bare-{i}.html"
            file.write_bytes(body)
            args += [path, str(file)]
        self.proc = subprocess.Popen([sys.executable, "-c", BARE, *args], stderr=subprocess.PIPE,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True)
        line = self.proc.stderr.readline()
        found = re.search(r"serving on (http://\S+/)", line)
        if not found:
            self.proc.kill()
            raise RuntimeError(f"the bare app did not start: {line}")
        self.url = found.group(1)

    def __enter__(self) -> Bare:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def throughput(server: Served, tmp: Path, connections: int, seconds: float
               ) -> tuple[dict[str, float], list[str]]:
    """The throughput figures, and the targets missed."""
    bodies = {path: requests.get(server.url + path[1:], timeout=30).content
              for path in PAGES.values()}
    figures: dict[str, float] = {}
    errors = 0
    with Bare(tmp, bodies) as bare:
        for name, path in PAGES.items():
            for gzip in (False, True):
                suffix = "_gzip" if gzip else ""
                best = {"bare": 0.0, "served": 0.0}
                for _ in range(ROUNDS):
                    for who, url in (("bare", bare.url), ("served", server.url)):
                        if who == "bare" and gzip:
                            continue  # the bare app never compresses: its figure is the same
                        rps, bad = rate(url, path, connections, seconds, gzip=gzip)
                        best[who] = max(best[who], rps)
                        errors += bad
                if not gzip:
                    figures[f"{name}_bare_rps"] = best["bare"]
                    bare_rps = best["bare"]
                figures[f"{name}{suffix}_rps"] = best["served"]
                figures[f"{name}{suffix}_vs_bare"] = best["served"] / bare_rps
    for name, path in API.items():
        for gzip in (False, True):
            rps, bad = rate(server.url, path, connections, seconds, gzip=gzip)
            figures[f"{name}{'_gzip' if gzip else ''}_rps"] = rps
            errors += bad
    figures["throughput_errors"] = errors
    missed = [f"{key} < {MIN_VS_BARE}" for key, value in figures.items()
              if key.endswith("_vs_bare") and value < MIN_VS_BARE]
    if errors:
        missed.append(f"{errors} answers not 200 in the throughput runs")
    return figures, missed


# ---------------------------------------------------------------- load

def load(server: Served, n: int, concurrency: int, api_uploads: int
         ) -> tuple[dict[str, float], list[str]]:
    """The load figures (uploads and links alternating, then API uploads), and the targets
    missed."""
    trf = write_trf(synthetic(100, 9)).encode("utf-8")
    local = threading.local()

    def one(kind: str, i: int) -> tuple[str, float, bool]:
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        start = time.perf_counter()
        try:
            if kind == "link":
                r = session.post(server.url + "report", data={"source": LINKS[i // 2 % 2]},
                                 timeout=60)
                ok = r.status_code == 200 and "<h1>" in r.text
            elif kind == "upload":
                r = session.post(server.url + "report", timeout=60,
                                 files={"files": ("event.trf", trf)})
                ok = r.status_code == 200 and "<h1>" in r.text
            else:
                r = session.post(server.url + "api/report", timeout=60,
                                 files={"files": ("event.trf", trf)})
                ok = r.status_code == 200 and len(r.json()["players"]) == 100
        except (requests.RequestException, ValueError, KeyError):
            ok = False
        return kind, (time.perf_counter() - start) * 1000, ok

    started, cpu = time.perf_counter(), tree_cpu(server.proc.pid)
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda i: one("upload" if i % 2 == 0 else "link", i), range(n)))
    wall = time.perf_counter() - started
    server_cpu = tree_cpu(server.proc.pid) - cpu
    with ThreadPoolExecutor(max(1, concurrency // 5)) as pool:
        api = list(pool.map(lambda i: one("api_upload", i), range(api_uploads)))
    errors = sum(1 for _, _, ok in results + api if not ok)
    figures: dict[str, float] = {}
    for kind in ("upload", "link", "api_upload"):
        values = [ms for k, ms, _ in results + api if k == kind]
        if not values:
            continue
        figures[f"{kind}_n"] = len(values)
        figures[f"{kind}_p50_ms"] = statistics.median(values)
        figures[f"{kind}_p95_ms"] = percentile(values, 95)
        figures[f"{kind}_max_ms"] = max(values)
    everything = [ms for _, ms, _ in results]
    figures.update(requests=len(results), errors=errors,
                   p50_ms=statistics.median(everything), p95_ms=percentile(everything, 95),
                   rps=len(results) / wall, server_cpu_s=server_cpu,
                   server_cpu_ms_per_pair=2 * server_cpu / len(results) * 1000,
                   load_average=os.getloadavg()[0])
    missed = [what for what, bad in (
        ("errors", errors > 0),
        (f"link p95 > {LINK_P95_MS} ms", figures["link_p95_ms"] > LINK_P95_MS),
        (f"upload p95 > {UPLOAD_P95_MS} ms", figures["upload_p95_ms"] > UPLOAD_P95_MS),
    ) if bad]
    return figures, missed


def _show(value: float) -> str:
    return f"{value:.2f}" if isinstance(value, float) and value < 10 else f"{value:.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--api-uploads", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ChessResults() as site:
        serve_fixtures(site)
        with Served(Path(tmp), "--delay", "1", base_url=site.url) as server:
            for tnr in LINKS:  # each tournament opened once: later requests find it cached
                requests.post(server.url + "report", data={"source": tnr}, timeout=60)
            fast, missed = throughput(server, Path(tmp), args.connections, args.seconds)
            slow, missed_load = load(server, args.requests, args.concurrency, args.api_uploads)
        per_tournament = Counter(r.path for r in site.requests)
    most = max(per_tournament.values(), default=0)
    for key, value in {**fast, **slow, "chess_results_most_per_tournament": most}.items():
        print(f"{key}={_show(value)}")
    missed += missed_load
    if most > MAX_PER_TOURNAMENT:
        missed.append(f"more than {MAX_PER_TOURNAMENT} requests for a tournament")
    print("targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
