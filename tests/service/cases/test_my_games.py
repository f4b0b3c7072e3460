"""`games`: a player's games in progress across the server's channels, their turn first, on a
controlled clock over a real SQLite file."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, asking
from tests.typed import enter
from twixt.language import translation, unmarked
from twixt.service import NO_SERVER, Request, TwixtService, User, build_options
from twixt.service import errors as kinds
from twixt.service.cases import my_games as my_games_module


async def _game(service: TwixtService, channel: int, opponent=BOB, **options) -> None:
    """alice challenges `opponent` in `channel` (alice plays Red and moves first); accepted."""
    await service.challenges.challenge(asking(ALICE, channel), opponent,
                                       build_options(swap="no", **options))
    await service.challenges.accept(asking(opponent, channel))


def _lines(text: str) -> list[str]:
    """The listing's game lines (each starts with the game's number)."""
    return [line for line in text.splitlines() if line.startswith("#")]


async def test_games_waiting_for_you_come_first_then_the_soonest_due(service, clock):
    await _game(service, 100, BOB, time="3d")            # game 1: alice to move, 3 days
    await _game(service, 200, CAROL)                     # game 2: alice to move, no clock
    await _game(service, 300, DAVE, time="1d")           # game 3: dave to move after K10
    await enter(service, asking(ALICE, 300), "K10")
    clock.now += timedelta(hours=1)
    await _game(service, 400, BOB, time="2d")            # game 4: alice to move, 2 days
    reply = await enter(service, asking(ALICE), "games")
    assert reply.ephemeral
    assert reply.plain.splitlines()[0] == ("**Your games in this server**: 4 games in "
                                          "progress, 3 waiting for you (page 1 of 1)")
    assert _lines(reply.plain) == [
        "#4 vs bob — your turn (2d 0h left) · <#400>",
        "#1 vs bob — your turn (2d 23h left) · <#100>",
        "#2 vs carol — your turn · <#200>",
        "#3 vs dave — dave to move (23h 0m left) · <#300>"]


async def test_time_left_follows_the_clock(service, clock):
    await _game(service, 100, BOB, time="1d")
    clock.now += timedelta(hours=20, minutes=30)
    assert _lines((await enter(service, asking(BOB), "games")).plain) == [
        "#1 vs alice — alice to move (3h 30m left) · <#100>"]
    clock.now += timedelta(hours=5)
    assert "(0m left)" in (await enter(service, asking(BOB), "games")).plain


async def test_only_the_askers_games_in_progress_in_this_server_are_listed(service):
    await _game(service, 100, BOB)                       # alice's, in progress
    await _game(service, 200, CAROL)                     # alice's, resigned below
    await enter(service, asking(CAROL, 200), "resign yes")
    await service.challenges.challenge(asking(BOB, 300), DAVE, build_options())
    await service.challenges.accept(asking(DAVE, 300))   # not alice's
    elsewhere = Request(2, 500, ALICE)                   # alice's, in another server
    await service.challenges.challenge(elsewhere, CAROL, build_options())
    await service.challenges.accept(replace(elsewhere, user=CAROL))
    assert _lines((await enter(service, asking(ALICE, 999), "games")).plain) == [
        "#1 vs bob — your turn · <#100>"]
    assert (await enter(service, asking(CAROL), "games")).plain == (
        "You have no games in progress in this server.")


async def test_a_double_twixt_game_names_the_partner_and_both_opponents(service):
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options())
    for user in (BOB, CAROL, DAVE):
        await service.challenges.accept(asking(user))
    assert _lines((await enter(service, asking(DAVE), "games")).plain) == [
        "#1 with bob vs alice and carol — alice to move · <#100>"]


async def test_games_are_listed_a_page_at_a_time(service):
    for channel in range(my_games_module.PAGE + 2):
        await _game(service, 1000 + channel)
    first = await enter(service, asking(ALICE), "games")
    assert len(_lines(first.plain)) == my_games_module.PAGE
    assert "(page 1 of 2)" in first.plain and first.plain.endswith("More: games page 2")
    second = await enter(service, asking(ALICE), "games page 2")
    assert len(_lines(second.plain)) == 2 and "More:" not in second.plain
    assert set(_lines(first.plain)).isdisjoint(_lines(second.plain))
    beyond = await enter(service, asking(ALICE), "games page 3")
    assert beyond.plain.endswith("None on this page.") and not _lines(beyond.plain)


async def test_seven_games_make_a_page(service):
    for channel in range(8):
        await _game(service, 1000 + channel)
    first = await enter(service, asking(ALICE), "games")
    assert len(_lines(first.plain)) == 7 and "(page 1 of 2)" in first.plain
    assert len(_lines((await enter(service, asking(ALICE), "games page 2")).plain)) == 1


async def test_only_the_newest_games_are_sorted_and_it_is_said(service, monkeypatch):
    monkeypatch.setattr(my_games_module, "MAX_SORTED", 2)
    for channel in (100, 200, 300):
        await _game(service, channel)
    reply = await enter(service, asking(ALICE), "games")
    assert "(only your 2 newest games are listed)" in reply.plain
    assert sorted(line.split()[0] for line in _lines(reply.plain)) == ["#2", "#3"]


@pytest.mark.parametrize("typed, error", [
    ("games 2", "write games, or games page 2"),
    ("games page 0", "pages go from 1 to 1000"),
])
async def test_a_bad_games_line_is_refused_in_one_line(service, typed, error):
    with pytest.raises(kinds.MalformedError) as refused:
        await enter(service, asking(ALICE), typed)
    assert str(refused.value) == error


async def test_games_are_not_listed_in_a_public_reply(service):
    await _game(service, CHANNEL)
    with pytest.raises(kinds.NotAllowedError) as refused:
        await enter(service, replace(asking(ALICE), private_replies=False), "games")
    assert str(refused.value) == ("only you may see this, and a reply here is public: use "
                                  "`/twixt games`")


async def test_games_and_notes_are_said_in_german(service):
    await _game(service, 100, BOB, time="1d")
    await enter(service, asking(ALICE), "note Rand sichern")
    games = await enter(service, asking(ALICE, locale="de"), "games")
    assert games.plain.splitlines() == [
        "**Deine Partien auf diesem Server**: 1 laufende Partie, bei 1 bist du am Zug "
        "(Seite 1 von 1)",
        "#1 gegen bob — du bist am Zug (noch 1 T. 0 Std.) · <#100>"]
    notes = await enter(service, asking(ALICE, locale="de"), "notes")
    assert notes.plain.splitlines()[0] == "**Deine Notizen zu Partie 1** (Seite 1 von 1)"


async def _longest_games(service: TwixtService, count: int) -> list[User]:
    """`count` Double TwixT games of alice's with the longest lines there are: three other
    names of 32 characters, channel ids of 19 digits, a clock of 60 days; the others
    to move. Returns the other players."""
    others = [User(20 + n, f"{letter * 31}{n}") for n, letter in enumerate("pqr")]
    for number in range(count):
        channel = 10 ** 18 + number
        await service.challenges.team(asking(ALICE, channel), others[0], (others[1], others[2]),
                                      build_options(time="60d"))
        for user in others:
            await service.challenges.accept(asking(user, channel))
        await enter(service, asking(ALICE, channel), "K10")
    return others


async def test_a_page_of_the_longest_lines_fits_a_discord_message(service, clock):
    await _longest_games(service, my_games_module.PAGE)
    clock.now += timedelta(minutes=1)
    reply = await enter(service, asking(ALICE, locale="de"), "games")
    assert len(_lines(reply.plain)) == my_games_module.PAGE
    assert _lines(reply.plain)[0].endswith(f"ist am Zug (noch 59 T. 23 Std.) · <#{10 ** 18}>")
    assert len(reply.plain) <= 2000


@pytest.mark.parametrize(("locale", "on_vacation"), [
    ("en", "on vacation until"), ("de", "im Urlaub bis"), ("fr", "en vacances jusqu'au"),
    ("es", "de vacaciones hasta"), ("nl", "op vakantie tot")])
async def test_a_page_fits_a_discord_message_with_every_clock_on_vacation(
        service, clock, monkeypatch, locale, on_vacation):
    """The longest lines, each clock standing still for a vacation, with the header's note
    that only the newest games are listed and the pointer to the next page, in every
    language."""
    monkeypatch.setattr(my_games_module, "MAX_SORTED", my_games_module.PAGE + 1)
    others = await _longest_games(service, my_games_module.PAGE + 2)
    to_move = (await service.channel_game(10 ** 18)).player_to_move
    await enter(service, asking(next(u for u in others if u.name == to_move)), "vacation 14")
    clock.now += timedelta(minutes=1)
    reply = await enter(service, asking(ALICE, locale=locale), "games")
    lines = _lines(reply.plain)
    assert len(lines) == my_games_module.PAGE and all(on_vacation in line for line in lines)
    tr = translation(locale)
    assert unmarked(tr("(only your {most} newest games are listed)",
                       most=my_games_module.PAGE + 1)) in reply.plain
    assert unmarked(tr("More: games page {page}", page=2)) in reply.plain
    assert len(reply.plain) <= 2000


async def test_asked_in_a_dm_the_listing_names_direct_messages_not_a_server(service):
    in_a_dm = Request(NO_SERVER, 700, ALICE)
    assert (await enter(service, in_a_dm, "games")).plain == (
        "You have no games in progress in direct messages.")
    await service.challenges.challenge(in_a_dm, BOB, build_options(swap="no"))
    await service.challenges.accept(replace(in_a_dm, user=BOB))
    listing = (await enter(service, Request(NO_SERVER, 800, ALICE), "games")).plain
    assert listing.startswith("**Your games in direct messages**: 1 game in progress")
    assert _lines(listing) == ["#1 vs bob — your turn · <#700>"]
