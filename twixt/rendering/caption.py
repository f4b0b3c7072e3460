"""The caption under the board: the last move and whose turn it is — or, on a final board, how
the game ended and then the last turn —, the teams in Double TwixT, and what the last move
removed.

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
from string import Formatter

from PIL import Image

from twixt.language import Message, Translation, message, translation, unmarked
from twixt.rendering.encode import quantize
from twixt.rendering.options import RenderOptions
from twixt.rendering.sprites import disc
from twixt.rendering.text import cut_in_middle, cut_to_width, reads_as, set_text, text_length
from twixt.rendering.view import BoardView, Team
from twixt.rules import Colour, Outcome, Reason


@dataclass(frozen=True)
class TextRun:
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


CaptionLine = tuple[TextRun | Swatch, ...]


def line_count(is_double: bool) -> int:
    return 5 if is_double else 3


def caption_lines(view: BoardView, locale: str = "en") -> list[CaptionLine]:
    """The caption of a position in a language of `language.LOCALES`, one tuple of runs per
    line."""
    tr = translation(locale)
    head, status = _headline(view, tr), _status(view, tr)
    # a final board leads with how the game ended, then the turn that was last
    lines = [head, status] if view.outcome is None else [status, head]
    if view.is_double:
        lines.extend(_team_line(view, team, tr) for team in view.teams)
    lines.append(_removed(view, tr) or (() if view.is_double else _roster(view, tr)))
    return lines


def plain_text(line: CaptionLine) -> str:
    """The words of a line without the swatches, e.g. for alt text or tests."""
    return "".join(run.text for run in line if isinstance(run, TextRun))


def _runs(tr: Translation, said: Message, bold: bool = False, muted: bool = False) -> CaptionLine:
    """A message as runs in `tr`'s language, the words around the values in the style asked
    for: values that are runs keep their own style, so a name stays a run of its own (to be
    cut when the line is too wide) wherever the language puts it."""
    values = dict(said.values)
    line: CaptionLine = ()
    for literal, field, spec, _ in Formatter().parse(tr.template(said)):
        if literal:
            line += (TextRun(literal, bold=bold, muted=muted),)
        if field is None:
            continue
        value = values[field]
        if isinstance(value, TextRun | Swatch):
            line += (value,)
        elif isinstance(value, tuple):
            line += value
        else:
            # a picture reads no markup: text said before is drawn without its marks
            text = unmarked(tr.say(value) if isinstance(value, Message)
                            else format(value, spec or ""))
            line += (TextRun(text, bold=bold, muted=muted),)
    return _joined(line)


def _joined(line: CaptionLine) -> CaptionLine:
    """Neighbouring words in one style as one run (names stay runs of their own)."""
    runs: list[TextRun | Swatch] = []
    for run in line:
        before = runs[-1] if runs else None
        if (isinstance(run, TextRun) and isinstance(before, TextRun) and not run.name
                and not before.name and (run.bold, run.muted) == (before.bold, before.muted)):
            runs[-1] = replace(before, text=before.text + run.text)
        else:
            runs.append(run)
    return tuple(runs)


def _headline(view: BoardView, tr: Translation) -> CaptionLine:
    last = view.last
    if last is None:
        rules = _RULES.get(view.rules, view.rules)
        return (*_runs(tr, message("New game"), bold=True), TextRun("   "),
                *_runs(tr, message("{columns}×{rows}, {rules}", columns=view.cols,
                                   rows=view.rows, rules=rules), muted=True))
    return (*_runs(tr, message("Move {number}", number=view.moves), bold=True), TextRun("   "),
            *_runs(tr, message("{swatch} {player} ({colour}):  {move}",
                               swatch=Swatch(last.colour, view.is_marked_seat(last.seat)),
                               player=TextRun(last.player, name=True), colour=last.colour.said,
                               move=TextRun(last.text, bold=True))))


#: the rule sets by name, as the headline of a new game says them
_RULES = {"classic": message("classic rules"), "pp": message("pp rules")}


def _names(names: tuple[str, ...] | list[str], bold: bool = False,
           muted: bool = False) -> CaptionLine:
    """Names separated by commas, each a run of its own."""
    line: CaptionLine = ()
    for index, name in enumerate(names):
        if index:
            line += (TextRun(", ", bold=bold, muted=muted),)
        line += (TextRun(name, bold=bold, muted=muted, name=True),)
    return line


def _result(outcome: Outcome, loser_to_move: Colour, winners: CaptionLine) -> Message:
    """How the game ended, with the winners' names after a win."""
    winner = outcome.winner
    if winner is None:
        if outcome.reason is Reason.AGREEMENT:
            return message("Draw by agreement")
        if outcome.reason is Reason.BLOCKADE:
            return message("Draw by blockade: neither side can complete a chain any more")
        if outcome.reason is Reason.NO_MOVES:
            return message("Draw: {colour} has no hole left to play",
                           colour=loser_to_move.said)
        return message("Draw")
    colour, loser = winner.said, winner.opponent.said
    if outcome.reason is Reason.CONNECTION:
        return message("{colour} wins by connection: {names}", colour=colour, names=winners)
    if outcome.reason is Reason.RESIGNATION:
        return message("{colour} wins ({loser} resigned): {names}", colour=colour,
                       loser=loser, names=winners)
    if outcome.reason is Reason.TIME:
        return message("{colour} wins on time ({loser} ran out): {names}", colour=colour,
                       loser=loser, names=winners)
    return message("{colour} wins by agreement: {names}", colour=colour, names=winners)


