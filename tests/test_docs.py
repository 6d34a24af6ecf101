"""The README documents every command and every option, and every command has help."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

import click
import pytest

from reports.cli import cli
from reports.cli.main import COMMANDS as TABLE

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(TABLE)


def test_core_commands_exist():
    assert {"calc", "import", "report", "period"} <= set(COMMANDS)
    assert cli.get_command(click.Context(cli), "nope") is None


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help_and_is_documented(name, run_cli):
    res = run_cli(name, "--help")
    assert res.code == 0
    assert "Usage: fiderate" in res.stdout
    assert f"fiderate {name}" in README, f"README does not document `fiderate {name}`"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_in_the_readme(name):
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    missing = [opt for param in command.params if isinstance(param, click.Option)
               for opt in param.opts if opt.startswith("--") and opt not in README]
    assert missing == [], f"`fiderate {name}` options missing from README: {missing}"


def test_readme_first_screen_has_the_two_commands():
    first_screen = "\n".join(README.splitlines()[:30])
    assert "pip install -e '.[test]'" in first_screen
    assert "fixtures/" in first_screen
    assert "python -m pytest" in first_screen


def test_readme_python_examples_run(tmp_path, monkeypatch, capsys):
    blocks = [b.split("```", 1)[0] for b in README.split("```python\n")[1:]]
    assert len(blocks) == 2
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block.replace('"fixtures/', f'"{root}/fixtures/'), "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "Harbourside Autumn Open 2026 24 players" in printed
    assert "[Decimal('0.00'), Decimal('-4.30')]" in printed
    assert (tmp_path / "report" / "index.html").is_file()
    assert "4 tournaments, 26 rated games" in printed


def test_readme_main_command_produces_the_report(run_cli, tmp_path):
    first_screen = "\n".join(README.splitlines()[:30])
    assert "fiderate report fixtures/sample_open.trf --out report" in first_screen
    root = Path(__file__).resolve().parent.parent
    res = run_cli("report", str(root / "fixtures" / "sample_open.trf"), "--out",
                  str(tmp_path / "report"))
    assert res.code == 0, res
    assert "index.html in a browser" in res.stderr
    assert len(list((tmp_path / "report").glob("player-*.html"))) == 24


def test_library_use_opens_with_a_session_that_runs_as_a_doctest():
    """README's "Library use" starts with a ``>>>`` session (load, rate, a frame, a period),
    which pytest collects as a doctest, with every docstring example of the packages."""
    section = README.split("## Library use\n", 1)[1].split("\n## ", 1)[0]
    session = section.split("```pycon\n", 1)[1].split("```", 1)[0]
    assert section.index("```pycon") < section.index("```python")
    lines = [line for line in session.splitlines() if line.startswith(">>> ")]
    assert len(lines) == 6  # the imports, then load, rate, frame, period and a look at it
    for call in ("importer.load(", "rating.rate_tournament(", "rating.frames.to_frames(",
                 "rating.run_period("):
        assert call in session
    pytest_ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = pytest_ini["tool"]["pytest"]["ini_options"]
    assert {"--doctest-modules", "--doctest-glob=README.md"} <= set(options["addopts"])
    assert {"importer", "rating", "reports", "README.md"} <= set(options["testpaths"])


def _console_examples() -> list[tuple[str, list[str]]]:
    """Each ``$ fiderate …`` line of README's console blocks, with the lines it shows after."""
    out: list[tuple[str, list[str]]] = []
    for block in README.split("```console\n")[1:]:
        for line in block.split("```", 1)[0].splitlines():
            if line.startswith("$ "):
                out.append((line[2:].split("  #", 1)[0].strip(), []))
            elif out and line.strip() and line.strip() != "...":  # '...': lines left out
                out[-1][1].append(line.strip())
    return out


@pytest.mark.parametrize(("command", "shown"), _console_examples(),
                         ids=[c for c, _ in _console_examples()])
def test_every_console_example_runs_and_prints_what_readme_shows(run_cli, tmp_path, monkeypatch,
                                                                 command, shown):
    """Every README console example runs (exit 0) from a folder holding ``fixtures/``, and
    the lines it shows are lines it prints, in that order (the README may leave lines out)."""
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)
    assert args[0] == "fiderate"
    res = run_cli(*args[1:])
    assert res.code == 0, res
    printed = iter(line.strip() for line in (res.stdout + "\n" + res.stderr).splitlines())
    missing = [line for line in shown if not any(line == p for p in printed)]
    assert missing == [], f"{command}: README shows lines it does not print (in order)"


def test_the_console_check_can_fail(run_cli, tmp_path, monkeypatch):
    with pytest.raises(AssertionError, match="does not print"):
        test_every_console_example_runs_and_prints_what_readme_shows(
            run_cli, tmp_path, monkeypatch, "fiderate calc --rating 1500 --opponent 1600 "
            "--result win", ["New rating 9999"])
