"""The move language of docs/move-language.md: parsing a player's text, writing it back.

`G6 link E5 F8`, `remove J9-K11; I11 link K10 J13`, `swap`, `G6 link E5; privilege` …
Case-insensitive, tolerant of extra spaces and commas. Parsing checks only the shape of a
command; whether it is legal on the board is the game's business.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from twixt.language import message
from twixt.rules.errors import InvalidMoveError, quote
from twixt.rules.model import Hole


class Action(enum.Enum):
    """Everything a command can do besides removing and placing."""

    SWAP = "swap"
    PRIVILEGE = "privilege"
    RESIGN = "resign"
    OFFER_DRAW = "offer draw"
    ACCEPT_DRAW = "accept draw"
    DECLINE_DRAW = "decline draw"
    TIMEOUT = "timeout"


#: Actions that may follow a placement or a swap in the same command.
TRAILING_ACTIONS = frozenset({Action.PRIVILEGE, Action.OFFER_DRAW})

#: A link target: one hole (linked to the new peg) or a pair of older pegs.
LinkTarget = Hole | tuple[Hole, Hole]


@dataclass(frozen=True)
class Placement:
    """Place a peg, then add links in the order given."""

    hole: Hole
    links: tuple[LinkTarget, ...] = ()
    #: `G6 link all`: also every other legal link of the new peg (pp does this always)
    link_all: bool = False

    def __str__(self) -> str:
        targets = [_target_text(t) for t in self.links] + (["all"] if self.link_all else [])
        return f"{self.hole} link {' '.join(targets)}" if targets else str(self.hole)


@dataclass(frozen=True)
class Command:
    """One player's command: removals, then at most one placement or swap, then actions."""

    removals: tuple[LinkTarget, ...] = ()
    placement: Placement | None = None
    actions: tuple[Action, ...] = ()

    def __str__(self) -> str:
        clauses = []
        if self.removals:
            clauses.append("remove " + " ".join(_target_text(t) for t in self.removals))
        if self.placement:
            clauses.append(str(self.placement))
        clauses.extend(action.value for action in self.actions)
        return "; ".join(clauses)

    @property
    def is_move(self) -> bool:
        """Whether this command is a move of the player to move (a peg or a swap)."""
        return self.placement is not None or Action.SWAP in self.actions


def _target_text(target: LinkTarget) -> str:
    return f"{target[0]}-{target[1]}" if isinstance(target, tuple) else str(target)


_ACTION_WORDS = {tuple(action.value.split()): action for action in Action}
_HINT = message("a move looks like G6, G6 link E5 or remove J9-K11; I11 link K10")


def parse_command(text: str) -> Command:
    """Read a player's command; InvalidMoveError names what is wrong with its shape."""
    clauses = [c for c in (_words(part) for part in text.split(";")) if c]
    if not clauses:
        raise InvalidMoveError("the command is empty: {hint}", hint=_HINT)
    removals: list[LinkTarget] = []
    placement: Placement | None = None
    actions: list[Action] = []
    for words in clauses:
        action = _ACTION_WORDS.get(tuple(words))
        if action is not None:
            actions.append(action)
        elif words[0] == "remove":
            if placement or actions:
                raise InvalidMoveError("removals come first, before the peg is placed")
            if len(words) == 1:
                raise InvalidMoveError("remove what? write remove J9-K11 or remove H4")
            removals.extend(_target(w) for w in words[1:])
        elif placement is None and not actions:
            placement = _placement(words)
        elif placement is not None:
            raise InvalidMoveError("a turn places only one peg")
        elif _looks_like_hole(words[0]) and set(actions) <= TRAILING_ACTIONS:
            # `privilege; L12 link K10`: an action that may follow a move, written before it
            late = "; ".join(action.value for action in actions)
            raise InvalidMoveError("{late} comes after the move: write {placement}; {late}",
                                   late=late, placement=_placement(words))
        else:
            raise InvalidMoveError("I don't understand {text}: {hint}",
                                   text=quote(" ".join(words)), hint=_HINT)
    command = Command(tuple(removals), placement, tuple(actions))
    _check_shape(command)
    return command


def _check_shape(command: Command) -> None:
    actions = command.actions
    if len(set(actions)) != len(actions):
        raise InvalidMoveError("the same action is given twice")
    if command.removals and command.placement is None:
        raise InvalidMoveError("after removing, the turn must place a peg, like remove H4; G6")
    if command.is_move:
        leading = actions[1:] if Action.SWAP in actions[:1] else actions
        extra = [a for a in leading if a not in TRAILING_ACTIONS]
        if extra or (command.placement and Action.SWAP in actions):
            wrong = extra[0].value if extra else "swap"
            raise InvalidMoveError("{action} cannot be combined with a move", action=wrong)
    elif len(actions) > 1:
        raise InvalidMoveError("{first} and {second} cannot be combined",
                               first=actions[0].value, second=actions[1].value)


def _words(clause: str) -> list[str]:
    clause = re.sub(r"\s*-\s*", "-", clause.replace(",", " ").lower())
    return clause.split()


def _target(word: str) -> LinkTarget:
    if "-" in word:
        parts = word.split("-")
        if len(parts) != 2 or not all(parts):
            raise InvalidMoveError("{text} is not a link: write two holes like J9-K11",
                                   text=quote(word))
        return Hole.parse(parts[0]), Hole.parse(parts[1])
    return Hole.parse(word)


def _placement(words: list[str]) -> Placement:
    hole = Hole.parse(words[0]) if _looks_like_hole(words[0]) else None
    if hole is None:
        raise InvalidMoveError("I don't understand {text}: {hint}",
                               text=quote(" ".join(words)), hint=_HINT)
    rest = words[1:]
    if rest and rest[0] != "link":
        raise InvalidMoveError("after {hole} write link and the pegs to link, like {hole} link E5",
                               hole=hole)
    words = [w for w in rest if w != "link"]
    if rest and not words:
        raise InvalidMoveError("link to what? write {hole} link E5", hole=hole)
    targets = tuple(_target(w) for w in words if w != "all")
    return Placement(hole, targets, link_all="all" in words)


def _looks_like_hole(word: str) -> bool:
    return re.fullmatch(r"[a-z]+[0-9]+", word) is not None