def _status(view: BoardView, tr: Translation) -> CaptionLine:
    if view.outcome is not None:
        winners = _names(view.outcome.winners, bold=True)
        result = _runs(tr, _result(view.outcome, view.colour_to_move, winners), bold=True)
        winner = view.outcome.winner
        return result if winner is None else (Swatch(winner), TextRun(" ", bold=True), *result)
    seat = view.seat_to_move
    colour = view.colour_to_move.said
    line: CaptionLine = (
        Swatch(view.colour_to_move, seat is not None and view.is_marked_seat(seat)),
        TextRun(" ", bold=True),
        *_runs(tr, message("{player} to move", player=TextRun(
            str(view.player_to_move), bold=True, name=True)), bold=True),
        TextRun(" "),
        *_runs(tr, message("({colour}, seat {seat})", colour=colour, seat=seat + 1)
               if view.is_double and seat is not None
               else message("({colour})", colour=colour)))
    if view.clock is not None:
        line += (TextRun(f"   {view.clock}", muted=True),)
    if view.draw_offered_by is not None:
        line += (TextRun("   ", muted=True),
                 *_runs(tr, message("{colour} offers a draw",
                                    colour=view.draw_offered_by.said), muted=True))
    return line


def _team_line(view: BoardView, team: Team, tr: Translation) -> CaptionLine:
    line: CaptionLine = _runs(tr, message("{colour}:", colour=team.colour.said))
    for seat, name in zip(team.seats, team.players, strict=True):
        line += (TextRun("  "), Swatch(team.colour, view.is_marked_seat(seat)), TextRun(" "),
                 TextRun(name, name=True))
    if view.outcome is not None:  # a finished game offers nothing
        return line
    state = message("privilege available") if team.privilege else message("privilege used")
    return (*line, TextRun("   ", muted=True), *_runs(tr, state, muted=True))


def _roster(view: BoardView, tr: Translation) -> CaptionLine:
    red, black = view.teams
    return (Swatch(Colour.RED), TextRun(" ", muted=True), *_names(red.players, muted=True),
            TextRun(" ", muted=True), *_runs(tr, message("({colour})", colour=Colour.RED.said),
                                           muted=True),
            TextRun("   ", muted=True), Swatch(Colour.BLACK), TextRun(" ", muted=True),
            *_names(black.players, muted=True), TextRun(" ", muted=True),
            *_runs(tr, message("({colour})", colour=Colour.BLACK.said), muted=True))


