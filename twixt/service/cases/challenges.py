"""Challenges: one opponent or anyone, Double TwixT teams, answers, threads, rematches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext, suppress
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Protocol

from twixt.language import Markup, Message, Translation, bold, message
from twixt.rules import Hole
from twixt.service import commands as cmd
from twixt.service.cases.picker import board_controls
from twixt.service.commands.options import ChallengeOptions, describe_setup
from twixt.service.desk.desk import Desk, seat_to_move
from twixt.service.desk.engine_seats import (
    DEFAULT_LEVEL,
    THE_ENGINE_PLAYER,
    engine_level,
    engine_seat_user,
    is_engine_seat,
)
from twixt.service.desk.live_games import ChannelLocks
from twixt.service.errors import (
    ConflictError,
    LimitError,
    MalformedError,
    MissingError,
    NotAllowedError,
    ServiceError,
)
from twixt.service.model import NO_SERVER, Button, ButtonKind, Reply, Request, User
from twixt.service.names import seat_names
from twixt.service.pure.clock.timecontrol import parse_time_control
from twixt.service.texts import names_and, storage_refusal
from twixt.storage import (
    ChallengeClosedError,
    ChallengeStatus,
    ChallengeStore,
    ChannelBusyError,
    EngineGameStore,
    FirstMove,
    GameStore,
    InviteeAnswer,
    NotFoundError,
    NotInvitedError,
    Player,
    Seat,
    SettingStore,
    StoredChallenge,
    StoredGame,
    TournamentStore,
)


class ChallengesStorage(ChallengeStore, GameStore, EngineGameStore, SettingStore,
                        TournamentStore, Protocol):
    """The subjects of storage challenges read and write."""


class Challenges:
    """Making and answering challenges, and starting the game when everyone has accepted."""

    def __init__(self, desk: Desk, store: ChallengesStorage) -> None:
        self._desk = desk
        self._store = store
        #: held by a rematch from its look for a waiting rematch to its challenge (or its
        #: accepting the one found), so that both players pressing at once make one challenge;
        #: apart from the desk's channel locks, which challenging and accepting take inside it
        self._rematching = ChannelLocks()
        #: held by a player (by user id) from counting their games with the engine to the game
        #: that adds one, so that challenges sent at once in several channels cannot pass
        #: `botgames` together
        self._engine_games = ChannelLocks()

    @cmd.handles(cmd.Challenge)
    async def challenge(self, request: Request, opponent: User | None,
                        options: ChallengeOptions) -> Reply:
        """Challenge one user, or anyone in the channel when `opponent` is None."""
        if opponent is not None and opponent.id == request.user.id:
            raise MalformedError("you cannot challenge yourself")
        invitees = seated([opponent] if opponent else [], options)
        challenge, started = await self._challenge_made(request, invitees, 2, options)
        if started is not None:
            return started
        tr = request.tr
        first = _first_words(options.first, 2, bool(options.setup.imported_turns))
        setup = describe_setup(challenge.setup)
        if opponent:
            text = tr("**{challenger}** challenges {opponent} to TwixT ({setup}), {first}. "
                      "{opponent}, accept or decline.", challenger=request.user.name,
                      opponent=opponent.name, setup=setup, first=first)
        else:
            text = tr("**{challenger}** challenges anyone here to TwixT ({setup}), {first}. "
                      "Who accepts?", challenger=request.user.name, setup=setup, first=first)
        return Reply(text, mentions=(opponent.id,) if opponent else (),
                     buttons=_challenge_buttons(challenge, tr))

    @cmd.handles(cmd.TeamChallenge)
    async def team(self, request: Request, partner: User, opponents: tuple[User, User],
                   options: ChallengeOptions) -> Reply:
        """A Double TwixT challenge: you and `partner` against `opponents`; all three accept."""
        invitees = seated([opponents[0], partner, opponents[1]], options)
        if len({request.user.id, *(u.id for u in invitees)}) != 4:
            raise MalformedError("a team game needs four different players")
        challenge, started = await self._challenge_made(request, invitees, 4, options)
        if started is not None:
            return started
        tr = request.tr
        # the engine has accepted its seat already: only the people are asked to answer
        asked = [user.name for user in invitees if not is_engine_seat(user.id)]
        text = (tr("**{challenger}** and {partner} challenge {opponent} and {other} to Double "
                   "TwixT ({setup}), {first}.",
                   challenger=request.user.name, partner=invitees[1].name,
                   opponent=invitees[0].name, other=invitees[2].name,
                   setup=describe_setup(challenge.setup),
                   first=_first_words(options.first, 4))
                + " " + tr.plural("{names}, accept or decline.", "{names}, accept or decline.",
                                  len(asked), names=names_and(asked, tr)))
        return Reply(text, mentions=tuple(u.id for u in invitees),
                     buttons=_challenge_buttons(challenge, tr))

    @cmd.handles(cmd.AnswerChallenge)
    async def answer(self, request: Request, answer: cmd.Answer,
                     challenge_id: int | None = None) -> Reply:
        """Accept a challenge, or decline it (withdraw one's own)."""
        if answer == "accept":
            return await self.accept(request, challenge_id)
        return await self.decline(request, challenge_id)

    async def accept(self, request: Request, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the newest one open to you here when no id is given)."""
        challenge = await self._find_challenge(request, challenge_id)
        with_engine = any(i.user_id is not None and is_engine_seat(i.user_id)
                          for i in challenge.invitees)
        async with self._counting_engine_games(request, with_engine):
            if with_engine:
                await self._check_engine_games(request)
            async with self._desk.lock(challenge.channel_id):
                # the acceptance that completes the challenge is stored with its game, in one
                # transaction: a game refused (the channel busy meanwhile) keeps no place taken
                completed = _completed_by(await self._store.get_challenge(challenge.id),
                                          request.user.id, self._desk.clock())
                if completed is not None:
                    await self._desk.remember(request.user)
                    return await self._start_game(completed, request.tr,
                                                  accepting=request.user.id)
                try:
                    challenge = await self._store.answer_challenge(
                        challenge.id, request.user.id, True, now=self._desk.clock())
                except (NotInvitedError, ChallengeClosedError) as error:
                    raise storage_refusal(error) from None
                # the name is kept once the answer is: a refused one stores nothing
                await self._desk.remember(request.user)
                if not challenge.ready:
                    waiting = [i.user_id for i in challenge.invitees
                               if i.answer is InviteeAnswer.PENDING and i.user_id is not None]
                    names = await self._desk.names(waiting)
                    if not waiting:
                        return Reply(request.tr("{name} accepts. Waiting for more players.",
                                                name=request.user.name))
                    return Reply(request.tr("{name} accepts. Waiting for {names}.",
                                            name=request.user.name,
                                            names=", ".join(names[w] for w in waiting)))
                return await self._start_game(challenge, request.tr)

    async def decline(self, request: Request, challenge_id: int | None = None) -> Reply:
        """Decline a challenge made to you, or withdraw your own."""
        challenge = await self._find_challenge(request, challenge_id)
        # the same lock as accepting: an answer and a withdrawal never interleave
        async with self._desk.lock(challenge.channel_id):
            try:
                if challenge.challenger_id == request.user.id:
                    await self._store.cancel_challenge(challenge.id)
                    return Reply(request.tr("{name} withdraws the challenge.",
                                            name=request.user.name))
                await self._store.answer_challenge(challenge.id, request.user.id, False,
                                                          now=self._desk.clock())
            except (NotInvitedError, ChallengeClosedError) as error:
                raise storage_refusal(error) from None
        return Reply(request.tr("{name} declines the challenge.", name=request.user.name))

    @cmd.handles(cmd.Rematch)
    async def rematch(self, request: Request, game_id: int | None = None) -> Reply:
        """Challenge the same players to the same game again, with the colours exchanged
        (the channel's last game when no id is given)."""
        old = await self._desk.chosen_game(request, game_id)
        seat = old.seat_of(request.user.id)
        if seat is None:
            raise NotAllowedError("only the players of that game can ask for a rematch")
        if old.is_active:
            raise ConflictError("that game is still going on")
        linked = await self._store.tournament_game_of(old.id)
        if linked is not None:
            tournament = await self._store.get_tournament(linked.tournament_id)
            raise NotAllowedError("games of an event are not rematched: {event} pairs its "
                                  "players itself", event=tournament.name)
        async with self._rematching(request.channel_id):
            waiting = await self._waiting_rematch(request, old)
            if waiting is None:
                return await self._challenge_again(request, old, seat)
        # pressed again, or by the other side: no second challenge
        if waiting.challenger_id == request.user.id:
            raise ConflictError("your rematch is already waiting for an answer")
        return await self.accept(request, waiting.id)

    async def _challenge_again(self, request: Request, old: StoredGame, seat: Seat) -> Reply:
        """The rematch's challenge: the players of `old`, the colours exchanged."""
        names = await self._desk.names([s.user_id for s in old.seats])
        others = {s.number: User(s.user_id, names[s.user_id]) for s in old.seats}
        # a game with the engine: the same game again grants takebacks as the first did
        engine_facts = await self._store.engine_game(old.id)
        options = ChallengeOptions(
            setup=replace(old.setup, imported_turns=None,
                          time_control=_clock_still_allowed(old.setup.time_control)),
            first=FirstMove.THEM if seat.number % 2 == 0 else FirstMove.ME, thread=False,
            vacation=old.setup.vacation,
            takebacks=engine_facts.takebacks if engine_facts is not None else None)
        if len(old.seats) == 2:
            return await self.challenge(request, others[1 - seat.number], options)
        partner = others[(seat.number + 2) % 4]
        opponents = (others[(seat.number + 1) % 4], others[(seat.number + 3) % 4])
        return await self.team(request, partner, opponents, options)

    # --- internals ---------------------------------------------------------------------

    async def _challenge_made(self, request: Request, invitees: Sequence[User], players: int,
                              options: ChallengeOptions) -> tuple[StoredChallenge, Reply | None]:
        """The challenge stored, and the game's start when the engine's acceptance completes it
        (None while people are still to answer)."""
        with_engine = any(is_engine_seat(user.id) for user in invitees)
        async with self._counting_engine_games(request, with_engine):
            challenge = await self._create_challenge(request, invitees, players, options)
            if await self._engine_seats_accept(challenge, options):
                try:
                    return challenge, await self._start_game(challenge, request.tr)
                except ServiceError:
                    # refused (a game here meanwhile): the challenge is refused with it, so
                    # no challenge the asker did not get is left waiting
                    with suppress(ChallengeClosedError):  # withdrawn meanwhile already
                        await self._store.cancel_challenge(challenge.id)
                    raise
        return challenge, None

    def _counting_engine_games(self, request: Request, with_engine: bool
                            ) -> AbstractAsyncContextManager[object]:
        """The asker's lock over their count of games with the engine, when `with_engine`."""
        return self._engine_games(request.user.id) if with_engine else nullcontext()

    async def _create_challenge(self, request: Request, invitees: Sequence[User], players: int,
                                options: ChallengeOptions) -> StoredChallenge:
        settings = await self._store.guild_settings(request.guild_id)
        thread = settings.thread_default if options.thread is None else options.thread
        if not thread and await self._store.active_game(request.channel_id):
            raise ConflictError("this channel already has a game: finish it first, or "
                                "challenge with thread yes")
        if thread and (self._desk.port.threads is None or request.guild_id == NO_SERVER):
            raise NotAllowedError("threads are not available here")
        if any(is_engine_seat(user.id) for user in invitees):
            await self._check_engine_games(request, settings.bot_games)
        now = self._desk.clock()
        vacation = settings.vacation_default if options.vacation is None else options.vacation
        setup = replace(options.setup, vacation=vacation)
        async with self._desk.lock(request.channel_id):
            if await self._open_challenge_of(request):
                raise ConflictError("you already have an open challenge here: wait for an "
                                    "answer, or withdraw it with decline")
            await self._desk.remember(request.user, *invitees)
            return await self._store.create_challenge(
                guild_id=request.guild_id, channel_id=request.channel_id,
                challenger_id=request.user.id, invitees=[u.id for u in invitees],
                players=players, setup=setup, first=options.first, thread=thread,
                expires_at=now + timedelta(hours=settings.challenge_expiry_hours), now=now)

    async def _check_engine_games(self, request: Request, most: int | None = None) -> None:
        """Refuse the asker one more game with the engine when they have the most the server
        allows at once (`botgames`): each of its moves takes the engine for seconds, and
        one player's many games must not keep everyone else's waiting."""
        storage = self._store
        if most is None:
            most = (await storage.guild_settings(request.guild_id)).bot_games
        if await storage.open_engine_games(request.guild_id, request.user.id) >= most:
            raise LimitError("you have as many games with the bot in progress as this "
                             "server allows a player (botgames {most}): finish one first",
                             most=most)

    async def _engine_seats_accept(self, challenge: StoredChallenge,
                                   options: ChallengeOptions) -> bool:
        """The engine accepts its seats in a challenge at once (keeping whether it grants
        takebacks); whether everyone has accepted now, so that the game starts."""
        engine_seats = [i.user_id for i in challenge.invitees
                        if i.user_id is not None and is_engine_seat(i.user_id)]
        if not engine_seats:
            return False
        storage = self._store
        await storage.add_engine_challenge(challenge.id, challenge.guild_id,
                                        bool(options.takebacks))
        for seat_id in engine_seats:
            challenge = await storage.answer_challenge(challenge.id, seat_id, True,
                                                       now=self._desk.clock())
        return challenge.ready

    async def _waiting_rematch(self, request: Request, old: StoredGame) -> StoredChallenge | None:
        """A challenge still open here among exactly the players of `old`."""
        players = {seat.user_id for seat in old.seats}
        pending = await self._store.pending_challenges(channel_id=request.channel_id,
                                                              now=self._desk.clock())
        return next((c for c in pending
                     if {c.challenger_id, *(i.user_id for i in c.invitees)} == players), None)

    async def _open_challenge_of(self, request: Request) -> StoredChallenge | None:
        """The asker's own challenge still waiting in this channel (one at a time, so that
        nobody can fill a channel with challenges and pings)."""
        pending = await self._store.pending_challenges(
            channel_id=request.channel_id, user_id=request.user.id, now=self._desk.clock())
        return next((c for c in pending if c.challenger_id == request.user.id), None)

    async def _find_challenge(self, request: Request, challenge_id: int | None) -> StoredChallenge:
        """The challenge named by number, or the newest one open to the asker here. A
        challenge is seen and answered only in the channel it was made in, by its invitee as
        by anyone: elsewhere its number reads as no challenge at all, so that nobody can take
        a place from another channel (a public one into a private one's challenge) or learn
        by probing numbers which challenges exist."""
        if challenge_id is not None:
            try:
                found: StoredChallenge | None = await self._store.get_challenge(challenge_id)
            except NotFoundError:
                found = None
            if found is None or (found.guild_id, found.channel_id) != (request.guild_id,
                                                                       request.channel_id):
                raise MissingError("there is no such challenge")  # the same words: nothing leaks
            return found
        pending = await self._store.pending_challenges(channel_id=request.channel_id,
                                                              now=self._desk.clock())
        mine = [c for c in pending if request.user.id in {i.user_id for i in c.invitees}
                or c.challenger_id == request.user.id]
        open_ones = [c for c in pending if any(i.user_id is None for i in c.invitees)
                     and c.challenger_id != request.user.id]
        answerable = mine or open_ones
        if not answerable:
            raise MissingError("there is no challenge for you in this channel")
        return answerable[-1]

    async def _start_game(self, challenge: StoredChallenge, tr: Translation,
                          accepting: int | None = None) -> Reply:
        """Start the game of an accepted challenge; what is said, `tr` says (the language of
        whoever accepted last). With `accepting`, that user's acceptance, which completes
        `challenge`, is stored with the game or not at all."""
        order = self._seat_order(challenge)
        names = await self._desk.names(order)
        # weekends off as each player's preference stands now, fixed for the game
        weekends = [(await self._store.user_prefs(uid)).weekends for uid in order]
        players = [Player(uid, name, weekends_off=not on) for uid, name, on in
                   zip(order, seat_names([names[uid] for uid in order], tr), weekends, strict=True)]
        channel_id = challenge.channel_id
        if challenge.thread:
            if self._desk.port.threads is None:
                raise NotAllowedError("threads are not available here")
            channel_id = await self._desk.port.threads.open_thread(
                challenge.channel_id, _lineup_title(players))
        try:
            await self._store.create_game(
                guild_id=challenge.guild_id, channel_id=channel_id, players=players,
                setup=challenge.setup, challenge_id=challenge.id, now=self._desk.clock(),
                accepting=accepting)
        except (ChannelBusyError, ChallengeClosedError, NotInvitedError) as error:
            # the channel is busy, or the challenge was withdrawn meanwhile (another process)
            raise storage_refusal(error) from None
        stored, game = await self._desk.active(channel_id)
        await self._desk.note_waiting(stored)
        if any(is_engine_seat(seat.user_id) for seat in stored.seats):
            await self._store.start_engine_game(challenge.id, stored.id)
        to_move = seat_to_move(stored, game)
        image = await self._desk.render(game, locale=tr.locale)
        first_team, second_team = (Markup(
            " & ".join(bold(s.name) for s in stored.seats if s.team == team)
            + f" ({tr.say(game.colour_of_seat(team).said)})") for team in (0, 1))
        lineup = tr("{first} vs {second}", first=first_team, second=second_team)
        centre = Hole(game.options.cols // 2, game.options.rows // 2)
        example = min(game.legal_placements(), default=centre,
                      key=lambda hole: abs(hole.col - centre.col) + abs(hole.row - centre.row))
        facts = dict(game=stored.id, lineup=lineup, setup=describe_setup(stored.setup),
                     name=to_move.name, colour=game.colour_to_move.said, example=str(example))
        if stored.setup.imported_turns:
            text = (tr("Game {game} on from an imported position ({moves}): {lineup} — {setup}.",
                       moves=tr.plural("{n} move", "{n} moves", game.moves_made), **facts)
                    + "\n" + tr("{name}, you move next ({colour}): write your move, e.g. "
                                 "`{example}`.", **facts))
        elif is_engine_seat(to_move.user_id):  # nobody to tell to write a move: the engine is at it
            text = (tr("Game {game} on: {lineup} — {setup}.", **facts) + "\n"
                    + tr("{name} moves first ({colour}) and is thinking…", **facts))
        else:
            text = (tr("Game {game} on: {lineup} — {setup}.", **facts) + "\n"
                    + tr("{name}, you move first ({colour}): write your move, e.g. "
                         "`{example}`.", **facts))
        pickers, controls = board_controls(stored, game, tr)
        board = Reply(text, image=image, mentions=(to_move.user_id,), channel_id=channel_id,
                      buttons=controls, pickers=pickers)
        if channel_id == challenge.channel_id:
            return board
        return Reply(tr("Game {game} starts in its own thread.", game=stored.id),
                     followups=(board,))

    def _seat_order(self, challenge: StoredChallenge) -> list[int]:
        invited = [i.user_id for i in sorted(challenge.invitees, key=lambda i: i.slot)]
        me_first = challenge.first is FirstMove.ME or (
            challenge.first is FirstMove.RANDOM and self._desk.rng.random() < 0.5)
        you = challenge.challenger_id
        if challenge.players == 2:
            order = [you, invited[0]] if me_first else [invited[0], you]
        else:
            opponent1, partner, opponent2 = invited
            order = ([you, opponent1, partner, opponent2] if me_first
                     else [opponent1, you, opponent2, partner])
        return [uid for uid in order if uid is not None]


def _completed_by(challenge: StoredChallenge, user_id: int,
                  now: datetime) -> StoredChallenge | None:
    """The challenge as `user_id`'s acceptance would leave it, when that acceptance is the
    last one it waits for (None otherwise, or when it is not theirs to give: closed, expired
    by `now`, their own; storing the answer then refuses it in the usual words)."""
    if (user_id == challenge.challenger_id or challenge.status is not ChallengeStatus.PENDING
            or challenge.expires_at <= now):
        return None
    place = (next((i for i in challenge.invitees if i.user_id == user_id), None)
             or next((i for i in challenge.invitees if i.user_id is None), None))
    if place is None:
        return None
    after = replace(challenge, invitees=tuple(
        replace(i, user_id=user_id, answer=InviteeAnswer.ACCEPTED) if i.slot == place.slot else i
        for i in challenge.invitees))
    return after if after.ready else None


def _clock_still_allowed(time_control: str | None) -> str | None:
    """A stored clock checked again before a rematch carries it into a new (rated) game: one
    stored before the limits existed, like `0h`, is dropped rather than carried."""
    if time_control is None:
        return None
    try:
        return parse_time_control(time_control)
    except MalformedError:
        return None


def _lineup_title(players: Sequence[Player]) -> Message:
    """A game thread's name: `TwixT: alice vs bob` (`alice gegen bob` in German)."""
    red, black = ((players[0].name, players[1].name) if len(players) == 2
                  else (f"{players[0].name} & {players[2].name}",
                        f"{players[1].name} & {players[3].name}"))
    return message("TwixT: {first} vs {second}", first=red, second=black)


def _challenge_buttons(challenge: StoredChallenge, tr: Translation) -> tuple[Button, ...]:
    named = tuple(i.user_id for i in challenge.invitees if i.user_id is not None)
    open_place = any(i.user_id is None for i in challenge.invitees)
    return (Button(ButtonKind.ACCEPT_CHALLENGE, challenge.id, tr("Accept"),
                   () if open_place else named),
            Button(ButtonKind.DECLINE_CHALLENGE, challenge.id, tr("Decline"),
                   (*named, challenge.challenger_id)))


def _first_words(first: FirstMove, players: int, continuing: bool = False) -> Message:
    """Who plays Red; in a continued import Red need not move next, so that is not said."""
    if first is FirstMove.RANDOM:
        return message("colours drawn at random")
    if first is FirstMove.THEM:
        return message("you play Red") if continuing else message("you play Red and move first")
    if players == 2:
        return (message("the challenger plays Red") if continuing
                else message("the challenger plays Red and moves first"))
    return (message("the challengers play Red") if continuing
            else message("the challengers play Red and move first"))


def seated(users: Iterable[User], options: ChallengeOptions) -> list[User]:
    """A challenge's invitees with the engine given its seats, each its own id:
    `THE_ENGINE_PLAYER` at the challenge's level, an engine seat of an earlier game (a rematch)
    at its own. MalformedError when the options are the engine's but it is not invited (the
    player names it `bot`: in Discord, the bot sits in the engine's seats)."""
    seats: list[User] = []
    for user in users:
        level = (options.level or DEFAULT_LEVEL if user.id == THE_ENGINE_PLAYER.id
                 else engine_level(user.id))
        if level is not None:
            user = engine_seat_user(level, sum(is_engine_seat(seat.id) for seat in seats))
        seats.append(user)
    if not any(is_engine_seat(seat.id) for seat in seats) and (
            options.level is not None or options.takebacks is not None):
        raise MalformedError("level and takebacks are options of a challenge to the bot, like "
                             "challenge bot level 3")
    return seats
