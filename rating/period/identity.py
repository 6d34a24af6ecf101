"""People, not rows: who each player of each tournament is, across tournaments and months.

A player is found by FIDE id; without one, by name and federation (then birth year, title and
the rating's nearness to break ties) on the FIDE list, among the players the register knows,
and among the players of the other tournaments given.  Every match is recorded
(:class:`MatchedBy`); an ambiguous one is left unmatched, with a note.  An unmatched player
is identified by name, federation and birth year — and is *unknown* to the list, never
"unrated" because of it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from itertools import chain, compress, count, repeat
from operator import attrgetter, not_
from typing import TYPE_CHECKING, Final, cast

from importer.identity import fide_id_text, player_key
from importer.model import Player, RatingList, Tournament, quick_init
from importer.parsing.names import name_key
from rating.notes import Note, grouped, plural
from rating.period.bulk import LazyMapping, LazyRecords, records
from rating.period.roster import Roster

if TYPE_CHECKING:
    from importer.formats.fidelist import FideList

__all__ = ["Candidate", "Identities", "MatchedBy", "Person", "RatingFrom", "fallback_key",
           "identify", "list_candidates", "wanted_names", "wanted_on_list"]

MAX_RATING_GAP: Final = 400
"""A namesake on the list whose rating is this far from the source's is someone else."""
_FIDE_ID, _NAME, _FEDERATION, _BIRTH_YEAR = (
    attrgetter(n) for n in ("fide_id", "name", "federation", "birth_year"))


class MatchedBy(StrEnum):
    """How a player was found."""

    FIDE_ID = "fide_id"
    """The source gives the FIDE id."""
    NAME_FED = "name_fed"
    """No id in the source: found by name and federation (one candidate left)."""
    NONE = "none"
    """Not found: identified by name, federation and birth year within fiderate only."""

    @property
    def words(self) -> str:
        """How the player was found, for people."""
        return {"fide_id": "by the FIDE id the source gives",
                "name_fed": "by name and federation (the source gives no FIDE id)",
                "none": "on no list (the source gives no FIDE id): told apart by name, "
                        "federation and birth year"}[self.value]


class RatingFrom(StrEnum):
    """Where a player's base rating (the previous list's) comes from."""

    LIST = "list"
    """FIDE's list (the file given, or the list stored in the register)."""
    REGISTER = "register"
    """A month the register computed."""
    SOURCE = "source"
    """The tournament's own rating: the player is on no list given."""

    @property
    def words(self) -> str:
        """Where the rating comes from, for people."""
        return {"list": "FIDE's list", "register": "the month the register computed",
                "source": "the tournament's own rating (the player is on no list given)"
                }[self.value]


@dataclass(frozen=True, slots=True)
class Candidate:
    """Someone a player without an id may be: on the list, or known to the register."""

    key: str
    """The FIDE id, or the register's key for a player without one."""
    fide_id: str
    name: str
    federation: str
    birth_year: int | None = None
    titles: frozenset[str] = frozenset()
    ratings: Mapping[RatingList, int | None] = field(default_factory=dict)


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class Person:
    """One player across the period's tournaments."""

    key: str
    """The FIDE id, else name|federation|birth year."""
    fide_id: str
    name: str
    federation: str
    birth_year: int | None
    matched_by: MatchedBy
    where: str
    """Where the player is first seen, for notes: 'No. 2 in 1452107'."""


@dataclass(frozen=True, slots=True)
class Identities:
    """Who is who: each (tournament, start number) → a person."""

    people: Sequence[Person]
    """Made when first read (:class:`rating.period.bulk.LazyRecords`): the period's engine
    reads the columns below."""
    code: Mapping[tuple[str, int], int]
    """(tournament key, start number) → index into ``people``."""
    keys: Sequence[str]
    """Per person: the key (:attr:`Person.key`)."""
    birth_years: Sequence[int | None]
    """Per person: the birth year."""
    notes: tuple[Note, ...] = ()
    order: tuple[str, ...] = ()
    """The tournaments' keys, in the order given."""
    entries: Sequence[int] | None = None
    """Per player of the tournaments, one tournament's after the other's: the person (as
    ``code`` finds it), when every tournament numbers its players 1, 2, … n."""

    def person(self, tournament: str, start_no: int) -> Person | None:
        """The person behind a tournament's start number."""
        i = self.code.get((tournament, start_no))
        return None if i is None else self.people[i]


