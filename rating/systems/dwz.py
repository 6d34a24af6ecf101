"""DWZ (Deutsche Wertungszahl), the German Chess Federation's (DSB) national rating.

The rules are the DSB's *Wertungsordnung* (WO), in the version in force on the event's date
(:func:`rules_for`); ``docs/dwz.md`` lists each rule with its article, the versions and the
sources of the worked examples the tests reproduce.

* **Expected score** (WO 2014 4.5 / WO 2022 3.3.1, Anhang 2.1): P(D) of the normal
  distribution with σ = 200·√2 over the whole difference D = own − opponent (no cap), kept
  to three decimals as the DSB prints it (the DSB's own We of a 2007 evaluation, 4.636, is
  the sum of per-game values to three decimals; the unrounded sum is 4.637).  The
  tournament's We is the sum (WO 2014 4.6 / WO 2022 3.3.2).
* **Coefficient** until 2026: E = E0·fB + SBr, E0 = (R0/1000)⁴ + J, bounded and rounded to
  a whole number (WO 2014 Anhang 2.4 / WO 2022 Anhang 1.2); new DWZ
  Rn = R0 + 800·(W − We)/(E + n) (WO 2014 4.9 / WO 2022 3.5.2).
* **From 2026**: the revised system Rn = R0 + K·(W − We) with K = K0·b + a to one decimal,
  at most 80, and no DWZ below 1100 (see :data:`WO_2026` for its sources and caveats).
* **First DWZ** (WO 2014 4.7 / WO 2022 3.4): from 5 games against opponents with a DWZ and
  no 100 % or 0 %, the rating Ri whose We equals the score (the DSB's iteration), corrected
  when low.

Arithmetic is exact: P(D) in integer thousandths (names ending ``_t``; computed to 50
digits, then rounded), E and the changes as fractions; each game's share of the change is a Decimal with
:data:`SHARE_PLACES` places, apportioned so that the shares add up to the exact change
rounded to those places, whose rounding to whole points is that of the exact change.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, localcontext
from enum import StrEnum
from fractions import Fraction
from functools import cache

from importer.model import RatingList, TournamentInfo
from rating.numbers import round_half_up
from rating.results import GameRating, PlayerRating, RoundLine
from rating.systems.base import Cell, Column, Form, PlayerFacts, change_if_rated
from rating.systems.fide import InitialRating, KSource, percent_h

__all__ = [
    "OPPONENT_WITHOUT_DWZ",
    "PLAYER_WITHOUT_DWZ",
    "RULES",
    "SHARE_PLACES",
    "WO_2014",
    "WO_2022",
    "WO_2026",
    "AgeGroup",
    "Articles",
    "Coefficient",
    "DwzRules",
    "DwzSystem",
    "Evaluation",
    "FirstDwz",
    "Method",
    "age_group",
    "change_shares",
    "coefficient",
    "evaluate",
    "expected_t",
    "first_dwz",
    "names_german_national_rating",
    "new_dwz",
    "performance",
    "point_expectation_t",
    "rules_for",
    "solve_rating",
    "usable_dwz",
]

SHARE_PLACES = 10
"""Decimal places of each game's share of a tournament's change (the shares add up to the
exact change rounded to these places; the exact change is a fraction with a small
denominator, so its rounding to whole points is never disturbed)."""

PLAYER_WITHOUT_DWZ = "player without DWZ"
OPPONENT_WITHOUT_DWZ = "opponent without DWZ"

_THOUSAND = 1000


class Method(StrEnum):
    """How a version turns W − We into a new DWZ."""

    DEVELOPMENT = "development"
    """Rn = R0 + 800·(W − We)/(E + n) with the development coefficient E (until 2026)."""
    K_FACTOR = "k_factor"
    """Rn = R0 + K·(W − We) with a K factor by index, age and DWZ (from 2026)."""


class AgeGroup(StrEnum):
    """The WO's age groups, by the year of the event less the year of birth."""

    YOUTH = "youth"
    """Jugendliche, up to 20."""
    JUNIOR = "junior"
    """Junioren, 21 to 25."""
    SENIOR = "senior"
    """Over 25 (also assumed when the age is not known)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Articles:
    """Where a version states each rule (its own numbering)."""

    expected: str
    """P(D), the expected score of one game."""
    point_expectation: str
    """We, the sum over the games."""
    coefficient: str
    """E (or K) and its bounds."""
    new_rating: str
    """The new DWZ."""
    first: str
    """The first DWZ of a player without one."""
    performance: str
    """The tournament performance (Leistung)."""
    index: str
    """The index: evaluations so far."""
    rated_games: str
    """Which games count: only against opponents with a DWZ (or first DWZ)."""
    time_control: str
    """The minimum thinking time of a rated game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DwzRules:
    """One version of the Wertungsordnung's arithmetic: its constants, name and source."""

    name: str
    """The version's name for report headers."""
    label: str
    """Its short label: 'DWZ WO 2014'."""
    valid_from: date
    """The first day the version rates an event (by the event's date)."""
    source: str
    """Where the rules were read (URL or document)."""
    method: Method
    articles: Articles
    note: str = ""
    """What is uncertain about this version ('' when nothing is)."""

    # P(D) and the performance (all versions)
    expected_places: int = 3
    """P(D) is kept to this many decimals."""
    first_min_games: int = 5
    """Games against opponents with a DWZ a first DWZ (and a performance) needs."""

    # Method.DEVELOPMENT: E (WO 2014 Anhang 2.4, WO 2022 Anhang 1.2)
    j_youth: int = 5
    j_junior: int = 10
    j_senior: int = 15
    youth_max_age: int = 20
    junior_max_age: int = 25
    acceleration_divisor: int = 2000
    """fB = R0 / 2000 for a youth whose W ≥ We, kept within [½, 1]."""
    brake_below: int = 1300
    """SBr = e^((1300 − R0)/150) − 1 below this DWZ when the player scores under We."""
    brake_scale: int = 150
    brake_when_equal: bool = False
    """SBr also when W = We (WO 2014 Anhang 2.4: 'W ≤ We'; WO 2022 Anhang 1.2: 'W < We')."""
    e_min: int = 5
    e_max: int = 30
    e_per_index: int = 5
    """E ≤ 5·index while the index is at most 5 (without SBr)."""
    e_max_brake: int = 150
    """E ≤ 150 with SBr."""
    unknown_index: int = 6
    """The index assumed when it is not known (no index cap on E)."""
    first_low: int = 800
    """A first DWZ Ri below this becomes 700 + Ri/8."""
    first_low_base: int = 700
    first_low_divisor: int = 8

    # Method.K_FACTOR (WO 2026)
    k0: tuple[tuple[int, ...], ...] = ()
    """K0 by index 1, 2, …, 10, over 10: youths/juniors under ``k0_young_below``; adults
    under ``k0_adult_below``; everyone else."""
    k0_young_below: int = 2200
    k0_adult_below: int = 2000
    k_max: Fraction = Fraction(80)
    success_divisor: int = 30
    """a = (2000 − R0)/30 for a youth under 2000 whose W ≥ We."""
    success_youth_below: int = 2000
    success_junior: Fraction = Fraction(4)
    """a for a junior (21–25) under ``success_below`` whose W ≥ We."""
    success_adult: Fraction = Fraction(4)
    """a for a player over 25 under ``success_below`` whose W ≥ We."""
    success_below: int = 1600
    brake_factor_below: int = 1600
    """b = (R0 + 800)/(1600 + 800) below this DWZ when W < We."""
    brake_shift: int = 800
    floor: int | None = None
    """No DWZ below this (None: no floor)."""
    first_correction: Fraction = Fraction(8, 100)
    """First DWZ L + 0.08·(2000 − L) for a performance L from 1100 to 2000."""
    first_pivot: int = 2000


