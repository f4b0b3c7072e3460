"""Records: export a game (transcript, Little Golem, T1), list past games, replay one as an
animation, and import a record to look at and to continue as a new game."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import reduce

from twixt import rendering
from twixt.language import Message, Translation, message, plural_message
from twixt.rendering import RenderOptions
from twixt.rules import Game, Reason, RecordError, quote, records, visible
from twixt.service import commands as cmd
from twixt.service.cases.challenges import Challenges
from twixt.service.commands.options import ChallengeOptions, describe_setup, rules_word
from twixt.service.desk.desk import Desk
from twixt.service.desk.engine_seats import THE_ENGINE_PLAYER, is_engine_seat
from twixt.service.errors import BusyError, ConflictError, LimitError, MalformedError
from twixt.service.model import PAGE_SIZE, Attachment, Reply, Request, User, check_page
from twixt.service.names import clean_name, person_name
from twixt.service.pure.clock.timecontrol import parse_time_control
from twixt.service.texts import result_sentence, to_move_sentence
from twixt.storage import GameSetup, GameStore, Result, StoredGame

#: the bytes of a record `import` takes: as many as `twixt replay` reads
MAX_IMPORT_BYTES = records.MAX_RECORD_BYTES
#: more turns than any real game has (a 48×48 board holds 2,300 pegs), few enough to replay
MAX_IMPORT_TURNS = 2500
#: Discord's upload limit for most servers
MAX_UPLOAD = 8 * 1024 * 1024
#: replays drawn at once (each takes a worker thread and up to some 100 MB while drawn)
MAX_REPLAYS_AT_ONCE = 2


class Records:
    """Games as files and as lists."""

    def __init__(self, desk: Desk, store: GameStore, challenges: Challenges) -> None:
        self._desk = desk
        self._store = store
        self._challenges = challenges
        self._replays = asyncio.Semaphore(MAX_REPLAYS_AT_ONCE)

    @cmd.handles(cmd.Export)
    async def export(self, request: Request, fmt: str | None = None) -> Reply:
        """The channel's current or last game as record files (all three formats by default)."""
        stored = await self._desk.channel_stored(request.channel_id)
        game = await self._desk.record(stored)
        formats = [fmt] if fmt else list(records.FORMATS)
        files: list[Attachment] = []
        refused: list[Message] = []
        for name in formats:
            if name not in records.FORMATS:
                raise MalformedError("export as transcript, lg or t1, not {format}",
                                     format=quote(name))
            try:
                text = records.write(game, name)
            except RecordError as error:
                refused.append(message("{format}: {reason}", format=name, reason=error.message))
                continue
            files.append(Attachment(f"twixt-{stored.id}{records.FILE_ENDINGS[name]}",
                                    records.encode(text, name)))
        if not files:
            every = reduce(lambda text, more: message("{refusals}; {refusal}", refusals=text,
                                                      refusal=more), refused)
            raise ConflictError(every)
        tr = request.tr
        note = "".join("\n" + tr("(no {refusal})", refusal=line) for line in refused)
        return Reply(tr.plural("Game {game}, {n} move.", "Game {game}, {n} moves.",
                               game.moves_made, game=stored.id) + note,
                     attachments=tuple(files))

    @cmd.handles(cmd.History)
    async def history(self, request: Request, user: User | None = None, page: int = 1) -> Reply:
        """A user's games in this server, or this channel's games, newest first, a page."""
        check_page(page)
        tr = request.tr
        public = not request.private_replies
        footnote: list[str] = []
        if user is not None:
            # a public reply lists this channel's games only: a game of another channel may
            # be a private channel's, which the asker may see but the channel may not
            games = await self._store.list_games(
                user_id=user.id, guild_id=request.guild_id,
                channel_id=request.channel_id if public else None, limit=PAGE_SIZE + 1,
                offset=(page - 1) * PAGE_SIZE,
                visible_to=None if public else (request.channel_id, request.user.id))
            title = tr("Games of {name}", name=user.name)
            if public:
                footnote.append(tr("Only this channel's games, as a reply here is public: "
                                   "`/twixt-records history` shows you the others."))
        else:
            games = await self._store.list_games(
                channel_id=request.channel_id, limit=PAGE_SIZE + 1, offset=(page - 1) * PAGE_SIZE)
            title = tr("Games in this channel")
        shown = games[:PAGE_SIZE]
        if not shown:
            none = (tr("{title}: none on this page.", title=title) if page > 1
                    else tr("{title}: none.", title=title))
            return Reply("\n".join([none, *footnote]), ephemeral=True)
        lines = [tr("**{title}** (page {page})", title=title, page=page)]
        lines += [_game_line(game, tr) for game in shown]
        if len(games) > PAGE_SIZE:
            lines.append(tr("More: history page {page}", page=page + 1))
        return Reply("\n".join([*lines, *footnote]), ephemeral=True)

    @cmd.handles(cmd.Replay)
    async def replay(self, request: Request, game_id: int | None = None) -> Reply:
        """An animated picture of a game, one frame per turn (the channel's last by default)."""
        stored, private = await self._desk.game_to_show(request, game_id,
                                                        "/twixt-records replay")
        # a cached game is never changed (a turn replaces it), so a worker thread may read it
        game = await self._desk.position(stored)
        if not game.history:
            raise ConflictError("that game has no turns to replay yet")
        if self._replays.locked():  # refused at once rather than queued behind the others
            raise BusyError(plural_message(
                "{n} replay is being drawn right now; ask again in a minute",
                "{n} replays are being drawn right now; ask again in a minute",
                MAX_REPLAYS_AT_ONCE))
        plan = rendering.plan_of(game)
        async with self._replays:
            data = await asyncio.to_thread(rendering.render_replay, game)
            if len(data) > MAX_UPLOAD and plan.width > rendering.NARROW_WIDTH:
                data = await asyncio.to_thread(rendering.render_replay, game,
                                               RenderOptions(width=rendering.NARROW_WIDTH))
        if len(data) > MAX_UPLOAD:
            raise LimitError("this game is too long for an animated replay; export it instead")
        tr = request.tr
        moves = tr.plural("{n} move", "{n} moves", game.moves_made)
        text = (tr("Replay of game {game}: {moves}, a frame every {step} turns.",
                   game=stored.id, moves=moves, step=plan.step) if plan.step > 1
                else tr("Replay of game {game}: {moves}.", game=stored.id, moves=moves))
        return Reply(text, attachments=(Attachment(f"twixt-{stored.id}.gif", data),),
                     ephemeral=private)

    @cmd.handles(cmd.ImportRecord)
    async def import_record(self, request: Request, filename: str, data: bytes | None,
                            opponent: User | None = None,
                            options: ChallengeOptions | None = None) -> Reply:
        """Show an attached record; if it is not over, challenge to continue it as a new game.

        The importer takes the record's first seat with `first me` (the default), the second
        with `first them`. Never against the bot: a record may be a game still in play. The
        imported turns are kept with the game, so its replay and records show the whole game; a
        continued game is not rated.
        """
        if opponent is not None and (opponent.id == THE_ENGINE_PLAYER.id
                                     or is_engine_seat(opponent.id)):
            # the record may be a game still being played against a person: the bot's answer
            # would be a hint in it, and the engine gives none while a game runs
            raise MalformedError("the bot does not continue imported records: challenge it to a "
                                 "new game")
        if data is None:
            raise MalformedError("attach the record: /twixt-records import with a file")
        if len(data) > MAX_IMPORT_BYTES:
            raise LimitError("that file is too big for a game record")
        fmt = records.guess_format(filename)
        text = records.decode(data, fmt)
        # counted as the reader splits the text (a carriage return ends a line too)
        if records.entries(text, fmt) > MAX_IMPORT_TURNS:
            raise LimitError("{file} has too many turns for a game record ({most} at most)",
                             file=quote(filename), most=MAX_IMPORT_TURNS)
        try:
            game = await asyncio.to_thread(records.read, text, fmt)
        except RecordError as error:
            raise MalformedError("{file}: {reason}", file=visible(filename),
                                 reason=error.message) from None
        tr = request.tr
        # the file's name as a label, cleaned like a player's name: it reaches a public message
        label = clean_name(filename, tr("the record"))
        # the record's names, like the file's, are anybody's text: cleaned before they show,
        # and none shows as the bot's
        where = (result_sentence(game.outcome, game, tr, person_name) if game.outcome
                 else to_move_sentence(game, tr, shown=person_name))
        summary = tr.plural("{label}: {size}, {rules}, {n} move — {where}",
                            "{label}: {size}, {rules}, {n} moves — {where}", game.moves_made,
                            label=label, size=game.options.size_text,
                            rules=rules_word(game.rules.value), where=where)
        image = await self._desk.render(game, locale=request.locale)
        if game.is_over or game.is_double:
            why = (tr("Nothing to continue: it is over.") if game.is_over
                   else tr("Nothing to continue: continuing Double TwixT records is not "
                           "supported."))
            return Reply(f"{summary}\n{why}", image=image)
        imported_turns = "\n".join(f"{turn.seat}: {turn.text}" for turn in game.history)
        opts = game.options
        setup = GameSetup(f"{opts.cols}x{opts.rows + opts.handicap}", opts.rules.value,
                          opts.swap, opts.handicap, _clock_of(filename, game), imported_turns)
        options = replace(options or ChallengeOptions(), setup=setup)
        challenge = await self._challenges.challenge(request, opponent, options)
        return Reply(f"{summary}\n{challenge.text}", image=image, mentions=challenge.mentions,
                     buttons=challenge.buttons)



