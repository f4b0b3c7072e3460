"""Banks (`time 2d+12h`), vacations (`vacation 3d`, the automatic day at a deadline) and
weekends off, through the service over a real SQLite file on a clock moved by hand. The
clock starts on Thursday 2026-01-01 at 12:00 UTC."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.service.helpers import press, start_game, start_team_game, tick
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, asking
from tests.typed import enter
from twixt.service import ButtonKind, TwixtService, build_options
from twixt.service import errors as kinds

H = timedelta(hours=1)
D = timedelta(days=1)


async def status(service: TwixtService, channel: int = CHANNEL) -> str:
    return (await service.turns.status(asking(CAROL, channel))).plain


async def second_game(service: TwixtService, **options: str) -> None:
    """alice (Red, to move) against carol in channel 200."""
    await service.challenges.challenge(asking(ALICE, 200), CAROL, build_options(**options))
    await service.challenges.accept(asking(CAROL, 200))


# --- banks --------------------------------------------------------------------------------


async def test_a_bank_gains_its_bonus_up_to_its_start_and_survives_a_restart(
        service, storage, clock):
    await start_game(service, time="2d+12h", swap="no")
    assert "bank 2d+12h" in await status(service)
    clock.now += 10 * H
    reply = await enter(service, asking(ALICE), "K10")  # alice: 2d - 10h + 12h, capped at 2d
    assert "bob (Black) to move. (2d 0h left)" in reply.plain
    clock.now += 20 * H
    await enter(service, asking(BOB), "M12")  # bob: 2d - 20h + 12h
    clock.now += D
    await enter(service, asking(ALICE), "K14")  # alice: 2d - 1d + 12h
    text = await status(service)
    assert "bob (Black) to move. (1d 16h left)" in text
    assert "alice: 1d 12h in the bank\nbob: 1d 16h in the bank" in text
    clock.now += 6 * H
    assert "bob: 1d 10h in the bank" in await status(service)
    restarted = TwixtService(storage, clock=clock)  # derived from the log, not memory
    assert await status(restarted) == await status(service)


async def test_a_takeback_refunds_no_time_and_keeps_the_bonus(service, clock):
    await start_game(service, time="2d+12h", swap="no")
    await enter(service, asking(ALICE), "K10")
    clock.now += 10 * H
    await enter(service, asking(BOB), "M12")  # bob: 2d - 10h + 12h, capped at 2d
    await enter(service, asking(BOB), "takeback")
    clock.now += 2 * H
    await enter(service, asking(ALICE), "accept takeback")  # alice's 2h are used, no bonus
    text = await status(service)
    assert "bob (Black) to move. (2d 0h left)" in text
    assert "alice: 1d 22h in the bank" in text


async def test_a_team_game_keeps_a_bank_for_each_player_through_privilege_and_a_restart(
        service, storage, clock):
    await start_team_game(service, time="1d+2h", swap="no")  # seats: alice, bob, carol, dave
    clock.now += 3 * H
    await enter(service, asking(ALICE), "K10; privilege")  # alice: 1d - 3h + 2h; bob skipped
    clock.now += 5 * H
    await enter(service, asking(CAROL), "M10")  # carol: 1d - 5h + 2h
    clock.now += H
    await enter(service, asking(BOB), "offer draw")  # no turn passes: dave's clock runs on
    clock.now += H
    text = await status(service)
    assert "dave (Black, seat 4) to move. (22h 0m left)" in text
    assert ("alice: 23h 0m in the bank\nbob: 1d 0h in the bank\ncarol: 21h 0m in the bank\n"
            "dave: 22h 0m in the bank") in text
    assert await status(TwixtService(storage, clock=clock)) == text


async def test_a_bank_s_reminders_and_deadline_follow_what_is_left_in_it(
        service, storage, clock):
    await storage.update_guild_settings(1, vacation_days=0)
    await storage.update_user_prefs(ALICE.id, dm_reminders=False)
    await start_game(service, time="1d+1h", swap="no")
    clock.now += 2 * H
    await enter(service, asking(ALICE), "K10")  # alice: 1d - 2h + 1h = 23h
    await enter(service, asking(BOB), "M12")
    start = clock.now
    clock.now = start + 7 * H + 40 * timedelta(minutes=1)  # a third of 23h
    [first] = await tick(service)
    assert first.plain == "alice, it is your move in game 1 (15h 20m left)."
    clock.now = start + 11 * H + 30 * timedelta(minutes=1)  # half of it left
    [final] = await tick(service)
    assert final.plain == "alice, it is your move in game 1 (11h 30m left)."
    clock.now = start + 23 * H
    [notice] = await tick(service)
    assert notice.plain.startswith("alice's time to move in game 1 is up")
    reply = await press(service, asking(BOB), ButtonKind.CLAIM, notice.buttons[0].target)
    assert "bob (Black) wins on time" in reply.plain


# --- vacations ----------------------------------------------------------------------------


async def test_a_vacation_stops_the_player_s_clocks_in_every_game_of_the_server(
        service, storage, clock):
    await start_game(service, time="1d", swap="no")
    await second_game(service, time="1d", swap="no")
    await tick(service)
    clock.now += H
    reply = await enter(service, asking(ALICE), "vacation 2d")
    assert reply.plain == ("alice is on vacation until 2026-01-03 13:00 UTC: their clocks stop "
                          "in this server's games that allow vacation. 12 days left this year.")
    assert await storage.next_wake() == clock.now  # both games: their marks again
    assert await tick(service) == []
    assert await storage.next_wake() == clock.now + 2 * D + 7 * H  # the first reminders
    text = await status(service, 200)
    assert "(23h 0m left, on vacation until 2026-01-03 13:00 UTC)" in text
    assert "alice is on vacation until 2026-01-03 13:00 UTC" in text
    clock.now += D  # without the vacation, both would be reminded by now
    assert await tick(service) == []
    clock.now += D + 7 * H
    reminders = await tick(service)
    assert sorted(r.channel_id for r in reminders) == [CHANNEL, 200]
    assert all("(16h 0m left)" in r.plain for r in reminders)
    mine = await enter(service, asking(ALICE), "vacation")
    assert mine.plain == "You have 12 vacation days left this year (of 14)." and mine.ephemeral


async def test_a_vacation_ended_early_counts_the_days_begun(service, storage, clock):
    await start_game(service, time="1d", swap="no")
    await enter(service, asking(ALICE), "vacation 5d")
    clock.now += D + 12 * H
    reply = await enter(service, asking(ALICE), "vacation end")
    assert reply.plain == ("alice's vacation is over; their clocks run again. 12 days left "
                          "this year.")
    assert "alice (Red) to move. (1d 0h left)" in await status(service)
    await tick(service)
    assert await storage.next_wake() == clock.now + 8 * H
    with pytest.raises(kinds.ConflictError, match="you are not on vacation"):
        await enter(service, asking(ALICE), "vacation end")


async def test_an_automatic_day_is_used_instead_of_the_timeout_and_announced_once(
        service, storage, clock):
    await start_game(service, time="1d", swap="no")
    clock.now += D
    [day] = await tick(service)
    assert day.plain == ("alice's time to move in game 1 ran out: a vacation day is used, so "
                        "the clock stands still until 2026-01-03 12:00 UTC. 13 days left this "
                        "year.")
    assert day.mentions == (ALICE.id,) and day.channel_id == CHANNEL and not day.buttons
    assert await tick(service) == []
    assert await tick(TwixtService(storage, clock=clock)) == []  # nor after a restart
    with pytest.raises(kinds.ConflictError, match="alice is on vacation until 2026-01-03 "
                                                  "12:00 UTC: their time is not up"):
        await enter(service, asking(BOB), "claim")
    with pytest.raises(kinds.ConflictError, match="this vacation day was used when your time ran "
                                                  "out"):
        await enter(service, asking(ALICE), "vacation end")
    assert "(0m left, on vacation until 2026-01-03 12:00 UTC)" in await status(service)
    clock.now += D
    [second] = await tick(service)
    assert "until 2026-01-04 12:00 UTC. 12 days left this year." in second.plain
    reply = await enter(service, asking(ALICE), "K10")  # back: the game goes on
    assert "bob (Black) to move. (1d 0h left)" in reply.plain


async def test_an_automatic_day_taken_by_a_process_that_died_is_still_announced_once(
        service, storage, clock):
    await start_game(service, time="1d", swap="no")
    await tick(service)
    clock.now += D
    # a process stored the day at the deadline, then died before it said so
    assert await storage.add_vacation(1, ALICE.id, clock.now, clock.now + D, 1, allowed=14,
                                      automatic=True, game_id=1, now=clock.now)
    clock.now += H
    [day] = await tick(service)
    assert "13 days left this year" in day.plain
    assert await tick(service) == []


async def test_with_no_days_left_the_time_runs_out_as_before(service, storage, clock):
    await enter(service, asking(BOB, server_manager=True), "server vacationdays 1")
    await start_game(service, time="1d", swap="no")
    clock.now += D
    [day] = await tick(service)
    assert "0 days left this year" in day.plain
    clock.now += D
    [notice] = await tick(service)
    assert notice.plain.startswith("alice's time to move in game 1 is up")
    reply = await press(service, asking(BOB), ButtonKind.CLAIM, notice.buttons[0].target)
    assert "bob (Black) wins on time" in reply.plain


async def test_a_game_without_vacation_keeps_its_clock_running(service, storage, clock):
    await enter(service, asking(BOB, server_manager=True), "server vacation no")
    await start_game(service, time="1d", swap="no")  # the server's default: no vacation
    assert "1d per move, no vacation" in await status(service)
    await second_game(service, time="1d", swap="no", vacation="yes")
    await enter(service, asking(ALICE), "vacation 3d")
    assert "(1d 0h left)" in await status(service)
    assert "on vacation" in await status(service, 200)
    clock.now += D
    [notice] = await tick(service)  # no day is used in a game without vacation
    assert notice.channel_id == CHANNEL and "is up" in notice.plain
    assert (await enter(service, asking(ALICE), "vacation")).plain.startswith(
        "You have 11 vacation days left this year (of 14). You are on vacation until "
        "2026-01-04 12:00 UTC.")


async def test_a_server_without_vacation_refuses_one_and_times_out(service, storage, clock):
    await enter(service, asking(BOB, server_manager=True), "server vacationdays 0")
    assert (await enter(service, asking(ALICE), "vacation")).plain == "This server has no vacation."
    with pytest.raises(kinds.NotAllowedError, match="this server has no vacation"):
        await enter(service, asking(ALICE), "vacation 2d")
    await start_game(service, time="1d", swap="no")
    clock.now += D
    [notice] = await tick(service)
    assert "is up" in notice.plain


@pytest.mark.parametrize("line, kind, refusal", [
    ("vacation 15d", kinds.LimitError,
     "a vacation is 1 to 14 days: that is what you have left this year"),
    ("vacation 0", kinds.LimitError, "a vacation is 1 to 14 days"),
    ("vacation soon", kinds.MalformedError,
     "vacation takes a number of days, like vacation 3d, or end"),
    ("vacation 36h", kinds.MalformedError, "vacation takes a number of days"),
    ("vacation end", kinds.ConflictError, "you are not on vacation"),
])
async def test_bad_vacations_are_refused_and_change_nothing(service, storage, clock, line,
                                                            kind, refusal):
    with pytest.raises(kind, match=refusal):
        await enter(service, asking(ALICE), line)
    assert await storage.vacation_days_used(1, ALICE.id, 2026) == 0


async def test_one_vacation_at_a_time_and_no_more_days_than_are_left(service, clock):
    await enter(service, asking(ALICE), "vacation 10 days")
    with pytest.raises(kinds.ConflictError, match="you are on vacation until 2026-01-11 12:00 UTC; "
                                                  "vacation end ends it"):
        await enter(service, asking(ALICE), "vacation 1d")
    clock.now += 10 * D
    with pytest.raises(kinds.LimitError, match="a vacation is 1 to 4 days"):
        await enter(service, asking(ALICE), "vacation 5")
    await enter(service, asking(ALICE), "vacation 4")
    clock.now += 5 * D
    with pytest.raises(kinds.LimitError, match="you have no vacation days left this year"):
        await enter(service, asking(ALICE), "vacation 1")


# --- weekends -----------------------------------------------------------------------------


async def test_weekends_off_stop_the_clock_in_games_started_after_choosing_it(
        service, storage, clock):
    # weekends on (and no vacation day at its deadline): this one runs through
    await start_game(service, time="1d", swap="no", vacation="no")
    await enter(service, asking(ALICE), "settings weekends off")
    clock.now += D - H  # Friday 11:00
    await second_game(service, time="1d", swap="no")
    clock.now += 13 * H  # Saturday 00:00: 13h used, 11h left
    text = await status(service, 200)
    assert "(11h 0m left, weekend off until 2026-01-05 00:00 UTC)" in text
    assert "alice (Red) to move" in await status(service)
    clock.now += D  # Sunday: the first game ran out, the second stands still
    notice, reminder = sorted(await tick(service), key=lambda reply: reply.channel_id or 0)
    assert notice.channel_id == CHANNEL and "is up" in notice.plain
    assert reminder.plain == "alice, it is your move in game 2 (11h 0m left)."
    clock.now += D + 11 * H  # Monday 11:00: its deadline
    [day] = await tick(service)
    assert day.channel_id == 200 and "ran out" in day.plain


async def test_a_rematch_keeps_the_game_s_vacation_option_whatever_the_server_s_default(
        service):
    await start_game(service, time="1d", swap="no", vacation="no")
    await enter(service, asking(BOB), "resign yes")
    await enter(service, asking(BOB, server_manager=True), "server vacation yes")
    rematch = await enter(service, asking(ALICE), "rematch")
    assert "1d per move, no vacation" in rematch.plain


# --- at the deadline: the tick beside a claim, a move, a vacation -------------------------


async def test_a_claim_before_the_tick_uses_the_day_instead_of_winning(service, storage, clock):
    await start_game(service, time="1d", swap="no")
    clock.now += D  # alice's deadline; no tick has looked yet
    with pytest.raises(kinds.ConflictError, match="alice is on vacation until 2026-01-03 "
                                                  "12:00 UTC: their time is not up"):
        await enter(service, asking(BOB), "claim")
    assert await storage.vacation_days_used(1, ALICE.id, 2026) == 1
    [day] = await tick(service)  # and it is announced as if the tick had taken it
    assert "a vacation day is used" in day.plain and "13 days left this year" in day.plain
    assert await tick(service) == []
    assert "alice (Red) to move" in await status(service)


async def test_a_move_landing_while_the_tick_looks_uses_no_day(service, storage, clock,
                                                               monkeypatch):
    await start_game(service, time="1d", swap="no")
    await tick(service)
    clock.now += D + H  # alice is late, and moves just after the tick took the game
    claim_due_games = storage.claim_due_games

    async def a_move_lands_meanwhile(*args, **kwargs):
        claimed = await claim_due_games(*args, **kwargs)
        if claimed:
            await enter(service, asking(ALICE), "K10")
        return claimed

    monkeypatch.setattr(storage, "claim_due_games", a_move_lands_meanwhile)
    assert await tick(service) == []
    assert await storage.vacation_days_used(1, ALICE.id, 2026) == 0
    assert "(1d 0h left)" in await status(service)



async def test_on_an_automatic_day_a_vacation_is_refused_without_pointing_to_vacation_end(
        service, clock):
    await start_game(service, time="1d", swap="no")
    clock.now += D
    await tick(service)
    with pytest.raises(kinds.ConflictError) as refused:
        await enter(service, asking(ALICE), "vacation 3d")
    assert str(refused.value.message) == (
        "your vacation day used when your time ran out lasts until 2026-01-03 12:00 UTC: "
        "start a vacation after it")


async def test_a_vacation_ended_as_it_began_is_not_started_again_at_that_moment(
        service, storage, clock):
    # the terminal table's clock stands still for a whole sitting
    await enter(service, asking(ALICE), "vacation 3d")
    await enter(service, asking(ALICE), "vacation end")
    with pytest.raises(kinds.ConflictError, match="your last vacation ended at this very moment: "
                                                  "start the next one later"):
        await enter(service, asking(ALICE), "vacation 2d")
    assert await storage.vacation_days_used(1, ALICE.id, 2026) == 1
    clock.now += timedelta(minutes=1)
    reply = await enter(service, asking(ALICE), "vacation 2d")
    assert "until 2026-01-03 12:01 UTC" in reply.plain and "11 days left" in reply.plain


async def test_days_and_end_together_are_refused_and_end_nothing(service, storage, clock):
    await enter(service, asking(ALICE), "vacation 3d")
    with pytest.raises(kinds.MalformedError,
                       match="vacation takes a number of days or end, not both"):
        await service.vacations.vacation(asking(ALICE), 2, end=True)
    [running] = await storage.vacations(1, [ALICE.id], clock.now)
    assert running.ends_at == clock.now + 3 * D


async def test_a_vacation_still_running_is_shown_after_the_server_ends_vacation(
        service, clock):
    await enter(service, asking(ALICE), "vacation 3d")
    await enter(service, asking(BOB, server_manager=True), "server vacationdays 0")
    shown = await enter(service, asking(ALICE), "vacation")
    assert shown.plain == ("This server has no vacation. You are on vacation until 2026-01-04 "
                          "12:00 UTC.") and shown.ephemeral


@pytest.mark.parametrize("days, allowed", [(0, True), (60, True), (61, False)])
async def test_the_servers_vacation_days_are_0_to_60(service, storage, days, allowed):
    manager = asking(BOB, server_manager=True)
    if allowed:
        await enter(service, manager, f"server vacationdays {days}")
        assert (await storage.guild_settings(1)).vacation_days == days
    else:
        with pytest.raises(kinds.MalformedError):
            await enter(service, manager, f"server vacationdays {days}")
        assert (await storage.guild_settings(1)).vacation_days == 14  # unchanged
