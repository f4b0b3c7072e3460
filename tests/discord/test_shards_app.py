"""`twixt run --shard-count N --shard-ids …` (and TWIXT_SHARD_COUNT / TWIXT_SHARD_IDS): the
settings, their one-line refusals, the sharded client, its clocks' guilds, and which process
syncs the commands."""

from unittest.mock import AsyncMock, MagicMock

import pytest

from twixt import cli
from twixt.app import bot
from twixt.app.bot import discord_bot
from twixt.config import ConfigError, Settings
from twixt.storage import SqliteStorage
from twixt.storage.shards import Shards


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setattr(bot.logs, "configure", lambda level: None)
    for name in ("DISCORD_TOKEN", "TWIXT_DB", "TWIXT_GUILD_IDS", "TWIXT_SHARD_COUNT",
                 "TWIXT_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)


def shards_of(env, overrides=None):
    return Settings.from_environment(env, overrides).shards


def test_shards_from_the_environment_and_the_command_line():
    assert shards_of({}) is None
    assert shards_of({"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "1"}) == Shards(2, (1,))
    assert shards_of({"TWIXT_SHARD_COUNT": "4", "TWIXT_SHARD_IDS": "0, 2"}) == Shards(4, (0, 2))
    assert shards_of({"TWIXT_SHARD_COUNT": "3"}) == Shards(3, (0, 1, 2))  # all here
    # the command line wins over the environment
    assert shards_of({"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "1"},
                     {"TWIXT_SHARD_IDS": "0"}) == Shards(2, (0,))


@pytest.mark.parametrize("env, says", [
    ({"TWIXT_SHARD_IDS": "0"}, "need a shard count"),
    ({"TWIXT_SHARD_COUNT": "two"}, "whole number, not 'two'"),
    ({"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "0;1"}, "numbers like 0,1"),
    ({"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "2"}, "0 to 1"),
    ({"TWIXT_SHARD_COUNT": "0"}, "1 or more"),
    ({"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "1,1"}, "twice"),
])
def test_shards_that_cannot_be_are_refused_in_one_line(env, says):
    with pytest.raises(ConfigError, match=says) as refused:
        Settings.from_environment(env)
    assert "\n" not in str(refused.value)


def test_twixt_run_takes_the_shard_options(monkeypatch):
    given = []
    monkeypatch.setattr(bot, "run", lambda overrides=None: given.append(overrides) or 0)
    assert cli.main(["run", "--shard-count", "2", "--shard-ids", "0,1"]) == 0
    assert cli.main(["run"]) == 0
    assert given == [{"TWIXT_SHARD_COUNT": "2", "TWIXT_SHARD_IDS": "0,1"}, {}]


def test_bad_shard_options_stop_twixt_run_with_one_line(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert cli.main(["run", "--shard-count", "2", "--shard-ids", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("twixt: ") and "0 to 1" in err and err.count("\n") == 1


@pytest.mark.parametrize("shards, syncs", [
    (None, True), (Shards(2, (0,)), True), (Shards(2, (1,)), False),
    (Shards(3, (1, 2)), False), (Shards(3, (2, 0)), True),
])
async def test_the_sharded_client_its_clocks_and_only_shard_0_syncs(tmp_path, monkeypatch,
                                                                     shards, syncs):
    settings = Settings(token="t", database=tmp_path / "t.db", shards=shards)
    async with await SqliteStorage.open(settings.database) as storage:
        client = discord_bot(settings, storage)
        assert client.shard_count == (None if shards is None else shards.count)
        assert client.shard_ids == (None if shards is None else list(shards.ids))
        assert client.service.desk.port.shards == shards
        sync = AsyncMock(return_value=[])
        monkeypatch.setattr(client.tree, "sync", sync)
        monkeypatch.setattr(client, "add_dynamic_items", MagicMock())
        await client.setup_hook()
        assert sync.await_count == (1 if syncs else 0)
        await client.close()
