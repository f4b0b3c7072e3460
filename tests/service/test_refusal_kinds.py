"""Refusals by cause: each kind raised where it should be, through the real service on a real
SQLite file and told through the front ends' funnel, which keeps the kind (`Reply.refused`)
for a front end to map without reading the words; and no refusal left of no kind."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CAROL, asking
from tests.typed import enter
from twixt.service import (
    MAX_NOTE,
    REFUSAL_KINDS,
    EnginePool,
    Reply,
    ServiceError,
    TwixtService,
    User,
    refusal,
)
from twixt.service import errors as kinds
from twixt.service.service import answer_safely
from twixt.storage import DatabaseError, DatabaseFault

PACKAGE = Path(__file__).resolve().parents[2] / "twixt"


async def typed(service: TwixtService, user: User, text: str) -> Reply:
    """A line typed by `user`, answered as a front end answers it (`answer_safely`)."""
    return await answer_safely(enter(service, asking(user), text), {"line": text})


async def refused_with(service: TwixtService, user: User, text: str) -> type[ServiceError]:
    reply = await typed(service, user, text)
    assert reply.refused is not None, reply.plain
    return reply.refused


async def test_a_channel_without_a_game_is_missing(service):
    assert await refused_with(service, ALICE, "G6") is kinds.MissingError


async def test_a_move_the_move_language_does_not_know_is_malformed(service):
    await start_game(service, swap="no")
    assert await refused_with(service, ALICE, "G6 lnk") is kinds.MalformedError


async def test_a_move_by_someone_not_playing_is_not_allowed(service):
    await start_game(service, swap="no")
    assert await refused_with(service, CAROL, "G6") is kinds.NotAllowedError


async def test_a_move_out_of_turn_is_not_your_turn(service):
    await start_game(service, swap="no")
    reply = await typed(service, BOB, "G6")
    assert reply.refused is kinds.NotYourTurnError and reply.plain == "it is alice's turn"


async def test_a_takeback_asked_of_the_asker_is_the_opponents_turn(service):
    await start_game(service, swap="no")
    await typed(service, ALICE, "G6")
    await typed(service, ALICE, "takeback")
    assert await refused_with(service, ALICE, "takeback accept") is kinds.NotYourTurnError


async def test_a_taken_hole_conflicts_with_the_position(service):
    await start_game(service, swap="no")
    await typed(service, ALICE, "G6")
    assert await refused_with(service, BOB, "G6") is kinds.ConflictError


async def test_a_note_too_long_is_past_a_limit(service):
    await start_game(service, swap="no")
    assert await refused_with(service, ALICE, "note " + "x" * (MAX_NOTE + 1)) is kinds.LimitError


async def test_an_engine_that_takes_no_call_is_busy(storage, clock):
    closed = EnginePool(workers=1)
    await closed.close()  # a closed pool refuses every call, as a full one does
    service = TwixtService(storage, clock=clock, engine_pool=closed)
    await start_game(service, swap="no")
    await typed(service, ALICE, "resign yes")
    assert await refused_with(service, ALICE, "analyze") is kinds.BusyError


async def test_a_database_removed_under_the_service_is_a_fault(service, tmp_path):
    await start_game(service, swap="no")
    (tmp_path / "twixt.db").unlink()
    reply = await typed(service, ALICE, "G6")
    assert reply.refused is kinds.FaultError and "nothing was changed" in reply.plain


@pytest.mark.parametrize("kind", REFUSAL_KINDS, ids=lambda kind: kind.__name__)
async def test_the_funnel_keeps_the_kind(kind: type[ServiceError]):
    async def refused() -> Reply:
        raise kind("you cannot do {what}", what="that")

    reply = await answer_safely(refused(), {}, locale="de")
    assert reply.refused is kind and reply.ephemeral and reply.plain


@pytest.mark.parametrize("error", [DatabaseError("disk full", DatabaseFault.FULL),
                                   RuntimeError("a bug")], ids=["database", "bug"])
def test_what_is_no_refusal_is_a_fault_of_the_service(error: Exception):
    reply = refusal(error, {})
    assert reply.refused is kinds.FaultError and reply.ephemeral


def test_every_kind_is_listed_for_the_front_ends_to_map():
    assert set(ServiceError.__subclasses__()) == set(REFUSAL_KINDS)
    assert all(kind.__name__.endswith("Error") for kind in REFUSAL_KINDS)


def _raised_bare() -> list[str]:
    """Every place in the package that makes a `ServiceError` itself, not one of its kinds."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (
                    getattr(node.func, "id", None) == "ServiceError"
                    or getattr(node.func, "attr", None) == "ServiceError"):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_no_refusal_is_of_no_kind():
    assert _raised_bare() == []
