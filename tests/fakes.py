"""Stand-ins the service takes from its front ends, shared by every test that needs them."""

from __future__ import annotations

from datetime import UTC, datetime

from twixt.language import Message


class Clock:
    """A clock the tests move by hand: clocks run out without sleeping."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class FakeThreads:
    """Threads as the service sees them: a new channel id per game."""

    def __init__(self) -> None:
        #: the parent and the name of each thread, in English
        self.opened: list[tuple[int, str]] = []
        #: each name as the service gave it, for a front end to say in its server's language
        self.titles: list[Message] = []

    async def open_thread(self, channel_id: int, name: Message) -> int:
        self.opened.append((channel_id, str(name)))
        self.titles.append(name)
        return 1000 + len(self.opened)
