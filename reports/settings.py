"""A report's settings as people give them (a web form, a query, a command-line option),
each checked once here, with the message in words for people.

The command line and the web server read the same values through these functions, so a bad
K or date gets the same answer in both; neither runs the other's parser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from rating.norms import EventClass
from rating.systems import registry
from reports.errors import ReportError

__all__ = [
    "DEFAULT_K",
    "K_MAX",
    "K_MIN",
    "TARGET_MAX",
    "TARGET_MIN",
    "ReportSettings",
    "SettingError",
    "parse_date",
    "parse_event_class",
    "parse_flag",
    "parse_k",
    "parse_system",
    "parse_systems",
    "parse_target",
]

DEFAULT_K = 20
"""K for players whose K is not published, listed or derivable."""
K_MIN, K_MAX = 1, 100
"""The K a user may give: FIDE's are 10, 20 and 40; national systems go up to 100."""


class SettingError(ReportError):
    """A setting that cannot be used; the message says which and what is expected."""


def parse_k(text: str | int, what: str = "K") -> int:
    """A K given by a user: a whole number from 1 to 100 (*what*: the K's name in messages)."""
    try:
        k = int(str(text).strip())
    except ValueError:
        raise SettingError(f"{what} {str(text).strip()!r}: expected a whole number from "
                           f"{K_MIN} to {K_MAX}") from None
    if not K_MIN <= k <= K_MAX:
        raise SettingError(f"{what} {k}: expected a whole number from {K_MIN} to {K_MAX}")
    return k


TARGET_MIN, TARGET_MAX = 1000, 3000
"""The rating targets a user may give: FIDE's lowest rating to above the best player's."""


def parse_target(text: str | int) -> int:
    """A rating target given by a user: a whole number from 1000 to 3000."""
    try:
        target = int(str(text).strip())
    except ValueError:
        raise SettingError(f"target {str(text).strip()!r}: expected a rating, a whole number "
                           f"from {TARGET_MIN} to {TARGET_MAX}") from None
    if not TARGET_MIN <= target <= TARGET_MAX:
        raise SettingError(f"target {target}: expected a rating from {TARGET_MIN} to "
                           f"{TARGET_MAX}")
    return target


def parse_date(text: str) -> date:
    """A date given by a user, YYYY-MM-DD."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise SettingError(f"date {text.strip()!r}: expected a date YYYY-MM-DD") from None


def parse_system(text: str) -> str:
    """A rating system's registered name (case and spaces ignored)."""
    name = text.strip().lower()
    names = registry.names()
    if name not in names:
        raise SettingError(f"rating system {text.strip()!r}: choose one of {', '.join(names)}")
    return name



def parse_systems(text: str) -> tuple[str, ...]:
    """Rating systems' registered names, comma-separated ('fide,dwz'): the first is the
    report's own, the others are shown beside it; each once."""
    names = tuple(dict.fromkeys(parse_system(part) for part in text.split(",") if part.strip()))
    if not names:
        raise SettingError(f"rating system: choose one or more of {', '.join(registry.names())}")
    return names


def parse_event_class(text: str) -> EventClass:
    """An event class given by a user (case and spaces ignored)."""
    name = text.strip().lower()
    try:
        return EventClass(name)
    except ValueError:
        choices = "; ".join(f"{c.value} ({c.words})" for c in EventClass)
        raise SettingError(f"event class {text.strip()!r}: choose one of {choices}") from None


_YES, _NO = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def parse_flag(text: str, what: str) -> bool:
    """A yes/no setting (a form's checkbox sends 'on'); *what* names it in messages."""
    word = text.strip().lower()
    if word in _YES or word in _NO:
        return word in _YES
    raise SettingError(f"{what} {text.strip()!r}: expected yes or no")


@dataclass(frozen=True, slots=True)
class ReportSettings:
    """What a report is built with besides its source."""

    system: str = "fide"
    player: str | None = None
    """The player asked for: start number, name or FIDE id (None: every player)."""
    k: int = DEFAULT_K
    on: date | None = None
    """The date whose rules apply when the source gives none."""
    event_class: EventClass | None = None
    """What kind of event it is, for the title norms (None: not given)."""
    qc_approved: bool = False
    """FIDE's Qualification Commission approved the event's fast-standard time control for
    title norms (no source shows it)."""
    also: tuple[str, ...] = ()
    """Systems shown beside *system*, as asked ('dwz', 'ecf'; those the source names are
    added anyway)."""
    target: int | None = None
    """The player's own rating target, shown with what reaching it needs (None: none)."""
    store: str | None = None
    """The rating register whose FIDE list gives players' K (the server's, never a user's:
    :meth:`from_fields` leaves it out)."""

    @classmethod
    def from_fields(cls, fields: Mapping[str, str]) -> ReportSettings:
        """The settings of a form or query (fields ``system`` — one name, or several
        comma-separated — ``also_<system>`` ticked, ``player``, ``k``, ``date``,
        ``event_class``, ``qc_approved``, ``target``;
        an empty or missing field takes the default); SettingError for a bad value."""
        def given(name: str) -> str:
            return (fields.get(name) or "").strip()

        systems = parse_systems(given("system")) if given("system") else ("fide",)
        ticked = tuple(n for n in registry.names()
                       if parse_flag(given(f"also_{n}"), f"also_{n}") and n not in systems)
        return cls(system=systems[0], also=(*systems[1:], *ticked),
                   player=given("player") or None,
                   k=parse_k(given("k")) if given("k") else DEFAULT_K,
                   on=parse_date(given("date")) if given("date") else None,
                   event_class=(parse_event_class(given("event_class"))
                                if given("event_class") else None),
                   qc_approved=parse_flag(given("qc_approved"), "qc_approved"),
                   target=parse_target(given("target")) if given("target") else None)
