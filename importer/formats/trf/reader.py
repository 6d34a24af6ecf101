"""FIDE Tournament Report Files (TRF16, TRF26, TRF(x)) → :class:`Tournament`.

The reader follows FIDE's TRF16 description (and the TRF-2026 additions): fixed columns, a
10-column round stride from column 92, unknown records ignored, tolerant dates, and the ``001`` points
column used to reconcile blank results (the ICU files write byes as blanks).

Choices worth knowing:

* The ``132`` round dates are read in one order for the whole line (``YY/MM/DD``, ``YY/DD/MM``,
  ``DD/MM/YY``, …): the one that puts every round within the ``042``..``052`` dates give or
  take a week (an ``052`` left at the first day); when several do, all inside first, then
  non-decreasing dates, then ``YY/MM/DD``.  When none does, one warning and the round dates are
  left out (the event's dates stand); without both event dates, each round date is read the
  way nearest the one before.
* Round results are kept for rounds 1 … the last round any player has data for; ``XXR``/``142``
  (the planned number of rounds) only sets ``TournamentInfo.rounds``.
* ``W``/``D``/``L`` (a game of less than one move) give the status ``unplayed`` (scored, never
  rated); their :class:`Game` record carries the plain result (``1-0``, ``1/2-1/2``, ``0-1``).
* An id of fewer than 6 digits in the FIDE-id column is a national id (ICU files; real FIDE
  ids have at least 6 digits): it goes to ``Player.national_id``, with one warning per file.
* Sex is normalised to ``m``/``w`` (``M``; ``W``/``F``/``f`` → ``w``); anything else → ''.
* A full point with nobody opposite (``0000 - +``, as older files and team events write it)
  is a bye (``Status.BYE``, 1 point), not a forfeit win: there is no opponent to forfeit.
* A requested full-point bye (``F``) is told apart from a pairing-allocated one (``U``) by
  ``RoundResult.requested`` (the title norms' 8-game case, 1.4.1, needs the difference).
* Some pairing programs write the bye as a placeholder "player" ("spielfrei", "BYE",
  "Freilos", …).  Such a line is recognised by its structure (see :func:`_find_placeholders`):
  no rating, no id, never at a board.  It is left out, and its opponents' rounds against it
  become what they were, a bye worth what their own record gives (``+``/``U``/``F`` → bye,
  ``H`` → half-point bye, ``-``/``Z`` → absent), with one warning naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from itertools import pairwise

from importer.errors import InputError
from importer.formats.trf.dates import (
    ORDERS,
    RATE_WORDS,
    classify_time_control,
    date_in_order,
    encoded_time_control,
    parse_date,
)
from importer.model import FULL_POINT as _ONE
from importer.model import HALF_POINT as _HALF
from importer.model import NO_POINT as _ZERO
from importer.model import (
    Colour,
    DateSource,
    ListSource,
    Player,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    System,
    Tournament,
    TournamentInfo,
    as_points,
)
from importer.parsing.list_hints import with_list_hint
from importer.parsing.numbers import checked_rating, whole_number
from importer.parsing.pairings import games_from_results

__all__ = ["MIN_FIDE_ID_DIGITS", "NOT_NRS", "decode_trf", "looks_like_trf", "parse_trf"]

_TRF06_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
                 "wf": "WFM", "wc": "WCM"}
_SEX = {"m": "m", "M": "m", "w": "w", "W": "w", "f": "w", "F": "w"}
_RESULT_CODES = frozenset("10=+-WDLHFUZ ")
NOT_NRS = frozenset({"DAT", "TNR", "ACC"})
MIN_FIDE_ID_DIGITS = 6


def decode_trf(data: bytes) -> str:
    """Bytes → text: UTF-8 (a BOM is dropped), else cp1252, else Latin-1; line ends → LF."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    return re.sub(r"\r\n|\r", "\n", text)


_SNIFF = re.compile(r"^(?:001 [ \d]{3}\d|012 \S)", re.MULTILINE)


def looks_like_trf(text: str) -> bool:
    """True when the text has TRF ``001`` player or ``012`` name records."""
    return _SNIFF.search(text.lstrip("\ufeff")[:200_000]) is not None


# ---------------------------------------------------------------- point systems


