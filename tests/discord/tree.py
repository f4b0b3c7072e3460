"""The slash commands exactly as the bot syncs them, and Discord's documented limits on them.

`python -m tests.discord.tree > tree.json` prints the payload (English, with every
localization the translator adds) as JSON: run it before and after a change to the commands
and compare the two files, to see what players will see change.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock

import discord

from twixt.config import Settings
from twixt.discord.app import TwixtBot
from twixt.storage import SqliteStorage

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's pattern for command and option names
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25  # subcommands, groups and options alike
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100  # a string choice's value
MAX_STRING_LENGTH = 6000  # the most a string option's max_length may say
# characters of names, descriptions and values together; of a localized field only its
# longest version (English or any localization) counts (Discord's "Slash Commands" docs)
MAX_COMMAND_SIZE = 8000
MAX_GLOBAL_COMMANDS = 100
SUBCOMMAND = discord.AppCommandOptionType.subcommand.value


async def synced(client: TwixtBot, monkeypatch: Any,
                 translator: discord.app_commands.Translator | None = None,
                 ) -> list[dict[str, Any]]:
    """The slash commands as `setup_hook` registers and `tree.sync` translates them (with
    the translator `setup_hook` installs, unless another is given); the client is closed
    after. The user commands (`user_commands`) are synced beside them, and tested apart."""
    monkeypatch.setattr(client.tree, "sync", AsyncMock(return_value=[]))
    await client.setup_hook()
    translating = translator or client.tree.translator
    assert translating is not None
    payload = [await command.get_translated_payload(client.tree, translating)
               for command in client.tree.get_commands(
                   type=discord.AppCommandType.chat_input)]
    await client.close()
    return payload


def options_of(payload: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every option of every subcommand, as (`command subcommand option`, option)."""
    return [(f"{command['name']} {sub['name']} {option['name']}", option)
            for command in payload for sub in command["options"]
            for option in sub.get("options", [])]


def longest(item: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it: its longest version, English or localized."""
    versions = [item.get(field, ""), *(item.get(f"{field}_localizations") or {}).values()]
    return max(len(str(version)) for version in versions)


def characters(item: dict[str, Any]) -> int:
    """Discord's count for a command: every name, description and choice value in it."""
    own = longest(item, "name") + longest(item, "description")
    own += sum(longest(choice, "name") + len(str(choice["value"]))
               for choice in item.get("choices", []))
    return own + sum(characters(option) for option in item.get("options", []))


def assert_within_limits(payload: list[dict[str, Any]]) -> None:
    """Every group, command and option within Discord's limits: a command over any makes
    Discord refuse the whole sync, and the bot would lose every command."""
    assert len(payload) <= MAX_GLOBAL_COMMANDS
    for command in payload:
        subcommands = command["options"]
        assert all(sub["type"] == SUBCOMMAND for sub in subcommands)
        assert len(subcommands) <= MAX_OPTIONS, command["name"]
        assert characters(command) <= MAX_COMMAND_SIZE, command["name"]
        for item in [command, *subcommands]:
            assert NAME.match(item["name"]) and item["name"] == item["name"].lower()
            assert 1 <= len(item["description"]) <= MAX_DESCRIPTION, item["name"]
            assert len(item.get("options", [])) <= MAX_OPTIONS, item["name"]
            required = [option.get("required", False) for option in item.get("options", [])]
            assert required == sorted(required, reverse=True), item["name"]  # required first
    for where, option in options_of(payload):
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower(), where
        assert 1 <= len(option["description"]) <= MAX_DESCRIPTION, where
        assert len(option.get("choices", [])) <= MAX_CHOICES, where
        assert all(1 <= len(str(choice["value"])) <= MAX_CHOICE_VALUE
                   for choice in option.get("choices", [])), where
        assert option.get("max_length", 0) <= MAX_STRING_LENGTH, where


async def _print_payload() -> None:
    class Patch:  # what `synced` needs of pytest's monkeypatch, for a run outside pytest
        @staticmethod
        def setattr(target: Any, name: str, value: Any) -> None:
            setattr(target, name, value)

    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "tree.db"
        async with await SqliteStorage.open(database) as storage:
            client = TwixtBot(Settings(token="token", database=database), storage)
            payload = await synced(client, Patch())
    json.dump(payload, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)


if __name__ == "__main__":
    asyncio.run(_print_payload())
