"""Names in any script are drawn with real glyphs: each character in a face whose character
map has it (never a face's missing-glyph box), checked from the maps and in decoded pixels."""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont

from tests.rendering.render_helpers import decode, play
from twixt.rendering import RenderOptions, caption_lines, render_png, view_of
from twixt.rendering.caption import SetLine, TextRun, caption_layout
from twixt.rendering.fonts import (
    DEJAVU_SANS,
    NOTO_SANS,
    NOTO_SANS_MATH,
    REPLACEMENT,
    SHIPPED,
    TYPEFACES,
    Face,
    clusters,
    face_for,
    font,
    pieces,
    read_cmap,
    stack,
)
from twixt.rendering.layout import layout
from twixt.rendering.text import set_text, text_length
from twixt.rules import Game

#: A character no font has, so FreeType draws the face's missing glyph (the "tofu" box).
NOTDEF = "\U0010fffd"

LATIN = ["José", "Zoë", "Łukasz", "François Müller", "Ðặng Thị Ngọc", "Ærøskøbing"]
GREEK = ["Αλέξανδρος", "Ὀδυσσεύς"]
CYRILLIC = ["Дмитрий", "Ёжик Їжак", "Ђорђе"]
SYMBOLS = ["24×24", "a – b · c …", "→ ← ↑ ↓ ★ ✓ ● ■ ♥", "𝓙𝓸𝓼𝓮 𝐁𝐨𝐥𝐝 𝕯𝖆𝖗𝖐", "“quoted” ‘name’ ©®™ €£¥"]
CJK = ["山田太郎", "김민준", "さくら ラーメン"]
EMOJI = ["🎲", "dice 🎲 lover", "👨‍👩‍👧 🇯🇵 👍🏽 1️⃣"]


def _face(name: str) -> Face | None:
    return next((face for face in stack() if face.name == name), None)


needs_cjk = pytest.mark.skipif(_face("Noto Sans CJK JP") is None,
                               reason="Noto Sans CJK is not installed (apt install fonts-noto-cjk)")
needs_emoji = pytest.mark.skipif(
    _face("Noto Color Emoji") is None,
    reason="Noto Color Emoji is not installed (apt install fonts-noto-color-emoji)")

SHIPPED_NAMES = [*LATIN, *GREEK, *CYRILLIC, *SYMBOLS]
ALL_NAMES = [*SHIPPED_NAMES, *(pytest.param(n, marks=needs_cjk) for n in CJK),
             *(pytest.param(n, marks=needs_emoji) for n in EMOJI)]


def _game(name: str, other: str = "bob") -> Game:
    return play(Game((name, other), size=8, swap=False), "C2", "F4")


def _word_runs(game: Game) -> list[str]:
    return [run.text for line in caption_lines(view_of(game)) for run in line
            if isinstance(run, TextRun)]


def _assert_covered(text: str) -> None:
    """Every character of `text` is set in a face whose character map has it: nothing is
    left for the missing glyph, and nothing visible is replaced or dropped."""
    drawn = ""
    for face, piece in pieces(text):
        missing = [f"U+{ord(char):04X}" for char in piece if ord(char) not in face.coverage]
        assert not missing, f"{face.name} lacks {missing} of {piece!r}"
        assert REPLACEMENT not in piece, f"{text!r}: a character no face has"
        drawn += piece
    visible = "".join(c for c in unicodedata.normalize("NFC", text)
                      if unicodedata.category(c) not in ("Cf", "Mn") and c != "\ufe0f")
    assert "".join(c for c in unicodedata.normalize("NFC", drawn)
                   if unicodedata.category(c) not in ("Cf", "Mn")) == visible


# --- the faces ---------------------------------------------------------------------------

def test_the_shipped_fonts_and_their_licences_are_in_the_package():
    for face in SHIPPED:
        assert face.path.parent == TYPEFACES and face.path.is_file()
    assert stack()[:3] == SHIPPED
    licences = {path.name for path in TYPEFACES.glob("LICENSE-*.txt")}
    assert licences == {"LICENSE-Noto.txt", "LICENSE-DejaVuSans.txt"}
    assert "SIL OPEN FONT LICENSE" in (TYPEFACES / "LICENSE-Noto.txt").read_text()
    assert "Bitstream Vera" in (TYPEFACES / "LICENSE-DejaVuSans.txt").read_text()


