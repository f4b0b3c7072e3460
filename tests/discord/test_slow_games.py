"""The slow-game commands and buttons: clocks and claims, takebacks, records, ratings,
rematches and settings, over the real service and database on a controlled clock."""

import re
from datetime import timedelta
from pathlib import Path
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.discord.helpers import message, press, run, start_game, suggested
from tests.discord.people import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, member, text_channel
from tests.discord.reading import custom_ids, filenames, only, pictures, posted, words
from twixt.discord.buttons import TEMPLATE, custom_id
from twixt.discord.messages import ChatMoves
from twixt.discord.replies import message_kwargs
from twixt.discord.views import TwixtButton
from twixt.service import Button, ButtonKind, Reply
from twixt.service.model import Attachment
from twixt.storage.ratings import Rating, rate_game

GAMES = Path(__file__).resolve().parents[1] / "rules" / "data"
NOT_FOR_YOU = ("This button is not for you.", True)


def refusal(message: dict) -> tuple[str, bool]:
    return words(message), message["ephemeral"]


def attachment(filename: str, data: bytes, size: int | None = None) -> MagicMock:
    file = MagicMock(spec_set=discord.Attachment)
    file.filename = filename
    file.size = len(data) if size is None else size
    file.read = AsyncMock(return_value=data)
    return file


async def finished_game(client, slash) -> dict:
    """alice beats bob (bob resigns); the final board."""
    await start_game(client, slash)
    confirm = only(await run(client, slash, "resign", BOB))
    return only(await press(client, custom_ids(confirm)["Resign"], BOB))


@pytest.mark.parametrize("kind", list(ButtonKind))
async def test_every_button_kind_survives_its_custom_id(client, kind):
    button = Button(kind, 42, "x", (ALICE.id, 2**63 - 1))
    text = custom_id(button)
    match = re.fullmatch(TEMPLATE, text)
    assert match, text
    item = await TwixtButton.from_custom_id(
        MagicMock(spec_set=discord.Interaction), discord.ui.Button(custom_id=text, label="x"),
        match)
    assert item.button == button


# --- clocks -------------------------------------------------------------------------------


async def test_time_option_gives_a_clock_shown_after_each_turn(client, slash):
    challenge = only(await run(client, slash, "challenge", ALICE, user=BOB, time="1d12h"))
    assert "1d12h per move" in words(challenge)
    await press(client, custom_ids(challenge)["Accept"], BOB)
    reply = only(await run(client, slash, "move", ALICE, command="K12"))
    assert "bob (Black) to move. (1d 12h left)" in words(reply)


async def test_team_takes_the_time_option(client, slash):
    reply = only(await run(client, slash, "team", ALICE, partner=CAROL, opponent1=BOB,
                           opponent2=DAVE, time="7d"))
    assert "7d per move" in words(reply)


async def test_a_bad_time_is_one_ephemeral_line(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB, time="soon"))
    assert reply["ephemeral"] is True and "3d or 12h" in words(reply)


async def test_time_autocomplete_suggests_common_times(slash):
    assert await suggested(slash["challenge"], "time", "") == ["12h", "1d", "2d", "3d", "7d",
                                                               "10d+36h"]
    assert await suggested(slash["challenge"], "time", " 1") == ["12h", "1d", "10d+36h"]


async def test_claim_once_the_opponents_time_is_up(client, slash, clock):
    # no vacation: with a day left, a claim would find bob on it (test_vacations)
    await start_game(client, slash, time="1d", swap="no", vacation="no")
    await run(client, slash, "move", ALICE, command="K12")
    early = only(await run(client, slash, "claim", ALICE))
    assert refusal(early) == ("bob still has 1d 0h to move", True)
    clock.now += timedelta(days=1)
    won = only(await run(client, slash, "claim", ALICE))
    assert "alice (Red) wins on time" in words(won)
    assert await client.service.desk.storage.active_game(CHANNEL) is None


# --- takebacks ----------------------------------------------------------------------------


