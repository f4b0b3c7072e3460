"""One bot process of the shards test: a real service over a shared PostgreSQL database, told
what to do by the test, one JSON line at a time on stdin, answering one JSON line on stdout.

Run as `python shard_worker.py URL SHARDS`, SHARDS `all` or `COUNT:ID,ID`. Orders:

- `{"op": "tick", "at": ISO}` — the clocks' tick at that time, as the Discord dispatcher does
  it; every reply "delivered" (reported) and its receipt marked, as the outbox does.
- `{"op": "tick_and_hold", "at": ISO}` — the same, but only half of the replies delivered;
  then it says which reminders it holds and waits (the test SIGKILLs it: a process killed
  mid-send).
- `{"op": "moves", "at": ISO, "moves": [[guild, channel, user_id, name], …]}` — each user
  plays a legal peg in that channel, all at once (the peg chosen from the position read, so
  two processes racing on one channel choose the same).
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.typed import enter
from twixt.service import Port, Reply, Request, ServiceError, TwixtService, User
from twixt.storage.backends.postgres import PostgresStorage
from twixt.storage.shards import Shards


class Clock:
    """The service's time, set by each order."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def parse_shards(text: str) -> Shards | None:
    if text == "all":
        return None
    count, ids = text.split(":")
    return Shards(int(count), tuple(int(i) for i in ids.split(",")))


def said(reply: Reply) -> dict[str, object]:
    receipt = reply.receipt
    return {"receipt": None if receipt is None else [receipt.game_id, receipt.version,
                                                     receipt.stage],
            "channel": reply.channel_id, "text": reply.text}


async def deliver(service: TwixtService, replies: list[Reply]) -> list[dict[str, object]]:
    out = []
    for reply in replies:
        out.append(said(reply))  # "posted"
        if reply.receipt is not None:
            await service.clocks.delivered(reply.receipt)
    return out


async def move(service: TwixtService, guild: int, channel: int, user: User) -> list[object]:
    try:
        game = await service.channel_game(channel)
    except Exception:
        return [channel, user.id, None, "no game"]
    if game.is_over:
        return [channel, user.id, None, "over"]
    holes = sorted(str(hole) for hole in game.legal_placements())
    text = holes[(len(game.history) * 7 + channel) % len(holes)]
    try:
        reply = await enter(service, Request(guild, channel, user), text)
    except ServiceError:  # lost the race: not their turn any more, or the game is over
        return [channel, user.id, text, "refused"]
    return [channel, user.id, text, "refused" if reply.refused else "landed"]


async def main(url: str, shards_text: str) -> None:
    clock = Clock()
    storage = await PostgresStorage.open(url)
    service = TwixtService(storage, Port(shards=parse_shards(shards_text)), clock=clock)
    loop = asyncio.get_running_loop()
    print(json.dumps({"ready": True}), flush=True)
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        order = json.loads(line)
        clock.now = datetime.fromisoformat(order["at"]) if "at" in order else clock.now
        if order["op"] == "tick":
            replies = await service.tick(clock.now)
            answer: dict[str, object] = {"said": await deliver(service, replies)}
        elif order["op"] == "tick_and_hold":
            replies = await service.tick(clock.now)
            half = len(replies) // 2
            answer = {"said": await deliver(service, replies[:half]),
                      "held": [said(reply) for reply in replies[half:]]}
        elif order["op"] == "moves":
            answer = {"moves": await asyncio.gather(*(
                move(service, guild, channel, User(user_id, name))
                for guild, channel, user_id, name in order["moves"]))}
        else:
            break
        print(json.dumps(answer), flush=True)
        if order["op"] == "tick_and_hold":
            await asyncio.sleep(3600)  # mid-send: the test kills it here
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
