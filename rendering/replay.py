"""An animated replay: one GIF frame per turn, each with its caption.

GIF rather than APNG because Discord animates GIFs in the channel and shows only the first
frame of an APNG. Frames share the theme's fixed palette, so Pillow writes one global
palette and only the changed box of each frame.
"""

from __future__ import annotations

from rendering.board import board_image
from rendering.encode import gif_bytes
from rendering.options import RenderOptions
from rendering.view import views_by_turn
from rules import Game

#: Replays are drawn smaller than single pictures: 60 frames must stay far below 8 MB.
REPLAY_WIDTH = 720
FRAME_MS = 1000
LAST_FRAME_MS = 5000


def render_replay(game: Game, options: RenderOptions | None = None) -> bytes:
    """GIF bytes of the whole game, one frame after each turn; the last frame lingers.

    Without options the frames are REPLAY_WIDTH wide; pass options to choose.
    """
    options = options or RenderOptions(width=REPLAY_WIDTH)
    views = views_by_turn(game)
    if not views:
        raise ValueError("a game without turns has nothing to replay")
    frames = [board_image(view, options) for view in views]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    return gif_bytes(frames, durations)

