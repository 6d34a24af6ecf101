"""chess-results.com references: recognise what the user typed, and build the page URLs we fetch.

A reference is a tournament number (``1452107``, ``tnr1452107``) or a chess-results URL, on the
bare domain or a numbered node (``s2.chess-results.com``), with any ``lan``/``art``/``rd``/``snr``.
Page URLs always ask for English (``lan=1``), the whole list (``zeilen=99999``) and the
details block (``turdet=YES``).  Flags are left at the site default: they only add a
cosmetic column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qsl, urlencode, urlsplit

from importer.model import RatingList

__all__ = ["CHESS_RESULTS_HOST", "FIDE_RATINGS_HOST", "FideCalcRef", "Ref", "is_allowed_host",
           "is_downgrade", "page_url", "parse_fide_calc_url", "parse_ref", "read_origin"]

CHESS_RESULTS_HOST = "chess-results.com"
"""The bare domain; it redirects to a numbered node."""

_NODE_HOST = re.compile(r"(?:s\d+\.)?chess-results\.com", re.IGNORECASE)
_TNR_PATH = re.compile(r"/tnr(\d+)\.aspx", re.IGNORECASE)
_TNR_WORD = re.compile(r"tnr(\d+)(?:\.aspx)?", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_REFUSED_CHARS = re.compile(r"[\x00-\x20\x7f\\]")
"""Control characters, spaces and backslashes: parsers disagree about them, so a URL with one
anywhere is refused (``http://127.0.0.1:22\\@chess-results.com/`` names chess-results to the
standard library and connects to 127.0.0.1:22 in urllib3)."""
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]")
"""A host name or IP address as urllib3 normalises it (lower case; IPv6 in brackets)."""


@dataclass(frozen=True, slots=True)
class Ref:
    """A chess-results tournament section, optionally one view of it (``art``/``rd``/``snr``)."""

    tnr: str
    snr: int | None = None
    art: int | None = None
    rd: int | None = None
    host: str = CHESS_RESULTS_HOST


FIDE_RATINGS_HOST = "ratings.fide.com"
"""FIDE's rating site: fetched only for a player's calculations page."""
_FIDE_CALC_DATA = "/a_indv_calculation.php"
_FIDE_CALC_PATHS = frozenset({_FIDE_CALC_DATA, "/a_indv_calculations.php", "/calculations.phtml",
                              "/individual_calculations.phtml"})
"""The calculations page, its data endpoint (also spelt in the plural) and its older name."""
_FIDE_LISTS = (RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ)
"""FIDE's ``t``/``rating`` codes 0, 1, 2."""


@dataclass(frozen=True, slots=True)
class FideCalcRef:
    """One player's calculations on ratings.fide.com: FIDE id, list month and list."""

    fide_id: str
    period: date
    rating_list: RatingList = RatingList.STANDARD

    def _query(self, period: str, list_code: str) -> str:
        month = f"{self.period:%Y-%m-01}"
        code = _FIDE_LISTS.index(self.rating_list)
        return urlencode([("id_number", self.fide_id), (period, month), (list_code, code)])

    def data_url(self) -> str:
        """The data endpoint the page loads (what is fetched).

        >>> FideCalcRef("99200007", date(2025, 12, 1)).data_url()
        'https://ratings.fide.com/a_indv_calculation.php?id_number=99200007&rating_period=2025-12-01&t=0'
        """
        return f"https://{FIDE_RATINGS_HOST}{_FIDE_CALC_DATA}?{self._query('rating_period', 't')}"

    def page_url(self) -> str:
        """The page a player opens (sent as the referrer)."""
        return f"https://{FIDE_RATINGS_HOST}/calculations.phtml?{self._query('period', 'rating')}"


def _is_fide_calc(origin: tuple[str, str, int], url: str) -> bool:
    return (origin == ("https", FIDE_RATINGS_HOST, 443)
            and urlsplit(url).path.lower() in _FIDE_CALC_PATHS)


