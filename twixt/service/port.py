"""The port: what a front end lends the service, given once to `TwixtService(...)`.

The service answers the requests it is asked (`TwixtService.execute` and the calls beside
it), and for that it needs nothing of a front end. Some of its work needs a front end all
the same: a game that opens a thread of its own, a move of the bot's posted in its game's
channel when nobody asked, the language of a server where nobody asked in one, the sign
that the bot is thinking, how far a long analysis has come, and the shards whose servers
this process looks after. A front end hands these over in one `Port` when it builds the
service, and never sets anything on the service afterwards; every part has a default for a
service with no front end (`twixt export`, the tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Protocol

from twixt.language import Message
from twixt.service.model import Reply, Request
from twixt.storage.shards import Shards

log = logging.getLogger(__name__)


class ThreadOpener(Protocol):
    """What a front end offers so that a game can get a thread of its own."""

    async def open_thread(self, channel_id: int, name: Message) -> int:
        """Open a thread under `channel_id` named `name`; return its channel id. The front
        end says the name in the server's language (everyone there reads it, not only who
        started the game) and cuts it to its own limit."""
        ...


#: What a front end offers to show a channel that the bot is at work (its search for a move,
#: an analysis) for as long as the context lasts: Discord's typing indicator, a line at the
#: terminal table. It must neither raise nor hold up what it wraps: a sign that cannot be
#: shown is the front end's to log.
Thinking = Callable[[int], AbstractAsyncContextManager[object]]
#: What a front end offers to post a message nobody asked for (the bot's move, said in its
#: game's channel); whether it arrived is the front end's to log.
Post = Callable[[Reply], Awaitable[object]]
#: What a front end offers to tell whoever asked (`Request`) how far their long piece of work
#: has come: an analysis at move `done` of `total`, told now and then while it runs (Discord
#: edits its deferred answer). Like `Thinking`, it must neither raise nor hold the work up.
TellProgress = Callable[[Request, int, int], Awaitable[object]]


def no_sign(channel_id: int) -> AbstractAsyncContextManager[object]:
    """No front end to show anything."""
    return nullcontext()


async def nowhere(reply: Reply) -> None:
    """No front end to post in: the message is only logged."""
    log.info("reply not posted: no front end", extra={"channel_id": reply.channel_id})


async def untold(request: Request, done: int, total: int) -> None:
    """No front end to tell the asker how far their work has come."""


def english(guild_id: int) -> str:
    """No front end to tell a server's language: English."""
    return "en"


@dataclass(frozen=True)
class Port:
    """The front end's side of the service, given at construction."""

    #: opens a game's thread; None where there are no threads (a game asked for one is
    #: refused in one line)
    threads: ThreadOpener | None = None
    #: posts what the bot says by itself (its moves, its answers to offers)
    post: Post = nowhere
    #: a server's language (`language.LOCALES`) by its id: what the bot and the clocks say
    #: by themselves there, and the names given where nobody asked (a tournament's seats)
    language: Callable[[int], str] = english
    #: the sign that the bot is at work in a channel
    thinking: Thinking = no_sign
    #: tells the asker how far their analysis has come
    progress: TellProgress = untold
    #: the shards whose servers this process's clocks and bot look after (None: every one)
    shards: Shards | None = None
    #: whether replies carry the board as a picture (and a turn's, the move picker and the
    #: buttons under it): a front end that draws the board itself (the web page) spares the
    #: service drawing a PNG, and finding the open columns, for every turn
    pictures: bool = True
    #: whether a turn is announced: a front end that shows every turn by itself and posts
    #: nowhere (the web board alone, whose pages follow their games live) spares the service
    #: saying each turn (its reply is then empty, and says nothing the pages do not show)
    announces: bool = True


@asynccontextmanager
async def alongside(side: Coroutine[object, None, object]) -> AsyncIterator[None]:
    """Run `side` in a task of its own for as long as the body runs, as a front end shows a
    `Thinking` sign: the body never waits for it, and however the body ends (an answer, an
    error, a cancel) the task is cancelled and waited for, so none is left behind. A side
    that fails is logged: a sign is never worth a failed search."""
    task = asyncio.create_task(side)
    try:
        yield
    finally:
        task.cancel()
        for outcome in await asyncio.gather(task, return_exceptions=True):
            if isinstance(outcome, Exception):
                log.warning("a sign of thinking failed", extra={"error": repr(outcome)})
