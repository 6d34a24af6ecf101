"""Shared test fixtures: the real third-party data folder and the project's own fixtures."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, is_hypothesis_test, settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
REALDATA = Path(os.environ.get("FIDERATE_REALDATA", ROOT.parent / "shared" / "realdata"))

# Hypothesis profiles: the default keeps the suite quick; "ci" runs the full fuzzing budget.
settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def realdata() -> Path:
    """The ../shared/realdata folder (or $FIDERATE_REALDATA); skips the test when absent."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent (set FIDERATE_REALDATA to point at it)")
    return REALDATA


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that default to the user's register (platformdirs) get an empty data folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, driven through Playwright (no browser is ever downloaded)."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for a module's browser tests (closed after it: Playwright's event
    loop must not outlive them); skips the test when it is absent."""
    if not CHROMIUM.exists():
        pytest.skip("headless Chromium is not installed at /usr/bin/chromium "
                    "(apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The project's own small fixtures."""
    return FIXTURES


class CliResult:
    """What one in-process ``fiderate`` run printed and returned."""

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code, self.stdout, self.stderr = code, stdout, stderr

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, stderr={self.stderr!r})"


@pytest.fixture
def run_cli(capsys):
    """Run ``fiderate ARGS...`` in-process through the real entry point (error handling included)."""
    from reports.cli import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run


# Count every input hypothesis generates, for the closing figures (issue 6: ≥ 10 000 per CI run),
# through public API only: each @given test's ``.hypothesis.inner_test`` (the documented hook
# that plugins such as pytest-asyncio and anyio replace) is wrapped to count its calls, one
# per generated input (shrinking included).  Hypothesis' observability is left off: it would
# trace every line of every input (3.8 GB and minutes over the period fuzz's 10,000 inputs).
_GENERATED: dict[str, int] = {}


def _counted(name: str, inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def run(*args: Any, **kwargs: Any) -> Any:
        _GENERATED[name] = _GENERATED.get(name, 0) + 1
        return inner(*args, **kwargs)

    run._fiderate_counted = True
    return run


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        test = getattr(item, "obj", None)
        if is_hypothesis_test(test):
            handle = test.hypothesis
            if not getattr(handle.inner_test, "_fiderate_counted", False):  # parametrized: once
                handle.inner_test = _counted(test.__name__, handle.inner_test)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands its counts to the controller."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["hypothesis_generated"] = dict(_GENERATED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller sums every worker's counts."""
    for name, n in getattr(node, "workeroutput", {}).get("hypothesis_generated", {}).items():
        _GENERATED[name] = _GENERATED.get(name, 0) + n


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _GENERATED:
        fuzz = sum(n for name, n in _GENERATED.items() if "fuzz" in name or "mutat" in name)
        terminalreporter.write_line(
            f"hypothesis: {sum(_GENERATED.values())} generated inputs in {len(_GENERATED)} "
            f"property tests ({fuzz} in fuzz/mutation tests)")
