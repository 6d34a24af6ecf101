"""FIDE tables 8.1.2 (D → PD) and 8.1.1 (p → dp), as data, in integer hundredths.

Source: FIDE Rating Regulations effective 1 March 2024 (R24), tables 8.1.1 and 8.1.2;
identical in the Rapid and Blitz Regulations (RB24) and Title Regulations 1.4.9.
"""

from __future__ import annotations

from bisect import bisect_left

__all__ = [
    "DP_TABLE",
    "PD_TABLE",
    "dp_for",
    "pd_h",
    "pd_higher_h",
]

# R24 table 8.1.2: (largest D of the row, PD of the higher-rated player in hundredths).
# Rows run from D = 0–3 (0.50) to D ≥ 736 (1.00); the lower-rated player's PD is 100 − H.
PD_TABLE: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66),
    (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74),
    (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82),
    (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98),
    (735, 99),
)
"""Table 8.1.2; any D above the last row (≥ 736) gives 100."""

_UPPER = tuple(upper for upper, _ in PD_TABLE)

# R24 table 8.1.1: dp for p = 0.50 … 1.00 (index = hundredths − 50); p < 0.50 mirrors with −dp.
DP_TABLE: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)
"""Table 8.1.1, p = 0.50 … 1.00; R24 8.1: a score of 0 or 1 is shown notionally as ±800."""


def pd_higher_h(d: int) -> int:
    """PD of the higher-rated player, in hundredths, for an absolute difference *d* (table 8.1.2)."""
    if d < 0:
        raise ValueError(f"rating difference must be non-negative, got {d}")
    i = bisect_left(_UPPER, d)
    return PD_TABLE[i][1] if i < len(PD_TABLE) else 100


def pd_h(own: int, opponent: int) -> int:
    """The player's PD in hundredths against *opponent* (ratings already capped), R24 8.3.2 a)."""
    h = pd_higher_h(abs(own - opponent))
    return h if own >= opponent else 100 - h


def dp_for(p_h: int) -> int:
    """dp for a percentage score *p_h* in hundredths (0 … 100), table 8.1.1."""
    if not 0 <= p_h <= 100:
        raise ValueError(f"p must be between 0 and 100 hundredths, got {p_h}")
    return DP_TABLE[p_h - 50] if p_h >= 50 else -DP_TABLE[50 - p_h]
