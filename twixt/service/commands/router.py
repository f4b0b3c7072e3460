"""The one place that decides what a typed line means: `challenge bob size 12`, `G6 link E5`,
`takeback`, `history alice page 2` … become `ServiceCommand`s.

The terminal table and chat messages both come through here; slash commands build their
commands directly from Discord's options. People are named differently by each front end
(a name at the terminal, a mention in Discord), so the front end passes `people`, which turns
one word into a `User` or raises `ServiceError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from twixt.language import message
from twixt.rules import Action, Command, InvalidMoveError, parse_command, quote
from twixt.rules.conditionals import parse_conditionals
from twixt.rules.numbers import whole_number
from twixt.service import commands as cmd
from twixt.service.commands.options import (
    OPTION_NAMES,
    build_options,
    parse_option_words,
    setting_pairs,
)
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.tournament_options import parse_tournament_words
from twixt.service.desk.engine_seats import ENGINE_PLAYER_WORD, THE_ENGINE_PLAYER
from twixt.service.model import ServiceError, User

People = Callable[[str], User]

_RESIGN = Command(actions=(Action.RESIGN,))

#: words that answer a pending request rather than play a move
_TAKEBACK_WORDS: dict[str, cmd.TakebackAction] = {
    "takeback": "request", "accept takeback": "accept", "decline takeback": "decline",
    "takeback request": "request", "takeback accept": "accept", "takeback decline": "decline"}
_SIMPLE: dict[str, cmd.ServiceCommand] = {
    "board": cmd.ShowBoard(), "status": cmd.Status(), "abort": cmd.Abort(),
    "claim": cmd.Claim(), "confirm": cmd.ConfirmMove(), "next": cmd.NextGame()}
_DRAW_WORDS = ("offer", "accept", "decline")
_ANSWERS: dict[str, cmd.Answer] = {"accept": "accept", "decline": "decline"}
#: a resignation confirmed as it is typed, where there is no button to press (the terminal)
_RESIGN_CONFIRMED = ("resign yes", "move resign yes")
#: the refusal of conditional moves where every reply is public (a chat message)
PRIVATE = message("conditional moves are private: store them with /twixt if, where only you "
                  "see them (and delete your message)")
#: the words that start a line of conditional moves (`move if …` too, as `/twixt move` reads it)
_LEADS = (["if"], ["conditions"], ["move", "if"], ["move", "conditions"])


def nobody(word: str) -> User:
    """For front ends where a typed word cannot name a person."""
    raise ServiceError("I cannot tell who {word} is here", word=quote(word))


def read(text: str, people: People = nobody, *, public: bool = False) -> cmd.ServiceCommand:
    """What a line means; ServiceError says what is wrong with it. Each front end reads what
    was typed here, once, and hands the service the command.

    A typed `resign` (or `move resign`) asks to confirm, wherever it is typed: the answer
    is the Confirm button, or the line `resign yes`. Where the reply is `public` (a chat
    message), a line of conditional moves is refused before it is read: a refusal that named
    what is wrong with it would repeat the plan to the channel (`if clear` shows nothing, so
    it may be said anywhere).
    """
    words = text.split()
    if not words:
        raise ServiceError("write a command, like G6 or help")
    lowered = [word.lower() for word in words]
    if public and any(lowered[:len(lead)] == lead and lowered[len(lead):] != ["clear"]
                      for lead in _LEADS):
        raise ServiceError(PRIVATE)
    verb, rest = words[0].lower(), words[1:]
    phrase = " ".join(word.lower() for word in words)
    if phrase in _TAKEBACK_WORDS:
        return cmd.Takeback(_TAKEBACK_WORDS[phrase])
    if phrase in _SIMPLE:
        return _SIMPLE[phrase]
    if phrase in _RESIGN_CONFIRMED:
        return cmd.Resign(confirmed=True)
    if verb == "challenge":
        opponent = (with_engine(people)(rest.pop(0))
                    if rest and rest[0].lower() not in OPTION_NAMES else None)
        return cmd.Challenge(opponent, parse_option_words(rest))
    if verb == "team":
        return _team(rest, with_engine(people))
    if verb in _ANSWERS and (not rest or (len(rest) == 1 and _is_number(rest[0]))):
        return cmd.AnswerChallenge(_ANSWERS[verb], _number(rest[0]) if rest else None)
    if verb == "draw" and len(rest) == 1:
        if rest[0].lower() not in _DRAW_WORDS:
            raise (did_you_mean(rest[0], _DRAW_WORDS, before="draw ")
                   or ServiceError("draw takes offer, accept or decline, not {word}",
                                   word=quote(rest[0])))
        return cmd.Move(parse_command(f"{rest[0].lower()} draw"))
    if verb == "move":
        return _move(" ".join(rest))
    if verb == "takeback" and len(rest) == 1:
        raise (did_you_mean(rest[0], cmd.TAKEBACK_ACTIONS, before="takeback ")
               or ServiceError("takeback takes request, accept or decline, not {word}",
                               word=quote(rest[0])))
    reader = _READERS.get(verb)
    if reader is not None:
        return reader(rest, people)
    typo = did_you_mean(verb, COMMAND_WORDS) if verb not in _MOVE_LANGUAGE else None
    if typo is not None:
        raise typo  # a command's word mistyped: the move language's hint would not help
    return _move(text)


def with_engine(people: People) -> People:
    """`people`, except that the word `bot` (or `@bot`) names the bot, where a challenge
    names its players."""
    def person(word: str) -> User:
        return THE_ENGINE_PLAYER if word.lstrip("@").lower() == ENGINE_PLAYER_WORD else people(word)

    return person


def is_move_language(asked: cmd.ServiceCommand) -> bool:
    """Whether a command asked is one of the move language's own (a move, a draw word, resign,
    conditional moves): what a channel's chatter may contain without being addressed to the
    bot. (Conditional moves are only refused there: they are private.)"""
    return (isinstance(asked, cmd.Move | cmd.Resign)
            or (isinstance(asked, cmd.Conditional) and asked.action == "store"))


def conditional(text: str) -> cmd.Conditional:
    """What follows `if`: conditional moves to store (the leading `if` may be written or
    not), `clear`, or nothing, which shows the stored ones."""
    words = text.lower().split()
    if not words:
        return cmd.Conditional("show")
    if words == ["clear"]:
        return cmd.Conditional("clear")
    try:
        return cmd.Conditional("store", parse_conditionals(text))
    except InvalidMoveError as error:
        raise ServiceError(error.message) from None


def _move(text: str) -> cmd.Move | cmd.Resign:
    """A command of the move language; a resignation alone is asked to be confirmed."""
    try:
        command = parse_command(text)
    except InvalidMoveError as error:
        raise ServiceError(error.message) from None
    if command == _RESIGN:
        return cmd.Resign(confirmed=False)
    return cmd.Move(command)


def _team(words: list[str], people: People) -> cmd.Team:
    if len(words) < 4 or words[1].lower() != "vs":
        raise ServiceError("write team PARTNER vs OPPONENT1 OPPONENT2 [options]")
    partner, first, second = (people(w) for w in (words[0], words[2], words[3]))
    options = parse_option_words(words[4:]) if words[4:] else build_options()
    return cmd.Team(partner, (first, second), options)


def _is_number(word: str) -> bool:
    return whole_number(word.lstrip("#")) is not None


def _number(word: str) -> int:
    number = whole_number(word.lstrip("#"))
    if number is None:
        raise ServiceError("{word} is not a number", word=quote(word))
    return number


def _page(words: list[str]) -> int:
    """`page N` at the end of a command's words (taken off them), or page 1."""
    if len(words) >= 2 and words[-2].lower() == "page":
        page = _number(words[-1])
        del words[-2:]
        return page
    return 1


