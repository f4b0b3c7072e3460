"""A line typed at a front end, as the front ends hand it on: read once at the edge with the
router (`commands.router.read_command`, refused where the reply is public if it holds conditional
moves), then executed by the service. The tests type their commands through this."""

from __future__ import annotations

from twixt.service import Reply, Request, TwixtService
from twixt.service.commands import router


async def enter(service: TwixtService, request: Request, text: str,
                people: router.People = router.nobody) -> Reply:
    """`text` read for `request` and done; ServiceError says why not, as the router or the
    service says it."""
    asked = router.read_command(text, people, public=not request.private_replies)
    return await service.execute(request, asked)
