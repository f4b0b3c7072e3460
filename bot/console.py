"""The terminal table: `name: command` lines in, the service's replies and board files out.

The same service and database as the Discord bot, so a game started here can be continued
later (same `--db`, same `--channel`). Users and channels are known by name here; their ids
are derived from the names, so they stay the same from one run to the next.
"""

from __future__ import annotations

import hashlib
import logging
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from bot.service import (
    Context,
    Reply,
    ServiceError,
    TwixtService,
    User,
    build_options,
    parse_option_words,
)
from bot.service.options import OPTION_NAMES

log = logging.getLogger(__name__)

GUILD_ID = 1
_OPTION_NAMES = set(OPTION_NAMES)
_SIMPLE = {"board", "status", "help", "abort", "swap", "privilege"}
_RECORDS = {"export", "history", "replay", "import", "stats", "leaderboard", "rematch",
            "settings", "server"}


def _number(word: str) -> int:
    if not word.lstrip("#").isdigit():
        raise ServiceError(f"“{word}” is not a number")
    return int(word.lstrip("#"))


def _page(words: list[str]) -> int:
    """`page N` at the end of a command's words (taken off them), or page 1."""
    if len(words) >= 2 and words[-2].lower() == "page":
        page = _number(words[-1])
        del words[-2:]
        return page
    return 1


