"""An animated replay: one GIF frame per turn (or per few turns), each with its caption.

GIF rather than APNG because Discord animates GIFs in the channel and shows only the first
frame of an APNG. Frames share the theme's fixed palette, so Pillow writes one global
palette and only the changed box of each frame.

The cost is decided before anything is drawn (`plan_replay`): at most `MAX_FRAMES` frames, and
fewer on a crowded big board (the pieces drawn in all frames stay within `MAX_PIECES_DRAWN`),
so a long game shows one frame every few turns, and a long replay is drawn narrower. Frames
are drawn while walking back through the game, one position at a time, so no list of
positions is ever held: the work and the memory are bounded whatever the game's length.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from twixt.rendering.about import REPLAY_WIDTH
from twixt.rendering.board import board_image
from twixt.rendering.encode import gif_bytes
from twixt.rendering.options import RenderOptions
from twixt.rendering.view import view_of
from twixt.rules import Game

#: the width of a replay of more than `WIDE_FRAMES` frames
NARROW_WIDTH = 400
WIDE_FRAMES = 60
#: the most frames a replay has, whatever the game's length
MAX_FRAMES = 150
#: pegs and links drawn over all frames (a frame costs about 0.06 ms a piece): some 4 s
MAX_PIECES_DRAWN = 60_000
FRAME_MS = 1000
LAST_FRAME_MS = 5000


@dataclass(frozen=True)
class ReplayPlan:
    """What a replay of `turns` turns will draw: a frame after every `step` turns (and after
    the last), `frames` in all, `width` pixels wide."""

    turns: int
    step: int
    frames: int
    width: int


def plan_replay(turns: int, pieces: int = 0, max_frames: int = MAX_FRAMES) -> ReplayPlan:
    """The replay of a game of `turns` turns with `pieces` pegs and links on the board at the
    end, decided before drawing anything (frames hold about half the end's pieces on average).

    >>> plan_replay(40)
    ReplayPlan(turns=40, step=1, frames=40, width=720)
    >>> plan_replay(2000)
    ReplayPlan(turns=2000, step=14, frames=143, width=400)
    >>> plan_replay(1600, pieces=3200)
    ReplayPlan(turns=1600, step=44, frames=37, width=720)
    """
    if turns < 1:
        raise ValueError("a game without turns has nothing to replay")
    affordable = max(2, 2 * MAX_PIECES_DRAWN // max(1, pieces))
    step = ceil(turns / min(max_frames, affordable))
    frames = len(_shown_turns(turns, step))
    return ReplayPlan(turns, step, frames, REPLAY_WIDTH if frames <= WIDE_FRAMES else NARROW_WIDTH)


def render_replay(game: Game, options: RenderOptions | None = None,
                  max_frames: int = MAX_FRAMES) -> bytes:
    """GIF bytes of the game, a frame after each turn (every `plan.step` turns in a long
    game) and after the last; the last frame lingers.

    Without options the width is the plan's; with options, theirs.
    """
    plan = plan_of(game, max_frames)
    options = options or RenderOptions(width=plan.width)
    shown = _shown_turns(plan.turns, plan.step)
    earlier = game.copy()
    frames = []
    for after in range(plan.turns, 0, -1):
        if after in shown:
            frames.append(board_image(view_of(earlier), options))
        earlier.undo()
    frames.reverse()
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    return gif_bytes(frames, durations)


def plan_of(game: Game, max_frames: int = MAX_FRAMES) -> ReplayPlan:
    """`plan_replay` for a game as it stands."""
    return plan_replay(len(game.history), len(game.pegs()) + len(game.links()), max_frames)


def _shown_turns(turns: int, step: int) -> set[int]:
    return {*range(step, turns + 1, step), turns}
