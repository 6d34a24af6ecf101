"""The final ranking list (``art=1``) with the published rating figures, and its columns.

A ranking list prints per player the rank, the points and, once ratings are calculated, the
figures FIDE publishes: Rp (performance), n (games), w (score), we (expected score), w-we,
K and rtg+/-.  The columns are found by their header words and, where the words are unknown
(a language :mod:`importer.formats.chessresults.lang` does not know), by their values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_int, round_cell_or_none
from importer.formats.chessresults.records import parse_decimal
from importer.formats.chessresults.table import (
    FED,
    FIRST_INT,
    Ctx,
    El,
    Table,
    blank_sex,
    content,
    link_snr,
    player_fields,
    player_index,
    tied_ranks,
)
from importer.model import Player
from importer.parsing.numbers import whole_number

__all__ = ["RankingColumns", "heading_round", "ranking_columns", "read_ranking"]

_K_VALUES = frozenset({10, 15, 20, 25, 30, 40})
"""The K factors FIDE has used (the Rating Regulations' development coefficients, this and
earlier editions): a published K column holds only these."""
_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM",
                     "ACM", "NM", "WNM", "HGM"})
_SEXES = frozenset({"w", "m", "f", "ж", "м", "k", "d", "h"})
_MAX_ROUNDS = 50
"""The bound on points and games when the page does not say how many rounds were played."""
_CHANGE_SLACK = Decimal("0.05")
"""K × (w − we) against a printed rtg+/-: the printed figure drops trailing zeros only."""
_PUBLISHED = ("performance", "games", "score", "expected", "score_diff", "k", "rating_change")

Numbers = list[Decimal | None]


def _numbers(texts: Sequence[str]) -> Numbers | None:
    """A column's cells as numbers ('' → None); None when a cell is not a number."""
    out: Numbers = []
    for x in texts:
        try:
            out.append(parse_decimal(x))
        except InputError:
            return None
    return out


def _whole(values: Numbers | None) -> bool:
    return values is not None and all(v is None or v == v.to_integral_value() for v in values)


def _is_crosstable_cell(text: str) -> bool:
    return (cell := round_cell_or_none(text)) is not None and cell.opponent_no is not None


class _Numbers:
    """The columns' cells as numbers (:func:`_numbers`), each column read when first asked
    for: most columns of a list whose header words are known are never asked for."""

    def __init__(self, texts: list[list[str]]) -> None:
        self._texts = texts
        self._read: dict[int, Numbers | None] = {}

    def __getitem__(self, i: int) -> Numbers | None:
        if i not in self._read:
            self._read[i] = _numbers(self._texts[i])
        return self._read[i]


@dataclass
class RankingColumns:
    """Where a ranking list keeps each figure: canonical key → column, and what was found by
    the values rather than the header words."""

    columns: dict[str, int]
    by_structure: list[str]
    national_change: list[int]
    """Columns that print a second (national) rating change: read, never kept."""


def heading_round(table: El) -> int | None:
    """The round a ranking list is after: the number in its heading ('Final Ranking after 9
    Rounds', 'Classificação após a 5ª ronda'), when there is one below 100."""
    parent = table.getparent()
    heads = [] if parent is None else [h for h in parent if h.tag in ("h2", "h3")]
    for h in heads:
        m = FIRST_INT.search(content(h))
        n = whole_number(m[0]) if m else None
        if n is not None and n < 100:
            return n
    return None