_DEFAULT_POINTS = {"WW": 1.0, "BW": 1.0, "WD": 0.5, "BD": 0.5, "WL": 0.0, "BL": 0.0,
                   "ZPB": 0.0, "HPB": 0.5, "FPB": 1.0, "PAB": 1.0, "FW": 1.0, "FL": 0.0}
_SHORTCUTS = {"W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB"), "L": ("WL", "BL"),
              "A": ("ZPB", "FL"), "Z": ("ZPB", "FL"), "P": ("PAB",)}
_BB_CODES = {"BBW": ("WW", "BW", "FW", "FPB"), "BBD": ("WD", "BD", "HPB"), "BBL": ("WL", "BL"),
             "BBZ": ("ZPB",), "BBF": ("FL",), "BBU": ("PAB",)}


def _float(text: str) -> float | None:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e6 else None


# ---------------------------------------------------------------- reader


@dataclass
class _Round:
    opponent: int | None
    colour: str
    code: str


@dataclass
class _Row:
    line: int
    player: Player
    rounds: list[_Round]


@dataclass
class _State:
    source: str
    warnings: list[SourceWarning] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)
    round_dates: list[str] = field(default_factory=list)
    round_dates_line: int | None = None
    deputies: list[str] = field(default_factory=list)
    rows: dict[int, _Row] = field(default_factory=dict)
    nrs: list[tuple[int, int | None, str]] = field(default_factory=list)
    teams: list[tuple[str, list[int], int]] = field(default_factory=list)
    teams310: list[tuple[str, list[int], int]] = field(default_factory=list)
    points: dict[str, float] = field(default_factory=lambda: dict(_DEFAULT_POINTS))
    planned_rounds: int | None = None
    short_ids: int = 0
    dropped: set[int] = field(default_factory=set)

    def warn(self, code: str, message: str, line: int | None = None, *,
             players: tuple[int, ...] = (), round: int | None = None) -> None:
        self.add(SourceWarning(code, message, players, round), line)

    def add(self, warning: SourceWarning, line: int | None = None) -> None:
        """Keep *warning*, with the file and line it was found at."""
        where = self.source
        if line is not None:
            where = f"{where}:{line}" if where else f"line {line}"
        self.warnings.append(warning.at(where))

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, source=self.source, line=line)


def _number(st: _State, text: str, what: str, cols: str, lineno: int) -> int | None:
    t = text.strip()
    if not t:
        return None
    if not (t.isascii() and t.isdigit()):
        raise st.error(f"expected {what} (digits) in columns {cols}, found {t!r}", lineno)
    return int(t)


def _title(raw: str) -> str:
    t = raw.strip()
    return _TRF06_TITLES.get(t.lower(), t.upper()) if t else ""


def _player_fields(st: _State, line: str, lineno: int, *, nrs: bool = False) -> Player:
    line = line.ljust(91)
    start_no = _number(st, line[4:8], "a starting rank", "5-8", lineno)
    if not start_no:
        raise st.error(f"expected a starting rank (1-9999) in columns 5-8, found "
                       f"{line[4:8].strip()!r}", lineno)
    name = " ".join(line[14:47].split())
    rating = _number(st, line[48:52], "a rating", "49-52", lineno)
    try:  # an NRS line's rating is the national one
        rating = checked_rating(rating, start_no, name, national=nrs)
    except InputError as e:
        raise st.error(str(e), lineno) from None
    raw_id = line[57:68].strip()
    if raw_id and not (raw_id.isascii() and raw_id.isdigit()):
        raise st.error(f"expected an id (digits) in columns 58-68, found {raw_id!r}", lineno)
    fide_id = "" if not raw_id or int(raw_id) == 0 else raw_id
    national_id = ""
    if fide_id and len(fide_id) < MIN_FIDE_ID_DIGITS and not nrs:
        national_id, fide_id = fide_id, ""
        st.short_ids += 1
    birth = line[69:79].strip()
    birth_year = birth_date = None
    m = re.match(r"(\d{4})(?:[/.-](\d\d)[/.-](\d\d))?", birth)
    if m and int(m[1]) > 0:
        birth_year = int(m[1])
        if m[2] and int(m[2]) and int(m[3]):
            try:
                birth_date = date(birth_year, int(m[2]), int(m[3]))
            except ValueError:
                st.warn("birth-date", f"unreadable birth date {birth!r} (columns 70-79): only "
                        "the year kept", lineno, players=(start_no,))
    elif birth.strip(" ./-0"):
        st.warn("birth-date", f"unreadable birth date {birth!r} (columns 70-79) ignored", lineno,
                players=(start_no,))
    points = None
    raw_points = line[80:84].strip()
    if raw_points:
        points = _float(raw_points)
        if points is None or points < 0:
            raise st.error(f"expected points (e.g. ' 4.5') in columns 81-84, found "
                           f"{raw_points!r}", lineno)
    rank = _number(st, line[85:89], "a rank", "86-89", lineno)
    return Player(start_no=start_no, name=name,
                  title=_title(line[10:13]), sex=_SEX.get(line[9], ""),
                  federation=line[53:56].strip(), fide_id=fide_id, national_id=national_id,
                  rating=rating, birth_year=birth_year, birth_date=birth_date,
                  points=as_points(points), rank=rank)


