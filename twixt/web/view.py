"""What a web page is told of a game: the service's view of it (`TwixtService.game_view`) as
the JSON the page draws — the board, the players, the clock, the offers, and the controls
open to the page's player now, each with its label in the page's language.

Each page is told its own view (a player's controls are theirs alone); the page works out
nothing of the rules itself, and acts only through the controls it was given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from twixt.language import Message, Translation, message, unmarked
from twixt.rules import MAX_SIZE, Action, Colour, Hole, Link, Turn

if TYPE_CHECKING:  # named in annotations alone (a view's module loads with the first view)
    from twixt.service import Control, GameView

#: the turns whose words `said_turn` keeps, in each language asked (a view lists every turn
#: of its game, after every change: each is said once, not once a view)
SAID_TURNS = 20_000
#: the encoded seat, palette and controls a page's own fields are kept for (a few sets of
#: controls a seat and language recur in every game)
OWN_TEXTS = 1024


@cache
def _hole_names() -> tuple[tuple[str, ...], ...]:
    """Every hole's name as written (`G6`), by row and column: a view names every peg and
    link end after every change, and a look-up by two numbers hashes no hole."""
    return tuple(tuple(str(Hole(col, row)) for col in range(MAX_SIZE)) for row in range(MAX_SIZE))


#: a colour's value, looked up (an enum's `.value` is a descriptor call)
_COLOUR = {colour: colour.value for colour in Colour}


def _links(links: Iterable[Link]) -> list[list[str]]:
    """Links as [end, end, colour], each in one order (the ends sorted as holes sort:
    by column, then row)."""
    names = _hole_names()
    said = []
    for link in links:
        a, b = link.a, link.b
        if (b.col, b.row) < (a.col, a.row):
            a, b = b, a
        said.append([names[a.row][a.col], names[b.row][b.col], _COLOUR[link.colour]])
    return said


#: `json.dumps` of what a live event shares, made once: its lists and dicts are made afresh
#: for each event, so there is no cycle to look for (and `json.dumps` given an option makes
#: an encoder for every call)
_ENCODE = json.JSONEncoder(check_circular=False).encode


def view_json(view: GameView, tr: Translation) -> dict[str, Any]:
    """The page's JSON of `view`, its clock said by `tr`."""
    return {**_own(view), **_shared(view, tr)}


def views_text(views: Sequence[GameView], tr: Translation) -> list[str]:
    """`view_json` of each of some views of one game at one moment, said by `tr`, as JSON
    text: what a game's live pages in one language are told after a change. What the views
    share (all but whose page it is, its controls and its palette) is made and encoded once
    for them all, each page's own fields put before it (encoded once for each seat, palette
    and set of controls: they recur from change to change)."""
    shared = _ENCODE(_shared(views[0], tr))[1:]
    return [f"{_own_text(view.you, view.palette, view.controls)}, {shared}" for view in views]


@lru_cache(maxsize=OWN_TEXTS)
def _own_text(you: int | None, palette: str, controls: tuple[Control, ...]) -> str:
    """`_own`'s fields as JSON text, without the closing brace."""
    return json.dumps(_own_fields(you, palette, controls))[:-1]


def _own(view: GameView) -> dict[str, Any]:
    """What only the page's own person sees of a view: their seat, controls and palette."""
    return _own_fields(view.you, view.palette, view.controls)


def _own_fields(you: int | None, palette: str, controls: tuple[Control, ...]
                ) -> dict[str, Any]:
    return {
        "you": you,
        "palette": palette,
        "controls": [{"name": control.name, "label": control.label,
                      "text": control.takes_text, "example": control.example}
                     for control in controls],
    }


def _shared(view: GameView, tr: Translation) -> dict[str, Any]:
    """What every page of the game in `tr`'s language is told alike."""
    last = view.last
    outcome = view.outcome
    names = _hole_names()
    return {
        "game": view.game_id,
        # the page keeps the newest view it has seen: every change anyone can see moves it
        "version": view.live_version,
        "active": view.active,
        "cols": view.cols,
        "rows": view.rows,
        "rules": view.rules.value,
        "seats": [{"seat": seat.number, "name": seat.name, "colour": _COLOUR[seat.colour]}
                  for seat in view.seats],
        "to_move": view.to_move,
        "pegs": [[names[peg.hole.row][peg.hole.col], _COLOUR[peg.colour], peg.seat]
                 for peg in view.pegs],
        "links": _links(view.links),
        "last": [names[last.placed.row][last.placed.col]] if last and last.placed else [],
        "last_text": said_turn(last, tr) if last else "",
        "last_seat": last.seat if last else None,
        "clock": tr.say(view.clock) if view.clock is not None else None,
        # each player's bank and vacation, as `status` says them: the panel lists them
        "seat_clocks": [tr.say(line) for line in view.seat_clocks],
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
        "aborted": view.aborted,
        "step": view.step,
        "turns": view.turns,
        "history": [said_turn(turn, tr) for turn in view.history],
    }


#: the move language's words as a page says them (holes are the same in every language)
_ACTIONS: dict[str, Message] = {
    Action.SWAP.value: message("swap"),
    Action.PRIVILEGE.value: message("privilege"),
    Action.RESIGN.value: message("resign"),
    Action.OFFER_DRAW.value: message("offer draw"),
    Action.ACCEPT_DRAW.value: message("accept draw"),
    Action.DECLINE_DRAW.value: message("decline draw"),
    Action.TIMEOUT.value: message("out of time"),
}
_REMOVE = "remove "
_LINK = " link "


def said_turn(turn: Turn, tr: Translation) -> str:
    """`bob: E7 link G6; offer draw` in the page's language: the turn's canonical text (every
    link written out), clause by clause, its words said by `tr`, its holes as they are."""
    return _said_turn(turn.player, turn.text, tr)


@lru_cache(maxsize=SAID_TURNS)
def _said_turn(player: str, text: str, tr: Translation) -> str:
    clauses = []
    for clause in text.split("; "):
        if clause in _ACTIONS:
            said = tr.say(_ACTIONS[clause])
        elif clause.startswith(_REMOVE):
            said = tr.say(message("remove {targets}", targets=clause.removeprefix(_REMOVE)))
        elif _LINK in clause:
            hole, targets = clause.split(_LINK, 1)
            said = tr.say(message("{hole} link {targets}", hole=hole, targets=targets))
        else:
            said = clause
        clauses.append(unmarked(said))
    return f"{player}: {'; '.join(clauses)}"
