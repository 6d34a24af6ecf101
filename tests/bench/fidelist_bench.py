"""Benchmark read_fide_list on a synthetic full-size combined (FOA) list.

    python tests/bench/fidelist_bench.py [--lines N] [--quick] [--xml]

Writes a realistic 162-character FOA list (CRLF, the real header, varied ids, names,
ratings and flags; ~60 % unrated), or with ``--xml`` the same players as
``players_list_xml_foa.xml``, to a temp dir; times a load filtered to 500 ids and a full
load, and ends with ``lines=<n> seconds=<float> peak_rss_mb=<float>`` (the full load).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from importer.fidelist import read_fide_list

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
LAST = ["Carlsen", "Ding", "Nakamura", "Aagaard", "Ojok", "Andreikin", "Kumar", "Singh",
        "Muller", "Garcia", "Ivanov", "Nguyen", "Smith", "Rossi", "Kowalski", "Horvath"]
FIRST = ["Magnus", "Liren", "Hikaru", "Christian", "Patrick", "Dmitry", "Anna", "Priya",
         "Lukas", "Maria", "Olga", "Minh", "John", "Giulia", "Piotr", "Zsofia"]
FEDS = ["NOR", "CHN", "USA", "DEN", "UGA", "RUS", "IND", "GER", "ESP", "FRA", "NON", "   "]


XML_TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
            "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
            "blitz_games", "blitz_k", "birthday", "flag")


def _rating(rng: random.Random) -> tuple[str, str, str]:
    if rng.random() < 0.6:
        return "", "", ""
    return str(rng.randint(1400, 2850)), str(rng.randint(0, 30)), str(rng.choice((10, 20, 40)))


def _player(rng: random.Random, fid: int) -> list[str]:
    """The 19 fields of one synthetic player, in the XML order."""
    woman = rng.random() < 0.2
    title = rng.choice(("GM", "IM", "FM", "", "", "", "", "", "", ""))
    flags = ("w" if woman else "") + ("i" if rng.random() < 0.3 else "")
    born = str(rng.randint(1930, 2020)) if rng.random() < 0.95 else "0"
    return [str(fid), f"{rng.choice(LAST)}{rng.randint(0, 999)}, {rng.choice(FIRST)}",
            rng.choice(FEDS).strip(), "F" if woman else "M", title,
            "WGM" if woman and title else "", "", "",
            *_rating(rng), *_rating(rng), *_rating(rng), born, flags]


_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)


def write_list(path: Path, lines: int, *, xml: bool = False, seed: int = 1) -> list[str]:
    """Write a synthetic combined list (FOA TXT or XML) of ``lines`` players; 500 of its ids."""
    rng = random.Random(seed)
    ids = rng.sample(range(100_000, 99_999_999), lines)
    with path.open("w", newline="", encoding="ascii") as out:
        out.write("<playerslist>\n" if xml else HEADER + "\r\n")
        batch = []
        for fid in ids:
            fields = _player(rng, fid)
            if xml:
                batch.append("<player>\n" + "".join(f"<{t}>{v}</{t}>\n"
                                                    for t, v in zip(XML_TAGS, fields, strict=True))
                             + "</player>\n")
            else:
                batch.append("".join(v.ljust(w) for v, w in zip(fields, _WIDTHS, strict=True)) + "\r\n")
            if len(batch) == 10_000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch) + ("</playerslist>\n" if xml else ""))
    return [str(i) for i in rng.sample(ids, min(500, lines))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_930_000)
    parser.add_argument("--quick", action="store_true", help="200,000 lines")
    parser.add_argument("--xml", action="store_true", help="the XML layout instead of TXT")
    args = parser.parse_args()
    lines = 200_000 if args.quick else args.lines
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("players_list_xml_foa.xml" if args.xml else "players_list_foa.txt")
        start = time.perf_counter()
        sample = write_list(path, lines, xml=args.xml)
        print(f"generated {lines} lines ({path.stat().st_size / 1e6:.0f} MB) "
              f"in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        start = time.perf_counter()
        subset = read_fide_list(path, fide_ids=sample)
        filtered = time.perf_counter() - start
        print(f"filtered to {len(sample)} ids: {len(subset)} found in {filtered:.2f} s",
              file=sys.stderr)
        start = time.perf_counter()
        full = read_fide_list(path)
        seconds = time.perf_counter() - start
        assert len(full) == lines and not full.warnings, full.warnings[:3]
        start = time.perf_counter()
        found = sum(full.get(fid) is not None for fid in sample)
        print(f"full load {seconds:.2f} s; {found} get() in {time.perf_counter() - start:.2f} s",
              file=sys.stderr)
        loaded_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        start = time.perf_counter()
        frame = full.to_frame()
        after_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"to_frame() {time.perf_counter() - start:.2f} s, {len(frame)} rows; peak RSS "
              f"{loaded_mb:.0f} MB before it, {after_mb:.0f} MB after", file=sys.stderr)
    print(f"lines={lines} seconds={seconds:.2f} peak_rss_mb={loaded_mb:.1f}")


if __name__ == "__main__":
    main()