def _read_001(st: _State, line: str, lineno: int) -> None:
    player = _player_fields(st, line, lineno)
    rounds: list[_Round] = []
    body = line.rstrip()
    for i, col in enumerate(range(91, len(body), 10)):
        block = body[col:col + 8].ljust(8)
        opp = _number(st, block[0:4], f"round {i + 1}'s opponent", f"{col + 1}-{col + 4}",
                      lineno)
        colour = block[5]
        code = block[7].upper()
        if code not in _RESULT_CODES:
            raise st.error(f"round {i + 1}: unknown result code {block[7]!r} in column "
                           f"{col + 8} (expected one of 1 0 = + - W D L H F U Z)", lineno)
        if colour not in "wWbB- ":
            st.warn("colour", f"round {i + 1}: unknown colour {colour!r} in column {col + 6} "
                    "ignored", lineno, players=(player.start_no,), round=i + 1)
        rounds.append(_Round(opp or None, colour.lower(), code))
    if player.start_no in st.rows:
        raise st.error(f"starting rank {player.start_no} appears twice (broken file)", lineno)
    st.rows[player.start_no] = _Row(lineno, player, rounds)


def _read_team(st: _State, line: str, lineno: int, name_cols: tuple[int, int],
               first_col: int, into: list[tuple[str, list[int], int]]) -> None:
    name = line[name_cols[0]:name_cols[1]].strip()
    members = []
    for token in line[first_col:].split():
        no = whole_number(token)
        if no is None:
            raise st.error(f"expected team members' starting ranks (digits) from column "
                           f"{first_col + 1}, found {token!r}", lineno)
        if no:
            members.append(no)
    into.append((name, members, lineno))


def _read_points_system(st: _State, code: str, rest: str, lineno: int) -> None:
    if code == "XXS":
        for token in rest.split():
            key, _, value = token.partition("=")
            v = _float(value)
            keys = _SHORTCUTS.get(key.upper(), (key.upper(),))
            if v is None or not all(k in _DEFAULT_POINTS for k in keys):
                st.warn("point-code", f"XXS: unknown point code {token!r} ignored", lineno)
                continue
            st.points.update(dict.fromkeys(keys, v))
    elif code == "162":
        for m in re.finditer(r"([A-Za-z])\s*(\d+(?:[.,]\d+)?)", rest):
            v = _float(m[2])
            symbol = _SHORTCUTS.get(m[1].upper())
            if symbol is not None and v is not None:
                st.points.update(dict.fromkeys(symbol, v))
    else:
        v = _float(rest.strip())
        if v is None:
            st.warn("point-code", f"{code}: expected a points value, found {rest.strip()!r}",
                    lineno)
        else:
            st.points.update(dict.fromkeys(_BB_CODES[code], v))