WO_2014 = DwzRules(
    name="DSB-Wertungsordnung, Stand 30. Mai 2014",
    label="DWZ WO 2014",
    valid_from=date(2014, 5, 30),
    source="https://www.schachbund.de/wertungsordnung.html (Stand: 30. Mai 2014); "
           "Änderungsprotokoll: changes of 4.5, 4.9.2 and Anhang 1, 2.4 confirmed 30.05.2014",
    method=Method.DEVELOPMENT,
    brake_when_equal=True,
    articles=Articles(expected="4.5, Anhang 2.1", point_expectation="4.6",
                      coefficient="4.9.2, Anhang 2.4", new_rating="4.9", first="4.3, 4.7",
                      performance="4.8", index="3.2.6", rated_games="4.3",
                      time_control="6.2.2"),
    note="also used for events before 30 May 2014, whose rules are not modelled",
)
"""The WO of 2014 (with the 'Sonderwertung' of 1 August 2016, which does not change one
player's arithmetic).  Also used for earlier events: the older texts (ELOBASE's tables to
three decimals) give the same figures where they could be checked (the 2007 example)."""

WO_2022 = DwzRules(
    name="DSB-Wertungsordnung, renumbered edition (Stand 1. Januar 2022)",
    label="DWZ WO 2022",
    valid_from=date(2022, 1, 1),
    source="https://www.schachbund.de/wertungsordnung.html (chapters 1-4, Anhang 1-2)",
    method=Method.DEVELOPMENT,
    brake_when_equal=False,
    articles=Articles(expected="3.3.1, Anhang 2.1", point_expectation="3.3.2",
                      coefficient="3.5.1, Anhang 1.2", new_rating="3.5.2",
                      first="3.4.1, 3.4.4", performance="3.6", index="2.2.4",
                      rated_games="3.5.2", time_control="4.2"),
    note="the date this edition came into force is not stated in the sources found "
         "(a 'Stand 01.01.2022' is cited); it differs from 2014 only in SBr at W = We",
)
"""The renumbered WO (chapters 1-4, Anhang 1-2): SBr only when W < We (Anhang 1.2)."""

