"""Messages for users: no references to specification files, sections or regulation codes in any
warning, note, page or CSV, and each warning once."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from importer.errors import ImporterError
from importer.sources import load
from reports.report import build_report, render_report

ROOT = Path(__file__).resolve().parents[2]
JARGON = re.compile(r"§|\.md\b|\bspec\b|\bR2[24] ?\d|\bRB24\b|zeilen=")


def user_strings(path: Path) -> list[tuple[int, str]]:
    """String literals of a module that are not docstrings (messages, labels, CSV text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_spec_references_in_message_strings() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
             for package in ("importer", "rating", "reports")
             for path in sorted((ROOT / package).rglob("*.py"))
             for line, text in user_strings(path) if JARGON.search(text)
             and not text.startswith("zeilen")]  # the URL parameter itself, not a message
    assert found == []


def test_no_spec_references_or_options_in_templates() -> None:
    for path in (ROOT / "reports" / "templates").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not JARGON.search(text), path.name


def sources(realdata: Path, fixtures_dir: Path) -> list[Path]:
    return [*sorted((realdata / "chess-results").glob("*.html")),
            *sorted((realdata / "trf").glob("*.trf")), *sorted(fixtures_dir.glob("*.trf"))]


@pytest.mark.slow  # every real source read and reported: 12 s
def test_real_sources_warn_in_words_and_once(realdata: Path, fixtures_dir: Path) -> None:
    checked = 0
    for path in sources(realdata, fixtures_dir):
        try:
            t = load(path)
        except ImporterError as e:
            refused = str(e)
            assert not JARGON.search(refused), (path.name, refused)
            continue
        assert len(t.warnings) == len(set(t.warnings)), path.name
        for w in t.warnings:
            assert not JARGON.search(w.message), (path.name, w)
        if not t.players:
            continue
        report = build_report(t, on=t.info.start_date or None)
        for name, text in render_report(report).items():
            assert not JARGON.search(text), (path.name, name, JARGON.search(text))
            if name.endswith(".html"):
                assert not re.search(r"(?<![\w-])--[a-z]", text), (path.name, name)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize("word", ["spec §4", "(fide-rules.md §12.3)", "R24 5.1", "zeilen=99999"])
def test_the_jargon_pattern_catches(word: str) -> None:
    assert JARGON.search(word)
