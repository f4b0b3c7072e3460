"""The words the service speaks in: who asks, where, and what to answer.

No Discord types: the front ends translate these to messages, embeds and buttons.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar, cast

from twixt.language import Markup, Translation, translation, unmarked
from twixt.service.errors import MalformedError, NotAllowedError, ServiceError
from twixt.service.names import clean_name, person_name

#: the server id of a game whose home is a direct message or a group DM (the app installed
#: to a player's account): no server's lists, leaderboards or tournaments show it, and it is
#: rated for nobody
NO_SERVER = 0

#: one page of a listing (history, leaderboard), and the last page anyone may ask for
PAGE_SIZE = 10
MAX_PAGE = 1000


def check_page(page: int) -> None:
    """Pages are 1 to `MAX_PAGE`: a listing never reads more than that many pages of rows."""
    if not 1 <= page <= MAX_PAGE:
        raise MalformedError("pages go from 1 to {last}", last=MAX_PAGE)


_Frozen = TypeVar("_Frozen")
_Fields = ParamSpec("_Fields")


def renewed(value: _Frozen, **changes: object) -> _Frozen:
    """`dataclasses.replace` of a frozen dataclass that has no `__post_init__`, for the values
    a move makes again and again (the stored game its turn wrote, a seat's request, a view
    for each seat): its fields copied as they are, `changes` (names of its fields) over them,
    without `replace`'s look at every field and its `__init__`."""
    made = object.__new__(type(value))
    made.__dict__.update(value.__dict__, **changes)
    return made


def made_whole(kind: Callable[_Fields, _Frozen], /, *no: _Fields.args,
               **fields: _Fields.kwargs) -> _Frozen:
    """A frozen dataclass that has no `__post_init__`, made of every one of its fields (by
    name, type-checked as its own `__init__`'s) as `renewed` copies one: straight into its
    dict, for a value a move makes anew each time (a game's view, whose frozen `__init__`
    sets each of its two dozen fields through `object.__setattr__`). TypeError when a field
    is missing, or is none of its."""
    if no or fields.keys() != kind.__dataclass_fields__.keys():  # type: ignore[attr-defined]
        raise TypeError(f"{kind} is made of all of its fields, by name, and only those")
    value: _Frozen = object.__new__(cast(type, kind))
    value.__dict__.update(fields)
    return value


@dataclass(frozen=True)
class User:
    """A person by id, with the name to show (cleaned of what records or chat would misread,
    so that no name can format or ping anything). The bot's seats have ids below 1
    (`engine_seats`); a person's name never reads as theirs (`person_name`)."""

    id: int
    name: str

    def __post_init__(self) -> None:
        shown = person_name(self.name) if self.id > 0 else clean_name(self.name)
        object.__setattr__(self, "name", shown)


@dataclass(frozen=True)
class Request:
    """Who asks, and where. `can_manage` is true for a channel manager (may abort any game
    here); `can_manage_server` for someone who manages the whole server (its settings)."""

    guild_id: int
    channel_id: int
    user: User
    can_manage: bool = False
    can_manage_server: bool = False
    #: the language of the answer (`language.LOCALES`): the asker's, as their front end knows it
    locale: str = "en"
    #: the front end can answer the asker alone (a slash command, the terminal); a reply to
    #: a chat message is seen by everyone in the channel
    private_replies: bool = True
    #: the game in progress whose home this request was made in, as read when it was made
    #: (`TwixtService.seat_request`): a control of that game's need not look for its home
    #: again, and a turn is played only while it is still the channel's game
    home_of: int | None = None
    #: the live version `home_of` had when the request was made, as read then (None: not
    #: read): a turn played at once after (a page's move) is checked against the game as this
    #: process wrote it at that version, without reading its version again; the write's own
    #: check of the version refuses it if a turn or an end came since (`Desk.commit`)
    home_at: int | None = None

    @property
    def tr(self) -> Translation:
        """Says the service's texts in the asker's language."""
        return translation(self.locale)


def require_private(request: Request, instead: str) -> None:
    """Refuse an answer meant for the asker alone where every reply is public (a chat
    message), pointing to the slash command to use `instead` (as in `/twixt notes`)."""
    if not request.private_replies:
        raise NotAllowedError("only you may see this, and a reply here is public: use "
                              "`{command}`", command=instead)


class ButtonKind(enum.Enum):
    """What a button does; `target` of the button is a challenge id or a game id (or, for
    Confirm, the id of the move waiting for confirmation)."""

    ACCEPT_CHALLENGE = "accept"
    DECLINE_CHALLENGE = "decline"
    SWAP = "swap"
    PRIVILEGE = "privilege"
    CONFIRM_RESIGN = "resign"
    ACCEPT_DRAW = "draw-accept"
    DECLINE_DRAW = "draw-decline"
    CLAIM = "claim"
    ACCEPT_TAKEBACK = "takeback-accept"
    DECLINE_TAKEBACK = "takeback-decline"
    REMATCH = "rematch"
    CONFIRM_MOVE = "move-confirm"
    #: sign up for a tournament (the target is the tournament's id)
    JOIN_TOURNAMENT = "event-join"
    #: offer a draw (the target is the game)
    OFFER_DRAW = "draw-offer"
    #: resign, after a confirmation (the target is the game)
    RESIGN = "resign-ask"
    #: the asker's most urgent game (`next`; the target is the game not to show, or 0)
    NEXT_GAME = "next"


