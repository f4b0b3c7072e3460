"""`analyze [game]`: a finished game's win-probability curve and its biggest swings, as the
engine sees them; and the words and picture `twixt analyze` shares with it.

The engine never helps a player during a game: a game still being played is refused, and so
is a finished game that holds every peg of a game in play on the server (of `PROTECTED_PEGS`
or more; in any order, mirrored or turned): one imported from it, or replayed by hand, and
played on to an end. The
search runs in the engine's process pool (`ServiceCore.engine_pool`): a full pool is one line
("busy, try again later"), and each user has at most one analysis under way. One that runs
longer than `PROGRESS_AFTER` tells the asker how far it has come (move n of N) through the
front end's `Port.progress`, at most once every `PROGRESS_EVERY`. A finished game
never changes, so its analysis is kept (the last `CACHED` games, in memory: a restart only
costs a new search), and drawn in the asker's language each time.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING

from twixt import rendering
from twixt.engine.worker import analyze_record
from twixt.language import Markup, Translation, verbatim
from twixt.rules import Colour, Game, records
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk
from twixt.service.desk.engine_pool import EngineBusyError, player_owner
from twixt.service.errors import BusyError, ConflictError, LimitError
from twixt.service.model import Attachment, Reply, Request
from twixt.service.texts import result_sentence
from twixt.storage import GameStatus, GameStore

if TYPE_CHECKING:  # the engine loads numpy: imported when an analysis runs
    from twixt.engine.analysis import GameAnalysis

#: analysed games kept, newest first
CACHED = 32
#: an analysis running this long (seconds) begins to tell the asker how far it has come
PROGRESS_AFTER = 2.0
#: and then tells them at most this often (seconds): each time is an edit of a message
PROGRESS_EVERY = 1.5


def curve_of(analysis: GameAnalysis, game: Game, tr: Translation) -> rendering.WinCurve:
    """The picture's data: Red's chance by move, the swings, each colour's players and how
    the game ended."""
    swings = tuple(rendering.CurveSwing(s.number, s.last, tr.say(s.colour.said), s.played, s.best,
                              analysis.red_before(s.number), s.red,
                              s.red if s.red_best is None else s.red_best)
                   for s in map(analysis.move, analysis.swings))
    red, black = (" & ".join(game.players_of(colour)) for colour in (Colour.RED, Colour.BLACK))
    result = result_sentence(game.outcome, game, tr) if game.outcome else ""
    points = ((0, analysis.start), *((r.last, r.red) for r in analysis.moves))
    return rendering.WinCurve(points, swings, red, black, result, tr.locale)


def swing_lines(analysis: GameAnalysis, tr: Translation, code: str = "") -> list[str]:
    """A line a swing, biggest first: `1. move 12, Black F3: Red 80% → 20% (engine: G5, Red
    80%)`;
    the moves between `code` marks (a backtick, where the text is markdown)."""
    lines = []
    for number, swing in enumerate(map(analysis.move, analysis.swings), start=1):
        line = tr("{n}. move {turn}, {colour} {move}: Red {before}% → {after}%", n=number,
                  turn=swing.number, colour=swing.colour.said,
                  move=Markup(f"{code}{verbatim(swing.played)}{code}"),
                  before=round(analysis.red_before(swing.number) * 100),
                  after=round(swing.red * 100))
        if swing.red_best is not None:
            line = tr("{line} (engine: {move}, Red {chance}%)", line=line,
                      move=Markup(f"{code}{verbatim(swing.best)}{code}"),
                      chance=round(swing.red_best * 100))
        lines.append(line)
    if not analysis.swings:
        lines.append(tr("No move changed Red's chance much."))
    if analysis.step > 1:
        lines.append(tr("A long game: one position in {step} was analysed.",
                        step=analysis.step))
    return lines


#: games in play read at once when an analysis looks for one it would give advice in
LIVE_PAGE = 100

#: the fewest pegs of a game in play whose position is kept from the engine: below this an
#: opening move or two, shared by many games, would hold up every analysis that began alike,
#: for what is no more than a book opening's advice
PROTECTED_PEGS = 4

#: a peg as the check for games in play compares it: colour, column, row
PegSpot = tuple[Colour, int, int]


def pegs_of(game: Game) -> frozenset[PegSpot]:
    """The pegs on the board now."""
    return frozenset((peg.colour, peg.hole.col, peg.hole.row) for peg in game.pegs())


def pegs_ever(game: Game) -> frozenset[PegSpot]:
    """Every peg the game ever had on its board, in any of its positions (a removal, a
    takeback or a swap does not hide one): a superset of each position's pegs."""
    placed = {(turn.colour, turn.placed.col, turn.placed.row)
              for turn in game.history if turn.placed is not None}
    return frozenset(placed) | pegs_of(game)


def passes_through(played: frozenset[PegSpot], live: frozenset[PegSpot],
                   size: tuple[int, int]) -> bool:
    """Whether a game whose pegs were ever `played` may have passed through the position of
    `live` (or one after it), on a board of `size`: in any move order, and mirrored or turned
    as the board allows (on a square board also transposed, the colours exchanged). A game
    in play of fewer than `PROTECTED_PEGS` pegs is in its opening, not kept from the engine."""
    if len(live) < PROTECTED_PEGS:
        return False
    cols, rows = size
    flips = [(flip_cols, flip_rows) for flip_cols in (False, True) for flip_rows in (False, True)]
    for transpose in (False, True) if cols == rows else (False,):
        for flip_cols, flip_rows in flips:
            if all(_seen(spot, cols, rows, flip_cols, flip_rows, transpose) in played
                   for spot in live):
                return True
    return False


def _seen(spot: PegSpot, cols: int, rows: int, flip_cols: bool, flip_rows: bool,
          transpose: bool) -> PegSpot:
    colour, col, row = spot
    col, row = (cols - 1 - col if flip_cols else col), (rows - 1 - row if flip_rows else row)
    return (colour.opponent, row, col) if transpose else (colour, col, row)


class Analyses:
    """`analyze [game]` over the service's desk."""

    def __init__(self, desk: Desk, store: GameStore) -> None:
        self._desk = desk
        self._store = store
        self._done: OrderedDict[int, GameAnalysis] = OrderedDict()
        #: users whose analysis is under way
        self._asking: set[int] = set()

    @cmd.handles(cmd.Analyze)
    async def analyze(self, request: Request, game_id: int | None = None) -> Reply:
        """The curve of a finished game (the channel's last by default) and its swings:
        public in the game's channel, for the asker alone elsewhere (a game of a private
        channel stays there)."""
        stored, private = await self._desk.game_to_show(request, game_id,
                                                        "/twixt-records analyze")
        if stored.is_active:
            raise ConflictError("game {game} is still being played: the engine looks at a game "
                                "only once it is over", game=stored.id)
        game = await self._desk.position(stored)
        await self._refuse_a_game_in_play(request.guild_id, stored.id, game)
        # the game's channel sees the bot at work; one asking elsewhere, privately, is
        # answered privately and shows nothing to others
        analysis = await self._analysis(request, stored.id, game,
                                        None if private else stored.channel_id)
        tr = request.tr
        image = await asyncio.to_thread(rendering.render_wincurve, curve_of(analysis, game, tr))
        head = tr.plural("Game {game}, {n} move: the biggest swings of Red's chance, as the "
                         "engine sees them.",
                         "Game {game}, {n} moves: the biggest swings of Red's chance, as the "
                         "engine sees them.", game.moves_made, game=stored.id)
        result = [result_sentence(game.outcome, game, tr)] if game.outcome else []
        text = "\n".join([head, *swing_lines(analysis, tr, "`"), *result])
        return Reply(text, attachments=(Attachment(f"twixt-{stored.id}-analysis.png", image),),
                     ephemeral=private)

    async def _refuse_a_game_in_play(self, guild_id: int, game_id: int, game: Game) -> None:
        """Refuse a finished game that holds every peg of a game still in play on the server:
        replayed or imported from it and played on, its analysis would be the engine's advice
        in that game. Checked at each asking (a kept analysis too), over every game in play
        here, a page at a time."""
        played = pegs_ever(game)
        size = (game.options.cols, game.options.rows)
        before: int | None = None
        while True:
            page = await self._store.list_games(
                guild_id=guild_id, status=GameStatus.ACTIVE, limit=LIVE_PAGE, before_id=before)
            for stored in page:
                live = await self._desk.position(stored)
                if (live.options.cols, live.options.rows) == size and passes_through(
                        played, pegs_of(live), size):
                    raise ConflictError("game {game} passes through the position of a game "
                                        "still in play on this server: the engine looks at it "
                                        "once that game is over", game=game_id)
            if len(page) < LIVE_PAGE:
                return
            before = page[-1].id

    async def _analysis(self, request: Request, game_id: int, game: Game,
                        shown_in: int | None) -> GameAnalysis:
        """The game's analysis: kept from before, or searched in the engine's pool (the
        channel `shown_in`, if any, shown that the bot is thinking meanwhile)."""
        done = self._done.get(game_id)
        if done is not None:
            self._done.move_to_end(game_id)
            return done
        user = request.user.id
        if user in self._asking:
            raise LimitError("your last analysis is still running: wait for it, then ask "
                             "again")
        self._asking.add(user)
        told = _Telling(functools.partial(self._desk.port.progress, request))
        try:
            record = records.write(game)
            # the asker's share of the engine, the same as for their games with the bot
            async with (nullcontext() if shown_in is None else self._desk.port.thinking(shown_in)):
                analysis = await self._desk.engine_pool.run(player_owner(user), analyze_record,
                                                            record, progress=told.hear)
            await told.finished()
        except EngineBusyError:
            raise BusyError("the engine is busy, try again later") from None
        finally:
            told.stop()
            self._asking.discard(user)
        self._done[game_id] = analysis
        while len(self._done) > CACHED:
            self._done.popitem(last=False)
        return analysis


class _Telling:
    """Tells the asker (`tell`: the port's progress for their request) how far their analysis
    has come: the moves done as the engine's pool hears them, from `PROGRESS_AFTER` on, at
    most once every `PROGRESS_EVERY` and one telling at a time (each is an edit of a message
    far away; one that would overlap the last is left out). A telling runs in the context of
    the request it is for (the front end finds its answer there), not in that of the pool's
    reader."""

    def __init__(self, tell: Callable[[int, int], Awaitable[object]]) -> None:
        self._tell = tell
        self._context = contextvars.copy_context()
        self._started = time.monotonic()
        self._last = -math.inf
        self._telling: asyncio.Task[object] | None = None

    def hear(self, done: int, total: int) -> None:
        now = time.monotonic()
        if (now - self._started < PROGRESS_AFTER or now - self._last < PROGRESS_EVERY
                or (self._telling is not None and not self._telling.done())):
            return
        self._last = now
        self._telling = asyncio.get_running_loop().create_task(self._say(done, total),
                                                               context=self._context)

    async def _say(self, done: int, total: int) -> None:
        await self._tell(done, total)

    async def finished(self) -> None:
        """The analysis is done: the telling under way ends before the answer is sent."""
        if self._telling is not None:
            await asyncio.gather(self._telling, return_exceptions=True)

    def stop(self) -> None:
        """Whatever happened, nothing is told any more."""
        if self._telling is not None:
            self._telling.cancel()
