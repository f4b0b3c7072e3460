"""Conditional moves through the service over a real SQLite file, on a controlled clock:
stored privately, played at once in the same announcement, cleared by any other move."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tests.service.helpers import start_game, start_team_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, asking
from tests.typed import enter
from twixt.service import TwixtService
from twixt.service import errors as kinds
from twixt.service.commands import router
from twixt.service.service import answer_safely


async def stored_plan(service: TwixtService, user=BOB) -> str:
    return (await enter(service, asking(user), "if")).plain


async def alice_plays(service: TwixtService, move: str) -> str:
    """What the channel is told when alice plays `move`: her turn, and bob's stored answer."""
    return (await enter(service, asking(ALICE), move)).plain


async def log_of(service: TwixtService) -> list[str]:
    stored = await service.desk.storage.active_game(CHANNEL)
    loaded = await service.desk.storage.load_game(stored.id)
    return [entry.command for entry in loaded.turns]


@pytest.fixture
async def game(service):
    """alice F5, bob E5: alice (Red) is to move on a 12×12 board without swap."""
    await start_game(service, size="12", swap="no")
    await alice_plays(service, "F5")
    await enter(service, asking(BOB), "E5")


async def test_stored_moves_are_shown_to_their_owner_alone(service, game):
    reply = await enter(service, asking(BOB), "if H9 then G6; if J10 then K8")
    assert reply.ephemeral and reply.mentions == () and reply.image is None
    assert reply.plain.startswith("Stored. Your conditional moves in game 1, answering "
                                 "alice's next move")
    assert reply.plain.endswith("```\nif H9 then G6\nif J10 then K8\n```")
    shown = await enter(service, asking(BOB), "conditions")
    assert shown.ephemeral and "if H9 then G6\nif J10 then K8" in shown.plain
    assert "no conditional moves" in await stored_plan(service, ALICE)
    with pytest.raises(kinds.NotAllowedError, match="you are not playing"):
        await enter(service, asking(CAROL), "if")


async def test_the_reply_is_played_at_once_in_the_same_announcement(service, game):
    await enter(service, asking(BOB), "if H9 then G6 link E5")
    reply = await enter(service, asking(ALICE), "H9")
    assert reply.plain.splitlines() == [
        "**alice** (Red): `H9`", "bob answers at once with a stored move:",
        "**bob** (Black): `G6 link E5`", "alice (Red) to move."]
    assert reply.mentions == (ALICE.id,) and reply.image is not None
    assert reply.followups == () and not reply.ephemeral
    assert await log_of(service) == ["F5", "E5", "H9", "G6 link E5"]
    game = await service.channel_game(CHANNEL)
    assert game.player_to_move == "alice" and game.moves_made == 4
    assert reply.image == await service.desk.render(game)  # one board, after both moves
    assert "no conditional moves" in await stored_plan(service)


async def test_any_other_move_clears_the_branches(service, game):
    await enter(service, asking(BOB), "if H9 then G6; if J10 then K8")
    reply = await enter(service, asking(ALICE), "H10")
    assert reply.plain.splitlines() == ["**alice** (Red): `H10`", "bob (Black) to move."]
    assert reply.mentions == (BOB.id,)
    assert "no conditional moves" in await stored_plan(service)
    await enter(service, asking(BOB), "C3")
    await alice_plays(service, "H9")  # too late: nothing is stored any more
    assert await log_of(service) == ["F5", "E5", "H10", "C3", "H9"]


async def test_a_sequence_answers_two_moves_deep(service, game):
    await enter(service, asking(BOB), "if H9 then G6 if J10 then K8 if C9 then D11")
    await alice_plays(service, "H9")
    assert "```\nif J10 then K8\n  if C9 then D11\n```" in await stored_plan(service)
    announced = await alice_plays(service, "J10 link H9")
    assert "**bob** (Black): `K8`" in announced
    await alice_plays(service, "C9")
    assert await log_of(service) == ["F5", "E5", "H9", "G6", "J10 link H9", "K8", "C9",
                                     "D11"]
    assert "no conditional moves" in await stored_plan(service)


async def test_new_lines_add_alternatives_and_a_known_trigger_replaces_its_branch(
        service, game):
    await enter(service, asking(BOB), "if H9 then G6 if J10 then K8")
    await enter(service, asking(BOB), "if H9 then G6 if J11 then K9; if C3 then D5")
    await enter(service, asking(BOB), "if C3 then D4")
    assert "```\nif H9 then G6\n  if J10 then K8\n  if J11 then K9\nif C3 then D4\n```" in (
        await stored_plan(service))
    await enter(service, asking(BOB), "if clear")
    assert "no conditional moves" in await stored_plan(service)


