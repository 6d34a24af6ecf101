"""Our normalized CSV folder: ``tournament.csv``, ``players.csv``, ``results.csv``, ``games.csv``
and ``warnings.csv``.

:func:`write_folder` and :func:`read_folder` round-trip a :class:`Tournament`
exactly, its warnings included (provenance aside; a folder of an older fiderate has no
``warnings.csv``).  Text cells are neutralised against spreadsheet formulas on the way out and
restored on the way in.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from importer.errors import InputError
from importer.model import (
    Colour,
    DateSource,
    Game,
    GameResult,
    ListSource,
    Player,
    Provenance,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    System,
    Tournament,
    TournamentInfo,
    format_timestamp,
    parse_timestamp,
)
from importer.parsing.numbers import checked_rating
from importer.writing.atomic import write_folder_atomic
from importer.writing.csvio import render_csv, restore

__all__ = [
    "GAME_COLUMNS",
    "PLAYER_COLUMNS",
    "RESULT_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "WARNING_COLUMNS",
    "format_points",
    "is_normalized_folder",
    "read_folder",
    "render_folder",
    "write_folder",
]

TOURNAMENT_COLUMNS = ("id", "name", "source", "start_date", "end_date", "rounds", "system",
                      "rating_list", "list_source", "federation", "time_control",
                      "rating_calculation", "fide_event_id", "focus", "date_source", "city",
                      "chief_arbiter", "deputy_arbiters", "round_dates", "last_update")
PLAYER_COLUMNS = ("start_no", "name", "title", "federation", "fide_id", "rating",
                  "national_rating", "birth_year", "sex", "club", "points", "rank",
                  "national_id", "team", "k", "rating_change", "category", "rating_known",
                  "published_performance", "published_games", "published_score",
                  "published_expected", "birth_date", "national_evaluations")
RESULT_COLUMNS = ("start_no", "round", "opponent_no", "colour", "points", "status", "k",
                  "rating_change", "requested")
GAME_COLUMNS = ("round", "board", "white_no", "black_no", "result")
WARNING_COLUMNS = ("code", "message", "players", "round")

# Written verbatim: numbers, dates and closed vocabularies (only free text is neutralised).
_PLAIN = {"rounds", "focus", "start_no", "rating", "national_rating", "national_evaluations",
          "birth_year", "points",
          "rank", "k", "rating_change", "round", "opponent_no", "board", "white_no",
          "black_no", "start_date", "end_date", "system", "rating_list", "colour", "status",
          "result", "date_source", "rating_known", "published_performance", "published_games",
          "published_score", "published_expected", "birth_date", "round_dates",
          "last_update", "players", "list_source", "requested"}


def format_points(points: Decimal | None) -> str:
    """0 → '0', 0.5 → '0.5', 7 → '7' (empty for None)."""
    return "" if points is None else str(points)


def _iso(d: date | None) -> str:
    return d.isoformat() if d else ""


def render_folder(t: Tournament) -> dict[str, str]:
    """The five CSV files' text, keyed by file name."""
    i = t.info
    info_row = {
        "id": i.id, "name": i.name, "source": i.source, "start_date": _iso(i.start_date),
        "end_date": _iso(i.end_date), "rounds": i.rounds, "system": i.system.value,
        "rating_list": i.rating_list.value if i.rating_list else "", "federation": i.federation,
        "time_control": i.time_control, "rating_calculation": i.rating_calculation,
        "fide_event_id": i.fide_event_id, "focus": t.focus, "date_source": i.date_source.value,
        "city": i.city, "chief_arbiter": i.chief_arbiter,
        "deputy_arbiters": "; ".join(i.deputy_arbiters),
        "round_dates": " ".join(_iso(d) or "-" for d in i.round_dates),
        "last_update": format_timestamp(i.last_update) if i.last_update else "",
        "list_source": i.list_source.value,
    }
    players = ({
        "start_no": p.start_no, "name": p.name, "title": p.title, "federation": p.federation,
        "fide_id": p.fide_id, "rating": p.rating, "national_rating": p.national_rating,
        "birth_year": p.birth_year, "sex": p.sex, "club": p.club,
        "points": format_points(p.points), "rank": p.rank, "national_id": p.national_id,
        "team": p.team, "k": p.k, "rating_change": p.rating_change, "category": p.category,
        "rating_known": "true" if p.rating_known else "false",
        "published_performance": p.published_performance,
        "published_games": p.published_games, "published_score": p.published_score,
        "published_expected": p.published_expected, "birth_date": _iso(p.birth_date),
        "national_evaluations": p.national_evaluations,
    } for p in t.players)
    results = ({
        "start_no": r.start_no, "round": r.round, "opponent_no": r.opponent_no,
        "colour": r.colour.value, "points": format_points(r.points), "status": r.status.value,
        "k": r.k, "rating_change": r.rating_change,
        "requested": "true" if r.requested else "false",
    } for r in t.results)
    games = ({
        "round": g.round, "board": g.board, "white_no": g.white_no, "black_no": g.black_no,
        "result": g.result.value,
    } for g in t.games)
    return {
        "tournament.csv": render_csv(TOURNAMENT_COLUMNS, [info_row], _PLAIN),
        "players.csv": render_csv(PLAYER_COLUMNS, players, _PLAIN),
        "results.csv": render_csv(RESULT_COLUMNS, results, _PLAIN),
        "games.csv": render_csv(GAME_COLUMNS, games, _PLAIN),
        "warnings.csv": render_csv(WARNING_COLUMNS, ({
            "code": w.code, "message": w.message, "players": " ".join(map(str, w.players)),
            "round": w.round} for w in t.warnings), _PLAIN),
    }