def _removed(view: BoardView, tr: Translation) -> CaptionLine:
    marked = view.marked
    if marked is None or not (marked.links_removed or marked.pegs_removed):
        return ()
    gone_pegs = {peg.hole for peg in marked.pegs_removed}
    links = [str(link) for link in marked.links_removed
             if not link.ends & gone_pegs]
    items = [tr("peg {hole}", hole=peg.hole) for peg in marked.pegs_removed] + \
        [tr("link {link}", link=link) for link in links]
    return _runs(tr, message("Removed by {player} (shown faintly): {items}",
                             player=TextRun(marked.player, muted=True, name=True),
                             items=", ".join(items)), muted=True)


#: The caption's font size at the default width: a capital is then 11-12 px tall when Discord
#: shows the picture 400 px wide on a phone, edges included (at 26 px it was 8, and "alice"
#: read "allce").
TEXT_SIZE = 38


def _sizes(options: RenderOptions) -> tuple[int, int]:
    """Font size and line height of the caption."""
    size = max(11, round(TEXT_SIZE * options.scale))   # below 11 px the text is a smudge
    return size, round(size * 1.55)


def caption_height(is_double: bool, options: RenderOptions) -> int:
    _size, line_height = _sizes(options)
    return line_count(is_double) * line_height + line_height // 2


#: However wide a line, a name keeps at least this many ems (some eight letters) of its place.
MIN_NAME_EMS = 5.0


def _run_width(run: TextRun | Swatch, size: int, stroke: float) -> float:
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
def fit_line(line: CaptionLine, room: int, base: int, stroke: float,
             everyone: tuple[str, ...] = ()) -> tuple[CaptionLine, int]:
    """The line with its widest names cut with "…" so that it fits `room` pixels at font size
    `base` (no name below `MIN_NAME_EMS`), and the size to set it at: `base`, or smaller
    when the words around the names alone are too wide. A cut name never reads as another
    of `everyone` (the names of the whole caption) nor of its own line."""
    widths = [_run_width(run, base, stroke) for run in line]
    natural = sum(widths)
    names = [index for index, run in enumerate(line) if isinstance(run, TextRun) and run.name]
    if natural > room and names:
        others = natural - sum(widths[index] for index in names)
        place = math.floor(max(_even_share([widths[index] for index in names], room - others),
                               MIN_NAME_EMS * base))
        everyone = (*everyone, *(_text(line[index]) for index in names))
        line = tuple(_cut_apart(run, place, base, stroke, everyone)
                     if index in names and widths[index] > place else run
                     for index, run in enumerate(line))
        natural = sum(_run_width(run, base, stroke) for run in line)
    if natural <= room:
        return line, base
    return line, max(1, int(base * room / natural))


def _text(run: TextRun | Swatch) -> str:
    return run.text if isinstance(run, TextRun) else ""


def _cut_apart(run: TextRun | Swatch, place: int, base: int, stroke: float,
               everyone: tuple[str, ...]) -> TextRun | Swatch:
    """A name cut to `place` pixels at its end (`bot (leve…`); cut in the middle instead when
    that would read as another name too (`bot (level 1)` beside `bot (level 12)`: `bot
    (l…el 1)`), so that its end tells it apart."""
    if not isinstance(run, TextRun):
        return run
    extra = stroke if run.bold else 0.0
    others = [name for name in everyone if name != run.text]
    for cut in (cut_to_width, cut_in_middle):
        text = cut(run.text, place, base, extra)
        if not any(reads_as(text, name) for name in others):
            break
    return replace(run, text=text)


@dataclass(frozen=True)
class SetLine:
    """A caption line as drawn: its runs (names cut), font size, where each run starts across,
    the height of the line's middle and the line's height, in the strip's pixels."""

    runs: CaptionLine
    size: int
    starts: tuple[float, ...]
    middle: int
    height: int