def fallback_key(name: str, federation: str, birth_year: int | None) -> str:
    """The key of a player found nowhere: 'adams michael|ENG|1971'
    (:func:`importer.identity.player_key`)."""
    return player_key(name, federation, birth_year)


def list_candidates(fide_list: FideList, wanted: Collection[tuple[str, str]]
                    ) -> dict[tuple[str, str], list[Candidate]]:
    """The players on a FIDE list with these (federation, name key)s (see :func:`wanted_names`)."""
    out: dict[tuple[str, str], dict[str, Candidate]] = {}
    lists = [rl for rl in RatingList if str(rl) in fide_list.lists]
    for e in fide_list.named(wanted, name_key):
        out.setdefault((e.federation.upper(), name_key(e.name)), {}).setdefault(e.fide_id, Candidate(
            key=e.fide_id, fide_id=e.fide_id, name=e.name, federation=e.federation,
            birth_year=e.birth_year, titles=frozenset(t for t in (e.title, e.w_title) if t),
            ratings={rl: e.rating(rl) for rl in lists}))  # a repeated id: its first line
    return {k: list(v.values()) for k, v in out.items()}


def wanted_on_list(tournaments: Iterable[Tournament]) -> tuple[set[str], set[str]]:
    """What to read of a FIDE list for these tournaments: their players' FIDE ids, and the
    federations of the players without one (to find them by name)."""
    ids: set[str] = set()
    federations: set[str] = set()
    for t in tournaments:
        for p in t.players:
            if p.fide_id.strip():
                ids.add(p.fide_id.strip())
            elif p.federation.strip():
                federations.add(p.federation.strip().upper())
    return ids, federations


def wanted_names(tournaments: Iterable[Tournament]) -> set[tuple[str, str]]:
    """(federation, name key) of every player without a FIDE id: whom to look up by name."""
    return _wanted(chain.from_iterable(
        compress(t.players, map(not_, map(fide_id_text, map(_FIDE_ID, t.players))))
        for t in tournaments))


def _wanted(without_ids: Iterable[Player]) -> set[tuple[str, str]]:
    """(federation, name key) of these players without a FIDE id."""
    return {(p.federation.strip().upper(), name_key(p.name)) for p in without_ids
            if p.federation.strip() and p.name.strip()}


def _choose(p: Player, rl: RatingList, found: Sequence[Candidate]) -> list[Candidate]:
    """The candidates left after the tie-breaks: birth year, title, rating."""
    left = [c for c in found if not (p.birth_year and c.birth_year and p.birth_year != c.birth_year)]
    if p.rating is not None:
        left = [c for c in left if (r := c.ratings.get(rl)) is None
                or abs(r - p.rating) <= MAX_RATING_GAP]
    if len(left) > 1 and p.title:
        left = [c for c in left if p.title.upper() in c.titles] or left
    if len(left) > 1 and p.rating is not None:
        left = [c for c in left if c.ratings.get(rl) == p.rating] or left
    return left


