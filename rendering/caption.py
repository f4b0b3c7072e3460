"""The caption under the board: the last move, whose turn it is or how the game ended, the
teams in Double TwixT, and what the last move removed.

`caption_lines` decides the words (testable without pixels); `draw_caption` sets them. The
number of lines depends only on the kind of game, so every frame of a replay has one size.

The strip is drawn in RGB, so text and swatches blend smoothly, and mapped onto the palette
as one piece. Setting a run of text is the caption's main cost and holds the GIL, so each
run is set once into a mask and kept: names, "to move", the roster and the common move
numbers come back turn after turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.encode import quantize
from rendering.fonts import font
from rendering.options import RenderOptions
from rendering.sprites import disc
from rendering.view import BoardView, Team
from rules import Colour, Outcome, Reason


@dataclass(frozen=True)
class Words:
    """A run of text; `muted` for secondary facts, `bold` for what a player looks for first."""

    text: str
    bold: bool = False
    muted: bool = False


@dataclass(frozen=True)
class Swatch:
    """A small peg in a side's colour (with the partner mark where it applies) in the text."""

    colour: Colour
    marked: bool = False


Line = tuple[Words | Swatch, ...]


def line_count(is_double: bool) -> int:
    return 5 if is_double else 3


def caption_lines(view: BoardView) -> list[Line]:
    """The caption of a position, one tuple of runs per line."""
    lines = [_headline(view), _status(view)]
    if view.is_double:
        lines.extend(_team_line(view, team) for team in view.teams)
    lines.append(_removed(view) or (() if view.is_double else _roster(view)))
    return lines


def line_text(line: Line) -> str:
    """The words of a line without the swatches, e.g. for alt text or tests."""
    return "".join(run.text for run in line if isinstance(run, Words))


def _headline(view: BoardView) -> Line:
    last = view.last
    if last is None:
        return (Words("New game", bold=True),
                Words(f"   {view.cols}×{view.rows}, {view.rules} rules", muted=True))
    return (Words(f"Move {view.move}   ", bold=True),
            Swatch(last.colour, view.is_marked_seat(last.seat)),
            Words(f" {last.player} ({last.colour.title}):  "), Words(last.text, bold=True))


def _result(outcome: Outcome, loser_to_move: Colour) -> str:
    winner = outcome.winner
    if winner is None:
        return {
            Reason.AGREEMENT: "Draw by agreement",
            Reason.BLOCKADE: "Draw by blockade: neither side can complete a chain any more",
            Reason.NO_MOVES: f"Draw: {loser_to_move.title} has no hole left to play",
        }.get(outcome.reason, "Draw")
    names = ", ".join(outcome.winners)
    how = {
        Reason.CONNECTION: "by connection",
        Reason.RESIGNATION: f"({winner.opponent.title} resigned)",
        Reason.TIME: f"on time ({winner.opponent.title} ran out)",
        Reason.AGREEMENT: "by agreement",
    }.get(outcome.reason, "")
    return f"{winner.title} wins {how}: {names}"


def _status(view: BoardView) -> Line:
    if view.outcome is not None:
        winner, result = view.outcome.winner, _result(view.outcome, view.colour_to_move)
        if winner is None:
            return (Words(result, bold=True),)
        return Swatch(winner), Words(f" {result}", bold=True)
    seat = view.seat_to_move
    seat_text = f", seat {seat + 1}" if view.is_double and seat is not None else ""
    line: Line = (Swatch(view.colour_to_move, seat is not None and view.is_marked_seat(seat)),
                  Words(f" {view.player_to_move} to move", bold=True),
                  Words(f" ({view.colour_to_move.title}{seat_text})"))
    if view.clock is not None:
        line += (Words(f"   {view.clock}", muted=True),)
    if view.draw_offered_by is not None:
        line += (Words(f"   {view.draw_offered_by.title} offers a draw", muted=True),)
    return line


