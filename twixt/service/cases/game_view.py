"""A game's view: what a front end shows of a game to one person, and what that person may do.

The web page draws it, and any front end that shows a game may: the board (pegs, links, the
last turn), the seats, the clocks, whose turn it is, the result, the move list, the open
offers, and the controls open to this person now — the buttons and commands Discord has for
the position, as one list (`ControlKind`), each handed back through `commands.of_control`.
With it comes the game's live version: it grows with every change anyone can see (a turn,
an offer made or answered, the end), and `Changes.next_version` waits for the next one.

A finished game can be looked at turn by turn (`step`): the view is then the position after
that many turns, worked out on a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from twixt.language import Message, Translation, message, translation
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
from twixt.service.desk.desk import Desk
from twixt.service.desk.engine_seats import is_engine_seat, taken_back
from twixt.service.errors import MalformedError, MissingError, refused_by_rules
from twixt.service.model import Control, ControlKind, Request, User
from twixt.service.pure.clock.texts import seat_lines
from twixt.storage import GameStore, NotFoundError, Offer, OfferKind, StoredGame


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

    def offers(self, kind: ControlKind) -> bool:
        """Whether `kind` is among the viewer's controls now."""
        return any(control.kind is kind for control in self.controls)


class GameViews:
    """Views of games, for whoever looks."""

    def __init__(self, desk: Desk, store: GameStore) -> None:
        self._desk = desk
        self._store = store

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

    async def views(self, game_id: int, seen_by: Sequence[tuple[int | None, str]]
                    ) -> list[GameView]:
        """Game `game_id` now as each (seat, locale) of `seen_by` sees it (None: an
        onlooker), from one reading of the game: what its live pages are told after a
        change, each page its own controls. ServiceError when there is no such game or one
        of the seats is none of its."""
        stored = await self._stored(game_id, None)
        if any(seat is not None and not 0 <= seat < len(stored.seats) for seat, _ in seen_by):
            raise MissingError("there is no such game")
        return await self._views(stored, seen_by, None)

    async def _views(self, stored: StoredGame, seen_by: Sequence[tuple[int | None, str]],
                     step: int | None) -> list[GameView]:
        """The game as each (seat, locale) sees it: all but the controls is the same."""
        desk = self._desk
        live = await desk.live(stored)
        game = live.game
        turn_clock = await desk.turn_clock(stored, live) if stored.is_active else None
        offers = await self._store.open_offers(stored.id) if stored.is_active else ()
        takeback = next((offer for offer in offers if offer.kind is OfferKind.TAKEBACK
                         and offer.at_version == stored.version), None)
        asker = None if takeback is None else stored.seat_of(takeback.user_id)
        shown, step = _at_step(stored, game, step)
        current = step == len(game.history)
        common = GameView(
            game_id=stored.id, live_version=stored.live_version, active=stored.is_active,
            rules=game.rules, cols=game.geometry.cols, rows=game.geometry.rows,
            seats=tuple(SeatView(s.number, s.name, game.colour_of_seat(s.number), s.user_id)
                        for s in stored.seats),
            you=None,
            to_move=shown.seat_to_move if stored.is_active and current else None,
            pegs=tuple(shown.pegs()), links=tuple(shown.links()), last=shown.last_turn,
            history=tuple(game.history),
            clock=desk.clock_words(stored, game, turn_clock),
            seat_clocks=(() if turn_clock is None
                         else tuple(seat_lines(stored, turn_clock, desk.clock()))),
            draw_offered_by=game.draw_offered_by if stored.is_active else None,
            takeback_by=None if asker is None else asker.number,
            privilege_seat=_privilege_seat(game) if stored.is_active else None,
            outcome=game.outcome, aborted=not stored.is_active and game.outcome is None,
            step=step, turns=len(game.history), controls=())
        return [replace(common, you=seat,
                        controls=_controls(stored, game, seat, takeback, translation(locale)))
                for seat, locale in seen_by]

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
        (what acting in a game a link names needs, without its view)."""
        stored = await self._stored(game_id, seat)
        person = stored.seats[seat]
        return Request(stored.guild_id, stored.channel_id, User(person.user_id, person.name),
                       locale=locale)

    async def _stored(self, game_id: int, seat: int | None) -> StoredGame:
        """Game `game_id`, and `seat` one of its seats (when given); ServiceError else."""
        try:
            stored = await self._store.get_game(game_id)
        except NotFoundError:
            raise MissingError("there is no such game") from None
        if seat is not None and not 0 <= seat < len(stored.seats):
            raise MissingError("there is no such game")
        return stored


def _at_step(stored: StoredGame, game: Game, step: int | None) -> tuple[Game, int]:
    """The position after `step` turns of a finished game (a copy), or the game as it
    stands."""
    turns = len(game.history)
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


def _controls(stored: StoredGame, game: Game, seat: int | None, takeback: Offer | None,
              tr: Translation) -> tuple[Control, ...]:
    """What the player in `seat` may do now: what Discord's buttons and commands offer them
    for this position (an onlooker: nothing; a finished game: their notes)."""
    if seat is None:
        return ()
    kinds: list[ControlKind] = []
    if stored.is_active and not game.is_over:
        kinds += _in_play(stored, game, seat, takeback)
    kinds += [ControlKind.NOTE, ControlKind.NOTES]
    return tuple(Control(kind, tr.say(_LABELS[kind])) for kind in kinds)


def _in_play(stored: StoredGame, game: Game, seat: int,
             takeback: Offer | None) -> list[ControlKind]:
    colour, team = game.colour_of_seat(seat), stored.seats[seat].team
    to_move = game.seat_to_move
    kinds: list[ControlKind] = []
    if to_move == seat:
        kinds.append(ControlKind.MOVE)
        if game.draw_offered_by is None:
            kinds.append(ControlKind.MOVE_OFFERING_DRAW)
        if game.rules is RuleSet.CLASSIC and any(peg.colour is colour for peg in game.pegs()):
            kinds.append(ControlKind.REMOVE)
        if game.can_swap():
            kinds.append(ControlKind.SWAP)
    if game.is_double and game.can_call_privilege(game.players[seat]):
        kinds.append(ControlKind.PRIVILEGE)
    if game.draw_offered_by is None:
        kinds.append(ControlKind.OFFER_DRAW)
    elif game.draw_offered_by is not colour:
        kinds += [ControlKind.ACCEPT_DRAW, ControlKind.DECLINE_DRAW]
    asker = None if takeback is None else stored.seat_of(takeback.user_id)
    if asker is not None:
        if asker.team != team:
            kinds += [ControlKind.ACCEPT_TAKEBACK, ControlKind.DECLINE_TAKEBACK]
    elif taken_back(stored, game, seat):
        kinds.append(ControlKind.ASK_TAKEBACK)
    if to_move is not None and stored.seats[to_move].team != team and not game.is_double:
        kinds.append(ControlKind.CONDITIONAL)
    kinds.append(ControlKind.RESIGN)
    return kinds


#: the controls' labels (Discord's buttons say the same where it has them)
_LABELS: dict[ControlKind, Message] = {
    ControlKind.MOVE: message("Place"),
    ControlKind.MOVE_OFFERING_DRAW: message("Place and offer draw"),
    ControlKind.REMOVE: message("Remove"),
    ControlKind.SWAP: message("Swap"),
    ControlKind.PRIVILEGE: message("Privilege"),
    ControlKind.OFFER_DRAW: message("Offer draw"),
    ControlKind.ACCEPT_DRAW: message("Accept draw"),
    ControlKind.DECLINE_DRAW: message("Decline draw"),
    ControlKind.RESIGN: message("Resign"),
    ControlKind.ASK_TAKEBACK: message("Ask to take back"),
    ControlKind.ACCEPT_TAKEBACK: message("Accept takeback"),
    ControlKind.DECLINE_TAKEBACK: message("Decline takeback"),
    ControlKind.CONDITIONAL: message("Conditional moves"),
    ControlKind.NOTE: message("Keep a note"),
    ControlKind.NOTES: message("Your notes"),
}