@dataclass(frozen=True)
class Control:
    """One thing a person may do in a game now (`GameView.controls`), as its command declares
    it (`commands.Offered`): its name, which `commands.of_control` takes back, its label in
    their language, and whether they write text for it (a turn, a note)."""

    name: str
    label: str
    takes_text: bool = False
    #: a line of the move language the control takes, shown in its empty field ("": none)
    example: str = ""


class PickStep(enum.Enum):
    """A step of the move picker: choose a column, then a row, then (classic rules) which
    links, then place the peg."""

    COLUMN = "col"
    ROW = "row"
    LINKS = "links"
    PLACE = "place"


@dataclass(frozen=True)
class Picker:
    """The move picker under a board (or in the answer to its last step): the game and the
    version of its log it was drawn for — a press on a picker of an older version is refused —
    the step, what is chosen so far (`chosen`: a column like `G`, a peg like `G6`, a command
    like `G6 link E5`) and the choices of this step (column letters, row numbers, link
    targets). Only the player to move may use it: the service checks every step."""

    game_id: int
    version: int
    step: PickStep
    chosen: str = ""
    choices: tuple[str, ...] = ()
    #: the label of the step's control (a select's placeholder, the Place button's text)
    label: str = ""


@dataclass(frozen=True)
class Button:
    """A button under a reply. `only_users` may press it (empty: anyone may)."""

    kind: ButtonKind
    target: int
    label: str
    only_users: tuple[int, ...] = ()


@dataclass(frozen=True)
class Attachment:
    """A file sent with a reply (a record, an animated replay), or given with a command (an
    option of the kind `listing.Kind.FILE`: a record to import)."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Receipt:
    """Which claimed reminder a reply delivers: the front end hands it back to
    `Clocks.delivered` once the message went out, or it is sent again later."""

    game_id: int
    version: int
    stage: str


@dataclass(frozen=True)
class Reply:
    """One message out. `mentions` are the only users it may ping; `ephemeral` replies are seen
    by the asker alone (errors, confirmations). `channel_id` None means where the request came
    from; `dm_user_id` sends it as a direct message instead. `image` is a PNG, shown as the
    board (`board.png`); `attachments` are further files."""

    text: str
    image: bytes | None = None
    mentions: tuple[int, ...] = ()
    buttons: tuple[Button, ...] = ()
    ephemeral: bool = False
    channel_id: int | None = None
    dm_user_id: int | None = None
    attachments: tuple[Attachment, ...] = ()
    followups: tuple[Reply, ...] = field(default=())
    #: the service said no, and the kind of why (`MissingError`, …; the text says it in
    #: words): a front end maps the kind, never reads the text; None when it did what was
    #: asked. Nothing was changed by a refusal.
    refused: type[ServiceError] | None = None
    #: a reminder to confirm once delivered (see `Receipt`)
    receipt: Receipt | None = None
    #: the move picker's controls under the board, when a person is to move (or the next
    #: step's, in the answer to one)
    pickers: tuple[Picker, ...] = ()
    #: `channel_id` is a game's home in a direct message or group DM (`NO_SERVER`), where
    #: the app may not post: a front end answers there only through an interaction, and
    #: otherwise tells `dm_user_id` or `mentions` in their own direct messages
    private_home: bool = False

    def __post_init__(self) -> None:
        # the bot's seats have ids below 1 (`engine_seats`): nobody to ping
        if any(uid < 1 for uid in self.mentions):
            object.__setattr__(self, "mentions", tuple(uid for uid in self.mentions if uid > 0))
        # nor anyone to offer a button that only they may press (Privilege under the bot's
        # own move, Swap when the bot answers): the bot decides those by itself
        people = tuple(button for button in self.buttons if not button.only_users
                       or any(uid > 0 for uid in button.only_users))
        if people != self.buttons:
            object.__setattr__(self, "buttons", people)

    @property
    def plain(self) -> str:
        """The text as a place that reads no markup shows it (the terminal): what users typed
        as they typed it, without the marks that tell it from the template's formatting."""
        return unmarked(self.text)

    def all_messages(self) -> tuple[Reply, ...]:
        """This message and its followups, theirs too (a standings notice of several
        messages that follows a reply)."""
        return (self, *(message for reply in self.followups for message in reply.all_messages()))


def channel_link(channel_id: int) -> Markup:
    """A channel (or thread) named in a reply's text: `<#id>`, which Discord shows as a link
    that pings nobody; other front ends write it their own way (`CHANNEL_LINK` finds it)."""
    return Markup(f"<#{channel_id}>")


CHANNEL_LINK = re.compile(r"<#(\d+)>")