async def test_a_bare_hole_answers_any_links_but_written_links_must_match(service, game):
    await enter(service, asking(BOB), "if G7 link F5 then C3; if G7 then C4")
    assert "if G7 link F5 then C3\nif G7 then C4" in await stored_plan(service)
    announced = await alice_plays(service, "g7 LINK f5")
    assert "**bob** (Black): `C3`" in announced


@pytest.mark.parametrize("line, said", [
    ("if F5 then G6", "“if F5 then G6”: F5 is already taken"),
    ("if H9 then G6 if G6 then K8", "“if G6 then K8”: G6 is already taken"),
    ("if H9 then A5 link C4", "“if H9 then A5 link C4”: there is no peg on C4"),
])
async def test_a_line_with_a_branch_that_cannot_be_played_changes_nothing(
        service, game, line, said):
    await enter(service, asking(BOB), "if C3 then D5")
    with pytest.raises(kinds.ConflictError) as refused:
        await enter(service, asking(BOB), line)
    assert str(refused.value) == said
    assert "```\nif C3 then D5\n```" in await stored_plan(service)


async def test_storing_is_refused_on_your_own_turn(service, game):
    with pytest.raises(kinds.ConflictError, match="it is your turn: play it"):
        await enter(service, asking(ALICE), "if G6 then H9")


async def test_double_twixt_has_no_conditional_moves(service):
    await start_team_game(service, size="12")
    with pytest.raises(kinds.ConflictError, match="two-player games"):
        await enter(service, asking(BOB), "if H9 then G6")


async def test_a_reply_that_became_illegal_is_dropped_with_a_private_notice(service, game):
    await enter(service, asking(BOB), "if G7 then G6 link E5; if H9 then C3")
    reply = await enter(service, asking(ALICE), "G7 link F5")  # the link F5-G7 blocks E5-G6
    assert reply.plain.splitlines() == ["**alice** (Red): `G7 link F5`", "bob (Black) to move."]
    assert reply.mentions == (BOB.id,) and "G6" not in reply.plain
    [notice] = reply.followups
    assert notice.dm_user_id == BOB.id and notice.channel_id is None
    assert notice.plain == (
        "Your stored reply `G6 link E5` to alice's `G7 link F5` in game 1 could not be played "
        "(the link G6-E5 would cross Red's link F5-G7), so your conditional moves there are "
        "cleared.")
    assert await log_of(service) == ["F5", "E5", "G7 link F5"]
    assert "no conditional moves" in await stored_plan(service)


async def test_a_takeback_clears_the_branches(service, game):
    await alice_plays(service, "H10")
    await enter(service, asking(BOB), "C3")
    await enter(service, asking(BOB), "if H9 then G6")
    await enter(service, asking(BOB), "takeback")
    await alice_plays(service, "accept takeback")
    await enter(service, asking(BOB), "C3")
    announced = await alice_plays(service, "H9")
    assert "stored move" not in announced
    assert await log_of(service) == ["F5", "E5", "H10", "C3", "takeback", "C3", "H9"]


@pytest.mark.parametrize("who, ending", [(ALICE, "resign yes"), (CAROL, "abort")])
async def test_the_end_of_the_game_clears_them(service, game, who, ending):
    await enter(service, asking(BOB), "if H9 then G6")
    await enter(service, asking(who, manager=True), ending)
    stored = (await service.desk.storage.list_games(channel_id=CHANNEL, limit=1))[0]
    assert not stored.is_active
    assert await service.desk.storage.conditionals(stored.id) == ()


async def test_a_stored_reply_ending_the_game_is_announced_with_the_result(service):
    await start_game(service, size="12", swap="no")
    moves = ["J2", "A3", "H2", "C4 link A3", "F2", "E5 link C4", "D2", "G6 link E5", "B2",
             "I7 link G6", "J11", "K8 link I7"]
    for number, move in enumerate(moves):
        await enter(service, asking((ALICE, BOB)[number % 2]), move)
    await enter(service, asking(BOB), "if C10 then L10 link K8")
    reply = await enter(service, asking(ALICE), "C10")
    assert "bob answers at once with a stored move:" in reply.plain
    assert reply.plain.endswith("bob (Black) wins by connection.")
    assert reply.mentions == (ALICE.id,)


async def test_stored_moves_survive_a_restart(storage, clock, game, service):
    await enter(service, asking(BOB), "if H9 then G6")
    restarted = TwixtService(storage, clock=clock)
    reply = await enter(restarted, asking(ALICE), "H9")
    assert "**bob** (Black): `G6`" in reply.plain


