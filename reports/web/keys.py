"""Report options and the keys in report URLs.

A report built from a chess-results link has a stable key that says everything it was built
from, so ``/report/<key>/`` can be rebuilt by anyone at any time: the tournament number, then
``c<N>`` for a player-card link, the rating system when not FIDE, ``p<N>`` for the player
asked for, ``k<K>`` when K is not 20, ``d<YYYYMMDD>`` for a date given, ``e<N>`` for the
event class given (its place in :class:`~rating.norms.EventClass`, from 1), ``q1`` when
FIDE's Qualification Commission approved the event's time control for norms and ``t<N>``
for a rating target: ``1452107``, ``1452107-elo-p12-k30``, ``1452107-e3``, ``1452107-t2300``.
Reports of uploaded files get a random key (``u…``) and expire; the key ends with a signature
of this server process, so a key it issued is told from one it never did (:func:`issued`)
after the report has gone.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from datetime import date

from importer.net.urls import Ref
from rating.norms import EventClass
from rating.systems import registry
from reports.settings import DEFAULT_K, K_MAX, K_MIN, TARGET_MAX, TARGET_MIN, ReportSettings

__all__ = ["issued", "link_key", "parse_link_key", "upload_key"]

_SECRET = secrets.token_bytes(32)
"""Signs this process's upload keys (a new one at each start)."""
_UPLOAD_KEY = re.compile(r"u([A-Za-z0-9_-]{16})([A-Za-z0-9_-]{8})")

def link_key(ref: Ref, options: ReportSettings, focus: int | None) -> str:
    """The stable key of a link report; *focus* is the start number of the player asked for."""
    parts = [ref.tnr]
    if ref.snr is not None:
        parts.append(f"c{ref.snr}")
    if options.system != "fide" or options.also:
        parts += [options.system, *options.also]
    if focus is not None:
        parts.append(f"p{focus}")
    if options.k != DEFAULT_K:
        parts.append(f"k{options.k}")
    if options.on is not None:
        parts.append(f"d{options.on:%Y%m%d}")
    if options.event_class is not None:
        parts.append(f"e{_CLASSES.index(options.event_class) + 1}")
    if options.qc_approved:
        parts.append("q1")
    if options.target is not None:
        parts.append(f"t{options.target}")
    return "-".join(parts)


_CLASSES = tuple(EventClass)


def parse_link_key(key: str) -> tuple[Ref, ReportSettings, int | None] | None:
    """(the tournament, the options, the player's start number) of a link key; None when
    *key* is not one written by :func:`link_key`."""
    tnr, *rest = key.split("-")
    if not tnr.isdigit() or len(tnr) > 12 or len(rest) > 8 + len(registry.names()):
        return None
    found: dict[str, str] = {}
    systems: list[str] = []
    for token in rest:
        if token in registry.names():
            if token in systems:
                return None
            systems.append(token)
            continue
        kind, value = token[:1], token[1:]
        if kind not in ("c", "p", "k", "d", "e", "q", "t") or kind in found or not value or (
                not value.isdigit() or len(value) > 8):
            return None
        found[kind] = value
    try:
        on = date(int(found["d"][:4]), int(found["d"][4:6]), int(found["d"][6:])) \
            if "d" in found else None
    except ValueError:
        return None
    card = int(found["c"]) if "c" in found else None
    focus = int(found["p"]) if "p" in found else None
    chosen = int(found["e"]) if "e" in found else None
    if chosen is not None and not 1 <= chosen <= len(_CLASSES):
        return None
    options = ReportSettings(system=systems[0] if systems else "fide", also=tuple(systems[1:]),
                            player=str(focus) if focus is not None else None,
                            k=int(found.get("k", DEFAULT_K)), on=on,
                            event_class=_CLASSES[chosen - 1] if chosen is not None else None,
                            qc_approved=found.get("q") == "1",
                            target=int(found["t"]) if "t" in found else None)
    ref = Ref(tnr=tnr, snr=card, art=9 if card is not None else None)
    if not K_MIN <= options.k <= K_MAX or link_key(ref, options, focus) != key or (
            options.target is not None and not TARGET_MIN <= options.target <= TARGET_MAX):
        return None
    return ref, options, focus


def _signature(body: str) -> str:
    digest = hmac.new(_SECRET, body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:6]).decode()


def upload_key() -> str:
    """A new random key for uploaded files (it cannot be guessed), signed by this process."""
    body = secrets.token_urlsafe(12)
    return f"u{body}{_signature(body)}"


def issued(key: str) -> bool | None:
    """Whether *key* was issued for uploaded files: True when this process signed it, False
    when it has not an upload key's form, None when that cannot be told (another worker's
    key, one of an earlier run of the server, or a key never issued)."""
    found = _UPLOAD_KEY.fullmatch(key)
    if found is None:
        return False
    return True if hmac.compare_digest(found.group(2), _signature(found.group(1))) else None
