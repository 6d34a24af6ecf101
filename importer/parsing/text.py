"""Text from a source made safe for terminals and files: control characters and escape
sequences removed (the one place every name, title, club and event name goes through); a
source named as published pages name it."""

from __future__ import annotations

import re

__all__ = ["display_name", "person_name", "printable"]

_CONTROLS = re.compile(
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC … BEL or ST (window titles)
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves, clearing the screen
    r"|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]?"  # any other ESC sequence
    r"|[\x00-\x08\x0e-\x1f\x7f-\x9f]")  # the other C0 controls, DEL and C1
_SPACES = re.compile(r"[\t\n\x0b\x0c\r]")


def printable(text: str) -> str:
    """``text`` without control characters and terminal escape sequences (ESC, OSC, CSI,
    C1); tabs and line breaks become spaces.

    >>> printable("Evil\\x1b]0;owned\\x07 \\x1b[31mRed\\x1b[0m, \\x9b2JAnn")
    'Evil Red, Ann'
    """
    if text.isprintable():  # the common case: nothing to strip
        return text
    return _SPACES.sub(" ", _CONTROLS.sub("", text))


def person_name(name: str) -> str:
    """A player's name as every source's reader keeps it: :func:`printable`, without the
    commas and spaces a source left at its end ('Goel, Yash,' → 'Goel, Yash').

    >>> person_name("Goel, Yash, ")
    'Goel, Yash'
    """
    name = printable(name)
    if name[-1:] in (",", " "):  # the common case ends in a letter: nothing to strip
        return name.rstrip(", ")
    return name


def display_name(location: str) -> str:
    """A source as published pages and notes name it: a file (or folder) by its name alone
    ('/home/ann/x.trf' → 'x.trf': where it lay is the reader's own business), an address as
    it is."""
    if "://" in location:
        return location
    return re.split(r"[\\/]", location.rstrip("/\\"))[-1] or location
