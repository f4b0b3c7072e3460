"""The caption says what a player asks first: what was played, whose turn, how it ended."""

from __future__ import annotations

import pytest

from tests.rendering.render_helpers import (
    blockade_game,
    decode,
    double_game,
    play,
    removal_game,
    won_game,
)
from twixt.language import LOCALES
from twixt.rendering import RenderOptions, caption_lines, plain_text, render_png, view_of
from twixt.rendering.caption import Swatch
from twixt.rendering.layout import layout
from twixt.rendering.static import static_layer
from twixt.rules import Colour, Game


def _texts(game: Game) -> list[str]:
    return [plain_text(line) for line in caption_lines(view_of(game))]


def test_caption_gives_move_number_last_move_and_whose_turn():
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    headline, status, roster = _texts(game)
    assert "Move 3" in headline and "alice (Red)" in headline and "D4 link C2" in headline
    assert "bob to move" in status and "Black" in status
    assert "alice (Red)" in roster and "bob (Black)" in roster


def test_caption_lists_what_the_last_move_removed():
    *_, note = _texts(removal_game())
    assert "peg D4" in note and "C2-D4" not in note   # the peg's own link goes with it


def test_caption_names_the_winner_of_a_connection():
    result, last, _roster = _texts(won_game())
    assert "Red wins by connection" in result and "alice" in result
    assert "Move 5" in last and "C5 link D3" in last


def test_caption_says_a_blockade_is_a_draw():
    game = blockade_game()
    result = _texts(game)[0]
    assert "Draw by blockade" in result and "neither side" in result


@pytest.mark.parametrize("ending, result", [
    ("resign", "Red wins (Black resigned): alice"),
    ("timeout", "Red wins on time (Black ran out): alice"),
    ("offer draw", "Draw by agreement"),
])
def test_a_final_board_leads_with_the_result_not_the_last_move(ending, result):
    """After a resignation (a loss on time, a draw) the caption's first line is how the game
    ended; the last turn follows it."""
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    if ending == "offer draw":
        game.play("offer draw", by="bob")
        game.play("accept draw", by="alice")
    else:
        game.play(ending, by="bob")
    first, second, roster = _texts(game)
    assert first.strip().startswith(result), first
    assert "Move 3" in second
    assert "alice (Red)" in roster and "bob (Black)" in roster


def test_double_twixt_caption_gives_teams_seat_to_move_and_privilege():
    game = double_game()
    headline, status, red, black, _note = _texts(game)
    assert "alice" in headline and "E7 link D5" in headline
    assert "bob to move" in status and "seat 2" in status
    assert "alice" in red and "carol" in red and "privilege used" in red
    assert "bob" in black and "dave" in black and "privilege available" in black


def test_double_twixt_swatches_mark_the_second_partner():
    lines = caption_lines(view_of(double_game()))
    red_swatches = [run for run in lines[2] if isinstance(run, Swatch)]
    assert red_swatches == [Swatch(Colour.RED, False), Swatch(Colour.RED, True)]


def test_caption_of_a_new_game_gives_size_and_rules():
    headline, status, _roster = _texts(Game(("alice", "bob"), size="24x18", handicap=0))
    assert "New game" in headline and "24×18" in headline
    assert "alice to move" in status


def test_caption_mentions_a_draw_offer():
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4; offer draw")
    assert "Black offers a draw" in _texts(game)[1]


def test_the_move_number_counts_moves_not_draw_offers():
    game = play(Game(("alice", "bob"), size=8, swap=True), "C2", "swap", "F4; offer draw")
    headline, *_ = _texts(game)
    assert "Move 3" in headline
    game.play("decline draw", by="bob")
    assert "Move 3" in _texts(game)[0]


def test_the_caption_speaks_german_with_names_still_runs_of_their_own():
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    lines = caption_lines(view_of(game), "de")
    headline, status, roster = (plain_text(line) for line in lines)
    assert headline.startswith("Zug 3") and "alice (Rot)" in headline
    assert "D4 link C2" in headline                      # the move language stays as typed
    assert "bob ist am Zug (Schwarz)" in status
    assert "bob (Schwarz)" in roster
    names = [run.text for line in lines for run in line if getattr(run, "name", False)]
    assert names == ["alice", "bob", "alice", "bob"]     # each can still be cut on its own


@pytest.mark.parametrize(("locale", "move", "red", "to_move"), [
    ("fr", "Coup 3", "alice (Rouge)", "Au tour de bob (Noir)"),
    ("es", "Jugada 3", "alice (Rojo)", "Turno de bob (Negro)"),
    ("nl", "Zet 3", "alice (Rood)", "bob is aan zet (Zwart)"),
])
def test_the_caption_speaks_french_spanish_and_dutch(locale, move, red, to_move):
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    headline, status, _ = (plain_text(line) for line in caption_lines(view_of(game), locale))
    assert headline.startswith(move) and red in headline and "D4 link C2" in headline
    assert to_move in status


def test_a_german_caption_of_each_ending_and_of_double_twixt():
    assert "Rot gewinnt durch Verbindung: alice" in plain_text(
        caption_lines(view_of(won_game()), "de")[0])
    assert "Remis durch Blockade" in plain_text(caption_lines(view_of(blockade_game()), "de")[0])
    _, status, red, black, _ = (plain_text(line)
                                for line in caption_lines(view_of(double_game()), "de"))
    assert "(Schwarz, Platz 2)" in status
    assert "Vorrecht genutzt" in red and "Vorrecht verfügbar" in black
    note = plain_text(caption_lines(view_of(removal_game()), "de")[-1])
    assert note.startswith("Entfernt von") and "Stecker D4" in note


def test_a_players_name_in_the_caption_is_never_read_as_a_template():
    game = play(Game(("{player}", "{0}"), size=8, swap=False), "C2")
    headline = plain_text(caption_lines(view_of(game), "de")[0])
    assert "{player} (Rot)" in headline


@pytest.mark.parametrize("language", LOCALES[1:])
def test_a_translated_picture_differs_from_the_english_in_its_caption_alone(language):
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4")
    english, translated = (decode(render_png(game, RenderOptions(width=400, locale=locale)))
                           .convert("RGB") for locale in ("en", language))
    assert english.size == translated.size
    board_height = layout(8, 8, RenderOptions(width=400)).board_height
    board = (0, 0, english.width, board_height)
    assert english.crop(board).tobytes() == translated.crop(board).tobytes()
    strip = (0, board_height, english.width, english.height)
    assert english.crop(strip).tobytes() != translated.crop(strip).tobytes()


def test_the_board_part_is_drawn_once_for_every_language():
    static_layer.cache_clear()
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2")
    for locale in LOCALES:
        render_png(game, RenderOptions(width=400, locale=locale))
    assert static_layer.cache_info().currsize == 1
