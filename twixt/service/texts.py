"""What the service says: turn announcements, results, status. Plain text with light
Markdown; names are the players' display names, never pings (mentions travel separately).
Each text is said in the language of a `Translation` (the asker's, or the server's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce

from twixt.language import Markup, Message, Translation, bold, code, message
from twixt.rules import Colour, Game, Outcome, Reason, Turn
from twixt.service.errors import ConflictError, NotAllowedError, ServiceError
from twixt.storage import (
    ChallengeClosedError,
    ChannelBusyError,
    DatabaseError,
    DatabaseFault,
    GameFinishedError,
    NotInvited,
    NotInvitedError,
    StaleVersionError,
    StorageError,
    StoredGame,
)

#: how a player's name in a game is printed
Shown = Callable[[str], str]

_CLOSED = {
    "expired": message("this challenge has expired"),
    "accepted": message("this challenge is already accepted"),
    "declined": message("this challenge is already declined"),
    "cancelled": message("this challenge is already cancelled"),
    "changed": message("this challenge was answered meanwhile: look at it again"),
}
_NO_LONGER_OPEN = message("this challenge is no longer open")


def storage_refusal(error: StorageError) -> ServiceError:
    """What a player is refused with when storage refuses: storage says what happened, this
    says it, and of which kind."""
    match error:
        case StaleVersionError():
            return ConflictError("the board changed while you were moving: look at it again")
        case GameFinishedError():
            return ConflictError("this game is already over")
        case ChannelBusyError():
            return ConflictError("this channel already has a game: finish it first, or "
                                 "challenge with thread yes")
        case ChallengeClosedError(state=state):
            return ConflictError(_CLOSED.get(state, _NO_LONGER_OPEN))
        case NotInvitedError(reason=NotInvited.OWN_CHALLENGE):
            return NotAllowedError("you cannot answer your own challenge")
        case NotInvitedError(reason=NotInvited.NOT_NAMED):
            return NotAllowedError("you were not invited: there is nothing to decline")
        case NotInvitedError(reason=NotInvited.NO_PLACE_LEFT):
            return ConflictError("every place in this challenge is taken")
    raise error  # not a refusal for a player: the funnel logs it


#: what a player reads of a database that cannot be used, by its fault (the operator reads the
#: cause in the log)
_DATABASE_FAULTS = {
    DatabaseFault.READ_ONLY: message("its database may not be written"),
    DatabaseFault.FULL: message("its disk is full"),
    DatabaseFault.GONE: message("its database file was removed"),
}
_DATABASE_FAILED = message("its database failed")


def database_refusal(error: DatabaseError) -> Message:
    """What a player reads when the database fails: nothing was stored, and why, so that they
    can tell whoever runs the bot rather than try again and again."""
    return message("The bot cannot store anything just now ({why}); nothing was changed. "
                   "Please tell whoever runs the bot.",
                   why=_DATABASE_FAULTS.get(error.fault, _DATABASE_FAILED))


def names_and(names: Sequence[str], tr: Translation) -> str:
    """`alice`, `alice and bob`, `alice and bob and carol`: names said together."""
    if not names:
        return ""
    return reduce(lambda text, name: tr("{names} and {name}", names=text, name=name), names)


def result_sentence(outcome: Outcome, game: Game, tr: Translation, shown: Shown = str) -> str:
    """`alice wins by connection.` / `Draw by blockade: …`, said by `tr`; `shown` turns a
    player's name in the game into the name to print (for names read from a record, cleaned)."""
    if outcome.winner is None:
        return tr.say({
            Reason.AGREEMENT: message("Draw by agreement."),
            Reason.BLOCKADE: message("Draw by blockade: neither side can complete a chain any "
                                     "more."),
            Reason.NO_MOVES: message("Draw: {colour} has no hole left to play.",
                                     colour=game.colour_to_move.said),
        }.get(outcome.reason, message("Draw.")))
    values = dict(winners=names_and([shown(name) for name in outcome.winners], tr),
                  colour=outcome.winner.said, loser=outcome.winner.opponent.said)
    count = len(outcome.winners)
    if outcome.reason is Reason.CONNECTION:
        return tr.plural("{winners} ({colour}) wins by connection.",
                         "{winners} ({colour}) win by connection.", count, **values)
    if outcome.reason is Reason.RESIGNATION:
        return tr.plural("{winners} ({colour}) wins — {loser} resigned.",
                         "{winners} ({colour}) win — {loser} resigned.", count, **values)
    if outcome.reason is Reason.TIME:
        return tr.plural("{winners} ({colour}) wins on time — {loser} ran out of time.",
                         "{winners} ({colour}) win on time — {loser} ran out of time.", count,
                         **values)
    return tr.plural("{winners} ({colour}) wins.", "{winners} ({colour}) win.", count, **values)


def turn_line(turn: Turn, tr: Translation) -> Markup:
    """`**alice** (Red): `G6 link E5``: who played what, in a turn's announcement."""
    return Markup(f"{bold(turn.player)} ({tr.say(turn.colour.said)}): {code(turn.text)}")


def to_move_sentence(game: Game, tr: Translation, clock: Message | str | None = None,
                     shown: Shown = str) -> str:
    """`bob (Black) to move.` with Double TwixT's seat and the time left (`clock`), if any,
    said by `tr`."""
    seat = game.seat_to_move
    if seat is None:
        return ""
    name = shown(game.players[seat])
    colour = game.colour_to_move.said
    sentence = (tr("{name} ({colour}, seat {seat}) to move.", name=name, colour=colour,
                   seat=seat + 1) if game.is_double
                else tr("{name} ({colour}) to move.", name=name, colour=colour))
    return f"{sentence} ({tr.say(clock)})" if clock else sentence


def status_text(stored: StoredGame, game: Game, setup: Message | str, tr: Translation,
                clock: Message | str | None = None) -> str:
    """The facts of a game in a few lines, for `status`, said by `tr`."""
    lines = [tr("**Game {game}** — {setup}", game=stored.id, setup=setup)]
    for colour in Colour:
        names = " & ".join(game.players_of(colour))
        if not game.is_double or game.is_over:  # a finished game offers no privilege
            lines.append(tr("{colour}: {names}", colour=colour.said, names=names))
        elif game.privilege_available(colour):
            lines.append(tr("{colour}: {names} · privilege available", colour=colour.said,
                            names=names))
        else:
            lines.append(tr("{colour}: {names} · privilege used", colour=colour.said,
                            names=names))
    last = game.last_turn
    lines.append(tr("Moves: {count} · last: {player}: `{move}`", count=game.moves_made,
                    player=last.player, move=last.text) if last
                 else tr("Moves: {count}", count=game.moves_made))
    if game.outcome:
        lines.append(result_sentence(game.outcome, game, tr))
    else:
        lines.append(to_move_sentence(game, tr, clock))
        if game.draw_offered_by:
            lines.append(tr("{colour} has offered a draw.", colour=game.draw_offered_by.said))
    return "\n".join(lines)
