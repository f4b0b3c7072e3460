"""Each `/twixt` command, called through its callback over the real service and database."""

import inspect

from tests.discord.helpers import press, run, start_game, suggested
from tests.discord.people import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, member
from tests.discord.reading import custom_ids, filenames, only, pictures, words
from twixt.service.commands.options import CHALLENGE_OPTIONS, build_options


def test_challenge_and_team_take_the_options_of_a_challenge_after_their_own(slash):
    options = [option.name for option in CHALLENGE_OPTIONS]
    assert options == list(inspect.signature(build_options).parameters)
    for name, own in (("challenge", ["user"]), ("team", ["partner", "opponent1", "opponent2"])):
        assert [parameter.name for parameter in slash[name].parameters] == [*own, *options]


async def test_a_team_challenge_carries_its_options(client, slash):
    reply = only(await run(client, slash, "team", ALICE, partner=CAROL, opponent1=BOB,
                           opponent2=DAVE, size="12", swap="no"))
    assert "12×12" in words(reply) and "no swap" in words(reply)


async def test_challenge_pings_the_challenged_user_and_offers_their_buttons(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB, size="24x18",
                           rules="pp", swap="no", first="them"))
    assert words(reply).startswith(f"<@{BOB.id}> **alice** challenges bob")
    assert "24×18, pp, no swap" in words(reply)
    assert reply["ephemeral"] is False
    assert set(custom_ids(reply)) == {"Accept", "Decline"}


async def test_open_challenge_pings_nobody_and_anyone_may_accept(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE))
    assert reply["allowed_mentions"].users == []
    board = only(await press(client, custom_ids(reply)["Accept"], CAROL))
    assert "alice" in words(board) and "carol" in words(board)
    assert pictures(board) == ["attachment://board.png"] and "content" not in board


async def test_bad_option_is_one_ephemeral_line(client, slash):
    reply = only(await run(client, slash, "challenge", ALICE, user=BOB, size="99"))
    assert reply["ephemeral"] is True
    assert "\n" not in words(reply)
    assert await client.service.desk.storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_a_bot_cannot_be_challenged(client, slash):
    robot = member(999, "robot", bot=True)
    reply = only(await run(client, slash, "challenge", ALICE, user=robot))
    assert reply["ephemeral"] is True
    assert "bot" in words(reply)


async def test_team_game_starts_when_all_three_accept(client, slash):
    reply = only(await run(client, slash, "team", ALICE, partner=CAROL, opponent1=BOB,
                           opponent2=DAVE))
    assert [o.id for o in reply["allowed_mentions"].users] == [BOB.id, CAROL.id, DAVE.id]
    accept = custom_ids(reply)["Accept"]
    for player in (BOB, CAROL):
        assert "Waiting for" in words(only(await press(client, accept, player)))
    board = only(await press(client, accept, DAVE))
    assert "Game 1 on" in words(board) and filenames(board) == ["board.png"]


async def test_accept_and_decline_commands_answer_the_challenge_here(client, slash):
    await run(client, slash, "challenge", ALICE, user=BOB)
    assert "declines" in words(only(await run(client, slash, "decline", BOB)))
    await run(client, slash, "challenge", ALICE, user=BOB)
    assert "Game" in words(only(await run(client, slash, "accept", BOB)))


async def test_move_posts_one_message_with_board_notation_and_the_next_player(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command="k12"))
    assert words(reply).startswith(f"<@{BOB.id}> **alice** (Red): `K12`")
    assert [o.id for o in reply["allowed_mentions"].users] == [BOB.id]
    assert pictures(reply) == ["attachment://board.png"] and "content" not in reply
    assert filenames(reply) == ["board.png"]


async def test_swap_command(client, slash):
    await start_game(client, slash)
    await run(client, slash, "move", ALICE, command="K12")
    reply = only(await run(client, slash, "swap", BOB))
    assert "`swap`" in words(reply)


async def test_privilege_command_after_own_move_in_double_twixt(client, slash):
    reply = only(await run(client, slash, "team", ALICE, partner=CAROL, opponent1=BOB,
                           opponent2=DAVE, swap="no"))
    for player in (BOB, CAROL, DAVE):
        await press(client, custom_ids(reply)["Accept"], player)
    await run(client, slash, "move", ALICE, command="K12")
    answer = only(await run(client, slash, "privilege", ALICE))
    assert "privilege" in words(answer).lower() and answer["ephemeral"] is False


async def test_resign_asks_first_and_only_the_resigner_may_confirm(client, slash):
    await start_game(client, slash)
    ask = only(await run(client, slash, "resign", ALICE))
    assert ask["ephemeral"] is True
    confirm = custom_ids(ask)["Resign"]
    refused = only(await press(client, confirm, BOB))
    assert refused == {"content": "This button is not for you.", "ephemeral": True,
                       "allowed_mentions": refused["allowed_mentions"]}
    result = only(await press(client, confirm, ALICE))
    assert "resigned" in words(result)


async def test_move_resign_also_asks_for_confirmation(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "move", ALICE, command=" Resign "))
    assert set(custom_ids(reply)) == {"Resign"}


async def test_draw_offer_then_accept(client, slash):
    await start_game(client, slash)
    offer = only(await run(client, slash, "draw", ALICE, action="offer"))
    assert "offers a draw" in words(offer)
    assert "Draw by agreement" in words(only(await run(client, slash, "draw", BOB,
                                                 action="accept")))


async def test_draw_decline(client, slash):
    await start_game(client, slash)
    await run(client, slash, "draw", ALICE, action="offer")
    reply = only(await run(client, slash, "draw", BOB, action="decline"))
    assert "decline draw" in words(reply)


async def test_board_status_and_help(client, slash):
    await start_game(client, slash)
    board = only(await run(client, slash, "board", EVE))
    assert filenames(board) == ["board.png"] and "Game 1" in words(board)
    status = only(await run(client, slash, "status", EVE))
    assert filenames(status) == [] and "alice (Red) to move" in words(status)
    helping = only(await run(client, slash, "help", EVE))
    assert helping["ephemeral"] is True and "connect your two borders" in words(helping)


async def test_channel_manager_aborts_at_once(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "abort", EVE, manage=True))
    assert "aborted by eve" in words(reply)
    assert await client.service.desk.storage.active_game(CHANNEL) is None


async def test_players_abort_when_all_ask(client, slash):
    await start_game(client, slash)
    asking = only(await run(client, slash, "abort", ALICE))
    assert [o.id for o in asking["allowed_mentions"].users] == [BOB.id]
    assert "aborted" in words(only(await run(client, slash, "abort", BOB)))


async def test_an_onlooker_cannot_abort(client, slash):
    await start_game(client, slash)
    reply = only(await run(client, slash, "abort", EVE))
    assert reply["ephemeral"] is True
    assert await client.service.desk.storage.active_game(CHANNEL) is not None


async def test_size_autocomplete_offers_common_sizes(slash):
    assert await suggested(slash["challenge"], "size", "24") == ["24", "24x18"]
