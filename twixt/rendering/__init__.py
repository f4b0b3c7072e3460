"""Pictures of TwixT positions for Discord: a game in, PNG (or replay GIF) bytes out.

Pure: no Discord, and no files but its fonts (`rendering.fonts`: shipped with the package,
CJK and emoji where installed). `render_png(game)` draws the position now (or after turn N),
`render_replay(game)` animates the whole game; `RenderOptions` picks theme, colour-blind
palette, the side that faces the viewer and the width. `render_crosstable(table)` draws an
tournament's standings as a crosstable in the same style, `render_wincurve(curve)` a game's
win-probability curve from plain data (`WinCurve`: the points and swings of an analysis).
"""

from twixt.rendering.board import board_image, render_png
from twixt.rendering.caption import caption_lines, plain_text
from twixt.rendering.crosstable import Crosstable, CrosstableRow, render_crosstable
from twixt.rendering.layout import Layout, layout
from twixt.rendering.options import DEFAULT_WIDTH, RenderOptions
from twixt.rendering.replay import (
    NARROW_WIDTH,
    REPLAY_WIDTH,
    ReplayPlan,
    plan_of,
    plan_replay,
    render_replay,
)
from twixt.rendering.themes import PaletteName, ThemeName, board_colours
from twixt.rendering.view import BoardView, game_at, view_of
from twixt.rendering.wincurve import CurveSwing, WinCurve, render_wincurve

__all__ = [
    "DEFAULT_WIDTH",
    "NARROW_WIDTH",
    "REPLAY_WIDTH",
    "BoardView",
    "Crosstable",
    "CrosstableRow",
    "CurveSwing",
    "Layout",
    "PaletteName",
    "RenderOptions",
    "ReplayPlan",
    "ThemeName",
    "WinCurve",
    "board_colours",
    "board_image",
    "caption_lines",
    "game_at",
    "layout",
    "plain_text",
    "plan_of",
    "plan_replay",
    "render_crosstable",
    "render_png",
    "render_replay",
    "render_wincurve",
    "view_of",
]
