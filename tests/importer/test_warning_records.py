"""Warnings are records: each says which players and which round it is about, so that nothing
reads that back out of its words (issue 19: no regex over a warning's text)."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from datetime import date
from pathlib import Path

from test_trf import trf_line  # the tests folder is on the path (pyproject)

from importer.formats.jsonfile import from_json, to_json
from importer.formats.normalized import read_folder, write_folder
from importer.formats.trf import parse_trf
from importer.model import Player, SourceWarning, Tournament, TournamentInfo
from reports.render.json_report import report_json
from reports.report import build_report

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ("importer", "rating", "reports")
REGEX_CALLS = frozenset({"search", "match", "fullmatch", "findall", "finditer", "sub", "subn",
                         "split"})
"""The methods of :mod:`re` and of a compiled pattern that read a text."""
MESSAGE_WORDS = frozenset({"message", "warning", "warnings", "note", "notes"})
"""How the code names a warning, a note or their text (``w.message``, ``t.warnings``, …);
the check is by name, so a text that is not a warning is not called so (a page's legends)."""


def _is_pattern(node: ast.expr) -> bool:
    """``re`` itself, or a module's compiled pattern (``_CONCERNS``: upper-case by custom)."""
    return isinstance(node, ast.Name) and (node.id == "re" or node.id.strip("_").isupper())


def _named(node: ast.AST) -> str | None:
    """An attribute's or a variable's name; a bare ``message`` is an error's text (which
    reports.web.problems rewords for the web page): a warning's is always ``.message``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) and node.id != "message" else None


def _about_messages(node: ast.AST, names: set[str]) -> bool:
    return any(_named(sub) in MESSAGE_WORDS or (isinstance(sub, ast.Name) and sub.id in names)
               for sub in ast.walk(node))


def regex_over_messages(source: str) -> list[int]:
    """The lines where a regex reads a warning, a note or their message (also through a loop
    variable over them: ``for w in t.warnings``)."""
    tree = ast.parse(source)
    loops = [(n.target, n.iter) for n in ast.walk(tree) if isinstance(n, ast.For | ast.comprehension)]
    names = {sub.id for target, over in loops if _about_messages(over, set())
             for sub in ast.walk(target) if isinstance(sub, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in REGEX_CALLS and _is_pattern(node.func.value)):
            continue
        if any(_about_messages(arg, names) for arg in [*node.args, *(k.value for k in node.keywords)]):
            found.append(node.lineno)
    return found


def test_no_regex_reads_a_warning_or_a_note() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{line}"
                 for package in LIBRARY for path in sorted((ROOT / package).rglob("*.py"))
                 for line in regex_over_messages(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_regex_check_can_fail() -> None:
    assert regex_over_messages(
        "m = _CONCERNS.search(warning)\n"
        "n = re.findall(r'\\d+', w.message)\n"
        "k = [re.match('x', str(w)) for w in t.warnings]\n"
        "ok = re.sub('a', 'b', text)\n"
        "fine = _OPTION.sub(label, message)\n") == [1, 2, 3]


def test_a_trf_warning_carries_its_players_and_round() -> None:
    # both players 1 and 2 claim round 1; player 3 prints 2 points and has none
    t = parse_trf("\n".join([trf_line(1, "1.0", "   2 w 1"), trf_line(2, "1.0", "   1 b 1"),
                             trf_line(3, "2.0", "0000 - -")]), source="w.trf")
    assert [(w.code, w.players, w.round) for w in t.warnings] == [
        ("points-differ", (3,), None), ("asymmetric-pairing", (1, 2), 1)]
    assert all(str(w) == w.message and w.message.startswith("w.trf") for w in t.warnings)
    report = build_report(t)
    assert {n.start_no for n in report.player_notes} == {1, 2, 3}


WARNED = Tournament(
    info=TournamentInfo(name="Warned", start_date=date(2026, 3, 1)),
    players=(Player(start_no=1, name="Alpha, Ann", rating=1500),
             Player(start_no=2, name="Beta, Bob", rating=1500)),
    warnings=(SourceWarning("cut-list", "exactly 150 rows: the list may be cut"),
              SourceWarning("same-colour", "round 3: players 1 and 2 both have colour w",
                            (1, 2), 3)))


def test_the_json_file_keeps_warnings_as_records_and_reads_old_text() -> None:
    written = to_json(WARNED)
    assert json.loads(written)["warnings"][1] == {
        "code": "same-colour", "message": "round 3: players 1 and 2 both have colour w",
        "players": [1, 2], "round": 3}
    assert from_json(written).warnings == WARNED.warnings
    old = json.loads(written)
    old["warnings"] = [w["message"] for w in old["warnings"]]  # as fiderate wrote them before
    assert [(w.message, w.players) for w in from_json(json.dumps(old)).warnings] == [
        (w.message, ()) for w in WARNED.warnings]


def test_the_report_json_gives_warnings_and_notes_as_objects() -> None:
    doc = report_json(build_report(WARNED))
    assert doc["warnings"] == [
        {"code": "cut-list", "message": "exactly 150 rows: the list may be cut", "players": [],
         "round": None},
        {"code": "same-colour", "message": "round 3: players 1 and 2 both have colour w",
         "players": [1, 2], "round": 3}]
    notes = {n["text"]: n for n in doc["notes"]}
    assert notes["round 3: players 1 and 2 both have colour w"]["players"] == [1, 2]  # a heading
    assert notes["exactly 150 rows: the list may be cut."]["players"] == []  # a sentence


def test_the_normalized_folder_keeps_warnings_and_reads_an_older_one(tmp_path: Path) -> None:
    tricky = SourceWarning("same-page", "=cmd|' a.html is a copy, \"quoted\", of another")
    folder = write_folder(replace(WARNED, warnings=(*WARNED.warnings, tricky)), tmp_path / "n")
    assert read_folder(folder).warnings == (*WARNED.warnings, tricky)
    (folder / "warnings.csv").unlink()  # as fiderate wrote folders before
    assert read_folder(folder).warnings == () and read_folder(folder) == WARNED