def ranking_columns(t: Table, rounds: int | None, *, cut: bool = False,
                     ) -> RankingColumns | None:
    """The columns of a ranking list (art=1): from the header words and, where they are
    unknown, from the values; None when the table is not a ranking list.

    By the values: the rank is the first column of whole numbers that starts at 1 and rises
    down the rows, a blank continuing a tie (however many rows tie: the header alone cannot
    tell the rank from the starting number, a Russian page heads both 'Ст.ном'); the starting
    numbers are a column holding 1 … N once each on the N rows (a cut list: distinct numbers),
    unless player links carry them; the name is the text column with the most commas; the points are the first
    column of halves right of the name that never rises down the rows and stays within the
    rounds; in the published block w − we equals the w-we column, n ≥ w and we, K is one of
    10, 15, 20, 25, 30, 40 (blank when unrated), rtg+/- is K × (w − we) and Rp is the
    rating-like column just left of n.  Between the name and the points: a rating column
    (0 or 100–3500), FED (three capitals), sex (one letter), Typ (short codes), the club.
    """
    rows = t.rows
    if not rows:
        return None
    n = len(rows)
    width = len(t.keys)
    texts = [t.column(i) for i in range(width)]
    if any(sum(map(_is_crosstable_cell, col)) * 2 > n for col in texts):
        return None  # round cells such as ' 54b1': a crosstable in an unknown language
    nums = _Numbers(texts)
    found: dict[str, int] = {}
    for i, key in enumerate(t.keys):
        if key and not key.startswith(("rd:", "n:")):
            found.setdefault(key, i)
    free = [i for i, key in enumerate(t.keys) if not key]
    taken: set[int] = set()
    structural: list[str] = []
    limit = Decimal(rounds or _MAX_ROUNDS)

    def take(key: str, i: int) -> None:
        found[key] = i
        taken.add(i)
        structural.append(key)

    def open_(lo: int = -1, hi: int = width) -> list[int]:
        return [i for i in free if lo < i < hi and i not in taken]

    numbered = [i for i, key in enumerate(t.keys) if key == "no"]
    if "rank" not in found and len(numbered) > 1:  # ru art=1 heads the rank 'Ст.ном' too
        found["no"] = numbered[1]
        free = sorted([*free, numbered[0]])
    if "rank" not in found:
        for i in open_():
            v = nums[i]
            if not _whole(v) or v is None or v[0] != 1:
                continue
            ranks = [(r, x) for r, x in enumerate(v, start=1) if x is not None]
            if (len(ranks) > 1 or n == 1) and all(x <= r for r, x in ranks) and all(
                    a[1] < b[1] for a, b in pairwise(ranks)):
                take("rank", i)
                break
    if "rank" not in found:
        return None
    links = any(link_snr(c) is not None for c in rows[0][1])
    if "no" not in found and not links:
        for i in open_():
            v = nums[i]
            if not _whole(v) or v is None or None in v:
                continue
            whole = [int(x) for x in v if x is not None]
            if set(whole) == set(range(1, n + 1)) or (cut and len(set(whole)) == n and min(
                    whole) >= 1 and max(whole) <= 9999):
                take("no", i)
                break
        else:
            return None
    if "name" not in found:
        words = [i for i in open_() if nums[i] is None and any(texts[i])]
        if not words:
            return None

        def looks_like_names(i: int) -> tuple[float, float]:
            col = [x for x in texts[i] if x]
            return (sum("," in x for x in col) / len(col), sum(map(len, col)) / len(col))
        take("name", max(words, key=looks_like_names))
    name = found["name"]
    if name > 0 and (name - 1) in free and (name - 1) not in taken and all(
            x in _TITLES or not x for x in texts[name - 1]):
        take("title", name - 1)
    if "points" not in found:
        for i in open_(name):
            v = nums[i]
            if v is None or None in v:
                continue
            values = [x for x in v if x is not None]
            if any(x < 0 or x > limit or (2 * x) != (2 * x).to_integral_value()
                   for x in values) or len(set(values)) == 1:
                continue
            if all(a >= b for a, b in pairwise(values)):
                take("points", i)
                break
    if "points" not in found:
        return None
    points = found["points"]
    _published_columns(found, take, open_(points), nums, limit)
    for i in open_(name, points):  # the player columns between the name and the points
        col = [x for x in texts[i] if x]
        if not col:
            continue
        v = nums[i]
        if _whole(v) and v is not None:
            values = [x for x in v if x is not None]
            if all(x == 0 or 100 <= x <= 3500 for x in values) and max(values) >= 1000:
                take("rating" if "rating" not in found and "rating_intl" not in found
                     else "rating_nat", i)
            continue
        if all(FED.fullmatch(x) for x in col):
            if "fed" not in found:
                take("fed", i)
        elif all(len(x) == 1 and x.casefold() in _SEXES for x in col):
            if "sex" not in found:
                take("sex", i)
        elif all(len(x) <= 5 for x in col) and "typ" not in found:
            take("typ", i)
        elif "club" not in found:
            take("club", i)
    national = [i for i, key in enumerate(t.keys) if key == "rating_change_nat"]
    changes = [i for i, key in enumerate(t.keys) if key == "rating_change"]
    if len(changes) > 1:  # two rtg+/- columns: the one that is K × (w − we) is FIDE's
        fide = [i for i in changes if _is_k_times(nums, found, i)]
        first = fide[0] if fide else changes[0]
        found["rating_change"] = first
        national += [i for i in changes if i != first]
    return RankingColumns(found, structural, sorted(national))


def _is_k_times(nums: _Numbers, found: dict[str, int], c: int) -> bool:
    """Whether column *c* is K × (w − we) on every row that prints K, w and we."""
    k, w, we = (nums[found[key]] if key in found else None for key in ("k", "score", "expected"))
    v = nums[c]
    if k is None or w is None or we is None or v is None:
        return False
    seen = 0
    for kk, ww, ee, x in zip(k, w, we, v, strict=True):
        if kk is None or ww is None or ee is None:
            continue  # an unrated row: a national change may stand there
        if x is None or abs(x - kk * (ww - ee)) > _CHANGE_SLACK:
            return False
        seen += 1
    return seen > 0


