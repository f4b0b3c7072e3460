"""The typefaces of the pictures: a stack of fonts, tried in order for every character.

Discord display names hold every script and emoji, and no one font has them all. Each
character (with its accents, joiners and variation selectors: see `clusters`) is set in the
first face of the stack whose character map has it:

1. Noto Sans (shipped, SIL Open Font License 1.1): Latin with its accents, Greek, Cyrillic,
   and the punctuation the captions use (× – · … ‘ ’ “ ”). The face of all the words and
   the board's labels.
2. Noto Sans Math (shipped, OFL 1.1): arrows, operators, and the bold, script, Fraktur and
   other "fancy" letters (𝐉𝓸𝔰𝕖) that Discord names love.
3. DejaVu Sans (shipped, Bitstream Vera and Arev licence): shapes, dingbats, box drawing,
   Hebrew, Arabic, Armenian, Georgian and more.
4. Noto Sans CJK (where installed): Chinese, Japanese and Korean.
5. Noto Color Emoji (where installed): colour bitmaps of one size, scaled to the text.
6. Every other Noto Sans of one script in the system's Noto folder (Debian's
   fonts-noto-core: Devanagari, Thai, Bengali, Tamil, Ethiopic, ...), where installed.

The shipped faces are files in `twixt/rendering/typefaces` next to their licences, so
`pip install` is enough for the alphabets of 1 to 3; the Docker image installs the rest.
Emoji are taken from the emoji face first (when it has them), text symbols from the text
faces. A character that no face has is drawn as U+FFFD (a diamond with a question mark, the
sign for "a character that cannot be shown"), never as a face's missing-glyph box; invisible
format characters (bidi marks, zero-width spaces, controls) are left out.

Which characters a face has is read from its `cmap` table by the small parser below: Pillow
does not tell (a missing character just draws the missing glyph), and fontTools would be a
4 MB dependency for forty lines.
"""

from __future__ import annotations

import struct
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

#: The shipped font files and their licences.
TYPEFACES = Path(__file__).parent / "typefaces"

#: Where distributions install the optional faces: Debian and Ubuntu (the Docker image),
#: Arch, Fedora.
CJK_FILES = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc")
EMOJI_FILES = ("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
               "/usr/share/fonts/noto/NotoColorEmoji.ttf",
               "/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf")
#: Folders holding one Noto Sans per script; the first that exists is used.
NOTO_FOLDERS = ("/usr/share/fonts/truetype/noto", "/usr/share/fonts/noto")

#: Drawn for a character that no face has.
REPLACEMENT = "\ufffd"


