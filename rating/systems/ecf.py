"""The English Chess Federation's (ECF) rating, the Elo-style rating of 2020, as a rating system.

The ECF replaced its three-digit grades with four-digit ratings published every month: the
last grades were converted (rating = 7.5 × grade + 700) and the lists seeded on 1 July 2020;
the first monthly list appeared in September 2020.  Every rule below cites its source; the
short names are listed in ``docs/ecf.md``:

* ECF-M: "The calculation of ECF Grades on a monthly basis" (englishchess.org.uk), the
  method the ECF Board adopted, clauses 1–4;
* ECF-H: the rating database's help "How ratings are calculated"
  (ecfrating.org.uk/v2/help/help_rating.php), definitions 1–8 and its passes (undated);
* ECF-CAT: "ECF rating categories" (englishchess.org.uk, version 8 December 2021) and the
  categories as the ECF rating website gave them when they took effect (quoted by Dorset
  chess, "New Rating Categories");
* YCA-2023: the Yorkshire Chess Association's notice of April 2023 on the ECF's dummy result.

A player with a full rating is rated by the K method (ECF-M 4, ECF-H 1): over a month,
R1 = R0 + K(W − We), with We from FIDE's table 8.1(b) (the table of FIDE's handbook B.02
2017 that ECF-M 4 links; identical to table 8.1.2 of 2024) and K 20, or 40 for a junior.
A new player's (or a returning one's) rating is a performance over their games with one
dummy draw added (the P method, ECF-H 2); under 10 games it is a partial rating (ECF-H 3).
Where the sources are silent the choice is named as an assumption, in the reason strings
the reports show and in ``docs/ecf.md``.  Arithmetic is exact: E in hundredths, changes as
Decimals with two places, one rounding per month.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from importer.model import RatingList, TournamentInfo
from rating.numbers import round_half_up, round_whole, to_decimal
from rating.results import GameRating, PlayerRating, RoundLine
from rating.systems.base import Column, Form, PlayerFacts, change_if_rated, rate_games
from rating.systems.fide import InitialRating, KSource, percent_h
from rating.systems.fide import performance as fide_performance
from rating.systems.fide_tables import dp_for, pd_higher_h

if TYPE_CHECKING:
    from rating.systems.base import RatingSystem

__all__ = [
    "CATEGORY_MEANING",
    "ECF_2020",
    "ECF_2022_06",
    "ECF_2022_12",
    "GRADE_OFFSET",
    "GRADE_SCALE",
    "VERSIONS",
    "EcfRules",
    "EcfSystem",
    "Junior",
    "assumptions",
    "change_h",
    "dummy_rating",
    "expected_h",
    "game_change",
    "grade_to_rating",
    "is_unrated",
    "junior_status",
    "k_for",
    "month_change",
    "names_ecf_rating",
    "p_rating",
    "rating_category",
    "rating_period",
    "rules_for",
    "total_change",
]


# --- the rule versions ---

@dataclass(frozen=True, slots=True, kw_only=True)
class EcfRules:
    """One version of the ECF's rating rules: in force for events from ``valid_from``."""

    name: str
    """'ECF 2022-12': the version's month."""
    valid_from: date
    source: str
    """Where this version's rules (and their date) come from."""
    k_adult: int = 20
    """ECF-M 4: "k is 20 or 40"; 20 for adults (Crowborough's and Dorset's explanations)."""
    k_junior: int = 40
    """ECF-M 4: 40 for juniors (Crowborough: "40 for juniors 20 for adults")."""
    junior_under: int = 18
    """A junior is under this age (YCA-2023's age limit for the dummy rating; the ECF's own
    K text names no age)."""
    cap: int | None = 400
    """Assumption: a difference above 400 counts as 400, as in the FIDE chapter ECF-M 4 links
    (B.02 2017); no ECF text mentions a cap."""
    full_from_games: int = 10
    """ECF-H 3–4: a P rating on fewer than 10 games is partial; from 10 it is full."""
    partial_opponent_share: Decimal = Decimal("0.5")
    """ECF-H passes: against an opponent's partial rating "use a K of 40 for that opponent.
    This has the effect of reducing any rating adjustment by 50%"."""
    dummy_adult: int = 1800
    """YCA-2023: the dummy draw's opponent for a new player aged 18 or more."""
    dummy_per_year: int = 100
    """YCA-2023: "age x 100 for those under 18 years"."""
    dummy_fast_offset: int = 100
    """YCA-2023: both dummy ratings "less 100 for Rapid and Blitz time controls"."""
    inactive_months: int = 36
    """Without a rated result in this many calendar months a rating lapses: 60 in ECF-H 5–6,
    36 from the categories (ECF-CAT "Unrated")."""
    categories: tuple[str, ...] = ()
    """The category letters in use (ECF-CAT); () before the categories took effect."""
    category_a_results: int = 30
    """ECF-CAT: category A needs 30 or more rated results in the previous 12 calendar months."""

    @property
    def label(self) -> str:
        """The version's short name: 'ECF 2022-12'."""
        return self.name


