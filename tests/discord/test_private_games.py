"""A whole game in a group DM, played through the Discord-shaped server (`fake_discord`) by the
real `twixt run`: the app installed to the players' accounts, never posting into the channel
(which Discord refuses with 50001), each turn answered in the interaction, the opponent told
in their own DM with the bot, and every move made with the picker on a 24×24 board.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from support.fake_discord import USER, FakeDiscord, Interaction, Sent
from support.processes import environment, until

ALICE, BOB, CAROL = 101, 102, 103


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        fake.add_user(uid, name)
    yield fake
    await fake.stop()


@pytest.fixture
def bot(server: FakeDiscord, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(server.bot_command(), cwd=tmp_path,
                               env=environment(tmp_path / "t.db"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    yield process
    process.kill()
    process.wait()


async def ready(server: FakeDiscord, bot: subprocess.Popen[bytes]) -> None:
    await until(lambda: server.ready_sent.is_set() or bot.poll() is not None, "READY")
    assert bot.poll() is None, bot.stderr.read() if bot.stderr else ""


def slash(server: FakeDiscord, group: str, name: str, **options: Any) -> dict[str, Any]:
    """A slash command's data as Discord sends it: users as ids, resolved to user objects
    (no members: there is no server)."""
    command = next(c for c in server.commands if c["name"] == group)
    given, users = [], {}
    for key, value in options.items():
        if isinstance(value, dict):
            given.append({"name": key, "type": 6, "value": value["id"]})
            users[value["id"]] = value
        else:
            given.append({"name": key, "type": 4 if isinstance(value, int) else 3,
                          "value": value})
    data: dict[str, Any] = {"id": command["id"], "name": group, "type": 1,
                            "options": [{"name": name, "type": 1, "options": given}]}
    if users:
        data["resolved"] = {"users": users}
    return data


def shown(server: FakeDiscord, answer: Sent) -> Sent:
    """The board a turn's answer shows: the answer itself, or — a board edited in place —
    the message its link (its last line) points to, as it is now."""
    if "board.png" in answer.files or answer.custom_ids():
        return answer
    link = answer.content.rsplit("\n", 1)[-1]
    return server.message(int(link.rsplit("/", 1)[-1]))


async def use(server: FakeDiscord, who: int, channel: int, message: Sent, prefix: str,
              values: list[str] | None = None) -> Interaction:
    """Press a button (or choose in a select) of `message` (or of the board it links to)
    as `who`."""
    message = shown(server, message)
    item = message.component(prefix)
    data: dict[str, Any] = {"custom_id": item["custom_id"], "component_type": item["type"]}
    if values is not None:
        data["values"] = values
    return await server.interact(who, channel, data, kind=3, message=message)


async def group_dm_game(server: FakeDiscord, size: str = "12") -> tuple[int, Sent]:
    """A new group DM of alice and bob, where alice challenges bob (no swap) and he
    accepts: the channel and the game's first board."""
    channel = server.group_dm(ALICE, BOB)
    [offer] = await server.answered(await server.interact(ALICE, channel, slash(
        server, "twixt", "challenge", user=server.users[BOB], size=size, swap="no")))
    [board] = await server.answered(await use(server, BOB, channel, offer, "Accept"))
    return channel, board


async def pick(server: FakeDiscord, who: int, channel: int, board: Sent, peg: str) -> Sent:
    """Play `peg` with the picker under `board`: its column, its row, Place; the board the
    move is answered with."""
    column, row = peg.rstrip("0123456789"), peg[len(peg.rstrip("0123456789")):]
    rows = await _choose(server, who, channel, board, "twixt-pick:col", column)
    assert rows.ephemeral, rows.content
    place = await _choose(server, who, channel, rows, "twixt-pick:row", row)
    assert place.ephemeral and peg in place.content, place.content
    # the step pressed on the private picker took its place: one private message a pick
    assert place.id == rows.id and place.edits >= 1
    placed = await use(server, who, channel, place, "twixt-pick:place")
    [answer] = await server.answered(placed)
    return answer


