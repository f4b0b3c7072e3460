"""`/twixt help command:` and a mistyped command after `@bot`: help per command, and the
command meant, through the real slash command, service and database."""

from __future__ import annotations

import discord

from tests.discord.helpers import interaction, message, run, suggested
from tests.discord.people import ALICE, text_channel
from tests.discord.reading import only, posted, words
from twixt.discord.messages import ChatMoves
from twixt.discord.slash import MAX_SUGGESTIONS
from twixt.service.commands.router import VOCABULARY


async def test_help_for_one_command_fits_one_message(client, slash):
    reply = only(await run(client, slash, "help", ALICE, command="tournament"))
    assert words(reply).startswith("**tournament** — TwixT tournaments and leagues.")
    assert "`format roundrobin|swiss|league`" in words(reply)
    assert len(words(reply)) <= 2000 and reply["ephemeral"]
    german = only(await run(client, slash, "help", ALICE, command="analyze",
                            locale=discord.Locale.german))
    assert "In Discord: `/twixt-records analyze`" in words(german)
    assert "Beispiel: `analyze 12`" in words(german)


async def test_help_without_a_command_names_them_all(client, slash):
    reply = only(await run(client, slash, "help", ALICE))
    assert "tournament" in words(reply) and "`help COMMAND`" in words(reply)


async def test_a_mistyped_help_command_names_the_one_meant(client, slash):
    reply = only(await run(client, slash, "help", ALICE, command="leaderbord"))
    # a refusal's markdown is escaped: Discord shows the backticks as typed
    assert words(reply) == ("I don't know the command “leaderbord”: did you mean "
                                "\\`leaderboard\\`?")


async def test_the_help_autocomplete_offers_commands_within_discords_limit(client, slash):
    asked = interaction(client, ALICE)
    everything = await suggested(slash["help"], "command", "", asked)
    assert len(everything) == MAX_SUGGESTIONS  # more commands than Discord shows at once
    # the first of them, in the help's order, each offered under its own name
    assert everything == list(VOCABULARY.topics)[:MAX_SUGGESTIONS]
    assert await suggested(slash["help"], "command", "Tou", asked) == ["tournament"]


async def test_a_mistyped_chat_command_names_the_one_meant_in_the_servers_language(client):
    channel = text_channel()
    sent = message(ALICE, "<@555> resgin", channel, guild_locale=discord.Locale.german)
    await ChatMoves(client.service, read_all=False).handle(sent)
    [reply] = posted(channel)
    assert words(reply) == "den Befehl “resgin” kenne ich nicht: meinst du \\`resign\\`?"
