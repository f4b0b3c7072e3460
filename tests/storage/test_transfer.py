"""`twixt migrate --from sqlite:PATH --to postgresql://…`: a whole database copied and checked."""

import random
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from support.pg_server import new_database
from tests.storage.storage_helpers import play_turns, start_game
from twixt.cli import main
from twixt.storage import (
    FirstMove,
    GameResult,
    GameSetup,
    OfferKind,
    Player,
    Result,
    SqliteStorage,
)
from twixt.storage.backends.postgres import PostgresStorage

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def a_lived_in_database(path):
    """Every kind of row: finished, rated, drawn, aborted and running games, a Double TwixT
    game, a clocked one, challenges in every state, offers, votes, reminders, settings; and
    what players keep beside games: notes, a move waiting for confirmation (and one taken),
    conditional moves, vacations (one automatic), a game without vacation, weekends off."""
    rng = random.Random(12)
    async with await SqliteStorage.open(path) as store:
        for channel in range(6):
            game = await start_game(store, channel_id=channel, users=(1, 2 + channel % 3))
            await play_turns(store, game, 200, rng)  # to the end, mostly
        running = await start_game(store, channel_id=20, users=(1, 2))
        await play_turns(store, running, 5, rng)
        await store.make_offer(running.id, OfferKind.DRAW, 1, 5, now=NOW)
        await store.vote_abort(running.id, 2)
        aborted = await start_game(store, channel_id=21, users=(3, 4))
        await store.finish_game(aborted.id, 0, GameResult(Result.ABORTED, "aborted"))
        drawn = await start_game(store, channel_id=22, users=(3, 5))
        await store.finish_game(drawn.id, 0, GameResult(Result.DRAW, "agreement",
                                                        rated_sides=((3,), (5,))))
        double = await start_game(store, channel_id=23, users=(1, 2, 3, 4))
        await play_turns(store, double, 7, rng)
        clocked = await start_game(store, channel_id=24, users=(5, 6),
                                   setup=GameSetup(size="12x12", rules="pp", time_control="1d"))
        await play_turns(store, clocked, 3, rng)
        await store.claim_reminder(clocked.id, 3, "half", now=NOW)
        for channel, answer in ((30, None), (31, True), (32, False)):
            made = await store.create_challenge(
                guild_id=100, channel_id=channel, challenger_id=7, invitees=[8], players=2,
                setup=GameSetup(swap=False), first=FirstMove.RANDOM, thread=channel == 31,
                expires_at=NOW + timedelta(days=1), now=NOW)
            if answer is not None:
                await store.answer_challenge(made.id, 8, answer, now=NOW)
        await store.remember_users({1: "alice", 2: "bob", 7: "carol"})
        await store.update_guild_settings(100, forfeit_on_timeout=True)
        await store.update_user_prefs(1, theme="dark")
        await store.add_note(running.id, 1, "watch E5", most=50, now=NOW)
        await store.add_note(running.id, 1, "then G6", most=50, now=NOW)
        await store.add_note(double.id, 3, "partner's plan", most=50, now=NOW)
        await store.hold_move(double.id, 4, "D4", 7, now=NOW)
        taken = await store.hold_move(running.id, 2, "C3", 5, now=NOW)  # the newest id
        await store.take_pending_move(taken.id)
        await store.store_conditionals(running.id, 2, 5, 5, "if H9 then G6", now=NOW)
        await store.store_conditionals(double.id, 1, 7, 7, "if D5 then E7", now=NOW)
        weekends = await store.create_game(
            guild_id=100, channel_id=25,
            players=[Player(7, "carol", weekends_off=True), Player(8, "dan")],
            setup=GameSetup(size="12x12", time_control="3d", vacation=False), now=NOW)
        await store.add_vacation(100, 5, NOW, NOW + timedelta(days=3), 3, allowed=30, now=NOW)
        ended = await store.add_vacation(100, 6, NOW, NOW + timedelta(days=9), 9, allowed=30,
                                          now=NOW)
        await store.end_vacation(ended.id, NOW + timedelta(days=2), 2, now=NOW)
        await store.add_vacation(100, 7, NOW + timedelta(days=1), NOW + timedelta(days=2), 1,
                                 allowed=30, automatic=True, game_id=weekends.id, now=NOW)