async def _choose(server: FakeDiscord, who: int, channel: int, message: Sent, prefix: str,
                  value: str) -> Sent:
    """Choose `value` in the select of `message` (of those named `prefix`) that offers it;
    the one message that answers the choice."""
    message = shown(server, message)
    select = next(item for item in _selects(message, prefix)
                  if any(option["value"] == value for option in item["options"]))
    chose = await server.interact(who, channel, {"custom_id": select["custom_id"],
                                                 "component_type": 3, "values": [value]},
                                  kind=3, message=message)
    [answer] = await server.answered(chose)
    return answer


def _selects(message: Sent, prefix: str) -> list[dict[str, Any]]:
    return [item for item in message.items() if item.get("custom_id", "").startswith(prefix)]


def png_size(message: Sent) -> tuple[int, int]:
    image = Image.open(io.BytesIO(message.files["board.png"]))
    image.verify()
    return Image.open(io.BytesIO(message.files["board.png"])).size


#: red (alice) crosses the board from row 1 to row 24, each peg linked to the last
RED = ["L1", "N2", "M4", "N6", "M8", "N10", "M12", "N14", "M16", "N18", "M20", "N22", "M24"]
#: black (bob) plays down column C, out of red's way
BLACK = ["C3", "C5", "C7", "C9", "C11", "C13", "C15", "C17", "C19", "C21", "C23", "E5"]


async def test_a_whole_game_in_a_group_dm_with_the_picker(server, bot):
    await ready(server, bot)
    # every group is installable to accounts, and usable in DMs and group DMs
    assert {c["name"] for c in server.commands} >= {"twixt", "twixt-settings"}
    for command in server.commands:
        assert command["integration_types"] == [0, 1], command["name"]
        assert sorted(command["contexts"]) == [0, 1, 2], command["name"]
    channel = server.group_dm(ALICE, BOB, CAROL)
    challenge = await server.interact(ALICE, channel, slash(
        server, "twixt", "challenge", user=server.users[BOB], size="24", swap="no"))
    [offer] = await server.answered(challenge)
    assert "bob" in offer.content and not offer.ephemeral
    # carol sees the buttons but is not invited
    [refused] = await server.answered(await use(server, CAROL, channel, offer, "Accept"))
    assert refused.ephemeral
    accepted = await use(server, BOB, channel, offer, "Accept")
    # bob presses on alice's message: the app runs on her install, as Discord says
    assert accepted.payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    [board] = await server.answered(accepted)
    assert png_size(board)[0] >= 400
    assert len(board.data["components"]) <= 5
    first = board
    for move in range(len(RED)):
        board = await pick(server, ALICE, channel, board, RED[move])
        assert not board.ephemeral and RED[move] in board.content
        if move < len(BLACK):
            # the answer to alice's own press pings bob, and him alone: Discord notifies him
            assert board.notified == [BOB] and f"<@{BOB}>" in board.content
            allowed = board.allowed_mentions or {}
            assert ([int(uid) for uid in allowed["users"]], allowed["parse"]) == ([BOB], [])
            # and once a game, he hears of it in his own DM with the bot, with a link
            await until(lambda: len(server.direct_messages(BOB)) == 1, "bob's DM")
            ping = server.direct_messages(BOB)[0]
            assert "your move" in ping.content
            if move == 0:
                assert f"/channels/@me/{channel}/{board.data['id']}" in ping.content
            # carol, who is not playing, cannot use the picker
            [no] = await server.answered(await use(server, CAROL, channel, board,
                                                   "twixt-pick:col", ["A"]))
            assert no.ephemeral and "not playing" in no.content
            board = await pick(server, BOB, channel, board, BLACK[move])
    assert "wins" in board.content
    assert png_size(board)[0] >= 400
    # the game's board was one message, edited in place after each move but the last (the
    # final board, with no controls, is a message of its own)
    assert first.edits == len(RED) + len(BLACK) - 1 and first.components_v2
    assert sum("board.png" in sent.files for sent in server.sent) == 2
    # the bot never posted into the channel, and Discord refused nothing: not one request
    # of the whole game was answered 4xx (each counts toward the invalid-request limit)
    assert server.refused == [] and server.invalid == []
    assert all(sent.via != "post" for sent in server.sent)
    # the game after its end: status answers in the same channel
    [status] = await server.answered(await server.interact(
        ALICE, channel, slash(server, "twixt", "status")))
    assert "alice" in status.content and "bob" in status.content


