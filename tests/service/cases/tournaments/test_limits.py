"""Tournament replies in the worst case still fit one Discord message each, in every language
(`language.LOCALES`): `info` of a full Double TwixT tournament of 32-character names, `list`
of long names, and a league's standings (one picture per group: at most 10 files, 25 MB a
message)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.service.cases.tournaments.helpers import tournament_id_of
from tests.service.people import asking
from tests.typed import enter
from twixt.discord.replies import content
from twixt.language import LOCALES
from twixt.service import Reply, TwixtService, User
from twixt.service import errors as kinds
from twixt.service.cases.tournaments.rounds import MAX_ENTRANTS, MAX_ROUND_ROBIN
from twixt.service.names import MAX_NAME

MAX_MESSAGE = 2000  # characters of a message's content
MAX_FILES = 10  # files of a message
MAX_UPLOAD = 25 * 1024 * 1024  # bytes of a message's files together
LONG = "W" * (MAX_NAME - 4)  # the widest letter, and room for a number


def fits(reply: Reply) -> None:
    for message in reply.all_messages():
        assert len(content(message)) <= MAX_MESSAGE, len(content(message))
        files = [message.image] if message.image is not None else []
        files += [attachment.data for attachment in message.attachments]
        assert len(files) <= MAX_FILES and sum(map(len, files)) <= MAX_UPLOAD


def people(count: int, start: int = 1000) -> list[User]:
    return [User(start + n, f"{n:03d} {LONG}") for n in range(count)]


@pytest.mark.parametrize("locale", LOCALES)
async def test_info_of_a_full_double_twixt_tournament_fits_a_message(service: TwixtService,
                                                                locale):
    manager = asking(User(1, LONG), manager=True, locale=locale)
    reply = await enter(service, manager, f"tournament create {LONG}XXXX format league "
                                       "double yes teams yes group 16")
    tournament_id = tournament_id_of(reply)
    players = people(MAX_ENTRANTS * 2)
    for first, second in zip(players[::2], players[1::2], strict=True):
        await service.tournaments.join(asking(first), tournament_id, second)
        if first.id % 4:  # some teams confirmed, some still asked (shown with "(?)")
            await service.tournaments.join(asking(second), tournament_id)
    info = await enter(service, asking(players[0], locale=locale), "tournament info")
    assert not info.refused
    fits(info)
    assert "64" in info.plain  # the count says how many there are, shown or not


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_list_of_long_names_fits_a_message(service: TwixtService, locale):
    manager = asking(User(1, LONG), manager=True, locale=locale)
    for n in range(12):
        await enter(service, manager, f"tournament create {n:02d}{LONG}XX format swiss "
                                   "rounds 20")
    fits(await enter(service, manager, "tournament list"))


async def test_a_league_of_many_groups_posts_at_most_ten_pictures_a_message(
        service: TwixtService, clock):
    manager = asking(User(1, "td"), manager=True)
    tournament_id = tournament_id_of(await enter(service, manager, "tournament create Big League "
                                                      "format league group 4 size 8"))
    players = people(44)
    for player in players:
        await service.tournaments.join(asking(player), tournament_id, None)
    clock.now += timedelta(minutes=1)
    fits(await enter(service, manager, "tournament start"))
    standings = await enter(service, manager, "tournament standings")
    fits(standings)
    pictures = [m.image for m in standings.all_messages() if m.image is not None]
    pictures += [a.data for m in standings.all_messages() for a in m.attachments]
    assert len(pictures) == 11  # every group's picture, over two messages


async def test_an_tournament_name_pings_and_formats_nothing_anywhere(service: TwixtService,
                                                                threads, clock):
    manager = asking(User(1, "td"), manager=True)
    with pytest.raises(kinds.LimitError, match="at most 32 characters"):
        await enter(service, manager, "tournament create " + "x" * 40 + " format roundrobin")
    hostile = "@everyone <@123> **b** `c` ||d||"
    said = [await enter(service, manager, f"tournament create {hostile} format roundrobin")]
    for player in (User(2, "@here *x*"), User(3, "<@1> `y`")):
        said.append(await enter(service, asking(player), "tournament join"))
    said += [await enter(service, manager, f"tournament {action}")
             for action in ("info", "list", "start", "standings")]
    assert [t.name for t in await service.desk.storage.tournaments(1)] == [hostile]
    # a thread's name reads no markdown and pings nobody: it holds the names as typed
    (title,) = [name for _parent, name in threads.opened]
    assert title == f"{hostile}: @here *x* vs <@1> `y`"
    # Discord gets every name escaped: nothing of them formats or pings
    texts = [re.sub(r"\\.", "", content(m)) for reply in said for m in reply.all_messages()]
    assert any("everyone" in text for text in texts)
    for text in texts:
        for raw in ("@everyone", "@here", "<@123>", "<@1>", "**b**", "*x*", "`c`", "`y`", "||"):
            assert raw not in text, text


async def test_a_round_robin_takes_no_more_players_than_its_threads_allow(
        service: TwixtService):
    """A round robin opens every game at once, each in a thread: it is full at
    `MAX_ROUND_ROBIN` players, while a Swiss (a round at a time) takes more."""
    manager = asking(User(1, "td"), manager=True)
    ids = {}
    for kind in ("roundrobin", "swiss"):
        reply = await enter(service, manager, f"tournament create {kind} cup format {kind}")
        ids[kind] = tournament_id_of(reply)
    for player in people(MAX_ROUND_ROBIN):
        for tournament_id in ids.values():
            await enter(service, asking(player), f"tournament join {tournament_id}")
    late = people(1, start=5000)[0]
    with pytest.raises(kinds.LimitError, match="is full"):
        await enter(service, asking(late), f"tournament join {ids['roundrobin']}")
    await enter(service, asking(late), f"tournament join {ids['swiss']}")
    info = await enter(service, asking(late), f"tournament info {ids['swiss']}")
    assert f"({MAX_ROUND_ROBIN + 1})" in info.plain


@pytest.mark.parametrize(("fits_in", "too_much"), [
    ("format league group 4", "format league group 3"),
    ("format league group 16", "format league group 17"),
    ("format swiss signup 60d", "format swiss signup 61d"),
])
async def test_the_readmes_bounds_on_options_hold_at_their_edges(service: TwixtService,
                                                                  storage, fits_in, too_much):
    """A league's groups are 4 to 16 players, sign-up runs up to 60 days: the edge is taken,
    one beyond it is refused and creates nothing."""
    manager = asking(User(1, "td"), manager=True)
    await enter(service, manager, f"tournament create Cup {fits_in}")
    with pytest.raises(kinds.MalformedError):
        await enter(service, manager, f"tournament create Cup {too_much}")
    assert len(await storage.tournaments(manager.guild_id)) == 1


async def test_an_tournament_name_is_at_most_32_characters(service: TwixtService, storage):
    manager = asking(User(1, "td"), manager=True)
    await enter(service, manager, f"tournament create {'n' * 32} format swiss")
    with pytest.raises(kinds.LimitError):
        await enter(service, manager, f"tournament create {'n' * 33} format swiss")
    assert [t.name for t in await storage.tournaments(manager.guild_id)] == ["n" * 32]


def test_a_round_robin_is_full_at_20_of_an_tournaments_64():
    """The limit tests above read the constants; docs/limits.md and docs/tournaments.md
    promise these numbers."""
    assert (MAX_ROUND_ROBIN, MAX_ENTRANTS, MAX_NAME) == (20, 64, 32)
    docs = Path(__file__).resolve().parents[4] / "docs"
    limits, tournaments = (" ".join((docs / name).read_text(encoding="utf-8").split())
                           for name in ("limits.md", "tournaments.md"))
    assert f"at most {MAX_ENTRANTS} entrants, {MAX_ROUND_ROBIN} in a round robin" in limits
    assert f"At most {MAX_ENTRANTS} entrants; {MAX_ROUND_ROBIN} in a round robin" in tournaments
    assert f"one line of at most {MAX_NAME} characters" in tournaments


async def test_a_swiss_has_four_rounds_and_a_league_groups_of_ten_unless_told(
        service: TwixtService):
    manager = asking(User(1, "td"), manager=True)
    for kind, rounds in (("swiss", 4), ("league", 10)):
        reply = await enter(service, manager, f"tournament create {kind} cup format {kind}")
        tournament = await service.desk.storage.get_tournament(tournament_id_of(reply))
        assert tournament.rounds == rounds  # a league keeps its group size there
