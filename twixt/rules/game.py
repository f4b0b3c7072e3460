"""A game of TwixT or Double TwixT: options, seats, turn order, and commands applied to it.

In the spirit of python-chess's `Board`: `play()` a player's text (or `push()` a parsed
`Command`), ask `player_to_move`, `outcome`, `legal_placements()`, `undo()` the last turn, `copy()`.
An illegal command raises `IllegalMoveError` and leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, cast

from twixt.language import Message, message
from twixt.rules.errors import IllegalMoveError, OutOfTurnError, TwixtError, quote, visible
from twixt.rules.geometry import Geometry, check_board_size, geometry, parse_size
from twixt.rules.model import Colour, Hole, Link, Outcome, Peg, Reason, RuleSet
from twixt.rules.notation import Action, Command, LinkTarget, Placement, parse_command
from twixt.rules.position import Position


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
        """The board size as records and options write it: `24x24`."""
        return f"{self.cols}x{self.rows}"


class _PegChange(NamedTuple):
    """A peg put in (`added`) or taken out, with what it takes to undo that."""

    added: bool
    at: int   # the hole's index (`index` would hide tuple.index)
    colour: Colour
    seat: int


class _LinkChange(NamedTuple):
    """A link stood up (`added`) or taken down, by link id."""

    added: bool
    lid: int
    colour: Colour


class _Changes:
    """The board changes of one turn in the order made, so that they can be taken back."""

    __slots__ = ("placed", "steps")

    def __init__(self) -> None:
        self.placed: int | None = None
        self.steps: list[_PegChange | _LinkChange] = []

    def links(self, added: bool) -> list[_LinkChange]:
        """The links added (or removed) by the turn, in the order made."""
        return [step for step in self.steps
                if isinstance(step, _LinkChange) and step.added is added]

    def pegs_removed(self) -> list[_PegChange]:
        """The pegs taken out by the turn, in the order taken."""
        return [step for step in self.steps
                if isinstance(step, _PegChange) and not step.added]


class Turn:
    """One applied command: who, what (canonical text), and what it changed on the board.

    `Game.play()` and `Game.push()` return it, and `Game.history` keeps them in order. A turn
    is made for every peg of every playout, so its friendly views (holes, links, the canonical
    text) are worked out only when first asked for.

    >>> game = Game(("alice", "bob"), size=12)
    >>> turn = game.play("G6")
    >>> turn
    Turn(alice: G6)
    >>> turn.player, turn.seat, turn.colour
    ('alice', 0, <Colour.RED: 'red'>)
    """

    def __init__(self, seat: int, player: str, colour: Colour, command: Command,
                 geo: Geometry, changes: _Changes) -> None:
        #: the seat (0–3) of the player who gave the command
        self.seat = seat
        #: that player's name
        self.player = player
        #: the seat's colour just after the command (for a swap, the colour swapped to)
        self.colour = colour
        #: the command as parsed, before defaults such as pp's automatic links were applied
        self.command = command
        self._geo = geo
        self._changes = changes

    def __repr__(self) -> str:
        return f"Turn({self.player}: {self.text})"

    @property
    def actions(self) -> tuple[Action, ...]:
        """What the command did besides removing and placing: swap, resign, a draw offer, …

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.play("G6; offer draw").actions
        (<Action.OFFER_DRAW: 'offer draw'>,)
        """
        return self.command.actions

    @cached_property
    def placed(self) -> Hole | None:
        """The hole of the peg placed, or None for a turn without one (a swap, a resignation).

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.play("G6").placed
        Hole(col=6, row=5)
        >>> game.play("swap").placed is None
        True
        """
        placed = self._changes.placed
        return None if placed is None else self._geo.hole(placed)

    @cached_property
    def links_added(self) -> tuple[Link, ...]:
        """Every link the turn added, in order: those asked for, and those that pp and
        `link all` add by themselves, which the command does not name.

        >>> game = Game(("alice", "bob"), size=12, rules="pp")
        >>> for text in ("G6", "C3", "E5"):
        ...     turn = game.play(text)
        >>> [str(link) for link in turn.links_added]
        ['E5-G6']
        """
        return self._links(added=True)

    @cached_property
    def links_removed(self) -> tuple[Link, ...]:
        """The links the turn took away (classic rules), those of removed pegs included: a
        removed peg takes its links with it.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "C3", "E5 link G6", "C9"):
        ...     turn = game.play(text)
        >>> turn = game.play("remove E5; H8")
        >>> [str(link) for link in turn.links_removed], [str(peg.hole) for peg in turn.pegs_removed]
        (['E5-G6'], ['E5'])
        """
        return self._links(added=False)

    @cached_property
    def pegs_removed(self) -> tuple[Peg, ...]:
        """The pegs the turn took away (classic rules), so that a picture can show them gone
        (the example of `links_removed` shows both)."""
        return tuple(Peg(self._geo.hole(step.at), step.colour, step.seat)
                     for step in self._changes.pegs_removed())

    def _links(self, added: bool) -> tuple[Link, ...]:
        return tuple(_link(self._geo, step.lid, step.colour)
                     for step in self._changes.links(added=added))

    @cached_property
    def text(self) -> str:
        """The command in canonical notation, every link made written out (the automatic
        ones of pp and `link all` included), so that replaying the text needs no defaults.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "C3"):
        ...     turn = game.play(text)
        >>> game.play("e5  LINK all").text
        'E5 link G6'
        """
        command, placed = self.command, self.placed
        if placed is None:
            return str(command)
        targets = tuple(_target_from(link, placed) for link in self.links_added)
        return str(Command(command.removals, Placement(placed, targets), command.actions))


#: the pegs and links made so far, each a value made once for every game of its board size:
#: per (cols, rows), by `_value_key` of a peg's hole index or a link's id (a view lists every
#: peg and link of its game after every change, and a frozen dataclass is slow to make)
_PEGS: dict[tuple[int, int], dict[int, Peg]] = {}
_LINKS: dict[tuple[int, int], dict[int, Link]] = {}


_BLACK = Colour.BLACK


def _value_key(number: int, colour: Colour, seat: int = 0) -> int:
    """A peg's hole index (or a link's id), its colour and seat (0–3) as one number."""
    return number << 3 | seat << 1 | (colour is _BLACK)


def _link(geo: Geometry, lid: int, colour: Colour) -> Link:
    made = _LINKS.setdefault((geo.cols, geo.rows), {})
    key = _value_key(lid, colour)
    link = made.get(key)
    if link is None:
        ends = geo.link_ends[lid]
        assert ends is not None, "only links on the board are ever made"
        link = made[key] = Link(geo.holes[ends[0]], geo.holes[ends[1]], colour)
    return link


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
            raise TwixtError("{name} cannot be a player name (no : , # or empty names)",
                             name=quote(name))
        if visible(name) != name:
            # a zero-width or direction-changing character would hide or fake a name
            raise TwixtError("{name} cannot be a player name: it holds a control or invisible "
                             "character", name=quote(name.encode("unicode_escape").decode()))
    if len({name.casefold() for name in players}) != len(players):
        raise TwixtError("every player needs a different name")


def _target_from(link: Link, placed: Hole) -> LinkTarget:
    """How a link is written after the new peg: its other end, or both ends of an older pair."""
    if placed in link.ends:
        return link.b if link.a == placed else link.a
    return (link.a, link.b)


class Game:
    """A game in progress or finished. Seats: 0 Red, 1 Black, 2 Red, 3 Black (before a swap).

    Players move in seat order (a privilege call skips one); in Double TwixT (four players)
    seats 0 and 2 are one team and 1 and 3 the other.

    >>> game = Game(("alice", "bob"), size=12)
    >>> game.play("G6")
    Turn(alice: G6)
    >>> game.play("E7")
    Turn(bob: E7)
    >>> game.player_to_move, game.colour_to_move
    ('alice', <Colour.RED: 'red'>)
    """

    def __init__(self, players: tuple[str, ...] | list[str] = ("Red", "Black"),
                 size: str | int | tuple[int, int] = 24, rules: RuleSet | str = RuleSet.CLASSIC,
                 swap: bool | None = None, handicap: int = 0) -> None:
        """Set up an empty board.

        `players` are two names, or four for Double TwixT, in seat order. `size` is `24`,
        `"24x18"` or `(cols, rows)`; `rules` is `classic` or `pp`; `swap` defaults to on, and
        to off in a handicap game, whose board is `handicap` rows shorter. TwixtError says
        what is wrong with impossible options.

        >>> Game(("alice", "bob"), size="12x10", rules="pp").options.size_text
        '12x10'
        >>> Game(("alice", "alice"))
        Traceback (most recent call last):
        ...
        twixt.rules.errors.TwixtError: every player needs a different name
        """
        players = tuple(name.strip() for name in players)
        _check_names(players)
        if isinstance(size, tuple):
            cols, rows = size
            check_board_size(cols, rows)  # the board before the handicap, as parse_size checks it
        else:
            cols, rows = parse_size(str(size))
        if handicap < 0 or rows - handicap < 5:
            raise TwixtError("a handicap of {handicap} rows does not fit a board of {rows} rows",
                             handicap=handicap, rows=rows)
        if handicap and swap:
            raise TwixtError("swap is off in a handicap game")
        try:
            rule_set = RuleSet(rules.lower() if isinstance(rules, str) else rules)
        except ValueError:
            raise TwixtError("{rules} is not a rule set: choose classic or pp",
                             rules=quote(str(rules))) from None
        #: what the game is played with, as given (names stripped)
        self.options = GameOptions(players, cols, rows - handicap, rule_set,
                                   bool(swap if swap is not None else not handicap), handicap)
        #: the precomputed tables of this board size, shared with every game of the size
        self.geometry: Geometry = geometry(cols, rows - handicap)
        #: the board itself, by hole index and link id (see `rules.position`)
        self.position = Position(self.geometry)
        self._state = _State()
        self._history: list[tuple[Turn, _State]] = []
        #: extra record tags (e.g. TimeControl) carried through import and export
        self.tags: dict[str, str] = {}

    # --- who and what ------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seat order.

        >>> Game(("alice", "bob")).players
        ('alice', 'bob')
        """
        return self.options.players

    @property
    def rules(self) -> RuleSet:
        """The rule set: whether every link blocks and removal is allowed (classic), or own
        links may cross and are added automatically (pp).

        >>> Game(("alice", "bob"), rules="pp").rules
        <RuleSet.PP: 'pp'>
        """
        return self.options.rules

    @property
    def is_double(self) -> bool:
        """Whether this is Double TwixT: four players in two teams, with privilege calls.

        >>> Game(("alice", "bob", "carol", "dave")).is_double
        True
        """
        return len(self.players) == 4

    def colour_of_seat(self, seat: int) -> Colour:
        """The colour a seat plays now (a swap exchanges them).

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.colour_of_seat(0)
        <Colour.RED: 'red'>
        >>> for text in ("G6", "swap"):
        ...     turn = game.play(text)
        >>> game.colour_of_seat(0)
        <Colour.BLACK: 'black'>
        """
        return _SEAT_COLOURS[self._state.swapped][seat % 2]

    def seat_of(self, player: str) -> int:
        """The seat of a player by name (case-insensitive); IllegalMoveError for a stranger,
        so that a command from someone not playing is refused like any illegal move.

        >>> Game(("alice", "bob")).seat_of("Bob")
        1
        """
        for seat, name in enumerate(self.players):
            if name.casefold() == player.strip().casefold():
                return seat
        raise IllegalMoveError("{player} is not playing in this game", player=player)

    def players_of(self, colour: Colour) -> tuple[str, ...]:
        """The names of the players playing `colour` now, in seat order: whom a result names.

        >>> Game(("alice", "bob", "carol", "dave")).players_of(Colour.RED)
        ('alice', 'carol')
        """
        return tuple(n for s, n in enumerate(self.players) if self.colour_of_seat(s) is colour)

    @property
    def seat_to_move(self) -> int | None:
        """The seat of the player to move, or None when the game is over.

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.seat_to_move
        0
        >>> turn = game.play("resign")
        >>> game.seat_to_move is None
        True
        """
        return None if self._state.outcome else self._state.next_seat

    @property
    def player_to_move(self) -> str | None:
        """The name of the player to move, or None when the game is over.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> game.player_to_move
        'bob'
        """
        seat = self.seat_to_move
        return None if seat is None else self.players[seat]

    @property
    def colour_to_move(self) -> Colour:
        """The colour to move (or that would move, once the game is over).

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> game.colour_to_move
        <Colour.BLACK: 'black'>
        """
        return self.colour_of_seat(self._state.next_seat)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.outcome is None
        True
        >>> turn = game.play("resign")
        >>> game.outcome.reason, game.outcome.result, game.outcome.winners
        (<Reason.RESIGNATION: 'resignation'>, 'black', ('bob',))
        """
        return self._state.outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended; then it takes no more commands but `undo()`.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("resign")
        >>> game.is_over
        True
        """
        return self._state.outcome is not None

    @property
    def swapped(self) -> bool:
        """Whether the second player swapped, so that seat 0 now plays Black.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "swap"):
        ...     turn = game.play(text)
        >>> game.swapped
        True
        """
        return self._state.swapped

    @property
    def pegs_placed(self) -> int:
        """How many pegs have been placed (the replay JSON's `turns`); a swap places none.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "swap", "E7"):
        ...     turn = game.play(text)
        >>> game.pegs_placed
        2
        """
        return self._state.pegs_placed

    @property
    def moves_made(self) -> int:
        """How many moves have been made: pegs placed and the swap, the count players keep
        (draw offers, privilege calls and resignations are turns, but no moves).

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "swap", "E7; offer draw"):
        ...     turn = game.play(text)
        >>> game.moves_made, game.pegs_placed, len(game.history)
        (3, 2, 3)
        """
        return self._state.moves_made

    @property
    def history(self) -> tuple[Turn, ...]:
        """Every turn applied, oldest first: what records are written from.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "E7 link all"):
        ...     turn = game.play(text)
        >>> [turn.text for turn in game.history]
        ['G6', 'E7']
        """
        return tuple(turn for turn, _before in self._history)

    @property
    def last_turn(self) -> Turn | None:
        """The latest turn, or None before the first: what has just happened.

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.last_turn is None
        True
        >>> turn = game.play("G6")
        >>> game.last_turn
        Turn(alice: G6)
        """
        return self._history[-1][0] if self._history else None

    @property
    def last_peg_turn(self) -> Turn | None:
        """The latest turn that placed a peg, or None: the peg a picture marks. Looked for
        from the end, so a picture of each turn of a long log costs no copy of it.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6; offer draw")
        >>> turn = game.play("decline draw", by="bob")
        >>> game.last_peg_turn
        Turn(alice: G6; offer draw)
        """
        return next((turn for turn, _before in reversed(self._history)
                     if turn.placed is not None), None)

    def holes_placed_newest_first(self) -> Iterator[Hole]:
        """The holes pegs were placed in, the latest first, read from the end without a copy
        of the log: the engine looks at the last few pegs of every position it is given.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "E7", "offer draw"):
        ...     turn = game.play(text)
        >>> [str(hole) for hole in game.holes_placed_newest_first()]
        ['E7', 'G6']
        """
        return (turn.placed for turn, _before in reversed(self._history)
                if turn.placed is not None)

    @property
    def draw_offered_by(self) -> Colour | None:
        """The side with an open draw offer, if any; the other side may accept or decline it.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6; offer draw")
        >>> game.draw_offered_by
        <Colour.RED: 'red'>
        """
        team = self._state.draw_offer_team
        return None if team is None else self.colour_of_seat(team)

    def privilege_available(self, colour: Colour) -> bool:
        """Whether the team playing `colour` may still call its privilege (Double TwixT).

        >>> game = Game(("alice", "bob", "carol", "dave"), size=12)
        >>> game.privilege_available(Colour.RED)
        True
        >>> for text in ("G6", "privilege"):
        ...     turn = game.play(text, by="alice")
        >>> game.privilege_available(Colour.RED)
        False
        """
        team = 0 if self.colour_of_seat(0) is colour else 1
        return self.is_double and not self._state.privilege_used[team]

    def can_swap(self) -> bool:
        """Whether the player to move may answer with `swap` now (to offer it only then).

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.can_swap()
        False
        >>> turn = game.play("G6")
        >>> game.can_swap()
        True
        """
        # the first peg is Red's (team 0): only Black's side may take it over, even when a
        # privilege call gave the second move to the first player's partner
        return (self.options.swap and self._state.moves_made == 1 and not self.is_over
                and self._state.next_seat % 2 == 1)

    def can_call_privilege(self, player: str) -> bool:
        """Whether `player` may call privilege now (to offer it only when it is legal).

        >>> game = Game(("alice", "bob", "carol", "dave"), size=12)
        >>> turn = game.play("G6")
        >>> game.can_call_privilege("alice"), game.can_call_privilege("bob")
        (True, False)
        """
        try:
            seat = self.seat_of(player)
        except IllegalMoveError:
            return False
        return not self.is_over and self._privilege_refusal(seat) is None

    # --- the board ---------------------------------------------------------------------

    def pegs(self) -> list[Peg]:
        """Every peg on the board, in hole order (row by row).

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "E7"):
        ...     turn = game.play(text)
        >>> [(str(peg.hole), peg.colour.value) for peg in game.pegs()]
        [('G6', 'red'), ('E7', 'black')]
        """
        pos, geo = self.position, self.geometry
        # an occupied hole's peg has a colour
        colours, seats, pegs = cast(list[Colour], pos.peg_colour), pos.peg_seat, []
        made = _PEGS.setdefault((geo.cols, geo.rows), {})
        # the occupied holes' bits, lowest first: a view of a game asks for its pegs after
        # every change, and most holes of a board are empty
        occupied = pos.occupied
        while occupied:
            lowest = occupied & -occupied
            index = lowest.bit_length() - 1
            colour, seat = colours[index], seats[index]
            key = index << 3 | seat << 1 | (colour is _BLACK)  # `_value_key`, inlined
            peg = made.get(key)
            if peg is None:
                peg = made[key] = Peg(geo.holes[index], colour, seat)
            pegs.append(peg)
            occupied ^= lowest
        return pegs

    def links(self) -> list[Link]:
        """Every link standing on the board.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "C3", "E5 link G6"):
        ...     turn = game.play(text)
        >>> [str(link) for link in game.links()]
        ['E5-G6']
        """
        return [self._link(lid, colour) for lid, colour in self.position.links.items()]

    def peg_at(self, hole: Hole) -> Peg | None:
        """The peg in `hole`, or None when it is empty; IllegalMoveError off the board.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> game.peg_at(Hole.parse("G6"))
        Peg(hole=Hole(col=6, row=5), colour=<Colour.RED: 'red'>, seat=0)
        >>> game.peg_at(Hole.parse("E7")) is None
        True
        """
        idx = self.geometry.index(hole)
        colour = self.position.peg_colour[idx]
        return Peg(hole, colour, self.position.peg_seat[idx]) if colour else None

    def legal_placements(self) -> list[Hole]:
        """The holes the player to move may place a peg in, in hole order (row by row).

        >>> game = Game(("alice", "bob"), size=12)
        >>> len(game.legal_placements())   # 140 holes less Black's two border columns
        120
        >>> Hole.parse("A6") in game.legal_placements()
        False
        """
        if self.is_over:
            return []
        holes = self.geometry.holes
        return [holes[i] for i in self._open_holes(self.colour_to_move)]

    def legal_placement_bits(self) -> int:
        """The legal placements as a bitboard: bit `row * cols + col` is set for each hole.

        For engines and playouts that pick holes by the thousand; `legal_placements()` is the
        friendly form.

        >>> game = Game(("alice", "bob"), size=12)
        >>> bits = game.legal_placement_bits()
        >>> bin(bits).count("1"), (bits >> (5 * 12 + 6)) & 1   # G6 is column 6, row 5
        (120, 1)
        """
        return 0 if self._state.outcome else self._free_mask(self.colour_to_move)

    def can_place(self, hole: Hole) -> bool:
        """Whether the player to move may place a peg at `hole` now (cheap: one bit test).

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> game.can_place(Hole.parse("G6")), game.can_place(Hole.parse("E7"))
        (False, True)
        """
        geo = self.geometry
        if self._state.outcome or not (0 <= hole.col < geo.cols and 0 <= hole.row < geo.rows):
            return False
        return bool((self._free_mask(self.colour_to_move) >> (hole.row * geo.cols + hole.col)) & 1)

    def legal_links(self, hole: Hole) -> list[Link]:
        """The links that the owner of the peg at `hole` could add from it now.

        >>> game = Game(("alice", "bob"), size=12)
        >>> for text in ("G6", "C3", "E5"):
        ...     turn = game.play(text)
        >>> [str(link) for link in game.legal_links(Hole.parse("E5"))]
        ['E5-G6']
        """
        idx = self.geometry.index(hole)
        colour = self.position.peg_colour[idx]
        if colour is None:
            return []
        return [self._link(lid, colour) for lid in self.position.linkable(idx, colour, self.rules)]

    def winning_chain(self) -> tuple[list[Hole], list[Link]]:
        """The chain that won a game by connection (empty otherwise), for highlighting.

        >>> game = Game(("alice", "bob"), size=5, swap=False)
        >>> for text in ("C1", "A2", "D3 link C1", "A4", "C5 link D3"):
        ...     turn = game.play(text)
        >>> holes, links = game.winning_chain()
        >>> [str(hole) for hole in holes], [str(link) for link in links]
        (['C1', 'D3', 'C5'], ['C1-D3', 'D3-C5'])
        """
        outcome = self.outcome
        if not outcome or outcome.reason is not Reason.CONNECTION or outcome.winner is None:
            return [], []
        indices, lids = self.position.chain(outcome.winner)
        return ([self.geometry.hole(i) for i in indices],
                [self._link(lid, outcome.winner) for lid in lids])

    def snapshot(self) -> tuple[object, ...]:
        """Everything observable about the game, for comparing two games for equality.

        >>> game = Game(("alice", "bob"), size=12)
        >>> before = game.snapshot()
        >>> turn = game.play("G6")
        >>> turn = game.undo()
        >>> game.snapshot() == before
        True
        """
        return (self.options, self._state, sorted(map(str, self.pegs())),
                sorted((str(link), link.colour.value) for link in self.links()),
                [turn.text for turn in self.history])

    # --- playing -----------------------------------------------------------------------

    def play(self, text: str, by: str | None = None) -> Turn:
        """Parse a player's command and apply it; `by` defaults to the player to move.

        InvalidMoveError when the text is not a command, IllegalMoveError when the position
        forbids it; either way nothing has changed.

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.play("G6")
        Turn(alice: G6)
        >>> game.play("G6")
        Traceback (most recent call last):
        ...
        twixt.rules.errors.IllegalMoveError: G6 is already taken
        >>> game.play("offer draw", by="alice")
        Turn(alice: offer draw)
        """
        return self.push(parse_command(text), by)

    def push(self, command: Command, by: str | None = None) -> Turn:
        """Apply a parsed command for player `by` (default: the player to move); on
        IllegalMoveError nothing has changed.

        >>> game = Game(("alice", "bob"), size=12)
        >>> game.push(Command(placement=Placement(Hole.parse("G6"))))
        Turn(alice: G6)
        >>> game.push(parse_command("resign"), by="alice")
        Turn(alice: resign)
        """
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
        """Take back the last applied command, restoring the exact earlier state; return it.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> game.undo()
        Turn(alice: G6)
        >>> game.pegs_placed, game.player_to_move
        (0, 'alice')
        """
        if not self._history:
            raise IllegalMoveError("there is no turn to take back")
        turn, before = self._history.pop()
        self._take_back(turn._changes, before)
        return turn

    def copy(self) -> Game:
        """An independent game in the same state, history included, to try moves on.

        >>> game = Game(("alice", "bob"), size=12)
        >>> turn = game.play("G6")
        >>> trial = game.copy()
        >>> turn = trial.play("E7")
        >>> game.pegs_placed, trial.pegs_placed
        (1, 2)
        """
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
            raise OutOfTurnError("it is {player}'s turn",
                                 player=self.players[self._state.next_seat])
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
                raise IllegalMoveError("there is no link {link}",
                                       link=f"{target[0]}-{target[1]}")
            if pos.links[lid] is not colour:
                raise IllegalMoveError("{link} is not your link", link=f"{target[0]}-{target[1]}")
            self._take_link(lid, changes)
            return
        idx = self._own_peg(target, colour)
        for lid in pos.links_of(idx):
            self._take_link(lid, changes)
        changes.steps.append(_PegChange(False, idx, colour, pos.peg_seat[idx]))
        pos.remove_peg(idx)

    def _take_link(self, lid: int, changes: _Changes) -> None:
        changes.steps.append(_LinkChange(False, lid, self.position.links[lid]))
        self.position.remove_link(lid)

    def _place(self, placement: Placement, seat: int, changes: _Changes) -> None:
        colour, pos, geo = self.colour_of_seat(seat), self.position, self.geometry
        idx = geo.index(placement.hole)
        if pos.peg_colour[idx] is not None:
            raise IllegalMoveError("{hole} is already taken", hole=placement.hole)
        if geo.in_border(idx, colour.opponent):
            raise IllegalMoveError("{hole} is in {colour}'s border row", hole=placement.hole,
                                   colour=colour.opponent.said)
        pos.place_peg(idx, colour, seat)
        changes.placed = idx
        changes.steps.append(_PegChange(True, idx, colour, seat))
        for target in placement.links:
            a, b = target if isinstance(target, tuple) else (placement.hole, target)
            self._add_link(a, b, colour, changes)
        if self.rules is RuleSet.PP or placement.link_all:
            for lid in self.position.linkable(idx, colour, self.rules):
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
                "{a} and {b} are not a knight's move apart, so they cannot link", a=a, b=b)
        if lid in self.position.links:
            if self.rules is RuleSet.PP:
                return
            raise IllegalMoveError("{link} is already linked", link=f"{a}-{b}")
        blocker = self.position.blocking_link(lid, colour, self.rules)
        if blocker is not None:
            other = self._link(blocker, self.position.links[blocker])
            raise IllegalMoveError("the link {link} would cross {colour}'s link {other}",
                                   link=f"{a}-{b}", colour=other.colour.said, other=other)
        assert ia != ib
        self._record_link(lid, colour, changes)

    def _record_link(self, lid: int, colour: Colour, changes: _Changes) -> None:
        self.position.add_link(lid, colour)
        changes.steps.append(_LinkChange(True, lid, colour))

    def _act(self, action: Action, seat: int) -> None:
        state, colour = self._state, self.colour_of_seat(seat)
        team = seat % 2
        if action is Action.SWAP:
            if not self.options.swap:
                raise IllegalMoveError("swap is off in this game")
            if state.moves_made != 1 or state.next_seat != seat:
                raise IllegalMoveError("swap is only possible as the second move")
            if seat % 2 == 0:
                raise IllegalMoveError("only the other side may swap the first peg")
            self._state = state._replace(swapped=True, next_seat=(seat + 1) % len(self.players),
                                  privilege_window=seat, moves_made=state.moves_made + 1)
        elif action is Action.PRIVILEGE:
            self._privilege(seat)
        elif action is Action.RESIGN:
            self._end(Reason.RESIGNATION, colour.opponent)
        elif action is Action.TIMEOUT:
            if seat != state.next_seat:
                raise IllegalMoveError("only {player}, whose turn it is, can run out of time",
                                       player=self.players[state.next_seat])
            self._end(Reason.TIME, colour.opponent)
        elif action is Action.OFFER_DRAW:
            if state.draw_offer_team == team:
                raise IllegalMoveError("your side has already offered a draw")
            if state.draw_offer_team is not None:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = state._replace(draw_offer_team=team)
        elif action is Action.ACCEPT_DRAW or action is Action.DECLINE_DRAW:
            accept = action is Action.ACCEPT_DRAW
            if state.draw_offer_team is None:
                raise IllegalMoveError(message("there is no draw offer to accept") if accept
                                       else message("there is no draw offer to decline"))
            if state.draw_offer_team == team:
                raise IllegalMoveError(
                    message("you cannot accept your own side's draw offer") if accept
                    else message("you cannot decline your own side's draw offer"))
            if accept:
                self._end(Reason.AGREEMENT, None)
            else:
                self._state = state._replace(draw_offer_team=None)

    def _privilege_refusal(self, seat: int) -> Message | None:
        """Why `seat` may not call privilege now, or None when it may."""
        state = self._state
        if not self.is_double:
            return message("privilege is only called in Double TwixT")
        if state.privilege_used[seat % 2]:
            return message("your team has already used its privilege")
        if state.privilege_window == seat:
            return None
        if state.privilege_window is None:
            return message("privilege can only be called right after your own move")
        return message("only {player}, who has just moved, can call privilege",
                       player=self.players[state.privilege_window])

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
        for step in reversed(changes.steps):
            if isinstance(step, _LinkChange):
                if step.added:
                    pos.remove_link(step.lid)
                else:
                    pos.add_link(step.lid, step.colour)
            elif step.added:
                pos.remove_peg(step.at)
            else:
                pos.place_peg(step.at, step.colour, step.seat)
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
            raise IllegalMoveError("there is no peg on {hole}", hole=hole)
        if owner is not colour:
            raise IllegalMoveError("{hole} is not your peg", hole=hole)
        return idx

    def _free_mask(self, colour: Colour) -> int:
        """Bitboard of the empty holes `colour` may place in."""
        return self.geometry.placeable[colour] & ~self.position.occupied

    def _open_holes(self, colour: Colour) -> list[int]:
        bits = format(self._free_mask(colour), "b")[::-1]
        return [i for i, bit in enumerate(bits) if bit == "1"]