WO_2026 = DwzRules(
    name="DSB-Wertungsordnung 2026 (K factor, DWZ floor 1100)",
    label="DWZ WO 2026",
    valid_from=date(2026, 6, 8),
    source="the 2026 text was not found; as implemented by har64/DWZ-Calc 0.7 "
           "('neue Wertungsordnung', regulations 'from 2026-06-08') and Chess League Manager "
           "5.0.1 (table clm_dwz_parameter: r, t, u, a1, a2, kmax)",
    method=Method.K_FACTOR,
    articles=Articles(expected="WO 2026 (P(D) as before)", point_expectation="WO 2026",
                      coefficient="WO 2026 (K = K0·b + a)", new_rating="WO 2026",
                      first="WO 2026 (first DWZ)", performance="WO 2026", index="WO 2026",
                      rated_games="WO 2026", time_control="WO 2026"),
    k0=((60, 60, 48, 46, 44, 42, 40, 38, 36, 34, 32),
        (60, 60, 44, 42, 40, 38, 36, 34, 32, 30, 28),
        (60, 60, 41, 39, 37, 35, 33, 31, 29, 27, 25)),
    floor=1100,
    note="reconstructed from three independent implementations, not from the text: the date "
         "in force, the article numbers and the rounding of the first DWZ are uncertain",
)
"""The 2026 revision (after the one-off 2025 'DWZ-Upgrade' of the list: below 1000 + 400,
1000-2110 → 0.64·DWZ + 760).  Rn = R0 + K·(W − We), K = K0·b + a rounded to 0.1, K ≤ 80;
no DWZ below 1100; first DWZ L, L + 0.08·(2000 − L) or 1100 + 0.72·L/11."""

RULES: tuple[DwzRules, ...] = (WO_2014, WO_2022, WO_2026)
"""Every version, oldest first."""


def rules_for(on: date) -> DwzRules:
    """The version in force on *on* (the oldest for earlier dates)."""
    found = RULES[0]
    for rules in RULES:
        if rules.valid_from <= on:
            found = rules
    return found


# --- expected score: P(D) (WO 2014 4.5 / WO 2022 3.3.1, Anhang 2.1) ---

_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")
_CERTAIN = 1000
"""From |D| = 1000 on, P(D) is 1.000 (or 0.000) to three decimals (Φ(3.54) > 0.9995)."""


@cache
def _phi_thousandths(d: int) -> int:
    """Φ(d / (200·√2)) = (1 + erf(d/400))/2 in thousandths, rounded half up, from a 50-digit
    series (exact: Φ is irrational for d ≠ 0, so no value sits on a rounding boundary)."""
    if d < 0:
        return _THOUSAND - _phi_thousandths(-d)
    if d >= _CERTAIN:
        return _THOUSAND
    with localcontext() as ctx:
        ctx.prec = 60
        x = Decimal(d) / 400
        x2 = x * x
        term, total, k = x, x, 0
        while True:
            k += 1
            term = -term * x2 / k
            step = term / (2 * k + 1)
            if abs(step) < Decimal("1e-50"):
                break
            total += step
        p = (1 + total * 2 / _PI.sqrt()) / 2
        return int((p * _THOUSAND + Decimal("0.5")).to_integral_value(rounding="ROUND_FLOOR"))


def expected_t(own: int, opponent: int) -> int:
    """P(D) of one game in thousandths (WO 2014 4.5 / WO 2022 3.3.1, Anhang 2.1): the
    normal distribution with σ = 200·√2 over the whole difference, no cap.

    >>> expected_t(1500, 1500), expected_t(1700, 1500), expected_t(1000, 1200)
    (500, 760, 240)
    """
    return _phi_thousandths(own - opponent)


def point_expectation_t(own: int, opponents: Sequence[int]) -> int:
    """We in thousandths: the sum of the games' P(D) (WO 2014 4.6 / WO 2022 3.3.2)."""
    return sum(expected_t(own, o) for o in opponents)


def usable_dwz(value: int | None) -> int | None:
    """A rating cell as a DWZ: None for none (empty, or zero as lists print it)."""
    return value if value is not None and value > 0 else None


# --- the coefficient (WO 2014 4.9.2, Anhang 2.4 / WO 2022 3.5.1, Anhang 1.2; WO 2026 K) ---

def age_group(rules: DwzRules, birth_year: int | None, year: int | None,
              junior: bool = False) -> tuple[AgeGroup, str]:
    """The age group by the event's year less the birth year (the DSB's calculator: 'Alter
    = Turnierende − Geburtsjahr'), and the assumption made when that is not known.

    Without a birth year a source's junior category (U18 …) means a youth; otherwise over
    25 is assumed, as the DSB's own calculator does.
    """
    if birth_year is not None and year is not None:
        age = year - birth_year
        if age <= rules.youth_max_age:
            return AgeGroup.YOUTH, ""
        return (AgeGroup.JUNIOR if age <= rules.junior_max_age else AgeGroup.SENIOR), ""
    if junior:
        return AgeGroup.YOUTH, "DWZ: birth year not known, youth (up to 20) assumed from the junior category"
    j = rules.j_senior
    what = f"J {j} (over 25)" if rules.method is Method.DEVELOPMENT else "over 25"
    missing = "age group not known" if birth_year is None else "event year not known"
    return AgeGroup.SENIOR, f"DWZ: {missing}, {what} assumed"


