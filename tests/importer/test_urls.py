"""chess-results references and page URLs (importer.net.urls)."""

from __future__ import annotations

import doctest
from urllib.parse import parse_qs, urlsplit

import pytest

import importer.net.urls
from importer.net.urls import Ref, is_allowed_host, page_url, parse_ref


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1452107", Ref("1452107")),
        ("  1452107\n", Ref("1452107")),
        ("tnr1452107", Ref("1452107")),
        ("Tnr1461122.aspx", Ref("1461122")),
        ("TNR1452107.ASPX", Ref("1452107")),
        ("https://chess-results.com/tnr1452107.aspx?lan=1&art=2&rd=5",
         Ref("1452107", art=2, rd=5)),
        ("https://s2.chess-results.com/tnr1452107.aspx?lan=1&art=5&zeilen=99999&SNode=S0",
         Ref("1452107", art=5, host="s2.chess-results.com")),
        ("s2.chess-results.com/Tnr1452107.aspx", Ref("1452107", host="s2.chess-results.com")),
        ("http://S1.Chess-Results.com/tnr502315.aspx?lan=11&art=0&fed=RUS",
         Ref("502315", art=0, host="s1.chess-results.com")),
        ("https://www.chess-results.com/tnr1452107.aspx", Ref("1452107")),
        ("https://chess-results.com/tnr1452107.aspx?lan=1&art=9&fed=ENG&flag=30&snr=81",
         Ref("1452107", snr=81, art=9)),
        ("https://chess-results.com/tnr1452107.aspx?art=1&snr=81", Ref("1452107", art=1)),
        ("https://chess-results.com/PartieSuche.aspx?lan=1&id=50023&tnr=1452107&art=3",
         Ref("1452107", art=3)),
        ("https://chess-results.com/tnr01452107.aspx", Ref("1452107")),
    ],
)
def test_parse_ref_accepts_chess_results_references(text: str, expected: Ref) -> None:
    assert parse_ref(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tournament.trf",
        "fixtures/sample.xlsx",
        "https://example.com/tnr1452107.aspx",
        "https://chess-results.com.evil.example/tnr1452107.aspx",
        "https://evilchess-results.com/tnr1452107.aspx",
        "https://chess-results.com/",
        "https://chess-results.com/turniersuche.aspx",
        "tnr",
        "ftp://chess-results.com/tnr1.aspx",
        "https://chess-results.com:22/tnr1452107.aspx",
        "http://s2.chess-results.com:8080/tnr1452107.aspx",
        "http://127.0.0.1:22/tnr1452107.aspx",
        "http://169.254.169.254/tnr1452107.aspx",
        "file:///etc/passwd",
        "https://chess-results.com@evil.example/tnr1452107.aspx",
    ],
)
def test_parse_ref_rejects_everything_else(text: str) -> None:
    assert parse_ref(text) is None


def test_parse_ref_on_the_configured_base_url() -> None:
    base = "http://127.0.0.1:8765"
    url = f"{base}/tnr1452107.aspx?art=9&snr=3"
    assert parse_ref(url) is None
    assert parse_ref(url, base_url=base) == Ref("1452107", snr=3, art=9, host="127.0.0.1:8765")
    assert parse_ref("http://127.0.0.1:9999/tnr1.aspx", base_url=base) is None


@pytest.mark.parametrize(
    ("kwargs", "query"),
    [
        ({"art": 0}, "lan=1&art=0&turdet=YES&zeilen=99999"),
        ({"art": 2, "rd": 5}, "lan=1&art=2&rd=5&turdet=YES&zeilen=99999"),
        ({"art": 9, "snr": 81}, "lan=1&art=9&snr=81&turdet=YES&zeilen=99999"),
    ],
)
def test_page_url_always_english_complete_and_detailed(kwargs: dict[str, int], query: str) -> None:
    assert page_url("1452107", **kwargs) == f"https://chess-results.com/tnr1452107.aspx?{query}"


def test_page_url_uses_the_refs_node_or_the_base_url() -> None:
    ref = Ref("1452107", art=5, rd=3, host="s2.chess-results.com")
    assert page_url(ref, art=0).startswith("https://s2.chess-results.com/tnr1452107.aspx?")
    assert page_url(ref, art=0, base_url="http://127.0.0.1:1234/mirror/").startswith(
        "http://127.0.0.1:1234/mirror/tnr1452107.aspx?")
    foreign = Ref("7", host="127.0.0.1:1234")
    assert page_url(foreign, art=0).startswith("https://chess-results.com/tnr7.aspx?")
    assert page_url(1452107, art=4).startswith("https://chess-results.com/tnr1452107.aspx?")


@pytest.mark.parametrize("art", [0, 2, 4, 5, 9, 20])
def test_every_page_url_asks_for_all_rows(art: int) -> None:
    query = parse_qs(urlsplit(page_url("1", art=art)).query)
    assert query["zeilen"] == ["99999"]
    assert query["lan"] == ["1"]
    assert query["turdet"] == ["YES"]


@pytest.mark.parametrize(
    ("url", "base", "allowed"),
    [
        ("https://chess-results.com/tnr1.aspx", None, True),
        ("http://chess-results.com/tnr1.aspx", None, True),
        ("https://s1.chess-results.com/tnr1.aspx", None, True),
        ("https://S12.CHESS-RESULTS.COM/x", None, True),
        ("https://www.chess-results.com/x", None, False),
        ("https://sx.chess-results.com/x", None, False),
        ("https://chess-results.com.evil.example/", None, False),
        ("https://evil.example/chess-results.com", None, False),
        ("https://chess-results.com:22/tnr1.aspx", None, False),
        ("http://s2.chess-results.com:443/tnr1.aspx", None, False),
        ("https://s2.chess-results.com:443/tnr1.aspx", None, True),
        ("http://169.254.169.254/latest/meta-data", None, False),
        ("ftp://chess-results.com/tnr1.aspx", None, False),
        ("http://127.0.0.1:8000/tnr1.aspx", "http://127.0.0.1:8000", True),
        ("http://127.0.0.1:8001/tnr1.aspx", "http://127.0.0.1:8000", False),
        ("https://127.0.0.1:8000/tnr1.aspx", "http://127.0.0.1:8000", False),
        ("https://mirror.example/tnr1.aspx", "https://mirror.example:443/cr", True),
        ("http://127.0.0.1:8000/x", None, False),
        ("not a url", None, False),
    ],
)
def test_is_allowed_host(url: str, base: str | None, allowed: bool) -> None:
    assert is_allowed_host(url, base) is allowed


def test_doctests() -> None:
    assert doctest.testmod(importer.net.urls).failed == 0
