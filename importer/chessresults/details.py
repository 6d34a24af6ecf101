"""The ``turdet=YES`` tournament-details block: key/value rows → header facts (spec §15)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from importer.chessresults.lang import detail_key, norm
from importer.model import RatingList, System

__all__ = ["Details", "parse_details", "rating_list_of", "system_of"]

_DATES = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})|(\d{1,2})\.(\d{1,2})\.(\d{4})")
_FED = re.compile(r"\(\s*([A-Z]{3})\s*\)")


@dataclass(frozen=True, slots=True)
class Details:
    """What the details block says (empty fields when it says nothing)."""

    start_date: date | None = None
    end_date: date | None = None
    rounds: int | None = None
    system: System | None = None
    tournament_type: str = ""
    rating_list: RatingList | None = None
    time_control: str = ""
    rating_calculation: str = ""
    fide_event_id: str = ""
    federation: str = ""
    warnings: tuple[str, ...] = field(default=())


def rating_list_of(label: str, value: str) -> RatingList | None:
    """The list from the time-control label's bracket ('(Rapid)') or value ('Standard: 90min')."""
    for text in (label, value):
        t = text.casefold()
        if "blitz" in t:
            return RatingList.BLITZ
        if "rapid" in t or "rápid" in t or "schnell" in t:
            return RatingList.RAPID
        if "standard" in t or "classic" in t:
            return RatingList.STANDARD
    return None


def system_of(tournament_type: str) -> System | None:
    """Team / round robin / Swiss from 'Tournament type' (team wins: 'Mannschafts-Rundenturniere')."""
    t = tournament_type.casefold()
    if "team" in t or "mannschaft" in t:
        return System.TEAM
    if "round robin" in t or "round-robin" in t or "rundenturnier" in t or "круговая" in t:
        return System.ROUND_ROBIN
    if "swiss" in t or "schweizer" in t or "suíço" in t or "швейцар" in t:
        return System.SWISS
    return None


def _dates(value: str) -> list[date]:
    out = []
    for m in _DATES.finditer(value):
        y, mo, d = (m[1], m[2], m[3]) if m[1] else (m[6], m[5], m[4])
        try:
            out.append(date(int(y), int(mo), int(d)))
        except ValueError:
            continue
    return out


def parse_details(rows: Iterable[tuple[str, str]]) -> Details:
    """Read the (label, value) rows of a details block; unknown labels are ignored."""
    found: dict[str, object] = {}
    warnings: list[str] = []
    for label, value in rows:
        key = detail_key(label)
        value = " ".join(value.replace("\xa0", " ").split())
        if key is None or key in found:
            continue
        if key == "date":
            days = _dates(value)
            if days:
                found["start_date"], found["end_date"] = days[0], days[-1]
            else:
                warnings.append(f"details: unreadable date {value!r}")
        elif key == "rounds":
            if value.isdigit() and value.isascii():
                found["rounds"] = int(value)
            else:
                warnings.append(f"details: unreadable number of rounds {value!r}")
        elif key == "type":
            found["tournament_type"] = value
            found["system"] = system_of(value)
        elif key == "time_control":
            found["time_control"] = value
            found["rating_list"] = rating_list_of(norm(label), value)
        elif key == "federation":
            m = _FED.search(value)
            found["federation"] = m[1] if m else value
        elif key in ("rating_calculation", "fide_event_id"):
            found[key] = value
    return Details(**found, warnings=tuple(warnings))  # type: ignore[arg-type]
