"""Records: transcripts, Little Golem .tsgf and T1 files, read from real game records, kept in
tests/rules/data, and written back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refusals import refusal
from tests.rules.helpers import play_all, two_player
from twixt.rules import Colour, Game, Hole, Reason, RecordError, TwixtError
from twixt.rules.records import decode, encode, guess_format, load, read, write

GAMES = Path(__file__).parent / "data"  # real game records, kept in tests/rules/data


@pytest.mark.parametrize(("name", "result", "reason", "turns"), [
    ("game2206555.tsgf", "red", "resignation", 17),
    ("game2220939.tsgf", "red", "resignation", 21),
    ("game2209801.tsgf", None, None, 40),
    ("game2232217.tsgf", None, None, 38),
    ("drawngame.T1", "draw", "blockade", 58),
    ("sample.T1", "black", "resignation", 4),
])
def test_real_records_replay(name, result, reason, turns):
    game = load(GAMES / name)
    outcome = game.outcome
    assert (outcome.result if outcome else None) == result
    assert (outcome.reason.value if outcome else None) == reason
    assert game.pegs_placed == turns


def test_little_golem_games_are_pp_with_the_first_player_as_red():
    game = load(GAMES / "game2206555.tsgf")
    assert game.options.rules.value == "pp"
    assert game.players == ("Hekate", "Goro56")
    first = game.history[0]
    assert (first.player, str(first.placed)) == ("Hekate", "D4")


def test_little_golem_draw_suffix_is_an_offer_that_lapses():
    game = load(GAMES / "game2232217.tsgf")
    offers = [turn for turn in game.history if "offer draw" in turn.text]
    assert len(offers) == 1 and str(offers[0].placed) == "Q9"
    assert game.draw_offered_by is None


def test_little_golem_swap_mirrors_every_later_move():
    game = read("(;FF[4]PB[ann]PW[ben]SZ[24];b[dc];r[swap];b[ef];r[hk])", "lg")
    assert [turn.text for turn in game.history] == ["D3", "swap", "F5", "K8"]
    assert game.players_of(Colour.RED) == ("ben",)
    assert game.peg_at(Hole.parse("F5")).colour is Colour.BLACK


def test_t1_swap_mirrors_later_moves_and_links_are_implied():
    game = load(GAMES / "sample.T1")
    assert [turn.text for turn in game.history] == ["E15", "swap", "Q6", "R8", "L16", "resign"]
    assert game.players_of(Colour.RED) == ("Jerry",)
    implied = load(GAMES / "drawngame.T1")
    assert implied.options.rules.value == "classic"
    assert len(implied.links()) > 20


def test_little_golem_export_reads_back_as_the_same_game():
    game = load(GAMES / "game2232217.tsgf")
    again = read(write(game, "lg"), "lg")
    assert again.snapshot() == game.snapshot()


def test_t1_export_reads_back_as_the_same_game():
    game = load(GAMES / "drawngame.T1")
    again = read(write(game, "t1"), "t1")
    assert again.snapshot() == game.snapshot()


@pytest.mark.parametrize(("ending", "reason", "winner"), [
    ([("ann", "offer draw"), ("ben", "accept draw")], Reason.AGREEMENT, None),
    ([("ann", "timeout")], Reason.TIME, Colour.BLACK),
])
def test_a_t1_game_that_ended_without_a_move_line_reads_back_as_ended(ending, reason, winner):
    # T1 has no line for a draw or a loss on time: the header's "game already over?" says it
    game = play_all(Game(("ann", "ben"), size=12),
                    ["G6 link all", "E7 link all", "H8 link all", "F4 link all"])
    for name, command in ending:
        game.play(command, by=name)
    text = write(game, "t1")
    assert "Y # game already over?" in text
    again = read(text, "t1")
    assert (again.outcome.reason, again.outcome.winner) == (reason, winner)
    assert again.snapshot() == game.snapshot()


def test_a_t1_file_that_says_over_without_saying_how_invents_no_result():
    # T1j writes only the `Y`: who won, or whether it was a draw, is not in the file
    header = "\n".join(["#"] * 12 + ["Y # game already over?"])
    game = read(header + "\nG6\nE7\n", "t1")
    assert game.outcome is None and game.pegs_placed == 2
    drawn = read(header + " draw\nG6\nE7\n", "t1")
    assert drawn.outcome.reason is Reason.AGREEMENT and drawn.outcome.winner is None


def test_an_unfinished_game_says_so_in_t1():
    game = play_all(Game(("ann", "ben"), size=12), ["G6"])
    assert "N # game already over?\nG6\n" in write(game, "t1")
    assert not read(write(game, "t1"), "t1").is_over


def test_a_t1_header_with_a_size_that_is_no_number_names_line_1():
    header = ["#"] * 5 + ["x # y-size of board"] + ["#"] * 7
    assert refusal(RecordError, read, "\n".join(header) + "\nG6\n", "t1") == (
        "line 1: cannot set up the game from the header: the y-size of the board is a number, "
        "not “x”")


def test_swap_round_trips_through_little_golem_and_t1():
    game = play_all(Game(("ann", "ben"), rules="pp"), ["D3", "swap", "F5", "K8"])
    for fmt in ("lg", "t1"):
        text = write(game, fmt)
        assert "swap" in text
        back = read(text, fmt)
        assert [p.hole for p in back.pegs()] == [p.hole for p in game.pegs()]


def test_formats_that_cannot_hold_a_game_say_why():
    four = Game(("a", "b", "c", "d"), rules="pp")
    with pytest.raises(RecordError, match="two-player games only"):
        write(four, "lg")
    with pytest.raises(RecordError, match="TwixT PP games only"):
        write(Game(("a", "b")), "lg")
    removal = play_all(two_player(), ["G6", "A2", "remove G6; K10"])
    with pytest.raises(RecordError, match="cannot hold removed pegs or links"):
        write(removal, "t1")
    with pytest.raises(RecordError, match="square boards"):
        write(Game(("a", "b"), size="24x18", rules="pp"), "lg")


def test_transcript_keeps_handicap_and_extra_tags():
    text = ('[Board "24x18"]\n[Rules "classic"]\n[Swap "no"]\n[Players "ann, ben"]\n'
            '[Handicap "6"]\n[TimeControl "3d"]\nann: G6\n')
    game = read(text)
    assert (game.options.rows, game.options.handicap) == (18, 6)
    assert write(game) == text


def test_transcript_defaults_and_comments():
    game = read("# a friendly game\nRed: G6  # centre-ish\nBlack: swap\n")
    assert game.options.size_text == "24x24"
    assert game.swapped


@pytest.mark.parametrize(("text", "message"), [
    ('[Players "ann, ben"]\nann: G6\nann: H7\n', "line 3: it is ben's turn"),
    ('[Players "ann, ben"]\nann: G6\ncarl: H7\n', "line 3: carl is not playing in this game"),
    ('[Players "ann, ben"]\nann G6\n', "line 2: a move line is written name: command"),
    ('[Board "4x4"]\n', "line 1: a board is 5 to 48 holes each way, not 4x4"),
    ('[Players "ann, ben"]\nann: resign\nben: G6\n', "line 3: the game is over"),
    ('[Players "ann, ben"]\nann: G6\n[Swap "no"]\n', "line 3: tags come before the first move"),
])
def test_bad_transcripts_name_the_first_bad_line(text, message):
    assert refusal(RecordError, read, text) == message


def test_bad_little_golem_move_names_its_line():
    with pytest.raises(RecordError, match=r"line 2: move 2: “z9” is not a Little Golem move"):
        read("(;FF[4]SZ[24];b[dd]\n;r[z9])", "lg")


def test_format_is_guessed_from_the_file_ending():
    assert [guess_format(n) for n in ("a.tsgf", "b.T1", "c.twixt", "d.txt")] == [
        "lg", "t1", "transcript", "transcript"]


def test_replayed_records_end_as_their_outcome_says():
    game = load(GAMES / "drawngame.T1")
    assert game.outcome.reason is Reason.BLOCKADE


def test_little_golem_draw_word_agrees_to_an_open_offer():
    game = read("(;FF[4]PB[ann]PW[ben]SZ[24];b[dc|draw];r[draw])", "lg")
    assert game.outcome.reason is Reason.AGREEMENT


@pytest.mark.parametrize("text, message", [
    ('[Handicap "²"]\nRed: G6', "line 1: Handicap is a number of rows, not “²”"),
    ('[Board "²"]\nRed: G6', "line 1: “²” is not a board size: write 24 or 24x18"),
    ("Red: G" + "9" * 4400,
     "line 1: “g" + "9" * 38 + "…” is not a hole: write a column letter and a row, like G6"),
])
def test_a_record_with_an_impossible_number_names_its_line(text, message):
    assert refusal(RecordError, read, text) == message


def test_any_name_a_game_allows_round_trips_through_a_transcript():
    game = Game(('al "the" \\ bot]', "[bo] «ü» 😀"), size=12)
    play_all(game, ["G6", "swap", "H9"])
    game.tags["TimeControl"] = "3d"
    again = read(write(game))
    assert again.snapshot() == game.snapshot() and again.tags == game.tags


def test_a_byte_order_mark_is_not_part_of_the_first_line():
    assert read('\ufeff[Players "ann, ben"]\nann: G6\n').players == ("ann", "ben")


def test_little_golem_writes_wide_boards_as_its_bytes_and_reads_them_back():
    game = Game(("ann", "ben"), size=48, rules="pp")
    play_all(game, ["AA28", "AV40", "B10"])  # columns 27 and 48, rows 28 and 40
    data = encode(write(game, "lg"), "lg")
    assert b"b[{\x7c];r[\x90\x88];b[bj]" in data  # `{|`, then the bytes past 0x7f
    assert read(decode(data, "lg"), "lg").snapshot() == game.snapshot()


def test_a_bar_inside_a_little_golem_coordinate_is_no_draw_offer():
    record = "(;FF[4]PB[ann]PW[ben]SZ[30];b[{|];r[c|])".encode("latin-1")
    game = read(decode(record, "lg"), "lg")
    assert [turn.placed for turn in game.history] == [Hole(26, 27), Hole(2, 27)]
    assert game.draw_offered_by is None
    offered = read(decode(b"(;FF[4]SZ[30];b[{|];r[c||draw])", "lg"), "lg")
    assert offered.history[1].placed == Hole(2, 27)
    assert offered.draw_offered_by is Colour.BLACK


def test_little_golem_names_keep_brackets_semicolons_and_any_letters():
    game = Game(("a]b;c", "Jürgen \\ 😀"), size=12, rules="pp")
    play_all(game, ["C3"])
    data = encode(write(game, "lg"), "lg")
    assert b"PB[a\\]b;c]" in data and "Jürgen".encode() in data
    assert read(decode(data, "lg"), "lg").players == game.players


def test_a_draw_offered_after_a_swap_reads_back_from_little_golem_as_agreed():
    # the offer cannot ride on the swap (`r[swap|draw]` is no move): it is a node of its own
    game = play_all(Game(("ann", "ben"), size=12, rules="pp"), ["G6", "swap"])
    game.play("offer draw", by="ben")
    game.play("accept draw", by="ann")
    text = write(game, "lg")
    assert text.endswith(";r[swap];r[draw];b[draw])\n")
    again = read(text, "lg")
    assert (again.outcome.reason, again.outcome.winner) == (Reason.AGREEMENT, None)
    assert again.snapshot() == game.snapshot()


@pytest.mark.parametrize("handicap", ["25", "40"])
def test_a_handicap_that_puts_the_board_before_it_out_of_range_is_refused_naming_the_tag(
        handicap):
    text = f'[Board "24x24"]\n[Handicap "{handicap}"]\n[Swap "no"]\n[Players "a, b"]\na: G6\n'
    rows = 24 + int(handicap)
    assert refusal(RecordError, read, text) == (
        f"line 2: Handicap {handicap} makes the board before it {rows} rows, more than 48")


def test_a_game_whose_board_before_the_handicap_is_out_of_range_cannot_be_set_up():
    with pytest.raises(TwixtError, match="a board is 5 to 48 holes each way, not 24×64"):
        Game(("a", "b"), size=(24, 64), handicap=40)


def test_a_transcript_name_with_an_invisible_character_is_refused():
    assert refusal(RecordError, read, '[Players "ann\u202e, ben"]\nann: G6\n') == (
        "line 1: “ann\\u202e” cannot be a player name: it holds a control or invisible character")


@pytest.mark.parametrize("fmt", ["lg", "t1"])
def test_peg_record_names_lose_their_invisible_characters(fmt):
    game = Game(("ann", "ben"), size=12, rules="pp" if fmt == "lg" else "classic")
    text = write(game, fmt).replace("ann", "a\u200bn\u202en").replace("ben", "b\u2066en")
    assert read(text, fmt).players == ("ann", "ben")
