"""Time controls as sources write them, read into a typed record: minutes, increment, moves.

One parser for every label fiderate meets: free text (chess-results' details, a TRF ``122``
line, an Excel header: ``90 min/40 moves + 30 min + 30 sec from move 1``, ``90'+30"``,
``45+30``, ``1h30 + 30s``, ``G/90;+30``, ``40/90’ + Game/30’ + 30”/move``,
``100'x40mm + 50'x20mm + 30" from move 1``) and TRF26's encoded ``222`` line (seconds:
``5400+30``, ``40/6000+30:900+30``).  :func:`parse_time_control` gives a
:class:`TimeControl` or None when the label does not say plainly (no numbers, several
controls in one label, different times for White and Black); :func:`classify_time_control`
and :func:`encoded_time_control` read it as the FIDE list it points to (RB24 §1, the rapid and
blitz definitions, written once in :func:`classify_minutes`).

Readings (not in any source's text, stated here once):

* a bare ``N+M`` is N minutes and M seconds a move (chess-results' and arbiters' habit);
* an increment written once is the increment of every period (``… + 30 sec from move 1``);
* a period that is not the last and names no number of moves covers 40 (the first control
  the Rating Regulations long prescribed: "it shall be 40 moves", 1.2 until 2021);
* a bare number alone (``120``) is minutes for the game (marked ``bare``: a guess).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from importer.model import RatingList

__all__ = ["GAME_MOVES", "RATE_WORDS", "Period", "TimeControl", "classify_minutes",
           "classify_time_control", "encoded_time_control", "looks_encoded", "parse_encoded",
           "parse_time_control"]

GAME_MOVES = 60
"""The game length FIDE's minimum times assume: "assuming the game lasts 60 moves" (Rating
Regulations 1.1; RB24 §1: the time allotted plus 60 times any increment)."""

_UNSPLIT_MOVES = 40
"""The moves of a period that is not the last and names none (see the module docstring)."""

RATE_WORDS = (("blitz", RatingList.BLITZ), ("rapid", RatingList.RAPID),
              ("standard", RatingList.STANDARD), ("classical", RatingList.STANDARD))
"""Words in a label or a tournament type that name the list outright."""


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control: its minutes, the seconds added each move, the moves it
    covers (None: the rest of the game)."""

    minutes: Fraction
    increment: int = 0
    moves: int | None = None


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control read from its label: one or more periods, the first played first.

    >>> tc = parse_time_control("90 min/40 moves + 30 min + 30 sec from move 1")
    >>> tc.words, tc.minutes_for(60)
    ('90 min/40 moves + 30 min + 30 s', Fraction(150, 1))
    """

    periods: tuple[Period, ...]
    bare: bool = False
    """The label is a bare number (``120``), read as minutes: a guess, not a statement."""

    @property
    def minutes(self) -> Fraction:
        """The first period's minutes."""
        return self.periods[0].minutes

    @property
    def increment(self) -> int:
        """The first period's increment, seconds a move."""
        return self.periods[0].increment

    @property
    def moves(self) -> int | None:
        """The moves of the first control (None: all the moves in one period)."""
        return self.periods[0].moves

    @property
    def second(self) -> Period | None:
        """The second period, when there is one."""
        return self.periods[1] if len(self.periods) > 1 else None

    def minutes_for(self, moves: int = GAME_MOVES) -> Fraction | None:
        """Each player's time for *moves* moves: every period the game reaches, with its
        increment for each of its moves; None when the periods end before (a last period of a
        number of moves, nothing after it)."""
        total, left = Fraction(0), moves
        for p in self.periods:
            if left <= 0:
                break
            n = left if p.moves is None else min(p.moves, left)
            total += p.minutes + Fraction(p.increment * n, 60)
            left -= n
        return total if left <= 0 else None

    @property
    def rating_list(self) -> RatingList | None:
        """The FIDE list its time for 60 moves points to (:func:`classify_minutes`); a
        control whose periods end before move 60 counts as standard (a first control of a
        number of moves is a classical control's)."""
        total = self.minutes_for()
        return RatingList.STANDARD if total is None else classify_minutes(total)

    @property
    def words(self) -> str:
        """The control in words for people: '15 min + 10 s', '90 min/40 moves + 30 min + 30 s'."""
        same = len({p.increment for p in self.periods}) == 1
        parts = [f"{_number(p.minutes)} min" + (f"/{p.moves} moves" if p.moves else "")
                 + (f" + {p.increment} s" if p.increment and not same else "")
                 for p in self.periods]
        tail = f" + {self.increment} s" if same and self.increment else ""
        return " + ".join(parts) + tail

    @property
    def encoded(self) -> str | None:
        """As TRF26 ``222`` writes it (seconds), or None when a period is not whole seconds."""
        out = []
        for p in self.periods:
            seconds = p.minutes * 60
            if seconds.denominator != 1:
                return None
            out.append((f"{p.moves}/" if p.moves else "") + f"{seconds}"
                       + (f"+{p.increment}" if p.increment else ""))
        return ":".join(out)


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def classify_minutes(total: Fraction | float) -> RatingList | None:
    """FIDE rate of play (RB24 §1) from minutes for 60 moves (time + 60 × increment): rapid
    more than 10 and less than 60, blitz more than 3 and at most 10; None for 3 or less (no
    FIDE list rates it).

    >>> classify_minutes(60), classify_minutes(25), classify_minutes(10), classify_minutes(3)
    (<RatingList.STANDARD: 'standard'>, <RatingList.RAPID: 'rapid'>, <RatingList.BLITZ: 'blitz'>, None)
    """
    if total <= 3:
        return None
    if total >= 60:
        return RatingList.STANDARD
    return RatingList.RAPID if total > 10 else RatingList.BLITZ


