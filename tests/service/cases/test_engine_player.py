"""The bot as a player, through the service: challenged with a level, it accepts at once and
answers each turn in its seat through the engine pool; it resigns a lost game, answers draw
offers by its evaluation and takebacks by the challenge, and moves after a restart."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.fakes import Clock
from tests.service import engines as engines
from tests.service.engine_helpers import engine_service
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, GUILD, asking
from twixt.rules import parse_command
from twixt.service import ButtonKind, PickStep, Reply, build_options
from twixt.service import commands as cmd
from twixt.service import errors as kinds
from twixt.service.cases.engine_player import FAILED_SEARCHES
from twixt.service.commands import router
from twixt.service.desk import desk as desk_module
from twixt.service.desk.engine_pool import EnginePool
from twixt.service.desk.engine_seats import THE_ENGINE_PLAYER, engine_level, engine_seat_id
from twixt.storage import Result


async def _challenge_engine(service, channel: int = CHANNEL, **options) -> None:
    await service.execute(asking(ALICE, channel),
                          cmd.Challenge(THE_ENGINE_PLAYER, build_options(**options)))
    await service.engine_player.idle()


async def _move(service, text: str, channel: int = CHANNEL, who=ALICE):
    reply = await service.execute(asking(who, channel), cmd.Move(parse_command(text)))
    await service.engine_player.idle()
    return reply


async def _log(service, channel: int = CHANNEL):
    stored = await service.desk.channel_stored(channel)
    return stored, (await service.desk.storage.load_game(stored.id)).turns


async def _commands_once_idle(service) -> list[str]:
    """The commands of the channel's game once the bot has done all it was asked to."""
    await service.engine_player.idle()
    _stored, turns = await _log(service)
    return [turn.command for turn in turns]


async def test_the_bot_accepts_a_challenge_at_once_and_answers_each_turn(storage):
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="8", swap="no", level="2")
        stored, turns = await _log(service)
        assert [s.name for s in stored.seats] == ["alice", "bot (level 2)"]
        assert engine_level(stored.seats[1].user_id) == 2 and turns == ()
        await _move(service, "D4")
        stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(2)]
        assert said.texts()[-1].startswith(f"**bot (level 2)** (Black): `{turns[1].command}`")
        assert "alice (Red) to move." in said.texts()[-1]
        assert (await storage.engine_game(stored.id)).awaiting is False


async def test_a_challenge_to_the_bot_without_a_level_is_at_the_default_level(storage):
    async with engine_service(storage) as (service, _said):
        await _challenge_engine(service, size="8")
        stored, _turns = await _log(service)
        assert stored.seats[1].name == "bot (level 3)"


async def test_the_bot_playing_red_moves_first_and_decides_on_swap(storage):
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="8", first="them")
        _stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [engine_seat_id(3)]
        await _move(service, "swap")
        _stored, turns = await _log(service)
        assert len(turns) == 3 and turns[2].actor_id == engine_seat_id(3)
        assert len(said.texts()) == 2


async def test_a_level_outside_one_to_five_or_without_the_bot_is_refused(storage):
    async with engine_service(storage) as (service, _said):
        with pytest.raises(kinds.MalformedError, match="level is 1 to 5"):
            await _challenge_engine(service, level="6")
        with pytest.raises(kinds.MalformedError, match="options of a challenge to the bot"):
            await service.execute(asking(ALICE), cmd.Challenge(BOB, build_options(level=2)))
        assert await storage.active_game(CHANNEL) is None


#: alice's chain from her top border row: after E9 she is two pegs from through (D11, then
#: B12 or F12; or F11, then D12 or H12), a loss anyone sees
ALICES_CHAIN = ("E1 link all", "F3 link all", "E5 link all", "F7 link all", "E9 link all")


