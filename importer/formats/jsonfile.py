"""The tournament model as one JSON document (``fiderate import --format json``), and back.

Every field of every record is written under its own name; enums as their values, dates (and
the last update, to the second) as ISO text, exact decimals as JSON numbers.  :func:`from_json`
reads the document back into the same records (InputError naming the field on a document that
is not ours).
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import asdict, fields, replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any, TypeVar

from importer.errors import InputError
from importer.model import (
    Game,
    Player,
    Provenance,
    RoundResult,
    SourceWarning,
    Tournament,
    TournamentInfo,
    format_timestamp,
    parse_timestamp,
)
from importer.parsing.numbers import checked_rating

__all__ = ["from_json", "looks_like_json", "to_json"]

_R = TypeVar("_R")


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_json(t: Tournament) -> str:
    """The whole tournament (warnings and provenance included) as one JSON document."""
    doc = {
        "format": "fiderate-tournament",
        "tournament": _plain(asdict(t.info)),
        "focus": t.focus,
        "players": [_plain(asdict(p)) for p in t.players],
        "results": [_plain(asdict(r)) for r in t.results],
        "games": [_plain(asdict(g)) for g in t.games],
        "warnings": [_plain(asdict(w)) for w in t.warnings],
        "provenance": [_plain(asdict(p)) for p in t.provenance],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def looks_like_json(text: str) -> bool:
    """True for a document :func:`to_json` wrote."""
    return text.lstrip().startswith("{") and '"fiderate-tournament"' in text[:200]


def _value(kind: Any, raw: Any, where: str) -> Any:
    """*raw* (from JSON) as the field type *kind*."""
    if raw is None:
        return None
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return _value(args[0], raw, where)
    if typing.get_origin(kind) is tuple:
        if not isinstance(raw, list):
            raise InputError(f"{where}: expected a list")
        return tuple(_value(args[0], x, f"{where}[{i}]") for i, x in enumerate(raw))
    try:
        if kind is Decimal:
            return Decimal(str(raw))
        if kind is datetime:
            return parse_timestamp(raw)
        if kind is date:
            return date.fromisoformat(raw)
        if isinstance(kind, type) and issubclass(kind, Enum):
            return kind(raw)
        if kind is float:
            return float(raw)
        if (kind in (int, str, bool) and not isinstance(raw, kind)) or (
                kind is int and isinstance(raw, bool)):  # true is no number
            raise TypeError(raw)
    except (ValueError, TypeError, InvalidOperation):
        raise InputError(f"{where}: unexpected value {raw!r}") from None
    return raw


def _record(cls: type[_R], raw: Any, where: str) -> _R:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected an object")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: _value(hints[k], v, f"{where}.{k}") for k, v in raw.items() if k in names})


_UNCLASSIFIED = "unclassified"
"""The code of a warning read from a file of an older fiderate, which wrote only its text."""


def _warning(raw: Any, where: str) -> SourceWarning:
    """A warning as :func:`to_json` writes it, or as plain text (older files)."""
    if isinstance(raw, str):
        return SourceWarning(_UNCLASSIFIED, raw)
    return _record(SourceWarning, raw, where)


def _checked(p: Player, where: str) -> Player:
    """The player with both ratings checked (:func:`importer.parsing.numbers.checked_rating`)."""
    try:
        return replace(p, rating=checked_rating(p.rating, p.start_no, p.name),
                       national_rating=checked_rating(p.national_rating, p.start_no, p.name,
                                                      national=True))
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def from_json(text: str, *, source: str = "") -> Tournament:
    """Read a document written by :func:`to_json` (InputError when it is not one)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON ({exc.msg} at line {exc.lineno})", source=source) from None
    except ValueError:  # json refuses to convert a number of more than 4300 digits
        raise InputError("a number with more digits than any tournament file holds",
                         source=source) from None
    if not isinstance(doc, dict) or doc.get("format") != "fiderate-tournament":
        raise InputError("a JSON file fiderate did not write (no \"format\": "
                         "\"fiderate-tournament\")", source=source)
    try:
        def many(cls: type[_R], key: str) -> tuple[_R, ...]:
            return tuple(_record(cls, r, f"{key}[{i}]") for i, r in enumerate(doc.get(key, [])))

        return Tournament(
            info=_record(TournamentInfo, doc.get("tournament", {}), "tournament"),
            players=tuple(_checked(p, f"players[{i}]")
                          for i, p in enumerate(many(Player, "players"))),
            results=many(RoundResult, "results"),
            games=many(Game, "games"), focus=doc.get("focus"),
            warnings=tuple(_warning(w, f"warnings[{i}]")
                           for i, w in enumerate(doc.get("warnings", ()))),
            provenance=(Provenance(location=source, kind="fiderate-json"),))
    except InputError as exc:
        raise InputError(str(exc), source=source) from None
