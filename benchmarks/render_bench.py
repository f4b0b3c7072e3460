"""Speed and size of board pictures: a late 24×24 position and a 60-turn replay.

Prints medians, each beside its floor measured in the same run: a board (drawn and encoded)
beside Pillow's own PNG encode of the very same picture at the level the project saves with
(`PNG_COMPRESS_LEVEL`), timed in a clean process of its own (see `Floor`), the aim being at
most 1.5× that floor and 250 KB; the boards a
second of two threads beside one's, the aim being nearly twice (the bot draws in worker
threads, so the work must be in C code that releases the GIL), beside the same for a job
that never holds the GIL (ISA-L compressing the picture's rows), which is what two threads
can reach on this machine at this load, and for two processes; the most two threads can
reach, given two free cores, with the drawing holding the GIL; and a replay under 3 s and
8 MB. Run: python benchmarks/render_bench.py; with --parts, only the parts of a board (the
view of the game, the copy of the static board, the tiles of the scene, their pastes, the
caption's words and its pixels, the encode), each beside the floor.
"""

from __future__ import annotations

import functools
import io
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection

from isal import isal_zlib
from PIL import Image

from twixt.rendering import RenderOptions, ThemeName, render_png, render_replay
from twixt.rendering.board import board_image
from twixt.rendering.caption import caption_height, caption_lines, draw_caption
from twixt.rendering.encode import PNG_COMPRESS_LEVEL, png_bytes
from twixt.rendering.layout import layout
from twixt.rendering.pieces import _Scene
from twixt.rendering.static import static_layer
from twixt.rendering.tiles import board
from twixt.rendering.view import view_of
from twixt.rules import Colour, Game, Hole

REPEATS = 15
#: Boards drawn per timing of the thread pools, and how many timings to take the median of.
POOL_BOARDS = 60
POOL_REPEATS = 5


def late_game(seed: int = 7, min_pegs: int = 84, min_links: int = 64) -> Game:
    """A reproducible, still-running 24×24 pp game with many pegs and links.

    Each side mostly plays a knight's move from one of its own pegs (pp links them
    automatically) and never completes its chain, so the game stays open.
    """
    rng = random.Random(seed)
    game = Game(("alice", "bob"), size=24, rules="pp", swap=False)
    while len(game.pegs()) < min_pegs or len(game.links()) < min_links:
        own = [p.hole for p in game.pegs() if p.colour is game.colour_to_move]
        near = {Hole(h.col + dc, h.row + dr) for h in own
                for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1),
                               (-1, 2))}
        holes = game.legal_placements()
        preferred = [h for h in holes if h in near] if rng.random() < 0.85 else []
        for hole in rng.sample(preferred or holes, len(preferred or holes)):
            game.play(str(hole))
            if not game.is_over:
                break
            game.undo()
    return game


def pillow_png(image: Image.Image) -> bytes:
    """The floor: Pillow's PNG encode of a picture at the level the project saves with."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


class Floor:
    """The floor, timed in a process of its own that never runs ISA-L.

    Once ISA-L has compressed anything in a process, zlib's deflate in that process (and in
    its threads and forks) runs 1.4-2.4x slower on this machine: its vector code seems to
    leave the processor in a state that slows the older instructions zlib uses (Pillow's
    drawing, SQLite and JSON are not slowed; measured by hand, see docs/benchmarks.md). Timed beside
    the project's PNG writer in one process, Pillow's encode would look twice as slow as it
    is, and every ratio to it half as large; so it runs in a spawned process (a fresh
    program: nothing carried over), taking turns with this one all the same."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._pipe, theirs = context.Pipe()
        self._process = context.Process(target=_floor_process, args=(theirs,), daemon=True)
        self._process.start()

    def use(self, image: Image.Image) -> None:
        """Hand over the picture the floor encodes from now on."""
        self._pipe.send((image.mode, image.size, image.tobytes(), image.getpalette()))
        self._pipe.recv()

    def __call__(self) -> float:
        """Encode the picture once over there; its CPU seconds."""
        self._pipe.send(None)
        seconds = self._pipe.recv()
        assert isinstance(seconds, float)
        return seconds

    def close(self) -> None:
        self._pipe.close()   # the process ends when its end of the pipe does
        self._process.join()


def _floor_process(pipe: Connection) -> None:
    image = Image.new("P", (1, 1))
    while True:
        try:
            message = pipe.recv()
        except EOFError:
            return
        if message is None:
            start = time.thread_time()
            pillow_png(image)
            pipe.send(time.thread_time() - start)
        else:
            mode, size, data, palette = message
            image = Image.frombytes(mode, size, data)
            if palette is not None:
                image.putpalette(palette)
            pipe.send(True)


def timed(job: Callable[[], object]) -> Callable[[], float]:
    """A job run here, returning its CPU seconds."""
    def run() -> float:
        start = time.thread_time()
        job()
        return time.thread_time() - start
    return run


def side_by_side(*jobs: Callable[[], float]) -> list[float]:
    """Each job's median CPU time in ms (each returns its own, see `timed`), the jobs taken
    in turn REPEATS times, so that the machine's load falls on each alike."""
    times: list[list[float]] = [[] for _ in jobs]
    for _ in range(REPEATS):
        for job, kept in zip(jobs, times, strict=True):
            kept.append(job())
    return [statistics.median(kept) * 1000 for kept in times]