def test_the_main_face_has_every_latin_greek_and_cyrillic_letter_and_the_captions_marks():
    coverage = NOTO_SANS.coverage
    wanted = [*range(0x20, 0x7F), *range(0xA0, 0x250),   # Latin-1, Latin Extended-A and -B
              *(c for c in range(0x391, 0x3CA) if c != 0x3A2),   # Greek letters, tonos
              *range(0x400, 0x530), *range(0x1E00, 0x1F00),   # Cyrillic, Latin Extended Additional
              *map(ord, "×–—·…‘’“”•€₽№")]
    assert [f"U+{c:04X}" for c in wanted if c not in coverage] == []


def test_fallback_faces_add_symbols_and_fancy_letters():
    assert all(ord(c) in NOTO_SANS_MATH.coverage for c in "→⇒∀∞𝓙𝐁𝕯𝔍𝙹𝗝")
    assert all(ord(c) in DEJAVU_SANS.coverage for c in "★✓●■♥☺⚑♔шש\ufffd")


def test_the_character_maps_agree_with_what_freetype_draws():
    """A character the parsed map lists draws something other than the missing glyph, and
    one it does not list draws exactly the missing glyph, when FreeType looks characters up
    itself (basic layout: no shaping, which builds some characters from others)."""
    rng = random.Random(7)
    faces = [*SHIPPED, *(face for face in (_face("Noto Sans CJK JP"),) if face is not None)]
    for face in faces:
        basic = ImageFont.truetype(str(face.path), 20, index=face.index,
                                   layout_engine=ImageFont.Layout.BASIC)

        def glyph(char: str, basic=basic) -> tuple[tuple[int, int], bytes]:
            mask = basic.getmask(char)
            return mask.size, Image.Image()._new(mask).tobytes()

        missing = glyph(NOTDEF)
        codes = [c for c in range(0x20, 0x30000) if not 0xD800 <= c < 0xE000]
        has = [c for c in codes if c in face.coverage]
        lacks = [c for c in codes if c not in face.coverage]
        for code in rng.sample(has, 300):
            assert glyph(chr(code)) != missing, f"{face.name}: U+{code:04X} is listed, not drawn"
        for code in rng.sample(lacks, 300):
            assert glyph(chr(code)) == missing, f"{face.name}: U+{code:04X} is drawn, not listed"


def test_read_cmap_reads_a_face_of_a_collection():
    cjk = _face("Noto Sans CJK JP")
    if cjk is None:
        pytest.skip("Noto Sans CJK is not installed (apt install fonts-noto-cjk)")
    assert read_cmap(cjk.path, 1).has("山田太郎김민준")   # the Korean face of the collection


# --- names in every script -----------------------------------------------------------------

@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_character_of_a_name_is_in_the_face_chosen_for_it(name):
    for text in _word_runs(_game(name, "Ωmega Дима")):
        _assert_covered(text)


def test_a_new_games_headline_has_a_real_times_sign():
    headline = caption_lines(view_of(Game(("alice", "bob"), size=24)))[0]
    assert any("24×24" in run.text for run in headline if isinstance(run, TextRun))
    assert face_for("×") == (NOTO_SANS, "×")


@pytest.mark.parametrize("name", [*SHIPPED_NAMES, *(pytest.param(n, marks=needs_cjk) for n in CJK)])
def test_the_pictures_pixels_are_the_glyphs_not_missing_glyph_boxes(name):
    """The roster's run of the name, cut from the decoded PNG, matches the name set in the
    stack and is far from the same run with the characters the old built-in font lacked
    drawn as the face's missing glyph."""
    options = RenderOptions()
    game = _game(name)
    image = decode(render_png(game, options))
    top = layout(8, 8, options).board_height
    line = caption_layout(image.width, caption_lines(view_of(game)), options)[2]   # the roster
    (x,) = [x for run, x in zip(line.runs, line.starts, strict=True)
            if isinstance(run, TextRun) and run.text == name]
    ink = _ink(image, top, line, x, name, options)
    assert _distance(ink, _set(image.size, top, line, x, name)) < 0.08
    assert _distance(ink, _tofu(image.size, top, line, x, name)) > 0.15


