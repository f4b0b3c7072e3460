"""The process the crash test kills: plays random turns on many games at once, forever.

Run as `python crash_worker.py DB SEED`. After each committed turn it prints
`GAME_ID VERSION`, so the test knows which turns were acknowledged before the SIGKILL.
On start it resumes the games it finds, which also exercises opening after a crash.
"""

import asyncio
import random
import sys

from storage_helpers import random_turn, result_of, start_game

from storage import SqliteStorage, Storage, replay

GAMES = 8


async def keep_playing(store: Storage, channel_id: int, rng: random.Random) -> None:
    while True:
        record = await store.active_game(channel_id) or await start_game(
            store, channel_id, users=(2 * channel_id + 1, 2 * channel_id + 2))
        loaded = await store.load_game(record.id)
        game, version = replay(loaded), loaded.game.version
        while not game.is_over:
            actor, text = random_turn(game, rng)
            version = await store.append_turn(record.id, version, actor, text,
                                              finish=result_of(game))
            print(record.id, version, flush=True)


async def main(path: str, seed: int) -> None:
    async with await SqliteStorage.open(path) as store:
        await asyncio.gather(*(keep_playing(store, channel, random.Random(f"{seed}-{channel}"))
                               for channel in range(GAMES)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