async def test_the_bot_resigns_at_its_third_hopeless_turn_in_a_row(storage):
    async with engine_service(storage, engines.lost) as (service, said):
        await _challenge_engine(service, size="12", swap="no")
        for move in (*ALICES_CHAIN, "J3"):
            await _move(service, move)
        assert (await storage.active_game(CHANNEL)) is not None
        await _move(service, "J5")
        stored, turns = await _log(service)
        assert turns[-1].command == "resign" and turns[-1].actor_id == engine_seat_id(3)
        assert stored.result.result is Result.RED
        assert "alice (Red) wins — Black resigned." in said.texts()[-1]


async def test_the_bot_plays_on_while_its_loss_is_not_plain_to_see(storage):
    """However low the engine rates its chance, the bot does not resign while its opponent
    is more than two pegs from connecting: a newcomer's five scattered pegs on 12×12 were
    enough for level 1 to resign."""
    async with engine_service(storage, engines.lost) as (service, _said):
        await _challenge_engine(service, size="12", swap="no", level="1")
        for hole in ("F6", "F8", "F10", "C10", "C3", "H4"):
            await _move(service, hole)
        stored, turns = await _log(service)
        assert stored.is_active and "resign" not in [turn.command for turn in turns]
        assert len(turns) == 12   # the bot answered every one


async def test_a_hopeful_turn_starts_the_count_again(storage):
    async with engine_service(storage, engines.lost) as (service, _said):
        await _challenge_engine(service, size="12", swap="no")
        for move in ALICES_CHAIN[:-1]:
            await _move(service, move)
        service.engine_player.think = engines.winning
        await _move(service, ALICES_CHAIN[-1])
        service.engine_player.think = engines.lost
        await _move(service, "J3")
        await _move(service, "J5")
        assert await storage.active_game(CHANNEL) is not None  # two in a row only


async def test_a_rematch_plays_the_bot_again_at_its_level_with_colours_exchanged(storage):
    async with engine_service(storage) as (service, _said):
        await _challenge_engine(service, size="8", swap="no", level="4")
        await service.execute(asking(ALICE), cmd.Resign(confirmed=True))
        await service.execute(asking(ALICE), cmd.Rematch())
        await service.engine_player.idle()
        stored, turns = await _log(service)
        assert [s.name for s in stored.seats] == ["bot (level 4)", "alice"]
        assert [t.actor_id for t in turns] == [engine_seat_id(4)]  # Red now: it moved first


async def test_a_rematch_grants_takebacks_as_the_first_game_did(storage):
    async with engine_service(storage) as (service, _said):
        await _challenge_engine(service, size="8", swap="no", takebacks="yes", first="them")
        await service.execute(asking(ALICE), cmd.Resign(confirmed=True))
        await service.execute(asking(ALICE), cmd.Rematch())
        await service.engine_player.idle()
        stored, _turns = await _log(service)
        assert (await storage.engine_game(stored.id)).takebacks is True
        await _move(service, "D4")
        await service.execute(asking(ALICE), cmd.Takeback("request"))
        assert (await _commands_once_idle(service))[-2:] == ["takeback", "takeback"]


async def test_games_with_the_bot_change_no_rating(storage):
    async with engine_service(storage, engines.lost) as (service, _said):
        await _challenge_engine(service, size="12", swap="no")
        for hole in (*ALICES_CHAIN, "J3", "J5"):
            await _move(service, hole)
        stored, _turns = await _log(service)
        assert stored.result.rated_sides is None
        stats = await storage.player_stats(1, ALICE.id)
        assert stats.rating is None and stats.wins == 1


# alice offers on her own turn: the engine's chance is hers, the bot's is the rest
@pytest.mark.parametrize(("think", "answer"), [(engines.winning, "accept draw"),
                                               (engines.drawish, "decline draw")])
async def test_the_bot_answers_a_draw_offer_by_its_chances(storage, think, answer):
    async with engine_service(storage, think) as (service, _said):
        await _challenge_engine(service, size="12", swap="no")
        await _move(service, "F6")
        await _move(service, "offer draw")
        stored, turns = await _log(service)
        assert turns[-1].command == answer and turns[-1].actor_id == engine_seat_id(3)
        assert stored.is_active is (answer == "decline draw")


