"""Inputs that once escaped as the generic apology or a traceback: each is one line now."""

from __future__ import annotations

import pytest

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.service import errors as kinds
from twixt.storage import OfferKind

HUGE = "9" * 4400  # more digits than int() reads by default


@pytest.mark.parametrize("line, message", [
    ("challenge bob time 9999999999d",
     "time is a time per move like 3d or 12h, or a bank like 10d+36h, not “9999999999d”"),
    ("challenge bob time 99999d", "time per move is 1h to 60d"),
    ("challenge bob handicap ²", "handicap is a number of rows, not “²”"),
    ("history page 99999999999999999999999", "“99999999999999999999999” is not a number"),
    ("history page 100000", "pages go from 1 to 1000"),
    ("leaderboard page 99999999999999999", "pages go from 1 to 1000"),
    ("replay 99999999999999999999", "“99999999999999999999” is not a number"),
    ("accept ²", "I don't understand “accept ²”: a move looks like G6, G6 link E5 or remove "
                 "J9-K11; I11 link K10"),
    (f"G{HUGE}", f"“g{'9' * 38}…” is not a hole: write a column letter and a row, like G6"),
    ("G²", "I don't understand “g²”: a move looks like G6, G6 link E5 or remove J9-K11; "
           "I11 link K10"),
    ("server reminder ²", "reminder is a number of hours from 1 to 720"),
])
async def test_a_bad_number_is_one_line(service, storage, line, message):
    await start_game(service, swap="no")
    with pytest.raises(kinds.MalformedError) as refusal:
        await enter(service, asking(ALICE, manager=True), line, lambda name: BOB)
    assert str(refusal.value) == message
    assert (await storage.active_game(CHANNEL)).version == 0


async def test_a_game_number_past_every_game_is_missing(service):
    await start_game(service, swap="no")
    with pytest.raises(kinds.MissingError, match=r"^there is no such game$"):
        await enter(service, asking(ALICE), "replay 999999999999999999")


async def test_a_lapsed_takeback_request_is_refused_and_left_as_it_was(service, storage):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    await service.turns.takeback(asking(ALICE))
    await enter(service, asking(BOB), "M12")
    with pytest.raises(kinds.ConflictError, match="lapsed"):
        await service.turns.takeback(asking(BOB), "accept")
    game = await storage.active_game(CHANNEL)
    assert game.version == 2
    assert [o.kind for o in await storage.open_offers(game.id)] == [OfferKind.TAKEBACK]


@pytest.mark.parametrize("line", ["\u202eG6 lnk", "chalenge \u202ebob", "settings theme \u202edark",
                                  "\u202eabc"])
async def test_a_refusal_echoes_no_direction_change(service, line):
    """What a refusal echoes of the typed text drops what names drop (U+202E would turn
    the rest of the reply around)."""
    await start_game(service)
    with pytest.raises(kinds.MalformedError) as refused:
        await enter(service, asking(ALICE), line)
    assert "\u202e" not in str(refused.value)
