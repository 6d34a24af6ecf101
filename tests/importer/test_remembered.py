"""A function of texts remembered for many at once (importer.identity.Remembered)."""

from __future__ import annotations

from importer.identity import Remembered, fide_id_text, fide_id_texts, name_token, name_tokens


def test_many_texts_give_what_the_function_gives_each():
    calls: list[str] = []
    upper = Remembered(lambda s: calls.append(s) or s.upper(), size=3)
    assert upper.many(["a", "b", "a"]) == ["A", "B", "A"]
    assert calls == ["a", "b"]  # each text once
    assert upper.many(["b", "c", "d"]) == ["B", "C", "D"]  # full at 3: emptied, then filled
    assert calls == ["a", "b", "c", "d"]
    upper.cache_clear()
    assert upper.many(["a"]) == ["A"] and calls[-1] == "a"
    small = Remembered(str.upper, size=2)
    assert small.many(["a", "b"]) == ["A", "B"]
    assert small.many(["a", "c"]) == ["A", "C"]  # full: emptied, then c kept
    assert small.many(["c", "a"]) == ["C", "A"]


def test_fide_ids_and_name_tokens_many_at_once_are_those_one_at_a_time():
    ids = [" 400041 ", "0", "", "12a", "4100018", "٤٥٦", "000123"]
    assert fide_id_texts.many(ids) == [fide_id_text(i) for i in ids] == [
        "400041", "", "", "", "4100018", "", "000123"]
    names = ["Adams, Michael", "ADAMS Michael", "Müller, Jörg", ""]
    assert name_tokens.many(names) == [name_token(n) for n in names]
    assert name_tokens.many(names)[0] == name_tokens.many(names)[1]