def _index(rules: DwzRules, evaluations: int | None) -> tuple[int, str]:
    """The index to use (WO 2014 3.2.6 / WO 2022 2.2.4): 0 counts as 1 (a rating taken from
    another system, Anhang 1.2); unknown is assumed to be ``unknown_index``."""
    if evaluations is None:
        cap = (f" (E at most {rules.e_max})" if rules.method is Method.DEVELOPMENT else "")
        return rules.unknown_index, f"DWZ: index not known, {rules.unknown_index} assumed{cap}"
    return max(evaluations, 1), ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Coefficient:
    """E (or K) of one player in one event, with its parts and the assumptions made."""

    value: Fraction
    """E (a whole number) or K (to one decimal)."""
    base: Fraction
    """E0 = (R0/1000)⁴ + J, or K0."""
    acceleration: Fraction = Fraction(1)
    """fB (E) or b, the brake factor (K)."""
    surcharge: Decimal = Decimal(0)
    """SBr (E, irrational: to 40 digits) or a, the success bonus (K)."""
    unbounded: Decimal = Decimal(0)
    """E0·fB + SBr (or K0·b + a) before rounding and bounds."""
    bound: str = ""
    """The bound that applied ('' when none did)."""
    reasons: tuple[str, ...] = ()

    @property
    def whole(self) -> int:
        """The value as a whole number (K rounded half up), for fields that hold one."""
        return round_half_up(self.value)


def _brake_surcharge(rules: DwzRules, own: int) -> Decimal:
    """SBr = e^((1300 − R0)/150) − 1 (WO 2014 Anhang 2.4 / WO 2022 Anhang 1.2), to 40 digits."""
    with localcontext() as ctx:
        ctx.prec = 40
        return (Decimal(rules.brake_below - own) / rules.brake_scale).exp() - 1


def _development(rules: DwzRules, own: int, group: AgeGroup, index: int, w_t: int | None,
                 we_t: int | None) -> Coefficient:
    """E = E0·fB + SBr, rounded half up, 5 ≤ E ≤ 30 or 5·index (SBr = 0), E ≤ 150 (SBr > 0)
    (WO 2014 4.9.2, Anhang 2.4; WO 2022 3.5.1, Anhang 1.2).  Without W and We (before the
    event): fB = 1 and SBr = 0."""
    j = {AgeGroup.YOUTH: rules.j_youth, AgeGroup.JUNIOR: rules.j_junior,
         AgeGroup.SENIOR: rules.j_senior}[group]
    base = Fraction(own, 1000) ** 4 + j
    ahead = None if w_t is None or we_t is None else w_t - we_t  # W − We, once known
    f_b = Fraction(1)
    if ahead is not None and group is AgeGroup.YOUTH and ahead >= 0:
        f_b = min(max(Fraction(own, rules.acceleration_divisor), Fraction(1, 2)), Fraction(1))
    brakes = ahead is not None and own < rules.brake_below and (
        ahead < 0 or (rules.brake_when_equal and ahead == 0))
    s_br = _brake_surcharge(rules, own) if brakes else Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 40
        unbounded = Decimal(base.numerator) / Decimal(base.denominator) * (
            Decimal(f_b.numerator) / Decimal(f_b.denominator)) + s_br
    raw = (round_half_up(base * f_b) if not brakes
           else int(unbounded.to_integral_value(rounding=ROUND_HALF_UP)))
    high, bound = ((rules.e_max_brake, f"E at most {rules.e_max_brake} (with SBr)") if brakes
                   else (rules.e_max, f"E at most {rules.e_max}"))
    if not brakes and index <= rules.e_max // rules.e_per_index:
        high, bound = rules.e_per_index * index, f"E at most 5 × index {index}"
    value = raw
    if raw < rules.e_min:
        value, bound = rules.e_min, f"E at least {rules.e_min}"
    elif raw > high:
        value = high
    else:
        bound = ""
    return Coefficient(value=Fraction(value), base=base, acceleration=f_b, surcharge=s_br,
                       unbounded=unbounded, bound=bound)


