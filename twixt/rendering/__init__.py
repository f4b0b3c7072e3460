"""Pictures of TwixT positions for Discord: a game in, PNG (or replay GIF) bytes out.

Pure: no Discord, and no files but its fonts (`rendering.fonts`: shipped with the package,
CJK and emoji where installed). `render_png(game)` draws the position now (or after turn N),
`render_replay(game)` animates the whole game; `RenderOptions` picks theme, colour-blind
palette, the side that faces the viewer and the width. `render_crosstable(table)` draws an
tournament's standings as a crosstable in the same style, `render_wincurve(curve)` a game's
win-probability curve from plain data (`WinCurve`: the points and swings of an analysis).

Each name below is imported from its module when it is first used: the options and themes
load nothing of Pillow's drawing, and a process that never draws (the web board alone) never
loads the fonts and the pieces' tiles.
"""

from twixt.rules import later

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
    from twixt.rendering.about import DEFAULT_WIDTH, REPLAY_WIDTH
    from twixt.rendering.board import board_image, render_png
    from twixt.rendering.caption import caption_lines, plain_text
    from twixt.rendering.crosstable import Crosstable, CrosstableRow, render_crosstable
    from twixt.rendering.layout import Layout
    from twixt.rendering.options import RenderOptions
    from twixt.rendering.replay import (
        NARROW_WIDTH,
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
    "plain_text",
    "plan_of",
    "plan_replay",
    "render_crosstable",
    "render_png",
    "render_replay",
    "render_wincurve",
    "view_of",
]

#: the module each name comes from (not the function `layout.layout`: once its module is
#: imported, Python binds the package's `layout` to the module, whichever was asked first)
_HOMES = {
    "board_image": "board", "render_png": "board", "caption_lines": "caption",
    "plain_text": "caption", "Crosstable": "crosstable", "CrosstableRow": "crosstable",
    "render_crosstable": "crosstable", "Layout": "layout",
    "DEFAULT_WIDTH": "about", "RenderOptions": "options", "NARROW_WIDTH": "replay",
    "REPLAY_WIDTH": "about", "ReplayPlan": "replay", "plan_of": "replay",
    "plan_replay": "replay", "render_replay": "replay", "PaletteName": "themes",
    "ThemeName": "themes", "board_colours": "themes", "BoardView": "view", "game_at": "view",
    "view_of": "view",
    "CurveSwing": "wincurve", "WinCurve": "wincurve", "render_wincurve": "wincurve",
}


__getattr__ = later.importer(__name__, _HOMES)
