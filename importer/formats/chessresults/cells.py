"""The round-cell grammar of chess-results crosstables and small number helpers.

A Swiss crosstable cell is ``<opponent><colour><result>`` (`` 54b1``, `` 29w½``, ``  9w+``,
`` 23b-``, `` 13b`` pending), or a bye/absence without opponent (``-1``, ``-½``, ``-0``).
Round-robin matrix cells carry only the result (``1``, ``0``, ``½``, ``+``, ``-``).
``*`` is the not-paired marker of ``art=40`` (and the diagonal of a round-robin matrix).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from importer.errors import InputError
from importer.model import FULL_POINT as _ONE
from importer.model import HALF_POINT as _HALF_POINT
from importer.model import NO_POINT as _ZERO
from importer.model import Colour, Status, as_points
from importer.parsing.numbers import whole_number

__all__ = ["Cell", "clean", "parse_int", "parse_points", "parse_rating", "parse_round_cell",
           "round_cell_or_none"]

_HALF = ("½", "&frac12;", "1/2", "0,5", "0.5")
_CELL = re.compile(
    r"(?:(?P<opp>\d+)\s*(?P<colour>[wbs])\s*(?P<res>1|0|½|\+|-)?|(?P<bare>1|0|½|\+|-))")
_BYE = re.compile(r"-\s*(?P<bye>1|0|½)")
_COLOURS = {"w": Colour.WHITE, "b": Colour.BLACK, "s": Colour.BLACK}  # s = schwarz (German UI)


@dataclass(frozen=True, slots=True)
class Cell:
    """One parsed round cell.

    ``opponent_no`` is the number printed (a starting number on art=5, a rank on art=4;
    None for byes, absences and matrix cells); ``points`` is None while pending (and for
    ``*``, where absence and requested half-point bye cannot be told apart).
    """

    opponent_no: int | None
    colour: Colour
    points: Decimal | None
    status: Status


def clean(text: str) -> str:
    """Cell text normalised: ``&nbsp;`` → space, CR/LF → space, ``&frac12;`` → ½, stripped."""
    text = text.strip()  # str.strip() also drops &nbsp; (U+00A0), CR and LF at the ends
    if "\xa0" in text or "\r" in text or "\n" in text or "&" in text:
        text = (text.replace("\xa0", " ").replace("\r", " ").replace("\n", " ")
                .replace("&frac12;", "½").strip())
    return text


def _half(text: str) -> str:
    for h in _HALF[1:]:
        text = text.replace(h, "½")
    return text


_RESULT = {
    "1": (_ONE, Status.PLAYED), "0": (_ZERO, Status.PLAYED), "½": (_HALF_POINT, Status.PLAYED),
    "+": (_ONE, Status.FORFEIT_WIN), "-": (_ZERO, Status.FORFEIT_LOSS),
}
_BYES = {"1": (_ONE, Status.BYE), "½": (_HALF_POINT, Status.HALF_BYE), "0": (_ZERO, Status.ABSENT)}


@lru_cache(maxsize=8192)
def parse_round_cell(cell: str) -> Cell:
    """Parse one crosstable round cell; raises InputError naming the token when it is not one.

    ``9w+`` forfeit win, ``23b-`` forfeit loss, ``256w1``/``223b½`` played, ``13b`` pending,
    ``-1`` pairing-allocated bye, ``-½`` half-point bye, ``-0`` absent, ``*`` not paired,
    bare ``1``/``0``/``½``/``+``/``-`` a round-robin matrix cell (no opponent number).
    Half points may be written ``½``, ``&frac12;``, ``1/2``, ``0,5`` or ``0.5``.
    """
    text = _half(clean(cell))
    if text == "*":
        return Cell(None, Colour.NONE, None, Status.ABSENT)
    m = _BYE.fullmatch(text)
    if m:
        points, status = _BYES[m["bye"]]
        return Cell(None, Colour.NONE, points, status)
    m = _CELL.fullmatch(text)
    if m is None:
        raise InputError(f"unknown round cell {cell!r}: expected e.g. ' 54b1', ' 9w+', '-1', "
                         "'-½', '-0' or a matrix result '1', '0', '½', '+', '-'")
    if m["bare"] is not None:
        points, status = _RESULT[m["bare"]]
        return Cell(None, Colour.NONE, points, status)
    opp = whole_number(m["opp"])
    if opp is None:
        raise InputError(f"round cell {cell!r}: its opponent number has too many digits")
    colour = _COLOURS[m["colour"]]
    if m["res"] is None:
        return Cell(opp, colour, None, Status.PENDING)
    points, status = _RESULT[m["res"]]
    return Cell(opp, colour, points, status)


@lru_cache(maxsize=8192)
def round_cell_or_none(cell: str) -> Cell | None:
    """The round cell *cell* reads as (:func:`parse_round_cell`), or None when it is none.

    Cached, the refusals too: telling a ranking list from a crosstable in an unknown language
    asks this of every cell of the page, most of them no round cell.
    """
    try:
        return parse_round_cell(cell)
    except InputError:
        return None


@lru_cache(maxsize=4096)
def parse_points(text: str) -> Decimal | None:
    """A printed score: ``5,5`` (decimal comma), ``5.5``, ``4½``, ``7x`` → Decimal; '' → None.

    Cached: a list prints the same few scores on every row (a Decimal is immutable)."""
    if text.isdigit() and text.isascii():  # the hot path
        return Decimal(text)
    t = clean(text).replace(",", ".")
    if not t:
        return None
    half = _ZERO
    if t.endswith(("½", "x")):
        half, t = _HALF_POINT, t[:-1].strip()
        if not t:
            return half
    try:
        value = Decimal(t)
    except InvalidOperation:
        raise InputError(f"bad points value {text!r}: expected e.g. '5', '5,5' or '4½'") from None
    if not value.is_finite() or value < 0:
        raise InputError(f"bad points value {text!r}: expected a non-negative number")
    return as_points(value + half)


def parse_int(text: str) -> int | None:
    """A printed whole number ('' → None); raises InputError when it is not one."""
    t = clean(text)
    if not t:
        return None
    value = whole_number(t)
    if value is None:
        raise InputError(f"bad number {text!r}: expected digits")
    return value


def parse_rating(text: str) -> int | None:
    """A printed rating: '' or 0 (unrated) → None, '-' → None."""
    value = whole_number(text)  # the hot path
    if value is not None:
        return value or None
    t = clean(text)
    if t in ("", "-"):
        return None
    value = parse_int(t)
    return value or None