async def test_a_draw_offered_with_a_move_is_answered_before_the_bot_moves(storage):
    async with engine_service(storage, engines.winning) as (service, _said):
        await _challenge_engine(service, size="12", swap="no")
        await _move(service, "F6; offer draw")
        _stored, turns = await _log(service)
        assert [t.command for t in turns][1] == "decline draw"
        assert len(turns) == 3 and turns[2].actor_id == engine_seat_id(3)  # then its move


@pytest.mark.parametrize("takebacks", ["yes", "no"])
async def test_the_bot_grants_a_takeback_only_if_the_challenge_allowed_it(
        storage, tmp_path, monkeypatch, takebacks):
    latch = tmp_path / "latch"
    monkeypatch.setenv(engines.LATCH, str(latch))
    async with engine_service(storage, engines.latched) as (service, said):
        await _challenge_engine(service, size="12", swap="no", takebacks=takebacks)
        await service.execute(asking(ALICE), cmd.Move(parse_command("F6")))
        # asked while the bot thinks about its answer to F6
        await service.execute(asking(ALICE), cmd.Takeback("request"))
        latch.touch()
        await service.engine_player.idle()
        _stored, turns = await _log(service)
        if takebacks == "yes":
            assert [t.command for t in turns] == ["F6", "takeback"]
            assert "alice's `F6` is taken back." in said.texts()[0]
        else:
            assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
            assert said.texts()[0].startswith("bot (level 3) declines the takeback.")
            assert "`takebacks yes`" in said.texts()[0]


async def test_a_takeback_after_the_bot_answered_takes_back_its_answer_too(storage):
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="12", swap="no", takebacks="yes")
        await _move(service, "F6")
        _stored, turns = await _log(service)
        answer = turns[1].command
        request = await service.execute(asking(ALICE), cmd.Takeback("request"))
        assert "alice asks to take back `F6`." in request.plain
        await service.engine_player.idle()
        stored, turns = await _log(service)
        assert [t.command for t in turns] == ["F6", answer, "takeback", "takeback"]
        assert said.texts()[-1].startswith(f"alice's `F6` is taken back.\nbot (level 3)'s "
                                           f"`{answer}` is taken back.\nalice (Red) to move.")
        assert (await service.desk.position(stored)).moves_made == 0


async def _typed(service, stored) -> Reply:
    return await service.answer(asking(ALICE), router.read_command("D4"), {})


async def _picked(service, stored) -> Reply:
    return await service.answer(asking(ALICE), cmd.Pick(stored.id, stored.version,
                                                        PickStep.PLACE, "D4"), {})


async def _confirmed(service, stored) -> Reply:
    await service.answer(asking(ALICE), cmd.UserSettings({"confirm": "on"}), {})
    shown = await service.answer(asking(ALICE), cmd.Move(parse_command("D4")), {})
    [button] = shown.buttons
    return await service.answer(asking(ALICE), cmd.of_button(button.kind, button.target), {})


@pytest.mark.parametrize("way", [_typed, _picked, _confirmed],
                         ids=["typed", "picked", "confirmed"])
async def test_the_bot_answers_a_move_made_in_every_way(storage, way):
    # the bot hears of a turn as it is played (`Desk.turn_played`), whichever way it came
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="8", swap="no")
        stored, _turns = await _log(service)
        reply = await way(service, stored)
        assert reply.plain.startswith("**alice** (Red): `D4`"), reply.plain
        await service.engine_player.idle()
        _stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
        assert len(said.replies) == 1