async def test_takeback_buttons_are_for_the_opponent(client, slash):
    await start_game(client, slash, swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    ask = only(await run(client, slash, "takeback", ALICE))
    assert words(ask).startswith(f"<@{BOB.id}> alice asks to take back `K12`.")
    buttons = custom_ids(ask)
    assert set(buttons) == {"Accept takeback", "Decline"}
    assert refusal(only(await press(client, buttons["Accept takeback"], ALICE))) == NOT_FOR_YOU
    taken = only(await press(client, buttons["Accept takeback"], BOB))
    assert words(taken).startswith(f"<@{ALICE.id}> alice's `K12` is taken back.")
    assert filenames(taken) == ["board.png"]
    assert (await client.service.channel_game(CHANNEL)).pegs_placed == 0


async def test_takeback_decline_button_and_command(client, slash):
    await start_game(client, slash, swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    ask = only(await run(client, slash, "takeback", ALICE, action="request"))
    declined = only(await press(client, custom_ids(ask)["Decline"], BOB))
    assert words(declined) == "bob declines the takeback."
    await run(client, slash, "takeback", ALICE)
    assert "declines" in words(only(await run(client, slash, "takeback", BOB,
                                        action="decline")))
    assert (await client.service.channel_game(CHANNEL)).pegs_placed == 1


# --- records ------------------------------------------------------------------------------


async def test_export_attaches_the_records_as_files(client, slash):
    await start_game(client, slash, rules="pp", swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    reply = only(await run(client, slash, "export", EVE))
    assert words(reply) == "Game 1, 1 move."
    assert filenames(reply) == ["twixt-1.twixt", "twixt-1.tsgf", "twixt-1.T1"]
    assert "embed" not in reply
    transcript = reply["files"][0].fp.read().decode()
    assert transcript.splitlines()[-1] == "alice: K12"
    one = only(await run(client, slash, "export", EVE, format="t1"))
    assert filenames(one) == ["twixt-1.T1"]


async def test_history_is_private_to_the_asker(client, slash):
    await finished_game(client, slash)
    mine = only(await run(client, slash, "history", EVE, user=ALICE))
    assert mine["ephemeral"] is True and "alice won (resignation)" in words(mine)
    here = only(await run(client, slash, "history", EVE, page=2))
    assert refusal(here) == ("Games in this channel: none on this page.", True)


async def test_a_game_of_another_channel_is_shown_to_its_player_alone(client, slash):
    await finished_game(client, slash)  # in a private channel, say
    elsewhere = CHANNEL + 1
    replay = only(await run(client, slash, "replay", BOB, game=1, channel_id=elsewhere))
    assert replay["ephemeral"] is True and filenames(replay) == ["twixt-1.gif"]
    channel = text_channel(elsewhere)
    chat = ChatMoves(client.service, read_all=False)
    await chat.handle(message(BOB, "<@555> replay #1", channel))
    sent = message(BOB, "<@555> history <@101>", channel)
    sent.mentions = [member(555, "twixt", bot=True), ALICE]
    await chat.handle(sent)
    refused, listed = posted(channel)
    assert words(refused).startswith("only you may see this, and a reply here is public")
    assert "/twixt-records replay" in words(refused) and not refused.get("files")
    assert words(listed).splitlines()[0] == "Games of alice: none."


async def test_replay_attaches_an_animation(client, slash):
    await start_game(client, slash, swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    reply = only(await run(client, slash, "replay", EVE))
    assert words(reply) == "Replay of game 1: 1 move."
    assert filenames(reply) == ["twixt-1.gif"]
    assert reply["files"][0].fp.read()[:6] == b"GIF89a"
    assert refusal(only(await run(client, slash, "replay", EVE, game=99))) == (
        "there is no such game", True)


async def test_import_reads_the_attachment_and_challenges_to_continue(client, slash):
    data = (GAMES / "game2209801.tsgf").read_bytes()
    file = attachment("game2209801.tsgf", data)
    reply = only(await run(client, slash, "import", ALICE, file=file, opponent=BOB))
    assert words(reply).startswith(f"<@{BOB.id}> game2209801.tsgf: 24x24, pp, 40 moves")
    assert filenames(reply) == ["board.png"]
    started = only(await press(client, custom_ids(reply)["Accept"], BOB))
    assert "from an imported position (40 moves)" in words(started)


async def test_import_refuses_a_big_file_before_reading_it(client, slash):
    file = attachment("huge.twixt", b"", size=256 * 1024 + 1)
    reply = only(await run(client, slash, "import", ALICE, file=file))
    assert refusal(reply) == ("huge.twixt is too big for a game record (256 KB at most)", True)
    file.read.assert_not_awaited()


async def test_import_of_a_file_discord_cannot_hand_over(client, slash):
    file = attachment("g.twixt", b"")
    file.read.side_effect = discord.NotFound(MagicMock(status=404, reason="x"), "gone")
    reply = only(await run(client, slash, "import", ALICE, file=file))
    assert refusal(reply) == ("Discord did not hand me g.twixt; attach it again", True)


# --- ratings ------------------------------------------------------------------------------


async def test_stats_of_the_asker_by_default_and_of_another_with_head_to_head(client, slash):
    await finished_game(client, slash)
    own = only(await run(client, slash, "stats", ALICE))
    assert words(own) == ("**alice**: 1 game — 1 won, 0 lost, 0 drawn; rating 1662? ±290 "
                              "(provisional) after 1 rated game.")
    other = only(await run(client, slash, "stats", BOB, user=ALICE))
    assert words(other).endswith("You against alice: 0 won, 1 lost, 0 drawn.")


async def test_leaderboard_pages(client, slash):
    await finished_game(client, slash)
    board = only(await run(client, slash, "leaderboard", EVE))
    assert words(board).splitlines()[1:] == [
        "1. alice — 1662? (1–0–0)", "2. bob — 1338? (0–1–0)",
        "? provisional: too few recent games to be sure of the rating"]
    assert words(only(await run(client, slash, "leaderboard", EVE, page=2))) == \
        "No players on this page."


async def test_stats_show_the_deviation_grown_while_away(client, slash, clock):
    await finished_game(client, slash)
    clock.now += timedelta(days=365)
    [alice], _ = rate_game([Rating()], [Rating()], 1.0, clock.now - timedelta(days=365))
    grown = alice.at(clock.now).deviation
    assert 300 < grown < 350
    own = only(await run(client, slash, "stats", ALICE))
    assert words(own).endswith(f"rating 1662? ±{grown:.0f} (provisional) after 1 rated game.")


# --- rematch and settings -----------------------------------------------------------------


async def test_rematch_button_on_the_final_board_for_its_players(client, slash):
    final = await finished_game(client, slash)
    rematch = custom_ids(final)["Rematch"]
    assert refusal(only(await press(client, rematch, EVE))) == NOT_FOR_YOU
    challenge = only(await press(client, rematch, BOB))
    assert words(challenge).startswith(f"<@{ALICE.id}> **bob** challenges alice")
    started = only(await press(client, custom_ids(challenge)["Accept"], ALICE))
    assert "**bob** (Red) vs **alice** (Black)" in words(started)


async def test_rematch_command_for_the_channels_last_game(client, slash):
    assert refusal(only(await run(client, slash, "rematch", ALICE))) == (
        "this channel has no games", True)
    await finished_game(client, slash)
    challenge = only(await run(client, slash, "rematch", ALICE))
    assert words(challenge).startswith(f"<@{BOB.id}> **alice** challenges bob")


async def test_settings_change_only_what_is_given_and_answer_privately(client, slash):
    changed = only(await run(client, slash, "me", BOB, theme="dark", dm="off"))
    assert refusal(changed) == ("Your settings: theme dark, palette normal, side any, dm off, "
                                "autolink off, confirm off, weekends on.", True)
    shown = only(await run(client, slash, "me", BOB, autolink="on"))
    assert "theme dark" in words(shown) and "autolink on" in words(shown)
    assert "theme light" in words(only(await run(client, slash, "me", EVE)))


def test_files_carry_the_bytes_under_their_names_the_board_first():
    kwargs = message_kwargs(Reply("x", image=b"png", attachments=(
        Attachment("a.twixt", b"record"), Attachment("a.gif", b"gif"))))
    assert [(f.filename, f.fp.read()) for f in kwargs["files"]] == [
        ("board.png", b"png"), ("a.twixt", b"record"), ("a.gif", b"gif")]
    assert pictures(kwargs) == ["attachment://board.png"] and "content" not in kwargs


async def test_server_settings_are_shown_to_anyone_and_changed_by_managers(client, slash):
    shown = only(await run(client, slash, "server", BOB))
    assert refusal(shown) == ("Server settings: thread no, expiry 24h, forfeit no, "
                              "reminder 24h, vacationdays 14, vacation yes, botgames 5.", True)
    refused = only(await run(client, slash, "server", BOB, manage=True, forfeit="yes"))
    assert words(refused) == "only someone who manages the server can change its settings"
    changed = only(await run(client, slash, "server", ALICE, manage_server=True, forfeit="yes",
                             reminder=12))
    assert "forfeit yes" in words(changed) and "reminder 12h" in words(changed)
