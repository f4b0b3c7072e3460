"""Setting up positions for rules tests."""

from __future__ import annotations

import pytest

from twixt.rules import Game, Turn


def play_all(game: Game, moves: list[str]) -> Game:
    """Play commands in turn order, each by the player to move."""
    for command in moves:
        game.play(command)
    return game


def two_player(size: int | str = 24, rules: str = "classic", swap: bool = False) -> Game:
    return Game(("alice", "bob"), size=size, rules=rules, swap=swap)


def count_history_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on every read of `Game.history` (a fresh tuple of the whole log) adds one to
    the returned counter's only item: code that reads it once a turn is quadratic."""
    reads = [0]
    whole = Game.history

    def counted(game: Game) -> tuple[Turn, ...]:
        reads[0] += 1
        return whole.__get__(game)

    monkeypatch.setattr(Game, "history", property(counted))
    return reads