def caption_layout(width: int, lines: list[CaptionLine], options: RenderOptions) -> list[SetLine]:
    """Where the lines go in a caption strip `width` pixels wide."""
    base, line_height = _sizes(options)
    margin = round(line_height * 0.6)
    stroke = _stroke(options)
    everyone = tuple(dict.fromkeys(run.text for line in lines for run in line
                                   if isinstance(run, TextRun) and run.name))
    out = []
    for index, line in enumerate(lines):
        runs, size = fit_line(line, width - 2 * margin, base, stroke, everyone)
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


def draw_caption(image: Image.Image, top: int, lines: list[CaptionLine],
                 options: RenderOptions) -> None:
    """Set the lines in the strip of `image` from `top` down, names cut or the line shrunk to
    fit where needed.

    Only the boxes that hold each line's ink are mapped onto the palette (mapping is pixel by
    pixel, so a box maps as the whole strip would); the rest of the strip is filled with the
    caption colour's index. Mapping the whole strip was a fifth of a board's drawing."""
    strip, inked = caption_strip((image.width, image.height - top), lines, options)
    image.paste(_index(options.colours.caption, options), (0, top, image.width, image.height))
    for box in inked:
        image.paste(quantize(strip.crop(box), options.theme, options.palette),
                    (box[0], top + box[1]))


def caption_strip(size: tuple[int, int], lines: list[CaptionLine], options: RenderOptions
                  ) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """The caption set in RGB, and for each line the box that holds its ink (outside them
    the strip is the caption colour)."""
    colours = options.colours
    strip = Image.new("RGB", size, colours.caption)
    stroke = _stroke(options)
    inked: list[tuple[int, int, int, int]] = []
    for line in caption_layout(size[0], lines, options):
        em, y = line.size, line.middle
        boxes: list[tuple[int, int, int, int]] = []
        for run, x in zip(line.runs, line.starts, strict=True):
            if isinstance(run, Swatch):
                ink = colours.ink[run.colour]
                square = colours.square_black and run.colour is Colour.BLACK
                mark = colours.mark if run.marked else None
                centre = (round(x + em * 0.4), y)
                for sprite in (disc(em * 0.5, colours.plate),   # a bit of board
                               disc(em * 0.36, ink.fill, ink.rim, max(1.0, em * 0.06),
                                    square, mark)):
                    sprite.paste(strip, centre)
                    boxes.append(_box(sprite.image, (centre[0] - sprite.anchor[0],
                                                     centre[1] - sprite.anchor[1])))
            elif run.text.strip():
                text = set_text(run.text, em, stroke if run.bold else 0.0)
                if text.empty:
                    continue
                where = (round(x) + text.offset[0], y + text.offset[1])
                strip.paste(colours.muted if run.muted else colours.text, where, text.mask)
                if text.colour is not None:
                    strip.paste(text.colour, where, text.colour)
                boxes.append(_box(text.mask, where))
        box = _clipped((min(b[0] for b in boxes), min(b[1] for b in boxes),
                        max(b[2] for b in boxes), max(b[3] for b in boxes)),
                       size) if boxes else (0, 0, 0, 0)
        if box[0] < box[2] and box[1] < box[3]:
            inked.append(box)
    return strip, inked


def _box(pasted: Image.Image, at: tuple[int, int]) -> tuple[int, int, int, int]:
    return at[0], at[1], at[0] + pasted.width, at[1] + pasted.height


def _clipped(box: tuple[int, int, int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    return (max(0, box[0]), max(0, box[1]), min(size[0], box[2]), min(size[1], box[3]))


@lru_cache(maxsize=64)
def _index(colour: tuple[int, int, int], options: RenderOptions) -> int:
    """The palette index a colour maps to, as `quantize` maps it."""
    index = quantize(Image.new("RGB", (1, 1), colour), options.theme, options.palette).getpixel(
        (0, 0))
    assert isinstance(index, int)
    return index
