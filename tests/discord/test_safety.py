"""What no message may do: ping more than it should, show a traceback, or leak an error."""

import asyncio
import logging
import re

import pytest
from discord import app_commands

from tests.discord.helpers import interaction, run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, EVE, GUILD, member
from tests.discord.reading import only, sent, words
from twixt.discord import replies, respond
from twixt.service import ConflictError, Reply
from twixt.service import commands as cmd


async def test_everyone_in_a_name_does_not_ping(client, slash):
    prankster = member(106, "@everyone @here")
    reply = only(await run(client, slash, "challenge", prankster, user=BOB))
    assert "@everyone" not in words(reply) and "@here" not in words(reply)
    assert "@\u200beveryone @\u200bhere" in words(reply)  # shown as typed, defused
    mentions = reply["allowed_mentions"]
    assert (mentions.everyone, mentions.roles) == (False, False)
    assert [o.id for o in mentions.users] == [BOB.id]


async def test_a_typed_mention_in_a_move_is_escaped(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command="K12 <@&123> @everyone"))
    assert reply["ephemeral"] is True
    assert "@everyone" not in words(reply) and "<@&123>" not in words(reply)


async def test_illegal_move_is_one_ephemeral_line_and_changes_nothing(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command="A5"))
    assert reply["ephemeral"] is True and "\n" not in words(reply)
    assert "border" in words(reply)
    record = await client.service.desk.storage.active_game(CHANNEL)
    assert record.version == 0


async def test_not_your_turn(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", BOB, command="K12"))
    assert (words(reply), reply["ephemeral"]) == ("it is alice's turn", True)


async def test_no_game_in_this_channel(client, slash):
    reply = only(await run(client, slash, "board", EVE))
    assert reply["ephemeral"] is True and "no game" in words(reply)


async def test_an_unexpected_error_is_logged_with_context_and_apologised_for(
        client, slash, monkeypatch, caplog):
    async def broken(ctx, text):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(client.service.turns, "move", broken)
    reply = only(await run(client, slash, "move", ALICE, command="K12"))
    assert (words(reply), reply["ephemeral"]) == (str(respond.APOLOGY), True)
    record = next(r for r in caplog.records if r.message == "command failed")
    assert record.levelno == logging.ERROR and record.exc_info
    assert (record.command, record.user_id, record.guild_id, record.channel_id) == (
        "twixt move", ALICE.id, GUILD, CHANNEL)
    assert "disk on fire" not in words(reply)


async def _slowly(client, mock, answer) -> None:
    """Serve a command whose answer (a command, or an error raised) takes longer than the
    deadline to defer."""
    async def slow():
        await asyncio.sleep(0.05)
        if isinstance(answer, Exception):
            raise answer
        return answer

    await respond.serve_interaction(mock, client.service, "test", slow)
    mock.response.defer.assert_awaited_once()
    mock.response.send_message.assert_not_awaited()


async def test_in_a_server_a_slow_call_thinks_privately(client, monkeypatch):
    """No public "thinking…" that a private answer would remove: the error fills in the
    asker's private thinking message, as Discord documents (an edit of the original)."""
    monkeypatch.setattr(respond, "DEFER_AFTER_SECONDS", 0.01)
    mock = interaction(client, ALICE)
    await _slowly(client, mock, ConflictError("no"))
    assert mock.response.defer.await_args.kwargs == {"ephemeral": True}
    assert words(mock.edit_original_response.await_args.kwargs) == "no"
    mock.delete_original_response.assert_not_awaited()
    mock.followup.send.assert_not_awaited()


async def test_in_a_server_a_slow_public_answer_replaces_the_private_thinking(client,
                                                                              monkeypatch):
    monkeypatch.setattr(respond, "DEFER_AFTER_SECONDS", 0.01)
    mock = interaction(client, ALICE)
    await _slowly(client, mock, cmd.Challenge(None))  # answered in public
    mock.delete_original_response.assert_awaited_once()
    answer = mock.followup.send.await_args.kwargs
    assert "alice" in words(answer) and answer["ephemeral"] is False


async def test_in_a_dm_a_slow_public_answer_fills_in_the_public_thinking(client, monkeypatch):
    """In a DM the thinking is public: a follow-up there may be shown to the asker alone
    and is one of five, an edit of the original is neither."""
    monkeypatch.setattr(respond, "DEFER_AFTER_SECONDS", 0.01)
    mock = interaction(client, ALICE)
    mock.guild_id = None
    await _slowly(client, mock, cmd.Challenge(None))
    assert mock.response.defer.await_args.kwargs == {"ephemeral": False}
    assert "alice" in words(mock.edit_original_response.await_args.kwargs)
    mock.followup.send.assert_not_awaited()
    mock.delete_original_response.assert_not_awaited()


async def test_tree_errors_are_ephemeral_and_never_tracebacks(client, slash, caplog):
    mock = interaction(client, ALICE)
    await respond.on_app_command_error(mock, app_commands.NoPrivateMessage())
    assert only(mock)["ephemeral"] is True

    mock = interaction(client, ALICE, command=slash["board"])
    await respond.on_app_command_error(mock, app_commands.CommandInvokeError(
        slash["board"], RuntimeError("boom")))
    assert [words(m) for m in sent(mock)] == [str(respond.APOLOGY)]
    assert any(r.message == "command error" for r in caplog.records)


MARKDOWN_NAME = ">>> **big** ||hidden|| [site](https://example.com) <t:1> ~~x~~ `c`"


async def test_a_display_name_cannot_format_or_link_in_a_public_message(client, slash):
    prankster = member(107, MARKDOWN_NAME)
    reply = only(await run(client, slash, "challenge", prankster, user=BOB))
    text = words(reply)
    unescaped = re.sub(r"\\.", "", text)
    for construct in (">>>", "**big**", "||", "[site](", "~~", "`"):
        assert construct not in unescaped, construct
    # the name keeps its marks, each escaped, so it shows as typed (cut to 32 characters)
    assert "**\\>>> \\*\\*big\\*\\* \\|\\|hidden\\|\\| \\[site]\\(ht** challenges" in text


async def test_a_name_with_a_masked_link_keeps_its_brackets_but_links_nowhere(client, slash):
    prankster = member(108, "[free](https://e.co)")
    reply = only(await run(client, slash, "challenge", prankster, user=BOB))
    assert "\\[free]\\(https //e.co)" in words(reply)  # a name holds no colon
    assert "[free](" not in words(reply)


@pytest.mark.parametrize("typed", ["[site](https://example.com)", "**big**", "# heading",
                                   "||spoiler||", "<t:1>", "-# small",
                                   "[a](https://e.co) [b](https://e.co)"])
async def test_a_refusal_shows_what_was_typed_without_formatting_it(client, slash, typed):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command=typed))
    assert reply["ephemeral"] is True
    shown = words(reply)
    for active in (r"(?<!\\)\[", r"(?<!\\)\*\*", r"(?<!\\)\|\|", r"(?<!\\)<"):
        assert not re.search(active, shown), (typed, shown)
    assert not re.match(r"\s*-?#", shown)  # a heading needs the start of a line
    assert "](" not in shown  # no masked link, however many the line holds


def test_a_masked_link_is_defused_outside_code_and_left_as_typed_inside():
    text = "**[a](https://e.co)** wrote `see [b](https://e.co)`\n```\n[c](x)\n```"
    shown = replies.content(Reply(text))
    assert shown == ("**[a]\\(https://e.co)** wrote `see [b](https://e.co)`\n"
                     "```\n[c](x)\n```")
