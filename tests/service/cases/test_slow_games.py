"""Clocks, reminders, takebacks, records, ratings, rematches and settings, on a controlled
clock (no sleeping) over a real SQLite file."""

from __future__ import annotations

import asyncio
import io
import threading
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from tests.service.helpers import press, start_game, tick
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.typed import enter
from twixt import rendering
from twixt.discord.replies import shown
from twixt.rules import Reason, records
from twixt.rules.records import read
from twixt.service import ButtonKind, TwixtService, build_options
from twixt.service import errors as kinds
from twixt.storage import Result
from twixt.storage.ratings import Rating, rate_game

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data"


# --- clocks -------------------------------------------------------------------------------


async def test_time_left_shows_in_status_and_turn_replies(service, clock):
    await start_game(service, time="3d", swap="no")
    reply = await enter(service, asking(ALICE), "K10")
    assert "bob (Black) to move. (3d 0h left)" in reply.plain
    clock.now += timedelta(days=1, hours=2)
    assert "(1d 22h left)" in (await service.turns.status(asking(CAROL))).plain


async def test_reminders_are_sent_once_even_across_a_restart(storage, clock):
    service = TwixtService(storage, clock=clock)
    await start_game(service, time="3d", swap="no")
    await enter(service, asking(ALICE), "K10")
    await storage.update_user_prefs(BOB.id, dm_reminders=False)
    assert await tick(service) == []
    clock.now += timedelta(hours=25)
    [reminder] = await tick(service)
    assert reminder.mentions == (BOB.id,) and reminder.channel_id == CHANNEL
    assert reminder.plain == "bob, it is your move in game 1 (1d 23h left)."
    assert await tick(service) == []
    restarted = TwixtService(storage, clock=clock)
    assert await tick(restarted) == []
    clock.now += timedelta(days=1)  # 24 hours remain: the last reminder
    [final] = await tick(restarted)
    assert "(23h 0m left)" in final.plain
    assert await tick(restarted) == []


async def test_one_broken_game_does_not_stop_the_clocks_of_the_others(
        service, storage, clock, caplog):
    await start_game(service, time="3d", swap="no")
    broken = await storage.active_game(CHANNEL)
    # a log entry that no longer replays, as a damaged database might hold
    await storage.append_turn(broken.id, broken.version, ALICE.id, "A1")
    await service.challenges.challenge(asking(CAROL, 200), DAVE, build_options(time="3d"))
    await service.challenges.accept(asking(DAVE, 200))
    clock.now += timedelta(hours=25)
    [reminder] = await tick(service)
    assert reminder.channel_id == 200 and reminder.plain.startswith("carol, it is your move")
    failed = next(r for r in caplog.records if r.message.startswith("clock of one game failed"))
    assert failed.game_id == broken.id


@pytest.mark.parametrize("time, first_after, first_left, final_after, final_left", [
    ("1h", timedelta(minutes=20), "40m", timedelta(minutes=30), "30m"),
    ("12h", timedelta(hours=4), "8h 0m", timedelta(hours=6), "6h 0m"),
    ("1d", timedelta(hours=8), "16h 0m", timedelta(hours=12), "12h 0m"),
    ("7d", timedelta(hours=24), "6d 0h", timedelta(days=6), "1d 0h"),
])
async def test_every_clock_gets_a_first_and_a_last_reminder(
        service, storage, clock, time, first_after, first_left, final_after, final_left):
    await start_game(service, time=time, swap="no")
    await storage.update_user_prefs(ALICE.id, dm_reminders=False)
    start = clock.now
    clock.now = start + first_after - timedelta(minutes=1)
    assert await tick(service) == []
    clock.now = start + first_after
    [first] = await tick(service)
    assert first.plain == f"alice, it is your move in game 1 ({first_left} left)."
    clock.now = start + final_after
    [final] = await tick(service)
    assert final.plain == f"alice, it is your move in game 1 ({final_left} left)."
    assert await tick(service) == []


