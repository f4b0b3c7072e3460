"""The crosstable picture: real PNG bytes decoded and read at the places its layout names.

Checked: the bounds (rows, columns, cells, the picture's size), the diagonal filled in the
holes' colour, results drawn and empty cells left bare, a withdrawn row greyed and struck,
names in any script drawn with real glyphs (no missing-glyph boxes) and cut with "…",
German headings, and that a 12-entrant table shown 400 px wide (as on a phone) has its
digits and names at least 8 px tall.
"""

from __future__ import annotations

import math
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from tests.rendering.render_helpers import close, decode
from tests.rendering.test_fonts import NOTDEF, needs_cjk, needs_emoji
from tests.rendering.test_readability import SHOWN, contrast
from twixt.rendering import Crosstable, CrosstableRow, ThemeName, render_crosstable
from twixt.rendering.crosstable import (
    MAX_ROWS,
    MAX_SIDE,
    NAME_EMS,
    TEXT_SIZE,
    CrosstableLayout,
    crosstable_layout,
    row_labels,
    score_text,
)
from twixt.rendering.fonts import clusters, font, pieces
from twixt.rendering.text import ELLIPSIS, set_text, text_length
from twixt.rendering.themes import PaletteName, faded, theme

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
         "mallory", "niaj"]
LONG = "Wolfeschlegelsteinhausenbergerdorff"
CJK = "山田太郎"
#: A result for each row and column where it is not the diagonal: row i beat every row below
#: but drew with the next one; the last pair has not played; a double tournament plays twice.
WIN, DRAW, LOSS = "1", "½", "0"

#: px tall at 400 px wide: a table's text (the board's labels are held to 10 px)
MIN_TABLE_TEXT = 8


def _box(lay: CrosstableLayout, index: int, row: int) -> tuple[int, int, int, int]:
    """The box of a column (0 the rank, 1 the name, -2 the points) in a row (0 the heading
    row, 1 the first entrant), as `cell_box` counts them."""
    return lay.cell_box(row - 1, index % (len(lay.xs) - 1) - lay.first_cell)


def _cell(i: int, j: int, n: int, double: bool) -> str:
    if i == j or {i, j} == {n - 2, n - 1}:
        return ""
    one = DRAW if abs(i - j) == 1 else WIN if i < j else LOSS
    return f"{one} {one}" if double else one


def round_robin(n: int, double: bool = False, names: list[str] | None = None,
                withdrawn: int | None = None, locale: str = "en",
                title: str = "Autumn Cup — round robin, 24×24 pp, 10d+36h") -> Crosstable:
    names = names or [NAMES[i % len(NAMES)] for i in range(n)]
    rows = []
    for i in range(n):
        cells = tuple(_cell(i, j, n, double) for j in range(n))
        if withdrawn is not None and i != withdrawn:
            cells = tuple("+" if j == withdrawn else c for j, c in enumerate(cells))
        if i == withdrawn:
            cells = tuple("" if j == i else "−" for j in range(n))
        rows.append(CrosstableRow(names[i], i + 1, float(n - i), (n - i) * 2.25, cells,
                                  withdrawn=i == withdrawn))
    return Crosstable(title, "SB", tuple(rows), "Round 3 of 5 · updated 2026-11-24 10:00 UTC",
                      locale=locale)


def swiss(n: int, rounds: int) -> Crosstable:
    rows = tuple(CrosstableRow(f"player {i + 1}", i + 1, rounds - i / 4, 20 - i / 2,
                               tuple("+" if r == i % rounds else f"{(i + r) % n + 1} ½"
                                     for r in range(rounds)))
                 for i in range(n))
    return Crosstable("Spring Swiss", "Buchholz", rows,
                      columns=tuple(f"R{r + 1}" for r in range(rounds)))


@cache
def picture(table: Crosstable, theme_name: ThemeName = ThemeName.LIGHT) -> Image.Image:
    return decode(render_crosstable(table, theme_name))


def colours(theme_name: ThemeName):
    return theme(theme_name, PaletteName.NORMAL)