async def test_the_bot_answers_a_stored_reply_that_answered_its_move(storage):
    async with engine_service(storage, engines.broken) as (service, said):
        await _challenge_engine(service, size="8", swap="no")
        await _move(service, "D4")  # the bot's search fails: its move waits
        game = await service.channel_game(CHANNEL)
        bots_move = str(game.legal_placements()[-1])  # what `engines.winning` will play
        await service.execute(asking(ALICE), router.conditional(f"if {bots_move} then E5"))
        service.engine_player.think = engines.winning
        await service.tick()  # the bot looks again, moves, and alice's reply answers it
        commands = await _commands_once_idle(service)
        assert commands[:3] == ["D4", bots_move, "E5"]
        assert len(commands) == 4  # the bot heard of the stored reply and answered it
        assert said.texts()[0].splitlines()[1] == "alice answers at once with a stored move:"
        assert len(said.replies) == 2


async def test_a_takeback_cannot_reach_past_a_persons_turn(storage):
    async with engine_service(storage) as (service, _said):
        await _engine_partner(service)
        await _move(service, "F6")
        await _move(service, "C5", who=BOB)  # and alice's partner, the bot, answers
        with pytest.raises(kinds.NotAllowedError, match="only the player who made the last turn"):
            await service.execute(asking(ALICE), cmd.Takeback("request"))


async def test_after_a_restart_the_bot_moves_in_the_games_awaiting_it(storage):
    async with engine_service(storage, engines.broken) as (service, said):
        await _challenge_engine(service, size="8", swap="no")
        await _move(service, "D4")  # the search never answers: the process went down
        stored, turns = await _log(service)
        assert len(turns) == 1 and said.replies == []
        assert await storage.awaiting_engine_games(10) == (stored.id,)
    async with engine_service(storage) as (service, said):  # the bot starts again
        await service.tick()
        await service.engine_player.idle()
        _stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
        assert len(said.replies) == 1
        assert await storage.awaiting_engine_games(10) == ()


async def test_a_turn_marks_its_game_as_awaiting_the_bot_before_it_is_stored(storage):
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="8", swap="no")
        stored, _turns = await _log(service)
        assert await storage.awaiting_engine_games(10) == ()  # alice to move: nothing to do
        # the turn alone, as if the process stopped before it could ask the bot to answer
        await service.turns.move(asking(ALICE), parse_command("D4"))
        assert await storage.awaiting_engine_games(10) == (stored.id,)
        assert said.replies == []


async def test_a_takeback_request_asked_just_before_a_restart_is_answered_after_it(storage):
    async with engine_service(storage) as (service, _said):
        await _challenge_engine(service, size="8", swap="no", takebacks="yes")
        await _move(service, "D4")
        stored, _turns = await _log(service)
        assert await storage.awaiting_engine_games(10) == ()
        # the request alone, as if the process stopped before it could ask the bot
        await service.turns.takeback(asking(ALICE), "request")
        assert await storage.awaiting_engine_games(10) == (stored.id,)
    async with engine_service(storage) as (service, _said):  # the bot starts again
        await service.tick()
        assert (await _commands_once_idle(service))[-2:] == ["takeback", "takeback"]


async def test_two_schedulers_at_once_make_the_bot_move_once(storage):
    async with engine_service(storage, engines.broken) as (service, _said):
        await _challenge_engine(service, size="8", swap="no")
        await _move(service, "D4")
    async with engine_service(storage) as (one, said_one), engine_service(storage) as (two,
                                                                                       said_two):
        await one.tick()
        await two.tick()
        await one.engine_player.idle()
        await two.engine_player.idle()
        _stored, turns = await _log(one)
        assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
        assert len(said_one.replies) + len(said_two.replies) == 1


