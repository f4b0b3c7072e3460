"""Where everything goes in pixels: hole centres, label bands, the caption strip.

Holes sit on an integer pitch so every peg and link sprite lands on whole pixels and
looks the same everywhere on the board. The side view is a quarter turn clockwise:
Black's border columns then run along the top (column A) and the bottom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from twixt.rendering.fonts import font
from twixt.rendering.options import RenderOptions
from twixt.rules import Colour, Hole, column_letters


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one board size seen from one side at one width."""

    cols: int
    rows: int
    side: Colour
    pitch: int          # distance between neighbouring holes
    band: int           # width of the label margin on each side of the holes
    left: int           # x of the board's left edge (the board is centred in the picture)
    width: int          # the picture's width
    board_height: int   # height of the board part; the caption strip follows below
    label_size: int     # font size of the column letters and row numbers
    label_step: tuple[int, int]   # every how many holes across and down a label is drawn

    @property
    def view_cols(self) -> int:
        """Holes across the picture: columns, or rows in Black's view."""
        return self.cols if self.side is Colour.RED else self.rows

    @property
    def view_rows(self) -> int:
        return self.rows if self.side is Colour.RED else self.cols

    @property
    def board_width(self) -> int:
        return self.view_cols * self.pitch + 2 * self.band

    def view_cell(self, col: int, row: int) -> tuple[int, int]:
        """The (across, down) cell of a hole; Black's view turns the board a quarter clockwise."""
        if self.side is Colour.RED:
            return col, row
        return self.rows - 1 - row, col

    def cell_centre(self, across: int, down: int) -> tuple[int, int]:
        half = self.pitch // 2
        return (self.left + self.band + across * self.pitch + half,
                self.band + down * self.pitch + half)

    def centre(self, hole: Hole) -> tuple[int, int]:
        """The pixel at the centre of a hole."""
        return self.cell_centre(*self.view_cell(hole.col, hole.row))

    @property
    def peg_radius(self) -> float:
        return self.pitch * 0.31

    @property
    def link_width(self) -> float:
        return max(3.0, self.pitch * 0.24)

    @property
    def hole_radius(self) -> float:
        return max(1.2, self.pitch * 0.075)

    @property
    def halo_gap(self) -> float:
        """The bare board between a highlighted piece and its halo, on each side: it sets the
        piece off from the halo, which may be as light or dark as the piece."""
        return max(1.5, self.pitch * 0.13)

    @property
    def halo_band(self) -> float:
        """The width of a halo's coloured band, on each side."""
        return max(1.5, self.pitch * 0.16)

    @property
    def gap_width(self) -> float:
        """The width of the bare board under a link of the winning chain or the last move."""
        return self.link_width + 2 * self.halo_gap

    @property
    def halo_width(self) -> float:
        """The width of the halo under a link of the winning chain or of the last move."""
        return self.gap_width + 2 * self.halo_band

    @property
    def chain_gap_radius(self) -> float:
        """The bare board around a peg of the winning chain."""
        return self.peg_radius + self.halo_gap

    @property
    def chain_radius(self) -> float:
        """The halo around a peg of the winning chain."""
        return self.chain_gap_radius + self.halo_band

    @property
    def ring_width(self) -> float:
        """The last peg's ring: about 2 px wide on a 24×24 board shown 400 px wide."""
        return max(2.5, self.pitch * 0.17)

    @property
    def ring_radius(self) -> float:
        """The outer radius of the ring around the last peg placed, clear of the peg."""
        return self.peg_radius + max(1.5, self.pitch * 0.06) + self.ring_width

    @property
    def border_line(self) -> int:
        """The thickness of the lines that frame the border rows."""
        return max(2, round(self.pitch * 0.15))

    @property
    def label_room(self) -> float:
        """The widest a label across the picture may be drawn: a wider one is condensed."""
        return self.pitch * self.label_step[0] - self.label_size * LABEL_GAP

    def labelled(self, index: int, across: bool) -> bool:
        """Whether the `index`th hole across (or down) the picture has a label: every
        `label_step`th, counted from column A or row 1 in either view."""
        step = self.label_step[0 if across else 1]
        count = self.view_cols if across else self.view_rows
        flipped = across and self.side is Colour.BLACK   # Black's view: rows right to left
        return (count - 1 - index if flipped else index) % step == 0


#: The labels' font size as a part of the picture's width: their capitals (0.72 of the size in
#: Noto Sans) are then about 9.8 px tall when Discord shows the picture 400 px wide on a phone
#: (and measure 10 px there, edges included).
LABEL_SIZE = 0.034
#: The least space between neighbouring labels across, as a part of their size.
LABEL_GAP = 0.2
#: A label across the picture too wide for its place is condensed to fit, down to this part
#: of its width (numbers from 10 up, across a 24×24 board seen from Black's side), rather
#: than labelling only every other hole.
SQUEEZE = 0.75


def labels(cols: int, rows: int) -> tuple[list[str], list[str]]:
    """The column letters and the row numbers of a board."""
    return [column_letters(c) for c in range(cols)], [str(r + 1) for r in range(rows)]


def _label_steps(across: list[str], down: list[str], size: int,
                 pitch: int) -> tuple[int, int]:
    """Label every hole where the labels fit, else every second, third, …: across, the widest
    label condensed as far as it may be (`SQUEEZE`) and `LABEL_GAP` between neighbours;
    down, a size per label."""
    face = font(size)
    wide = max(face.getlength(text) for text in across) * SQUEEZE + size * LABEL_GAP
    return math.ceil(wide / pitch), math.ceil(size / pitch)


@lru_cache(maxsize=256)
def layout(cols: int, rows: int, options: RenderOptions) -> Layout:
    """Fit the board into a square of `options.width`; a narrow board is centred in a picture
    wide enough for the caption.

    Labels are as big on every board: `LABEL_SIZE` of the width, so that they read when the
    picture is shown 400 px wide. A board too big for a label at every hole labels every
    second (or third …) row or column, from row 1 and column A. At the default width a 24×24
    board labels every row and column from either side (seen from Black's, where the row
    numbers run across, "10" to "24" are condensed to fit a hole); a 48×48 board labels rows
    1, 3, 5, … and columns A, D, G, … (two-letter labels are wider than two holes).
    """
    letters, numbers = labels(cols, rows)
    across, down = (letters, numbers) if options.side is Colour.RED else (numbers, letters)
    longest = max(len(across), len(down))
    label = max(9, round(options.width * LABEL_SIZE))
    widest_down = max(font(label).getlength(text) for text in down)
    band = max(round(label * 1.5), math.ceil(widest_down + label * 0.5))
    pitch = max(6, (options.width - 2 * band) // longest)
    # what the whole pitch leaves over widens the margins, up to two label sizes
    band = max(band, min((options.width - longest * pitch) // 2, 2 * label))
    board_width = len(across) * pitch + 2 * band
    width = max(board_width, round(options.width * 0.8))
    return Layout(cols=cols, rows=rows, side=options.side, pitch=pitch, band=band,
                  left=(width - board_width) // 2, width=width,
                  board_height=len(down) * pitch + 2 * band, label_size=label,
                  label_step=_label_steps(across, down, label, pitch))
