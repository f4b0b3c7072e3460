"""Each player in their Discord's language (German, French, Spanish of Spain or of Latin
America, Dutch): a slash command or a button answers in the asker's client language, a chat
message and the clocks in the server's; everyone else reads English."""

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
#: a refused move (A5 in Black's border row) in each of Discord's locales the bot speaks
BORDER_ROW = {
    GERMAN: "A5 liegt in der Grenzreihe von Schwarz",
    discord.Locale.french: "A5 est dans la rangée de bord de Noir",
    discord.Locale.spain_spanish: "A5 está en la fila de borde de Negro",
    discord.Locale.latin_american_spanish: "A5 está en la fila de borde de Negro",
    discord.Locale.dutch: "A5 ligt in de randrij van Zwart",
    ENGLISH: "A5 is in Black's border row",
    discord.Locale.brazil_portuguese: "A5 is in Black's border row",
}


@pytest.mark.parametrize(("locale", "said"), BORDER_ROW.items())
async def test_a_refused_move_is_said_in_the_askers_language(client, slash, locale, said):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command="A5", locale=locale))
    assert (words(reply), reply["ephemeral"]) == (said, True)


async def test_a_bot_named_in_an_option_is_refused_in_german(client, slash):
    robot = member(106, "robo", bot=True)
    reply = only(await run(client, slash, "challenge", ALICE, user=robot, locale=GERMAN))
    assert words(reply) == "robo ist ein Bot; Bots spielen kein TwixT"


async def test_a_button_that_is_not_yours_says_so_in_your_language(client, slash):
    challenge = only(await run(client, slash, "challenge", ALICE, user=BOB))
    accept = custom_ids(challenge)["Accept"]
    said = {locale: words(only(await press(client, accept, ALICE, locale=locale)))
            for locale in (GERMAN, discord.Locale.french, discord.Locale.latin_american_spanish,
                           discord.Locale.dutch, ENGLISH)}
    assert list(said.values()) == [
        "Dieser Button ist nicht für dich.", "Ce bouton n'est pas pour toi.",
        "Este botón no es para ti.", "Deze knop is niet voor jou.",
        "This button is not for you."]


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


@pytest.mark.parametrize(("server", "said"), BORDER_ROW.items())
async def test_a_chat_move_is_answered_in_the_servers_language(client, slash, server, said):
    await start_game(client, slash)
    channel = text_channel()
    await ChatMoves(client.service, read_all=False).handle(
        message(ALICE, "<@555> A5", channel, guild_locale=server))
    [reply] = posted(channel)
    assert words(reply) == said


@pytest.mark.parametrize(("server", "said"), [
    (GERMAN, "alice, du bist in Partie 1 am Zug"),
    (discord.Locale.dutch, "alice, jij bent aan zet in partij 1")])
async def test_the_clocks_speak_the_servers_language(client, slash, clock, monkeypatch,
                                                     server, said):
    channel = text_channel(CHANNEL)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: channel}.get)
    guild = MagicMock(spec_set=discord.Guild)
    guild.preferred_locale = server
    monkeypatch.setattr(client, "get_guild", {GUILD: guild}.get)
    await run(client, slash, "me", ALICE, dm="off")
    await start_game(client, slash, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    [reminder] = posted(channel)
    assert words(reminder).startswith(f"<@{ALICE.id}> {said}")


def test_a_server_the_client_does_not_know_is_spoken_to_in_english(client):
    assert client.language_of(12345) == "en"
