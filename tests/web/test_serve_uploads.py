"""Uploads against the running server: size limits (413), hostile file names, files told by
content not name, and every temporary file removed."""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

import pytest
import requests
from serving import ROOT, Served

from reports.web.uploads import MAX_FILE_BYTES, MAX_FILES, MAX_REQUEST_BYTES

pytestmark = pytest.mark.slow  # server processes

TRF = ROOT / "fixtures" / "sample_open.trf"
MB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Served(tmp_path_factory.mktemp("uploads")) as s:
        yield s


def error_line(html: str) -> str:
    (line,) = re.findall(r'<p class="site-error" role="alert">(.*?)</p>', html, re.DOTALL)
    return line


def test_a_file_over_10_mb_is_413(server):
    big = b"012TEST" + b"x" * MAX_FILE_BYTES
    r = requests.post(server.url + "report", files={"files": ("big.trf", big)}, timeout=60)
    assert r.status_code == 413
    assert error_line(r.text) == "big.trf is larger than 10 MB, the limit for a file here"
    api = requests.post(server.url + "api/report", files={"files": ("big.trf", big)}, timeout=60)
    assert api.status_code == 413 and "10 MB" in api.json()["error"]
    assert server.uploads_left() == []


def test_a_file_of_10_mb_is_read(server):
    exact = b"x" * MAX_FILE_BYTES
    r = requests.post(server.url + "report", files={"files": ("exact.txt", exact)}, timeout=60)
    assert r.status_code == 400 and error_line(r.text).startswith("exact.txt: not a chess-results")


def test_more_than_20_files_is_413(server):
    files = [("files", (f"f{i}.trf", b"012 x\n")) for i in range(MAX_FILES + 1)]
    r = requests.post(server.url + "report", files=files, timeout=60)
    assert r.status_code == 413 and error_line(r.text) == "more than 20 files, the limit here"
    twenty = requests.post(server.url + "report", files=files[:MAX_FILES], timeout=60)
    assert twenty.status_code == 400  # read, and refused for what the files are
    assert server.uploads_left() == []


def _raw(server: Served, head: str, body_chunks=()) -> str:
    """Send a request by hand; the status line and headers of the answer."""
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(head.encode())
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the end: allowed
        data = b""
        while b"\r\n\r\n" not in data:
            more = sock.recv(65536)
            if not more:
                break
            data += more
    return data.decode("latin-1")


def test_a_request_over_50_mb_is_413_before_it_is_read(server):
    head = (f"POST /report HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_REQUEST_BYTES + 1}\r\n"
            "Content-Type: multipart/form-data; boundary=b\r\n\r\n")
    assert _raw(server, head).startswith("HTTP/1.1 413")


def test_a_streamed_request_over_50_mb_is_413(server):
    boundary = "bnd"
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            f"filename=\"p.trf\"\r\nContent-Type: text/plain\r\n\r\n").encode()
    piece = b"y" * (9 * MB)

    def chunks():
        sent = 0
        while sent <= MAX_REQUEST_BYTES + 10 * MB:  # files of 9 MB each, past 50 MB in all
            data = part + piece + b"\r\n"
            sent += len(data)
            yield f"{len(data):x}\r\n".encode() + data + b"\r\n"
        yield b"0\r\n\r\n"

    head = ("POST /report HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n")
    assert _raw(server, head, chunks()).startswith("HTTP/1.1 413")
    assert server.uploads_left() == []


@pytest.mark.parametrize("name", [
    "../../../../../tmp/fiderate-pwned.trf", "/etc/cron.d/fiderate-pwned", "..", ".",
    "<script>alert(1)</script>.trf", "..\\..\\windows\\fiderate-pwned.trf", "con", "",
    "a" * 1000 + ".trf", "тур нир.trf"])
def test_hostile_file_names_are_only_words(server, name):
    r = requests.post(server.url + "report", files={"files": (name, TRF.read_bytes())},
                      timeout=60)
    if name == "":  # no name: an empty file field, as a browser sends it
        assert r.status_code == 400 and "give a chess-results link" in error_line(r.text)
        return
    assert r.status_code == 200, r.text
    assert "<script>alert" not in r.text
    bad = requests.post(server.url + "report", files={"files": (name, b"no tournament here")},
                        timeout=60)
    line = error_line(bad.text)
    assert bad.status_code == 400 and "<" not in line and "/" not in line.split(":")[0]
    assert not any(p.exists() for p in (ROOT.parent / "fiderate-pwned.trf",
                                        server.tmp.parent / "fiderate-pwned.trf"))
    assert not list(server.tmp.rglob("*pwned*"))
    assert server.uploads_left() == []


def test_content_decides_not_the_name(server):
    r = requests.post(server.url + "report",
                      files={"files": ("results.xlsx", TRF.read_bytes())}, timeout=60)
    assert r.status_code == 200 and "Harbourside Autumn Open 2026" in r.text
    page = (ROOT / "fixtures" / "chess-results" / "art5_crosstable_published_small.html")
    r = requests.post(server.url + "report", files={"files": ("a.trf", page.read_bytes())},
                      timeout=60)
    assert r.status_code == 200 and "Fiderate Published Open 2026" in r.text


def test_a_form_that_is_no_form_is_400(server):
    r = requests.post(server.url + "report", data=b"--x\r\ngarbage", timeout=10,
                      headers={"content-type": "multipart/form-data; boundary=x"})
    assert r.status_code == 400 and "Traceback" not in r.text
    r = requests.post(server.url + "report", data=b"x", timeout=10,
                      headers={"content-type": "multipart/form-data"})
    assert r.status_code == 400 and "no boundary" in error_line(r.text)
    assert server.uploads_left() == []


def test_when_chess_results_cannot_be_reached_the_form_says_so_and_keeps_what_was_typed(
        tmp_path):
    """A link whose pages cannot be fetched (nothing listens at the address): the form comes
    back with the reason in words, and the link and player as the user typed them."""
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/"
    with Served(tmp_path, base_url=dead) as server:
        r = requests.post(server.url + "report", data={"source": "1452107", "player": "Adams"},
                          timeout=60)
    assert r.status_code == 502
    assert "chess-results.com could not be reached" in r.text
    assert "Errno" not in r.text and "zeilen" not in r.text and "lan=" not in r.text
    assert 'value="1452107"' in r.text and 'value="Adams"' in r.text


def test_a_page_pasted_into_the_link_box_is_read_like_a_saved_page(server):
    """The HTML of a saved page pasted where a link goes: read as the page, never echoed as an
    error (newlines stripped, as a one-line box does)."""
    page = (ROOT / "fixtures" / "chess-results" / "art0_startingrank_small.html").read_text(
        encoding="utf-8")
    r = requests.post(server.url + "report", data={"source": page.replace("\n", "")},
                      timeout=60)
    assert r.status_code == 200, r.text[-2000:]
    assert "/report/u" in r.url and "<!DOCTYPE" not in r.text.split("<body", 1)[1][:3000]
