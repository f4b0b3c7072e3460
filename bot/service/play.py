"""Playing: moves in the move language, swap, privilege, draws, resignation, takebacks, the
board and status, abort, and the buttons under the messages."""

from __future__ import annotations

from dataclasses import replace

from bot.service.clocks import ClockCommands
from bot.service.core import rematch_button
from bot.service.model import Button, ButtonKind, Context, Reply, ServiceError
from bot.service.options import describe_setup
from bot.service.texts import HELP, result_sentence, status_text, to_move_sentence
from rules import Game, InvalidMoveError, Turn, parse_command
from storage import (
    TAKEBACK,
    GameFinishedError,
    GameResult,
    OfferKind,
    Result,
    StaleVersionError,
    StoredGame,
)

#: what a game's buttons say in the move language (and the service's own words)
_BUTTON_COMMANDS = {
    ButtonKind.SWAP: "swap", ButtonKind.PRIVILEGE: "privilege",
    ButtonKind.CONFIRM_RESIGN: "resign", ButtonKind.ACCEPT_DRAW: "accept draw",
    ButtonKind.DECLINE_DRAW: "decline draw", ButtonKind.CLAIM: "claim",
    ButtonKind.ACCEPT_TAKEBACK: "accept takeback",
    ButtonKind.DECLINE_TAKEBACK: "decline takeback",
}
#: commands the service answers itself rather than the rules
_SERVICE_WORDS = {"takeback": "request", "accept takeback": "accept",
                  "decline takeback": "decline"}


