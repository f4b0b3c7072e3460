"""What a web page is told of a game: the service's view of it (`TwixtService.game_view`) as
the JSON the page draws — the board, the players, the clock, the offers, and the controls
open to the page's player now, each with its label in the page's language.

Each page is told its own view (a player's controls are theirs alone); the page works out
nothing of the rules itself, and acts only through the controls it was given.
"""

from __future__ import annotations

from typing import Any

from twixt.language import Translation
from twixt.service import GameView


def view_json(view: GameView, tr: Translation) -> dict[str, Any]:
    """The page's JSON of `view`, its clock said by `tr`."""
    last = view.last
    outcome = view.outcome
    return {
        "game": view.game_id,
        # the page keeps the newest view it has seen: every change anyone can see moves it
        "version": view.live_version,
        "active": view.active,
        "cols": view.cols,
        "rows": view.rows,
        "rules": view.rules.value,
        "seats": [{"seat": seat.number, "name": seat.name, "colour": seat.colour.value}
                  for seat in view.seats],
        "you": view.you,
        "to_move": view.to_move,
        "pegs": [[str(peg.hole), peg.colour.value] for peg in view.pegs],
        "links": [[*(str(hole) for hole in sorted(link.ends)), link.colour.value]
                  for link in view.links],
        "last": [str(last.placed)] if last and last.placed else [],
        "last_text": f"{last.player}: {last.text}" if last else "",
        "last_seat": last.seat if last else None,
        "clock": tr.say(view.clock) if view.clock is not None else None,
        "draw_offered_by": view.draw_offered_by.value if view.draw_offered_by else None,
        "takeback_by": view.takeback_by,
        "outcome": None if outcome is None else {
            "winner": outcome.winner.value if outcome.winner else None,
            "reason": outcome.reason.value, "winners": list(outcome.winners)},
        "aborted": view.aborted,
        "step": view.step,
        "turns": view.turns,
        "history": [f"{turn.player}: {turn.text}" for turn in view.history],
        "controls": [{"name": control.name, "label": control.label,
                      "text": control.takes_text} for control in view.controls],
    }