@needs_emoji
def test_emoji_are_drawn_in_colour():
    options = RenderOptions()
    game = _game("dice 🎲 lover")
    image = decode(render_png(game, options))
    top = layout(8, 8, options).board_height
    line = caption_layout(image.width, caption_lines(view_of(game)), options)[2]
    (x,) = [x for run, x in zip(line.runs, line.starts, strict=True)
            if isinstance(run, TextRun) and run.name and "🎲" in run.text]
    start = x + text_length("dice ", line.size)
    box = (round(start), top + line.middle - line.height // 2,
           round(start + text_length("🎲", line.size)), top + line.middle + line.height // 2)
    colours = image.crop(box).getcolors(box[2] * box[3]) or []
    colourful = sum(count for count, pixel in colours if max(pixel) - min(pixel) > 80)
    assert colourful > 10   # caption text is grey or brown: only the emoji has colour


def test_a_character_no_face_has_shows_as_the_replacement_character():
    chosen = face_for("\ue000")   # private use: no font has it
    assert chosen is not None
    face, drawn = chosen
    assert drawn == REPLACEMENT and ord(REPLACEMENT) in face.coverage
    assert pieces("a\ue000b") == ((NOTO_SANS, "a\ufffdb"),)


def test_invisible_and_control_characters_are_left_out():
    assert clusters("\u200bbo\u202eb\u2066\x00\x85\t") == ["b", "o", "b"]
    assert clusters("a\u2029b") == ["a", " ", "b"]
    assert set_text("\u200b\u200d", 26).empty


def test_characters_that_belong_together_stay_together():
    assert clusters("Ame\u0301lie") == ["A", "m", "e\u0301", "l", "i", "e"]
    assert clusters("👨‍👩‍👧🇯🇵🇫🇷👍🏽1️⃣") == ["👨‍👩‍👧", "🇯🇵", "🇫🇷", "👍🏽", "1️⃣"]
    assert clusters("🇯🇵🇫") == ["🇯🇵", "🇫"]
    assert clusters("Z" + "\u0301" * 20 + "a") == ["Z" + "\u0301" * 4, "a"]   # no Zalgo towers


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=12))
def test_any_text_is_set_without_error_or_missing_glyph(text):
    for face, piece in pieces(text):
        assert all(ord(char) in face.coverage for char in piece)
    set_text(text, 20, 0.8)


# --- helpers for the pixel test ----------------------------------------------------------

def _band(top: int, line: SetLine, x: float, name: str) -> tuple[int, int, int, int]:
    return (int(x) - 2, top + line.middle - line.height // 2,
            int(x + text_length(name, line.size)) + 3, top + line.middle + line.height // 2)


def _ink(image: Image.Image, top: int, line: SetLine, x: float, name: str,
         options: RenderOptions) -> Image.Image:
    """Where the picture is clearly not the caption's ground, inside the name's band."""
    ground = Image.new("RGB", image.size, options.colours.caption)
    difference = ImageChops.difference(image, ground).convert("L")
    return difference.crop(_band(top, line, x, name)).point(lambda v: 255 if v > 60 else 0)


def _set(size: tuple[int, int], top: int, line: SetLine, x: float, name: str) -> Image.Image:
    """The name as the renderer sets it, in the same place."""
    canvas = Image.new("L", size)
    inked = set_text(name, line.size)
    canvas.paste(inked.mask, (round(x) + inked.offset[0], top + line.middle + inked.offset[1]))
    return canvas.crop(_band(top, line, x, name)).point(lambda v: 255 if v > 100 else 0)


def _tofu(size: tuple[int, int], top: int, line: SetLine, x: float, name: str) -> Image.Image:
    """The name in the same faces and place, its characters beyond ASCII (all the old
    built-in font had, near enough) drawn as the face's missing glyph."""
    canvas = Image.new("L", size)
    draw = ImageDraw.Draw(canvas)
    ascent, descent = font(line.size).getmetrics()
    baseline = top + line.middle + (ascent - descent) / 2
    start: float = round(x)   # where the renderer pastes the run
    for face, piece in pieces(name):
        tofu = "".join(NOTDEF if any(ord(char) > 0x7E for char in cluster) else cluster
                       for cluster in clusters(piece))
        draw.text((start, baseline), tofu, fill=255, font=face.font(line.size), anchor="ls")
        start += text_length(piece, line.size)
    return canvas.crop(_band(top, line, x, name)).point(lambda v: 255 if v > 100 else 0)


def _distance(a: Image.Image, b: Image.Image) -> float:
    """The share of inked pixels, of either, that the two do not share (0 the same)."""
    either = ImageChops.lighter(a, b).histogram()[255]
    return ImageChops.difference(a, b).histogram()[255] / max(1, either)
