"""Names keep every character they were typed with, and show as typed: a name is stored and
recorded exactly, and wherever Discord shows it, it is escaped so that it cannot format, link
or ping (`language.verbatim`, `twixt.discord.replies.shown`); the terminal prints it plainly."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import discord

from tests.discord.helpers import Commands, press, run
from tests.discord.people import CHANNEL, GUILD, member
from tests.discord.reading import custom_ids, only, sent, words
from tests.discord.test_tournaments import threads_under
from twixt.app.table import open_table
from twixt.discord.replies import shown
from twixt.discord.slash import slash_groups
from twixt.language import translation
from twixt.storage import SqliteStorage

#: two players whose names hold every kind of markdown, mention and tag (Discord's names are
#: at most 32 characters, so the constructs are shared between the two)
MARKED = member(201, "**x**_y_ @everyone <@1> `c`")
LINKED = member(202, "||s|| [a](e.org) <@&5> ~~t~~")
#: how Discord must receive them: every construct escaped, mentions defused
MARKED_SHOWN = "\\*\\*x\\*\\*\\_y\\_ @\u200beveryone \\<@1> \\`c\\`"
LINKED_SHOWN = "\\|\\|s\\|\\| \\[a]\\(e.org) \\<@&5> \\~\\~t\\~\\~"


def _shows_names_as_typed(message: dict, *names: str) -> None:
    """Each name shows escaped, and nothing of it raw: no bold, spoiler, link or ping."""
    text = words(message)
    for name in names:
        assert name in text, text
    unescaped = re.sub(r"\\.", "", text)
    for raw in ("**x**", "_y_", "@everyone", "<@1>", "`c`", "||s||", "[a](", "<@&5>", "~~t~~"):
        assert raw not in unescaped, text
    assert message["allowed_mentions"].everyone is False


async def test_a_name_full_of_markdown_is_kept_exactly_and_shown_escaped(client, slash):
    challenge = only(await run(client, slash, "challenge", MARKED, user=LINKED, rules="pp",
                               swap="no", first="me"))
    _shows_names_as_typed(challenge, MARKED_SHOWN)
    start = only(await press(client, custom_ids(challenge)["Accept"], LINKED))
    _shows_names_as_typed(start, MARKED_SHOWN, LINKED_SHOWN)
    assert f"**{MARKED_SHOWN}** (Red) vs **{LINKED_SHOWN}** (Black)" in words(start)

    moved = only(await run(client, slash, "move", MARKED, command="K12"))
    _shows_names_as_typed(moved, MARKED_SHOWN)
    confirm = only(await run(client, slash, "resign", LINKED))
    ended = only(await press(client, custom_ids(confirm)["Resign"], LINKED))
    _shows_names_as_typed(ended, MARKED_SHOWN)

    for name, options in (("history", {}), ("stats", {"user": MARKED}), ("leaderboard", {})):
        listing = sent(await run(client, slash, name, LINKED, **options))[-1]
        _shows_names_as_typed(listing, MARKED_SHOWN)

    exported = only(await run(client, slash, "export", LINKED))
    transcript = exported["files"][0].fp.read().decode()
    assert f'[Players "{MARKED.display_name}, {LINKED.display_name}"]' in transcript
    assert f"{MARKED.display_name}: K12" in transcript
    stored = await client.service.desk.storage.get_game(1)
    assert [seat.name for seat in stored.seats] == [MARKED.display_name, LINKED.display_name]


async def test_an_event_named_with_markdown_is_kept_and_shown_escaped(client, monkeypatch):
    tournaments = Commands(slash_groups(client.service))
    channel, channels = threads_under(monkeypatch, client)
    name = "**Cup** _of_ @everyone"
    escaped = "\\*\\*Cup\\*\\* \\_of\\_ @\u200beveryone"
    announced = only(await run(client, tournaments, "create", MARKED, manage=True, name=name,
                               format="roundrobin", size="12", vacation="no"))
    assert words(announced).startswith(f"Tournament #1 **{escaped}**: round robin")
    join = custom_ids(announced)["Join"]
    _shows_names_as_typed(only(await press(client, join, MARKED)), MARKED_SHOWN)
    await press(client, join, LINKED)
    started = sent(await run(client, tournaments, "start", MARKED, manage=True))
    assert words(started[0]) == f"{escaped} starts with 2 entrants."
    (thread_id,) = [cid for cid in channels if cid != CHANNEL]
    opening = channels[thread_id].send.await_args.kwargs
    _shows_names_as_typed(opening, MARKED_SHOWN, LINKED_SHOWN)
    # a thread's name reads no markdown: it holds the names as typed
    assert MARKED.display_name in channel.create_thread.await_args.kwargs["name"]
    info = only(await run(client, tournaments, "info", LINKED))
    _shows_names_as_typed(info, MARKED_SHOWN, LINKED_SHOWN)
    listing = only(await run(client, tournaments, "list", LINKED))
    assert f"#1 {escaped} — round robin, running" in words(listing)
    standings = only(await run(client, tournaments, "standings", LINKED))
    assert standings["files"][0].filename == "board.png" and "**Cup**" not in words(standings)
    assert [t.name for t in await client.service.desk.storage.tournaments(GUILD)] == [name]


async def test_the_same_name_at_the_terminal_shows_as_typed(tmp_path: Path):
    typed = "**x**_y_ ~~z~~ `c` [a](e) <b>"
    out = StringIO()
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        table = open_table(storage, "den", tmp_path, out=out)
        await table.run([f"{typed}: challenge bob size 12 swap no first me", "bob: accept",
                         f"{typed}: G6"])
    shown = out.getvalue()
    assert f"**{typed}** challenges bob" in shown, shown
    assert f"**{typed}** (Red): `G6`" in shown
    assert "\\" not in shown and "\u2068" not in shown and discord.utils.escape_markdown(
        typed) not in shown


def test_a_value_in_code_keeps_its_marks_but_cannot_end_the_code() -> None:
    tr = translation("en")
    said = tr("Write: `{form}` or **{name}**\n{name}\n```\n{name}\n```", form="a`b *c*",
              name="1. *d* `e`")
    assert shown(said) == ("Write: `aˋb *c*` or **1\\. \\*d\\* \\`e\\`**\n1\\. \\*d\\* \\`e\\`\n"
                           "```\n1. *d* ˋeˋ\n```")


def test_a_lone_mark_typed_outside_a_template_formats_nothing_more() -> None:
    assert shown("**bold** \u2069x\u2068 and \u2068*y*\u2069") == "**bold** x and \\*y\\*"
