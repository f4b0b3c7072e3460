"""A game's view through the service's door: what each person sees and may do, acting
through the controls it offers, and the live version a page follows."""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from datetime import timedelta

import pytest

from tests.service.helpers import count_calls, start_game, start_team_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.typed import enter
from twixt.rules import Colour, RuleSet, parse_command
from twixt.service import GameView, ServiceError, TwixtService, build_options
from twixt.service import commands as cmd
from twixt.service.model import Control, made_whole
from twixt.storage import SqliteStorage

#: a bound on waits that should end at once: a test never hangs on a broken wake-up
NEVER = 30.0


async def game_id(service: TwixtService) -> int:
    return (await service.seat_in_channel(CHANNEL, ALICE.id))[0]


async def view_of(service: TwixtService, user_id: int | None = None, **more: object) -> GameView:
    return await service.game_view(await game_id(service), user_id=user_id, **more)  # type: ignore[arg-type]


def kinds(view: GameView) -> set[str]:
    return {control.name for control in view.controls}


async def act(service: TwixtService, view: GameView, name: str, text: str = "") -> str:
    """The viewer uses one of their controls, as a front end hands it on; the reply's text."""
    assert view.offers(name), (name, kinds(view))
    assert view.you is not None
    asker = await service.seat_request(view.game_id, view.you)
    reply = await service.answer(asker, cmd.of_control(name, view.game_id, text), {})
    assert not reply.refused, reply.plain
    return reply.plain