# --- TRF26 222: seconds -------------------------------------------------------------------------

_PERIOD = r"(?:\d+/)?\d+(?:\+\d+)?"
_ENCODED = re.compile(rf"{_PERIOD}(?::{_PERIOD})*|W{_PERIOD}(?::{_PERIOD})*-B{_PERIOD}(?::{_PERIOD})*")
"""TRF26 ``222``: periods ``[moves/]seconds[+increment]`` joined by ``:``; ``W…-B…`` when the
colours differ."""
_ENCODED_FROM = 200
"""A bare ``N+M`` with N at least this is TRF26's seconds, below it minutes (``90+30``)."""


def looks_encoded(text: str) -> bool:
    """Whether a label is TRF26's encoded form (``5400+30``, ``40/6000+30:900+30``,
    ``W300-B240``) rather than minutes as people write them (``90+30``, ``40/90``).

    >>> looks_encoded("5400+30"), looks_encoded("90+30"), looks_encoded("40/90+30")
    (True, False, False)
    """
    t = "".join(text.split())
    if not _ENCODED.fullmatch(t):
        return False
    if ":" in t or t.startswith("W"):
        return True
    first = re.match(r"(?:\d+/)?(\d+)", t)
    return first is not None and int(first[1]) >= _ENCODED_FROM


def parse_encoded(text: str) -> TimeControl | None:
    """TRF26 ``222`` (seconds) as a time control; None for different times for White and
    Black, or when the first period is not in the form.  Periods after one not in the form
    are left out.

    >>> parse_encoded("40/6000+30:900+30").words
    '100 min/40 moves + 15 min + 30 s'
    """
    periods = []
    for part in text.strip().split(":"):
        m = re.fullmatch(r"(?:(\d+)/)?(\d+)(?:\+(\d+))?", part.strip())
        if m is None:
            break
        periods.append(Period(minutes=Fraction(int(m[2]), 60), increment=int(m[3] or 0),
                              moves=int(m[1]) if m[1] else None))
    return TimeControl(tuple(periods)) if periods else None


def encoded_time_control(text: str) -> RatingList | None:
    """TRF26 ``222``: ``5400+30``, ``40/6000+30:900+30`` (seconds).

    >>> encoded_time_control("5400+30"), encoded_time_control("900+10")
    (<RatingList.STANDARD: 'standard'>, <RatingList.RAPID: 'rapid'>)
    """
    tc = parse_encoded(text)
    return None if tc is None else tc.rating_list


# --- free text ----------------------------------------------------------------------------------

_QUOTES = str.maketrans({"’": "'", "′": "'", "‘": "'", "`": "'", "´": "'", "”": '"', "″": '"',
                         "“": '"'})