def _read_line(st: _State, line: str, lineno: int) -> None:
    code, rest = line[:3], line[4:]
    if code == "001":
        _read_001(st, line, lineno)
    elif code == "012":
        if "012" not in st.header and not line.startswith("0123456789"):  # not a ruler
            st.header["012"] = rest.strip()
    elif re.fullmatch(r"\d\d2", code):
        if code == "132":
            st.round_dates = [line[c:c + 8] for c in range(91, len(line), 10)]
            st.round_dates_line = lineno
        elif code == "112" and rest.strip():
            st.deputies.append(rest.strip())
        elif code == "142":
            st.planned_rounds = _rounds_value(st, rest, lineno) or st.planned_rounds
        elif code == "162":
            _read_points_system(st, code, line[5:], lineno)
        st.header.setdefault(code, rest.strip())
    elif code == "013":
        _read_team(st, line, lineno, (4, 36), 36, st.teams)
    elif code == "310":
        _read_team(st, line, lineno, (8, 40), 73, st.teams310)
    elif code == "XXR":
        st.planned_rounds = _rounds_value(st, rest, lineno)
    elif code == "XXS" or code in _BB_CODES:
        _read_points_system(st, code, rest, lineno)
    elif (re.fullmatch(r"[A-Z]{3}", code) and not code.startswith(("XX", "BB"))
          and code not in NOT_NRS and re.fullmatch(r" [ \d]{3}\d", line[3:8])):
        p = _player_fields(st, line, lineno, nrs=True)
        st.nrs.append((p.start_no, p.rating, p.fide_id))
    # anything else: unknown records, comments, rulers and legends are ignored


def _rounds_value(st: _State, rest: str, lineno: int) -> int | None:
    t = rest.split()
    n = whole_number(t[0]) if t else None
    if n is not None and 0 < n < 1000:
        return n
    st.warn("rounds", f"number of rounds {rest.strip()!r} unreadable, ignored", lineno)
    return None


_PLAYED = {"1": (_ONE, Status.PLAYED), "0": (_ZERO, Status.PLAYED), "=": (_HALF, Status.PLAYED),
           "W": (_ONE, Status.UNPLAYED), "L": (_ZERO, Status.UNPLAYED),
           "D": (_HALF, Status.UNPLAYED), "+": (_ONE, Status.FORFEIT_WIN),
           "-": (_ZERO, Status.FORFEIT_LOSS)}
_NO_GAME = {"H": (_HALF, Status.HALF_BYE), "F": (_ONE, Status.BYE), "U": (_ONE, Status.BYE),
            "Z": (_ZERO, Status.ABSENT), "-": (_ZERO, Status.ABSENT), " ": (_ZERO, Status.ABSENT),
            "+": (_ONE, Status.BYE), "1": (_ONE, Status.BYE), "W": (_ONE, Status.BYE),
            "=": (_HALF, Status.HALF_BYE), "D": (_HALF, Status.HALF_BYE),
            "0": (_ZERO, Status.ABSENT), "L": (_ZERO, Status.ABSENT)}
_COLOURS = {"w": Colour.WHITE, "b": Colour.BLACK}


def _event_points(pts: dict[str, float], rnd: _Round, status: Status) -> float:
    """The points one round scores under the event's point system (TRF XXS and 162 point systems)."""
    side = "B" if rnd.colour == "b" else "W"
    if status is Status.PLAYED or status is Status.UNPLAYED:
        outcome = {"1": "W", "W": "W", "=": "D", "D": "D"}.get(rnd.code, "L")
        return pts[side + outcome]
    return {Status.FORFEIT_WIN: pts["FW"], Status.FORFEIT_LOSS: pts["FL"],
            Status.HALF_BYE: pts["HPB"], Status.PENDING: 0.0,
            # '0000 - +' is scored as the forfeit win the file wrote, whatever it is read as
            Status.BYE: pts[{"U": "PAB", "+": "FW"}.get(rnd.code, "FPB")],
            Status.ABSENT: pts["ZPB"] if rnd.code == "Z" else 0.0}[status]


def _classify(st: _State, row: _Row, r: int, rnd: _Round, last_round: int) -> RoundResult:
    no = row.player.start_no
    if rnd.opponent is not None:
        if rnd.opponent not in st.rows:
            declared = st.header.get("062", "").split()
            count = (f"; 062 says {declared[0]} players, the file has {len(st.rows)}"
                     if declared and declared[0] != str(len(st.rows)) else "")
            raise st.error(f"round {r}: opponent {rnd.opponent} of player {no} is not in the "
                           f"tournament (broken or truncated file{count})", row.line)
        if rnd.opponent == no:
            raise st.error(f"round {r}: player {no} is paired with themselves (broken file)",
                           row.line)
        if rnd.code in _PLAYED:
            points, status = _PLAYED[rnd.code]
            return RoundResult(start_no=no, round=r, status=status, opponent_no=rnd.opponent,
                               colour=_COLOURS.get(rnd.colour, Colour.NONE), points=points)
        if rnd.code == " ":
            if r != last_round:
                st.warn("no-result", f"round {r}: player {no} is paired with {rnd.opponent} but "
                        "has no result (read as pending)", row.line, players=(no,), round=r)
            return RoundResult(start_no=no, round=r, status=Status.PENDING,
                               opponent_no=rnd.opponent,
                               colour=_COLOURS.get(rnd.colour, Colour.NONE))
        st.warn("result-code", f"round {r}: player {no} has code {rnd.code!r} with opponent "
                f"{rnd.opponent} (opponent ignored)", row.line, players=(no,), round=r)
    elif rnd.code in "10=WDL":
        st.warn("result-code", f"round {r}: player {no} has result {rnd.code!r} without an "
                "opponent (read as a bye or absence)", row.line, players=(no,), round=r)
    points, status = _NO_GAME[rnd.code]
    return RoundResult(start_no=no, round=r, status=status, points=points,
                       requested=rnd.code == "F")


