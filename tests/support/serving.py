"""``fiderate serve`` for tests: a real server process on 127.0.0.1, a chess-results double
(:mod:`loopback`) with the project's own fixture pages, and a trap listener that counts any
connection made to it (nothing may ever connect there).

    with Trap() as trap, ChessResults() as site, Served(tmp, base_url=site.url) as server:
        requests.get(server.url + "healthz")

The server gets private cache, data and temporary folders (so the test can look into them)
and ``--delay 0``, and no environment variable of fiderate's but those given (*env*); its log
goes to a file, read with :meth:`Served.log`.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from loopback import ChessResults

ROOT = Path(__file__).resolve().parents[2]
CR = ROOT / "fixtures" / "chess-results"
TNR = "999005"
LIVE_TNR = "999008"
_LIVE_CELLS = ("  5b1", "  3b1", "  2w0", "  6b-", "  1w0", "  4w+")
"""The round-4 results of tournament 999005's crosstable: blanked, the round is in progress."""


def live_crosstable() -> str:
    """Tournament 999005's crosstable with round 4 paired but not played."""
    text = (CR / "art5_crosstable_published_small.html").read_text(encoding="utf-8")
    for cell in _LIVE_CELLS:
        text = text.replace(f">{cell}<", f">{cell[:-1]}<")
    return text


def serve_fixtures(site: ChessResults) -> None:
    """The double serves 999005 (finished) and 999008 (round 4 in progress); a player-card
    view of 999005 answers with its crosstable, as the double has no card of it."""
    ranking = (CR / "art1_ranking_published_small.html").read_text(encoding="utf-8")
    crosstable = (CR / "art5_crosstable_published_small.html").read_text(encoding="utf-8")
    site.page(TNR, art=0, body=ranking)
    site.page(TNR, art=5, body=crosstable)
    site.page(TNR, art=9, body=crosstable)
    site.page(LIVE_TNR, art=0, body=ranking)
    site.page(LIVE_TNR, art=5, body=live_crosstable())
    site.page(LIVE_TNR, art=2, body=live_crosstable())


class Trap:
    """A listener on 127.0.0.1 that counts the connections made to it."""

    def __init__(self) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.1)
        self.port = self._sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def __enter__(self) -> Trap:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._sock.close()


class Served:
    """A ``fiderate serve`` process on a free port of 127.0.0.1."""

    def __init__(self, tmp: Path, *args: str, base_url: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.tmp = tmp
        self.temp = tmp / "tmp"
        self.data = tmp / "data"
        for folder in (self.temp, self.data, tmp / "cache"):
            folder.mkdir(parents=True, exist_ok=True)
        self.args = ["--port", "0", "--delay", "0", *args]
        if base_url:
            self.args += ["--base-url", base_url]
        self._log = tmp / "server.log"
        self.env = env or {}
        self.url = ""
        self.started_in = 0.0
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Served:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(self.tmp / "cache"),
               "XDG_DATA_HOME": str(self.data), "TMPDIR": str(self.temp),
               "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
        env.pop("FIDERATE_BASE_URL", None)
        env.pop("FIDERATE_WRITE_TOKEN", None)
        env.update(self.env)
        start = time.monotonic()
        with self._log.open("wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "reports", "serve", *self.args],
                                         env=env, stdout=log, stderr=log, cwd=self.tmp)
        while time.monotonic() - start < 15:
            found = re.search(r"serving on (http://\S+/)", self.log())
            if found:
                self.url = found.group(1)
                self.started_in = time.monotonic() - start
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.__exit__()
        raise RuntimeError(f"the server did not start: {self.log()}")

    def log(self) -> str:
        """What the server printed so far."""
        return self._log.read_text(encoding="utf-8", errors="replace")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def uploads_left(self) -> list[Path]:
        """Upload folders still on disk (there must be none once a request is answered)."""
        return sorted(self.temp.glob("fiderate-upload-*"))
