"""`/twixt games`, `/twixt note`, `/twixt notes` and `/twixt-settings me confirm:on` with
spec'd Discord mocks over the real service and a real SQLite file: answers only the asker
sees, channel links that ping nobody, and a Confirm button that outlives the process."""

from __future__ import annotations

import re

import pytest

from tests.discord.helpers import message, press, run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, text_channel
from tests.discord.reading import custom_ids, filenames, only, posted, words
from twixt.discord.messages import ChatMoves
from twixt.discord.respond import NOT_FOR_YOU


async def _confirming(client, slash, user) -> None:
    assert "confirm on" in words(only(await run(client, slash, "me", user, confirm="on")))


async def test_my_games_are_for_my_eyes_and_link_their_channel(client, slash):
    await start_game(client, slash, swap="no", time="2d")
    await start_game(client, slash, channel_id=800)
    reply = only(await run(client, slash, "games", ALICE, channel_id=900))
    assert reply["ephemeral"] is True
    assert reply["allowed_mentions"].users == []
    assert words(reply).splitlines()[1:] == [
        f"#1 vs bob — your turn (2d 0h left) · <#{CHANNEL}>",
        "#2 vs bob — your turn · <#800>"]
    beyond = only(await run(client, slash, "games", ALICE, page=2))
    assert words(beyond).endswith("None on this page.")


async def test_a_note_is_kept_and_shown_privately_with_nothing_in_it_pinging(client, slash):
    await start_game(client, slash)
    kept = only(await run(client, slash, "note", ALICE, text="@everyone <@102> **look** E5"))
    assert kept["ephemeral"] is True and "Note 1 kept on game 1" in words(kept)
    shown = only(await run(client, slash, "notes", ALICE))
    mentions = shown["allowed_mentions"]
    assert shown["ephemeral"] is True and (mentions.users, mentions.everyone) == ([], False)
    # in a code span, so shown as typed: no bold, no mention, no link
    line = words(shown).splitlines()[-1]
    assert line.startswith("1. 2026-01-01 12:00 UTC: `@") and line.endswith("<@102> **look** E5`")
    assert "@everyone" not in line
    cleared = only(await run(client, slash, "notes", ALICE, clear="yes"))
    assert words(cleared) == "1 note on game 1 cleared."


async def test_a_note_on_a_game_elsewhere_by_its_number(client, slash):
    await start_game(client, slash)
    only(await run(client, slash, "note", ALICE, text="from afar", game=1, channel_id=900))
    assert "`from afar`" in words(only(await run(client, slash, "notes", ALICE, game=1,
                                           channel_id=900)))
    refused = only(await run(client, slash, "notes", BOB, game=7))
    assert (words(refused), refused["ephemeral"]) == ("there is no such game", True)


async def test_a_confirm_button_plays_the_move_shown_only_for_its_player(client, slash):
    await start_game(client, slash, swap="no")
    await _confirming(client, slash, ALICE)
    shown = only(await run(client, slash, "move", ALICE, command="K12"))
    assert shown["ephemeral"] is True and filenames(shown) == ["board.png"]
    assert "`K12`, not played yet" in words(shown)
    confirm = custom_ids(shown)["Confirm"]
    # everything a press needs is in the custom id: the move's id, and who may press
    parts = re.fullmatch(r"twixt:move-confirm:(\d+):([0-9a-z]+)", confirm)
    assert parts is not None and int(parts[2], 36) == ALICE.id
    assert (await client.service.desk.storage.active_game(CHANNEL)).version == 0

    refused = only(await press(client, confirm, BOB))
    assert (words(refused), refused["ephemeral"]) == (str(NOT_FOR_YOU), True)
    played = only(await press(client, confirm, ALICE))
    assert played["ephemeral"] is False
    assert words(played).startswith(f"<@{BOB.id}> **alice** (Red): `K12`")
    again = only(await press(client, confirm, ALICE))
    assert again["ephemeral"] is True and "no move waiting" in words(again)
    assert (await client.service.desk.storage.active_game(CHANNEL)).version == 1


async def test_a_move_in_chat_with_confirm_on_points_to_the_slash_command(client, slash):
    await start_game(client, slash, swap="no")
    await _confirming(client, slash, ALICE)
    channel = text_channel()
    sent = message(ALICE, "K12", channel)
    await ChatMoves(client.service, read_all=True).handle(sent)
    [reply] = posted(channel)
    assert reply["reference"] is sent and "/twixt move" in words(reply)
    assert "files" not in reply and "view" not in reply
    assert (await client.service.desk.storage.active_game(CHANNEL)).version == 0


@pytest.mark.parametrize("text", ["notes", "games", "note my secret plan"])
async def test_private_answers_are_refused_in_chat(client, slash, text):
    await start_game(client, slash)
    channel = text_channel()
    await ChatMoves(client.service, read_all=False).handle(message(ALICE, f"<@555> {text}",
                                                                   channel))
    [reply] = posted(channel)
    assert "a reply here is public" in words(reply) and "secret" not in words(reply)



async def test_a_page_of_notes_fits_a_discord_message_mentions_escaped(client, slash):
    await start_game(client, slash)
    for _ in range(4):
        only(await run(client, slash, "note", ALICE, text="@here " * 116))
    first = words(only(await run(client, slash, "notes", ALICE)))
    assert "(page 1 of 2)" in first and len(first) <= 2000
    assert len(words(only(await run(client, slash, "notes", ALICE, page=2)))) <= 2000
