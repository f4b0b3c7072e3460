"""Playing through the service: turns, buttons, draws, resignation, abort, races, restarts."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from tests.service.helpers import press, start_game, start_team_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.typed import enter
from twixt import rendering
from twixt.service import (
    Button,
    ButtonKind,
    Port,
    Reply,
    ServiceError,
    TwixtService,
    build_options,
)
from twixt.service import errors as kinds
from twixt.service.desk import desk as desk_module
from twixt.storage import Result


async def test_a_turn_answers_with_the_notation_the_board_and_one_mention(service):
    await start_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "k10")
    assert reply.plain == "**alice** (Red): `K10`\nbob (Black) to move."
    assert reply.mentions == (BOB.id,)
    assert Image.open(io.BytesIO(reply.image)).format == "PNG"
    reply = await enter(service, asking(BOB), "M12")
    reply = await enter(service, asking(ALICE), "L12 link K10")
    assert reply.plain.startswith("**alice** (Red): `L12 link K10`")


@pytest.mark.parametrize(("user", "command", "kind", "message"), [
    (BOB, "K10", kinds.NotYourTurnError, "it is alice's turn"),
    (ALICE, "A5", kinds.ConflictError, "A5 is in Black's border row"),
    (ALICE, "K10 link M12", kinds.ConflictError, "there is no peg on M12"),
    (CAROL, "K10", kinds.NotAllowedError, "you are not playing in this game"),
    (ALICE, "hello there", kinds.MalformedError, "I don't understand “hello there”"),
])
async def test_illegal_commands_are_one_line_and_change_nothing(service, storage, user, command,
                                                               kind, message):
    await start_game(service)
    with pytest.raises(kind, match=message):
        await enter(service, asking(user), command)
    assert (await storage.active_game(CHANNEL)).version == 0


async def test_no_game_in_the_channel(service):
    for call in (enter(service, asking(ALICE), "K10"), service.turns.abort(asking(ALICE))):
        with pytest.raises(kinds.MissingError, match="there is no game in this channel"):
            await call
    for call in (service.turns.board(asking(ALICE)), service.turns.status(asking(ALICE))):
        with pytest.raises(kinds.MissingError, match="this channel has no games"):
            await call


async def test_board_shows_the_last_game_privately_in_the_askers_look(service, storage):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await service.turns.resign(asking(BOB), confirmed=True)
    await storage.update_user_prefs(CAROL.id, theme="dark")
    mine = await service.turns.board(asking(CAROL))
    assert mine.ephemeral and "alice (Red) wins" in mine.plain
    assert "alice (Red) wins" in (await service.turns.status(asking(CAROL))).plain
    theirs = await service.turns.board(asking(DAVE))
    light, dark = (Image.open(io.BytesIO(r.image)).convert("RGB") for r in (theirs, mine))
    assert sum(light.getpixel((5, 5))) > sum(dark.getpixel((5, 5)))


async def test_public_boards_of_a_game_keep_one_look(service, storage):
    await storage.update_user_prefs(BOB.id, theme="dark", side="black")
    await start_game(service, swap="no")
    first = await enter(service, asking(ALICE), "K10")  # bob, with his dark Black side, is next
    second = await enter(service, asking(BOB), "M12")
    pictures = [Image.open(io.BytesIO(r.image)).convert("RGB") for r in (first, second)]
    assert pictures[0].size == pictures[1].size
    # the strip of column letters at the top: the same theme, palette and side in both
    top = [picture.crop((0, 0, picture.width, 30)).tobytes() for picture in pictures]
    assert top[0] == top[1]


def own_buttons(reply: Reply) -> list[Button]:
    """A turn's buttons, less Offer draw and Resign, which are under every board."""
    return [b for b in reply.buttons
            if b.kind not in (ButtonKind.OFFER_DRAW, ButtonKind.RESIGN)]


