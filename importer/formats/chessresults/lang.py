"""Header words and labels per UI language (the ``lan=`` parameter) → canonical keys.

Lookups are case-insensitive and ignore surrounding spaces, ``&nbsp;`` and trailing dots.
Each word also names its language, so a page's language can be guessed from its headers.
"""

from __future__ import annotations

import re

from importer.parsing.numbers import whole_number

__all__ = [
    "BYE_WORDS",
    "NOT_PAIRED_WORDS",
    "card_key",
    "detail_key",
    "header_key",
    "norm",
    "numbered_column",
    "round_column",
    "tiebreak_column",
]


def norm(text: str) -> str:
    """Lookup form of a label: &nbsp; → space, spaces collapsed, casefolded, trailing dots and
    colons dropped."""
    return " ".join(text.replace("\xa0", " ").split()).casefold().rstrip(".: ")


def _table(rows: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for key, words in rows.items():
        for word in words:
            lang, _, text = word.partition(":")
            out.setdefault(norm(text), (key, lang))
    return out


# Column headers of the CRs1 tables (tr from Turkish pages, pt from the xlsx export and
# a pt ranking list).  The ranking-list words of es, de, fr, it, ru and tr are the UI's usual
# abbreviations, not all seen on a saved page: the ranking parser checks the columns they name
# by their values, and finds the columns of an unknown language the same way.
_HEADERS = _table({
    "no": ("en:No.", "en:SNo", "de:Snr", "ru:Ном.", "ru:Ст.ном.", "fi:Nr", "pt:Nº.", "de:Nr.",
           "tr:SNo", "ru:Ст.ном", "pt:Nº.Inic.", "pt:Nº Inic.", "es:NºInic.", "es:Nº Inic.",
           "es:N.Ini.", "fr:N°Dép.", "fr:No.Dép.", "it:N.Ini.", "it:Num.", "tr:BSNo",
           "tr:Baş.No"),
    "rank": ("en:Rk.", "ru:Место", "en:Rank", "de:Rang", "tr:Sıra", "de:Rg.", "es:Clas.",
             "es:Pos.", "fr:Clt.", "fr:Pl.", "it:Pos.", "it:Cl.", "pt:Cl.", "pt:Pos.",
             "ru:Мес."),
    "name": ("en:Name", "ru:Имя", "fi:Nimi", "pt:Nome", "tr:İsim", "de:Name", "es:Nombre",
             "fr:Nom", "it:Giocatore", "tr:Ad Soyad"),
    "white": ("en:White", "de:Weiß", "ru:Белые", "tr:Beyaz", "es:Blancas", "fr:Blancs",
              "it:Bianco", "pt:Brancas"),
    "black": ("en:Black", "de:Schwarz", "ru:Черные", "tr:Siyah", "es:Negras", "fr:Noirs",
              "it:Nero", "pt:Pretas"),
    "rating": ("en:Rtg", "de:Elo", "ru:Рейт.", "fi:Rtg", "tr:ELO", "ru:Рейтинг"),
    "rating_intl": ("en:RtgI", "de:EloI", "pt:EloI", "es:EloI", "fr:EloI", "it:EloI",
                    "ru:Рейт.М", "tr:ELOI"),
    "rating_nat": ("en:RtgN", "tr:UKD", "de:EloN", "pt:EloN", "es:EloN", "fr:EloN", "it:EloN",
                   "ru:Рейт.Н", "ru:Нац.рейтинг", "de:DWZ"),
    "fed": ("en:FED", "de:Land", "ru:ФЕД.", "fi:FED", "fr:Féd.", "it:Fed.", "tr:Fed."),
    "fide_id": ("en:FideID", "ru:код FIDE", "pt:ID FIDE", "en:Fide-ID"),
    "national_id": ("en:ID", "ru:ИН", "ru:Идент.Номер"),
    "sex": ("en:sex", "ru:пол", "pt:sexo", "es:sexo", "de:Geschl.", "fr:sexe", "it:sesso",
            "tr:Cins"),
    "typ": ("en:Typ", "pt:Tipo", "es:Tipo", "it:Tipo", "fr:Type", "ru:Тип", "tr:Tip"),
    "group": ("en:Gr",),
    "club": ("en:Club/City", "ru:Клуб/Город", "pt:Clube/Cidade", "de:Verein/Ort",
             "es:Club/Ciudad", "fr:Club/Ville", "it:Club/Città", "tr:Kulüp/Şehir"),
    "points": ("en:Pts.", "de:Pkt.", "ru:Очки", "fi:p.", "tr:Puan", "en:Pts", "es:Ptos.",
               "it:Punti", "fr:Points", "pt:Pontos"),
    "board": ("en:Bo.", "de:Br.", "tr:Masa", "es:Mesa", "fr:Tab.", "it:Scacc.", "pt:Mesa"),
    "result": ("en:Result", "en:Res.", "de:Erg.", "ru:Результат", "ru:Рез.", "tr:Sonuç",
               "es:Resultado", "fr:Résultat", "it:Risultato", "pt:Resultado"),
    "round": ("en:Rd.", "ru:Тур", "tr:Tur", "es:Ronda", "pt:Ronda", "it:Turno", "fr:Ronde"),
    "team": ("en:Team", "de:Mannschaft"),
    "mp": ("en:MP",),
    # the published rating figures of a ranking list (chess-results art=1) and a player card
    "k": ("en:K",),
    "rating_change": ("en:rtg+/-", "de:Elo+/-", "es:Elo+/-", "pt:Elo+/-", "fr:Elo+/-",
                      "it:Elo+/-", "ru:Рейт+/-", "tr:ELO+/-"),
    "rating_change_nat": ("en:RtgN+/-", "en:rtg nat+/-", "de:EloN+/-", "de:DWZ+/-",
                          "tr:UKD+/-"),
    "pgn": ("en:PGN",),
    "games": ("de:Anz", "en:n"),
    "score": ("en:w",),
    "expected": ("en:we",),
    "score_diff": ("en:w-we",),
    "performance": ("en:Rp", "ru:Рп", "en:Perf."),
    "rating_average": ("de:EloDS", "en:Rtg-Ø", "en:RtgØ"),  # the opponents' (or team's) average
})

# Key/value labels of the tournament-details block (turdet=YES).
_DETAILS = _table({
    "organizer": ("en:Organizer(s)", "de:Veranstalter"),
    "federation": ("en:Federation", "de:Föderation", "pt:Federação", "ru:Федерация"),
    "director": ("en:Tournament director", "de:Turnierdirektor"),
    "chief_arbiter": ("en:Chief Arbiter", "de:Hauptschiedsrichter"),
    "time_control": ("en:Time control", "de:Bedenkzeit", "pt:Tempo de reflexão"),
    "location": ("en:Location", "de:Ort"),
    "rounds": ("en:Number of rounds", "de:Rundenanzahl"),
    "type": ("en:Tournament type", "de:Turniermodus"),
    "rating_calculation": ("en:Rating calculation", "de:Elorechnung", "pt:Cálculo de Rating"),
    "fide_event_id": ("en:FIDE-Event-ID",),
    "date": ("en:Date", "de:Von", "pt:Data"),
    "program": ("en:Pairing program", "de:Auslosungsprogramm"),
})

# Key/value labels of the player card (art=9).
_CARD = _table({
    "name": ("en:Name", "ru:Имя", "tr:İsim", "de:Name"),
    "title": ("en:Title", "de:Titel"),
    "start_no": ("en:Starting rank", "ru:Стартовое место", "de:Startnummer"),
    "rating": ("en:Rating", "ru:Рейтинг", "de:Elo"),
    "rating_nat": ("en:Rating national", "ru:Нац.рейтинг", "tr:Ulusal rating",
                   "de:Elo national"),
    "rating_intl": ("en:Rating international", "ru:Междун. рейтинг", "tr:Uluslararası rating",
                    "de:Elo international"),
    "rating_change": ("en:FIDE rtg +/-", "de:FIDE Elo +/-", "ru:FIDE рейт. +/-"),
    "performance": ("en:Performance rating", "en:Performance", "en:Rp",
                    "ru:Рейтинговый перфоманс", "ru:Турнирный рейтинг", "de:Performance",
                    "de:Turnierleistung", "tr:Performans", "es:Performance",
                    "pt:Performance", "fr:Performance", "it:Performance"),
    "k": ("en:K", "en:K-factor", "de:K-Faktor", "ru:Коэффициент"),
    "games": ("en:n", "en:Games", "en:Rated games"),
    "score": ("en:w",),
    "expected": ("en:we",),
    "points": ("en:Points", "ru:Очки", "de:Punkte"),
    "rank": ("en:Rank", "ru:Место", "de:Rang"),
    "federation": ("en:Federation", "ru:Федерация", "de:Föderation"),
    "club": ("en:Club/City", "ru:Клуб/Город", "de:Verein/Ort"),
    "national_id": ("en:Ident-Number", "ru:Идент.Номер", "de:Ident-Nummer"),
    "fide_id": ("en:Fide-ID", "ru:код FIDE", "de:Fide-ID"),
    "birth_year": ("en:Year of birth", "ru:Год рождения", "de:Geburtsjahr"),
})

BYE_WORDS = frozenset({"bye", "spielfrei", "bay", "свободен"})
"""The black-side name of a pairing-allocated bye row on a pairings page (art=2)."""
NOT_PAIRED_WORDS = frozenset({"not paired", "nicht ausgelost", "не спарен", "eşlenmedi"})
"""The black-side name of a not-paired row on a pairings page (art=2)."""

_ROUND_COL = re.compile(r"(\d+)\s*\.?\s*(?:rd|runde|тур|tur|kierros)?", re.IGNORECASE)
_TIEBREAK = re.compile(r"(?:tb|wtg|доп|desp|des|dép|dep|spar)\s*\.?\s*(\d+)", re.IGNORECASE)


def header_key(text: str) -> tuple[str, str] | None:
    """(canonical key, language) of a column header, or None when unknown."""
    return _HEADERS.get(norm(text))


def detail_key(text: str) -> str | None:
    """Canonical key of a details-block label; '(Standard)'-style suffixes are ignored."""
    label = norm(text)
    hit = _DETAILS.get(label) or _DETAILS.get(norm(label.split("(")[0]))
    return hit[0] if hit else None


def card_key(text: str) -> str | None:
    """Canonical key of a player-card label."""
    hit = _CARD.get(norm(text))
    return hit[0] if hit else None


def round_column(text: str) -> int | None:
    """N for a Swiss round column header ``N.Rd`` (also ``N. Runde``), else None."""
    t = norm(text)
    m = _ROUND_COL.fullmatch(t)
    if m is None or t.isdigit():
        return None
    return whole_number(m[1])


def numbered_column(text: str) -> int | None:
    """N for a bare numbered column (round-robin opponents, team-composition rounds)."""
    return whole_number(norm(text))


def tiebreak_column(text: str) -> int | None:
    """N for a tie-break column ``TBn`` / ``Wtgn`` / ``Допn`` / ``Despn`` / ``Desn`` …"""
    m = _TIEBREAK.fullmatch(norm(text))
    return whole_number(m[1]) if m else None
