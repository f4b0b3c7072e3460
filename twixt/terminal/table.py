"""The terminal table: `name: command` lines in, the service's replies and board files out.

The same service and database as the Discord bot, so a game started here can be continued
later (same `--db`, same `--channel`). Users and channels are known by name here; their ids
are derived from the names, so they stay the same from one run to the next. What a line means
is the service's router's business; the table only turns names into people, reads the files
that `import` names, and prints what comes back — in one language for everyone at the table
(`twixt play --locale de`), though the lines typed stay the move language's English words.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sys
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from twixt.language import Message, translation, unmarked
from twixt.rules import RecordError, records
from twixt.service import (
    CHANNEL_LINK,
    FaultError,
    LimitError,
    MalformedError,
    OpenService,
    Port,
    Reply,
    Request,
    ServiceError,
    User,
    alongside,
    refusal,
)
from twixt.service import commands as cmd
from twixt.service.commands import router
from twixt.terminal.lines import MAX_LINE, LineTooLongError

GUILD_ID = 1
#: a comment, as in a transcript: `#` at the start or after a space, then a space or the end
#: (so `replay #7` keeps its number)
_COMMENT = re.compile(r"(?:^|\s)#(?:\s.*)?$")
#: a search of the bot's (or an analysis) that has not answered after this many seconds is
#: said at the table; a quicker one is not, so a short game reads as a plain list of moves
THINKING_AFTER = 1.0
#: the wait before "thinking…" is said (the tests end it when they choose)
Patience = Callable[[], Awaitable[object]]


def name_id(name: str) -> int:
    """A stable positive 63-bit id for a user or channel name (case-insensitive)."""
    digest = hashlib.sha256(name.strip().casefold().encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def user(name: str) -> User:
    return User(name_id(name), name.strip())


class TerminalThreads:
    """Threads at the table: a channel named after its parent and its title
    (`den/autumn-cup-p1-vs-p2`), played by writing `name@channel: command` (or with
    `--channel`); its id comes from its name, as every channel's here, so it is the same
    channel in a later sitting. The title is said in the table's language (`locale`)."""

    def __init__(self, locale: str = "en") -> None:
        #: the channels the table knows by name, by id
        self.names: dict[int, str] = {}
        self._tr = translation(locale)

    def known(self, name: str) -> int:
        channel_id = name_id(name)
        self.names[channel_id] = name
        return channel_id

    async def open_thread(self, channel_id: int, name: Message) -> int:
        parent = self.names.get(channel_id, str(channel_id))
        said = self._tr.say(name)
        slug = "-".join("".join(ch if ch.isalnum() else " " for ch in said.casefold()).split())
        return self.known(f"{parent}/{slug}")


