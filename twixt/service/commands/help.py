"""`help COMMAND`: each command's form, its options with their values, and one example.

One entry per word the router knows (`router.COMMAND_WORDS`; a test keeps the two the same),
so that `help` names every command and `help challenge` says how to write one. What a
player types — forms, option names and values, examples — is the shared command language
and stays English in every language (see docs/translating.md); what a command does is said
in the reader's language, in the words of its slash command's description where it has one.
Every text fits one Discord message (a test measures each, in every language).
"""

from __future__ import annotations

from dataclasses import dataclass

from twixt.engine import LEVELS
from twixt.language import Markup, Message, Translation, code, message
from twixt.rules import quote
from twixt.service.commands.options import SERVER_SETTINGS, SETTINGS
from twixt.service.commands.spelling import did_you_mean
from twixt.service.model import ServiceError
from twixt.storage import FirstMove, TournamentFormat

#: a yes/no option's values as typed, and an on/off setting's
_YES_NO = "yes|no"
_ON_OFF = "on|off"


@dataclass(frozen=True)
class Topic:
    """One command: what it does, how it is typed (at the table or after `@bot`), where it
    is among the slash commands (None: a button does it), its options as `name values`, and
    an example."""

    says: Message
    form: str
    slash: str | None
    example: str
    options: tuple[str, ...] = ()


_GAME_OPTIONS = ("size 24|12|24x18", "rules classic|pp", f"swap {_YES_NO}",
                 "time 3d|12h|10d+36h|none", f"vacation {_YES_NO}")
#: the options a challenge and an import share: who moves first, and a thread of its own
_SEATING_OPTIONS = ("first " + "|".join(FirstMove), f"thread {_YES_NO}")
_CHALLENGE_OPTIONS = (*_GAME_OPTIONS[:3], "handicap ROWS", *_GAME_OPTIONS[3:],
                      *_SEATING_OPTIONS,
                      f"level {min(LEVELS)}-{max(LEVELS)}", f"takebacks {_YES_NO}")
_TOURNAMENT_OPTIONS = ("format " + "|".join(TournamentFormat), "rounds N", "group 4-16",
                  f"double {_YES_NO}", "signup 3d|12h", f"teams {_YES_NO}",
                  *(option for option in _GAME_OPTIONS if not option.startswith("swap")))
_SETTINGS_OPTIONS = tuple(f"{name} " + ("|".join(dict.fromkeys(allowed.values())) if allowed
                                        else _ON_OFF)
                          for name, (_, allowed) in SETTINGS.items())
_SERVER_OPTIONS = tuple(f"{name} " + (unit.upper() if unit else _YES_NO)
                        for name, (_, unit) in SERVER_SETTINGS.items())
_CONDITIONAL = Topic(message("Store private replies to your opponent's next moves"),
                     "if MOVE then REPLY; … | if clear | if", "/twixt if",
                     "if H9 then G6; if J10 then K8")
_TOURNAMENT_ACTIONS = "join|leave|start|withdraw|standings|list|info|next-season"

