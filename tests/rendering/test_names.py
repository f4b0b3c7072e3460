"""A name too wide for its place in the caption is cut at a character boundary with "…";
the words around it keep their size."""

from __future__ import annotations

import pytest

from tests.rendering.render_helpers import double_game, play
from twixt.rendering import RenderOptions, caption_lines, plain_text, view_of
from twixt.rendering.caption import MIN_NAME_EMS, TEXT_SIZE, TextRun, caption_layout, fit_line
from twixt.rendering.fonts import clusters
from twixt.rendering.text import ELLIPSIS, cut_to_width, reads_as, text_length
from twixt.rules import Game, parse_command

SIZE = TEXT_SIZE  # the caption at the default width
LONG = ["Wolfeschlegelsteinhausenbergerdorff", "Αλέξανδρος Παπαδόπουλος-Καραγιάννης",
        "Ame\u0301lie-Ame\u0301lie Ame\u0301lie", "🇯🇵🇫🇷👨‍👩‍👧👍🏽1️⃣" * 4, "山田太郎" * 6,
        "Ж" * 32, "e\u0301" * 30]


def test_a_name_that_fits_is_left_whole():
    assert cut_to_width("José", 200, SIZE) == "José"
    assert cut_to_width("José", 200, SIZE, 0.8) == "José"


@pytest.mark.parametrize("name", LONG)
@pytest.mark.parametrize("width", [40, 90, 160])
def test_a_long_name_is_cut_at_a_character_boundary_with_an_ellipsis(name, width):
    cut = cut_to_width(name, width, SIZE)
    assert cut.endswith(ELLIPSIS)
    assert text_length(cut, SIZE) <= width                  # within its place
    kept, whole = clusters(cut.removesuffix(ELLIPSIS)), clusters(name)
    assert kept == whole[:len(kept)]                          # whole characters, from the start
    following = len(kept)
    while following < len(whole) and whole[following].isspace():
        following += 1
    longer = "".join(whole[:following + 1]).rstrip() + ELLIPSIS
    assert text_length(longer, SIZE) > width                  # and as many as fit


def test_a_bold_name_leaves_room_for_its_stroke():
    cut = cut_to_width(LONG[0], 120, SIZE, 2.0)
    assert text_length(cut, SIZE) + 4.0 <= 120 < text_length(cut, SIZE) + 4.0 + SIZE


def test_where_not_one_character_fits_only_the_ellipsis_is_left():
    assert cut_to_width("Wolfe", 5, SIZE) == ELLIPSIS


def _set_lines(game: Game, width: int = 1000):
    options = RenderOptions(width=width)
    return options, caption_layout(width, caption_lines(view_of(game)), options)


def _right_edge(line, options) -> float:
    stroke = 0.8 * options.scale
    last_run, last_start = line.runs[-1], line.starts[-1]
    assert isinstance(last_run, TextRun)
    return last_start + text_length(last_run.text, line.size) + (2 * stroke if last_run.bold
                                                                 else 0)


@pytest.mark.parametrize("names", [(LONG[0], "bob"), (LONG[5], LONG[1]), (LONG[4], LONG[3])])
def test_long_names_are_cut_so_that_every_line_fits_at_full_size(names):
    game = play(Game(names, size=24, swap=False), "C3", "F5")
    options, lines = _set_lines(game)
    margin = round(round(SIZE * 1.55) * 0.6)
    for line in lines:
        assert line.size == SIZE
        assert _right_edge(line, options) <= 1000 - margin + 1
    shown = [run.text for line in lines for run in line.runs
             if isinstance(run, TextRun) and run.name]
    for name in names:
        assert any(text == name or (text.endswith(ELLIPSIS) and len(text) < len(name))
                   for text in shown)
    if "bob" in names:
        assert shown.count("bob") == 2                       # a short name is never cut


def test_the_alt_text_keeps_whole_names():
    game = Game((LONG[0], "bob"), size=24)
    assert LONG[0] in "".join(plain_text(line) for line in caption_lines(view_of(game)))