def _k_factor(rules: DwzRules, own: int, group: AgeGroup, index: int, w_t: int | None,
              we_t: int | None) -> Coefficient:
    """K = K0·b + a to one decimal (half up), at most 80 (WO 2026).  K0 by index and by
    youth/junior under 2200, adult under 2000, or else; a (W ≥ We): (2000 − R0)/30 for a
    youth under 2000, 4 for a junior or adult under 1600; b (W < We, R0 < 1600):
    (R0 + 800)/2400.  Before the event (no W, We): K0."""
    young = group in (AgeGroup.YOUTH, AgeGroup.JUNIOR)
    row = (0 if young and own < rules.k0_young_below
           else 1 if not young and own < rules.k0_adult_below else 2)
    base = Fraction(rules.k0[row][min(index, len(rules.k0[row])) - 1])
    ahead = None if w_t is None or we_t is None else w_t - we_t  # W − We, once known
    b, a = Fraction(1), Fraction(0)
    if ahead is not None and ahead >= 0:
        if group is AgeGroup.YOUTH:
            if own < rules.success_youth_below:
                a = Fraction(rules.success_youth_below - own, rules.success_divisor)
        elif own < rules.success_below:
            a = rules.success_junior if group is AgeGroup.JUNIOR else rules.success_adult
    elif ahead is not None and own < rules.brake_factor_below:
        b = Fraction(own + rules.brake_shift, rules.brake_factor_below + rules.brake_shift)
    unbounded = base * b + a
    value = Fraction(round_half_up(unbounded * 10), 10)
    bound = ""
    if value > rules.k_max:
        value, bound = rules.k_max, f"K at most {rules.k_max}"
    return Coefficient(value=value, base=base, acceleration=b, surcharge=_decimal(a),
                       unbounded=_decimal(unbounded), bound=bound)


def coefficient(rules: DwzRules, own: int, facts: PlayerFacts | None,
                w_t: int | None = None, we_t: int | None = None) -> Coefficient:
    """E (or K) of a player rated *own* with *facts*, for an event where they scored W
    against an expectation We (both in thousandths; None: before the event, without the
    factors W − We decides).  Missing facts give a figure and name the assumption."""
    facts = facts or PlayerFacts(rating=own)
    group, why_age = age_group(rules, facts.birth_year, facts.year, facts.junior)
    index, why_index = _index(rules, facts.evaluations)
    compute = _development if rules.method is Method.DEVELOPMENT else _k_factor
    found = compute(rules, own, group, index, w_t, we_t)
    reasons = tuple(r for r in (why_age, why_index) if r)
    return Coefficient(value=found.value, base=found.base, acceleration=found.acceleration,
                       surcharge=found.surcharge, unbounded=found.unbounded,
                       bound=found.bound, reasons=reasons)


def _decimal(x: Fraction, places: int = 20) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-places))


# --- the new DWZ (WO 2014 4.9 / WO 2022 3.5.2; WO 2026) ---

def exact_change(rules: DwzRules, coefficient_value: Fraction, w_t: int, we_t: int,
                 n: int) -> Fraction:
    """The exact change: 800·(W − We)/(E + n) (WO 2014 4.9 / WO 2022 3.5.2) or K·(W − We)
    (WO 2026); W and We in thousandths."""
    diff = Fraction(w_t - we_t, _THOUSAND)
    if rules.method is Method.DEVELOPMENT:
        return 800 * diff / (coefficient_value + n)
    return coefficient_value * diff


def new_dwz(rules: DwzRules, own: int, change: Fraction | Decimal) -> int:
    """R0 + change rounded to a whole number, .5 up ('gerundet'; the WO does not say how:
    public calculators round the new value half up), then the version's floor."""
    value = round_half_up(Fraction(own) + Fraction(change))
    return value if rules.floor is None else max(value, rules.floor)


def change_shares(parts: Sequence[Fraction], places: int = SHARE_PLACES) -> list[Decimal]:
    """Each game's exact share as a Decimal with *places* places, apportioned (largest
    remainders) so that the shares add up to the exact total rounded half up to *places*.

    >>> change_shares([Fraction(1, 3)] * 3, 2)
    [Decimal('0.34'), Decimal('0.33'), Decimal('0.33')]
    """
    scale = 10 ** places
    units = [p * scale for p in parts]
    floors = [math.floor(u) for u in units]
    total = sum(units, Fraction(0))
    target = math.floor(total + Fraction(1, 2))
    left = target - sum(floors)
    order = sorted(range(len(parts)), key=lambda i: (units[i] - floors[i], -i), reverse=True)
    for i in order[:left]:
        floors[i] += 1
    return [Decimal(f).scaleb(-places) for f in floors]


@dataclass(frozen=True, slots=True, kw_only=True)
class Evaluation:
    """One player's evaluation in one event: what the DSB's tournament report prints."""

    rules: DwzRules
    own: int
    games: int
    """n, the games against opponents with a DWZ."""
    score_t: int
    """W in thousandths."""
    expected_t: int
    """We in thousandths."""
    coefficient: Coefficient
    change: Fraction
    """The exact change."""
    new_rating: int
    performance: int | None
    reasons: tuple[str, ...] = ()


