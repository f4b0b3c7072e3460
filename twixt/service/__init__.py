"""The application service of the bot: challenges, turns, boards and replies, with no Discord.

A front end is given one `TwixtService` by the process's composition root, or opens one with
its `Port` (threads, posting, a server's language, the sign of thinking, its shards) through
the `OpenService` the root hands it, and then calls only the service's public methods: it
builds a `Request` (who, where) and a command — from its own input as one of
`twixt.service.commands` (a button: `commands.of_button`), or from text through
`twixt.service.commands.router` — hands both to `TwixtService.answer`, and delivers the
`Reply` it gets back. A refused reply carries the kind of refusal (`Reply.refused`, one of
`REFUSAL_KINDS`, each a `ServiceError`), which a front end maps (to a status code, say)
without reading the words. A front end that shows a game asks for its view (`game_view`) and
acts through its controls (`commands.of_control`). What a front end needs besides (the limits
its options keep to, the engine player to name, the words of a game's analysis and result for
the command line) is offered here too, so that no front end reaches into the service's modules
(`tests/test_front_ends.py` holds them to that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twixt.rules import later
from twixt.service.desk.desk import utc_now
from twixt.service.desk.engine_pool import ENGINE_CORE, EnginePool
from twixt.service.desk.engine_seats import THE_ENGINE_PLAYER
from twixt.service.errors import (
    REFUSAL_KINDS,
    BusyError,
    ConflictError,
    FaultError,
    LimitError,
    MalformedError,
    MissingError,
    NotAllowedError,
    NotYourTurnError,
    ServiceError,
)
from twixt.service.model import (
    CHANNEL_LINK,
    MAX_PAGE,
    NO_SERVER,
    PAGE_SIZE,
    Attachment,
    Button,
    ButtonKind,
    Control,
    Picker,
    PickStep,
    Receipt,
    User,
)
from twixt.service.names import MAX_NAME
from twixt.service.port import Port, Thinking, ThreadOpener, alongside
from twixt.service.service import APOLOGY, OpenService, Reply, Request, TwixtService, refusal
from twixt.service.texts import result_sentence

if TYPE_CHECKING:  # imported when first asked for (`__getattr__`)
    from twixt.service.cases.analysis import curve_of, swing_lines
    from twixt.service.cases.clocks import LONGEST_SLEEP
    from twixt.service.cases.game_view import GameView, SeatView
    from twixt.service.cases.my_games import PlayerGame
    from twixt.service.cases.records import MAX_IMPORT_BYTES
    from twixt.service.commands.options import (
        ChallengeOptions,
        build_options,
        parse_option_words,
    )
    from twixt.service.commands.tournament_options import (
        MAX_ROUNDS,
        build_tournament_options,
        tournament_name,
    )
    from twixt.service.commands.your_games import MAX_NOTE

#: the names offered here from a use case or a subject's commands, each imported when first
#: asked for, so that a front end that imports the service does not wait for every subject
#: (the use cases are built when first needed: `TwixtService`)
_LATER = {
    "curve_of": "cases.analysis", "swing_lines": "cases.analysis",
    "LONGEST_SLEEP": "cases.clocks", "GameView": "cases.game_view",
    "SeatView": "cases.game_view", "PlayerGame": "cases.my_games",
    "MAX_IMPORT_BYTES": "cases.records", "ChallengeOptions": "commands.options",
    "build_options": "commands.options", "parse_option_words": "commands.options",
    "MAX_ROUNDS": "commands.tournament_options",
    "build_tournament_options": "commands.tournament_options",
    "tournament_name": "commands.tournament_options", "MAX_NOTE": "commands.your_games",
}

__all__ = [
    "APOLOGY",
    "CHANNEL_LINK",
    "ENGINE_CORE",
    "LONGEST_SLEEP",
    "MAX_IMPORT_BYTES",
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_PAGE",
    "MAX_ROUNDS",
    "NO_SERVER",
    "PAGE_SIZE",
    "REFUSAL_KINDS",
    "THE_ENGINE_PLAYER",
    "Attachment",
    "BusyError",
    "Button",
    "ButtonKind",
    "ChallengeOptions",
    "ConflictError",
    "Control",
    "EnginePool",
    "FaultError",
    "GameView",
    "LimitError",
    "MalformedError",
    "MissingError",
    "NotAllowedError",
    "NotYourTurnError",
    "OpenService",
    "PickStep",
    "Picker",
    "PlayerGame",
    "Port",
    "Receipt",
    "Reply",
    "Request",
    "SeatView",
    "ServiceError",
    "Thinking",
    "ThreadOpener",
    "TwixtService",
    "User",
    "alongside",
    "build_options",
    "build_tournament_options",
    "curve_of",
    "parse_option_words",
    "refusal",
    "result_sentence",
    "swing_lines",
    "tournament_name",
    "utc_now",
]

if not TYPE_CHECKING:  # to the type checker, the names are imported above
    __getattr__ = later.importer(__name__, _LATER)