def identify(tournaments: Sequence[tuple[str, Tournament]], *,
             known: Iterable[Mapping[tuple[str, str], Sequence[Candidate]]] = (),
             roster: Roster | None = None) -> Identities:
    """Who each player of each (key, tournament) is (*roster*: their players, when read
    already).

    ``known`` are the places to look a player without an id up, best first (the FIDE list's
    and the register's candidates, by (federation, name key)); the players with an id of the
    tournaments themselves come last.  The people are in the order they are first seen, those
    found nowhere last.
    """
    entries = roster or Roster.of([t for _, t in tournaments])
    players = entries.players
    owners = list(map([k for k, _ in tournaments].__getitem__, entries.tour))
    keys, found = _by_name(entries, _lists(tournaments), owners, known)
    index, person, seen = _numbered(keys)
    unknown: list[tuple[str, int, int | None]] = []  # key, entry, birth year
    for (nkey, fed), rows in found.unmatched.items():  # numbered after all those found
        years = {y for y in (players[j].birth_year for j in rows) if y}
        for j in rows:
            year = players[j].birth_year if len(years) > 1 else next(iter(years), None)
            key = f"{nkey}|{fed}|{year or ''}"
            if key not in index:
                index[key] = len(seen) + len(unknown)
                unknown.append((key, j, year))
            person[j] = index[key]
    code = LazyMapping(partial(_code, owners, entries.start_nos, person,
                               [j for rows in found.unmatched.values() for j in rows]))
    shown = seen + [j for _, j, _ in unknown]
    first_players = list(map(players.__getitem__, shown))
    keys_of = cast("list[str]", list(index))  # numbered as first seen, the unmatched last
    birth_years = list(map(_BIRTH_YEAR, first_players[:len(seen)])) + [y for _, _, y in unknown]
    by_name = {i: by for j, by in found.how.items() if seen[i := person[j]] == j}
    where_shown = list(map(owners.__getitem__, shown))
    n_found, n_alone = len(seen), len(unknown)

    def make() -> list[Person]:  # from what it keeps alone (the entries' columns are let go)
        fide_ids, found_by = keys_of[:n_found], [MatchedBy.FIDE_ID] * n_found
        for i, by in by_name.items():  # first seen found by name: a register's key is no id
            fide_ids[i], found_by[i] = (keys_of[i] if keys_of[i].isdigit() else ""), by
        return records(Person, {
            "key": keys_of, "name": list(map(_NAME, first_players)),
            "federation": list(map(_FEDERATION, first_players)),
            "fide_id": fide_ids + [""] * n_alone, "birth_year": birth_years,
            "matched_by": found_by + [MatchedBy.NONE] * n_alone,
            "where": list(map(_where, first_players, where_shown))}, len(first_players))

    alone = [(f"{players[j].name} ({_where(players[j], owners[j])})", key)
             for key, j, _ in unknown]
    return Identities(LazyRecords(len(shown), make), code, keys_of, birth_years, _notes(
        alone, found.matched, [(text, keys_of[code[(owners[j], players[j].start_no)]])
                               for j, text in found.ambiguous]),
        tuple(k for k, _ in tournaments), person if entries.numbered else None)


@dataclass(frozen=True, slots=True)
class _Found:
    """What looking the players without a FIDE id up found."""

    how: dict[int, MatchedBy]
    """Entry → how it was found (the others by the FIDE id the source gives)."""
    matched: list[tuple[str, str]]
    """(text, key) of each found by name."""
    ambiguous: list[tuple[int, str]]
    """(entry, text) of each matching several people."""
    unmatched: dict[tuple[str, str], list[int]]
    """(name key, federation) → the entries found nowhere, in order."""


def _by_name(entries: Roster, lists: Sequence[RatingList], owners: Sequence[str],
             known: Iterable[Mapping[tuple[str, str], Sequence[Candidate]]]
             ) -> tuple[list[str | None], _Found]:
    """Each entry's key: its FIDE id, else the key of the one candidate its name and federation
    find (None: none found); and what was found."""
    players, fids = entries.players, entries.fids
    without = list(compress(range(len(fids)), map(not_, fids)))
    wanted = _wanted(map(players.__getitem__, without))
    places = [*known, _with_ids(entries, lists, wanted, without)] if wanted else []
    keys: list[str | None] = list(fids)
    found = _Found({}, [], [], {})
    for j in without:
        p, tkey = players[j], owners[j]
        fed = p.federation.strip().upper()
        candidate = _lookup(p, lists[entries.tour[j]], fed, places)
        if isinstance(candidate, Candidate):
            keys[j], found.how[j] = candidate.key, MatchedBy.NAME_FED
            found.matched.append((f"{p.name} ({_where(p, tkey)})", candidate.key))
            continue
        if candidate:
            found.ambiguous.append((j, f"{p.name} ({_where(p, tkey)}, {candidate} candidates)"))
        keys[j] = None
        found.unmatched.setdefault((name_key(p.name), fed), []).append(j)
    return keys, found


