"""The board message in Components V2: one container of text, picture, picker and buttons,
the accent of the player to move, a stamp of its position; a press under a board the game
has moved on from is answered at once that it is old, and does nothing."""

from __future__ import annotations

import discord

from tests.discord.helpers import press, received, run, start_game
from tests.discord.people import ALICE, BOB
from tests.discord.reading import custom_ids, filenames, only, pictures, words
from twixt.discord.board import ACCENTS
from twixt.rules import Colour


def _container(message: dict) -> discord.ui.Container:
    [container] = message["view"].children
    assert isinstance(container, discord.ui.Container)
    return container


async def test_the_board_is_one_container_in_the_colour_of_the_player_to_move(client, slash):
    board = await start_game(client, slash, swap="no")
    assert "content" not in board and "embed" not in board
    assert message_flags(board).components_v2
    container = _container(board)
    assert container.accent_colour == ACCENTS[Colour.RED]
    assert filenames(board) == ["board.png"] and pictures(board) == ["attachment://board.png"]
    assert words(board).startswith(f"<@{ALICE.id}>") and "alice" in words(board)
    assert {"Resign", "Offer draw"} <= set(custom_ids(board))
    selects = [item for item in container.walk_children()
               if isinstance(item, discord.ui.DynamicItem)
               and isinstance(item.item, discord.ui.Select)]
    assert selects and selects[0].item.custom_id.startswith("twixt-pick:col:1:")
    assert board["view"].total_children_count <= 40
    assert container.id == 1  # no turn played yet: the stamp is the turns plus one
    moved = only(await run(client, slash, "move", ALICE, command="K12"))
    assert _container(moved).accent_colour == ACCENTS[Colour.BLACK]
    assert _container(moved).id == 2


def message_flags(message: dict) -> discord.MessageFlags:
    """The flags discord.py sends with a message made of these keyword arguments."""
    with discord.http.handle_message_parameters(view=message["view"]) as params:
        return discord.MessageFlags._from_value(params.payload["flags"])


async def test_a_button_under_an_old_board_says_so_at_once_and_does_nothing(client, slash):
    old = await start_game(client, slash, swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    said = only(await press(client, custom_ids(old)["Resign"], BOB, pressed=received(old)))
    assert (words(said), said["ephemeral"]) == (
        "This board is old: the game has moved on since. Use the newest board.", True)
    assert "view" not in said  # no question to resign: nothing was done
    assert (await client.service.game_view(1)).active


async def test_the_newest_board_works_and_the_one_before_it_is_old(client, slash):
    """A draw offered from a board is a turn of its own: its answer is the newest board."""
    await start_game(client, slash, swap="no")
    board = only(await run(client, slash, "move", ALICE, command="K12"))
    offered = only(await press(client, custom_ids(board)["Offer draw"], ALICE,
                               pressed=received(board)))
    assert "offers a draw" in words(offered) and pictures(offered)
    asked = only(await press(client, custom_ids(offered)["Resign"], BOB,
                             pressed=received(offered)))
    assert words(asked).startswith("Really resign") and asked["ephemeral"]
    old = only(await press(client, custom_ids(board)["Resign"], BOB, pressed=received(board)))
    assert words(old).startswith("This board is old") and old["ephemeral"]


async def test_a_private_step_updates_the_message_pressed(client, slash):
    """The Next game button on a private answer: the next answer takes its place."""
    await start_game(client, slash, swap="no")
    first = only(await run(client, slash, "next", ALICE))
    assert first["ephemeral"] and "Next game" in custom_ids(first)
    pressed = await press(client, custom_ids(first)["Next game"], ALICE,
                          pressed=received(first, ephemeral=True))
    assert pressed.response.edit_message.await_count == 1
    assert pressed.response.send_message.await_count == 0
    # alice's one game was shown already: the answer says so, in the same message
    assert words(only(pressed)) == "No game is waiting for your move."