async def test_an_old_picker_is_refused_in_one_line(server, bot):
    await ready(server, bot)
    channel, board = await group_dm_game(server)
    # the first board's token has expired: the board after alice's move is a new message
    server.later(16 * 60)
    said = await pick(server, ALICE, channel, board, "F6")
    assert "board.png" in said.files and board.edits == 0
    # the first board's picker is one move behind: said at once, privately, in one line
    pressed = await use(server, BOB, channel, board, "twixt-pick:col", ["C"])
    [stale] = await server.answered(pressed)
    assert stale.ephemeral and stale.via == "callback" and stale.content == (
        "This board is old: the game has moved on since. Use the newest board.")
    # and its Resign button does nothing but say so
    [resign] = await server.answered(await use(server, BOB, channel, board, "Resign"))
    assert resign.content == stale.content and not resign.custom_ids()


@pytest.mark.parametrize("refusal", [50007, 50278], ids=["closed-dms", "no-mutual-server"])
async def test_a_refused_dm_is_tried_once_and_the_mention_tells_the_player(server, bot,
                                                                           refusal):
    """Bob's DMs are closed to the bot (50007), or he shares no server with it (50278, the
    usual case of a user-installed app): the answer in the shared DM pings him each turn,
    the bot's DM is tried once, and not again in his next game."""
    await ready(server, bot)
    (server.closed_dms if refusal == 50007 else server.strangers).add(BOB)
    for _game in range(2):
        channel, board = await group_dm_game(server)
        for mine, his in (("F6", "C5"), ("F8", "C7")):
            typed = await server.interact(ALICE, channel, slash(server, "twixt", "move",
                                                                command=mine))
            [board] = await server.answered(typed)
            assert mine in board.content and not board.ephemeral
            assert board.notified == [BOB]
            board = await pick(server, BOB, channel, board, his)
            assert board.notified == [ALICE]
        await server.answered(await server.interact(BOB, channel, slash(
            server, "twixt", "resign")))
    # one DM tried in all, refused; nothing more was asked that Discord refuses
    assert server.refused == [(BOB + 1, refusal)]
    assert [(status, code) for status, code, *_ in server.invalid] == [(403, refusal)]
    assert len(server.direct_messages(ALICE)) == 2  # her DMs are open: once a game
    # alice was never told that bob could not be reached: the mention told him
    assert not any(sent.ephemeral and "could not tell" in sent.content
                   for sent in server.sent)


async def test_the_picker_of_a_48x48_board_takes_two_selects_a_step(server, bot):
    await ready(server, bot)
    channel, board = await group_dm_game(server, size="48")
    columns = _selects(board, "twixt-pick:col")
    assert [len(select["options"]) for select in columns] == [25, 21]  # B to AU
    assert len(board.data["components"]) <= 5
    assert [s["placeholder"] for s in columns] == ["Column… B–Z", "Column… AA–AU"]
    board = await pick(server, ALICE, channel, board, "AO47")
    assert "AO47" in board.content
    # bob, in his turn, asks where his move is wanted most
    [said] = await server.answered(await server.interact(BOB, channel,
                                                         slash(server, "twixt", "next")))
    assert said.ephemeral and said.content.startswith("Your most urgent game: #1 vs alice")
    assert f"https://discord.com/channels/@me/{channel}" in said.content
    assert said.component("Next game")


