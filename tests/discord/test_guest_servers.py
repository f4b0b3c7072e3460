"""The app used from a player's account in a server that has not added it: it answers, but
keeps no game there (it could not post its turns), and where the server limits outside apps
its first answer says in one line that only the asker sees it."""

from __future__ import annotations

from tests.discord.helpers import interaction
from tests.discord.people import ALICE, BOB
from tests.discord.reading import only, sent, words


def guest(client, slash, name: str, *, external_apps: bool) -> object:
    """An interaction in a server whose only install of the app is the asker's own."""
    mock = interaction(client, ALICE, command=slash[name])
    mock.is_guild_integration.return_value = False
    mock.permissions.update(use_external_apps=external_apps)
    return mock


async def test_a_game_is_refused_where_the_server_has_not_added_the_app(client, slash):
    mock = guest(client, slash, "challenge", external_apps=True)
    await slash["challenge"].callback(mock, user=BOB)
    answer = only(mock)
    assert answer["ephemeral"] and words(answer).count("\n") == 0
    assert "not added to this server" in words(answer)


async def test_answers_forced_private_say_so_in_one_line(client, slash):
    mock = guest(client, slash, "help", external_apps=False)
    await slash["help"].callback(mock)
    [answer] = sent(mock)
    assert words(answer).endswith(
        "\nThis server limits outside apps, so only you see my answers here.")
    quiet = guest(client, slash, "help", external_apps=True)
    await slash["help"].callback(quiet)
    assert "limits outside apps" not in words(only(quiet))