async def test_a_takeback_request_reaches_the_opponents_view_and_its_live_version(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    before = await view_of(service, BOB.id)
    assert not before.offers("takeback-accept")
    waiting = asyncio.ensure_future(service.next_version(before.game_id, before.live_version,
                                                         NEVER))
    await asyncio.sleep(0)  # bob's page waits for the next version
    await act(service, await view_of(service, ALICE.id), "takeback")
    after = await view_of(service, BOB.id)
    assert await asyncio.wait_for(waiting, NEVER) == after.live_version > before.live_version
    assert {"takeback-accept", "takeback-decline"} <= kinds(after)
    assert after.takeback_by == 0
    asker = await view_of(service, ALICE.id)
    assert not asker.offers("takeback-accept") and not asker.offers("takeback")
    await act(service, after, "takeback-decline")
    declined = await view_of(service, BOB.id)
    assert declined.live_version > after.live_version
    assert declined.takeback_by is None and not declined.offers("takeback-accept")


async def test_an_accepted_takeback_takes_the_peg_off_every_view(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await act(service, await view_of(service, ALICE.id), "takeback")
    await act(service, await view_of(service, BOB.id), "takeback-accept")
    view = await view_of(service, ALICE.id)
    assert view.pegs == () and view.to_move == 0 and view.offers("move")


async def test_the_player_to_move_places_offers_a_draw_with_the_move_and_resigns(service):
    await start_game(service, swap="no", rules="pp")
    alice = await view_of(service, ALICE.id)
    assert {"move", "move-offer-draw", "draw-offer", "resign", "note"} <= kinds(alice)
    assert "remove" not in kinds(alice)  # pp rules: nothing is removed
    bob = await view_of(service, BOB.id)
    assert "move" not in kinds(bob) and {"draw-offer", "conditional"} <= kinds(bob)
    await act(service, alice, "move-offer-draw", "K10")
    bob = await view_of(service, BOB.id)
    assert bob.draw_offered_by is Colour.RED and [str(p.hole) for p in bob.pegs] == ["K10"]
    assert {"draw-accept", "draw-decline"} <= kinds(bob)
    assert "move-offer-draw" not in kinds(bob)
    await act(service, bob, "draw-accept")
    over = await view_of(service, ALICE.id)
    assert not over.active and over.outcome is not None and over.outcome.winner is None
    assert kinds(over) == {"note", "notes"}


async def test_a_classic_game_offers_removal_once_the_player_has_a_peg(service):
    await start_game(service, swap="no", rules="classic")
    assert "remove" not in kinds(await view_of(service, ALICE.id))
    await enter(service, asking(ALICE), "K10")
    await enter(service, asking(BOB), "D4")
    alice = await view_of(service, ALICE.id)
    assert alice.rules is RuleSet.CLASSIC and "remove" in kinds(alice)
    await act(service, alice, "remove", "remove K10; L12")
    assert [str(p.hole) for p in (await view_of(service)).pegs] == ["D4", "L12"]


async def test_swap_and_conditional_moves_through_the_controls(service):
    await start_game(service, swap="yes")
    await enter(service, asking(ALICE), "K10")
    bob = await view_of(service, BOB.id)
    assert "swap" in kinds(bob)
    await act(service, bob, "swap")
    # after the swap bob plays the peg, and alice is to move: bob may answer her ahead
    bob = await view_of(service, BOB.id)
    assert bob.to_move == 0 and "conditional" in kinds(bob)
    said = await act(service, bob, "conditional", "if D4 then E6")
    assert "E6" in said


async def test_an_onlooker_sees_the_board_and_may_do_nothing(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    view = await view_of(service, CAROL.id)
    assert view.you is None and view.controls == ()
    assert [seat.name for seat in view.seats] == ["alice", "bob"] and view.to_move == 1


async def test_a_link_names_a_seat_and_a_seat_that_is_none_is_refused(service):
    await start_game(service, swap="no")
    game = await game_id(service)
    assert (await service.game_view(game, seat=1)).you == 1
    assert (await service.seat_request(game, 1)).user == BOB
    for asked in ({"seat": 2}, {"seat": -1}):
        with pytest.raises(ServiceError, match="there is no such game"):
            await service.game_view(game, **asked)  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="there is no such game"):
        await service.game_view(game + 99)
    with pytest.raises(ServiceError, match="there is no such game"):
        await service.seat_request(game, 2)


async def test_a_seats_request_plays_only_in_its_own_game(service, storage):
    await start_game(service, swap="no")
    first = await game_id(service)
    asker = await service.seat_request(first, 0)  # alice's page, before the game ends
    assert asker.home_of == first
    await service.turns.resign(asking(ALICE), confirmed=True)
    await start_game(service, swap="no")  # a new game in the same channel
    for asked in (cmd.ForGame(first, cmd.Move(parse_command("K10"))), cmd.Move(
            parse_command("K10"))):
        reply = await service.answer(asker, asked, {})
        assert reply.refused and "belongs to a game that is over" in reply.plain
    assert (await storage.load_game(await game_id(service))).turns == ()
    assert (await service.seat_request(first, 0)).home_of is None  # over: no home


async def test_privilege_is_offered_to_the_double_twixt_player_who_has_just_moved(service):
    await start_team_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    alice = await view_of(service, ALICE.id)
    assert alice.privilege_seat == 0 and "privilege" in kinds(alice)
    assert "privilege" not in kinds(await view_of(service, DAVE.id))
    assert "conditional" not in kinds(await view_of(service, CAROL.id))  # two-player only


async def test_an_abort_changes_the_live_version(service):
    await start_game(service, swap="no")
    before = await view_of(service)
    await enter(service, asking(ALICE, manager=True), "abort")
    after = await service.game_view(before.game_id)
    assert after.aborted and after.live_version > before.live_version


async def test_a_finished_game_is_shown_turn_by_turn(service):
    await start_game(service, swap="no")
    for user, move in ((ALICE, "K10"), (BOB, "D4"), (ALICE, "resign yes")):
        await enter(service, asking(user), move)
    game = await game_id(service)
    first = await service.game_view(game, step=1)
    assert first.step == 1 and first.turns == 3 and [str(p.hole) for p in first.pegs] == ["K10"]
    assert len(first.history) == 3 and first.to_move is None


async def test_a_wait_with_no_change_ends_at_its_time_with_the_same_version(service):
    await start_game(service, swap="no")
    view = await view_of(service)
    assert await service.next_version(view.game_id, view.live_version, 0.01) == view.live_version
    assert await service.next_version(view.game_id + 99, 0, 0.01) is None


async def test_a_change_made_by_another_process_ends_the_wait(service, tmp_path, clock):
    await start_game(service, swap="no")
    view = await view_of(service)
    other_storage = await SqliteStorage.open(tmp_path / "twixt.db")
    other = TwixtService(other_storage, clock=clock)
    try:
        waiting = asyncio.ensure_future(service.next_version(view.game_id, view.live_version,
                                                             NEVER))
        await asyncio.sleep(0)
        await enter(other, asking(ALICE), "K10")  # told to the other service only
        assert await asyncio.wait_for(waiting, NEVER) == view.live_version + 1
    finally:
        await other.close()
        await other_storage.close()


async def test_the_links_a_peg_would_make_are_worked_out_without_changing_the_game(service):
    await start_game(service, swap="no", rules="classic", size="12")
    for user, move in ((ALICE, "F5"), (BOB, "B3"), (ALICE, "J10")):
        await enter(service, asking(user), move)
    game = await game_id(service)
    assert [(str(a), str(b)) for a, b in await service.peg_links(game, 1, "D4")] == [
        ("D4", "B3")]
    with pytest.raises(ServiceError, match="it is bob's turn"):
        await service.peg_links(game, 0, "G7")
    with pytest.raises(ServiceError, match="F5"):
        await service.peg_links(game, 1, "F5")
    with pytest.raises(ServiceError, match="choose one hole"):
        await service.peg_links(game, 1, "D4 link B3")
    assert len((await service.game_view(game)).pegs) == 3


async def test_a_seat_in_a_channel_names_its_game_and_nobody_else_has_one(service):
    with pytest.raises(ServiceError, match="this channel has no games"):
        await service.seat_in_channel(CHANNEL, ALICE.id)
    await start_game(service, swap="no")
    game, seat = await service.seat_in_channel(CHANNEL, BOB.id)
    assert seat == 1 and (await service.seat_in_channel(CHANNEL, CAROL.id)) == (game, None)


async def two_games(service: TwixtService) -> tuple[GameView, int]:
    """Alice and Bob's game (its view) in CHANNEL, and Carol and Dave's (its id) in the next."""
    await start_game(service, swap="no")
    first = await view_of(service)
    await service.challenges.challenge(asking(CAROL, channel=CHANNEL + 1), DAVE,
                                       build_options(swap="no"))
    await service.challenges.accept(asking(DAVE, channel=CHANNEL + 1))
    second, _seat = await service.seat_in_channel(CHANNEL + 1, CAROL.id)
    return first, second


async def test_one_wait_follows_many_games_and_says_which_changed(service):
    first, second = await two_games(service)
    seen = {first.game_id: first.live_version, second: 0}
    assert await service.next_changes(seen, 0.01) == {}
    waiting = asyncio.ensure_future(service.next_changes(seen, NEVER))
    await asyncio.sleep(0)
    await enter(service, asking(CAROL, channel=CHANNEL + 1), "K10")
    assert await asyncio.wait_for(waiting, NEVER) == {second: 1}


async def test_a_standing_follow_is_told_each_change_of_its_own_games_alone(service):
    first, second = await two_games(service)
    told: list[tuple[int, int | None]] = []
    following = service.following(lambda game, version: told.append((game, version)))
    await following.follow(second, 0)
    await following.follow(first.game_id, first.live_version - 1)  # shown behind: told now
    assert told == [(first.game_id, first.live_version)]
    await enter(service, asking(CAROL, channel=CHANNEL + 1), "K10")
    assert told[1:] == [(second, 1)]
    following.unfollow(second)
    await enter(service, asking(DAVE, channel=CHANNEL + 1), "K12")
    await enter(service, asking(ALICE), "K10")
    assert told[2:] == [(first.game_id, first.live_version + 1)]
    following.close()
    await enter(service, asking(BOB), "M12")
    assert len(told) == 3


async def test_the_win_on_time_is_claimed_through_the_view_once_the_time_is_up(service, clock):
    await start_game(service, time="1d", swap="no", vacation="no", rules="pp")
    await enter(service, asking(ALICE), "K10")
    assert "claim" not in kinds(await view_of(service, ALICE.id))  # bob has time left
    clock.now += timedelta(days=2)
    assert "claim" not in kinds(await view_of(service, BOB.id))  # his own time is up
    await act(service, await view_of(service, ALICE.id), "claim")
    over = await view_of(service, ALICE.id)
    assert over.outcome is not None and over.outcome.winner is Colour.RED


async def test_the_views_of_many_pages_are_each_the_view_its_seat_and_language_see(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await act(service, await view_of(service, ALICE.id), "takeback")
    game = await game_id(service)
    asked = [(0, "en"), (1, "de"), (None, "en"), (1, "en")]
    views = await service.game_views(game, asked)
    assert views == [await service.game_view(game, seat=seat, locale=locale)
                     for seat, locale in asked]
    assert {"takeback-accept", "takeback-decline"} <= kinds(views[1])
    assert views[1].controls != views[3].controls  # the same controls, in German
    for wrong in ([(2, "en")], [(0, "en"), (-1, "en")]):
        with pytest.raises(ServiceError, match="there is no such game"):
            await service.game_views(game, wrong)
    with pytest.raises(ServiceError, match="there is no such game"):
        await service.game_views(game + 99, [(None, "en")])


async def test_the_views_of_a_turn_just_stored_are_made_without_reading_the_game_again(
        service, monkeypatch):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    game = await game_id(service)
    version = (await service.live_versions([game]))[game]
    reads: list[int] = []
    storage = service.desk.storage
    get_game, open_offers = storage.get_game, storage.open_offers

    async def read_game(game_id):
        reads.append(game_id)
        return await get_game(game_id)

    async def read_offers(game_id):
        reads.append(game_id)
        return await open_offers(game_id)

    monkeypatch.setattr(storage, "get_game", read_game)
    monkeypatch.setattr(storage, "open_offers", read_offers)
    asked = [(0, "en"), (1, "de"), (None, "en")]
    written = await service.game_views(game, asked, version)
    assert not reads
    assert written == await service.game_views(game, asked)  # as a reading shows it
    assert reads == [game, game]
    # a takeback asked since moved the version on: the game is read, and the offer shown
    await act(service, await view_of(service, ALICE.id), "takeback")
    reads.clear()
    now = (await service.live_versions([game]))[game]
    assert now == version + 1
    after = await service.game_views(game, asked, now)
    assert reads and {"takeback-accept", "takeback-decline"} <= kinds(after[1])


async def test_a_seat_request_of_a_game_this_process_wrote_last_reads_its_version_alone(
        storage, clock, monkeypatch):
    first, second = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await start_game(first, swap="no")
    game = (await storage.active_game(CHANNEL)).id
    read = await first.seat_request(game, 1, "de")  # nothing written here yet: read
    await enter(first, await first.seat_request(game, 0), "K10")
    reads: list[int] = []
    get_game = storage.get_game

    async def read_game(game_id):
        reads.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(storage, "get_game", read_game)
    again = await first.seat_request(game, 1, "de")
    assert not reads
    # the same request, but for the version its home was read at
    assert replace(again, home_at=None) == replace(read, home_at=None)
    assert again.home_at == (await storage.live_versions([game]))[game] == read.home_at + 1
    with pytest.raises(ServiceError, match="there is no such game"):
        await first.seat_request(game, 2)
    # another process ends the game: the version moved on, so the game is read again, and
    # the request is no longer made in the home of a game in progress
    await enter(second, asking(BOB), "resign yes")
    reads.clear()
    after = await first.seat_request(game, 1, "de")
    assert reads == [game] and after.home_of is None and read.home_of == game
    assert after.home_at is None  # no home: none was read


async def test_a_pages_move_reads_its_games_version_once(storage, clock, monkeypatch):
    """The seat's request read the version of the game this process wrote; the move asked
    at once with it is played without reading it again."""
    service = TwixtService(storage, clock=clock)
    await start_game(service, swap="no")
    game = (await storage.active_game(CHANNEL)).id
    await enter(service, await service.seat_request(game, 0), "K10")
    reads = count_calls(monkeypatch, storage, "live_versions")
    bob = await service.seat_request(game, 1)
    assert reads == [([game],)]
    await enter(service, bob, "M12")
    assert reads == [([game],)]
    assert [turn.command for turn in (await storage.load_game(game)).turns] == ["K10", "M12"]
    # a request whose home was read at another version reads it again before the move
    await enter(service, replace(await service.seat_request(game, 0), home_at=0), "O14")
    assert len(reads) == 3


async def test_a_pages_move_after_another_processs_turn_is_refused_by_the_write(
        storage, clock):
    """Between a page's request and its move another process plays: the move, checked
    against the game as this process wrote it, is refused by the write's check of the
    version, and nothing of it is stored; asked again, it is checked against the game as
    it is."""
    first, second = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await start_game(first, swap="no")
    game = (await storage.active_game(CHANNEL)).id
    await enter(first, await first.seat_request(game, 0), "K10")
    bob = await first.seat_request(game, 1)
    await enter(second, asking(BOB), "M12")  # bob plays in the other process meanwhile
    reply = await first.answer(bob, cmd.Move(parse_command("O14")), {})
    assert reply.refused and "the board changed while you were moving" in reply.plain
    assert [turn.command for turn in (await storage.load_game(game)).turns] == ["K10", "M12"]
    reply = await first.answer(await first.seat_request(game, 1), cmd.Move(
        parse_command("O14")), {})
    assert reply.refused and "alice" in reply.plain  # not bob's turn: alice's


async def test_a_control_written_in_the_move_language_shows_a_line_of_it(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    offered = {control.name: control for control in (await view_of(service, ALICE.id)).controls}
    assert offered["conditional"].takes_text and offered["conditional"].example == "if H9 then G6"
    assert offered["note"].takes_text and offered["note"].example == ""  # a note is anything


def test_a_value_made_whole_equals_the_one_its_init_makes_and_wants_every_field():
    made = made_whole(Control, name="move", label="Place", takes_text=True, example="G6")
    assert made == Control("move", "Place", True, "G6") and hash(made) == hash(
        Control("move", "Place", True, "G6"))
    with pytest.raises(TypeError, match="all of its fields"):
        made_whole(Control, name="move", label="Place")  # its defaults are not filled in
    with pytest.raises(TypeError, match="all of its fields"):
        made_whole(Control, "move", label="Place", takes_text=True, example="")  # by name


async def test_a_view_has_every_field_of_a_view(service):
    await start_game(service, swap="no")
    view = await view_of(service, ALICE.id)
    assert set(vars(view)) == {field.name for field in fields(GameView)}
