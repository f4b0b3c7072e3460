"""The caption under the board: the last move, whose turn it is or how the game ended, the
teams in Double TwixT, and what the last move removed.

`caption_lines` decides the words (testable without pixels); `draw_caption` sets them. The
number of lines depends only on the kind of game, so every frame of a replay has one size.

Text is set in the font stack (`rendering.text`), so names in any script show. Players'
names are runs of their own: when a line is too wide for the picture, the widest names are
cut with "…" first (each keeps at least `MIN_NAME_EMS`), and only then is the line shrunk.

The strip is drawn in RGB, so text and swatches blend smoothly, and mapped onto the palette
as one piece.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image

from rendering.encode import quantize
from rendering.options import RenderOptions
from rendering.sprites import disc
from rendering.text import cut_to_width, set_text, text_length
from rendering.view import BoardView, Team
from rules import Colour, Outcome, Reason


@dataclass(frozen=True)
class Words:
    """A run of text; `muted` for secondary facts, `bold` for what a player looks for first,
    `name` for a player's name (cut with "…" when the line is too wide)."""

    text: str
    bold: bool = False
    muted: bool = False
    name: bool = False


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
    return (Words(f"Move {view.moves}   ", bold=True),
            Swatch(last.colour, view.is_marked_seat(last.seat)),
            Words(" "), Words(last.player, name=True), Words(f" ({last.colour.title}):  "),
            Words(last.text, bold=True))


def _names(names: tuple[str, ...] | list[str], bold: bool = False,
           muted: bool = False) -> Line:
    """Names separated by commas, each a run of its own."""
    line: Line = ()
    for index, name in enumerate(names):
        if index:
            line += (Words(", ", bold=bold, muted=muted),)
        line += (Words(name, bold=bold, muted=muted, name=True),)
    return line


def _result(outcome: Outcome, loser_to_move: Colour) -> str:
    """How the game ended; after a win the winners' names follow it."""
    winner = outcome.winner
    if winner is None:
        return {
            Reason.AGREEMENT: "Draw by agreement",
            Reason.BLOCKADE: "Draw by blockade: neither side can complete a chain any more",
            Reason.NO_MOVES: f"Draw: {loser_to_move.title} has no hole left to play",
        }.get(outcome.reason, "Draw")
    how = {
        Reason.CONNECTION: "by connection",
        Reason.RESIGNATION: f"({winner.opponent.title} resigned)",
        Reason.TIME: f"on time ({winner.opponent.title} ran out)",
        Reason.AGREEMENT: "by agreement",
    }.get(outcome.reason, "")
    return f"{winner.title} wins {how}: "


def _status(view: BoardView) -> Line:
    if view.outcome is not None:
        winner, result = view.outcome.winner, _result(view.outcome, view.colour_to_move)
        if winner is None:
            return (Words(result, bold=True),)
        return (Swatch(winner), Words(f" {result}", bold=True),
                *_names(view.outcome.winners, bold=True))
    seat = view.seat_to_move
    seat_text = f", seat {seat + 1}" if view.is_double and seat is not None else ""
    line: Line = (Swatch(view.colour_to_move, seat is not None and view.is_marked_seat(seat)),
                  Words(" ", bold=True), Words(str(view.player_to_move), bold=True, name=True),
                  Words(" to move", bold=True),
                  Words(f" ({view.colour_to_move.title}{seat_text})"))
    if view.clock is not None:
        line += (Words(f"   {view.clock}", muted=True),)
    if view.draw_offered_by is not None:
        line += (Words(f"   {view.draw_offered_by.title} offers a draw", muted=True),)
    return line


def _team_line(view: BoardView, team: Team) -> Line:
    line: Line = (Words(f"{team.colour.title}:"),)
    for seat, name in zip(team.seats, team.players, strict=True):
        line += (Words("  "), Swatch(team.colour, view.is_marked_seat(seat)), Words(" "),
                 Words(name, name=True))
    state = "privilege available" if team.privilege else "privilege used"
    return (*line, Words(f"   {state}", muted=True))


def _roster(view: BoardView) -> Line:
    red, black = view.teams
    return (Swatch(Colour.RED), Words(" ", muted=True), *_names(red.players, muted=True),
            Words(" (Red)   ", muted=True), Swatch(Colour.BLACK), Words(" ", muted=True),
            *_names(black.players, muted=True), Words(" (Black)", muted=True))


def _removed(view: BoardView) -> Line:
    marked = view.marked
    if marked is None or not (marked.links_removed or marked.pegs_removed):
        return ()
    gone_pegs = {peg.hole for peg in marked.pegs_removed}
    links = [str(link) for link in marked.links_removed
             if not link.ends & gone_pegs]
    items = [f"peg {peg.hole}" for peg in marked.pegs_removed] + [f"link {x}" for x in links]
    return (Words("Removed by ", muted=True), Words(marked.player, muted=True, name=True),
            Words(f" (shown faintly): {', '.join(items)}", muted=True))


