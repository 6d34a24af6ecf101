"""Shared table helpers of the chess-results readers: cells, rows, header keys, player rows.

chess-results prints its data in ``CRs1`` tables.  Header rows are classed ``CRg1b`` or
``CRng1b`` (older pages use ``<th>`` cells), one-cell rows are captions ('Round 2 on …', a
team's name), every other row after the header is data.  Columns are mapped by header text
(:mod:`importer.formats.chessresults.lang`); the big tables are walked row by row with plain element
iteration (one lxml parse per page, no per-element Python classes).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, cast

import lxml.etree

from importer.errors import InputError
from importer.formats.chessresults.cells import clean, parse_int, parse_points, parse_rating
from importer.formats.chessresults.lang import header_key, numbered_column, round_column, tiebreak_column
from importer.formats.chessresults.records import parse_game_result
from importer.model import Player, RoundResult, SourceWarning, Status
from importer.parsing.numbers import checked_rating, whole_number

__all__ = [
    "BOARD",
    "FED",
    "FIRST_INT",
    "MAX_ROUND",
    "Ctx",
    "El",
    "Table",
    "blank_sex",
    "blanks_are_men",
    "cell_at",
    "cell_text",
    "check_round",
    "column_index",
    "content",
    "data_tables",
    "dedupe",
    "find_column",
    "first_pending",
    "flag_fed",
    "id_or_blank",
    "is_game_result",
    "is_header",
    "link_snr",
    "men_where_blank",
    "player_fields",
    "player_from_row",
    "player_index",
    "player_name",
    "read_int",
    "read_rating",
    "row_cells",
    "row_fed",
    "sex_of",
    "split_table",
    "table_rows",
    "tied_ranks",
]

El = lxml.etree._Element
_SNR = re.compile(r"[?&]snr=(\d+)", re.IGNORECASE)
FIRST_INT = re.compile(r"\d+")
FED = re.compile(r"[A-Z]{3}")
BOARD = re.compile(r"(\d+)\.(\d+)")


def row_cells(tr: El) -> list[El]:
    return list(tr.iterchildren("td", "th"))


def content(el: El) -> str:
    """All the text inside an element (like lxml.html's text_content)."""
    return "".join(cast("Iterator[str]", el.itertext()))


def cell_text(cell: El) -> str:
    """A cell's normalised text; plain cells skip the subtree walk (the hot path)."""
    return clean(content(cell) if len(cell) else cell.text or "")


def table_rows(table: El) -> Iterator[El]:
    for child in table:
        if child.tag == "tr":
            yield child
        elif child.tag in ("tbody", "thead"):
            yield from (tr for tr in child if tr.tag == "tr")


def data_tables(root: El) -> list[El]:
    return [t for t in root.iter("table") if (t.get("class") or "").casefold() == "crs1"]


def is_header(tr: El, cells: list[El]) -> bool:
    """Header rows are classed CRg1b/CRng1b, or (older pages) made of <th> cells."""
    cls = tr.get("class")
    if cls and cls.split(None, 1)[0].endswith("b"):
        return True
    return cells[0].tag == "th" and all(c.tag == "th" for c in cells)


def link_snr(cell: El) -> int | None:
    for a in cell.iter("a"):
        m = _SNR.search(a.get("href") or "")
        if m and (snr := whole_number(m[1])) is not None:
            return snr
    return None


def row_fed(tr: El) -> str:
    for token in (tr.get("class") or "").split()[1:]:
        if FED.fullmatch(token):
            return token
    return ""


def flag_fed(cell: El) -> str:
    for div in cell.iter("div"):
        cls = div.get("class") or ""
        if cls.startswith("tn_"):
            return cls[3:]
    return ""


def player_name(text: str) -> str:
    """Player name without the fixed-board marker ' *)', spaces collapsed."""
    text = text.removesuffix("*)").strip()
    return " ".join(text.split())


def sex_of(text: str) -> str:
    t = text.casefold()
    return "f" if t in ("w", "f", "ж") else "m" if t in ("m", "м") else ""


def blanks_are_men(sexes: Collection[str]) -> bool:
    """A sex column that marks only women (Swiss-Manager's ``w``, blank for men) says the
    blank rows are men; a column that also marks men, or marks no one, is read as shown."""
    return "f" in sexes and "m" not in sexes


def men_where_blank(players: list[Player], idx: dict[str, int]) -> list[Player]:
    """Players read with a sex column (``idx``), blank sexes made men where
    :func:`blanks_are_men`."""
    if "sex" not in idx or not blanks_are_men({p.sex for p in players}):
        return players
    return [p if p.sex else replace(p, sex="m") for p in players]


def blank_sex(t: Table, idx: dict[str, int]) -> str:
    """The sex a blank cell of the table's sex column (``idx``) stands for: 'm' where
    :func:`blanks_are_men`, else ''."""
    if "sex" not in idx:
        return ""
    return "m" if blanks_are_men({sex_of(x) for x in t.column(idx["sex"])}) else ""


def id_or_blank(text: str) -> str:
    return "" if text in ("", "0") else text


MAX_ROUND = 999
"""The highest round number read: no event has more rounds, and every round up to the last is
kept for every player (a round number such as 150999999999999 would exhaust the memory)."""


def check_round(ctx: Ctx, rd: int, where: str) -> int:
    """``rd`` when it can be a round number (rounds count from 1); InputError naming
    ``where`` when it is 0 or larger than any event has."""
    if not 1 <= rd <= MAX_ROUND:
        raise ctx.error(f"{where}: round {rd} is not a round number (1 to {MAX_ROUND})")
    return rd


class Ctx:
    """Per-page parse state: source, warnings, the language guessed from header words."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[SourceWarning] = []
        self.languages: Counter[str] = Counter()
        self.unknown: list[str] = []
        self.rating_column = False

    def warn(self, code: str, message: str, players: tuple[int, ...] = (),
             round: int | None = None) -> None:
        """Keep a warning about this page (*players*: the start numbers it is about)."""
        self.warnings.append(SourceWarning(code, message, players, round))

    def error(self, message: str) -> InputError:
        return InputError(message, source=self.source)

    def rating(self, value: int | None, where: str, no: int | None, name: str, *,
               national: bool = False) -> int | None:
        """*value* checked (:func:`importer.parsing.numbers.checked_rating`); its refusal names
        ``where`` on this page."""
        try:
            return checked_rating(value, no, name, national=national)
        except InputError as e:
            raise self.error(f"{where}: {e}") from None

    def columns(self, texts: Sequence[str]) -> list[str]:
        """Canonical keys of a header row ('' for an unknown or ignorable column)."""
        keys: list[str] = []
        for text in texts:
            hit = header_key(text)
            if hit:
                keys.append(hit[0])
                self.languages[hit[1]] += 1
                self.rating_column |= hit[0] in ("rating", "rating_intl")
                continue
            n = round_column(text)
            if n is not None:
                keys.append(f"rd:{check_round(self, n, f'column {text!r}')}")
                continue
            n = tiebreak_column(text)
            if n is not None:
                keys.append(f"tb:{n}")
                continue
            n = numbered_column(text)
            if n is not None:
                keys.append(f"n:{n}")
                continue
            if text and text not in ("-", ":"):
                self.unknown.append(text)
            keys.append("")
        # the unlabelled column right before a name column is the title
        for i in range(1, len(keys)):
            if keys[i] in ("name", "white", "black") and keys[i - 1] == "":
                keys[i - 1] = "title"
        return keys

    @property
    def language(self) -> str:
        others = [lang for lang, _ in self.languages.most_common() if lang != "en"]
        return others[0] if others else ("en" if self.languages else "")


@dataclass
class Table:
    header: list[str]
    keys: list[str]
    rows: list[tuple[El, list[El]]]
    captions: list[tuple[int, str]]
    """(index into rows where the caption starts, caption text)."""

    @cached_property
    def texts(self) -> list[list[str]]:
        """Each data row's cell texts (:func:`cell_text`), read once for every reader of the
        table (the classifier's sniffing and the page's reader alike)."""
        return [[cell_text(c) for c in cells] for _, cells in self.rows]

    def column(self, i: int) -> list[str]:
        """Column *i*'s texts down the rows ('' where a row is shorter)."""
        return [row[i] if i < len(row) else "" for row in self.texts]


def split_table(table: El, ctx: Ctx) -> Table:
    """The first header row, the data rows after it and the caption rows."""
    header: list[str] = []
    rows: list[tuple[El, list[El]]] = []
    captions: list[tuple[int, str]] = []
    for tr in table_rows(table):
        cells = row_cells(tr)
        if not cells:
            continue
        if len(cells) == 1:
            captions.append((len(rows), cell_text(cells[0])))
        elif is_header(tr, cells):
            if not header:
                header = [cell_text(c) for c in cells]
        elif header:
            rows.append((tr, cells))
    return Table(header, ctx.columns(header) if header else [], rows, captions)


def find_column(keys: list[str], key: str, start: int = 0, stop: int | None = None) -> int | None:
    stop = len(keys) if stop is None else stop
    for i in range(start, stop):
        if keys[i] == key:
            return i
    return None


def cell_at(cells: list[El], i: int | None) -> str:
    return cell_text(cells[i]) if i is not None and i < len(cells) else ""


def read_int(ctx: Ctx, text: str, what: str, row: int) -> int | None:
    """A whole number in a cell ('' → None); InputError naming the row when it is not one."""
    value = whole_number(text)  # the hot path
    if value is not None:
        return value
    try:
        return parse_int(text)
    except InputError:
        raise ctx.error(f"row {row}: {what} {text!r} is not a number") from None


def read_rating(ctx: Ctx, text: str, where: str, no: int | None, name: str) -> int | None:
    """A rating cell ('' or 0: unrated → None); InputError naming ``where`` (and the player,
    for a rating out of range) otherwise."""
    try:
        value = parse_rating(text)
    except InputError as e:
        raise ctx.error(f"{where}: {e}") from None
    return ctx.rating(value, where, no, name)


def column_index(keys: list[str]) -> dict[str, int]:
    """Column index of each key (its first occurrence)."""
    idx: dict[str, int] = {}
    for i, k in enumerate(keys):
        idx.setdefault(k, i)
    return idx


_PLAYER_KEYS = ("no", "name", "title", "fed", "fide_id", "rating", "rating_intl", "rating_nat",
                "national_id", "sex", "club", "team", "typ", "points", "rank")


def player_fields(ctx: Ctx, idx: dict[str, int], tr: El, cells: list[El], row: int,
                  texts: Sequence[str] | None = None, *, blank_sex: str = "") -> dict[str, Any]:
    """The :class:`Player` fields of a list or crosstable row (start number from the snr=
    link, else No.); ``idx`` maps player keys to columns (:func:`player_index`), ``texts`` are
    the row's cell texts where already read (:attr:`Table.texts`; else the player's cells are
    read here), ``blank_sex`` the sex of a blank sex cell (:func:`blank_sex`)."""
    n = len(cells)
    if texts is None:
        v = {k: cell_text(cells[i]) for k, i in idx.items() if i < n}
    else:
        v = {k: texts[i] for k, i in idx.items() if i < n}
    name_i = idx.get("name", n)
    snr = link_snr(cells[name_i]) if name_i < n and len(cells[name_i]) else None
    no = snr if snr is not None else read_int(ctx, v.get("no", ""), "No.", row)
    if no is None:
        raise ctx.error(f"row {row}: no starting number (no No. cell and no player link)")
    fed = v.get("fed") or row_fed(tr)
    if not fed:
        fed = next((f for c in cells if (f := flag_fed(c))), "")
    get = v.get
    try:
        points = parse_points(get("points", ""))
        rating = parse_rating(get("rating_intl") or get("rating", ""))
        national = parse_rating(v["rating_nat"]) if "rating_nat" in v else None
    except InputError as e:
        raise ctx.error(f"row {row} (player {no}): {e}") from None
    name = player_name(get("name", ""))
    where = f"row {row}"
    return {
        "start_no": no, "name": name, "title": get("title", ""), "federation": fed,
        "fide_id": id_or_blank(get("fide_id", "")),
        "rating": ctx.rating(rating, where, no, name),
        "national_rating": ctx.rating(national, where, no, name, national=True),
        "national_id": id_or_blank(get("national_id", "")),
        "sex": sex_of(get("sex", "")) or blank_sex, "club": get("club", ""),
        "team": get("team", ""), "category": get("typ", ""), "points": points,
        "rank": read_int(ctx, v["rank"], "Rk.", row) if "rank" in v else None,
    }


def player_from_row(ctx: Ctx, idx: dict[str, int], tr: El, cells: list[El], row: int,
                    texts: Sequence[str] | None = None, *, blank_sex: str = "") -> Player:
    """The player of a list or crosstable row (:func:`player_fields`)."""
    return Player(**player_fields(ctx, idx, tr, cells, row, texts, blank_sex=blank_sex))


_PLAYER_KEY_SET = frozenset(_PLAYER_KEYS)


def player_index(keys: list[str]) -> dict[str, int]:
    """The columns of the player fields (first occurrences)."""
    return {k: i for k, i in column_index(keys).items() if k in _PLAYER_KEY_SET}


def tied_ranks(players: Sequence[Player]) -> list[Player]:
    """Ranks with blank ties: a row without a rank whose points equal the row above's (or are
    not printed) shares that row's rank; another blank stays unranked (None)."""
    out: list[Player] = []
    for p in players:
        above = out[-1] if out else None
        if p.rank is None and above is not None and above.rank is not None and (
                p.points is None or above.points is None or p.points == above.points):
            p = replace(p, rank=above.rank)
        out.append(p)
    return out


def dedupe(players: Sequence[Player]) -> list[Player]:
    seen: dict[int, Player] = {}
    for p in players:
        seen.setdefault(p.start_no, p)
    return list(seen.values())


def is_game_result(text: str) -> bool:
    try:
        parse_game_result(text)
    except InputError:
        return False
    return True


def first_pending(results: Sequence[RoundResult]) -> int | None:
    pending = Status.PENDING  # looked up once: ~70 ns a time on the enum class (Python 3.11)
    return min((r.round for r in results if r.status is pending), default=None)