def _clock_of(filename: str, game: Game) -> str | None:
    """The record's time control, held to the limits of the `time` option (or no clock)."""
    tag = game.tags.get("TimeControl")
    if tag is None or tag.strip().lower() in ("", "none", "no", "off", "-"):
        return None
    try:
        return parse_time_control(tag)
    except MalformedError as error:
        raise MalformedError("{file}: TimeControl: {reason}", file=visible(filename),
                             reason=error.message) from None


#: why a game ended, as a listing says it (a reason not here is shown as stored)
_REASONS = {Reason.CONNECTION.value: message("connection"),
            Reason.RESIGNATION.value: message("resignation"),
            Reason.TIME.value: message("time"),
            Reason.AGREEMENT.value: message("agreement"),
            Reason.BLOCKADE.value: message("blockade"),
            Reason.NO_MOVES.value: message("no moves")}


def _game_line(game: StoredGame, tr: Translation) -> str:
    teams = [" & ".join(s.name for s in game.seats if s.team == t) for t in (0, 1)]
    names = tr("{first} vs {second}", first=teams[0], second=teams[1])
    when = (game.finished_at or game.created_at).date().isoformat()
    reason = _REASONS.get(game.result.reason, game.result.reason) if game.result else ""
    if game.result is None:
        state = tr("in progress")
    elif game.result.result is Result.ABORTED:
        state = tr("aborted")
    elif game.result.result is Result.DRAW:
        state = tr("draw ({reason})", reason=reason)
    else:
        winners = " & ".join(s.name for s in game.seats if s.user_id in game.result.winners)
        state = tr("{winners} won ({reason})", winners=winners, reason=reason)
    return f"#{game.id} {names} — {state} · {tr.say(describe_setup(game.setup))} · {when}"
