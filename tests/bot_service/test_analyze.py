"""`analyze [game]`: a finished game's curve through the real service, SQLite file and engine
process pool; never a game still being played."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest
from PIL import Image

from bot.service import ServiceError, TwixtService
from bot.service.engine_pool import EnginePool
from bot.terminal import TerminalTable
from tests.bot_service.helpers import ALICE, BOB, CAROL, asking, start_game

#: Red (alice) connects on a 6×6 board with her fourth peg
RED_CONNECTS = ["C1", "A3", "D3", "F3", "C5", "A5", "E6"]

#: the first swing, as the engine finds it (which move depends on the engine)
SWING = (r"1\. move \d+, (Red|Black) `[^`]+`: Red \d+% → \d+% "
         r"\(engine: `[^`]+`, Red \d+%\)")


@pytest.fixture
async def pool() -> AsyncIterator[EnginePool]:
    engines = EnginePool(workers=1)
    yield engines
    await engines.close()


@pytest.fixture
def analysing(storage, clock, pool) -> TwixtService:
    return TwixtService(storage, clock=clock, engine_pool=pool)


async def finish(service: TwixtService) -> None:
    await start_game(service, size="6", rules="pp", swap="no")
    for number, move in enumerate(RED_CONNECTS):
        await service.run(asking(BOB if number % 2 else ALICE), move)


async def test_a_finished_game_gets_its_curve_and_swings_in_its_channel(analysing):
    await finish(analysing)
    reply = await analysing.run(asking(CAROL), "analyze")
    assert not reply.ephemeral and reply.mentions == ()
    lines = reply.text.splitlines()
    assert lines[0] == ("Game 1, 7 moves: the biggest swings of Red's chance, as the engine "
                        "sees them.")
    assert re.fullmatch(SWING, lines[1]), lines[1]
    assert any("→ 100%" in line for line in lines[1:4])   # the winning move ends at certainty
    assert lines[-1] == "alice (Red) wins by connection."
    [picture] = reply.attachments
    assert picture.filename == "twixt-1-analysis.png"
    assert Image.open(io.BytesIO(picture.data)).width == 800


async def test_a_game_in_progress_gets_no_help_from_the_engine(service):
    await start_game(service, size="6", rules="pp", swap="no")
    await service.run(asking(ALICE), "C1")
    for who in (ALICE, BOB, CAROL):
        with pytest.raises(ServiceError, match="game 1 is still being played: the engine "
                                               "looks at a game only once it is over"):
            await service.run(asking(who), "analyze")


async def test_a_game_is_found_by_number_as_replay_finds_it(analysing):
    await finish(analysing)
    elsewhere = 555
    with pytest.raises(ServiceError, match="there is no such game"):
        await analysing.run(asking(CAROL, channel=elsewhere), "analyze 1")
    with pytest.raises(ServiceError, match="there is no such game"):
        await analysing.run(asking(ALICE), "analyze #9")
    # a player sees it anywhere in the server, but only for themselves outside its channel
    reply = await analysing.run(asking(ALICE, channel=elsewhere), "analyze #1")
    assert reply.ephemeral and reply.attachments


async def test_a_channel_without_games_says_so(service):
    with pytest.raises(ServiceError, match="this channel has no games"):
        await service.run(asking(ALICE), "analyze")


async def test_a_finished_game_is_analysed_once(storage, clock, analysing):
    await finish(analysing)
    first = await analysing.run(asking(ALICE), "analyze")
    closed = analysing.core.engine_pool = EnginePool(workers=1)
    await closed.close()  # a closed pool refuses every call: the answer comes from the cache
    again = await analysing.run(asking(BOB), "analyze")
    assert again.text == first.text


async def test_a_full_pool_says_try_later(storage, clock):
    pool = EnginePool(workers=1, queue_limit=0)
    service = TwixtService(storage, clock=clock, engine_pool=pool)
    await finish(service)
    busy = asyncio.ensure_future(pool.run("someone", time.sleep, 0.5))
    await asyncio.sleep(0)
    try:
        with pytest.raises(ServiceError, match=r"^the engine is busy, try again later$"):
            await service.run(asking(ALICE), "analyze")
    finally:
        await busy
        await pool.close()


async def test_one_analysis_at_a_time_for_each_user(analysing):
    await finish(analysing)
    first = asyncio.ensure_future(analysing.run(asking(ALICE), "analyze"))
    while ALICE.id not in analysing.analyses._asking:
        await asyncio.sleep(0.01)
    with pytest.raises(ServiceError, match="your last analysis is still running"):
        await analysing.run(asking(ALICE), "analyze")
    assert (await first).attachments


async def test_in_german(analysing):
    await finish(analysing)
    reply = await analysing.run(asking(CAROL, locale="de"), "analyze")
    swing = reply.text.splitlines()[1]
    assert re.fullmatch(
        r"1\. Zug \d+, (Rot|Schwarz) `[^`]+`: Rot \d+ % → \d+ % "
        r"\(Engine: `[^`]+`, Rot \d+ %\)", swing), swing


async def test_the_terminal_table_saves_the_picture(analysing, tmp_path: Path):
    out = StringIO()
    table = TerminalTable(analysing, "den", tmp_path / "pics", out=out)
    script = ["alice: challenge bob size 6 rules pp swap no", "bob: accept"]
    script += [f"{'bob' if n % 2 else 'alice'}: {move}" for n, move in enumerate(RED_CONNECTS)]
    assert await table.run([*script, "carol: analyze"]) == 0
    assert re.search(SWING, out.getvalue(), re.MULTILINE)
    assert (tmp_path / "pics" / "twixt-1-analysis.png").exists()