def write_folder(t: Tournament, out: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write the normalized CSV folder atomically and whole, and return its path."""
    return write_folder_atomic(out, render_folder(t), force=force)


def is_normalized_folder(path: str | os.PathLike[str]) -> bool:
    """True when *path* is a folder holding our CSV files (an older one has no warnings.csv)."""
    p = Path(path)
    return p.is_dir() and all((p / n).is_file() for n in
                              ("tournament.csv", "players.csv", "results.csv", "games.csv"))


def _date_source(text: str) -> DateSource:
    return DateSource(text) if text else DateSource.NONE


def _round_dates(text: str) -> tuple[date | None, ...]:
    """'2026-08-01 - 2026-08-03' → each round's date ('-' where a round has none)."""
    return tuple(None if d == "-" else date.fromisoformat(d) for d in text.split())


def _numbers(text: str) -> tuple[int, ...]:
    """'3 5' → (3, 5) (ValueError for anything else)."""
    return tuple(int(n) for n in text.split())


def _flag(text: str) -> bool:
    """'true'/'false' (empty, from older folders, is true)."""
    return _flag_or(text, empty=True)


def _requested(text: str) -> bool:
    """'true'/'false' (empty, from older folders, is false: not told apart)."""
    return _flag_or(text, empty=False)


def _flag_or(text: str, *, empty: bool) -> bool:
    if not text:
        return empty
    if text.casefold() == "true":
        return True
    if text.casefold() == "false":
        return False
    raise ValueError(text)


class _Row:
    """Typed access to one CSV row, raising InputError with the file and line."""

    def __init__(self, row: Mapping[str, str], source: str, line: int) -> None:
        self.row, self.source, self.line = row, source, line

    def _fail(self, col: str, what: str) -> InputError:
        return InputError(f"column {col!r}: expected {what}, got {self.row.get(col)!r}",
                          source=self.source, line=self.line)

    def text(self, col: str) -> str:
        return restore(self.row.get(col) or "")

    def opt(self, col: str, conv: Callable[[str], Any], what: str) -> Any:
        raw = (self.row.get(col) or "").strip()
        if not raw:
            return None
        try:
            return conv(raw)
        except (ValueError, InvalidOperation):
            raise self._fail(col, what) from None

    def enum(self, col: str, kind: Callable[[str], Any], what: str) -> Any:
        try:
            return kind((self.row.get(col) or "").strip())
        except ValueError:
            raise self._fail(col, what) from None

    def req(self, col: str, conv: Callable[[str], Any], what: str) -> Any:
        value = self.opt(col, conv, what)
        if value is None:
            raise self._fail(col, what)
        return value


def _read(path: Path, columns: tuple[str, ...]) -> list[_Row]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read as UTF-8 CSV ({exc})", source=str(path)) from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in columns[:2] if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"expected a header with columns {', '.join(columns)}", source=str(path),
                         line=1)
    return [_Row(row, str(path), n) for n, row in enumerate(reader, start=2)]


