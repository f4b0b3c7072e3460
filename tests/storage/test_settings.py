"""Guild settings, user preferences, stats and ratings."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.storage.storage_helpers import start_game
from twixt.storage import GameResult, GuildSettings, PlayerStats, Result, UserPrefs, ratings


async def test_settings_and_preferences_start_at_their_defaults(store):
    assert await store.guild_settings(1) == GuildSettings()
    assert await store.user_prefs(1) == UserPrefs()


async def test_a_changed_setting_is_kept_and_the_others_stay(store):
    await store.update_guild_settings(1, challenge_expiry_hours=12)
    changed = await store.update_guild_settings(1, thread_default=True)
    assert changed == GuildSettings(thread_default=True, challenge_expiry_hours=12)
    assert await store.guild_settings(1) == changed
    assert await store.guild_settings(2) == GuildSettings()


async def test_a_preference_is_per_user(store):
    await store.update_user_prefs(1, theme="dark", dm_reminders=False)
    assert await store.user_prefs(1) == UserPrefs(theme="dark", dm_reminders=False)
    assert await store.user_prefs(2) == UserPrefs()


async def test_many_users_preferences_are_read_at_once_each_with_its_defaults(store):
    await store.update_user_prefs(1, palette="colour-blind")
    await store.update_user_prefs(2, theme="dark", auto_link=False)
    assert await store.users_prefs([2, 3, 1, 2]) == {
        1: UserPrefs(palette="colour-blind"), 2: UserPrefs(theme="dark", auto_link=False),
        3: UserPrefs()}
    assert {user: await store.user_prefs(user) for user in (1, 2, 3)} == \
        await store.users_prefs([1, 2, 3])
    assert await store.users_prefs([]) == {}


async def test_unknown_settings_and_wrong_types_are_refused(store):
    with pytest.raises(ValueError, match="no setting"):
        await store.update_guild_settings(1, colour="red")
    with pytest.raises(ValueError, match="int"):
        await store.update_guild_settings(1, challenge_expiry_hours="12")
    with pytest.raises(ValueError, match="bool"):
        await store.update_user_prefs(1, auto_link=1)


async def finish(store, channel_id, users, result, now=None):
    game = await start_game(store, channel_id=channel_id, users=users)
    await store.append_turn(game.id, 0, users[0], "resign", finish=result, now=now)


async def test_stats_count_wins_losses_and_draws_in_the_guild(store):
    await finish(store, 1, (1, 2), GameResult(Result.BLACK, "resignation", (2,)))
    await finish(store, 2, (1, 3), GameResult(Result.RED, "connection", (1,)))
    await finish(store, 3, (1, 2), GameResult(Result.DRAW, "agreement"))
    await finish(store, 4, (1, 2), GameResult(Result.ABORTED, "aborted"))
    await start_game(store, channel_id=5, users=(1, 2))
    assert await store.player_stats(100, 1) == PlayerStats(100, 1, games=3, wins=1, losses=1,
                                                           draws=1)
    assert await store.player_stats(999, 1) == PlayerStats(999, 1)


async def test_team_wins_count_for_both_partners(store):
    await finish(store, 1, (1, 2, 3, 4), GameResult(Result.RED, "connection", (1, 3)))
    assert (await store.player_stats(100, 3)).wins == 1
    assert (await store.player_stats(100, 4)).losses == 1


async def test_ratings_are_computed_with_the_result_and_ranked(store):
    first = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    await finish(store, 1, (1, 2), GameResult(Result.BLACK, "resignation", (2,),
                                              rated_sides=((1,), (2,))), now=first)
    [lost], [won] = ratings.rate_game([ratings.Rating()], [ratings.Rating()], 0.0, first)
    two = await store.player_stats(100, 2)
    # the same arithmetic on the same values: the same floats, stored as they are
    assert (two.rating, two.deviation, two.volatility, two.rated_at) == (
        won.rating, won.deviation, won.volatility, first)
    second = first + timedelta(days=40)
    await finish(store, 2, (1, 2), GameResult(Result.RED, "connection", (1,),
                                              rated_sides=((1,), (2,))), now=second)
    # rated from the deviations grown over the 40 days between
    [one], [two_after] = ratings.rate_game([lost], [won], 1.0, second)
    board = await store.leaderboard(100)
    assert [(p.user_id, p.rated_games, p.wins, p.rated_at) for p in board] == [
        (1, 2, 1, second), (2, 2, 1, second)]
    assert [p.rating_at(second) for p in board] == [one, two_after]
