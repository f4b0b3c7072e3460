"""A game of TwixT or Double TwixT: options, seats, turn order, and commands applied to it.

In the spirit of python-chess's `Board`: `play()` a player's text (or `push()` a parsed
`Command`), ask `player_to_move`, `outcome`, `legal_placements()`, `undo()` the last turn, `copy()`.
An illegal command raises `IllegalMoveError` and leaves the game exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from rules.errors import IllegalMoveError, TwixtError
from rules.geometry import Geometry, geometry, parse_size
from rules.model import Colour, Hole, Link, Outcome, Peg, Reason, RuleSet
from rules.notation import Action, Command, LinkTarget, Placement, parse_command
from rules.position import Position


@dataclass(frozen=True)
class GameOptions:
    """What a game is played with; `rows` is already reduced by the handicap."""

    players: tuple[str, ...] = ("Red", "Black")
    cols: int = 24
    rows: int = 24
    rules: RuleSet = RuleSet.CLASSIC
    swap: bool = True
    handicap: int = 0

    @property
    def size_text(self) -> str:
        return f"{self.cols}x{self.rows}"


class _Changes:
    """The board changes of one turn in the order made, so that they can be taken back.

    Steps: ("peg+", hole, colour, seat), ("peg-", hole, colour, seat), ("link+", id, colour),
    ("link-", id, colour).
    """

    __slots__ = ("placed", "steps")

    def __init__(self) -> None:
        self.placed: int | None = None
        self.steps: list[tuple] = []

    def of_kind(self, kind: str) -> list[tuple]:
        return [step for step in self.steps if step[0] == kind]


class Turn:
    """One applied command: who, what (canonical text), and what it changed on the board.

    A turn is made for every peg of every playout, so its friendly views (holes, links, the
    canonical text) are worked out only when first asked for.
    """

    def __init__(self, seat: int, player: str, colour: Colour, command: Command,
                 geo: Geometry, changes: _Changes) -> None:
        self.seat = seat
        self.player = player
        self.colour = colour
        self.command = command
        self._geo = geo
        self._changes = changes

    def __repr__(self) -> str:
        return f"Turn({self.player}: {self.text})"

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.command.actions

    @cached_property
    def placed(self) -> Hole | None:
        placed = self._changes.placed
        return None if placed is None else self._geo.hole(placed)

    @cached_property
    def links_added(self) -> tuple[Link, ...]:
        return tuple(_link(self._geo, lid, c) for _k, lid, c in self._changes.of_kind("link+"))

    @cached_property
    def links_removed(self) -> tuple[Link, ...]:
        return tuple(_link(self._geo, lid, c) for _k, lid, c in self._changes.of_kind("link-"))

    @cached_property
    def pegs_removed(self) -> tuple[Peg, ...]:
        return tuple(Peg(self._geo.hole(idx), colour, seat)
                     for _k, idx, colour, seat in self._changes.of_kind("peg-"))

    @cached_property
    def text(self) -> str:
        """The command in canonical notation, every link made written out (the automatic
        ones of pp and `link all` included), so that replaying the text needs no defaults."""
        command, placed = self.command, self.placed
        if placed is None:
            return str(command)
        targets = tuple(_target_from(link, placed) for link in self.links_added)
        return str(Command(command.removals, Placement(placed, targets), command.actions))


def _link(geo: Geometry, lid: int, colour: Colour) -> Link:
    a, b = geo.link_ends[lid]  # type: ignore[misc]
    return Link(geo.holes[a], geo.holes[b], colour)


class _State(NamedTuple):
    """Everything besides the board that a turn may change; restored wholesale by undo."""

    next_seat: int = 0
    privilege_window: int | None = None   # seat that has just moved and may call privilege
    swapped: bool = False
    privilege_used: tuple[bool, bool] = (False, False)
    draw_offer_team: int | None = None
    outcome: Outcome | None = None
    pegs_placed: int = 0
    moves_made: int = 0


#: colour of even and odd seats, before and after a swap
_SEAT_COLOURS = {False: (Colour.RED, Colour.BLACK), True: (Colour.BLACK, Colour.RED)}


def _check_names(players: tuple[str, ...]) -> None:
    if len(players) not in (2, 4):
        raise TwixtError("a game has two players, or four for Double TwixT")
    for name in players:
        if not name.strip() or any(ch in name for ch in ":,#\n"):
            raise TwixtError(f"“{name}” cannot be a player name (no : , # or empty names)")
    if len({name.casefold() for name in players}) != len(players):
        raise TwixtError("every player needs a different name")


def _target_from(link: Link, placed: Hole) -> LinkTarget:
    """How a link is written after the new peg: its other end, or both ends of an older pair."""
    if placed in link.ends:
        return link.b if link.a == placed else link.a
    return (link.a, link.b)


class Game:
    """A game in progress or finished. Seats: 0 Red, 1 Black, 2 Red, 3 Black (before a swap)."""

    def __init__(self, players: tuple[str, ...] | list[str] = ("Red", "Black"),
                 size: str | int | tuple[int, int] = 24, rules: RuleSet | str = RuleSet.CLASSIC,
                 swap: bool | None = None, handicap: int = 0) -> None:
        players = tuple(name.strip() for name in players)
        _check_names(players)
        if isinstance(size, tuple):
            cols, rows = size
        else:
            cols, rows = parse_size(str(size))
        if handicap < 0 or rows - handicap < 5:
            raise TwixtError(f"a handicap of {handicap} rows does not fit a board of {rows} rows")
        if handicap and swap:
            raise TwixtError("swap is off in a handicap game")
        try:
            rule_set = RuleSet(rules.lower() if isinstance(rules, str) else rules)
        except ValueError:
            raise TwixtError(f"“{rules}” is not a rule set: choose classic or pp") from None
        self.options = GameOptions(players, cols, rows - handicap, rule_set,
                                   bool(swap if swap is not None else not handicap), handicap)
        self.geometry: Geometry = geometry(cols, rows - handicap)
        self.position = Position(self.geometry)
        self._state = _State()
        self._history: list[tuple[Turn, _State]] = []
        #: extra record tags (e.g. TimeControl) carried through import and export
        self.tags: dict[str, str] = {}

    # --- who and what ------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.options.players

    @property
    def rules(self) -> RuleSet:
        return self.options.rules

    @property
    def is_double(self) -> bool:
        return len(self.players) == 4

    def colour_of_seat(self, seat: int) -> Colour:
        """The colour a seat plays now (a swap exchanges them)."""
        return _SEAT_COLOURS[self._state.swapped][seat % 2]

    def seat_of(self, player: str) -> int:
        """The seat of a player by name (case-insensitive)."""
        for seat, name in enumerate(self.players):
            if name.casefold() == player.strip().casefold():
                return seat
        raise IllegalMoveError(f"{player} is not playing in this game")

    def players_of(self, colour: Colour) -> tuple[str, ...]:
        return tuple(n for s, n in enumerate(self.players) if self.colour_of_seat(s) is colour)

    @property
    def seat_to_move(self) -> int | None:
        return None if self._state.outcome else self._state.next_seat

    @property
    def player_to_move(self) -> str | None:
        """The name of the player to move, or None when the game is over."""
        seat = self.seat_to_move
        return None if seat is None else self.players[seat]

    @property
    def colour_to_move(self) -> Colour:
        """The colour to move (or that would move, once the game is over)."""
        return self.colour_of_seat(self._state.next_seat)

    @property
    def outcome(self) -> Outcome | None:
        return self._state.outcome

    @property
    def is_over(self) -> bool:
        return self._state.outcome is not None

    @property
    def swapped(self) -> bool:
        return self._state.swapped

    @property
    def pegs_placed(self) -> int:
        """How many pegs have been placed (the replay JSON's `turns`)."""
        return self._state.pegs_placed

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(turn for turn, _before in self._history)

    @property
    def last_turn(self) -> Turn | None:
        return self._history[-1][0] if self._history else None

    @property
    def draw_offered_by(self) -> Colour | None:
        """The side with an open draw offer, if any."""
        team = self._state.draw_offer_team
        return None if team is None else self.colour_of_seat(team)

    def privilege_available(self, colour: Colour) -> bool:
        """Whether the team playing `colour` may still call its privilege (Double TwixT)."""
        team = 0 if self.colour_of_seat(0) is colour else 1
        return self.is_double and not self._state.privilege_used[team]

    def can_swap(self) -> bool:
        """Whether the player to move may answer with `swap` now."""
        return self.options.swap and self._state.moves_made == 1 and not self.is_over

    def can_call_privilege(self, player: str) -> bool:
        """Whether `player` may call privilege now (to offer it only when it is legal)."""
        try:
            seat = self.seat_of(player)
        except IllegalMoveError:
            return False
        return not self.is_over and self._privilege_refusal(seat) is None

    # --- the board ---------------------------------------------------------------------

    def pegs(self) -> list[Peg]:
        pos, geo = self.position, self.geometry
        return [Peg(geo.hole(i), c, pos.peg_seat[i]) for i, c in enumerate(pos.peg_colour) if c]

    def links(self) -> list[Link]:
        return [self._link(lid, colour) for lid, colour in self.position.links.items()]

    def peg_at(self, hole: Hole) -> Peg | None:
        idx = self.geometry.index(hole)
        colour = self.position.peg_colour[idx]
        return Peg(hole, colour, self.position.peg_seat[idx]) if colour else None

    def legal_placements(self) -> list[Hole]:
        """The holes the player to move may place a peg in."""
        if self.is_over:
            return []
        holes = self.geometry.holes
        return [holes[i] for i in self._open_holes(self.colour_to_move)]

    def legal_placement_bits(self) -> int:
        """The legal placements as a bitboard: bit `row * cols + col` is set for each hole.

        For engines and playouts that pick holes by the thousand; `legal_placements()` is the
        friendly form.
        """
        return 0 if self._state.outcome else self._free_mask(self.colour_to_move)

    def can_place(self, hole: Hole) -> bool:
        """Whether the player to move may place a peg at `hole` now (cheap: one bit test)."""
        geo = self.geometry
        if self._state.outcome or not (0 <= hole.col < geo.cols and 0 <= hole.row < geo.rows):
            return False
        return bool((self._free_mask(self.colour_to_move) >> (hole.row * geo.cols + hole.col)) & 1)

    def legal_links(self, hole: Hole) -> list[Link]:
        """The links that the owner of the peg at `hole` could add from it now."""
        idx = self.geometry.index(hole)
        colour = self.position.peg_colour[idx]
        if colour is None:
            return []
        return [self._link(lid, colour) for lid in self._linkable(idx, colour)]

    def winning_chain(self) -> tuple[list[Hole], list[Link]]:
        """The chain that won a game by connection (empty otherwise), for highlighting."""
        outcome = self.outcome
        if not outcome or outcome.reason is not Reason.CONNECTION or outcome.winner is None:
            return [], []
        holes, lids = self.position.chain(outcome.winner)
        return ([self.geometry.hole(h) for h in holes],
                [self._link(lid, outcome.winner) for lid in lids])

    def snapshot(self) -> tuple:
        """Everything observable about the game, for comparing two games for equality."""
        return (self.options, self._state, sorted(map(str, self.pegs())),
                sorted((str(link), link.colour.value) for link in self.links()),
                [turn.text for turn in self.history])

    # --- playing -----------------------------------------------------------------------

    def play(self, text: str, by: str | None = None) -> Turn:
        """Parse a player's command and apply it; `by` defaults to the player to move."""
        return self.push(parse_command(text), by)

    def push(self, command: Command, by: str | None = None) -> Turn:
        """Apply a command for player `by`; on IllegalMoveError nothing has changed."""
        seat = self._state.next_seat if by is None else self.seat_of(by)
        if self.is_over:
            raise IllegalMoveError("the game is over")
        before = self._state
        changes = _Changes()
        try:
            self._apply(command, seat, changes)
        except IllegalMoveError:
            self._take_back(changes, before)
            raise
        turn = Turn(seat, self.players[seat], self.colour_of_seat(seat), command, self.geometry,
                    changes)
        self._history.append((turn, before))
        return turn

    def undo(self) -> Turn:
        """Take back the last applied command, restoring the exact earlier state."""
        if not self._history:
            raise IllegalMoveError("there is no turn to take back")
        turn, before = self._history.pop()
        self._take_back(turn._changes, before)
        return turn

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.options = self.options
        other.geometry = self.geometry
        other.position = self.position.copy()
        other._state = self._state
        other._history = list(self._history)
        other.tags = dict(self.tags)
        return other

    # --- applying a command ------------------------------------------------------------

    def _apply(self, command: Command, seat: int, changes: _Changes) -> None:
        if command.is_move and seat != self._state.next_seat:
            raise IllegalMoveError(f"it is {self.players[self._state.next_seat]}'s turn")
        for target in command.removals:
            self._remove(target, seat, changes)
        if command.placement:
            self._place(command.placement, seat, changes)
        for action in command.actions:
            self._act(action, seat)
        if command.is_move or Action.PRIVILEGE in command.actions:
            self._check_end(seat, changes.placed is not None)

    def _remove(self, target: LinkTarget, seat: int, changes: _Changes) -> None:
        if self.rules is RuleSet.PP:
            raise IllegalMoveError("nothing can be removed in pp rules")
        colour, pos = self.colour_of_seat(seat), self.position
        if isinstance(target, tuple):
            lid = self._link_between(*target)
            if lid is None or lid not in pos.links:
                raise IllegalMoveError(f"there is no link {target[0]}-{target[1]}")
            if pos.links[lid] is not colour:
                raise IllegalMoveError(f"{target[0]}-{target[1]} is not your link")
            self._take_link(lid, changes)
            return
        idx = self._own_peg(target, colour)
        for lid in pos.links_of(idx):
            self._take_link(lid, changes)
        changes.steps.append(("peg-", idx, colour, pos.peg_seat[idx]))
        pos.remove_peg(idx)

    def _take_link(self, lid: int, changes: _Changes) -> None:
        changes.steps.append(("link-", lid, self.position.links[lid]))
        self.position.remove_link(lid)

    def _place(self, placement: Placement, seat: int, changes: _Changes) -> None:
        colour, pos, geo = self.colour_of_seat(seat), self.position, self.geometry
        idx = geo.index(placement.hole)
        if pos.peg_colour[idx] is not None:
            raise IllegalMoveError(f"{placement.hole} is already taken")
        if geo.in_border(idx, colour.opponent):
            raise IllegalMoveError(f"{placement.hole} is in {colour.opponent.title}'s border row")
        pos.place_peg(idx, colour, seat)
        changes.placed = idx
        changes.steps.append(("peg+", idx, colour, seat))
        for target in placement.links:
            a, b = target if isinstance(target, tuple) else (placement.hole, target)
            self._add_link(a, b, colour, changes)
        if self.rules is RuleSet.PP or placement.link_all:
            for lid in self._linkable(idx, colour):
                self._record_link(lid, colour, changes)
        state = self._state
        # built directly rather than with _replace: this runs for every peg of every playout
        self._state = _State((seat + 1) % len(self.players), seat, state.swapped,
                             state.privilege_used, None, state.outcome,
                             state.pegs_placed + 1, state.moves_made + 1)

    def _add_link(self, a: Hole, b: Hole, colour: Colour, changes: _Changes) -> None:
        ia, ib = self._own_peg(a, colour), self._own_peg(b, colour)
        lid = self._link_between(a, b)
        if lid is None:
            raise IllegalMoveError(
                f"{a} and {b} are not a knight's move apart, so they cannot link")
        if lid in self.position.links:
            if self.rules is RuleSet.PP:
                return
            raise IllegalMoveError(f"{a}-{b} is already linked")
        blocker = self.position.blocking_link(lid, colour, self.rules)
        if blocker is not None:
            other = self._link(blocker, self.position.links[blocker])
            raise IllegalMoveError(
                f"the link {a}-{b} would cross {other.colour.title}'s link {other}")
        assert ia != ib
        self._record_link(lid, colour, changes)

    def _record_link(self, lid: int, colour: Colour, changes: _Changes) -> None:
        self.position.add_link(lid, colour)
        changes.steps.append(("link+", lid, colour))

    def _act(self, action: Action, seat: int) -> None:
        state, colour = self._state, self.colour_of_seat(seat)
        team = seat % 2
        if action is Action.SWAP:
            if not self.options.swap:
                raise IllegalMoveError("swap is off in this game")
            if state.moves_made != 1 or state.next_seat != seat:
                raise IllegalMoveError("swap is only possible as the second move")
            self._state = state._replace(swapped=True, next_seat=(seat + 1) % len(self.players),
                                  privilege_window=seat, moves_made=state.moves_made + 1)
        elif action is Action.PRIVILEGE:
            self._privilege(seat)
        elif action is Action.RESIGN:
            self._end(Reason.RESIGNATION, colour.opponent)
        elif action is Action.TIMEOUT:
            if seat != state.next_seat:
                raise IllegalMoveError(f"only {self.players[state.next_seat]}, whose turn it is, "
                                  "can run out of time")
            self._end(Reason.TIME, colour.opponent)
        elif action is Action.OFFER_DRAW:
            if state.draw_offer_team == team:
                raise IllegalMoveError("your side has already offered a draw")
            if state.draw_offer_team is not None:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = state._replace(draw_offer_team=team)
        elif action is Action.ACCEPT_DRAW or action is Action.DECLINE_DRAW:
            verb = action.value.split()[0]
            if state.draw_offer_team is None:
                raise IllegalMoveError(f"there is no draw offer to {verb}")
            if state.draw_offer_team == team:
                raise IllegalMoveError(f"you cannot {verb} your own side's draw offer")
            if action is Action.ACCEPT_DRAW:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = state._replace(draw_offer_team=None)

    def _privilege_refusal(self, seat: int) -> str | None:
        """Why `seat` may not call privilege now, or None when it may."""
        state = self._state
        if not self.is_double:
            return "privilege is only called in Double TwixT"
        if state.privilege_used[seat % 2]:
            return "your team has already used its privilege"
        if state.privilege_window == seat:
            return None
        if state.privilege_window is None:
            return "privilege can only be called right after your own move"
        return f"only {self.players[state.privilege_window]}, who has just moved, can call " \
               "privilege"

    def _privilege(self, seat: int) -> None:
        refusal = self._privilege_refusal(seat)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        state = self._state
        used = list(state.privilege_used)
        used[seat % 2] = True
        self._state = state._replace(next_seat=(seat + 2) % 4, privilege_window=None,
                              privilege_used=(used[0], used[1]))

    def _check_end(self, mover: int, placed: bool) -> None:
        """After a turn: the mover's connection, then blockade, then the next player's holes."""
        if self.is_over:
            return
        pos, colour = self.position, self.colour_of_seat(mover)
        if placed and pos.connected(colour):
            self._end(Reason.CONNECTION, colour)
        elif placed and not (pos.can_still_connect(Colour.RED)
                             or pos.can_still_connect(Colour.BLACK)):
            self._end(Reason.BLOCKADE, None)
        elif not self._free_mask(self.colour_to_move):
            self._end(Reason.NO_MOVES, None)

    def _end(self, reason: Reason, winner: Colour | None) -> None:
        winners = self.players_of(winner) if winner else ()
        self._state = self._state._replace(outcome=Outcome(reason, winner, winners))

    def _take_back(self, changes: _Changes, before: _State) -> None:
        pos = self.position
        for kind, idx, colour, *seat in reversed(changes.steps):
            if kind == "link+":
                pos.remove_link(idx)
            elif kind == "peg+":
                pos.remove_peg(idx)
            elif kind == "link-":
                pos.add_link(idx, colour)
            else:
                pos.place_peg(idx, colour, seat[0])
        self._state = before

    # --- helpers -----------------------------------------------------------------------

    def _link(self, lid: int, colour: Colour) -> Link:
        return _link(self.geometry, lid, colour)

    def _link_between(self, a: Hole, b: Hole) -> int | None:
        return self.geometry.link_id(self.geometry.index(a), self.geometry.index(b))

    def _own_peg(self, hole: Hole, colour: Colour) -> int:
        idx = self.geometry.index(hole)
        owner = self.position.peg_colour[idx]
        if owner is None:
            raise IllegalMoveError(f"there is no peg on {hole}")
        if owner is not colour:
            raise IllegalMoveError(f"{hole} is not your peg")
        return idx

    def _linkable(self, idx: int, colour: Colour) -> list[int]:
        pos = self.position
        return [lid for neighbour, lid, _step in self.geometry.neighbours[idx]
                if pos.peg_colour[neighbour] is colour and lid not in pos.links
                and pos.blocking_link(lid, colour, self.rules) is None]

    def _free_mask(self, colour: Colour) -> int:
        """Bitboard of the empty holes `colour` may place in."""
        return self.geometry.placeable[colour] & ~self.position.occupied

    def _open_holes(self, colour: Colour) -> list[int]:
        bits = format(self._free_mask(colour), "b")[::-1]
        return [i for i, bit in enumerate(bits) if bit == "1"]
