"""Conditional moves: replies a player stores, in advance, to the opponent's next moves.

`if H9 then G6 link E5` answers the opponent's H9 with G6 link E5. A nested `if` continues the
sequence (`if H9 then G6 if J10 then K8`: after H9 and G6, J10 is answered with K8); `; if`
starts another alternative for the opponent's next move (`if H9 then G6; if J10 then K8`).
The words `if` and `then` split a line, so a `;` inside a move stays part of it
(`if H9 then remove J9-K11; I11 link K10`). The leading `if` may be left out.

A trigger is a move of the opponent: a bare hole (`H9`) stands for any move that places a peg
there, whatever its links and removals; one written with links or removals must have exactly
that effect; `swap` may be a trigger too. A reply is a move of the move language.

Pure, like the rest of `rules`: the service stores what `check_plan` returns and asks `answer`
which branch an opponent's move calls for. Only two-player games: in Double TwixT "the
opponent's next move" is not one player's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from twixt.rules.errors import IllegalMoveError, InvalidMoveError, quote
from twixt.rules.game import Game, Turn
from twixt.rules.model import Hole
from twixt.rules.notation import Action, Command, parse_command

#: the stored replies of one player in one game, counting every level
MAX_REPLIES = 30
#: replies in one sequence: the opponent's moves a plan looks ahead
MAX_DEPTH = 10
#: characters of a typed line, and of a stored plan written out (`lines`)
MAX_TEXT = 1500

#: `if` / `then` as words (so that no hole such as IF12 is one), and a `;` right before an `if`
_WORD = re.compile(r"(;\s*)?\b(if|then)\b", re.IGNORECASE)
_HINT = "if H9 then G6 link E5; if J10 then K8"


@dataclass(frozen=True)
class Branch:
    """Answer the opponent's `trigger` with `reply`; then, the branches for their next move.

    >>> plan = parse_conditionals("if H9 then G6 if J10 then K8")
    >>> str(plan[0].trigger), str(plan[0].reply), str(plan[0].then[0].reply)
    ('H9', 'G6', 'K8')
    """

    trigger: Command
    reply: Command
    then: tuple[Branch, ...] = ()

    def __str__(self) -> str:
        return f"if {self.trigger} then {self.reply}"


#: a player's branches for the opponent's next move, each with what follows it
Plan = tuple[Branch, ...]


def parse_conditionals(text: str) -> Plan:
    """Read a line of conditional moves into one sequence per alternative, in the order
    written (`merge` folds them into one plan). InvalidMoveError names what is wrong.

    >>> [str(branch) for branch in parse_conditionals("if h9 then g6; if J10 then K8")]
    ['if H9 then G6', 'if J10 then K8']
    >>> [str(b.then[0]) for b in parse_conditionals("H9 then remove E5-G6; G6 if J10 then K8")]
    ['if J10 then K8']
    """
    if len(text) > MAX_TEXT:
        raise InvalidMoveError("conditional moves are at most {limit} characters",
                               limit=MAX_TEXT)
    parts = _WORD.split(text)
    chunks = parts[0::3]
    words = [(bool(semicolon), word.lower()) for semicolon, word in
             zip(parts[1::3], parts[2::3], strict=True)]
    if chunks[0].strip():  # the leading `if` left out
        words.insert(0, (False, "if"))
        chunks.insert(0, "")
    if not words or len(words) % 2:
        raise InvalidMoveError("write conditional moves like {example}", example=_HINT)
    sequences: list[list[tuple[Command, Command]]] = []
    for n in range(0, len(words), 2):
        if words[n][1] != "if" or words[n + 1] != (False, "then"):
            raise InvalidMoveError("write conditional moves like {example}", example=_HINT)
        step = _step(chunks[n + 1], chunks[n + 2])
        if words[n][0] or not sequences:
            sequences.append([step])
        elif len(sequences[-1]) == MAX_DEPTH:
            raise InvalidMoveError("a sequence of conditional moves is at most {depth} moves "
                                   "deep", depth=MAX_DEPTH)
        else:
            sequences[-1].append(step)
    if sum(map(len, sequences)) > MAX_REPLIES:
        raise InvalidMoveError("at most {limit} conditional moves", limit=MAX_REPLIES)
    return tuple(_chain(sequence) for sequence in sequences)


def check_plan(game: Game, plan: Plan, player: str) -> Plan:
    """The plan of `player` (not to move in `game`) checked move by move on a copy of the
    game: each trigger legal for the opponent, each reply legal after it. A trigger with
    links or removals comes back as the game writes it (`G6 link all` → `G6 link E5`).
    IllegalMoveError names the branch that cannot be played, and why.

    >>> game = Game(("alice", "bob"), size=12)
    >>> [str(b) for b in check_plan(game, parse_conditionals("if A5 then G6"), "bob")]
    Traceback (most recent call last):
    ...
    twixt.rules.errors.IllegalMoveError: “if A5 then G6”: A5 is in Black's border row
    """
    if game.is_double:
        raise IllegalMoveError("conditional moves are for two-player games")
    if game.is_over:
        raise IllegalMoveError("the game is over")
    if game.player_to_move == player:
        raise IllegalMoveError("it is your turn: play it; conditional moves answer your "
                               "opponent's next move")
    return _checked(game.copy(), plan, player)


def merge(old: Plan, new: Plan) -> Plan:
    """`new` added to `old`: a branch with a new trigger is added, one with a trigger that
    `old` has replaces it — or, with the same reply too, adds its continuation to that
    branch's.

    >>> plan = merge(parse_conditionals("if H9 then G6 if J10 then K8"),
    ...              parse_conditionals("if H9 then G6 if J11 then K9; if C3 then D5"))
    >>> lines(plan)
    ['if H9 then G6', '  if J10 then K8', '  if J11 then K9', 'if C3 then D5']
    >>> lines(merge(plan, parse_conditionals("if H9 then F5")))
    ['if H9 then F5', 'if C3 then D5']
    """
    branches = list(old)
    for branch in new:
        same = next((n for n, b in enumerate(branches) if b.trigger == branch.trigger), None)
        if same is None:
            branches.append(branch)
        elif branches[same].reply == branch.reply:
            branches[same] = Branch(branch.trigger, branch.reply,
                                    merge(branches[same].then, branch.then))
        else:
            branches[same] = branch
    return tuple(branches)


def answer(plan: Plan, game: Game) -> Branch | None:
    """The branch that answers the last turn of `game` (the opponent's move), or None.

    A trigger written with links or removals is looked at first, then a bare hole.

    >>> game = Game(("alice", "bob"), size=12)
    >>> for text in ("G6", "C3"):
    ...     turn = game.play(text)
    >>> plan = parse_conditionals("if E5 then D9; if E5 link G6 then F8")
    >>> turn = game.play("E5")
    >>> str(answer(plan, game).reply)
    'D9'
    >>> turn, turn = game.undo(), game.play("E5 link G6")
    >>> str(answer(plan, game).reply)
    'F8'
    """
    trial = game.copy()
    turn = trial.undo()
    for branch in plan:
        if _is_bare(branch.trigger):
            continue
        try:
            tried = trial.push(branch.trigger, by=turn.player)
        except IllegalMoveError:
            continue
        trial.undo()
        if _effects(tried) == _effects(turn):
            return branch
    return next((b for b in plan if _is_bare(b.trigger) and _bare_match(b.trigger, turn)),
                None)


def count_replies(plan: Plan) -> int:
    """How many replies a plan holds, at every level.

    >>> count_replies(parse_conditionals("if H9 then G6 if J10 then K8; if C3 then D5"))
    3
    """
    return sum(1 + count_replies(branch.then) for branch in plan)


def lines(plan: Plan, depth: int = 0) -> list[str]:
    """The plan written out, one branch a line, each continuation indented under its branch.

    >>> lines(parse_conditionals("if H9 then G6 if J10 then K8"))
    ['if H9 then G6', '  if J10 then K8']
    """
    return [line for branch in plan
            for line in ["  " * depth + str(branch), *lines(branch.then, depth + 1)]]


def check_plan_size(plan: Plan) -> None:
    """InvalidMoveError when a plan is more than a player may store.

    >>> check_plan_size(parse_conditionals("if H9 then G6"))
    """
    if count_replies(plan) > MAX_REPLIES:
        raise InvalidMoveError("at most {limit} conditional moves: clear some with if clear",
                               limit=MAX_REPLIES)
    if len("\n".join(lines(plan))) > MAX_TEXT:
        raise InvalidMoveError("conditional moves are at most {limit} characters: clear some "
                               "with if clear", limit=MAX_TEXT)


# --- internals -------------------------------------------------------------------------


def _step(trigger_text: str, reply_text: str) -> tuple[Command, Command]:
    """One `if TRIGGER then REPLY`, each side a move."""
    said = quote(f"if {trigger_text.strip()} then {reply_text.strip()}")
    try:
        trigger, reply = parse_command(trigger_text), parse_command(reply_text)
    except InvalidMoveError as error:
        raise InvalidMoveError("{branch}: {reason}", branch=said, reason=error.message) from None
    if not trigger.is_move or (trigger.actions and trigger.actions != (Action.SWAP,)):
        raise InvalidMoveError("{branch}: the opponent's move after if is a peg or swap",
                               branch=said)
    if not reply.is_move:
        raise InvalidMoveError("{branch}: the reply after then is a peg or swap", branch=said)
    return trigger, reply


def _chain(steps: list[tuple[Command, Command]]) -> Branch:
    """A sequence as one branch, each later step the continuation of the one before."""
    then: Plan = ()
    for trigger, reply in reversed(steps):
        branch = Branch(trigger, reply, then)
        then = (branch,)
    return branch


def _checked(game: Game, plan: Plan, player: str) -> Plan:
    """`plan` checked in `game`, which is as it was once the checking is done."""
    opponent = game.player_to_move
    checked = []
    for branch in plan:
        turn = _push(game, branch, branch.trigger, opponent)
        try:
            _push(game, branch, branch.reply, player)
        except IllegalMoveError:
            game.undo()
            raise
        try:
            then = _checked(game, branch.then, player)
        finally:
            game.undo()
            game.undo()
        trigger = branch.trigger if _is_bare(branch.trigger) else _written(turn)
        checked.append(Branch(trigger, branch.reply, then))
    return tuple(checked)


def _push(game: Game, branch: Branch, command: Command, player: str | None) -> Turn:
    """Play one side of a branch; IllegalMoveError names the branch."""
    try:
        return game.push(command, by=player)
    except IllegalMoveError as error:
        raise IllegalMoveError("{branch}: {reason}", branch=quote(str(branch)),
                               reason=error.message) from None


def _written(turn: Turn) -> Command:
    """A trigger's move as the game writes it, its links in one order: every link made
    named, so that the same effect is always the same trigger."""
    command = parse_command(turn.text)
    placement = command.placement
    assert placement is not None, "a trigger with links or removals places a peg"
    return replace(command, placement=replace(placement,
                                              links=tuple(sorted(placement.links, key=str))))


def _is_bare(trigger: Command) -> bool:
    """A hole alone, or swap: matched by where the peg went (or by the swap) alone."""
    placement = trigger.placement
    return not trigger.removals and (placement is None or not (placement.links
                                                               or placement.link_all))


def _bare_match(trigger: Command, turn: Turn) -> bool:
    if trigger.placement is None:
        return Action.SWAP in turn.actions
    return turn.placed == trigger.placement.hole


def _effects(turn: Turn) -> tuple[Hole | None, frozenset[Hole], frozenset[frozenset[Hole]],
                                  frozenset[frozenset[Hole]]]:
    """What a move did to the board, whatever order its command named things in."""
    return (turn.placed, frozenset(peg.hole for peg in turn.pegs_removed),
            frozenset(link.ends for link in turn.links_removed),
            frozenset(link.ends for link in turn.links_added))
