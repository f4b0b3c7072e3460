"""The crosstable of a tournament as a picture: who played whom, the results, points and
tie-break, in the board's colours and fonts (`rendering.themes`, `rendering.fonts`).

Two layouts share one drawing:

- players × players (`Crosstable.columns` empty), for round robins and league groups: a
  column per entrant, headed by the row's number (1 is the top row); a cell holds this row's
  result(s) against that column's entrant, the diagonal is filled. In a double tournament the
  two games of a pairing are stacked in the cell ("1 ½" → 1 above ½), so the cells stay
  as narrow as a single tournament's.
- rounds (`columns` given, e.g. "R1", "R2", …), the standard Swiss crosstable: a column per
  round, a cell "OPPONENT RESULT" ("5 1": beat the entrant of row 5; "12 ½", "3 −", or a
  lone "+" for a bye); the opponent's number is drawn muted, the result in the text colour.
  Its width grows with the rounds, not the entrants, so a big Swiss stays readable.

The text is set at one size (`TEXT_SIZE`) chosen so that a 12-entrant players × players
table shown 400 px wide on a phone has digits and names at least 8 px tall; a wider table is
wider, not smaller (Discord's viewer zooms), until a side would pass `MAX_SIDE`, where the
whole picture shrinks. Names and the title are players' text: set in the font stack like a
board's caption (any script, emoji), never read as anything, cut with "…" to a bounded
width. Bounded work: at most `MAX_ROWS` rows and `MAX_COLUMNS` rounds (ValueError beyond),
names and titles cut to `MAX_NAME_CHARS` / `MAX_TITLE_CHARS` characters before they are
measured.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from PIL import Image, ImageDraw

from twixt.language import decimal_sign, translation
from twixt.rendering.encode import png_bytes, quantize
from twixt.rendering.limits import check_count
from twixt.rendering.text import bounded, cut_to_width, put_text, text_length
from twixt.rendering.themes import RGB, PaletteName, Theme, ThemeName, faded
from twixt.rendering.themes import theme as colours_of

#: The most rows (entrants) and round columns a table has.
MAX_ROWS = 64
MAX_COLUMNS = 64
#: The most games one cell holds (a double tournament: two).
MAX_GAMES = 2
#: The longest text of one result or opponent number in a cell ("12", "½", "+").
MAX_CELL_CHARS = 4
#: Characters of a name, title or footer measured at most; the rest is cut anyway.
MAX_NAME_CHARS = 48
MAX_TITLE_CHARS = 200

#: The font size of the table's text, in pixels at full size: a 12-entrant table is then
#: about 33 em wide (980 px), so at 400 px its digits (0.71 em) are 8 to 10 px tall.
TEXT_SIZE = 30
#: The widest a name may be, in ems (some 11 Latin letters); longer names are cut with "…".
NAME_EMS = 6.0
#: The widest the tie-break's heading may be, in ems ("Buchholz" fits).
LABEL_EMS = 4.5
#: The longest side of a picture in pixels; a table that would be bigger is drawn smaller.
MAX_SIDE = 4096
#: Space in ems left and right of the text in a column, in a result cell, and around the
#: table.
PAD_EMS = 0.3
CELL_PAD_EMS = 0.2
#: The narrowest result cell, in ems: a square-ish cell for a one-digit heading.
CELL_EMS = 1.3
#: Between the opponent's number and the result in the rounds layout, in ems.
GAP_EMS = 0.3
MARGIN_EMS = 0.45
#: The narrowest picture, in ems: room for a title over a small table.
MIN_WIDTH_EMS = 18.0
#: The smallest font size (a 64-entrant double table at `MAX_SIDE`).
MIN_TEXT_SIZE = 12

#: Results in a cell that are forfeits: won / lost without play.
FORFEITS = ("+", "−")

#: Fractions drawn as one glyph: tie-breaks come in quarters (Sonneborn-Berger halves a
#: half point), points in halves.
_FRACTIONS = {0.0: "", 0.25: "¼", 0.5: "½", 0.75: "¾"}


@dataclass(frozen=True)
class CrosstableRow:
    """One entrant's row. `cells`: one per row of the table in players × players (this
    entrant's result(s) against that row's: "1", "½", "0", "+" / "−" won / lost by forfeit,
    "1 ½" two games of a double tournament, "" not yet played, "■" or "" on the diagonal), or one
    per column in the rounds layout ("5 1": opponent's row and result; "+" a bye)."""

    name: str
    rank: int
    points: float
    tie_break: float
    cells: tuple[str, ...]
    withdrawn: bool = False


@dataclass(frozen=True)
class Crosstable:
    """A whole table: `rows` in rank order. `columns` empty: players × players; else the
    headings of the rounds layout's columns (see the module)."""

    title: str
    tie_break_label: str
    rows: tuple[CrosstableRow, ...]
    footer: str = ""
    locale: str = "en"
    columns: tuple[str, ...] = ()

    @property
    def by_rounds(self) -> bool:
        return bool(self.columns)


def score_text(value: float, locale: str = "en") -> str:
    """Points or a tie-break as a reader writes them: "4½", "½", "12¾", "0"; other
    fractions with two decimals, with the language's decimal sign ("3,33" in German)."""
    if not math.isfinite(value):
        raise ValueError(f"a score must be a number, not {value}")
    whole = math.floor(value)
    fraction = _FRACTIONS.get(round(value - whole, 9))
    if fraction is not None and value >= 0:
        return fraction if whole == 0 and fraction else f"{whole}{fraction}"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", decimal_sign(locale))


def _check(table: Crosstable) -> None:
    """ValueError for a table beyond the bounds or whose rows do not match its columns."""
    check_count("a crosstable", table.rows, "row", MAX_ROWS, needed=True)
    check_count("a crosstable", table.columns, "column", MAX_COLUMNS)
    width = len(table.columns) if table.by_rounds else len(table.rows)
    games = MAX_GAMES + 1 if table.by_rounds else MAX_GAMES
    for row in table.rows:
        if len(row.cells) != width:
            raise ValueError(f"each row needs {width} cells, not {len(row.cells)}")
        for cell in row.cells:
            parts = cell.split()
            if len(parts) > games or any(len(part) > MAX_CELL_CHARS for part in parts):
                raise ValueError(f"a cell holds at most {games} short results, not {cell!r}")
    for heading in table.columns:
        if len(heading) > MAX_CELL_CHARS:
            raise ValueError(f"a column heading has at most {MAX_CELL_CHARS} characters")


# --- where everything goes ---------------------------------------------------------------

@dataclass(frozen=True)
class CrosstableLayout:
    """Pixel geometry of a table: `xs` the columns' edges (rank, name, the cells, points,
    tie-break: len = columns + 1), `ys` the rows' edges (the heading row, then each entrant),
    `size` the font size, `lines` the games stacked in a cell."""

    width: int
    height: int
    size: int
    margin: int               # around the table and the text lines
    pad: int                  # left of a name in its column
    title: tuple[str, ...]    # its lines as drawn (one, or two cut with "…")
    title_middles: tuple[int, ...]
    footer: tuple[str, ...]   # the footer and the forfeits' legend, as drawn
    footer_middles: tuple[int, ...]
    xs: tuple[int, ...]
    ys: tuple[int, ...]
    lines: int
    names: tuple[str, ...]    # each row's name as drawn (cut with "…" where too wide)
    tie_break_label: str
    opponent_width: int       # the rounds layout: the widest opponent's number in a cell

    @property
    def first_cell(self) -> int:
        """The index in `xs` of the first result column."""
        return 2

    def cell_box(self, row: int, column: int) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of a result cell; row and column from 0 (row -1
        the heading row, columns -1 and -2 the name and the rank)."""
        x = self.first_cell + column
        return self.xs[x], self.ys[row + 1], self.xs[x + 1], self.ys[row + 2]


def row_labels(rows: Sequence[CrosstableRow]) -> list[str]:
    """The first column: each row's place. Rows are in rank order, so a place shared by
    several rows (equal on points and tie-break) is the span of their row numbers, written on
    each of them as chess crosstables do ("2–5"); a place of its own is the row's number, the
    key the columns' headings (and the rounds layout's opponents) use."""
    first_row: dict[int, int] = {}
    for number, row in enumerate(rows, start=1):
        first_row.setdefault(row.rank, number)
    last_row = {row.rank: number for number, row in enumerate(rows, start=1)}
    return [str(number) if first_row[row.rank] == last_row[row.rank]
            else f"{first_row[row.rank]}–{last_row[row.rank]}"
            for number, row in enumerate(rows, start=1)]


def _headings(table: Crosstable) -> tuple[str, str, tuple[str, ...], str]:
    tr = translation(table.locale)
    columns = table.columns or tuple(str(number) for number in range(1, len(table.rows) + 1))
    # TRANSLATORS: the heading of the points column of a crosstable; keep it short
    return "#", tr("Player"), columns, tr("Pts")


def _legend(table: Crosstable) -> str:
    """A line that says what + and − mean, when a cell has one."""
    tr = translation(table.locale)
    if any(part in FORFEITS for row in table.rows for cell in row.cells
           for part in cell.split()):
        return tr("+ / − won / lost by forfeit")
    return ""


def crosstable_layout(table: Crosstable, size: int = TEXT_SIZE) -> CrosstableLayout:
    """Where the parts of `table` go at font `size`; smaller when a side would pass
    `MAX_SIDE`. Raises ValueError for a table beyond the bounds."""
    _check(table)
    rank_heading, name_heading, columns, points_heading = _headings(table)
    pad = round(size * PAD_EMS)
    margin = round(size * MARGIN_EMS)
    lines = 1 if table.by_rounds else max(
        (len(cell.split()) for row in table.rows for cell in row.cells), default=1) or 1

    def wide(texts: Sequence[str], padding: float = pad) -> int:
        return math.ceil(max(text_length(text, size) for text in texts) + 2 * padding)

    name_room = round(NAME_EMS * size)
    names = [cut_to_width(bounded(row.name, MAX_NAME_CHARS), name_room, size)
             for row in table.rows]
    split = [cell.split() for row in table.rows for cell in row.cells]
    opponent_width = 0
    if table.by_rounds:   # opponents right-aligned, a gap, results left-aligned
        paired = [parts for parts in split if len(parts) > 1]
        opponent_width = math.ceil(max((text_length(parts[0], size) for parts in paired),
                                       default=0))
        result_width = max((text_length("".join(parts[1:]), size) for parts in paired),
                           default=0)
        cell_texts = [parts[0] for parts in split if len(parts) == 1]
        content = opponent_width + round(size * GAP_EMS) + result_width
    else:
        cell_texts = [part for parts in split for part in parts]
        content = 0
    tie_break_label = cut_to_width(bounded(table.tie_break_label, MAX_NAME_CHARS),
                                   round(LABEL_EMS * size), size)
    scores = [score_text(row.points, table.locale) for row in table.rows]
    tie_breaks = [score_text(row.tie_break, table.locale) for row in table.rows]
    widths = [wide([rank_heading, *row_labels(table.rows)]),
              wide([name_heading, *names]),
              *[max(wide([*columns, *cell_texts], size * CELL_PAD_EMS),
                    math.ceil(content + 2 * size * CELL_PAD_EMS),
                    round(CELL_EMS * size))] * len(columns),
              wide([points_heading, *scores]) + math.ceil(2 * _stroke(size)),
              wide([tie_break_label, *tie_breaks])]
    table_width = sum(widths)
    width = max(table_width + 2 * margin, round(MIN_WIDTH_EMS * size))
    room = width - 2 * margin
    title = _wrapped(bounded(table.title, MAX_TITLE_CHARS), room, _title_size(size),
                     _stroke(size))
    footer = tuple(line for text in (bounded(table.footer, MAX_TITLE_CHARS), _legend(table))
                   for line in _wrapped(text, room, size, 0.0))
    title_line, footer_line = round(size * 1.5), round(size * 1.4)
    heading_height = round(size * 1.6)
    row_height = round(size * 1.15) * lines + round(size * 0.45)
    top = margin // 2 + title_line * len(title) + margin // 2
    body = heading_height + row_height * len(table.rows)
    height = top + body + margin + footer_line * len(footer) + (margin if footer else 0)
    if max(width, height) > MAX_SIDE:
        if size <= MIN_TEXT_SIZE:
            raise ValueError("the crosstable is too big to draw")
        smaller = max(MIN_TEXT_SIZE, math.floor(size * MAX_SIDE / max(width, height)) - 1)
        return crosstable_layout(table, smaller)
    left = (width - table_width) // 2
    xs = tuple(accumulate(widths, initial=left))
    ys = tuple(accumulate([heading_height] + [row_height] * len(table.rows), initial=top))
    bottom = ys[-1] + margin
    return CrosstableLayout(
        width=width, height=height, size=size, margin=margin, pad=pad,
        title=title, title_middles=tuple(margin // 2 + title_line * index + title_line // 2
                                         for index in range(len(title))),
        footer=footer, footer_middles=tuple(bottom + footer_line * index + footer_line // 2
                                            for index in range(len(footer))),
        xs=xs, ys=ys, lines=lines, names=tuple(names), tie_break_label=tie_break_label,
        opponent_width=opponent_width)


def _wrapped(text: str, room: int, size: int, stroke: float) -> tuple[str, ...]:
    """A title (or footer) on one line, or two when too long: as many whole words as fit on
    the first (or a cut word when not even one fits), the rest on the second, cut with "…"."""
    if not text.strip():
        return ()
    first = cut_to_width(text, room, size, stroke)
    if first == text:
        return (text,)
    words = text.split(" ")
    count = len(words) - 1
    while count > 1 and text_length(" ".join(words[:count]), size) + 2 * stroke > room:
        count -= 1
    head = " ".join(words[:count])
    if text_length(head, size) + 2 * stroke > room:
        return first, cut_to_width(text[len(first) - 1:], room, size, stroke)
    return head, cut_to_width(" ".join(words[count:]).strip(), room, size, stroke)


def _title_size(size: int) -> int:
    return round(size * 1.15)


def _stroke(size: int) -> float:
    """The stroke that makes text bold."""
    return size / 32


# --- drawing -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Colours:
    """The table's colours, from the board's theme: the page is the board's plate, the
    heading row its caption strip, lines and the diagonal its holes."""

    page: RGB
    heading: RGB
    line: RGB
    diagonal: RGB
    withdrawn: RGB
    text: RGB
    muted: RGB
    label: RGB

    @classmethod
    def of(cls, colours: Theme) -> _Colours:
        return cls(page=colours.plate, heading=colours.caption,
                   line=faded(colours.hole, colours.plate, 0.5), diagonal=colours.hole,
                   withdrawn=faded(colours.hole, colours.plate, 0.25), text=colours.text,
                   muted=colours.muted, label=colours.label)


def _draw_cell(image: Image.Image, lay: CrosstableLayout, box: tuple[int, int, int, int],
               cell: str, by_rounds: bool, ink: RGB, muted: RGB) -> None:
    """A result cell: in the rounds layout the opponent (muted) and the result (bold), the
    numbers of a column right-aligned; else the results stacked, centred."""
    left, top, right, bottom = box
    parts = cell.split()
    centre, size = (left + right) / 2, lay.size
    if by_rounds and len(parts) > 1:
        results = "".join(parts[1:])
        gap = round(size * GAP_EMS)
        start = centre - (lay.opponent_width + gap + text_length(results, size)) / 2
        split = start + lay.opponent_width
        middle = (top + bottom) // 2
        put_text(image, parts[0], split, middle, size, muted, align="right")
        put_text(image, results, split + gap, middle, size, ink, _stroke(size))
        return
    line = round(size * 1.15)
    first = (top + bottom) // 2 - (len(parts) - 1) * line // 2
    for index, part in enumerate(parts):
        put_text(image, part, centre, first + index * line, size, ink, align="centre")


def render_crosstable(table: Crosstable, theme: ThemeName = ThemeName.LIGHT) -> bytes:
    """PNG bytes of the table, in the board's theme (light or dark), readable at 400 px wide
    up to 12 entrants. Raises ValueError for a table beyond the bounds."""
    return png_bytes(crosstable_image(table, theme))


def crosstable_image(table: Crosstable, theme_name: ThemeName = ThemeName.LIGHT
                     ) -> Image.Image:
    """The picture in the theme's palette (as the boards are)."""
    lay = crosstable_layout(table)
    colours = _Colours.of(colours_of(theme_name, PaletteName.NORMAL))
    image = Image.new("RGB", (lay.width, lay.height), colours.page)
    draw = ImageDraw.Draw(image)
    size, xs, ys = lay.size, lay.xs, lay.ys
    thin = max(1, round(size / 15))
    pad, margin = lay.pad, lay.margin
    for text, middle in zip(lay.title, lay.title_middles, strict=True):
        put_text(image, text, margin, middle, _title_size(size), colours.text, _stroke(size))
    # the heading row, in the caption strip's colour
    draw.rectangle((xs[0], ys[0], xs[-1] - 1, ys[1] - 1), fill=colours.heading)
    rank_heading, name_heading, columns, points_heading = _headings(table)
    headings = (rank_heading, name_heading, *columns, points_heading, lay.tie_break_label)
    heading_middle = (ys[0] + ys[1]) // 2
    for index, heading in enumerate(headings):
        if index == 1:
            put_text(image, heading, xs[1] + pad, heading_middle, size, colours.label)
        else:
            fitted = cut_to_width(heading, xs[index + 1] - xs[index] - pad, size)
            put_text(image, fitted, (xs[index] + xs[index + 1]) / 2, heading_middle, size,
                 colours.label, align="centre")
    labels = row_labels(table.rows)
    for number, row in enumerate(table.rows):
        top, bottom = ys[number + 1], ys[number + 2]
        middle = (top + bottom) // 2
        ink = colours.muted if row.withdrawn else colours.text
        if row.withdrawn:
            draw.rectangle((xs[0], top, xs[-1] - 1, bottom - 1), fill=colours.withdrawn)
        put_text(image, labels[number], (xs[0] + xs[1]) / 2, middle, size, colours.label,
             align="centre")
        name = lay.names[number]
        put_text(image, name, xs[1] + pad, middle, size, ink)
        if row.withdrawn:   # struck through
            length = round(text_length(name, size))
            draw.rectangle((xs[1] + pad - thin, middle - thin // 2 - size // 10,
                            xs[1] + pad + length + thin, middle + (thin + 1) // 2 - size // 10),
                           fill=colours.muted)
        for column, cell in enumerate(row.cells):
            box = lay.cell_box(number, column)
            if not table.by_rounds and column == number:
                draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1),
                               fill=colours.diagonal)
                continue
            _draw_cell(image, lay, box, cell, table.by_rounds, ink, colours.muted)
        put_text(image, score_text(row.points, table.locale), (xs[-3] + xs[-2]) / 2, middle,
             size, ink, _stroke(size), align="centre")
        put_text(image, score_text(row.tie_break, table.locale), (xs[-2] + xs[-1]) / 2, middle,
             size, ink, align="centre")
    for y in ys[1:]:   # the grid: under the heading row and every row
        draw.rectangle((xs[0], y - thin // 2, xs[-1] - 1, y - thin // 2 + thin - 1),
                       fill=colours.line)
    for x in xs[1:-1]:
        draw.rectangle((x - thin // 2, ys[0], x - thin // 2 + thin - 1, ys[-1] - 1),
                       fill=colours.line)
    for text, middle in zip(lay.footer, lay.footer_middles, strict=True):
        put_text(image, text, margin, middle, size, colours.muted)
    return quantize(image, theme_name, PaletteName.NORMAL)
