"""Pictures to bytes: one fixed palette per theme, PNG for a position, GIF for a replay.

A palette known in advance lets pictures be drawn in palette mode from parts mapped onto it
once (the static board, the pieces' tiles), makes the PNG a third of the size of an RGB one,
and lets every replay frame share one global GIF palette.

A palette picture's PNG is written here, not by Pillow: Pillow tries five filters on every
row and compresses with zlib, holding the GIL. Here each row is stored unfiltered (what PNG's
authors advise for palette pictures: a palette index minus its neighbour means nothing, and
the PNG came out 1% smaller) and compressed by ISA-L (the `isal` package: Intel's deflate,
the same format zlib reads), which releases the GIL and at level 1 takes a fifth to a sixth
of Pillow's time for a PNG a few per cent smaller. It was most of a picture's cost; now the
drawing is (`benchmarks/render_bench.py` prints both beside Pillow's encode).

One cost falls outside: once ISA-L has compressed anything, zlib's deflate in the same
process, its threads and forks ran 1.4-2.4x slower on the machine it was measured on (an AMD
EPYC with AVX-512; its vector code seems to leave a state that slows the older instructions
zlib uses), SHA-256 1.3x. Pillow's drawing, SQLite, JSON and zlib's inflate were not
slowed, and a process that draws deflates nothing else of size (the web server gzips its
files, but draws no boards); the benchmark times Pillow's encode in a process of its own for
that reason.
"""

from __future__ import annotations

import io
import struct
import zlib
from functools import lru_cache

from isal import isal_zlib
from PIL import Image

from twixt.rendering.themes import PaletteName, ThemeName, palette_colours

#: Compression level for PNGs: ISA-L's (0 to 3) for palette pictures, zlib's for the others
#: (which Pillow writes). Encoding was most of a picture's cost: on a late 24×24 board zlib's
#: level 1 took a quarter of the time of 6 for a PNG of 55 KB instead of 37, far below what
#: Discord shows without delay; ISA-L's level 1 is smaller than zlib's still (its 0 is a fifth
#: larger and no faster, 2 no smaller, 3 half a per cent smaller and five times slower).
PNG_COMPRESS_LEVEL = 1


@lru_cache(maxsize=8)
def _palette_image(theme: ThemeName, palette: PaletteName) -> Image.Image:
    colours = palette_colours(theme, palette)
    image = Image.new("P", (1, 1))
    flat = [channel for colour in colours for channel in colour]
    image.putpalette(flat + flat[-3:] * (256 - len(colours)))
    return image


def quantize(image: Image.Image, theme: ThemeName, palette: PaletteName) -> Image.Image:
    """Map an RGB picture onto the theme's palette, without dithering (flat colours stay flat)."""
    return image.quantize(palette=_palette_image(theme, palette), dither=Image.Dither.NONE)


#: PNG's signature, and the header fields after the size: 8 bits a pixel, colour type 3
#: (palette), deflate, the adaptive filters' method, no interlace
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PALETTE_HEADER = bytes((8, 3, 0, 0, 0))


def png_bytes(image: Image.Image) -> bytes:
    """A picture as PNG bytes at `PNG_COMPRESS_LEVEL`: a palette picture written here (see
    above), any other by Pillow."""
    if image.mode != "P" or "transparency" in image.info:
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
        return out.getvalue()
    width, height = image.size
    # one column of index 0 before the picture: each row then begins with the byte of
    # filter 0 (none), and the rows as PNG stores them come from Pillow in one copy
    rows = Image.new("P", (width + 1, height))
    rows.im.paste(image.im, (1, 0, width + 1, height))
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", struct.pack(">II", width, height) + _PALETTE_HEADER),
        _chunk(b"PLTE", image.im.getpalette("RGB", "RGB")),
        _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), PNG_COMPRESS_LEVEL)),
        _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join((struct.pack(">I", len(data)), kind, data,
                     struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))))


def gif_bytes(frames: list[Image.Image], durations: list[int]) -> bytes:
    """An endlessly looping GIF; Pillow stores only the changed box of each frame."""
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=False, disposal=1)
    return out.getvalue()