async def test_a_full_pool_says_so_once_and_the_bot_answers_later(storage, tmp_path,
                                                                   monkeypatch):
    latch = tmp_path / "latch"
    monkeypatch.setenv(engines.LATCH, str(latch))
    pool = EnginePool(1, queue_limit=0)
    async with engine_service(storage, engines.latched, pool=pool) as (service, said):
        for channel in (CHANNEL, CHANNEL + 1):
            await _challenge_engine(service, channel, size="8", swap="no")
        await service.execute(asking(ALICE, CHANNEL), cmd.Move(parse_command("D4")))
        while pool.running == 0:  # the bot thinks in the first game, the worker is taken
            await _pause()
        await service.execute(asking(ALICE, CHANNEL + 1), cmd.Move(parse_command("D4")))
        while not said.replies:
            await _pause()
        assert said.texts(CHANNEL + 1) == ["bot (level 3) has many games to think about just "
                                           "now; it answers here as soon as it can."]
        await service.tick()  # asks again: still full, and not said again
        latch.touch()
        await service.engine_player.idle()
        for channel in (CHANNEL, CHANNEL + 1):
            _stored, turns = await _log(service, channel)
            assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
        assert len(said.texts(CHANNEL + 1)) == 2


async def test_the_bot_fills_a_partners_seat_in_double_twixt(storage):
    async with engine_service(storage) as (service, said):
        await _engine_partner(service)
        await service.engine_player.idle()
        stored, _turns = await _log(service)
        assert [s.name for s in stored.seats] == ["alice", "bob", "bot (level 1)", "carol"]
        await _move(service, "F6")
        await _move(service, "C5", who=BOB)
        _stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [ALICE.id, BOB.id, engine_seat_id(1)]
        assert said.texts()[-1].startswith("**bot (level 1)** (Red)")


async def test_several_bot_seats_play_in_turn_and_call_privilege_by_the_rules(storage):
    async with engine_service(storage, engines.privileged) as (service, _said):
        await _challenge_team_of_engines(service)
        stored, turns = await _log(service)
        assert [s.user_id for s in stored.seats] == [ALICE.id, -2, -12, -22]
        assert [s.name for s in stored.seats][1:] == ["bot (level 2)", "bot 2 (level 2)",
                                                      "bot 3 (level 2)"]
        await _move(service, "F6")
        _stored, turns = await _log(service)
        # seat 2 (-2) moves and calls privilege: alice's partner (seat 3) is skipped, the
        # caller's partner (seat 4) moves, and then alice, the partner of the skipped seat
        assert "privilege" in turns[1].command
        assert [t.actor_id for t in turns] == [ALICE.id, -2, -22]
        game = await service.channel_game(CHANNEL)
        assert game.player_to_move == "alice"


async def _engine_partner(service) -> None:
    """alice and the bot (level 1) against bob and carol, who accept."""
    await service.execute(asking(ALICE), cmd.TeamChallenge(THE_ENGINE_PLAYER, (BOB, CAROL),
                                                  build_options(size="12", level="1")))
    for user in (BOB, CAROL):
        await service.execute(asking(user), cmd.AnswerChallenge("accept"))


async def _challenge_team_of_engines(service) -> None:
    await service.execute(asking(ALICE), cmd.TeamChallenge(THE_ENGINE_PLAYER, (THE_ENGINE_PLAYER,
                                                                      THE_ENGINE_PLAYER),
                                                  build_options(size="12", level="2")))
    await service.engine_player.idle()


async def _pause() -> None:
    await asyncio.sleep(0.01)


async def test_a_private_word_the_bot_passes_on_stays_a_direct_message(storage):
    # a player's stored reply that the bot's move made unplayable is told to them alone
    # (`conditionals._dropped`): with no channel to fall back on when the DM fails
    async with engine_service(storage) as (service, said):
        await _challenge_engine(service, size="8", swap="no")
        stored, _turns = await _log(service)
        private = Reply("Your stored reply `G6` could not be played.", dm_user_id=ALICE.id)
        await service.engine_player._say(stored, Reply("bot moves", followups=(private,)))
        assert [(r.channel_id, r.dm_user_id) for r in said.replies] == [(CHANNEL, None),
                                                                         (None, ALICE.id)]


