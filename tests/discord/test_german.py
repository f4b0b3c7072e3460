"""German for players whose Discord is in German: a slash command or a button answers in the
asker's client language, a chat message and the clocks in the server's; everyone else reads
English."""

from datetime import timedelta
from unittest.mock import MagicMock

import discord
import pytest
from discord import app_commands

from tests.discord.helpers import interaction, message, press, run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, GUILD, member, text_channel
from tests.discord.reading import custom_ids, only, posted, words
from twixt.discord import respond
from twixt.discord.messages import ChatMoves
from twixt.language import translation

GERMAN = discord.Locale.german
ENGLISH = discord.Locale.british_english


async def test_a_refused_move_is_said_in_the_askers_language(client, slash):
    await start_game(client, slash)
    german = only(await run(client, slash, "move", ALICE, command="A5", locale=GERMAN))
    english = only(await run(client, slash, "move", ALICE, command="A5", locale=ENGLISH))
    assert (words(german), german["ephemeral"]) == (
        "A5 liegt in der Grenzreihe von Schwarz", True)
    assert words(english) == "A5 is in Black's border row"


async def test_a_bot_named_in_an_option_is_refused_in_german(client, slash):
    robot = member(106, "robo", bot=True)
    reply = only(await run(client, slash, "challenge", ALICE, user=robot, locale=GERMAN))
    assert words(reply) == "robo ist ein Bot; Bots spielen kein TwixT"


async def test_a_button_that_is_not_yours_says_so_in_your_language(client, slash):
    challenge = only(await run(client, slash, "challenge", ALICE, user=BOB))
    accept = custom_ids(challenge)["Accept"]
    german = only(await press(client, accept, ALICE, locale=GERMAN))
    english = only(await press(client, accept, ALICE, locale=ENGLISH))
    assert words(german) == "Dieser Button ist nicht für dich."
    assert words(english) == "This button is not for you."


async def test_tree_errors_are_said_in_the_askers_language(client, slash):
    mock = interaction(client, ALICE, locale=GERMAN)
    await respond.on_app_command_error(mock, app_commands.CheckFailure())
    assert words(only(mock)) == "diesen Befehl kannst du hier nicht verwenden"

    mock = interaction(client, ALICE, command=slash["board"], locale=GERMAN)
    await respond.on_app_command_error(mock, app_commands.CommandInvokeError(
        slash["board"], RuntimeError("boom")))
    apology = words(only(mock))
    assert apology == translation("de").say(respond.APOLOGY) != str(respond.APOLOGY)

    mock = interaction(client, ALICE, locale=ENGLISH)
    await respond.on_app_command_error(mock, app_commands.CheckFailure())
    assert words(only(mock)) == "you cannot use this command here"


@pytest.mark.parametrize(("server", "said"), [
    (GERMAN, "A5 liegt in der Grenzreihe von Schwarz"),
    (ENGLISH, "A5 is in Black's border row")])
async def test_a_chat_move_is_answered_in_the_servers_language(client, slash, server, said):
    await start_game(client, slash)
    channel = text_channel()
    await ChatMoves(client.service, read_all=False).handle(
        message(ALICE, "<@555> A5", channel, guild_locale=server))
    [reply] = posted(channel)
    assert words(reply) == said


async def test_the_clocks_speak_the_servers_language(client, slash, clock, monkeypatch):
    channel = text_channel(CHANNEL)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: channel}.get)
    guild = MagicMock(spec_set=discord.Guild)
    guild.preferred_locale = GERMAN
    monkeypatch.setattr(client, "get_guild", {GUILD: guild}.get)
    await run(client, slash, "me", ALICE, dm="off")
    await start_game(client, slash, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    [reminder] = posted(channel)
    assert words(reminder).startswith(f"<@{ALICE.id}> alice, du bist in Partie 1 am Zug")


def test_a_server_the_client_does_not_know_is_spoken_to_in_english(client):
    assert client.language_of(12345) == "en"