def parse_fide_calc_url(text: str) -> FideCalcRef | None:
    """The player, month and list of a ratings.fide.com calculations address, else None.

    >>> parse_fide_calc_url("https://ratings.fide.com/a_indv_calculation.php?id_number=2016192"
    ...                     "&rating_period=2025-12-01&t=1")
    FideCalcRef(fide_id='2016192', period=datetime.date(2025, 12, 1), rating_list=<RatingList.RAPID: 'rapid'>)
    >>> parse_fide_calc_url("https://ratings.fide.com/profile/2016192") is None
    True
    """
    url = text.strip()
    url = url if "://" in url else f"https://{url}"
    origin = read_origin(url)
    if origin is None or not _is_fide_calc(origin, url):
        return None
    query = {k.lower(): v.strip() for k, v in parse_qsl(urlsplit(url).query)}
    fide_id = query.get("id_number", query.get("idnumber", ""))
    month = re.fullmatch(r"(\d{4})-(\d{2})(?:-01)?", query.get("rating_period",
                                                              query.get("period", "")))
    code = query.get("t", query.get("rating", "0"))
    if not fide_id.isdigit() or month is None or code not in ("0", "1", "2"):
        return None
    year, mon = int(month.group(1)), int(month.group(2))
    if not 1 <= mon <= 12 or year < 1970:
        return None
    return FideCalcRef(str(int(fide_id)), date(year, mon, 1), _FIDE_LISTS[int(code)])


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().isdigit() else None


def _is_chess_results(host: str) -> bool:
    return _NODE_HOST.fullmatch(host) is not None