def name_id(name: str) -> int:
    """A stable positive 63-bit id for a user or channel name (case-insensitive)."""
    digest = hashlib.sha256(name.strip().casefold().encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def user(name: str) -> User:
    return User(name_id(name), name.strip())


class ConsoleTable:
    """Plays lines against the service and writes what a channel would show."""

    def __init__(self, service: TwixtService, channel: str, out_dir: Path,
                 out: TextIO = sys.stdout, managers: Iterable[str] = ()) -> None:
        self.service = service
        self.channel = channel
        self.out_dir = out_dir
        self.out = out
        self._managers = {name_id(name) for name in managers}
        self._names: dict[int, str] = {}

    async def run(self, lines: Iterable[str]) -> int:
        """Let the clocks act (as the bot does after a restart), then play every line; return
        how many lines were refused."""
        for reply in await self.service.tick():
            await self._show(reply)
        refused = 0
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
            if not line:
                continue
            refused += not await self.play_line(line, number)
        return refused

    async def play_line(self, line: str, number: int = 0) -> bool:
        """One `name: command` line; False when it was refused."""
        name, sep, command = line.partition(":")
        if not sep or not name.strip() or not command.strip():
            self._say(f"! line {number}: write name: command, like alice: G6")
            return False
        who = user(name)
        self._names[who.id] = who.name
        ctx = Context(GUILD_ID, name_id(self.channel), who, can_manage=who.id in self._managers)
        try:
            reply = await self._dispatch(ctx, command.strip())
        except ServiceError as error:
            self._say(f"! {who.name}: {error}")
            return False
        except Exception:  # a bug of ours: logged in full, one line for the player
            log.exception("terminal command failed", extra={"line": number, "user": who.name})
            self._say(f"! {who.name}: sorry, something went wrong with that command")
            return False
        for message in reply.all_messages():
            await self._show(message)
        return True

    async def _dispatch(self, ctx: Context, command: str) -> Reply:
        words = command.split()
        verb, rest = words[0].lower(), words[1:]
        service = self.service
        if verb == "challenge":
            opponent = None
            if rest and rest[0].lower() not in _OPTION_NAMES:
                opponent = self._person(rest.pop(0))
            return await service.challenge(ctx, opponent, parse_option_words(rest))
        if verb == "team":
            return await self._team(ctx, rest)
        if verb in ("accept", "decline") and (not rest or rest[0].isdigit()):
            challenge_id = int(rest[0]) if rest else None
            if verb == "accept":
                return await service.accept(ctx, challenge_id)
            return await service.decline(ctx, challenge_id)
        if verb == "resign" and not rest:
            return await service.resign(ctx, confirmed=True)
        if verb == "draw" and len(rest) == 1:
            return await service.draw(ctx, rest[0].lower())
        if verb in _SIMPLE and not rest:
            return await self._simple(ctx, verb)
        if verb in _RECORDS:
            return await self._records(ctx, verb, rest)
        if verb == "move":
            command = " ".join(rest)
        return await service.move(ctx, command)

    async def _records(self, ctx: Context, verb: str, rest: list[str]) -> Reply:
        """export, history, replay, import, stats, leaderboard, rematch, settings."""
        service = self.service
        if verb == "export":
            return await service.export(ctx, rest[0].lower() if rest else None)
        if verb == "history":
            page = _page(rest)
            return await service.history(ctx, self._person(rest[0]) if rest else None, page)
        if verb == "replay":
            return await service.replay(ctx, _number(rest[0]) if rest else None)
        if verb == "import":
            if not rest:
                raise ServiceError("import FILE [opponent] [options]")
            path = Path(rest.pop(0))
            try:
                data = path.read_bytes()
            except OSError as error:
                raise ServiceError(f"cannot read {path}: {error.strerror}") from None
            opponent = self._person(rest.pop(0)) if rest and rest[0] not in _OPTION_NAMES \
                else None
            return await service.import_record(ctx, path.name, data, opponent,
                                               parse_option_words(rest))
        if verb == "stats":
            return await service.stats(ctx, self._person(rest[0]) if rest else ctx.user)
        if verb == "leaderboard":
            return await service.leaderboard(ctx, _page(rest))
        if verb == "rematch":
            game = _number(rest[0]) if rest else (await service.channel_record(ctx)).id
            return await service.rematch(ctx, game)
        if len(rest) % 2:
            raise ServiceError(f"{verb} takes name value pairs, like settings theme dark")
        pairs = dict(zip(rest[::2], rest[1::2], strict=True))
        if verb == "server":
            return await service.server_settings(ctx, pairs)
        return await service.settings(ctx, pairs)

    async def _simple(self, ctx: Context, verb: str) -> Reply:
        service = self.service
        if verb == "board":
            return await service.board(ctx)
        if verb == "status":
            return await service.status(ctx)
        if verb == "help":
            return await service.help()
        if verb == "abort":
            return await service.abort(ctx)
        return await service.move(ctx, verb)

    async def _team(self, ctx: Context, words: list[str]) -> Reply:
        if len(words) < 4 or words[1].lower() != "vs":
            raise ServiceError("write team PARTNER vs OPPONENT1 OPPONENT2 [options]")
        partner, first, second = (self._person(w) for w in (words[0], words[2], words[3]))
        options = parse_option_words(words[4:]) if words[4:] else build_options()
        return await self.service.team(ctx, partner, (first, second), options)

    def _person(self, name: str) -> User:
        person = user(name.lstrip("@"))
        self._names.setdefault(person.id, person.name)
        return person

    async def _show(self, reply: Reply) -> None:
        unknown = [uid for uid in reply.mentions if uid not in self._names]
        self._names.update(await self.service.storage.user_names(unknown))
        mentions = " ".join(f"@{self._names.get(uid, uid)}" for uid in reply.mentions)
        prefix = "(only you see this) " if reply.ephemeral else ""
        if reply.dm_user_id is not None:
            names = await self.service.storage.user_names([reply.dm_user_id])
            prefix = f"(direct message to {names.get(reply.dm_user_id, reply.dm_user_id)}) "
        self._say(f"{prefix}{mentions + ' ' if mentions else ''}{reply.text}")
        if reply.buttons:
            self._say("  [" + "] [".join(b.label for b in reply.buttons) + "]")
        if reply.image or reply.attachments:
            self.out_dir.mkdir(parents=True, exist_ok=True)
        if reply.image:
            path = self._next_path()
            path.write_bytes(reply.image)
            self._say(f"  board: {path}")
        for attachment in reply.attachments:
            path = self.out_dir / attachment.filename
            path.write_bytes(attachment.data)
            self._say(f"  file: {path}")

    def _next_path(self) -> Path:
        stem = "".join(ch if ch.isalnum() else "-" for ch in self.channel)
        existing = len(list(self.out_dir.glob(f"{stem}-*.png")))
        return self.out_dir / f"{stem}-{existing + 1:04d}.png"

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)