def _player(p: _Row) -> Player:
    """One players.csv row, its ratings checked (:func:`importer.parsing.numbers.checked_rating`)."""
    start_no, name = p.req("start_no", int, "a start number"), p.text("name")
    rating = p.opt("rating", int, "a rating")
    national = p.opt("national_rating", int, "a rating")
    try:
        rating = checked_rating(rating, start_no, name)
        national = checked_rating(national, start_no, name, national=True)
    except InputError as exc:
        raise InputError(str(exc), source=p.source, line=p.line) from None
    return Player(
        start_no=start_no, name=name, title=p.text("title"), federation=p.text("federation"),
        fide_id=p.text("fide_id"), rating=rating, national_rating=national,
        birth_year=p.opt("birth_year", int, "a year"), sex=p.text("sex"), club=p.text("club"),
        points=p.opt("points", Decimal, "points"), rank=p.opt("rank", int, "a rank"),
        national_id=p.text("national_id"), team=p.text("team"), k=p.opt("k", int, "a K factor"),
        rating_change=p.opt("rating_change", Decimal, "a number"), category=p.text("category"),
        rating_known=p.enum("rating_known", _flag, "true or false"),
        published_performance=p.opt("published_performance", int, "a rating"),
        published_games=p.opt("published_games", int, "a number of games"),
        published_score=p.opt("published_score", Decimal, "a number"),
        published_expected=p.opt("published_expected", Decimal, "a number"),
        birth_date=p.opt("birth_date", date.fromisoformat, "a date YYYY-MM-DD"),
        national_evaluations=p.opt("national_evaluations", int, "a number of evaluations"),
    )


def read_folder(path: str | os.PathLike[str]) -> Tournament:
    """Read a folder written by :func:`write_folder`."""
    folder = Path(path)
    rows = _read(folder / "tournament.csv", TOURNAMENT_COLUMNS)
    if len(rows) != 1:
        raise InputError("expected exactly one tournament row",
                         source=str(folder / "tournament.csv"))
    r = rows[0]
    info = TournamentInfo(
        id=r.text("id"), name=r.text("name"), source=r.text("source"),
        start_date=r.opt("start_date", date.fromisoformat, "a date YYYY-MM-DD"),
        end_date=r.opt("end_date", date.fromisoformat, "a date YYYY-MM-DD"),
        rounds=r.opt("rounds", int, "a whole number"),
        system=r.req("system", System, "swiss, round_robin or team"),
        rating_list=r.opt("rating_list", RatingList, "standard, rapid or blitz"),
        federation=r.text("federation"), time_control=r.text("time_control"),
        rating_calculation=r.text("rating_calculation"), fide_event_id=r.text("fide_event_id"),
        date_source=r.enum("date_source", _date_source, "details, round dates, title, "
                           "last update or none"),
        city=r.text("city"), chief_arbiter=r.text("chief_arbiter"),
        deputy_arbiters=tuple(d for d in r.text("deputy_arbiters").split("; ") if d),
        round_dates=r.opt("round_dates", _round_dates, "dates YYYY-MM-DD separated by spaces") or (),
        last_update=r.opt("last_update", parse_timestamp, "a date and time YYYY-MM-DDTHH:MM:SS"),
        list_source=r.enum("list_source", ListSource, "time control, TRF 222, TRF 122, "
                           "tournament type, event name, default or empty"),
    )
    focus = r.opt("focus", int, "a start number")
    players = tuple(_player(p) for p in _read(folder / "players.csv", PLAYER_COLUMNS))
    results = tuple(RoundResult(
        start_no=x.req("start_no", int, "a start number"), round=x.req("round", int, "a round"),
        opponent_no=x.opt("opponent_no", int, "a start number"),
        colour=x.enum("colour", Colour, "w, b or empty"),
        points=x.opt("points", Decimal, "0, 0.5 or 1"),
        status=x.req("status", Status, "a status such as played or bye"),
        k=x.opt("k", int, "a K factor"), rating_change=x.opt("rating_change", Decimal, "a number"),
        requested=x.enum("requested", _requested, "true or false"),
    ) for x in _read(folder / "results.csv", RESULT_COLUMNS))
    games = tuple(Game(
        round=g.req("round", int, "a round"), board=g.opt("board", int, "a board"),
        white_no=g.req("white_no", int, "a start number"),
        black_no=g.req("black_no", int, "a start number"),
        result=g.enum("result", GameResult, "1-0, 0-1, 1/2-1/2, +/-, -/+, -/- or empty"),
    ) for g in _read(folder / "games.csv", GAME_COLUMNS))
    warned = folder / "warnings.csv"  # none in a folder of an older fiderate
    warnings = tuple(SourceWarning(
        w.text("code"), w.text("message"), w.opt("players", _numbers, "start numbers") or (),
        w.opt("round", int, "a round"),
    ) for w in (_read(warned, WARNING_COLUMNS) if warned.is_file() else ()))
    return Tournament(info=info, players=players, results=results, games=games, focus=focus,
                      warnings=warnings,
                      provenance=(Provenance(location=str(folder), kind="normalized-csv"),))
