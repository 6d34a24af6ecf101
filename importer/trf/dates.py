"""Dates and time controls as tournament files write them (TRF ``042``/``132``, Excel details)."""

from __future__ import annotations

import re
from datetime import date

from importer.model import RatingList

__all__ = ["RATE_WORDS", "classify_time_control", "encoded_time_control", "parse_date"]

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}

def _year(y: int) -> int:
    return y + (2000 if y < 70 else 1900) if y < 100 else y


def _date_candidates(text: str) -> list[date]:
    """Every reading of a date text, most likely first."""
    t = " ".join(text.replace(",", " ").split())
    out: list[tuple[int, int, int]] = []
    m = re.fullmatch(r"(\d{4}) ?[/.-] ?(\d{1,2}) ?[/.-] ?(\d{1,2})", t)
    if m:
        out.append((int(m[1]), int(m[2]), int(m[3])))
    m = re.fullmatch(r"(\d{1,2}) ?[/.-] ?(\d{1,2}) ?[/.-] ?(\d{4})", t)
    if m:
        out += [(int(m[3]), int(m[2]), int(m[1])), (int(m[3]), int(m[1]), int(m[2]))]
    m = re.fullmatch(r"(\d{2})[/.-](\d{2})[/.-](\d{2})", t)
    if m:
        y = _year(int(m[1]))
        out += [(y, int(m[2]), int(m[3])), (y, int(m[3]), int(m[2])),
                (_year(int(m[3])), int(m[2]), int(m[1]))]
    m = re.fullmatch(r"([A-Za-z]{3})[a-z]*\.? (\d{1,2}) (\d{4})", t)
    if m and m[1].lower() in _MONTHS:
        out.append((int(m[3]), _MONTHS[m[1].lower()], int(m[2])))
    m = re.fullmatch(r"(\d{1,2})\.? ([A-Za-z]{3})[a-z]*\.? (\d{4})", t)
    if m and m[2].lower() in _MONTHS:
        out.append((int(m[3]), _MONTHS[m[2].lower()], int(m[1])))
    dates = []
    for y, mo, d in out:
        try:
            dates.append(date(y, mo, d))
        except ValueError:
            continue
    return dates


def parse_date(text: str, *, near: date | None = None) -> date | None:
    """A date in any of the forms seen in TRF files, or None.

    ``YYYY/MM/DD``, ``DD/MM/YYYY``, ``DD.MM.YYYY``, ``YY.MM.DD`` (or ``YY.DD.MM``), ``May 10,
    2020``, ``10 May 2020``.  When several readings are valid, the one nearest *near* wins,
    else the first of the list above.

    >>> parse_date("24/09/2010"), parse_date("11.25.02")
    (datetime.date(2010, 9, 24), datetime.date(2011, 2, 25))
    """
    dates = _date_candidates(text)
    if not dates:
        return None
    if near is not None:
        return min(dates, key=lambda d: abs((d - near).days))
    return dates[0]


RATE_WORDS = (("blitz", RatingList.BLITZ), ("rapid", RatingList.RAPID),
               ("standard", RatingList.STANDARD), ("classical", RatingList.STANDARD))


def _classify_minutes(total: float) -> RatingList | None:
    """FIDE rate of play (RB24 §1) from minutes for 60 moves (time + 60 × increment): rapid
    more than 10 and less than 60, blitz more than 3 and at most 10; None for 3 or less (no
    FIDE list rates it)."""
    if total <= 3:
        return None
    if total >= 60:
        return RatingList.STANDARD
    return RatingList.RAPID if total > 10 else RatingList.BLITZ


def encoded_time_control(text: str) -> RatingList | None:
    """TRF26 ``222``: ``5400+30``, ``40/6000+30:900+30`` (seconds)."""
    first = text.strip().split(":")[0]
    m = re.fullmatch(r"(?:(\d+)/)?(\d+)(?:\+(\d+))?", first)
    if m is None:
        return None
    base, inc = int(m[2]), int(m[3] or 0)
    if m[1]:  # moves/seconds: the first control alone covers the moves it names
        return _classify_minutes((base + 60 * inc) / 60 if int(m[1]) >= 60 else 60)
    return _classify_minutes((base + 60 * inc) / 60)


def classify_time_control(text: str) -> RatingList | None:
    """The FIDE list a free-text time control points to, or None when it cannot tell.

    >>> classify_time_control("90 min + 30 sec"), classify_time_control("15 minutes plus 10 sec")
    (<RatingList.STANDARD: 'standard'>, <RatingList.RAPID: 'rapid'>)
    """
    low = text.lower()
    for word, rl in RATE_WORDS:
        if word in low:
            return rl
    m = re.search(r"(\d+):(\d{2})(?!\d)", low)
    if m:  # h:mm
        base = float(int(m[1]) * 60 + int(m[2]))
    else:
        m = (re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(h\b|hours?|hrs?\b|min|mn|m\b|'|’)", low)
             or re.search(r"(?<![\d.])(\d+(?:\.\d+)?)(?![\d.])(?!\s*(?:moves?|/|s\b|sec))()",
                          low))
        if m is None:
            return None
        base = float(m[1]) * (60 if m[2].startswith("h") else 1)
    rest = low[m.end():]
    inc = re.search(r"(\d+)\s*(?:s\b|sec|seconds?|\"|'')", rest)
    if inc is None:
        inc = re.fullmatch(r"\s*\+\s*(\d+)\s*", rest)
    return _classify_minutes(base + (int(inc[1]) if inc else 0))