def _reconcile(st: _State, row: _Row, results: list[RoundResult]) -> list[RoundResult]:
    """Give blank results the value the points column needs."""
    if row.player.points is None:
        return results
    printed = float(row.player.points)  # the file's own point system (XXS) is in floats
    blanks = [i for i, (res, rnd) in enumerate(zip(results, _padded(row, len(results)),
                                                   strict=True))
              if res.status is Status.ABSENT and rnd.code == " "]
    total = _event_total(st, row, results)
    diff = round(printed - total, 3)
    if abs(diff) < 1e-6:
        return results
    no = row.player.start_no
    half, full = st.points["HPB"], st.points["FPB"]
    plan: list[tuple[int, int]] = []  # (full byes, half byes)
    if blanks and diff > 0:
        n = len(blanks)
        plan = [(k, h) for h in range(n if half > 0 else 0, -1, -1)
                for k in range(0, (n - h if full > 0 else 0) + 1)
                if abs(k * full + h * half - diff) < 1e-6]
    if not plan:
        st.warn("points-differ", f"player {no}: points column says {printed:g} but the "
                f"results give {total:g}", row.line, players=(no,))
        return results
    fulls, halves = min(plan, key=lambda kh: (len(blanks) - kh[0] - kh[1], kh[0]))
    out = list(results)
    changed = []
    for j, i in enumerate(blanks[:fulls + halves]):
        status, pts = (Status.BYE, _ONE) if j < fulls else (Status.HALF_BYE, _HALF)
        out[i] = RoundResult(start_no=no, round=i + 1, status=status, points=pts)
        changed.append(f"round {i + 1} → {'bye' if j < fulls else 'half-point bye'}")
    st.warn("points-blank", f"player {no}: blank result read from the points column "
            f"({printed:g}): {', '.join(changed)}", row.line, players=(no,))
    return out


def _event_total(st: _State, row: _Row, results: list[RoundResult]) -> float:
    """A player's points from their results, in the file's own point system (XXS)."""
    return sum(_event_points(st.points, rnd, res.status)
               for res, rnd in zip(results, _padded(row, len(results)), strict=True))


def _padded(row: _Row, n: int) -> list[_Round]:
    return row.rounds[:n] + [_Round(None, " ", " ")] * (n - len(row.rounds))


# ---------------------------------------------------------------- bye placeholders


_PLACEHOLDER_WORDS = frozenset({
    "bye", "byes", "pab", "spielfrei", "freilos", "frei", "libre", "exempt", "exempte",
    "exempté", "bay", "vrij", "oneven", "pauza", "volno", "riposo", "descanso", "folga",
    "pause", "свободен"})
"""Names pairing programs give their bye placeholder, as words (case ignored)."""
_OWN_CODES_WITH_OPPONENT = frozenset("-Z")
"""What a placeholder's own line may show against an opponent: it never plays."""
_OPPONENT_CODES = {"+": "bye", "U": "bye", "F": "bye", "H": "half-point bye", "-": "absence",
                   "Z": "absence"}
"""What an opponent's line may show against a placeholder, and what that round becomes."""


def _placeholder_name(name: str, paired: bool) -> bool:
    """A name of placeholder words only ('spielfrei', 'Bye, Bye'), or none at all if paired."""
    words = re.findall(r"[^\W\d_]+", name.lower())
    return all(w in _PLACEHOLDER_WORDS for w in words) and (paired or bool(words))


