"""The replay is an animated GIF with one frame per turn (per few turns in a long game), each
with its caption."""

from __future__ import annotations

import doctest
import io

from PIL import Image, ImageSequence

from tests.rendering.render_helpers import blockade_game, close
from tests.rules.helpers import count_history_reads
from twixt.rendering import (
    NARROW_WIDTH,
    REPLAY_WIDTH,
    RenderOptions,
    plan_replay,
    render_replay,
)
from twixt.rendering import replay as replay_module
from twixt.rendering.layout import layout
from twixt.rendering.replay import MAX_FRAMES, MAX_PIECES_DRAWN
from twixt.rules import Colour, Game, Hole

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


def test_a_long_game_is_replayed_in_at_most_the_planned_frames():
    game = blockade_game()  # 20 turns
    data = render_replay(game, OPTIONS, max_frames=5)
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 5 == plan_replay(20, max_frames=5).frames
    frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]
    last = list(ImageSequence.Iterator(Image.open(io.BytesIO(render_replay(game, OPTIONS)))))
    assert frames[-1].tobytes() == last[-1].convert("RGB").tobytes()


def test_the_plan_bounds_frames_and_narrows_long_replays():
    for turns in (1, 60, 61, 150, 151, 2000, 10_000):
        plan = plan_replay(turns)
        assert plan.frames <= MAX_FRAMES
        assert plan.width == (REPLAY_WIDTH if plan.frames <= 60 else NARROW_WIDTH)
    assert plan_replay(151).step == 2


def test_a_crowded_big_board_gets_fewer_frames():
    crowded = plan_replay(1600, pieces=3200)
    assert crowded.frames < plan_replay(1600).frames
    assert crowded.frames * 3200 // 2 <= MAX_PIECES_DRAWN


def test_the_replay_modules_examples_hold():
    assert doctest.testmod(replay_module).failed == 0


def test_a_replay_reads_the_log_a_few_times_whatever_its_length(monkeypatch):
    # each frame once copied the whole log (`history`) to find the peg to mark
    game = Game(("ann", "ben"), size=8, swap=False)
    game.play("D4")
    for _ in range(60):
        game.play("offer draw", by="ben")
        game.play("decline draw", by="ann")
    reads = count_history_reads(monkeypatch)
    gif = Image.open(io.BytesIO(render_replay(game, RenderOptions(width=200))))
    assert gif.n_frames > 40
    assert reads[0] <= 2
