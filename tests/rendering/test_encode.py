"""The PNG writer: the bytes a standard decoder reads back are the picture drawn."""

from __future__ import annotations

import io
import zlib

from isal import isal_zlib
from PIL import Image

from tests.rendering.render_helpers import play
from twixt.rendering import RenderOptions, ThemeName
from twixt.rendering.board import board_image
from twixt.rendering.encode import PNG_COMPRESS_LEVEL, png_bytes
from twixt.rendering.view import view_of
from twixt.rules import Game


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Each chunk's kind and data, its CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert int.from_bytes(data[at + 8 + length:at + 12 + length], "big") == zlib.crc32(
            kind + body)
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def test_a_board_decodes_to_the_picture_drawn_index_for_index_and_colour_for_colour():
    game = play(Game(("alice", "bob"), size=24, swap=False), "J10", "M14", "L12")
    for theme in ThemeName:
        picture = board_image(view_of(game), RenderOptions(theme=theme))
        back = Image.open(io.BytesIO(png_bytes(picture)))
        assert back.mode == "P" and back.size == picture.size
        assert back.tobytes() == picture.tobytes()
        assert back.convert("RGB").tobytes() == picture.convert("RGB").tobytes()


def test_its_rows_are_unfiltered_and_compressed_at_the_projects_level():
    picture = board_image(view_of(play(Game(("alice", "bob"), size=12), "F6")), RenderOptions())
    chunks = _chunks(png_bytes(picture))
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    idat = chunks[2][1]
    rows = zlib.decompress(idat)
    width = picture.width + 1
    assert all(rows[row * width] == 0 for row in range(picture.height))  # filter none
    assert idat == isal_zlib.compress(rows, PNG_COMPRESS_LEVEL)   # ISA-L's deflate


def test_a_picture_in_another_mode_is_written_by_pillow():
    picture = Image.new("RGB", (5, 3), (10, 200, 30))
    back = Image.open(io.BytesIO(png_bytes(picture)))
    assert back.mode == "RGB" and back.tobytes() == picture.tobytes()
