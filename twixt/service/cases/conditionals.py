"""Conditional moves at work: a player's private replies to the opponent's next moves, kept
in storage, and played the moment the opponent's move calls for one.

The plan itself (its grammar, checks and matching) is pure TwixT and lives in
`rules.conditionals`; this is the service's side: who may store, where it is kept, and what a
turn that fires a reply says. A player stores only while the opponent is to move; every
trigger and reply is checked on a copy of the game first, and a new line adds to what is
stored (a trigger stored before is replaced). After each move the stored plans of the game
are used up: the player now to move gets the reply that the move calls for, played at once
as their turn, and keeps that branch's continuation; any other move clears them. A reply
that became illegal is dropped and its owner told in a direct message; so is one to a move
that offers a draw (its peg would lapse the offer before its owner saw it). Takebacks and
the end of the game clear every plan of the game.

Plans are stored as JSON in their own table, never in the turn log, so no record or export
shows them; the moves made when one was stored tie it to its position.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from twixt.rules import Command, Game, Turn, TwixtError, parse_command
from twixt.rules.conditionals import Branch, Plan, answer, check_plan, check_plan_size, lines, merge
from twixt.service import commands as cmd
from twixt.service.commands import ConditionalAction
from twixt.service.commands.turns import PRIVATE
from twixt.service.desk.after_turn import Followed, Played
from twixt.service.desk.desk import Desk, player_seat, seat_to_move
from twixt.service.errors import (
    ConflictError,
    LimitError,
    NotAllowedError,
    ServiceError,
    refused_by_rules,
)
from twixt.service.model import Reply, Request, User
from twixt.storage import PrivateStore, Seat, StorageError, StoredGame

log = logging.getLogger(__name__)

#: what a player's auto-link preference makes of a reply (`Turns`' own rule for typed moves)
Prepare = Callable[[Request, Command], Awaitable[Command]]


class Conditionals:
    """Storing, showing and clearing conditional moves, and playing them."""

    def __init__(self, desk: Desk, store: PrivateStore, prepare: Prepare) -> None:
        self._desk = desk
        self._store = store
        self._prepare = prepare
        desk.turn_played.append(self.answer)

    @cmd.handles(cmd.Conditional)
    async def run(self, request: Request, action: ConditionalAction, plan: Plan) -> Reply:
        """Store `plan` (added to what the asker stored), show it, or clear it."""
        if not request.private_replies and action != "clear":
            raise NotAllowedError(PRIVATE)
        desk = self._desk
        async with desk.lock(request.channel_id):
            stored, game = await desk.active(request.channel_id)
            seat = player_seat(stored, request)
            if action == "clear":
                await self._store.drop_conditionals(stored.id, seat.user_id)
                return Reply(request.tr("Your conditional moves in game {game} are cleared.",
                                        game=stored.id), ephemeral=True)
            kept = await self._kept(stored, game, seat)
            if action == "show":
                return self._listing(request, stored, game, kept, stored_now=False)
            plan = merge(kept, await self._checked(request, game, seat, plan))
            await self._keep(stored, game, seat.user_id, plan)
        return self._listing(request, stored, game, plan, stored_now=True)

    async def answer(self, played: Played) -> Followed | None:
        """A turn was played (`Desk.turn_played`; the channel's lock is held): play the
        stored reply it calls for, if any. Every plan of the game is used up by a move; only
        the continuation of a reply played is kept. A move that offers a draw is not
        answered: the offer asks the owner a question no stored reply answers. A takeback
        drops every plan: each was made for a position now taken back."""
        stored, game, turn = played.stored, played.game, played.turn
        storage = self._store
        if played.took_back:
            await storage.drop_conditionals(stored.id)
            return None
        if not turn.command.is_move or game.is_over:  # a game's end drops its plans itself
            return None
        found = await storage.conditionals(stored.id)
        if not found:
            return None
        await storage.drop_conditionals(stored.id)
        owner = seat_to_move(stored, game)
        row = next((c for c in found if c.user_id == owner.user_id
                    and c.at_move == game.moves_made - 1), None)
        branch = None if row is None else answer(_from_json(row.plan), game)
        if branch is None:
            return None
        asking = Request(stored.guild_id, stored.channel_id, User(owner.user_id, owner.name),
                         locale=played.request.locale)
        if game.draw_offered_by is not None:  # the reply's peg would lapse it unseen
            return Followed(played, notices=(_dropped(asking, stored, turn, branch, asking.tr(
                "the move offers you a draw, which is yours to answer")),))
        try:
            reply = await self._desk.commit(asking, branch.reply)
        except ServiceError as error:
            return Followed(played, notices=(_dropped(asking, stored, turn, branch,
                                                      asking.tr.say(error.message)),))
        if branch.then and not reply.game.is_over:
            try:
                await self._keep(reply.stored, reply.game, owner.user_id, branch.then)
            except ServiceError:  # the board moved on meanwhile: the continuation lapses
                log.warning("continuation not kept", extra={"game_id": stored.id})
        # announced to the mover who set it off, in their language
        return Followed(replace(reply, request=played.request), answered=turn)

    # --- internals ---------------------------------------------------------------------

    async def _kept(self, stored: StoredGame, game: Game, seat: Seat) -> Plan:
        """What `seat`'s player has stored for this position (a plan for an earlier one
        lapsed with the move that passed it)."""
        found = next((c for c in await self._store.conditionals(stored.id)
                      if c.user_id == seat.user_id), None)
        if found is None or found.at_move != game.moves_made or game.seat_to_move == seat.number:
            return ()
        return _from_json(found.plan)

    async def _checked(self, request: Request, game: Game, seat: Seat, plan: Plan) -> Plan:
        """The plan as the asker's preferences make it, checked in the game; ServiceError
        names the branch that cannot be played."""
        try:
            return check_plan(game, await self._prepared(request, plan), game.players[seat.number])
        except TwixtError as error:
            raise refused_by_rules(error) from None

    async def _prepared(self, request: Request, plan: Plan) -> Plan:
        return tuple([Branch(branch.trigger, await self._prepare(request, branch.reply),
                             await self._prepared(request, branch.then)) for branch in plan])

    async def _keep(self, stored: StoredGame, game: Game, user_id: int, plan: Plan) -> None:
        """Store a plan for the game as it stands (under the version check)."""
        try:
            check_plan_size(plan)
        except TwixtError as error:
            raise LimitError(error.message) from None
        try:
            await self._store.store_conditionals(
                stored.id, user_id, stored.version, game.moves_made, _to_json(plan),
                now=self._desk.clock())
        except StorageError:
            raise ConflictError("the board changed while you were storing: look at it "
                                "again") from None

    def _listing(self, request: Request, stored: StoredGame, game: Game, plan: Plan, *,
                 stored_now: bool) -> Reply:
        """The asker's plan, for their eyes only."""
        tr = request.tr
        if not plan:
            return Reply(tr("You have no conditional moves in game {game}. Store some while "
                            "your opponent is to move: `if H9 then G6; if J10 then K8`.",
                            game=stored.id), ephemeral=True)
        opponent = seat_to_move(stored, game).name
        head = (tr("Stored. Your conditional moves in game {game}, answering {name}'s next "
                   "move (any other move clears them):", game=stored.id, name=opponent)
                if stored_now else
                tr("Your conditional moves in game {game}, answering {name}'s next move (any "
                   "other move clears them):", game=stored.id, name=opponent))
        block = "\n".join(lines(plan))
        return Reply(f"{head}\n```\n{block}\n```", ephemeral=True)


def _dropped(owner: Request, stored: StoredGame, turn: Turn, branch: Branch,
             reason: str) -> Reply:
    """The private word to a player whose stored reply could not be played: a direct
    message, with no channel to fall back on, since the channel must not read it."""
    tr = owner.tr
    return Reply(tr("Your stored reply `{reply}` to {name}'s `{move}` in game {game} could not "
                    "be played ({reason}), so your conditional moves there are cleared.",
                    reply=str(branch.reply), name=turn.player, move=turn.text,
                    game=stored.id, reason=reason),
                 dm_user_id=owner.user.id)


def _to_json(plan: Plan) -> str:
    """A plan as storage keeps it: `[[trigger, reply, [continuation…]], …]`."""
    def tree(branches: Plan) -> list[Any]:
        return [[str(b.trigger), str(b.reply), tree(b.then)] for b in branches]

    return json.dumps(tree(plan), separators=(",", ":"))


def _from_json(text: str) -> Plan:
    """A stored plan back (written by `_to_json`, from moves checked when stored)."""
    def plan(branches: list[Any]) -> Plan:
        return tuple(Branch(parse_command(trigger), parse_command(reply), plan(then))
                     for trigger, reply, then in branches)

    return plan(json.loads(text))