def _help(words: list[str], people: People) -> cmd.ServiceCommand:
    """`help`, or `help COMMAND` (the service knows the commands' help, and says which
    command a word that is none most likely meant)."""
    if len(words) > 1:
        raise ServiceError("write help, or help and one command, like help challenge")
    return cmd.Help(words[0].lower() if words else None)


def _export(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Export(words[0].lower() if words else None)


def _history(words: list[str], people: People) -> cmd.ServiceCommand:
    page = _page(words)
    return cmd.History(people(words[0]) if words else None, page)


def _replay(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Replay(_number(words[0]) if words else None)


def _analyze(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Analyze(_number(words[0]) if words else None)


def _import(words: list[str], people: People) -> cmd.ServiceCommand:
    if not words:
        raise ServiceError("import FILE [opponent] [options]")
    source = words.pop(0)
    opponent = (with_engine(people)(words.pop(0))
                if words and words[0] not in OPTION_NAMES else None)
    return cmd.ImportRecord(source, None, opponent, parse_option_words(words))


def _stats(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Stats(people(words[0]) if words else None)


def _leaderboard(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Leaderboard(_page(words))


def _rematch(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.Rematch(_number(words[0]) if words else None)


def _settings(words: list[str], people: People) -> cmd.ServiceCommand:
    return cmd.UserSettings(setting_pairs(words))


def _server(words: list[str], people: People) -> cmd.ServiceCommand:
    if len(words) % 2:
        raise ServiceError("server takes name value pairs, like server forfeit yes")
    return cmd.ServerSettings(dict(zip(words[::2], words[1::2], strict=True)))


#: a vacation's length as typed: `3d`, `3`, `3 days`, `1 day`
_DAYS = re.compile(r"([0-9]{1,3})(?:d|days?)?")


def _vacation(words: list[str], people: People) -> cmd.ServiceCommand:
    phrase = "".join(words).lower()
    if not phrase:
        return cmd.Vacation()
    if phrase == "end":
        return cmd.Vacation(end=True)
    days = _DAYS.fullmatch(phrase)
    if days is None:
        raise ServiceError("vacation takes a number of days, like vacation 3d, or end")
    return cmd.Vacation(int(days[1]))


def _my_games(words: list[str], people: People) -> cmd.ServiceCommand:
    page = _page(words)
    if words:
        raise ServiceError("write games, or games page 2")
    return cmd.MyGames(page)


def _digest(words: list[str], people: People) -> cmd.ServiceCommand:
    """`digest` (show it), `digest off`, `digest 8 Europe/Berlin` (an hour, a time zone)."""
    if [word.lower() for word in words] == ["off"]:
        return cmd.Digest(off=True)
    if len(words) > 2 or (words and not _is_number(words[0])):
        raise ServiceError("write digest, digest off, or digest HOUR ZONE like "
                           "digest 8 Europe/Berlin")
    return cmd.Digest(_number(words[0]) if words else None,
                      words[1] if len(words) == 2 else None)


def _note(words: list[str], people: People) -> cmd.ServiceCommand:
    """`note TEXT`, or `note #12 TEXT` for another game (the `#` tells a number from text)."""
    game_id = None
    if words and words[0].startswith("#") and _is_number(words[0]):
        game_id = _number(words.pop(0))
    if not words:
        raise ServiceError("write note TEXT, like note E5 blocks his bridge")
    return cmd.Note(" ".join(words), game_id)


def _notes(words: list[str], people: People) -> cmd.ServiceCommand:
    page = _page(words)
    clear = bool(words) and words[-1].lower() == "clear"
    if clear:
        words.pop()
    game_id = _number(words.pop(0)) if words else None
    if words:
        raise ServiceError("write notes, notes #12, notes page 2 or notes clear")
    return cmd.Notes(game_id, page, clear)


def _conditional(words: list[str], people: People) -> cmd.ServiceCommand:
    return conditional(" ".join(words))


#: the tournament commands that take only a tournament's number, if any
_TOURNAMENT_ACTIONS = ("join", "leave", "start", "withdraw", "standings", "info", "next-season")


def _tournament(words: list[str], people: People) -> cmd.ServiceCommand:
    """`tournament create NAME options…`, `tournament list`, `tournament join [N] [with
    PARTNER]`, `tournament ACTION [N]`."""
    action = words.pop(0).lower() if words else ""
    if action == "create":
        name, options = parse_tournament_words(words)
        return cmd.TournamentAction("create", name=name, options=options)
    if action == "list" and not words:
        return cmd.TournamentAction("list")
    partner = None
    if action == "join" and len(words) >= 2 and words[-2].lower() == "with":
        partner = people(words[-1])
        del words[-2:]
    if action not in _TOURNAMENT_ACTIONS or len(words) > 1:
        typo = did_you_mean(action, ("create", "list", *_TOURNAMENT_ACTIONS), before="tournament ")
        raise typo or ServiceError("write tournament create, join, leave, start, withdraw, "
                           "standings, list, info or next-season, then the tournament's "
                           "number if it is not this channel's")
    return cmd.TournamentAction(action, _number(words[0]) if words else None, partner=partner)


_READERS: dict[str, Callable[[list[str], People], cmd.ServiceCommand]] = {
    "export": _export, "history": _history, "replay": _replay, "import": _import,
    "stats": _stats, "leaderboard": _leaderboard, "rematch": _rematch,
    "settings": _settings, "server": _server, "games": _my_games, "note": _note,
    "notes": _notes, "if": _conditional, "conditions": _conditional, "vacation": _vacation,
    "tournament": _tournament, "analyze": _analyze, "help": _help, "digest": _digest}
#: the words that begin a command besides the readers' and the simple ones; the move
#: language's own words among them (`swap`, `resign`) are read by the rules
_VERBS = ("challenge", "team", "accept", "decline", "draw", "move", "takeback")
_MOVE_WORDS = ("swap", "privilege", "resign")
#: words of the move language, which a text may begin with and never be a mistyped command
_MOVE_LANGUAGE = frozenset({"remove", "link", *(word for action in Action
                                                for word in action.value.split())})
#: every word that begins a command, as `help` names them (each has its help, see
#: `command_help.TOPICS`), and as a mistyped word is matched against
COMMAND_WORDS = (*_VERBS, *_MOVE_WORDS, *_SIMPLE, *_READERS)