def _published_columns(found: dict[str, int], take: Callable[[str, int], None],
                       right: list[int], nums: _Numbers, limit: Decimal) -> None:
    """Rp, n, w, we, w-we, K and rtg+/- right of the points, where no header word named them."""
    decimals = [i for i in right if nums[i] is not None]
    if not all(key in found for key in ("score", "expected", "score_diff")):
        triples = sorted(((a, b, c) for a in decimals for b in decimals for c in decimals
                          if a < b < c), key=lambda x: (x[2] - x[0], x[0]))
        for a, b, c in triples:
            if any(key in found and found[key] != col for key, col in (
                    ("score", a), ("expected", b), ("score_diff", c))):
                continue
            if _is_difference(nums[a], nums[b], nums[c]):
                for key, col in (("score", a), ("expected", b), ("score_diff", c)):
                    if key not in found:
                        take(key, col)
                break
    if "score" not in found or "expected" not in found:
        return
    w, we = nums[found["score"]], nums[found["expected"]]
    left = [i for i in decimals if i < found["score"] and i not in found.values()]
    if "games" not in found:
        for i in reversed(left):
            if _whole(nums[i]) and _bounds_games(nums[i], w, we, limit):
                take("games", i)
                break
    if "performance" not in found and "games" in found:
        for i in reversed([i for i in left if i < found["games"]]):
            v = nums[i]
            values = [x for x in v or [] if x is not None]
            if _whole(v) and values and all(x >= 0 for x in values) and max(values) >= 400:
                take("performance", i)
                break
    tail = [i for i in decimals if i > found["score"] and i not in found.values()]
    if "k" not in found:
        for i in tail:
            values = [x for x in nums[i] or [] if x is not None]
            if values and _whole(nums[i]) and all(x in _K_VALUES for x in values):
                take("k", i)
                break
    if "rating_change" not in found and "k" in found:
        for i in tail:
            if i not in found.values() and _is_k_times(nums, found, i):
                take("rating_change", i)
                break


def _is_difference(a: Numbers | None, b: Numbers | None, c: Numbers | None) -> bool:
    """c = a − b on every row that prints b (and all three blank otherwise): w, we, w-we."""
    if a is None or b is None or c is None:
        return False
    seen = fraction = 0
    for x, y, z in zip(a, b, c, strict=True):
        if y is None:
            if z is not None:
                return False
            continue
        if x is None or z is None or x - y != z:
            return False
        seen += 1
        fraction += y != y.to_integral_value()
    return seen > 0 and fraction > 0


def _bounds_games(n: Numbers | None, w: Numbers | None, we: Numbers | None,
                  limit: Decimal) -> bool:
    """n holds every row's w and we and is at most the rounds played."""
    if n is None or w is None or we is None:
        return False
    for g, s, e in zip(n, w, we, strict=True):
        if s is None and e is None:
            continue
        if g is None or g > limit or (s is not None and s > g) or (e is not None and e > g):
            return False
    return True


def read_ranking(ctx: Ctx, t: Table, cols: RankingColumns) -> list[Player]:
    """art=1: rank, points and the published rating figures per player."""
    for key, i in cols.columns.items():
        t.keys[i] = key
    idx = player_index(t.keys)
    where = {key: cols.columns[key] for key in _PUBLISHED if key in cols.columns}
    sex = blank_sex(t, idx)
    players = []
    mismatched: list[Player] = []
    for n, ((tr, cells), texts) in enumerate(zip(t.rows, t.texts, strict=True), start=1):
        fields = player_fields(ctx, idx, tr, cells, n, texts, blank_sex=sex)
        v = {key: texts[i] for key, i in where.items() if i < len(texts)}
        try:
            games = parse_int(v.get("games", ""))
            performance = parse_int(v.get("performance", ""))
            k = parse_int(v.get("k", ""))
            score, expected, diff, change = (parse_decimal(v.get(key, "")) for key in (
                "score", "expected", "score_diff", "rating_change"))
        except InputError as e:
            raise ctx.error(f"ranking row {n} (player {fields['start_no']}): {e}") from None
        if games == 0 and not performance:
            performance = None  # no games: the printed 0 is no performance
        p = Player(**fields, k=k, rating_change=change, published_performance=performance,
                   published_games=games, published_score=score, published_expected=expected)
        if score is not None and expected is not None and (
                (diff is not None and diff != score - expected) or (
                k is not None and change is not None
                and abs(change - k * (score - expected)) > _CHANGE_SLACK)):
            mismatched.append(p)
        players.append(p)
    players = tied_ranks(players)
    if cols.by_structure and ctx.unknown:
        read = ", ".join(dict.fromkeys(cols.by_structure))
        ctx.warn("unknown-language", f"unknown language: columns "
                 f"{', '.join(map(repr, ctx.unknown[:8]))} not recognised; read the ranking "
                 f"list by its values ({read})")
    if mismatched:
        named = "; ".join(f"{p.start_no} {p.name}" for p in mismatched[:5])
        ctx.warn("published-change", f"ranking list: the printed rtg+/- is not K × (w − we) (or "
                 f"w-we not w − we) for {len(mismatched)} player"
                 f"{'s' if len(mismatched) > 1 else ''}: {named}",
                 tuple(p.start_no for p in mismatched))
    if cols.national_change:
        heads = ", ".join(repr(t.header[i]) for i in cols.national_change if i < len(t.header))
        ctx.warn("national-change", f"ranking list: a second rating change column ({heads}), "
                 "the national one, is not kept: only the FIDE rtg+/- is")
    return players