def evaluate(rules: DwzRules, own: int, games: Sequence[tuple[int, Decimal]],
             facts: PlayerFacts | None = None, given: int | None = None) -> Evaluation:
    """Evaluate a player rated *own* over (opponent DWZ, score) pairs, all with a DWZ.

    E (or K) from *facts* and W − We; with *given* instead, that value as it is (no W − We
    factors), which names itself in the reasons.
    """
    opponents = [o for o, _ in games]
    w_t = sum(int(s * _THOUSAND) for _, s in games)
    we_t = point_expectation_t(own, opponents)
    if given is not None:
        found = Coefficient(value=Fraction(given), base=Fraction(given),
                            reasons=(f"DWZ: {'E' if rules.method is Method.DEVELOPMENT else 'K'}"
                                     f" {given} as given",))
    else:
        found = coefficient(rules, own, facts, w_t, we_t)
    change = exact_change(rules, found.value, w_t, we_t, len(games)) if games else Fraction(0)
    return Evaluation(rules=rules, own=own, games=len(games), score_t=w_t, expected_t=we_t,
                      coefficient=found, change=change,
                      new_rating=new_dwz(rules, own, change),
                      performance=performance(rules, opponents, w_t), reasons=found.reasons)


# --- performance and the first DWZ (WO 2014 4.7, 4.8 / WO 2022 3.4, 3.6) ---

def solve_rating(opponents: Sequence[int], score_t: int) -> int:
    """The whole rating R whose We = Σ P(R − Rj) comes nearest the score W (the DSB's
    iteration 'bis zur Konstanz der Einerstellen'; on a tie the higher).  W in thousandths,
    0 < W < n."""
    target = score_t  # thousandths
    lo, hi = min(opponents) - _CERTAIN, max(opponents) + _CERTAIN
    while lo < hi:  # the least R with We(R) ≥ W: We is non-decreasing in R
        mid = (lo + hi) // 2
        if point_expectation_t(mid, opponents) >= target:
            hi = mid
        else:
            lo = mid + 1
    below = point_expectation_t(lo - 1, opponents)
    above = point_expectation_t(lo, opponents)
    return lo - 1 if target - below < above - target else lo


def performance(rules: DwzRules, opponents: Sequence[int], score_t: int) -> int | None:
    """The performance Rh (WO 2014 4.8 / WO 2022 3.6): the rating whose We equals W, from
    ``first_min_games`` games; 100 % counts one more draw against the opponents' average
    (3.6.2, as public calculators apply it); 0 % has none.  *score_t* in thousandths."""
    n = len(opponents)
    if n < rules.first_min_games or score_t <= 0:
        return None
    if score_t >= n * _THOUSAND:
        average = round_half_up(Fraction(sum(opponents), n))
        return solve_rating([*opponents, average], score_t + _THOUSAND // 2)
    return solve_rating(opponents, score_t)


def _first_value(rules: DwzRules, ri: int) -> tuple[int, str]:
    """The first DWZ from the iteration's Ri, and the correction applied ('' if none).

    Until 2026 (WO 2014 4.7 / WO 2022 3.4.4): Ri, or 700 + Ri/8 below 800 (rounded half
    up, as Chess League Manager; DWZ-Calc truncates).  WO 2026: Ri from 2000, Ri +
    0.08·(2000 − Ri) from 1100, 1100 + 0.72·Ri/11 below (rounded half up: unstated)."""
    if rules.method is Method.DEVELOPMENT:
        if ri < rules.first_low:
            value = round_half_up(rules.first_low_base + Fraction(ri, rules.first_low_divisor))
            return value, f"below {rules.first_low}: {rules.first_low_base} + Ri/8"
        return ri, ""
    floor = rules.floor or 0
    if ri >= rules.first_pivot:
        return ri, ""
    if ri >= floor:
        return (round_half_up(ri + rules.first_correction * (rules.first_pivot - ri)),
                f"Ri + {rules.first_correction} × ({rules.first_pivot} − Ri)")
    raw = floor + 9 * rules.first_correction * Fraction(ri, 11)
    return max(round_half_up(raw), floor), f"below {floor}: {floor} + 0.72 × Ri / 11"


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstDwz:
    """A player without DWZ in one event: the first DWZ, or why there is none yet."""

    games: int
    average: Fraction
    """Rc, the opponents' average."""
    iteration: int | None
    """Ri, the rating whose We equals the score."""
    value: int | None
    published: bool
    reason: str


def first_dwz(rules: DwzRules, opponents: Sequence[int], score_t: int) -> FirstDwz:
    """The first DWZ over *opponents* (their DWZ; stored 'Restpartien' included) and the
    score in thousandths (WO 2014 4.3, 4.7 / WO 2022 3.4.1.1, 3.4.4): at least 5 games and
    no 100 % or 0 %.  Exact for a player whose opponents all had a DWZ; the DSB's
    'Gesamtiteration' also moves with other new players of the same event."""
    n = len(opponents)
    art = rules.articles.first
    average = Fraction(sum(opponents), n) if n else Fraction(0)
    if n < rules.first_min_games:
        return FirstDwz(games=n, average=average, iteration=None, value=None, published=False,
                        reason=f"first DWZ needs {rules.first_min_games} games against "
                               f"opponents with DWZ: {n} so far (WO {art}; unused games are "
                               "kept for two years)")
    if score_t <= 0 or score_t >= n * _THOUSAND:
        return FirstDwz(games=n, average=average, iteration=None, value=None, published=False,
                        reason=f"no first DWZ after {'100' if score_t else '0'} % against "
                               f"opponents with DWZ (WO {art})")
    ri = solve_rating(opponents, score_t)
    value, how = _first_value(rules, ri)
    reason = f"first DWZ: Ri {ri} over {n} opponents with DWZ (WO {art})" + (
        f", {how}" if how else "")
    return FirstDwz(games=n, average=average, iteration=ri, value=value, published=True,
                    reason=reason)


# --- does the tournament compute DWZ? ---

_GERMAN_FALLBACK = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "s"})
_DWZ_WORDS = frozenset({"dwz", "wertungszahl"})
_NATIONAL_WORDS = frozenset({"national", "nat", "dwz", "wertungszahl"})


