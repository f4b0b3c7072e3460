"""What the service says: turn announcements, results, status, help. Plain text with light
Markdown; names are the players' display names, never pings (mentions travel separately)."""

from __future__ import annotations

from collections.abc import Callable

from rules import Colour, Game, Outcome, Reason
from storage import (
    ChallengeClosedError,
    ChannelBusyError,
    GameFinishedError,
    NotInvited,
    NotInvitedError,
    StaleVersionError,
    StorageError,
    StoredGame,
)

#: how a player's name in a game is printed
Shown = Callable[[str], str]

HELP = """**TwixT** — connect your two borders with a chain of linked pegs.
Red joins top and bottom (rows 1 and last), Black joins left and right (columns A and last).
A turn: optionally remove your own links/pegs (classic), place one peg (not in your
opponent's border rows), then link pegs of yours a knight's move apart. Links never cross
(in **pp** rules your own may). Red moves first; with swap, Black may answer the first peg
with `swap` and take it over.
**Moves:** `G6` · `G6 link E5` · `G6 link E5 F8` · `G6 link E5-D7` (link two older pegs) ·
`G6 link all` · `remove J9-K11; I11 link K10 J13` · `swap` · `resign` ·
`offer draw` / `accept draw` / `decline draw` · Double TwixT: `G6 link E5; privilege`.
**Commands:** challenge, team, accept, decline, move, swap, privilege, resign, draw,
takeback, claim, board, status, abort, export, history, replay, import, stats, leaderboard,
rematch, settings, help."""


def storage_refusal(error: StorageError) -> str:
    """What a player reads when storage refuses: storage says what happened, this says it."""
    match error:
        case StaleVersionError():
            return "the board changed while you were moving: look at it again"
        case GameFinishedError():
            return "this game is already over"
        case ChannelBusyError():
            return "this channel already has a game: finish it first, or challenge with " \
                   "thread yes"
        case ChallengeClosedError(state="expired"):
            return "this challenge has expired"
        case ChallengeClosedError(state=state):
            return f"this challenge is already {state}"
        case NotInvitedError(reason=NotInvited.OWN_CHALLENGE):
            return "you cannot answer your own challenge"
        case NotInvitedError(reason=NotInvited.NOT_NAMED):
            return "you were not invited: there is nothing to decline"
        case NotInvitedError(reason=NotInvited.NO_PLACE_LEFT):
            return "every place in this challenge is taken"
    raise error  # not a refusal for a player: the funnel logs it


def counted(number: int, thing: str) -> str:
    """`1 move`, `2 moves`: a number and the word it counts."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def result_sentence(outcome: Outcome, game: Game, shown: Shown = str) -> str:
    """`alice wins by connection.` / `Draw by blockade: …`; `shown` turns a player's name in
    the game into the name to print (for names read from a record, cleaned)."""
    if outcome.winner is None:
        return {
            Reason.AGREEMENT: "Draw by agreement.",
            Reason.BLOCKADE: "Draw by blockade: neither side can complete a chain any more.",
            Reason.NO_MOVES: f"Draw: {game.colour_to_move.title} has no hole left to play.",
        }.get(outcome.reason, "Draw.")
    winners = " and ".join(map(shown, outcome.winners))
    verb = "win" if len(outcome.winners) > 1 else "wins"
    how = {
        Reason.CONNECTION: "by connection",
        Reason.RESIGNATION: f"— {outcome.winner.opponent.title} resigned",
        Reason.TIME: f"on time — {outcome.winner.opponent.title} ran out of time",
    }[outcome.reason]
    return f"{winners} ({outcome.winner.title}) {verb} {how}."


def to_move_sentence(game: Game, clock: str | None = None, shown: Shown = str) -> str:
    """`bob (Black) to move.` with Double TwixT's seat and the time left, if any."""
    seat = game.seat_to_move
    if seat is None:
        return ""
    name = shown(game.players[seat])
    where = f", seat {seat + 1}" if game.is_double else ""
    time_left = f" ({clock})" if clock else ""
    return f"{name} ({game.colour_to_move.title}{where}) to move.{time_left}"


def status_text(stored: StoredGame, game: Game, setup_words: str,
                clock: str | None = None) -> str:
    """The facts of a game in a few lines, for `status`."""
    lines = [f"**Game {stored.id}** — {setup_words}"]
    for colour in Colour:
        names = " & ".join(game.players_of(colour))
        extra = ""
        if game.is_double:
            extra = " · privilege " + ("available" if game.privilege_available(colour)
                                       else "used")
        lines.append(f"{colour.title}: {names}{extra}")
    lines.append(f"Moves: {game.moves_made}" + (
        f" · last: {game.last_turn.player}: `{game.last_turn.text}`" if game.last_turn else ""))
    if game.outcome:
        lines.append(result_sentence(game.outcome, game))
    else:
        lines.append(to_move_sentence(game, clock))
        if game.draw_offered_by:
            lines.append(f"{game.draw_offered_by.title} has offered a draw.")
    return "\n".join(lines)
