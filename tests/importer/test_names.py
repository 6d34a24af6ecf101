"""Player names compared across sources (importer.parsing.names.name_key)."""

from __future__ import annotations

import re
import string
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from importer.parsing.names import name_key


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
       | st.text(alphabet=string.printable, max_size=40))
def test_a_name_key_is_its_words_without_accents_or_case_sorted(name):
    """The words of lower-case letters and digits (after NFKD, accents dropped), sorted: what
    the byte translation in name_key makes."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    assert name_key(name) == " ".join(sorted(re.findall(r"[a-z0-9]+", folded)))


def test_names_written_differently_have_one_key():
    assert name_key("Adams, Michael") == name_key("ADAMS Michael") == "adams michael"
    assert name_key("Müller-Lüdenscheidt, Jörg") == "jorg ludenscheidt muller"
    assert name_key("O'Neil, Al 3rd") == "3rd al neil o"
    assert name_key("  ") == name_key("") == ""
