"""The router: what a typed line means, decided in one place for the terminal and chat."""

from __future__ import annotations

import pytest

from tests.refusals import refusal
from twixt.rules import Action, parse_command
from twixt.service import User
from twixt.service import commands as cmd
from twixt.service import errors as kinds
from twixt.service.commands.router import is_move_language, nobody, read_command


def _person(word: str) -> User:
    return User(len(word), word)


@pytest.mark.parametrize("text, expected", [
    ("G6 link E5", cmd.Move(parse_command("G6 link E5"))),
    ("move G6", cmd.Move(parse_command("G6"))),
    ("swap", cmd.Move(parse_command("swap"))),
    ("draw offer", cmd.Move(parse_command("offer draw"))),
    ("accept draw", cmd.Move(parse_command("accept draw"))),
    ("accept", cmd.AnswerChallenge("accept")),
    ("decline #3", cmd.AnswerChallenge("decline", 3)),
    ("takeback", cmd.Takeback("request")),
    ("Accept  Takeback", cmd.Takeback("accept")),
    ("takeback accept", cmd.Takeback("accept")),
    ("takeback decline", cmd.Takeback("decline")),
    ("claim", cmd.Claim()),
    ("board", cmd.ShowBoard()),
    ("export lg", cmd.Export("lg")),
    ("history bob page 2", cmd.History(User(3, "bob"), 2)),
    ("replay 7", cmd.Replay(7)),
    ("stats", cmd.Stats(None)),
    ("leaderboard page 3", cmd.Leaderboard(3)),
    ("rematch", cmd.Rematch(None)),
    ("settings theme dark", cmd.UserSettings({"theme": "dark"})),
    ("settings palette colorblind", cmd.UserSettings({"palette": "colorblind"})),
    ("settings colorblind dark side red", cmd.UserSettings(
        {"palette": "colorblind", "theme": "dark", "side": "red"})),
    ("server forfeit yes", cmd.ServerSettings({"forfeit": "yes"})),
    ("import game.twixt carol", cmd.ImportRecord("game.twixt", None, User(5, "carol"))),
])
def test_a_line_becomes_one_command(text, expected):
    assert read_command(text, _person) == expected


def test_a_move_travels_parsed():
    asked = read_command("G6 link E5; privilege", _person)
    assert isinstance(asked, cmd.Move) and asked.command.actions == (Action.PRIVILEGE,)


@pytest.mark.parametrize("typed", ["resign", " Resign ", "move resign", "MOVE RESIGN"])
def test_a_typed_resign_asks_to_confirm_first(typed):
    assert read_command(typed) == cmd.Resign(confirmed=False)


@pytest.mark.parametrize("typed", ["resign yes", "Resign  YES", "move resign yes"])
def test_resign_yes_is_the_typed_confirmation(typed):
    assert read_command(typed) == cmd.Resign(confirmed=True)


@pytest.mark.parametrize("text, message", [
    ("", "write a command, like G6 or help"),
    ("G6 lnk E5", "after G6 write link and the pegs to link, like G6 link E5"),
    ("draw maybe", "draw takes offer, accept or decline, not “maybe”"),
    ("swap; G6", "I don't understand “g6”: a move looks like G6, G6 link E5 or remove J9-K11; "
                 "I11 link K10"),
    ("replay seven", "“seven” is not a number"),
    ("settings theme", "settings takes name value pairs, like settings theme dark"),
    ("settings dm", "settings takes name value pairs, like settings theme dark"),
    ("server forfeit", "server takes name value pairs, like server forfeit yes"),
    ("team bob carol dave", "write team PARTNER vs OPPONENT1 OPPONENT2 [options]"),
])
def test_a_line_that_means_nothing_is_refused_in_one_line(text, message):
    assert refusal(kinds.MalformedError, read_command, text, nobody) == message


def test_a_person_the_front_end_cannot_tell_is_missing():
    assert refusal(kinds.MissingError, read_command, "challenge bob", nobody) == (
        "I cannot tell who “bob” is here")


def test_only_the_move_language_counts_as_chat_moves():
    assert is_move_language(read_command("K12")) and is_move_language(read_command("resign"))
    assert not is_move_language(read_command("board"))


@pytest.mark.parametrize("typed, canonical", [
    ("time 3 days", "3d"), ("time 1 day 12 hours", "1d12h"), ("time 90 min", "90m"),
    ("time 2 hrs", "2h"), ("time 3d", "3d")])
def test_a_time_is_read_as_people_write_it(typed, canonical):
    asked = read_command(f"challenge bob {typed} size 12", _person)
    assert isinstance(asked, cmd.Challenge)
    assert asked.options.setup.time_control == canonical
    assert asked.options.setup.size == "12x12"


def test_privilege_before_the_move_is_refused_with_the_right_order():
    assert refusal(kinds.MalformedError, read_command, "privilege; L12 link K10") == \
        "privilege comes after the move: write L12 link K10; privilege"
