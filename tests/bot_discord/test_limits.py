"""Discord's documented limits for application commands, checked on the `/twixt` group as
it would be registered (names, descriptions, options, subcommands)."""

from __future__ import annotations

import re
from typing import Any

import discord

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's pattern for command and option names
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_SUBCOMMANDS = 25
MAX_CHOICES = 25
MAX_COMMAND_SIZE = 8000  # characters of names, descriptions and values together


def _payload(cog: Any, client: Any) -> dict[str, Any]:
    return cog.app_command.to_dict(client.tree)


def _options(payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{sub['name']} {option['name']}", option)
            for sub in payload["options"] for option in sub.get("options", [])]


def test_the_group_fits_discords_limits(cog, client):
    payload = _payload(cog, client)
    subcommands = payload["options"]
    assert len(subcommands) <= MAX_SUBCOMMANDS
    for sub in [payload, *subcommands]:
        assert NAME.match(sub["name"]) and sub["name"] == sub["name"].lower(), sub["name"]
        assert 1 <= len(sub["description"]) <= MAX_DESCRIPTION, sub["name"]
        assert len(sub.get("options", [])) <= MAX_OPTIONS, sub["name"]
    for where, option in _options(payload):
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower(), where
        assert 1 <= len(option["description"]) <= MAX_DESCRIPTION, where
        assert len(option.get("choices", [])) <= MAX_CHOICES, where
    assert _characters(payload) <= MAX_COMMAND_SIZE


def _characters(item: dict[str, Any]) -> int:
    """Discord's count for a command: every name, description and choice value in it."""
    own = len(item.get("name", "")) + len(item.get("description", ""))
    own += sum(len(str(choice["name"])) + len(str(choice["value"]))
               for choice in item.get("choices", []))
    return own + sum(_characters(option) for option in item.get("options", []))


def test_every_option_says_what_it_is(cog, client):
    placeholders = [where for where, option in _options(_payload(cog, client))
                    if option["description"].strip(" .…") == ""]
    assert placeholders == []


def test_page_options_stop_where_the_service_does(cog, client):
    from bot.service import MAX_PAGE

    pages = [option for where, option in _options(_payload(cog, client))
             if where.endswith(" page")]
    assert len(pages) == 2
    assert all(option["max_value"] == MAX_PAGE for option in pages)
    assert all(option["type"] == discord.AppCommandOptionType.integer.value for option in pages)