def _find_placeholders(st: _State) -> list[int]:
    """Starting ranks of the lines that are the pairing program's bye, not a player.

    Always required (the structure): no rating and no id (FIDE or national, NRS lines
    included); never at a board: its own rounds against an opponent can only be forfeit
    losses or absences, and every round that names it as the opponent is a bye, forfeit or
    absence code (never ``1 = 0 W D L`` or pending); and the opponents it names are in the
    file.  Then either

    * its own line names no opponent at all (every round a bye or absence) while other
      players' rounds point at it, and it is in no team; or
    * its name is a placeholder's (``_PLACEHOLDER_WORDS``; or no letters at all, when it is
      paired in some round): its own line may then carry the forfeit losses some programs
      write for it.

    A real player who never turned up and lost by forfeit has opponents on their own line and
    a real name, so stays.  Whoever played a single game stays, whatever the name.
    """
    against: dict[int, list[tuple[int, int]]] = {}
    for no, row in st.rows.items():
        for i, rnd in enumerate(row.rounds):
            if rnd.opponent is not None and rnd.opponent != no:
                against.setdefault(rnd.opponent, []).append((no, i))
    known_nationally = {no for no, rating, nid in st.nrs if rating or nid}
    in_team = {no for _, members, _ in st.teams + st.teams310 for no in members}
    found = []
    for no, row in st.rows.items():
        p = row.player
        if p.rating or p.fide_id or p.national_id or no in known_nationally:
            continue
        own = [rnd for rnd in row.rounds if rnd.opponent is not None]
        if any(rnd.code not in _OWN_CODES_WITH_OPPONENT or rnd.opponent not in st.rows
               or rnd.opponent == no for rnd in own):
            continue
        pointing = against.get(no, [])
        if any(st.rows[o].rounds[i].code not in _OPPONENT_CODES for o, i in pointing):
            continue
        if (_placeholder_name(p.name, bool(own or pointing))
                or (not own and pointing and no not in in_team)):
            found.append(no)
    return sorted(found)


def _drop_placeholders(st: _State, placeholders: list[int]) -> None:
    """Leave the placeholders out; their opponents' rounds against them become byes."""
    kinds: dict[str, int] = {}
    for no, row in st.rows.items():
        if no in placeholders:
            continue
        for i, rnd in enumerate(row.rounds):
            if rnd.opponent in placeholders:
                row.rounds[i] = _Round(None, "-", rnd.code)
                kind = _OPPONENT_CODES[rnd.code]
                kinds[kind] = kinds.get(kind, 0) + 1
    names = [f"{no} {st.rows[no].player.name!r}" for no in placeholders]
    for no in placeholders:
        del st.rows[no]
    st.dropped.update(placeholders)
    one = len(names) == 1
    who = (f"player {names[0]} is the pairing program's bye placeholder, not a player"
           if one else f"players {', '.join(names[:-1])} and {names[-1]} are the pairing "
           f"program's bye placeholders, not players")
    rounds = sum(kinds.values())
    tail = ""
    if rounds:
        parts = [f"{kinds[k]} {label}{'s' if kinds[k] > 1 else ''}"
                 for k, label in (("bye", "full-point bye"), ("half-point bye", "half-point bye"),
                                  ("absence", "absence"))
                 if k in kinds]
        made = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        tail = (f"; the {rounds} round{'s' if rounds > 1 else ''} other players had against "
                f"{'it' if one else 'them'} {'is' if rounds == 1 else 'are'} read as {made}")
    st.warn("placeholder", f"{who}: left out{tail}")


def _system(st: _State) -> System:
    kind = (st.header.get("092", "") + " " + st.header.get("192", "")).lower()
    if "team" in kind or ((st.teams or st.teams310) and "individual" not in kind):
        return System.TEAM
    if re.search(r"round[- _]?robin|berger|\brr\b", kind):
        return System.ROUND_ROBIN
    return System.SWISS


