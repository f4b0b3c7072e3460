"""Where everything goes in pixels: hole centres, label bands, the caption strip.

Holes sit on an integer pitch so every peg and link sprite lands on whole pixels and
looks the same everywhere on the board. The side view is a quarter turn clockwise:
Black's border columns then run along the top (column A) and the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rendering.options import RenderOptions
from rules import Colour, Hole


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
        return max(3.0, self.pitch * 0.2)

    @property
    def hole_radius(self) -> float:
        return max(1.2, self.pitch * 0.075)

    @property
    def halo_width(self) -> float:
        """The width of the glow under a link of the winning chain or of the last move."""
        return self.link_width + self.pitch * 0.22

    @property
    def chain_radius(self) -> float:
        """The glow around a peg of the winning chain."""
        return self.peg_radius + self.pitch * 0.11

    @property
    def ring_radius(self) -> float:
        """The outer radius of the ring around the last peg placed."""
        return self.peg_radius + max(3.5, self.pitch * 0.15)   # still clear on a 48×48 board

    @property
    def ring_width(self) -> float:
        return max(2.5, self.pitch * 0.1)


def _band_and_label(pitch_guess: float, scale: float) -> tuple[int, int]:
    label = round(min(max(pitch_guess * 0.42, 11 * scale, 9), 22 * scale))
    return round(max(label * 1.9, pitch_guess * 0.8)), label


@lru_cache(maxsize=256)
def layout(cols: int, rows: int, options: RenderOptions) -> Layout:
    """Fit the board into a square of `options.width`; a narrow board is centred in a picture
    wide enough for the caption."""
    across, down = (cols, rows) if options.side is Colour.RED else (rows, cols)
    longest = max(across, down)
    band, label = _band_and_label(options.width / (longest + 2), options.scale)
    pitch = max(6, (options.width - 2 * band) // longest)
    board_width = across * pitch + 2 * band
    width = max(board_width, round(options.width * 0.8))
    return Layout(cols=cols, rows=rows, side=options.side, pitch=pitch, band=band,
                  left=(width - board_width) // 2, width=width,
                  board_height=down * pitch + 2 * band, label_size=label)
