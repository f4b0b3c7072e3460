"""The replay is an animated GIF with one frame per turn, each with its caption."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence
from render_helpers import blockade_game, close

from rendering import RenderOptions, layout, render_replay
from rules import Colour, Hole

OPTIONS = RenderOptions(width=300)


def test_replay_has_one_frame_per_turn():
    game = blockade_game()
    data = render_replay(game, OPTIONS)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    assert gif.n_frames == len(game.history) == 20
    assert gif.info.get("loop") == 0


def test_replay_frames_show_the_game_growing():
    game = blockade_game()
    frames = [frame.convert("RGB") for frame in
              ImageSequence.Iterator(Image.open(io.BytesIO(render_replay(game, OPTIONS))))]
    lay = layout(6, 6, OPTIONS)
    red, hole = OPTIONS.colours.ink[Colour.RED].fill, OPTIONS.colours.hole
    c2 = lay.centre(Hole(2, 1))   # Red's third peg, placed in turn 5
    assert close(frames[3].getpixel(c2), hole)
    assert close(frames[4].getpixel(c2), red)
    assert len({frame.size for frame in frames}) == 1