def _rating_list(st: _State) -> tuple[RatingList | None, ListSource]:
    """The list from ``222`` (TRF26's encoded time control), the ``092`` tournament type's
    words, then ``122`` (the time control as text); (None, NONE) when none of them says."""
    encoded = st.header.get("222", "").strip()
    if encoded:
        rl = encoded_time_control(encoded)
        if rl is not None:
            return rl, ListSource.TRF_222
        st.warn("time-control", f"222: time control {encoded!r} gives no FIDE list (rapid: "
                "more than 10 and less than 60 minutes for 60 moves, blitz: more than 3 and at "
                "most 10)")
    kind = st.header.get("092", "").lower()
    found = next((rl for word, rl in RATE_WORDS if word in kind), None)
    if found is not None:
        return found, ListSource.TOURNAMENT_TYPE
    found = classify_time_control(st.header.get("122", ""))
    return found, ListSource.TRF_122 if found is not None else ListSource.NONE


def _dates(st: _State) -> tuple[date | None, date | None, tuple[date | None, ...]]:
    """Start, end and each round's date (042, 052, 132)."""
    start_raw, end_raw = st.header.get("042", ""), st.header.get("052", "")
    start = parse_date(start_raw)
    end = parse_date(end_raw, near=start)
    per_round = _round_dates(st, start, end)
    rounds = [d for d in per_round if d is not None]
    for code, raw, value in (("042", start_raw, start), ("052", end_raw, end)):
        if raw and value is None:
            st.warn("date", f"{code}: unreadable date {raw!r}" +
                    (" (round dates used)" if rounds else ""))
    if start is None and rounds:
        start = min(rounds)
    if end is None and rounds:
        end = max(rounds)
    if start and end and end < start:
        st.warn("date", f"042/052: end date {end} is before start date {start}" +
                (" (round dates used)" if rounds else ""))
        if rounds:
            start, end = min(rounds), max(rounds)
    while per_round and per_round[-1] is None:
        per_round.pop()
    return start, end, tuple(per_round)


_ROUND_DATE_SLACK = timedelta(days=7)
"""How far outside the event's 042..052 dates a round date may lie (an 052 left at the first
day, a round played early or late); far less than the 27 days or more between a date and its
day/month swap."""


def _round_dates(st: _State, start: date | None, end: date | None) -> list[date | None]:
    """Each round's date (132), all read in the one order that puts them within the event's
    042..052 dates, give or take a week; when several do: all inside first, then non-decreasing
    dates, then TRF's own YY/MM/DD.  None: one warning and no round dates.  Without both event
    dates, each is read nearest the one before."""
    texts = []
    for raw in st.round_dates:
        text = raw.strip()
        if text and parse_date(text) is None:
            st.warn("date", f"132: unreadable round date {text!r} ignored", st.round_dates_line)
            text = ""
        texts.append(text)
    if start is None or end is None or end < start or not any(texts):
        rounds: list[date | None] = []
        for text in texts:
            previous = next((d for d in reversed(rounds) if d is not None), start)
            rounds.append(parse_date(text, near=previous) if text else None)
        return rounds
    wanted = sum(1 for text in texts if text)
    ranked: list[tuple[bool, bool, int, list[date | None]]] = []
    for rank, order in enumerate(ORDERS):
        read = [date_in_order(text, order) if text else None for text in texts]
        dates = [d for d in read if d is not None]
        if len(dates) == wanted and all(start - _ROUND_DATE_SLACK <= d <= end + _ROUND_DATE_SLACK
                                        for d in dates):
            ranked.append((not all(start <= d <= end for d in dates),
                           any(a > b for a, b in pairwise(dates)), rank, read))
    if not ranked:
        written = [text for text in texts if text]
        shown = " ".join(written[:3]) + (" …" if len(written) > 3 else "")
        st.warn("date", f"132: the round dates {shown} lie more than a week outside the event's "
                f"dates {start} to {end} (042/052) whichever way their day, month and year are "
                "read: the event's own dates are used and the round dates left out",
                st.round_dates_line)
        return []
    return min(ranked)[3]


