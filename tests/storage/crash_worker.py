"""The process the crash test kills: plays random turns on many games at once, forever.

Run as `python crash_worker.py DB SEED`, DB a SQLite file or a postgresql:// URL. After each
committed turn it prints `GAME_ID VERSION`, so the test knows which turns were acknowledged
before the SIGKILL. On start it resumes the games it finds, which also exercises opening after
a crash. Two players race on each game, as two clients of one channel may: the loser of a
race (a stale version, a finished game, a busy channel) reads again, so batches of turns hold
failed writes beside acknowledged ones. When the database fails (a PostgreSQL server killed
under it) it reads again and goes on once the database is back, as the bot does.
"""

import asyncio
import random
import sys

from storage_helpers import random_turn, result_of, start_game

from twixt.storage import (
    POSTGRESQL,
    ChannelBusyError,
    DatabaseError,
    GameFinishedError,
    StaleVersionError,
    Storage,
    backend_of,
    open_storage,
    rebuild,
)

GAMES = 16
RACERS = 2


async def keep_playing(store: Storage, channel_id: int, rng: random.Random,
                       server: bool) -> None:
    while True:
        try:
            await play_on(store, channel_id, rng)
        except DatabaseError:
            if not server:  # a SQLite file that fails is a failure of the test
                raise
            await asyncio.sleep(0.05)


async def play_on(store: Storage, channel_id: int, rng: random.Random) -> None:
    while True:
        try:
            record = await store.active_game(channel_id) or await start_game(
                store, channel_id, users=(2 * channel_id + 1, 2 * channel_id + 2))
        except ChannelBusyError:
            continue  # the other player started it
        loaded = await store.load_game(record.id)
        game, version = rebuild(loaded), loaded.game.version
        while not game.is_over:
            actor, text = random_turn(game, rng)
            try:
                version = await store.append_turn(record.id, version, actor, text,
                                                  finish=result_of(game))
            except (StaleVersionError, GameFinishedError):
                break  # the other player was first: read again
            print(record.id, version, flush=True)


async def main(path: str, seed: int) -> None:
    async with await open_storage(path) as store:
        await asyncio.gather(*(keep_playing(store, channel,
                                            random.Random(f"{seed}-{channel}-{racer}"),
                                            backend_of(path) == POSTGRESQL)
                               for channel in range(GAMES) for racer in range(RACERS)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
