"""The rules' refusals are said in the reader's language: German for a German reader, with the
values (holes, names, colours, quoted text) put in after translating, and English unchanged."""

from __future__ import annotations

import pytest

from tests.rules.helpers import play_all, two_player
from twixt.language import Message, translation, unmarked
from twixt.rules import Game, IllegalMoveError, InvalidMoveError, RecordError, TwixtError
from twixt.rules.records import read, write


def german(text: Message) -> str:
    """`text` in German, as the terminal prints it (without the marks around its values)."""
    return unmarked(translation("de").say(text))


def english(text: Message) -> str:
    """`text` in English, as the terminal prints it."""
    return unmarked(translation("en").say(text))


def _refusal(game: Game, command: str, by: str | None = None) -> TwixtError:
    with pytest.raises(TwixtError) as refused:
        game.play(command, by=by)
    return refused.value


@pytest.fixture
def game() -> Game:
    # alice Red, bob Black; Red G6-E7 linked, Black F5 H5 unlinked; Red to move
    return play_all(two_player(), ["G6", "F5", "E7 link G6", "H5"])


def test_a_taken_hole_is_refused_in_german_and_in_english(game):
    error = _refusal(game, "F5")
    assert isinstance(error, IllegalMoveError)
    assert german(error.message) == "F5 ist schon besetzt"
    assert english(error.message) == str(error) == "F5 is already taken"


def test_a_colour_in_a_refusal_is_said_in_german_too(game):
    assert german(_refusal(game, "A6").message) == "A6 liegt in der Grenzreihe von Schwarz"
    crossing = play_all(two_player(), ["K10", "F5", "G4", "H6 link F5"])
    assert german(_refusal(crossing, "F6 link G4").message) == \
        "die Brücke F6-G4 würde die Brücke F5-H6 von Schwarz kreuzen"
    assert str(_refusal(crossing, "F6 link G4")) == \
        "the link F6-G4 would cross Black's link F5-H6"


def test_a_players_name_is_put_in_as_it_is(game):
    braces = play_all(Game(("ann", "{n}")), ["G6"])
    assert german(_refusal(braces, "H7", by="ann").message) == "{n} ist am Zug"
    assert german(_refusal(game, "G3", by="carl").message) == \
        "carl spielt in dieser Partie nicht mit"


def test_text_that_is_no_command_is_explained_in_german_with_the_move_words_in_english(game):
    error = _refusal(game, "jump over")
    assert isinstance(error, InvalidMoveError)
    assert german(error.message) == ("ich verstehe “jump over” nicht: ein Zug sieht so aus: "
                                         "G6, G6 link E5 oder remove J9-K11; I11 link K10")
    assert str(error) == ("I don't understand “jump over”: a move looks like G6, G6 link E5 "
                          "or remove J9-K11; I11 link K10")


def test_draw_refusals_name_what_cannot_be_done(game):
    assert german(_refusal(game, "accept draw").message) == \
        "es gibt kein Remisangebot zum Annehmen"
    assert german(_refusal(game, "decline draw").message) == \
        "es gibt kein Remisangebot zum Ablehnen"
    game.play("offer draw")
    assert german(_refusal(game, "decline draw", by="alice").message) == \
        "du kannst das Remisangebot deiner eigenen Seite nicht ablehnen"


def test_a_privilege_refusal_is_said_in_german():
    assert german(_refusal(two_player(), "G6; privilege").message) == \
        "das Vorrecht gibt es nur in Double TwixT"


def test_impossible_options_are_refused_in_german():
    with pytest.raises(TwixtError) as error:
        Game(("ann", "ben"), size="60")
    assert german(error.value.message) == \
        "ein Brett hat in jeder Richtung 5 bis 48 Löcher, nicht 60"
    assert str(error.value) == "a board is 5 to 48 holes each way, not 60"


def test_a_bad_record_line_is_said_in_german_with_its_line_number():
    with pytest.raises(RecordError) as error:
        read('[Players "ann, ben"]\nann: G6\nben: G6\n')
    assert german(error.value.message) == "Zeile 3: G6 ist schon besetzt"
    assert str(error.value) == "line 3: G6 is already taken"
    assert english(error.value.reason) == "G6 is already taken"


def test_a_record_error_inside_a_record_error_is_all_german():
    header = ["#"] * 5 + ["x # y-size of board"] + ["#"] * 7
    with pytest.raises(RecordError) as error:
        read("\n".join(header) + "\nG6\n", "t1")
    assert german(error.value.message) == ("Zeile 1: die Partie lässt sich nicht aus dem "
                                               "Kopf aufbauen: die y-Größe des Bretts ist eine "
                                               "Zahl, nicht “x”")


def test_a_format_that_cannot_hold_a_game_says_why_in_german():
    with pytest.raises(RecordError) as error:
        write(Game(("a", "b", "c", "d")), "t1")
    assert german(error.value.message) == \
        "Dateien im Format T1 enthalten nur Partien mit zwei Spielern"
    assert str(error.value) == "T1 files hold two-player games only"