async def test_board_controls_offer_a_draw_and_resign_for_the_players(service):
    await start_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "K10")
    offer, resign = reply.buttons
    assert (offer.kind, resign.kind) == (ButtonKind.OFFER_DRAW, ButtonKind.RESIGN)
    assert offer.only_users == resign.only_users == (ALICE.id, BOB.id)
    ask = await press(service, asking(BOB), ButtonKind.RESIGN, resign.target)
    assert ask.ephemeral and ask.buttons[0].kind is ButtonKind.CONFIRM_RESIGN
    offered = await press(service, asking(BOB), ButtonKind.OFFER_DRAW, offer.target)
    assert "offers a draw" in offered.plain


async def test_swap_is_offered_as_a_button_to_the_second_player_only_when_legal(service):
    await start_game(service)
    reply = await enter(service, asking(ALICE), "K10")
    [swap] = own_buttons(reply)
    assert (swap.kind, swap.only_users) == (ButtonKind.SWAP, (BOB.id,))
    reply = await press(service, asking(BOB), ButtonKind.SWAP, swap.target)
    assert reply.plain == "**bob** (Red): `swap`\nalice (Black) to move."
    assert own_buttons(reply) == []


async def test_privilege_button_for_the_player_who_just_moved(service):
    await start_team_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "K10")
    [privilege] = own_buttons(reply)
    assert (privilege.kind, privilege.only_users) == (ButtonKind.PRIVILEGE, (ALICE.id,))
    reply = await press(service, asking(ALICE), ButtonKind.PRIVILEGE, privilege.target)
    assert reply.mentions == (CAROL.id,)
    assert "alice calls privilege: bob is skipped." in reply.plain
    assert "carol (Red, seat 3) to move." in reply.plain
    reply = await enter(service, asking(CAROL), "M10")
    assert own_buttons(reply) == []  # the team has used its privilege


async def test_draw_offer_accept_and_decline(service, storage):
    await start_game(service)
    reply = await enter(service, asking(ALICE), "K10; offer draw")
    accept, decline = own_buttons(reply)[1:]
    assert accept.kind is ButtonKind.ACCEPT_DRAW and accept.only_users == (BOB.id,)
    reply = await press(service, asking(BOB), ButtonKind.DECLINE_DRAW, decline.target)
    assert "offers a draw" not in reply.plain
    await enter(service, asking(BOB), "draw offer")
    reply = await enter(service, asking(ALICE), "draw accept")
    assert "Draw by agreement." in reply.plain
    assert reply.mentions == (BOB.id,)
    game = (await storage.list_games(channel_id=CHANNEL))[0]
    assert game.result.result is Result.DRAW


async def test_a_draw_offer_by_the_player_to_move_pings_the_opponent_who_answers(service):
    await start_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "offer draw")
    assert reply.mentions == (BOB.id,)
    assert [b.only_users for b in own_buttons(reply)] == [(BOB.id,), (BOB.id,)]
    moved = await enter(service, asking(ALICE), "K10; offer draw")
    assert moved.mentions == (BOB.id,)


async def test_a_draw_offer_with_a_move_pings_the_next_player_and_the_answerers(service):
    await start_team_game(service, swap="no")
    reply = await enter(service, asking(ALICE), "K10; offer draw")
    assert reply.mentions == (BOB.id, DAVE.id)


async def test_a_player_cannot_declare_their_own_loss_on_time(service, storage):
    await start_game(service, swap="no")
    with pytest.raises(kinds.NotAllowedError, match="timeout is recorded by the bot"):
        await enter(service, asking(ALICE), "timeout")
    stored = await storage.active_game(CHANNEL)
    assert stored is not None and stored.version == 0


async def test_resign_asks_for_confirmation_first(service, storage):
    await start_game(service)
    ask = await service.turns.resign(asking(BOB))
    assert ask.ephemeral and ask.buttons[0].kind is ButtonKind.CONFIRM_RESIGN
    assert (await storage.active_game(CHANNEL)) is not None
    reply = await press(service, asking(BOB), ButtonKind.CONFIRM_RESIGN, ask.buttons[0].target)
    assert "alice (Red) wins — Black resigned." in reply.plain
    [finished] = await storage.list_games(channel_id=CHANNEL)
    assert finished.result.winners == (ALICE.id,)


