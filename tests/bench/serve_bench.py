"""Benchmark: ``fiderate serve`` under load, all on 127.0.0.1.

Starts the server (the default one-second delay between chess-results requests) against the
loopback chess-results double, opens each tournament once, then sends REQUESTS requests,
CONCURRENCY at a time, alternating an upload of a generated 100-player, 9-round TRF and a
link report (a tournament number typed into the form) that the server already holds.  Each
request is the form's POST and the redirected page, timed end to end.

Targets on a 2-core machine: no errors; link reports p95 ≤ 300 ms; uploads p95 ≤ 1.5 s;
chess-results (the double) asked at most 3 times per tournament for the whole run.  Prints
one line per kind, then ``requests=… errors=… p50_ms=… p95_ms=… rps=…`` last; exits 1 when
a target is missed.  Not part of the default pytest run.

    PYTHONPATH=. python tests/bench/serve_bench.py [--requests 200] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from loopback import ChessResults  # noqa: E402
from report_bench import synthetic  # noqa: E402
from serving import LIVE_TNR, TNR, Served, serve_fixtures  # noqa: E402

from importer.trf.writer import write_trf  # noqa: E402

LINKS = (TNR, LIVE_TNR)
LINK_P95_MS = 300
UPLOAD_P95_MS = 1500
MAX_PER_TOURNAMENT = 3


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    trf = write_trf(synthetic(100, 9)).encode("utf-8")
    local = threading.local()

    def one(i: int) -> tuple[str, float, bool]:
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        kind = "upload" if i % 2 == 0 else "link"
        start = time.perf_counter()
        try:
            if kind == "upload":
                r = session.post(server.url + "report", timeout=60,
                                 files={"files": ("event.trf", trf)})
            else:
                r = session.post(server.url + "report", data={"source": LINKS[i // 2 % 2]},
                                 timeout=60)
            ok = r.status_code == 200 and "<h1>" in r.text
        except requests.RequestException:
            ok = False
        return kind, (time.perf_counter() - start) * 1000, ok

    with tempfile.TemporaryDirectory() as tmp, ChessResults() as site:
        serve_fixtures(site)
        with Served(Path(tmp), "--delay", "1", base_url=site.url) as server:
            for tnr in LINKS:  # each tournament opened once: later requests find it cached
                requests.post(server.url + "report", data={"source": tnr}, timeout=60)
            started, cpu = time.perf_counter(), tree_cpu(server.proc.pid)
            with ThreadPoolExecutor(args.concurrency) as pool:
                results = list(pool.map(one, range(args.requests)))
            wall = time.perf_counter() - started
            server_cpu = tree_cpu(server.proc.pid) - cpu
        per_tournament = Counter(r.path for r in site.requests)
    errors = sum(1 for _, _, ok in results if not ok)
    times = {kind: [ms for k, ms, _ in results if k == kind] for kind in ("upload", "link")}
    for kind, values in times.items():
        print(f"{kind}: n={len(values)} p50_ms={statistics.median(values):.0f} "
              f"p95_ms={percentile(values, 95):.0f} max_ms={max(values):.0f}")
    most = max(per_tournament.values(), default=0)
    print(f"chess-results requests per tournament: {dict(per_tournament)} (most {most})")
    missed = [what for what, bad in (
        ("errors", errors > 0),
        (f"link p95 > {LINK_P95_MS} ms", percentile(times["link"], 95) > LINK_P95_MS),
        (f"upload p95 > {UPLOAD_P95_MS} ms", percentile(times["upload"], 95) > UPLOAD_P95_MS),
        (f"more than {MAX_PER_TOURNAMENT} requests for a tournament", most > MAX_PER_TOURNAMENT),
    ) if bad]
    print("targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    print(f"cpu_seconds: server={server_cpu:.1f} (per upload+link pair "
          f"{2 * server_cpu / len(results) * 1000:.0f} ms) load_average={os.getloadavg()[0]:.1f}")
    everything = [ms for _, ms, _ in results]
    print(f"requests={len(results)} errors={errors} p50_ms={statistics.median(everything):.0f} "
          f"p95_ms={percentile(everything, 95):.0f} rps={len(results) / wall:.1f}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
