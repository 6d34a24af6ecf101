"""A pytest plugin (``-p doctest_folder`` in pyproject.toml): the doctests, of the packages'
docstrings (``--doctest-modules``) and README's session (``--doctest-glob=README.md``), run in
a fresh folder of their own, where ``fixtures/`` is a link to the project's fixtures: their
examples name ``fixtures/...`` as a reader in this folder would, and whatever they write stays
out of the working tree.  The tests under ``tests/`` have their own conftest.  (A plugin, not
a conftest.py at the top: the top level holds only the project's fixed folders.)"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"


@pytest.fixture(autouse=True)
def _doctest_folder(request: pytest.FixtureRequest, tmp_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.path == TESTS or TESTS in request.node.path.parents:
        return
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
