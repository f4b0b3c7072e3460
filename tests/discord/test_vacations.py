"""Banks and vacations in Discord: `/twixt-settings vacation`, the `vacation` and bank `time`
options, the settings' `weekends`, `vacationdays` and `vacation`, and the automatic day the
scheduler posts once, over the real service and database on a controlled clock (Thursday
2026-01-01 12:00 UTC)."""

from datetime import timedelta
from unittest.mock import MagicMock

import discord

from tests.discord.helpers import run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, GUILD, text_channel
from tests.discord.reading import only, posted, words


def said(message: dict) -> tuple[str, bool]:
    return words(message), message["ephemeral"]


async def test_a_vacation_is_started_shown_and_ended_with_the_vacation_command(client, slash,
                                                                               clock):
    await start_game(client, slash, time="10d+36h", swap="no")
    started = only(await run(client, slash, "vacation", ALICE, days=3))
    assert said(started) == ("alice is on vacation until 2026-01-04 12:00 UTC: their clocks "
                             "stop in this server's games that allow vacation. 11 days left "
                             "this year.", False)
    status = words(only(await run(client, slash, "status", BOB)))
    assert "alice (Red) to move. (10d 0h left, on vacation until 2026-01-04 12:00 UTC)" in status
    assert "alice: 10d 0h in the bank, on vacation until 2026-01-04 12:00 UTC" in status
    clock.now += timedelta(hours=1)
    ended = only(await run(client, slash, "vacation", ALICE, end="yes"))
    assert words(ended).startswith("alice's vacation is over")
    shown = only(await run(client, slash, "vacation", ALICE))
    assert said(shown) == ("You have 13 vacation days left this year (of 14).", True)
    german = only(await run(client, slash, "vacation", ALICE, days=20,
                            locale=discord.Locale.german))
    assert said(german) == ("ein Urlaub dauert 1 bis 13 Tage: so viele hast du in diesem Jahr "
                            "noch", True)


async def test_the_vacation_option_and_the_settings_of_players_and_servers(client, slash):
    challenge = only(await run(client, slash, "challenge", ALICE, user=BOB, time="3d",
                               vacation="no"))
    assert "3d per move, no vacation" in words(challenge)
    me = only(await run(client, slash, "me", BOB, weekends="off"))
    assert words(me).endswith("confirm off, weekends off.")
    server = only(await run(client, slash, "server", ALICE, manage_server=True, vacationdays=0,
                            vacation="no"))
    assert words(server).endswith("vacationdays 0, vacation no, botgames 5.")
    refused = only(await run(client, slash, "vacation", BOB, days=1))
    assert said(refused) == ("this server has no vacation", True)


async def test_the_scheduler_posts_an_automatic_day_once_and_a_claim_waits_for_it(
        client, slash, clock, monkeypatch):
    channel = text_channel(CHANNEL)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: channel}.get)
    await start_game(client, slash, time="1d", swap="no")
    await run(client, slash, "move", ALICE, command="K12")
    clock.now += timedelta(days=1)
    await client.scheduler.round()
    await client.scheduler.round()
    [day] = posted(channel)
    assert words(day) == (f"<@{BOB.id}> bob's time to move in game 1 ran out: a vacation "
                              "day is used, so the clock stands still until 2026-01-03 12:00 "
                              "UTC. 13 days left this year.")
    assert day["allowed_mentions"].users == [discord.Object(BOB.id)]
    claim = only(await run(client, slash, "claim", ALICE))
    assert said(claim) == ("bob is on vacation until 2026-01-03 12:00 UTC: their time is not "
                           "up", True)
    reply = only(await run(client, slash, "move", BOB, command="M12"))
    assert "alice (Red) to move. (1d 0h left)" in words(reply)
    assert "view" not in day  # no Claim button while the day runs


async def test_an_automatic_day_is_posted_in_the_server_s_language(client, slash, clock,
                                                                  monkeypatch):
    channel = text_channel(CHANNEL)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: channel}.get)
    guild = MagicMock(spec_set=discord.Guild)
    guild.preferred_locale = discord.Locale.german
    monkeypatch.setattr(client, "get_guild", {GUILD: guild}.get)
    await start_game(client, slash, time="12h", swap="no")
    clock.now += timedelta(hours=12)
    await client.scheduler.round()
    [day] = posted(channel)
    assert words(day) == (f"<@{ALICE.id}> Die Bedenkzeit von alice in Partie 1 ist "
                              "abgelaufen: ein Urlaubstag wird genommen, die Uhr steht bis "
                              "2026-01-03 00:00 UTC. Noch 13 Tage in diesem Jahr.")