class Coverage:
    """The characters a face has, as sorted ranges of code points."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        self._firsts: list[int] = []
        self._lasts: list[int] = []
        for first, last in sorted(ranges):
            if self._lasts and first <= self._lasts[-1] + 1:
                self._lasts[-1] = max(self._lasts[-1], last)
            else:
                self._firsts.append(first)
                self._lasts.append(last)

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, int):
            return False
        index = bisect_right(self._firsts, code) - 1
        return index >= 0 and code <= self._lasts[index]

    def __len__(self) -> int:
        return sum(last - first + 1 for first, last in zip(self._firsts, self._lasts,
                                                          strict=True))

    def has(self, text: str) -> bool:
        """Whether every character of `text` is in the map."""
        return all(ord(char) in self for char in text)


#: The cmap subtables read, best first: (platform, encoding, format). Format 12 maps all of
#: Unicode, format 4 the Basic Multilingual Plane; Apple's and the symbol encodings are not
#: Unicode and are skipped.
_SUBTABLES = ((3, 10, 12), (0, 6, 12), (0, 4, 12), (3, 1, 4), (0, 3, 4), (0, 2, 4), (0, 1, 4),
              (0, 0, 4))


def read_table(path: Path | str, tag: bytes, index: int = 0) -> bytes | None:
    """The table `tag` (e.g. b"cmap") of the font at `path`, the `index`th face of a
    collection (.ttc); None if it has none. Reads only the table directory and that table."""
    path = Path(path)
    with path.open("rb") as file:

        def read(offset: int, length: int) -> bytes:
            file.seek(offset)
            data = file.read(length)
            if len(data) != length:
                raise ValueError(f"{path.name} is cut short")
            return data

        start = 0
        if read(0, 4) == b"ttcf":
            (count,) = struct.unpack(">I", read(8, 4))
            if not 0 <= index < count:
                raise ValueError(f"{path.name} has faces 0 to {count - 1}, not {index}")
            (start,) = struct.unpack(">I", read(12 + 4 * index, 4))
        (tables,) = struct.unpack(">H", read(start + 4, 2))
        directory = read(start + 12, 16 * tables)
        for entry in range(tables):
            found, _checksum, offset, length = struct.unpack_from(">4sIII", directory, 16 * entry)
            if found == tag:
                return read(offset, length)
    return None


def read_cmap(path: Path | str, index: int = 0) -> Coverage:
    """The characters of a font, from its cmap table."""
    cmap = read_table(path, b"cmap", index)
    if cmap is None:
        raise ValueError(f"{Path(path).name} has no character map")
    return _coverage(cmap)


def read_strike(path: Path | str, index: int = 0) -> int | None:
    """The largest pixel size of a colour bitmap font's strikes (CBLC table, as in Noto Color
    Emoji), or None for a font without colour bitmaps."""
    cblc = read_table(path, b"CBLC", index)
    if cblc is None:
        return None
    (sizes,) = struct.unpack_from(">I", cblc, 4)
    return max((cblc[8 + 48 * size + 44] for size in range(sizes)), default=None)


def _coverage(cmap: bytes) -> Coverage:
    (count,) = struct.unpack_from(">H", cmap, 2)
    found: dict[tuple[int, int, int], int] = {}
    for entry in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * entry)
        (form,) = struct.unpack_from(">H", cmap, offset)
        found.setdefault((platform, encoding, form), offset)
    for key in _SUBTABLES:
        if key in found:
            read = _format_12 if key[2] == 12 else _format_4
            return Coverage(read(cmap, found[key]))
    raise ValueError("the character map has no Unicode table of format 4 or 12")


def _format_12(cmap: bytes, offset: int) -> Iterator[tuple[int, int]]:
    """Groups of consecutive characters mapped to consecutive glyphs."""
    (groups,) = struct.unpack_from(">I", cmap, offset + 12)
    for group in range(groups):
        first, last, glyph = struct.unpack_from(">III", cmap, offset + 16 + 12 * group)
        yield (first + 1 if glyph == 0 else first), last   # glyph 0 is the missing glyph


def _format_4(cmap: bytes, offset: int) -> Iterator[tuple[int, int]]:
    """Segments of the BMP, each mapped by a delta or through an array of glyph numbers;
    a character is present when its glyph is not 0."""
    segments = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
    lasts = offset + 14
    firsts = lasts + 2 * segments + 2
    deltas = firsts + 2 * segments
    range_offsets = deltas + 2 * segments
    for segment in range(segments):
        (last,) = struct.unpack_from(">H", cmap, lasts + 2 * segment)
        (first,) = struct.unpack_from(">H", cmap, firsts + 2 * segment)
        (delta,) = struct.unpack_from(">H", cmap, deltas + 2 * segment)
        where = range_offsets + 2 * segment
        (range_offset,) = struct.unpack_from(">H", cmap, where)
        if first == 0xFFFF or first > last:
            continue   # the closing segment
        if range_offset == 0:
            gap = -delta & 0xFFFF   # the one character whose glyph would be 0
            if first <= gap <= last:
                yield first, gap - 1
                yield gap + 1, last
            else:
                yield first, last
            continue
        for code in range(first, last + 1):
            (glyph,) = struct.unpack_from(">H", cmap, where + range_offset + 2 * (code - first))
            if glyph and (glyph + delta) & 0xFFFF:
                yield code, code


@dataclass(frozen=True)
class Face:
    """One font file of the stack."""

    name: str
    path: Path
    index: int = 0              # the face within a collection (.ttc)
    strike: int | None = None   # a colour bitmap face: the one pixel size it can be set at

    @property
    def coverage(self) -> Coverage:
        return _coverage_of(self)

    def font(self, size: int) -> ImageFont.FreeTypeFont:
        """The face at `size` pixels; a bitmap face always at its own size (scale it)."""
        return _load(self, self.strike or size)


@cache
def _coverage_of(face: Face) -> Coverage:
    """A face's characters; none for a file that cannot be read (the tests hold the shipped
    faces to their alphabets)."""
    try:
        return read_cmap(face.path, face.index)
    except (OSError, ValueError, struct.error, IndexError):
        return Coverage(())


@lru_cache(maxsize=128)
def _load(face: Face, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(face.path), size, index=face.index)


NOTO_SANS = Face("Noto Sans", TYPEFACES / "NotoSans-Regular.ttf")
NOTO_SANS_MATH = Face("Noto Sans Math", TYPEFACES / "NotoSansMath-Regular.ttf")
DEJAVU_SANS = Face("DejaVu Sans", TYPEFACES / "DejaVuSans.ttf")
SHIPPED = (NOTO_SANS, NOTO_SANS_MATH, DEJAVU_SANS)


def _installed(name: str, paths: tuple[str, ...], index: int = 0,
               colour: bool = False) -> Face | None:
    """The first of `paths` that is a font with a readable character map (and colour bitmaps
    if `colour`), if any; a broken file is passed over."""
    for path in map(Path, paths):
        if path.is_file():
            try:
                strike = read_strike(path, index) if colour else None
                if colour and strike is None:
                    continue
            except (OSError, ValueError, struct.error, IndexError):
                continue
            face = Face(name, path, index, strike)
            if len(face.coverage):
                return face
    return None


def _script_faces() -> list[Face]:
    """The regular Noto Sans of each script in the first Noto folder there is, but those
    shipped (their characters are read when first needed)."""
    for folder in map(Path, NOTO_FOLDERS):
        if folder.is_dir():
            shipped = {face.path.name for face in SHIPPED}
            return [Face(path.name.removesuffix("-Regular.ttf"), path)
                    for path in sorted(folder.glob("NotoSans?*-Regular.ttf"))
                    if path.name not in shipped
                    and not any(word in path.name for word in ("UI", "Mono", "Display"))]
    return []


@cache
def stack() -> tuple[Face, ...]:
    """The faces in the order they are tried: the shipped ones, then those installed.

    Noto Sans CJK's first face is the Japanese one (the collection's faces differ only in a
    few regional forms of Han characters); Noto Color Emoji is drawn at its strike (109 px).
    """
    optional = (_installed("Noto Sans CJK JP", CJK_FILES, index=0),
                _installed("Noto Color Emoji", EMOJI_FILES, colour=True))
    return (*SHIPPED, *(face for face in optional if face is not None), *_script_faces())


def font(size: int) -> ImageFont.FreeTypeFont:
    """The main face (Noto Sans) at `size` pixels, for text that is only ever ASCII, such as
    the board's labels; bold is drawn with a thin stroke."""
    return NOTO_SANS.font(size)