def _words(text: str) -> set[str]:
    text = unicodedata.normalize("NFC", html.unescape(text)).lower()
    return set(re.findall(r"\w+", text.translate(_GERMAN_FALLBACK)))


def names_german_national_rating(rating_calculation: str, federation: str = "") -> bool:
    """Whether a source's rating calculation names Germany's national rating: 'DWZ' (or
    'Deutsche Wertungszahl') anywhere, or a national rating ('Elo national') in a GER
    event; elsewhere 'national' is another federation's system."""
    words = _words(rating_calculation)
    if words & _DWZ_WORDS:
        return True
    return federation.strip().upper() == "GER" and bool(words & _NATIONAL_WORDS)


# --- the rating system ---

def _rated_lines(pr: PlayerRating) -> list[RoundLine]:
    return [ln for ln in pr.rounds if ln.rated and ln.opponent_rating is not None]


def _event_coefficient(pr: PlayerRating) -> Cell:
    """The E (or K) the event's games were rated with (W − We decides fB, SBr, a and b);
    the coefficient before the event when no game was rated."""
    return next((ln.k for ln in pr.rounds if ln.rated and ln.k is not None), pr.k)


def _difference(pr: PlayerRating) -> Cell:
    return None if pr.rating is None or pr.new_rating is None else pr.new_rating - pr.rating


def _first_or_new(pr: PlayerRating) -> Cell:
    if pr.new_rating is not None:
        return pr.new_rating
    first = pr.initial
    return first.value if first is not None and first.published else None