async def test_a_button_of_a_finished_game_is_refused(service):
    await start_game(service)
    await service.turns.resign(asking(BOB), confirmed=True)
    with pytest.raises(kinds.ConflictError, match="belongs to a game that is over"):
        await press(service, asking(BOB), ButtonKind.SWAP, 1)


async def test_board_and_status(service):
    await start_game(service, size="12", swap="no")
    await enter(service, asking(ALICE), "F6")
    board = await service.turns.board(asking(CAROL))
    assert board.image is not None and board.mentions == ()
    status = await service.turns.status(asking(CAROL))
    assert status.plain.splitlines() == [
        "**Game 1** — 12×12, classic, no swap", "Red: alice", "Black: bob",
        "Moves: 1 · last: alice: `F6`", "bob (Black) to move."]


async def test_help_is_private(service):
    reply = await service.turns.help(asking(ALICE))
    assert reply.ephemeral and "G6 link E5" in reply.plain


async def test_abort_needs_every_player_or_a_manager(service, storage):
    await start_game(service)
    with pytest.raises(kinds.NotAllowedError, match="only the players or a channel manager"):
        await service.turns.abort(asking(CAROL))
    reply = await service.turns.abort(asking(ALICE))
    assert "called off when bob also asks" in reply.plain and reply.mentions == (BOB.id,)
    reply = await service.turns.abort(asking(BOB))
    assert reply.plain == "Game 1 (alice and bob) is aborted by bob; it counts for nobody."
    assert reply.mentions == (ALICE.id,)
    assert (await storage.active_game(CHANNEL)) is None
    await start_game(service)
    reply = await service.turns.abort(asking(CAROL, manager=True))
    assert "aborted by carol" in reply.plain and reply.mentions == (ALICE.id, BOB.id)


async def test_two_moves_at_the_same_instant_exactly_one_lands(service, storage):
    await start_game(service)
    results = await asyncio.gather(enter(service, asking(ALICE), "K10"),
                                   enter(service, asking(ALICE), "M12"), return_exceptions=True)
    landed = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, kinds.NotYourTurnError)]
    assert len(landed) == 1 and len(refused) == 1
    assert str(refused[0]) == "it is bob's turn"
    assert (await storage.active_game(CHANNEL)).version == 1