# --- characters and the face each is set in ------------------------------------------------

ZWJ = "\u200d"
#: The most non-spacing marks kept on one character: Vietnamese needs two, Tibetan stacks
#: a few.
MAX_MARKS = 4


def _ignorable(char: str) -> bool:
    """Joiners, variation selectors and tags: they change how their neighbours look, have no
    look of their own, and a face may well not list them."""
    code = ord(char)
    return (code in (0x200C, 0x200D, 0x034F) or 0xFE00 <= code <= 0xFE0F
            or 0xE0020 <= code <= 0xE007F or 0xE0100 <= code <= 0xE01EF)


def _extends(char: str, category: str) -> bool:
    """Whether `char` belongs to the character before it: a mark, a joiner, a variation
    selector, a tag, an emoji skin tone."""
    return (category in ("Mn", "Me", "Mc") or _ignorable(char)
            or 0x1F3FB <= ord(char) <= 0x1F3FF)


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """`text` split into the characters a reader sees: a base with its accents, joiners,
    variation selectors, skin tones and tags, emoji joined by ZWJ, flags as pairs of regional
    indicators (Unicode's extended grapheme clusters, closely enough for names; Hangul jamo
    and prepended marks are not joined). Controls and invisible format characters (bidi
    marks, zero-width spaces, soft hyphens) are left out, and so are marks past the
    `MAX_MARKS`th on one character ("Zalgo" text piles up dozens)."""
    out: list[str] = []
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc" or (category == "Cf" and not _ignorable(char)):
            continue
        if category in ("Zl", "Zp"):
            char, category = " ", "Zs"
        if out and (_extends(char, category) or out[-1][-1] == ZWJ
                    or (_regional(char) and len(out[-1]) == 1 and _regional(out[-1]))):
            if category in ("Mn", "Me"):
                marks += 1
                if marks > MAX_MARKS:
                    continue
            out[-1] += char
        else:
            out.append(char)
            marks = 0
    return out


