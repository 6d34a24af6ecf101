"""Benchmark the FIDE list at full size: reading it, and keeping it in the register.

    python tests/bench/fidelist_bench.py [--lines N] [--quick] [--no-xml] [--keep DIR]
                                         [--rounds N]

Writes a realistic combined list (the FOA layout: the real header, 162-character CRLF
lines, varied ids, names, federations, titles, flags; ~60 % unrated on each list), the same
players zipped and as ``players_list_xml_foa.xml``, then measures each step in a fresh
process: the raw baseline (read the bytes and slice the fixed-width columns with numpy)
in turns with a full load and the XML load (raw, TXT, XML, raw, TXT, XML, …: best of
``--rounds`` each, default three, five with ``--quick``), ``to_frame``, a load
filtered to 500 ids, the zipped load (best of two: the machine's load drifts), storing the
list in a register and looking 500 players up there.
Ends with one line: ``lines=… load_s=… raw_s=… ratio=… to_frame_s=… filtered_s=… store_s=…
lookup_ms=… peak_rss_mb=… zip_s=… xml_s=… xml_ratio=… raw_cpu_s=… load_cpu_s=… cpu_ratio=…
xml_cpu_s=… xml_cpu_ratio=…`` (peak RSS: the full load's process; ``*_cpu_*``: the same
loads in CPU seconds, which a busy machine does not inflate).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
FIELDS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
          "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
          "blitz_games", "blitz_k", "birthday", "flag")
"""The fields in the TXT header's order, by their XML element names."""
LAST = ["Carlsen", "Ding", "Nakamura", "Aagaard", "Ojok", "Andreikin", "Kumar", "Singh",
        "Muller", "Garcia", "Ivanov", "Nguyen", "Smith", "Rossi", "Kowalski", "Horvath",
        "Van der Berg", "O'Brien", "Al-Rashid", "Fernandez Lopez"]
FIRST = ["Magnus", "Liren", "Hikaru", "Christian", "Patrick", "Dmitry", "Anna", "Priya",
         "Lukas", "Maria", "Olga", "Minh", "John", "Giulia", "Piotr", "Zsofia", "A", "Jean-Luc"]
FEDS = ["NOR", "CHN", "USA", "DEN", "UGA", "RUS", "IND", "GER", "ESP", "FRA", "NON", "",
        "ENG", "ITA", "POL", "HUN", "TUR", "IRI", "BRA", "ARG"]
OTHER_TITLES = ["FA", "IA", "FI", "FST", "NI", "FA,FI", "IA,IO", "FI,LSI", "NA,IO"]


def _starts() -> list[tuple[int, int]]:
    """Each field's [start, end) from the header's token positions."""
    import re

    starts = [0, *[m.start() for m in re.finditer(r"\S+", HEADER)][2:]]
    return list(zip(starts, [*starts[1:], len(HEADER)], strict=True))


def _pick(rng: np.random.Generator, n: int, choices: list[str], p: list[float] | None = None
          ) -> np.ndarray:
    return np.array([c.encode() for c in choices], dtype="S")[rng.choice(len(choices), n, p=p)]


def _numbers(rng: np.random.Generator, n: int, low: int, high: int) -> np.ndarray:
    return rng.integers(low, high, n).astype("S6")