_METHOD = ("ECF-M clauses 1-4 (englishchess.org.uk, 'The calculation of ECF Grades on a monthly "
           "basis'); ECF-H definitions 1-8 (ecfrating.org.uk/v2/help/help_rating.php)")

ECF_2020 = EcfRules(
    name="ECF 2020-07", valid_from=date(2020, 7, 1), inactive_months=60,
    source=f"{_METHOD}; lists seeded on 1 July 2020 (ECF-CAT), first published September 2020")
"""The monthly Elo-style rating from its start: the OTB lists were seeded on 1 July 2020
(ECF-CAT); old grade categories carried over; a rating lapses after 60 months (ECF-H 5–6)."""

ECF_2022_06 = EcfRules(
    name="ECF 2022-06", valid_from=date(2022, 6, 1), inactive_months=36,
    categories=("A", "H", "K", "P"),
    source=f"{_METHOD}; ECF-CAT categories A, H, K, P effective 1 June 2022 (the ECF rating "
           "website as quoted by dorsetchess.co.uk; ECF-CAT version 8 had planned 1 February 2022)")
"""Categories A, H, K and P take effect; a rating lapses after 36 months without a result."""

ECF_2022_12 = EcfRules(
    name="ECF 2022-12", valid_from=date(2022, 12, 1), inactive_months=36,
    categories=("A", "K", "P"),
    source=f"{_METHOD}; ECF-CAT: remaining H ratings became unrated on 1 December 2022 (the ECF "
           "rating website as quoted by dorsetchess.co.uk; ECF-CAT version 8 had planned "
           "1 September 2022)")
"""Category H ends: the ratings still in it became unrated."""

VERSIONS: tuple[EcfRules, ...] = (ECF_2020, ECF_2022_06, ECF_2022_12)
"""Every version, oldest first."""


def rules_for(on: date) -> EcfRules:
    """The version in force for an event starting *on*; before 1 July 2020 (the ECF's grades,
    not ratings) the first version, which :meth:`EcfSystem.describe` says.

    >>> rules_for(date(2021, 3, 6)).name, rules_for(date(2026, 5, 9)).name
    ('ECF 2020-07', 'ECF 2022-12')
    """
    chosen = VERSIONS[0]
    for rules in VERSIONS:
        if rules.valid_from <= on:
            chosen = rules
    return chosen


CATEGORY_MEANING: dict[str, str] = {
    "A": "30 or more rated results in the previous 12 calendar months (reliable)",
    "H": "inherited on 1 July 2020 from fewer than 9 results in the 60 months before, "
         "and no game since",
    "K": "a full rating updated by the K method",
    "P": "a rating updated by the P method (limited data)",
}
"""ECF-CAT: what each category letter on the list says about the rating."""


# --- the grade conversion of 2020 ---

GRADE_SCALE = Decimal("7.5")
"""ECF-M 1: "new = 7.5*old + 700" (the grade's multiplier)."""
GRADE_OFFSET = Decimal("700")
"""ECF-M 1: the points added (not FIDE's 700 cap on K × n)."""


def grade_to_rating(grade: int | Decimal) -> Decimal:
    """ECF-M 1: a three-digit grade as a rating, 7.5 × grade + 700 (exact; the sources do not
    say how a half point was rounded).

    >>> grade_to_rating(140)
    Decimal('1750.0')
    """
    return GRADE_SCALE * grade + GRADE_OFFSET


# --- expected score: FIDE's table 8.1(b), difference capped ---

