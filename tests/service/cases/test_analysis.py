"""`analyze [game]`: a finished game's curve through the real service, SQLite file and engine
process pool; never a game still being played."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from PIL import Image

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.typed import enter
from twixt.app.table import open_table
from twixt.rules import records
from twixt.service import NO_SERVER, Request, TwixtService, build_options
from twixt.service import errors as kinds
from twixt.service.desk.engine_pool import EnginePool

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


async def finish(service: TwixtService, moves: list[str] = RED_CONNECTS) -> None:
    """alice and bob play `moves` on a 6×6 board: by default, until Red connects."""
    await start_game(service, size="6", rules="pp", swap="no")
    for number, move in enumerate(moves):
        await enter(service, asking(BOB if number % 2 else ALICE), move)


async def test_a_finished_game_gets_its_curve_and_swings_in_its_channel(analysing):
    await finish(analysing)
    reply = await enter(analysing, asking(CAROL), "analyze")
    assert not reply.ephemeral and reply.mentions == ()
    lines = reply.plain.splitlines()
    assert lines[0] == ("Game 1, 7 moves: the biggest swings of Red's chance, as the engine "
                        "sees them.")
    assert re.fullmatch(SWING, lines[1]), lines[1]
    # the swings, biggest first (the deeper search may see the win coming before its move)
    assert all(re.fullmatch(SWING.replace("1", str(n), 1), line)
               for n, line in enumerate(lines[1:-1], 1)) and len(lines) <= 5
    assert lines[-1] == "alice (Red) wins by connection."
    [picture] = reply.attachments
    assert picture.filename == "twixt-1-analysis.png"
    assert Image.open(io.BytesIO(picture.data)).width == 800


async def test_a_game_in_progress_gets_no_help_from_the_engine(service):
    await start_game(service, size="6", rules="pp", swap="no")
    await enter(service, asking(ALICE), "C1")
    for who in (ALICE, BOB, CAROL):
        with pytest.raises(kinds.ConflictError, match="game 1 is still being played: the engine "
                                                      "looks at a game only once it is over"):
            await enter(service, asking(who), "analyze")


async def test_a_game_is_found_by_number_as_replay_finds_it(analysing):
    await finish(analysing)
    elsewhere = 555
    with pytest.raises(kinds.MissingError, match="there is no such game"):
        await enter(analysing, asking(CAROL, channel=elsewhere), "analyze 1")
    with pytest.raises(kinds.MissingError, match="there is no such game"):
        await enter(analysing, asking(ALICE), "analyze #9")
    # a player sees it anywhere in the server, but only for themselves outside its channel
    reply = await enter(analysing, asking(ALICE, channel=elsewhere), "analyze #1")
    assert reply.ephemeral and reply.attachments


async def test_a_channel_without_games_says_so(service):
    with pytest.raises(kinds.MissingError, match="this channel has no games"):
        await enter(service, asking(ALICE), "analyze")


async def test_a_finished_game_is_analysed_once(storage, clock, analysing):
    await finish(analysing)
    first = await enter(analysing, asking(ALICE), "analyze")
    closed = analysing.desk.engine_pool = EnginePool(workers=1)
    await closed.close()  # a closed pool refuses every call: the answer comes from the cache
    again = await enter(analysing, asking(BOB), "analyze")
    assert again.plain == first.plain


async def test_a_full_pool_says_try_later(storage, clock):
    pool = EnginePool(workers=1, queue_limit=0)
    service = TwixtService(storage, clock=clock, engine_pool=pool)
    await finish(service)
    busy = asyncio.ensure_future(pool.run("someone", time.sleep, 0.5))
    await asyncio.sleep(0)
    try:
        with pytest.raises(kinds.BusyError, match=r"^the engine is busy, try again later$"):
            await enter(service, asking(ALICE), "analyze")
    finally:
        await busy
        await pool.close()


async def test_one_analysis_at_a_time_for_each_user(analysing):
    await finish(analysing)
    first = asyncio.ensure_future(enter(analysing, asking(ALICE), "analyze"))
    while ALICE.id not in analysing.analyses._asking:
        await asyncio.sleep(0.01)
    with pytest.raises(kinds.LimitError, match="your last analysis is still running"):
        await enter(analysing, asking(ALICE), "analyze")
    assert (await first).attachments


async def test_in_german(analysing):
    await finish(analysing)
    reply = await enter(analysing, asking(CAROL, locale="de"), "analyze")
    swing = reply.plain.splitlines()[1]
    assert re.fullmatch(
        r"1\. Zug \d+, (Rot|Schwarz) `[^`]+`: Rot \d+ % → \d+ % "
        r"\(Engine: `[^`]+`, Rot \d+ %\)", swing), swing


async def test_the_terminal_table_saves_the_picture(storage, clock, pool, tmp_path: Path):
    out = StringIO()
    table = open_table(storage, "den", tmp_path / "pics", out=out, clock=clock,
                          engine_pool=pool)
    script = ["alice: challenge bob size 6 rules pp swap no", "bob: accept"]
    script += [f"{'bob' if n % 2 else 'alice'}: {move}" for n, move in enumerate(RED_CONNECTS)]
    assert await table.run([*script, "carol: analyze"]) == 0
    assert re.search(SWING, out.getvalue(), re.MULTILINE)
    assert (tmp_path / "pics" / "twixt-1-analysis.png").exists()


#: the game in play: alice (Red) and bob (Black) have four pegs on a 6×6 board
IN_PLAY = RED_CONNECTS[:4]
PASSES_GAME_IN_PLAY = ("game {game} passes through the position of a game still in play on "
                       "this server: the engine looks at it once that game is over")


async def test_a_game_in_play_imported_elsewhere_and_lost_gets_no_analysis(analysing):
    await finish(analysing, IN_PLAY)
    record = records.write(await analysing.channel_game(CHANNEL)).encode()
    elsewhere = 300  # carol and her second account, dave
    await analysing.records.import_record(asking(CAROL, elsewhere), "live.twixt", record, DAVE)
    await analysing.challenges.accept(asking(DAVE, elsewhere))
    await enter(analysing, asking(CAROL, elsewhere), "B2")  # a blunder: what should Red play?
    await analysing.turns.resign(asking(CAROL, elsewhere), confirmed=True)
    with pytest.raises(kinds.ConflictError) as refused:
        await enter(analysing, asking(CAROL, elsewhere), "analyze")
    assert str(refused.value) == PASSES_GAME_IN_PLAY.format(game=2)


async def test_a_game_in_play_replayed_mirrored_in_another_order_gets_no_analysis_until_it_ends(
        analysing):
    await finish(analysing, IN_PLAY)
    elsewhere = 300
    await analysing.challenges.challenge(asking(CAROL, elsewhere), DAVE,
                                         build_options(size="6", rules="pp", swap="no"))
    await analysing.challenges.accept(asking(DAVE, elsewhere))
    # the same pegs mirrored left to right (Red's D3 for C3 …), Red's two in the other order
    for number, move in enumerate(["C3", "A3", "D1", "F3", "B2"]):
        await enter(analysing, asking(DAVE if number % 2 else CAROL, elsewhere), move)
    await analysing.turns.resign(asking(DAVE, elsewhere), confirmed=True)
    with pytest.raises(kinds.ConflictError) as refused:
        await enter(analysing, asking(CAROL, elsewhere), "analyze")
    assert str(refused.value) == PASSES_GAME_IN_PLAY.format(game=2)
    await analysing.turns.resign(asking(BOB), confirmed=True)  # the game in play ends
    assert (await enter(analysing, asking(CAROL, elsewhere), "analyze")).attachments


async def test_a_game_in_play_still_in_its_opening_holds_up_no_analysis(analysing):
    await finish(analysing, RED_CONNECTS[:3])  # three pegs: an opening many games share
    elsewhere = 300
    await analysing.challenges.challenge(asking(CAROL, elsewhere), DAVE,
                                         build_options(size="6", rules="pp", swap="no"))
    await analysing.challenges.accept(asking(DAVE, elsewhere))
    for number, move in enumerate(RED_CONNECTS):
        await enter(analysing, asking(DAVE if number % 2 else CAROL, elsewhere), move)
    assert (await enter(analysing, asking(CAROL, elsewhere), "analyze")).attachments


async def test_a_game_finished_in_a_dm_is_analysed_there(analysing):
    in_dm = Request(NO_SERVER, 5000, ALICE)
    await analysing.challenges.challenge(in_dm, BOB, build_options(size="6", rules="pp",
                                                                   swap="no"))
    await analysing.challenges.accept(replace(in_dm, user=BOB))
    for number, move in enumerate(RED_CONNECTS):
        await enter(analysing, replace(in_dm, user=BOB if number % 2 else ALICE), move)
    reply = await enter(analysing, replace(in_dm, user=BOB), "analyze")
    assert reply.plain.splitlines()[0].startswith("Game 1, 7 moves:")
    [picture] = reply.attachments
    assert Image.open(io.BytesIO(picture.data)).width == 800