def _numbered(keys: Sequence[str | None]) -> tuple[dict[str | None, int], list[int], list[int]]:
    """The keys numbered as first seen, each entry's number (−1: no key) and where each is
    first seen."""
    first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))  # earliest
    first.pop(None, None)
    seen = sorted(first.values())
    index: dict[str | None, int] = dict(zip(map(keys.__getitem__, seen), count()))
    return index, list(map(index.get, keys, repeat(-1))), seen


def _code(owners: Sequence[str], start_nos: Sequence[int], person: Sequence[int],
          unmatched: Iterable[int]) -> dict[tuple[str, int], int]:
    """(tournament key, start number) → person; of two players with one start number the
    later, those found nowhere placed last."""
    code = dict(zip(zip(owners, start_nos, strict=True), person, strict=True))
    code.update(((owners[j], start_nos[j]), person[j]) for j in unmatched)
    return code


def _where(p: Player, tournament: str) -> str:
    """Where a player is seen, for notes: 'No. 2 in 1452107'."""
    return f"No. {p.start_no} in {tournament}"


def _notes(alone: Sequence[tuple[str, str]], matched: Sequence[tuple[str, str]],
           ambiguous: Sequence[tuple[str, str]]) -> tuple[Note, ...]:
    """The notes of an identification: the players found nowhere, found by name and matching
    several people ((text, key) each)."""
    notes = []
    if alone:
        notes.append(grouped(f"{plural(len(alone), 'player')} without a FIDE id found on no "
                             "list, so told apart by name, federation and birth year",
                             [text for text, _ in alone], [key for _, key in alone]))
    if matched:
        notes.append(grouped(f"{plural(len(matched), 'player')} without a FIDE id in the "
                             "source found by name and federation",
                             [text for text, _ in matched], [key for _, key in matched]))
    if ambiguous:
        notes.append(grouped(f"{plural(len(ambiguous), 'player')} without a FIDE id match "
                             "several people of the same name and federation and are left "
                             "unmatched", [text for text, _ in ambiguous],
                             [key for _, key in ambiguous]))
    return tuple(notes)


def _lookup(p: Player, rl: RatingList, fed: str,
            places: Sequence[Mapping[tuple[str, str], Sequence[Candidate]]]) -> Candidate | int:
    """The one candidate a player without an id is, or how many it could be (0: none)."""
    if not fed or not p.name.strip():
        return 0
    key = (fed, name_key(p.name))
    for place in places:
        found = _choose(p, rl, place.get(key, ()))
        if len(found) == 1:
            return found[0]
        if found:
            return len(found)
    return 0


def _lists(tournaments: Sequence[tuple[str, Tournament]]) -> list[RatingList]:
    """Per tournament: the list it is rated on."""
    return [t.info.rating_list or RatingList.STANDARD for _, t in tournaments]


def _with_ids(entries: Roster, lists: Sequence[RatingList],
              wanted: Collection[tuple[str, str]], without: Iterable[int]
              ) -> dict[tuple[str, str], list[Candidate]]:
    """The players with a FIDE id in the tournaments themselves, as candidates (for these
    (federation, name key)s only, of the entries *without* one)."""
    out: dict[tuple[str, str], dict[str, Candidate]] = {}
    tokens = set(map(entries.name_tokens.__getitem__, without))  # the names wanted
    for j in compress(range(len(entries.fids)), map(tokens.__contains__, entries.name_tokens)):
        p, fid = entries.players[j], entries.fids[j]
        if not fid:
            continue
        fed, name = p.federation.strip().upper(), name_key(p.name)
        if (fed, name) in wanted:
            out.setdefault((fed, name), {}).setdefault(
                fid, Candidate(key=fid, fide_id=fid, name=p.name, federation=p.federation,
                               birth_year=p.birth_year, titles=frozenset({p.title.upper()} - {""}),
                               ratings={lists[entries.tour[j]]: p.rating}))
    return {k: list(v.values()) for k, v in out.items()}