def expected_h(own: int, opponent: int, cap: int | None = 400) -> int:
    """The player's We in hundredths (ECF-M 4: FIDE table 8.1(b); the 400 cap an assumption).

    >>> expected_h(1500, 1600), expected_h(1600, 1500), expected_h(2300, 1700)
    (36, 64, 92)
    """
    d = abs(own - opponent)
    h = pd_higher_h(d if cap is None else min(d, cap))
    return h if own >= opponent else 100 - h


# --- K ---

@dataclass(frozen=True, slots=True)
class Junior:
    """Whether a player counts as a junior for K, and the assumption made when not sure."""

    junior: bool
    known: bool
    """False when the age was not known and an assumption decided."""
    reason: str = ""
    """The assumption, for the reports ('' when the facts decide)."""


def junior_status(facts: PlayerFacts, rules: EcfRules = ECF_2022_12) -> Junior:
    """Junior (under 18) or not, from a birth year and the event's year (ECF-M 4 gives juniors
    K 40; the age limit from YCA-2023).  With a birth year only, a player turning 18 in the
    event's year is taken as a junior (the birthday is not known); no birth year and no junior
    category in the source: adult.

    >>> junior_status(PlayerFacts(rating=1500, birth_year=2012, year=2026)).junior
    True
    >>> junior_status(PlayerFacts(rating=1500)).reason
    'ECF: age not known, adult K 20 assumed'
    """
    by, year = facts.birth_year, facts.year
    limit = rules.junior_under
    if by is not None and year is not None and 0 <= year - by <= 130:
        age = year - by  # the age reached in the event's year
        if age < limit:
            return Junior(True, True)
        if age > limit:
            return Junior(False, True)
        if facts.junior:
            return Junior(True, True)  # the source's junior category settles the year of 18
        return Junior(True, False, f"ECF: turns {limit} in {year}, birthday not known: "
                                   f"junior K {rules.k_junior} assumed")
    if facts.junior:
        return Junior(True, True)
    if by is not None and year is None:
        return Junior(False, False, f"ECF: the event's year not known, adult K {rules.k_adult} "
                                    f"assumed")
    return Junior(False, False, f"ECF: age not known, adult K {rules.k_adult} assumed")


def k_for(facts: PlayerFacts, rules: EcfRules = ECF_2022_12) -> int:
    """ECF-M 4: K 40 for a junior, else 20 (see :func:`junior_status` for the age)."""
    return rules.k_junior if junior_status(facts, rules).junior else rules.k_adult


def assumptions(facts: PlayerFacts | None, rules: EcfRules = ECF_2022_12) -> tuple[str, ...]:
    """The assumptions a player's figures rest on, as the reports' notes say them: the age
    (K), and the rating's method (ECF-H 3–5: a partial rating is recomputed by the P method,
    so the K-method figure only estimates it; no games count: a full rating assumed)."""
    if facts is None:
        return (f"ECF: nothing known of the player: adult K {rules.k_adult} and a full "
                "(K-method) rating assumed",)
    out = [junior_status(facts, rules).reason]
    if facts.games_played is None:
        out.append("ECF: games played not known, a full (K-method) rating assumed")
    elif facts.games_played < rules.full_from_games:
        out.append(f"ECF: partial rating ({facts.games_played} games, fewer than "
                   f"{rules.full_from_games}): the ECF recalculates it by the P method, "
                   "this K-method figure is an estimate")
    return tuple(note for note in out if note)


# --- arithmetic and rounding ---

def change_h(k: int, score_h: int, e_h: int) -> int:
    """One game's change in hundredths, K × (100·W − 100·We) (ECF-M 4)."""
    return k * (score_h - e_h)


def game_change(k: int, score: Decimal, expected: Decimal, *, opponent_partial: bool = False,
                rules: EcfRules = ECF_2022_12) -> Decimal:
    """K × (W − We) for one game; halved against an opponent's partial rating (ECF-H passes:
    "use a K of 40 for that opponent … reducing any rating adjustment by 50%").

    >>> game_change(20, Decimal(1), Decimal("0.50"))
    Decimal('10.00')
    >>> game_change(20, Decimal(1), Decimal("0.50"), opponent_partial=True)
    Decimal('5.000')
    """
    change = k * (score - expected)
    return change * rules.partial_opponent_share if opponent_partial else change


def total_change(games: Iterable[GameRating]) -> Decimal:
    """Σ K(W − We) over the rated games, exact (ECF-M 4 sums a month's results first)."""
    return sum((g.change for g in games if g.rated and g.change is not None), Decimal("0.00"))


