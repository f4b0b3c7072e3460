"""Setting up positions for rules tests."""

from __future__ import annotations

from rules import Game


def play_all(game: Game, moves: list[str]) -> Game:
    """Play commands in turn order, each by the player to move."""
    for command in moves:
        game.play(command)
    return game


def two_player(size: int | str = 24, rules: str = "classic", swap: bool = False) -> Game:
    return Game(("alice", "bob"), size=size, rules=rules, swap=swap)
