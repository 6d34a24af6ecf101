"""A :class:`Tournament` → TRF text (FIDE's Tournament Report File): TRF-2026 or TRF16."""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from importer.errors import OutputError
from importer.formats.trf.dates import classify_time_control, encoded_time_control
from importer.formats.trf.reader import MIN_FIDE_ID_DIGITS, NOT_NRS
from importer.model import Colour, DateSource, Player, RoundResult, Status, System, Tournament
from importer.parsing.time_control import looks_encoded, parse_time_control

__all__ = ["TrfVersion", "encode_time_control", "write_trf"]

TrfVersion = Literal["TRF26", "TRF16"]

_MAX_START_NO = 9999
"""TRF's start numbers fill columns 5-8 (a larger one, a label elsewhere, cannot be written)."""
_CODE = {(Status.PLAYED, 1.0): "1", (Status.PLAYED, 0.5): "=", (Status.PLAYED, 0.0): "0",
         (Status.UNPLAYED, 1.0): "W", (Status.UNPLAYED, 0.5): "D",
         (Status.UNPLAYED, 0.0): "L"}
_SYSTEM_TEXT = {System.SWISS: "Individual: Swiss-System",
                System.ROUND_ROBIN: "Individual: Round Robin",
                System.TEAM: "Team Swiss System"}


def _block(r: RoundResult | None) -> str:
    if r is None:
        return "          "
    colour = {Colour.WHITE: "w", Colour.BLACK: "b"}.get(r.colour, "-")
    opp = f"{r.opponent_no:4d}" if r.opponent_no else "0000"
    if r.status is Status.PENDING:
        code = " "
    elif r.status in (Status.PLAYED, Status.UNPLAYED):
        code = _CODE.get((r.status, float(r.points or 0)), "0")
    else:
        code = {Status.FORFEIT_WIN: "+", Status.FORFEIT_LOSS: "-", Status.HALF_BYE: "H",
                Status.BYE: "F" if r.requested else "U", Status.ABSENT: "Z"}[r.status]
    if not r.status.is_game:
        opp, colour = "0000", "-"
    return f"  {opp} {colour} {code}"


def _short_national(p: Player) -> bool:
    return (not p.fide_id and p.national_id.isascii() and p.national_id.isdigit()
            and len(p.national_id) < MIN_FIDE_ID_DIGITS and int(p.national_id) > 0)


def _one_line(text: str) -> str:
    return re.sub(r"[\r\n]+", " ", text)


def _fmt_date(d: date | None) -> str:
    return d.strftime("%Y/%m/%d") if d else ""


def encode_time_control(text: str) -> str | None:
    """A time control as TRF26 ``222`` writes it, when the text says it plainly: one period of
    minutes, with or without an increment in seconds (or the text is already encoded); read by
    the time controls' one parser (:func:`importer.parsing.time_control.parse_time_control`).

    >>> encode_time_control("90 min + 30 sec from move 1"), encode_time_control("3+2")
    ('5400+30', '180+2')
    >>> encode_time_control("40/6000+30:900+30"), encode_time_control("10+0 7+3")
    ('40/6000+30:900+30', None)
    """
    t = " ".join(text.split())
    if looks_encoded(t):
        return "".join(t.split())
    tc = parse_time_control(t)
    if tc is None or tc.bare or tc.second is not None or tc.moves is not None:
        return None  # a bare number ('90'), several periods: not plainly one
    return tc.encoded


def _legend(rounds: int) -> str:
    """The ``###`` line naming each column of the 001 records, as the TRF26 sample shows."""
    return ("### SSSS sTTT " + "N" * 33 + " RRRR FFF " + "I" * 11 + " BBBB/BB/BB PPPP RRRR"
            + "".join(f"  {d * 4} {d} {d}" for d in (str(r % 10) for r in range(1, rounds + 1))))


def _player_line(code: str, p: Player, fide_col: str, rating: int | None) -> str:
    """Columns 1-89 of a 001 (or NRS) line; values too wide for their columns are left out."""
    title = p.title if len(p.title) <= 3 else ""
    birth = (f"{p.birth_date:%Y/%m/%d}" if p.birth_date
             else f"{p.birth_year}/00/00" if p.birth_year and 1000 <= p.birth_year <= 9999 else "")
    points = "" if p.points is None else f"{p.points:4.1f}"
    rank = "" if p.rank is None else str(p.rank)
    return (f"{code} {p.start_no:4d} {p.sex[:1] or ' '}{title:>3} {_one_line(p.name)[:33]:<33} "
            f"{rating if rating and rating <= 9999 else 0:4d} {_one_line(p.federation)[:3]:<3} "
            f"{fide_col[-11:]:>11} {birth:<10} {points if len(points) <= 4 else '':>4} "
            f"{rank if len(rank) <= 4 else '':>4}")


