"""What a web page is told of a game: the board, the players and what may be done, as JSON.

One view serves every viewer of a game (it is sent once to all of a game's live pages); the
page works out from `you` (its own seat, sent with its first view) what its player may do.
A finished game can be looked at turn by turn (`step`): the view is then the position after
that many turns, worked out on a copy.
"""

from __future__ import annotations

from typing import Any

from twixt.language import Message, Translation
from twixt.rules import Game, Hole, IllegalMoveError, Placement, RuleSet, parse_command
from twixt.storage import Offer, OfferKind, StoredGame


def board_view(stored: StoredGame, game: Game, clock: Message | None,
               offers: tuple[Offer, ...], tr: Translation,
               step: int | None = None) -> dict[str, Any]:
    """The view of `game` (stored as `stored`, its clock saying `clock`): at `step` turns
    (of a finished game only; None: as it stands)."""
    turns = len(game.history)
    shown = game
    if step is not None and not stored.is_active and 0 <= step < turns:
        shown = game.copy()
        for _ in range(turns - step):
            shown.undo()
    else:
        step = turns
    last = shown.last_turn
    takeback = next((o for o in offers if o.kind is OfferKind.TAKEBACK
                     and o.at_version == stored.version), None)
    asker = stored.seat_of(takeback.user_id) if takeback else None
    outcome = game.outcome
    return {
        "game": stored.id,
        "version": stored.version,
        "active": stored.is_active,
        "cols": shown.geometry.cols,
        "rows": shown.geometry.rows,
        "rules": shown.rules.value,
        "seats": [{"seat": seat.number, "name": seat.name,
                   "colour": game.colour_of_seat(seat.number).value} for seat in stored.seats],
        "to_move": shown.seat_to_move if stored.is_active and step == turns else None,
        "pegs": [[str(peg.hole), peg.colour.value] for peg in shown.pegs()],
        "links": [[*(str(hole) for hole in sorted(link.ends)), link.colour.value]
                  for link in shown.links()],
        "last": [str(last.placed)] if last and last.placed else [],
        "last_text": f"{last.player}: {last.text}" if last else "",
        "last_seat": last.seat if last else None,
        "clock": tr.say(clock) if clock is not None and stored.is_active else None,
        "can_swap": stored.is_active and game.can_swap(),
        # the seat that may call privilege now: the player who has just moved
        "privilege_seat": next((seat for seat, name in enumerate(game.players)
                                if game.can_call_privilege(name)), None)
        if stored.is_active and game.is_double else None,
        "draw_offered_by": game.draw_offered_by.value if game.draw_offered_by else None,
        "takeback_by": asker.number if asker else None,
        "outcome": None if outcome is None else {
            "winner": outcome.winner.value if outcome.winner else None,
            "reason": outcome.reason.value, "winners": list(outcome.winners)},
        "aborted": not stored.is_active and outcome is None,
        "step": step,
        "turns": turns,
        "history": [f"{turn.player}: {turn.text}" for turn in game.history],
    }


def preview(game: Game, hole_text: str, seat: int) -> list[list[str]]:
    """The links a peg placed by `seat` at `hole_text` would make: in `pp` all of them (they
    are added by themselves), in `classic` the ones the player may choose. IllegalMoveError
    (or InvalidMoveError) says why the hole cannot take the peg."""
    command = parse_command(hole_text)
    if not isinstance(command.placement, Placement) or command.placement.links:
        raise IllegalMoveError("choose one hole")
    hole: Hole = command.placement.hole
    trial = game.copy()
    turn = trial.push(command, by=game.players[seat])
    links = turn.links_added if trial.rules is RuleSet.PP else trial.legal_links(hole)
    return [[str(hole), str(next(iter(link.ends - {hole})))] for link in links]
