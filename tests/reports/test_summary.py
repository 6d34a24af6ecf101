"""The import summary counts games as boards and the other outcomes as player-rounds."""

from __future__ import annotations

from pathlib import Path

from importer.formats.chessresults import build_tournament, parse_page
from importer.model import Colour, Game, GameResult, Player, RoundResult, Status, Tournament
from importer.model import TournamentInfo as Info
from rating.notes import plural
from reports.render.summary import summary_lines


def test_plural() -> None:
    assert [plural(1, "bye"), plural(2, "bye"), plural(0, "absence")] == [
        "1 bye", "2 byes", "0 absences"]


def test_games_are_boards_and_byes_are_player_rounds() -> None:
    players = tuple(Player(start_no=n, name=f"P{n}") for n in range(1, 6))
    results = (
        RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, colour=Colour.WHITE,
                    points=1.0),
        RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, colour=Colour.BLACK,
                    points=0.0),
        RoundResult(start_no=3, round=1, status=Status.FORFEIT_LOSS, opponent_no=4,
                    colour=Colour.WHITE, points=0.0),
        RoundResult(start_no=4, round=1, status=Status.FORFEIT_LOSS, opponent_no=3,
                    colour=Colour.BLACK, points=0.0),
        RoundResult(start_no=5, round=1, status=Status.BYE, points=1.0),
    )
    games = (Game(round=1, white_no=1, black_no=2, result=GameResult.WHITE_WIN),
             Game(round=1, white_no=3, black_no=4, result=GameResult.DOUBLE_FORFEIT))
    t = Tournament(info=Info(name="T", rounds=1), players=players, results=results, games=games)
    lines = summary_lines(t)
    assert lines[2] == "  5 players (0 rated); 2 games (1 played, 0 pending, 1 forfeited)"
    assert lines[3] == "  player-rounds without a game: 1 bye, 0 half-point byes, 0 absences"


def test_live_round_alone(realdata: Path) -> None:
    name = "british2026_champ_r9.html"
    page = parse_page((realdata / "chess-results" / name).read_text(encoding="utf-8"), source=name)
    lines = summary_lines(build_tournament([page]))
    # 47 pending, 2 draws and one forfeit on 50 boards; 8 not paired; rounds 1–8 on no page.
    assert lines[2].endswith("; 50 games (2 played, 47 pending, 1 forfeited)")
    assert lines[3] == ("  player-rounds without a game: 0 byes, 0 half-point byes, 8 absences, "
                        "864 unknown (not on the pages)")
