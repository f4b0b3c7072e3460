"""`twixt run` before it reaches Discord, the client's start-up, and the log format."""

import asyncio
import logging
from unittest.mock import AsyncMock, MagicMock

import aiohttp
import discord
import pytest

from twixt import engine
from twixt.app import bot
from twixt.config import Settings
from twixt.discord import app, logs
from twixt.discord.activity import LaunchButton
from twixt.discord.cog import ChatCog
from twixt.discord.views import PickerPlace, PickerSelect, TwixtButton


@pytest.fixture(autouse=True)
def no_dotenv(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setattr(logs, "configure", lambda level: None)  # keep pytest's handlers
    for name in ("DISCORD_TOKEN", "TWIXT_DB", "TWIXT_GUILD_IDS", "TWIXT_MESSAGE_CONTENT"):
        monkeypatch.delenv(name, raising=False)


def test_without_a_token_run_says_how_to_set_one(capsys):
    assert bot.run() == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and ".env" in err and err.count("\n") == 1


def test_an_unusable_database_is_one_line(monkeypatch, tmp_path, capsys):
    bad = tmp_path / "not.db"
    bad.write_text("this is not a database")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("TWIXT_DB", str(bad))
    assert bot.run() == 2
    err = capsys.readouterr().err
    assert err.startswith("twixt: ") and err.count("\n") == 1


def test_message_content_intent_follows_the_setting():
    assert not app.intents_for(Settings()).message_content
    assert app.intents_for(Settings(message_content=True)).message_content


@pytest.mark.parametrize("guilds", [(), (11, 12)])
async def test_setup_registers_the_cog_the_buttons_and_syncs(settings, client, monkeypatch,
                                                            guilds):
    monkeypatch.setattr(client, "settings", Settings(guild_ids=guilds))
    sync = AsyncMock(return_value=[])
    monkeypatch.setattr(client.tree, "sync", sync)
    monkeypatch.setattr(client, "add_dynamic_items", MagicMock())
    await client.setup_hook()
    assert isinstance(client.get_cog("ChatCog"), ChatCog)
    client.add_dynamic_items.assert_called_once_with(TwixtButton, LaunchButton, PickerSelect,
                                                     PickerPlace)
    scopes = [call.kwargs.get("guild") for call in sync.await_args_list]
    expected = [None] if not guilds else list(guilds)
    assert [scope and scope.id for scope in scopes] == expected
    assert [c.name for c in client.tree.get_commands(guild=scopes[0])] == [
        "twixt", "twixt-records", "twixt-settings", "twixt-tournament", "Challenge to TwixT"]
    await client.close()


async def test_the_clocks_run_from_start_until_close(client, monkeypatch):
    monkeypatch.setattr(client.tree, "sync", AsyncMock(return_value=[]))
    clocks = client.scheduler.dispatch
    assert not clocks.is_running()
    await client.setup_hook()
    assert clocks.is_running()
    await client.close()
    await asyncio.wait({clocks.get_task()}, timeout=1)
    assert clocks.get_task().cancelled()


def test_run_logs_which_engine_core_searches_once_at_start(monkeypatch, tmp_path, caplog):
    bad = tmp_path / "not.db"
    bad.write_text("this is not a database")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("TWIXT_DB", str(bad))
    with caplog.at_level(logging.INFO, logger=bot.__name__):
        assert bot.run() == 2
    said = [message for message in caplog.messages if message.startswith("engine core")]
    assert said == [engine.DESCRIPTION]
    assert said[0] == "engine core: compiled C" or said[0].startswith(
        "engine core: Python (no compiled core: ")


def test_log_lines_are_key_value(capsys):
    record = logging.makeLogRecord({"name": "bot.x", "levelname": "INFO", "levelno": 20,
                                    "msg": "turn played", "user_id": 7, "text": "G6 link E5"})
    line = logs.KeyValueFormatter().format(record)
    assert 'logger=bot.x msg="turn played" user_id=7 text="G6 link E5"' in line


def test_the_client_pings_nobody_unless_a_message_says_so(client):
    mentions = client.allowed_mentions
    assert not (mentions.everyone or mentions.users or mentions.roles)


def test_no_network_is_one_line_not_a_traceback(monkeypatch, tmp_path, capsys):
    async def unreachable(self, token, *, reconnect=True):
        raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("TWIXT_DB", str(tmp_path / "t.db"))
    monkeypatch.setattr(app.TwixtBot, "start", unreachable)
    assert bot.run() == 2
    err = capsys.readouterr().err
    assert err == ("twixt: cannot reach Discord (ClientConnectionError: Cannot connect to host "
                   "discord.com:443); check the network and try again.\n")


async def test_a_guild_copy_from_an_earlier_run_is_removed_when_no_longer_wanted(
        client, monkeypatch):
    sync = AsyncMock(return_value=[])
    monkeypatch.setattr(client.tree, "sync", sync)
    monkeypatch.setattr(client, "settings", Settings(guild_ids=(11,)))
    await client._sync_commands()
    monkeypatch.setattr(client, "settings", Settings(guild_ids=()))
    sync.reset_mock()
    await client._sync_commands()
    scopes = [call.kwargs.get("guild") for call in sync.await_args_list]
    assert [scope and scope.id for scope in scopes] == [11, None]  # the copy emptied, then global
    assert client.tree.get_commands(guild=discord.Object(11)) == []
    storage = client.service.desk.storage
    assert await storage.guilds_with("commands_copied", True) == ()
    sync.reset_mock()
    await client._sync_commands()  # nothing left to remove
    assert [call.kwargs.get("guild") for call in sync.await_args_list] == [None]


PROBE = """
import asyncio, logging, sys, tempfile
from pathlib import Path
logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
from twixt.config import Settings
from twixt.app.bot import discord_bot
from twixt.storage import SqliteStorage

async def main():
    db = Path(tempfile.mkdtemp()) / "t.db"
    async with await SqliteStorage.open(db) as storage:
        discord_bot(Settings(token="t", database=db), storage)
asyncio.run(main())
"""


def test_the_client_logs_no_warning_about_voice_a_text_bot_never_uses():
    """discord.py warns once a process that PyNaCl and davey (voice) are missing: the bot
    plays in text only, so its log holds no such warning (a fresh process: the warning is
    said once per process)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "voice" not in done.stderr
