"""A game of TwixT or Double TwixT: options, seats, turn order, and commands applied to it.

In the spirit of python-chess's `Board`: `play()` a player's text (or `push()` a parsed
`Command`), ask `to_move`, `outcome`, `legal_placements()`, `undo()` the last turn, `copy()`.
An illegal command raises `IllegalMove` and leaves the game exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.errors import IllegalMove, TwixtError
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


@dataclass(frozen=True)
class Turn:
    """One applied command: who, what (canonical text), and what it changed on the board."""

    seat: int
    player: str
    colour: Colour
    text: str
    placed: Hole | None = None
    links_added: tuple[Link, ...] = ()
    links_removed: tuple[Link, ...] = ()
    pegs_removed: tuple[Peg, ...] = ()
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True)
class _State:
    """Everything besides the board that a turn may change; restored wholesale by undo."""

    to_move: int = 0
    privilege_window: int | None = None   # seat that has just moved and may call privilege
    swapped: bool = False
    privilege_used: tuple[bool, bool] = (False, False)
    draw_offer_team: int | None = None
    outcome: Outcome | None = None
    placements: int = 0
    moves: int = 0


@dataclass
class _Changes:
    """The board changes of the turn being applied, in order, so they can be taken back."""

    placed: int | None = None
    links_added: list[int] = field(default_factory=list)
    links_removed: list[tuple[int, Colour]] = field(default_factory=list)
    pegs_removed: list[tuple[int, Colour, int]] = field(default_factory=list)
    order: list[tuple[str, int]] = field(default_factory=list)


def _check_names(players: tuple[str, ...]) -> None:
    if len(players) not in (2, 4):
        raise TwixtError("a game has two players, or four for Double TwixT")
    for name in players:
        if not name.strip() or any(ch in name for ch in ":,#\n"):
            raise TwixtError(f"“{name}” cannot be a player name (no : , # or empty names)")
    if len({name.casefold() for name in players}) != len(players):
        raise TwixtError("every player needs a different name")


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
        self._history: list[tuple[Turn, _Changes, _State]] = []
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
        base = Colour.RED if seat % 2 == 0 else Colour.BLACK
        return base.opponent if self._state.swapped else base

    def seat_of(self, player: str) -> int:
        """The seat of a player by name (case-insensitive)."""
        for seat, name in enumerate(self.players):
            if name.casefold() == player.strip().casefold():
                return seat
        raise IllegalMove(f"{player} is not playing in this game")

    def players_of(self, colour: Colour) -> tuple[str, ...]:
        return tuple(n for s, n in enumerate(self.players) if self.colour_of_seat(s) is colour)

    @property
    def to_move_seat(self) -> int | None:
        return None if self._state.outcome else self._state.to_move

    @property
    def to_move(self) -> str | None:
        """The name of the player to move, or None when the game is over."""
        seat = self.to_move_seat
        return None if seat is None else self.players[seat]

    @property
    def turn(self) -> Colour:
        """The colour to move (or that would move, once the game is over)."""
        return self.colour_of_seat(self._state.to_move)

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
    def placements(self) -> int:
        """How many pegs have been placed (the replay JSON's `turns`)."""
        return self._state.placements

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(turn for turn, _c, _s in self._history)

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
        return self.options.swap and self._state.moves == 1 and not self.is_over

    def can_call_privilege(self, player: str) -> bool:
        try:
            self.copy().play("privilege", by=player)
        except IllegalMove:
            return False
        return True

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
        return [self.geometry.hole(i) for i in self._open_holes(self.turn)]

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
        """Apply a command for player `by`; on IllegalMove nothing has changed."""
        seat = self._state.to_move if by is None else self.seat_of(by)
        if self.is_over:
            raise IllegalMove("the game is over")
        before = self._state
        changes = _Changes()
        try:
            self._apply(command, seat, changes)
        except IllegalMove:
            self._take_back(changes, before)
            raise
        turn = self._turn_record(seat, command, changes)
        self._history.append((turn, changes, before))
        return turn

    def undo(self) -> Turn:
        """Take back the last applied command, restoring the exact earlier state."""
        if not self._history:
            raise IllegalMove("there is no turn to take back")
        turn, changes, before = self._history.pop()
        self._take_back(changes, before)
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
        if command.moves and seat != self._state.to_move:
            raise IllegalMove(f"it is {self.players[self._state.to_move]}'s turn")
        for target in command.removals:
            self._remove(target, seat, changes)
        if command.placement:
            self._place(command.placement, seat, changes)
        for action in command.actions:
            self._act(action, seat)
        if command.moves or Action.PRIVILEGE in command.actions:
            self._check_end(seat, changes.placed is not None)

    def _remove(self, target: LinkTarget, seat: int, changes: _Changes) -> None:
        if self.rules is RuleSet.PP:
            raise IllegalMove("nothing can be removed in pp rules")
        colour, pos = self.colour_of_seat(seat), self.position
        if isinstance(target, tuple):
            lid = self._link_between(*target)
            if lid is None or lid not in pos.links:
                raise IllegalMove(f"there is no link {target[0]}-{target[1]}")
            if pos.links[lid] is not colour:
                raise IllegalMove(f"{target[0]}-{target[1]} is not your link")
            self._take_link(lid, changes)
            return
        idx = self._own_peg(target, colour)
        for lid in pos.links_of(idx):
            self._take_link(lid, changes)
        changes.pegs_removed.append((idx, colour, pos.peg_seat[idx]))
        changes.order.append(("peg-", idx))
        pos.remove_peg(idx)

    def _take_link(self, lid: int, changes: _Changes) -> None:
        changes.links_removed.append((lid, self.position.links[lid]))
        changes.order.append(("link-", lid))
        self.position.remove_link(lid)

    def _place(self, placement: Placement, seat: int, changes: _Changes) -> None:
        colour, pos, geo = self.colour_of_seat(seat), self.position, self.geometry
        idx = geo.index(placement.hole)
        if pos.peg_colour[idx] is not None:
            raise IllegalMove(f"{placement.hole} is already taken")
        if geo.in_border(idx, colour.opponent):
            raise IllegalMove(f"{placement.hole} is in {colour.opponent.title}'s border row")
        pos.place_peg(idx, colour, seat)
        changes.placed = idx
        changes.order.append(("peg+", idx))
        for target in placement.links:
            a, b = target if isinstance(target, tuple) else (placement.hole, target)
            self._add_link(a, b, colour, changes)
        if self.rules is RuleSet.PP:
            for lid in self._linkable(idx, colour):
                self._record_link(lid, colour, changes)
        state = self._state
        self._state = replace(state, to_move=(seat + 1) % len(self.players),
                              privilege_window=seat, draw_offer_team=None,
                              placements=state.placements + 1, moves=state.moves + 1)

    def _add_link(self, a: Hole, b: Hole, colour: Colour, changes: _Changes) -> None:
        ia, ib = self._own_peg(a, colour), self._own_peg(b, colour)
        lid = self._link_between(a, b)
        if lid is None:
            raise IllegalMove(f"{a} and {b} are not a knight's move apart, so they cannot link")
        if lid in self.position.links:
            if self.rules is RuleSet.PP:
                return
            raise IllegalMove(f"{a}-{b} is already linked")
        blocker = self.position.blocking_link(lid, colour, self.rules)
        if blocker is not None:
            other = self._link(blocker, self.position.links[blocker])
            raise IllegalMove(f"the link {a}-{b} would cross {other.colour.title}'s link {other}")
        assert ia != ib
        self._record_link(lid, colour, changes)

    def _record_link(self, lid: int, colour: Colour, changes: _Changes) -> None:
        self.position.add_link(lid, colour)
        changes.links_added.append(lid)
        changes.order.append(("link+", lid))

    def _act(self, action: Action, seat: int) -> None:
        state, colour = self._state, self.colour_of_seat(seat)
        team = seat % 2
        if action is Action.SWAP:
            if not self.options.swap:
                raise IllegalMove("swap is off in this game")
            if state.moves != 1 or state.to_move != seat:
                raise IllegalMove("swap is only possible as the second move")
            self._state = replace(state, swapped=True, to_move=(seat + 1) % len(self.players),
                                  privilege_window=seat, moves=state.moves + 1)
        elif action is Action.PRIVILEGE:
            self._privilege(seat)
        elif action is Action.RESIGN:
            self._end(Reason.RESIGNATION, colour.opponent)
        elif action is Action.TIMEOUT:
            if seat != state.to_move:
                raise IllegalMove(f"only {self.players[state.to_move]}, whose turn it is, "
                                  "can run out of time")
            self._end(Reason.TIME, colour.opponent)
        elif action is Action.OFFER_DRAW:
            if state.draw_offer_team == team:
                raise IllegalMove("your side has already offered a draw")
            if state.draw_offer_team is not None:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = replace(state, draw_offer_team=team)
        elif action is Action.ACCEPT_DRAW or action is Action.DECLINE_DRAW:
            verb = action.value.split()[0]
            if state.draw_offer_team is None:
                raise IllegalMove(f"there is no draw offer to {verb}")
            if state.draw_offer_team == team:
                raise IllegalMove(f"you cannot {verb} your own side's draw offer")
            if action is Action.ACCEPT_DRAW:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = replace(state, draw_offer_team=None)

    def _privilege(self, seat: int) -> None:
        state = self._state
        if not self.is_double:
            raise IllegalMove("privilege is only called in Double TwixT")
        if state.privilege_used[seat % 2]:
            raise IllegalMove("your team has already used its privilege")
        if state.privilege_window != seat:
            if state.privilege_window is None:
                raise IllegalMove("privilege can only be called right after your own move")
            raise IllegalMove(f"only {self.players[state.privilege_window]}, who has just "
                              "moved, can call privilege")
        used = list(state.privilege_used)
        used[seat % 2] = True
        self._state = replace(state, to_move=(seat + 2) % 4, privilege_window=None,
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
        elif not self._free_mask(self.turn):
            self._end(Reason.NO_MOVES, None)

    def _end(self, reason: Reason, winner: Colour | None) -> None:
        winners = self.players_of(winner) if winner else ()
        self._state = replace(self._state, outcome=Outcome(reason, winner, winners))

    def _take_back(self, changes: _Changes, before: _State) -> None:
        pos = self.position
        removed_links = dict(changes.links_removed)
        removed_pegs = {idx: (colour, seat) for idx, colour, seat in changes.pegs_removed}
        for kind, idx in reversed(changes.order):
            if kind == "link+":
                pos.remove_link(idx)
            elif kind == "peg+":
                pos.remove_peg(idx)
            elif kind == "link-":
                pos.add_link(idx, removed_links[idx])
            else:
                pos.place_peg(idx, *removed_pegs[idx])
        pos.forget_derived()
        self._state = before

    # --- helpers -----------------------------------------------------------------------

    def _turn_record(self, seat: int, command: Command, changes: _Changes) -> Turn:
        pos, geo = self.position, self.geometry
        colour = self.colour_of_seat(seat)
        placed = geo.hole(changes.placed) if changes.placed is not None else None
        added = tuple(self._link(lid, pos.links[lid]) for lid in changes.links_added)
        if self.rules is RuleSet.PP and placed is not None:
            # record every link actually made, so the notation shows the automatic ones too
            targets = tuple(link.b if link.a == placed else link.a for link in added)
            command = replace(command, placement=Placement(placed, targets))
        return Turn(
            seat=seat, player=self.players[seat], colour=colour, text=str(command),
            placed=placed, links_added=added,
            links_removed=tuple(self._link(lid, c) for lid, c in changes.links_removed),
            pegs_removed=tuple(Peg(geo.hole(i), c, s) for i, c, s in changes.pegs_removed),
            actions=command.actions,
        )

    def _link(self, lid: int, colour: Colour) -> Link:
        a, b = self.geometry.link_ends[lid]  # type: ignore[misc]
        return Link(self.geometry.hole(a), self.geometry.hole(b), colour)

    def _link_between(self, a: Hole, b: Hole) -> int | None:
        return self.geometry.link_id(self.geometry.index(a), self.geometry.index(b))

    def _own_peg(self, hole: Hole, colour: Colour) -> int:
        idx = self.geometry.index(hole)
        owner = self.position.peg_colour[idx]
        if owner is None:
            raise IllegalMove(f"there is no peg on {hole}")
        if owner is not colour:
            raise IllegalMove(f"{hole} is not your peg")
        return idx

    def _linkable(self, idx: int, colour: Colour) -> list[int]:
        pos = self.position
        return [lid for neighbour, lid, _step in self.geometry.neighbours[idx]
                if pos.peg_colour[neighbour] is colour and lid not in pos.links
                and pos.blocking_link(lid, colour, self.rules) is None]

    def _free_mask(self, colour: Colour) -> int:
        """Bitboard of the empty holes `colour` may place in."""
        geo, pos = self.geometry, self.position
        first, second = geo.border_masks[colour.opponent]
        taken = pos.peg_bits[Colour.RED] | pos.peg_bits[Colour.BLACK]
        return geo.all_mask & ~taken & ~(first | second)

    def _open_holes(self, colour: Colour) -> list[int]:
        free = self._free_mask(colour)
        holes = []
        while free:
            low = free & -free
            holes.append(low.bit_length() - 1)
            free ^= low
        return holes