async def test_two_services_racing_on_one_database_never_both_land(storage, clock):
    first, second = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await start_game(first)
    await second.turns.board(asking(ALICE))  # both have the game cached at version 0
    results = await asyncio.gather(enter(first, asking(ALICE), "K10"),
                                   enter(second, asking(ALICE), "M12"), return_exceptions=True)
    errors = [(type(r), str(r)) for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1
    assert errors[0] in ((kinds.ConflictError,
                          "the board changed while you were moving: look at it again"),
                         (kinds.NotYourTurnError, "it is bob's turn"))
    assert (await storage.active_game(CHANNEL)).version == 1


async def test_many_channels_play_at_once(service, storage):
    players = [(ALICE, BOB), (CAROL, DAVE)]
    for channel, (red, black) in enumerate(players, start=200):
        await service.challenges.challenge(asking(red, channel), black, build_options(swap="no"))
        await service.challenges.accept(asking(black, channel))
    moves = [enter(service, asking(red, channel), "K10")
             for channel, (red, _b) in enumerate(players, start=200)]
    await asyncio.gather(*moves)
    for channel in (200, 201):
        assert (await storage.active_game(channel)).version == 1


async def test_a_restarted_service_continues_the_game(storage, clock):
    before = TwixtService(storage, clock=clock)
    await start_game(before, swap="no")
    await enter(before, asking(ALICE), "K10")
    after = TwixtService(storage, clock=clock)
    reply = await enter(after, asking(BOB), "M12")
    assert reply.plain.startswith("**bob** (Black): `M12`")
    game = await after.channel_game(CHANNEL)
    assert [turn.text for turn in game.history] == ["K10", "M12"]


async def test_a_turn_in_a_games_home_is_played_on_the_game_as_it_stands_not_as_written(
        storage, clock):
    first, second = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await start_game(first, swap="no")
    game = (await storage.active_game(CHANNEL)).id
    alice = await first.seat_request(game, 0)
    await enter(first, alice, "K10")  # the first process holds the game as it wrote it
    await enter(second, asking(BOB), "M12")  # another process moves it on
    reply = await enter(first, alice, "F5")
    assert reply.refused is None
    assert [turn.text for turn in (await first.channel_game(CHANNEL)).history] == [
        "K10", "M12", "F5"]


async def test_a_takeback_request_raced_by_another_process_turn_is_one_line(
        storage, clock, monkeypatch):
    first, second = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await start_game(first, swap="no")
    await enter(first, asking(ALICE), "K10")
    make_offer = storage.make_offer

    async def after_a_turn_elsewhere(*args, **kwargs):
        await enter(second, asking(BOB), "M12")  # lands between the check and the offer
        return await make_offer(*args, **kwargs)

    monkeypatch.setattr(storage, "make_offer", after_a_turn_elsewhere)
    with pytest.raises(kinds.ConflictError, match="the board changed while you were moving"):
        await first.turns.takeback(asking(ALICE))
    assert await storage.open_offers((await storage.active_game(CHANNEL)).id) == ()


async def test_a_turn_where_the_front_end_draws_the_board_has_no_picture_nor_picker(
        storage, clock):
    drawn = TwixtService(storage, clock=clock)
    await start_game(drawn, swap="no")
    shown = await enter(drawn, asking(ALICE), "K10")
    assert shown.image is not None and shown.pickers
    assert {b.kind for b in shown.buttons} >= {ButtonKind.OFFER_DRAW, ButtonKind.RESIGN}
    itself = TwixtService(storage, Port(pictures=False), clock=clock)  # the web page's
    reply = await enter(itself, asking(BOB), "M12")
    assert reply.refused is None and reply.plain.startswith("**bob** (Black): `M12`")
    assert reply.image is None and not reply.pickers and not reply.buttons


async def test_a_turn_where_the_front_end_shows_turns_itself_is_stored_and_said_nowhere(
        storage, clock):
    shows = TwixtService(storage, Port(pictures=False, announces=False), clock=clock)  # web's
    await start_game(shows, swap="no")
    reply = await enter(shows, asking(ALICE), "K10")
    assert reply.refused is None and reply.text == "" and not reply.ephemeral
    assert not reply.followups and not reply.mentions
    game = await shows.channel_game(CHANNEL)
    assert [turn.text for turn in game.history] == ["K10"]
    with pytest.raises(kinds.NotYourTurnError, match="it is bob's turn"):  # still said
        await enter(shows, asking(ALICE), "M12")


async def test_a_turn_whose_picture_fails_is_announced_not_denied(service, storage,
                                                                monkeypatch, caplog):
    await start_game(service, swap="no")

    def broken(*args, **kwargs):
        raise RuntimeError("pillow on fire")

    monkeypatch.setattr(rendering, "render_png", broken)  # the service draws through it
    reply = await enter(service, asking(ALICE), "K10")
    assert reply.plain.startswith("**alice** (Red): `K10`") and reply.image is None
    assert (await storage.active_game(CHANNEL)).version == 1
    assert any(r.message == "board not drawn" for r in caplog.records)


async def test_readers_see_only_committed_turns(service, storage, monkeypatch):
    await start_game(service, swap="no")
    committing, fail = asyncio.Event(), asyncio.Event()
    append_turn = storage.append_turn

    async def slow_failing_commit(*args, **kwargs):
        committing.set()
        await fail.wait()
        raise RuntimeError("disk gone")

    monkeypatch.setattr(storage, "append_turn", slow_failing_commit)
    move = asyncio.create_task(enter(service, asking(ALICE), "K10"))
    await committing.wait()
    assert "Moves: 0" in (await service.turns.status(asking(BOB))).plain
    exported = await service.records.export(asking(BOB), "transcript")
    assert "K10" not in exported.attachments[0].data.decode()
    fail.set()
    with pytest.raises(RuntimeError):
        await move
    monkeypatch.setattr(storage, "append_turn", append_turn)
    assert "Moves: 0" in (await service.turns.status(asking(BOB))).plain
    assert (await enter(service, asking(ALICE), "K10")).plain.startswith("**alice** (Red): `K10`")


async def test_a_game_log_holds_a_bounded_number_of_entries_besides_its_moves(
        service, storage, monkeypatch):
    monkeypatch.setattr(desk_module, "MAX_SIDE_ENTRIES", 4)
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    for _ in range(2):  # an offer and a refusal each: four entries
        await enter(service, asking(BOB), "offer draw")
        await enter(service, asking(ALICE), "decline draw")
    with pytest.raises(kinds.LimitError) as refused:
        await enter(service, asking(BOB), "offer draw")
    assert str(refused.value) == ("this game's log holds 4 entries besides its moves (draw "
                                  "offers, refusals, takebacks): from now on only a move or an "
                                  "ending")
    assert (await storage.active_game(CHANNEL)).version == 5
    await enter(service, asking(BOB), "M12")  # moves go on, and the game can still end
    await enter(service, asking(ALICE), "resign yes")
    assert (await storage.list_games(channel_id=CHANNEL))[0].result.result is Result.BLACK


async def test_a_takeback_past_the_bound_is_refused_before_the_request_closes(
        service, storage, monkeypatch):
    monkeypatch.setattr(desk_module, "MAX_SIDE_ENTRIES", 1)
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await service.turns.takeback(asking(ALICE))
    with pytest.raises(kinds.LimitError, match="entries besides its moves"):
        await service.turns.takeback(asking(BOB), "accept")
    stored = await storage.active_game(CHANNEL)
    assert stored.version == 1 and len(await storage.open_offers(stored.id)) == 1


async def test_a_game_log_holds_a_bounded_number_of_entries_in_all(service, storage,
                                                                   monkeypatch):
    # classic's removals make moves without end: the log as a whole is bounded too
    monkeypatch.setattr(desk_module, "MAX_LOG_ENTRIES", 4)
    await start_game(service, swap="no")
    for user, move in ((ALICE, "K10"), (BOB, "M12"), (ALICE, "remove K10; K10"),
                       (BOB, "remove M12; M12")):
        await enter(service, asking(user), move)
    with pytest.raises(kinds.LimitError) as refused:
        await enter(service, asking(ALICE), "remove K10; K10")
    assert str(refused.value) == ("this game's log holds 4 entries: from now on it can only end "
                                  "(resign, or accept a draw already offered)")
    await enter(service, asking(ALICE), "resign yes")
    assert (await storage.list_games(channel_id=CHANNEL))[0].result.result is Result.BLACK


async def test_an_accepted_takeback_that_cannot_be_stored_leaves_the_request_open(
        service, storage, monkeypatch):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await service.turns.takeback(asking(ALICE))
    append_turn = storage.append_turn

    async def disk_gone(*args, **kwargs):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(storage, "append_turn", disk_gone)
    with pytest.raises(RuntimeError):
        await service.turns.takeback(asking(BOB), "accept")
    stored = await storage.active_game(CHANNEL)
    assert stored.version == 1 and len(await storage.open_offers(stored.id)) == 1
    monkeypatch.setattr(storage, "append_turn", append_turn)
    await service.turns.takeback(asking(BOB), "accept")  # the request still stands
    stored = await storage.active_game(CHANNEL)
    assert stored.version == 2 and await storage.open_offers(stored.id) == ()