#: Characters of the BMP shown as emoji by default (Emoji_Presentation=Yes); above U+1F000
#: nearly all are.
_EMOJI_BMP = ((0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
              (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
              (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
              (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
              (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
              (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
              (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
              (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
              (0x2B55, 0x2B55))


def _emoji_style(cluster: str) -> bool | None:
    """True where a cluster asks to be an emoji, False where it asks to be text, None where
    it does not say (then the stack's order decides)."""
    if "\ufe0e" in cluster:
        return False
    if "\ufe0f" in cluster or "\u20e3" in cluster:
        return True
    code = ord(cluster[0])
    return code >= 0x1F000 or any(first <= code <= last for first, last in _EMOJI_BMP) or None


@lru_cache(maxsize=8192)
def face_for(cluster: str) -> tuple[Face, str] | None:
    """The face a cluster is set in and the text to set in it (the cluster as written, or
    composed or decomposed where only that form is in a face; without the joiners and
    selectors the face lacks), or U+FFFD where no face has its base character (marks that
    the base's face lacks are left out). None for a cluster with nothing to show."""
    if not any(not _ignorable(char) for char in cluster):
        return None
    faces = stack()
    emoji = _emoji_style(cluster)
    if emoji is not None:   # emoji faces first, or last (the sort keeps the order otherwise)
        faces = tuple(sorted(faces, key=lambda face: (face.strike is None) is emoji))
    forms = dict.fromkeys((cluster, unicodedata.normalize("NFC", cluster),
                           unicodedata.normalize("NFD", cluster)))
    wanted = [("".join(char for char in form if not _ignorable(char)), form) for form in forms]
    for needed, form in (*wanted, (wanted[0][0][0], cluster)):   # at last, the base alone
        for face in faces:
            if face.coverage.has(needed):
                coverage = face.coverage
                return face, "".join(char for char in form if ord(char) in coverage)
    return _replacement()


@cache
def _replacement() -> tuple[Face, str]:
    """U+FFFD from the first face that has it (DejaVu Sans does), else "?"."""
    for face in stack():
        if ord(REPLACEMENT) in face.coverage:
            return face, REPLACEMENT
    return NOTO_SANS, "?"


@lru_cache(maxsize=4096)
def pieces(text: str) -> tuple[tuple[Face, str], ...]:
    """`text` as runs each set in one face, in order; a space stays in the run of text before
    it when that face has it, so a name in one script is one run."""
    if text.isascii() and text.isprintable():   # most runs: all in the main face
        return ((NOTO_SANS, text),) if text else ()
    out: list[tuple[Face, str]] = []
    for cluster in clusters(text):
        if (out and cluster.isspace() and out[-1][0].strike is None
                and out[-1][0].coverage.has(cluster)):
            chosen: tuple[Face, str] | None = (out[-1][0], cluster)
        else:
            chosen = face_for(cluster)
        if chosen is None:
            continue
        face, drawn = chosen
        if out and out[-1][0] == face:
            out[-1] = (face, out[-1][1] + drawn)
        else:
            out.append((face, drawn))
    return tuple(out)