def _team_line(view: BoardView, team: Team) -> Line:
    line: Line = (Words(f"{team.colour.title}:"),)
    for seat, name in zip(team.seats, team.players, strict=True):
        line += (Words("  "), Swatch(team.colour, view.is_marked_seat(seat)), Words(f" {name}"))
    state = "privilege available" if team.privilege else "privilege used"
    return (*line, Words(f"   {state}", muted=True))


def _roster(view: BoardView) -> Line:
    red, black = view.teams
    return (Swatch(Colour.RED), Words(f" {', '.join(red.players)} (Red)   ", muted=True),
            Swatch(Colour.BLACK), Words(f" {', '.join(black.players)} (Black)", muted=True))


def _removed(view: BoardView) -> Line:
    marked = view.marked
    if marked is None or not (marked.links_removed or marked.pegs_removed):
        return ()
    gone_pegs = {peg.hole for peg in marked.pegs_removed}
    links = [str(link) for link in marked.links_removed
             if not link.ends & gone_pegs]
    items = [f"peg {peg.hole}" for peg in marked.pegs_removed] + [f"link {x}" for x in links]
    return (Words(f"Removed by {marked.player} (shown faintly): {', '.join(items)}",
                  muted=True),)


def _sizes(options: RenderOptions) -> tuple[int, int]:
    """Font size and line height of the caption."""
    size = max(11, round(26 * options.scale))   # below 11 px the text is a smudge
    return size, round(size * 1.55)


def caption_height(is_double: bool, options: RenderOptions) -> int:
    _size, line_height = _sizes(options)
    return line_count(is_double) * line_height + line_height // 2


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    return font(size).getlength(text)


def _run_width(run: Words | Swatch, size: int, stroke: float) -> float:
    if isinstance(run, Swatch):
        return size * 0.9
    return _length(run.text, size) + (2 * stroke if run.bold else 0)


@lru_cache(maxsize=1024)
def _run_mask(text: str, size: int, stroke: float) -> tuple[Image.Image, tuple[int, int]]:
    """A run of text set in white on black, and where its top-left lies from the point at
    the left end of its middle line (anchor "lm")."""
    box = font(size).getbbox(text, anchor="lm", stroke_width=stroke)   # fractional with a stroke
    left, top, right, bottom = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]),
                                math.ceil(box[3]))
    mask = Image.new("L", (right - left, bottom - top))
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size), anchor="lm",
                              stroke_width=stroke)
    return mask, (left, top)


def draw_caption(image: Image.Image, top: int, lines: list[Line],
                 options: RenderOptions) -> None:
    """Set the lines in the strip of `image` from `top` down, each shrunk to fit if needed."""
    colours = options.colours
    strip = Image.new("RGB", (image.width, image.height - top), colours.caption)
    base, line_height = _sizes(options)
    margin = round(line_height * 0.6)
    stroke = 0.8 * options.scale if options.scale > 0.5 else 0.0   # bold only where it shows
    for index, line in enumerate(lines):
        natural = sum(_run_width(run, base, stroke) for run in line)
        size = min(base, int(base * (image.width - 2 * margin) / natural)) if natural else base
        x = float(margin)
        y = line_height // 4 + index * line_height + line_height // 2
        for run in line:
            if isinstance(run, Swatch):
                ink = colours.ink[run.colour]
                square = colours.square_black and run.colour is Colour.BLACK
                mark = colours.mark if run.marked else None
                centre = (round(x + size * 0.4), y)
                disc(size * 0.5, colours.plate).paste(strip, centre)   # a bit of board
                disc(size * 0.36, ink.fill, ink.rim, max(1.0, size * 0.06), square,
                     mark).paste(strip, centre)
            elif run.text.strip():
                mask, (left, rise) = _run_mask(run.text, size, stroke if run.bold else 0)
                strip.paste(colours.muted if run.muted else colours.text,
                            (round(x) + left, y + rise), mask)
            x += _run_width(run, size, stroke)
    image.paste(quantize(strip, options.theme, options.palette), (0, top))
