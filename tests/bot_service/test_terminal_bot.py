"""The bot at the terminal table: `alice: challenge bot level 1`, and a whole game against it
played to the end, its replies printed as its moves; the record shows its seat by name."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from bot.service.texts import result_sentence
from bot.terminal import TerminalTable
from bot.terminal.table import name_id
from language import translation
from rules.records import write
from storage import SqliteStorage
from tests.bot_service import bot_engines
from tests.bot_service.bot_helpers import bot_service

#: at most this many of alice's turns: a 6×6 board has fewer holes than that
TURNS = 40


async def test_a_whole_game_against_the_bot_at_the_terminal_table(tmp_path: Path):
    out = StringIO()
    async with await SqliteStorage.open(tmp_path / "t.db") as storage, \
            bot_service(storage) as (service, _said):
        table = TerminalTable(service, "den", tmp_path, out=out)
        assert await table.run(["alice: challenge bot level 1 size 6 rules pp swap no"]) == 0
        for _ in range(TURNS):
            game = await service.channel_game(name_id("den"))
            if game.is_over:
                break
            assert game.player_to_move == "alice"  # the bot has answered before this line
            hole = min(game.legal_placements(), key=lambda h: (h.col, h.row))
            assert await table.play_line(f"alice: {hole}")
        game = await service.channel_game(name_id("den"))
        stored = await service.core.channel_stored(name_id("den"))
    text = out.getvalue()
    assert "Game 1 on: **alice** (Red) vs **bot (level 1)** (Black) — 6×6, pp, no swap." in text
    assert "**bot (level 1)** (Black): `" in text
    assert game.is_over and not stored.is_active
    assert result_sentence(game.outcome, game, translation("en")) in text
    record = write(game, "transcript")
    assert '[Players "alice, bot (level 1)"]' in record
    assert "\nbot (level 1): " in record
    assert "@bot" not in text  # the bot's seat is never pinged


async def test_the_bot_moves_when_the_table_opens_again(tmp_path: Path):
    """A game left with the bot to move (its search never answered) goes on when the table
    opens again: the first thing it does is let the bot move."""
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        async with bot_service(storage, bot_engines.broken) as (service, _said):
            table = TerminalTable(service, "den", tmp_path, out=StringIO())
            await table.run(["alice: challenge bot level 1 size 8 swap no", "alice: D4"])
        out = StringIO()
        async with bot_service(storage) as (service, _said):
            table = TerminalTable(service, "den", tmp_path, out=out)
            assert await table.run([]) == 0
    assert "**bot (level 1)** (Black): `" in out.getvalue()