async def test_a_reminder_of_the_bots_late_turn_is_said_in_the_channel_not_sent_to_it(
        storage):
    clock = Clock()
    async with engine_service(storage, engines.broken, clock=clock) as (service, _said):
        await _challenge_engine(service, size="8", swap="no", time="3d", vacation="no")
        await _move(service, "D4")  # the bot's search fails: its clock runs
        await service.preferences.server_settings(asking(BOB, server_manager=True),
                                                  {"reminder": "12"})
        clock.now += timedelta(hours=12)
        [reminder] = await service.tick()
        assert reminder.plain.startswith("bot (level 3), it is your move in game")
        assert reminder.dm_user_id is None and reminder.mentions == ()
        assert reminder.channel_id == CHANNEL


async def test_the_bot_does_not_continue_an_imported_record(storage):
    """A record may be a game still in play against a person: the bot's answer would be a
    hint in it."""
    record = b'[Board "8x8"]\n[Players "alice, bob"]\nalice: D4\nbob: E6\n'
    async with engine_service(storage) as (service, _said):
        with pytest.raises(kinds.MalformedError,
                           match=r"^the bot does not continue imported records"):
            await service.records.import_record(asking(ALICE), "g.twixt", record, THE_ENGINE_PLAYER)
        assert await storage.pending_challenges(channel_id=CHANNEL) == ()
        with pytest.raises(kinds.MissingError, match=r"^this channel has no games$"):
            await service.desk.channel_stored(CHANNEL)


async def test_a_player_has_at_most_the_servers_number_of_bot_games_at_once(storage):
    # one player's games must not take the engine from everyone: `botgames`, 5 by default
    async with engine_service(storage, engines.winning) as (service, _said):
        for channel in range(CHANNEL + 1, CHANNEL + 6):
            await _challenge_engine(service, channel, size="8")
        with pytest.raises(kinds.LimitError) as refused:
            await _challenge_engine(service, CHANNEL + 6, size="8")
        assert str(refused.value) == ("you have as many games with the bot in progress as this "
                                      "server allows a player (botgames 5): finish one first")
        assert await storage.active_game(CHANNEL + 6) is None
        await service.execute(asking(BOB, CHANNEL + 6),
                              cmd.Challenge(THE_ENGINE_PLAYER, build_options(size="8")))  # bob may
        await service.engine_player.idle()
        await _move(service, "resign", CHANNEL + 1)
        await _challenge_engine(service, CHANNEL + 7, size="8")  # a place came free
        await service.preferences.server_settings(asking(CAROL, server_manager=True),
                                                  {"botgames": "2"})
        with pytest.raises(kinds.LimitError, match=r"\(botgames 2\)"):
            await _challenge_engine(service, CHANNEL + 8, size="8")


async def test_challenges_to_the_bot_sent_at_once_in_many_channels_keep_the_limit(storage):
    async with engine_service(storage, engines.winning) as (service, _said):
        await service.preferences.server_settings(asking(CAROL, server_manager=True),
                                                  {"botgames": "2"})
        channels = range(CHANNEL + 1, CHANNEL + 7)
        answers = await asyncio.gather(
            *(service.execute(asking(ALICE, channel),
                              cmd.Challenge(THE_ENGINE_PLAYER, build_options(size="8")))
              for channel in channels), return_exceptions=True)
        await service.engine_player.idle()
        refused = [a for a in answers if isinstance(a, kinds.LimitError)]
        assert len(refused) == 4 and all("(botgames 2)" in str(a) for a in refused)
        assert await storage.open_engine_games(GUILD, ALICE.id) == 2


async def test_joining_a_team_with_the_bot_counts_against_the_limit(storage):
    async with engine_service(storage, engines.winning) as (service, _said):
        await service.preferences.server_settings(asking(CAROL, server_manager=True),
                                                  {"botgames": "1"})
        await service.execute(asking(BOB, CHANNEL + 1),
                              cmd.Challenge(THE_ENGINE_PLAYER, build_options(size="8")))
        await service.challenges.team(asking(ALICE), THE_ENGINE_PLAYER, (BOB, CAROL),
                                      build_options(size="8"))
        with pytest.raises(kinds.LimitError, match=r"\(botgames 1\)"):
            await service.challenges.accept(asking(BOB))
        await service.engine_player.idle()