_NOISE = re.compile(
    r"(?:starting\s+)?(?:from|since|ab|dès|desde)\s+(?:the\s+)?(?:move|zug|coup|jugada)\s*"
    r"(?:no\.?\s*)?(?:1|one)\b"
    r"|(?:from\s+)?(?:the\s+)?(?:first|1st)\s+move"
    r"|(?:\b(?:per|a|each|every|pro|por|par)\s*|/\s*)(?:each\s+)?(?:move|zug|mv|coup|jugada)s?\b"
    r"|;?\s*\bd\s*\d+\b|\d+\s*(?:s|secs?|seconds?)?\s*delay")
"""Words that say nothing of the amounts: where the increment starts, 'per move', and a
delay (which adds no time to the clock)."""
_TOKENS = re.compile(r"""
    (?P<hm>(?P<hm_h>\d+)\s*h(?:ours?|rs?)?\s*(?P<hm_m>\d{1,2})(?!\d)\s*(?:minutes?|mins?\.?|m\b|')?
        (?!\s*(?:s\b|secs?|seconds?|"|\d)))
    |(?P<colon>(?P<c_h>\d+):(?P<c_m>\d{2}))(?!\d)
    |(?P<num>\d+(?:[.,]\d+)?)\s*(?P<unit>
        moves?\b|mm\b|mv\b|züge\b|zug\b|coups?\b|jugadas?\b
        |hours?\b|hrs?\b|h\b|stunden?\b|std\b\.?
        |minutes?\b|minuten\b|minutos?\b|mins?\b\.?|mn\b|m\b|'
        |seconds?\b|secs?\b\.?|sek\w*|segundos?\b|s\b|")?
    |(?P<game>\bg(?:ame)?\s*/|\bsd\s*/|\bgame\s+in\b|\ball\s+moves\s+in\b|\brest\s+of\s+the\s+game\b
        |\bfor\s+the\s+rest\b)
    |(?P<plus>\+|\bplus\b|\bwith\b|\band\b|\bincrements?\b|\binc\b|\bbonus\b)
    |(?P<slash>/)
    |(?P<sep>[,;]|\bthen\b|\bfollowed\s+by\b|\bafter\s+that\b)
    |(?P<link>\bin\b|\bfor\b|\bwithin\b|\bx\b|\*)
    """, re.VERBOSE)
_UNITS = {"h": 60, "m": 1, "s": 0, "moves": -1}


def _unit(word: str | None) -> str | None:
    """A unit's class: 'h', 'm' (minutes), 's' (seconds), 'moves', None (no unit)."""
    if not word:
        return None
    w = word.rstrip(".")
    if w in ("'",) or w.startswith(("min", "mn")) or w == "m":
        return "m"
    if w == '"' or w.startswith(("sec", "sek", "seg")) or w == "s":
        return "s"
    if w.startswith(("h", "stund", "std")):
        return "h"
    return "moves"


@dataclass(slots=True)
class _Token:
    kind: str
    """'time' (minutes), 'seconds', 'moves', 'bare' (a number without a unit), or a mark:
    'game', 'plus', 'slash', 'sep', 'link'."""
    value: Fraction = Fraction(0)


def _tokens(text: str) -> list[_Token]:
    low = _NOISE.sub(" ", text.lower().translate(_QUOTES).replace("''", '"'))
    out = []
    for m in _TOKENS.finditer(low):
        if m["hm"]:
            out.append(_Token("time", Fraction(int(m["hm_h"]) * 60 + int(m["hm_m"]))))
        elif m["colon"]:
            out.append(_Token("time", Fraction(int(m["c_h"]) * 60 + int(m["c_m"]))))
        elif m["num"]:
            value = Fraction(m["num"].replace(",", "."))
            unit = _unit(m["unit"])
            kind = {"h": "time", "m": "time", "s": "seconds", "moves": "moves", None: "bare"}[unit]
            out.append(_Token(kind, value * 60 if unit == "h" else value))
        else:
            out.append(_Token(next(k for k in ("game", "plus", "slash", "sep", "link") if m[k])))
    return out


class _Unclear(Exception):
    """The label does not say one time control plainly."""