async def everything(store):
    """All a store holds that the bot can ask for."""
    games = await store.list_games(limit=1000)
    return {
        "games": [await store.load_game(g.id) for g in games],
        "challenges": [await store.get_challenge(i) for i in range(1, 4)],
        "offers": [await store.open_offers(g.id) for g in games],
        "stats": [await store.player_stats(100, user) for user in range(1, 9)],
        "leaderboard": await store.leaderboard(100, limit=100),
        "head_to_head": await store.head_to_head(100, 1, 2),
        "names": await store.user_names(range(1, 9)),
        "settings": await store.guild_settings(100),
        "prefs": await store.user_prefs(1),
        "next_wake": await store.next_wake(),
        "undelivered": await store.reclaim_reminders(NOW + timedelta(days=1),
                                                     NOW + timedelta(days=1)),
        "notes": [await store.notes(g.id, user, limit=100) for g in games for user in
                  range(1, 9)],
        "pending": [await store.pending_move(g.id, user) for g in games for user in
                    range(1, 9)],
        "conditionals": [await store.conditionals(g.id) for g in games],
        "vacations": await store.vacations(100, range(1, 9), NOW - timedelta(days=1)),
        "vacation_days": [await store.vacation_days_used(100, user, NOW.year)
                          for user in range(1, 9)],
    }


async def test_a_whole_database_is_copied_and_every_game_replays_the_same(
        tmp_path, pg_server, capsys):
    path = tmp_path / "twixt.db"
    await a_lived_in_database(path)
    url = await new_database(pg_server)
    assert await main_async(["migrate", "--from", f"sqlite:{path}", "--to", url]) == 0
    out = capsys.readouterr().out
    assert "turns:" in out and "12 games replay the same on both sides" in out
    async with await SqliteStorage.open(path) as before, \
            await PostgresStorage.open(url) as after:
        copied = await everything(after)
        assert copied == await everything(before)
        # the new tables and columns came along (not merely read as their defaults)
        assert [tuple(n.text for n in notes) for notes in copied["notes"] if notes] == [
            ("partner's plan",), ("watch E5", "then G6")]
        assert [(p.user_id, p.command) for p in copied["pending"] if p] == [(4, "D4")]
        assert [[c.plan for c in plans] for plans in copied["conditionals"] if plans] == [
            ["if D5 then E7"], ["if H9 then G6"]]
        seats = [g.game.seats for g in copied["games"] if g.game.channel_id == 25]
        assert [s.weekends_off for s in seats[0]] == [True, False]
        assert [g.game.setup.vacation for g in copied["games"]].count(False) == 1
        assert [v.automatic for v in copied["vacations"]] == [False, True, False]
        assert copied["leaderboard"] and all(s.deviation < 350 for s in copied["leaderboard"])
        assert copied["vacation_days"][4:7] == [3, 2, 1]
        # and the copy is a database to go on with: new ids follow the copied ones, a held
        # move's included, whose id a Confirm button carries: not even a taken one's again
        game = await start_game(after, channel_id=99)
        assert game.id == 13
        held = await after.hold_move(game.id, 1, "C3", 0)
        assert held.id == 3
        challenge = await after.create_challenge(
            guild_id=100, channel_id=98, challenger_id=1, invitees=[], players=2,
            setup=GameSetup(), first=FirstMove.ME, thread=False,
            expires_at=NOW + timedelta(days=1), now=NOW)
        assert challenge.id == 4


async def test_a_target_with_rows_is_refused_and_left_as_it_was(tmp_path, pg_server, capsys):
    path = tmp_path / "twixt.db"
    await a_lived_in_database(path)
    url = await new_database(pg_server)
    async with await PostgresStorage.open(url) as store:
        await start_game(store, channel_id=1)
    assert await main_async(["migrate", "--from", f"sqlite:{path}", "--to", url]) == 1
    assert "is not empty" in capsys.readouterr().err
    async with await PostgresStorage.open(url) as store:
        assert len(await store.list_games()) == 1


async def test_schemas_that_differ_copy_nothing(tmp_path, pg_server, capsys):
    path = tmp_path / "twixt.db"
    await a_lived_in_database(path)
    url = await new_database(pg_server)
    async with await PostgresStorage.open(url):
        pass
    conn = await asyncpg.connect(url)
    await conn.execute("ALTER TABLE users ADD COLUMN nickname text")
    await conn.close()
    assert await main_async(["migrate", "--from", f"sqlite:{path}", "--to", url]) == 1
    assert "the two schemas differ" in capsys.readouterr().err


def test_the_arguments_name_both_sides(capsys):
    with pytest.raises(SystemExit):
        main(["migrate", "--from", "twixt.db", "--to", "postgresql://db/twixt"])
    assert "sqlite:PATH" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["migrate", "--from", "sqlite:twixt.db", "--to", "other.db"])
    assert "postgresql:// URL" in capsys.readouterr().err


async def main_async(argv):
    """`twixt migrate` runs its own event loop: give it a thread of its own."""
    import asyncio

    return await asyncio.to_thread(main, argv)
