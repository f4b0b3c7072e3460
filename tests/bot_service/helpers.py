"""People, places and a started game for the service's tests."""

from __future__ import annotations

from typing import Any

from bot.service import ButtonKind, Reply, Request, TwixtService, User, build_options
from bot.service import commands as cmd

ALICE, BOB, CAROL, DAVE = (User(i, n) for i, n in [(11, "alice"), (12, "bob"), (13, "carol"),
                                                   (14, "dave")])
GUILD, CHANNEL = 1, 100


def asking(user: User, channel: int = CHANNEL, manager: bool = False,
           server_manager: bool = False, locale: str = "en") -> Request:
    """A request of `user` in `channel` of the test guild; a manager of the channel, or
    of the whole server; answered in `locale`."""
    return Request(GUILD, channel, user, can_manage=manager or server_manager,
                   can_manage_server=server_manager, locale=locale)


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
