"""The transcript of docs/records.md: tag lines, then one `name: command` line per action."""

from __future__ import annotations

import re

from twixt.rules.errors import RecordError, TwixtError, quote
from twixt.rules.game import Game
from twixt.rules.geometry import MAX_SIZE, parse_size
from twixt.rules.numbers import whole_number

#: a tag line; inside the quotes `\"` is a quote and `\\` a backslash
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_UNESCAPE = re.compile(r"\\(.)")
_YES_NO = {"yes": True, "no": False}
_KNOWN = {"board", "rules", "swap", "players", "handicap"}


def read(text: str) -> Game:
    """Replay a transcript; RecordError names the first bad line."""
    tags: dict[str, tuple[int, str, str]] = {}  # lower-case key: (line, key as written, value)
    game: Game | None = None
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        # a tag's value may hold a # of its own; a comment may follow a tag
        tag = _TAG.match(raw.strip()) or _TAG.match(line)
        if tag:
            if game is not None:
                raise RecordError(number, "tags come before the first move")
            value = _UNESCAPE.sub(r"\1", tag.group(2)).strip()
            tags[tag.group(1).lower()] = (number, tag.group(1), value)
            continue
        if not line:
            continue
        if game is None:
            game = _new_game(tags)
        name, sep, command = line.partition(":")
        if not sep:
            raise RecordError(number, "a move line is written name: command")
        try:
            game.play(command, by=name)
        except TwixtError as error:
            raise RecordError(number, error.message) from None
    return game if game is not None else _new_game(tags)


def _new_game(tags: dict[str, tuple[int, str, str]]) -> Game:
    """A game from the tags; the Board tag is the board as played, after any handicap."""
    values = {key: value for key, (_n, _k, value) in tags.items()}
    line = 0
    try:
        line = tags.get("swap", (0,))[0]
        swap_text = values.get("swap", "").lower()
        if swap_text and swap_text not in _YES_NO:
            raise TwixtError("Swap is yes or no, not {text}", text=quote(swap_text))
        line = tags.get("handicap", (0,))[0]
        handicap_text = values.get("handicap", "0")
        handicap = whole_number(handicap_text)
        if handicap is None:
            raise TwixtError("Handicap is a number of rows, not {text}", text=quote(handicap_text))
        line = tags.get("board", (0,))[0]
        cols, rows = parse_size(values.get("board", "24x24"))
        if rows + handicap > MAX_SIZE:
            # the board before the handicap is the game's (what a continued game is set up
            # with): it must be a board too
            line = tags["handicap"][0]
            raise TwixtError("Handicap {handicap} makes the board before it {rows} rows, more "
                             "than {max}", handicap=handicap, rows=rows + handicap, max=MAX_SIZE)
        line = min((n for n, _k, _v in tags.values()), default=0)
        game = Game([p.strip() for p in values.get("players", "Red, Black").split(",")],
                    size=(cols, rows + handicap), rules=values.get("rules", "classic"),
                    swap=_YES_NO.get(swap_text), handicap=handicap)
    except TwixtError as error:
        raise RecordError(line, error.message) from None
    game.tags = {key: value for lower, (_n, key, value) in tags.items() if lower not in _KNOWN}
    return game


def write(game: Game) -> str:
    """The transcript of a game as it now stands; reading it back gives the same game."""
    opts = game.options
    lines = [
        _tag("Board", f"{opts.cols}x{opts.rows}"),
        _tag("Rules", opts.rules.value),
        _tag("Swap", "yes" if opts.swap else "no"),
        _tag("Players", ", ".join(opts.players)),
    ]
    if opts.handicap:
        lines.append(_tag("Handicap", str(opts.handicap)))
    lines.extend(_tag(key, value) for key, value in game.tags.items())
    lines.extend(f"{turn.player}: {turn.text}" for turn in game.history)
    return "\n".join(lines) + "\n"


def _tag(key: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'
