"""Small lies the bot no longer tells: a team challenge asks only the people to answer, the
start says the bot is thinking when it moves first, no button is offered that nobody could
press, game threads and nameless seats are named in the server's language, and a round
robin's table scores only the results it shows."""

from __future__ import annotations

from bot.service import ButtonKind, User, build_options
from bot.service import commands as cmd
from bot.service.bot_seats import THE_BOT
from bot.service.events.table import crosstables
from language import translation, unmarked
from rules import parse_command
from tests.bot_service.bot_helpers import bot_service
from tests.bot_service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.bot_service.tournament_helpers import PLAYERS, event_id_of, play_out
from tests.fakes import FakeThreads


async def test_a_team_challenge_with_the_bot_asks_only_the_people(storage):
    async with bot_service(storage) as (service, _said):
        english = await service.execute(asking(ALICE), cmd.Team(
            THE_BOT, (BOB, CAROL), build_options(size="12", level="1")))
        assert english.plain.endswith("first. bob and carol, accept or decline.")
        assert "three" not in english.plain
        await service.execute(asking(ALICE), cmd.AnswerChallenge("decline"))
        german = await service.execute(asking(ALICE, locale="de"), cmd.Team(
            BOB, (THE_BOT, CAROL), build_options(size="12", level="1")))
        assert german.plain.endswith("zuerst. bob und carol, nehmt an oder lehnt ab.")
        await service.execute(asking(ALICE), cmd.AnswerChallenge("decline"))
        alone = await service.execute(asking(ALICE, locale="de"), cmd.Team(
            THE_BOT, (THE_BOT, CAROL), build_options(size="12", level="1")))
        assert alone.plain.endswith("zuerst. carol, nimm an oder lehne ab.")


async def test_a_team_challenge_of_people_still_asks_all_three(service):
    reply = await service.execute(asking(ALICE), cmd.Team(BOB, (CAROL, DAVE),
                                                          build_options()))
    assert reply.plain.endswith("carol and bob and dave, accept or decline.")


async def test_when_the_bot_moves_first_the_start_says_it_is_thinking(storage):
    async with bot_service(storage) as (service, _said):
        start = await service.execute(asking(ALICE), cmd.Challenge(
            THE_BOT, build_options(size="8", first="them", level="1")))
        assert start.plain.splitlines()[1] == "bot (level 1) moves first (Red) and is thinking…"
        assert "write your move" not in start.plain
        await service.bots.idle()
        german = await service.execute(asking(ALICE, CHANNEL + 1, locale="de"), cmd.Challenge(
            THE_BOT, build_options(size="8", first="them", level="1")))
        assert german.plain.splitlines()[1] == ("bot (level 1) zieht zuerst (Rot) und denkt "
                                               "nach …")
        await service.bots.idle()


async def test_the_bots_own_move_offers_nobody_a_privilege_button(storage):
    async with bot_service(storage) as (service, said):
        await service.execute(asking(ALICE), cmd.Team(THE_BOT, (BOB, CAROL),
                                                      build_options(size="12", level="1")))
        for user in (BOB, CAROL):
            await service.execute(asking(user), cmd.AnswerChallenge("accept"))
        await service.execute(asking(ALICE), cmd.Move(parse_command("F6")))
        mine = await service.execute(asking(BOB), cmd.Move(parse_command("C5")))
        assert [b.kind for b in mine.buttons] == [ButtonKind.PRIVILEGE]  # bob may call it
        await service.bots.idle()
        bots_turn = said.replies[-1]
        assert bots_turn.plain.startswith("**bot (level 1)**")
        assert ButtonKind.PRIVILEGE not in [b.kind for b in bots_turn.buttons]


async def test_a_game_thread_and_a_nameless_seat_are_named_in_the_language_at_hand(service):
    threads = service.core.threads
    assert isinstance(threads, FakeThreads)
    nameless = User(21, "\u200b\u2060")  # nothing that shows
    await service.execute(asking(nameless), cmd.Challenge(BOB, build_options(thread="yes")))
    await service.execute(asking(BOB, locale="de"), cmd.AnswerChallenge("accept"))
    stored = await service.core.channel_stored(1000 + len(threads.opened))
    assert [seat.name for seat in stored.seats] == ["Spieler 1", "bob"]
    assert unmarked(translation("de").say(threads.titles[-1])) == "TwixT: Spieler 1 gegen bob"
    assert threads.opened[-1] == (CHANNEL, "TwixT: Spieler 1 vs bob")  # English elsewhere


async def test_a_round_robin_of_three_scores_only_what_its_table_shows(service):
    manager = asking(User(1, "td"), manager=True)
    event_id = event_id_of(await service.run(manager, "tournament create Trio format "
                                                      "roundrobin size 8"))
    for player in PLAYERS[:3]:
        await service.run(asking(player), "tournament join")
    await service.run(manager, "tournament start")
    await play_out(service, event_id)  # p1 beats p2 and p3, p2 beats p3; each has a bye
    storage = service.core.storage
    event = await storage.get_event(event_id)
    games = await storage.event_games(event_id, 100)
    assert sum(game.black is None for game in games) == 3
    entrants = await storage.entrants(event_id, 100)
    names = {player.id: player.name for player in PLAYERS[:3]}
    [table] = crosstables(event, games, entrants, names, translation("en"), "")
    shown = {row.name: sum(float(cell) for cell in row.cells if cell != "■")
             for row in table.rows}
    assert {row.name: row.points for row in table.rows} == shown == {
        "p1": 2.0, "p2": 1.0, "p3": 0.0}
