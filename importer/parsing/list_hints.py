"""The FIDE list (standard, rapid, blitz) from an event's name, when no time control says it.

One table of the words event names use in many languages ('Blitz', 'Schnellschach',
'Быстрые', 'Rápidas', 'Lampo', 'Szachy szybkie', …), and :func:`with_list_hint`, which every
reader calls last: a list its time control gave stays; otherwise the name's words give it (a
guess, with a note), else it is left to the default (rated as standard), with a note when the
name still looks like a faster game ('Quickplay', 'Bullet').
"""

from __future__ import annotations

import re
from dataclasses import replace

from importer.model import ListSource, RatingList, SourceWarning, TournamentInfo

__all__ = ["NAME_WORDS", "list_from_name", "with_list_hint"]

NAME_WORDS: dict[RatingList, tuple[str, ...]] = {
    RatingList.BLITZ: (
        "blitz", "блиц", "молниеносн", "lampo", "relámpago", "relampago", "relâmpago",
        "błyskawiczn", "bleskov", "villám", "yıldırım", "brzopotezn", "salama", "超快棋", "闪电"),
    RatingList.RAPID: (
        "rapid", "rápid", "schnellschach", "schnellturnier", "быстр", "semirapid", "semi-rapid",
        "semilampo", "szybk", "hızlı", "aktivschach", "pikashakki", "快棋"),
}
"""The beginnings of the words event names use per list ('Blitzschach', 'Rapide', 'Rápidas',
'Быстрые', 'Szachy szybkie'); a name with words of both lists ('Rapid & Blitz') says nothing."""
_FAST_HINTS = ("quick", "active", "speed", "fast", "bullet", "lightning", "armageddon",
               "schnell", "snel", "rapid", "blitz")
"""Words that make a name look like a faster game without saying which list."""

_WORD = re.compile(r"[^\W\d_][\w-]*")
_CJK = re.compile(r"[\u3000-\u9fff]+")


def _starts(name: str, stems: tuple[str, ...]) -> str | None:
    """The first word of *name* that begins with one of *stems* (a CJK stem: anywhere, as
    those names put no spaces between words)."""
    low = name.casefold()
    words: list[str] = _WORD.findall(low)
    for stem in stems:
        if _CJK.fullmatch(stem):
            if stem in low:
                return stem
            continue
        for w in words:
            if w.startswith(stem):
                return w
    return None


def list_from_name(name: str) -> tuple[RatingList, str] | None:
    """(list, the word that says it) from an event name, or None when it says nothing (or
    names both rapid and blitz)."""
    hits = []
    for rl, stems in NAME_WORDS.items():  # blitz first: '超快棋' (blitz) holds '快棋' (rapid)
        word = _starts(name, stems)
        if word is not None:
            hits.append((rl, word))
            name = name.replace(word, " ") if _CJK.fullmatch(word) else name
    return hits[0] if len(hits) == 1 else None


def with_list_hint(info: TournamentInfo) -> tuple[TournamentInfo, tuple[SourceWarning, ...]]:
    """*info* with its list and where it comes from: a list already read stays; otherwise the
    event name's words, with a note (a guess); otherwise the default (standard), with a note
    when the name looks like a faster game."""
    if info.rating_list is not None:
        if info.list_source is ListSource.NONE:
            return replace(info, list_source=ListSource.TIME_CONTROL), ()
        return info, ()
    hit = list_from_name(info.name)
    if hit is not None:
        rl, word = hit
        return replace(info, rating_list=rl, list_source=ListSource.EVENT_NAME), (SourceWarning(
            "list-guessed", f"no time control shown: rated as {rl.value}, guessed from the word "
            f"{word!r} in the event name {info.name!r}"),)
    notes: tuple[SourceWarning, ...] = ()
    fast = _starts(info.name, _FAST_HINTS)
    if fast is not None:
        notes = (SourceWarning(
            "list-guessed", f"no time control shown and the event name {info.name!r} "
            f"({fast!r}) may mean a rapid or blitz event: rated as standard"),)
    return replace(info, list_source=ListSource.DEFAULT), notes
