"""Words for people: no page or answer of the served app, and no file of a report folder the
command line writes, names a command-line option (``--k``), shows Python's ``None`` as a
value or a local absolute path (the server's folders, the test's, the input's).

One server and one report folder for the whole module; every page kind is fetched once.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import requests
from loopback import ChessResults
from serving import LIVE_TNR, ROOT, TNR, Served, Trap, serve_fixtures
from test_serve_period import post_period

from reports.web.uploads import MAX_FILES

pytestmark = pytest.mark.slow  # a server process

TRF = ROOT / "fixtures" / "sample_open.trf"
XLSX = ROOT / "fixtures" / "excel" / "ranking_crosstable_complete_ties.xlsx"
NORM = ROOT / "fixtures" / "norms" / "pennine_im_norm.trf"
"""A round robin where one player makes an IM norm: norms.csv rows and a certificate page."""
OPTION = re.compile(r"(?<![\w-])--[a-z][\w-]*")
NONE = re.compile(r"(?<![\w-])None(?![\w-])")
LOCAL = ("/home/", "/tmp/", "/work/", "/root/", "/var/", "/usr/", "C:\\")


def faults(text: str, *local: Path) -> list[str]:
    """What a page or answer shows that people should not read."""
    found = [m.group() for m in OPTION.finditer(text)] + [m.group() for m in NONE.finditer(text)]
    found += [p for p in (*LOCAL, *map(str, local)) if p in text]
    return found


def test_the_check_can_fail(tmp_path):
    assert faults("give --opponent-k") == ["--opponent-k"]
    assert faults('{"k": None}') == ["None"]
    assert faults(f"{tmp_path}/x.trf: bad", tmp_path) != []
    assert faults("K 20 assumed — a draw; a-b--c; Nonesuch; 2024-12-01") == []


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Trap() as trap, ChessResults() as site:
        serve_fixtures(site)
        with Served(tmp_path_factory.mktemp("words"), base_url=site.url) as s:
            yield s
        assert trap.connections == 0


def _get(server: Served, path: str, **params: object) -> requests.Response:
    return requests.get(server.url + path, params=params, timeout=60)  # type: ignore[arg-type]


def _uploaded(server: Served, path: str, *files: Path) -> requests.Response:
    return requests.post(server.url + path, files=[("files", (f.name, f.read_bytes()))
                                                   for f in files], timeout=60)


@pytest.fixture(scope="module")
def answers(server) -> dict[str, requests.Response]:
    """One answer of every kind the server gives, by what it is."""
    got: dict[str, requests.Response] = {}
    one = {"rating": "1500", "opponent": "1600", "result": "win", "date": "2026-08-01"}
    got["home"] = _get(server, "")
    got["calculator"] = _get(server, "calc")
    got["calculator, one game"] = _get(server, "calc", **one)
    got["calculator, games"] = _get(server, "calc", rating="2450", games="1900 1\nunrated ½")
    got["calculator, elo"] = _get(server, "calc", **one, system="elo")
    for kind, params in {
        "missing": {"opponent": "1600"}, "conflict": {**one, "k": "20", "category": "new"},
        "bad value": {**one, "k": "0"}, "bad game": {"rating": "1500", "games": "1900"},
        "bad date": {**one, "date": "2026-13-01"}, "missing result": {"rating": "1",
                                                                      "opponent": "x"},
    }.items():
        got[f"calculator error, {kind}"] = _get(server, "calc", **params)
    api = {"one game": one, "games": [("rating", "1850"), ("game", "1900:1"),
                                      ("game", "unrated:0.5")],
           "table": {"table": "yes", "rating": "1500"}, "missing": {"rating": "1500"},
           "conflict": {**one, "elo_cap": "400"}, "bad": {**one, "result": "maybe"},
           "unknown": {**one, "colour": "white"}, "flag": {"table": "maybe"}}
    for kind, params in api.items():
        got[f"api calc, {kind}"] = requests.get(server.url + "api/calc", params=params,
                                                timeout=10)
    got["openapi"] = _get(server, "api/openapi.json")
    got["health"] = _get(server, "healthz")
    report = requests.post(server.url + "report", data={"source": TNR}, timeout=60)
    got["link report"] = report
    got["link player page"] = _get(server, report.url.split("/", 3)[3] + "player-1.html")
    got["link report search"] = _get(server, report.url.split("/", 3)[3], q="Zzyzx Nobody")
    got["live report"] = requests.post(server.url + "report", data={"source": LIVE_TNR},
                                       timeout=60)
    got["report, no such player"] = requests.post(server.url + "report", data={
        "source": TNR, "player": "999"}, timeout=60)
    got["report, nothing given"] = requests.post(server.url + "report", data={}, timeout=10)
    got["report, bad k"] = requests.post(server.url + "report", data={"source": TNR, "k": "0"},
                                         timeout=10)
    uploaded = _uploaded(server, "report", TRF)
    got["uploaded report"] = uploaded
    base = uploaded.url.split("/", 3)[3]
    got["uploaded player page"] = _get(server, base + "player-2.html")
    for name in ("rating_players.csv", "rating_rounds.csv", "rating_tournament.csv"):
        got[f"uploaded {name}"] = _get(server, base + name)
    got["uploaded excel report"] = _uploaded(server, "report", XLSX)
    norm = _uploaded(server, "report", NORM)
    norm_base = norm.url.split("/", 3)[3]
    for name in ("player-1.html", "norm-1-im.html", "norms.csv"):
        got[f"uploaded norm report {name}"] = _get(server, norm_base + name)
        assert got[f"uploaded norm report {name}"].status_code == 200, name
    got["api report, link"] = _get(server, "api/report", source=TNR)
    got["api report, upload"] = _uploaded(server, "api/report", XLSX)
    got["api report, none"] = _get(server, "api/report")
    got["api report, unknown field"] = _get(server, "api/report", source=TNR, colour="x")
    got["unknown report key"] = _get(server, "report/nonsense/")
    got["unsigned report key"] = _get(server, "report/u" + "A" * 24 + "/")
    got["no such page of a report"] = _get(server, base + "player-999.html")
    got["404"] = _get(server, "no/such/page")
    got["405"] = requests.delete(server.url + "calc", timeout=10)
    got["api 404"] = _get(server, "api/nothing")
    got["api 405"] = requests.post(server.url + "api/calc", timeout=10)
    got["413"] = requests.post(server.url + "report", files=[
        ("files", (f"f{i}.trf", b"012 x\n")) for i in range(MAX_FILES + 1)], timeout=60)
    got["413 api"] = requests.post(server.url + "api/report", files=[
        ("files", (f"f{i}.trf", b"012 x\n")) for i in range(MAX_FILES + 1)], timeout=60)
    got["period form"] = _get(server, "period")
    period = post_period(server)
    got["period page"] = period
    pbase = period.url.split("/", 3)[3]
    for name in re.findall(r'href="([^"#?]+\.(?:html|csv))"', period.text)[:6]:
        if not name.startswith(("/", "http")):
            got[f"period {name}"] = _get(server, pbase + name)
    got["period, nothing"] = requests.post(server.url + "period", data={"period": "2025-12"},
                                           timeout=10)
    got["period, bad month"] = requests.post(server.url + "period", data={"period": "x"},
                                             timeout=10)
    got["unknown period key"] = _get(server, "period/nonsense/")
    got["api period"] = post_period(server, "api/period")
    return got


def test_every_page_and_answer_is_in_words(server, answers):
    assert answers["link report"].status_code == 200
    assert answers["calculator error, conflict"].status_code == 400
    assert answers["413"].status_code == 413 and answers["405"].status_code == 405
    assert len([k for k in answers if k.startswith("period ")]) >= 3
    bad = {what: faults(r.text, server.tmp) for what, r in answers.items()
           if faults(r.text, server.tmp)}
    assert bad == {}


def test_uploads_say_how_long_they_are_kept(answers):
    assert "kept here for an hour" in answers["home"].text
    assert "kept here for an hour" in answers["uploaded report"].text
    assert "kept here for an hour" not in answers["link report"].text
    assert "kept here for an hour" in answers["period form"].text


def test_the_api_s_refusals_carry_a_field_and_a_code(answers):
    assert {k: (r.status_code, r.json().get("field"), r.json().get("code"))
            for k, r in answers.items() if k.startswith("api calc, ") and r.status_code != 200
            } == {"api calc, missing": (400, "opponent", "missing"),
                  "api calc, conflict": (400, "elo_cap", "conflict"),
                  "api calc, bad": (400, "result", "bad-value"),
                  "api calc, unknown": (400, "colour", "unknown-field"),
                  "api calc, flag": (400, "table", "bad-value")}


def test_every_api_refusal_carries_its_code(answers):
    """Beside the words, a machine code for programs, by what went wrong."""
    codes = {k: (r.status_code, r.json()["code"]) for k, r in answers.items()
             if k.startswith("api") and not k.startswith("api calc") and r.status_code >= 400}
    assert codes == {"api report, none": (400, "bad-input"),
                     "api report, unknown field": (400, "bad-input"),
                     "api 404": (404, "not-found"), "api 405": (405, "method-not-allowed")}
    assert answers["413 api"].json()["code"] == "too-large"


def _folder_faults(out: Path, *local: Path) -> dict[str, list[str]]:
    files = [p for p in out.rglob("*") if p.suffix in (".html", ".csv", ".json")]
    assert len(files) > 3
    return {p.name: faults(p.read_text(encoding="utf-8"), *local) for p in files
            if faults(p.read_text(encoding="utf-8"), *local)}


def test_a_report_folder_shows_file_names_only(tmp_path, run_cli):
    """The command line's report of files in a folder of the test's: its pages, CSV and JSON
    files name the input by its file name, never by where it lies."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for source in (XLSX, TRF, NORM):
        shutil.copy(source, inputs / source.name)
        out = tmp_path / source.stem
        res = run_cli("report", str(inputs / source.name), "--out", str(out))
        assert res.code == 0, res.stderr
        assert _folder_faults(out, tmp_path) == {}
    page = (tmp_path / XLSX.stem / "index.html").read_text(encoding="utf-8")
    assert f"{XLSX.name}: ranking crosstable" in page  # the warning names the file
    assert list((tmp_path / NORM.stem).glob("norm-*.html"))  # the certificate was crawled too


def test_a_period_folder_shows_file_names_only(tmp_path, run_cli):
    """The same for a month with FIDE's calculations page beside its tournaments."""
    for source in (ROOT / "fixtures" / "fide").iterdir():
        shutil.copy(source, tmp_path / source.name)
    page = tmp_path / "garr_2025-12_standard.html"
    res = run_cli("period", str(tmp_path / "dulles_autumn_open.trf"),
                  str(tmp_path / "northern_open.trf"), str(page), "--period", "2025-12",
                  "--out", str(tmp_path / "out"))
    assert res.code == 0, res.stderr
    assert _folder_faults(tmp_path / "out", tmp_path) == {}
    assert f"FIDE&#39;s calculations ({page.name}) for Garr, Fay" in (
        tmp_path / "out" / "period.html").read_text(encoding="utf-8")