def month_change(totals: Sequence[Decimal]) -> int:
    """A month's change from its events' exact totals, rounded once, .5 away from zero
    (ECF-M 4: R1 = R0 + k(W − We) over the month; the rounding is an assumption)."""
    return round_whole(sum(totals, Decimal("0.00")))


def rating_period(played: date) -> tuple[date, date]:
    """The month a game counts in (ECF-M 3: "All results dated in the last month"): the list
    it is rated on (R0, the 1st of its month) and the list that shows the result (the 1st
    of the next month).  Late results recalculate up to six months back (ECF-M 2).

    >>> rating_period(date(2026, 5, 31))
    (datetime.date(2026, 5, 1), datetime.date(2026, 6, 1))
    """
    start = played.replace(day=1)
    end = date(start.year + start.month // 12, start.month % 12 + 1, 1)
    return start, end


# --- the P method: a first, returning or partial rating ---

def dummy_rating(rating_list: RatingList = RatingList.STANDARD, *, age: int | None = None,
                 last_full: int | None = None, rules: EcfRules = ECF_2022_12) -> int:
    """The rating of the dummy draw's opponent (ECF-H 2, the figures YCA-2023): 1800 for a
    player aged 18 or more (also when the age is not known), age × 100 under 18, both 100
    less on the rapid and blitz lists; for a returning player their last full rating when
    that is higher.

    >>> dummy_rating(), dummy_rating(age=12), dummy_rating(RatingList.RAPID, age=12)
    (1800, 1200, 1100)
    >>> dummy_rating(last_full=1950), dummy_rating(last_full=1500)
    (1950, 1800)
    """
    base = (rules.dummy_per_year * age if age is not None and age < rules.junior_under
            else rules.dummy_adult)
    if rating_list is not RatingList.STANDARD:
        base -= rules.dummy_fast_offset
    return max(base, last_full) if last_full is not None else base


def p_rating(opponents: Sequence[int], score_h: int, *, dummy: int,
             rules: EcfRules = ECF_2022_12, note: str = "") -> InitialRating:
    """A P rating (ECF-H 2): a performance over the games with one dummy draw against
    *dummy* added — Ra = (Σ opponents + dummy) / (n + 1), p = (W + ½) / (n + 1) to the
    hundredth, rating = Ra + dp(p) rounded .5 up.  The ECF calls it "an Elo performance
    rating algorithm"; FIDE's Ra + dp with table 8.1(a) is an assumption (the table beside
    the 8.1(b) that ECF-M 4 names).  Published from one game: under 10 games as a partial
    rating (category P), from 10 as a full one (ECF-H 3–4).

    >>> r = p_rating([1600, 1700, 1500], 200, dummy=1800)
    >>> r.average, r.p_h, r.dp, r.value, r.published
    (Fraction(1650, 1), 63, 95, 1745, True)
    """
    n = len(opponents)
    total = sum(opponents)
    progress = f"{n} of {rules.full_from_games} games for a full rating"
    extra = [note] if note else []

    def result(ra: Fraction, p_h: int, dp: int, value: int | None, published: bool,
               reason: str) -> InitialRating:
        return InitialRating(n, ra, p_h, dp, value, published,
                             "; ".join([reason, *extra]), score_h=score_h, hypothetical=1,
                             hypothetical_rating=dummy, min_games=rules.full_from_games,
                             opponents_sum=total, rounded=value)

    if n == 0:
        return result(Fraction(dummy), 50, 0, None, False,
                      "ECF P rating: no games against rated opponents")
    ra = Fraction(total + dummy, n + 1)
    p_h = percent_h(score_h + 50, n + 1)
    dp = dp_for(p_h)
    value = round_half_up(ra + dp)
    if n < rules.full_from_games:
        return result(ra, p_h, dp, value, True,
                      f"ECF P rating, partial (category P): {progress}, with a dummy draw "
                      f"against {dummy}")
    return result(ra, p_h, dp, value, True,
                  f"ECF P rating, full: {n} games, with a dummy draw against {dummy}")


# --- categories and lapsing ---

def rating_category(rules: EcfRules, *, partial: bool, results_12_months: int | None = None,
                    inherited_unplayed: bool = False) -> str:
    """The category letter a rating carries (ECF-CAT; '' before the categories): P for a
    rating the P method updates, A with 30+ results in the previous 12 calendar months, H for
    an inherited rating not played since (2022-06 to 2022-11), else K.

    >>> rating_category(ECF_2022_12, partial=False, results_12_months=31)
    'A'
    """
    if not rules.categories:
        return ""
    if partial:
        return "P"
    if results_12_months is not None and results_12_months >= rules.category_a_results:
        return "A"
    if inherited_unplayed and "H" in rules.categories:
        return "H"
    return "K"


def is_unrated(rules: EcfRules, months_without_result: int) -> bool:
    """Whether a rating has lapsed: no rated result in the previous 36 calendar months (ECF-CAT
    "Unrated"; 60 months in ECF-H 5–6).  A lapsed player who plays again is rated as a new
    player, with their last full rating as the dummy if higher (YCA-2023)."""
    return months_without_result >= rules.inactive_months


# --- does the source name the ECF's rating? ---

_NATIONAL = frozenset({"national", "nacional", "nationale", "nazionale"})


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFC", html.unescape(text)).lower()
    return re.findall(r"\w+", text)


def names_ecf_rating(rating_calculation: str, federation: str = "") -> bool:
    """Whether a details 'Rating calculation' line names the English national rating: the
    word ECF or "English Chess Federation" whatever the federation, or a national rating
    (the whole word: 'international' is not 'national') in an event of federation ENG.

    >>> names_ecf_rating("Rating national, international", "ENG")
    True
    >>> names_ecf_rating("Rating national, international", "GER"), names_ecf_rating("ECF rated")
    (False, True)
    """
    words = _words(rating_calculation)
    if "ecf" in words or " ".join(words).find("english chess federation") >= 0:
        return True
    return federation.strip().upper() == "ENG" and bool(_NATIONAL.intersection(words))


# --- the rating system ---

def _p_rating_shown(pr: PlayerRating) -> int | None:
    """The P rating of a player without an ECF rating, when one is given."""
    return pr.initial.value if pr.initial is not None and pr.initial.published else None


@dataclass(frozen=True, slots=True)
class EcfSystem:
    """The ECF rating as a :class:`rating.systems.base.RatingSystem`: the K method for a player with
    a rating, the P method's first rating for one without (see the module docstring)."""

    rules: EcfRules = ECF_2022_12
    rating_list: RatingList = RatingList.STANDARD
    event_date: date | None = field(default=None, compare=False)
    """The date that chose the rules (None: built without one)."""
    name: str = "ecf"
    label: str = "ECF"
    national: bool = True
    per_tournament: bool = False
    """A month's events are rated together on the month's rating (ECF-M 3–4)."""
    coefficient: str = "K"

    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = (
        Column("ecf_rating", lambda p: p.rating, header="ECF"),
        Column("ecf_k", lambda p: p.k),
        Column("ecf_rated_games", lambda p: p.rated_games),
        Column("ecf_score", lambda p: p.score, Form.POINTS),
        Column("ecf_expected", lambda p: p.expected, Form.TOTAL),
        Column("ecf_change", lambda p: p.change, Form.CHANGE, header="ECF change",
               shown=change_if_rated),
        Column("ecf_new_rating", lambda p: p.new_rating, header="New ECF"),
        Column("ecf_p_rating", _p_rating_shown, header="ECF P rating",
               title="a first rating by the ECF's P method, for a player without an ECF rating"),
    )
    """What the ECF adds to the players table beside FIDE."""
    round_columns: ClassVar[tuple[Column[RoundLine], ...]] = (
        Column("ecf_opponent_rating", lambda ln: ln.opponent_rating),
        Column("ecf_rated", lambda ln: ln.rated),
        Column("ecf_reason", lambda ln: ln.reason, Form.TEXT),
        Column("ecf_expected", lambda ln: ln.expected, Form.EXPECTED),
        Column("ecf_change", lambda ln: ln.change, Form.CHANGE),
        Column("ecf_cumulative_change", lambda ln: ln.cumulative, Form.CHANGE),
        Column("ecf_k", lambda ln: ln.k),
    )
    """What the ECF adds to the rounds table beside FIDE (the CSV only)."""

    @classmethod
    def on(cls, start: date, rating_list: RatingList = RatingList.STANDARD) -> EcfSystem:
        """The ECF's rules in force for an event starting on *start*, on *rating_list*."""
        return cls(rules_for(start), rating_list, start)

    # RatingSystem protocol

    def describe(self) -> str:
        """The rules in one line, for report headers."""
        cap = "no cap" if self.rules.cap is None else f"difference capped at {self.rules.cap}"
        early = (f" (the event is before the ECF's ratings began on "
                 f"{VERSIONS[0].valid_from:%d %B %Y}: rated with the first rules)"
                 if self.event_date is not None and self.event_date < VERSIONS[0].valid_from
                 else "")
        return (f"{self.rules_label()}: K {self.rules.k_adult}, juniors (under "
                f"{self.rules.junior_under}) {self.rules.k_junior}; FIDE table 8.1(b), {cap}; "
                f"a month's change rounded once{early}")

    def rules_label(self) -> str:
        suffix = "" if self.rating_list is RatingList.STANDARD else f" ({self.rating_list})"
        return f"{self.rules.label}{suffix}"

    def applies(self, info: TournamentInfo) -> bool:
        """Rated beside FIDE when the source's rating calculation names the English national
        rating (:func:`names_ecf_rating`)."""
        return names_ecf_rating(info.rating_calculation, info.federation)

    def list_note(self, rating_list: RatingList) -> str:
        if rating_list is RatingList.BLITZ:
            return ("ECF blitz: rated with the ECF's standard and rapid arithmetic; no ECF text "
                    "on blitz ratings beyond the dummy rating was found")
        return ""

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """K by age (ECF-M 4): 40 for a junior, 20 otherwise; when the age is not known the
        ECF's adult K 20 with :attr:`KSource.DEFAULT` (the caller's *default* is not used: a
        K published for FIDE is not the ECF's)."""
        status = junior_status(facts, self.rules)
        k = self.rules.k_junior if status.junior else self.rules.k_adult
        return k, KSource.CATEGORY if status.known else KSource.DEFAULT

    def capped_k(self, k: int, games: int) -> int:
        return k  # the ECF has no cap on K × n

    def rate(self, own: int | None, k: int, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None,
             facts: PlayerFacts | None = None) -> list[GameRating]:
        """One player's played games (opponent's ECF rating, score) of one event, each
        K(W − We) with the player's K (ECF-M 4); what the figures rest on is
        :meth:`assumptions`.  Opponents are taken as fully rated: the halving against a
        partial rating (:func:`game_change`) needs the opponent's games, which an event
        does not show."""
        return rate_games(self, own, k, games)

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        """The age and rating method assumed for want of facts (:func:`assumptions`)."""
        return assumptions(facts, self.rules)

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if own is None:
            return "player without ECF rating: rated by the P method (see the first rating)"
        if opponent is None:
            return ("opponent without ECF rating: the ECF rates this game on the opponent's "
                    "P rating from this month's games, which the event alone does not give")
        return None

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None  # the ECF rates it, but on a P rating the event does not give

    def new_rating(self, own: int, change: Decimal) -> int | None:
        """R0 + the change rounded to whole points, .5 away from zero (ECF-M 4; the rounding
        is an assumption: the ECF publishes whole ratings)."""
        return own + round_whole(change)

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        """The P rating from this event alone (:func:`p_rating`), with the adult dummy (the
        player's age is not given here)."""
        return p_rating(opponents, score_h, dummy=dummy_rating(self.rating_list, rules=self.rules),
                        rules=self.rules,
                        note="ECF: age not known, the adult dummy rating assumed; the ECF "
                             "pools all of the month's games")

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        cap = self.rules.cap
        return [cap is not None and abs(own - o) > cap for o in opponents]

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """We, e.g. Decimal('0.36') for 1500 against 1600."""
        return to_decimal(expected_h(own, opponent, self.rules.cap if capped else None))

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """Ra + dp over the games against rated opponents, without the P method's dummy draw:
        FIDE's table 8.1(a), the table beside the 8.1(b) ECF-M 4 names
        (:func:`rating.systems.fide.performance`)."""
        return fide_performance(opponents, score_h)

    # ECF-specific

    def k(self, facts: PlayerFacts) -> int:
        """The K of the player's age (:func:`k_for`)."""
        return k_for(facts, self.rules)

    def month_change(self, totals: Sequence[Decimal]) -> int:
        """A month's change from its events' exact totals, rounded once (:func:`month_change`)."""
        return month_change(totals)


if TYPE_CHECKING:
    _PROTOCOL: RatingSystem = EcfSystem()
    """mypy holds :class:`EcfSystem` to the RatingSystem protocol."""
