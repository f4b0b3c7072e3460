"""Discord's documented limits for application commands, checked on the real payload the bot
syncs (names, descriptions, options, subcommands, choices, size, count): a command over any
limit makes Discord refuse the whole sync, and the bot would lose every command."""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import AsyncMock

import discord
import pytest

from bot.service import MAX_PAGE

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's pattern for command and option names
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25  # subcommands, groups and options alike
MAX_CHOICES = 25
MAX_COMMAND_SIZE = 8000  # characters of names, descriptions and values together
MAX_GLOBAL_COMMANDS = 100
SUBCOMMAND = discord.AppCommandOptionType.subcommand.value


@pytest.fixture
async def payload(client, monkeypatch) -> list[dict[str, Any]]:
    """The commands exactly as `setup_hook` would sync them."""
    monkeypatch.setattr(client.tree, "sync", AsyncMock(return_value=[]))
    await client.setup_hook()
    commands = [command.to_dict(client.tree) for command in client.tree.get_commands()]
    await client.close()
    return commands


def _options(payload: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every option of every subcommand, as (`command subcommand option`, option)."""
    return [(f"{command['name']} {sub['name']} {option['name']}", option)
            for command in payload for sub in command["options"]
            for option in sub.get("options", [])]


def _characters(item: dict[str, Any]) -> int:
    """Discord's count for a command: every name, description and choice value in it."""
    own = len(item.get("name", "")) + len(item.get("description", ""))
    own += sum(len(str(choice["name"])) + len(str(choice["value"]))
               for choice in item.get("choices", []))
    return own + sum(_characters(option) for option in item.get("options", []))


def test_the_commands_fit_discords_limits(payload):
    assert len(payload) <= MAX_GLOBAL_COMMANDS
    for command in payload:
        subcommands = command["options"]
        assert all(sub["type"] == SUBCOMMAND for sub in subcommands)
        assert len(subcommands) <= MAX_OPTIONS, command["name"]
        assert _characters(command) <= MAX_COMMAND_SIZE, command["name"]
        for item in [command, *subcommands]:
            assert NAME.match(item["name"]) and item["name"] == item["name"].lower()
            assert 1 <= len(item["description"]) <= MAX_DESCRIPTION, item["name"]
            assert len(item.get("options", [])) <= MAX_OPTIONS, item["name"]
            required = [option.get("required", False) for option in item.get("options", [])]
            assert required == sorted(required, reverse=True), item["name"]  # required first
    for where, option in _options(payload):
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower(), where
        assert 1 <= len(option["description"]) <= MAX_DESCRIPTION, where
        assert len(option.get("choices", [])) <= MAX_CHOICES, where


def test_every_group_has_room_for_more_commands(payload):
    assert {command["name"] for command in payload} == {"twixt", "twixt-records",
                                                        "twixt-settings"}
    assert all(len(command["options"]) <= MAX_OPTIONS - 5 for command in payload)


def test_every_option_says_what_it_is(payload):
    placeholders = [where for where, option in _options(payload)
                    if option["description"].strip(" .…") == ""]
    assert placeholders == []


def test_page_options_stop_where_the_service_does(payload):
    pages = [option for where, option in _options(payload) if where.endswith(" page")]
    assert len(pages) == 2
    assert all(option["max_value"] == MAX_PAGE for option in pages)
    assert all(option["type"] == discord.AppCommandOptionType.integer.value for option in pages)