def parse_trf(text: str, *, source: str = "") -> Tournament:
    """Parse a TRF16/TRF26/TRF(x) text into a Tournament (InputError on broken input)."""
    st = _State(source)
    lines = re.split(r"\r\n|\r|\n", text.lstrip("\ufeff"))
    for lineno, line in enumerate(lines, 1):
        _read_line(st, line, lineno)
    if not st.rows:
        raise InputError("not a TRF file: no 001 player records found", source=source)
    declared = st.header.get("062", "").split()
    if declared and (n := whole_number(declared[0])) is not None and n != len(st.rows):
        st.warn("player-count", f"062 says {declared[0]} players but the file has "
                f"{len(st.rows)} player lines")
    if st.short_ids:
        st.warn("national-ids", f"{st.short_ids} id(s) of fewer than {MIN_FIDE_ID_DIGITS} digits in the "
                f"FIDE-id column read as national ids")
    placeholders = _find_placeholders(st)
    if len(placeholders) == len(st.rows):  # nothing but placeholders: read the lines as they are
        placeholders = []
    kept = [row for no, row in st.rows.items() if no not in placeholders]
    last = max((i + 1 for row in kept for i, rnd in enumerate(row.rounds)
                if rnd.opponent is not None or rnd.code != " " or rnd.colour not in " "),
               default=0)
    # a round paired against the placeholder is a paired round, before and after it goes
    pairing_rounds = {r for row in kept for r, rnd in enumerate(row.rounds, 1)
                      if rnd.opponent is not None}
    if placeholders:
        _drop_placeholders(st, placeholders)
    last_pairing = max(pairing_rounds, default=0)
    if 0 < last_pairing < last:
        st.warn("not-paired", f"rounds after round {last_pairing} have no pairings yet: their pre-entered "
                f"byes and absences are ignored")
        last = last_pairing
    planned = st.planned_rounds
    if planned is not None and planned < last:
        st.warn("rounds", f"XXR/142 says {planned} rounds but results go up to round {last}")
        planned = last
    results = {no: [_classify(st, row, r, rnd, last_pairing)
                    for r, rnd in enumerate(_padded(row, last), 1)]
               for no, row in sorted(st.rows.items())}
    # some programs write 0.0 in every points field: the results say the points, one note
    zeroed = {no: _event_total(st, st.rows[no], res) for no, res in results.items()} if all(
        row.player.points == 0 for row in st.rows.values()) else {}
    if any(zeroed.values()):
        st.warn("points-zero", "every player's points (columns 81-84) are 0 although games "
                "were played: the points are taken from the results")
    else:
        zeroed = {}
        results = {no: _reconcile(st, st.rows[no], res) for no, res in results.items()}
    games = games_from_results((r for rs in results.values() for r in rs),
                               warn=st.add)
    team_of = _team_membership(st)
    nrs = {no: (rating, nid) for no, rating, nid in st.nrs}
    players = []
    for no, row in sorted(st.rows.items()):
        p = row.player
        if zeroed:
            p = replace(p, points=as_points(round(zeroed[no], 3)))
        rating, nid = nrs.get(no, (None, ""))
        if no in nrs or no in team_of:
            p = replace(p, national_rating=rating, national_id=nid or p.national_id,
                        team=team_of.get(no, ""))
        players.append(p)
    for no in nrs:
        if no not in st.rows and no not in st.dropped:
            st.warn("unknown-player", f"national rating record for unknown player {no} ignored")
    start, end, round_dates = _dates(st)
    h = st.header
    rating_list, list_source = _rating_list(st)
    info = TournamentInfo(
        name=h.get("012", ""), source=source, start_date=start, end_date=end,
        city=h.get("022", ""), chief_arbiter=h.get("102", ""),
        deputy_arbiters=tuple(st.deputies), round_dates=round_dates,
        date_source=(DateSource.DETAILS if parse_date(h.get("042", "")) is not None
                     else DateSource.ROUND_DATES if start is not None else DateSource.NONE),
        rounds=planned if planned is not None else (last or None), system=_system(st),
        rating_list=rating_list, list_source=list_source, federation=h.get("032", ""),
        time_control=h.get("122", "") or h.get("222", ""))
    info, notes = with_list_hint(info)
    for note in notes:
        st.add(note)
    return Tournament(info=info, players=tuple(players),
                      results=tuple(r for no in sorted(results) for r in results[no]),
                      games=tuple(games), warnings=tuple(st.warnings))


def _team_membership(st: _State) -> dict[int, str]:
    team_of: dict[int, str] = {}
    for name, members, lineno in st.teams or st.teams310:
        for no in members:
            if no in st.dropped:
                continue
            if no not in st.rows:
                st.warn("unknown-player", f"team {name!r}: member {no} is not in the tournament "
                        "(ignored)", lineno)
            elif team_of.setdefault(no, name) != name:
                st.warn("two-teams", f"player {no} is listed in two teams ({team_of[no]!r}, "
                        f"{name!r})", lineno, players=(no,))
    return team_of