def _sizes(options: RenderOptions) -> tuple[int, int]:
    """Font size and line height of the caption."""
    size = max(11, round(26 * options.scale))   # below 11 px the text is a smudge
    return size, round(size * 1.55)


def caption_height(is_double: bool, options: RenderOptions) -> int:
    _size, line_height = _sizes(options)
    return line_count(is_double) * line_height + line_height // 2


#: However wide a line, a name keeps at least this many ems (some eight letters) of its place.
MIN_NAME_EMS = 5.0


def _run_width(run: Words | Swatch, size: int, stroke: float) -> float:
    if isinstance(run, Swatch):
        return size * 0.9
    return text_length(run.text, size) + (2 * stroke if run.bold else 0)


def _even_share(widths: list[float], room: float) -> float:
    """The widest a name may be so that names this wide fill `room`: the narrower ones keep
    their width and the rest share what is left evenly (infinite when all fit)."""
    left = room
    for index, width in enumerate(sorted(widths)):
        share = left / (len(widths) - index)
        if width > share:
            return share
        left -= width
    return math.inf


@lru_cache(maxsize=1024)
def fit_line(line: Line, room: int, base: int, stroke: float) -> tuple[Line, int]:
    """The line with its widest names cut with "…" so that it fits `room` pixels at font size
    `base` (no name below `MIN_NAME_EMS`), and the size to set it at: `base`, or smaller
    when the words around the names alone are too wide."""
    widths = [_run_width(run, base, stroke) for run in line]
    natural = sum(widths)
    names = [index for index, run in enumerate(line) if isinstance(run, Words) and run.name]
    if natural > room and names:
        others = natural - sum(widths[index] for index in names)
        place = max(_even_share([widths[index] for index in names], room - others),
                    MIN_NAME_EMS * base)
        runs = list(line)
        for index in names:
            run = runs[index]
            if widths[index] > place and isinstance(run, Words):
                runs[index] = replace(run, text=cut_to_width(
                    run.text, math.floor(place), base, stroke if run.bold else 0.0))
        line = tuple(runs)
        natural = sum(_run_width(run, base, stroke) for run in line)
    if natural <= room:
        return line, base
    return line, max(1, int(base * room / natural))


@dataclass(frozen=True)
class SetLine:
    """A caption line as drawn: its runs (names cut), font size, where each run starts across,
    the height of the line's middle and the line's height, in the strip's pixels."""

    runs: Line
    size: int
    starts: tuple[float, ...]
    middle: int
    height: int


def caption_layout(width: int, lines: list[Line], options: RenderOptions) -> list[SetLine]:
    """Where the lines go in a caption strip `width` pixels wide."""
    base, line_height = _sizes(options)
    margin = round(line_height * 0.6)
    stroke = _stroke(options)
    out = []
    for index, line in enumerate(lines):
        runs, size = fit_line(line, width - 2 * margin, base, stroke)
        starts, x = [], float(margin)
        for run in runs:
            starts.append(x)
            x += _run_width(run, size, stroke)
        out.append(SetLine(runs, size, tuple(starts),
                           line_height // 4 + index * line_height + line_height // 2,
                           line_height))
    return out


def _stroke(options: RenderOptions) -> float:
    """The stroke that makes text bold, where it shows."""
    return 0.8 * options.scale if options.scale > 0.5 else 0.0


def draw_caption(image: Image.Image, top: int, lines: list[Line],
                 options: RenderOptions) -> None:
    """Set the lines in the strip of `image` from `top` down, names cut or the line shrunk to
    fit where needed."""
    colours = options.colours
    strip = Image.new("RGB", (image.width, image.height - top), colours.caption)
    stroke = _stroke(options)
    for line in caption_layout(image.width, lines, options):
        size, y = line.size, line.middle
        for run, x in zip(line.runs, line.starts, strict=True):
            if isinstance(run, Swatch):
                ink = colours.ink[run.colour]
                square = colours.square_black and run.colour is Colour.BLACK
                mark = colours.mark if run.marked else None
                centre = (round(x + size * 0.4), y)
                disc(size * 0.5, colours.plate).paste(strip, centre)   # a bit of board
                disc(size * 0.36, ink.fill, ink.rim, max(1.0, size * 0.06), square,
                     mark).paste(strip, centre)
            elif run.text.strip():
                inked = set_text(run.text, size, stroke if run.bold else 0.0)
                if inked.empty:
                    continue
                where = (round(x) + inked.offset[0], y + inked.offset[1])
                strip.paste(colours.muted if run.muted else colours.text, where, inked.mask)
                if inked.colour is not None:
                    strip.paste(inked.colour, where, inked.colour)
    image.paste(quantize(strip, options.theme, options.palette), (0, top))
