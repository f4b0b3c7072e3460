"""What a player keeps for themselves beside a game: private notes and a move waiting for
confirmation (SQLite's migration 0008, PostgreSQL's 0005), on both back ends."""

import sqlite3
from datetime import timedelta

import asyncpg
import pytest

from tests.fakes import Clock
from tests.service.helpers import press
from tests.service.helpers import start_game as start_service_game
from tests.service.people import ALICE, asking
from tests.storage.storage_helpers import T0, start_game
from tests.typed import enter
from twixt.service import TwixtService


async def test_notes_are_numbered_per_user_and_game_and_read_oldest_first(store):
    game = await start_game(store, 10)
    other = await start_game(store, 11, users=(3, 4))
    first = await store.add_note(game.id, 1, "watch E5", most=3, now=T0)
    await store.add_note(game.id, 2, "bob's idea", most=3, now=T0)
    await store.add_note(other.id, 1, "another game", most=3, now=T0)
    second = await store.add_note(game.id, 1, "then G6", most=3, now=T0 + timedelta(hours=1))
    assert (first.number, second.number) == (1, 2)
    notes = await store.notes(game.id, 1, limit=10)
    assert [(n.number, n.text, n.written_at) for n in notes] == [
        (1, "watch E5", T0), (2, "then G6", T0 + timedelta(hours=1))]
    assert [n.text for n in await store.notes(game.id, 2, limit=10)] == ["bob's idea"]
    assert [n.text for n in await store.notes(game.id, 1, limit=1)] == ["watch E5"]


async def test_a_note_beyond_the_most_writes_nothing(store):
    game = await start_game(store, 10)
    for text in ("one", "two"):
        assert await store.add_note(game.id, 1, text, most=2) is not None
    assert await store.add_note(game.id, 1, "three", most=2) is None
    assert [n.text for n in await store.notes(game.id, 1, limit=10)] == ["one", "two"]


async def test_clearing_notes_removes_only_that_users_notes_on_that_game(store):
    game = await start_game(store, 10)
    await store.add_note(game.id, 1, "one", most=5)
    await store.add_note(game.id, 1, "two", most=5)
    await store.add_note(game.id, 2, "theirs", most=5)
    assert await store.clear_notes(game.id, 1) == 2
    assert await store.clear_notes(game.id, 1) == 0
    assert await store.notes(game.id, 1, limit=10) == ()
    assert len(await store.notes(game.id, 2, limit=10)) == 1
    again = await store.add_note(game.id, 1, "fresh start", most=5)
    assert again.number == 1


async def test_a_note_longer_than_the_schema_allows_is_refused(store):
    game = await start_game(store, 10)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError)):
        await store.add_note(game.id, 1, "x" * 1001, most=5)
    assert await store.notes(game.id, 1, limit=10) == ()


async def test_a_held_move_is_replaced_by_a_newer_one_with_a_new_id(store):
    game = await start_game(store, 10)
    older = await store.hold_move(game.id, 1, "G6", 0, now=T0)
    newer = await store.hold_move(game.id, 1, "H7", 0, now=T0)
    theirs = await store.hold_move(game.id, 2, "K12", 0, now=T0)
    assert newer.id not in (older.id, theirs.id)
    assert await store.pending_move(game.id, 1) == newer
    assert (newer.command, newer.at_version, newer.created_at) == ("H7", 0, T0)
    assert await store.take_pending_move(older.id) is None
    assert await store.pending_move(game.id, 1) == newer


async def test_a_held_move_is_taken_once(store):
    game = await start_game(store, 10)
    held = await store.hold_move(game.id, 1, "G6", 3)
    assert await store.take_pending_move(held.id) == held
    assert await store.take_pending_move(held.id) is None
    assert await store.pending_move(game.id, 1) is None


async def test_an_id_is_never_given_again_after_the_newest_move_was_taken(store):
    game = await start_game(store, 10)
    held = await store.hold_move(game.id, 1, "G6", 0)
    await store.take_pending_move(held.id)
    assert (await store.hold_move(game.id, 1, "G6", 0)).id > held.id


async def test_the_service_lists_notes_and_confirms_on_each_back_end(store):
    """`games`, `note`/`notes` and a confirmed move through the service, a restart (a new
    service on the same database) in the middle."""
    clock = Clock()
    service = TwixtService(store, clock=clock)
    await start_service_game(service, swap="no", time="1d")
    await enter(service, asking(ALICE), "settings confirm on")
    shown = await enter(service, asking(ALICE), "K10")
    await enter(service, asking(ALICE), "note my plan")
    clock.now += timedelta(hours=1)

    restarted = TwixtService(store, clock=clock)
    assert "#1 vs bob — your turn (23h 0m left) · <#100>" in (
        await enter(restarted, asking(ALICE), "games")).plain
    assert "`my plan`" in (await enter(restarted, asking(ALICE), "notes")).plain
    [button] = shown.buttons
    played = await press(restarted, asking(ALICE), button.kind, button.target)
    assert played.plain.startswith("**alice** (Red): `K10`")
    assert "#1 vs bob — bob to move (1d 0h left)" in (
        await enter(restarted, asking(ALICE), "games")).plain