@dataclass(frozen=True, slots=True)
class DwzSystem:
    """DWZ as a :class:`rating.systems.base.RatingSystem`, with the rules of one version."""

    rules: DwzRules = field(default_factory=lambda: RULES[-1])
    name: str = "dwz"
    label: str = "DWZ"
    national: bool = True
    per_tournament: bool = True
    """The DSB rates each tournament in the order the events ended (WO 2022 2.2.3)."""

    @classmethod
    def on(cls, start: date) -> DwzSystem:
        """The system with the rules in force on *start*."""
        return cls(rules_for(start))

    @property
    def coefficient(self) -> str:
        """'E' (development coefficient) or 'K' (from 2026)."""
        return "E" if self.rules.method is Method.DEVELOPMENT else "K"

    @property
    def player_columns(self) -> tuple[Column[PlayerRating], ...]:
        """The players table's DWZ columns, headed as the DSB's tournament evaluation."""
        return (
            Column("dwz_old", lambda p: p.rating, header="DWZ", title="DWZ before the event"),
            Column("dwz_coefficient", _event_coefficient, header=self.coefficient,
                   title="development coefficient" if self.coefficient == "E" else "K factor"),
            Column("dwz_games", lambda p: p.rated_games),
            Column("dwz_score", lambda p: p.score, Form.POINTS),
            Column("dwz_expected", lambda p: p.expected, Form.EXPECTED, header="We",
                   title="Punkterwartung: the DWZ expected score"),
            Column("dwz_performance", lambda p: p.performance, header="Lstg.",
                   title="Leistung: the DWZ performance (from 5 games)"),
            Column("dwz_change", lambda p: p.change, Form.CHANGE, shown=change_if_rated),
            Column("dwz_difference", _difference, Form.WHOLE_CHANGE, header="+/-",
                   title="the new DWZ less the old"),
            Column("dwz_new", _first_or_new, header="DWZ neu",
                   title="the new DWZ (or a first DWZ)"),
        )

    @property
    def round_columns(self) -> tuple[Column[RoundLine], ...]:
        """The rounds table's DWZ columns: the opponent's DWZ, We and the change beside FIDE's
        on the pages, all of them in the CSV."""
        return (
            Column("dwz_opponent", lambda ln: ln.opponent_rating, header="DWZ",
                   title="the opponent's DWZ"),
            Column("dwz_rated", lambda ln: ln.rated),
            Column("dwz_reason", lambda ln: ln.reason, Form.TEXT),
            Column("dwz_expected", lambda ln: ln.expected, Form.EXPECTED, header="We",
                   title="Punkterwartung: the DWZ expected score of the game"),
            Column("dwz_change", lambda ln: ln.change, Form.CHANGE, header="DWZ +/-",
                   title="the game's share of the DWZ change"),
            Column("dwz_cumulative_change", lambda ln: ln.cumulative, Form.CHANGE),
            Column("dwz_coefficient", lambda ln: ln.k),
        )

    # RatingSystem protocol

    def describe(self) -> str:
        note = f" ({self.rules.note})" if self.rules.note else ""
        return f"{self.rules.name}, from {self.rules.valid_from.isoformat()}{note}"

    def rules_label(self) -> str:
        return self.rules.label

    def applies(self, info: TournamentInfo) -> bool:
        """Rated beside FIDE when the source names the German national rating, on a list
        DWZ rates (standard, or unknown)."""
        return (names_german_national_rating(info.rating_calculation, info.federation)
                and info.rating_list in (None, RatingList.STANDARD))

    def list_note(self, rating_list: RatingList) -> str:
        if rating_list is RatingList.STANDARD:
            return ""
        return (f"DWZ rates games of at least 90 minutes per player (WO "
                f"{self.rules.articles.time_control}): this {rating_list} event was rated as "
                "asked, but the DSB would not rate it")

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """E (or K0) before the event: E0 with its bounds, without the factors W − We
        decides; *default* for a player without DWZ."""
        own = usable_dwz(facts.rating)
        if own is None:
            return default, KSource.DEFAULT
        return coefficient(self.rules, own, facts).whole, KSource.CATEGORY

    def capped_k(self, k: int, games: int) -> int:
        return k  # no cap on E × n

    def rate(self, own: int | None, k: int, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None,
             facts: PlayerFacts | None = None) -> list[GameRating]:
        """One player's played games of one event: each game against an opponent with a DWZ
        gets its P(D) and its share of the event's change, with E (or K) from *facts* and
        W − We; without *facts*, *k* is taken as E as it is."""
        player = usable_dwz(own)
        if player is None:
            return [GameRating(o, s, rated=False, reason=PLAYER_WITHOUT_DWZ) for o, s in games]
        rated = [(usable_dwz(o), s) for o, s in games]
        pairs = [(o, s) for o, s in rated if o is not None]
        result = evaluate(self.rules, player, pairs, facts, None if facts is not None else k)
        found = result.coefficient
        n = len(pairs)
        parts = [exact_change(self.rules, found.value, int(s * _THOUSAND),
                              expected_t(player, o), n) for o, s in pairs]
        shares = iter(change_shares(parts))
        reason = (f"DWZ: K {_decimal(found.value, 1)}" if self.rules.method is Method.K_FACTOR
                  and found.value.denominator != 1 else "")
        out: list[GameRating] = []
        for (cell, score), (opp, _) in zip(games, rated, strict=True):
            if opp is None:
                out.append(GameRating(cell, score, rated=False, reason=OPPONENT_WITHOUT_DWZ))
                continue
            out.append(GameRating(opp, score, rated=True, reason=reason,
                                  expected=self.expected(player, opp, capped=False),
                                  change=next(shares), k=found.whole))
        return out

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        """The age group and index assumed for want of a birth year or an index."""
        facts = facts or PlayerFacts(rating=None)
        said = (age_group(self.rules, facts.birth_year, facts.year, facts.junior)[1],
                _index(self.rules, facts.evaluations)[1])
        return tuple(s for s in said if s)

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if usable_dwz(own) is None:
            return PLAYER_WITHOUT_DWZ
        return OPPONENT_WITHOUT_DWZ if usable_dwz(opponent) is None else None

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None  # such games do not count (WO 2014 4.3 / WO 2022 3.5.2)

    def new_rating(self, own: int, change: Decimal) -> int | None:
        return new_dwz(self.rules, own, change)

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        """The first DWZ from the games against opponents with a DWZ (score in hundredths)
        as an :class:`InitialRating`: ``average`` is Rc, ``rounded`` the iteration's Ri,
        ``dp`` = Ri − round(Rc) (the DWZ has no dp table: Ri solves We = W), ``value`` the
        first DWZ after the low-value correction."""
        rated = [o for o in (usable_dwz(r) for r in opponents) if o is not None]
        first = first_dwz(self.rules, rated, score_h * 10)
        n = len(rated)
        dp = (first.iteration - round_half_up(first.average)
              if first.iteration is not None else 0)
        return InitialRating(n, first.average, percent_h(score_h, n) if n else 0, dp,
                             first.value, first.published, first.reason, score_h=score_h,
                             min_games=self.rules.first_min_games, opponents_sum=sum(rated),
                             rounded=first.iteration)

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        return [False] * len(opponents)  # no cap on the difference (Anhang 2.1)

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """P(D) to three decimals: Decimal('0.760') for 1700 v 1500."""
        return Decimal(expected_t(own, opponent)).scaleb(-self.rules.expected_places)

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """The DWZ performance (Leistung, :func:`performance`); *score_h* in hundredths."""
        return performance(self.rules, opponents, score_h * 10)