@pytest.mark.parametrize("forced", [False, True], ids=["public", "forced-ephemeral"])
@pytest.mark.parametrize("context", [1, 2], ids=["bot-dm", "group-dm"])
async def test_the_bots_moves_in_a_dm_follow_the_players_command(server, bot, context,
                                                                 forced):
    """Whether or not Discord shows a user-installed app's follow-ups in a DM to the
    interaction's user alone (its documentation does not settle it), the player sees the
    bot's move and plays on from its picker."""
    await ready(server, bot)
    server.dm_followups_ephemeral = forced
    me = dict(USER)
    channel = server.bot_dm(ALICE) if context == 1 else server.group_dm(ALICE, BOB)
    [board] = await server.answered(await server.interact(ALICE, channel, slash(
        server, "twixt", "challenge", user=me, size="12", swap="no", level=1),
        context=context))
    assert "Game 1 on" in board.content
    moved = await server.interact(ALICE, channel, slash(server, "twixt", "move",
                                                        command="F6"), context=context)
    mine, bots = await server.answered(moved, 2)
    assert "F6" in mine.content
    # the bot's answer is a followup of alice's command: never a post into the channel
    assert bots.via == "followup" and "bot (level 1)" in bots.content
    # the game's board, edited in place, has the picker for alice; the followup says the
    # move and links to it
    board = shown(server, bots)
    assert board.custom_ids() and board.edits == 2 and "bot (level 1)" in board.content
    assert server.refused == [] and server.interactions[moved.id].followups == 1
    assert bots.ephemeral is forced and server.direct_messages(ALICE) == []
    # the bot thought without a typing sign in a channel it cannot see: no request refused
    assert server.invalid == []
    board = await pick(server, ALICE, channel, bots, "H7")
    assert "H7" in board.content


async def test_when_the_token_has_expired_the_bots_move_goes_to_the_players_dm(server, bot):
    """Discord's clock runs past the token's 15 minutes between the answer to alice's move and
    the bot's reply: the followup is refused (50027), and the bot's move reaches alice in her
    own DM with the bot, with its board; the game goes on from a new command."""
    await ready(server, bot)
    channel = server.group_dm(ALICE, BOB)
    [board] = await server.answered(await server.interact(ALICE, channel, slash(
        server, "twixt", "challenge", user=dict(USER), size="12", swap="no", level=1)))
    assert "Game 1 on" in board.content
    server.age_after_answer = 16 * 60
    moved = await server.interact(ALICE, channel, slash(server, "twixt", "move",
                                                        command="F6"))
    [mine] = await server.answered(moved)
    assert "F6" in mine.content
    await until(lambda: any("bot (level 1)" in m.content
                            for m in server.direct_messages(ALICE)), "alice's DM")
    told = next(m for m in server.direct_messages(ALICE) if "bot (level 1)" in m.content)
    assert "board.png" in told.files
    assert server.interactions[moved.id].followups == 0  # refused: none was taken
    assert all(sent.via != "post" or sent.channel_id != channel for sent in server.sent)
    server.age_after_answer = 0
    [again] = await server.answered(await server.interact(
        ALICE, channel, slash(server, "twixt", "status")))
    assert "alice" in again.content


async def test_everything_a_game_has_works_in_a_dm(server, bot):
    await ready(server, bot)
    channel = server.group_dm(ALICE, BOB)

    async def slash_as(who: int, group: str, name: str, count: int = 1,
                       **options: Any) -> list[Sent]:
        return await server.answered(
            await server.interact(who, channel, slash(server, group, name, **options)), count)

    async def press(who: int, message: Sent, label: str) -> Sent:
        [answer] = await server.answered(await use(server, who, channel, message, label))
        return answer

    [offer] = await slash_as(ALICE, "twixt", "challenge", user=server.users[BOB], size="12",
                             swap="no")
    board = await press(BOB, offer, "Accept")
    board = await pick(server, ALICE, channel, board, "F6")
    # alice stores a reply to bob's next move, and a note, both for her alone
    [stored] = await slash_as(ALICE, "twixt", "if", moves="if C5 then E7")
    assert stored.ephemeral and "Stored" in stored.content
    [noted] = await slash_as(ALICE, "twixt", "note", text="keep the centre")
    [notes] = await slash_as(ALICE, "twixt", "notes")
    assert noted.ephemeral and notes.ephemeral and "keep the centre" in notes.content
    # bob's C5 is answered at once by alice's stored E7
    board = await pick(server, BOB, channel, board, "C5")
    assert "E7" in board.content
    # bob offers a draw with the board's button; alice declines it with hers
    offered = await press(BOB, board, "Offer draw")
    assert "offers a draw" in offered.content
    declined = await press(ALICE, offered, "Decline draw")
    assert not declined.ephemeral
    # alice asks to take back her stored E7; bob grants it
    [asked] = await slash_as(ALICE, "twixt", "takeback")
    granted = await press(BOB, asked, "Accept takeback")
    assert "taken back" in granted.content
    [status] = await slash_as(BOB, "twixt", "status")
    assert "bob" in status.content
    # bob resigns, confirming it
    ask = await press(BOB, granted, "Resign")
    assert ask.ephemeral
    over = await press(BOB, ask, "Resign")
    assert "resign" in over.content.lower() and not over.ephemeral
    # the leaderboard is a server's: refused in one line
    [board_refused] = await slash_as(ALICE, "twixt-records", "leaderboard")
    assert board_refused.ephemeral and "not rated" in board_refused.content
    [stats] = await slash_as(ALICE, "twixt-records", "stats")
    assert "1" in stats.content
    assert server.refused == [] and server.invalid == []


