"""The bot's facts beside a game (SQLite's migration 0014, PostgreSQL's 0011), on both back
ends: a challenge's takebacks carried to its game, the games awaiting the bot, the hopeless
turns counted once per version, the busy notice said once."""

from datetime import timedelta

from tests.storage.storage_helpers import SMALL, T0
from twixt.storage import FirstMove, GameResult, Player, Result, Storage, StoredGame
from twixt.storage.shards import Shards


async def _engine_game(store: Storage, channel_id: int, *, takebacks: bool = False,
                    guild_id: int = 100) -> StoredGame:
    """A challenge of user 1 to the bot (seat id -3) and its game."""
    challenge = await store.create_challenge(
        guild_id=guild_id, channel_id=channel_id, challenger_id=1, invitees=[-3], players=2,
        setup=SMALL, first=FirstMove.ME, thread=False, expires_at=T0 + timedelta(days=1),
        now=T0)
    await store.add_engine_challenge(challenge.id, guild_id, takebacks)
    game = await store.create_game(guild_id=guild_id, channel_id=channel_id,
                                   players=[Player(1, "alice"), Player(-3, "bot (level 3)")],
                                   setup=SMALL, challenge_id=challenge.id, now=T0)
    await store.start_engine_game(challenge.id, game.id)
    return game


async def test_a_started_bot_game_keeps_its_takebacks_and_awaits_the_bot(store):
    game = await _engine_game(store, 10, takebacks=True)
    kept = await store.engine_game(game.id)
    assert kept is not None
    assert (kept.game_id, kept.guild_id, kept.takebacks, kept.awaiting) == (game.id, 100, True,
                                                                            True)
    assert kept.hopeless == (0, 0) and kept.busy_version is None
    assert await store.awaiting_engine_games(10) == (game.id,)


async def test_a_game_without_bot_seats_has_no_bot_facts(store):
    game = await store.create_game(guild_id=100, channel_id=5, setup=SMALL,
                                   players=[Player(1, "a"), Player(2, "b")])
    assert await store.engine_game(game.id) is None


async def test_only_games_marked_awaiting_are_listed_up_to_the_limit(store):
    games = [await _engine_game(store, channel) for channel in (10, 11, 12)]
    await store.await_engine(games[1].id, False)
    assert await store.awaiting_engine_games(10) == (games[0].id, games[2].id)
    assert await store.awaiting_engine_games(1) == (games[0].id,)
    await store.await_engine(games[1].id, True)
    assert len(await store.awaiting_engine_games(10)) == 3
    assert (await store.engine_game(games[0].id)).takebacks is False


async def test_awaiting_games_are_listed_for_their_own_shards_only(store):
    mine = await _engine_game(store, 10, guild_id=0)
    other = await _engine_game(store, 11, guild_id=1 << 22)  # shard 1 of 2
    assert await store.awaiting_engine_games(10, shards=Shards(2, (0,))) == (mine.id,)
    assert await store.awaiting_engine_games(10, shards=Shards(2, (1,))) == (other.id,)


async def test_hopeless_turns_count_in_a_row_per_team_and_once_per_version(store):
    game = await _engine_game(store, 10)
    assert await store.count_hopeless(game.id, 1, 1, True) == 1
    assert await store.count_hopeless(game.id, 1, 1, True) == 1  # the same version again
    assert await store.count_hopeless(game.id, 1, 3, True) == 2
    assert await store.count_hopeless(game.id, 0, 4, True) == 1  # the other team's own
    assert await store.count_hopeless(game.id, 1, 5, False) == 0  # not hopeless: again from 0
    assert await store.count_hopeless(game.id, 1, 7, True) == 1
    assert (await store.engine_game(game.id)).hopeless == (1, 1)


async def test_the_busy_notice_is_claimed_once_per_version(store):
    game = await _engine_game(store, 10)
    assert await store.claim_busy_notice(game.id, 2) is True
    assert await store.claim_busy_notice(game.id, 2) is False
    assert await store.claim_busy_notice(game.id, 3) is True
    assert (await store.engine_game(game.id)).busy_version == 3


async def test_a_players_open_bot_games_are_counted_in_their_guild(store):
    games = [await _engine_game(store, channel) for channel in (10, 11, 12)]
    await _engine_game(store, 13, guild_id=200)
    human = await store.create_game(guild_id=100, channel_id=14, setup=SMALL,
                                    players=[Player(1, "alice"), Player(2, "bob")])
    assert await store.open_engine_games(100, 1) == 3
    assert await store.open_engine_games(100, 2) == 0 and human.is_active
    await store.finish_game(games[0].id, games[0].version,
                            GameResult(Result.BLACK, "resignation"), now=T0)
    assert await store.open_engine_games(100, 1) == 2
    assert await store.open_engine_games(200, 1) == 1
