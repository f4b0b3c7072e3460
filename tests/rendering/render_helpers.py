"""Games to draw, and helpers that decode real PNG bytes and read pixels at computed places."""

from __future__ import annotations

import io

from PIL import Image

from twixt.rules import Game

#: How far (per channel) a decoded pixel may be from the colour the theme names.
TOLERANCE = 6


def decode(data: bytes) -> Image.Image:
    """The RGB pixels of PNG (or first GIF frame) bytes, checking they are what they claim."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = TOLERANCE) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def play(game: Game, *commands: str) -> Game:
    for command in commands:
        game.play(command)
    return game


def removal_game() -> Game:
    """8×8 classic: Red links C2-D4, then removes peg D4 (and so that link) and plays E6."""
    return play(Game(("alice", "bob"), size=8, swap=False),
                "C2", "F4", "D4 link C2", "G6 link F4", "remove D4; E6")


def won_game() -> Game:
    """5×5: Red joins row 1 to row 5 with C1-D3-C5."""
    return play(Game(("alice", "bob"), size=5, swap=False),
                "C1", "A2", "D3 link C1", "B4", "C5 link D3")


def blockade_game() -> Game:
    """6×6 pp: after 20 turns neither side can complete a chain any more."""
    return play(Game(("alice", "bob"), size=6, rules="pp", swap=False),
                "B3", "F5", "B6", "A4", "C2", "C5", "E4", "D5", "D6", "D4", "D3", "C3",
                "D1", "A5", "B5", "E5", "E3", "B2", "C1", "F3")


def double_game() -> Game:
    """12×12 Double TwixT: carol (alice's partner) links to alice's peg and calls privilege."""
    return play(Game(("alice", "bob", "carol", "dave"), size=12),
                "C3", "F5", "D5 link C3; privilege", "E7 link D5")
