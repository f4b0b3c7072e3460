"""Where is it my move: `next` — the asker's most urgent game waiting for their move, in any
server or direct message — and the daily digest: one direct message at the hour a player
chose, in their own time zone, listing the games waiting for them, most urgent first (none
when none waits).

Most urgent is the soonest deadline of a clocked turn, then the longest waiting. Both read
one index lookup of the player's own waiting games (`Storage.waiting_games`), and the clocks'
tick reads only the digests due (`Storage.due_digests`), each moved on to its next day before
it is said, once: the cost follows the players asking, not the number of games or players.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from twixt.language import Markup, Translation, translation
from twixt.rules import quote
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk
from twixt.service.errors import MalformedError
from twixt.service.model import (
    NO_SERVER,
    Button,
    ButtonKind,
    Reply,
    Request,
    channel_link,
    require_private,
)
from twixt.service.pure.clock.texts import moment_text
from twixt.service.pure.clock.timecontrol import describe_span
from twixt.service.texts import names_and
from twixt.storage import StoredDigest, WaitingGame, WaitingStore

#: games a digest lists (it says how many more there are)
MAX_LISTED = 10
#: digests said in one tick at most; the rest follow in the next (at most a minute later)
DIGESTS_A_TICK = 100
#: the longest time zone name accepted (the IANA names are far shorter)
MAX_ZONE = 64


class YourMove:
    """`next`, the digest's setting, and the digests the clocks' tick sends."""

    def __init__(self, desk: Desk, store: WaitingStore) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.NextGame)
    async def next(self, request: Request, skip: int = 0) -> Reply:
        """The asker's most urgent game waiting for their move (other than `skip`), with a
        link to it, and a button for the one after it."""
        require_private(request, "/twixt next")
        tr = request.tr
        found = [waiting for waiting in
                 await self._store.waiting_games(request.user.id, limit=2)
                 if waiting.game.id != skip][:1]
        if not found:
            return Reply(tr("No game is waiting for your move."), ephemeral=True)
        shown = found[0]
        return Reply(tr("Your most urgent game: {game}",
                        game=_line(shown, request.user.id, tr, self._desk.clock())),
                     ephemeral=True, buttons=(Button(ButtonKind.NEXT_GAME, shown.game.id,
                                                     tr("Next game"), (request.user.id,)),))

    @cmd.handles(cmd.Digest)
    async def digest(self, request: Request, hour: int | None = None,
                     zone: str | None = None, off: bool = False) -> Reply:
        """Show the asker's digest, stop it, or set its hour (and time zone)."""
        storage = self._store
        tr = request.tr
        current = await storage.digest(request.user.id)
        if off:
            stopped = await storage.drop_digest(request.user.id)
            return Reply(tr("No more digests.") if stopped else tr("You have no digest."),
                         ephemeral=True)
        if hour is None and zone is None:
            if current is None:
                return Reply(tr("You have no digest: ask for one with an hour and your time "
                                "zone, like `digest 8 Europe/Berlin`."), ephemeral=True)
            return Reply(_set_sentence(current, tr), ephemeral=True)
        if hour is None:
            raise MalformedError("give the hour too, like digest 8 Europe/Berlin")
        if not 0 <= hour <= 23:
            raise MalformedError("the hour is 0 to 23, not {hour}", hour=hour)
        zone = zone or (current.zone if current else "UTC")
        digest = StoredDigest(request.user.id, hour, zone, request.locale,
                        next_time(hour, zone_of(zone), self._desk.clock()))
        await storage.set_digest(digest)
        return Reply(_set_sentence(digest, tr), ephemeral=True)

    async def digests(self, now: datetime) -> list[Reply]:
        """The digests due by `now`: each moved on to its next day (once, whichever process
        claims it), and said to its player when a game waits for them."""
        storage = self._store
        due = await storage.due_digests(now, DIGESTS_A_TICK)
        if not due:
            return []
        moved = set(await storage.advance_digests(
            [(digest, next_time(digest.hour, _known_zone(digest.zone), now)) for digest in due]))
        said = []
        for digest in due:
            if digest.user_id not in moved:
                continue  # another process says this one
            found = await storage.waiting_games(digest.user_id, MAX_LISTED + 1)
            if found:
                said.append(_digest_reply(digest, found, now))
        return said


def _digest_reply(digest: StoredDigest, found: tuple[WaitingGame, ...], now: datetime) -> Reply:
    tr = translation(digest.locale)
    lines = [tr.plural("**Waiting for your move**: {n} game, most urgent first",
                       "**Waiting for your move**: {n} games, most urgent first",
                       len(found[:MAX_LISTED]))]
    lines += [_line(waiting, digest.user_id, tr, now) for waiting in found[:MAX_LISTED]]
    if len(found) > MAX_LISTED:
        lines.append(tr("… and more: `/twixt next` after each move"))
    return Reply("\n".join(lines), dm_user_id=digest.user_id, buttons=(
        Button(ButtonKind.NEXT_GAME, 0, tr("Next game"), (digest.user_id,)),))


def _set_sentence(digest: StoredDigest, tr: Translation) -> str:
    return tr("Each day at {hour}:00 ({zone}) I send you the games waiting for your move, "
              "when there are any. The next: {moment}.", hour=digest.hour, zone=digest.zone,
              moment=moment_text(digest.next_at))


def _known_zone(name: str) -> ZoneInfo:
    """A stored digest's zone; UTC for one the system no longer knows, not a crash."""
    try:
        return zone_of(name)
    except MalformedError:
        return ZoneInfo("UTC")


def zone_of(name: str) -> ZoneInfo:
    """An IANA time zone by name, or MalformedError in one line."""
    try:
        if len(name) > MAX_ZONE:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise MalformedError("{zone} is not a time zone: write one like Europe/Berlin or "
                             "America/New_York", zone=quote(name)) from None


def next_time(hour: int, zone: ZoneInfo, now: datetime) -> datetime:
    """The first moment after `now` when it is `hour`:00 in `zone`, in UTC."""
    day = now.astimezone(zone).date()
    for ahead in range(3):  # today, or tomorrow (the day after, past any shift of clocks)
        at = datetime.combine(day + timedelta(days=ahead), time(hour), tzinfo=zone)
        if at.astimezone(UTC) > now:
            return at.astimezone(UTC)
    raise AssertionError("an hour comes within three days")  # pragma: no cover


def _line(waiting: WaitingGame, user_id: int, tr: Translation, now: datetime) -> str:
    """`#12 vs bob — 2d 3h left · #channel`: the game, the opponents, how urgent, where."""
    stored = waiting.game
    mine = stored.seat_of(user_id)
    team = mine.team if mine else 0
    opponents = names_and([s.name for s in stored.seats if s.team != team], tr)
    urgency = (tr("{time} left", time=describe_span(waiting.due_at - now))
               if waiting.due_at is not None
               else tr("waiting {time}", time=describe_span(now - waiting.since)))
    return tr("#{game} vs {opponents} — {urgency} · {place}", game=stored.id,
              opponents=opponents, urgency=urgency, place=home_link(stored.guild_id,
                                                                   stored.channel_id))


def home_link(guild_id: int, channel_id: int) -> Markup:
    """Where a game is played, as a link its players can follow: the channel in a server,
    the direct message's address otherwise (Discord names no DM channel with `<#id>`)."""
    if guild_id == NO_SERVER:
        return Markup(f"https://discord.com/channels/@me/{channel_id}")
    return channel_link(channel_id)