async def test_a_new_turn_cancels_the_pending_reminder(service, clock):
    await start_game(service, time="3d", swap="no")
    await enter(service, asking(ALICE), "K10")
    clock.now += timedelta(hours=20)
    await enter(service, asking(BOB), "M12")
    clock.now += timedelta(hours=10)  # 30 hours since alice moved, 10 since bob did
    assert await tick(service) == []


async def test_reminders_go_by_direct_message_by_preference(service, clock):
    await start_game(service, time="2d", swap="no")
    clock.now += timedelta(hours=25)
    [reminder] = await tick(service)
    assert reminder.dm_user_id == ALICE.id and reminder.mentions == ()


async def test_when_time_runs_out_the_opponent_may_claim(service, storage, clock):
    await storage.update_guild_settings(1, vacation_days=0)  # no vacation days to use
    await start_game(service, time="1d", swap="no")
    await enter(service, asking(ALICE), "K10")
    with pytest.raises(kinds.ConflictError, match="bob still has 23h 0m to move"):
        clock.now += timedelta(hours=1)
        await service.clocks.claim(asking(ALICE))
    clock.now += timedelta(days=1)
    [notice] = await tick(service)
    assert notice.buttons[0].kind is ButtonKind.CLAIM and notice.mentions == (ALICE.id,)
    assert await tick(service) == []
    with pytest.raises(kinds.NotAllowedError, match="only an opponent of bob can claim on time"):
        await service.clocks.claim(asking(BOB))
    reply = await press(service, asking(ALICE), ButtonKind.CLAIM, notice.buttons[0].target)
    assert "alice (Red) wins on time" in reply.plain and reply.mentions == (BOB.id,)
    [finished] = await storage.list_games(channel_id=CHANNEL)
    assert (finished.result.result, finished.result.reason) == (Result.RED, "time")
    game = await service.channel_game(CHANNEL)
    assert game.history[-1].text == "timeout" and game.history[-1].player == "bob"


async def test_a_guild_may_forfeit_at_the_deadline_at_once(service, storage, clock):
    await storage.update_guild_settings(1, forfeit_on_timeout=True)
    await start_game(service, time="12h", swap="no", vacation="no")
    clock.now += timedelta(hours=12)
    [forfeit] = await tick(service)
    assert "alice ran out of time." in forfeit.plain and forfeit.channel_id == CHANNEL
    assert forfeit.mentions == (ALICE.id, BOB.id)
    assert [b.kind for b in forfeit.buttons] == [ButtonKind.REMATCH]
    assert (await storage.active_game(CHANNEL)) is None
    assert await tick(service) == []


async def test_bad_time_controls(service):
    for text, message in [("soon", "time is a time per move like 3d or 12h"),
                          ("30m", "time per move is 1h to 60d")]:
        with pytest.raises(kinds.MalformedError, match=message):
            build_options(time=text)


# --- takebacks ----------------------------------------------------------------------------


async def test_takeback_restores_the_exact_state_and_the_log_keeps_it(service, storage):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    before = (await service.channel_game(CHANNEL)).snapshot()
    await enter(service, asking(BOB), "M12")
    ask = await enter(service, asking(BOB), "takeback")
    assert ask.mentions == (ALICE.id,) and ask.buttons[0].kind is ButtonKind.ACCEPT_TAKEBACK
    reply = await press(service, asking(ALICE), ButtonKind.ACCEPT_TAKEBACK, ask.buttons[0].target)
    assert reply.plain.startswith("bob's `M12` is taken back.\nbob (Black) to move.")
    assert (await service.channel_game(CHANNEL)).snapshot() == before
    restarted = TwixtService(storage)
    assert (await restarted.channel_game(CHANNEL)).snapshot() == before
    loaded = await storage.load_game(1)
    assert [t.command for t in loaded.turns] == ["K10", "M12", "takeback"]
    export = await service.records.export(asking(ALICE), "transcript")
    exported = export.attachments[0].data.decode()
    assert exported.splitlines()[-1] == "alice: K10"