class ThinkingLine:
    """The table's sign that the bot is at work (the service's `Thinking`): a line
    "thinking…", printed once a search has taken `THINKING_AFTER` seconds without an
    answer, and not at all for a quicker one. `patience` is that wait (the tests end it
    when they choose), `out` and `locale` those of the table."""

    def __init__(self, out: TextIO = sys.stdout, locale: str = "en",
                 patience: Patience | None = None) -> None:
        self._out = out
        self.tr = translation(locale)
        self._patience = patience or (lambda: asyncio.sleep(THINKING_AFTER))

    def __call__(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        return alongside(self._say_later())

    async def _say_later(self) -> None:
        await self._patience()
        print(self.tr("thinking…"), file=self._out, flush=True)


class TerminalTable:
    """Plays lines against the service and writes what a channel would show.

    The table has its service opened (`open_service`, from the composition root, over the
    storage the root opened) with its port: the threads it knows by name, the bot's moves
    printed as they come, everything said in the table's language, and the "thinking…" line
    (after `patience`)."""

    def __init__(self, open_service: OpenService, channel: str, out_dir: Path,
                 out: TextIO = sys.stdout, managers: Iterable[str] = (),
                 locale: str = "en", *, patience: Patience | None = None) -> None:
        #: the threads the service opens here (tournament games), known by name
        self.threads = TerminalThreads(locale)
        self.threads.known(channel)
        #: the language of everything the table says (`language.LOCALES`)
        self.tr = translation(locale)
        self.channel = channel
        self.out_dir = out_dir
        self.out = out
        self._managers = {name_id(name) for name in managers}
        self._names: dict[int, str] = {}
        #: what each refused line was refused with, in order (`exit_code` reads them)
        self.refusals: list[type[ServiceError]] = []
        thinking = ThinkingLine(out, locale, patience)
        self.service = open_service(Port(threads=self.threads, post=self._show,
                                         language=lambda guild_id: locale,
                                         thinking=thinking))

    async def close(self) -> None:
        """Stop the service's bot and its engine's workers (the storage stays open)."""
        await self.service.close()

    async def run(self, lines: Iterable[str]) -> int:
        """Let the clocks act (as the bot does after a restart), then play every line; return
        how many lines were refused."""
        for reply in await self.service.tick():
            await self._show(reply)
            if reply.receipt is not None:
                await self.service.delivered(reply.receipt)
        await self.service.idle()  # a turn the bot owed before the restart
        refused = 0
        try:
            for number, raw in enumerate(lines, start=1):
                line = _COMMENT.sub("", raw.removeprefix("\ufeff") if number == 1
                                    else raw).strip()
                if not line:
                    continue
                refused += not await self.play_line(line, number)
        except LineTooLongError as error:
            self._say("! " + self.tr("line {number} is longer than {most} characters: the "
                                     "rest of the input is not read", number=error.number,
                                     most=MAX_LINE))
            self.refusals.append(LimitError)
            refused += 1
        return refused

    async def play_line(self, line: str, number: int = 0) -> bool:
        """One `name: command` line (`name@channel: command` in another channel, such as a
        tournament game's thread); False when it was refused. The line is read here (the
        file an `import` names, too), and the service called once."""
        name, sep, text = line.partition(":")
        name, _at, where = name.partition("@")
        if not sep or not name.strip() or not text.strip():
            self.refusals.append(MalformedError)
            self._say("! " + self.tr("line {number}: write name: command, like alice: G6",
                                     number=number))
            return False
        who = user(name)
        self._names[who.id] = who.name
        manager = who.id in self._managers  # the terminal's managers manage everything
        channel_id = self.threads.known(where.strip() or self.channel)
        request = Request(GUILD_ID, channel_id, who, can_manage=manager,
                          can_manage_server=manager, locale=self.tr.locale)
        context = {"command": "terminal", "line": number, "user": who.name}
        try:
            asked = self._read(text.strip())
        except ServiceError as error:
            reply = refusal(error, context, request.locale)
        else:
            reply = await self.service.answer(request, asked, context)
        if reply.refused:
            self.refusals.append(reply.refused)
            self._say(f"! {who.name}: {reply.plain}")
            return False
        for message in reply.all_messages():
            await self._show(message)
        # the bot answers before the next line is read, as a player at the table would wait
        await self.service.idle()
        return True

    def _read(self, text: str) -> cmd.ServiceCommand:
        asked = router.read_command(text, self._person)
        if isinstance(asked, cmd.ImportRecord):
            asked = replace(asked, data=_read_file(Path(asked.filename)),
                            filename=Path(asked.filename).name)
        return asked

    def _person(self, name: str) -> User:
        person = user(name.lstrip("@"))
        self._names.setdefault(person.id, person.name)
        return person

    async def _show(self, reply: Reply) -> None:
        unknown = [uid for uid in (*reply.mentions, reply.dm_user_id)
                   if uid is not None and uid not in self._names]
        self._names.update(await self.service.user_names(unknown))
        mentions = " ".join(f"@{self._names.get(uid, uid)}" for uid in reply.mentions)
        prefix = self.tr("(only you see this)") + " " if reply.ephemeral else ""
        if reply.dm_user_id is not None:
            prefix = self.tr("(direct message to {name})",
                             name=self._names.get(reply.dm_user_id, reply.dm_user_id)) + " "
        if reply.channel_id not in (None, name_id(self.channel)):  # a thread, say
            prefix = self._places(f"[<#{reply.channel_id}>] ") + prefix
        self._say(f"{prefix}{mentions + ' ' if mentions else ''}{self._places(reply.plain)}")
        if reply.buttons:
            self._say("  [" + "] [".join(b.label for b in reply.buttons) + "]")
        if reply.image:
            self._save(None, reply.image)
        for attachment in reply.attachments:
            self._save(attachment.filename, attachment.data)

    def _places(self, text: str) -> str:
        """The channels a reply names (`<#id>`) as the table knows them: its own by name; the
        others, whose names it cannot tell from their ids, as another channel."""
        known = self.threads.names
        return CHANNEL_LINK.sub(lambda link: f"#{known[int(link[1])]}" if int(link[1]) in known
                                else self.tr("another channel"), text)

    def _save(self, filename: str | None, data: bytes) -> None:
        """Write a picture (no filename: a board, which gets the next number) or a file into
        the out folder."""
        try:  # the turn is stored already: a file that cannot be saved is only said
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / filename if filename else self._next_path()
            path.write_bytes(data)
        except OSError as error:
            reason = error.strerror or str(error)
            self._say("  " + (self.tr("(file not saved: {reason})", reason=reason) if filename
                              else self.tr("(board not saved: {reason})", reason=reason)))
        else:
            self._say("  " + (self.tr("file: {path}", path=path) if filename
                              else self.tr("board: {path}", path=path)))

    def _next_path(self) -> Path:
        stem = "".join(ch if ch.isalnum() else "-" for ch in self.channel)
        existing = len(list(self.out_dir.glob(f"{stem}-*.png")))
        return self.out_dir / f"{stem}-{existing + 1:04d}.png"

    def _say(self, text: str) -> None:
        """Print a line: the table reads no markup, so what users typed shows as typed."""
        print(unmarked(text), file=self.out, flush=True)


def _read_file(path: Path) -> bytes:
    """A file to import, read as `twixt replay` reads one: no more than a record may hold
    (`records.read_file`), a name the system cannot open refused in one line, and what is
    not a regular file (a named pipe would hold the table until someone writes to it)
    refused at once."""
    try:
        return records.read_file(path, regular_only=True)
    except RecordError as error:
        raise MalformedError(error.reason) from None


def exit_code(refusals: Iterable[type[ServiceError]]) -> int:
    """A script's exit code by what its lines were refused with: 2 when the table failed a
    line through no fault of the line (`FaultError`: its database out of use, a bug), as when
    the database cannot be opened; 1 when a line was refused; 0 when every line was taken."""
    kinds = set(refusals)
    return 2 if FaultError in kinds else 1 if kinds else 0
