"""Dates and time controls as tournament files write them (TRF ``042``/``132``, Excel details)."""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

# The time controls' one parser (re-exported: the readers and the writer import them from here)
from importer.parsing.time_control import RATE_WORDS, classify_time_control, encoded_time_control

__all__ = ["ORDERS", "RATE_WORDS", "Order", "classify_time_control", "date_in_order",
           "encoded_time_control", "parse_date"]

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}

def _year(y: int) -> int:
    return y + (2000 if y < 70 else 1900) if y < 100 else y


Order = Literal["YMD", "YDM", "DMY", "MDY"]
ORDERS: tuple[Order, ...] = ("YMD", "YDM", "DMY", "MDY")
"""The orders a date's year, month and day are written in, TRF's own (``132``: ``YY/MM/DD``)
first."""


def _readings(text: str) -> list[tuple[Order, date]]:
    """Every valid reading of a date text with the order of its fields, most likely first."""
    t = " ".join(text.replace(",", " ").split())
    out: list[tuple[Order, int, int, int]] = []
    m = re.fullmatch(r"(\d{4}) ?[/.-] ?(\d{1,2}) ?[/.-] ?(\d{1,2})", t)
    if m:
        out.append(("YMD", int(m[1]), int(m[2]), int(m[3])))
    m = re.fullmatch(r"(\d{1,2}) ?[/.-] ?(\d{1,2}) ?[/.-] ?(\d{4})", t)
    if m:
        out += [("DMY", int(m[3]), int(m[2]), int(m[1])), ("MDY", int(m[3]), int(m[1]), int(m[2]))]
    m = re.fullmatch(r"(\d{2})[/.-](\d{2})[/.-](\d{2})", t)
    if m:
        y = _year(int(m[1]))
        out += [("YMD", y, int(m[2]), int(m[3])), ("YDM", y, int(m[3]), int(m[2])),
                ("DMY", _year(int(m[3])), int(m[2]), int(m[1]))]
    m = re.fullmatch(r"([A-Za-z]{3})[a-z]*\.? (\d{1,2}) (\d{4})", t)
    if m and m[1].lower() in _MONTHS:
        out.append(("MDY", int(m[3]), _MONTHS[m[1].lower()], int(m[2])))
    m = re.fullmatch(r"(\d{1,2})\.? ([A-Za-z]{3})[a-z]*\.? (\d{4})", t)
    if m and m[2].lower() in _MONTHS:
        out.append(("DMY", int(m[3]), _MONTHS[m[2].lower()], int(m[1])))
    readings = []
    for order, y, mo, d in out:
        try:
            readings.append((order, date(y, mo, d)))
        except ValueError:
            continue
    return readings


def parse_date(text: str, *, near: date | None = None) -> date | None:
    """A date in any of the forms seen in TRF files, or None.

    ``YYYY/MM/DD``, ``DD/MM/YYYY``, ``DD.MM.YYYY``, ``YY.MM.DD`` (or ``YY.DD.MM``), ``May 10,
    2020``, ``10 May 2020``.  When several readings are valid, the one nearest *near* wins,
    else the first of the list above.

    >>> parse_date("24/09/2010"), parse_date("11.25.02")
    (datetime.date(2010, 9, 24), datetime.date(2011, 2, 25))
    """
    dates = [d for _, d in _readings(text)]
    if not dates:
        return None
    if near is not None:
        return min(dates, key=lambda d: abs((d - near).days))
    return dates[0]


def date_in_order(text: str, order: Order) -> date | None:
    """*text* read with its year, month and day in *order*, or None when it is no such date.

    >>> date_in_order("11.25.02", "YDM"), date_in_order("11.25.02", "YMD")
    (datetime.date(2011, 2, 25), None)
    """
    return next((d for o, d in _readings(text) if o == order), None)