def test_double_twixt_team_lines_cut_their_names():
    game = double_game()
    lines = caption_lines(view_of(game))
    long_names = tuple(line for line in lines[2:4])
    options = RenderOptions()
    renamed = [tuple(TextRun(LONG[0], name=True) if isinstance(run, TextRun) and run.name else run
                     for run in line) for line in long_names]
    for line in caption_layout(1000, renamed, options):
        assert line.size == SIZE and _right_edge(line, options) <= 1000


def test_a_name_keeps_at_least_its_share_and_then_the_line_shrinks():
    line = (TextRun("A very long lead-in that takes up the whole of the room: "),
            TextRun(LONG[0], name=True))
    runs, size = fit_line(line, 300, SIZE, 0.0)
    name = runs[1]
    assert isinstance(name, TextRun) and name.text.endswith(ELLIPSIS)
    assert MIN_NAME_EMS * SIZE - SIZE <= text_length(name.text, SIZE) <= MIN_NAME_EMS * SIZE
    assert size < SIZE


@pytest.mark.parametrize("names", [
    ("alice", "bot (level 1)", "bot 2 (level 1)", "bot 3 (level 1)"),
    ("alice", "bot (level 1) 2", "bot (level 1) 3", "bot (level 1) 4"),  # older records
    ("Wolfeschlegelsteinhausen 1", "Wolfeschlegelsteinhausen 2",
     "Wolfeschlegelsteinhausen 3", "Wolfeschlegelsteinhausen 4")])
def test_every_seat_of_double_twixt_is_told_apart_at_400_px(names):
    game = play(Game(names, size=24), "C3", "F5", "D5 link C3", "E7")
    options = RenderOptions(width=400)
    lines = caption_layout(400, caption_lines(view_of(game)), options)
    for line in lines[2:4]:  # the team lines: each seat's name once
        shown = [run.text for run in line.runs if isinstance(run, TextRun) and run.name]
        assert len(set(shown)) == len(shown) == 2, shown
    teams = {run.text for line in lines[2:4] for run in line.runs
             if isinstance(run, TextRun) and run.name}
    assert len(teams) == 4, teams


BOT_SEATS = [("alice", "bot (level 1)", "bot 2 (level 1)", "bot 3 (level 1)"),
             ("alice", "bot (level 1) 2", "bot (level 1) 3", "bot (level 1) 4"),
             ("bot (level 1)", "bot (level 12)", "bot (level 1) 2", "bot 2 (level 1)")]


@pytest.mark.parametrize("names", BOT_SEATS)
@pytest.mark.parametrize("width", [400, 1000])
def test_no_seat_reads_as_another_in_the_legend_or_the_result_line(names, width):
    """A finished Double TwixT game with bot seats: each name shown, in the team lines and in
    the result line, reads as its own seat's name and as no other's; and the finished board
    offers no privilege."""
    game = play(Game(names, size=24), "C3", "F5", "D5 link C3", "E7")
    game.push(parse_command("resign"), by=game.player_to_move)
    lines = caption_layout(width, caption_lines(view_of(game)), RenderOptions(width=width))
    result, legend = lines[0], lines[2:4]
    shown = [run.text for line in (result, *legend) for run in line.runs
             if isinstance(run, TextRun) and run.name]
    assert len(shown) == 6  # two winners, four seats
    for text in shown:
        assert [name for name in names if reads_as(text, name)] != [], text
        assert len([name for name in names if reads_as(text, name)]) == 1, (text, shown)
    said = " ".join(plain_text(line.runs) for line in lines)
    assert "privilege" not in said


def test_a_cut_reads_as_the_names_it_could_be_cut_from():
    assert reads_as("bot (leve…", "bot (level 1)") and reads_as("bot (leve…", "bot (level 12)")
    assert not reads_as("bot 3 (le…", "bot (level 1)")
    assert reads_as("bot (…1) 2", "bot (level 1) 2")
    assert not reads_as("bot (…1) 2", "bot (level 1) 3")
    assert reads_as("bob", "bob") and not reads_as("bob", "bobby")
