"""`/twixt if`: conditional moves stored and shown privately, played at once in the channel,
a dropped reply told by direct message, and never echoed where the channel reads."""

import pytest

from tests.discord.helpers import message, run, start_game
from tests.discord.people import ALICE, BOB, dm_user, member, text_channel
from tests.discord.reading import filenames, only, posted, words
from twixt.discord.messages import ChatMoves


@pytest.fixture
async def game(client, slash):
    """alice F5, bob E5 on a 12×12 board: alice is to move."""
    await start_game(client, slash, size="12", swap="no")
    await run(client, slash, "move", ALICE, command="F5")
    await run(client, slash, "move", BOB, command="E5")


async def test_stored_moves_are_answered_privately(client, slash, game):
    stored = only(await run(client, slash, "if", BOB,
                            moves="H9 then G6 link E5; if J10 then K8"))
    assert stored["ephemeral"] is True and "files" not in stored
    assert words(stored).endswith("```\nif H9 then G6 link E5\nif J10 then K8\n```")
    shown = only(await run(client, slash, "if", BOB))
    assert shown["ephemeral"] is True and "if J10 then K8" in words(shown)
    cleared = only(await run(client, slash, "if", BOB, moves="clear"))
    assert cleared == {**cleared, "ephemeral": True,
                       "content": "Your conditional moves in game 1 are cleared."}


async def test_a_refused_line_is_private_too(client, slash, game):
    refused = only(await run(client, slash, "if", BOB, moves="if F5 then G6"))
    assert refused["ephemeral"] is True
    assert words(refused) == "“if F5 then G6”: F5 is already taken"


async def test_the_reply_is_played_in_the_same_message_under_one_board(client, slash, game):
    await run(client, slash, "if", BOB, moves="if H9 then G6 link E5")
    played = only(await run(client, slash, "move", ALICE, command="H9"))
    assert played["ephemeral"] is False and filenames(played) == ["board.png"]
    assert words(played) == (
        f"<@{ALICE.id}> **alice** (Red): `H9`\nbob answers at once with a stored move:\n"
        "**bob** (Black): `G6 link E5`\nalice (Red) to move.")
    assert [user.id for user in played["allowed_mentions"].users] == [ALICE.id]


async def test_a_dropped_reply_is_told_by_direct_message_only(client, slash, game, monkeypatch):
    bob = dm_user(BOB.id)
    monkeypatch.setattr(client, "get_user", {BOB.id: bob}.get)
    await run(client, slash, "if", BOB, moves="if G7 then G6 link E5")
    played = only(await run(client, slash, "move", ALICE, command="G7 link F5"))
    assert "G6" not in words(played) and words(played).endswith("bob (Black) to move.")
    [notice] = posted(bob)
    assert words(notice).startswith("Your stored reply `G6 link E5` to alice's `G7 link F5`")


async def test_in_chat_they_are_refused_and_not_echoed(client, slash, game):
    channel = text_channel()
    chat = ChatMoves(client.service, read_all=True)
    # a line the bot cannot read is refused the same way: saying why would repeat it
    for text in ("if H9 then G6 link E5", "<@555> if H9 then G6 link E5", "<@555> if",
                 "<@555> if H9 then G6 link nowhere"):
        await chat.handle(message(BOB, text, channel))
    replies = posted(channel)
    assert len(replies) == 4
    for reply in replies:
        assert "/twixt if" in words(reply) and "G6" not in words(reply)
    assert "no conditional moves" in words(only(await run(client, slash, "if", BOB)))


async def test_a_reply_dropped_after_a_chat_move_goes_to_the_owner_not_the_channel(
        client, slash, game):
    channel = text_channel()
    sent = message(ALICE, "G7 link F5", channel)
    bob = member(BOB.id, "bob")
    sent.guild.get_member.return_value = bob
    await run(client, slash, "if", BOB, moves="if G7 then G6 link E5")
    await ChatMoves(client.service, read_all=True).handle(sent)
    [move] = posted(channel)
    assert "G6" not in words(move)
    [notice] = posted(bob)
    assert "could not be played" in words(notice)
    sent.guild.get_member.assert_called_once_with(BOB.id)
