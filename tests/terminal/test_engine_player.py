"""The bot at the terminal table: `alice: challenge bot level 1`, and a whole game against it
played to the end, its replies printed as its moves; the record shows its seat by name; a
search that has not answered after a second is said ("thinking…"), a quicker one is not."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from io import StringIO
from pathlib import Path
from typing import TextIO

from tests.fakes import Clock
from tests.service import engines as engines
from twixt.app.table import open_table
from twixt.language import translation, unmarked
from twixt.rules.records import write
from twixt.service import EnginePool
from twixt.service.cases.engine_player import Think
from twixt.service.texts import result_sentence
from twixt.storage import SqliteStorage, Storage
from twixt.terminal import TerminalTable
from twixt.terminal.table import Patience, ThinkingLine, name_id

#: at most this many of alice's turns: a 6×6 board has fewer holes than that
TURNS = 40


@asynccontextmanager
async def engine_table(storage: Storage, tmp_path: Path, out: TextIO, think: Think | None = None,
                    patience: Patience | None = None) -> AsyncIterator[TerminalTable]:
    """A table whose bot thinks in an engine pool of its own (with `think` in place of the
    engine's search), and says "thinking…" after `patience`."""
    table = open_table(storage, "den", tmp_path, out=out, clock=Clock(),
                          engine_pool=EnginePool(1), rng=random.Random(1), patience=patience)
    if think is not None:
        table.service.engine_player.think = think
    try:
        yield table
    finally:
        await table.close()


async def test_a_whole_game_against_the_bot_at_the_terminal_table(tmp_path: Path):
    out = StringIO()
    async with await SqliteStorage.open(tmp_path / "t.db") as storage, \
            engine_table(storage, tmp_path, out) as table:
        service = table.service
        assert await table.run(["alice: challenge bot level 1 size 6 rules pp swap no"]) == 0
        for _ in range(TURNS):
            game = await service.channel_game(name_id("den"))
            if game.is_over:
                break
            assert game.player_to_move == "alice"  # the bot has answered before this line
            hole = min(game.legal_placements(), key=lambda h: (h.col, h.row))
            assert await table.play_line(f"alice: {hole}")
        game = await service.channel_game(name_id("den"))
        stored = await service.desk.channel_stored(name_id("den"))
    text = out.getvalue()
    assert "Game 1 on: **alice** (Red) vs **bot (level 1)** (Black) — 6×6, pp, no swap." in text
    assert "**bot (level 1)** (Black): `" in text
    assert game.is_over and not stored.is_active
    assert unmarked(result_sentence(game.outcome, game, translation("en"))) in text
    record = write(game, "transcript")
    assert '[Players "alice, bot (level 1)"]' in record
    assert "\nbot (level 1): " in record
    assert "@bot" not in text  # the bot's seat is never pinged


async def test_the_bot_moves_when_the_table_opens_again(tmp_path: Path):
    """A game left with the bot to move (its search never answered) goes on when the table
    opens again: the first thing it does is let the bot move."""
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        async with engine_table(storage, tmp_path, StringIO(), engines.broken) as table:
            await table.run(["alice: challenge bot level 1 size 8 swap no", "alice: D4"])
        out = StringIO()
        async with engine_table(storage, tmp_path, out) as table:
            assert await table.run([]) == 0
    assert "**bot (level 1)** (Black): `" in out.getvalue()


async def _over_at_once() -> None:
    """A `ThinkingLine`'s patience that has run out already: a search that has not answered
    by the time its sign is set up counts as slow."""


async def _until(condition) -> None:
    """Wait until `condition()` holds, giving the event loop turns (a guard, not a timing:
    a minute is only there so that a broken test ends)."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), 60)


async def test_a_search_still_running_after_a_second_is_said_at_the_table(
        tmp_path: Path, monkeypatch):
    latch = tmp_path / "latch"  # the bot's search answers once this file exists
    monkeypatch.setenv(engines.LATCH, str(latch))
    out = StringIO()
    async with await SqliteStorage.open(tmp_path / "t.db") as storage, \
            engine_table(storage, tmp_path, out, engines.latched,
                      patience=_over_at_once) as table:
        assert await table.run(["alice: challenge bot level 1 size 6 rules pp swap no"]) == 0
        line = asyncio.create_task(table.play_line("alice: B2"))
        await _until(lambda: "thinking…" in out.getvalue())
        assert "**bot (level 1)** (Black): `" not in out.getvalue()
        assert not line.done()  # the table waits for the bot before its next line
        latch.touch()
        assert await line
    text = out.getvalue()
    assert text.count("thinking…") == 1
    assert text.index("thinking…") < text.index("**bot (level 1)** (Black): `")


async def test_a_quick_search_is_not_said_at_the_table(tmp_path: Path):
    out = StringIO()
    second = asyncio.Event()  # the second the line waits for: over only once the bot answered
    async with await SqliteStorage.open(tmp_path / "t.db") as storage, \
            engine_table(storage, tmp_path, out, engines.winning,
                      patience=second.wait) as table:
        assert await table.run(["alice: challenge bot level 1 size 6 rules pp swap no",
                                "alice: B2"]) == 0
        assert "**bot (level 1)** (Black): `" in out.getvalue()
        second.set()
        for _ in range(5):
            await asyncio.sleep(0)
        signs = [t for t in asyncio.all_tasks() if t.get_coro().__name__ == "_say_later"]
        assert signs == []  # the sign's task ended with the search
    assert "thinking…" not in out.getvalue()


async def test_the_thinking_line_is_said_in_the_tables_language(tmp_path: Path):
    out = StringIO()
    async with ThinkingLine(out, "de", patience=_over_at_once)(name_id("den")):
        await _until(lambda: out.getvalue())
    assert out.getvalue() == "denkt nach…\n"
