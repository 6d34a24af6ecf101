"""Generic Elo: the logistic expected score E = 1 / (1 + 10^((Ro − R) / 400)).

Unlike FIDE's table 8.1.2 this uses the formula itself; E is kept to three
decimals (what calculators show and what the change is computed from), so every
change K × (S − E) is an exact Decimal.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["EXPECTED_PLACES", "change", "expected"]

EXPECTED_PLACES = Decimal("0.001")


def expected(own: int, opponent: int, *, cap: int | None = None) -> Decimal:
    """Elo's expected score for *own* against *opponent*, to three decimals.

    With *cap* (e.g. 400) the difference is limited to ±cap first.

    >>> expected(1500, 1200), expected(1500, 1500), expected(1500, 1800)
    (Decimal('0.849'), Decimal('0.500'), Decimal('0.151'))
    """
    diff = opponent - own
    if cap is not None:
        diff = max(-cap, min(cap, diff))
    e = 1.0 / (1.0 + 10.0 ** (diff / 400.0))
    return Decimal(repr(e)).quantize(EXPECTED_PLACES, rounding=ROUND_HALF_UP)


def change(k: int, score: Decimal, exp: Decimal) -> Decimal:
    """K × (S − E), exact.

    >>> change(20, Decimal(1), expected(1500, 1200))
    Decimal('3.020')
    """
    return k * (score - exp)