@pytest.mark.parametrize("wrong", ["0", "21", "many"])
async def test_the_bot_games_setting_is_a_number_from_one_to_twenty(storage, wrong):
    async with engine_service(storage) as (service, _said):
        with pytest.raises(kinds.MalformedError,
                           match="botgames is a number of games from 1 to 20"):
            await service.preferences.server_settings(asking(CAROL, server_manager=True),
                                                      {"botgames": wrong})


async def test_a_team_challenge_with_the_bot_asks_only_the_people(storage):
    async with engine_service(storage) as (service, _said):
        english = await service.execute(asking(ALICE), cmd.TeamChallenge(
            THE_ENGINE_PLAYER, (BOB, CAROL), build_options(size="12", level="1")))
        assert english.plain.endswith("first. bob and carol, accept or decline.")
        assert "three" not in english.plain
        await service.execute(asking(ALICE), cmd.AnswerChallenge("decline"))
        german = await service.execute(asking(ALICE, locale="de"), cmd.TeamChallenge(
            BOB, (THE_ENGINE_PLAYER, CAROL), build_options(size="12", level="1")))
        assert german.plain.endswith("zuerst. bob und carol, nehmt an oder lehnt ab.")
        await service.execute(asking(ALICE), cmd.AnswerChallenge("decline"))
        alone = await service.execute(asking(ALICE, locale="de"), cmd.TeamChallenge(
            THE_ENGINE_PLAYER, (THE_ENGINE_PLAYER, CAROL), build_options(size="12", level="1")))
        assert alone.plain.endswith("zuerst. carol, nimm an oder lehne ab.")


async def test_when_the_bot_moves_first_the_start_says_it_is_thinking(storage):
    async with engine_service(storage) as (service, _said):
        start = await service.execute(asking(ALICE), cmd.Challenge(
            THE_ENGINE_PLAYER, build_options(size="8", first="them", level="1")))
        assert start.plain.splitlines()[1] == "bot (level 1) moves first (Red) and is thinking…"
        assert "write your move" not in start.plain
        await service.engine_player.idle()
        german = await service.execute(asking(ALICE, CHANNEL + 1, locale="de"), cmd.Challenge(
            THE_ENGINE_PLAYER, build_options(size="8", first="them", level="1")))
        assert german.plain.splitlines()[1] == ("bot (level 1) zieht zuerst (Rot) und denkt "
                                               "nach …")
        await service.engine_player.idle()


async def test_the_bots_own_move_offers_nobody_a_privilege_button(storage):
    async with engine_service(storage) as (service, said):
        await service.execute(asking(ALICE), cmd.TeamChallenge(THE_ENGINE_PLAYER, (BOB, CAROL),
                                                      build_options(size="12", level="1")))
        for user in (BOB, CAROL):
            await service.execute(asking(user), cmd.AnswerChallenge("accept"))
        await service.execute(asking(ALICE), cmd.Move(parse_command("F6")))
        mine = await service.execute(asking(BOB), cmd.Move(parse_command("C5")))
        # bob may call it; Offer draw and Resign are the board's own
        assert [b.kind for b in mine.buttons] == [ButtonKind.PRIVILEGE, ButtonKind.OFFER_DRAW,
                                                  ButtonKind.RESIGN]
        await service.engine_player.idle()
        engine_turn = said.replies[-1]
        assert engine_turn.plain.startswith("**bot (level 1)**")
        assert ButtonKind.PRIVILEGE not in [b.kind for b in engine_turn.buttons]


def _counting_searches(service) -> list[int]:
    """One entry for each search the bot asks the engine pool for, from now on."""
    searched: list[int] = []
    pool = service.desk.engine_pool
    run = pool.run

    async def counted(owner, search, game, limit):
        searched.append(len(searched))
        return await run(owner, search, game, limit)

    pool.run = counted
    return searched


async def _ticks(service, count: int) -> None:
    for _ in range(count):
        await service.tick()
        await service.engine_player.idle()


