"""German where it belongs in clocks, records, stats, settings, options and the router: a
German asker reads German, a German server's reminders are German, everyone else reads
English; and typed commands are read as people write them (a typed resign asks first)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from tests.service.helpers import funnel_refusal, press, start_game
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, asking
from tests.typed import enter
from twixt.language import translation, unmarked
from twixt.service import ButtonKind, Port, Reply, Request, TwixtService, User, build_options
from twixt.service.commands import router
from twixt.service.commands.options import describe_setup
from twixt.storage import GameSetup

GAMES = Path(__file__).resolve().parents[1] / "rules" / "data"


def german(request: Request) -> Request:
    return replace(request, locale="de")


async def in_german(service, text: str, user: User = ALICE) -> str:
    """What `user` reads, asking in German."""
    return (await enter(service, german(asking(user)), text)).plain


async def german_tick(service: TwixtService) -> list[Reply]:
    """A tick of a front end whose every server speaks German (a service of its own over the
    same database, as the bot's dispatcher is), each reply delivered."""
    ticker = TwixtService(service.desk.storage, Port(language=lambda guild_id: "de"),
                          clock=service.desk.clock)
    replies = await ticker.tick()
    for reply in replies:
        if reply.receipt is not None:
            await ticker.delivered(reply.receipt)
    return replies


# --- clocks -------------------------------------------------------------------------------


async def test_a_german_server_is_reminded_in_german(service, clock):
    await start_game(service, time="3d", swap="no")
    await enter(service, asking(ALICE), "K10")
    await service.preferences.user_settings(asking(BOB), {"dm": "off"})
    clock.now += timedelta(hours=25)
    [reminder] = await german_tick(service)
    assert reminder.plain == "bob, du bist in Partie 1 am Zug (noch 1 T. 23 Std.)."
    clock.now += timedelta(days=1, hours=1)
    [final] = await service.tick()  # an English server (the default)
    assert final.plain == "bob, it is your move in game 1 (22h 0m left)."


async def test_time_up_claim_and_forfeit_speak_the_right_language(service, storage, clock):
    await start_game(service, time="1d", swap="no", vacation="no")
    await enter(service, asking(ALICE), "K10")
    clock.now += timedelta(hours=1)
    assert await funnel_refusal(service.clocks.claim(german(asking(ALICE))), "de") == \
        "bob hat noch 23 Std. 0 Min. für den Zug"
    assert await funnel_refusal(service.clocks.claim(asking(ALICE)), "en") == \
        "bob still has 23h 0m to move"
    clock.now += timedelta(days=1)
    [notice] = await german_tick(service)
    assert notice.plain == ("Die Bedenkzeit von bob in Partie 1 ist abgelaufen: alice darf den "
                           "Sieg beanspruchen.")
    assert [b.label for b in notice.buttons] == ["Sieg beanspruchen"]
    reply = await press(service, german(asking(ALICE)), ButtonKind.CLAIM, notice.buttons[0].target)
    assert reply.plain.startswith("bob hat die Bedenkzeit überschritten.\n")

    await storage.update_guild_settings(1, forfeit_on_timeout=True)
    await service.challenges.challenge(asking(CAROL, 200), BOB,
                                       build_options(time="12h", vacation="no"))
    await service.challenges.accept(asking(BOB, 200))
    clock.now += timedelta(hours=12)
    [forfeit] = await german_tick(service)
    assert forfeit.plain.startswith("carol hat die Bedenkzeit überschritten.\n")


# --- options, the router, settings --------------------------------------------------------


def test_a_game_s_options_are_described_in_the_reader_s_language():
    setup = GameSetup(size="24x18", rules="classic", swap=False, handicap=2, time_control="3d")
    described = describe_setup(setup)
    assert unmarked(translation("de").say(described)) == ("24×16, klassisch, kein Tausch, "
                                                           "Vorgabe 2, 3d pro Zug")
    assert str(described) == "24×16, classic, no swap, handicap 2, 3d per move"


@pytest.mark.parametrize("typed, english, german_text", [
    ("replay seven", "“seven” is not a number", "“seven” ist keine Zahl"),
    ("draw maybe", "draw takes offer, accept or decline, not “maybe”",
     "auf draw folgt offer, accept oder decline, nicht “maybe”"),
    ("challenge size 12 time soon",
     "time is a time per move like 3d or 12h, or a bank like 10d+36h, not “soon”",
     "time ist eine Bedenkzeit pro Zug wie 3d oder 12h oder ein Zeitkonto wie 10d+36h, "
     "nicht “soon”"),
    ("challenge size 12 colour red",
     "unknown option “colour”: use size, rules, swap, handicap, time, first, thread, "
     "vacation, level or takebacks",
     "unbekannte Option “colour”: nimm size, rules, swap, handicap, time, first, thread, "
     "vacation, level oder takebacks"),
    ("settings palette pink", "palette is normal or colour-blind, not “pink”",
     "palette ist normal oder colour-blind, nicht “pink”"),
    ("settings dm maybe", "dm is on or off, not “maybe”", "dm ist on oder off, nicht “maybe”"),
])
async def test_a_refusal_is_in_the_asker_s_language(service, typed, english, german_text):
    assert await funnel_refusal(enter(service, asking(ALICE), typed), "en") == english
    assert await funnel_refusal(enter(service, german(asking(ALICE)), typed), "de") == german_text


async def test_settings_are_shown_in_german_with_the_words_to_type(service):
    said = await in_german(service, "settings palette colorblind")
    assert said == ("Deine Einstellungen: theme light, palette colour-blind, side any, "
                    "dm on, autolink off, confirm off, weekends on.")
    server = await enter(service, german(asking(ALICE)), "server")
    assert server.plain.startswith("Servereinstellungen: thread ")
    refused = enter(service, german(asking(ALICE)), "server forfeit yes")
    assert await funnel_refusal(refused, "de") == \
        "nur wer den Server verwaltet, kann seine Einstellungen ändern"


# --- stats and records --------------------------------------------------------------------


async def test_stats_and_the_leaderboard_in_german(service):
    assert await in_german(service, "leaderboard") == "Noch keine gewerteten Partien."
    await start_game(service, swap="no")
    await enter(service, asking(BOB), "resign yes")
    mine = await in_german(service, "stats")
    assert mine.startswith("**alice**: 1 Partie — 1 gewonnen, 0 verloren, 0 remis; Wertung ")
    assert mine.endswith(" nach 1 gewerteten Partie.")
    theirs = await service.stats.stats(german(asking(BOB)), ALICE)
    assert theirs.plain.splitlines()[1] == "Du gegen alice: 0 gewonnen, 1 verloren, 0 remis."
    board = await in_german(service, "leaderboard", CAROL)
    assert board.splitlines()[0] == "**Rangliste** (Seite 1)"
    assert (await enter(service, asking(CAROL), "leaderboard")).plain.startswith(
        "**Leaderboard** (page 1)")


async def test_export_history_and_replay_in_german(service):
    assert await in_german(service, "history") == "Partien in diesem Kanal: keine."
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    exported = await in_german(service, "export")
    first, note = exported.splitlines()  # Little Golem keeps pp games only
    assert first == "Partie 1, 1 Zug." and note.startswith("(kein lg: ")
    assert (await enter(service, asking(ALICE), "export")).plain.startswith(
        "Game 1, 1 move.\n(no lg: ")
    history = await in_german(service, "history")
    assert history.splitlines()[0] == "**Partien in diesem Kanal** (Seite 1)"
    assert "#1 alice gegen bob — läuft · 24×24, klassisch, kein Tausch · " in history
    replayed = await enter(service, german(asking(ALICE)), "replay")
    assert replayed.text == "Wiedergabe der Partie 1: 1 Zug."
    await enter(service, asking(BOB), "resign yes")
    history = await in_german(service, "history")
    assert "— Sieg für alice (Aufgabe) ·" in history


async def test_an_import_is_summed_up_in_german(service):
    data = (GAMES / "game2206555.tsgf").read_bytes()
    reply = await service.records.import_record(german(asking(ALICE)), "g.tsgf", data)
    assert reply.plain.startswith("g.tsgf: 24x24, ")
    assert " Züge — " in reply.plain.splitlines()[0]
    assert reply.plain.endswith("Nichts fortzusetzen: die Partie ist vorbei.")
    assert await funnel_refusal(service.records.import_record(german(asking(ALICE)), "g.tsgf",
                                                              None), "de") == \
        "hänge das Partieprotokoll an: /twixt-records import mit einer Datei"


# --- what people type ---------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["resign", "move resign", "Move  Resign"])
async def test_a_typed_resign_asks_first_as_the_button_does(service, storage, typed):
    await start_game(service, swap="no")
    ask = await enter(service, asking(BOB), typed)
    assert [b.kind for b in ask.buttons] == [ButtonKind.CONFIRM_RESIGN]
    assert ask.buttons[0].only_users == (BOB.id,)
    assert await storage.active_game(CHANNEL) is not None
    done = await enter(service, asking(BOB), "resign yes")
    assert "Black resigned" in done.plain
    assert await storage.active_game(CHANNEL) is None


async def test_a_seated_player_s_resign_in_chat_is_answered(service):
    await start_game(service, swap="no")
    chat = {"command": "message"}
    asking_first = await service.hear(asking(BOB), router.read_command("resign"), chat)
    assert asking_first is not None and [b.kind for b in asking_first.buttons] == [
        ButtonKind.CONFIRM_RESIGN]
    resigned = await service.hear(asking(BOB), router.read_command("resign yes"), chat)
    assert resigned is not None and not resigned.refused
    assert (await service.channel_game(CHANNEL)).is_over


async def test_what_people_type_is_accepted(service, clock):
    await start_game(service, swap="no", time="3 days")
    await enter(service, asking(ALICE), "K10")
    asked = await enter(service, asking(ALICE), "takeback")
    assert [b.kind for b in asked.buttons] == [ButtonKind.ACCEPT_TAKEBACK,
                                               ButtonKind.DECLINE_TAKEBACK]
    await enter(service, asking(BOB), "takeback accept")
    assert (await service.channel_game(CHANNEL)).moves_made == 0
    status = await enter(service, asking(CAROL), "status")
    assert "3d per move" in status.plain
    colours = await enter(service, asking(ALICE), "settings palette colorblind")
    assert "palette colour-blind" in colours.plain
    alone = await enter(service, asking(BOB), "settings colorblind")  # one setting takes it
    assert "palette colour-blind" in alone.plain
