"""A started game, a front end's tick and what its funnel tells of a refusal, for the
service's tests (the people and places they name are in `people.py`)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from tests.service.people import ALICE, BOB, CAROL, DAVE, asking
from twixt.service import ButtonKind, Reply, Request, TwixtService, build_options
from twixt.service import commands as cmd
from twixt.service.service import answer_safely


async def press(service: TwixtService, request: Request, kind: ButtonKind,
                target: int) -> Reply:
    """A button pressed: the command it stands for, executed like any other."""
    return await service.execute(request, cmd.of_button(kind, target))


async def start_game(service: TwixtService, **options: Any) -> None:
    """alice challenges bob with `options` (as a player writes them), bob accepts."""
    await service.challenges.challenge(asking(ALICE), BOB, build_options(**options))
    await service.challenges.accept(asking(BOB))


async def start_team_game(service: TwixtService, **options: Any) -> None:
    """alice and carol against bob and dave; the three invitees accept."""
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options(**options))
    for user in (BOB, CAROL, DAVE):
        await service.challenges.accept(asking(user))


async def tick(service: TwixtService) -> list[Reply]:
    """A front end's tick: what the clocks say, each reply delivered at once."""
    replies = await service.tick()
    for reply in replies:
        if reply.receipt is not None:
            await service.clocks.delivered(reply.receipt)
    return replies


async def funnel_refusal(call: Awaitable[Reply], locale: str) -> str:
    """What the asker reads in `locale` when the service refuses `call`, told through the
    front ends' funnel (`answer_safely`); the test fails unless it was refused."""
    reply = await answer_safely(call, {}, locale=locale)
    assert reply.refused, reply.plain
    return reply.plain


def count_calls(monkeypatch: Any, owner: object, name: str) -> list[tuple[Any, ...]]:
    """The arguments of each call of `owner`'s coroutine method `name` from now on (the
    method still does its work): what a test counts reads of the storage by."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(owner, name)

    async def counted(*args: Any) -> Any:
        calls.append(args)
        return await real(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls

