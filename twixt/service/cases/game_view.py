"""A game's view: what a front end shows of a game to one person, and what that person may do.

The web page draws it, and any front end that shows a game may: the board (pegs, links, the
last turn), the seats, the clocks, whose turn it is, the result, the move list, the open
offers, and the controls open to this person now — those the commands declare
(`Listing.controls`: the buttons and commands Discord has for the position), each handed
back through `commands.of_control`.
With it comes the game's live version: it grows with every change anyone can see (a turn,
an offer made or answered, the end), and `Changes.next_version` waits for the next one.

A finished game can be looked at turn by turn (`step`): the view is then the position after
that many turns, worked out on a copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from twixt.language import LOCALES, Message, Translation, translation
from twixt.rules import (
    Colour,
    Game,
    Hole,
    Link,
    Outcome,
    Peg,
    Placement,
    RuleSet,
    Turn,
    TwixtError,
    parse_command,
)
from twixt.service.commands import router
from twixt.service.commands.controls import Offered, Situation
from twixt.service.commands.words import Vocabulary
from twixt.service.desk.desk import Desk
from twixt.service.desk.engine_seats import is_engine_seat, taken_back
from twixt.service.errors import MalformedError, MissingError, refused_by_rules
from twixt.service.model import Control, Request, User, made_whole, renewed
from twixt.service.pure.clock.texts import seat_lines
from twixt.storage import (
    GameStore,
    NotFoundError,
    OfferKind,
    SettingStore,
    StoredGame,
    UserPrefs,
)


@dataclass(frozen=True)
class SeatView:
    """A seat of the game: its player's name and colour; `user_id` is for the front end's
    own use (whose page this is), not to be shown."""

    number: int
    name: str
    colour: Colour
    user_id: int

    @property
    def is_engine(self) -> bool:
        """Whether the engine plays this seat."""
        return is_engine_seat(self.user_id)


@dataclass(frozen=True)
class GameView:
    """A game as one person sees it (`you`: their seat; None for an onlooker)."""

    game_id: int
    #: grows with every change anyone can see (`StoredGame.live_version`)
    live_version: int
    active: bool
    rules: RuleSet
    cols: int
    rows: int
    seats: tuple[SeatView, ...]
    you: int | None
    #: the seat to move, in the position shown (None: over, or an earlier turn shown)
    to_move: int | None
    pegs: tuple[Peg, ...]
    links: tuple[Link, ...]
    #: the last turn of the position shown
    last: Turn | None
    #: every turn of the game, in order
    history: tuple[Turn, ...]
    #: the time left of the player to move, and each seat's bank or vacation (clocked games)
    clock: Message | None
    seat_clocks: tuple[Message, ...]
    draw_offered_by: Colour | None
    #: the seat that asks to take its last turn back
    takeback_by: int | None
    #: the seat that may call Privilege now (Double TwixT: the player who has just moved)
    privilege_seat: int | None
    outcome: Outcome | None
    #: over with no result (called off)
    aborted: bool
    #: the turns shown (`turns`, unless an earlier position of a finished game is asked for)
    step: int
    turns: int
    #: what `you` may do now (done as `seat_request`'s person)
    controls: tuple[Control, ...]
    #: the winning chain of the position shown (empty until a side connects)
    chain_holes: frozenset[Hole] = frozenset()
    chain_links: frozenset[Link] = frozenset()
    #: the palette `you` chose for boards (`settings palette`: "normal" or "colour-blind")
    palette: str = "normal"

    def offers(self, name: str) -> bool:
        """Whether the control `name` is among the viewer's controls now."""
        return any(control.name == name for control in self.controls)


#: the seats' requests a service keeps (all forgotten when full)
SEAT_REQUESTS = 4096


class GameViewsStorage(GameStore, SettingStore, Protocol):
    """The games, and the viewer's settings (their palette)."""


class GameViews:
    """Views of games, for whoever looks."""

    def __init__(self, desk: Desk, store: GameViewsStorage) -> None:
        self._desk = desk
        self._store = store
        #: the seats' requests made lately (`seat_request`), by game, seat, language and
        #: whether the game is in progress: all a request holds of a game but that never
        #: changes once the game is made
        self._requests: dict[tuple[int, int, str, bool], Request] = {}

    async def view(self, game_id: int, *, user_id: int | None = None, seat: int | None = None,
                   locale: str = "en", step: int | None = None) -> GameView:
        """Game `game_id` as the person in `seat` (a link names a seat) or user `user_id`
        sees it (neither, or not seated: an onlooker), labels in `locale`; at `step` turns
        for a finished game. ServiceError when there is no such game or seat."""
        stored = await self._stored(game_id, seat)
        if seat is None and user_id is not None:
            found = stored.seat_of(user_id)
            seat = None if found is None else found.number
        return (await self._views(stored, [(seat, locale)], step))[0]

    async def views(self, game_id: int, seen_by: Sequence[tuple[int | None, str]],
                    live_version: int | None = None) -> list[GameView]:
        """Game `game_id` now as each (seat, locale) of `seen_by` sees it (None: an
        onlooker), from one reading of the game: what its live pages are told after a
        change, each page its own controls. At `live_version` (the version the pages were
        told of), a game this process has just stored a turn of is not read again: it is as
        the turn left it, and no offer can be open at a version made after the offers were
        (`Desk.written`). ServiceError when there is no such game or one of the seats is
        none of its."""
        written = None if live_version is None else self._desk.written(game_id, live_version)
        stored = written or await self._stored(game_id, None)
        if any(seat is not None and not 0 <= seat < len(stored.seats) for seat, _ in seen_by):
            raise MissingError("there is no such game")
        prefs = ({} if written is None or live_version is None
                 else self._desk.written_prefs(game_id, live_version))
        return await self._views(stored, seen_by, None, read_offers=written is None,
                                 prefs=prefs)

    async def _views(self, stored: StoredGame, seen_by: Sequence[tuple[int | None, str]],
                     step: int | None, *, read_offers: bool = True,
                     prefs: Mapping[int, UserPrefs] | None = None) -> list[GameView]:
        """The game as each (seat, locale) sees it: all but the seat's controls and
        palette is the same. Only a takeback asked at the stored version is shown, so a
        version just written (`read_offers` False) has none to read; `prefs` holds the
        players' preferences the turn that wrote it read (`Desk.written_prefs`)."""
        desk = self._desk
        live = await desk.live(stored)
        game = live.game
        turn_clock = await desk.turn_clock(stored, live) if stored.is_active else None
        offers = (await self._store.open_offers(stored.id) if stored.is_active and read_offers
                  else ())
        takeback = next((offer for offer in offers if offer.kind is OfferKind.TAKEBACK
                         and offer.at_version == stored.version), None)
        asker = None if takeback is None else stored.seat_of(takeback.user_id)
        takeback_by = None if asker is None else asker.number
        history = game.history  # a new tuple each time it is asked for: asked once
        shown, step = _at_step(stored, game, len(history), step)
        current = step == len(history)
        chain_holes, chain_links = shown.winning_chain()
        time_up = turn_clock is not None and not turn_clock.left_at(desk.clock())
        common = made_whole(
            GameView, game_id=stored.id, live_version=stored.live_version,
            active=stored.is_active, rules=game.rules, cols=game.geometry.cols,
            rows=game.geometry.rows,
            seats=tuple(SeatView(s.number, s.name, game.colour_of_seat(s.number), s.user_id)
                        for s in stored.seats),
            you=None,
            to_move=shown.seat_to_move if stored.is_active and current else None,
            pegs=tuple(shown.pegs()), links=tuple(shown.links()), last=shown.last_turn,
            history=history,
            clock=desk.clock_words(stored, game, turn_clock),
            seat_clocks=(() if turn_clock is None
                         else tuple(seat_lines(stored, turn_clock, desk.clock()))),
            draw_offered_by=game.draw_offered_by if stored.is_active else None,
            takeback_by=takeback_by,
            privilege_seat=_privilege_seat(game) if stored.is_active else None,
            outcome=game.outcome, aborted=not stored.is_active and game.outcome is None,
            chain_holes=frozenset(chain_holes), chain_links=frozenset(chain_links),
            step=step, turns=len(history), controls=(), palette="normal")
        palettes = await self._palettes(stored, {seat for seat, _ in seen_by}, prefs or {})
        return [_seen_by(common, seat, palettes[seat],
                         _controls(stored, game, history, seat, takeback_by,
                                   translation(locale), time_up=time_up))
                for seat, locale in seen_by]

    async def _palettes(self, stored: StoredGame, seats: set[int | None],
                        read: Mapping[int, UserPrefs]) -> dict[int | None, str]:
        """The palette each player in `seats` chose for boards (read at once for them all,
        unless the turn just written read them all as it was prepared: `read`; an
        onlooker: the normal one)."""
        players = {seat: stored.seats[seat].user_id for seat in seats if seat is not None}
        prefs = read
        if any(user_id not in read for user_id in players.values()):
            prefs = await self._store.users_prefs(list(players.values()))
        return {None: "normal",
                **{seat: prefs[user_id].palette for seat, user_id in players.items()}}

    async def peg_links(self, game_id: int, seat: int, hole_text: str
                        ) -> tuple[tuple[Hole, Hole], ...]:
        """The links a peg placed by `seat` at `hole_text` would make now, each from the new
        peg: in pp all of them (they are added by themselves), in classic the ones the
        player may choose. ServiceError says why the hole cannot take the peg."""
        stored = await self._stored(game_id, seat)
        game = await self._desk.position(stored)
        try:
            command = parse_command(hole_text)
            if not isinstance(command.placement, Placement) or command.placement.links:
                raise MalformedError("choose one hole")
            hole = command.placement.hole
            trial = game.copy()
            turn = trial.push(command, by=game.players[seat])
        except TwixtError as error:
            raise refused_by_rules(error) from None
        links = turn.links_added if trial.rules is RuleSet.PP else trial.legal_links(hole)
        return tuple((hole, next(iter(link.ends - {hole}))) for link in links)


    async def seat_request(self, game_id: int, seat: int, locale: str = "en") -> Request:
        """The request of the person in `seat` of game `game_id`, made in the game's home
        (what acting in a game a link names needs, without its view), with the live version
        its home was read at (`Request.home_at`: the turn it asks for at once is checked
        against it, not read again). A game this process last wrote, unchanged since, is
        not read again (`Desk.current_written`): every move from a page asks this first."""
        stored = await self._desk.current_written(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            stored = await self._stored(game_id, seat)
        key = (stored.id, seat, locale, stored.is_active)
        request = self._requests.get(key)
        if request is None:
            person = stored.seats[seat]
            request = Request(stored.guild_id, stored.channel_id,
                              User(person.user_id, person.name), locale=locale,
                              home_of=stored.id if stored.is_active else None)
            if len(self._requests) >= SEAT_REQUESTS:
                self._requests.clear()
            self._requests[key] = request
        return renewed(request, home_at=stored.live_version) if stored.is_active else request

    async def _stored(self, game_id: int, seat: int | None) -> StoredGame:
        """Game `game_id`, and `seat` one of its seats (when given); ServiceError else."""
        try:
            stored = await self._store.get_game(game_id)
        except NotFoundError:
            raise MissingError("there is no such game") from None
        if seat is not None and not 0 <= seat < len(stored.seats):
            raise MissingError("there is no such game")
        return stored


def _at_step(stored: StoredGame, game: Game, turns: int, step: int | None
             ) -> tuple[Game, int]:
    """The position after `step` turns of a finished game (a copy), or the game as it
    stands (`turns` turns)."""
    if step is None or stored.is_active or not 0 <= step < turns:
        return game, turns
    shown = game.copy()
    for _ in range(turns - step):
        shown.undo()
    return shown, step


def _privilege_seat(game: Game) -> int | None:
    if not game.is_double:
        return None
    return next((seat for seat, name in enumerate(game.players)
                 if game.can_call_privilege(name)), None)


def _seen_by(common: GameView, you: int | None, palette: str,
             controls: tuple[Control, ...]) -> GameView:
    """`common` as the person in seat `you` sees it (a change makes a view for each seat and
    language among the game's live pages)."""
    return renewed(common, you=you, palette=palette, controls=controls)


def _controls(stored: StoredGame, game: Game, history: Sequence[Turn], seat: int | None,
              takeback_by: int | None, tr: Translation, *, time_up: bool
              ) -> tuple[Control, ...]:
    """What the player in `seat` may do now: the controls the commands declare
    (`Listing.controls`, `router.VOCABULARY.controls`) that are open to them in this
    position, in the order declared (an onlooker: nothing); `history` is the game's."""
    if seat is None:
        return ()
    situation = Situation(
        game=game, seat=seat, playing=stored.is_active and not game.is_over,
        teams=tuple(s.team for s in stored.seats), takeback_by=takeback_by,
        may_take_back=bool(taken_back(stored, history, seat)), time_up=time_up)
    return tuple(control for offered, control in _said_controls(router.VOCABULARY, tr.locale)
                 if offered.open(situation))


@lru_cache(maxsize=2 * len(LOCALES))
def _said_controls(vocabulary: Vocabulary, locale: str) -> tuple[tuple[Offered, Control], ...]:
    """Every control `vocabulary` declares with its `Control` in `locale`, in the order
    declared: a label is the same in every view, so it is said once a language, not once a
    view."""
    tr = translation(locale)
    return tuple((offered, Control(offered.name, tr.say(offered.label), offered.takes_text,
                                   offered.example))
                 for offered in vocabulary.controls.values())
