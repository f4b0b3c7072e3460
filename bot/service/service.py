"""The application service: a command becomes a turn (or a challenge, an answer …) and a reply.

Both front ends call this and only this: who asks, in which channel, is it their turn; check it
with the rules, commit it to storage, draw the board, say what happened and whom to ping.
Data flows one way: command in → rules check → storage commit → picture → reply out.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.service.games import ChannelLocks, GameCache
from bot.service.model import Button, ButtonKind, Context, Reply, ServiceError, User
from bot.service.names import seat_names
from bot.service.options import ChallengeOptions, describe_setup
from bot.service.texts import HELP, result_sentence, status_text, to_move_sentence
from rendering import RenderOptions, render_png, view_of
from rules import Game, Hole, IllegalMove, Turn
from storage import (
    Challenge,
    ChallengeClosed,
    ChannelBusy,
    FirstMove,
    GameFinished,
    GameRecord,
    GameResult,
    NotFound,
    NotInvited,
    Player,
    Result,
    StaleVersion,
    Storage,
)


class ThreadOpener(Protocol):
    """What a front end offers so that a game can get a thread of its own."""

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Open a thread under `channel_id` named `name`; return its channel id."""
        ...


def _now() -> datetime:
    return datetime.now(UTC)


class TwixtService:
    """Challenges, turns and everything else a player can ask, over one `Storage`."""

    def __init__(self, storage: Storage, *, threads: ThreadOpener | None = None,
                 clock: Callable[[], datetime] = _now,
                 render_options: RenderOptions | None = None,
                 rng: random.Random | None = None) -> None:
        self.storage = storage
        self._threads = threads
        self._clock = clock
        self._render_options = render_options or RenderOptions()
        self._rng = rng or random.Random()
        self._locks = ChannelLocks()
        self._games = GameCache()

    # --- challenges --------------------------------------------------------------------

    async def challenge(self, ctx: Context, opponent: User | None,
                        options: ChallengeOptions) -> Reply:
        """Challenge one user, or anyone in the channel when `opponent` is None."""
        if opponent is not None and opponent.id == ctx.user.id:
            raise ServiceError("you cannot challenge yourself")
        invitees = [opponent] if opponent else []
        challenge = await self._create_challenge(ctx, invitees, 2, options)
        who = opponent.name if opponent else "anyone here"
        text = (f"**{ctx.user.name}** challenges {who} to TwixT ({options.describe()}), "
                f"{self._first_words(options.first, 2)}. ")
        text += f"{opponent.name}, accept or decline." if opponent else "Who accepts?"
        return Reply(text, mentions=(opponent.id,) if opponent else (),
                     buttons=self._challenge_buttons(challenge))

    async def team(self, ctx: Context, partner: User, opponents: tuple[User, User],
                   options: ChallengeOptions) -> Reply:
        """A Double TwixT challenge: you and `partner` against `opponents`; all three accept."""
        invitees = [opponents[0], partner, opponents[1]]
        ids = [ctx.user.id] + [u.id for u in invitees]
        if len(set(ids)) != 4:
            raise ServiceError("a team game needs four different players")
        challenge = await self._create_challenge(ctx, invitees, 4, options)
        text = (f"**{ctx.user.name}** and {partner.name} challenge {opponents[0].name} and "
                f"{opponents[1].name} to Double TwixT ({options.describe()}), "
                f"{self._first_words(options.first, 4)}. All three, accept or decline.")
        return Reply(text, mentions=tuple(u.id for u in invitees),
                     buttons=self._challenge_buttons(challenge))

    async def accept(self, ctx: Context, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the newest one open to you here when no id is given)."""
        challenge = await self._find_challenge(ctx, challenge_id)
        await self._remember(ctx.user)
        async with self._locks(challenge.channel_id):
            try:
                challenge = await self.storage.answer_challenge(challenge.id, ctx.user.id, True,
                                                                now=self._clock())
            except (NotInvited, ChallengeClosed) as error:
                raise ServiceError(str(error)) from None
            if not challenge.ready:
                waiting = [i.user_id for i in challenge.invitees if i.user_id != ctx.user.id
                           and i.answer.value == "pending"]
                names = await self._names([w for w in waiting if w is not None])
                rest = ", ".join(names[w] for w in waiting if w is not None) or "more players"
                return Reply(f"{ctx.user.name} accepts. Waiting for {rest}.")
            return await self._start_game(ctx, challenge)

    async def decline(self, ctx: Context, challenge_id: int | None = None) -> Reply:
        """Decline a challenge made to you, or withdraw your own."""
        challenge = await self._find_challenge(ctx, challenge_id)
        if challenge.challenger_id == ctx.user.id:
            await self.storage.cancel_challenge(challenge.id)
            return Reply(f"{ctx.user.name} withdraws the challenge.")
        try:
            await self.storage.answer_challenge(challenge.id, ctx.user.id, False,
                                                now=self._clock())
        except (NotInvited, ChallengeClosed) as error:
            raise ServiceError(str(error)) from None
        return Reply(f"{ctx.user.name} declines the challenge.")

    # --- playing -----------------------------------------------------------------------

    async def move(self, ctx: Context, text: str) -> Reply:
        """Play a command of the move language for the asking player."""
        async with self._locks(ctx.channel_id):
            record, game = await self._active(ctx.channel_id)
            seat = record.seat_of(ctx.user.id)
            if seat is None:
                raise ServiceError("you are not playing in this game")
            try:
                turn = game.play(text, by=game.players[seat.seat])
            except IllegalMove as error:
                raise ServiceError(str(error)) from None
            try:
                version = await self.storage.append_turn(
                    record.id, record.version, ctx.user.id, turn.text,
                    finish=self._result(record, game), now=self._clock())
            except (StaleVersion, GameFinished) as error:
                self._games.drop(record.id)
                raise ServiceError(str(error)) from None
            except BaseException:
                game.undo()
                raise
            self._games.put(record.id, version, game)
            view = view_of(game)
        image = await asyncio.to_thread(render_png, view, self._render_options)
        return self._turn_reply(record, game, turn, image)

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

    async def board(self, ctx: Context) -> Reply:
        """The board of the channel's game, posted again."""
        async with self._locks(ctx.channel_id):
            record, game = await self._active(ctx.channel_id)
            view = view_of(game)
        image = await asyncio.to_thread(render_png, view, self._render_options)
        return Reply(status_text(record, game, describe_setup(record.setup)), image=image)

    async def status(self, ctx: Context) -> Reply:
        record, game = await self._active(ctx.channel_id)
        return Reply(status_text(record, game, describe_setup(record.setup)))

    async def help(self) -> Reply:
        return Reply(HELP, ephemeral=True)

    async def abort(self, ctx: Context) -> Reply:
        """A channel manager calls the game off at once; players must all ask for it."""
        async with self._locks(ctx.channel_id):
            record = await self._active_record(ctx.channel_id)
            player = record.seat_of(ctx.user.id) is not None
            if not (ctx.can_manage or player):
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
            except (StaleVersion, GameFinished) as error:
                raise ServiceError(str(error)) from None
            self._games.drop(record.id)
        return Reply(f"Game {record.id} is aborted by {ctx.user.name}; it counts for nobody.")

    async def channel_game(self, channel_id: int) -> Game:
        """The channel's current game, or its last finished one, as the rules see it."""
        record = await self.storage.active_game(channel_id)
        if record is None:
            games = await self.storage.list_games(channel_id=channel_id, limit=1)
            if not games:
                raise ServiceError("this channel has no games")
            record = games[0]
        return await self._replayed(record)

    async def press(self, ctx: Context, kind: ButtonKind, target: int) -> Reply:
        """A button was pressed; `target` is the challenge or game it belongs to."""
        if kind is ButtonKind.ACCEPT_CHALLENGE:
            return await self.accept(ctx, target)
        if kind is ButtonKind.DECLINE_CHALLENGE:
            return await self.decline(ctx, target)
        record = await self.storage.active_game(ctx.channel_id)
        if record is None or record.id != target:
            raise ServiceError("this button belongs to a game that is over")
        command = {ButtonKind.SWAP: "swap", ButtonKind.PRIVILEGE: "privilege",
                   ButtonKind.CONFIRM_RESIGN: "resign", ButtonKind.ACCEPT_DRAW: "accept draw",
                   ButtonKind.DECLINE_DRAW: "decline draw"}[kind]
        return await self.move(ctx, command)

    # --- internals ---------------------------------------------------------------------

    async def _create_challenge(self, ctx: Context, invitees: Sequence[User], players: int,
                                options: ChallengeOptions) -> Challenge:
        settings = await self.storage.guild_settings(ctx.guild_id)
        thread = settings.thread_default if options.thread is None else options.thread
        if not thread and await self.storage.active_game(ctx.channel_id):
            raise ServiceError("this channel already has a game: finish it first, or "
                               "challenge with thread yes")
        if thread and self._threads is None:
            raise ServiceError("threads are not available here")
        await self._remember(ctx.user, *invitees)
        now = self._clock()
        return await self.storage.create_challenge(
            guild_id=ctx.guild_id, channel_id=ctx.channel_id, challenger_id=ctx.user.id,
            invitees=[u.id for u in invitees], players=players, setup=options.setup,
            first=options.first, thread=thread,
            expires_at=now + timedelta(hours=settings.challenge_expiry_hours), now=now)

    async def _find_challenge(self, ctx: Context, challenge_id: int | None) -> Challenge:
        if challenge_id is not None:
            try:
                return await self.storage.get_challenge(challenge_id)
            except NotFound:
                raise ServiceError("there is no such challenge") from None
        pending = await self.storage.pending_challenges(channel_id=ctx.channel_id)
        mine = [c for c in pending if ctx.user.id in {i.user_id for i in c.invitees}
                or c.challenger_id == ctx.user.id]
        open_ones = [c for c in pending if any(i.user_id is None for i in c.invitees)
                     and c.challenger_id != ctx.user.id]
        found = (mine or open_ones)
        if not found:
            raise ServiceError("there is no challenge for you in this channel")
        return found[-1]

    async def _start_game(self, ctx: Context, challenge: Challenge) -> Reply:
        order = self._seat_order(challenge)
        names = await self._names(order)
        players = [Player(uid, name) for uid, name in
                   zip(order, seat_names([names[uid] for uid in order]), strict=True)]
        channel_id = challenge.channel_id
        if challenge.thread:
            assert self._threads is not None
            title = " vs ".join(p.name for p in players[:2]) if len(players) == 2 else \
                f"{players[0].name} & {players[2].name} vs {players[1].name} & {players[3].name}"
            channel_id = await self._threads.open_thread(challenge.channel_id, f"TwixT: {title}")
        try:
            record = await self.storage.create_game(
                guild_id=challenge.guild_id, channel_id=channel_id, players=players,
                setup=challenge.setup, challenge_id=challenge.id, now=self._clock())
        except ChannelBusy:
            raise ServiceError("this channel already has a game: finish it first, or "
                               "challenge with thread yes") from None
        game = self._new_game(record)
        self._games.put(record.id, record.version, game)
        image = await asyncio.to_thread(render_png, view_of(game), self._render_options)
        first = record.seats[0]
        lineup = " vs ".join(
            " & ".join(f"**{s.name}**" for s in record.seats if s.team == team)
            + f" ({game.colour_of_seat(team).title})" for team in (0, 1))
        example = Hole(game.options.cols // 2, game.options.rows // 2)
        board = Reply(f"Game {record.id} on: {lineup} — {describe_setup(record.setup)}.\n"
                      f"{first.name}, you move first (Red): write your move, e.g. `{example}`.",
                      image=image, mentions=(first.user_id,), channel_id=channel_id)
        if channel_id == challenge.channel_id:
            return board
        return Reply(f"Game {record.id} starts in its own thread.", followups=(board,))

    def _seat_order(self, challenge: Challenge) -> list[int]:
        invited = [i.user_id for i in sorted(challenge.invitees, key=lambda i: i.slot)]
        assert all(uid is not None for uid in invited)
        me_first = challenge.first is FirstMove.ME or (
            challenge.first is FirstMove.RANDOM and self._rng.random() < 0.5)
        you = challenge.challenger_id
        if challenge.players == 2:
            order = [you, invited[0]] if me_first else [invited[0], you]
        else:
            opponent1, partner, opponent2 = invited
            order = ([you, opponent1, partner, opponent2] if me_first
                     else [opponent1, you, opponent2, partner])
        return [uid for uid in order if uid is not None]

    async def _active_record(self, channel_id: int) -> GameRecord:
        record = await self.storage.active_game(channel_id)
        if record is None:
            raise ServiceError("there is no game in this channel: start one with challenge")
        return record

    async def _active(self, channel_id: int) -> tuple[GameRecord, Game]:
        record = await self._active_record(channel_id)
        game = self._games.get(record.id, record.version)
        if game is None:
            game = await self._replayed(record)
            self._games.put(record.id, record.version, game)
        return record, game

    async def _replayed(self, record: GameRecord) -> Game:
        """The game replayed from its stored log, seats named as the players were."""
        loaded = await self.storage.load_game(record.id)
        game = self._new_game(loaded.game)
        by_id = {seat.user_id: game.players[seat.seat] for seat in loaded.game.seats}
        for entry in loaded.turns:
            game.play(entry.command, by=by_id[entry.actor_id])
        return game

    @staticmethod
    def _new_game(record: GameRecord) -> Game:
        setup = record.setup
        return Game(tuple(seat.name for seat in record.seats), size=setup.size,
                    rules=setup.rules, swap=setup.swap, handicap=setup.handicap)

    @staticmethod
    def _result(record: GameRecord, game: Game) -> GameResult | None:
        outcome = game.outcome
        if outcome is None:
            return None
        winners = tuple(seat.user_id for seat in record.seats
                        if outcome.winner is not None
                        and game.colour_of_seat(seat.seat) is outcome.winner)
        return GameResult(Result(outcome.result), outcome.reason.value, winners)

    def _turn_reply(self, record: GameRecord, game: Game, turn: Turn, image: bytes) -> Reply:
        mover = record.seats[turn.seat]
        text = f"**{turn.player}** ({turn.colour.title}): `{turn.text}`"
        if game.outcome:
            others = tuple(s.user_id for s in record.seats if s.user_id != mover.user_id)
            return Reply(f"{text}\n{result_sentence(game.outcome, game)}", image=image,
                         mentions=others)
        next_seat = record.seats[game.to_move_seat]  # type: ignore[index]
        lines = [text, to_move_sentence(game)]
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
                              if game.colour_of_seat(s.seat) is not game.draw_offered_by)
            buttons += [Button(ButtonKind.ACCEPT_DRAW, record.id, "Accept draw", opponents),
                        Button(ButtonKind.DECLINE_DRAW, record.id, "Decline draw", opponents)]
        return Reply("\n".join(lines), image=image, mentions=(next_seat.user_id,),
                     buttons=tuple(buttons))

    @staticmethod
    def _challenge_buttons(challenge: Challenge) -> tuple[Button, ...]:
        named = tuple(i.user_id for i in challenge.invitees if i.user_id is not None)
        open_place = any(i.user_id is None for i in challenge.invitees)
        accept_by = () if open_place else named
        return (Button(ButtonKind.ACCEPT_CHALLENGE, challenge.id, "Accept", accept_by),
                Button(ButtonKind.DECLINE_CHALLENGE, challenge.id, "Decline",
                       (*named, challenge.challenger_id) if named else
                       (challenge.challenger_id,)))

    @staticmethod
    def _first_words(first: FirstMove, players: int) -> str:
        if first is FirstMove.RANDOM:
            return "colours drawn at random"
        side = ("the challenger" if first is FirstMove.ME else "you") if players == 2 else \
            ("the challengers" if first is FirstMove.ME else "you")
        return f"{side} play{'s' if side == 'the challenger' else ''} Red and move first"

    async def _remember(self, *users: User) -> None:
        await self.storage.remember_users({u.id: u.name for u in users})

    async def _names(self, user_ids: Sequence[int]) -> dict[int, str]:
        known = await self.storage.user_names(user_ids)
        return {uid: known.get(uid, f"player {uid}") for uid in user_ids}