async def test_the_reply_starts_the_opponents_clock(service, clock):
    await start_game(service, size="12", swap="no", time="3d")
    await alice_plays(service, "F5")
    clock.now += timedelta(hours=5)
    await enter(service, asking(BOB), "E5")
    await enter(service, asking(BOB), "if H9 then G6")
    clock.now += timedelta(days=2)
    announced = await alice_plays(service, "H9")
    assert announced.endswith("alice (Red) to move. (3d 0h left)")
    stored = await service.desk.storage.active_game(CHANNEL)
    turn_clock = await service.desk.turn_clock(stored)
    assert turn_clock is not None and turn_clock.due == clock.now + timedelta(days=3)


async def test_swap_may_be_a_reply(service):
    await start_game(service, size="12")
    await enter(service, asking(BOB), "if F5 then swap")
    reply = await enter(service, asking(ALICE), "F5")
    assert "**bob** (Red): `swap`" in reply.plain and reply.mentions == (ALICE.id,)
    assert (await service.channel_game(CHANNEL)).player_to_move == "alice"


async def test_the_auto_link_preference_is_applied_when_storing(service, game):
    await enter(service, asking(BOB), "settings autolink on")
    await enter(service, asking(BOB), "if H9 then G6")
    assert "if H9 then G6 link all" in await stored_plan(service)
    announced = await alice_plays(service, "H9")
    assert "**bob** (Black): `G6 link E5`" in announced


async def test_in_public_they_are_refused_without_being_echoed(service, game):
    public = replace(asking(BOB), private_replies=False)
    reply = await service.hear(public, router.read_command("if H9 then G6 link E5"), {})
    assert reply is not None
    assert reply.refused and "/twixt if" in reply.plain and "G6" not in reply.plain
    assert "no conditional moves" in await stored_plan(service)
    onlooker = replace(asking(CAROL), private_replies=False)
    assert await service.hear(onlooker, router.read_command("if H9 then G6"), {}) is None
    with pytest.raises(kinds.MalformedError):  # not the move language: the edge leaves it as chat
        router.read_command("if you play H9 I win")
    # typed to the bot where the reply is public, a plan is refused before it is read
    with pytest.raises(kinds.NotAllowedError, match="/twixt if"):
        router.read_command("if H9 then G6 link E5", public=True)


async def test_records_never_show_stored_moves(service, game):
    await enter(service, asking(BOB), "if H9 then G6")
    reply = await enter(service, asking(ALICE), "export")
    assert all(b"G6" not in attachment.data for attachment in reply.attachments)


async def test_they_are_answered_in_the_askers_language(service, game):
    stored = await enter(service, asking(BOB, locale="de"), "if H9 then G6")
    assert stored.plain.startswith("Gespeichert. Deine bedingten Züge in Partie 1")
    reply = await enter(service, asking(ALICE, locale="de"), "H9")
    assert "bob antwortet sofort mit einem gespeicherten Zug:" in reply.plain


@pytest.mark.parametrize("line", ["if H9 then G6 link secret", "conditions H9 then secret",
                                  "if H9 then G6 if secret", "move if H9 then secret"])
async def test_a_bad_line_in_public_is_refused_without_being_echoed(service, game, line):
    public = replace(asking(BOB), private_replies=False)
    reply = await answer_safely(enter(service, public, line), {})
    assert reply.refused and "/twixt if" in reply.plain and "secret" not in reply.plain
    assert "H9" not in reply.plain


async def test_a_move_offering_a_draw_is_not_answered_the_offer_is_the_owners(service, game):
    await enter(service, asking(BOB), "if H9 then G6")
    reply = await enter(service, asking(ALICE), "H9; offer draw")
    assert reply.plain.splitlines() == ["**alice** (Red): `H9; offer draw`",
                                       "bob (Black) to move.", "Red offers a draw."]
    assert reply.mentions == (BOB.id,)
    [notice] = reply.followups
    assert notice.dm_user_id == BOB.id and notice.plain == (
        "Your stored reply `G6` to alice's `H9; offer draw` in game 1 could not be played "
        "(the move offers you a draw, which is yours to answer), so your conditional moves "
        "there are cleared.")
    assert await log_of(service) == ["F5", "E5", "H9; offer draw"]
    assert (await service.channel_game(CHANNEL)).draw_offered_by is not None
    assert "no conditional moves" in await stored_plan(service)


async def test_a_draw_offered_before_the_move_lapses_with_it_and_the_reply_is_played(
        service, game):
    await enter(service, asking(BOB), "if H9 then G6")
    await alice_plays(service, "offer draw")  # no move: the branches stay
    announced = await alice_plays(service, "H9")
    assert "**bob** (Black): `G6`" in announced and "offers a draw" not in announced
    assert (await service.channel_game(CHANNEL)).draw_offered_by is None