async def test_the_user_command_challenges_the_member_it_is_used_on(server, bot):
    """Right-click (or long-press) bob → Apps → "Challenge to TwixT": a challenge with the
    default options, which bob accepts as any other."""
    await ready(server, bot)
    [menu] = [c for c in server.commands if c["type"] == 2]
    assert menu["name"] == "Challenge to TwixT"
    assert menu["name_localizations"] == {
        "de": "Zu TwixT herausfordern", "fr": "Défier à TwixT", "es-ES": "Desafiar a TwixT",
        "es-419": "Desafiar a TwixT", "nl": "Uitdagen voor TwixT"}
    assert (menu["integration_types"], sorted(menu["contexts"])) == ([0, 1], [0, 1, 2])
    channel = server.group_dm(ALICE, BOB)
    used = await server.interact(ALICE, channel, {
        "id": menu["id"], "name": menu["name"], "type": 2, "target_id": str(BOB),
        "resolved": {"users": {str(BOB): server.users[BOB]}}})
    [offer] = await server.answered(used)
    assert "bob" in offer.content and not offer.ephemeral
    [board] = await server.answered(await use(server, BOB, channel, offer, "Accept"))
    assert board.notified == [ALICE] and board.custom_ids()


async def test_move_autocompletes_with_the_legal_holes_best_first(server, bot):
    """Typing `/twixt move command: F` in the game's DM: Discord asks the app (interaction
    type 4) and gets holes of column F, those linking to alice's pegs first; the first sent
    as the command is played."""
    await ready(server, bot)
    channel, board = await group_dm_game(server)
    board = await pick(server, ALICE, channel, board, "D5")
    board = await pick(server, BOB, channel, board, "K10")
    command = next(c for c in server.commands if c["name"] == "twixt")
    typing = await server.interact(ALICE, channel, {
        "id": command["id"], "name": "twixt", "type": 1, "options": [{
            "name": "move", "type": 1, "options": [
                {"name": "command", "type": 3, "value": "F", "focused": True}]}]}, kind=4)
    await until(lambda: typing.choices is not None, "the choices")
    assert server.callbacks[-1] == 8
    choices = typing.choices or []
    assert choices and all(c["value"].startswith("F") for c in choices)
    assert choices[0]["value"] in ("F4 link all", "F6 link all")  # a knight's move from D5
    assert "D5" in choices[0]["name"]
    [played] = await server.answered(await server.interact(ALICE, channel, slash(
        server, "twixt", "move", command=choices[0]["value"])))
    assert choices[0]["value"].split()[0] in played.content and not played.ephemeral


async def test_a_sync_refused_for_user_install_is_logged_and_the_bot_plays_on(server,
                                                                             tmp_path):
    """The owner forgot to tick User Install: Discord refuses commands that name it. The
    bot says so in its log, naming Discord's reason, and keeps running."""
    server.install_types = {0}
    process = subprocess.Popen(server.bot_command(), cwd=tmp_path,
                               env=environment(tmp_path / "t.db"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        await ready(server, process)
        assert not server.commands_synced.is_set()
        assert [(status, code) for status, code, method, _ in server.invalid
                if method == "PUT"] == [(400, 50035)]
        assert process.poll() is None
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=60)
    assert b"command sync failed" in err and b"install types" in err
