"""`help COMMAND`: each command's form, its options with their values, and one example.

One entry per word the router knows (`router.VOCABULARY.topics`: the subjects' words), so
that `help` names every command and `help challenge` says how to write one; where a command
is among the slash commands comes from its listing. What a player types — forms, option
names and values, examples — is the shared command language and stays English in every
language (see docs/translating.md); what a command does is said in the reader's language,
in the words of its slash command's description where it has one.
Every text fits one Discord message (a test measures each, in every language).
"""

from __future__ import annotations

from twixt.language import Markup, Message, Translation, code, message
from twixt.rules import quote
from twixt.service.commands import router
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.words import Topic
from twixt.service.errors import MalformedError

__all__ = ["Topic", "help_for", "overview", "topic_text"]


def overview() -> Message:
    """How to play, the move language, and every command's name."""
    return message("""**TwixT** — connect your two borders with a chain of linked pegs.
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
                   commands=", ".join(router.VOCABULARY.words))


def help_for(topic: str | None, tr: Translation) -> str:
    """`help` (no topic) or `help COMMAND`, in the reader's language; a command that is none
    is refused, naming the one most likely meant."""
    if topic is None:
        return tr.say(overview())
    word = topic.lower()
    if word not in router.VOCABULARY.topics:
        raise (did_you_mean(word, router.VOCABULARY.words)
               or MalformedError("there is no command {word}: help names them all",
                                 word=quote(topic)))
    return topic_text(word, tr)


def topic_text(word: str, tr: Translation) -> str:
    """A command's help in the reader's language: what it does, its form, its options and an
    example (`word` is one of `router.VOCABULARY.topics`)."""
    topic = router.VOCABULARY.topics[word]
    lines = [tr("**{command}** — {says}.", command=word, says=topic.says),
             tr("Write: `{form}`", form=topic.form)]
    if topic.slash:
        lines.append(tr("In Discord: `{slash}`", slash=topic.slash))
    if topic.options:
        lines.append(tr("Options: {options}",
                        options=Markup(" · ".join(code(option) for option in topic.options))))
    lines.append(tr("Example: `{example}`", example=topic.example))
    return "\n".join(lines)