class PlayCommands(ClockCommands):
    """Everything a seated player does in a game, and what onlookers may ask."""

    async def move(self, ctx: Context, text: str) -> Reply:
        """Play a command of the move language for the asking player."""
        words = " ".join(text.lower().split())
        if words in _SERVICE_WORDS:
            return await self.takeback(ctx, _SERVICE_WORDS[words])
        if words == "claim":
            return await self.claim(ctx)
        text = await self._with_auto_link(ctx, text)
        async with self._locks(ctx.channel_id):
            record, game, turn = await self._commit(ctx, text)
            reply = await self._turn_reply(record, game, turn)
        return reply

    async def is_chat_move(self, ctx: Context, text: str) -> bool:
        """Whether chat text is a command of the move language from a player seated in the
        channel's game: a front end that reads every message answers only those."""
        try:
            parse_command(text)
        except InvalidMoveError:
            return False
        record = await self.storage.active_game(ctx.channel_id)
        return record is not None and record.seat_of(ctx.user.id) is not None

    async def resign(self, ctx: Context, confirmed: bool = False) -> Reply:
        """Resign, after a confirmation unless `confirmed`."""
        if not confirmed:
            record = await self._active_record(ctx.channel_id)
            if record.seat_of(ctx.user.id) is None:
                raise ServiceError("you are not playing in this game")
            return Reply("Really resign this game?", ephemeral=True, buttons=(
                Button(ButtonKind.CONFIRM_RESIGN, record.id, "Resign", (ctx.user.id,)),))
        return await self.move(ctx, "resign")

    async def draw(self, ctx: Context, action: str) -> Reply:
        """`offer`, `accept` or `decline` a draw."""
        if action not in ("offer", "accept", "decline"):
            raise ServiceError(f"draw takes offer, accept or decline, not “{action}”")
        return await self.move(ctx, f"{action} draw")

    async def takeback(self, ctx: Context, action: str = "request") -> Reply:
        """The player who just moved asks to take the turn back; an opponent accepts it."""
        if action not in ("request", "accept", "decline"):
            raise ServiceError(f"takeback is request, accept or decline, not “{action}”")
        async with self._locks(ctx.channel_id):
            record, game = await self._active(ctx.channel_id)
            seat = record.seat_of(ctx.user.id)
            if seat is None:
                raise ServiceError("you are not playing in this game")
            if action == "request":
                return await self._ask_takeback(ctx, record, game)
            offer = next((o for o in await self.storage.open_offers(record.id)
                          if o.kind is OfferKind.TAKEBACK), None)
            if offer is None:
                raise ServiceError("there is no takeback request")
            asker = record.seat_of(offer.user_id)
            if asker is not None and asker.team == seat.team:
                raise ServiceError("an opponent has to answer the takeback request")
            await self.storage.close_offer(record.id, OfferKind.TAKEBACK)
            if offer.at_version != record.version:
                raise ServiceError("the takeback request lapsed: a turn was played since")
            if action == "decline":
                return Reply(f"{ctx.user.name} declines the takeback.")
            try:
                version = await self.storage.append_turn(record.id, record.version,
                                                         ctx.user.id, TAKEBACK,
                                                         now=self._clock())
            except (StaleVersionError, GameFinishedError) as error:
                self._games.drop(record.id)
                raise ServiceError(str(error)) from None
            taken = game.undo()
            self._games.put(record.id, version, game)
            record = replace(record, version=version)
            clock = await self._clock_text(record, game)
            image = await self._render(game, offer.user_id, clock)
            return Reply(f"{taken.player}'s `{taken.text}` is taken back.\n"
                         f"{to_move_sentence(game, clock)}", image=image,
                         mentions=(offer.user_id,))

    async def board(self, ctx: Context) -> Reply:
        """The board of the channel's game, posted again, as the asker likes to see it."""
        async with self._locks(ctx.channel_id):
            record, game = await self._active(ctx.channel_id)
            clock = await self._clock_text(record, game)
            image = await self._render(game, ctx.user.id, clock)
        return Reply(status_text(record, game, describe_setup(record.setup), clock), image=image)

    async def status(self, ctx: Context) -> Reply:
        record, game = await self._active(ctx.channel_id)
        clock = await self._clock_text(record, game)
        return Reply(status_text(record, game, describe_setup(record.setup), clock))

    async def help(self) -> Reply:
        return Reply(HELP, ephemeral=True)

    async def abort(self, ctx: Context) -> Reply:
        """A channel manager calls the game off at once; players must all ask for it."""
        async with self._locks(ctx.channel_id):
            record = await self._active_record(ctx.channel_id)
            if not (ctx.can_manage or record.seat_of(ctx.user.id) is not None):
                raise ServiceError("only the players or a channel manager can abort a game")
            if not ctx.can_manage:
                voters = await self.storage.vote_abort(record.id, ctx.user.id)
                missing = [s for s in record.seats if s.user_id not in voters]
                if missing:
                    names = ", ".join(s.name for s in missing)
                    return Reply(f"{ctx.user.name} asks to abort this game. It is called off "
                                 f"when {names} also {'asks' if len(missing) == 1 else 'ask'}.",
                                 mentions=tuple(s.user_id for s in missing))
            try:
                await self.storage.finish_game(record.id, record.version,
                                               GameResult(Result.ABORTED, "aborted"),
                                               now=self._clock())
            except (StaleVersionError, GameFinishedError) as error:
                raise ServiceError(str(error)) from None
            self._games.drop(record.id)
        return Reply(f"Game {record.id} is aborted by {ctx.user.name}; it counts for nobody.")

    async def channel_record(self, ctx: Context) -> StoredGame:
        """The channel's current game, or its last finished one."""
        return await self._channel_record(ctx.channel_id)

    async def channel_game(self, channel_id: int) -> Game:
        """The channel's current game, or its last finished one, as the rules see it."""
        # a copy: the cached game must change only through the service
        return (await self._position(await self._channel_record(channel_id))).copy()

    async def game_button(self, ctx: Context, kind: ButtonKind, target: int) -> Reply:
        """A button under a game's message: the command it stands for, if the game is on."""
        record = await self.storage.active_game(ctx.channel_id)
        if record is None or record.id != target:
            raise ServiceError("this button belongs to a game that is over")
        return await self.move(ctx, _BUTTON_COMMANDS[kind])

    # --- internals ---------------------------------------------------------------------

    async def _with_auto_link(self, ctx: Context, text: str) -> str:
        """With the auto-link preference, a bare peg links all it can (what pp does anyway,
        so the rule set need not be looked up)."""
        try:
            command = parse_command(text)
        except InvalidMoveError:
            return text  # the rules will say what is wrong
        placement = command.placement
        if placement is None or placement.links or placement.link_all:
            return text
        if not (await self.storage.user_prefs(ctx.user.id)).auto_link:
            return text
        return str(replace(command, placement=replace(placement, link_all=True)))

    async def _ask_takeback(self, ctx: Context, record: StoredGame, game: Game) -> Reply:
        last = game.last_turn
        seat = record.seat_of(ctx.user.id)
        if game.is_over:
            raise ServiceError("the game is over")
        if last is None or seat is None or last.seat != seat.number:
            raise ServiceError("only the player who made the last turn can ask to take it back")
        await self.storage.make_offer(record.id, OfferKind.TAKEBACK, ctx.user.id,
                                      record.version, now=self._clock())
        opponents = tuple(s.user_id for s in record.seats if s.team != seat.team)
        return Reply(f"{ctx.user.name} asks to take back `{last.text}`.", mentions=opponents,
                     buttons=(Button(ButtonKind.ACCEPT_TAKEBACK, record.id, "Accept takeback",
                                     opponents),
                              Button(ButtonKind.DECLINE_TAKEBACK, record.id, "Decline",
                                     opponents)))

    async def _turn_reply(self, record: StoredGame, game: Game, turn: Turn) -> Reply:
        mover = record.seats[turn.seat]
        text = f"**{turn.player}** ({turn.colour.title}): `{turn.text}`"
        if game.outcome:
            others = tuple(s.user_id for s in record.seats if s.user_id != mover.user_id)
            image = await self._render(game, None)
            return Reply(f"{text}\n{result_sentence(game.outcome, game)}", image=image,
                         mentions=others, buttons=(rematch_button(record),))
        next_seat = record.seats[game.seat_to_move]  # type: ignore[index]
        clock = await self._clock_text(record, game)
        lines = [text, to_move_sentence(game, clock)]
        buttons: list[Button] = []
        if game.can_swap():
            lines.append("You may answer with `swap`.")
            buttons.append(Button(ButtonKind.SWAP, record.id, "Swap", (next_seat.user_id,)))
        if game.is_double and game.can_call_privilege(turn.player):
            buttons.append(Button(ButtonKind.PRIVILEGE, record.id, "Privilege",
                                  (mover.user_id,)))
        if game.draw_offered_by is not None:
            lines.append(f"{game.draw_offered_by.title} offers a draw.")
            opponents = tuple(s.user_id for s in record.seats
                              if game.colour_of_seat(s.number) is not game.draw_offered_by)
            buttons += [Button(ButtonKind.ACCEPT_DRAW, record.id, "Accept draw", opponents),
                        Button(ButtonKind.DECLINE_DRAW, record.id, "Decline draw", opponents)]
        image = await self._render(game, next_seat.user_id, clock)
        return Reply("\n".join(lines), image=image, mentions=(next_seat.user_id,),
                     buttons=tuple(buttons))