async def test_a_game_at_its_cap_of_side_entries_still_gets_the_bots_pegs(storage,
                                                                          monkeypatch):
    """The bot would decline alice's draw offer, but the log takes no more side entries:
    its peg lapses the offer instead, at one search, and no tick searches again."""
    monkeypatch.setattr(desk_module, "MAX_SIDE_ENTRIES", 2)
    async with engine_service(storage, engines.winning) as (service, _said):
        searched = _counting_searches(service)
        await _challenge_engine(service, size="12", swap="no")
        for hole in ("F6", "F8"):
            await _move(service, f"{hole}; offer draw")  # declined: side entries 1 and 2
        assert len(searched) == 4  # a search to answer the offer, and one for the peg
        await _move(service, "F10; offer draw")
        await _ticks(service, 3)
        stored, turns = await _log(service)
        assert len(searched) == 5 and turns[-1].actor_id == engine_seat_id(3)
        assert parse_command(turns[-1].command).is_move
        assert (await storage.engine_game(stored.id)).awaiting is False
        await _move(service, "C10")  # alice's pegs go on too
        _stored, turns = await _log(service)
        assert [t.actor_id for t in turns[-2:]] == [ALICE.id, engine_seat_id(3)]


async def test_a_refused_turn_of_the_bot_ends_the_attempt_once(storage, caplog):
    """A turn of the bot's the rules refuse (not one a turn meanwhile made stale) is tried
    once: logged once, said in the channel, and the game is no longer awaiting the bot; a
    person resolves it."""
    async with engine_service(storage, engines.taken) as (service, said):
        searched = _counting_searches(service)
        await _challenge_engine(service, size="8", swap="no")
        with caplog.at_level("INFO"):
            await _move(service, "D4")
            await _ticks(service, 3)
        _stored, turns = await _log(service)
        assert len(searched) == 1 and len(turns) == 1
        assert len([r for r in caplog.records if "bot turn refused" in r.getMessage()]) == 1
        assert "bot (level 3) cannot play its turn (D4 is already taken)" in said.texts()[-1]
        assert await storage.awaiting_engine_games(10) == ()
        await service.execute(asking(ALICE), cmd.Resign(confirmed=True))
        assert (await storage.active_game(CHANNEL)) is None


async def test_a_search_that_fails_every_time_is_tried_a_bounded_number_of_times(storage):
    async with engine_service(storage, engines.broken) as (service, _said):
        searched = _counting_searches(service)
        await _challenge_engine(service, size="8", swap="no")
        await _move(service, "D4")
        await _ticks(service, 2 * FAILED_SEARCHES)
        assert len(searched) == FAILED_SEARCHES
        stored, _turns = await _log(service)
        assert await storage.awaiting_engine_games(10) == (stored.id,)  # a restart tries again


async def test_a_takeback_the_log_has_no_room_for_is_declined_saying_why(storage, monkeypatch):
    """Granting would take the log past its cap: the bot declines, saying why, rather than
    leaving the request open (and itself never moving) at every look."""
    monkeypatch.setattr(desk_module, "MAX_SIDE_ENTRIES", 1)
    async with engine_service(storage, engines.winning) as (service, said):
        await _challenge_engine(service, size="12", swap="no", takebacks="yes")
        await _move(service, "F6")
        await service.execute(asking(ALICE), cmd.Takeback("request"))
        await _ticks(service, 2)
        stored, turns = await _log(service)
        assert [t.actor_id for t in turns] == [ALICE.id, engine_seat_id(3)]
        assert said.texts()[-1].startswith("bot (level 3) declines the takeback.\n"
                                           "this game's log holds 1 entries besides its moves")
        assert await storage.open_offers(stored.id) == ()
        assert await storage.awaiting_engine_games(10) == ()
        await _move(service, "F8")  # and the game goes on
        _stored, turns = await _log(service)
        assert turns[-1].actor_id == engine_seat_id(3)
