"""The application service of the bot: challenges, turns, boards and replies, with no Discord.

A front end builds a `Request` (who, where) and a command — from its own input as one of
`bot.service.commands`, or from text through `TwixtService.run` — sends the work through
`answer_safely`, and delivers the `Reply`s it gets back.
"""

from bot.service.model import (
    MAX_PAGE,
    PAGE_SIZE,
    Button,
    ButtonKind,
    Reply,
    Request,
    ServiceError,
    User,
)
from bot.service.options import ChallengeOptions, build_options, parse_option_words
from bot.service.service import APOLOGY, Thinking, ThreadOpener, TwixtService, answer_safely

__all__ = [
    "APOLOGY",
    "MAX_PAGE",
    "PAGE_SIZE",
    "Button",
    "ButtonKind",
    "ChallengeOptions",
    "Reply",
    "Request",
    "ServiceError",
    "Thinking",
    "ThreadOpener",
    "TwixtService",
    "User",
    "answer_safely",
    "build_options",
    "parse_option_words",
]