def read_origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) that an http(s) URL connects to, or None when it is refused.

    The URL is read by urllib3's ``parse_url``, the parser of the HTTP client that makes the
    connection, and refused unless the standard library's ``urlsplit`` reads the same host and
    port (requests picks its connection pool by that reading).  Also refused: user info
    (``user@``, ``user:password@``), control characters, spaces or backslashes anywhere, and a
    host that is no plain name or IP address.

    >>> read_origin("https://S2.Chess-Results.com/tnr1.aspx")
    ('https', 's2.chess-results.com', 443)
    >>> read_origin("http://[::1]:8000/")
    ('http', '[::1]', 8000)
    >>> [read_origin(u) for u in ("http://127.0.0.1:22\\\\@chess-results.com/",
    ...                           "http://user:pw@chess-results.com/", "file:///etc/passwd")]
    [None, None, None]
    """
    if _REFUSED_CHARS.search(url):
        return None
    # Lazy: urllib3 (~45 ms to import) only when a URL is checked on the way to the network;
    # reading a file never needs it.  (Its LocationParseError is a ValueError.)
    from urllib3.util import parse_url

    try:
        parsed = parse_url(url)
        split = urlsplit(url)
        split_port = split.port
    except ValueError:
        return None
    scheme = (parsed.scheme or "").lower()
    host = (parsed.host or "").lower()
    if (scheme not in _DEFAULT_PORTS or parsed.auth is not None or "@" in split.netloc
            or _HOST.fullmatch(host) is None):
        return None
    default = _DEFAULT_PORTS[scheme]
    port = default if parsed.port is None else parsed.port
    if (split.hostname or "") != host.strip("[]") or (
            default if split_port is None else split_port) != port:
        return None
    return scheme, host, port


def parse_ref(text: str, *, base_url: str | None = None) -> Ref | None:
    """The chess-results reference in ``text``, or None if it is not one.

    Accepts a bare number, ``tnr<N>`` (any case, optional ``.aspx``) and URLs on
    ``chess-results.com``, ``www.``/``sN.chess-results.com`` (on the scheme's own port) or the
    configured ``base_url`` (scheme optional).  ``snr`` is kept only for a player card (``art=9``).

    >>> parse_ref("https://s2.chess-results.com/Tnr1452107.aspx?lan=1&art=9&snr=81")
    Ref(tnr='1452107', snr=81, art=9, rd=None, host='s2.chess-results.com')
    >>> parse_ref("1452107").tnr
    '1452107'
    >>> parse_ref("https://example.com/tnr1.aspx") is None
    True
    """
    text = text.strip()
    if text.isdigit():
        return Ref(tnr=str(int(text)))
    word = _TNR_WORD.fullmatch(text)
    if word:
        return Ref(tnr=word.group(1))
    url = text if "://" in text else f"https://{text}"
    parts = urlsplit(url)
    origin = read_origin(url)
    if origin is None:
        return None
    host = origin[1]
    if host == f"www.{CHESS_RESULTS_HOST}":
        host = CHESS_RESULTS_HOST
    if _is_chess_results(host) and origin[2] == _DEFAULT_PORTS[origin[0]]:
        netloc = host
    elif base_url is not None and origin == read_origin(base_url):
        netloc = parts.netloc.lower()
    else:
        return None
    query = {k.lower(): v for k, v in parse_qsl(parts.query)}
    path = _TNR_PATH.search(parts.path)
    tnr = path.group(1) if path else query.get("tnr", "")
    if not tnr.isdigit():
        return None
    art = _int(query.get("art"))
    return Ref(
        tnr=str(int(tnr)),
        snr=_int(query.get("snr")) if art == 9 else None,
        art=art,
        rd=_int(query.get("rd")),
        host=netloc,
    )


def page_url(
    ref_or_tnr: Ref | str | int,
    *,
    art: int,
    rd: int | None = None,
    snr: int | None = None,
    base_url: str | None = None,
) -> str:
    """The URL of one view of a tournament, on ``base_url`` when given, else on the ref's host.

    >>> page_url("1452107", art=2, rd=5)
    'https://chess-results.com/tnr1452107.aspx?lan=1&art=2&rd=5&turdet=YES&zeilen=99999'
    >>> page_url("7", art=9, snr=81, base_url="http://127.0.0.1:8000/")
    'http://127.0.0.1:8000/tnr7.aspx?lan=1&art=9&snr=81&turdet=YES&zeilen=99999'
    """
    if isinstance(ref_or_tnr, Ref):
        tnr, host = ref_or_tnr.tnr, ref_or_tnr.host
    else:
        tnr, host = str(ref_or_tnr), CHESS_RESULTS_HOST
    if base_url:
        root = base_url.rstrip("/")
    else:
        root = f"https://{host if _is_chess_results(host) else CHESS_RESULTS_HOST}"
    params: list[tuple[str, str | int]] = [("lan", 1), ("art", art)]
    if rd is not None:
        params.append(("rd", rd))
    if snr is not None:
        params.append(("snr", snr))
    params += [("turdet", "YES"), ("zeilen", 99999)]
    return f"{root}/tnr{tnr}.aspx?{urlencode(params)}"


def is_allowed_host(url: str, base_url: str | None) -> bool:
    """True for http(s) URLs on chess-results.com or its ``sN.`` nodes (on the scheme's own
    port), or on ``base_url``'s host:port, as :func:`read_origin` reads them (so a URL with user
    info, a backslash, a control character or a space is never allowed).

    >>> is_allowed_host("https://s3.chess-results.com/tnr1.aspx", None)
    True
    >>> is_allowed_host("https://chess-results.com.evil.example/", None)
    False
    >>> is_allowed_host("http://127.0.0.1:8000/tnr1.aspx", "http://127.0.0.1:8000")
    True
    >>> is_allowed_host("http://127.0.0.1:8000\\\\@chess-results.com/", None)
    False
    """
    origin = read_origin(url)
    if origin is None:
        return False
    if _is_chess_results(origin[1]) and origin[2] == _DEFAULT_PORTS[origin[0]]:
        return True
    if _is_fide_calc(origin, url):
        return True
    return base_url is not None and origin == read_origin(base_url)


def is_downgrade(current: str, target: str) -> bool:
    """True when going from ``current`` to ``target`` leaves https for http (never followed).

    >>> is_downgrade("https://chess-results.com/", "http://s2.chess-results.com/")
    True
    """
    return urlsplit(current).scheme.lower() == "https" and urlsplit(target).scheme.lower() != "https"