def _free(text: str) -> TimeControl | None:
    tokens = _tokens(text)
    periods: list[list[Fraction | int | None]] = []  # [minutes, moves]
    increment: Fraction | None = None
    pending: int | None = None  # "40 moves in …", "40/…": the moves of the next period
    fresh = False  # the last token that counted opened a period (its moves may follow)
    bare = False

    def after(i: int, *skip: str) -> _Token | None:
        return next((t for t in tokens[i + 1:] if t.kind not in skip), None)

    def before(i: int) -> _Token | None:
        return tokens[i - 1] if i > 0 else None

    def open_period(minutes: Fraction) -> None:
        nonlocal pending, fresh
        periods.append([minutes, pending])
        pending, fresh = None, pending is None

    for i, tok in enumerate(tokens):
        if tok.kind == "time":
            open_period(tok.value)
        elif tok.kind == "seconds":
            if increment is not None and increment != tok.value:
                raise _Unclear
            increment, fresh = tok.value, False
        elif tok.kind == "moves":
            nxt = after(i, "link")
            if nxt is not None and nxt.kind in ("time", "bare") and (
                    not periods or not fresh):
                pending = int(tok.value)
            elif periods and fresh:
                periods[-1][1], fresh = int(tok.value), False
            else:
                pending = int(tok.value)
        elif tok.kind == "bare":
            prev, nxt = before(i), after(i)
            if nxt is not None and nxt.kind == "slash" and pending is None and (
                    not periods or (prev is not None and prev.kind in ("plus", "sep"))):
                pending = int(tok.value)  # '40/90', a number of moves before its time
            elif prev is not None and prev.kind == "plus" and periods:
                if increment is not None and increment != tok.value:
                    raise _Unclear
                increment, fresh = tok.value, False  # '45+30', '90\'+30', 'G/90;+30'
            elif prev is not None and prev.kind == "slash" and pending is not None:
                open_period(tok.value)  # the time of '40/90'
            elif prev is not None and prev.kind == "slash" and periods and fresh:
                periods[-1][1], fresh = int(tok.value), False  # "90'/40"
            elif prev is not None and prev.kind == "game":
                open_period(tok.value)  # 'G/15', 'Game/30'
            elif not periods:
                open_period(tok.value)
                bare = True
            else:
                raise _Unclear  # another number: '10+0 7+3'
        elif tok.kind in ("sep", "plus"):
            fresh = False  # what follows is another period or the increment
    if not periods:
        return None
    inc = int(increment) if increment is not None and increment.denominator == 1 else None
    if inc is None and increment is not None:
        raise _Unclear
    last = len(periods) - 1
    out = tuple(Period(minutes=Fraction(minutes or 0),
                       increment=inc or 0,
                       moves=(int(moves) if moves is not None
                              else _UNSPLIT_MOVES if n < last else None))
                for n, (minutes, moves) in enumerate(periods))
    if any(p.minutes <= 0 for p in out):
        return None
    return TimeControl(out, bare=bare and len(out) == 1 and increment is None)


def parse_time_control(text: str) -> TimeControl | None:
    """A time control label read into its periods, or None when it does not say one plainly.

    >>> [parse_time_control(s).words for s in ("90'+30\\"", "1h30 + 30s", "G/90;+30", "5400+30")]
    ['90 min + 30 s', '90 min + 30 s', '90 min + 30 s', '90 min + 30 s']
    >>> parse_time_control("10+0 7+3") is None, parse_time_control("moves/time") is None
    (True, True)
    """
    if not text or not text.strip():
        return None
    if looks_encoded(text):
        return parse_encoded("".join(text.split()))
    try:
        return _free(text)
    except _Unclear:
        return None


def classify_time_control(text: str) -> RatingList | None:
    """The FIDE list a free-text time control points to, or None when it cannot tell.

    >>> classify_time_control("90 min + 30 sec"), classify_time_control("15 minutes plus 10 sec")
    (<RatingList.STANDARD: 'standard'>, <RatingList.RAPID: 'rapid'>)
    """
    low = text.lower()
    for word, rl in RATE_WORDS:
        if word in low:
            return rl
    tc = parse_time_control(text)
    return None if tc is None else tc.rating_list
