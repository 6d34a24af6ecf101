"""Player names compared across sources: one folding, used by every matcher.

chess-results crosstables print ``Adams Michael``, starting lists and FIDE's list
``Adams, Michael``, other sources ``Michael Adams`` or ``ADAMS, Michael``; accents come and
go (``Müller`` / ``Muller``).  :func:`name_key` maps all of these to the same text: the
name's words, accents and case removed, sorted.
"""

from __future__ import annotations

import string
import unicodedata
from functools import lru_cache

__all__ = ["name_key"]

_WORDS = bytes(c if chr(c) in string.ascii_lowercase + string.digits else ord(" ")
               for c in range(256))
"""A translation of bytes: a lower-case letter or a digit stays, anything else parts words."""


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """The name as compared: its words without accents or case, sorted ('' for no name).

    >>> name_key("Adams, Michael") == name_key("ADAMS Michael") == name_key("Michael Adams")
    True
    >>> name_key("Müller-Lüdenscheidt, Jörg")
    'jorg ludenscheidt muller'
    """
    if name.isascii():
        folded = name.lower().encode()
    else:
        folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").lower()
    return b" ".join(sorted(folded.translate(_WORDS).split())).decode()