async def test_takeback_rules(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    with pytest.raises(kinds.NotAllowedError, match="only the player who made the last turn"):
        await service.turns.takeback(asking(BOB))
    await service.turns.takeback(asking(ALICE))
    with pytest.raises(kinds.NotYourTurnError, match="an opponent has to answer"):
        await service.turns.takeback(asking(ALICE), "accept")
    await enter(service, asking(BOB), "M12")
    with pytest.raises(kinds.ConflictError, match="lapsed"):
        await service.turns.takeback(asking(BOB), "accept")
    await service.turns.takeback(asking(BOB))
    declined = await service.turns.takeback(asking(ALICE), "decline")
    assert declined.plain == "alice declines the takeback."
    with pytest.raises(kinds.MissingError, match="there is no takeback request"):
        await service.turns.takeback(asking(ALICE), "accept")


# --- records ------------------------------------------------------------------------------


async def test_export_gives_all_three_records(service):
    await start_game(service, rules="pp", swap="no")
    await enter(service, asking(ALICE), "K10")
    reply = await service.records.export(asking(CAROL))
    names = [a.filename for a in reply.attachments]
    assert names == ["twixt-1.twixt", "twixt-1.tsgf", "twixt-1.T1"]
    for attachment in reply.attachments:
        fmt = {"twixt": "transcript", "tsgf": "lg", "T1": "t1"}[attachment.filename.split(".")[1]]
        assert read(attachment.data.decode(), fmt).pegs_placed == 1


async def test_history_pages_and_replay(service, storage):
    for _ in range(12):
        await start_game(service)
        await service.turns.resign(asking(BOB), confirmed=True)
    first = await service.records.history(asking(ALICE))
    assert first.plain.count("\n#") == 10 and "More: history page 2" in first.plain
    second = await service.records.history(asking(ALICE), ALICE, page=2)
    assert second.plain.count("\n#") == 2 and "alice won (resignation)" in second.plain
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await enter(service, asking(BOB), "M12")
    replay = await service.records.replay(asking(ALICE))
    gif = Image.open(io.BytesIO(replay.attachments[0].data))
    assert gif.format == "GIF" and gif.n_frames == 2


async def test_import_shows_the_record_and_continues_it_as_a_new_game(service):
    data = (GAMES / "game2209801.tsgf").read_bytes()
    reply = await service.records.import_record(asking(ALICE), "game2209801.tsgf", data, BOB)
    assert reply.plain.startswith("game2209801.tsgf: 24x24, pp, 40 moves — InvictusJR (Red) "
                                 "to move.")
    assert reply.image and reply.buttons[0].kind is ButtonKind.ACCEPT_CHALLENGE
    started = await service.challenges.accept(asking(BOB))
    assert "from an imported position (40 moves)" in started.plain
    game = await service.channel_game(CHANNEL)
    assert game.pegs_placed == 40 and game.player_to_move == "alice"
    await enter(service, asking(ALICE), str(game.legal_placements()[0]))
    assert (await service.channel_game(CHANNEL)).pegs_placed == 41


async def test_import_of_a_finished_or_broken_record(service):
    data = (GAMES / "game2206555.tsgf").read_bytes()
    reply = await service.records.import_record(asking(ALICE), "g.tsgf", data)
    assert reply.plain.endswith("Nothing to continue: it is over.")
    with pytest.raises(kinds.MalformedError, match=r"bad.twixt: line 1: .* is not playing"):
        await service.records.import_record(asking(ALICE), "bad.twixt", b"carol: K10\n")


@pytest.mark.parametrize("clock, refusal", [
    ("99999999999d", "clock.twixt: TimeControl: time is a time per move like 3d or 12h, or a "
                     "bank like 10d+36h, not “99999999999d”"),
    ("0h", "clock.twixt: TimeControl: time per move is 1h to 60d"),
    ("1m", "clock.twixt: TimeControl: time per move is 1h to 60d"),
    ("three days", "clock.twixt: TimeControl: time is a time per move like 3d or 12h, or a "
                   "bank like 10d+36h, not “three days”"),
])
async def test_an_imported_clock_is_held_to_the_limits_of_the_time_option(
        service, storage, clock, refusal):
    record = f'[TimeControl "{clock}"]\n[Players "ann, ben"]\nann: G6\n'.encode()
    with pytest.raises(kinds.MalformedError) as refused:
        await service.records.import_record(asking(ALICE), "clock.twixt", record, BOB)
    assert str(refused.value) == refusal
    assert await storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_an_imported_clock_within_limits_is_kept(service, storage):
    record = b'[TimeControl "1d 12h"]\n[Players "ann, ben"]\nann: G6\n'
    await service.records.import_record(asking(ALICE), "clock.twixt", record, BOB)
    [challenge] = await storage.pending_challenges(channel_id=CHANNEL)
    assert challenge.setup.time_control == "1d12h"


async def test_a_game_is_seen_from_its_channel_and_by_its_players_only(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    elsewhere = 300  # say, a public channel, while the game is in a private one
    with pytest.raises(kinds.MissingError, match="there is no such game"):
        await service.records.replay(asking(CAROL, elsewhere), 1)
    assert (await service.records.replay(asking(CAROL), 1)).attachments
    assert (await service.records.replay(asking(BOB, elsewhere), 1)).attachments
    hidden = await service.records.history(asking(CAROL, elsewhere), BOB)
    assert hidden.plain == "Games of bob: none."
    seen = await service.records.history(asking(CAROL), BOB)
    assert "#1 alice vs bob" in seen.plain
    assert "#1 alice vs bob" in (await service.records.history(asking(ALICE, elsewhere),
                                                               BOB)).plain


async def test_a_player_is_shown_their_game_of_another_channel_alone(service):
    await start_game(service, swap="no")  # in a private channel, say
    await enter(service, asking(ALICE), "K10")
    elsewhere = 300
    assert (await service.records.replay(asking(BOB, elsewhere), 1)).ephemeral
    assert not (await service.records.replay(asking(BOB), 1)).ephemeral  # its own channel
    chat = replace(asking(BOB, elsewhere), private_replies=False)  # every reply is public
    with pytest.raises(kinds.NotAllowedError, match="only you may see this, and a reply here is "
                                                    "public: use `/twixt-records replay`"):
        await enter(service, chat, "replay #1")


async def test_history_in_chat_lists_only_the_games_of_its_channel(service):
    await start_game(service, swap="no")  # in a private channel, say
    await service.turns.resign(asking(BOB), confirmed=True)
    elsewhere = 300
    for asker, whose in ((ALICE, BOB), (BOB, BOB), (ALICE, ALICE)):
        chat = replace(asking(asker, elsewhere), private_replies=False)
        public = await service.records.history(chat, whose)
        assert public.plain.splitlines() == [
            f"Games of {whose.name}: none.",
            "Only this channel's games, as a reply here is public: `/twixt-records history` "
            "shows you the others."]
        privately = await service.records.history(asking(asker, elsewhere), whose)
        assert "#1 alice vs bob" in privately.plain
    here = await service.records.history(replace(asking(ALICE), private_replies=False), BOB)
    assert "#1 alice vs bob" in here.plain


# --- ratings ------------------------------------------------------------------------------


async def test_a_finished_game_rates_both_sides_and_stats_show_it(service):
    await start_game(service)
    await service.turns.resign(asking(BOB), confirmed=True)
    stats = await service.stats.stats(asking(BOB), ALICE)
    assert stats.plain.splitlines() == [
        "**alice**: 1 game — 1 won, 0 lost, 0 drawn; rating 1662? ±290 (provisional) after "
        "1 rated game.",
        "You against alice: 0 won, 1 lost, 0 drawn."]
    board = await service.stats.leaderboard(asking(CAROL))
    assert board.plain.splitlines()[1:] == [
        "1. alice — 1662? (1–0–0)", "2. bob — 1338? (0–1–0)",
        "? provisional: too few recent games to be sure of the rating"]


async def test_a_team_game_rates_both_partners(service):
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options())
    for user in (BOB, CAROL, DAVE):
        await service.challenges.accept(asking(user))
    await service.turns.resign(asking(DAVE), confirmed=True)
    lines = (await service.stats.leaderboard(asking(ALICE))).plain.splitlines()[1:]
    # newcomers all: each team plays at 1500 ±350, as one newcomer against another
    assert lines[:4] == ["1. alice — 1662? (1–0–0)", "2. carol — 1662? (1–0–0)",
                         "3. bob — 1338? (0–1–0)", "4. dave — 1338? (0–1–0)"]


# --- rematch and settings -----------------------------------------------------------------


async def test_rematch_button_exchanges_the_colours(service):
    await start_game(service)
    final = await service.turns.resign(asking(BOB), confirmed=True)
    [rematch] = final.buttons
    assert rematch.kind is ButtonKind.REMATCH
    await press(service, asking(ALICE), ButtonKind.REMATCH, rematch.target)
    started = await service.challenges.accept(asking(BOB))
    assert "**bob** (Red) vs **alice** (Black)" in started.plain


async def test_settings_change_the_board_and_auto_link(service):
    reply = await service.preferences.user_settings(asking(BOB), {"theme": "dark", "side": "black",
                                              "autolink": "on"})
    assert reply.ephemeral and "theme dark" in reply.plain and "autolink on" in reply.plain
    with pytest.raises(kinds.MalformedError, match="theme is light or dark"):
        await service.preferences.user_settings(asking(BOB), {"theme": "pink"})
    await start_game(service, swap="no", size="12")
    await enter(service, asking(ALICE), "F6")
    await enter(service, asking(BOB), "B7")
    await enter(service, asking(ALICE), "H9")
    reply = await enter(service, asking(BOB), "D8")  # bare peg: bob's auto-link links B7
    assert "`D8 link B7`" in reply.plain
    light = Image.open(io.BytesIO((await service.turns.board(asking(ALICE))).image)).convert("RGB")
    dark = Image.open(io.BytesIO((await service.turns.board(asking(BOB))).image)).convert("RGB")
    assert sum(light.getpixel((5, 5))) > sum(dark.getpixel((5, 5)))


async def test_server_settings_need_a_manager_and_check_their_values(service, storage):
    for channel_manager in (False, True):
        with pytest.raises(kinds.NotAllowedError, match="only someone who manages the server"):
            await service.preferences.server_settings(asking(ALICE, manager=channel_manager),
                                                      {"thread": "yes"})
    for changes, message in [({"colour": "red"}, "unknown server setting “colour”"),
                             ({"forfeit": "maybe"}, "forfeit is yes or no"),
                             ({"expiry": "0"}, "expiry is a number of hours from 1 to 720")]:
        with pytest.raises(kinds.MalformedError, match=message):
            await service.preferences.server_settings(asking(ALICE, server_manager=True),
                                                      changes)
    reply = await service.preferences.server_settings(asking(ALICE, server_manager=True),
                                                      {"thread": "yes", "expiry": "48"})
    assert reply.plain == ("Server settings: thread yes, expiry 48h, forfeit no, reminder 24h, "
                          "vacationdays 14, vacation yes, botgames 5.")
    settings = await storage.guild_settings(1)
    assert settings.thread_default and settings.challenge_expiry_hours == 48


async def test_imported_and_aborted_games_are_not_rated(service):
    data = (GAMES / "game2209801.tsgf").read_bytes()
    await service.records.import_record(asking(ALICE), "g.tsgf", data, BOB)
    await service.challenges.accept(asking(BOB))
    await service.turns.resign(asking(BOB), confirmed=True)
    await start_game(service)
    await service.turns.abort(asking(CAROL, manager=True))
    assert (await service.stats.leaderboard(asking(ALICE))).plain == "No rated games yet."
    stats = await service.stats.stats(asking(BOB), ALICE)
    assert "0 games — 0 won, 0 lost, 0 drawn; not rated yet." in stats.plain
    assert "You against alice: 0 won, 0 lost, 0 drawn." in stats.plain


async def test_an_import_with_too_many_turns_is_refused_before_it_is_read(service, storage):
    loop = "".join("ann: remove G6; G6\nben: remove H8; H8\n" for _ in range(1300))
    record = f'[Players "ann, ben"]\nann: G6\nben: H8\n{loop}'.encode()
    with pytest.raises(kinds.LimitError) as refused:
        await service.records.import_record(asking(ALICE), "loop.twixt", record, BOB)
    assert str(refused.value) == "“loop.twixt” has too many turns for a game record (2500 at most)"
    assert await storage.pending_challenges(channel_id=CHANNEL) == ()


@pytest.mark.parametrize("end", ["\r", "\x1c", "\u2028"])
async def test_the_import_cap_counts_lines_where_the_reader_splits_them(service, storage, end):
    # no "\n" in the file: every line ends where str.splitlines (the reader's split) ends it
    offers = "".join(f"ann: offer draw{end}ben: decline draw{end}" for _ in range(1300))
    record = f'[Players "ann, ben"]{end}ann: G6{end}{offers}'.encode()
    with pytest.raises(kinds.LimitError) as refused:
        await service.records.import_record(asking(ALICE), "offers.twixt", record, BOB)
    assert str(refused.value) == ("“offers.twixt” has too many turns for a game record "
                                  "(2500 at most)")
    assert await storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_an_import_whose_handicap_puts_the_board_out_of_range_is_one_line(service,
                                                                                storage):
    record = b'[Board "24x24"]\n[Handicap "40"]\n[Players "ann, ben"]\nann: G6\n'
    with pytest.raises(kinds.MalformedError) as refused:
        await service.records.import_record(asking(ALICE), "h.twixt", record, BOB)
    assert str(refused.value) == ("h.twixt: line 2: Handicap 40 makes the board before it 64 "
                                  "rows, more than 48")
    assert await storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_replays_at_once_are_bounded_and_the_next_is_refused_at_once(
        service, monkeypatch):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    entered, release = threading.Semaphore(0), threading.Event()

    def held_render(game, options=None):  # a drawing that lasts until the test says
        entered.release()
        release.wait(10)
        return b"GIF89a"

    monkeypatch.setattr(rendering, "render_replay", held_render)  # the service draws through it
    drawing = [asyncio.create_task(service.records.replay(asking(who), 1))
               for who in (ALICE, BOB)]
    for _ in drawing:
        await asyncio.to_thread(entered.acquire, True, 10)
    with pytest.raises(kinds.BusyError, match="2 replays are being drawn right now"):
        await service.records.replay(asking(CAROL), 1)
    release.set()
    assert all(reply.attachments for reply in await asyncio.gather(*drawing))
    assert (await service.records.replay(asking(CAROL), 1)).attachments


async def test_two_games_of_one_player_ending_at_once_both_change_the_rating(service, storage,
                                                                            clock):
    for channel, opponent in ((600, BOB), (601, CAROL)):
        await service.challenges.challenge(asking(ALICE, channel), opponent,
                                           build_options(swap="no"))
        await service.challenges.accept(asking(opponent, channel))
    await asyncio.gather(service.turns.resign(asking(BOB, 600), confirmed=True),
                         service.turns.resign(asking(CAROL, 601), confirmed=True))
    alice = await storage.player_stats(1, ALICE.id)
    [first], _ = rate_game([Rating()], [Rating()], 1.0, clock.now)
    [second], _ = rate_game([first], [Rating()], 1.0, clock.now)
    assert (alice.rated_games, alice.wins) == (2, 2)
    assert alice.rating == pytest.approx(second.rating)


async def test_the_transcript_export_carries_the_clock(service):
    await start_game(service, time="2d", swap="no")
    await enter(service, asking(ALICE), "K10")
    export = await service.records.export(asking(ALICE), "transcript")
    text = export.attachments[0].data.decode()
    assert '[TimeControl "2d"]' in text
    assert read(text).tags == {"TimeControl": "2d"}


async def test_a_reminder_that_was_not_delivered_is_sent_again_until_it_is(
        service, storage, clock):
    await start_game(service, time="3d", swap="no")
    await storage.update_user_prefs(ALICE.id, dm_reminders=False)
    clock.now += timedelta(hours=25)
    [lost] = await service.tick()  # say Discord was down: nobody confirms it
    clock.now += timedelta(minutes=4)
    assert await service.tick() == []  # perhaps still on its way
    clock.now += timedelta(minutes=2)
    [again] = await service.tick()
    assert again.receipt == lost.receipt and again.mentions == (ALICE.id,)
    assert again.plain == "alice, it is your move in game 1 (1d 22h left)."
    await service.clocks.delivered(again.receipt)
    clock.now += timedelta(minutes=10)
    assert await service.tick() == []


async def test_an_undelivered_reminder_of_a_turn_since_played_is_let_go(service, clock):
    await start_game(service, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    assert len(await service.tick()) == 1  # not delivered
    await enter(service, asking(ALICE), "K10")
    clock.now += timedelta(minutes=10)
    assert await service.tick() == []


async def test_names_read_from_a_record_are_kept_and_escaped_where_they_show(service):
    record = (b'[Players "**ann**, [ben](example.com)"]\n'
              b'**ann**: G6\n[ben](example.com): resign\n')
    reply = await service.records.import_record(asking(ALICE), "[x](https://e.com).twixt",
                                                record)
    first_line = reply.plain.splitlines()[0]
    assert first_line.startswith("[x](https //e.com).twixt:")  # a name holds no colon
    assert "**ann** (Red) wins" in first_line
    # Discord shows the file's name and the players' as typed (`twixt.discord.replies`)
    in_discord = shown(reply.text).splitlines()[0]
    assert in_discord.startswith("\\[x]\\(https //e.com).twixt:"), in_discord
    assert "\\*\\*ann\\*\\* (Red) wins" in in_discord


async def test_continuing_an_import_where_black_is_to_move_says_so(service):
    record = b'[Players "ann, ben"]\n[Swap "no"]\nann: G6\n'
    reply = await service.records.import_record(asking(ALICE), "g.twixt", record, BOB)
    assert "the challenger plays Red." in reply.plain and "moves first" not in reply.plain
    started = await service.challenges.accept(asking(BOB))
    assert "bob, you move next (Black)" in started.plain
    assert "e.g. `G6`" not in started.plain  # the example is a hole still free


async def test_colorblind_is_understood_too(service):
    reply = await service.preferences.user_settings(asking(ALICE), {"palette": "colorblind"})
    assert "palette colour-blind" in reply.plain


async def test_an_aborted_clocked_game_shows_no_time_left(service):
    await start_game(service, time="3d", swap="no")
    await service.turns.abort(asking(CAROL, manager=True))
    assert "left" not in (await service.turns.status(asking(ALICE))).plain


async def test_a_loss_on_time_reads_back_as_one_from_every_record_that_can_say_it(service,
                                                                                  clock):
    await start_game(service, time="1d", swap="no", vacation="no", rules="pp")
    await enter(service, asking(ALICE), "K10")
    clock.now += timedelta(days=2)
    await enter(service, asking(ALICE), "claim")
    export = await service.records.export(asking(ALICE))
    outcomes = {}
    for attachment in export.attachments:
        fmt = records.guess_format(attachment.filename)
        outcomes[fmt] = read(records.decode(attachment.data, fmt), fmt).outcome
    assert outcomes["transcript"] == outcomes["t1"]
    assert (outcomes["transcript"].reason, outcomes["transcript"].winners) == (Reason.TIME,
                                                                               ("alice",))
    assert outcomes["lg"] is None  # Little Golem has no way to say it (docs/records.md)
