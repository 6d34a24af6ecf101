"""Several processes asking chess-results together stay as polite as one (reports.web.shared):
one request to a host at a time, ``delay`` apart, and one fetch per tournament at a time — on
one machine through SQLite, across machines through Redis (a ``redis-server`` started on
127.0.0.1; skipped where Debian's package is absent)."""

from __future__ import annotations

import multiprocessing
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from reports.web.shared import LocalShared, RedisShared, SqliteShared, shared_for

pytestmark = pytest.mark.slow  # several processes

DELAY = 0.15


def _ask(where: str, kind: str, n: int, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    shared = shared_for(where)
    for _ in range(n):
        with (shared.turn("chess-results.com", DELAY) if kind == "turn"
              else shared.flight("tnr1452107")):
            start = time.time()
            time.sleep(0.02)
            out.put((start, time.time()))


def intervals(where: str, kind: str, processes: int = 3, each: int = 3) -> list[tuple[float, float]]:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    workers = [ctx.Process(target=_ask, args=(where, kind, each, out)) for _ in range(processes)]
    for w in workers:
        w.start()
    got = sorted(out.get(timeout=60) for _ in range(processes * each))
    for w in workers:
        w.join(timeout=30)
    return got


def assert_one_at_a_time(got: list[tuple[float, float]], gap: float) -> None:
    for (_, end), (start, _) in pairwise(got):
        assert start - end >= gap - 0.01, (start - end, got)


def test_processes_take_turns_through_sqlite(tmp_path: Path) -> None:
    where = str(tmp_path / "http.sqlite")
    assert isinstance(shared_for(where), SqliteShared)
    assert_one_at_a_time(intervals(where, "turn"), DELAY)
    assert_one_at_a_time(intervals(where, "flight"), 0.0)


def test_one_process_takes_turns_too() -> None:
    shared = LocalShared()
    got = []
    for _ in range(3):
        with shared.turn("chess-results.com", DELAY):
            got.append((time.time(), time.time()))
    assert_one_at_a_time(got, DELAY)
    assert isinstance(shared_for(None), LocalShared)


def test_a_flight_held_by_a_dead_process_is_given_up(tmp_path: Path, monkeypatch) -> None:
    import reports.web.shared as shared_module

    monkeypatch.setattr(shared_module, "FLIGHT_LEASE", 0.2)
    shared = SqliteShared(tmp_path / "s.sqlite")
    held = shared.flight("t")
    held.__enter__()  # never left: its holder is gone
    start = time.time()
    with SqliteShared(tmp_path / "s.sqlite").flight("t"):
        assert time.time() - start < 5


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (Debian's package redis-server)")
    pytest.importorskip("redis")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(100):
            try:
                RedisShared(url)
                break
            except Exception:
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_machines_take_turns_through_redis(redis_url: str) -> None:
    assert isinstance(shared_for(redis_url), RedisShared)
    assert_one_at_a_time(intervals(redis_url, "turn"), DELAY)
    assert_one_at_a_time(intervals(redis_url, "flight"), 0.0)


def test_what_one_process_keeps_the_others_find(tmp_path: Path, redis_url: str) -> None:
    for where in (str(tmp_path / "http.sqlite"), redis_url):
        one, other = shared_for(where), shared_for(where)
        assert other.get("k") is None
        one.put("k", b"\x00report", ttl=60)
        assert other.get("k") == b"\x00report"
        one.put("gone", b"x", ttl=0.01)
        time.sleep(0.05)
        assert other.get("gone") is None
    local = LocalShared()
    local.put("k", b"x", ttl=60)
    assert local.get("k") is None  # one process keeps its own in memory
