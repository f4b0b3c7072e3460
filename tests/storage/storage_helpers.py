"""Playing stored games with random legal turns, for the storage tests and the crash worker.

The bot's flow in miniature: replay the log into a `rules.Game`, let the rules accept a
command, then append its canonical text under the version that was read.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from twixt.rules import Game
from twixt.storage import GameResult, GameSetup, Player, Result, Storage, StoredGame, rebuild

SMALL = GameSetup(size="8x8", rules="pp")
CLOCKED = GameSetup(size="8x8", rules="pp", time_control="1d")
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def result_of(game: Game) -> GameResult | None:
    """The storage result of a finished game (winners back to user ids), None while it runs."""
    outcome = game.outcome
    if outcome is None:
        return None
    return GameResult(Result(outcome.result), outcome.reason.value,
                      tuple(int(name) for name in outcome.winners))


def random_turn(game: Game, rng: random.Random) -> tuple[int, str]:
    """Play a random legal peg for whoever is to move; return (actor id, canonical text)."""
    mover = game.player_to_move
    hole = rng.choice(game.legal_placements())
    return int(mover), game.play(str(hole), by=mover).text


async def start_game(store: Storage, channel_id: int, users: tuple[int, ...] = (1, 2),
                     setup: GameSetup = SMALL, guild_id: int = 100) -> StoredGame:
    players = [Player(user_id, f"player {user_id}") for user_id in users]
    return await store.create_game(guild_id=guild_id, channel_id=channel_id, players=players,
                                   setup=setup)


async def start_games(store: Storage, count: int) -> list[StoredGame]:
    """`count` games on channels 0 to `count` - 1, each between two players of its own."""
    return [await start_game(store, channel_id=c, users=(2 * c + 1, 2 * c + 2))
            for c in range(count)]


async def clocked(store: Storage, channel_id: int, guild_id: int = 100,
                  now: datetime = T0) -> StoredGame:
    """A game with a clock of a day a move, started at `now`."""
    return await store.create_game(guild_id=guild_id, channel_id=channel_id,
                                   players=[Player(1, "one"), Player(2, "two")],
                                   setup=CLOCKED, now=now)


async def play_turns(store: Storage, record: StoredGame, count: int,
                     rng: random.Random) -> Game:
    """Play up to `count` random turns (fewer if the game ends) and return the rules game."""
    game = rebuild(await store.load_game(record.id))
    version = len(game.history)
    for _ in range(count):
        if game.is_over:
            break
        actor, text = random_turn(game, rng)
        version = await store.append_turn(record.id, version, actor, text,
                                          finish=result_of(game))
    return game
