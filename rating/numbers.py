"""Exact numbers, in one place: hundredths, and rounding where the regulations say.

Rating changes are kept exact — as integer hundredths (the period engine) or as Decimals with
two places (the tournament view) — and rounded only where FIDE says: a change to whole points,
0.5 away from zero (FIDE Rating Regulations 2024, 8.3.4); an average or a percentage to the
nearest whole number or hundredth, 0.5 up (R24 8.2.3, table 8.1.1).

The period engine rounds whole numpy arrays: :func:`round_half_away_array` and
:func:`half_up_div_array` are the same rules for arrays, beside their scalar versions (a
property test holds each to its scalar).  They use only arithmetic operators, so this module
imports no numpy.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["CENT", "half_up_div_array", "round_half_away", "round_half_away_array",
           "round_half_up", "round_whole", "to_cent", "to_decimal"]

CENT = Decimal("0.01")


def to_decimal(h: int) -> Decimal:
    """Hundredths as an exact Decimal with two places: −320 → Decimal('-3.20')."""
    return Decimal(h).scaleb(-2)


def round_half_away(h: int) -> int:
    """Hundredths → whole points, 0.5 away from zero (R24 8.3.4): −250 → −3, +250 → +3."""
    q = (abs(h) + 50) // 100
    return q if h >= 0 else -q


def round_half_away_array(h: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """:func:`round_half_away` on an integer array of hundredths, element by element."""
    q: npt.NDArray[Any] = (abs(h) + 50) // 100
    out: npt.NDArray[Any] = q - 2 * q * (h < 0)
    return out


def round_whole(value: Decimal) -> int:
    """A Decimal to whole points, 0.5 away from zero (R24 8.3.4; Decimal's ROUND_HALF_UP rounds
    halves away from zero)."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def to_cent(value: Decimal) -> Decimal:
    """A Decimal to the hundredth, 0.5 away from zero (as chess-results prints changes)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def round_half_up(x: Fraction) -> int:
    """A non-negative fraction to the nearest whole number, .5 up (R24 8.2.3, table 8.1.1)."""
    return int((x + Fraction(1, 2)) // 1)


def half_up_div_array(num: npt.NDArray[Any], den: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """:func:`round_half_up` of num / den for non-negative integer arrays (den > 0), element
    by element."""
    out: npt.NDArray[Any] = (2 * num + den) // (2 * den)
    return out