def boards_per_second(pool: Executor, job: Callable[[int], object]) -> float:
    """The median rate at which a pool of workers does `job` POOL_BOARDS times."""
    rates = []
    for _ in range(POOL_REPEATS):
        start = time.perf_counter()
        for _done in pool.map(job, range(POOL_BOARDS)):
            pass
        rates.append(POOL_BOARDS / (time.perf_counter() - start))
    return statistics.median(rates)


_GAME = late_game()


def _board(_: int) -> bytes:
    return render_png(_GAME)


def _no_gil(rows: bytes) -> Callable[[int], bytes]:
    return lambda _: isal_zlib.compress(rows, PNG_COMPRESS_LEVEL)


def parts() -> None:
    """Each step of `board_image` and the encode, timed in turns with the floor (median CPU
    ms of 60)."""
    game, options = _GAME, RenderOptions()
    part = options.board_part
    floor = Floor()
    floor.use(board_image(view_of(game), options))
    times: dict[str, list[float]] = {"floor": []}

    def lap(name: str, start: float) -> float:
        now = time.thread_time()
        times.setdefault(name, []).append(now - start)
        return now

    for _ in range(60):
        times["floor"].append(floor())
        start = time.thread_time()
        view = view_of(game)
        start = lap("view", start)
        lay = layout(view.cols, view.rows, part)
        picture = static_layer(view.cols, view.rows, part).crop(
            (0, 0, lay.width, lay.board_height + caption_height(view.is_double, options)))
        start = lap("copy", start)
        placed = _Scene(lay, view, part).tiles(board(view.cols, view.rows, part))
        start = lap("tiles", start)
        for over in (False, True):
            for piece, centre in placed:
                piece.paste(picture.im, centre, over)
        start = lap("pastes", start)
        lines = caption_lines(view, options.locale)
        start = lap("words", start)
        draw_caption(picture, lay.board_height, lines, options)
        start = lap("caption", start)
        png_bytes(picture)
        lap("encode", start)
    floor.close()
    medians = {name: statistics.median(kept) * 1000 for name, kept in times.items()}
    floor_ms = medians.pop("floor")
    drawing = sum(ms for name, ms in medians.items() if name != "encode")
    print(f"floor {floor_ms:.2f} ms; board {sum(medians.values()) / floor_ms:.2f}x the floor, "
          f"drawing {drawing / floor_ms:.2f}x: " + ", ".join(
              f"{name} {ms:.2f} ms ({ms / floor_ms:.2f}x)" for name, ms in medians.items()))


def main() -> None:
    game = _GAME
    print(f"late 24x24 position: {len(game.pegs())} pegs, {len(game.links())} links; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    render_png(game)  # the static layer is drawn once per size and theme, then reused
    print(f"CPU ms, median of {REPEATS}, beside the floor: Pillow's PNG encode of the same "
          f"picture at level {PNG_COMPRESS_LEVEL}")
    gil_bound = []
    floor_encode = Floor()
    for theme in ThemeName:
        for side in Colour:
            options = RenderOptions(theme=theme, side=side)
            png = render_png(game, options)
            image = board_image(view_of(game), options)
            floor_encode.use(image)
            board, floor, drawing, encoding = side_by_side(
                timed(functools.partial(render_png, game, options)),
                floor_encode,
                timed(lambda: board_image(view_of(game), options)),  # noqa: B023 (used at once)
                timed(functools.partial(png_bytes, image)))
            print(f"  board {theme.value:5} {side.value:5}: {board:5.2f} ms = "
                  f"{board / floor:.2f}x the floor {floor:5.2f} ms (drawing {drawing:4.2f}, "
                  f"encoding {encoding:4.2f}); {len(png) / 1024:5.1f} KB, "
                  f"Pillow's {len(pillow_png(image)) / 1024:5.1f} KB")
            gil_bound.append(min(2.0, board / drawing))
    floor_encode.close()
    rows = board_image(view_of(game), RenderOptions()).tobytes()
    rates = {}
    for workers in (1, 2):
        with ThreadPoolExecutor(workers) as threads:
            rates["board", "thread", workers] = boards_per_second(threads, _board)
            rates["no GIL", "thread", workers] = boards_per_second(threads, _no_gil(rows))
        with ProcessPoolExecutor(workers) as processes:
            list(processes.map(_board, range(2 * workers)))  # each process's caches warm
            rates["board", "process", workers] = boards_per_second(processes, _board)
    for job, pool in (("board", "thread"), ("no GIL", "thread"), ("board", "process")):
        one, two = rates[job, pool, 1], rates[job, pool, 2]
        what = "boards" if job == "board" else "floor: ISA-L of the rows, holding no GIL"
        print(f"  {what} a second: {one:5.0f} in 1 {pool}, {two:5.0f} in 2 "
              f"({two / one:.2f}x)")
    # the drawing is Python and holds the GIL; the encoding is ISA-L's, which releases it
    print(f"  two threads can make at most {min(gil_bound):.2f}-{max(gil_bound):.2f}x the boards "
          f"of one, given two free cores: a board over its drawing, the part that holds the GIL")
    replayed = late_game(seed=11, min_pegs=60, min_links=0)
    start = time.perf_counter()
    gif = render_replay(replayed)
    seconds = time.perf_counter() - start
    print(f"replay of {len(replayed.history)} turns: {seconds:.2f} s, "
          f"{len(gif) / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    if "--parts" in sys.argv[1:]:
        parts()
    else:
        main()
