"""The buttons: who may press them, what they do, and that they outlive the process."""

from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.discord.helpers import press, run, start_game
from tests.discord.people import ALICE, BOB, CAROL, CHANNEL, DAVE, text_channel
from tests.discord.reading import custom_ids, filenames, only, words
from twixt.app.bot import discord_bot
from twixt.discord.views import custom_id
from twixt.service import Button, ButtonKind
from twixt.service import commands as cmd
from twixt.storage import SqliteStorage

THREAD = 7001  # the channel id of a game's new thread


def test_custom_id_holds_kind_target_and_users_within_discords_limit():
    snowflake = 2**63 - 1
    button = Button(ButtonKind.DECLINE_DRAW, 2**31, "x", (snowflake,) * 4)
    assert len(custom_id(button)) <= 100
    assert custom_id(Button(ButtonKind.ACCEPT_CHALLENGE, 42, "Accept")) == "twixt:accept:42"


async def test_only_the_challenged_user_may_accept(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB))
    refused = only(await press(client, custom_ids(reply)["Accept"], CAROL))
    assert (words(refused), refused["ephemeral"]) == ("This button is not for you.", True)
    assert await client.service.desk.storage.active_game(CHANNEL) is None


async def test_decline_button_by_the_challenged_user(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB))
    assert "bob declines" in words(only(await press(client, custom_ids(reply)["Decline"],
                                              BOB)))


async def test_swap_button_is_for_the_player_to_move(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command="K12"))
    swap = custom_ids(reply)["Swap"]
    assert only(await press(client, swap, ALICE))["ephemeral"] is True
    assert "`swap`" in words(only(await press(client, swap, BOB)))


async def test_privilege_button_for_the_player_who_just_moved(client, slash):
    challenge = only(await run(client, slash, "team", ALICE, partner=CAROL, opponent1=BOB,
                               opponent2=DAVE, swap="no"))
    for player in (BOB, CAROL, DAVE):
        await press(client, custom_ids(challenge)["Accept"], player)
    reply = only(await run(client, slash, "move", ALICE, command="K12"))
    called = only(await press(client, custom_ids(reply)["Privilege"], ALICE))
    assert called["ephemeral"] is False and "privilege" in words(called).lower()


async def test_draw_buttons_for_the_side_offered_to(client, slash):
    await start_game(client, slash)
    offer = only(await run(client, slash, "draw", ALICE, action="offer"))
    buttons = custom_ids(offer)
    assert only(await press(client, buttons["Accept draw"], ALICE))["ephemeral"] is True
    assert "decline draw" in words(only(await press(client, buttons["Decline draw"],
                                              BOB)))
    again = only(await run(client, slash, "draw", ALICE, action="offer"))
    assert "Draw by agreement" in words(only(await press(client, custom_ids(again)["Accept draw"],
                                                   BOB)))


async def test_a_button_of_a_finished_game_says_so(client, slash):
    await start_game(client, slash)
    offer = only(await run(client, slash, "draw", ALICE, action="offer"))
    await run(client, slash, "abort", CAROL, manage=True)
    reply = only(await press(client, custom_ids(offer)["Accept draw"], BOB))
    assert reply["ephemeral"] is True and "over" in words(reply)


async def test_buttons_of_an_old_message_work_after_a_restart(settings, slash, client, clock):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB))
    old_accept = custom_ids(reply)["Accept"]
    await client.service.desk.storage.close()

    async with await SqliteStorage.open(settings.database) as storage:
        restarted = discord_bot(settings, storage, clock=clock)
        assert only(await press(restarted, old_accept, CAROL))["ephemeral"] is True
        board = only(await press(restarted, old_accept, BOB))
        assert "Game 1 on" in words(board)
        assert await storage.active_game(CHANNEL) is not None


@pytest.mark.parametrize("server, name", [
    (discord.Locale.american_english, "TwixT: alice vs bob"),
    (discord.Locale.german, "TwixT: alice gegen bob"),  # in the server's language
    (discord.Locale.latin_american_spanish, "TwixT: alice contra bob"),
])
async def test_thread_yes_opens_a_public_thread_for_the_game(client, slash, monkeypatch,
                                                             server, name):
    channel = text_channel()
    channel.guild = MagicMock(spec_set=discord.Guild)
    channel.guild.preferred_locale = server
    thread = MagicMock(spec_set=discord.Thread)
    thread.id = THREAD
    channel.create_thread = AsyncMock(return_value=thread)
    thread_channel = text_channel(THREAD)
    channels = {CHANNEL: channel, THREAD: thread_channel}
    monkeypatch.setattr(client, "get_channel", channels.get)

    reply = only(await run(client, slash, "challenge", ALICE, user=BOB, thread="yes"))
    pressed = await press(client, custom_ids(reply)["Accept"], BOB)

    channel.create_thread.assert_awaited_once_with(
        name=name, type=discord.ChannelType.public_thread)
    assert "its own thread" in words(only(pressed))
    board = thread_channel.send.await_args.kwargs
    assert words(board).startswith(f"<@{ALICE.id}> Game 1 on")
    assert filenames(board) == ["board.png"]


async def test_a_thread_refused_by_discord_is_one_ephemeral_line(client, slash, monkeypatch):
    channel = text_channel()
    forbidden = discord.Forbidden(AsyncMock(status=403, reason="Forbidden"), "no")
    channel.create_thread = AsyncMock(side_effect=forbidden)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: channel}.get)
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB, thread="yes"))
    refused = only(await press(client, custom_ids(reply)["Accept"], BOB))
    assert refused["ephemeral"] is True and "Create Public Threads" in words(refused)


@pytest.fixture
def executed(client, monkeypatch) -> list[object]:
    """Every command the service executes, in order (the real `execute` does the work)."""
    commands: list[object] = []
    execute = client.service.execute

    async def recording(request, command):
        commands.append(command)
        return await execute(request, command)

    monkeypatch.setattr(client.service, "execute", recording)
    return commands


async def test_accept_and_decline_buttons_are_commands_executed_as_typed_ones_are(
        client, slash, executed):
    first = only(await run(client, slash, "challenge", ALICE, user=BOB))
    assert "bob declines" in words(only(await press(client, custom_ids(first)["Decline"],
                                              BOB)))
    second = only(await run(client, slash, "challenge", ALICE, user=BOB))
    assert "Game 1 on" in words(only(await press(client, custom_ids(second)["Accept"],
                                           BOB)))
    assert executed[1::2] == [cmd.AnswerChallenge("decline", 1),
                              cmd.AnswerChallenge("accept", 2)]


async def test_a_rematch_button_is_a_command_executed_as_a_typed_one_is(client, slash, executed):
    await start_game(client, slash, swap="no")
    ask = only(await run(client, slash, "resign", ALICE))
    over = only(await press(client, custom_ids(ask)["Resign"], ALICE))
    again = only(await press(client, custom_ids(over)["Rematch"], BOB))
    assert "**bob** challenges alice" in words(again)
    assert executed[-1] == cmd.Rematch(1)
