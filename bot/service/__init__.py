"""The application service of the bot: challenges, turns, boards and replies, with no Discord.

Front ends build a `Context` (who, where) and call `TwixtService`; they send the `Reply`s back.
"""

from bot.service.model import Button, ButtonKind, Context, Reply, ServiceError, User
from bot.service.options import ChallengeOptions, build_options, parse_option_words
from bot.service.service import ThreadOpener, TwixtService

__all__ = [
    "Button",
    "ButtonKind",
    "ChallengeOptions",
    "Context",
    "Reply",
    "ServiceError",
    "ThreadOpener",
    "TwixtService",
    "User",
    "build_options",
    "parse_option_words",
]
