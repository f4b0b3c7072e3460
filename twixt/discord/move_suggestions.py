"""`/twixt move`'s autocomplete: the holes the player to move may take now, best first, each
with the links it would make.

Discord asks as the player types (an autocomplete must answer within 3 seconds, at most 25
choices). The channel's game is read through the service's one door for reading
(`TwixtService.channel_game`); no game, a game over or text that is not a hole's start gives
no suggestions, and any command may still be typed: the service judges what is sent.

Best first is a cheap order, not the engine's: a hole that would link to more of the mover's
pegs (a knight's move away) first, then the nearer to the mover's newest peg (the board's
middle before the first). Only the 25 shown are played out on a copy of the game to name
the links they would really make (`G6 link all`, which makes every legal one, as the picker
does; in `pp` rules links are made anyway). `benchmarks/move_suggestions_bench.py` times it
on 48×48.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from twixt.rules import Game, Hole, RuleSet
from twixt.service import ServiceError, TwixtService

#: the most choices Discord takes in an autocomplete's answer
MAX_SUGGESTIONS = 25
#: an autocomplete: the choices for what is typed so far
Suggest = Callable[[discord.Interaction, str],
                   Coroutine[Any, Any, list[app_commands.Choice[str]]]]

#: a link's reach: a knight's move
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def suggested_moves(game: Game, typed: str) -> list[app_commands.Choice[str]]:
    """Up to 25 legal placements starting with `typed` (`G`, `G6`, `g6 l`), best first, as
    Discord's choices: the name says the links, the value is the command sent."""
    start = typed.strip().upper()
    if game.is_over or (start and not start[0].isalpha()):
        return []
    hole_part = start.split(" ", 1)[0]
    candidates = game.legal_placements()
    if hole_part:
        candidates = [hole for hole in candidates if str(hole).startswith(hole_part)]
    if not candidates:
        return []
    colour = game.colour_to_move
    own = [peg.hole for peg in game.pegs() if peg.colour is colour]
    # how many of the mover's pegs each hole is a knight's move from
    reach = Counter((hole.col + dc, hole.row + dr) for hole in own for dc, dr in _KNIGHT)
    mine = set(own)
    newest = next((hole for hole in game.holes_placed_newest_first() if hole in mine), None)
    near = newest or Hole(game.geometry.cols // 2, game.geometry.rows // 2)

    def order(hole: Hole) -> tuple[int, int, int, int]:
        col, row = hole.col, hole.row
        return (-reach[col, row], abs(col - near.col) + abs(row - near.row), row, col)

    best = heapq.nsmallest(MAX_SUGGESTIONS, candidates, key=order)
    return [_choice(game, hole) for hole in best]


def _choice(game: Game, hole: Hole) -> app_commands.Choice[str]:
    """A hole as a choice: played out on a copy, to name the links it makes."""
    manual = game.rules is RuleSet.CLASSIC
    command = f"{hole} link all" if manual else str(hole)
    trial = game.copy()
    links = trial.play(command).links_added
    ends = [str(link.b if link.a == hole else link.a) for link in links]
    name = f"{hole} — links {', '.join(ends)}" if ends else f"{hole} — no link"
    return app_commands.Choice(name=name, value=command if ends else str(hole))


def move_autocomplete(service: TwixtService) -> Suggest:
    """The autocomplete of `/twixt move`'s command: suggestions for the channel's game."""
    async def choices(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            game = await service.channel_game(interaction.channel_id)
        except ServiceError:  # no game here: nothing to suggest
            return []
        return suggested_moves(game, current)

    return choices
