"""What a web page is told of a game: the service's view of it (`TwixtService.game_view`) as
the JSON the page draws — the board, the players, the clock, the offers, and the controls
open to the page's player now, each with its label in the page's language.

Each page is told its own view (a player's controls are theirs alone); the page works out
nothing of the rules itself, and acts only through the controls it was given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from twixt.language import Translation
from twixt.rules import Link
from twixt.service import GameView


def _links(links: Iterable[Link]) -> list[list[str]]:
    """Links as [end, end, colour], each in one order (the ends sorted)."""
    return [[*(str(hole) for hole in sorted(link.ends)), link.colour.value] for link in links]


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
        "pegs": [[str(peg.hole), peg.colour.value, peg.seat] for peg in view.pegs],
        "links": _links(view.links),
        "last": [str(last.placed)] if last and last.placed else [],
        "last_text": f"{last.player}: {last.text}" if last else "",
        "last_seat": last.seat if last else None,
        "clock": tr.say(view.clock) if view.clock is not None else None,
        "draw_offered_by": view.draw_offered_by.value if view.draw_offered_by else None,
        "takeback_by": view.takeback_by,
        "outcome": None if outcome is None else {
            "winner": outcome.winner.value if outcome.winner else None,
            "reason": outcome.reason.value, "winners": list(outcome.winners)},
        # drawn as the pictures draw them: the last turn's new links haloed, what it removed
        # faintly, the winning chain haloed, in the viewer's palette
        "last_links": _links(last.links_added) if last else [],
        "removed_pegs": [[str(peg.hole), peg.colour.value] for peg in last.pegs_removed]
        if last else [],
        "removed_links": _links(last.links_removed) if last else [],
        "chain_holes": sorted(str(hole) for hole in view.chain_holes),
        "chain_links": _links(view.chain_links),
        "palette": view.palette,
        "aborted": view.aborted,
        "step": view.step,
        "turns": view.turns,
        "history": [f"{turn.player}: {turn.text}" for turn in view.history],
        "controls": [{"kind": control.kind.value, "label": control.label,
                      "text": control.kind.takes_text} for control in view.controls],
    }
