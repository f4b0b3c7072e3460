"""`note` and `notes`: private notes on a game, kept beside it and never in its record, on a
controlled clock over a real SQLite file."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CAROL, asking
from tests.typed import enter
from twixt.service import ServiceError, TwixtService
from twixt.service import errors as kinds
from twixt.service.cases import notes as notes_module
from twixt.storage import SqliteStorage


async def _refusal(service: TwixtService, request, typed: str) -> tuple[type[ServiceError], str]:
    """What `typed` is refused with: its kind and its words."""
    with pytest.raises(ServiceError) as refused:
        await enter(service, request, typed)
    return type(refused.value), str(refused.value)


async def test_notes_are_kept_and_shown_to_their_writer_oldest_first(service, clock):
    await start_game(service)
    kept = await enter(service, asking(ALICE), "note E5 blocks his bridge")
    assert (kept.plain, kept.ephemeral) == (
        "Note 1 kept on game 1; only you see it (`notes`).", True)
    clock.now += timedelta(hours=2, minutes=5)
    await enter(service, asking(ALICE), "note  then   G6 ")
    await enter(service, asking(BOB), "note bob's own idea")
    shown = await enter(service, asking(ALICE), "notes")
    assert shown.ephemeral
    assert shown.plain.splitlines() == ["**Your notes on game 1** (page 1 of 1)",
                                       "1. 2026-01-01 12:00 UTC: `E5 blocks his bridge`",
                                       "2. 2026-01-01 14:05 UTC: `then G6`"]
    assert "bob" not in shown.plain


async def test_an_onlooker_keeps_notes_on_the_channels_game_too(service):
    await start_game(service)
    await enter(service, asking(CAROL), "note watch the left side")
    assert "`watch the left side`" in (await enter(service, asking(CAROL), "notes")).plain


async def test_a_game_elsewhere_is_named_by_its_number(service):
    await start_game(service)
    await enter(service, asking(ALICE, 300), "note #1 from the lobby")
    assert "`from the lobby`" in (await enter(service, asking(ALICE, 300), "notes 1")).plain
    assert "`from the lobby`" in (await enter(service, asking(ALICE), "notes")).plain
    # a game one neither plays nor watches in its channel is nobody's business
    assert await _refusal(service, asking(CAROL, 300), "note #1 peeking") == (
        kinds.MissingError, "there is no such game")
    assert await _refusal(service, asking(CAROL, 300), "notes #1") == (
        kinds.MissingError, "there is no such game")


async def test_a_finished_game_keeps_its_notes_and_takes_more(service):
    await start_game(service)
    await enter(service, asking(ALICE), "note before")
    await enter(service, asking(BOB), "resign yes")
    await enter(service, asking(ALICE), "note after the game")
    assert "`after the game`" in (await enter(service, asking(ALICE), "notes")).plain


async def test_nothing_in_a_note_formats_or_pings(service):
    await start_game(service)
    await enter(service, asking(ALICE), "note **bold** <@12> @everyone `tick` <#100> # head")
    shown = (await enter(service, asking(ALICE), "notes")).plain.splitlines()[-1]
    assert shown == "1. 2026-01-01 12:00 UTC: `**bold** <@12> @everyone 'tick' <#100> # head`"


async def test_a_note_too_long_is_refused_and_nothing_is_kept(service):
    await start_game(service)
    assert await _refusal(service, asking(ALICE), "note " + "x" * 1001) == (
        kinds.LimitError, "a note is at most 1000 characters; this one has 1001")
    assert await _refusal(service, asking(ALICE), "note") == (
        kinds.MalformedError, "write note TEXT, like note E5 blocks his bridge")
    assert (await enter(service, asking(ALICE), "notes")).plain == (
        "You have no notes on game 1: keep one with note TEXT.")


async def test_notes_beyond_the_most_are_refused_until_cleared(service, monkeypatch):
    monkeypatch.setattr(notes_module, "MAX_NOTES", 3)
    await start_game(service)
    for number in range(3):
        await enter(service, asking(ALICE), f"note idea {number}")
    assert await _refusal(service, asking(ALICE), "note one too many") == (
        kinds.LimitError, "you have 3 notes on game 1 already: notes clear removes them")
    cleared = await enter(service, asking(ALICE), "notes clear")
    assert (cleared.plain, cleared.ephemeral) == ("3 notes on game 1 cleared.", True)
    assert (await enter(service, asking(ALICE), "note a fresh start")).plain.startswith("Note 1 ")


async def test_a_player_keeps_fifty_notes_on_a_game_and_no_more(service):
    await start_game(service)
    for number in range(50):
        await enter(service, asking(ALICE), f"note idea {number}")
    assert await _refusal(service, asking(ALICE), "note one too many") == (
        kinds.LimitError, "you have 50 notes on game 1 already: notes clear removes them")
    last = (await enter(service, asking(ALICE), "notes page 2")).plain.splitlines()[-1]
    assert last.startswith("50. ") and last.endswith("`idea 49`")


async def test_long_notes_are_shown_a_page_at_a_time_each_within_a_message(service):
    await start_game(service)
    for number in range(5):
        await enter(service, asking(ALICE), f"note {number} " + "x" * 650)
    first = await enter(service, asking(ALICE), "notes")
    assert first.plain.startswith("**Your notes on game 1** (page 1 of 3)")
    assert first.plain.endswith("More: notes #1 page 2")
    pages = [first] + [await enter(service, asking(ALICE), f"notes #1 page {page}")
                       for page in (2, 3)]
    assert all(len(page.plain) <= 2000 for page in pages)
    shown = "".join(page.plain for page in pages)
    assert all(f"`{number} x" in shown for number in range(5))
    beyond = await enter(service, asking(ALICE), "notes page 4")
    assert beyond.plain.endswith("None on this page.")


async def test_notes_stay_out_of_the_games_record(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await enter(service, asking(ALICE), "note SECRET-PLAN link to J12")
    exported = await enter(service, asking(BOB), "export")
    assert exported.attachments
    assert all(b"SECRET" not in file.data for file in exported.attachments)
    assert "SECRET" not in (await enter(service, asking(BOB), "status")).plain


async def test_notes_survive_a_restart(tmp_path, clock):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        service = TwixtService(storage, clock=clock)
        await start_game(service)
        await enter(service, asking(ALICE), "note kept on disk")
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        shown = await enter(TwixtService(storage, clock=clock), asking(ALICE), "notes")
    assert "1. 2026-01-01 12:00 UTC: `kept on disk`" in shown.plain


async def test_notes_are_not_kept_or_shown_in_a_public_reply(service):
    await start_game(service)
    public = replace(asking(ALICE), private_replies=False)
    assert await _refusal(service, public, "note my plan") == (
        kinds.NotAllowedError,
        "only you may see this, and a reply here is public: use `/twixt note`")
    assert await _refusal(service, public, "notes") == (
        kinds.NotAllowedError,
        "only you may see this, and a reply here is public: use `/twixt notes`")
    assert "no notes" in (await enter(service, asking(ALICE), "notes")).plain


@pytest.mark.parametrize("typed, kind, error", [
    ("notes 1 2", kinds.MalformedError, "write notes, notes #12, notes page 2 or notes clear"),
    ("notes page 0", kinds.MalformedError, "pages go from 1 to 1000"),
    ("notes #9", kinds.MissingError, "there is no such game"),
])
async def test_a_bad_notes_line_is_refused_in_one_line(service, typed, kind, error):
    await start_game(service)
    assert await _refusal(service, asking(ALICE), typed) == (kind, error)


async def test_a_note_keeps_no_direction_change(service, storage):
    """A right-to-left override (U+202E) would turn the rest of the line around where the
    note is shown: it is dropped, as from names."""
    await start_game(service)
    await enter(service, asking(ALICE), "note \u202eE5 \u200bblocks")
    shown = await enter(service, asking(ALICE), "notes")
    assert shown.plain.splitlines()[1].endswith(": `E5 blocks`")
    assert [n.text for n in await storage.notes(1, ALICE.id, 10)] == ["E5 blocks"]
