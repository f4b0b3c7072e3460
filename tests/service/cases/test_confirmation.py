"""`settings confirm on`: a move is shown to its player alone first, and played only when
confirmed — on the game as it stood then, after a restart too; over a real SQLite file."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace

import pytest
from PIL import Image

from tests.service.helpers import press, start_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, asking
from tests.typed import enter
from twixt.service import ButtonKind, Reply, ServiceError, TwixtService
from twixt.service import errors as kinds
from twixt.service.commands import router
from twixt.service.service import answer_safely
from twixt.storage import SqliteStorage


async def _confirming(service: TwixtService, *users) -> None:
    for user in users:
        await enter(service, asking(user), "settings confirm on")


async def _refusal(call) -> tuple[type[ServiceError], str]:
    """What `call` is refused with: its kind and its words."""
    with pytest.raises(ServiceError) as refused:
        await call
    return type(refused.value), str(refused.value)


def _confirm_button(reply: Reply):
    [button] = reply.buttons
    assert button.kind is ButtonKind.CONFIRM_MOVE
    return button


async def _log(service: TwixtService) -> list[str]:
    stored = await service.desk.storage.active_game(CHANNEL)
    return [entry.command for entry in (await service.desk.storage.load_game(stored.id)).turns]


async def test_confirm_is_off_by_default_and_a_move_plays_at_once(service):
    await start_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "K10")
    assert not reply.ephemeral
    assert ButtonKind.CONFIRM_MOVE not in [b.kind for b in reply.buttons]
    assert await _log(service) == ["K10"]
    assert "confirm off" in (await enter(service, asking(ALICE), "settings")).plain


async def test_a_shown_move_changes_nothing_until_it_is_confirmed(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    shown = await enter(service, asking(ALICE), "K10 link all")
    assert shown.ephemeral and not shown.mentions
    assert shown.plain.startswith("Your move in game 1: `K10`, not played yet.")
    assert Image.open(io.BytesIO(shown.image)).size[0] > 0
    button = _confirm_button(shown)
    assert (button.label, button.only_users) == ("Confirm", (ALICE.id,))
    assert await _log(service) == []
    assert "Moves: 0" in (await enter(service, asking(BOB), "status")).plain

    played = await press(service, asking(ALICE), button.kind, button.target)
    assert not played.ephemeral and played.mentions == (BOB.id,)
    assert played.plain.startswith("**alice** (Red): `K10`")
    assert await _log(service) == ["K10"]


async def test_the_move_shown_is_the_move_played_links_included(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await enter(service, asking(BOB), "C12")
    await enter(service, asking(ALICE), "settings confirm on autolink on")
    shown = await enter(service, asking(ALICE), "L12")
    assert "`L12 link K10`" in shown.plain
    await enter(service, asking(ALICE), "confirm")
    assert (await _log(service))[-1] == "L12 link K10"


async def test_an_illegal_move_is_refused_before_anything_is_kept(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE, BOB)
    assert await _refusal(enter(service, asking(ALICE), "A5")) == (
        kinds.ConflictError, "A5 is in Black's border row")
    assert await _refusal(enter(service, asking(BOB), "K10")) == (
        kinds.NotYourTurnError, "it is alice's turn")
    assert await _refusal(enter(service, asking(CAROL), "K10")) == (
        kinds.NotAllowedError, "you are not playing in this game")
    assert await _refusal(enter(service, asking(ALICE), "confirm")) == (
        kinds.MissingError, "you have no move waiting for confirmation here")


async def test_a_move_is_refused_once_the_game_changed_since_it_was_shown(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await _confirming(service, BOB)
    shown = await enter(service, asking(BOB), "C12")
    await enter(service, asking(ALICE), "offer draw")  # a turn in the log meanwhile
    button = _confirm_button(shown)
    assert await _refusal(press(service, asking(BOB), button.kind, button.target)) == (
        kinds.ConflictError, "the game has changed since your move was shown: play it again")
    assert await _log(service) == ["K10", "offer draw"]
    # refused once, it is gone: shown again, it plays
    assert await _refusal(enter(service, asking(BOB), "confirm")) == (
        kinds.MissingError, "you have no move waiting for confirmation here")
    await enter(service, asking(BOB), "C12")
    await enter(service, asking(BOB), "confirm")
    assert await _log(service) == ["K10", "offer draw", "C12"]


async def test_a_newer_move_replaces_the_one_shown_before(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    older = _confirm_button(await enter(service, asking(ALICE), "K10"))
    newer = _confirm_button(await enter(service, asking(ALICE), "J10"))
    assert older.target != newer.target
    assert await _refusal(press(service, asking(ALICE), older.kind, older.target)) == (
        kinds.ConflictError, "this move was replaced by a newer one: confirm that one")
    await press(service, asking(ALICE), newer.kind, newer.target)
    assert await _log(service) == ["J10"]


async def test_only_the_player_confirms_their_move_and_only_once(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    button = _confirm_button(await enter(service, asking(ALICE), "K10"))
    assert await _refusal(press(service, asking(BOB), button.kind, button.target)) == (
        kinds.MissingError, "you have no move waiting for confirmation here")
    assert await _log(service) == []
    await press(service, asking(ALICE), button.kind, button.target)
    assert await _refusal(press(service, asking(ALICE), button.kind, button.target)) == (
        kinds.MissingError, "you have no move waiting for confirmation here")
    assert await _log(service) == ["K10"]


async def test_a_swap_is_shown_first_and_a_draw_offer_is_not(service):
    await start_game(service)
    await enter(service, asking(ALICE), "K10")
    await _confirming(service, BOB)
    offered = await enter(service, asking(BOB), "offer draw")
    assert not offered.ephemeral and "Black offers a draw." in offered.plain
    swap = await press(service, asking(BOB), ButtonKind.SWAP, 1)
    assert swap.ephemeral and "`swap`" in swap.plain
    assert await _log(service) == ["K10", "offer draw"]
    await enter(service, asking(BOB), "confirm")
    assert await _log(service) == ["K10", "offer draw", "swap"]


async def test_a_shown_move_is_confirmed_after_a_restart(tmp_path, clock):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        service = TwixtService(storage, clock=clock)
        await start_game(service, swap="no")
        await _confirming(service, ALICE)
        button = _confirm_button(await enter(service, asking(ALICE), "K10"))
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        restarted = TwixtService(storage, clock=clock)
        played = await press(restarted, asking(ALICE), button.kind, button.target)
        assert played.plain.startswith("**alice** (Red): `K10`")
        assert await _log(restarted) == ["K10"]


async def test_a_move_typed_in_chat_is_not_shown_in_public_nor_played(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    chat = replace(asking(ALICE), private_replies=False)
    heard = await service.hear(chat, router.read_command("K10"), {})
    assert heard is not None and heard.refused and heard.plain == (
        "you have confirm on, and a reply here is public: play with `/twixt move` to see your "
        "move first (or `settings confirm off`)")
    assert await _log(service) == []
    assert await service.desk.storage.pending_move(1, ALICE.id) is None


async def test_a_confirmation_typed_in_chat_plays_the_move_shown(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    await enter(service, asking(ALICE), "K10")
    played = await enter(service, replace(asking(ALICE), private_replies=False), "confirm")
    assert played.plain.startswith("**alice** (Red): `K10`")


async def test_two_presses_at_once_play_the_move_once(service):
    await start_game(service, swap="no")
    await _confirming(service, ALICE)
    button = _confirm_button(await enter(service, asking(ALICE), "K10"))
    presses = [asyncio.create_task(answer_safely(
        press(service, asking(ALICE), button.kind, button.target), {})) for _ in range(2)]
    replies = await asyncio.gather(*presses)
    # the second finds the move played: there is no move waiting any more
    assert {reply.refused for reply in replies} == {None, kinds.MissingError}
    assert await _log(service) == ["K10"]


async def test_a_stored_reply_is_played_without_asking_its_owner_to_confirm(service):
    """It was stored on purpose, and checked then; confirm is for moves typed now."""
    await start_game(service, swap="no", size="12")
    await enter(service, asking(ALICE), "F5")
    await enter(service, asking(BOB), "E5")
    await _confirming(service, ALICE, BOB)
    await enter(service, asking(BOB), "if H9 then G6")
    shown = await enter(service, asking(ALICE), "H9")
    assert shown.ephemeral and "G6" not in shown.plain  # the preview plays nothing
    assert await _log(service) == ["F5", "E5"]
    played = await enter(service, asking(ALICE), "confirm")
    assert "bob answers at once with a stored move:\n**bob** (Black): `G6`" in played.plain
    assert await _log(service) == ["F5", "E5", "H9", "G6"]
    assert await service.desk.storage.pending_move(1, BOB.id) is None
