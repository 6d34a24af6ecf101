"""Player names compared across sources: one folding, used by every matcher.

chess-results crosstables print ``Adams Michael``, starting lists and FIDE's list
``Adams, Michael``, other sources ``Michael Adams`` or ``ADAMS, Michael``; accents come and
go (``Müller`` / ``Muller``).  :func:`name_key` maps all of these to the same text: the
name's words, accents and case removed, sorted.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["name_key"]

_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """The name as compared: its words without accents or case, sorted ('' for no name).

    >>> name_key("Adams, Michael") == name_key("ADAMS Michael") == name_key("Michael Adams")
    True
    >>> name_key("Müller-Lüdenscheidt, Jörg")
    'jorg ludenscheidt muller'
    """
    if name.isascii():
        folded = name.lower()
    else:
        folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(sorted(_WORD.findall(folded)))