def write_trf(t: Tournament, *, version: TrfVersion = "TRF26") -> str:
    """The tournament as TRF text, ``XXR``/``142`` and ``013`` teams included.

    TRF26 (FIDE's TRF-2026, C.02.03 Annexure A): "Each line shall have a 'CR' (carriage
    return) as last character" (its Remark 1, general line rules), so every line
    ends with CR; the records FIDE's rating server requires (012, 022, 032, 042, 052, 102,
    132, 001) are always written, blank where the tournament does not say; ``142`` gives the
    rounds, ``222`` the time control when :func:`encode_time_control` can encode it, and a
    ``###`` comment names the 001 columns.  TRF16 ends lines with LF and gives the rounds as
    ``XXR``.  Both write national ratings, and national ids that cannot share the FIDE-id
    column, as TRF26 NRS lines (``NAT …``), which TRF16 readers skip as unknown records.
    OutputError for a start number TRF's four columns cannot hold (above 9999).
    """
    trf26 = version == "TRF26"
    wide = next((p for p in t.players if not 0 < p.start_no <= _MAX_START_NO), None)
    if wide is not None:
        raise OutputError(f"TRF holds start numbers 1 to {_MAX_START_NO} (columns 5-8): player "
                          f"{wide.start_no} ({wide.name}) cannot be written; write csv or json")
    i = t.info
    rated = sum(1 for p in t.players if p.rating)
    system_text = _SYSTEM_TEXT[i.system]
    if i.rating_list is not None and classify_time_control(i.time_control) != i.rating_list:
        system_text += f" ({i.rating_list.value})"
    # A page's last update bounds the event; it is not its start: no dates then (TRF has no
    # field for it).
    dated = i.date_source is not DateSource.LAST_UPDATE
    lines = [f"012 {_one_line(i.name)}", f"022 {_one_line(i.city)}".rstrip(),
             f"032 {_one_line(i.federation)}",
             f"042 {_fmt_date(i.start_date if dated else None)}",
             f"052 {_fmt_date(i.end_date if dated else None)}",
             f"062 {len(t.players)}", f"072 {rated}", f"092 {system_text}",
             f"102 {_one_line(i.chief_arbiter)}".rstrip(),
             *(f"112 {_one_line(d)}" for d in i.deputy_arbiters),
             f"122 {_one_line(i.time_control)}"]
    encoded = encode_time_control(i.time_control) if trf26 else None
    if encoded is not None and encoded_time_control(encoded) == i.rating_list:
        lines.append(f"222 {encoded}")  # only when it reads back as the same list
    if any(i.round_dates):
        lines.append("132" + " " * 86 + "".join(
            f"  {d:%y/%m/%d}" if d else " " * 10 for d in i.round_dates).rstrip())
    elif trf26:
        lines.append("132")
    rounds = max(i.rounds or 0, t.rounds_seen)
    if rounds:
        lines.append(f"{'142' if trf26 else 'XXR'} {rounds}")
    by_player: dict[int, dict[int, RoundResult]] = {}
    for r in t.results:
        by_player.setdefault(r.start_no, {})[r.round] = r
    player_lines, nrs_lines = [], []
    nrs_code = i.federation if re.fullmatch(r"[A-Z]{3}", i.federation) else "NAT"
    if nrs_code.startswith(("XX", "BB")) or nrs_code in NOT_NRS:
        nrs_code = "NAT"
    for p in sorted(t.players, key=lambda p: p.start_no):
        short = _short_national(p) and p.national_rating is None
        fide_col = p.fide_id or (p.national_id if short else "")
        line = _player_line("001", p, fide_col, p.rating)
        mine = by_player.get(p.start_no, {})
        line += "".join(_block(mine.get(r)) for r in range(1, t.rounds_seen + 1))
        player_lines.append(line.rstrip())
        if p.national_rating is not None or (p.national_id and not short):
            nrs_lines.append(_player_line(nrs_code, p, p.national_id, p.national_rating).rstrip())
    if trf26 and nrs_lines:  # 172 is mandatory with NRS records; the ranking method is unknown
        lines.append(f"172 {nrs_code}")
    if trf26:
        lines.append(_legend(t.rounds_seen))
    lines += player_lines
    lines += nrs_lines
    teams: dict[str, list[int]] = {}
    for p in t.players:
        if p.team:
            teams.setdefault(p.team, []).append(p.start_no)
    lines += [f"013 {_one_line(name)[:32]:<32}" + "".join(f"{no:4d} " for no in sorted(members)).rstrip()
              for name, members in teams.items()]
    if trf26:
        return "".join(line.rstrip() + "\r" for line in lines)
    return "\n".join(lines) + "\n"