def _middle(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def _ink(image: Image.Image, box: tuple[int, int, int, int], ground: tuple[int, int, int],
         threshold: int = 60) -> Image.Image:
    """White where the picture in `box` is clearly not `ground`."""
    plain = Image.new("RGB", image.size, ground)
    difference = ImageChops.difference(image, plain).convert("L").crop(box)
    return difference.point(lambda v: 255 if v > threshold else 0)


def _inked(mask: Image.Image) -> int:
    return mask.histogram()[255]


THEMES = list(ThemeName)


# --- bounds --------------------------------------------------------------------------------

def test_a_table_beyond_the_bounds_is_refused():
    with pytest.raises(ValueError, match="at most 64 rows"):
        crosstable_layout(swiss(MAX_ROWS + 1, 3))
    with pytest.raises(ValueError, match="at most 64 columns"):
        crosstable_layout(swiss(8, 65))
    with pytest.raises(ValueError, match="at least one row"):
        render_crosstable(Crosstable("empty", "SB", ()))
    table = round_robin(4)
    short = CrosstableRow("x", 1, 0, 0, ("", "1"))
    with pytest.raises(ValueError, match="4 cells"):
        render_crosstable(Crosstable("t", "SB", (short, *table.rows[1:])))
    three = CrosstableRow("x", 1, 0, 0, ("", "1 1 1", "", ""))
    with pytest.raises(ValueError, match="at most 2"):
        render_crosstable(Crosstable("t", "SB", (three, *table.rows[1:])))
    wordy = CrosstableRow("x", 1, 0, 0, ("", "won!!", "", ""))
    with pytest.raises(ValueError, match="short results"):
        render_crosstable(Crosstable("t", "SB", (wordy, *table.rows[1:])))
    with pytest.raises(ValueError, match="a number"):
        score_text(math.nan)


@pytest.mark.parametrize("table", [round_robin(MAX_ROWS, double=True, names=[LONG] * 64),
                                   swiss(MAX_ROWS, 11), round_robin(20)],
                         ids=["64-double", "64-swiss", "20"])
def test_the_picture_is_bounded_and_as_big_as_its_layout(table):
    image = picture(table)
    lay = crosstable_layout(table)
    assert image.size == (lay.width, lay.height)
    assert max(image.size) <= MAX_SIDE
    assert lay.xs[-1] <= lay.width and lay.ys[-1] <= lay.height


def test_a_bigger_table_is_wider_at_the_same_size_until_the_bound():
    small, big = crosstable_layout(round_robin(12)), crosstable_layout(round_robin(20))
    assert small.size == big.size == TEXT_SIZE and big.width > small.width
    huge = crosstable_layout(round_robin(MAX_ROWS, double=True))
    assert huge.size < TEXT_SIZE and max(huge.width, huge.height) <= MAX_SIDE


# --- cells ---------------------------------------------------------------------------------

@pytest.mark.parametrize("theme_name", THEMES)
def test_the_diagonal_is_filled_with_the_holes_colour(theme_name):
    table = round_robin(6, withdrawn=3)
    image, lay = picture(table, theme_name), crosstable_layout(table)
    for i in range(6):
        box = lay.cell_box(i, i)
        for x, y in (_middle(box), (box[0] + 3, box[1] + 3), (box[2] - 4, box[3] - 4)):
            assert close(image.getpixel((x, y)), colours(theme_name).hole), (i, x, y)
    assert not close(image.getpixel(_middle(lay.cell_box(0, 1))), colours(theme_name).hole)


@pytest.mark.parametrize("theme_name", THEMES)
def test_a_result_is_drawn_and_an_empty_cell_left_bare(theme_name):
    table = round_robin(6)
    image, lay = picture(table, theme_name), crosstable_layout(table)
    plate = colours(theme_name).plate
    inner = 4

    def ink(row: int, column: int) -> int:
        left, top, right, bottom = lay.cell_box(row, column)
        return _inked(_ink(image, (left + inner, top + inner, right - inner, bottom - inner),
                           plate))

    assert table.rows[0].cells[2] == WIN and table.rows[4].cells[5] == ""
    assert ink(0, 2) > 20 and ink(4, 5) == 0
    # a draw's "½" and a loss's "0" are drawn and differ from the win's "1"
    assert table.rows[0].cells[1] == DRAW and table.rows[2].cells[0] == LOSS
    win, draw, loss = ink(0, 2), ink(0, 1), ink(2, 0)
    assert draw > 20 and loss > 20 and len({win, draw, loss}) == 3


def test_a_double_tournaments_two_results_are_stacked_in_the_cell():
    table = round_robin(6, double=True)
    image, lay = picture(table), crosstable_layout(table)
    assert lay.lines == 2
    left, top, right, bottom = lay.cell_box(0, 2)
    middle = (top + bottom) // 2
    plate = colours(ThemeName.LIGHT).plate
    upper = _ink(image, (left + 3, top + 3, right - 3, middle - 2), plate)
    lower = _ink(image, (left + 3, middle + 2, right - 3, bottom - 3), plate)
    assert _inked(upper) > 20 and _inked(lower) > 20
    glyphs = [mask.crop(mask.getbbox()) for mask in (upper, lower)]   # "1" above "1"
    assert glyphs[0].size == glyphs[1].size
    assert ImageChops.difference(*glyphs).getbbox() is None


@pytest.mark.parametrize("theme_name", THEMES)
def test_a_withdrawn_row_is_greyed_and_its_name_struck_through(theme_name):
    table = round_robin(6, withdrawn=3, names=["alice"] * 6)
    image, lay = picture(table, theme_name), crosstable_layout(table)
    palette = colours(theme_name)
    greyed = faded(palette.hole, palette.plate, 0.25)
    empty = lay.cell_box(3, 0)[0] - 6, lay.cell_box(3, 0)[3] - 4   # the name's cell, low
    assert close(image.getpixel(empty), greyed)
    assert close(image.getpixel((empty[0], lay.cell_box(2, 0)[3] - 4)), palette.plate)

    def longest_run(row: int, ground: tuple[int, int, int]) -> int:
        """The longest run of inked pixels along one line across the name's column."""
        left, top, right, bottom = _box(lay, 1, row + 1)
        mask = _ink(image, (left + lay.pad, top + 2, right - 2, bottom - 2), ground, 40)
        longest = 0
        for y in range(mask.height):
            run = 0
            for x in range(mask.width):
                run = run + 1 if mask.getpixel((x, y)) else 0
                longest = max(longest, run)
        return longest

    name_width = text_length("alice", lay.size)
    assert longest_run(3, greyed) >= name_width          # struck through
    assert longest_run(2, palette.plate) < name_width / 2   # the same name, not struck


# --- names ---------------------------------------------------------------------------------

def test_names_are_drawn_as_text_never_read():
    names = ["{rank}", "**bold**", "<@123>", "@everyone", "%s%d", "\u202eevil"]
    lay = crosstable_layout(round_robin(6, names=names))
    assert lay.names[:5] == tuple(names[:5])


@pytest.mark.parametrize("name", [LONG, CJK * 6, "🇯🇵🇫🇷👨‍👩‍👧👍🏽" * 6, "Ж" * 200])
def test_a_long_name_is_cut_with_an_ellipsis_to_a_bounded_width(name):
    table = round_robin(4, names=[name, "bob", "carol", "dave"])
    lay = crosstable_layout(table)
    drawn = lay.names[0]
    assert drawn.endswith(ELLIPSIS)
    assert clusters(drawn[:-1]) == clusters(name)[:len(clusters(drawn[:-1]))]
    assert text_length(drawn, lay.size) <= NAME_EMS * lay.size
    image = picture(table)
    _left, top, right, bottom = _box(lay, 1, 1)
    plate = colours(ThemeName.LIGHT).plate
    assert _inked(_ink(image, (right - lay.pad + 2, top + 3, right - 2, bottom - 3),
                       plate)) == 0   # the name stays in its column


def _name_mask(image: Image.Image, lay: CrosstableLayout, row: int,
               ground: tuple[int, int, int]) -> tuple[Image.Image, tuple[int, int, int, int]]:
    left, top, right, bottom = _box(lay, 1, row + 1)
    box = (left + 2, top + 2, right - 2, bottom - 2)
    return _ink(image, box, ground, 80), box


def _set_at(text: str, lay: CrosstableLayout, row: int, box: tuple[int, int, int, int],
            tofu: bool) -> Image.Image:
    """The name set as the renderer sets it, or (`tofu`) its characters beyond ASCII as the
    missing glyph of the faces chosen, in the same place."""
    canvas = Image.new("L", (lay.width, lay.height))
    left = lay.xs[1] + lay.pad
    middle = (lay.ys[row + 1] + lay.ys[row + 2]) // 2
    if tofu:
        draw = ImageDraw.Draw(canvas)
        ascent, descent = font(lay.size).getmetrics()
        start: float = left
        for face, piece in pieces(text):
            boxes = "".join(NOTDEF if any(ord(c) > 0x7E for c in cluster) else cluster
                            for cluster in clusters(piece))
            draw.text((start, middle + (ascent - descent) / 2), boxes, fill=255,
                      font=face.font(lay.size), anchor="ls")
            start += text_length(piece, lay.size)
    else:
        inked = set_text(text, lay.size)
        canvas.paste(inked.mask, (left + inked.offset[0], middle + inked.offset[1]))
    return canvas.crop(box).point(lambda v: 255 if v > 100 else 0)


def _share_apart(a: Image.Image, b: Image.Image) -> float:
    either = ImageChops.lighter(a, b).histogram()[255]
    return ImageChops.difference(a, b).histogram()[255] / max(1, either)


@pytest.mark.parametrize("name", ["Αλέξανδρος", "Ёжик Їжак", "Ðặng Thị Ngọc",
                                  pytest.param(CJK, marks=needs_cjk),
                                  pytest.param("김민준", marks=needs_cjk)])
def test_names_in_any_script_are_glyphs_not_missing_glyph_boxes(name):
    table = round_robin(4, names=["bob", name, "carol", "dave"])
    image, lay = picture(table), crosstable_layout(table)
    ink, box = _name_mask(image, lay, 1, colours(ThemeName.LIGHT).plate)
    drawn = lay.names[1]   # the name, or its start with "…"
    assert drawn.removesuffix(ELLIPSIS) == name[:len(drawn.removesuffix(ELLIPSIS))]
    assert _share_apart(ink, _set_at(drawn, lay, 1, box, tofu=False)) < 0.08
    assert _share_apart(ink, _set_at(drawn, lay, 1, box, tofu=True)) > 0.15


@needs_emoji
def test_emoji_in_a_name_are_drawn_in_colour():
    table = round_robin(4, names=["bob", "dice 🎲 lover", "carol", "dave"])
    image, lay = picture(table), crosstable_layout(table)
    left, top, right, bottom = _box(lay, 1, 2)
    pixels = image.crop((left, top, right, bottom)).getcolors(1 << 16) or []
    assert sum(count for count, rgb in pixels if max(rgb) - min(rgb) > 80) > 10


# --- the title, the footer, the headings ----------------------------------------------------

def test_a_long_title_takes_two_lines_and_is_cut_and_the_legend_says_what_forfeits_are():
    title = "The Autumn Cup of the TwixT Friends 🎲 — round robin, 24×24 pp, 10d+36h " * 3
    lay = crosstable_layout(round_robin(6, withdrawn=2, title=title))
    assert len(lay.title) == 2 and lay.title[1].endswith(ELLIPSIS)
    assert title.startswith(lay.title[0])
    footer = "Round 3 of 5 · updated 2026-11-24 10:00 UTC"
    assert lay.footer[-1] == "+ / − won / lost by forfeit"
    assert " ".join(lay.footer[:-1]) == footer   # on one line, or two in a narrow table
    assert " ".join(crosstable_layout(round_robin(6)).footer) == footer


def test_german_headings_change_the_heading_row_alone():
    english = round_robin(6, withdrawn=2, names=[LONG] * 6)   # names wider than "Spieler"
    german = round_robin(6, withdrawn=2, names=[LONG] * 6, locale="de")
    en, de = picture(english), picture(german)
    lay_en, lay_de = crosstable_layout(english), crosstable_layout(german)
    assert crosstable_layout(german).footer[-1] == "+ / − kampflos gewonnen / verloren"
    heading = _box(lay_de, 1, 0)   # "Spieler" for "Player"
    assert ImageChops.difference(en.crop(heading), de.crop(heading)).getbbox() is not None
    points_en, points_de = _box(lay_en, -2, 0), _box(lay_de, -2, 0)   # "Pkt."
    assert (points_en[2] - points_en[0]) != (points_de[2] - points_de[0]) or \
        ImageChops.difference(en.crop(points_en), de.crop(points_de)).getbbox() is not None
    rows = (lay_en.xs[0], lay_en.ys[1] + 2, lay_en.xs[2], lay_en.ys[-1])   # ranks and names
    assert lay_en.xs[:3] == lay_de.xs[:3]
    assert ImageChops.difference(en.crop(rows), de.crop(rows)).getbbox() is None


def test_scores_are_written_with_fractions():
    assert [score_text(v) for v in (0, 0.5, 4, 4.5, 12.25, 12.75, 10 / 3)] == \
        ["0", "½", "4", "4½", "12¼", "12¾", "3.33"]
    assert [score_text(10 / 3, locale) for locale in ("de", "fr", "es", "nl")] == ["3,33"] * 4


# --- the rounds layout ----------------------------------------------------------------------

def test_the_rounds_layout_has_a_column_per_round_with_opponent_and_result():
    table = swiss(16, 5)
    image, lay = picture(table), crosstable_layout(table)
    assert len(lay.xs) - 1 == 2 + 5 + 2
    palette = colours(ThemeName.LIGHT)
    left, top, right, bottom = lay.cell_box(0, 1)   # "2 ½": the opponent muted, ½ in ink
    assert table.rows[0].cells[1] == "2 ½"
    middle = (left + right) // 2 - 1
    opponent = _ink(image, (left + 2, top + 3, middle, bottom - 3), palette.plate)
    result = _ink(image, (middle + 2, top + 3, right - 2, bottom - 3), palette.plate)
    assert _inked(opponent) > 10 and _inked(result) > 10
    darkest = min(sum(image.getpixel((x, y))) for x in range(left + 2, middle)
                  for y in range(top + 3, bottom - 3))
    assert darkest >= sum(palette.muted) - 30   # the opponent's number is muted


# --- read at 400 px ---------------------------------------------------------------------------

def _glyph_height(shown: Image.Image, factor: float, box: tuple[int, int, int, int],
                  ink: tuple[int, int, int], ground: tuple[int, int, int]) -> int:
    """The height in shown pixels of the ink in a full-size box: the rows holding a pixel
    whose contrast with the ground is at least half the ink's (on the ratio's log scale)."""
    half = math.sqrt(contrast(ink, ground))
    left, top, right, bottom = (round(edge * factor) for edge in box)
    rows = [y for y in range(top + 1, bottom - 1)
            if any(contrast(shown.getpixel((x, y)), ground) >= half
                   for x in range(left + 1, right - 1))]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.mark.parametrize("theme_name", THEMES)
def test_a_12_entrant_table_reads_at_400_px(theme_name):
    """Shown 400 px wide (scaled with LANCZOS, as in test_render_readability), the results,
    the headings' numbers, ranks, points and names are at least 8 px tall."""
    names = [LONG, CJK, *NAMES[2:]]
    table = round_robin(12, names=names, withdrawn=11)
    image, lay = picture(table, theme_name), crosstable_layout(table)
    factor = SHOWN / image.width
    shown = image.resize((SHOWN, round(image.height * factor)), Image.Resampling.LANCZOS)
    palette = colours(theme_name)
    heights = {}
    for column in (0, 2, 5, 9, 11):
        heights[f"heading {column + 1}"] = _glyph_height(
            shown, factor, lay.cell_box(-1, column), palette.label, palette.caption)
    for row, column in ((0, 2), (0, 1), (2, 0), (5, 8)):
        heights[f"cell {row},{column} {table.rows[row].cells[column]}"] = _glyph_height(
            shown, factor, lay.cell_box(row, column), palette.text, palette.plate)
    for row in (0, 1, 9):
        for index, what in ((0, "rank"), (1, "name"), (-2, "points")):
            ink = palette.label if what == "rank" else palette.text
            heights[f"{what} {row}"] = _glyph_height(
                shown, factor, _box(lay, index, row + 1), ink, palette.plate)
    assert min(heights.values()) >= MIN_TABLE_TEXT, heights


def test_the_first_column_gives_each_row_its_place_and_a_shared_place_as_a_span():
    ranks = (1, 2, 2, 4, 5, 5, 5)
    rows = tuple(CrosstableRow(f"p{i}", rank, 0.0, 0.0, ("",) * len(ranks))
                 for i, rank in enumerate(ranks))
    # the headings are 1…7; rows 2 and 3 share second place, rows 5 to 7 fifth
    assert row_labels(rows) == ["1", "2–3", "2–3", "4", "5–7", "5–7", "5–7"]
