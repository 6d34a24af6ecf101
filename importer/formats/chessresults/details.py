"""Dates and rounds as chess-results prints them: the ``turdet=YES`` details block's key/value
rows, and the dates printed elsewhere: round captions ('Round 2 on 2026/08/10 at
10:00', '1. Runde am 26.09.2026'), a tournament name ('… 10 August 2026', '20260808-10') and
the 'Last update 10.06.2019 14:17' line (its date and time).

A date is read only when its reading is certain: year-first (2026/08/10, 2026-08-10) and
dotted day-first (10.08.2026) numbers, month names in several languages, and a slashed or
dashed day-and-month (05/06/2026) only when the day cannot be the month (13/06/2026) or both
are the same; 05/06/2026 is left unread rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time

from importer.formats.chessresults.lang import detail_key, norm
from importer.model import RatingList, SourceWarning, System
from importer.parsing.numbers import whole_number

__all__ = ["Details", "find_dates", "last_update", "parse_details", "rating_list_of",
           "round_caption", "rounds_in_heading", "system_of", "title_dates"]

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
    warnings: tuple[SourceWarning, ...] = field(default=())


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


# ------------------------------------------------------------------ dates in any text

_MONTH_NAMES = (  # lower case; each language's full names, genitives and usual abbreviations
    ("january jan january januar jänner janvier enero janeiro gennaio januari januar "
     "január styczeń stycznia leden ledna siječanj ocak tammikuuta tammikuu "
     "январь января ιανουαρίου"),
    ("february feb febr februar février fevrier febrero fevereiro febbraio februari "
     "február luty lutego únor února veljača şubat subat helmikuuta helmikuu "
     "февраль февраля φεβρουαρίου"),
    ("march mar märz maerz mars marzo março marco maart március marzec marca březen března "
     "ožujak mart maaliskuuta maaliskuu март марта μαρτίου"),
    ("april apr avril abril aprile április kwiecień kwietnia duben dubna travanj nisan "
     "huhtikuuta huhtikuu апрель апреля απριλίου"),
    ("may mai mayo maio maggio mei május maj maja květen května svibanj mayıs mayis "
     "toukokuuta toukokuu май мая μαΐου"),
    ("june jun juni juin junio junho giugno június czerwiec czerwca červen června lipanj "
     "haziran kesäkuuta kesäkuu июнь июня ιουνίου"),
    ("july jul juli juillet julio julho luglio július lipiec lipca červenec července srpanj "
     "temmuz heinäkuuta heinäkuu июль июля ιουλίου"),
    ("august aug august août aout agosto augustus augusztus sierpień sierpnia srpen srpna "
     "kolovoz ağustos agustos elokuuta elokuu август августа αυγούστου"),
    ("september sep sept septembre septiembre setiembre setembro settembre "
     "szeptember wrzesień września září rujan eylül eylul syyskuuta syyskuu "
     "сентябрь сентября σεπτεμβρίου"),
    ("october oct okt oktober octobre octubre outubro ottobre október październik "
     "października říjen října ekim lokakuuta lokakuu октябрь октября "
     "οκτωβρίου"),
    ("november nov novembre noviembre novembro november listopadu kasım "
     "kasim marraskuuta marraskuu ноябрь ноября νοεμβρίου"),
    ("december dec dez dezember décembre decembre diciembre dezembro dicembre "
     "december grudzień grudnia prosinec prosince prosinac aralık aralik joulukuuta joulukuu "
     "декабрь декабря δεκεμβρίου"),
)
_MONTHS: dict[str, int] = {}
for _n, _words in enumerate(_MONTH_NAMES, start=1):
    for _w in _words.split():
        _MONTHS.setdefault(_w, _n)
# never read: 'listopad(a)', November in Polish and Czech but October in Croatian
_MONTH = r"(?=[^\W\d_])(?:" + "|".join(sorted(map(re.escape, _MONTHS), key=len, reverse=True)) + ")"
"""A month name, longest first; the lookahead (every name starts with a letter) spares trying
each of the ~200 names where no letter stands, which is most places a date is looked for."""
_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|º|\.)?"
_TO = r"\s*(?:-|–|—|to|bis|au|al|a|do|до|ile|till|until)\s*"
_YEAR = r"((?:19|20)\d\d)"

# (pattern, reader) pairs in order of precedence; a later pattern never overlaps an earlier
_NUMERIC = (
    # 2026/08/10, 2026-08-10, 2026.08.10
    (re.compile(r"(?<![\d.])((?:19|20)\d\d)([/.-])(\d{1,2})\2(\d{1,2})(?![\d])"), "ymd"),
    # 10.-15.08.2026, 10.08.-15.08.2026 (a German range), then 10.08.2026
    (re.compile(r"(?<![\d.])(\d{1,2})\.(?:(\d{1,2})\.)?\s*[-–]\s*(\d{1,2})\.(\d{1,2})\."
                r"((?:19|20)\d\d)(?!\d)"), "dotrange"),
    (re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)(?!\d)"), "dmy"),
    # 13/06/2026 or 06/13/2026 (only when the reading is certain)
    (re.compile(r"(?<![\d/.-])(\d{1,2})([/-])(\d{1,2})\2((?:19|20)\d\d)(?!\d)"), "xxy"),
)
_NAMED = (
    # 30 July – 5 August 2026
    (re.compile(rf"(?<!\d){_DAY}\s*(?:de\s+)?({_MONTH})\.?{_TO}{_DAY}\s*(?:de\s+)?({_MONTH})"
                rf"\.?(?:\s+de)?,?\s+{_YEAR}(?!\d)", re.IGNORECASE), "dmdmy"),
    # 10 August 2026, 10-15 August 2026, 10. August 2026, 10 de agosto de 2026, 10 августа 2026
    (re.compile(rf"(?<!\d){_DAY}(?:{_TO}{_DAY})?\s*(?:de\s+)?({_MONTH})\.?(?:\s+de)?,?\s+"
                rf"{_YEAR}(?!\d)", re.IGNORECASE), "dmy_named"),
    # August 10, 2026; Aug 10-15 2026
    (re.compile(rf"(?<![^\W\d_])({_MONTH})\.?\s+{_DAY}(?:{_TO}{_DAY})?,?\s+{_YEAR}(?!\d)",
                re.IGNORECASE), "mdy_named"),
    # 2026. augusztus 10. (Hungarian)
    (re.compile(rf"(?<!\d){_YEAR}\.\s*({_MONTH})\s+(\d{{1,2}})(?!\d)", re.IGNORECASE),
     "ymd_named"),
)
_ANY_YEAR = re.compile(r"(?:19|20)\d\d")
"""What every date pattern holds (:data:`_NUMERIC`, :data:`_NAMED`, :data:`_COMPACT`): a text
without it holds no date."""
# 20260808 or 20260808-10 (compact, in tournament names only)
_COMPACT = re.compile(r"(?<![\d.])((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])"
                      r"(?:\s*-\s*(\d{1,2})(?![\d.]))?(?![\d.])")


def _day(y: int | str, m: int | str, d: int | str) -> date | None:
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


def _month(word: str) -> int:
    return _MONTHS[word.casefold().rstrip(".")]


def _read(kind: str, m: re.Match[str]) -> list[date | None]:
    if kind == "ymd":
        return [_day(m[1], m[3], m[4])]
    if kind == "dotrange":
        d1, m1, d2, m2, y = m.groups()
        first_month = int(m1) if m1 else int(m2)
        first_year = int(y) - 1 if first_month > int(m2) else int(y)
        return [_day(first_year, first_month, d1), _day(y, m2, d2)]
    if kind == "dmy":
        return [_day(m[3], m[2], m[1])]
    if kind == "xxy":
        a, b = int(m[1]), int(m[3])
        if a == b or b > 12 >= a:
            return [_day(m[4], a, b)] if b > 12 else [_day(m[4], a, a)]
        if a > 12 >= b:
            return [_day(m[4], b, a)]
        return [None]  # 05/06/2026: the fifth of June or the sixth of May
    if kind == "dmdmy":
        d1, m1, d2, m2, y = m.groups()
        first, second = _month(m1), _month(m2)
        return [_day(int(y) - (first > second), first, d1), _day(y, second, d2)]
    if kind == "dmy_named":
        d1, d2, mo, y = m.groups()
        return [_day(y, _month(mo), d1)] + ([_day(y, _month(mo), d2)] if d2 else [])
    if kind == "mdy_named":
        mo, d1, d2, y = m.groups()
        return [_day(y, _month(mo), d1)] + ([_day(y, _month(mo), d2)] if d2 else [])
    y, mo, d = m.groups()  # ymd_named
    return [_day(y, _month(mo), d)]


def _spans(text: str, *, compact: bool = False, named: bool = True,
           ) -> list[tuple[int, int, list[date]]]:
    """(start, end, dates) of every date or date range in *text*, in text order; *named*:
    also with month names, *compact*: also ``20260808``."""
    found: list[tuple[int, int, list[date]]] = []
    taken: list[tuple[int, int]] = []
    if _ANY_YEAR.search(text) is None:  # the cheap test first: the month names are slow
        return found
    patterns = [*_NUMERIC, *_NAMED] if named else _NUMERIC
    for pattern, kind in patterns:
        for m in pattern.finditer(text):
            a, b = m.span()
            if any(a < e and s < b for s, e in taken):
                continue
            taken.append((a, b))
            days = [d for d in _read(kind, m) if d is not None]
            if days:
                found.append((a, b, days))
    if compact:
        for m in _COMPACT.finditer(text):
            a, b = m.span()
            if any(a < e and s < b for s, e in taken):
                continue
            first = _day(m[1], m[2], m[3])
            last = _day(m[1], m[2], m[4]) if m[4] else None
            if first is not None:
                taken.append((a, b))
                found.append((a, b, [first] + ([last] if last and last >= first else [])))
    return sorted(found, key=lambda f: f[0])


def find_dates(text: str) -> list[date]:
    """Every date whose reading is certain, in text order (a range gives both ends)."""
    return [d for _, _, days in _spans(" ".join(text.split())) for d in days]


def title_dates(name: str) -> list[date]:
    """Dates in a tournament name: as :func:`find_dates`, and compact ``20260808(-10)``."""
    return [d for _, _, days in _spans(" ".join(name.split()), compact=True) for d in days]


_TIME = re.compile(r"\s*(?:,\s*)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?!\d)")


def last_update(text: str) -> datetime | None:
    """The time of a 'Last update 10.06.2019 14:17:36, Creator/Last Upload: …' line (any
    language: the first date followed by a time near the start; seconds 0 when not printed),
    or None."""
    text = " ".join(text.split())
    for a, b, days in _spans(text[:120], named=False):
        m = _TIME.match(text, b)
        if m and a < 80:
            try:
                return datetime.combine(days[0], time(int(m[1]), int(m[2]), int(m[3] or 0)))
            except ValueError:  # 25:61: not a time
                return None
    return None


_ROUND_WORD = (r"(?:round|runde|тур|tur|ronda|rodada|ronde|turno|runda|kolo|kierros|"
               r"forduló|rond|γύρος|raund|vòng)")
_ROUND_NO = (  # 'Round 2', 'Rd. 2'; '1. Runde', '1. Тур' ('3rd' is no round)
    re.compile(rf"(?<!\w)(?:{_ROUND_WORD}|rd)\.?\s*(\d{{1,3}})(?!\d)", re.IGNORECASE),
    re.compile(rf"(?<![\w.])(\d{{1,3}})\s*\.?\s*{_ROUND_WORD}(?!\w)", re.IGNORECASE))


def round_caption(text: str) -> tuple[int, date] | None:
    """(round, date) of a round caption or heading: 'Round 2 on 2026/08/10 at 10:00',
    '1. Тур on 2019/10/12', '1. Runde am 26.09.2026 um 14:00'; None without a round word,
    a round number or a date that can be read for certain."""
    text = " ".join(text.split())
    spans = _spans(text)
    if not spans:
        return None
    rest = text
    for a, b, _ in reversed(spans):
        rest = rest[:a] + " " * (b - a) + rest[b:]
    rest = rest[:spans[0][0]]  # the round comes before its date
    for pattern in _ROUND_NO:
        m = pattern.search(rest)
        if m is not None and 0 < int(m[1]) < 1000:
            return int(m[1]), spans[0][2][0]
    return None


_AFTER_ROUNDS = re.compile(
    r"(?:after|nach|после|tras|después de|despues de|após|apos|après|apres|dopo|po|na)\s+"
    r"(?:(?:the|der|den|la|le|a|o|il|el|de)\s+)?(\d{1,3})\s*(?:\.|ª|º|°|-?го|-?м|th|st|nd|rd)?"
    r"\s*(?:rounds?|runden?|тура|туров|турах|rondas?|rodadas?|rondes?|turni|turno|rundach|"
    r"rundzie|ronden)(?!\w)", re.IGNORECASE)


def rounds_in_heading(text: str) -> int | None:
    """N of a heading 'Final Ranking after 9 Rounds', 'Endstand nach 9 Runden', 'после 9
    тура', 'após a 9ª ronda' (the rounds played when the page was made), or None."""
    m = _AFTER_ROUNDS.search(" ".join(text.split()))
    return int(m[1]) if m and int(m[1]) > 0 else None


# ------------------------------------------------------------------ the details block


def parse_details(rows: Iterable[tuple[str, str]]) -> Details:
    """Read the (label, value) rows of a details block; unknown labels are ignored."""
    found: dict[str, object] = {}
    warnings: list[SourceWarning] = []
    for label, value in rows:
        key = detail_key(label)
        value = " ".join(value.replace("\xa0", " ").split())
        if key is None or key in found:
            continue
        if key == "date":
            days = find_dates(value)
            if days:
                found["start_date"], found["end_date"] = days[0], days[-1]
            else:
                warnings.append(SourceWarning("date", f"details: unreadable date {value!r}"))
        elif key == "rounds":
            if (n := whole_number(value)) is not None:
                found["rounds"] = n
            else:
                warnings.append(SourceWarning(
                    "rounds", f"details: unreadable number of rounds {value!r}"))
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