def _rated(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Rating, games and K of one list: ~60 % unrated (blank), some games blank too."""
    rated = rng.random(n) >= 0.6
    rating = np.where(rated, _numbers(rng, n, 1400, 2851), b"")
    games = np.where(rated & (rng.random(n) < 0.9), _numbers(rng, n, 0, 31), b"")
    k = np.where(rated, _pick(rng, n, ["10", "20", "40"], [0.2, 0.5, 0.3]), b"")
    return [rating, games, k]


def players(n: int, seed: int = 1) -> dict[str, np.ndarray]:
    """``n`` synthetic players as byte-string columns, by XML element name."""
    rng = np.random.default_rng(seed)
    ids = (rng.choice(99_800_000, n, replace=False) + 100_000).astype("S9")
    woman = rng.random(n) < 0.2
    name = np.strings.add(np.strings.add(_pick(rng, n, LAST), _numbers(rng, n, 0, 1000)),
                          np.strings.add(b", ", _pick(rng, n, FIRST)))
    name = np.where(rng.random(n) < 0.0005, b"", name)  # a few players have no name
    title = np.where(rng.random(n) < 0.08, _pick(rng, n, ["GM", "IM", "FM", "CM"]), b"")
    w_title = np.where(woman & (rng.random(n) < 0.1), _pick(rng, n, ["WGM", "WIM", "WFM", "WCM"]),
                       b"")
    o_title = np.where(rng.random(n) < 0.02, _pick(rng, n, OTHER_TITLES), b"")
    foa = np.where(rng.random(n) < 0.01, _pick(rng, n, ["AGM", "AIM", "AFM", "ACM"]), b"")
    born = np.where(rng.random(n) < 0.95, _numbers(rng, n, 1930, 2021),
                    _pick(rng, n, ["0", ""]))
    inactive = rng.random(n) < 0.3
    flag = np.strings.add(np.where(woman, b"w", b""), np.where(inactive, b"i", b""))
    return dict(zip(FIELDS, [ids, name, _pick(rng, n, FEDS), np.where(woman, b"F", b"M"),
                             title, w_title, o_title, foa, *_rated(rng, n), *_rated(rng, n),
                             *_rated(rng, n), born, flag], strict=True))


def write_txt(path: Path, cols: dict[str, np.ndarray], block: int = 200_000) -> None:
    """The FOA TXT layout: header, then 162-character lines, CRLF."""
    n = len(cols["fideid"])
    spans = _starts()
    with path.open("wb") as out:
        out.write(HEADER.encode() + b"\r\n")
        for a in range(0, n, block):
            rows = min(block, n - a)
            m = np.full((rows, len(HEADER) + 2), 32, np.uint8)
            for (start, end), field in zip(spans, FIELDS, strict=True):
                values = cols[field][a:a + rows].astype(f"S{end - start}")
                cells = values.view(np.uint8).reshape(rows, end - start)
                m[:, start:end] = np.where(cells == 0, 32, cells)
            m[:, -2:] = (13, 10)
            out.write(m.tobytes())


def write_xml(path: Path, cols: dict[str, np.ndarray], block: int = 50_000) -> None:
    """The XML layout: ``<playerslist>``, one ``<player>`` of 19 elements per player."""
    n = len(cols["fideid"])
    with path.open("wb") as out:
        out.write(b"<playerslist>\n")
        for a in range(0, n, block):
            record = np.full(min(block, n - a), b"<player>\n", dtype="S9")
            for field in FIELDS:
                value = cols[field][a:a + block]  # apostrophes as they are: text needs no escape
                record = np.strings.add(record, np.strings.add(
                    np.strings.add(f"<{field}>".encode(), value), f"</{field}>\n".encode()))
            out.write(b"".join(np.strings.add(record, b"</player>\n").tolist()))
        out.write(b"</playerslist>\n")


def _measure(what: str, path: str, ids_file: str, store: str) -> dict[str, float]:
    """One measurement, in this (fresh) process."""
    import resource

    from importer.formats.fidelist import read_fide_list

    ids = Path(ids_file).read_text().split()
    start, cpu_start = time.perf_counter(), time.process_time()
    if what == "raw":
        data = Path(path).read_bytes()
        body = data.index(b"\n") + 1
        n = (len(data) - body) // (len(HEADER) + 2)
        m = np.frombuffer(data, np.uint8, count=n * (len(HEADER) + 2), offset=body)
        m = m.reshape(n, len(HEADER) + 2)
        columns = [np.array(m[:, a:b], order="C") for a, b in _starts()]
        assert len(columns) == len(FIELDS)
        return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu_start}
    if what == "filtered":
        subset = read_fide_list(path, fide_ids=ids)
        assert len(subset) == len(ids), len(subset)
        return {"seconds": time.perf_counter() - start}
    full = read_fide_list(path)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    assert not full.warnings, full.warnings[:3]
    assert all(full.get(i) is not None for i in ids)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"seconds": seconds, "cpu": cpu, "peak_rss_mb": peak, "players": len(full)}
    if what == "load":
        import pandas  # noqa: F401 - imported before the clock starts

        start = time.perf_counter()
        frame = full.to_frame()
        out["to_frame_s"] = time.perf_counter() - start
        assert len(frame) == len(full)
    elif what == "store":
        import datetime as dt

        from rating.period.register import Register

        with Register(store) as reg:
            start = time.perf_counter()
            reg.import_list(full, dt.date(2026, 10, 1))
            out["store_s"] = time.perf_counter() - start
        with Register(store) as reg:
            start = time.perf_counter()
            found = reg.list_in_force(dt.date(2026, 11, 1), ids)
            out["lookup_ms"] = (time.perf_counter() - start) * 1000
            assert found is not None and len(found) == len(ids)
    return out


def _child(what: str, path: Path, ids: Path, store: Path) -> dict[str, float]:
    proc = subprocess.run([sys.executable, __file__, "--measure", what, str(path), str(ids),
                           str(store)], capture_output=True, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"{what} failed:\n{proc.stderr}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _best(what: str, path: Path, ids: Path, store: Path, runs: int = 2) -> float:
    return min(_child(what, path, ids, store)["seconds"] for _ in range(runs))


def _files(folder: Path, lines: int, xml: bool) -> tuple[Path, Path, Path | None, Path]:
    """Write (or reuse, in a kept folder) the list, its zip, its XML and 500 of its ids."""
    txt = folder / f"players_list_foa_{lines}.txt"
    packed = folder / f"players_list_{lines}.zip"
    as_xml = folder / f"players_list_xml_foa_{lines}.xml"
    ids = folder / f"ids_{lines}.txt"
    if not (txt.exists() and packed.exists() and ids.exists() and (as_xml.exists() or not xml)):
        start = time.perf_counter()
        cols = players(lines)
        write_txt(txt, cols)
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(txt, "players_list_foa.txt")
        if xml:
            write_xml(as_xml, cols)
        sample = np.random.default_rng(2).choice(lines, min(500, lines), replace=False)
        ids.write_text("\n".join(v.decode() for v in cols["fideid"][sample]))
        print(f"wrote {lines} players ({txt.stat().st_size / 1e6:.0f} MB TXT, "
              f"{packed.stat().st_size / 1e6:.0f} MB zipped"
              + (f", {as_xml.stat().st_size / 1e6:.0f} MB XML" if xml else "")
              + f") in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return txt, packed, as_xml if xml else None, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_930_000)
    parser.add_argument("--quick", action="store_true", help="200,000 lines")
    parser.add_argument("--no-xml", action="store_true", help="skip the XML layout")
    parser.add_argument("--keep", metavar="DIR", help="write the lists here and reuse them")
    parser.add_argument("--rounds", type=int, default=None,
                        help="turns of raw, TXT and XML loads (default 3; 5 with --quick)")
    parser.add_argument("--measure", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(_measure(*args.measure)))
        return
    lines = 200_000 if args.quick else args.lines
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        txt, packed, xml, ids = _files(folder, lines, not args.no_xml)
        store = Path(tmp) / "register.sqlite"
        raws: list[dict[str, float]] = []
        loads: list[dict[str, float]] = []
        xmls: list[dict[str, float]] = []
        for _ in range(args.rounds or (5 if args.quick else 3)):  # in turns: the load drifts
            raws.append(_child("raw", txt, ids, store))
            loads.append(_child("load", txt, ids, store))
            if xml is not None:
                xmls.append(_child("xml", xml, ids, store))
        load = min(loads, key=lambda r: r["seconds"])
        raw = min(r["seconds"] for r in raws)
        figures: dict[str, Any] = {
            "lines": lines, "load_s": load["seconds"], "raw_s": raw,
            "ratio": load["seconds"] / raw, "to_frame_s": min(r["to_frame_s"] for r in loads),
            "filtered_s": _best("filtered", txt, ids, store)}
        stored = _child("store", txt, ids, store)
        figures |= {"store_s": stored["store_s"], "lookup_ms": stored["lookup_ms"],
                    "peak_rss_mb": max(r["peak_rss_mb"] for r in loads),
                    "zip_s": _best("zip", packed, ids, store)}
        if xmls:
            xml_s = min(r["seconds"] for r in xmls)
            figures |= {"xml_s": xml_s, "xml_ratio": xml_s / load["seconds"]}
        # The same in CPU seconds (all threads): a busy machine makes a process wait for a core,
        # which the wall clock counts and CPU time does not; the XML reader uses two threads.
        raw_cpu, load_cpu = min(r["cpu"] for r in raws), min(r["cpu"] for r in loads)
        figures |= {"raw_cpu_s": raw_cpu, "load_cpu_s": load_cpu, "cpu_ratio": load_cpu / raw_cpu}
        if xmls:
            xml_cpu = min(r["cpu"] for r in xmls)
            figures |= {"xml_cpu_s": xml_cpu, "xml_cpu_ratio": xml_cpu / load_cpu}
        for name, value in figures.items():
            print(f"{name:12} {value:.3f}" if isinstance(value, float) else f"{name:12} {value}",
                  file=sys.stderr)
    print(" ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                   for k, v in figures.items()))


if __name__ == "__main__":
    main()
