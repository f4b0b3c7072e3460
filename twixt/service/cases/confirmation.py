"""`settings confirm on`: a move is first shown to its player alone — checked by the rules and
drawn on a copy of the game — and played only when they confirm it.

What is shown is kept in storage (`storage.PendingMove`), with the game's version it was
checked at, so a confirmation plays exactly that move, on exactly that position, after a
restart too; once a turn has been played since, it is refused. A newer move replaces an older
one waiting, and the older preview's Confirm button no longer plays anything. Pegs and swaps
are shown first; draw words and privilege are played at once (they place nothing), and a
resignation has its own confirmation.

A reply to a chat message is public, so a move typed in chat is not shown there: the player
is told to use the slash command (or to turn confirm off), and nothing is played.
"""

from __future__ import annotations

from twixt.language import message
from twixt.rules import Action, Command, IllegalMoveError, parse_command
from twixt.service import commands as cmd
from twixt.service.cases.turns import LazyPreferences, Turns
from twixt.service.desk.desk import Desk, player_seat
from twixt.service.errors import ConflictError, MissingError, NotAllowedError, refused_by_rules
from twixt.service.model import Button, ButtonKind, Reply, Request
from twixt.storage import PrivateStore


class Confirmation:
    """Moves shown before they are played, for the players who want that: a step of every
    move's preparation (`Turns.preparations`), after the automatic links."""

    def __init__(self, desk: Desk, store: PrivateStore, turns: Turns) -> None:
        self._desk = desk
        self._store = store
        self._turns = turns
        turns.preparations.append(self._shown_first)

    async def _shown_first(self, request: Request, command: Command,
                           prefs: LazyPreferences) -> Command | Reply:
        """The move as it is to be played, or, for a player with confirm on, its preview."""
        # a peg or a swap may be shown first (a timeout is refused by `Turns.play` as it is)
        if not command.is_move or Action.TIMEOUT in command.actions:
            return command
        if not (await prefs()).confirm_moves:
            return command
        if not request.private_replies:
            raise NotAllowedError("you have confirm on, and a reply here is public: play "
                                  "with `/twixt move` to see your move first (or "
                                  "`settings confirm off`)")
        return await self._show(request, command)

    @cmd.handles(cmd.ConfirmMove)
    async def confirm(self, request: Request, pending_id: int | None = None) -> Reply:
        """Play the asker's move waiting in the channel's game: the one `pending_id` names
        (a Confirm button's), or whichever is waiting (the typed `confirm`)."""
        storage = self._store
        stored = await self._desk.active_stored(request.channel_id)
        pending = await storage.pending_move(stored.id, request.user.id)
        if pending is not None and pending_id not in (None, pending.id):
            raise ConflictError("this move was replaced by a newer one: confirm that one")
        # taken before it is played: of two presses at once, one plays it
        if pending is None or await storage.take_pending_move(pending.id) is None:
            raise MissingError("you have no move waiting for confirmation here")
        return await self._turns.play(request, parse_command(pending.command),
                                     at_version=pending.at_version)

    async def _show(self, request: Request, command: Command) -> Reply:
        """Check the move on a copy of the game, keep it, and draw it for the asker alone."""
        desk = self._desk
        stored, committed = await desk.active(request.channel_id)
        seat = player_seat(stored, request)
        game = committed.copy()  # nothing is played: the copy is only drawn
        try:
            turn = game.push(command, by=game.players[seat.number])
        except IllegalMoveError as error:
            raise refused_by_rules(error) from None
        pending = await self._store.hold_move(stored.id, request.user.id, turn.text,
                                               stored.version, now=desk.clock())
        tr = request.tr
        # the caption says so where a clock's time left goes, so no one takes it for the game
        image = await desk.render(game, request.user.id, clock_text=message("not played yet"),
                                  locale=request.locale)
        return Reply(tr("Your move in game {game}: `{move}`, not played yet. Press Confirm to "
                        "play it, or type `confirm`; a new move replaces it.",
                        game=stored.id, move=turn.text),
                     image=image, ephemeral=True,
                     buttons=(Button(ButtonKind.CONFIRM_MOVE, pending.id, tr("Confirm"),
                                     (request.user.id,)),))