#: every command word, in the order `help` names them
TOPICS: dict[str, Topic] = {
    "challenge": Topic(message("Challenge someone, or anyone here, to TwixT"),
                       "challenge [PLAYER|bot] [OPTION VALUE …]", "/twixt challenge",
                       "challenge bob size 12 time 3d", _CHALLENGE_OPTIONS),
    "team": Topic(message("Double TwixT: you and a partner against two others"),
                  "team PARTNER vs OPPONENT1 OPPONENT2 [OPTION VALUE …]", "/twixt team",
                  "team carol vs bob dave size 24", _CHALLENGE_OPTIONS),
    "accept": Topic(message("Accept the challenge made to you here"),
                    "accept [CHALLENGE]", "/twixt accept", "accept 12"),
    "decline": Topic(message("Decline a challenge made to you, or withdraw yours"),
                     "decline [CHALLENGE]", "/twixt decline", "decline"),
    "move": Topic(message("Play your turn, like G6 link E5"), "[move] MOVE", "/twixt move",
                  "G6 link E5"),
    "swap": Topic(message("Take over Red's first peg (when swap is on)"), "swap",
                  "/twixt swap", "swap"),
    "privilege": Topic(message("Double TwixT: call Privilege after your move"),
                       "privilege | MOVE; privilege", "/twixt privilege", "G6 link E5; privilege"),
    "resign": Topic(message("Resign this game (asks to confirm)"), "resign | resign yes",
                    "/twixt resign", "resign"),
    "draw": Topic(message("Offer a draw, or accept or decline one"),
                  "draw offer|accept|decline | offer draw", "/twixt draw", "offer draw"),
    "takeback": Topic(message("Ask to take back your last turn, or answer such a request"),
                      "takeback [request|accept|decline]", "/twixt takeback", "takeback"),
    "claim": Topic(message("Claim the win when your opponent's time is up"), "claim",
                   "/twixt claim", "claim"),
    "board": Topic(message("Show the board of this channel's game"), "board", "/twixt board",
                   "board"),
    "status": Topic(message("Players, options and whose turn it is"), "status",
                    "/twixt status", "status"),
    "abort": Topic(message("Call the game off (a channel manager, or all players)"), "abort",
                   "/twixt abort", "abort"),
    "confirm": Topic(message("Play the move you were shown privately (with confirm on)"),
                     "confirm", None, "confirm"),
    "if": _CONDITIONAL,
    "conditions": _CONDITIONAL,
    "rematch": Topic(message("Challenge the players of this channel's last game again"),
                     "rematch [GAME]", "/twixt rematch", "rematch"),
    "games": Topic(message("Your games here, those waiting for your move first"),
                   "games [page N]", "/twixt games", "games page 2"),
    "next": Topic(message("Your most urgent game waiting for your move, in any server or DM"),
                  "next", "/twixt next", "next"),
    "digest": Topic(message("A direct message each day listing the games waiting for you"),
                    "digest [HOUR ZONE | off]", "/twixt-settings digest",
                    "digest 8 Europe/Berlin"),
    "note": Topic(message("Keep a private note on a game"), "note [#GAME] TEXT",
                  "/twixt note", "note E5 blocks his bridge"),
    "notes": Topic(message("Your private notes on a game"), "notes [GAME] [clear] [page N]",
                   "/twixt notes", "notes 12"),
    "export": Topic(message("This channel's game as record files"),
                    "export [transcript|lg|t1]", "/twixt-records export", "export lg"),
    "history": Topic(message("Past games of a player, or of this channel"),
                     "history [PLAYER] [page N]", "/twixt-records history", "history bob"),
    "replay": Topic(message("A game as an animated picture, one frame a turn"),
                    "replay [GAME]", "/twixt-records replay", "replay 12"),
    "analyze": Topic(message("A finished game's win chances, move by move, by the engine"),
                     "analyze [GAME]", "/twixt-records analyze", "analyze 12"),
    "import": Topic(message("Show a game record, and challenge to continue it"),
                    "import FILE [PLAYER] [OPTION VALUE …]", "/twixt-records import",
                    "import game.T1 bob first them", _SEATING_OPTIONS),
    "stats": Topic(message("Wins, losses and rating of a player in this server"),
                   "stats [PLAYER]", "/twixt-records stats", "stats bob"),
    "leaderboard": Topic(message("This server's rated players, best first"),
                         "leaderboard [page N]", "/twixt-records leaderboard", "leaderboard"),
    "settings": Topic(message("Show or change how the bot treats you"),
                      "settings [NAME VALUE …]", "/twixt-settings me",
                      "settings theme dark", _SETTINGS_OPTIONS),
    "server": Topic(message("The server's settings (changed by those with Manage Server)"),
                    "server NAME VALUE …", "/twixt-settings server", "server forfeit yes",
                    _SERVER_OPTIONS),
    "vacation": Topic(message("Vacation: your clocks stop in this server's games for some days"),
                      "vacation [DAYS|end]", "/twixt-settings vacation", "vacation 3d"),
    "tournament": Topic(message("TwixT tournaments and leagues"),
                        f"tournament create NAME OPTION VALUE … | tournament {_TOURNAMENT_ACTIONS} "
                        "[EVENT]", "/twixt-tournament",
                        "tournament create Autumn Cup format swiss rounds 5", _TOURNAMENT_OPTIONS),
    "help": Topic(message("How to play, and the move language"), "help [COMMAND]",
                  "/twixt help", "help challenge"),
}


#: how to play, the move language, and every command's name
HELP = message("""**TwixT** — connect your two borders with a chain of linked pegs.
Red joins top and bottom (rows 1 and last), Black joins left and right (columns A and last).
A turn: optionally remove your own links/pegs (classic), place one peg (not in your
opponent's border rows), then link pegs of yours a knight's move apart. Links never cross
(in **pp** rules your own may). Red moves first; with swap, Black may answer the first peg
with `swap` and take it over.
**Moves:** `G6` · `G6 link E5` · `G6 link E5 F8` · `G6 link E5-D7` (link two older pegs) ·
`G6 link all` · `remove J9-K11; I11 link K10 J13` · `swap` · `resign` ·
`offer draw` / `accept draw` / `decline draw` · Double TwixT: `G6 link E5; privilege`.
**Commands:** {commands}.
`help COMMAND` says more of one, like `help challenge`.
**The bot plays too:** `challenge bot level 3` (levels 1 to 5; in Discord, name the bot).""",
               commands=", ".join(TOPICS))


def help_for(topic: str | None, tr: Translation) -> str:
    """`help` (no topic) or `help COMMAND`, in the reader's language; a command that is none
    is refused, naming the one most likely meant."""
    if topic is None:
        return tr.say(HELP)
    word = topic.lower()
    if word not in TOPICS:
        raise (did_you_mean(word, tuple(TOPICS))
               or ServiceError("there is no command {word}: help names them all",
                               word=quote(topic)))
    return topic_text(word, tr)


def topic_text(word: str, tr: Translation) -> str:
    """A command's help in the reader's language: what it does, its form, its options and an
    example (`word` is one of `TOPICS`)."""
    topic = TOPICS[word]
    lines = [tr("**{command}** — {says}.", command=word, says=topic.says),
             tr("Write: `{form}`", form=topic.form)]
    if topic.slash:
        lines.append(tr("In Discord: `{slash}`", slash=topic.slash))
    if topic.options:
        lines.append(tr("Options: {options}",
                        options=Markup(" · ".join(code(option) for option in topic.options))))
    lines.append(tr("Example: `{example}`", example=topic.example))
    return "\n".join(lines)
