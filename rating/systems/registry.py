"""The rating systems by name: one registry for ``--system``, ``build_report(system=...)``,
``rate_tournament(t, "elo")`` and the national systems rated beside FIDE without being asked.

Adding a national system is one module with a class that meets
:class:`rating.systems.base.RatingSystem`, and one :func:`register` call (below, for the systems
that ship; anywhere before use for others).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date

from importer.model import RatingList, TournamentInfo
from rating.systems.base import EloSystem, FideSystem, RatingSystem
from rating.systems.dwz import DwzSystem
from rating.systems.ecf import EcfSystem
from rating.systems.ukd import UkdSystem

__all__ = [
    "Registration",
    "Settings",
    "beside",
    "build",
    "names",
    "national",
    "register",
    "registered",
    "registrations",
    "unregister",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What a registered system is built from: the tournament's date and list (FIDE's rules
    in force then) and the K for players whose K is unknown."""

    on: date
    rating_list: RatingList = RatingList.STANDARD
    k_default: int = 20


@dataclass(frozen=True, slots=True)
class Registration:
    """One rating system by name."""

    name: str
    """The ``--system`` choice; the built system's own name."""
    build: Callable[[Settings], RatingSystem]
    help: str
    """A few words for ``--system``'s help: 'FIDE rules of the start date'."""


_REGISTRY: dict[str, Registration] = {}


def register(name: str, build: Callable[[Settings], RatingSystem], help: str) -> Registration:
    """Make a system available by *name* (ValueError when the name is taken)."""
    if not name or not name.isidentifier() or name != name.lower():
        raise ValueError(f"rating system name {name!r}: use lower-case letters, digits and _")
    if name in _REGISTRY:
        raise ValueError(f"rating system {name!r} is already registered")
    entry = Registration(name, build, help)
    _REGISTRY[name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a system registered by :func:`register` (KeyError when there is none)."""
    del _REGISTRY[name]


@contextmanager
def registered(name: str, build: Callable[[Settings], RatingSystem], help: str
               ) -> Iterator[Registration]:
    """Register a system for the duration of a ``with`` block (tests, one-off runs)."""
    entry = register(name, build, help)
    try:
        yield entry
    finally:
        unregister(name)


def names() -> tuple[str, ...]:
    """Every registered name, in registration order: ('fide', 'elo', 'ukd', …)."""
    return tuple(_REGISTRY)


def registrations() -> tuple[Registration, ...]:
    """Every registration, in registration order."""
    return tuple(_REGISTRY.values())


def build(name: str, settings: Settings) -> RatingSystem:
    """The system registered as *name*, built for *settings* (ValueError when unknown)."""
    entry = _REGISTRY.get(name)
    if entry is None:
        raise ValueError(f"unknown rating system {name!r}: use {', '.join(_REGISTRY)}")
    system = entry.build(settings)
    if system.name != name:
        raise ValueError(f"rating system {name!r} builds a system named {system.name!r}")
    return system


def national(on: date) -> tuple[str, ...]:
    """The registered systems that rate national ratings, in registration order (built with
    the rules of *on*)."""
    return tuple(name for name in _REGISTRY if build(name, Settings(on=on)).national)


def beside(info: TournamentInfo, settings: Settings) -> tuple[RatingSystem, ...]:
    """The registered systems a tournament is rated with beside the main one, without being
    asked (e.g. UKD when the source's rating calculation names Turkey's national rating)."""
    built = (build(name, settings) for name in _REGISTRY)
    return tuple(s for s in built if s.applies(info))


register("fide", lambda s: FideSystem.on(s.on, s.rating_list), "FIDE rules of the start date")
register("elo", lambda s: EloSystem(default_k=s.k_default), "generic Elo")
register("ukd", lambda s: UkdSystem(), "the Turkish national rating (UKD)")
register("dwz", lambda s: DwzSystem.on(s.on), "the German national rating (DWZ), rules of "
         "the start date")
register("ecf", lambda s: EcfSystem.on(s.on, s.rating_list), "the English national rating "
         "(ECF), rules of the start date")
