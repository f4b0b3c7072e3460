"""Moves in chat: `@bot G6` always, plain `G6` only with the Message Content setting."""

import pytest

from tests.discord.helpers import message, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, EVE, member, text_channel
from tests.discord.reading import custom_ids, filenames, posted, words
from twixt.discord.messages import ChatMoves


@pytest.fixture
def channel():
    return text_channel()


async def test_a_message_mentioning_the_bot_plays_the_move(client, slash, channel):
    await start_game(client, slash)
    chat = ChatMoves(client.service, read_all=False)
    await chat.handle(message(ALICE, "<@555> K12 ", channel))
    [reply] = posted(channel)
    assert words(reply).startswith(f"<@{BOB.id}> **alice** (Red): `K12`")
    assert filenames(reply) == ["board.png"] and "reference" not in reply


async def test_an_error_to_a_mention_is_a_reply_to_the_message(client, slash, channel):
    chat = ChatMoves(client.service, read_all=False)
    sent = message(ALICE, "<@!555> K12", channel)
    await chat.handle(sent)
    [reply] = posted(channel)
    assert reply["reference"] is sent and "no game" in words(reply)
    assert reply["allowed_mentions"].users == []


async def test_a_bare_mention_gets_the_help(client, channel):
    await ChatMoves(client.service, read_all=False).handle(message(EVE, "<@555>", channel))
    assert "TwixT" in words(posted(channel)[0])


async def test_a_mention_names_a_player_in_a_chat_command(client, channel):
    sent = message(ALICE, "<@555> challenge <@102> size 12", channel)
    sent.mentions = [member(555, "twixt", bot=True), BOB]
    await ChatMoves(client.service, read_all=False).handle(sent)
    [reply] = posted(channel)
    assert words(reply).startswith(f"<@{BOB.id}> **alice** challenges bob to TwixT (12×12")
    assert set(custom_ids(reply)) == {"Accept", "Decline"}


async def test_a_player_named_without_a_mention_is_refused(client, channel):
    sent = message(ALICE, "<@555> challenge bob", channel)
    sent.mentions = []
    await ChatMoves(client.service, read_all=False).handle(sent)
    [reply] = posted(channel)
    assert reply["reference"] is sent
    assert words(reply) == "mention the player (@name) instead of writing “bob”"
    assert await client.service.desk.storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_import_in_chat_asks_for_the_slash_command(client, channel):
    await ChatMoves(client.service, read_all=False).handle(
        message(ALICE, "<@555> import game.twixt", channel))
    assert words(posted(channel)[0]) == "attach the record: /twixt-records import with a file"


async def test_resign_in_chat_asks_for_confirmation(client, slash, channel):
    await start_game(client, slash)
    await ChatMoves(client.service, read_all=True).handle(message(ALICE, "resign", channel))
    [reply] = posted(channel)
    assert set(custom_ids(reply)) == {"Resign"}
    assert await client.service.desk.storage.active_game(CHANNEL) is not None


async def test_plain_moves_are_read_with_message_content_on(client, slash, channel):
    await start_game(client, slash)
    await ChatMoves(client.service, read_all=True).handle(message(ALICE, "K12", channel))
    assert "`K12`" in words(posted(channel)[0])


async def test_plain_moves_are_ignored_with_message_content_off(client, slash, channel):
    await start_game(client, slash)
    await ChatMoves(client.service, read_all=False).handle(message(ALICE, "K12", channel))
    channel.send.assert_not_awaited()
    assert (await client.service.desk.storage.active_game(CHANNEL)).version == 0


@pytest.mark.parametrize("who, text", [
    (ALICE, "good luck, have fun"),  # not a command: chat stays chat
    (EVE, "K12"),                    # a command, but from an onlooker
    (member(556, "otherbot", bot=True), "<@555> K12"),  # bots are never answered
])
async def test_other_messages_get_no_answer(client, slash, channel, who, text):
    await start_game(client, slash)
    await ChatMoves(client.service, read_all=True).handle(message(who, text, channel))
    channel.send.assert_not_awaited()


async def test_a_seated_players_illegal_move_is_answered(client, slash, channel):
    await start_game(client, slash)
    sent = message(BOB, "K12", channel)
    await ChatMoves(client.service, read_all=True).handle(sent)
    [reply] = posted(channel)
    assert reply["reference"] is sent and words(reply) == "it is alice's turn"


async def test_chat_that_cannot_be_read_for_a_database_fault_stays_unanswered(
        client, slash, channel, caplog):
    """Whether plain chat is a seated player's move needs the database; when it cannot be
    read, the chat gets no answer (it may be only chat) and the cause is logged once."""
    await start_game(client, slash)
    await client.service.desk.storage.close()  # every query now fails
    await ChatMoves(client.service, read_all=True).handle(message(ALICE, "K12", channel))
    assert posted(channel) == []
    assert [r.message for r in caplog.records if r.name == "twixt.service.service"] == [
        "chat not read"]


async def test_a_public_refusal_echoes_masked_links_as_typed_and_links_nowhere(client, channel):
    """`@bot [a](…) [b](…)`: the public "I don't understand" shows both links typed out."""
    await ChatMoves(client.service, read_all=False).handle(
        message(EVE, "<@555> [a](https://e.co) [b](https://e.co)", channel))
    [reply] = posted(channel)
    assert "\\[a]\\(https://e.co) \\[b]\\(https://e.co)" in words(reply)
    assert "](" not in words(reply)
